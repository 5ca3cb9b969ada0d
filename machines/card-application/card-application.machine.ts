/**
 * Applying for a card (document 2 §2 /add-card, §3 card products, application fees and shipping
 * options; api/cards.ts applyForCardInfo, cardApply): the customer chooses a product, where and
 * how a physical or debit card ships (a debit card also the account it draws on) or a virtual
 * card's name, the account the fees are charged from, reviews every fee, and approves the charge
 * as any payment is approved.
 *
 * ```
 * loading ─ok─▶ choosingProduct ─PRODUCT.CHOOSE (physical, debit)─▶ delivery ─STEP.CONTINUE (address, shipping, settlement)─▶ feeAccount
 *    └─failed─▶ loadFailed ─LOAD.RETRY─▶ loading   └─PRODUCT.CHOOSE (virtual)─▶ naming ─STEP.CONTINUE─▶ feeAccount
 * feeAccount ─STEP.CONTINUE (an account chosen: a new key)─▶ reviewing ─SUBMIT─▶ submitting
 * submitting ─none, the card settled─▶ done · ─none, still pending─▶ checking · ─otherwise─▶ approving (the approval machine)
 *            ├─VF─▶ the step of the first field named (product, delivery, naming, feeAccount), its errors on the fields
 *            ├─no answer─▶ reviewing (SUBMIT again sends the same key: one card, one charge)
 *            └─refused─▶ reviewing (the platform's words; a new key)
 * approving ─approved─▶ checking ─the card's status read (or not)─▶ done
 *           ─canceled─▶ reviewing (told; a new key) · ─declined, expired, refused─▶ failed
 * STEP.BACK: delivery, naming ─▶ choosingProduct · feeAccount ─▶ delivery | naming · reviewing ─▶ feeAccount
 * done, failed ─APPLICATION.NEW─▶ loading
 * ```
 *
 * The product's choices are made for the customer where there is one obvious answer (a confirmed
 * address, the first shipping option that may be chosen, the only account of the product's
 * currency) and kept while the customer goes back and forth; choosing another product starts its
 * choices again. The application carries an idempotency key made when the review is shown and kept
 * on a retry after no answer, so a lost answer never makes two cards nor charges twice. The fee's
 * approval is the one approval machine of every transfer (cardApply answers as a transfer does).
 * Pure: the calls are the actors the app provides (src/features/cards/apply-actors.ts); no strings.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Account } from '../../api/accounts.ts';
import { CardStatus, isCardType, type CardKind, type CardProduct, type ShippingOption } from '../../api/cards.ts';
import { ResponseCode, type Failure, type ValidationError } from '../../api/envelope.ts';
import type { Address } from '../../api/profile.ts';
import type { TransferStatus } from '../../api/transfers.ts';
import { approvalMachine, type ApprovalMode, type ApprovalOutput } from '../approval/approval.machine.ts';
import { newIdempotencyKey } from '../approval/idempotency-key.ts';

/** The longest name of a virtual card (api/cards.ts cardApply: cardAliasName). */
export const CARD_NAME_MAX_LENGTH = 40;

/** The addresses a card may ship to, as the application needs them. */
export type ShippingAddress = Pick<Address, 'addressId' | 'address1' | 'address2' | 'city' | 'postalCode' | 'countryCode' | 'confirmed'>;

export interface ApplicationForm {
  /** the product chosen (its account type, 2006-2135) */
  type: number | null;
  addressId: number | null;
  shippingOptionId: number | null;
  settlementAccountId: number | null;
  /** a virtual card's name (optional: blank sends none) */
  cardAliasName: string;
  feeAccountId: number | null;
}

/** What cardApply is sent (api/cards.ts). */
export interface CardApplyRequest {
  type: number;
  feeAccountId: number;
  addressId?: number;
  shippingOptionId?: number;
  settlementAccountId?: number;
  cardAliasName?: string;
}

/** What cardApply answered: the new card and the fee's charge (a transfer to approve). */
export interface CardApplied {
  accountId: number;
  accountStatusId: number;
  transactionId: number;
  status: TransferStatus;
  approveType: string;
  approvalSentTo: string | null;
  fee: string;
  feeCurrency: string;
  amount: string;
  currency: string;
  expiresAt: string;
}

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
export type LoadResult = { ok: true; countryCode: string; products: CardProduct[]; accounts: Account[]; addresses: ShippingAddress[] } | Refusal;
export type ApplyResult = { ok: true; applied: CardApplied } | { ok: false; code: 'fields'; errors: ValidationError[] } | Refusal;
export type CardStatusResult = { ok: true; accountStatusId: number } | Refusal;

export type CardApplicationEvent =
  | { type: 'LOAD.RETRY' }
  | { type: 'PRODUCT.CHOOSE'; productType: number }
  | { type: 'ADDRESS.CHOOSE'; addressId: number }
  | { type: 'SHIPPING.CHOOSE'; shippingOptionId: number }
  | { type: 'SETTLEMENT.CHOOSE'; accountId: number }
  | { type: 'NAME.CHANGE'; cardAliasName: string }
  | { type: 'FEE_ACCOUNT.CHOOSE'; accountId: number }
  | { type: 'STEP.CONTINUE' }
  | { type: 'STEP.BACK' }
  | { type: 'SUBMIT' }
  | { type: 'APPLICATION.NEW' };

/** What the review says after coming back from an approval. */
export type ApplicationNotice = 'approvalCanceled';

export interface CardApplicationContext {
  countryCode: string | null;
  products: CardProduct[];
  /** the customer's open accounts that are not cards (fee and settlement accounts are among them) */
  accounts: Account[];
  addresses: ShippingAddress[];
  form: ApplicationForm;
  /** the customer tried to continue with something not chosen (shown on the step) */
  missing: boolean;
  /** the platform's validation errors of the last application, by param */
  errors: ValidationError[];
  /** the application's key: made when the review is shown, kept after no answer */
  key: string | null;
  unanswered: boolean;
  /** a refusal shown over the review */
  failure: Failure | null;
  loadFailure: Refusal | null;
  applied: CardApplied | null;
  /** the card's status once the application ended (null: not known) */
  cardStatus: number | null;
  outcome: Extract<ApprovalOutput, { result: 'failed' }> | null;
  notice: ApplicationNotice | null;
}

const emptyForm = (): ApplicationForm => ({ type: null, addressId: null, shippingOptionId: null, settlementAccountId: null, cardAliasName: '', feeAccountId: null });

const fresh = (): CardApplicationContext => ({
  countryCode: null,
  products: [],
  accounts: [],
  addresses: [],
  form: emptyForm(),
  missing: false,
  errors: [],
  key: null,
  unanswered: false,
  failure: null,
  loadFailure: null,
  applied: null,
  cardStatus: null,
  outcome: null,
  notice: null,
});

/** The product of a type, or null. */
export const productOf = (products: readonly CardProduct[], type: number | null): CardProduct | null => products.find((p) => p.type === type) ?? null;

/** A physical or debit card ships; a virtual one does not. */
export const ships = (kind: CardKind): boolean => kind !== 'virtual';

/** The accounts that may pay a product's fees or settle a debit card: open, not cards, in its currency. */
export const accountsIn = (accounts: readonly Account[], currency: string): Account[] => accounts.filter((a) => a.currency === currency && !isCardType(a.type));

export const isShippingOpen = (option: ShippingOption): boolean => option.disabledReasons.length === 0;

/** The choices made for the customer when a product is chosen. */
function defaultsFor(product: CardProduct, c: CardApplicationContext): ApplicationForm {
  const own = accountsIn(c.accounts, product.currencyCode);
  const address = c.addresses.find((a) => a.confirmed) ?? c.addresses[0] ?? null;
  return {
    type: product.type,
    addressId: ships(product.kind) ? (address?.addressId ?? null) : null,
    shippingOptionId: product.shippingOptions.find(isShippingOpen)?.id ?? null,
    settlementAccountId: product.kind === 'debit' && own.length === 1 ? own[0]!.accountId : null,
    cardAliasName: '',
    feeAccountId: own[0]?.accountId ?? null,
  };
}

/** Every delivery choice a physical or debit card needs is made. */
export function deliveryReady(c: CardApplicationContext): boolean {
  const product = productOf(c.products, c.form.type);
  if (!product) return false;
  const option = product.shippingOptions.find((o) => o.id === c.form.shippingOptionId);
  const settled = product.kind !== 'debit' || accountsIn(c.accounts, product.currencyCode).some((a) => a.accountId === c.form.settlementAccountId);
  return c.addresses.some((a) => a.addressId === c.form.addressId) && option !== undefined && isShippingOpen(option) && settled;
}

export function feeAccountReady(c: CardApplicationContext): boolean {
  const product = productOf(c.products, c.form.type);
  return product !== null && accountsIn(c.accounts, product.currencyCode).some((a) => a.accountId === c.form.feeAccountId);
}

/** The request of the form as it is (only the fields the product's kind takes). */
export function applyRequest(c: CardApplicationContext): CardApplyRequest {
  const product = productOf(c.products, c.form.type)!;
  const f = c.form;
  const name = f.cardAliasName.trim();
  return {
    type: product.type,
    feeAccountId: f.feeAccountId!,
    ...(ships(product.kind) ? { addressId: f.addressId!, shippingOptionId: f.shippingOptionId! } : {}),
    ...(product.kind === 'debit' ? { settlementAccountId: f.settlementAccountId! } : {}),
    ...(product.kind === 'virtual' && name !== '' ? { cardAliasName: name } : {}),
  };
}

/** The step a refused field belongs to (a param not of a step: the review). */
export type ErrorStep = 'choosingProduct' | 'delivery' | 'naming' | 'feeAccount' | 'reviewing';
export function stepOfParam(param: string): ErrorStep {
  if (param === 'type') return 'choosingProduct';
  if (param === 'addressId' || param === 'shippingOptionId' || param === 'settlementAccountId') return 'delivery';
  if (param === 'cardAliasName') return 'naming';
  if (param === 'feeAccountId') return 'feeAccount';
  return 'reviewing';
}
const firstStepOf = (r: ApplyResult): ErrorStep | null => (!r.ok && r.code === 'fields' ? stepOfParam(r.errors[0]?.param ?? '') : null);

const isKind = (c: CardApplicationContext, kind: CardKind) => productOf(c.products, c.form.type)?.kind === kind;
/** A refusal as the review shows it (validation errors of no step's field as the platform's VF answer). */
function failureOf(r: ApplyResult): Failure {
  if (r.ok) return { responseCode: ResponseCode.unknown };
  if (r.code === 'failed') return r.failure;
  if (r.code === 'fields') return { responseCode: ResponseCode.validation, validationErrors: r.errors };
  return { responseCode: ResponseCode.network };
}

/** A card that is not waiting for its charge's approval any more (65: the application waits). */
const settledStatus = (status: number) => status !== CardStatus.pendingApproval;

export const cardApplicationMachine = setup({
  types: {
    context: {} as CardApplicationContext,
    events: {} as CardApplicationEvent,
  },
  actors: {
    /** applyForCardInfo, the customer's accounts (balanceInquiry) and addresses (addressInquiry) */
    loadSetup: fromPromise<LoadResult>(async () => {
      throw new Error('loadSetup is provided by the app');
    }),
    /** cardApply with the application's idempotency key */
    applyForCard: fromPromise<ApplyResult, { request: CardApplyRequest; idempotencyKey: string }>(async () => {
      throw new Error('applyForCard is provided by the app');
    }),
    /** the new card's status after its charge was approved */
    readCardStatus: fromPromise<CardStatusResult, { accountId: number }>(async () => {
      throw new Error('readCardStatus is provided by the app');
    }),
    approval: approvalMachine,
  },
  guards: {
    isLoaded: (_, r: LoadResult) => r.ok,
    isOk: (_, r: { ok: boolean }) => r.ok,
    isVirtualChoice: ({ context }, productType: number) => {
      const p = productOf(context.products, productType);
      return p !== null && p.disabledReasons.length === 0 && p.kind === 'virtual';
    },
    isShippedChoice: ({ context }, productType: number) => {
      const p = productOf(context.products, productType);
      return p !== null && p.disabledReasons.length === 0 && ships(p.kind);
    },
    isDeliveryReady: ({ context }) => deliveryReady(context),
    isFeeAccountReady: ({ context }) => feeAccountReady(context),
    isVirtual: ({ context }) => isKind(context, 'virtual'),
    isDoneAtOnce: (_, r: ApplyResult) => r.ok && r.applied.approveType === 'none' && settledStatus(r.applied.accountStatusId),
    isPaidAtOnce: (_, r: ApplyResult) => r.ok && r.applied.approveType === 'none',
    isProductRefused: (_, r: ApplyResult) => firstStepOf(r) === 'choosingProduct',
    isDeliveryRefused: (_, r: ApplyResult) => firstStepOf(r) === 'delivery',
    isNameRefused: (_, r: ApplyResult) => firstStepOf(r) === 'naming',
    isFeeAccountRefused: (_, r: ApplyResult) => firstStepOf(r) === 'feeAccount',
    isUnanswered: (_, r: ApplyResult) => !r.ok && r.code === 'network',
    isApproved: (_, o: ApprovalOutput) => o.result === 'approved',
    isCanceled: (_, o: ApprovalOutput) => o.result === 'canceled',
  },
  actions: {
    reset: assign(() => fresh()),
    storeSetup: assign((_, r: LoadResult) => (r.ok ? { countryCode: r.countryCode, products: r.products, accounts: r.accounts, addresses: r.addresses, loadFailure: null } : {})),
    storeLoadFailure: assign((_, r: Refusal) => ({ loadFailure: r })),
    /** Another product starts its choices again; the same one keeps them. */
    chooseProduct: assign(({ context }, productType: number) => {
      const product = productOf(context.products, productType)!;
      const form = context.form.type === productType ? context.form : defaultsFor(product, context);
      return { form, missing: false, errors: [], notice: null, failure: null };
    }),
    patchForm: assign(({ context }, patch: Partial<ApplicationForm>) => {
      // the platform's errors of the fields changed go
      const changed = Object.keys(patch);
      return { form: { ...context.form, ...patch }, missing: false, errors: context.errors.filter((e) => !changed.includes(e.param)) };
    }),
    markMissing: assign({ missing: true }),
    leaveStep: assign({ missing: false, failure: null, notice: null }),
    /** The review shown: this application's key, until a definitive answer. */
    openReview: assign({ key: () => newIdempotencyKey(), unanswered: false, failure: null, missing: false, notice: null }),
    startSubmit: assign({ failure: null, notice: null }),
    storeApplied: assign((_, r: ApplyResult) => (r.ok ? { applied: r.applied, cardStatus: r.applied.accountStatusId, unanswered: false, errors: [] } : {})),
    storeErrors: assign((_, r: ApplyResult) => ({ errors: !r.ok && r.code === 'fields' ? r.errors : [], unanswered: false, key: null })),
    markUnanswered: assign({ unanswered: true }),
    /** refused: nothing was made or charged; the next application gets a new key */
    storeRefusal: assign((_, r: ApplyResult) => ({ failure: failureOf(r), unanswered: false, key: newIdempotencyKey() })),
    storeCardStatus: assign((_, r: CardStatusResult) => (r.ok ? { cardStatus: r.accountStatusId } : { cardStatus: null })),
    noteCanceled: assign({ notice: 'approvalCanceled' as const, applied: null, cardStatus: null, key: () => newIdempotencyKey() }),
    storeOutcome: assign((_, o: ApprovalOutput) => ({ outcome: o.result === 'failed' ? o : null })),
  },
}).createMachine({
  id: 'cardApplication',
  description:
    'The customer applies for a card: chooses a physical, virtual or debit card, where and how it ships (or its name), the account its fees are charged from, reviews every fee, and approves the charge.',
  meta: { spec: ['document 2 §2', 'document 2 §3', 'document 2 §7'] },
  context: () => fresh(),
  initial: 'loading',
  states: {
    loading: {
      description: "The card products offered to the customer's country, the customer's accounts and addresses are read.",
      meta: { spec: ['document 2 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'loadSetup',
        src: 'loadSetup',
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'choosingProduct',
            actions: { type: 'storeSetup', params: ({ event }) => event.output },
            description: 'Everything is read: the products are shown with their fees and limits.',
          },
          {
            target: 'loadFailed',
            actions: { type: 'storeLoadFailure', params: ({ event }) => (event.output.ok ? { ok: false, code: 'network' } : event.output) },
            description: 'The platform refused to give the products, accounts or addresses, or was not reached.',
          },
        ],
        onError: { target: 'loadFailed', actions: { type: 'storeLoadFailure', params: { ok: false, code: 'network' } }, description: 'No answer came.' },
      },
    },
    loadFailed: {
      description: 'The products, accounts or addresses could not be read; the customer may try again.',
      on: { 'LOAD.RETRY': { target: 'loading', description: 'The customer tries reading them again.' } },
    },
    choosingProduct: {
      description: 'The products grouped physical, virtual and debit, each with its fees (annual, issue, monthly), its limits, and the reason it cannot be chosen when it cannot.',
      meta: { spec: ['document 2 §3'] },
      on: {
        'PRODUCT.CHOOSE': [
          {
            guard: { type: 'isShippedChoice', params: ({ event }) => event.productType },
            target: 'delivery',
            actions: { type: 'chooseProduct', params: ({ event }) => event.productType },
            description: 'A physical or debit card is chosen: where and how it ships comes next.',
          },
          {
            guard: { type: 'isVirtualChoice', params: ({ event }) => event.productType },
            target: 'naming',
            actions: { type: 'chooseProduct', params: ({ event }) => event.productType },
            description: 'A virtual card is chosen: its optional name comes next.',
          },
        ],
      },
    },
    delivery: {
      description:
        "A physical or debit card: the address it ships to (one of the customer's), the shipping option (fee, delivery time, why one cannot be chosen), and for a debit card the account it draws on.",
      meta: { spec: ['document 2 §3'] },
      on: {
        'ADDRESS.CHOOSE': {
          actions: { type: 'patchForm', params: ({ event }) => ({ addressId: event.addressId }) },
          description: 'The customer chooses the address the card ships to.',
        },
        'SHIPPING.CHOOSE': {
          actions: { type: 'patchForm', params: ({ event }) => ({ shippingOptionId: event.shippingOptionId }) },
          description: 'The customer chooses how the card ships.',
        },
        'SETTLEMENT.CHOOSE': {
          actions: { type: 'patchForm', params: ({ event }) => ({ settlementAccountId: event.accountId }) },
          description: 'The customer chooses the account a debit card draws on.',
        },
        'STEP.CONTINUE': [
          { guard: 'isDeliveryReady', target: 'feeAccount', actions: 'leaveStep', description: 'Every delivery choice is made: the fee account comes next.' },
          { actions: 'markMissing', description: 'Something is not chosen: the customer is told what.' },
        ],
        'STEP.BACK': { target: 'choosingProduct', actions: 'leaveStep', description: 'The customer goes back to the products.' },
      },
    },
    naming: {
      description: 'A virtual card: an optional name for it.',
      on: {
        'NAME.CHANGE': { actions: { type: 'patchForm', params: ({ event }) => ({ cardAliasName: event.cardAliasName }) }, description: 'The customer types the card’s name.' },
        'STEP.CONTINUE': { target: 'feeAccount', actions: 'leaveStep', description: 'The fee account comes next (a blank name sends none).' },
        'STEP.BACK': { target: 'choosingProduct', actions: 'leaveStep', description: 'The customer goes back to the products.' },
      },
    },
    feeAccount: {
      description: "The account the fees are charged from: the customer's accounts in the product's currency with their balances (none: the customer is told how to get one).",
      on: {
        'FEE_ACCOUNT.CHOOSE': {
          actions: { type: 'patchForm', params: ({ event }) => ({ feeAccountId: event.accountId }) },
          description: 'The customer chooses the account the fees come from.',
        },
        // one of the accounts is always chosen (the first, at the product's choice); with none the page offers to get one, not Continue
        'STEP.CONTINUE': {
          guard: 'isFeeAccountReady',
          target: 'reviewing',
          actions: 'openReview',
          description: 'An account is chosen: the review is shown, with a new application key.',
        },
        'STEP.BACK': [
          { guard: 'isVirtual', target: 'naming', actions: 'leaveStep', description: 'A virtual card: back to its name.' },
          { target: 'delivery', actions: 'leaveStep', description: 'A physical or debit card: back to its delivery.' },
        ],
      },
    },
    reviewing: {
      description: 'Every fee: what is charged now (issue and shipping) and their total, and what is charged later (annual, monthly); nothing is charged yet.',
      meta: { spec: ['document 2 §3'] },
      on: {
        SUBMIT: { target: 'submitting', actions: 'startSubmit', description: 'The customer applies (again with the same key after no answer).' },
        'STEP.BACK': { target: 'feeAccount', actions: 'leaveStep', description: 'The customer goes back to the fee account.' },
      },
    },
    submitting: {
      description: 'The application is sent with its key (cardApply): the card is made and its fees are charged as a transfer.',
      tags: ['busy'],
      invoke: {
        id: 'applyForCard',
        src: 'applyForCard',
        input: ({ context }) => ({ request: applyRequest(context), idempotencyKey: context.key! }),
        onDone: [
          {
            guard: { type: 'isDoneAtOnce', params: ({ event }) => event.output },
            target: 'done',
            actions: { type: 'storeApplied', params: ({ event }) => event.output },
            description: 'No approval is set and the card is made: done.',
          },
          {
            guard: { type: 'isPaidAtOnce', params: ({ event }) => event.output },
            target: 'checking',
            actions: { type: 'storeApplied', params: ({ event }) => event.output },
            description: 'No approval is set but the card still waits: its status is read.',
          },
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'approving',
            actions: { type: 'storeApplied', params: ({ event }) => event.output },
            description: "The card waits for its fees' approval by the customer's approval mode.",
          },
          {
            guard: { type: 'isProductRefused', params: ({ event }) => event.output },
            target: 'choosingProduct',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: 'The platform refused the product (no longer offered): back to the products, the reason shown.',
          },
          {
            guard: { type: 'isDeliveryRefused', params: ({ event }) => event.output },
            target: 'delivery',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: 'The platform refused the address, shipping or settlement account: back to the delivery, the errors on the fields.',
          },
          {
            guard: { type: 'isNameRefused', params: ({ event }) => event.output },
            target: 'naming',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: 'The platform refused the name: back to it, the error on the field.',
          },
          {
            guard: { type: 'isFeeAccountRefused', params: ({ event }) => event.output },
            target: 'feeAccount',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: 'The platform refused the fee account (the balance, say): back to it, the error on the field.',
          },
          {
            guard: { type: 'isUnanswered', params: ({ event }) => event.output },
            target: 'reviewing',
            actions: 'markUnanswered',
            description: 'No answer came: applying again sends the same key, and no second card is made.',
          },
          {
            target: 'reviewing',
            actions: { type: 'storeRefusal', params: ({ event }) => event.output },
            description: 'The platform refused the application; its words are shown over the review.',
          },
        ],
        onError: { target: 'reviewing', actions: 'markUnanswered', description: 'The call failed without an answer; applying again sends the same key.' },
      },
    },
    approving: {
      description: "The fees' charge awaits its approval in the approval flow every transfer uses.",
      meta: { spec: ['document 2 §4'] },
      invoke: {
        id: 'approval',
        src: 'approval',
        input: ({ context }) => ({
          transactionId: context.applied!.transactionId,
          approveType: context.applied!.approveType as ApprovalMode,
          approvalSentTo: context.applied!.approvalSentTo,
          expiresAt: context.applied!.expiresAt,
        }),
        onDone: [
          { guard: { type: 'isApproved', params: ({ event }) => event.output }, target: 'checking', description: "The charge was approved: the card's status is read." },
          {
            guard: { type: 'isCanceled', params: ({ event }) => event.output },
            target: 'reviewing',
            actions: 'noteCanceled',
            description: 'The customer canceled the charge: back to the review, told so; applying again is a new application.',
          },
          {
            target: 'failed',
            actions: { type: 'storeOutcome', params: ({ event }) => event.output },
            description: 'The charge was not approved (declined, expired or refused): no card, nothing charged.',
          },
        ],
      },
    },
    checking: {
      description: "The new card's status is read (active, being produced, or waiting for the customer's confirmation).",
      tags: ['busy'],
      invoke: {
        id: 'readCardStatus',
        src: 'readCardStatus',
        input: ({ context }) => ({ accountId: context.applied!.accountId }),
        onDone: {
          target: 'done',
          actions: { type: 'storeCardStatus', params: ({ event }) => event.output },
          description: 'The status is known (or not: the page then says what happens next without it).',
        },
        onError: { target: 'done', actions: { type: 'storeCardStatus', params: { ok: false, code: 'network' } }, description: 'No answer came: done without the status.' },
      },
    },
    done: {
      description: 'The card is applied for: a virtual card is active, a physical or debit card is being produced (or waits for the customer to confirm it).',
      on: { 'APPLICATION.NEW': { target: 'loading', actions: 'reset', description: 'The customer applies for another card.' } },
    },
    failed: {
      description: "The fees' charge was not approved: no card, nothing charged; the reason is shown.",
      on: { 'APPLICATION.NEW': { target: 'loading', actions: 'reset', description: 'The customer starts again.' } },
    },
  },
});

export type CardApplicationMachine = typeof cardApplicationMachine;
