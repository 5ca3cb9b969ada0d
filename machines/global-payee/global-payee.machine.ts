/**
 * The payee page of a global payment (document 2 §2 /receive/{id}: details, country choice,
 * payment method choice, extra fields, recent transfers, confirmation code entry; §3 "Global
 * payment (read with the secret)"; §7 "Global-pay, payee side"; §9 "5 for global-pay";
 * api/global-pay.ts "Payee side"). No sign-in: every call carries the payment id and the link's
 * secret (the actors add them).
 *
 * ```
 * loading ─waiting─▶ details ─TAKE─▶ loadingCountries ─ok─▶ choosingCountry ─NEXT─▶ loadingMethods ─some─▶ choosingMethod
 *   ├─other status─▶ closed   │                                 ▲      (none offered: told) ◀─┘                 │ NEXT
 *   ├─ENOA, 13─▶ blocked      │    BACK: choosingCountry ─▶ details, choosingMethod ─▶ choosingCountry          ▼
 *   └─no answer─▶ loadFailed ─RETRY─▶ loading                         loadingForm (form, quote, recent withdrawals) ─ok─▶ filling
 *                             └─REFUSE─▶ confirmingRefusal ─CONFIRM─▶ refusing ─ok─▶ closed (refused)
 *                                         └─BACK─▶ details
 *
 * filling ─SUBMIT─▶ submitting ─ok─▶ code ═╦═ entry:  idle ─CODE.SUBMIT─▶ approving ─ok─▶ done (on its way)
 *   ▲  ▲ BACK (to choosingMethod)  │       ║          ▲   wrong code (tries left) ──┘ │
 *   │  └── fields refused ─────────┘       ║          too many wrong codes ─▶ filling ┘
 *   └──────────── BACK ────────────────────╣
 *                                          ╚═ resend: cooling ─after resendInterval─▶ ready ─CODE.RESEND─▶ resending ─ok─▶ cooling
 * any call answered ENOA (unknown payment or wrong secret) or 13 (too many attempts) ─▶ blocked
 * ```
 *
 * A call refused otherwise (or unanswered) leaves the page on the step it was asked from, with the
 * platform's words (or "no answer") over it. The resend of the code is held back for
 * GLOBAL_PAY_RESEND_INTERVAL_S after each code sent (the platform refuses it sooner).
 */
import { assign, setup, fromPromise } from 'xstate';
import type { Failure, ValidationError } from '../../api/envelope.ts';
import { GLOBAL_PAY_RESEND_INTERVAL_S, type GlobalPaymentStatus } from '../../api/global-pay.ts';
import type { PayoutMethod } from '../../api/payees/payout-methods.ts';
import type { PayeeForm } from '../transfer/transfer.rules.ts';

export const RESEND_INTERVAL_MS = GLOBAL_PAY_RESEND_INTERVAL_S * 1000;

/** The payment as globalPaymentDetails reads it. */
export interface PaymentDetails {
  beneficiaryName: string;
  status: GlobalPaymentStatus;
  senderName: string;
  amount: string;
  currencyCode: string;
  description: string;
  feeIsBen: boolean;
  paymentId: number;
  submittedDate: string;
  expireDays: number;
  expiresAt: string;
}
export interface Country {
  code: string;
  name: string;
}
/** globalPaymentMeta: what the chosen method costs and what arrives. */
export interface PayoutQuote {
  exchangeRate: string;
  toAmount: string;
  fee: string;
  estimatedTotal: string;
}
/** A payment this beneficiary took before (globalPaymentLastWithdrawals). */
export interface Withdrawal {
  withdrawalId: number;
  date: string;
  amount: string;
  currencyCode: string;
  paymentMethod: PayoutMethod;
  countryCode: string;
  status: GlobalPaymentStatus;
  senderName: string;
}
export interface PayeeOperation {
  operationId: string;
  approvalSentTo: string;
}

/** Why the page cannot go on: the payment is unknown (or the secret wrong), or too many attempts. */
export type Blocked = 'unknown' | 'locked';
/** A call that did not succeed; `unknown` (ENOA) and `locked` (13) end the page. */
export type Refusal = { ok: false; code: 'network' } | { ok: false; code: Blocked } | { ok: false; code: 'failed'; failure: Failure };
export type DetailsResult = { ok: true; details: PaymentDetails } | Refusal;
export type CountriesResult = { ok: true; countries: Country[] } | Refusal;
export type MethodsResult = { ok: true; methods: PayoutMethod[] } | Refusal;
export type FormResult = { ok: true; form: PayeeForm; quote: PayoutQuote; withdrawals: Withdrawal[] } | Refusal;
export type RefuseResult = { ok: true; status: GlobalPaymentStatus } | Refusal;
/** fields: the platform refused fields of the form (paymentDetails.<field>, or another param) */
export type SubmitResult = { ok: true; operation: PayeeOperation } | { ok: false; code: 'fields'; errors: ValidationError[] } | Refusal;
/** wrongCode: the code is wrong (tries left in the error); dropped: too many wrong codes, the submission is gone */
export type ApproveResult = { ok: true; status: GlobalPaymentStatus } | { ok: false; code: 'wrongCode'; error: ValidationError } | { ok: false; code: 'dropped' } | Refusal;
export type ResendResult = { ok: true; approvalSentTo: string } | Refusal;

export interface PayeeInput {
  paymentId: number;
  secret: string;
}

export type PayeeEvent =
  | { type: 'RETRY' }
  | { type: 'BACK' }
  | { type: 'PAYMENT.TAKE' }
  | { type: 'PAYMENT.REFUSE' }
  | { type: 'REFUSE.CONFIRM' }
  | { type: 'COUNTRY.CHOOSE'; countryCode: string }
  | { type: 'METHOD.CHOOSE'; method: PayoutMethod }
  | { type: 'NEXT' }
  | { type: 'FIELDS.CHANGE'; values: Record<string, string> }
  | { type: 'DETAILS.SUBMIT' }
  | { type: 'CODE.SUBMIT'; code: string }
  | { type: 'CODE.RESEND' };

/** What the page shows over the current step: the platform's refusal, no answer, or a code-step notice. */
export type PayeeNotice = { kind: 'failed'; failure: Failure } | { kind: 'network' } | { kind: 'noMethods' } | { kind: 'dropped' } | { kind: 'resent' } | { kind: 'missing' };

export interface PayeeContext extends PayeeInput {
  details: PaymentDetails | null;
  countries: Country[];
  countryCode: string;
  methods: PayoutMethod[];
  method: PayoutMethod | null;
  form: PayeeForm | null;
  quote: PayoutQuote | null;
  withdrawals: Withdrawal[];
  values: Record<string, string>;
  /** the platform's VF of the last submit */
  errors: ValidationError[];
  operation: PayeeOperation | null;
  /** the wrong code's error (with the tries left) */
  codeError: ValidationError | null;
  notice: PayeeNotice | null;
  blocked: Blocked | null;
  /** the payment's status at the end (done, closed) */
  status: GlobalPaymentStatus | null;
}

const blockedOf = (r: { ok: boolean; code?: string }): Blocked | null => (!r.ok && (r.code === 'unknown' || r.code === 'locked') ? r.code : null);
const noticeOf = (r: { ok: boolean; code?: string; failure?: Failure }): PayeeNotice | null =>
  r.ok ? null : r.code === 'failed' && r.failure ? { kind: 'failed', failure: r.failure } : r.code === 'network' ? { kind: 'network' } : null;

export const globalPayeeMachine = setup({
  types: {
    context: {} as PayeeContext,
    events: {} as PayeeEvent,
    input: {} as PayeeInput,
  },
  actors: {
    loadDetails: fromPromise<DetailsResult, PayeeInput>(async () => {
      throw new Error('loadDetails is provided by the app');
    }),
    loadCountries: fromPromise<CountriesResult, PayeeInput>(async () => {
      throw new Error('loadCountries is provided by the app');
    }),
    loadMethods: fromPromise<MethodsResult, PayeeInput & { countryCode: string }>(async () => {
      throw new Error('loadMethods is provided by the app');
    }),
    loadForm: fromPromise<FormResult, PayeeInput & { countryCode: string; method: PayoutMethod; currencyCode: string }>(async () => {
      throw new Error('loadForm is provided by the app');
    }),
    refusePayment: fromPromise<RefuseResult, PayeeInput>(async () => {
      throw new Error('refusePayment is provided by the app');
    }),
    submitPayout: fromPromise<SubmitResult, PayeeInput & { countryCode: string; method: PayoutMethod; currencyCode: string; paymentDetails: Record<string, string> }>(async () => {
      throw new Error('submitPayout is provided by the app');
    }),
    approvePayout: fromPromise<ApproveResult, PayeeInput & { operationId: string; approvalCode: string }>(async () => {
      throw new Error('approvePayout is provided by the app');
    }),
    resendCode: fromPromise<ResendResult, PayeeInput & { operationId: string }>(async () => {
      throw new Error('resendCode is provided by the app');
    }),
  },
  delays: {
    resendInterval: RESEND_INTERVAL_MS,
  },
  guards: {
    isOk: (_, r: { ok: boolean }) => r.ok,
    isBlocked: (_, r: { ok: boolean; code?: string }) => blockedOf(r) !== null,
    isWaiting: (_, r: DetailsResult) => r.ok && r.details.status === 'waiting',
    hasMethods: (_, r: MethodsResult) => r.ok && r.methods.length > 0,
    hasFieldErrors: (_, r: SubmitResult) => !r.ok && r.code === 'fields',
    isWrongCode: (_, r: ApproveResult) => !r.ok && r.code === 'wrongCode',
    isDropped: (_, r: ApproveResult) => !r.ok && r.code === 'dropped',
    hasCountry: ({ context }) => context.countryCode !== '',
    hasMethod: ({ context }) => context.method !== null,
  },
  actions: {
    storeDetails: assign((_, r: DetailsResult) => (r.ok ? { details: r.details, status: r.details.status, notice: null } : {})),
    storeBlocked: assign((_, r: { ok: boolean; code?: string }) => ({ blocked: blockedOf(r) })),
    storeNotice: assign((_, r: { ok: boolean; code?: string; failure?: Failure }) => ({ notice: noticeOf(r) })),
    noteNetwork: assign({ notice: { kind: 'network' } as PayeeNotice }),
    noteNoMethods: assign({ notice: { kind: 'noMethods' } as PayeeNotice, methods: [] as PayoutMethod[] }),
    noteMissing: assign({ notice: { kind: 'missing' } as PayeeNotice }),
    clearNotice: assign({ notice: null }),
    storeCountries: assign((_, r: CountriesResult) => (r.ok ? { countries: r.countries, notice: null } : {})),
    chooseCountry: assign(({ context }, countryCode: string) => (countryCode === context.countryCode ? { notice: null } : { countryCode, method: null, notice: null })),
    storeMethods: assign(({ context }, r: MethodsResult) =>
      r.ok ? { methods: r.methods, method: context.method !== null && r.methods.includes(context.method) ? context.method : null, notice: null } : {},
    ),
    chooseMethod: assign((_, method: PayoutMethod) => ({ method, notice: null })),
    storeForm: assign(({ context }, r: FormResult) => {
      if (!r.ok) return {};
      // the values typed before are kept for the fields this form still has
      const names = new Set(r.form.fields.map((f) => f.name));
      const values = Object.fromEntries(Object.entries(context.values).filter(([name]) => names.has(name)));
      return { form: r.form, quote: r.quote, withdrawals: r.withdrawals, values, errors: [], notice: null };
    }),
    setValues: assign(({ context }, values: Record<string, string>) => {
      const changed = new Set(Object.keys(values).filter((name) => values[name] !== context.values[name]));
      return { values, errors: context.errors.filter((e) => !changed.has(e.param.replace(/^paymentDetails\./, ''))) };
    }),
    startCall: assign({ notice: null }),
    storeFieldErrors: assign((_, r: SubmitResult) => ({ errors: !r.ok && r.code === 'fields' ? r.errors : [], notice: null })),
    storeOperation: assign((_, r: SubmitResult) => (r.ok ? { operation: r.operation, codeError: null, notice: null, errors: [] } : {})),
    storeCodeError: assign((_, r: ApproveResult) => ({ codeError: !r.ok && r.code === 'wrongCode' ? r.error : null, notice: null })),
    noteDropped: assign({ operation: null, codeError: null, notice: { kind: 'dropped' } as PayeeNotice }),
    storeStatus: assign((_, r: { ok: boolean; status?: GlobalPaymentStatus }) => ({ status: r.ok ? (r.status ?? null) : null, notice: null })),
    noteResent: assign(({ context }, r: ResendResult) => ({
      notice: { kind: 'resent' } as PayeeNotice,
      codeError: null,
      operation: r.ok && context.operation ? { ...context.operation, approvalSentTo: r.approvalSentTo } : context.operation,
    })),
    leaveCode: assign({ operation: null, codeError: null, notice: null }),
  },
}).createMachine({
  id: 'globalPayee',
  description:
    'The beneficiary of a global payment, with no account, reads it by the link and takes it by a payout method they choose (confirmed with an e-mailed code), or refuses it.',
  meta: { spec: ['document 2 §2', 'document 2 §3', 'document 2 §7', 'document 2 §9'] },
  context: ({ input }) => ({
    paymentId: input.paymentId,
    secret: input.secret,
    details: null,
    countries: [],
    countryCode: '',
    methods: [],
    method: null,
    form: null,
    quote: null,
    withdrawals: [],
    values: {},
    errors: [],
    operation: null,
    codeError: null,
    notice: null,
    blocked: null,
    status: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      description: 'The payment is read with the secret of the link.',
      tags: ['busy'],
      invoke: {
        id: 'loadDetails',
        src: 'loadDetails',
        input: ({ context }) => ({ paymentId: context.paymentId, secret: context.secret }),
        onDone: [
          {
            guard: { type: 'isWaiting', params: ({ event }) => event.output },
            target: 'details',
            actions: { type: 'storeDetails', params: ({ event }) => event.output },
            description: 'The payment waits for its beneficiary: its details are shown with "Take the money" and "Refuse".',
          },
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'closed',
            actions: { type: 'storeDetails', params: ({ event }) => event.output },
            description: 'The payment can no longer be taken (taken, on its way, paid, refused, canceled, expired, returned, failed): its status is told.',
          },
          {
            guard: { type: 'isBlocked', params: ({ event }) => event.output },
            target: 'blocked',
            actions: { type: 'storeBlocked', params: ({ event }) => event.output },
            description: 'The payment is unknown or the link is wrong (ENOA), or too many attempts were made (13).',
          },
          {
            target: 'loadFailed',
            actions: { type: 'storeNotice', params: ({ event }) => event.output },
            description: 'The platform refused or did not answer; the beneficiary may try again.',
          },
        ],
        onError: { target: 'loadFailed', actions: 'noteNetwork', description: 'No answer came; the beneficiary may try again.' },
      },
    },
    loadFailed: {
      description: 'The payment could not be read; the beneficiary may try again.',
      on: { RETRY: { target: 'loading', description: 'The beneficiary tries reading the payment again.' } },
    },
    blocked: {
      type: 'final',
      description: 'The page cannot go on: the payment is unknown (or the link wrong), or too many attempts were made.',
    },
    closed: {
      type: 'final',
      description: 'The payment is no longer waiting for its beneficiary; its status is told (refused, when the beneficiary just refused it).',
    },
    details: {
      description: 'The payment: sender, amount, currency, description, who pays the fee and until when it can be taken.',
      on: {
        'PAYMENT.TAKE': { target: 'loadingCountries', actions: 'startCall', description: 'The beneficiary takes the money: the countries it can be paid to are loaded.' },
        'PAYMENT.REFUSE': { target: 'confirmingRefusal', actions: 'clearNotice', description: 'The beneficiary wants to refuse the payment: asked to confirm first.' },
      },
    },
    confirmingRefusal: {
      description: 'The beneficiary is asked to confirm the refusal: the money goes back to the sender.',
      on: {
        'REFUSE.CONFIRM': { target: 'refusing', actions: 'startCall', description: 'The beneficiary confirms: the payment is refused.' },
        BACK: { target: 'details', description: 'The beneficiary changes their mind and goes back to the payment.' },
      },
    },
    refusing: {
      description: 'The platform refuses the payment and gives the money back to the sender.',
      tags: ['busy'],
      invoke: {
        id: 'refusePayment',
        src: 'refusePayment',
        input: ({ context }) => ({ paymentId: context.paymentId, secret: context.secret }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'closed',
            actions: { type: 'storeStatus', params: ({ event }) => event.output },
            description: 'The payment is refused; the money went back to the sender.',
          },
          {
            guard: { type: 'isBlocked', params: ({ event }) => event.output },
            target: 'blocked',
            actions: { type: 'storeBlocked', params: ({ event }) => event.output },
            description: 'The payment is unknown now, or too many attempts were made.',
          },
          {
            target: 'details',
            actions: { type: 'storeNotice', params: ({ event }) => event.output },
            description: 'The platform refused (or did not answer); its words are shown over the payment.',
          },
        ],
        onError: { target: 'details', actions: 'noteNetwork', description: 'No answer came; the payment is shown again.' },
      },
    },
    loadingCountries: {
      description: 'The countries the money can be paid to are loaded.',
      tags: ['busy'],
      invoke: {
        id: 'loadCountries',
        src: 'loadCountries',
        input: ({ context }) => ({ paymentId: context.paymentId, secret: context.secret }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'choosingCountry',
            actions: { type: 'storeCountries', params: ({ event }) => event.output },
            description: 'The countries came: the beneficiary chooses where to be paid.',
          },
          {
            guard: { type: 'isBlocked', params: ({ event }) => event.output },
            target: 'blocked',
            actions: { type: 'storeBlocked', params: ({ event }) => event.output },
            description: 'The payment is unknown now, or too many attempts were made.',
          },
          {
            target: 'details',
            actions: { type: 'storeNotice', params: ({ event }) => event.output },
            description: 'The countries could not be loaded; the payment is shown with the reason.',
          },
        ],
        onError: { target: 'details', actions: 'noteNetwork', description: 'No answer came; the payment is shown again.' },
      },
    },
    choosingCountry: {
      description: 'The beneficiary chooses the country the money goes to.',
      on: {
        'COUNTRY.CHOOSE': { actions: { type: 'chooseCountry', params: ({ event }) => event.countryCode }, description: 'The beneficiary picks a country.' },
        NEXT: [
          { guard: 'hasCountry', target: 'loadingMethods', actions: 'startCall', description: 'The ways to be paid in that country are loaded.' },
          { actions: 'noteMissing', description: 'No country chosen yet: the beneficiary is told to choose one.' },
        ],
        BACK: { target: 'details', actions: 'clearNotice', description: 'The beneficiary goes back to the payment.' },
      },
    },
    loadingMethods: {
      description: 'The payout methods offered in the chosen country are loaded.',
      tags: ['busy'],
      invoke: {
        id: 'loadMethods',
        src: 'loadMethods',
        input: ({ context }) => ({ paymentId: context.paymentId, secret: context.secret, countryCode: context.countryCode }),
        onDone: [
          {
            guard: { type: 'hasMethods', params: ({ event }) => event.output },
            target: 'choosingMethod',
            actions: { type: 'storeMethods', params: ({ event }) => event.output },
            description: 'The methods came: the beneficiary chooses how to be paid.',
          },
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'choosingCountry',
            actions: 'noteNoMethods',
            description: 'No method reaches that country for this payment: the beneficiary is told and chooses another country.',
          },
          {
            guard: { type: 'isBlocked', params: ({ event }) => event.output },
            target: 'blocked',
            actions: { type: 'storeBlocked', params: ({ event }) => event.output },
            description: 'The payment is unknown now, or too many attempts were made.',
          },
          {
            target: 'choosingCountry',
            actions: { type: 'storeNotice', params: ({ event }) => event.output },
            description: 'The methods could not be loaded; the reason is shown over the country choice.',
          },
        ],
        onError: { target: 'choosingCountry', actions: 'noteNetwork', description: 'No answer came; the country choice is shown again.' },
      },
    },
    choosingMethod: {
      description: 'The beneficiary chooses the payout method (card, bank, wire, crypto, instant, Interac as offered).',
      on: {
        'METHOD.CHOOSE': { actions: { type: 'chooseMethod', params: ({ event }) => event.method }, description: 'The beneficiary picks a method.' },
        NEXT: [
          { guard: 'hasMethod', target: 'loadingForm', actions: 'startCall', description: "The method's form, its fee and what arrives, and the recent withdrawals are loaded." },
          { actions: 'noteMissing', description: 'No method chosen yet: the beneficiary is told to choose one.' },
        ],
        BACK: { target: 'choosingCountry', actions: 'clearNotice', description: 'The beneficiary goes back to choose another country.' },
      },
    },
    loadingForm: {
      description: "The chosen method's form (extra fields), its quote (rate, fee, what arrives) and this beneficiary's recent withdrawals are loaded.",
      tags: ['busy'],
      invoke: {
        id: 'loadForm',
        src: 'loadForm',
        input: ({ context }) => ({
          paymentId: context.paymentId,
          secret: context.secret,
          countryCode: context.countryCode,
          method: context.method!,
          currencyCode: context.details!.currencyCode,
        }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'filling',
            actions: { type: 'storeForm', params: ({ event }) => event.output },
            description: 'The form came: the beneficiary fills in where the money goes, seeing the fee and the recent withdrawals.',
          },
          {
            guard: { type: 'isBlocked', params: ({ event }) => event.output },
            target: 'blocked',
            actions: { type: 'storeBlocked', params: ({ event }) => event.output },
            description: 'The payment is unknown now, or too many attempts were made.',
          },
          {
            target: 'choosingMethod',
            actions: { type: 'storeNotice', params: ({ event }) => event.output },
            description: 'The form could not be loaded; the reason is shown over the method choice.',
          },
        ],
        onError: { target: 'choosingMethod', actions: 'noteNetwork', description: 'No answer came; the method choice is shown again.' },
      },
    },
    filling: {
      description: "The beneficiary fills in the method's fields (the fee, what arrives and the recent withdrawals beside them).",
      on: {
        'FIELDS.CHANGE': { actions: { type: 'setValues', params: ({ event }) => event.values }, description: "The beneficiary types in a field; that field's error goes." },
        'DETAILS.SUBMIT': { target: 'submitting', actions: 'startCall', description: 'The details are sent; a code is e-mailed to confirm them.' },
        BACK: { target: 'choosingMethod', actions: 'clearNotice', description: 'The beneficiary goes back to choose another method.' },
      },
    },
    submitting: {
      description: 'The platform checks the details and e-mails a confirmation code.',
      tags: ['busy'],
      invoke: {
        id: 'submitPayout',
        src: 'submitPayout',
        input: ({ context }) => ({
          paymentId: context.paymentId,
          secret: context.secret,
          countryCode: context.countryCode,
          method: context.method!,
          currencyCode: context.details!.currencyCode,
          paymentDetails: context.values,
        }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'code',
            actions: { type: 'storeOperation', params: ({ event }) => event.output },
            description: 'The details are accepted and a code was e-mailed: the beneficiary enters it.',
          },
          {
            guard: { type: 'hasFieldErrors', params: ({ event }) => event.output },
            target: 'filling',
            actions: { type: 'storeFieldErrors', params: ({ event }) => event.output },
            description: 'Fields were refused: each error is shown on its field.',
          },
          {
            guard: { type: 'isBlocked', params: ({ event }) => event.output },
            target: 'blocked',
            actions: { type: 'storeBlocked', params: ({ event }) => event.output },
            description: 'The payment is unknown now, or too many attempts were made.',
          },
          {
            target: 'filling',
            actions: { type: 'storeNotice', params: ({ event }) => event.output },
            description: 'The platform refused (or did not answer); its words are shown over the form.',
          },
        ],
        onError: { target: 'filling', actions: 'noteNetwork', description: 'No answer came; the form is shown again.' },
      },
    },
    code: {
      description: 'The beneficiary enters the code e-mailed to them; a new code can be asked after a wait.',
      type: 'parallel',
      on: {
        BACK: { target: 'filling', actions: 'leaveCode', description: 'The beneficiary goes back to change the details (sending them again e-mails a new code).' },
      },
      states: {
        entry: {
          description: 'The code field and its confirmation.',
          initial: 'idle',
          states: {
            idle: {
              description: 'The beneficiary types the code.',
              on: { 'CODE.SUBMIT': { target: 'approving', actions: 'startCall', description: 'The beneficiary confirms the code.' } },
            },
            approving: {
              description: 'The platform checks the code and sends the payout on its way.',
              tags: ['busy'],
              invoke: {
                id: 'approvePayout',
                src: 'approvePayout',
                input: ({ context, event }) => ({
                  paymentId: context.paymentId,
                  secret: context.secret,
                  operationId: context.operation!.operationId,
                  approvalCode: (event as Extract<PayeeEvent, { type: 'CODE.SUBMIT' }>).code,
                }),
                onDone: [
                  {
                    guard: { type: 'isOk', params: ({ event }) => event.output },
                    target: '#globalPayee.done',
                    actions: { type: 'storeStatus', params: ({ event }) => event.output },
                    description: 'The code is right: the money is on its way.',
                  },
                  {
                    guard: { type: 'isWrongCode', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: { type: 'storeCodeError', params: ({ event }) => event.output },
                    description: 'The code is wrong: said on the field, with the tries left.',
                  },
                  {
                    guard: { type: 'isDropped', params: ({ event }) => event.output },
                    target: '#globalPayee.filling',
                    actions: 'noteDropped',
                    description: 'Too many wrong codes: the details must be sent again for a new code.',
                  },
                  {
                    guard: { type: 'isBlocked', params: ({ event }) => event.output },
                    target: '#globalPayee.blocked',
                    actions: { type: 'storeBlocked', params: ({ event }) => event.output },
                    description: 'The payment is unknown now, or too many attempts were made.',
                  },
                  {
                    target: 'idle',
                    actions: { type: 'storeNotice', params: ({ event }) => event.output },
                    description: 'The platform refused (the code expired, the payment changed) or did not answer; its words are shown.',
                  },
                ],
                onError: { target: 'idle', actions: 'noteNetwork', description: 'No answer came; the beneficiary may confirm again.' },
              },
            },
          },
        },
        resend: {
          description: 'Asking for a new code, held back for a while after each code sent.',
          initial: 'cooling',
          states: {
            cooling: {
              description: 'A code was just sent; a new one can be asked after the resend interval.',
              after: { resendInterval: { target: 'ready', description: 'The wait is over: a new code may be asked.' } },
            },
            ready: {
              description: 'The beneficiary may ask for a new code.',
              on: { 'CODE.RESEND': { target: 'resending', actions: 'startCall', description: 'The beneficiary asks for a new code.' } },
            },
            resending: {
              description: 'A new code is being e-mailed.',
              tags: ['resending'],
              invoke: {
                id: 'resendCode',
                src: 'resendCode',
                input: ({ context }) => ({ paymentId: context.paymentId, secret: context.secret, operationId: context.operation!.operationId }),
                onDone: [
                  {
                    guard: { type: 'isOk', params: ({ event }) => event.output },
                    target: 'cooling',
                    actions: { type: 'noteResent', params: ({ event }) => event.output },
                    description: 'A new code was sent; the beneficiary is told, and the next one waits again.',
                  },
                  {
                    guard: { type: 'isBlocked', params: ({ event }) => event.output },
                    target: '#globalPayee.blocked',
                    actions: { type: 'storeBlocked', params: ({ event }) => event.output },
                    description: 'The payment is unknown now, or too many attempts were made.',
                  },
                  {
                    target: 'ready',
                    actions: { type: 'storeNotice', params: ({ event }) => event.output },
                    description: 'The platform refused to send (or did not answer); its words are shown.',
                  },
                ],
                onError: { target: 'ready', actions: 'noteNetwork', description: 'No answer came; the beneficiary may ask again.' },
              },
            },
          },
        },
      },
    },
    done: {
      type: 'final',
      description: 'The code was right: the payout is on its way to the chosen method.',
    },
  },
});

export type GlobalPayeeMachine = typeof globalPayeeMachine;
