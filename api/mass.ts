/**
 * Mass transfers (document 2 §2 /transfer/mass with its children, §5 "Mass uploads send a file
 * plus a data part", §6 the mass permission flags, §7 "Mass p2p by file or text", "Mass external
 * by file", "Batch transfer list and batch file view: id", 3 §7 "mass sample link list"; issue 15
 * §4), under the names of operations.tsv.
 *
 * One batch pays many people from one account in its currency: p2p (to platform users by e-mail)
 * or a payout method (wire, eft, oct, digital: the same payee forms as one payout, api/payees/).
 * Not shown in the spec (designed here):
 * - The upload calls validate every row and answer either VF, each error naming its row and column
 *   as `rows.<line>.<column>` (the file's line number, 1 the header) or `file` for the whole file,
 *   with nothing written; or, with `preview: true`, the rows with each fee and the totals (nothing
 *   written); or, without it, the batch created: one transfer request of kind `mass` for the total
 *   (amounts plus fees held on the account), approved like any transfer (approveTransfer with its
 *   transactionId, the one approval flow). Once approved the rows are paid in the background, each
 *   its own transfer (history shows them, each with its own status), the batch showing its progress
 *   (batchFileView) until it is done, or partial when some rows failed (each with its reason).
 * - The files: CSV (comma or semicolon, quotes as RFC 4180, UTF-8), a header row naming the
 *   columns in any order, at most MASS_MAX_ROWS rows and MASS_FILE_MAX_BYTES bytes. A cell may not
 *   start with = + - @ (a spreadsheet formula). p2p: email, amount, and optionally currency (must
 *   be the account's) and note. A payout method: countryCode, amount, optionally currency and
 *   reference, and the method's payee fields (massExternalFile names the method as paymentMethod) for each row's country (extraParams) by their names.
 *   Pasted text (massP2pText) is the same CSV with or without its header.
 * - Global pay (/transfer/mass/global) is its own batch with its own calls (globalPay*) to create,
 *   submit and cancel it. Once submitted it is read here too, as the batch kind 'global' (document
 *   2 §7 names global among the mass transfers' batch types; how it is listed is not shown in the
 *   spec: designed here). batchTransferList answers both kinds merged, newest first (a global batch
 *   from its submission on: drafts and discarded drafts are not listed). Global-pay batch ids are
 *   their own sequence, so batchFileView takes `kind: 'global'` to read one (without it: a mass
 *   batch, as before). A global batch's fileName is its name; count its payments submitted (not
 *   deleted); doneCount the paid ones, failedCount those that ended unpaid (refused, expired,
 *   returned, failed, canceled); fee the fees held; its status awaitingApproval, processing while
 *   payments wait for their payee or are on their way, then done, partial or failed (or rejected,
 *   expired, canceled from its approval or its cancelation). Its rows are its payments (payee: the
 *   beneficiary's name; pending while waiting for the approval, the payee or the rail; done when
 *   paid; failed with the payment's status as errorCode), and its file a CSV written from them
 *   in the upload's columns (beneficiaryName, beneficiaryEmail, beneficiaryCountryCode, amount,
 *   description): the upload itself is not kept.
 * - massSampleLinkList answers each kind's sample file itself (its name and CSV text, the app
 *   offers it as a download): a link to a sample outside the platform would be one more thing for
 *   a provider to host.
 */
import * as v from 'valibot';
import { decimalString } from './accounts.ts';
import { defineMethod, Id } from './method.ts';
import { TransferStatusSchema } from './transfer-status.ts';
import { ApproveTypeSchema } from './transfers.ts';

/** The most rows a batch takes (issue 15 §4). */
export const MASS_MAX_ROWS = 1000;
/** The largest file: 1,000 rows of the widest payout form fit in a quarter of it. */
export const MASS_FILE_MAX_BYTES = 1_000_000;
/** The payout methods a batch can use (the routes /transfer/mass/{wire,eft,oct,digital}). */
export const MASS_PAYOUT_METHODS = ['wire', 'eft', 'oct', 'digital'] as const;
export type MassPayoutMethod = (typeof MASS_PAYOUT_METHODS)[number];
export const MASS_KINDS = ['p2p', ...MASS_PAYOUT_METHODS] as const;
export type MassKind = (typeof MASS_KINDS)[number];
/** The kinds batchTransferList answers: the mass batches and the global-pay batches (document 2 §7). */
export const BATCH_KINDS = [...MASS_KINDS, 'global'] as const;
export type BatchKind = (typeof BATCH_KINDS)[number];
/** Batches a page (document 2 §9 "batch 20"). */
export const BATCH_PAGE_SIZE = 20;

const MassKindSchema = v.picklist(MASS_KINDS);
const BatchKindSchema = v.picklist(BATCH_KINDS);

/**
 * A batch's state: awaitingApproval (its transfer pending), processing (rows being paid), done
 * (every row paid), partial (some rows failed), failed (every row failed), or the approval's end:
 * rejected, expired, canceled (nothing paid, the hold released).
 */
export const BATCH_STATUSES = ['awaitingApproval', 'processing', 'done', 'partial', 'failed', 'rejected', 'expired', 'canceled'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** One row as the preview and the batch show it. */
export const MassRowSchema = v.object({
  /** the file's line number (1 is the header; pasted text without a header starts at 1) */
  line: v.number(),
  /** who is paid: the e-mail (p2p) or the beneficiary's name as the payee form gives it */
  payee: v.string(),
  /** the payee form's country (payouts), else null */
  countryCode: v.nullable(v.string()),
  amount: decimalString,
  fee: decimalString,
});
export type MassRow = v.InferOutput<typeof MassRowSchema>;

const uploadRequest = { accountId: Id, preview: v.optional(v.boolean()) };

const UploadResponseEntries = {
  kind: MassKindSchema,
  currency: v.string(),
  rows: v.array(MassRowSchema),
  count: v.number(),
  /** the rows' amounts, their fees, and both (what leaves the account) */
  total: decimalString,
  fee: decimalString,
  grandTotal: decimalString,
  /** the batch and its transfer request (null in a preview) */
  batchId: v.nullable(v.number()),
  transactionId: v.nullable(v.number()),
  status: v.nullable(TransferStatusSchema),
  approveType: v.nullable(ApproveTypeSchema),
  approvalSentTo: v.nullable(v.string()),
  expiresAt: v.nullable(v.string()),
};

export const massP2pFile = defineMethod({
  name: 'massP2pFile',
  access: 'customer',
  mutation: true,
  files: true, // the CSV as the part `file`
  request: uploadRequest,
  response: UploadResponseEntries,
});

export const massP2pText = defineMethod({
  name: 'massP2pText',
  access: 'customer',
  mutation: true,
  request: { ...uploadRequest, text: v.pipe(v.string(), v.maxLength(MASS_FILE_MAX_BYTES)) },
  response: UploadResponseEntries,
});

export const massExternalFile = defineMethod({
  name: 'massExternalFile',
  access: 'customer',
  mutation: true,
  files: true, // the CSV as the part `file`
  // paymentMethod, as extraParams names the method (`method` is the call's own name in a body)
  request: { ...uploadRequest, paymentMethod: v.picklist(MASS_PAYOUT_METHODS) },
  response: UploadResponseEntries,
});

export const massSampleLinkList = defineMethod({
  name: 'massSampleLinkList',
  access: 'customer',
  mutation: false,
  request: {},
  response: { samples: v.array(v.object({ kind: MassKindSchema, fileName: v.string(), content: v.string() })) },
});

export const BatchSchema = v.object({
  id: v.number(),
  /** when it was uploaded (document 2 §3 "A batch item has dateTime") */
  dateTime: v.string(),
  kind: BatchKindSchema,
  status: v.picklist(BATCH_STATUSES),
  fileName: v.string(),
  accountId: v.number(),
  currency: v.string(),
  count: v.number(),
  doneCount: v.number(),
  failedCount: v.number(),
  /** 0-100: the share of rows handled */
  progress: v.number(),
  total: decimalString,
  fee: decimalString,
  /** the batch's transfer request (its approval) */
  transactionId: v.number(),
});
export type Batch = v.InferOutput<typeof BatchSchema>;

export const batchTransferList = defineMethod({
  name: 'batchTransferList',
  access: 'customer',
  mutation: false,
  request: {
    /** in the file's name (a global-pay batch: its name) */
    search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
    types: v.optional(v.array(BatchKindSchema)),
    /** dates (YYYY-MM-DD), both included */
    from: v.optional(v.pipe(v.string(), v.isoDate())),
    to: v.optional(v.pipe(v.string(), v.isoDate())),
    pageNumber: v.optional(Id),
    pageSize: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
  },
  response: { batchTransfer: v.object({ transfer: v.array(BatchSchema) }), total: v.number() },
});

export const BATCH_ROW_STATUSES = ['pending', 'done', 'failed'] as const;

export const batchFileView = defineMethod({
  name: 'batchFileView',
  access: 'customer',
  mutation: false,
  /** kind 'global': a global-pay batch (their ids are their own sequence); absent: a mass batch */
  request: { id: Id, kind: v.optional(BatchKindSchema) },
  response: {
    batch: BatchSchema,
    rows: v.array(
      v.object({
        ...MassRowSchema.entries,
        status: v.picklist(BATCH_ROW_STATUSES),
        /** the row's own transfer once paid (its status in history), else null */
        transactionId: v.nullable(v.number()),
        transferStatus: v.nullable(TransferStatusSchema),
        /** why a failed row was not paid: the platform's code and description */
        errorCode: v.nullable(v.string()),
        errorDescription: v.nullable(v.string()),
      }),
    ),
    /** the file as uploaded (a global-pay batch: a CSV of its payments, the upload is not kept) */
    file: v.string(),
  },
});

export const massMethods = { massP2pFile, massP2pText, massExternalFile, massSampleLinkList, batchTransferList, batchFileView };
