/**
 * Global pay (document 2 §2 /transfer/mass/global, /transfer/external/global-summary, /receive/{id};
 * §3 "Global-pay batch", "Global payment (read with the secret)", "Also part of the payee flow";
 * §4 "Global payment", "Global-pay batch"; §6 the flags mass.global and others.global; §7
 * "Global-pay, sender side", "Global-pay, payee side", "Global-pay approval single and batch";
 * §9 "confirm code '92'", "5 for global-pay"; issue 15 §5), under the names of operations.tsv.
 *
 * A sender (business or personal) pays people who need no account: each beneficiary gets an
 * e-mail with a link to /receive/{paymentId}?s=<secret> and takes the money by the payout method
 * they choose (card, bank, wire, crypto, instant, Interac: the payee forms of api/payees/), in the
 * batch's currency.
 *
 * ## Sender side (signed in; flag mass.global for a batch from a file, others.global for one payment)
 *
 * 1. globalPayUpload (multipart: the JSON in `data`, the CSV as the part `file`) {accountId,
 *    batchName, ignoreIdenticalBatch}: a CSV (as api/mass.ts reads it: comma, semicolon or tab,
 *    a header naming the columns in any order, at most MASS_MAX_ROWS rows) with the columns
 *    beneficiaryName, beneficiaryEmail, beneficiaryCountryCode, amount, description, and optionally
 *    beneficiaryType (individual | business) and feeShare (sender | beneficiary, default sender).
 *    Every row is checked; any problem answers VF naming `rows.<line>.<column>` (the file's line,
 *    1 the header) or `file`, nothing written. Answer {responseCode, date, batchId, result}:
 *    - '00': a draft batch was created: batchId, date (its creation time), result (count, total).
 *    - '92' (a confirmation is needed): a batch of the same account with the same file (its
 *      SHA-256) exists and ignoreIdenticalBatch was not true: batchId and date are THAT batch's,
 *      result null, nothing written. Send the call again with ignoreIdenticalBatch: true to create
 *      the new batch anyway. The screen must treat '92' as "ask, then resend", not as a failure.
 * 2. A draft is edited by payment id (GlobalPaymentSchema.id): globalPayUpdatePayments {adds,
 *    updates, deletes, restores} (all in one call), globalPayBatchAdd {payment}, globalPayBatchUpdate
 *    {payment (with id)}, globalPayBatchUpdateFull {payment with paymentMethods and feeShare},
 *    globalPayBatchRemove / Restore {id} (a removed payment stays listed as `deleted` until
 *    restored), globalPaySetFeeSide {list (ids), feeShare}, globalPaySetMethodForbidden {list,
 *    forbidden, paymentMethod} (the spec's `method`: a body's `method` names the call itself). Each answers the whole batch (globalPayBatchGet's shape). Only a draft
 *    can be edited (TA1 otherwise); a method forbidden for a payment is never offered to its payee.
 *    globalPayCountryMethods {countryCode, currencyCode} lists the methods a payee of that country
 *    can be paid with in that currency.
 * 3. globalPayBatchSubmit {batchId} (Idempotency-Key): the batch's total is held on the account:
 *    every payment's amount, plus, when the sender pays its fee, the LARGEST fee among the methods
 *    still allowed for its country (the payee's choice is not known yet; the difference comes back
 *    when the payee chooses a cheaper method); each amount must be within the per-payment limits of
 *    every method its payee may choose (VF aboveMaximum or belowMinimum naming
 *    `payments.<id>.amount`: forbid that method or change the amount). It is one transfer request
 *    (the transfer answer: transactionId is the operationId), approved by the customer's approval
 *    mode like any transfer:
 *    approveType none -> approved at once; otherwise approve with globalPayApproveBatch
 *    {operationId, approvalCode} (or approveTransfer {trxid, approvalCode}: the same approval),
 *    resend with resendApproval, give up with globalPayBatchCancel. globalPayBatchReject discards a
 *    draft (nothing was held). globalPayBatchGet / globalPayBatchStatus follow the batch.
 * 4. One payment without a file: globalPayP2pMethods {accountId, countryCode} (the methods),
 *    globalPayP2pMeta {accountId, countryCode, amount, feeShare} (the fee per method, the held fee
 *    and the total), globalPayP2pSubmit {accountId, payment fields} (Idempotency-Key): a batch of
 *    one submitted at once (answer as globalPayBatchSubmit plus batchId and paymentId), approved
 *    with globalPayApprove {operationId, approvalCode}.
 * 5. On approval each payment gets its own secret (192 random bits, stored only hashed) and its
 *    beneficiary an e-mail with the link; the payment's money stays held for it for expireDays
 *    (GLOBAL_PAY_EXPIRE_DAYS) days. globalPayBatchCancel on an approved batch takes back every
 *    payment not yet taken (status canceled, money back).
 *
 * ## Payee side (/receive/{paymentId}?s=<secret>: no sign-in; every call sends paymentId and secret)
 *
 * An unknown payment id and a wrong secret answer alike: ENOA "Unknown payment". Wrong secrets are
 * counted per payment and per client address (GLOBAL_PAY_SECRET_LIMITS); past the limit every call
 * answers 13 "Too many attempts" until the window ends. The steps of the payee page:
 *    globalPaymentDetails (status, sender, amount...) -> globalPaymentCountries ->
 *    globalPaymentMethods {countryCode} -> globalPaymentExtraParams {paymentMethod, currencyCode,
 *    countryCode} (the form) with globalPaymentMeta (rate, fee, what arrives) and the helpers
 *    (globalPaymentBinLookup, globalPaymentBinBlacklist, globalPaymentSwiftLookup,
 *    globalPaymentIbanLookup, globalPaymentInstantDetails, globalPaymentInstantBankList) ->
 *    globalPaymentSubmit {paymentMethod, currencyCode, countryCode, paymentDetails} (VF as
 *    `paymentDetails.<field>`; a code is e-mailed to the beneficiary: approveType 'email') ->
 *    globalPaymentApprove {operationId, approvalCode} (the payout goes to its rail; status
 *    processing, then completed, or returned/failed with the money back to the sender) or
 *    globalPaymentResendCode {approveType, operationId}. globalPaymentCancel refuses the payment
 *    (status 'refused', money back to the sender). globalPaymentLastWithdrawals (at most 5: this
 *    beneficiary's payments taken before, newest first) and globalPaymentWithdrawalDetails
 *    {withdrawalId} show what was taken.
 * Not shown in the spec (designed here): countryCode in globalPaymentSubmit (the form's fields
 * depend on it); a payout leaves in the payment's currency (globalPaymentMeta answers the rate and
 * the estimate for another toCurrencyCode, for information; submit takes the payment's currency
 * only: VF currencyOfAccount); extraFxMarkupPercent is 0; the fee of the payee's method comes off
 * the amount when the beneficiary pays it (feeIsBen), else the sender pays it from the held fee.
 *
 * Payment status (GLOBAL_PAYMENT_STATUSES): draft, deleted (in a draft), awaitingApproval (batch
 * submitted, the sender's approval pending), waiting (for the payee), processing (the payout at its
 * rail), completed, returned (the rail sent it back: money back to the sender), failed (the rail
 * refused it), refused (by the payee), expired, canceled. Batch status (GLOBAL_BATCH_STATUSES):
 * draft, awaitingApproval, processing (approved, payments not all resolved), done, rejected (a
 * draft discarded, or the approval rejected), expired (the approval expired), canceled.
 */
import * as v from 'valibot';
import { decimalString } from './accounts.ts';
import { VfCode } from './errors.ts';
import { IbanBankSchema, InstantInfoSchema, InstantKeyRequestEntries, PayeeFieldSchema, SwiftBankSchema, BankSchema } from './external.ts';
import { defineMethod, Id } from './method.ts';
import { PAYOUT_METHODS } from './payees/payout-methods.ts';
import { TransferResultEntries } from './transfers.ts';

/** Days a beneficiary has to take a payment once approved (issue 15 §5: "expiry after expireDays"). */
export const GLOBAL_PAY_EXPIRE_DAYS = 14;
/** Wrong secrets allowed in a window: per payment, per client address. */
export const GLOBAL_PAY_SECRET_LIMITS = { perPayment: 10, perAddress: 30, windowMs: 60 * 60 * 1000 } as const;
/** The payee's e-mailed confirmation code: digits, lifetime, wrong answers before the submission is dropped. */
export const GLOBAL_PAY_CODE_LENGTH = 6;
export const GLOBAL_PAY_CODE_TTL_S = 15 * 60;
export const GLOBAL_PAY_CODE_MAX_ATTEMPTS = 5;
export const GLOBAL_PAY_RESEND_INTERVAL_S = 30;
/** document 2 §9 "Recent transfers limit: ... 5 for global-pay" */
export const GLOBAL_PAY_LAST_WITHDRAWALS = 5;
/** the response code of an upload that needs confirmation (document 2 §9 "confirm code '92'") */
export const CONFIRM_RESPONSE_CODE = '92';

export const GLOBAL_PAYMENT_STATUSES = [
  'draft',
  'deleted',
  'awaitingApproval',
  'waiting',
  'processing',
  'completed',
  'returned',
  'failed',
  'refused',
  'expired',
  'canceled',
] as const;
export type GlobalPaymentStatus = (typeof GLOBAL_PAYMENT_STATUSES)[number];
export const GLOBAL_BATCH_STATUSES = ['draft', 'awaitingApproval', 'processing', 'done', 'rejected', 'expired', 'canceled'] as const;
export type GlobalBatchStatus = (typeof GLOBAL_BATCH_STATUSES)[number];
export const FEE_SHARES = ['sender', 'beneficiary'] as const;
export const BENEFICIARY_TYPES = ['individual', 'business'] as const;
/** The payee's only approval: a code e-mailed to the beneficiary's address. */
export const PAYEE_APPROVE_TYPES = ['email'] as const;

const MethodSchema = v.picklist(PAYOUT_METHODS, VfCode.notAllowed);
const CountryCodeSchema = v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/, VfCode.countryCodeFormat));
const CurrencySchema = v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{3}$/, VfCode.badFormat));
const amount = v.pipe(v.string(), v.trim(), v.regex(/^\d{1,15}(\.\d{1,8})?$/, VfCode.amountFormat));
const FeeShareSchema = v.picklist(FEE_SHARES, VfCode.notAllowed);
const ids = v.pipe(v.array(Id), v.maxLength(1000, VfCode.tooManyItems));

/** A payment as the sender writes it (upload columns, add, update). */
export const PaymentInputEntries = {
  beneficiaryName: v.pipe(v.string(), v.trim(), v.minLength(1, VfCode.required), v.maxLength(140, VfCode.tooLong)),
  beneficiaryEmail: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email(VfCode.notEmail), v.maxLength(254, VfCode.tooLong)),
  beneficiaryCountryCode: CountryCodeSchema,
  beneficiaryType: v.optional(v.picklist(BENEFICIARY_TYPES, VfCode.notAllowed)),
  amount,
  description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(140, VfCode.tooLong))),
  feeShare: v.optional(FeeShareSchema),
};
const PaymentInputSchema = v.object(PaymentInputEntries);
const PaymentUpdateSchema = v.object({ id: Id, ...PaymentInputEntries });
const PaymentMethodsSchema = v.pipe(v.array(v.object({ name: MethodSchema, forbidden: v.boolean() })), v.maxLength(PAYOUT_METHODS.length, VfCode.tooManyItems));

/** document 2 §3 "Global-pay batch": a payment. */
export const GlobalPaymentSchema = v.object({
  id: v.number(),
  /** the file's line (0: added by a call) */
  line: v.number(),
  amount: decimalString,
  description: v.string(),
  beneficiaryType: v.picklist(BENEFICIARY_TYPES),
  beneficiaryName: v.string(),
  beneficiaryEmail: v.string(),
  beneficiaryCountryCode: v.string(),
  feeShare: v.picklist(FEE_SHARES),
  /** every method of the country in the batch's currency, each forbidden or not */
  paymentMethods: v.array(v.object({ name: v.picklist(PAYOUT_METHODS), forbidden: v.boolean() })),
  status: v.picklist(GLOBAL_PAYMENT_STATUSES),
  /** the fee held with the amount (0 until submitted, or when the beneficiary pays) */
  heldFee: decimalString,
  /** when an approved payment expires, else null */
  expiresAt: v.nullable(v.string()),
  /** the payout the payee asked (its status in history), else null */
  transactionId: v.nullable(v.number()),
});

export const GlobalBatchSchema = v.object({
  batchId: v.number(),
  name: v.string(),
  accountId: v.number(),
  currency: v.string(),
  status: v.picklist(GLOBAL_BATCH_STATUSES),
  createdDate: v.string(),
  submittedDate: v.nullable(v.string()),
  expireDays: v.number(),
  /** payments not deleted, their amounts and (once submitted) the held fees */
  count: v.number(),
  total: decimalString,
  fee: decimalString,
  /** the batch's transfer request (its approval: the operationId), null while a draft */
  transactionId: v.nullable(v.number()),
  payments: v.array(GlobalPaymentSchema),
});
const BatchAnswer = { batch: GlobalBatchSchema };
const batchId = { batchId: Id };

export const globalPayUpload = defineMethod({
  name: 'globalPayUpload',
  access: 'customer',
  mutation: true,
  files: true, // the CSV as the part `file`
  request: {
    accountId: Id,
    batchName: v.pipe(v.string(), v.trim(), v.minLength(1, VfCode.required), v.maxLength(100, VfCode.tooLong)),
    ignoreIdenticalBatch: v.optional(v.boolean()),
  },
  response: {
    /** '00' created; '92' an identical batch exists: confirm with ignoreIdenticalBatch */
    responseCode: v.picklist(['00', CONFIRM_RESPONSE_CODE]),
    /** the created batch's time, or (92) the identical batch's */
    date: v.string(),
    batchId: v.number(),
    result: v.nullable(v.object({ count: v.number(), total: decimalString, currency: v.string(), status: v.picklist(GLOBAL_BATCH_STATUSES) })),
  },
});

export const globalPayBatchGet = defineMethod({ name: 'globalPayBatchGet', access: 'customer', mutation: false, request: batchId, response: BatchAnswer });

export const globalPayBatchStatus = defineMethod({
  name: 'globalPayBatchStatus',
  access: 'customer',
  mutation: false,
  request: batchId,
  response: {
    batchId: v.number(),
    status: v.picklist(GLOBAL_BATCH_STATUSES),
    transactionId: v.nullable(v.number()),
    count: v.number(),
    /** how many payments are in each status (statuses with none left out) */
    counts: v.record(v.string(), v.number()),
  },
});

export const globalPayUpdatePayments = defineMethod({
  name: 'globalPayUpdatePayments',
  access: 'customer',
  mutation: true,
  request: {
    ...batchId,
    adds: v.optional(v.pipe(v.array(PaymentInputSchema), v.maxLength(1000, VfCode.tooManyItems))),
    updates: v.optional(v.pipe(v.array(PaymentUpdateSchema), v.maxLength(1000, VfCode.tooManyItems))),
    deletes: v.optional(ids),
    restores: v.optional(ids),
  },
  response: BatchAnswer,
});

export const globalPayBatchAdd = defineMethod({ name: 'globalPayBatchAdd', access: 'customer', mutation: true, request: { ...batchId, payment: PaymentInputSchema }, response: BatchAnswer });
export const globalPayBatchUpdate = defineMethod({ name: 'globalPayBatchUpdate', access: 'customer', mutation: true, request: { ...batchId, payment: PaymentUpdateSchema }, response: BatchAnswer });
export const globalPayBatchUpdateFull = defineMethod({
  name: 'globalPayBatchUpdateFull',
  access: 'customer',
  mutation: true,
  request: { ...batchId, payment: PaymentUpdateSchema, paymentMethods: PaymentMethodsSchema, feeShare: FeeShareSchema },
  response: BatchAnswer,
});
export const globalPayBatchRemove = defineMethod({ name: 'globalPayBatchRemove', access: 'customer', mutation: true, request: { ...batchId, id: Id }, response: BatchAnswer });
export const globalPayBatchRestore = defineMethod({ name: 'globalPayBatchRestore', access: 'customer', mutation: true, request: { ...batchId, id: Id }, response: BatchAnswer });
export const globalPaySetFeeSide = defineMethod({
  name: 'globalPaySetFeeSide',
  access: 'customer',
  mutation: true,
  request: { ...batchId, list: ids, feeShare: FeeShareSchema },
  response: BatchAnswer,
});
export const globalPaySetMethodForbidden = defineMethod({
  name: 'globalPaySetMethodForbidden',
  access: 'customer',
  mutation: true,
  // paymentMethod: the spec's `method` (a body's `method` is the call's own name, api/method.ts)
  request: { ...batchId, list: ids, forbidden: v.boolean(), paymentMethod: MethodSchema },
  response: BatchAnswer,
});

export const globalPayCountryMethods = defineMethod({
  name: 'globalPayCountryMethods',
  access: 'customer',
  mutation: false,
  request: { countryCode: CountryCodeSchema, currencyCode: CurrencySchema },
  response: { methods: v.array(v.picklist(PAYOUT_METHODS)) },
});

export const globalPayBatchSubmit = defineMethod({ name: 'globalPayBatchSubmit', access: 'customer', mutation: true, request: batchId, response: { ...TransferResultEntries, batchId: v.number() } });
export const globalPayBatchReject = defineMethod({ name: 'globalPayBatchReject', access: 'customer', mutation: true, request: batchId, response: BatchAnswer });
export const globalPayBatchCancel = defineMethod({ name: 'globalPayBatchCancel', access: 'customer', mutation: true, request: batchId, response: BatchAnswer });

const approval = { operationId: Id, approvalCode: v.pipe(v.string(), v.trim(), v.maxLength(64, VfCode.tooLong)) };
export const globalPayApprove = defineMethod({ name: 'globalPayApprove', access: 'customer', mutation: true, request: approval, response: TransferResultEntries });
export const globalPayApproveBatch = defineMethod({ name: 'globalPayApproveBatch', access: 'customer', mutation: true, request: approval, response: TransferResultEntries });

const MethodFeeSchema = v.object({ name: v.picklist(PAYOUT_METHODS), fee: decimalString });
export const globalPayP2pMethods = defineMethod({
  name: 'globalPayP2pMethods',
  access: 'customer',
  mutation: false,
  request: { accountId: Id, countryCode: CountryCodeSchema },
  response: { currency: v.string(), methods: v.array(v.picklist(PAYOUT_METHODS)) },
});
export const globalPayP2pMeta = defineMethod({
  name: 'globalPayP2pMeta',
  access: 'customer',
  mutation: false,
  request: { accountId: Id, countryCode: CountryCodeSchema, amount, feeShare: v.optional(FeeShareSchema), forbiddenMethods: v.optional(v.array(MethodSchema)) },
  response: {
    currency: v.string(),
    amount: decimalString,
    /** each allowed method's fee on this amount */
    methods: v.array(MethodFeeSchema),
    maximumTrxFee: decimalString,
    /** what is held: amount plus maximumTrxFee when the sender pays the fee */
    fee: decimalString,
    total: decimalString,
  },
});
export const globalPayP2pSubmit = defineMethod({
  name: 'globalPayP2pSubmit',
  access: 'customer',
  mutation: true,
  request: { accountId: Id, ...PaymentInputEntries, forbiddenMethods: v.optional(v.array(MethodSchema)) },
  response: { ...TransferResultEntries, batchId: v.number(), paymentId: v.number() },
});

// ---- payee side ---------------------------------------------------------------------------------

/** Every payee call: the payment and its secret (the link's `s`). */
const secretEntries = { paymentId: Id, secret: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,100}$/, VfCode.badFormat)) };
const payee = <N extends string, Q extends v.ObjectEntries, R extends v.ObjectEntries>(name: N, mutation: boolean, request: Q, response: R) =>
  defineMethod({ name, access: 'public', mutation, request: { ...secretEntries, ...request }, response });

/** document 2 §3 "Global payment (read with the secret)". */
export const globalPaymentDetails = payee('globalPaymentDetails', false, {}, {
  beneficiaryName: v.string(),
  status: v.picklist(GLOBAL_PAYMENT_STATUSES),
  senderName: v.string(),
  amount: decimalString,
  currencyCode: v.string(),
  description: v.string(),
  /** the fee is paid by the beneficiary (taken off the amount) */
  feeIsBen: v.boolean(),
  paymentId: v.number(),
  submittedDate: v.string(),
  expireDays: v.number(),
  expiresAt: v.string(),
  /** the payee's submission awaiting its code, else null */
  operationId: v.nullable(v.string()),
});
export const globalPaymentCountries = payee('globalPaymentCountries', false, {}, { countries: v.array(v.object({ code: v.string(), name: v.string() })) });
export const globalPaymentMethods = payee('globalPaymentMethods', false, { countryCode: CountryCodeSchema }, { methods: v.array(v.picklist(PAYOUT_METHODS)) });
export const globalPaymentMeta = payee(
  'globalPaymentMeta',
  false,
  { paymentMethod: MethodSchema, toCurrencyCode: CurrencySchema, countryCode: CountryCodeSchema },
  {
    exchangeRate: decimalString,
    /** what the beneficiary receives, in toCurrencyCode */
    toAmount: decimalString,
    /** the method's fee, in the payment's currency */
    fee: decimalString,
    /** what arrives in the payment's currency (the amount less the fee when the beneficiary pays it) */
    estimatedTotal: decimalString,
    /** the largest fee of the methods allowed for this payment */
    maximumTrxFee: decimalString,
    extraFxMarkupPercent: decimalString,
  },
);
const WithdrawalSchema = v.object({
  withdrawalId: v.number(),
  date: v.string(),
  amount: decimalString,
  currencyCode: v.string(),
  paymentMethod: v.picklist(PAYOUT_METHODS),
  countryCode: v.string(),
  status: v.picklist(GLOBAL_PAYMENT_STATUSES),
  /** what the rail was told (a card only as BIN and last four) */
  paymentDetails: v.record(v.string(), v.string()),
  senderName: v.string(),
  /** the rail's reason code of a returned payout */
  reasonCode: v.nullable(v.string()),
});
export const globalPaymentLastWithdrawals = payee(
  'globalPaymentLastWithdrawals',
  false,
  { limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(GLOBAL_PAY_LAST_WITHDRAWALS))) },
  { withdrawals: v.array(WithdrawalSchema) },
);
export const globalPaymentWithdrawalDetails = payee('globalPaymentWithdrawalDetails', false, { withdrawalId: v.optional(Id) }, { withdrawal: WithdrawalSchema });
export const globalPaymentBinBlacklist = payee('globalPaymentBinBlacklist', false, {}, { bins: v.array(v.string()) });
export const globalPaymentInstantDetails = payee(
  'globalPaymentInstantDetails',
  false,
  InstantKeyRequestEntries,
  { instantInfo: InstantInfoSchema },
);
export const globalPaymentInstantBankList = payee('globalPaymentInstantBankList', false, { countryCode: CountryCodeSchema }, { banks: v.array(BankSchema) });
export const globalPaymentExtraParams = payee(
  'globalPaymentExtraParams',
  false,
  { paymentMethod: MethodSchema, currencyCode: CurrencySchema, countryCode: CountryCodeSchema },
  { params: v.array(PayeeFieldSchema), oneOf: v.optional(v.array(v.array(v.string()))) },
);
export const globalPaymentBinLookup = payee(
  'globalPaymentBinLookup',
  false,
  { binNumber: v.pipe(v.string(), v.maxLength(30, VfCode.tooLong)) },
  { bin: v.string(), brand: v.nullable(v.string()), blocked: v.boolean(), supported: v.boolean() },
);
export const globalPaymentSwiftLookup = payee('globalPaymentSwiftLookup', false, { swift: v.pipe(v.string(), v.maxLength(20, VfCode.bicFormat)) }, { bankDetails: v.nullable(SwiftBankSchema) });
export const globalPaymentIbanLookup = payee('globalPaymentIbanLookup', false, { iban: v.pipe(v.string(), v.maxLength(50, VfCode.ibanFormat)) }, { bankDetails: v.nullable(IbanBankSchema) });

const PaymentDetailsSchema = v.pipe(
  v.record(v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9]{0,39}$/, VfCode.badFormat)), v.pipe(v.string(), v.maxLength(200, VfCode.tooLong))),
  v.check((fields) => Object.keys(fields).length <= 20, VfCode.tooManyItems),
);
export const globalPaymentSubmit = payee(
  'globalPaymentSubmit',
  true,
  { paymentMethod: MethodSchema, currencyCode: CurrencySchema, countryCode: CountryCodeSchema, paymentDetails: PaymentDetailsSchema },
  {
    operationId: v.string(),
    approveType: v.picklist(PAYEE_APPROVE_TYPES),
    /** the masked e-mail the code went to */
    approvalSentTo: v.string(),
    availableApprovalMethods: v.array(v.picklist(PAYEE_APPROVE_TYPES)),
  },
);
const operationId = v.pipe(v.string(), v.regex(/^[a-f0-9]{32}$/, VfCode.badFormat));
export const globalPaymentApprove = payee(
  'globalPaymentApprove',
  true,
  { operationId, approvalCode: v.pipe(v.string(), v.trim(), v.maxLength(16, VfCode.tooLong)) },
  { status: v.picklist(GLOBAL_PAYMENT_STATUSES), paymentId: v.number(), withdrawalId: v.number() },
);
export const globalPaymentResendCode = payee(
  'globalPaymentResendCode',
  true,
  { operationId, approveType: v.optional(v.picklist(PAYEE_APPROVE_TYPES, VfCode.notAllowed)) },
  { approvalSentTo: v.string() },
);
/** Refuses the payment: status 'refused', the money back to the sender (document 2 §4). */
export const globalPaymentCancel = payee('globalPaymentCancel', true, {}, { status: v.picklist(GLOBAL_PAYMENT_STATUSES), paymentId: v.number() });

export const globalPayMethods = {
  globalPayUpload,
  globalPayBatchGet,
  globalPayBatchStatus,
  globalPayUpdatePayments,
  globalPayBatchAdd,
  globalPayBatchUpdate,
  globalPayBatchUpdateFull,
  globalPayBatchRemove,
  globalPayBatchRestore,
  globalPaySetFeeSide,
  globalPaySetMethodForbidden,
  globalPayCountryMethods,
  globalPayBatchSubmit,
  globalPayBatchReject,
  globalPayBatchCancel,
  globalPayApprove,
  globalPayApproveBatch,
  globalPayP2pMethods,
  globalPayP2pMeta,
  globalPayP2pSubmit,
  globalPaymentDetails,
  globalPaymentCountries,
  globalPaymentMethods,
  globalPaymentMeta,
  globalPaymentLastWithdrawals,
  globalPaymentWithdrawalDetails,
  globalPaymentBinBlacklist,
  globalPaymentInstantDetails,
  globalPaymentInstantBankList,
  globalPaymentExtraParams,
  globalPaymentBinLookup,
  globalPaymentSwiftLookup,
  globalPaymentIbanLookup,
  globalPaymentSubmit,
  globalPaymentApprove,
  globalPaymentResendCode,
  globalPaymentCancel,
};
