/**
 * Transaction history, the balance chart, exports and statements (document 2 §3, §4, §7, §9).
 *
 * File downloads are REST (the named-method endpoint answers JSON), with the bearer token:
 * - GET  /api/v1/exports/{exportId}/file                       the CSV of a finished export
 * - GET  /api/v1/statements/{accountId}/{year}/{month}         the month's statement as a PDF
 * - GET  /api/v1/history/transactions/{transactionId}/receipt   one transfer's receipt as a PDF
 * - GET  /api/v1/history/entries/{entryId}/receipt               an entry row's receipt as a PDF
 *   (the spec names no receipt path; these sit under the history the ids come from)
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { decimalString } from './accounts.ts';
import { TransferStatusSchema } from './transfer-status.ts';
import { defineMethod, Id } from './method.ts';

export const HISTORY_PAGE_SIZE = 20;
export const EXPORT_LIST_PAGE_SIZE = 12;
export const exportFilePath = (exportId: string) => `/api/v1/exports/${encodeURIComponent(exportId)}/file`;
export const statementPath = (accountId: number, year: number, month: number) => `/api/v1/statements/${accountId}/${year}/${month}`;
/** The receipt of a transfer (the transactionId of a history row of kind 'transfer'). */
export const receiptPath = (transactionId: number) => `/api/v1/history/transactions/${transactionId}/receipt`;
/** The receipt of a booking without a transfer: a row of kind 'entry', whose transactionId is a journal entry's id. */
export const entryReceiptPath = (entryId: number) => `/api/v1/history/entries/${entryId}/receipt`;
/** The receipt of a history row, whichever kind it is (the kinds' ids are numbered apart); null for a card authorisation (nothing booked: no receipt). */
export function receiptPathOf(row: { transactionId: number; kind: 'transfer' | 'entry' }): string;
export function receiptPathOf(row: { transactionId: number; kind: TransactionKind }): string | null;
export function receiptPathOf(row: { transactionId: number; kind: TransactionKind }): string | null {
  return row.kind === 'entry' ? entryReceiptPath(row.transactionId) : row.kind === 'transfer' ? receiptPath(row.transactionId) : null;
}

const id = Id;
const amount = v.pipe(v.string(), v.regex(/^\d{1,15}(\.\d{1,8})?$/, VfCode.amountFormat));
const isoDate = v.pipe(v.string(), v.isoDate('must be a date (YYYY-MM-DD)'));

/** Operation types shown in history; Fees rows are the fee legs (left out of the home list). */
/** ...and the payouts over the rails by their kind (wire, eft, oct card, digital crypto, instant, interac). */
/** ...and a payment with one of the customer's cards at a merchant (cardPayment: held, declined, released or posted). */
export const OperationTypeSchema = v.picklist(['betweenAccounts', 'exchange', 'p2p', 'Fees', 'deposit', 'wire', 'eft', 'oct', 'digital', 'instant', 'interac', 'cardPayment']);
export type OperationType = v.InferOutput<typeof OperationTypeSchema>;

/** The history filter (document 2 §3). Dates are inclusive days (UTC); amounts compare the row's amount. */
export const HistoryFilterEntries = {
  accountId: v.optional(id),
  keyword: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
  transactionType: v.optional(OperationTypeSchema),
  fromDate: v.optional(isoDate),
  toDate: v.optional(isoDate),
  fromAmount: v.optional(amount),
  toAmount: v.optional(amount),
  transactionDirection: v.optional(v.picklist(['in', 'out'])),
  status: v.optional(TransferStatusSchema),
};

/**
 * What a history row's transactionId names: a transfer, or a booking without a transfer (a journal
 * entry: money from outside the platform, an account fee, a card payment posted), or a card
 * payment not posted (authorization: held, declined or released; its id the authorisation's,
 * api/cards.ts AuthorizationSchema). They are numbered apart. The spec's transaction has no such
 * field; the platform adds it so a row's receipt and detail page find the right one (a deposit and
 * an account fee alike are entries, a transfer's fee row is the transfer's).
 */
export const TransactionKindSchema = v.picklist(['transfer', 'entry', 'authorization']);
export type TransactionKind = v.InferOutput<typeof TransactionKindSchema>;

/** One row: one account's side of a transfer (a transfer between own accounts gives two rows). */
export const TransactionSchema = v.object({
  /** unique per row: `${kind}:${transactionId}:${accountId}:${operationType}` */
  rowId: v.string(),
  kind: TransactionKindSchema,
  transactionId: v.number(),
  transactionDate: v.string(),
  operationType: OperationTypeSchema,
  direction: v.picklist(['in', 'out']),
  status: TransferStatusSchema,
  accountId: v.number(),
  /** signed: negative leaves the account */
  amount: decimalString,
  currency: v.string(),
  /** the other side: a name, an e-mail or an own account */
  counterparty: v.string(),
  note: v.nullable(v.string()),
  reference: v.nullable(v.string()),
  /**
   * Ours: a revenue split's row (kind 'entry'; server/modules/contracts/split.ts) names its
   * contract: the payer's row (out) moved the share to the counterparty, the beneficiary's (in)
   * received it from the counterparty. Absent on every other row.
   */
  contractId: v.optional(v.number()),
});
export type Transaction = v.InferOutput<typeof TransactionSchema>;

export const transactionHistory = defineMethod({
  name: 'transactionHistory',
  access: 'customer',
  mutation: false,
  request: {
    ...HistoryFilterEntries,
    /**
     * The customer whose history (document 2 §3, §6): the acting one (the caller's own customer, or
     * the company of fromCustomerId / Customer-Id); any other answers ENOA.
     */
    customerId: v.optional(id),
    /** rows whose counterparty e-mail contains this (a p2p payee) */
    email: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(254))),
    pageNumber: v.optional(id),
    pageSize: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
    /**
     * true: also queue a CSV of every row under this filter (as transactionHistoryExport does),
     * answered as exportId and exportCsv.
     */
    exportCsv: v.optional(v.boolean()),
  },
  response: {
    transactions: v.object({ transaction: v.array(TransactionSchema) }),
    /** rows matching the filter */
    results: v.number(),
    rejectedCount: v.number(),
    processingCount: v.number(),
    /** the export queued by exportCsv: true, else null */
    exportId: v.nullable(v.string()),
    /** where that export's CSV downloads once done (exportFilePath), else null */
    exportCsv: v.nullable(v.string()),
  },
});

/** The balance over time of each of the customer's currencies, one point per day with movement. */
export const balanceHistory = defineMethod({
  name: 'balanceHistory',
  access: 'customer',
  mutation: false,
  request: { days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(7), v.maxValue(366))) },
  response: {
    series: v.array(v.object({ currency: v.string(), points: v.array(v.object({ date: v.string(), balance: decimalString })) })),
  },
});

export const ExportStatusSchema = v.picklist(['queued', 'processing', 'done', 'failed']);
export const ExportSchema = v.object({
  exportId: v.string(),
  source: v.picklist(['manual', 'monthly']),
  accountId: v.nullable(v.number()),
  period: v.nullable(v.string()),
  status: ExportStatusSchema,
  progress: v.number(),
  rowCount: v.nullable(v.number()),
  fileName: v.nullable(v.string()),
  createdAt: v.string(),
});
export type HistoryExport = v.InferOutput<typeof ExportSchema>;

/** Ask for a CSV of the history under a filter (document 2 §7: amountFrom, amountTo, customerEmail, type). */
export const transactionHistoryExport = defineMethod({
  name: 'transactionHistoryExport',
  access: 'customer',
  mutation: true,
  request: {
    accountId: v.optional(id),
    keyword: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
    type: v.optional(OperationTypeSchema),
    fromDate: v.optional(isoDate),
    toDate: v.optional(isoDate),
    amountFrom: v.optional(amount),
    amountTo: v.optional(amount),
    customerEmail: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(254))),
    transactionDirection: v.optional(v.picklist(['in', 'out'])),
    status: v.optional(TransferStatusSchema),
  },
  response: { exportId: v.string() },
});

export const transactionHistoryExportStatus = defineMethod({
  name: 'transactionHistoryExportStatus',
  access: 'customer',
  mutation: false,
  request: { exportId: v.pipe(v.string(), v.maxLength(100)) },
  response: { export: ExportSchema },
});

export const transactionHistoryExportSend = defineMethod({
  name: 'transactionHistoryExportSend',
  access: 'customer',
  mutation: true,
  request: { exportId: v.pipe(v.string(), v.maxLength(100)), email: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(254), v.email('must be an e-mail address')) },
  response: {},
});

/** The monthly exports of one account (source monthly), newest first, 12 a page. */
export const transactionHistoryExportList = defineMethod({
  name: 'transactionHistoryExportList',
  access: 'customer',
  mutation: false,
  request: { accountId: id, source: v.optional(v.literal('monthly')), pageNumber: v.optional(id), pageSize: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50))) },
  response: { exports: v.array(ExportSchema), total: v.number() },
});

/** The months a statement exists for (the account's first month to the current one). */
export const statementPeriods = defineMethod({
  name: 'statementPeriods',
  access: 'customer',
  mutation: false,
  request: { accountId: id },
  response: { periods: v.array(v.object({ year: v.number(), month: v.number() })) },
});

/**
 * One row of the history in full (the detail page, issue 13): a transfer (kind transfer, id the
 * transfer's) or a booking without a transfer (kind entry, id the journal entry's: a deposit or an account fee;
 * the two are numbered apart), or a card payment not posted (kind authorization: sent and totalDebited its
 * amount, the merchant the counterparty, the note a declined one's reason code). The spec names no such read; the fields and who sees which follow
 * the receipt (server/modules/history/receipt-pdf.ts): the payee of another customer's payment
 * sees the amount credited and the payer's name, never the payer's fee, amount or account.
 */
const MoneySchema = v.object({ amount: decimalString, currency: v.string() });

/**
 * Ours (issue 19 item 2): a revenue split on the detail page. The spec names no detail read, so its
 * field list is ours; these two fields are optional and absent on every other transaction, so no
 * other answer changes. The split itself: server/modules/contracts/split.ts.
 * - RevenueSplitShare: the transaction IS a contract's share (an entry, journal kind contract_split):
 *   its contract, the other party (the payer's side names the beneficiary, the beneficiary's the
 *   payer) and whether the acting customer may open the contract (a party to it: the contract page,
 *   /revenue-split/{contractId}, answers anyone else "not found").
 * - SplitShareOut: a share that left an incoming payment on the acting customer's account (the payer
 *   of the contract): the contract, the share's own entry, how much and to whom.
 */
export const RevenueSplitShareSchema = v.object({ contractId: v.number(), counterparty: v.string(), contractVisible: v.boolean() });
export const SplitShareOutSchema = v.object({ contractId: v.number(), entryId: v.number(), share: MoneySchema, beneficiary: v.string(), contractVisible: v.boolean() });
export type SplitShareOut = v.InferOutput<typeof SplitShareOutSchema>;

export const TransactionDetailSchema = v.object({
  kind: TransactionKindSchema,
  id: v.number(),
  operationType: OperationTypeSchema,
  /** payer: the acting customer asked it; payee: it credits the customer (an entry: its sign) */
  viewer: v.picklist(['payer', 'payee']),
  /** out / in for a payment to or from someone else; null between own accounts (both sides) */
  direction: v.nullable(v.picklist(['in', 'out'])),
  status: TransferStatusSchema,
  /** ISO: when it was asked (an entry: booked) */
  createdAt: v.string(),
  /** ISO: the last status change */
  updatedAt: v.string(),
  /** ISO: when the ledger booked it (posted only) */
  bookedAt: v.nullable(v.string()),
  /** ISO: when a pending transfer expires (null for an entry) */
  expiresAt: v.nullable(v.string()),
  /*
   * Sums as { amount, currency } (the key `amount` keeps a decimal a string through the web app's
   * answer normalisation, src/lib/request.ts keepAsString).
   */
  /** what the payer sends, before the fee (null for the payee and entries) */
  sent: v.nullable(MoneySchema),
  fee: v.nullable(MoneySchema),
  /** sent + fee: what leaves the payer's account */
  totalDebited: v.nullable(MoneySchema),
  /** what the receiving account gets (null for entries: see legs) */
  received: v.nullable(MoneySchema),
  /** received currency per one sent currency, when the two differ (payer only) */
  rate: v.nullable(decimalString),
  fromAccountId: v.nullable(v.number()),
  toAccountId: v.nullable(v.number()),
  /** an entry's moves on the customer's accounts, signed (empty for a transfer) */
  legs: v.array(v.object({ accountId: v.number(), currency: v.string(), amount: decimalString })),
  /** the other side as history shows it: an e-mail or a name; empty between own accounts */
  counterparty: v.string(),
  note: v.nullable(v.string()),
  reference: v.nullable(v.string()),
  /** transferCancel would take it now: the customer's own pending transfer */
  cancelable: v.boolean(),
  /**
   * A payout the rail refused or returned: the rail's reason code (ISO 20022 for wire and instant,
   * NACHA for local bank transfers, the card network's for card payouts, Interac's and the crypto
   * network's own; server/modules/rails/reasons.ts), worded by the app; null otherwise.
   */
  railReason: v.nullable(v.string()),
  /** a revenue split's share (see RevenueSplitShareSchema); absent otherwise */
  revenueSplit: v.optional(RevenueSplitShareSchema),
  /** an incoming payment a contract split on the acting customer's account: each share that left it, in contract order; absent otherwise */
  splitShares: v.optional(v.array(SplitShareOutSchema)),
});
export type TransactionDetail = v.InferOutput<typeof TransactionDetailSchema>;

/** One transaction of the acting customer; unknown and another customer's alike answer ENOA. */
export const transactionDetail = defineMethod({
  name: 'transactionDetail',
  access: 'customer',
  mutation: false,
  request: { kind: TransactionKindSchema, id },
  response: { transaction: TransactionDetailSchema },
});

export const historyMethods = {
  transactionHistory,
  transactionDetail,
  balanceHistory,
  transactionHistoryExport,
  transactionHistoryExportStatus,
  transactionHistoryExportSend,
  transactionHistoryExportList,
  statementPeriods,
};
