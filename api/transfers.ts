/**
 * Money movement (document 2 §3-§9): currencies and rates, own-account and person-to-person
 * transfers with their fee, max amount and limits, approvals, recent transfers, recurring
 * (pre-approved) schedules and the permission flags of §6.
 *
 * Amounts on the wire are decimal strings of major units ("12.50"); the platform keeps integers
 * in minor units with the currency's exponent (2 for fiat, 8 for crypto).
 *
 * Money-moving methods (`idempotent: true`) need an `Idempotency-Key` header (IDEMPOTENCY_KEY_HEADER):
 * a retry with the same key and body answers the first answer again; the same key with another
 * body is refused (VF on the header).
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { AccountSchema, decimalString } from './accounts.ts';
import { approveModes } from './customer.ts';
import { defineMethod, Id } from './method.ts';
import { TransferStatusSchema } from './transfer-status.ts';
import { PAYOUT_METHODS } from './payees/payout-methods.ts';

export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENT_METHODS } from './idempotency.ts';

/** Fiat of document 2 §9 plus crypto (8 decimals). */
export const CURRENCIES = ['EUR', 'USD', 'AUD', 'CAD', 'GBP', 'RON', 'BTC', 'ETH'] as const;
export const FIAT_CURRENCIES = ['EUR', 'USD', 'AUD', 'CAD', 'GBP', 'RON'] as const;
export const CRYPTO_CURRENCIES = ['BTC', 'ETH'] as const;
export const CurrencyCodeSchema = v.picklist(CURRENCIES);
export type CurrencyCode = (typeof CURRENCIES)[number];

const positiveAmount = v.pipe(v.string(), v.regex(/^\d{1,15}(\.\d{1,8})?$/, VfCode.amountFormat));
const id = Id;
const optionalText = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max)));
const email = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(254), v.email('must be an e-mail address'));

/** Recurring fields (document 2 §3 own-account transfer request; p2p has the same). */
export const SubscriptionEntries = {
  /** YYYY-MM-DD: the last day a run may happen */
  subscriptionEndDate: v.optional(v.pipe(v.string(), v.isoDate('must be a date (YYYY-MM-DD)'))),
  subscriptionFrequency: v.optional(v.picklist(['daily', 'weekly', 'monthly'])),
  /** runs in total, the first included */
  subscriptionTransactions: v.optional(v.pipe(v.number(), v.integer(), v.minValue(2), v.maxValue(1000))),
  /** may the customer cancel it later */
  subscriptionUserCancel: v.optional(v.boolean()),
};

export { TransferStatusSchema, type TransferStatus } from './transfer-status.ts';
export const ApproveTypeSchema = v.picklist(approveModes);
export type ApproveType = v.InferOutput<typeof ApproveTypeSchema>;

/** The result of a transfer request (document 2 §3 own-account transfer result, plus the approval). */
export const TransferResultEntries = {
  transactionId: v.number(),
  status: TransferStatusSchema,
  /** how it must be approved: none means it is already posted */
  approveType: ApproveTypeSchema,
  /** where the code went: a masked phone for sms */
  approvalSentTo: v.nullable(v.string()),
  fee: decimalString,
  feeCurrency: v.string(),
  amount: decimalString,
  currency: v.string(),
  toAmount: decimalString,
  toCurrency: v.string(),
  rate: decimalString,
  /** ISO time a pending transfer expires */
  expiresAt: v.string(),
  /** the schedule a recurring transfer created */
  scheduleId: v.nullable(v.number()),
};

// ---- permission flags (document 2 §6) --------------------------------------------------------

export const PERMISSION_FLAGS = {
  topLevel: ['sendMoneyPaxumUser', 'sendMoneyUser', 'requestMoney', 'settlementAccount', 'addFundsWireThirdParty', 'addFundsBankThirdParty'],
  own: ['digital', 'betweenAccounts', 'wire', 'eft', 'card', 'instant', 'interac'],
  others: ['digital', 'loadPrepaidCard', 'wire', 'eft', 'card', 'instant', 'interac', 'p2p', 'global'],
  mass: ['wire', 'eft', 'card', 'instant', 'interac', 'p2p', 'digital', 'global'],
  funding: ['digital'],
} as const;
/** Stored flat: `topLevel.sendMoneyUser`, `own.betweenAccounts`, `others.p2p`... */
export type PermissionFlag = {
  [G in keyof typeof PERMISSION_FLAGS]: `${G}.${(typeof PERMISSION_FLAGS)[G][number]}`;
}[keyof typeof PERMISSION_FLAGS];
export const ALL_PERMISSION_FLAGS = Object.entries(PERMISSION_FLAGS).flatMap(([group, names]) =>
  names.map((name) => `${group}.${name}`),
) as PermissionFlag[];

const flags = <T extends readonly string[]>(names: T) =>
  v.object(Object.fromEntries(names.map((n) => [n, v.boolean()])) as { [K in T[number]]: v.BooleanSchema<undefined> });
export const MoneyPermissionsSchema = v.object({
  topLevel: flags(PERMISSION_FLAGS.topLevel),
  own: flags(PERMISSION_FLAGS.own),
  others: flags(PERMISSION_FLAGS.others),
  mass: flags(PERMISSION_FLAGS.mass),
  funding: flags(PERMISSION_FLAGS.funding),
});
export type MoneyPermissions = v.InferOutput<typeof MoneyPermissionsSchema>;

/** The acting user's flags for the acting customer (all false by default). */
export const moneyPermissions = defineMethod({
  name: 'moneyPermissions',
  access: 'customer',
  mutation: false,
  request: {},
  response: { permissions: MoneyPermissionsSchema },
});

// ---- accounts, currencies and rates ---------------------------------------------------------

export const addCurrency = defineMethod({
  name: 'addCurrency',
  access: 'customer',
  mutation: true,
  request: { currencyCode: CurrencyCodeSchema },
  response: { account: AccountSchema },
});

/** A crypto wallet: a new account of a crypto currency (or an existing one) with its receiving address. */
export const createWallet = defineMethod({
  name: 'createWallet',
  access: 'customer',
  mutation: true,
  request: { currencyCode: v.picklist(CRYPTO_CURRENCIES), accountId: v.optional(id) },
  response: { accountId: v.number(), address: v.string() },
});

export const exchangeRate = defineMethod({
  name: 'exchangeRate',
  access: 'customer',
  mutation: false,
  request: { fromCurrencyCode: v.optional(CurrencyCodeSchema), toCurrencyCode: v.optional(CurrencyCodeSchema) },
  /** toCurrency per one fromCurrency; 1 for the same currency or a missing one */
  response: { rate: decimalString },
});

export const RateSchema = v.object({ fromCurrencyCode: v.string(), toCurrencyCode: v.string(), rate: decimalString, updatedAt: v.string() });
export const defaultExchangeRates = defineMethod({
  name: 'defaultExchangeRates',
  access: 'customer',
  mutation: false,
  request: {},
  response: { rates: v.array(RateSchema) },
});

// ---- fee, max amount, limits ----------------------------------------------------------------

export const TransferOperationSchema = v.picklist(['betweenAccounts', 'p2p']);
export type TransferOperation = v.InferOutput<typeof TransferOperationSchema>;
/**
 * What limits and "send all" are asked for: a transfer inside the platform, or a payout's method
 * (its rail: wire, eft, oct, digital, instant, interac), whose limits and fee rule are the rail's.
 */
export const LimitOperationSchema = v.picklist([...TransferOperationSchema.options, ...PAYOUT_METHODS]);
export type LimitOperation = v.InferOutput<typeof LimitOperationSchema>;

/** Between accounts: the fee and what arrives (document 2 §7 "Fee takes amount, toAccountId, fromAccountId"). */
export const transferFee = defineMethod({
  name: 'transferFee',
  access: 'customer',
  mutation: false,
  request: {
    operation: TransferOperationSchema,
    amount: positiveAmount,
    fromAccountId: id,
    /** betweenAccounts */
    toAccountId: v.optional(id),
    /** the currency the amount is in: the source's by default, or the destination's (betweenAccounts) */
    currency: v.optional(CurrencyCodeSchema),
  },
  response: {
    fee: decimalString,
    feeCurrency: v.string(),
    amount: decimalString,
    currency: v.string(),
    toAmount: decimalString,
    toCurrency: v.string(),
    rate: decimalString,
  },
});

/** The most the source account can send now: available balance less the fee on it. */
export const transferMaxAmount = defineMethod({
  name: 'transferMaxAmount',
  access: 'customer',
  mutation: false,
  request: { operation: LimitOperationSchema, fromAccountId: id, toAccountId: v.optional(id) },
  response: { maxAmount: decimalString, currency: v.string() },
});

export const LimitsSchema = v.object({
  currencyCode: v.string(),
  minAmount: decimalString,
  maxAmount: decimalString,
  dailyLimit: decimalString,
  /** what is left of today's limit (UTC day), counting pending and posted transfers */
  dailyRemaining: decimalString,
});
export const customerLimits = defineMethod({
  name: 'customerLimits',
  access: 'customer',
  mutation: false,
  request: { type: LimitOperationSchema, currencyCode: CurrencyCodeSchema, fromAccountId: v.optional(id), countryCode: v.optional(v.string()) },
  response: { limits: LimitsSchema },
});

// ---- payee check ----------------------------------------------------------------------------

/** Check payee (document 2 §7): does the e-mail belong to a customer money can be sent to. */
export const checkPayee = defineMethod({
  name: 'checkPayee',
  access: 'customer',
  mutation: false,
  request: { email },
  response: {
    /** a user with this e-mail exists */
    exist: v.boolean(),
    /** it can receive (active, not the caller) */
    exists: v.boolean(),
    /** the payee is one of the acting company's users */
    isEmployee: v.boolean(),
    /** the payee refuses money from the sender (their blacklist) */
    outBlacklist: v.boolean(),
    /** the payee's display name when it can receive */
    name: v.nullable(v.string()),
  },
});

// ---- transfers ------------------------------------------------------------------------------

export const transferBetweenAccounts = defineMethod({
  name: 'transferBetweenAccounts',
  access: 'customer',
  mutation: true,
  request: {
    fromAccount: id,
    toAccount: id,
    /** the amount, in `currency` */
    toAmount: positiveAmount,
    /** the source's or the destination's currency */
    currency: CurrencyCodeSchema,
    ...SubscriptionEntries,
  },
  response: TransferResultEntries,
});

export const transferP2p = defineMethod({
  name: 'transferP2p',
  access: 'customer',
  mutation: true,
  request: {
    accountId: id,
    amount: positiveAmount,
    currency: CurrencyCodeSchema,
    toEmail: email,
    note: optionalText(500),
    reference: optionalText(140),
    /** save as a template under this name (recent transfers show it) */
    templateName: optionalText(100),
    ...SubscriptionEntries,
  },
  response: TransferResultEntries,
});

/** Approve a pending transfer with its code (document 2 §7 "Approve transfer: trxid, approvalCode"). */
export const approveTransfer = defineMethod({
  name: 'approveTransfer',
  access: 'customer',
  mutation: true,
  request: { trxid: id, approvalCode: v.pipe(v.string(), v.trim(), v.regex(/^[A-Za-z0-9]{4,32}$/, VfCode.codeWrong)) },
  response: TransferResultEntries,
});

/** Send the approval again (sms: a new code; push: the request to the devices again). */
export const resendApproval = defineMethod({
  name: 'resendApproval',
  access: 'customer',
  mutation: true,
  request: { trxid: id },
  response: { approvalSentTo: v.nullable(v.string()) },
});

/** The customer gives up a pending transfer: voided, hold released. */
export const transferCancel = defineMethod({
  name: 'transferCancel',
  access: 'customer',
  mutation: true,
  request: { trxid: id },
  response: TransferResultEntries,
});

/** A transfer's current state (the push approval wait reads it after a TransferApproval event or a reconnect). */
export const transferStatus = defineMethod({
  name: 'transferStatus',
  access: 'customer',
  mutation: false,
  request: { trxid: id },
  response: TransferResultEntries,
});

/** What recentTransfers lists: transfers inside the platform, and payouts by their method (issue 15 item 3). */
export const RecentTypeSchema = v.picklist(['betweenAccounts', 'p2p', ...PAYOUT_METHODS]);
export type RecentType = v.InferOutput<typeof RecentTypeSchema>;
export const RecentTransferSchema = v.object({
  /** own: between own accounts; 3d: to someone else */
  permission: v.picklist(['own', '3d']),
  type: RecentTypeSchema,
  isDisabled: v.boolean(),
  templateName: v.nullable(v.string()),
  toEmail: v.nullable(v.string()),
  toName: v.nullable(v.string()),
  fromAccountId: v.number(),
  toAccountId: v.nullable(v.number()),
  amount: decimalString,
  currency: v.string(),
  date: v.string(),
  /**
   * A payout's destination, to send again (not shown in the spec; designed here): the payee's
   * country and the payee form's values as they were sent, except a card's number, of which only
   * the BIN and last four are kept (cardBin, cardLast4): the customer types the number again.
   */
  countryCode: v.optional(v.string()),
  payee: v.optional(v.record(v.string(), v.string())),
});
export type RecentTransfer = v.InferOutput<typeof RecentTransferSchema>;
export const recentTransfers = defineMethod({
  name: 'recentTransfers',
  access: 'customer',
  mutation: false,
  request: {
    types: v.optional(v.array(RecentTypeSchema)),
    permission: v.optional(v.picklist(['own', '3d'])),
    /** payouts to this country only (document 2 §7 "Recent transfers: types, permission, limit, countryCode, search") */
    countryCode: v.optional(v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/, VfCode.countryCodeFormat))),
    /** 3 for recent p2p (document 2 §9) */
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50))),
    search: optionalText(100),
  },
  /** disabled ones (closed account, payee gone or refusing) are left out */
  response: { transfers: v.array(RecentTransferSchema) },
});

/**
 * Beneficiary list (document 2 §7 beside mass p2p, 3 §7): the people the acting customer has sent
 * p2p money to, most recent first, one row per e-mail. The spec does not show the shape: these are
 * the fields a payee picker needs (who, and when and how much last).
 */
export const BeneficiarySchema = v.object({
  email: v.string(),
  /** the payee's name when the e-mail belongs to a customer, else null */
  name: v.nullable(v.string()),
  lastAmount: decimalString,
  currency: v.string(),
  lastDate: v.string(),
  transferCount: v.number(),
});
export const beneficiaryList = defineMethod({
  name: 'beneficiaryList',
  access: 'customer',
  mutation: false,
  request: {
    /** part of the e-mail or the name */
    search: optionalText(100),
    /** 50 unless given (a limit on everything) */
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
  },
  response: { beneficiaries: v.array(BeneficiarySchema) },
});

/**
 * Payment template list (document 3 §7): the transfers saved with a templateName (transferP2p,
 * transferBetweenAccounts), the latest one per name, newest first. Shape not shown: what a
 * "repeat this payment" needs to fill the transfer form.
 */
export const PaymentTemplateSchema = v.object({
  templateName: v.string(),
  type: TransferOperationSchema,
  fromAccountId: v.number(),
  toAccountId: v.nullable(v.number()),
  toEmail: v.nullable(v.string()),
  amount: decimalString,
  currency: v.string(),
  note: v.nullable(v.string()),
  reference: v.nullable(v.string()),
  created: v.string(),
});
export const paymentTemplateList = defineMethod({
  name: 'paymentTemplateList',
  access: 'customer',
  mutation: false,
  request: { limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))) },
  response: { templates: v.array(PaymentTemplateSchema) },
});

// ---- pre-approved (recurring) payments ------------------------------------------------------

export const SubscriptionSchema = v.object({
  id: v.number(),
  type: TransferOperationSchema,
  amount: decimalString,
  currency: v.string(),
  toAccount: v.nullable(v.number()),
  beneficiaryEmail: v.nullable(v.string()),
  frequency: v.picklist(['daily', 'weekly', 'monthly']),
  status: v.picklist(['awaitingApproval', 'active', 'finished', 'canceled']),
  transactionsDone: v.number(),
  transactionsTotal: v.nullable(v.number()),
  endDate: v.nullable(v.string()),
  nextRunAt: v.nullable(v.string()),
  userCancel: v.boolean(),
});
export const preapprovedList = defineMethod({
  name: 'preapprovedList',
  access: 'customer',
  mutation: false,
  request: {
    beneficiaryEmail: optionalText(254),
    fromAmount: v.optional(positiveAmount),
    toAmount: v.optional(positiveAmount),
    type: v.optional(TransferOperationSchema),
    pageNumber: v.optional(id),
    pageSize: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50))),
  },
  response: { subscriptions: v.array(SubscriptionSchema), total: v.number() },
});
export const preapprovedCancel = defineMethod({
  name: 'preapprovedCancel',
  access: 'customer',
  mutation: true,
  request: { id },
  response: { subscription: SubscriptionSchema },
});

export const transferMethods = {
  moneyPermissions,
  addCurrency,
  createWallet,
  exchangeRate,
  defaultExchangeRates,
  transferFee,
  transferMaxAmount,
  customerLimits,
  checkPayee,
  transferBetweenAccounts,
  transferP2p,
  approveTransfer,
  resendApproval,
  transferCancel,
  transferStatus,
  recentTransfers,
  beneficiaryList,
  paymentTemplateList,
  preapprovedList,
  preapprovedCancel,
};
