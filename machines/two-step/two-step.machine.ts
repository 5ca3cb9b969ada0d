/**
 * Changing the two-step verification mode (document 1 §7; document 2 "Security settings"):
 * the mode is set, then confirmed with a code at a path carrying {reqId}.
 *
 * ```
 * idle ─CHANGE.START─▶ choosing ─MODE.CHOOSE (+ password)─▶ requesting ─ok─▶ confirming
 *   ▲                     ▲  └─CHANGE.CANCEL─▶ idle      └─failed─▶ choosing (error)
 *   │                     │
 *   │   confirming.code ─CODE.SUBMIT─▶ verifying ─ok─▶ refreshing ─▶ showingCodes | idle
 *   │          │                          ├─wrong─▶ confirming.code (error)
 *   │          │                          └─gone─▶ choosing (error)
 *   │   confirming.awaitingPhone ─APPROVAL.CONFIRMED─▶ verifying (collects the answer)
 *   │          └─CHANGE.CANCEL─▶ choosing
 *   └──────────── showingCodes ─CODES.CONTINUE (only once saved)─▶ idle
 * ```
 *
 * Choosing re-authenticates: MODE.CHOOSE carries the current password, which goes to the platform
 * with the request and is never kept in the context (the startMode input reads it off the event).
 * The input per mode: otp a code from the new authenticator (the view shows the QR code), sms the
 * code sent, approvalCode the chosen code once more, push nothing: the phone approves and the
 * push event TwoStepVerificationConfirmed arrives (the awaitApproval actor turns it into
 * APPROVAL.CONFIRMED). After a confirmation the session tokens are refreshed (refreshSession) so a
 * 'setup2fa' restriction lifts. Recovery codes come once; continuing needs "I saved them".
 * Pure: I/O is in actors the app provides (src/features/security/actors.ts); errors are codes.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { TwoStepConfirmResponse, TwoStepModeCode, TwoStepSetResponse } from '../../api/security.ts';

export type TwoStepErrorCode =
  | 'approvalCodeInvalid'
  /** the current password was left empty */
  | 'passwordRequired'
  | 'wrongPassword'
  | 'tooManyPasswords'
  | 'noDevice'
  | 'noPhone'
  | 'tooManyRequests'
  | 'setupRequired'
  | 'wrongCode'
  | 'tooManyWrong'
  | 'expired'
  | 'declined'
  | 'waiting'
  | 'network'
  | 'unknown';

export type StartResult = { ok: true; request: TwoStepSetResponse } | { ok: false; code: TwoStepErrorCode };
export type ConfirmResult = { ok: true; answer: TwoStepConfirmResponse } | { ok: false; code: TwoStepErrorCode };

export interface TwoStepInput {
  /** customers.two_step_verification_mode, null when none was ever set */
  currentMode: TwoStepModeCode | null;
}

export interface TwoStepContext {
  currentMode: TwoStepModeCode | null;
  chosenMode: TwoStepModeCode | null;
  approvalCode: string | null;
  request: TwoStepSetResponse | null;
  recoveryCodes: string[] | null;
  codesSaved: boolean;
  /** the mode just confirmed (the view says so in idle) */
  confirmedMode: TwoStepModeCode | null;
  error: TwoStepErrorCode | null;
}

export type TwoStepEvent =
  | { type: 'CHANGE.START' }
  | { type: 'CHANGE.CANCEL' }
  | { type: 'MODE.CHOOSE'; mode: TwoStepModeCode; approvalCode?: string; password: string }
  | { type: 'CODE.SUBMIT'; code: string }
  | { type: 'APPROVAL.CONFIRMED' }
  | { type: 'CODES.SAVED'; saved: boolean }
  | { type: 'CODES.CONTINUE' };

/** Errors that end the request: the user starts again from the choice. */
const REQUEST_GONE: readonly TwoStepErrorCode[] = ['tooManyWrong', 'expired', 'declined'];

export const twoStepMachine = setup({
  types: {
    context: {} as TwoStepContext,
    events: {} as TwoStepEvent,
    input: {} as TwoStepInput,
  },
  actors: {
    startMode: fromPromise<StartResult, { mode: TwoStepModeCode; approvalCode: string | null; password: string }>(async () => ({
      ok: false,
      code: 'unknown',
    })),
    confirmMode: fromPromise<ConfirmResult, { reqId: string; code: string | null }>(async () => ({ ok: false, code: 'unknown' })),
    /** Sends APPROVAL.CONFIRMED when the push event for this request arrives. */
    awaitApproval: fromCallback<TwoStepEvent, { reqId: string }>(() => () => undefined),
    /** Refreshes the session tokens (a restriction lifts); never fails the flow. */
    refreshSession: fromPromise<boolean>(async () => true),
  },
  guards: {
    hasApprovalCodeIfNeeded: (_, p: { mode: TwoStepModeCode; approvalCode?: string }) =>
      p.mode !== 4 || (p.approvalCode !== undefined && /^\d{6}$/.test(p.approvalCode)),
    isChoiceComplete: (_, p: { mode: TwoStepModeCode; approvalCode?: string; password: string }) =>
      (p.mode !== 4 || (p.approvalCode !== undefined && /^\d{6}$/.test(p.approvalCode))) && p.password.length > 0,
    isStarted: (_, r: StartResult) => r.ok,
    isConfirmed: (_, r: ConfirmResult) => r.ok,
    isRequestGone: (_, r: ConfirmResult) => !r.ok && REQUEST_GONE.includes(r.code),
    isPushMode: ({ context }) => context.chosenMode === 1,
    hasRecoveryCodes: ({ context }) => (context.recoveryCodes?.length ?? 0) > 0,
    hasSavedCodes: ({ context }) => context.codesSaved,
    isSixDigits: (_, p: { code: string }) => /^\d{6}$/.test(p.code),
  },
  actions: {
    rememberChoice: assign((_, p: { mode: TwoStepModeCode; approvalCode?: string }) => ({
      chosenMode: p.mode,
      approvalCode: p.approvalCode ?? null,
      error: null,
    })),
    rememberRequest: assign((_, r: StartResult) => ({ request: r.ok ? r.request : null, error: null })),
    rememberConfirmation: assign(({ context }, r: ConfirmResult) => ({
      recoveryCodes: r.ok ? (r.answer.recoveryCodes ?? null) : null,
      currentMode: r.ok ? r.answer.mode : context.currentMode,
      confirmedMode: r.ok ? r.answer.mode : null,
      codesSaved: false,
      approvalCode: null,
      error: null,
    })),
    setError: assign((_, p: { code: TwoStepErrorCode }) => ({ error: p.code })),
    clearError: assign({ error: null }),
    forgetRequest: assign({ request: null, approvalCode: null }),
    setCodesSaved: assign((_, p: { saved: boolean }) => ({ codesSaved: p.saved })),
    /** Recovery codes leave memory once the user says they are saved. */
    forgetCodes: assign({ recoveryCodes: null, codesSaved: false }),
    clearConfirmed: assign({ confirmedMode: null }),
  },
}).createMachine({
  id: 'twoStep',
  context: ({ input }) => ({
    currentMode: input.currentMode,
    chosenMode: null,
    approvalCode: null,
    request: null,
    recoveryCodes: null,
    codesSaved: false,
    confirmedMode: null,
    error: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'CHANGE.START': { target: 'choosing', actions: ['clearError', 'clearConfirmed'] } },
    },
    choosing: {
      on: {
        'MODE.CHOOSE': [
          {
            guard: { type: 'isChoiceComplete', params: ({ event }) => event },
            target: 'requesting',
            actions: { type: 'rememberChoice', params: ({ event }) => event },
          },
          // The approval code is fine, so the password is what is missing (said at once; the
          // platform checks a given one).
          {
            guard: { type: 'hasApprovalCodeIfNeeded', params: ({ event }) => event },
            actions: { type: 'setError', params: { code: 'passwordRequired' } },
          },
          { actions: { type: 'setError', params: { code: 'approvalCodeInvalid' } } },
        ],
        'CHANGE.CANCEL': { target: 'idle', actions: 'clearError' },
      },
    },
    requesting: {
      tags: ['busy'],
      invoke: {
        id: 'startMode',
        src: 'startMode',
        // The password rides on the event that led here (MODE.CHOOSE): sent, never stored.
        input: ({ context, event }) => ({
          mode: context.chosenMode!,
          approvalCode: context.approvalCode,
          password: event.type === 'MODE.CHOOSE' ? event.password : '',
        }),
        onDone: [
          {
            guard: { type: 'isStarted', params: ({ event }) => event.output },
            target: 'confirming',
            actions: { type: 'rememberRequest', params: ({ event }) => event.output },
          },
          {
            target: 'choosing',
            actions: { type: 'setError', params: ({ event }) => ({ code: event.output.ok ? 'unknown' : event.output.code }) },
          },
        ],
        onError: { target: 'choosing', actions: { type: 'setError', params: { code: 'network' } } },
      },
    },
    confirming: {
      initial: 'deciding',
      on: { 'CHANGE.CANCEL': { target: 'choosing', actions: ['forgetRequest', 'clearError'] } },
      states: {
        deciding: {
          always: [{ guard: 'isPushMode', target: 'awaitingPhone' }, { target: 'code' }],
        },
        code: {
          on: {
            'CODE.SUBMIT': [
              { guard: { type: 'isSixDigits', params: ({ event }) => event }, target: '#twoStep.verifying' },
              { actions: { type: 'setError', params: { code: 'wrongCode' } } },
            ],
          },
        },
        awaitingPhone: {
          invoke: { id: 'awaitApproval', src: 'awaitApproval', input: ({ context }) => ({ reqId: context.request!.reqId }) },
          on: { 'APPROVAL.CONFIRMED': { target: '#twoStep.verifying' } },
        },
      },
    },
    verifying: {
      tags: ['busy'],
      invoke: {
        id: 'confirmMode',
        src: 'confirmMode',
        input: ({ context, event }) => ({
          reqId: context.request!.reqId,
          code: event.type === 'CODE.SUBMIT' ? event.code : null,
        }),
        onDone: [
          {
            guard: { type: 'isConfirmed', params: ({ event }) => event.output },
            target: 'refreshing',
            actions: { type: 'rememberConfirmation', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isRequestGone', params: ({ event }) => event.output },
            target: 'choosing',
            actions: ['forgetRequest', { type: 'setError', params: ({ event }) => ({ code: event.output.ok ? 'unknown' : event.output.code }) }],
          },
          {
            target: 'confirming',
            actions: { type: 'setError', params: ({ event }) => ({ code: event.output.ok ? 'unknown' : event.output.code }) },
          },
        ],
        onError: { target: 'confirming', actions: { type: 'setError', params: { code: 'network' } } },
      },
    },
    refreshing: {
      tags: ['busy'],
      invoke: {
        id: 'refreshSession',
        src: 'refreshSession',
        onDone: [{ guard: 'hasRecoveryCodes', target: 'showingCodes' }, { target: 'idle', actions: 'forgetRequest' }],
        onError: [{ guard: 'hasRecoveryCodes', target: 'showingCodes' }, { target: 'idle', actions: 'forgetRequest' }],
      },
    },
    showingCodes: {
      on: {
        'CODES.SAVED': { actions: { type: 'setCodesSaved', params: ({ event }) => event } },
        'CODES.CONTINUE': { guard: 'hasSavedCodes', target: 'idle', actions: ['forgetCodes', 'forgetRequest'] },
      },
    },
  },
});

export type TwoStepMachine = typeof twoStepMachine;
