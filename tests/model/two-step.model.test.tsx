/**
 * Model-based test of the two-step verification settings: paths generated from the two-step
 * machine's graph drive the REAL TwoStepSection through Testing Library; the token-service calls
 * are test doubles answered by the paths' `xstate.done.actor.*` events, and the phone's approval
 * (the live channel) by APPROVAL.CONFIRMED through the awaitApproval actor's sendBack.
 */
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromCallback, fromPromise, waitFor as settle, type SnapshotFrom } from 'xstate';
import type { TwoStepModeCode, TwoStepSetResponse } from '../../api/security.ts';
import {
  twoStepMachine,
  type ConfirmResult,
  type StartResult,
  type TwoStepErrorCode,
  type TwoStepEvent,
} from '../../machines/two-step/two-step.machine.ts';
import { TwoStepSection } from '../../src/features/security/two-step-section.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof twoStepMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = TwoStepEvent | SystemEvent;

const MODE_LABELS: Record<TwoStepModeCode, string> = {
  1: 'Approval on a linked phone',
  2: 'Code by SMS',
  3: 'Authenticator app',
  4: 'Approval code',
};
const CODES = ['ABCDE-FGHJK', 'MNPQR-STUVW'];
const PASSWORD = 'Current-Pass-1';
const SECRET = 'JBSWY3DPEHPK3PXP';

/** Typed so a new event fails compilation until it has cases here. */
const userEvents = {
  'CHANGE.START': [{ type: 'CHANGE.START' }],
  'CHANGE.CANCEL': [{ type: 'CHANGE.CANCEL' }],
  'MODE.CHOOSE': [
    { type: 'MODE.CHOOSE', mode: 1, password: PASSWORD },
    { type: 'MODE.CHOOSE', mode: 2, password: PASSWORD },
    { type: 'MODE.CHOOSE', mode: 3, password: PASSWORD },
    { type: 'MODE.CHOOSE', mode: 4, approvalCode: '246810', password: PASSWORD },
    { type: 'MODE.CHOOSE', mode: 4, approvalCode: '12', password: PASSWORD },
    // the current password left empty: said at once, nothing sent
    { type: 'MODE.CHOOSE', mode: 3, password: '' },
  ],
  'CODE.SUBMIT': [
    { type: 'CODE.SUBMIT', code: '123456' },
    { type: 'CODE.SUBMIT', code: '12' },
  ],
  'APPROVAL.CONFIRMED': [{ type: 'APPROVAL.CONFIRMED' }],
  'CODES.SAVED': [
    { type: 'CODES.SAVED', saved: true },
    { type: 'CODES.SAVED', saved: false },
  ],
  'CODES.CONTINUE': [{ type: 'CODES.CONTINUE' }],
} satisfies { [K in TwoStepEvent['type']]: Extract<TwoStepEvent, { type: K }>[] };

function requestFor(mode: TwoStepModeCode): TwoStepSetResponse {
  const base = { reqId: `req-${mode}`, mode, expiresInS: 600 };
  if (mode === 3) return { ...base, otpauthUri: `otpauth://totp/Web%20Banking%3Aa%40b.test?secret=${SECRET}`, secret: SECRET };
  if (mode === 2) return { ...base, sentTo: '+370 *** **12' };
  if (mode === 1) return { ...base, deviceCount: 2 };
  return base;
}

function answersFor(s: Snap): SystemEvent[] {
  const out: SystemEvent[] = [];
  if (s.children.startMode) {
    const mode = s.context.chosenMode!;
    out.push(
      { type: 'xstate.done.actor.startMode', output: { ok: true, request: requestFor(mode) } satisfies StartResult },
      { type: 'xstate.done.actor.startMode', output: { ok: false, code: 'noDevice' } satisfies StartResult },
      { type: 'xstate.done.actor.startMode', output: { ok: false, code: 'wrongPassword' } satisfies StartResult },
      { type: 'xstate.error.actor.startMode', error: new Error('offline') },
    );
  }
  if (s.children.confirmMode) {
    const mode = s.context.chosenMode!;
    out.push(
      { type: 'xstate.done.actor.confirmMode', output: { ok: true, answer: { mode, recoveryCodes: CODES } } satisfies ConfirmResult },
      { type: 'xstate.done.actor.confirmMode', output: { ok: true, answer: { mode } } satisfies ConfirmResult },
      { type: 'xstate.done.actor.confirmMode', output: { ok: false, code: 'wrongCode' } satisfies ConfirmResult },
      { type: 'xstate.done.actor.confirmMode', output: { ok: false, code: 'tooManyWrong' } satisfies ConfirmResult },
      { type: 'xstate.error.actor.confirmMode', error: new Error('offline') },
    );
  }
  if (s.children.refreshSession) {
    out.push({ type: 'xstate.done.actor.refreshSession', output: true }, { type: 'xstate.error.actor.refreshSession', error: new Error('offline') });
  }
  return out;
}

function eventsFor(s: Snap): ModelEvent[] {
  const all: ModelEvent[] = [...Object.values(userEvents).flat(), ...answersFor(s)];
  return all.filter((e) => s.can(e as TwoStepEvent));
}

/**
 * Only what the checks read, and only in the states that read it: snapshots that serialize alike
 * must look alike, and everything else would multiply the paths without testing more.
 */
const serialize = (s: Snap) => {
  const inRequest = s.matches('requesting') || s.matches('confirming') || s.matches('verifying');
  const withCodes = s.matches('refreshing') || s.matches('showingCodes');
  return JSON.stringify({
    value: s.value,
    error: s.context.error,
    chosen: inRequest ? s.context.chosenMode : null,
    approvalCode: s.matches('requesting') ? s.context.approvalCode : null,
    request: inRequest ? (s.context.request?.mode ?? null) : null,
    codes: withCodes ? s.context.recoveryCodes !== null : null,
    saved: withCodes ? s.context.codesSaved : null,
    confirmed: s.matches('idle') ? s.context.confirmedMode !== null : null,
  });
};

/** What the test did, kept apart from the chart's context: the page is expected from it. */
interface Did {
  last: ModelEvent | null;
  /** the complete choice sent last, the request the platform started, the code sent to confirm it */
  chosen: { mode: TwoStepModeCode; approvalCode: string | null } | null;
  request: TwoStepSetResponse | null;
  code: string | null;
  error: TwoStepErrorCode | null;
  /** the recovery codes the confirmation brought, ticked as saved or not */
  codes: string[] | null;
  saved: boolean;
  /** the mode just confirmed */
  confirmed: TwoStepModeCode | null;
}

function mount() {
  const q = {
    startMode: new AnswerQueue<{ mode: TwoStepModeCode; approvalCode: string | null; password: string }, StartResult>(),
    confirmMode: new AnswerQueue<{ reqId: string; code: string | null }, ConfirmResult>(),
    refreshSession: new AnswerQueue<void, boolean>(),
  };
  const phone: { sendBack: ((e: TwoStepEvent) => void) | null; reqIds: string[] } = { sendBack: null, reqIds: [] };
  const logic = twoStepMachine.provide({
    actors: {
      startMode: fromPromise(({ input }) => q.startMode.next(input)),
      confirmMode: fromPromise(({ input }) => q.confirmMode.next(input)),
      refreshSession: fromPromise(() => q.refreshSession.next()),
      awaitApproval: fromCallback<TwoStepEvent, { reqId: string }>(({ sendBack, input }) => {
        phone.sendBack = sendBack;
        phone.reqIds.push(input.reqId);
        return () => {
          phone.sendBack = null;
        };
      }),
    },
  });
  const user = userEvent.setup({ delay: null });
  const view = render(
    <I18nProvider i18n={i18n}>
      <TwoStepSection session={{ getAccessToken: () => null, refresh: async () => true }} currentMode={3} restriction="setup2fa" logic={logic} />
    </I18nProvider>,
  );
  const did: Did = { last: null, chosen: null, request: null, code: null, error: null, codes: null, saved: false, confirmed: null };
  /** the section marks itself busy (aria-busy) while a call it waits for runs */
  const busy = () => view.container.querySelector('section')?.getAttribute('aria-busy') === 'true';
  return { q, phone, user, did, busy };
}
type Harness = ReturnType<typeof mount>;

const ERROR_TEXT: Record<string, RegExp> = {
  approvalCodeInvalid: /approval code of 6 digits/i,
  passwordRequired: /enter your current password/i,
  wrongPassword: /password is not correct/i,
  noDevice: /link a phone first/i,
  network: /connection failed/i,
  wrongCode: /code is not right/i,
  tooManyWrong: /too many wrong codes/i,
};
/** document 1 §7: a request ends after too many wrong codes, on expiry or when declined */
const GONE: readonly string[] = ['tooManyWrong', 'expired', 'declined'];
const SIX_DIGITS = /^\d{6}$/;

function expectError(h: Harness) {
  const error = h.did.error;
  if (error) expect(screen.getAllByText(ERROR_TEXT[error]!).length).toBeGreaterThan(0);
  for (const [code, pattern] of Object.entries(ERROR_TEXT)) if (code !== error) expect(screen.queryByText(pattern)).toBeNull();
}

/** What each event calls for, worked out here rather than read from the chart. */
function record(did: Did, event: ModelEvent): void {
  did.last = event;
  const output = (event as SystemEvent).output as (StartResult & ConfirmResult) | boolean | undefined;
  const failed = (o: unknown): o is { ok: false; code: TwoStepErrorCode } => typeof o === 'object' && o !== null && !(o as { ok: boolean }).ok;
  switch (event.type) {
    case 'CHANGE.START':
      Object.assign(did, { error: null, confirmed: null });
      return;
    case 'CHANGE.CANCEL':
      Object.assign(did, { error: null, request: null });
      return;
    case 'MODE.CHOOSE': {
      const e = event as Extract<TwoStepEvent, { type: 'MODE.CHOOSE' }>;
      const approvalOk = e.mode !== 4 || SIX_DIGITS.test(e.approvalCode ?? '');
      if (approvalOk && e.password !== '') Object.assign(did, { chosen: { mode: e.mode, approvalCode: e.approvalCode ?? null }, error: null });
      else did.error = approvalOk ? 'passwordRequired' : 'approvalCodeInvalid';
      return;
    }
    case 'CODE.SUBMIT': {
      const code = (event as Extract<TwoStepEvent, { type: 'CODE.SUBMIT' }>).code;
      if (SIX_DIGITS.test(code)) did.code = code;
      else did.error = 'wrongCode';
      return;
    }
    case 'APPROVAL.CONFIRMED':
      did.code = null;
      return;
    case 'CODES.SAVED':
      did.saved = (event as Extract<TwoStepEvent, { type: 'CODES.SAVED' }>).saved;
      return;
    case 'CODES.CONTINUE':
      Object.assign(did, { codes: null, saved: false, request: null });
      return;
    case 'xstate.done.actor.startMode':
      if (failed(output)) did.error = output.code;
      else Object.assign(did, { request: (output as Extract<StartResult, { ok: true }>).request, error: null });
      return;
    case 'xstate.done.actor.confirmMode':
      if (failed(output)) {
        did.error = output.code;
        if (GONE.includes(output.code)) did.request = null;
      } else {
        const answer = (output as Extract<ConfirmResult, { ok: true }>).answer;
        Object.assign(did, { codes: answer.recoveryCodes ?? null, confirmed: answer.mode, saved: false, error: null });
      }
      return;
    case 'xstate.done.actor.refreshSession':
    case 'xstate.error.actor.refreshSession':
      if (!did.codes) did.request = null;
      return;
    default:
      if (event.type.startsWith('xstate.error.actor.')) did.error = 'network';
  }
}

function stateChecks(h: Harness) {
  const codeHeading = (mode: TwoStepModeCode) =>
    mode === 3 ? /scan the qr code/i : mode === 2 ? /enter the code we sent to \+370 \*\*\* \*\*12/i : /enter your approval code again/i;
  const complete = (e: ModelEvent | null) => e?.type === 'MODE.CHOOSE' && h.did.error === null;
  return {
    idle: async (s: Snap) => {
      await screen.findByRole('button', { name: /change two-step verification/i });
      // The restricted session is explained in every step.
      expect(screen.getByText(/you signed in with a recovery code/i)).toBeTruthy();
      // the input's mode (3), or the one just confirmed
      expect(screen.getByText(/current method:/i).textContent).toContain(MODE_LABELS[h.did.confirmed ?? 3]);
      if (h.did.confirmed) expect(screen.getByText(/two-step verification is now: /i).textContent).toContain(MODE_LABELS[h.did.confirmed]);
      else expect(screen.queryByText(/two-step verification is now/i)).toBeNull();
      expect(screen.queryByText(CODES[0]!)).toBeNull();
      expect(h.busy()).toBe(false);
      expectOffered(s, [{ type: 'CHANGE.START' }]);
      expect(h.did.last?.type).not.toBe('CHANGE.START');
      // nothing of a finished change is kept
      expect(s.context.request).toBeNull();
      expect(s.context.recoveryCodes).toBeNull();
    },
    choosing: async (s: Snap) => {
      await screen.findByRole('heading', { name: /choose how to confirm/i });
      await waitFor(() => expect(screen.getByRole('button', { name: /^continue$/i }).getAttribute('aria-busy')).toBeNull());
      expect(screen.getByRole('group', { name: /method/i })).toBeTruthy();
      expect(h.busy()).toBe(false);
      expectError(h);
      expectOffered(s, [{ type: 'MODE.CHOOSE', mode: 3, password: PASSWORD }, { type: 'CHANGE.CANCEL' }]);
      expect(complete(h.did.last)).toBe(false);
      // a request that ended is not kept
      expect(s.context.request).toBeNull();
    },
    requesting: async (s: Snap) => {
      await waitFor(() => expect(screen.getByRole('button', { name: /^continue$/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.busy()).toBe(true);
      expect(h.q.startMode.waiting).toBe(1);
      // the choice and the password typed go with the request, and the password is not kept by the machine
      expect(h.q.startMode.calls.at(-1)).toEqual({ ...h.did.chosen, password: PASSWORD });
      expect(JSON.stringify(s.context)).not.toContain(PASSWORD);
      expectError(h);
    },
    'confirming.code': async (s: Snap) => {
      const mode = h.did.request!.mode;
      await screen.findByRole('heading', { name: codeHeading(mode) });
      await waitFor(() => expect(screen.getByRole('button', { name: /^confirm$/i }).getAttribute('aria-busy')).toBeNull());
      expect(h.busy()).toBe(false);
      if (mode === 3) {
        expect(screen.getByRole('img', { name: /qr code of your new authenticator key/i })).toBeTruthy();
        expect(screen.getByText(SECRET)).toBeTruthy();
      } else {
        expect(screen.queryByRole('img')).toBeNull();
      }
      expectError(h);
      expectOffered(s, [{ type: 'CODE.SUBMIT', code: '123456' }, { type: 'CHANGE.CANCEL' }]);
      expect(h.did.last).not.toEqual({ type: 'CODE.SUBMIT', code: '123456' });
    },
    'confirming.awaitingPhone': async (s: Snap) => {
      await screen.findByRole('heading', { name: /approve the change on your phone/i });
      expect(screen.getByText(/asked your 2 linked phones/i)).toBeTruthy();
      expect(h.did.request?.mode).toBe(1);
      expect(h.phone.sendBack).not.toBeNull();
      expect(h.phone.reqIds.at(-1)).toBe(h.did.request?.reqId);
      expectError(h);
      expectOffered(s, [{ type: 'APPROVAL.CONFIRMED' }, { type: 'CHANGE.CANCEL' }]);
    },
    verifying: async () => {
      expect(h.busy()).toBe(true);
      expect(h.q.confirmMode.waiting).toBe(1);
      if (h.did.chosen?.mode === 1) {
        await screen.findByRole('heading', { name: /approve the change on your phone/i });
        expect(h.q.confirmMode.calls.at(-1)).toEqual({ reqId: 'req-1', code: null });
      } else {
        await waitFor(() => expect(screen.getByRole('button', { name: /^confirm$/i }).getAttribute('aria-busy')).toBe('true'));
        expect(h.q.confirmMode.calls.at(-1)).toEqual({ reqId: h.did.request!.reqId, code: h.did.code });
      }
    },
    refreshing: async (s: Snap) => {
      await waitFor(() => expect(h.q.refreshSession.waiting).toBe(1));
      expect(h.busy()).toBe(true);
      // the refresh's answers lead on, whether it worked or not (a chart that lost them would wait here for ever)
      expect(s.can({ type: 'xstate.done.actor.refreshSession', output: true } as never)).toBe(true);
      expect(s.can({ type: 'xstate.error.actor.refreshSession', error: new Error('offline') } as never)).toBe(true);
    },
    showingCodes: async (s: Snap) => {
      await screen.findByRole('heading', { name: /save your recovery codes/i });
      expect(h.did.codes).toEqual(CODES);
      const list = screen.getByRole('list');
      expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES);
      const box = screen.getByRole('checkbox', { name: /i saved my recovery codes/i }) as HTMLInputElement;
      await waitFor(() => expect(box.checked).toBe(h.did.saved));
      expect((screen.getByRole('button', { name: /^continue$/i }) as HTMLButtonElement).disabled).toBe(!h.did.saved);
      expect(h.busy()).toBe(false);
      expectOffered(s, [{ type: 'CODES.SAVED', saved: !h.did.saved }]);
      // continuing needs the codes saved
      expect(s.can({ type: 'CODES.CONTINUE' })).toBe(h.did.saved);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const answer = (queue: AnswerQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    record(h.did, e);
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  return {
    'CHANGE.START': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await h.user.click(screen.getByRole('button', { name: /change two-step verification/i }));
    },
    'CHANGE.CANCEL': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await h.user.click(screen.getByRole('button', { name: /^cancel$/i }));
    },
    'MODE.CHOOSE': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<TwoStepEvent, { type: 'MODE.CHOOSE' }>;
      record(h.did, e);
      await h.user.click(screen.getByRole('radio', { name: MODE_LABELS[e.mode] }));
      if (e.mode === 4) {
        const field = screen.getByLabelText(/approval code \(6 digits\)/i);
        await h.user.clear(field);
        await h.user.type(field, e.approvalCode ?? '');
      }
      const password = screen.getByLabelText(/^current password$/i);
      await h.user.clear(password);
      if (e.password) await h.user.type(password, e.password);
      await h.user.click(screen.getByRole('button', { name: /^continue$/i }));
    },
    'CODE.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<TwoStepEvent, { type: 'CODE.SUBMIT' }>;
      record(h.did, e);
      // Mode 4 asks for the approval code again in a password field (no textbox role).
      const field = screen.getByLabelText(/^(code|approval code)$/i);
      await h.user.clear(field);
      await h.user.type(field, e.code);
      await h.user.click(screen.getByRole('button', { name: /^confirm$/i }));
    },
    'APPROVAL.CONFIRMED': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await act(async () => h.phone.sendBack?.({ type: 'APPROVAL.CONFIRMED' }));
    },
    'CODES.SAVED': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<TwoStepEvent, { type: 'CODES.SAVED' }>;
      record(h.did, e);
      const box = screen.getByRole('checkbox', { name: /i saved my recovery codes/i }) as HTMLInputElement;
      if (box.checked !== e.saved) await h.user.click(box);
    },
    'CODES.CONTINUE': async ({ event }: { event: ModelEvent }) => {
      record(h.did, event);
      await h.user.click(screen.getByRole('button', { name: /^continue$/i }));
    },
    'xstate.done.actor.startMode': answer(h.q.startMode),
    'xstate.error.actor.startMode': answer(h.q.startMode),
    'xstate.done.actor.confirmMode': answer(h.q.confirmMode),
    'xstate.error.actor.confirmMode': answer(h.q.confirmMode),
    'xstate.done.actor.refreshSession': answer(h.q.refreshSession),
    'xstate.error.actor.refreshSession': answer(h.q.refreshSession),
  };
}

const model = new TestModel(twoStepMachine, {
  input: { currentMode: 3 },
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

describe('two-step model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    const label = events
      .map((e) => {
        const short = e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.');
        return 'mode' in e ? `${short}(${e.mode})` : short;
      })
      .join(' → ');
    it(`#${i} ${label} ⇒ ${JSON.stringify(last?.value)}`, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
    });
  });
});

describe('two-step model: the chart', () => {
  it('is named twoStep (the inspector and the audit pack show it by that id)', () => {
    expect(twoStepMachine.id).toBe('twoStep');
  });

  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(twoStepMachine, paths)).toEqual([]);
  });
});

/** The chart with calls that answer at once, for the rules the rendered paths reach only in part. */
function quickActor(confirm: ConfirmResult = { ok: true, answer: { mode: 3 } }) {
  return createActor(
    twoStepMachine.provide({
      actors: {
        startMode: fromPromise(async ({ input }) => ({ ok: true, request: requestFor(input.mode) }) satisfies StartResult),
        confirmMode: fromPromise(async () => confirm),
        refreshSession: fromPromise(async () => true),
        awaitApproval: fromCallback(() => () => undefined),
      },
    }),
    { input: { currentMode: 3 } },
  ).start();
}

describe('two-step chart: the codes and endings of document 1 §7', () => {
  it('takes an approval code of exactly six digits for the approval-code mode, and says so otherwise', async () => {
    for (const [approvalCode, ok] of [['246810', true], ['12', false], ['1234567', false], ['a12345', false], ['12345a', false], ['abcdef', false], [undefined, false]] as const) {
      const actor = quickActor();
      actor.send({ type: 'CHANGE.START' });
      actor.send({ type: 'MODE.CHOOSE', mode: 4, ...(approvalCode === undefined ? {} : { approvalCode }), password: PASSWORD });
      const s = actor.getSnapshot();
      expect(s.matches('requesting'), String(approvalCode)).toBe(ok);
      expect(s.context.error, String(approvalCode)).toBe(ok ? null : 'approvalCodeInvalid');
      actor.stop();
    }
  });

  it('sends a confirmation code of exactly six digits, and says so otherwise', async () => {
    for (const [code, ok] of [['123456', true], ['12345', false], ['1234567', false], ['a23456', false], ['12345a', false]] as const) {
      const actor = quickActor();
      actor.send({ type: 'CHANGE.START' });
      actor.send({ type: 'MODE.CHOOSE', mode: 3, password: PASSWORD });
      await settle(actor, (s) => s.matches({ confirming: 'code' }));
      actor.send({ type: 'CODE.SUBMIT', code });
      const s = actor.getSnapshot();
      expect(s.matches('verifying'), code).toBe(ok);
      expect(s.context.error, code).toBe(ok ? null : 'wrongCode');
      actor.stop();
    }
  });

  it('ends the request after too many wrong codes, on expiry or when declined; a wrong code may be typed again', async () => {
    for (const [code, gone] of [['tooManyWrong', true], ['expired', true], ['declined', true], ['wrongCode', false]] as const) {
      const actor = quickActor({ ok: false, code });
      actor.send({ type: 'CHANGE.START' });
      actor.send({ type: 'MODE.CHOOSE', mode: 3, password: PASSWORD });
      await settle(actor, (s) => s.matches({ confirming: 'code' }));
      actor.send({ type: 'CODE.SUBMIT', code: '123456' });
      const s = await settle(actor, (snap) => !snap.matches('verifying'));
      expect(s.matches('choosing'), code).toBe(gone);
      expect(s.matches('confirming'), code).toBe(!gone);
      expect(s.context.request === null, code).toBe(gone);
      expect(s.context.error).toBe(code);
      actor.stop();
    }
  });

  it('forgets the mode just confirmed when another change starts, and a change given up leaves the mode as it was', async () => {
    const actor = quickActor({ ok: true, answer: { mode: 3 } });
    actor.send({ type: 'CHANGE.START' });
    actor.send({ type: 'MODE.CHOOSE', mode: 3, password: PASSWORD });
    await settle(actor, (s) => s.matches({ confirming: 'code' }));
    actor.send({ type: 'CODE.SUBMIT', code: '123456' });
    await settle(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.confirmedMode).toBe(3);
    actor.send({ type: 'CHANGE.START' });
    expect(actor.getSnapshot().context.confirmedMode).toBeNull();
    actor.send({ type: 'CHANGE.CANCEL' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.currentMode).toBe(3);
    actor.stop();
  });
});

describe('two-step model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const events of sequences) for (const key of transitionsTaken(twoStepMachine, { currentMode: 3 }, [events as never])) taken.add(key);
    const missing = listTransitions(twoStepMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
