/**
 * Activating a physical card (document 2 §3 "Card activation: fees, feeCurrency, extraParams,
 * pinCode", §4 activation allowed once printed or shipped, §7 activation data and activate:
 * accountId, extraParams, feeAccountId; returns pinCode, shown once).
 *
 * ```
 * loading ─ok─▶ entering ─CONTINUE (4 digits, no fee)─────────────────────────▶ activating
 *    └─failed─▶ loadFailed      └─CONTINUE (4 digits, a fee)─▶ reviewing ─ACTIVATE (an account)─┘
 *                 └─LOAD.RETRY─▶ loading       ▲  ◀─REVIEW.BACK─┘
 * activating ─ok─▶ showingPin ─after pinVisible (30 s) or PIN.HIDE (the PIN cleared)─▶ done (final)
 *            ├─VF cardDataWrong (the digits are not the card's)─▶ entering
 *            ├─no answer (the same key on a retry)─▶ entering
 *            └─refused (its words kept)─▶ entering
 * ```
 *
 * The first PIN is in the context only while showingPin: leaving it (the timer, the customer's
 * "hide", or the actor stopped with the page) clears it. The activation charges the activation fee
 * (when there is one) from the chosen account, so it carries an idempotency key: made for the first
 * attempt, sent again when no answer came, and new once the digits or the account change or the
 * platform answered.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Account } from '../../api/accounts.ts';
import type { Failure } from '../../api/envelope.ts';
import { newIdempotencyKey } from '../approval/idempotency-key.ts';

/** How long the first PIN stays on the screen (issue 16: hidden again after 30 seconds). */
export const ACTIVATION_PIN_VISIBLE_MS = 30_000;

/** What cardActivationData answered, with the accounts the fee may be charged from. */
export interface ActivationData {
  fees: number;
  feeCurrency: string;
  /** the extra params cardActivate needs (cardLast4: the last four digits printed on the card) */
  extraParams: { name: 'cardLast4'; pattern: string; required: boolean }[];
  /** the customer's open payment accounts in the fee's currency */
  feeAccounts: Account[];
}

export interface ActivateRequest {
  accountId: number;
  cardLast4: string;
  /** only when there is a fee */
  feeAccountId: number | null;
  idempotencyKey: string;
}

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
export type LoadActivationResult = { ok: true; data: ActivationData } | Refusal;
export type ActivateResult =
  | { ok: true; pinCode: string; accountStatusId: number }
  /** VF cardDataWrong: the digits typed are not the card's */
  | { ok: false; code: 'wrongDigits'; failure: Failure }
  | Refusal;

export type CardActivationEvent =
  | { type: 'LOAD.RETRY' }
  | { type: 'DIGITS.CHANGE'; cardLast4: string }
  | { type: 'FEE_ACCOUNT.CHANGE'; accountId: number | null }
  | { type: 'CONTINUE' }
  | { type: 'REVIEW.BACK' }
  | { type: 'ACTIVATE' }
  | { type: 'PIN.HIDE' };

export type CardActivationError = 'digitsFormat' | 'feeAccountMissing' | 'wrongDigits' | 'network' | 'failed';

export interface CardActivationContext {
  accountId: number;
  data: ActivationData | null;
  loadFailure: Refusal | null;
  cardLast4: string;
  feeAccountId: number | null;
  error: CardActivationError | null;
  /** the platform's answer for wrongDigits and failed (the view says it in the customer's language) */
  failure: Failure | null;
  /** the activation's key: kept after no answer, dropped when what is sent changes */
  key: string | null;
  /** the first PIN: only while showingPin */
  pinCode: string | null;
}

const LAST4 = /^\d{4}$/;

export const cardActivationMachine = setup({
  types: {
    context: {} as CardActivationContext,
    events: {} as CardActivationEvent,
    input: {} as { accountId: number },
  },
  actors: {
    loadActivation: fromPromise<LoadActivationResult, { accountId: number }>(async () => {
      throw new Error('loadActivation is provided by the app');
    }),
    activateCard: fromPromise<ActivateResult, ActivateRequest>(async () => {
      throw new Error('activateCard is provided by the app');
    }),
  },
  delays: {
    pinVisible: ACTIVATION_PIN_VISIBLE_MS,
  },
  guards: {
    isOk: (_, r: { ok: boolean }) => r.ok,
    isWrongDigits: (_, r: ActivateResult) => !r.ok && r.code === 'wrongDigits',
    isNetwork: (_, r: ActivateResult) => !r.ok && r.code === 'network',
    digitsMalformed: ({ context }) => !LAST4.test(context.cardLast4),
    hasFee: ({ context }) => (context.data?.fees ?? 0) > 0,
    feeAccountMissing: ({ context }) => context.feeAccountId === null,
  },
  actions: {
    storeData: assign(({ context }, r: LoadActivationResult) => {
      const data = r.ok ? r.data : null;
      return { data, loadFailure: null, feeAccountId: context.feeAccountId ?? data?.feeAccounts[0]?.accountId ?? null };
    }),
    storeLoadFailure: assign((_, r: LoadActivationResult) => ({ loadFailure: r.ok ? null : r })),
    setDigits: assign((_, cardLast4: string) => ({ cardLast4: cardLast4.replace(/\D/g, '').slice(0, 4), error: null, failure: null, key: null })),
    setFeeAccount: assign((_, accountId: number | null) => ({ feeAccountId: accountId, error: null, failure: null, key: null })),
    setError: assign((_, p: { code: CardActivationError; failure?: Failure | null }) => ({ error: p.code, failure: p.failure ?? null })),
    clearError: assign({ error: null, failure: null }),
    startAttempt: assign(({ context }) => ({ key: context.key ?? newIdempotencyKey(), error: null, failure: null })),
    /** an answer came: the next attempt is a new one */
    dropKey: assign({ key: null }),
    showPin: assign((_, pinCode: string) => ({ pinCode, key: null })),
    clearPin: assign({ pinCode: null }),
  },
}).createMachine({
  id: 'cardActivation',
  description:
    'The customer activates a physical card that has arrived: types the last four digits printed on it, reviews the activation fee and the account paying it, and sees the first PIN once, for 30 seconds.',
  meta: { spec: ['document 2 §3', 'document 2 §4', 'document 2 §7'] },
  context: ({ input }) => ({
    accountId: input.accountId,
    data: null,
    loadFailure: null,
    cardLast4: '',
    feeAccountId: null,
    error: null,
    failure: null,
    key: null,
    pinCode: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      description: "The card's activation data (the fee, its currency, the extra params) and the accounts that may pay the fee are loaded.",
      meta: { spec: ['document 2 §7'] },
      invoke: {
        id: 'loadActivation',
        src: 'loadActivation',
        input: ({ context }) => ({ accountId: context.accountId }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'entering',
            actions: { type: 'storeData', params: ({ event }) => event.output },
            description: 'The activation data came; the customer types the digits.',
          },
          {
            target: 'loadFailed',
            actions: { type: 'storeLoadFailure', params: ({ event }) => event.output },
            description: 'The platform refused (the card cannot be activated now) or did not answer.',
          },
        ],
        onError: {
          target: 'loadFailed',
          actions: { type: 'storeLoadFailure', params: { ok: false, code: 'network' } },
          description: 'The call failed without an answer.',
        },
      },
    },
    loadFailed: {
      description: 'The activation data could not be loaded; the customer may try again.',
      on: { 'LOAD.RETRY': { target: 'loading', description: 'The customer tries loading the activation data again.' } },
    },
    entering: {
      description: 'The customer types the last four digits printed on the card.',
      meta: { spec: ['document 2 §3'] },
      on: {
        'DIGITS.CHANGE': {
          actions: { type: 'setDigits', params: ({ event }) => event.cardLast4 },
          description: 'The customer types the digits (anything but digits dropped, four at most).',
        },
        CONTINUE: [
          {
            guard: 'digitsMalformed',
            actions: { type: 'setError', params: { code: 'digitsFormat' } },
            description: 'Not four digits: the customer is told and nothing is sent.',
          },
          { guard: 'hasFee', target: 'reviewing', actions: 'clearError', description: 'Activating costs a fee: the customer reviews it and the account paying it.' },
          { target: 'activating', actions: 'startAttempt', description: 'There is no fee: the card is activated at once.' },
        ],
      },
    },
    reviewing: {
      description: 'The customer reviews the activation fee and chooses the account it is charged from.',
      meta: { spec: ['document 2 §3'] },
      on: {
        'FEE_ACCOUNT.CHANGE': {
          actions: { type: 'setFeeAccount', params: ({ event }) => event.accountId },
          description: 'The customer chooses the account the fee is charged from.',
        },
        'REVIEW.BACK': { target: 'entering', actions: 'clearError', description: 'The customer goes back to the digits.' },
        ACTIVATE: [
          {
            guard: 'feeAccountMissing',
            actions: { type: 'setError', params: { code: 'feeAccountMissing' } },
            description: 'No account is chosen for the fee: the customer is told and nothing is sent.',
          },
          { target: 'activating', actions: 'startAttempt', description: 'The customer confirms the fee; the card is activated.' },
        ],
      },
    },
    activating: {
      description: 'The platform checks the digits, charges the fee (if any) and activates the card; the customer waits.',
      meta: { spec: ['document 2 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'activateCard',
        src: 'activateCard',
        input: ({ context }) => ({
          accountId: context.accountId,
          cardLast4: context.cardLast4,
          feeAccountId: (context.data?.fees ?? 0) > 0 ? context.feeAccountId : null,
          idempotencyKey: context.key!,
        }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'showingPin',
            actions: { type: 'showPin', params: ({ event }) => (event.output.ok ? event.output.pinCode : '') },
            description: 'The card is active; its first PIN is shown once.',
          },
          {
            guard: { type: 'isWrongDigits', params: ({ event }) => event.output },
            target: 'entering',
            actions: [
              'dropKey',
              {
                type: 'setError',
                params: ({ event }) => ({ code: 'wrongDigits', failure: !event.output.ok && event.output.code === 'wrongDigits' ? event.output.failure : null }),
              },
            ],
            description: "The digits are not the card's; the customer types them again.",
          },
          {
            guard: { type: 'isNetwork', params: ({ event }) => event.output },
            target: 'entering',
            actions: { type: 'setError', params: { code: 'network' } },
            description: 'No answer came; sending the same digits again cannot activate (or charge) twice.',
          },
          {
            target: 'entering',
            actions: [
              'dropKey',
              {
                type: 'setError',
                params: ({ event }) => ({ code: 'failed', failure: !event.output.ok && event.output.code === 'failed' ? event.output.failure : null }),
              },
            ],
            description: 'The platform refused to activate the card; its words are shown.',
          },
        ],
        onError: {
          target: 'entering',
          actions: { type: 'setError', params: { code: 'network' } },
          description: 'The call failed without an answer; the same digits may be sent again.',
        },
      },
    },
    showingPin: {
      description: 'The card is active and its first PIN is shown, for 30 seconds at most.',
      meta: { spec: ['document 2 §3'] },
      exit: 'clearPin',
      after: { pinVisible: { target: 'done', description: 'Thirty seconds passed: the PIN is hidden and forgotten.' } },
      on: { 'PIN.HIDE': { target: 'done', description: 'The customer has noted the PIN and hides it.' } },
    },
    done: { type: 'final', description: 'The card is active; its PIN is no longer on the screen nor kept.' },
  },
});

export type CardActivationMachine = typeof cardActivationMachine;
