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
import { fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import type { TwoStepModeCode, TwoStepSetResponse } from '../../api/security.ts';
import {
  twoStepMachine,
  type ConfirmResult,
  type StartResult,
  type TwoStepEvent,
} from '../../machines/two-step/two-step.machine.ts';
import { TwoStepSection } from '../../src/features/security/two-step-section.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, matchesPath, runPathCheckingEveryStep, transitionsTaken } from './coverage.ts';
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
  render(
    <I18nProvider i18n={i18n}>
      <TwoStepSection session={{ getAccessToken: () => null, refresh: async () => true }} currentMode={3} restriction="setup2fa" logic={logic} />
    </I18nProvider>,
  );
  return { q, phone, user };
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

function expectError(s: Snap) {
  if (s.context.error) expect(screen.getAllByText(ERROR_TEXT[s.context.error]!).length).toBeGreaterThan(0);
  else for (const pattern of Object.values(ERROR_TEXT)) expect(screen.queryByText(pattern)).toBeNull();
}

function stateChecks(h: Harness) {
  const codeHeading = (mode: TwoStepModeCode) =>
    mode === 3 ? /scan the qr code/i : mode === 2 ? /enter the code we sent to \+370 \*\*\* \*\*12/i : /enter your approval code again/i;
  return {
    idle: async (s: Snap) => {
      await screen.findByRole('button', { name: /change two-step verification/i });
      // The restricted session is explained in every step.
      expect(screen.getByText(/you signed in with a recovery code/i)).toBeTruthy();
      // The input's mode (3) or the one just confirmed: always a current method here.
      expect(screen.getByText(/current method:/i)).toBeTruthy();
      if (s.context.confirmedMode) expect(screen.getByText(/two-step verification is now: /i)).toBeTruthy();
      else expect(screen.queryByText(/two-step verification is now/i)).toBeNull();
      expect(screen.queryByText(CODES[0]!)).toBeNull();
    },
    choosing: async (s: Snap) => {
      await screen.findByRole('heading', { name: /choose how to confirm/i });
      await waitFor(() => expect(screen.getByRole('button', { name: /^continue$/i }).getAttribute('aria-busy')).toBeNull());
      expect(screen.getByRole('group', { name: /method/i })).toBeTruthy();
      expectError(s);
    },
    requesting: async (s: Snap) => {
      await waitFor(() => expect(screen.getByRole('button', { name: /^continue$/i }).getAttribute('aria-busy')).toBe('true'));
      // the password typed goes with the request, and is not kept by the machine
      expect(h.q.startMode.calls.at(-1)).toEqual({ mode: s.context.chosenMode, approvalCode: s.context.chosenMode === 4 ? '246810' : null, password: PASSWORD });
      expect(JSON.stringify(s.context)).not.toContain(PASSWORD);
    },
    'confirming.code': async (s: Snap) => {
      const mode = s.context.request!.mode;
      await screen.findByRole('heading', { name: codeHeading(mode) });
      await waitFor(() => expect(screen.getByRole('button', { name: /^confirm$/i }).getAttribute('aria-busy')).toBeNull());
      if (mode === 3) {
        expect(screen.getByRole('img', { name: /qr code of your new authenticator key/i })).toBeTruthy();
        expect(screen.getByText(SECRET)).toBeTruthy();
      } else {
        expect(screen.queryByRole('img')).toBeNull();
      }
      expectError(s);
    },
    'confirming.awaitingPhone': async (s: Snap) => {
      await screen.findByRole('heading', { name: /approve the change on your phone/i });
      expect(screen.getByText(/asked your 2 linked phones/i)).toBeTruthy();
      expect(h.phone.sendBack).not.toBeNull();
      expect(h.phone.reqIds.at(-1)).toBe('req-1');
      expectError(s);
    },
    verifying: async (s: Snap) => {
      if (s.context.chosenMode === 1) {
        await screen.findByRole('heading', { name: /approve the change on your phone/i });
        await waitFor(() => expect(h.q.confirmMode.waiting).toBe(1));
        expect(h.q.confirmMode.calls.at(-1)).toEqual({ reqId: 'req-1', code: null });
      } else {
        await waitFor(() => expect(screen.getByRole('button', { name: /^confirm$/i }).getAttribute('aria-busy')).toBe('true'));
        expect(h.q.confirmMode.calls.at(-1)).toEqual({ reqId: s.context.request!.reqId, code: '123456' });
      }
    },
    refreshing: async () => {
      await waitFor(() => expect(h.q.refreshSession.waiting).toBe(1));
    },
    showingCodes: async (s: Snap) => {
      await screen.findByRole('heading', { name: /save your recovery codes/i });
      const list = screen.getByRole('list');
      expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES);
      const box = screen.getByRole('checkbox', { name: /i saved my recovery codes/i }) as HTMLInputElement;
      await waitFor(() => expect(box.checked).toBe(s.context.codesSaved));
      expect((screen.getByRole('button', { name: /^continue$/i }) as HTMLButtonElement).disabled).toBe(!s.context.codesSaved);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const answer = (queue: AnswerQueue<any, any>) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  return {
    'CHANGE.START': async () => h.user.click(screen.getByRole('button', { name: /change two-step verification/i })),
    'CHANGE.CANCEL': async () => h.user.click(screen.getByRole('button', { name: /^cancel$/i })),
    'MODE.CHOOSE': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<TwoStepEvent, { type: 'MODE.CHOOSE' }>;
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
      // Mode 4 asks for the approval code again in a password field (no textbox role).
      const field = screen.getByLabelText(/^(code|approval code)$/i);
      await h.user.clear(field);
      await h.user.type(field, e.code);
      await h.user.click(screen.getByRole('button', { name: /^confirm$/i }));
    },
    'APPROVAL.CONFIRMED': async () => {
      await act(async () => h.phone.sendBack?.({ type: 'APPROVAL.CONFIRMED' }));
    },
    'CODES.SAVED': async ({ event }: { event: ModelEvent }) => {
      const e = event as Extract<TwoStepEvent, { type: 'CODES.SAVED' }>;
      const box = screen.getByRole('checkbox', { name: /i saved my recovery codes/i }) as HTMLInputElement;
      if (box.checked !== e.saved) await h.user.click(box);
    },
    'CODES.CONTINUE': async () => h.user.click(screen.getByRole('button', { name: /^continue$/i })),
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

describe('two-step model: transition coverage', () => {
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const events of sequences) for (const key of transitionsTaken(twoStepMachine, { currentMode: 3 }, [events as never])) taken.add(key);
    const missing = listTransitions(twoStepMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
