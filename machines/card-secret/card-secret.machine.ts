/**
 * Showing a card's secret after a fresh approval (document 2 §7 show PIN, get PIN; issue 16 items 3
 * and 4): the PIN, or the card's number, CVV and expiry (showPin with reveal 'card', our design).
 *
 * ```
 * hidden ─REVEAL (pin | card)─▶ requesting ─ok─▶ approving ─CODE.SUBMIT (well formed)─▶ verifying ─ok─▶ visible
 *   ▲                              └─refused, no answer─▶ hidden     ├─wrong code (tries left)─▶ approving
 *   │                                                                ├─no answer─▶ approving
 *   │                                                                └─refused (tries used up, over)─▶ hidden
 *   ├─ approving ─APPROVAL.CANCEL─┘ · ─after untilExpiry─▶ hidden (expired)
 *   └─ visible ─after visibleFor (visibleForMs, 30 s at most) or SECRET.HIDE─┘  (the secret cleared)
 * ```
 *
 * The approval is the customer's own mode: a 6-digit code by sms or otp, their approval code
 * (4-32 letters and digits), or their sign-in password where the mode is none or push (api/cards.ts
 * RevealApproveType). The secret is in the context only while `visible`: leaving it (the timer, the
 * customer's "hide", a new reveal) clears it, and so does stopping the actor with the page. Nothing
 * here logs, stores or reports it; the typed code or password is kept only while it is checked.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../../api/envelope.ts';
import type { RevealApproveType } from '../../api/cards.ts';

/** The longest a secret stays on the screen, whatever the platform says (issue 16: hidden again after 30 seconds). */
export const SECRET_VISIBLE_MAX_MS = 30_000;
/** setTimeout holds at most 2^31-1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

export type RevealKind = 'pin' | 'card';

/** What showPin answered: the approval under way. */
export interface RevealOperation {
  operationId: number;
  approveType: RevealApproveType;
  /** where the code went (a masked phone for sms), null when nothing was sent */
  approvalSentTo: string | null;
  /** ISO time the approval expires */
  expiresAt: string;
}

/** What getPin answered: the PIN, or the number, CVV and expiry. */
export interface CardSecret {
  pinCode: string | null;
  cardNumber: string | null;
  cvv: string | null;
  cardExpiryMonth: number | null;
  cardExpiryYear: number | null;
}

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
export type ShowResult = { ok: true; operation: RevealOperation } | Refusal;
export type GetSecretResult =
  | { ok: true; secret: CardSecret; visibleForMs: number }
  /** VF on approvalCode with tries left: the customer types another */
  | { ok: false; code: 'wrongCode'; failure: Failure }
  | Refusal;

export type CardSecretEvent = { type: 'REVEAL'; reveal: RevealKind } | { type: 'CODE.SUBMIT'; code: string } | { type: 'APPROVAL.CANCEL' } | { type: 'SECRET.HIDE' };

export type CardSecretError = 'showFailed' | 'codeFormat' | 'wrongCode' | 'network' | 'failed' | 'expired';

export interface CardSecretContext {
  accountId: number;
  /** what is being revealed (or was last) */
  reveal: RevealKind;
  operation: RevealOperation | null;
  /** the code or password being checked: only while verifying */
  attempt: string | null;
  /** only while visible */
  secret: CardSecret | null;
  visibleForMs: number;
  error: CardSecretError | null;
  /** the platform's answer for showFailed, wrongCode and failed (the view says it in the customer's language) */
  failure: Failure | null;
  /** a secret was shown and is hidden again (the view announces it) */
  hiddenAgain: boolean;
}

/** The shape a code must have for the approval mode (nothing is sent otherwise). */
export function isWellFormedCode(mode: RevealApproveType, code: string): boolean {
  switch (mode) {
    case 'sms':
    case 'otp':
      return /^\d{6}$/.test(code);
    case 'approvalCode':
      return /^[A-Za-z0-9]{4,32}$/.test(code);
    case 'password':
      return code.length > 0 && code.length <= 200;
  }
}

export const cardSecretMachine = setup({
  types: {
    context: {} as CardSecretContext,
    events: {} as CardSecretEvent,
    input: {} as { accountId: number },
  },
  actors: {
    /** showPin {accountId, reveal} */
    showSecret: fromPromise<ShowResult, { accountId: number; reveal: RevealKind }>(async () => {
      throw new Error('showSecret is provided by the app');
    }),
    /** getPin {accountId, operationId, approvalCode} */
    getSecret: fromPromise<GetSecretResult, { accountId: number; operationId: number; approvalCode: string }>(async () => {
      throw new Error('getSecret is provided by the app');
    }),
  },
  delays: {
    visibleFor: ({ context }) => (context.visibleForMs > 0 ? Math.min(context.visibleForMs, SECRET_VISIBLE_MAX_MS) : SECRET_VISIBLE_MAX_MS),
    untilExpiry: ({ context }) => {
      const ms = Date.parse(context.operation?.expiresAt ?? '') - Date.now();
      return Number.isNaN(ms) ? MAX_TIMER_MS : Math.min(Math.max(ms, 0), MAX_TIMER_MS);
    },
  },
  guards: {
    isOk: (_, r: { ok: boolean }) => r.ok,
    isWrongCode: (_, r: GetSecretResult) => !r.ok && r.code === 'wrongCode',
    isNetwork: (_, r: GetSecretResult) => !r.ok && r.code === 'network',
    isWellFormed: ({ context }, code: string) => context.operation !== null && isWellFormedCode(context.operation.approveType, code),
  },
  actions: {
    startReveal: assign((_, reveal: RevealKind) => ({ reveal, operation: null, secret: null, error: null, failure: null, hiddenAgain: false })),
    storeOperation: assign((_, r: ShowResult) => ({ operation: r.ok ? r.operation : null })),
    startAttempt: assign((_, code: string) => ({ attempt: code, error: null, failure: null })),
    forgetAttempt: assign({ attempt: null }),
    setError: assign((_, p: { code: CardSecretError; failure?: Failure | null }) => ({ error: p.code, failure: p.failure ?? null })),
    endApproval: assign({ operation: null, attempt: null }),
    showSecret: assign((_, r: GetSecretResult) => ({ secret: r.ok ? r.secret : null, visibleForMs: r.ok ? r.visibleForMs : 0, attempt: null, operation: null })),
    clearSecret: assign({ secret: null, visibleForMs: 0, hiddenAgain: true }),
  },
}).createMachine({
  id: 'cardSecret',
  description: "The customer sees a card's PIN, or its number, CVV and expiry, after approving again; it is hidden and forgotten after 30 seconds.",
  meta: { spec: ['document 2 §4', 'document 2 §7'] },
  context: ({ input }) => ({
    accountId: input.accountId,
    reveal: 'pin',
    operation: null,
    attempt: null,
    secret: null,
    visibleForMs: 0,
    error: null,
    failure: null,
    hiddenAgain: false,
  }),
  initial: 'hidden',
  states: {
    hidden: {
      description: 'Nothing secret is on the screen; the customer may ask to see the PIN or the card details.',
      on: {
        REVEAL: {
          target: 'requesting',
          actions: { type: 'startReveal', params: ({ event }) => event.reveal },
          description: 'The customer asks to see the PIN or the card details: a fresh approval is started.',
        },
      },
    },
    requesting: {
      description: 'The platform starts the approval of the reveal (show PIN) and sends a code where the mode sends one.',
      meta: { spec: ['document 2 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'showSecret',
        src: 'showSecret',
        input: ({ context }) => ({ accountId: context.accountId, reveal: context.reveal }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'approving',
            actions: { type: 'storeOperation', params: ({ event }) => event.output },
            description: 'The approval is under way: the customer types the code or the password.',
          },
          {
            target: 'hidden',
            actions: {
              type: 'setError',
              params: ({ event }) => ({ code: 'showFailed', failure: !event.output.ok && event.output.code === 'failed' ? event.output.failure : null }),
            },
            description: 'The platform refused to start the approval (the card does not allow it now) or did not answer.',
          },
        ],
        onError: { target: 'hidden', actions: { type: 'setError', params: { code: 'showFailed' } }, description: 'The call failed without an answer.' },
      },
    },
    approving: {
      description: 'The customer approves the reveal: a code by sms, otp or their approval code, or their sign-in password.',
      meta: { spec: ['document 2 §4'] },
      after: {
        untilExpiry: {
          target: 'hidden',
          actions: ['endApproval', { type: 'setError', params: { code: 'expired' } }],
          description: 'The approval reached its expiry time; the customer may start again.',
        },
      },
      on: {
        'CODE.SUBMIT': [
          {
            guard: { type: 'isWellFormed', params: ({ event }) => event.code },
            target: 'verifying',
            actions: { type: 'startAttempt', params: ({ event }) => event.code },
            description: 'The code (or password) has the shape the mode needs; it is checked.',
          },
          {
            actions: { type: 'setError', params: { code: 'codeFormat' } },
            description: 'The code does not have the shape the mode needs; the customer is told and nothing is sent.',
          },
        ],
        'APPROVAL.CANCEL': { target: 'hidden', actions: 'endApproval', description: 'The customer gives up; nothing is shown.' },
      },
    },
    verifying: {
      description: 'The platform checks the code or password and answers the secret (get PIN); the customer waits.',
      meta: { spec: ['document 2 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'getSecret',
        src: 'getSecret',
        input: ({ context }) => ({ accountId: context.accountId, operationId: context.operation!.operationId, approvalCode: context.attempt! }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'visible',
            actions: { type: 'showSecret', params: ({ event }) => event.output },
            description: 'The approval is right: the secret is shown.',
          },
          {
            guard: { type: 'isWrongCode', params: ({ event }) => event.output },
            target: 'approving',
            actions: [
              'forgetAttempt',
              { type: 'setError', params: ({ event }) => ({ code: 'wrongCode', failure: !event.output.ok && event.output.code === 'wrongCode' ? event.output.failure : null }) },
            ],
            description: 'The code or password is wrong and tries are left; the customer is told how many and types again.',
          },
          {
            guard: { type: 'isNetwork', params: ({ event }) => event.output },
            target: 'approving',
            actions: ['forgetAttempt', { type: 'setError', params: { code: 'network' } }],
            description: 'No answer came; the customer may send the code again.',
          },
          {
            target: 'hidden',
            actions: [
              'endApproval',
              { type: 'setError', params: ({ event }) => ({ code: 'failed', failure: !event.output.ok && event.output.code === 'failed' ? event.output.failure : null }) },
            ],
            description: 'The platform refused for good (tries used up, expired, the card no longer allows it); its words are shown.',
          },
        ],
        onError: {
          target: 'approving',
          actions: ['forgetAttempt', { type: 'setError', params: { code: 'network' } }],
          description: 'The call failed without an answer; the customer may send the code again.',
        },
      },
    },
    visible: {
      description: 'The secret is on the screen, with a countdown, for visibleForMs (30 seconds at most).',
      exit: 'clearSecret',
      after: { visibleFor: { target: 'hidden', description: 'The time is up: the secret is hidden and forgotten.' } },
      on: { 'SECRET.HIDE': { target: 'hidden', description: 'The customer hides the secret before the time is up.' } },
    },
  },
});

export type CardSecretMachine = typeof cardSecretMachine;
