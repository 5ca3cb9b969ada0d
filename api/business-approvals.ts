/**
 * Maker-checker approval of business payments (document 2 §4 "Business approvals", §7 "Business
 * approval confirm" and "Business transaction-request list. Approve: transactionIds, declined.
 * Mass approve: batchId, declined.", §9 "business approval lists 50"; document 1 §4 access rights).
 *
 * Decided here (the spec names the calls, not their rules):
 * - A payment (any money-moving transfer kind, a mass or global-pay batch, a card order's fee) asked for a company by a user whose
 *   access right is 3 (initiate) does not post after the initiator's own approval: it becomes a
 *   transaction request waiting for a checker. Its money stays held (it cannot be spent twice) and
 *   its status stays `pending`; declined or expired (BUSINESS_REQUEST_TTL_DAYS) the hold is released.
 * - Checkers: a user with right 2 (full) for the company, or the company's owner. Right 4
 *   (confirmed) pays without a second approval but approves nobody's; rights 1 and 5 are refused by
 *   the rights table; right 3 and 4 by the service (13). The initiator never decides their own
 *   request (VF selfApproval).
 * - declined: true decides at once. declined: false starts the checker's OWN approval by the
 *   approval mode a payment of theirs for the company asks (the company's mode, the checker's own
 *   means), as a transfer's: none approves at once; sms, otp and approvalCode answer
 *   `approvalNeeded` with an approvalId that businessApprovalConfirm completes with the code
 *   (approveTransfer's shape: the id and approvalCode); push answers `approvalNeeded` with
 *   approveType push and sends the checker's linked phones a request (the payment, or the payments'
 *   total): approved there the payments post, declined there they are declined (as a push transfer
 *   declined on the phone); businessApprovalConfirm answers TA1 for it. TA1 only when the checker
 *   cannot use the mode (no linked phone, no authenticator...).
 * - Notices (push CustomerNotification, notificationType businessPaymentWaiting / businessPaymentDecided,
 *   in the recipient's settings language): a payment starting to wait tells each user who decides it
 *   (the owner, users with right 2), a decision or the expiry tells its initiator; each on the
 *   recipient's own customer's channel and only to them (forUserIds, server/modules/push).
 * - A list of ids is all or nothing: one request unknown, already decided or expired refuses the
 *   whole call (VF on transactionIds / batchId / approvalId) and changes nothing.
 */
import * as v from 'valibot';
import { decimalString } from './accounts.ts';
import { VfCode } from './errors.ts';
import { defineMethod, Id } from './method.ts';
import { ApproveTypeSchema } from './transfers.ts';

/** Requests a page (document 2 §9 "business approval lists 50"). */
export const BUSINESS_APPROVAL_PAGE_SIZE = 50;
/** A waiting request expires this many days after it started waiting (its hold released). */
export const BUSINESS_REQUEST_TTL_DAYS = 7;
/** The most payments one decision takes (a page). */
export const BUSINESS_APPROVAL_MAX_IDS = BUSINESS_APPROVAL_PAGE_SIZE;

export { mayDecideBusinessPayments } from './business-checker.ts';

export const BUSINESS_REQUEST_KINDS = ['transfer', 'batch'] as const;

/** One waiting payment or batch, newest first. */
export const BusinessTransactionRequestSchema = v.object({
  /** transfer: one payment (transactionId); batch: a mass batch (batchId), decided as a whole */
  kind: v.picklist(BUSINESS_REQUEST_KINDS),
  /** the payment's transfer, or the batch's request transfer */
  transactionId: v.number(),
  /** the mass batch (kind batch), else null */
  batchId: v.nullable(v.number()),
  /** the transfer kind: betweenAccounts, p2p, a payout rail, cardFee (a card order), mass (a mass batch), globalPay (a global-pay batch, decided by its transactionId) */
  transferKind: v.string(),
  amount: decimalString,
  fee: decimalString,
  currency: v.string(),
  fromAccountId: v.number(),
  /** the destination account (between own accounts), else null */
  toAccountId: v.nullable(v.number()),
  /** who is paid: a person's or company's name (p2p), else null (an own account, a rail, a batch) */
  payeeName: v.nullable(v.string()),
  toEmail: v.nullable(v.string()),
  /** batches: how many payments and their total (amount is the same total) */
  count: v.nullable(v.number()),
  total: v.nullable(decimalString),
  initiatorName: v.string(),
  createdAt: v.string(),
  expiresAt: v.string(),
});
export type BusinessTransactionRequest = v.InferOutput<typeof BusinessTransactionRequestSchema>;

export const businessTransactionRequestList = defineMethod({
  name: 'businessTransactionRequestList',
  access: 'customer',
  mutation: false,
  request: { pageNumber: v.optional(Id) },
  response: {
    requests: v.array(BusinessTransactionRequestSchema),
    /** waiting requests in all */
    total: v.number(),
    pageNumber: v.number(),
    pageSize: v.number(),
  },
});

/**
 * The answer of a decision: declined or approved (done), or approvalNeeded (the checker's own
 * approval: approvalId for businessApprovalConfirm, the mode, where an SMS code went).
 */
export const BusinessDecisionEntries = {
  status: v.picklist(['declined', 'approved', 'approvalNeeded']),
  approvalId: v.nullable(v.number()),
  approveType: ApproveTypeSchema,
  approvalSentTo: v.nullable(v.string()),
  /** the transfers decided (or to be, once confirmed) */
  transactionIds: v.array(v.number()),
  /** approvalNeeded: when the checker's own approval runs out (ISO), else null */
  expiresAt: v.nullable(v.string()),
};

export const businessTransactionRequestApprove = defineMethod({
  name: 'businessTransactionRequestApprove',
  access: 'customer',
  mutation: true,
  request: {
    transactionIds: v.pipe(v.array(Id, VfCode.wrongType), v.minLength(1, VfCode.required), v.maxLength(BUSINESS_APPROVAL_MAX_IDS, VfCode.tooManyItems)),
    declined: v.boolean(),
  },
  response: BusinessDecisionEntries,
});

export const businessMassApprove = defineMethod({
  name: 'businessMassApprove',
  access: 'customer',
  mutation: true,
  request: { batchId: Id, declined: v.boolean() },
  response: BusinessDecisionEntries,
});

/** The checker's own approval of a decision (approveTransfer's shape: the id and the code). */
export const businessApprovalConfirm = defineMethod({
  name: 'businessApprovalConfirm',
  access: 'customer',
  mutation: true,
  request: { approvalId: Id, approvalCode: v.pipe(v.string(), v.trim(), v.regex(/^[A-Za-z0-9]{4,32}$/, VfCode.codeWrong)) },
  response: BusinessDecisionEntries,
});

export const businessApprovalMethods = { businessTransactionRequestList, businessTransactionRequestApprove, businessMassApprove, businessApprovalConfirm };
