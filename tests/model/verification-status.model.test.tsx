/**
 * Model-based test of the verification status: paths generated from the verification-status
 * machine's graph drive the REAL StatusBanner through Testing Library. `loadStatus` is a test
 * double answered by the paths' `xstate.done.actor.loadStatus` / `xstate.error.actor.loadStatus`
 * events: one answer per rule of document 1 §4 (VERIFICATION_RULES), so every status state is
 * reached from its rule, plus a refusal, no answer and a thrown error. Refreshes are bounded to keep
 * the graph small (see eventsFor); every chart transition is still taken (checked below). A last
 * test walks the banner with the keyboard and runs axe.
 *
 * Proof it can fail: I broke the banner twice on purpose: the counter shown only from 2 actions
 * (9 of 45 tests red), and the banner hidden while a refresh runs (15 red); restored since.
 */
import { expectNoAxeViolations } from '../ui/axe.ts';
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import axe from 'axe-core';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import { DocumentStatus, VERIFICATION_RULES, type VerificationInputs, type VerificationRuleId, type VerificationStatus } from '../../api/verification.ts';
import { verificationStatusMachine, type LoadStatusResult, type VerificationStatusEvent } from '../../machines/verification-status/verification-status.machine.ts';
import { StatusBanner } from '../../src/features/verification/status-banner.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { LiveQueue } from './live-queue.ts';
import { settleFromEvent } from './settle.ts';
import { verifiedInputs } from '../verification-inputs.ts';

type Snap = SnapshotFrom<typeof verificationStatusMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = VerificationStatusEvent | SystemEvent;

const base: VerificationInputs = verifiedInputs;
const reasons = (...documents: number[][]): VerificationInputs['limitReasons'] => [
  {
    actionTypeId: 3,
    reason: 'expiredDocuments',
    requirementDocuments: documents.map((statuses, i) => ({ documentTypeId: 10 + i, uploadedDocuments: statuses.map((statusId) => ({ statusId })) })),
  },
];
const { confirmed, submitted } = DocumentStatus;

/** One platform answer per rule of document 1 §4: inputs where that rule decides. */
const byRule: Record<VerificationRuleId, VerificationInputs> = {
  '1': { ...base, isRepresentative: true, verified: false },
  '2a': { ...base, limited: true, limitReasons: reasons([confirmed]) },
  '2b': { ...base, limited: true, limitReasons: reasons([], [], [confirmed]) },
  '3a': { ...base, duplicateDocuments: 'uploaded' },
  '3b': { ...base, duplicateDocuments: 'required' },
  '4': { ...base, phoneConfirmed: false, address: 'missing', identity: 'none' },
  '5a': { ...base, verified: false, limitReasons: reasons([submitted]) },
  '5b': { ...base, verified: false, limitReasons: reasons([]) },
  '5c': { ...base, verified: false, documentsInReview: true },
  '5d': { ...base, verified: false, customerType: 'business' },
  '5e': { ...base, verified: false },
  card: { ...base, isCardDocumentRequired: true },
  '6': base,
};
const ruleStatus = (id: VerificationRuleId): VerificationStatus => VERIFICATION_RULES.find((r) => r.id === id)!.status;
const loaded = (id: VerificationRuleId): SystemEvent => ({ type: 'xstate.done.actor.loadStatus', output: { ok: true, inputs: byRule[id] } satisfies LoadStatusResult });
const refused: SystemEvent = { type: 'xstate.done.actor.loadStatus', output: { ok: false, code: 'refused', detail: 'Access denied' } satisfies LoadStatusResult };
const noAnswer: SystemEvent = { type: 'xstate.done.actor.loadStatus', output: { ok: false, code: 'network' } satisfies LoadStatusResult };
const thrown: SystemEvent = { type: 'xstate.error.actor.loadStatus', error: new Error('boom') };

/** Typed so a new event fails compilation until it has cases here. */
const userEvents = {
  'STATUS.REFRESH': [{ type: 'STATUS.REFRESH' }],
  'STATUS.RETRY': [{ type: 'STATUS.RETRY' }],
} satisfies { [K in VerificationStatusEvent['type']]: Extract<VerificationStatusEvent, { type: K }>[] };

/**
 * The first load gets every answer. A refresh is offered once per status (not after a failed
 * refresh) and answers with a change of status (to checked, or from checked to hasRequiredActions);
 * its failures and a second refresh while one runs are taken from hasRequiredActions only.
 */
function eventsFor(s: Snap): ModelEvent[] {
  if (s.matches('loading')) return [...(Object.keys(byRule) as VerificationRuleId[]).map(loaded), refused, noAnswer, thrown];
  if (s.matches('loadFailed')) return userEvents['STATUS.RETRY'];
  if (s.matches({ known: 'refreshing' })) {
    const out: ModelEvent[] = [s.context.status === 'checked' ? refreshedTo.hasRequiredActions : refreshedTo.checked];
    if (s.context.status === 'hasRequiredActions') out.push(refused, thrown, ...userEvents['STATUS.REFRESH']);
    return out;
  }
  // Refresh from the first answer's state only (not again after a refresh or a failed one).
  return !s.context.refreshFailed && isFirstAnswer(s) ? userEvents['STATUS.REFRESH'] : [];
}
/** A refresh's answers: new objects, so the states after a refresh differ from those after the first load. */
const refreshedTo = {
  checked: { type: 'xstate.done.actor.loadStatus', output: { ok: true, inputs: { ...base } } satisfies LoadStatusResult } as SystemEvent,
  hasRequiredActions: { type: 'xstate.done.actor.loadStatus', output: { ok: true, inputs: { ...byRule['4'] } } satisfies LoadStatusResult } as SystemEvent,
};
const firstAnswers = new Set(Object.values(byRule));
const isFirstAnswer = (s: Snap) => s.context.inputs !== null && firstAnswers.has(s.context.inputs);

const serialize = (s: Snap) =>
  JSON.stringify({
    value: s.value,
    status: s.context.status,
    banner: s.context.banner,
    refreshFailed: s.context.refreshFailed,
    first: isFirstAnswer(s),
    loadError: s.matches('loadFailed') ? s.context.loadError?.code : null,
  });

const model = new TestModel(verificationStatusMachine, {
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});

function mount(pathname = '/home') {
  const q = new LiveQueue<unknown, LoadStatusResult>();
  const logic = verificationStatusMachine.provide({ actors: { loadStatus: fromPromise(({ input, signal }) => q.next(input, signal)) } });
  const actor = createActor(logic).start();
  const user = userEvent.setup({ delay: null });
  // The banner's link is the router's Link: it renders in a memory router at `pathname`.
  const root = createRootRoute({
    component: () => (
      <main>
        <StatusBanner actor={actor} pathname={pathname} />
      </main>
    ),
  });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: [pathname] }) });
  const view = render(
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>,
  );
  /** what the answers given call for (document 1 §4, first rule that holds), kept apart from the chart's context */
  const did: { status: VerificationStatus | null; loadError: 'network' | 'refused' | null } = { status: null, loadError: null };
  return { q, actor, user, container: view.container, did };
}
type Harness = ReturnType<typeof mount>;

/** An answer's effect: a status by the first rule of VERIFICATION_RULES that holds; a failed first load its reason; a failed refresh keeps the status. */
function record(did: Harness['did'], event: SystemEvent): void {
  const out = event.output as LoadStatusResult | undefined;
  if (out?.ok) {
    did.status = VERIFICATION_RULES.find((rule) => rule.when(out.inputs))!.status;
    did.loadError = null;
  } else if (did.status === null) did.loadError = out?.ok === false ? out.code : 'network';
}

const MESSAGES: Partial<Record<VerificationStatus, RegExp>> = {
  limited: /^Your account is limited\./,
  duplicateDocuments: /^Your identity document is registered to another customer\./,
  duplicateDocumentsUploaded: /^We are checking the identity document you uploaded\./,
  unverified: /^Your account is not verified yet\./,
  hasRequiredActions: /^Your profile needs your attention\.$/,
  someCardDocumentRequired: /^Your card needs one more proof of address\.$/,
};
/** what each warning counts for the answers above */
const COUNTS: Partial<Record<VerificationStatus, number>> = { limited: 2, duplicateDocuments: 1, duplicateDocumentsUploaded: 0, unverified: 1, hasRequiredActions: 3, someCardDocumentRequired: 1 };

const banner = () => screen.queryByRole('status');

/** The banner for the status shown (the last evaluated one while refreshing). */
function expectBannerOf(h: Harness, status: VerificationStatus | null) {
  const message = status ? MESSAGES[status] : undefined;
  if (!status || !message) {
    expect(banner()).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(h.container.querySelector('main')!.textContent).toBe('');
    return;
  }
  const el = banner()!;
  expect(el.querySelector('p')!.textContent).toMatch(message);
  const count = COUNTS[status]!;
  if (count === 0) expect(el.textContent).not.toMatch(/required/);
  else expect(el.textContent).toContain(count === 1 ? '1 action required' : `${count} actions required`);
  // each counted action by name with its own link (limit documents: one line), then the general link
  const links = within(el).getAllByRole('link');
  const link = links.at(-1)!;
  expect(link.getAttribute('href')).toBe(status === 'limited' ? '/limited-account' : '/profile');
  expect(link.textContent).toBe(status === 'limited' ? 'See what is needed' : 'Go to your profile');
  const listed = links.slice(0, -1);
  if (status === 'hasRequiredActions') {
    expect(listed).toHaveLength(count);
    for (const a of listed) expect(a.getAttribute('href')).toMatch(/^\/profile#[a-zA-Z]+$/);
  } else if (status === 'limited' || status === 'unverified') expect(listed.map((a) => a.getAttribute('href'))).toEqual(count > 0 ? ['/limited-account'] : []);
  else expect(listed).toHaveLength(count);
}

function stateChecks(h: Harness) {
  const statusCheck = (status: VerificationStatus) => async (s: Snap) => {
    await waitFor(() => expect(banner()?.closest('.verification-banner')?.getAttribute('aria-busy') ?? null).toBeNull());
    // the chart ends where the rules of document 1 §4 send the inputs given
    expect(h.did.status).toBe(status);
    expectBannerOf(h, status);
    expect(h.q.waiting).toBe(0);
    expectOffered(s, [{ type: 'STATUS.REFRESH' }]);
  };
  return {
    loading: async () => {
      // "before documents have loaded": nothing shown
      await waitFor(() => expect(h.q.waiting).toBe(1));
      expectBannerOf(h, null);
    },
    loadFailed: async (s: Snap) => {
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain('Your verification status could not be loaded.');
      expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
      expect(banner()).toBeNull();
      expect(h.did.status).toBeNull();
      expect(h.did.loadError).not.toBeNull();
      expect(s.context.loadError?.code).toBe(h.did.loadError);
      expectOffered(s, [{ type: 'STATUS.RETRY' }]);
    },
    'known.refreshing': async () => {
      await waitFor(() => expect(h.q.waiting).toBe(1));
      // the last answer's banner stays up while the new one is asked
      expectBannerOf(h, h.did.status);
      if (banner()) expect(banner()!.closest('.verification-banner')!.getAttribute('aria-busy')).toBe('true');
    },
    'known.checked': statusCheck('checked'),
    'known.limited': statusCheck('limited'),
    'known.processing': statusCheck('processing'),
    'known.duplicateDocuments': statusCheck('duplicateDocuments'),
    'known.duplicateDocumentsUploaded': statusCheck('duplicateDocumentsUploaded'),
    'known.hasRequiredActions': statusCheck('hasRequiredActions'),
    'known.unverified': statusCheck('unverified'),
    'known.verificationProcessing': statusCheck('verificationProcessing'),
    'known.finalReview': statusCheck('finalReview'),
    'known.someCardDocumentRequired': statusCheck('someCardDocumentRequired'),
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const answer = async ({ event }: { event: ModelEvent }) => {
    record(h.did, event as SystemEvent);
    await settleFromEvent(h.q, event as SystemEvent);
  };
  return {
    'STATUS.RETRY': async () => h.user.click(screen.getByRole('button', { name: 'Try again' })),
    // The shell sends it after an upload, a push or a profile change.
    'STATUS.REFRESH': async () => {
      act(() => h.actor.send({ type: 'STATUS.REFRESH' }));
    },
    'xstate.done.actor.loadStatus': answer,
    'xstate.error.actor.loadStatus': answer,
  };
}

const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

describe('verification status model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    const label = events
      .map((e) => {
        const out = (e as SystemEvent).output as LoadStatusResult | undefined;
        if (e.type.startsWith('xstate.error')) return 'error.load';
        if (!out) return e.type;
        if (!out.ok) return `done.load(${out.code})`;
        const rule = (Object.keys(byRule) as VerificationRuleId[]).find((id) => byRule[id] === out.inputs);
        return `done.load(rule ${rule} → ${rule ? ruleStatus(rule) : '?'})`;
      })
      .join(' → ');
    it(`#${i} ${label || 'initial'} ⇒ ${JSON.stringify(last?.value)}`, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
      h.actor.stop();
    });
  });

  it('is named verificationStatus (the inspector and the audit pack show it by that id)', () => {
    expect(verificationStatusMachine.id).toBe('verificationStatus');
  });

  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(verificationStatusMachine, paths)).toEqual([]);
  });

  it('every transition of the chart is taken by some path', () => {
    const taken = transitionsTaken(verificationStatusMachine, undefined, sequences as never);
    const missing = listTransitions(verificationStatusMachine)
      .filter((t) => !taken.has(t.key))
      .map((t) => t.key);
    expect(missing).toEqual([]);
  });

  it('every rule of document 1 §4 has an answer on the graph where it decides', () => {
    expect(Object.keys(byRule).sort()).toEqual(VERIFICATION_RULES.map((r) => r.id).sort());
    for (const rule of VERIFICATION_RULES) expect(VERIFICATION_RULES.find((r) => r.when(byRule[rule.id]))?.id).toBe(rule.id);
  });
});

describe('verification banner: keyboard and axe', () => {
  it('retries a failed load and reaches the banner link with the keyboard, without axe violations', async () => {
    const h = mount();
    await waitFor(() => expect(h.q.waiting).toBe(1));
    await act(async () => h.q.answer({ ok: false, code: 'network' }));
    await screen.findByRole('alert');
    await expectNoAxeViolations('load failed', h.container);
    await h.user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' }));
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect(h.q.waiting).toBe(1));
    await act(async () => h.q.answer({ ok: true, inputs: byRule['2b'] }));
    await screen.findByRole('status');
    await expectNoAxeViolations('limited', h.container);
    // first the listed action (the documents asked for), then the general link
    await h.user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Send the documents we asked for' }));
    await h.user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'See what is needed' }));
    h.actor.stop();
  });
});
