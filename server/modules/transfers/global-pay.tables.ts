/**
 * Global pay (api/global-pay.ts; issue 15 §5): a sender's batch of payments to people outside the
 * platform, each taken by its beneficiary at /receive/{id} with the method they choose.
 *
 * A batch is a draft (its payments edited) until submitted; then it is one transfer request of
 * kind `mass` (transfers.service.ts requestMass: the amounts, plus the largest fee of each
 * payment's allowed methods when the sender pays the fee, held on the account and approved like
 * any transfer). Approved, each payment holds its own share (amount + heldFee) of that hold until
 * its beneficiary takes it (the share moves to the payout transfer the payee asked: payoutTransferId),
 * refuses it, or it expires (the share released: money back to the sender).
 *
 * The payee's secret is stored only as its SHA-256 (secretHash); the confirmation code the payee
 * gets by e-mail likewise (codeHash). Wrong secrets are counted per payment and per client address
 * in global_payment_throttles.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables.ts';
import { customers, users } from '../customers/customers.tables.ts';
import { transfers } from './transfers.tables.ts';

export const globalPayBatchSources = ['file', 'p2p'] as const;

export const globalPayBatches = pgTable(
  'global_pay_batches',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.accountId),
    currency: text('currency').notNull(),
    name: text('name').notNull(),
    /** an uploaded file, or one payment asked by globalPayP2pSubmit */
    source: text('source', { enum: globalPayBatchSources }).notNull().default('file'),
    /** SHA-256 of the uploaded file (the identical-batch check, response code 92), hex */
    contentHash: text('content_hash'),
    /**
     * draft (being edited), submitted (its request exists: the request's status says the rest),
     * rejected (discarded by the sender before submitting), canceled (approved, then the payments
     * not yet taken taken back by the sender)
     */
    state: text('state', { enum: ['draft', 'submitted', 'rejected', 'canceled'] }).notNull().default('draft'),
    /** the batch's transfer request once submitted (kind mass) */
    transferId: bigint('transfer_id', { mode: 'number' })
      .unique()
      .references(() => transfers.id),
    /** days a beneficiary has to take a payment once the batch is approved */
    expireDays: smallint('expire_days').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
  },
  (t) => [index('global_pay_batches_customer').on(t.customerId, t.createdAt), index('global_pay_batches_hash').on(t.accountId, t.contentHash)],
);

/**
 * A payment's own state (the wire's status adds the request's and the payout's, global-pay.service.ts):
 * draft, deleted (in a draft, restorable), canceled (its batch rejected, canceled or its request voided),
 * waiting (approved: money held, the beneficiary e-mailed), taken (the payout asked: payoutTransferId),
 * refused (by the payee), expired (not taken in time).
 */
export const globalPaymentStates = ['draft', 'deleted', 'canceled', 'waiting', 'taken', 'refused', 'expired'] as const;
export type GlobalPaymentState = (typeof globalPaymentStates)[number];
export const feeShares = ['sender', 'beneficiary'] as const;
export type FeeShare = (typeof feeShares)[number];
export const beneficiaryTypes = ['individual', 'business'] as const;

export const globalPayments = pgTable(
  'global_payments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    batchId: bigint('batch_id', { mode: 'number' })
      .notNull()
      .references(() => globalPayBatches.id),
    /** the file's line (0 for a payment added by a call) */
    line: integer('line').notNull(),
    state: text('state', { enum: globalPaymentStates }).notNull().default('draft'),
    beneficiaryName: text('beneficiary_name').notNull(),
    beneficiaryEmail: text('beneficiary_email').notNull(),
    beneficiaryCountryCode: text('beneficiary_country_code').notNull(),
    beneficiaryType: text('beneficiary_type', { enum: beneficiaryTypes }).notNull().default('individual'),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    description: text('description').notNull().default(''),
    feeShare: text('fee_share', { enum: feeShares }).notNull().default('sender'),
    /** the payout methods the sender forbade for this payment */
    forbiddenMethods: jsonb('forbidden_methods').$type<string[]>().notNull().default([]),
    /** the fee held with the amount once submitted (the sender's share: the largest fee of the allowed methods; 0 when the beneficiary pays) */
    heldFeeMinor: bigint('held_fee_minor', { mode: 'bigint' }).notNull().default(sql`0`),
    secretHash: text('secret_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** the payee's submission awaiting its e-mailed code */
    operationId: text('operation_id').unique(),
    pendingMethod: text('pending_method'),
    pendingCurrency: text('pending_currency'),
    /** what the rail is told (a card only as BIN and last four) and the name shown */
    pendingBeneficiary: jsonb('pending_beneficiary').$type<Record<string, string>>(),
    codeHash: text('code_hash'),
    codeAttempts: smallint('code_attempts').notNull().default(0),
    codeSentAt: timestamp('code_sent_at', { withTimezone: true }),
    payoutTransferId: bigint('payout_transfer_id', { mode: 'number' })
      .unique()
      .references(() => transfers.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('global_payments_batch').on(t.batchId, t.id),
    index('global_payments_waiting').on(t.state, t.expiresAt),
    check('global_payments_amounts', sql`${t.amountMinor} > 0 and ${t.heldFeeMinor} >= 0`),
  ],
);

/** Wrong secrets counted per key (`payment:{id}`, `ip:{address}`), one window at a time. */
export const globalPaymentThrottles = pgTable(
  'global_payment_throttles',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull().default(0),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  },
);
