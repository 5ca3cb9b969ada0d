/**
 * Getting new recovery codes from the settings (document 2 "Security settings"; api/security.ts
 * securityPaths.recoveryCodes): the current password, then ten new codes shown once. The
 * platform deletes the unused old codes in the same call.
 *
 * ```
 * idle ─RENEW.START─▶ askingPassword ─PASSWORD.SUBMIT (password)─▶ renewing ─ok─▶ showingCodes
 *   ▲                   │  ▲   └─PASSWORD.SUBMIT (empty)─▶ askingPassword (passwordRequired)
 *   │                   │  └──────────── renewing ─failed─▶ askingPassword (error)
 *   ├───RENEW.CANCEL────┘
 *   └──────────── showingCodes ─CODES.CONTINUE (only once saved)─▶ idle
 *                  └─CODES.SAVED─▶ showingCodes ("I saved them" on or off)
 * ```
 *
 * Renewing re-authenticates: PASSWORD.SUBMIT carries the current password, which goes to the
 * platform with the request and is never kept in the context (the renewCodes input reads it off
 * the event). An empty password is refused here without calling the platform. There is no cancel
 * while renewing: the old codes may already be gone, and the new ones must reach the screen.
 * The codes come once; continuing needs "I saved them", and they leave memory on continue.
 * Pure: I/O is in the renewCodes actor the app provides (src/features/security/actors.ts);
 * errors are codes.
 */
import { assign, fromPromise, setup } from 'xstate';

export type RecoveryCodesErrorCode =
  /** the current password was left empty (said at once, nothing sent) */
  | 'passwordRequired'
  | 'wrongPassword'
  /** the platform's sign-in failure limit: wait before trying again */
  | 'tooManyPasswords'
  /** no answer, or an answer outside the contract */
  | 'network'
  | 'unknown';

export type RenewResult = { ok: true; recoveryCodes: string[] } | { ok: false; code: RecoveryCodesErrorCode };

export interface RecoveryCodesContext {
  /** the new codes while they are shown; null otherwise */
  recoveryCodes: string[] | null;
  codesSaved: boolean;
  /** new codes were made since the last RENEW.START (the view says so in idle) */
  renewed: boolean;
  error: RecoveryCodesErrorCode | null;
}

export type RecoveryCodesEvent =
  | { type: 'RENEW.START' }
  | { type: 'RENEW.CANCEL' }
  | { type: 'PASSWORD.SUBMIT'; password: string }
  | { type: 'CODES.SAVED'; saved: boolean }
  | { type: 'CODES.CONTINUE' };

export const recoveryCodesMachine = setup({
  types: {
    context: {} as RecoveryCodesContext,
    events: {} as RecoveryCodesEvent,
  },
  actors: {
    /** POST the password; answers the new codes or an error code (never throws for a refusal). */
    renewCodes: fromPromise<RenewResult, { password: string }>(async () => ({ ok: false, code: 'unknown' })),
  },
  guards: {
    hasPassword: (_, p: { password: string }) => p.password.length > 0,
    isRenewed: (_, r: RenewResult) => r.ok,
    hasSavedCodes: ({ context }) => context.codesSaved,
  },
  actions: {
    startRenewal: assign({ error: null, renewed: false }),
    rememberCodes: assign((_, r: RenewResult) => ({
      recoveryCodes: r.ok ? r.recoveryCodes : null,
      codesSaved: false,
      renewed: r.ok,
      error: null,
    })),
    setError: assign((_, p: { code: RecoveryCodesErrorCode }) => ({ error: p.code })),
    clearError: assign({ error: null }),
    setCodesSaved: assign((_, p: { saved: boolean }) => ({ codesSaved: p.saved })),
    /** Recovery codes leave memory once the user says they are saved (the next codes come with codesSaved false: rememberCodes). */
    forgetCodes: assign({ recoveryCodes: null }),
  },
}).createMachine({
  id: 'recoveryCodes',
  description: 'Getting new recovery codes in the security settings: the current password, then ten new codes shown once.',
  meta: { spec: ['document 2 §5'] },
  context: {
    recoveryCodes: null,
    // Stryker disable next-line BooleanLiteral: read only in showingCodes, and every way there sets it anew (rememberCodes)
    codesSaved: false,
    renewed: false,
    error: null,
  },
  initial: 'idle',
  states: {
    idle: {
      description: 'No renewal is in progress.',
      on: { 'RENEW.START': { target: 'askingPassword', description: 'The user asks for new recovery codes.', actions: 'startRenewal' } },
    },
    askingPassword: {
      description: 'The user is asked for the current password to confirm the renewal.',
      on: {
        'PASSWORD.SUBMIT': [
          // A new attempt: the previous error goes (the view moves focus to the field on the next one).
          {
            description: 'A password was given: new codes are requested with it.',
            guard: { type: 'hasPassword', params: ({ event }) => event },
            target: 'renewing',
            actions: 'clearError',
          },
          { description: 'The password is empty: the user is told and nothing is sent.', actions: { type: 'setError', params: { code: 'passwordRequired' } } },
        ],
        'RENEW.CANCEL': {
          target: 'idle',
          description: 'The user cancels; the old codes stay valid.',
          // Stryker disable next-line StringLiteral: equivalent (RENEW.START clears the error again before it could show); cleared so idle holds none
          actions: 'clearError',
        },
      },
    },
    renewing: {
      description: 'New codes are being issued; the unused old codes are deleted in the same call. This cannot be cancelled.',
      tags: ['busy'],
      invoke: {
        id: 'renewCodes',
        src: 'renewCodes',
        // The password rides on the event that led here (PASSWORD.SUBMIT): sent, never stored.
        // Stryker disable next-line ConditionalExpression,StringLiteral: only PASSWORD.SUBMIT leads here (the branch is for TypeScript)
        input: ({ event }) => ({ password: event.type === 'PASSWORD.SUBMIT' ? event.password : '' }),
        onDone: [
          {
            description: 'The new codes were issued: they are shown once.',
            guard: { type: 'isRenewed', params: ({ event }) => event.output },
            target: 'showingCodes',
            actions: { type: 'rememberCodes', params: ({ event }) => event.output },
          },
          {
            description: 'The platform refused (for example a wrong password): the user sees why and may try again.',
            target: 'askingPassword',
            actions: {
              type: 'setError',
              // Stryker disable next-line StringLiteral: unreachable, the guard above takes every ok answer (TypeScript needs the branch)
              params: ({ event }) => ({ code: event.output.ok ? 'unknown' : event.output.code }),
            },
          },
        ],
        onError: {
          description: 'The call failed (network): the user may try again.',
          target: 'askingPassword',
          actions: { type: 'setError', params: { code: 'network' } },
        },
      },
    },
    showingCodes: {
      description: 'The new recovery codes are shown once; the user must save them before continuing.',
      on: {
        'CODES.SAVED': {
          description: 'The user ticks (or unticks) that the recovery codes are saved.',
          actions: { type: 'setCodesSaved', params: ({ event }) => event },
        },
        'CODES.CONTINUE': {
          description: 'The user has saved the codes and continues; the codes leave memory.',
          guard: 'hasSavedCodes',
          target: 'idle',
          actions: 'forgetCodes',
        },
      },
    },
  },
});

export type RecoveryCodesMachine = typeof recoveryCodesMachine;
