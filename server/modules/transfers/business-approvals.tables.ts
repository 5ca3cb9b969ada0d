/**
 * Maker-checker approval of business payments (document 2 §4 "Business approvals", §7; issue 17
 * item 6). A payment a company's user with access right 3 (initiate) asks for does not post after
 * the initiator's own approval: it waits here for a checker (a user with right 2 for the company,
 * or its owner), its money still held on the source account (transfers.status stays 'pending', so
 * the ledger's hold, the daily counters and reconcile() treat it as any pending transfer).
 *
 * - business_transaction_requests: one row per waiting payment or mass batch (the batch's
 *   request transfer, kind mass; a batch is found through transfer_batches.transfer_id): waiting -> approved | declined | expired | canceled. The
 *   transfer's expires_at is moved to this row's expires_at (7 days), so the transfers sweeper
 *   (workers.ts) expires both together, releasing the hold.
 * - business_approval_confirmations: a checker's own approval of a decision (their approval
 *   mode, as approveTransfer): the requests it approves, the code's hash for sms (the phone
 *   request's key hash for push), wrong answers.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { customers, users } from '../customers/customers.tables.ts';
import { transfers } from './transfers.tables.ts';

export const businessRequestStatuses = ['waiting', 'approved', 'declined', 'expired', 'canceled'] as const;
export type BusinessRequestStatus = (typeof businessRequestStatuses)[number];

export const businessTransactionRequests = pgTable(
  'business_transaction_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** the company whose money it moves (the transfer's customer) */
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** the payment, or the mass batch's request (kind mass; transfer_batches.transfer_id) */
    transferId: bigint('transfer_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => transfers.id),
    /** the user who initiated it (right 3): never its checker */
    initiatorUserId: integer('initiator_user_id')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: businessRequestStatuses }).notNull().default('waiting'),
    decidedByUserId: integer('decided_by_user_id').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('business_transaction_requests_waiting').on(t.customerId, t.status, t.createdAt)],
);

export const businessApprovalConfirmations = pgTable(
  'business_approval_confirmations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** the checker who must confirm (their own means: authenticator, approval code, SMS to their phone) */
    approverUserId: integer('approver_user_id')
      .notNull()
      .references(() => users.id),
    /** the business_transaction_requests ids approved once confirmed (all or none) */
    requestIds: jsonb('request_ids').$type<number[]>().notNull(),
    method: text('method', { enum: ['sms', 'otp', 'approvalCode', 'push'] }).notNull(),
    /**
     * sms: sha256 (hex) of the SMS code; push: the phone request's key hash (approval_requests.key_hash,
     * itself a sha256), by which the phone's answer finds this confirmation; null for otp and approvalCode
     */
    codeHash: text('code_hash'),
    sentTo: text('sent_to'),
    attempts: smallint('attempts').notNull().default(0),
    status: text('status', { enum: ['open', 'used', 'failed'] })
      .notNull()
      .default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [check('business_approval_confirmations_attempts', sql`${t.attempts} >= 0`)],
);
