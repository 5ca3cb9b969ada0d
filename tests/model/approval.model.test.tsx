/**
 * Model-based test of the transfer approval: paths generated from the approval machine's graph,
 * for each approval mode (sms, otp, approvalCode, push), drive the REAL ApprovalView through
 * Testing Library (typing codes, confirming, resending, cancelling). The named-method actors are
 * test doubles answered by the paths' `xstate.done.actor.*` events; the phone's answer comes
 * through the watchTransfer actor's sendBack (TRANSFER.SETTLED); the resend hold and the expiry
 * fire by sending their `xstate.after.*` events (the real delays are an hour).
 *
 * Every step checks the screen against the model's snapshot, and the idempotency keys: a code
 * sent again after no answer carries the same key, any other attempt a new one.
 */
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import { IDEMPOTENCY_KEY_PATTERN } from '../../api/transfers.ts';
import {
  approvalMachine,
  type ApprovalEvent,
  type ApprovalInput,
  type ApprovalMode,
  type ApproveResult,
  type CancelResult,
  type ResendResult,
} from '../../machines/approval/approval.machine.ts';
import { ApprovalView } from '../../src/features/transfers/approval-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, recordingExecutors } from './coverage.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof approvalMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = ApprovalEvent | SystemEvent;

const AFTER_COOLDOWN = 'xstate.after.resendCooldown.approval.active.resend.cooling';
const AFTER_EXPIRY = 'xstate.after.untilExpiry.approval.active';
const TRX = 4711;
const SENT_TO = '+370 *** **12';
const failure = { responseCode: 'TA1' as const, responseDescription: 'Too many wrong codes: the transfer was rejected' };

const inputFor = (mode: ApprovalMode): ApprovalInput => ({
  transactionId: TRX,
  approveType: mode,
  approvalSentTo: mode === 'sms' ? SENT_TO : null,
  expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
});

const goodCode = (mode: ApprovalMode) => (mode === 'approvalCode' ? 'Blue7Sky' : '123456');
const badCode = (mode: ApprovalMode) => (mode === 'approvalCode' ? 'no!' : '12');

/** Typed so a new approval event fails compilation until it has cases here. */
const userEvents = (mode: ApprovalMode) =>
  ({
    'CODE.SUBMIT': [
      { type: 'CODE.SUBMIT', code: goodCode(mode) },
      { type: 'CODE.SUBMIT', code: badCode(mode) },
    ] as [Extract<ApprovalEvent, { type: 'CODE.SUBMIT' }>, Extract<ApprovalEvent, { type: 'CODE.SUBMIT' }>],
    'APPROVAL.RESEND': [{ type: 'APPROVAL.RESEND' }],
    'APPROVAL.CANCEL': [{ type: 'APPROVAL.CANCEL' }],
    'TRANSFER.SETTLED': [
      { type: 'TRANSFER.SETTLED', status: 'posted' },
      { type: 'TRANSFER.SETTLED', status: 'rejected' },
      { type: 'TRANSFER.SETTLED', status: 'expired' },
      { type: 'TRANSFER.SETTLED', status: 'canceled' },
      { type: 'TRANSFER.SETTLED', status: 'pending' },
    ],
  }) satisfies { [K in ApprovalEvent['type']]: Extract<ApprovalEvent, { type: K }>[] };

const answers: Record<string, SystemEvent[]> = {
  approveTransfer: [
    { type: 'xstate.done.actor.approveTransfer', output: { ok: true, status: 'posted' } satisfies ApproveResult },
    // a payout approved: on its way over its rail
    { type: 'xstate.done.actor.approveTransfer', output: { ok: true, status: 'processing' } satisfies ApproveResult },
    { type: 'xstate.done.actor.approveTransfer', output: { ok: true, status: 'rejected' } satisfies ApproveResult },
    // a company's payment approved by its initiator (right 3): it waits for a checker (maker-checker)
    { type: 'xstate.done.actor.approveTransfer', output: { ok: true, status: 'pending' } satisfies ApproveResult },
    { type: 'xstate.done.actor.approveTransfer', output: { ok: false, code: 'wrongCode', description: 'Wrong code: 2 tries left' } satisfies ApproveResult },
    { type: 'xstate.done.actor.approveTransfer', output: { ok: false, code: 'network' } satisfies ApproveResult },
    { type: 'xstate.done.actor.approveTransfer', output: { ok: false, code: 'failed', failure } satisfies ApproveResult },
    { type: 'xstate.error.actor.approveTransfer', error: new Error('offline') },
  ],
  resendApproval: [
    { type: 'xstate.done.actor.resendApproval', output: { ok: true, approvalSentTo: '+370 *** **34' } satisfies ResendResult },
    { type: 'xstate.done.actor.resendApproval', output: { ok: false, code: 'network' } satisfies ResendResult },
    { type: 'xstate.done.actor.resendApproval', output: { ok: false, code: 'failed', failure: { responseCode: 'TA1', responseDescription: 'Too many codes sent' } } satisfies ResendResult },
    { type: 'xstate.error.actor.resendApproval', error: new Error('offline') },
  ],
  cancelTransfer: [
    { type: 'xstate.done.actor.cancelTransfer', output: { ok: true, status: 'canceled' } satisfies CancelResult },
    { type: 'xstate.done.actor.cancelTransfer', output: { ok: true, status: 'posted' } satisfies CancelResult },
    { type: 'xstate.done.actor.cancelTransfer', output: { ok: false, code: 'network' } satisfies CancelResult },
    { type: 'xstate.done.actor.cancelTransfer', output: { ok: false, code: 'failed', failure: { responseCode: 'TA1', responseDescription: 'Not pending' } } satisfies CancelResult },
    { type: 'xstate.error.actor.cancelTransfer', error: new Error('offline') },
  ],
};

/**
 * The events of a snapshot. Every edge is a rendered test, so the model keeps to what matters:
 * while a call runs only its answers come; the delays, the resend and the malformed code are
 * offered only on a quiet screen (no error, nothing pending). Every chart transition is still
 * taken (checked below).
 */
function eventsFor(mode: ApprovalMode, s: Snap): ModelEvent[] {
  if (s.status !== 'active') return [];
  const c = s.context;
  const running = Object.keys(s.children).filter((id) => id in answers);
  if (running.length > 0) return running.flatMap((id) => answers[id] ?? []);
  const quiet = c.error === null && c.attempt === null && c.cancelKey === null;
  const u = userEvents(mode);
  const [good, bad] = u['CODE.SUBMIT'];
  const all: ModelEvent[] = [];
  // After no answer the same code is sent again; otherwise a good code from a quiet or corrected screen.
  if (c.cancelKey === null) all.push(good);
  if (quiet) all.push(bad, ...u['APPROVAL.RESEND']);
  if (c.error === null || (c.error === 'network' && c.cancelKey !== null)) all.push(...u['APPROVAL.CANCEL']);
  if (s.matches({ active: { step: 'waitingForPhone' } }) && c.error === null) all.push(...u['TRANSFER.SETTLED']);
  if (quiet && c.sends <= 1) all.push({ type: AFTER_COOLDOWN });
  if (quiet && s.matches({ active: { resend: 'cooling' } }) && c.sends === 1) all.push({ type: AFTER_EXPIRY });
  return all.filter((e) => s.can(e as ApprovalEvent));
}

/** Only what the checks read (never the random keys: they would make every snapshot new). */
const serialize = (s: Snap) =>
  JSON.stringify({
    value: s.value,
    status: s.status,
    error: s.context.error,
    errorText: s.context.errorText,
    attempt: s.context.attempt?.code ?? null,
    cancelKey: s.context.cancelKey !== null,
    resent: s.context.sends > 1,
    sentTo: s.context.approvalSentTo,
    output: s.output ?? null,
  });

/** What the test did, kept apart from the chart's context: the page and the output are expected from it. */
interface Did {
  last: ModelEvent | null;
  error: 'codeFormat' | 'wrongCode' | 'network' | 'resendFailed' | 'cancelFailed' | null;
  /** the platform's words on the error, shown as they are */
  errorText: string | null;
  /** codes or requests sent (the transfer request's own counts for sms and push) */
  sends: number;
  /** where the code went last (sms) */
  sentTo: string | null;
  /** the outcome the answers call for (document 2 §4), null while the transfer is pending */
  output: Record<string, unknown> | null;
}

/** document 2 §4: 6 digits by sms or otp, the customer's own approval code (4 to 32 letters and digits) */
const wellFormed = (mode: ApprovalMode, code: string) => (mode === 'approvalCode' ? /^[A-Za-z0-9]{4,32}$/ : /^\d{6}$/).test(code);
/** a settled status's outcome */
const outcomeOf = (status: string, failureOf: unknown = null) =>
  status === 'posted' || status === 'processing'
    ? { result: 'approved', status }
    : status === 'canceled'
      ? { result: 'canceled' }
      : { result: 'failed', reason: status === 'rejected' || status === 'expired' ? status : 'failed', failure: failureOf };

/** What each event calls for, worked out here rather than read from the chart. */
function record(mode: ApprovalMode, did: Did, event: ModelEvent): void {
  did.last = event;
  const out = (event as SystemEvent).output as { ok: boolean; code?: string; status?: string; description?: string | null; failure?: { responseDescription?: string }; approvalSentTo?: string | null } | undefined;
  const setError = (error: Did['error'], errorText: string | null = null) => Object.assign(did, { error, errorText });
  switch (event.type) {
    case 'CODE.SUBMIT':
      if (wellFormed(mode, (event as Extract<ApprovalEvent, { type: 'CODE.SUBMIT' }>).code)) setError(null);
      else setError('codeFormat');
      return;
    case 'APPROVAL.CANCEL':
      setError(null);
      return;
    case 'TRANSFER.SETTLED': {
      const status = (event as Extract<ApprovalEvent, { type: 'TRANSFER.SETTLED' }>).status;
      if (status !== 'pending') did.output = outcomeOf(status);
      return;
    }
    case AFTER_EXPIRY:
      did.output = { result: 'failed', reason: 'expired', failure: null };
      return;
    case 'xstate.done.actor.approveTransfer':
      if (out?.ok) did.output = out.status === 'pending' ? { result: 'approved', status: 'pending' } : outcomeOf(out.status!);
      else if (out?.code === 'wrongCode') setError('wrongCode', out.description ?? null);
      else if (out?.code === 'network') setError('network');
      else did.output = { result: 'failed', reason: 'failed', failure: out?.failure ?? null };
      return;
    case 'xstate.done.actor.resendApproval':
      if (out?.ok) Object.assign(did, { sends: did.sends + 1, sentTo: out.approvalSentTo ?? did.sentTo, error: null, errorText: null });
      else if (out?.code === 'network') setError('network');
      else setError('resendFailed', out?.failure?.responseDescription ?? null);
      return;
    case 'xstate.done.actor.cancelTransfer':
      if (out?.ok) did.output = outcomeOf(out.status!);
      else if (out?.code === 'network') setError('network');
      else setError('cancelFailed', out?.failure?.responseDescription ?? null);
      return;
    default:
      if (event.type.startsWith('xstate.error.actor.')) setError('network');
  }
}

function mount(mode: ApprovalMode) {
  const q = {
    approveTransfer: new AnswerQueue<{ transactionId: number; code: string; idempotencyKey: string }, ApproveResult>(),
    resendApproval: new AnswerQueue<{ transactionId: number }, ResendResult>(),
    cancelTransfer: new AnswerQueue<{ transactionId: number; idempotencyKey: string }, CancelResult>(),
  };
  const phone: { sendBack: ((e: ApprovalEvent) => void) | null; watched: number[] } = { sendBack: null, watched: [] };
  /** what each approve / cancel call was answered with, in order */
  const outcomes = { approveTransfer: [] as string[], cancelTransfer: [] as string[] };
  const logic = approvalMachine.provide({
    actors: {
      approveTransfer: fromPromise(({ input }) => q.approveTransfer.next(input)),
      resendApproval: fromPromise(({ input }) => q.resendApproval.next(input)),
      cancelTransfer: fromPromise(({ input }) => q.cancelTransfer.next(input)),
      watchTransfer: fromCallback<ApprovalEvent, { transactionId: number }>(({ sendBack, input }) => {
        phone.sendBack = sendBack;
        phone.watched.push(input.transactionId);
        return () => {
          phone.sendBack = null;
        };
      }),
    },
    delays: { resendCooldown: 3_600_000, untilExpiry: 3_600_000 },
  });
  const actor = createActor(logic, { input: inputFor(mode) }).start();
  const user = userEvent.setup({ delay: null });
  render(
    <I18nProvider i18n={i18n}>
      <ApprovalView actor={actor} />
    </I18nProvider>,
  );
  /** set by the first event: the focus check is for the step as it opens */
  const touched = { value: false };
  const did: Did = { last: null, error: null, errorText: null, sends: mode === 'sms' || mode === 'push' ? 1 : 0, sentTo: mode === 'sms' ? SENT_TO : null, output: null };
  return { q, phone, outcomes, actor, user, touched, did, mode };
}
type Harness = ReturnType<typeof mount>;

const HEADINGS: Record<ApprovalMode, RegExp> = {
  sms: /enter the code we sent to \+370 \*\*\* \*\*(12|34)/i,
  otp: /enter the code from your authenticator app/i,
  approvalCode: /enter your approval code/i,
  push: /approve the transfer on your phone/i,
};

/** A key is new unless the same call's last answer was "no answer" (then it is that call's key again). */
function expectKey(calls: { idempotencyKey: string }[], outcomes: string[], sameAsBefore: boolean) {
  const key = calls.at(-1)!.idempotencyKey;
  expect(key).toMatch(IDEMPOTENCY_KEY_PATTERN);
  const earlier = calls.slice(0, -1).map((c) => c.idempotencyKey);
  if (sameAsBefore) expect(key).toBe(earlier.at(-1));
  else expect(earlier).not.toContain(key);
  expect(outcomes.length).toBe(calls.length - 1);
}

function stateChecks(mode: ApprovalMode, h: Harness) {
  const errorShown = () => {
    const c = h.did;
    const field = screen.queryByLabelText(/^(code|approval code)$/i);
    if (c.error === 'codeFormat') expect(field?.getAttribute('aria-invalid')).toBe('true');
    if (c.error === 'wrongCode') {
      expect(field?.getAttribute('aria-invalid')).toBe('true');
      // the platform's description, tied to the field
      const described = (field?.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent).join(' ');
      expect(described).toContain('Wrong code: 2 tries left');
    }
    if (c.error === null || c.error === 'network' || c.error === 'resendFailed' || c.error === 'cancelFailed') {
      if (field) expect(field.getAttribute('aria-invalid')).toBeNull();
    }
    const alert = screen.queryByRole('alert');
    if (c.error === 'network') expect(alert?.textContent).toMatch(/no answer from the server/i);
    else if (c.error === 'resendFailed') expect(alert?.textContent).toMatch(/could not send it again\. too many codes sent/i);
    else if (c.error === 'cancelFailed') expect(alert?.textContent).toMatch(/could not cancel the transfer\. not pending/i);
    else expect(alert).toBeNull();
  };
  const cancelButton = () => screen.getByRole('button', { name: /cancel the transfer/i });
  return {
    'active.step.enteringCode': async (s: Snap) => {
      const stepHeading = await screen.findByRole('heading', { name: HEADINGS[mode] });
      // the code went where the platform said it sent it last
      if (mode === 'sms') expect(stepHeading.textContent).toContain(h.did.sentTo);
      expectOffered<ApprovalEvent>(s, [{ type: 'CODE.SUBMIT', code: goodCode(mode) }, { type: 'APPROVAL.CANCEL' }]);
      // the step's heading takes the focus when the step opens
      if (!h.touched.value) {
        expect(document.activeElement?.tagName).toBe('H2');
      }
      const field = screen.getByLabelText(/^(code|approval code)$/i);
      if (mode === 'approvalCode') {
        expect(field.getAttribute('type')).toBe('password');
      } else {
        expect(field.getAttribute('autocomplete')).toBe('one-time-code');
        expect(field.getAttribute('inputmode')).toBe('numeric');
        expect(field.getAttribute('maxlength')).toBe('6');
      }
      await waitFor(() => expect(screen.getByRole('button', { name: /^confirm$/i }).getAttribute('aria-busy')).toBeNull());
      expect((cancelButton() as HTMLButtonElement).disabled).toBe(false);
      errorShown();
    },
    'active.step.verifying': async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: /^confirm$/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.approveTransfer.waiting).toBe(1);
      const calls = h.q.approveTransfer.calls;
      const call = calls.at(-1)!;
      expect(call).toMatchObject({ transactionId: TRX, code: goodCode(mode) });
      // the same code after no answer: the same key (the platform answers the first answer again)
      expectKey(calls, h.outcomes.approveTransfer, h.outcomes.approveTransfer.at(-1) === 'network' && calls.at(-2)?.code === call.code);
    },
    'active.step.waitingForPhone': async (s: Snap) => {
      await screen.findByRole('heading', { name: HEADINGS.push });
      expectOffered<ApprovalEvent>(s, [{ type: 'APPROVAL.CANCEL' }]);
      expect(screen.getByText(/waiting for your phone/i)).toBeTruthy();
      expect(h.phone.sendBack).not.toBeNull();
      expect(h.phone.watched.at(-1)).toBe(TRX);
      expect(screen.queryByLabelText(/^code$/i)).toBeNull();
      await waitFor(() => expect(cancelButton().getAttribute('aria-busy')).toBeNull());
      errorShown();
    },
    'active.step.canceling': async () => {
      await waitFor(() => expect(cancelButton().getAttribute('aria-busy')).toBe('true'));
      expect(h.q.cancelTransfer.waiting).toBe(1);
      const calls = h.q.cancelTransfer.calls;
      expect(calls.at(-1)!.transactionId).toBe(TRX);
      expectKey(calls, h.outcomes.cancelTransfer, h.outcomes.cancelTransfer.at(-1) === 'network');
    },
    'active.resend.unavailable': async () => {
      expect(screen.queryByRole('button', { name: /send a new code|ask my phone again/i })).toBeNull();
    },
    'active.resend.cooling': async (s: Snap) => {
      const button = await screen.findByRole('button', { name: mode === 'push' ? /ask my phone again/i : /send a new code/i });
      await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(true));
      expect(button.getAttribute('aria-busy')).toBeNull();
      expect(screen.getByText(/you can ask again in \d+ s/i)).toBeTruthy();
      if (h.did.sends > 1 && h.did.error === null) expect(screen.getByText(mode === 'push' ? /asked your phone again/i : /sent a new code/i)).toBeTruthy();
    },
    'active.resend.ready': async (s: Snap) => {
      const button = await screen.findByRole('button', { name: mode === 'push' ? /ask my phone again/i : /send a new code/i });
      // offered while the user waits (not while a code is checked or the transfer cancelled)
      const waiting = s.matches({ active: { step: 'enteringCode' } }) || s.matches({ active: { step: 'waitingForPhone' } });
      await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(!waiting));
      expect(screen.queryByText(/you can ask again in/i)).toBeNull();
    },
    'active.resend.sending': async () => {
      const button = screen.getByRole('button', { name: mode === 'push' ? /ask my phone again/i : /send a new code/i });
      await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
      expect(h.q.resendApproval.waiting).toBe(1);
      expect(h.q.resendApproval.calls.at(-1)).toEqual({ transactionId: TRX });
    },
    approved: async () => {
      await waitFor(() => expect(h.actor.getSnapshot().status).toBe('done'));
      expect(h.did.output).toMatchObject({ result: 'approved' });
      expect(h.actor.getSnapshot().output).toEqual(h.did.output);
      expect(screen.getByText(/finishing/i)).toBeTruthy();
    },
    failed: async () => {
      await waitFor(() => expect(h.actor.getSnapshot().status).toBe('done'));
      expect(h.did.output?.result).toBe('failed');
      // the reason and the platform's words the answers gave
      expect(h.actor.getSnapshot().output).toEqual(h.did.output);
    },
    canceled: async () => {
      await waitFor(() => expect(h.actor.getSnapshot().status).toBe('done'));
      expect(h.did.output).toEqual({ result: 'canceled' });
      expect(h.actor.getSnapshot().output).toEqual(h.did.output);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  return recordingExecutors<ModelEvent>(eventExecutorsOf(h), (event) => {
    h.touched.value = true;
    record(h.mode, h.did, event);
  });
}

function eventExecutorsOf(h: Harness) {
  const answer = (id: keyof typeof h.q) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    const queue = h.q[id] as AnswerQueue<unknown, unknown>;
    if (id !== 'resendApproval') {
      const out = e.output as { ok: boolean; code?: string } | undefined;
      h.outcomes[id].push(e.type.startsWith('xstate.error') ? 'network' : out?.ok ? 'ok' : (out?.code ?? ''));
    }
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  const sendToActor = async ({ event }: { event: ModelEvent }) => {
    act(() => h.actor.send(event as never));
  };
  return {
    'CODE.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const code = (event as Extract<ApprovalEvent, { type: 'CODE.SUBMIT' }>).code;
      const field = screen.getByLabelText(/^(code|approval code)$/i);
      await h.user.clear(field);
      await h.user.type(field, code);
      await h.user.click(screen.getByRole('button', { name: /^confirm$/i }));
    },
    'APPROVAL.RESEND': async () => h.user.click(screen.getByRole('button', { name: /send a new code|ask my phone again/i })),
    'APPROVAL.CANCEL': async () => h.user.click(screen.getByRole('button', { name: /cancel the transfer/i })),
    'TRANSFER.SETTLED': async ({ event }: { event: ModelEvent }) => {
      await act(async () => h.phone.sendBack?.(event as ApprovalEvent));
    },
    [AFTER_COOLDOWN]: sendToActor,
    [AFTER_EXPIRY]: sendToActor,
    'xstate.done.actor.approveTransfer': answer('approveTransfer'),
    'xstate.error.actor.approveTransfer': answer('approveTransfer'),
    'xstate.done.actor.resendApproval': answer('resendApproval'),
    'xstate.error.actor.resendApproval': answer('resendApproval'),
    'xstate.done.actor.cancelTransfer': answer('cancelTransfer'),
    'xstate.error.actor.cancelTransfer': answer('cancelTransfer'),
  };
}

const MODES: readonly ApprovalMode[] = ['sms', 'otp', 'approvalCode', 'push'];
const sequences: { input: ApprovalInput; events: ModelEvent[] }[] = [];

for (const mode of MODES) {
  const input = inputFor(mode);
  const model = new TestModel(approvalMachine, {
    input,
    events: (s) => eventsFor(mode, s as Snap) as never,
    serializeState: (s) => serialize(s as Snap),
    stateMatcher: (s, key) => matchesPath(s as Snap, key),
  });
  const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
  describe(`approval model (${mode})`, () => {
    paths.forEach((path, i) => {
      const events = path.steps.map((st) => st.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
      sequences.push({ input, events });
      const last = path.steps.at(-1)?.state as Snap | undefined;
      const label = events
        .map((e) => {
          const short = e.type.replace(/^xstate\.(after\.\w+|done\.actor\.\w+|error\.actor\.\w+).*/, '$1');
          return 'status' in e ? `${short}(${e.status})` : 'code' in e ? `${short}(${e.code})` : short;
        })
        .join(' → ');
      it(`#${i} ${label || 'initial'} ⇒ ${JSON.stringify(last?.value)}`, async () => {
        const h = mount(mode);
        await runPathCheckingEveryStep(path, stateChecks(mode, h), eventExecutors(h));
        h.actor.stop();
      });
    });
  });
}

describe('approval model: the chart', () => {
  it('is named approval (the inspector and the audit pack show it by that id)', () => {
    expect(approvalMachine.id).toBe('approval');
  });
});

describe('approval model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const { input, events } of sequences) for (const key of transitionsTaken(approvalMachine, input, [events as never])) taken.add(key);
    const missing = listTransitions(approvalMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
