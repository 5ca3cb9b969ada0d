/**
 * Model-based test of the administrator's decision on one review item: paths generated from the
 * admin-review machine's graph drive the REAL ReviewDecisionForm through Testing Library, once for
 * a document (five decisions) and once for an identity job (approve, reject). The call (decide) is
 * a test double answered by the paths' `xstate.done.actor.*` / `xstate.error.actor.*` events. Every
 * chart transition is taken by the two kinds' paths together (checked); a decision of the other
 * kind is ignored; a last test decides with the keyboard only and runs axe on every step.
 */
import { validationMessage, validationMessages } from '../../src/lib/validation-messages.ts';
import { expectNoAxeViolations } from '../ui/axe.ts';
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import type { ValidationError } from '../../api/envelope.ts';
import {
  DECISIONS_OF,
  DECISIONS_WITH_REASON,
  adminReviewMachine,
  type AdminDecision,
  type AdminReviewEvent,
  type AdminReviewInput,
  type DecideRequest,
  type DecideResult,
  type ReviewTarget,
} from '../../machines/admin-review/admin-review.machine.ts';
import { ReviewDecisionForm } from '../../src/features/admin/review-decision.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { LiveQueue } from './live-queue.ts';

type Snap = SnapshotFrom<typeof adminReviewMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = AdminReviewEvent | SystemEvent;

const DOCUMENT: ReviewTarget = { kind: 'document', documentId: 41 };
const JOB: ReviewTarget = { kind: 'identityJob', workflowRunId: '0f8fad5b-d9cb-469f-a165-70867728950e' };
const RECOVERY: ReviewTarget = { kind: 'recoveryTask', taskId: '6f1c2a4e-5b7d-4e8f-9a0b-1c2d3e4f5a6b' };
const SUBJECTS = { document: 'Passport of Uma Unverified', identityJob: 'Video identity of Uma Unverified', recoveryTask: 'Account recovery of boris@demo.test' } as const;
const REASON = 'The photo is blurred';
const NAMES = {
  confirm: 'Confirm the document',
  reject: 'Reject it',
  nameMismatch: 'Name does not match',
  expire: 'Mark it expired',
  investigate: 'Put it under investigation',
  approve: 'Approve it',
  rejectFinal: 'Reject it, no new request',
} as const;

/** Typed so a new event fails compilation until it has cases here. */
const userEvents = {
  'DECISION.CHOOSE': [
    { type: 'DECISION.CHOOSE', decision: 'confirm' },
    { type: 'DECISION.CHOOSE', decision: 'reject' },
    { type: 'DECISION.CHOOSE', decision: 'approve' },
    { type: 'DECISION.CHOOSE', decision: 'rejectFinal' },
  ],
  'REASON.SUBMIT': [
    { type: 'REASON.SUBMIT', reason: '   ' },
    { type: 'REASON.SUBMIT', reason: 'x'.repeat(501) },
    { type: 'REASON.SUBMIT', reason: REASON },
  ],
  SUBMIT: [{ type: 'SUBMIT' }],
  BACK: [{ type: 'BACK' }],
  RETRY: [{ type: 'RETRY' }],
  CANCEL: [{ type: 'CANCEL' }],
} satisfies { [K in AdminReviewEvent['type']]: Extract<AdminReviewEvent, { type: K }>[] };

const answers: SystemEvent[] = [
  { type: 'xstate.done.actor.decide', output: { ok: true, customerVerified: true } satisfies DecideResult },
  { type: 'xstate.done.actor.decide', output: { ok: false, code: 'fields', errors: [{ param: 'reason', description: 'is required to reject' }] } satisfies DecideResult },
  { type: 'xstate.done.actor.decide', output: { ok: false, code: 'fields', errors: [{ param: 'documentId', description: 'is decided already' }] } satisfies DecideResult },
  { type: 'xstate.done.actor.decide', output: { ok: false, code: 'refused', detail: 'Administrators only' } satisfies DecideResult },
  { type: 'xstate.done.actor.decide', output: { ok: false, code: 'network' } satisfies DecideResult },
  { type: 'xstate.error.actor.decide', error: new Error('boom') },
];

/**
 * The events of a snapshot. To keep the graph small, a refused reason is typed only while the
 * reason step shows no error, and the platform's answers come only on the first decision; every
 * chart transition is still taken (checked below).
 */
function eventsFor(s: Snap): ModelEvent[] {
  const all: ModelEvent[] = [...userEvents.SUBMIT, ...userEvents.BACK, ...userEvents.RETRY, ...userEvents.CANCEL];
  // A decision once: coming back to the choice ends with CANCEL (the choice's transitions are taken from the start).
  if (s.context.decision === null) all.push(...userEvents['DECISION.CHOOSE']);
  all.push(...userEvents['REASON.SUBMIT'].filter((e) => e.reason === REASON || s.context.reasonError === null));
  // Every answer for a document's rejection (its reason can be refused); a job's rejection: success,
  // the reason refused, a refusal (e.g. TA1: the link lapsed); success and no answer otherwise.
  if (s.children.decide) {
    if (s.context.decision !== 'reject' || s.context.target.kind === 'recoveryTask') all.push(answers[0]!, answers[4]!);
    else all.push(...(s.context.target.kind === 'document' ? answers : [answers[0]!, answers[1]!, answers[3]!]));
  }
  return all.filter((e) => s.can(e as AdminReviewEvent));
}

/** Only what the checks read: snapshots that serialize alike must look alike. */
const serialize = (s: Snap) =>
  JSON.stringify({
    value: s.value,
    decision: s.context.decision,
    reason: s.context.reason.length > 50 ? 'long' : s.context.reason,
    reasonError: s.context.reasonError?.code ?? null,
    failure: s.context.failure ? [s.context.failure.code, 'detail' in s.context.failure ? s.context.failure.detail : null] : null,
  });

const modelOf = (input: AdminReviewInput) =>
  new TestModel(adminReviewMachine, {
    input,
    events: (s) => eventsFor(s as Snap) as never,
    serializeState: (s) => serialize(s as Snap),
    stateMatcher: (s, key) => matchesPath(s as Snap, key),
  });

/** The decisions offered per kind and those the customer must be told the reason of (document 1 §6), written out here. */
const OFFERED: Record<ReviewTarget['kind'], readonly AdminDecision[]> = {
  document: ['confirm', 'reject', 'nameMismatch', 'expire', 'investigate'],
  identityJob: ['approve', 'reject'],
  recoveryTask: ['approve', 'reject', 'rejectFinal'],
};
const WITH_REASON: readonly AdminDecision[] = ['reject', 'nameMismatch', 'rejectFinal'];

/** What the test did, kept apart from the chart's context: the page is expected from it. */
interface Did {
  last: ModelEvent | null;
  decision: AdminDecision | null;
  /** the reason as sent (trimmed) once accepted, as typed while refused */
  reason: string;
  reasonError: { code: 'required' } | { code: 'tooLong' } | { code: 'platform'; error: ValidationError } | null;
  failure: { code: 'network' } | { code: 'refused'; detail: string | null; errors?: ValidationError[] } | null;
}

/** What each event calls for, worked out here rather than read from the chart. */
function record(h: { did: Did; target: ReviewTarget }, event: ModelEvent): void {
  const did = h.did;
  did.last = event;
  const output = (event as SystemEvent).output as DecideResult | undefined;
  switch (event.type) {
    case 'DECISION.CHOOSE': {
      const decision = (event as Extract<AdminReviewEvent, { type: 'DECISION.CHOOSE' }>).decision;
      if (OFFERED[h.target.kind].includes(decision)) Object.assign(did, { decision, reasonError: null, failure: null });
      return;
    }
    case 'REASON.SUBMIT': {
      const reason = (event as Extract<AdminReviewEvent, { type: 'REASON.SUBMIT' }>).reason;
      const trimmed = reason.trim();
      if (trimmed === '') Object.assign(did, { reason, reasonError: { code: 'required' } });
      else if (trimmed.length > 500) Object.assign(did, { reason, reasonError: { code: 'tooLong' } });
      else Object.assign(did, { reason: trimmed, reasonError: null });
      return;
    }
    case 'SUBMIT':
    case 'RETRY':
      did.failure = null;
      return;
    case 'xstate.done.actor.decide':
      if (!output || output.ok) return;
      if (output.code === 'fields') {
        const onReason = output.errors.find((e) => e.param === 'reason');
        if (onReason) did.reasonError = { code: 'platform', error: onReason };
        else did.failure = { code: 'refused', detail: null, errors: output.errors };
      } else did.failure = output.code === 'network' ? { code: 'network' } : { code: 'refused', detail: output.detail };
      return;
    case 'xstate.error.actor.decide':
      did.failure = { code: 'network' };
      return;
  }
}

function mount(target: ReviewTarget = DOCUMENT) {
  const decide = new LiveQueue<DecideRequest, DecideResult>();
  const logic = adminReviewMachine.provide({ actors: { decide: fromPromise(({ input: i, signal }) => decide.next(i, signal)) } });
  const actor = createActor(logic, { input: { target } }).start();
  const user = userEvent.setup({ delay: null });
  const subject = SUBJECTS[target.kind];
  const view = render(
    <I18nProvider i18n={i18n}>
      <ReviewDecisionForm actor={actor} subject={subject} />
    </I18nProvider>,
  );
  const did: Did = { last: null, decision: null, reason: '', reasonError: null, failure: null };
  return { decide, actor, user, container: view.container, target, subject, did };
}
type Harness = ReturnType<typeof mount>;

const button = (name: string | RegExp) => screen.getByRole('button', { name });
const heading = () => screen.getByRole('heading', { level: 2 });
const reasonField = () => screen.getByLabelText('Reason shown to the customer') as HTMLTextAreaElement;

function stateChecks(h: Harness) {
  const SUBJECT = h.subject;
  /** the check step, its decision and the reason repeated when the decision has one */
  const needsReason = () => h.did.decision !== null && WITH_REASON.includes(h.did.decision);
  const checkStep = async () => {
    await waitFor(() => expect(heading().textContent).toBe(`Check the decision: ${SUBJECT}`));
    expect(screen.getByText(NAMES[h.did.decision!])).toBeTruthy();
    if (needsReason()) expect(screen.getByText(h.did.reason)).toBeTruthy();
    else expect(screen.queryByText('Reason shown to the customer')).toBeNull();
  };
  return {
    choosing: async (s: Snap) => {
      await waitFor(() => expect(heading().textContent).toBe(`Decide: ${SUBJECT}`));
      expect(document.activeElement).toBe(heading());
      // only the decisions of the target's kind
      expect(screen.getAllByRole('radio').map((r) => r.closest('label')!.textContent!.trim())).toEqual(
        h.target.kind === 'document'
          ? [NAMES.confirm, NAMES.reject, NAMES.nameMismatch, NAMES.expire, NAMES.investigate]
          : h.target.kind === 'recoveryTask'
            ? [NAMES.approve, NAMES.reject, NAMES.rejectFinal]
            : [NAMES.approve, NAMES.reject],
      );
      // coming back keeps the decision chosen
      if (h.did.decision) expect((screen.getByLabelText(NAMES[h.did.decision]) as HTMLInputElement).checked).toBe(true);
      expect(screen.queryByRole('alert')).toBeNull();
      expectOffered<AdminReviewEvent>(s, [{ type: 'DECISION.CHOOSE', decision: OFFERED[h.target.kind][0]! }, { type: 'CANCEL' }]);
      // a decision offered here leaves the choice
      const last = h.did.last as { type: string; decision?: AdminDecision } | null;
      expect(last?.type === 'DECISION.CHOOSE' && OFFERED[h.target.kind].includes(last.decision!)).toBe(false);
    },
    reasoning: async (s: Snap) => {
      await waitFor(() => expect(heading().textContent).toBe(`Reason: ${SUBJECT}`));
      expect(needsReason()).toBe(true);
      const field = reasonField();
      const e = h.did.reasonError;
      const expected = !e ? null : e.code === 'required' ? 'Give the reason: the customer reads it.' : e.code === 'tooLong' ? 'At most 500 characters.' : validationMessage(e.error);
      if (expected) {
        expect(field.getAttribute('aria-invalid')).toBe('true');
        const describedBy = field.getAttribute('aria-describedby')!.split(' ');
        expect(describedBy.map((id) => document.getElementById(id)?.textContent)).toContain(expected);
      } else expect(field.getAttribute('aria-invalid')).toBeNull();
      expect(button('Back')).toBeTruthy();
      expectOffered<AdminReviewEvent>(s, [{ type: 'REASON.SUBMIT', reason: REASON }, { type: 'BACK' }, { type: 'CANCEL' }]);
      expect(h.did.last).not.toEqual({ type: 'REASON.SUBMIT', reason: REASON });
    },
    confirming: async (s: Snap) => {
      await checkStep();
      expect(button('Record the decision').getAttribute('aria-busy')).toBeNull();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(h.decide.waiting).toBe(0);
      expectOffered<AdminReviewEvent>(s, [{ type: 'SUBMIT' }, { type: 'BACK' }, { type: 'CANCEL' }]);
      expect(h.did.last?.type).not.toBe('SUBMIT');
    },
    deciding: async () => {
      await waitFor(() => expect(button('Record the decision').getAttribute('aria-busy')).toBe('true'));
      await checkStep();
      expect(h.decide.waiting).toBe(1);
      expect(h.decide.calls.at(-1)).toEqual({ target: h.target, decision: h.did.decision, reason: needsReason() ? REASON : null });
      // no way out while the platform may be recording it
      expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    },
    failed: async (s: Snap) => {
      const alert = await screen.findByRole('alert');
      await checkStep();
      expect(within(alert).getByText('The decision was not recorded')).toBeTruthy();
      const f = h.did.failure!;
      // the view words each VF error by its code (these doubles have none: their description)
      const text = f.code === 'network' ? 'The connection failed. Try again.' : f.errors?.length ? validationMessages(f.errors) : f.detail!;
      expect(within(alert).getByText(text)).toBeTruthy();
      expect(document.activeElement).toBe(within(alert).getByRole('button', { name: 'Try again' }));
      expect(screen.queryByRole('button', { name: 'Record the decision' })).toBeNull();
      expectOffered<AdminReviewEvent>(s, [{ type: 'RETRY' }, { type: 'BACK' }, { type: 'CANCEL' }]);
      expect(h.did.last?.type).not.toBe('RETRY');
    },
    done: async (s: Snap) => {
      expect(await screen.findByText('The decision was recorded')).toBeTruthy();
      expect(screen.getByText('The customer is verified now.')).toBeTruthy();
      expect((h.did.last as SystemEvent).output).toEqual({ ok: true, customerVerified: true });
      expect(s.status).toBe('done');
    },
    canceled: async (s: Snap) => {
      expect(await screen.findByText('No decision was made.')).toBeTruthy();
      expect(h.decide.waiting).toBe(0);
      expect(h.did.last?.type).toBe('CANCEL');
      expect(s.status).toBe('done');
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const press = (name: string) => async ({ event }: { event: ModelEvent }) => {
    record(h, event);
    await h.user.click(button(name));
  };
  const answer = async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    record(h, e);
    await act(async () => {
      if (e.type.startsWith('xstate.error')) h.decide.fail(e.error);
      else h.decide.answer(e.output as DecideResult);
    });
  };
  return {
    'DECISION.CHOOSE': async ({ event }: { event: ModelEvent }) => {
      const decision = (event as Extract<AdminReviewEvent, { type: 'DECISION.CHOOSE' }>).decision;
      record(h, event);
      await h.user.click(screen.getByLabelText(NAMES[decision]));
      await h.user.click(button('Continue'));
    },
    'REASON.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const reason = (event as Extract<AdminReviewEvent, { type: 'REASON.SUBMIT' }>).reason;
      record(h, event);
      fireEvent.change(reasonField(), { target: { value: reason } });
      await h.user.click(button('Continue'));
    },
    SUBMIT: press('Record the decision'),
    BACK: press('Back'),
    RETRY: press('Try again'),
    CANCEL: press('Cancel'),
    'xstate.done.actor.decide': answer,
    'xstate.error.actor.decide': answer,
  };
}

const sequences: { input: AdminReviewInput; events: ModelEvent[] }[] = [];

describe.each([
  ['a document', DOCUMENT],
  ['an identity job', JOB],
  ['an account recovery', RECOVERY],
] as const)('admin review model: %s', (_, target) => {
  const paths = edgeCoveringPaths(modelOf({ target }), (s) => serialize(s as Snap));
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push({ input: { target }, events });
    const last = path.steps.at(-1)?.state as Snap | undefined;
    const label = events
      .map((e) => {
        const short = e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.');
        if ('decision' in e) return `${short}(${e.decision})`;
        if ('reason' in e) return `${short}(${e.reason.trim() === '' ? 'empty' : e.reason.length > 500 ? 'long' : 'ok'})`;
        const out = (e as SystemEvent).output as DecideResult | undefined;
        if (out) return `${short}(${out.ok ? 'ok' : out.code})`;
        return short;
      })
      .join(' → ');
    it(`#${i} ${label || 'initial'} ⇒ ${JSON.stringify(last?.value)}`, async () => {
      const h = mount(target);
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
      h.actor.stop();
    });
  });
});

describe('admin review model: the chart', () => {
  it('is named adminReview (the inspector and the audit pack show it by that id)', () => {
    expect(adminReviewMachine.id).toBe('adminReview');
  });

  it('every state of the chart is reached by some path', () => {
    const paths = [DOCUMENT, JOB, RECOVERY].flatMap((target) => edgeCoveringPaths(modelOf({ target }), (s) => serialize(s as Snap)));
    expect(unreachedStates(adminReviewMachine, paths)).toEqual([]);
  });

  it('offers the decisions and asks the reasons the spec names', () => {
    for (const kind of ['document', 'identityJob', 'recoveryTask'] as const) expect(DECISIONS_OF[kind]).toEqual(OFFERED[kind]);
    expect([...DECISIONS_WITH_REASON].sort()).toEqual([...WITH_REASON].sort());
  });
});

describe('admin review model: coverage and kinds', () => {
  it('every transition of the chart is taken by some path of the two kinds', () => {
    const taken = new Set<string>();
    for (const target of [DOCUMENT, JOB, RECOVERY]) {
      const of = sequences.filter((q) => q.input.target === target).map((q) => q.events);
      for (const key of transitionsTaken(adminReviewMachine, { target }, of as never)) taken.add(key);
    }
    const missing = listTransitions(adminReviewMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });

  it("a decision of the other kind is ignored: a job is not confirmed, a document not approved", () => {
    for (const [target, decision] of [
      [JOB, 'confirm'],
      [JOB, 'nameMismatch'],
      [DOCUMENT, 'approve'],
      [DOCUMENT, 'rejectFinal'],
      [RECOVERY, 'confirm'],
    ] as const) {
      const actor = createActor(adminReviewMachine, { input: { target } }).start();
      actor.send({ type: 'DECISION.CHOOSE', decision });
      expect(actor.getSnapshot().value, `${target.kind} ${decision}`).toBe('choosing');
      expect(actor.getSnapshot().context.decision).toBeNull();
      actor.stop();
    }
  });
});

describe('admin review form: keyboard and axe', () => {
  // user-event walks a radio group with CSS.escape, which jsdom lacks.
  globalThis.CSS ??= { escape: (v: string) => v.replace(/[^\w-]/g, (c) => `\\${c}`) } as unknown as typeof CSS;

  it('rejects with a reason using the keyboard only, without axe violations', async () => {
    const h = mount();
    const SUBJECT = h.subject;
    await expectNoAxeViolations('choosing', h.container);
    await h.user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText(NAMES.confirm));
    await h.user.keyboard('{ArrowDown}');
    expect((screen.getByLabelText(NAMES.reject) as HTMLInputElement).checked).toBe(true);
    await h.user.tab();
    expect(document.activeElement).toBe(button('Continue'));
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect(heading().textContent).toBe(`Reason: ${SUBJECT}`));
    expect(document.activeElement).toBe(heading());
    await expectNoAxeViolations('reasoning', h.container);
    await h.user.tab();
    expect(document.activeElement).toBe(reasonField());
    await h.user.keyboard('{Enter}');
    // an empty reason: the error on the field
    await h.user.tab();
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect(reasonField().getAttribute('aria-invalid')).toBe('true'));
    await expectNoAxeViolations('reason refused', h.container);
    reasonField().focus();
    await h.user.keyboard(REASON);
    await h.user.tab();
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect(heading().textContent).toBe(`Check the decision: ${SUBJECT}`));
    await expectNoAxeViolations('confirming', h.container);
    await h.user.tab();
    expect(document.activeElement).toBe(button('Record the decision'));
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect(h.decide.waiting).toBe(1));
    expect(h.decide.calls[0]!.reason?.startsWith(REASON)).toBe(true);
    await act(async () => h.decide.answer({ ok: false, code: 'network' }));
    await waitFor(() => expect(document.activeElement).toBe(button('Try again')));
    await expectNoAxeViolations('failed', h.container);
    await h.user.keyboard('{Enter}');
    await act(async () => h.decide.answer({ ok: true, customerVerified: false }));
    expect(await screen.findByText('The decision was recorded')).toBeTruthy();
    await expectNoAxeViolations('done', h.container);
    h.actor.stop();
  });
});
