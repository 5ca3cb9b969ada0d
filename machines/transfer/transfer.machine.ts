/**
 * A transfer, of any kind (document 2 §4-§8): own accounts, p2p and external (a payout over a
 * rail); mass, global and invoices later. The kind is input; what differs per kind is data (transfer.rules.ts
 * TRANSFER_KINDS, transferRequest) and the actors the app provides, never a state of its own.
 *
 * ```
 * loading ─ok, permitted─▶ editing ─REVIEW (valid, fee known)─▶ reviewing ─SUBMIT─▶ submitting
 *    │  └─ok, not permitted─▶ notAllowed          ▲  └─REVIEW.BACK─▶ editing       │
 *    └─failed─▶ loadFailed ─LOAD.RETRY─▶ loading   │                                ├─ approve type none ─▶ done
 *                                                  ├── network (same key) ──────────┤
 *    editing ◀── VF on fields / other refusal ─────┼────────────────────────────────┤
 *    editing ◀── approval canceled ─┐              │                                └─ otherwise ─▶ approving
 *                                   └──────────── approving (the approval machine) ─▶ done | failed
 *    done, failed ─TRANSFER.NEW─▶ loading
 * ```
 *
 * editing is parallel: the form (FORM.CHANGE patches it) and one region per lookup, each
 * restarted only by a patch touching its inputs and asking only when the rules allow (§5):
 * - fee: deciding ─ready─▶ waiting ─after feeDebounce─▶ quoting ─▶ idle (quote) | failed (FEE.RETRY)
 * - limits: deciding ─both accounts─▶ loading ─▶ idle
 * - payee (p2p): deciding ─checkable e-mail─▶ waiting ─after payeeDebounce─▶ checking ─▶ idle
 * - max: idle ─MAX.REQUEST (source account)─▶ loading ─▶ idle (the amount becomes the maximum)
 * - methods (external): deciding ─country and source─▶ loading ─▶ idle | failed (METHODS.RETRY)
 * - payeeForm (external): deciding ─method chosen─▶ loading ─▶ idle | failed (PAYEE_FORM.RETRY)
 *
 * The external kind is the spec's payee steps in one form (document 2 §2: details, country choice,
 * payment method choice, extra fields): the methods offered for the country in the source's
 * currency (transferMethods, less those the customer's flags do not allow; one alone is chosen for
 * the customer), then the method's payee form (extraParams) rendered as it comes and checked with
 * the platform's own checks before review. Its fee, limits and "send all" are the chosen method's.
 *
 * The request is built once, on REVIEW, with a new idempotency key; a retry after a network
 * failure sends the same request with the same key, so money never moves twice. A definitive
 * answer (success, VF, refusal) ends that key. Errors are codes; the platform's failures are kept
 * as data for the error popup (document 2 §8).
 */
import { assign, fromPromise, raise, setup } from 'xstate';
import type { Account } from '../../api/accounts.ts';
import { isCardType } from '../../api/cards.ts';
import type { Failure } from '../../api/envelope.ts';
import type { ResponseOf } from '../../api/method.ts';
import type { MoneyPermissions, RecentTransfer, transferBetweenAccounts } from '../../api/transfers.ts';
import type { PayoutMethod } from '../../api/payees/payout-methods.ts';
import { approvalMachine, type ApprovalMode, type ApprovalOutput } from '../approval/approval.machine.ts';
import { newIdempotencyKey } from '../approval/idempotency-key.ts';
import {
  TRANSFER_KINDS,
  emptyForm,
  feeRequest,
  fieldsOfPatch,
  hasPermission,
  isCheckableEmail,
  limitsRequest,
  maxAmountRequest,
  methodsRequest,
  normaliseEmail,
  normalisePatch,
  openAccounts,
  payeeFormRequest,
  permittedMethods,
  touchesFee,
  touchesLimits,
  touchesMax,
  touchesMethods,
  touchesPayee,
  touchesPayeeForm,
  transferRequest,
  validateForm,
  type FeeRequest,
  type FieldErrors,
  type Limits,
  type LimitsRequest,
  type MaxAmountRequest,
  type MethodsRequest,
  type PayeeCheck,
  type PayeeForm,
  type PayeeFormRequest,
  type TransferForm,
  type TransferFormPatch,
  type TransferKind,
  type TransferRequest,
  type ValidationFacts,
} from './transfer.rules.ts';

export type TransferResult = Omit<ResponseOf<typeof transferBetweenAccounts>, 'responseCode'>;

export interface FeeQuote {
  fee: string;
  feeCurrency: string;
  amount: string;
  currency: string;
  toAmount: string;
  toCurrency: string;
  rate: string;
}

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
export type LoadResult = { ok: true; accounts: Account[]; permissions: MoneyPermissions; recent: RecentTransfer[] } | Refusal;
export type FeeResult = { ok: true; quote: FeeQuote } | Refusal;
export type LimitsResult = { ok: true; limits: Limits } | Refusal;
export type PayeeResult = { ok: true; payee: Omit<PayeeCheck, 'email'> } | Refusal;
export type MaxAmountResult = { ok: true; maxAmount: string; currency: string } | Refusal;
export type MethodsResult = { ok: true; methods: PayoutMethod[] } | Refusal;
export type PayeeFormResult = { ok: true; form: PayeeForm } | Refusal;
export type SubmitResult = { ok: true; result: TransferResult } | { ok: false; code: 'fields'; fieldErrors: FieldErrors } | Refusal;

export interface TransferInput {
  kind: TransferKind;
  /**
   * The signed-in user's own e-mail addresses when acting for themselves (p2p to one of them is
   * pointed to the between-accounts page); none when acting for a company, whose money may go to
   * the user as to anyone.
   */
  ownEmails?: readonly string[];
  /**
   * Accounts chosen before the form opens (the page's ?fromAccountId / ?toAccountId: a card's
   * Unload and Load links): taken once the accounts are loaded, when they are among those offered.
   */
  fromAccountId?: number;
  toAccountId?: number;
}

/** The accounts a transfer starts with (TransferInput), kept for a new transfer after this one. */
export interface TransferPreset {
  fromAccountId: number | null;
  toAccountId: number | null;
}

export type TransferEvent =
  | { type: 'FORM.CHANGE'; patch: TransferFormPatch }
  | { type: 'FEE.RETRY' }
  | { type: 'MAX.REQUEST' }
  | { type: 'METHODS.RETRY' }
  | { type: 'PAYEE_FORM.RETRY' }
  | { type: 'REVIEW' }
  | { type: 'REVIEW.BACK' }
  | { type: 'SUBMIT' }
  | { type: 'POPUP.CLOSE' }
  | { type: 'LOAD.RETRY' }
  | { type: 'TRANSFER.NEW' };

/** Why the form cannot go to review though every field is fine. */
export type ReviewBlock = 'feeNeeded';
/** What the form says after coming back from an approval. */
export type TransferNotice = 'approvalCanceled';

export interface TransferContext {
  kind: TransferKind;
  ownEmails: readonly string[];
  preset: TransferPreset;
  /** open accounts of the acting customer */
  accounts: Account[];
  /** the customer's money flags (external: which methods are offered) */
  permissions: MoneyPermissions | null;
  recent: RecentTransfer[];
  form: TransferForm;
  fieldErrors: FieldErrors;
  /** the fee of the form as it is now (cleared by any change to its inputs) */
  quote: FeeQuote | null;
  feeFailure: Refusal | null;
  limits: Limits | null;
  payee: PayeeCheck | null;
  /** the payee check failed: the platform checks again on submit */
  payeeUnchecked: boolean;
  maxFailure: Refusal | null;
  /** external: the methods offered for the country and permitted (null: not asked or not answered) */
  methods: PayoutMethod[] | null;
  methodsFailure: Refusal | null;
  /** external: the chosen method's payee form */
  payeeForm: PayeeForm | null;
  payeeFormFailure: Refusal | null;
  reviewBlock: ReviewBlock | null;
  /** the request under review and its idempotency key (kept for retries of this submission) */
  request: TransferRequest | null;
  idempotencyKey: string | null;
  /** the submit got no answer: it may be sent again (same key) */
  submitUnanswered: boolean;
  /** a refusal shown in the error popup (document 2 §8) */
  failure: Failure | null;
  loadFailure: Refusal | null;
  result: TransferResult | null;
  /** how an approval ended, when it did not end approved */
  outcome: Extract<ApprovalOutput, { result: 'failed' }> | null;
  notice: TransferNotice | null;
}

/** Wait this long after the last keystroke before asking the fee or checking the payee. */
export const FEE_DEBOUNCE_MS = 400;
export const PAYEE_DEBOUNCE_MS = 500;

const initialContext = (kind: TransferKind, ownEmails: readonly string[], preset: TransferPreset): TransferContext => ({
  kind,
  ownEmails,
  preset,
  accounts: [],
  permissions: null,
  recent: [],
  form: emptyForm(),
  fieldErrors: {},
  quote: null,
  feeFailure: null,
  limits: null,
  payee: null,
  payeeUnchecked: false,
  maxFailure: null,
  methods: null,
  methodsFailure: null,
  payeeForm: null,
  payeeFormFailure: null,
  reviewBlock: null,
  request: null,
  idempotencyKey: null,
  submitUnanswered: false,
  failure: null,
  loadFailure: null,
  result: null,
  outcome: null,
  notice: null,
});

/** What validateForm checks the form against. */
export const factsOf = (c: TransferContext): ValidationFacts => ({
  accounts: c.accounts,
  payee: c.payee,
  limits: c.limits,
  quote: c.quote,
  ownEmails: c.ownEmails,
  methods: c.methods,
  payeeForm: c.payeeForm,
});

/** A FORM.CHANGE's patch as the form takes it (a new country drops the method): what the regions' guards judge. */
const patchOf = ({ context, event }: { context: TransferContext; event: TransferEvent }) =>
  normalisePatch(context.form, context.accounts, (event as Extract<TransferEvent, { type: 'FORM.CHANGE' }>).patch);

const refusalOf = (r: { ok: boolean }): Refusal => (r.ok ? { ok: false, code: 'network' } : (r as Refusal));

export const transferMachine = setup({
  types: {
    context: {} as TransferContext,
    events: {} as TransferEvent,
    input: {} as TransferInput,
  },
  actors: {
    /** accounts.account, moneyPermissions and, when the kind shows them, recentTransfers */
    loadSetup: fromPromise<LoadResult, { kind: TransferKind; recentLimit: number }>(async () => ({ ok: false, code: 'network' })),
    quoteFee: fromPromise<FeeResult, FeeRequest>(async () => ({ ok: false, code: 'network' })),
    fetchLimits: fromPromise<LimitsResult, LimitsRequest>(async () => ({ ok: false, code: 'network' })),
    checkPayee: fromPromise<PayeeResult, { email: string }>(async () => ({ ok: false, code: 'network' })),
    fetchMaxAmount: fromPromise<MaxAmountResult, MaxAmountRequest>(async () => ({ ok: false, code: 'network' })),
    /** transferMethods: the methods that reach the country in the currency */
    fetchMethods: fromPromise<MethodsResult, MethodsRequest>(async () => ({ ok: false, code: 'network' })),
    /** extraParams (and, for a card payout, blockedBinList): the method's payee form */
    fetchPayeeForm: fromPromise<PayeeFormResult, PayeeFormRequest>(async () => ({ ok: false, code: 'network' })),
    /** sends the reviewed request with its idempotency key */
    submitTransfer: fromPromise<SubmitResult, { request: TransferRequest; idempotencyKey: string }>(async () => ({ ok: false, code: 'network' })),
    approval: approvalMachine,
  },
  delays: {
    feeDebounce: FEE_DEBOUNCE_MS,
    payeeDebounce: PAYEE_DEBOUNCE_MS,
  },
  guards: {
    isLoaded: (_, r: LoadResult) => r.ok,
    isPermitted: ({ context }, r: LoadResult) => r.ok && hasPermission(context.kind, r.permissions),
    isFeeReady: ({ context }) => feeRequest(context.kind, context.form, context.accounts) !== null,
    areLimitsReady: ({ context }) => limitsRequest(context.kind, context.form, context.accounts) !== null,
    isPayeeCheckable: ({ context }) => TRANSFER_KINDS[context.kind].payee && isCheckableEmail(context.form.payeeEmail),
    hasSource: ({ context }) => maxAmountRequest(context.kind, context.form) !== null,
    areMethodsReady: ({ context }) => methodsRequest(context.kind, context.form, context.accounts) !== null,
    isPayeeFormReady: ({ context }) => payeeFormRequest(context.kind, context.form, context.accounts) !== null,
    touchesMethods: (_, patch: TransferFormPatch) => touchesMethods(patch),
    touchesPayeeForm: (_, patch: TransferFormPatch) => touchesPayeeForm(patch),
    touchesFee: (_, patch: TransferFormPatch) => touchesFee(patch),
    touchesLimits: (_, patch: TransferFormPatch) => touchesLimits(patch),
    touchesPayee: (_, patch: TransferFormPatch) => touchesPayee(patch),
    touchesMax: (_, patch: TransferFormPatch) => touchesMax(patch),
    isOk: (_, r: { ok: boolean }) => r.ok,
    isOnlyMethod: ({ context }, r: MethodsResult) => r.ok && context.form.method === null && permittedMethods(r.methods, context.permissions).length === 1,
    /** every check of the form before review, the available balance (with the quoted fee) and one's own e-mail included */
    hasFieldErrors: ({ context }) => Object.keys(validateForm(context.kind, context.form, factsOf(context))).length > 0,
    hasQuote: ({ context }) => context.quote !== null,
    needsApproval: (_, r: SubmitResult) => r.ok && r.result.approveType !== 'none',
    isFieldRefusal: (_, r: SubmitResult) => !r.ok && r.code === 'fields',
    isUnanswered: (_, r: { ok: boolean; code?: string }) => !r.ok && r.code === 'network',
    isApproved: (_, o: ApprovalOutput) => o.result === 'approved',
    isCanceled: (_, o: ApprovalOutput) => o.result === 'canceled',
  },
  actions: {
    reset: assign(({ context }) => initialContext(context.kind, context.ownEmails, context.preset)),
    storeSetup: assign(({ context }, r: LoadResult) => {
      if (!r.ok) return {};
      // a card's money moves only between own accounts, and a debit card holds none (the platform refuses the rest)
      const accounts = openAccounts(r.accounts).filter((a) => !isCardType(a.type) || (context.kind === 'betweenAccounts' && a.subType !== 'DEBIT'));
      // One source account: chosen for the user; so are the accounts the page was opened with, when offered.
      const only = accounts.length === 1 ? accounts[0]!.accountId : null;
      const offered = (id: number | null) => (id !== null && accounts.some((a) => a.accountId === id) ? id : null);
      const fromAccountId = context.form.fromAccountId ?? offered(context.preset.fromAccountId) ?? only;
      const presetTo = TRANSFER_KINDS[context.kind].toAccount ? offered(context.preset.toAccountId) : null;
      const toAccountId = context.form.toAccountId ?? (presetTo !== fromAccountId ? presetTo : null);
      return { accounts, permissions: r.permissions, recent: r.recent, loadFailure: null, form: { ...context.form, fromAccountId, toAccountId } };
    }),
    storeLoadFailure: assign((_, r: Refusal) => ({ loadFailure: r })),
    applyPatch: assign(({ context }, given: TransferFormPatch) => {
      const patch = normalisePatch(context.form, context.accounts, given);
      const fieldErrors = { ...context.fieldErrors };
      for (const field of fieldsOfPatch(patch)) delete fieldErrors[field];
      return { form: { ...context.form, ...patch }, fieldErrors, reviewBlock: null, notice: null };
    }),
    clearQuote: assign({ quote: null, feeFailure: null }),
    storeQuote: assign((_, quote: FeeQuote) => ({ quote, feeFailure: null, reviewBlock: null })),
    storeFeeFailure: assign((_, r: Refusal) => ({ quote: null, feeFailure: r })),
    clearLimits: assign({ limits: null }),
    storeLimits: assign((_, limits: Limits | null) => ({ limits })),
    clearPayee: assign({ payee: null, payeeUnchecked: false }),
    storePayee: assign(({ context }, payee: Omit<PayeeCheck, 'email'> | null) => ({
      payee: payee ? { ...payee, email: normaliseEmail(context.form.payeeEmail) } : null,
      payeeUnchecked: payee === null,
    })),
    clearMaxFailure: assign({ maxFailure: null }),
    clearMethods: assign({ methods: null, methodsFailure: null }),
    storeMethods: assign(({ context }, methods: readonly PayoutMethod[]) => ({ methods: permittedMethods(methods, context.permissions), methodsFailure: null })),
    storeMethodsFailure: assign((_, r: Refusal) => ({ methods: null, methodsFailure: r })),
    /** One method offered and none chosen: it is chosen for the customer (as the form's own change). */
    chooseOnlyMethod: raise(({ context }) => ({ type: 'FORM.CHANGE' as const, patch: { method: context.methods![0]! } })),
    clearPayeeForm: assign({ payeeForm: null, payeeFormFailure: null }),
    storePayeeForm: assign((_, payeeForm: PayeeForm) => ({ payeeForm, payeeFormFailure: null })),
    storePayeeFormFailure: assign((_, r: Refusal) => ({ payeeForm: null, payeeFormFailure: r })),
    storeMaxFailure: assign((_, r: Refusal) => ({ maxFailure: r })),
    /** "Send all": the amount becomes the maximum, in the source's currency. */
    useMaxAmount: raise((_, maxAmount: string) => ({ type: 'FORM.CHANGE' as const, patch: { amount: maxAmount, currency: null } })),
    showFieldErrors: assign(({ context }) => ({
      fieldErrors: validateForm(context.kind, context.form, factsOf(context)),
      reviewBlock: null,
    })),
    blockReview: assign((_, block: ReviewBlock) => ({ reviewBlock: block })),
    /** The request under review, with a new key: this submission's, until a definitive answer. */
    prepareSubmission: assign(({ context }) => ({
      request: transferRequest(context.kind, context.form, context.accounts, context.payeeForm),
      idempotencyKey: newIdempotencyKey(),
      submitUnanswered: false,
      fieldErrors: {},
      reviewBlock: null,
      failure: null,
      notice: null,
    })),
    endSubmission: assign({ request: null, idempotencyKey: null, submitUnanswered: false }),
    markUnanswered: assign({ submitUnanswered: true }),
    storeResult: assign((_, result: TransferResult) => ({ result, submitUnanswered: false })),
    storeServerFieldErrors: assign((_, fieldErrors: FieldErrors) => ({ fieldErrors })),
    showFailure: assign((_, failure: Failure) => ({ failure })),
    closePopup: assign({ failure: null }),
    storeOutcome: assign((_, o: ApprovalOutput) => ({ outcome: o.result === 'failed' ? o : null })),
    noteCanceled: assign({ notice: 'approvalCanceled' as const, result: null }),
    /** The approval machine ends 'approved' only on the platform's status posted (or, a payout, processing): the money has gone. */
    noteApproved: assign(({ context }, status: 'posted' | 'processing' | 'pending') => ({ result: context.result ? { ...context.result, status } : null })),
  },
}).createMachine({
  id: 'transfer',
  description:
    'The customer moves money (between own accounts, to another person, or out to a bank, card or wallet): fills in the form, reviews it, sends it and approves it when the platform asks.',
  meta: { spec: ['document 2 §4', 'document 2 §5', 'document 2 §6', 'document 2 §7', 'document 2 §8'] },
  context: ({ input }) =>
    initialContext(input.kind, (input.ownEmails ?? []).map(normaliseEmail), { fromAccountId: input.fromAccountId ?? null, toAccountId: input.toAccountId ?? null }),
  initial: 'loading',
  states: {
    loading: {
      description: "The customer's accounts, transfer permissions and (for some kinds) recent transfers are being read.",
      meta: { spec: ['document 2 §6'] },
      tags: ['busy'],
      invoke: {
        id: 'loadSetup',
        src: 'loadSetup',
        input: ({ context }) => ({ kind: context.kind, recentLimit: TRANSFER_KINDS[context.kind].recentLimit }),
        onDone: [
          {
            guard: { type: 'isPermitted', params: ({ event }) => event.output },
            target: 'editing',
            actions: { type: 'storeSetup', params: ({ event }) => event.output },
            description: 'Everything is read and the customer may make this kind of transfer; the form is shown (a single account is chosen as the source).',
          },
          // Permission flags false: a clear "not allowed" instead of the form.
          // The accounts are kept: with none, the page offers to open one (where the user may).
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'notAllowed',
            actions: { type: 'storeSetup', params: ({ event }) => event.output },
            description: 'Everything is read but the customer is not permitted this kind of transfer; the page says so instead of the form.',
          },
          {
            target: 'loadFailed',
            actions: { type: 'storeLoadFailure', params: ({ event }) => refusalOf(event.output) },
            description: 'The platform refused to give the accounts or permissions, or was not reached; the reason is kept to show.',
          },
        ],
        onError: {
          target: 'loadFailed',
          actions: { type: 'storeLoadFailure', params: { ok: false, code: 'network' } },
          description: 'No answer came; it reads as a network failure.',
        },
      },
    },
    loadFailed: {
      description: 'The accounts or permissions could not be read; the customer can try again.',
      on: { 'LOAD.RETRY': { target: 'loading', description: 'The customer asks to read them again.' } },
    },
    notAllowed: { description: 'The customer is not permitted this kind of transfer; no form is shown.' },
    editing: {
      description: 'The customer fills in the transfer form while the fee, limits, payee and maximum amount are looked up beside it.',
      type: 'parallel',
      on: {
        REVIEW: [
          { guard: 'hasFieldErrors', actions: 'showFieldErrors', description: 'A field is missing or invalid (balance with the fee, own e-mail included); the errors are shown on the form.' },
          {
            guard: 'hasQuote',
            target: 'reviewing',
            actions: 'prepareSubmission',
            description: 'The form is valid and its fee is known; the request is built with a new key and shown for review.',
          },
          { actions: { type: 'blockReview', params: 'feeNeeded' }, description: 'The form is valid but its fee is not known yet; the customer is told to wait for it.' },
        ],
        'POPUP.CLOSE': { actions: 'closePopup', description: "The customer closes the error popup of a refused transfer." },
      },
      states: {
        form: {
          description: 'The form itself: the accounts, payee, amount, currency and note the customer entered.',
          on: {
            'FORM.CHANGE': {
              actions: { type: 'applyPatch', params: ({ event }) => event.patch },
              description: 'The customer changes a field; its error goes away until it is checked again.',
            },
          },
        },
        fee: {
          description: 'The fee of the transfer as the form stands, asked only when the amount and accounts are given.',
          meta: { spec: ['document 2 §5'] },
          initial: 'deciding',
          // Only a change of the amount, the accounts or the currency asks again.
          on: {
            'FORM.CHANGE': {
              guard: { type: 'touchesFee', params: patchOf },
              target: '.deciding',
              description: 'The amount, an account or the currency changed; the old fee no longer applies.',
            },
          },
          states: {
            deciding: {
              description: 'The old fee is dropped; checking whether the form has what the fee needs.',
              entry: 'clearQuote',
              always: [
                { guard: 'isFeeReady', target: 'waiting', description: 'The amount and accounts are given; the fee will be asked.' },
                { target: 'idle', description: 'Something the fee needs is missing; no fee is asked.' },
              ],
            },
            idle: { description: 'No fee is being asked: either it is known, or the form does not allow asking yet.' },
            waiting: {
              description: 'Waiting for the customer to stop typing before asking the fee.',
              tags: ['feeBusy'],
              after: { feeDebounce: { target: 'quoting', description: 'The customer stopped typing for 400 ms; the fee is asked.' } },
            },
            quoting: {
              description: 'The platform is asked the fee and the amount the payee gets.',
              tags: ['feeBusy'],
              invoke: {
                id: 'quoteFee',
                src: 'quoteFee',
                input: ({ context }) => feeRequest(context.kind, context.form, context.accounts)!,
                onDone: [
                  {
                    guard: { type: 'isOk', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: { type: 'storeQuote', params: ({ event }) => (event.output.ok ? event.output.quote : null!) },
                    description: 'The fee, rate and amount received are known and shown.',
                  },
                  {
                    target: 'failed',
                    actions: { type: 'storeFeeFailure', params: ({ event }) => refusalOf(event.output) },
                    description: 'The platform refused to give the fee, or was not reached; the customer can ask again.',
                  },
                ],
                onError: {
                  target: 'failed',
                  actions: { type: 'storeFeeFailure', params: { ok: false, code: 'network' } },
                  description: 'No answer came; the customer can ask again.',
                },
              },
            },
            failed: {
              description: 'The fee could not be had; the transfer cannot be reviewed until it is.',
              on: { 'FEE.RETRY': { target: 'quoting', description: 'The customer asks for the fee again.' } },
            },
          },
        },
        limits: {
          description: "The customer's limits for this transfer, read only when both accounts are given (advice: the platform checks again).",
          meta: { spec: ['document 2 §5'] },
          initial: 'deciding',
          on: {
            'FORM.CHANGE': {
              guard: { type: 'touchesLimits', params: patchOf },
              target: '.deciding',
              description: 'An account or the currency changed; the old limits no longer apply.',
            },
          },
          states: {
            deciding: {
              description: 'The old limits are dropped; checking whether both accounts are given.',
              entry: 'clearLimits',
              always: [
                { guard: 'areLimitsReady', target: 'loading', description: 'Both accounts are given; the limits are read.' },
                { target: 'idle', description: 'An account is missing; no limits are read.' },
              ],
            },
            idle: { description: 'No limits are being read: either they are known, or the form does not allow reading them yet.' },
            loading: {
              description: 'The limits are being read.',
              invoke: {
                id: 'fetchLimits',
                src: 'fetchLimits',
                input: ({ context }) => limitsRequest(context.kind, context.form, context.accounts)!,
                // Limits are advice: without them the platform still checks.
                onDone: {
                  target: 'idle',
                  actions: { type: 'storeLimits', params: ({ event }) => (event.output.ok ? event.output.limits : null) },
                  description: 'The limits are known (or, if refused, left out: the platform still checks them).',
                },
                onError: { target: 'idle', description: 'No answer came; the form goes on without limits and the platform still checks them.' },
              },
            },
          },
        },
        payee: {
          description: 'For a transfer to another person: whether the payee e-mail belongs to a customer who can receive it.',
          meta: { spec: ['document 2 §5', 'document 2 §7'] },
          initial: 'deciding',
          on: {
            'FORM.CHANGE': {
              guard: { type: 'touchesPayee', params: patchOf },
              target: '.deciding',
              description: 'The payee e-mail changed; the old check no longer applies.',
            },
          },
          states: {
            deciding: {
              description: 'The old check is dropped; checking whether the e-mail is worth checking.',
              entry: 'clearPayee',
              always: [
                {
                  guard: 'isPayeeCheckable',
                  target: 'waiting',
                  description: 'This kind has a payee and the e-mail is longer than 5 characters with an @ and a dot; it will be checked.',
                },
                { target: 'idle', description: 'No payee for this kind, or the e-mail is not complete enough; nothing is checked.' },
              ],
            },
            idle: { description: 'No payee check is under way.' },
            waiting: {
              description: 'Waiting for the customer to stop typing before checking the payee.',
              tags: ['payeeBusy'],
              after: { payeeDebounce: { target: 'checking', description: 'The customer stopped typing for 500 ms; the payee is checked.' } },
            },
            checking: {
              description: 'The platform is asked whether the payee e-mail belongs to a customer who can receive money.',
              tags: ['payeeBusy'],
              invoke: {
                id: 'checkPayee',
                src: 'checkPayee',
                input: ({ context }) => ({ email: normaliseEmail(context.form.payeeEmail) }),
                onDone: {
                  target: 'idle',
                  actions: { type: 'storePayee', params: ({ event }) => (event.output.ok ? event.output.payee : null) },
                  description: 'The answer is shown beside the e-mail (or, if refused, the payee is left unchecked: the platform checks on submit).',
                },
                onError: {
                  target: 'idle',
                  actions: { type: 'storePayee', params: null },
                  description: 'No answer came; the payee is left unchecked and the platform checks on submit.',
                },
              },
            },
          },
        },
        max: {
          description: '"Send all": the most the customer can send from the source account, asked on request.',
          meta: { spec: ['document 2 §5'] },
          initial: 'idle',
          on: {
            'FORM.CHANGE': {
              guard: { type: 'touchesMax', params: patchOf },
              target: '.idle',
              actions: 'clearMaxFailure',
              description: 'The source account changed; a maximum being asked for no longer applies.',
            },
          },
          states: {
            idle: {
              description: 'No maximum is being asked for.',
              on: {
                'MAX.REQUEST': {
                  guard: 'hasSource',
                  target: 'loading',
                  actions: 'clearMaxFailure',
                  description: 'The customer asks to send all; ignored until a source account is chosen.',
                },
              },
            },
            loading: {
              description: 'The maximum amount is being asked for.',
              tags: ['maxBusy'],
              invoke: {
                id: 'fetchMaxAmount',
                src: 'fetchMaxAmount',
                input: ({ context }) => maxAmountRequest(context.kind, context.form)!,
                onDone: [
                  {
                    guard: { type: 'isOk', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: { type: 'useMaxAmount', params: ({ event }) => (event.output.ok ? event.output.maxAmount : '') },
                    description: "The maximum is known; it becomes the amount, in the source account's currency.",
                  },
                  {
                    target: 'idle',
                    actions: { type: 'storeMaxFailure', params: ({ event }) => refusalOf(event.output) },
                    description: 'The platform refused to give the maximum, or was not reached; the customer is told.',
                  },
                ],
                onError: {
                  target: 'idle',
                  actions: { type: 'storeMaxFailure', params: { ok: false, code: 'network' } },
                  description: 'No answer came; the customer is told.',
                },
              },
            },
          },
        },
        methods: {
          description: "For a payout: the methods that reach the chosen country in the source account's currency and that the customer may use.",
          meta: { spec: ['document 2 §2', 'document 2 §7'] },
          initial: 'deciding',
          on: {
            'FORM.CHANGE': {
              guard: { type: 'touchesMethods', params: patchOf },
              target: '.deciding',
              description: 'The country or the source account changed; the methods offered may differ.',
            },
          },
          states: {
            deciding: {
              description: 'The old methods are dropped; checking whether this is a payout with a country and a source account.',
              entry: 'clearMethods',
              always: [
                { guard: 'areMethodsReady', target: 'loading', description: 'A payout with the country and the source account chosen; the methods are asked.' },
                { target: 'idle', description: 'Not a payout, or the country or source is missing; nothing is asked.' },
              ],
            },
            idle: { description: 'No methods are being asked: either they are known, or the form does not allow asking yet.' },
            loading: {
              description: 'The platform is asked which methods reach the country in the currency.',
              tags: ['methodsBusy'],
              invoke: {
                id: 'fetchMethods',
                src: 'fetchMethods',
                input: ({ context }) => methodsRequest(context.kind, context.form, context.accounts)!,
                onDone: [
                  {
                    guard: { type: 'isOnlyMethod', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: [{ type: 'storeMethods', params: ({ event }) => (event.output.ok ? event.output.methods : []) }, 'chooseOnlyMethod'],
                    description: 'Exactly one method is offered and none was chosen; it is chosen for the customer.',
                  },
                  {
                    guard: { type: 'isOk', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: { type: 'storeMethods', params: ({ event }) => (event.output.ok ? event.output.methods : []) },
                    description: 'The methods are known (none, one chosen already, or several to choose from).',
                  },
                  {
                    target: 'failed',
                    actions: { type: 'storeMethodsFailure', params: ({ event }) => refusalOf(event.output) },
                    description: 'The platform refused to give the methods, or was not reached; the customer can ask again.',
                  },
                ],
                onError: {
                  target: 'failed',
                  actions: { type: 'storeMethodsFailure', params: { ok: false, code: 'network' } },
                  description: 'No answer came; the customer can ask again.',
                },
              },
            },
            failed: {
              description: 'The methods could not be had; the payout cannot be reviewed until they are.',
              on: { 'METHODS.RETRY': { target: 'loading', description: 'The customer asks for the methods again.' } },
            },
          },
        },
        payeeForm: {
          description: "For a payout: the chosen method's payee form for the country and currency (the fields it needs, and a card payout's refused BINs).",
          meta: { spec: ['document 2 §2', 'document 2 §5', 'document 2 §7'] },
          initial: 'deciding',
          on: {
            'FORM.CHANGE': {
              guard: { type: 'touchesPayeeForm', params: patchOf },
              target: '.deciding',
              description: 'The method, the country or the source account changed; the form may differ.',
            },
          },
          states: {
            deciding: {
              description: 'The old form is dropped; checking whether a method is chosen.',
              entry: 'clearPayeeForm',
              always: [
                { guard: 'isPayeeFormReady', target: 'loading', description: 'A method is chosen for the country and currency; its form is asked.' },
                { target: 'idle', description: 'No method is chosen (or this is not a payout); no form is asked.' },
              ],
            },
            idle: { description: 'No form is being asked: either it is known, or no method is chosen yet.' },
            loading: {
              description: "The platform is asked the method's payee fields.",
              tags: ['payeeFormBusy'],
              invoke: {
                id: 'fetchPayeeForm',
                src: 'fetchPayeeForm',
                input: ({ context }) => payeeFormRequest(context.kind, context.form, context.accounts)!,
                onDone: [
                  {
                    guard: { type: 'isOk', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: { type: 'storePayeeForm', params: ({ event }) => (event.output.ok ? event.output.form : null!) },
                    description: "The payee's fields are known and shown.",
                  },
                  {
                    target: 'failed',
                    actions: { type: 'storePayeeFormFailure', params: ({ event }) => refusalOf(event.output) },
                    description: 'The platform refused to give the form, or was not reached; the customer can ask again.',
                  },
                ],
                onError: {
                  target: 'failed',
                  actions: { type: 'storePayeeFormFailure', params: { ok: false, code: 'network' } },
                  description: 'No answer came; the customer can ask again.',
                },
              },
            },
            failed: {
              description: "The payee's form could not be had; the payout cannot be reviewed until it is.",
              on: { 'PAYEE_FORM.RETRY': { target: 'loading', description: "The customer asks for the payee's form again." } },
            },
          },
        },
      },
    },
    reviewing: {
      description: 'The customer reviews the transfer (amounts, fee, payee) before sending it; nothing has moved yet.',
      on: {
        // Back to the form: this submission's key ends (a new review makes a new one).
        'REVIEW.BACK': { target: 'editing', actions: 'endSubmission', description: 'The customer goes back to change the form; this submission is dropped.' },
        SUBMIT: { target: 'submitting', description: 'The customer sends the transfer (again with the same key after an unanswered try).' },
      },
    },
    submitting: {
      description: 'The transfer request is being sent; the customer waits.',
      tags: ['busy'],
      invoke: {
        id: 'submitTransfer',
        src: 'submitTransfer',
        input: ({ context }) => ({ request: context.request!, idempotencyKey: context.idempotencyKey! }),
        onDone: [
          {
            guard: { type: 'needsApproval', params: ({ event }) => event.output },
            target: 'approving',
            actions: { type: 'storeResult', params: ({ event }) => (event.output.ok ? event.output.result : null!) },
            description: 'The platform accepted the transfer and asks for approval by the current approval mode.',
          },
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'done',
            actions: [{ type: 'storeResult', params: ({ event }) => (event.output.ok ? event.output.result : null!) }, 'endSubmission'],
            description: 'The platform accepted the transfer and no approval is set; success is shown directly.',
          },
          {
            guard: { type: 'isFieldRefusal', params: ({ event }) => event.output },
            target: 'editing',
            actions: ['endSubmission', { type: 'storeServerFieldErrors', params: ({ event }) => (!event.output.ok && event.output.code === 'fields' ? event.output.fieldErrors : {}) }],
            description: "The platform refused some fields; the customer is back on the form with the platform's words on them.",
          },
          // No answer: the user may send it again, with the same key.
          {
            guard: { type: 'isUnanswered', params: ({ event }) => event.output },
            target: 'reviewing',
            actions: 'markUnanswered',
            description: 'No answer came; the customer may send it again, and money cannot move twice.',
          },
          {
            target: 'editing',
            actions: ['endSubmission', { type: 'showFailure', params: ({ event }) => (!event.output.ok && event.output.code === 'failed' ? event.output.failure : { responseCode: 'UE' }) }],
            description: "The platform refused the transfer; its words are shown in the error popup over the form.",
          },
        ],
        onError: { target: 'reviewing', actions: 'markUnanswered', description: 'The call failed without an answer; the customer may send it again with the same key.' },
      },
    },
    approving: {
      description: 'The transfer is pending; the customer approves it (code or linked phone) in the approval flow.',
      meta: { spec: ['document 2 §4'] },
      invoke: {
        id: 'approval',
        src: 'approval',
        input: ({ context }) => ({
          transactionId: context.result!.transactionId,
          approveType: context.result!.approveType as ApprovalMode,
          approvalSentTo: context.result!.approvalSentTo,
          expiresAt: context.result!.expiresAt,
        }),
        onDone: [
          {
            guard: { type: 'isApproved', params: ({ event }) => event.output },
            target: 'done',
            actions: ['endSubmission', { type: 'noteApproved', params: ({ event }) => (event.output.result === 'approved' ? event.output.status : 'posted') }],
            description: 'The transfer was approved and posted (a payout: sent over its rail): the money has gone.',
          },
          // The user gave it up (voided, hold released): back to the form as it was.
          {
            guard: { type: 'isCanceled', params: ({ event }) => event.output },
            target: 'editing',
            actions: ['endSubmission', 'noteCanceled'],
            description: 'The customer canceled the transfer during approval; they are back on the form as it was, told it was canceled.',
          },
          {
            target: 'failed',
            actions: ['endSubmission', { type: 'storeOutcome', params: ({ event }) => event.output }],
            description: 'The transfer was not approved (declined, expired or refused); the reason is kept to show.',
          },
        ],
      },
    },
    done: {
      description: 'The transfer is made (or accepted); its confirmation is shown.',
      on: { 'TRANSFER.NEW': { target: 'loading', actions: 'reset', description: 'The customer starts a new transfer from an empty form.' } },
    },
    failed: {
      description: 'The transfer was not approved and no money moved; the reason is shown.',
      on: { 'TRANSFER.NEW': { target: 'loading', actions: 'reset', description: 'The customer starts a new transfer from an empty form.' } },
    },
  },
});

export type TransferMachine = typeof transferMachine;
