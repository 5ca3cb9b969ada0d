/**
 * Money movement (document 2 §3-§9): transfers and their approvals, exchange rates, fee rules,
 * idempotency keys, recurring schedules and the payee blacklist.
 *
 * A transfer is a request that holds money (accounts.pending_minor of the source) until it is
 * approved; approval books one balanced journal entry (journal_entries.transfer_id) and releases
 * the hold in the same transaction; rejection or expiry voids it and releases the hold.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, date, index, integer, jsonb, numeric, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables.ts';
import { customers, users } from '../customers/customers.tables.ts';

/** inside the platform: betweenAccounts, p2p */
export const transferKinds = ['betweenAccounts', 'p2p'] as const;
export type TransferKind = (typeof transferKinds)[number];
/**
 * a transfer row's kind: inside the platform, or out of it over a rail (the payout kinds, rails/rails.ts),
 * or a mass batch's request (mass.tables.ts: it holds and is approved, its rows are the transfers),
 * or a card's application fee (cardFee: the fee account to the provider's fee account, approved like
 * a payment; cards/cards.service.ts)
 */
export const transferRowKinds = [...transferKinds, 'wire', 'eft', 'oct', 'digital', 'instant', 'interac', 'mass', 'cardFee'] as const;
export type TransferRowKind = (typeof transferRowKinds)[number];
/** A row's kind where the query took only the kinds inside the platform (a payout kind there is a bug). */
export function internalKind(kind: TransferRowKind): TransferKind {
  if (!(transferKinds as readonly string[]).includes(kind)) throw new Error(`a ${kind} transfer where only transfers inside the platform were read`);
  return kind as TransferKind;
}
/**
 * pending: awaiting approval (money held); posted: booked (a payout: settled); the rest: voided,
 * hold released. A payout also passes through processing (with its rail: money held until sent,
 * then in the rail's clearing account) and may end returned (money back on the source).
 */
export const transferStatuses = ['pending', 'processing', 'posted', 'returned', 'rejected', 'expired', 'canceled'] as const;
export type TransferStatus = (typeof transferStatuses)[number];
export const approveTypes = ['none', 'push', 'sms', 'otp', 'approvalCode'] as const;

export const transfers = pgTable(
  'transfers',
  {
    /** the transactionId of the wire */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: transferRowKinds }).notNull(),
    status: text('status', { enum: transferStatuses }).notNull().default('pending'),
    /** the customer whose account pays (the acting customer) and the user who asked */
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    fromAccountId: integer('from_account_id')
      .notNull()
      .references(() => accounts.accountId),
    toAccountId: integer('to_account_id')
      .notNull()
      .references(() => accounts.accountId),
    /** the receiving customer (the same customer for betweenAccounts) */
    toCustomerId: integer('to_customer_id')
      .notNull()
      .references(() => customers.id),
    fromCurrency: text('from_currency').notNull(),
    toCurrency: text('to_currency').notNull(),
    /** debited from the source, fee excluded, in fromCurrency minor units */
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    /** credited to the destination, in toCurrency minor units */
    toAmountMinor: bigint('to_amount_minor', { mode: 'bigint' }).notNull(),
    /** the fee, in fromCurrency minor units, to the provider's fee account */
    feeMinor: bigint('fee_minor', { mode: 'bigint' }).notNull().default(sql`0`),
    /** the rate used (toCurrency per fromCurrency), as stored when the transfer was asked */
    rate: text('rate').notNull().default('1'),
    approveType: text('approve_type', { enum: approveTypes }).notNull(),
    toEmail: text('to_email'),
    note: text('note'),
    reference: text('reference'),
    templateName: text('template_name'),
    scheduleId: integer('schedule_id'),
    /** the journal entry that booked it (status posted) */
    entryId: bigint('entry_id', { mode: 'number' }),
    /** a pending transfer not approved by then expires */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('transfers_customer').on(t.customerId, t.createdAt),
    index('transfers_to_customer').on(t.toCustomerId, t.createdAt),
    index('transfers_pending').on(t.status, t.expiresAt),
    check('transfers_positive', sql`${t.amountMinor} > 0 and ${t.toAmountMinor} > 0 and ${t.feeMinor} >= 0`),
  ],
);

/** The code (sms, otp is the authenticator and needs none) or push request of a pending transfer. */
export const transferApprovals = pgTable('transfer_approvals', {
  transferId: bigint('transfer_id', { mode: 'number' })
    .primaryKey()
    .references(() => transfers.id),
  method: text('method', { enum: ['push', 'sms', 'otp', 'approvalCode'] }).notNull(),
  /** sha256 (hex) of the code sent by SMS; null for otp, approvalCode and push */
  codeHash: text('code_hash'),
  /** wrong answers so far; the transfer is rejected at the limit */
  attempts: smallint('attempts').notNull().default(0),
  /** the masked phone (sms) shown to the user */
  sentTo: text('sent_to'),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull().defaultNow(),
  /** the approval request (approval_requests.key_hash) a linked device answers (push) */
  approvalKeyHash: text('approval_key_hash'),
});

/** Stored exchange rates: toCurrency per one fromCurrency. A missing pair has rate 1 (document 2 §5). */
export const exchangeRates = pgTable(
  'exchange_rates',
  {
    fromCurrency: text('from_currency').notNull(),
    toCurrency: text('to_currency').notNull(),
    /** a decimal string with up to 10 decimals */
    rate: text('rate').notNull(),
    /** shown by the default-rates call */
    isDefault: boolean('is_default').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.fromCurrency, t.toCurrency] }), check('exchange_rates_positive', sql`${t.rate} ~ '^[0-9]+(\\.[0-9]{1,10})?$'`)],
);

/** The provider's fee schedule: fixed + basis points of the amount, clamped to [min, max]. */
export const feeRules = pgTable(
  'fee_rules',
  {
    /** betweenAccounts (same currency), exchange (betweenAccounts across currencies), p2p */
    operation: text('operation').notNull(),
    currency: text('currency').notNull(),
    fixedMinor: bigint('fixed_minor', { mode: 'bigint' }).notNull().default(sql`0`),
    basisPoints: integer('basis_points').notNull().default(0),
    minMinor: bigint('min_minor', { mode: 'bigint' }).notNull().default(sql`0`),
    maxMinor: bigint('max_minor', { mode: 'bigint' }),
  },
  (t) => [primaryKey({ columns: [t.operation, t.currency] })],
);

/** Per-customer limits per operation and currency (customer limits call). */
export const transferLimits = pgTable(
  'transfer_limits',
  {
    operation: text('operation').notNull(),
    currency: text('currency').notNull(),
    minMinor: bigint('min_minor', { mode: 'bigint' }).notNull(),
    maxMinor: bigint('max_minor', { mode: 'bigint' }).notNull(),
    dailyMinor: bigint('daily_minor', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.operation, t.currency] })],
);

/**
 * Idempotency keys of money-moving calls: written in the call's transaction, so a key exists
 * exactly when its call's effects do. The same key with the same body answers the stored answer;
 * with another body it is refused.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    key: text('key').notNull(),
    method: text('method').notNull(),
    /** sha256 (hex) of the method name and the canonical JSON body */
    requestHash: text('request_hash').notNull(),
    response: jsonb('response').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/** A recurring transfer (subscription fields); the worker asks each run as a pre-approved transfer. */
export const transferSchedules = pgTable(
  'transfer_schedules',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: transferKinds }).notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    fromAccountId: integer('from_account_id')
      .notNull()
      .references(() => accounts.accountId),
    toAccountId: integer('to_account_id')
      .notNull()
      .references(() => accounts.accountId),
    /** the request as first asked (amount, currency, toEmail, note, reference) */
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    frequency: text('frequency', { enum: ['daily', 'weekly', 'monthly'] }).notNull(),
    endDate: date('end_date'),
    /** runs in total (null: until endDate or canceled) */
    transactionsTotal: integer('transactions_total'),
    transactionsDone: integer('transactions_done').notNull().default(0),
    userCancel: boolean('user_cancel').notNull().default(true),
    status: text('status', { enum: ['awaitingApproval', 'active', 'finished', 'canceled'] }).notNull().default('awaitingApproval'),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('transfer_schedules_due').on(t.status, t.nextRunAt)],
);

/** Senders a customer refuses money from (check payee: outBlacklist). */
export const blacklist = pgTable(
  'blacklist',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    email: text('email').notNull(),
    blockType: text('block_type').notNull().default('all'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('blacklist_customer_email').on(t.customerId, t.email)],
);

/**
 * The daily limit's counter (fees.ts): the source amounts of a customer's pending and posted
 * transfers of a kind and source currency, per UTC day of their creation, kept in 16
 * rows (shards) whose used_minor sum to it. A voided pending transfer gives its amount back to the
 * day it was created. The sum always equals the sum over `transfers` (dailyUsageProblems checks it).
 *
 * Escrow (migration 0010, ledger_count_daily): the day's limit is split into allowances, one per
 * shard, that sum to the limit they were set for (limit_minor), and no shard's used_minor ever
 * exceeds its allowance, so the day's total never exceeds the limit. A request counts itself in
 * one shard when it fits that shard's allowance under the same limit, locking that row only (one
 * not held by another transaction, else waiting for one): concurrent requests of one customer take
 * different rows and commit together. Otherwise it
 * locks all the day's shards in shard order, checks the exact total against the limit (the refusal
 * and its amount left come from it) and re-divides what is left among the shards.
 */
export const transferDailyUsage = pgTable(
  'transfer_daily_usage',
  {
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    operation: text('operation', { enum: transferRowKinds }).notNull(),
    currency: text('currency').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    shard: smallint('shard').notNull().default(0),
    usedMinor: bigint('used_minor', { mode: 'bigint' }).notNull().default(sql`0`),
    /** what this shard may count (used_minor <= allowance_minor) under limit_minor */
    allowanceMinor: numeric('allowance_minor').notNull().default('0'),
    /** the daily limit the allowances were divided for; null: not divided yet */
    limitMinor: numeric('limit_minor'),
  },
  (t) => [primaryKey({ name: 'transfer_daily_usage_shard_pk', columns: [t.customerId, t.operation, t.currency, t.day, t.shard] }), check('transfer_daily_usage_within_allowance', sql`${t.usedMinor} <= ${t.allowanceMinor} or ${t.limitMinor} is null`)],
);
