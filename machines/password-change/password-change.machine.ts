/**
 * Change password from the settings (document 1 §7; document 2 "Security settings" change
 * password and confirm: code, requestKey; document 3 §7 PasswordChange push).
 *
 * ```
 * editing ─PASSWORD.SUBMIT (strong, confirmed)─▶ requesting ─ok─▶ confirming ─CODE.SUBMIT─▶ confirmingCode ─ok─▶ changed
 *    ▲                                            └─fail─▶ editing            │ └─wrong/expired─▶ confirming
 *    └──────────────── canceled ◀─ canceling ◀─ CANCEL ───────────────────────┘
 * changed / canceled ─RESTART─▶ editing
 * ```
 *
 * The platform publishes PasswordChange (changed or canceled) after a confirm or cancel; the app's
 * push toast shows it. Pure: actors come from src/features/recovery/actors.ts; errors are codes.
 */
import { assign, fromPromise, setup } from 'xstate';
import * as v from 'valibot';
import { PasswordSchema } from '../../api/auth.ts';

export type PasswordChangeErrorCode =
  | 'currentPasswordWrong'
  | 'samePassword'
  | 'rateLimited'
  | 'codeWrong'
  | 'codeExpired'
  | 'codeDead'
  | 'requestGone'
  | 'network'
  | 'unknown';
export type PasswordChangeFieldError = 'currentRequired' | 'passwordWeak' | 'passwordMismatch' | 'codeFormat';

export type StartChangeResult = { ok: true; requestKey: string; sentTo: string } | { ok: false; code: PasswordChangeErrorCode };
export type ChangeStepResult = { ok: true } | { ok: false; code: PasswordChangeErrorCode };

export interface PasswordChangeContext {
  requestKey: string | null;
  sentTo: string | null;
  error: PasswordChangeErrorCode | null;
  fieldError: PasswordChangeFieldError | null;
}

export type PasswordChangeEvent =
  | { type: 'PASSWORD.SUBMIT'; currentPassword: string; newPassword: string; confirmation: string }
  | { type: 'CODE.SUBMIT'; code: string }
  | { type: 'CANCEL' }
  | { type: 'RESTART' };

export const CHANGE_CODE_PATTERN = /^[0-9A-Za-z]{8}$/;

function failureCode(output: { ok: boolean; code?: PasswordChangeErrorCode }): PasswordChangeErrorCode {
  return output.ok ? 'unknown' : (output.code ?? 'unknown');
}

export const passwordChangeMachine = setup({
  types: {
    context: {} as PasswordChangeContext,
    events: {} as PasswordChangeEvent,
  },
  actors: {
    startChange: fromPromise<StartChangeResult, { currentPassword: string; newPassword: string }>(async () => ({ ok: false, code: 'unknown' })),
    confirmChange: fromPromise<ChangeStepResult, { requestKey: string; code: string }>(async () => ({ ok: false, code: 'unknown' })),
    cancelChange: fromPromise<ChangeStepResult, { requestKey: string }>(async () => ({ ok: false, code: 'unknown' })),
  },
  actions: {
    storeRequest: assign((_, r: { requestKey: string; sentTo: string }) => ({ requestKey: r.requestKey, sentTo: r.sentTo, error: null, fieldError: null })),
    setError: assign((_, code: PasswordChangeErrorCode) => ({ error: code, fieldError: null })),
    setFieldError: assign((_, fieldError: PasswordChangeFieldError) => ({ fieldError, error: null })),
    clearErrors: assign({ error: null, fieldError: null }),
    forgetRequest: assign({ requestKey: null, sentTo: null }),
  },
  guards: {
    succeeded: (_, r: { ok: boolean }) => r.ok,
    isCurrentMissing: (_, current: string) => current.length === 0,
    isWeakPassword: (_, password: string) => !v.is(PasswordSchema, password),
    isMismatch: (_, e: { newPassword: string; confirmation: string }) => e.newPassword !== e.confirmation,
    isCodeShaped: (_, code: string) => CHANGE_CODE_PATTERN.test(code.trim()),
    /** the request can no longer be confirmed: only a new change helps */
    isRequestGone: (_, r: { ok: boolean; code?: PasswordChangeErrorCode }) => !r.ok && (r.code === 'requestGone' || r.code === 'codeDead' || r.code === 'codeExpired'),
  },
}).createMachine({
  id: 'passwordChange',
  context: { requestKey: null, sentTo: null, error: null, fieldError: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'PASSWORD.SUBMIT': [
          { guard: { type: 'isCurrentMissing', params: ({ event }) => event.currentPassword }, actions: { type: 'setFieldError', params: 'currentRequired' } },
          { guard: { type: 'isWeakPassword', params: ({ event }) => event.newPassword }, actions: { type: 'setFieldError', params: 'passwordWeak' } },
          { guard: { type: 'isMismatch', params: ({ event }) => event }, actions: { type: 'setFieldError', params: 'passwordMismatch' } },
          { target: 'requesting', actions: 'clearErrors' },
        ],
      },
    },
    requesting: {
      tags: ['busy'],
      invoke: {
        id: 'startChange',
        src: 'startChange',
        input: ({ event }) =>
          event.type === 'PASSWORD.SUBMIT' ? { currentPassword: event.currentPassword, newPassword: event.newPassword } : { currentPassword: '', newPassword: '' },
        onDone: [
          {
            guard: { type: 'succeeded', params: ({ event }) => event.output },
            target: 'confirming',
            actions: { type: 'storeRequest', params: ({ event }) => event.output as Extract<StartChangeResult, { ok: true }> },
          },
          { target: 'editing', actions: { type: 'setError', params: ({ event }) => failureCode(event.output) } },
        ],
        onError: { target: 'editing', actions: { type: 'setError', params: 'unknown' } },
      },
    },
    confirming: {
      on: {
        'CODE.SUBMIT': [
          { guard: { type: 'isCodeShaped', params: ({ event }) => event.code }, target: 'confirmingCode', actions: 'clearErrors' },
          { actions: { type: 'setFieldError', params: 'codeFormat' } },
        ],
        CANCEL: { target: 'canceling', actions: 'clearErrors' },
      },
    },
    confirmingCode: {
      tags: ['busy'],
      invoke: {
        id: 'confirmChange',
        src: 'confirmChange',
        input: ({ context, event }) => ({ requestKey: context.requestKey ?? '', code: event.type === 'CODE.SUBMIT' ? event.code.trim().toUpperCase() : '' }),
        onDone: [
          { guard: { type: 'succeeded', params: ({ event }) => event.output }, target: 'changed', actions: 'forgetRequest' },
          // A dead, expired or unknown request: back to the form to start a new change.
          {
            guard: { type: 'isRequestGone', params: ({ event }) => event.output },
            target: 'editing',
            actions: [{ type: 'setError', params: ({ event }) => failureCode(event.output) }, 'forgetRequest'],
          },
          { target: 'confirming', actions: { type: 'setError', params: ({ event }) => failureCode(event.output) } },
        ],
        onError: { target: 'confirming', actions: { type: 'setError', params: 'unknown' } },
      },
    },
    canceling: {
      tags: ['busy'],
      invoke: {
        id: 'cancelChange',
        src: 'cancelChange',
        input: ({ context }) => ({ requestKey: context.requestKey ?? '' }),
        // Whatever the answer, nothing is pending any more that this form could confirm.
        onDone: [
          { guard: { type: 'succeeded', params: ({ event }) => event.output }, target: 'canceled', actions: 'forgetRequest' },
          { target: 'confirming', actions: { type: 'setError', params: ({ event }) => failureCode(event.output) } },
        ],
        onError: { target: 'confirming', actions: { type: 'setError', params: 'unknown' } },
      },
    },
    changed: {
      on: { RESTART: { target: 'editing', actions: 'clearErrors' } },
    },
    canceled: {
      on: { RESTART: { target: 'editing', actions: 'clearErrors' } },
    },
  },
});

export type PasswordChangeMachine = typeof passwordChangeMachine;
