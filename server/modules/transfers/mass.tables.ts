/**
 * Mass transfers (api/mass.ts; issue 15 §4): a batch is one transfer request of kind `mass` (its
 * approval, and the hold of every row's amount and fee) with the rows it pays. Once the request is
 * approved the batch job (mass.service.ts) pays each row as its own transfer, one row a
 * transaction: the row's share of the hold released, its transfer made, the row marked done (or
 * failed with the platform's answer) and the batch's counters moved, all in that transaction, so
 * a row is paid exactly once however often the job runs.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables.ts';
import { customers, users } from '../customers/customers.tables.ts';
import { transfers } from './transfers.tables.ts';

export const massKinds = ['p2p', 'wire', 'eft', 'oct', 'digital'] as const;

export const transferBatches = pgTable(
  'transfer_batches',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** the batch's transfer request (kind mass): its status is the approval's */
    transferId: bigint('transfer_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => transfers.id),
    kind: text('kind', { enum: massKinds }).notNull(),
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
    fileName: text('file_name').notNull(),
    /** the file as uploaded (at most 1 MB), shown again by batchFileView */
    content: text('content').notNull(),
    rowCount: integer('row_count').notNull(),
    doneCount: integer('done_count').notNull().default(0),
    failedCount: integer('failed_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** when the last row was handled */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('transfer_batches_customer').on(t.customerId, t.createdAt),
    check('transfer_batches_counts', sql`${t.doneCount} >= 0 and ${t.failedCount} >= 0 and ${t.doneCount} + ${t.failedCount} <= ${t.rowCount}`),
  ],
);

export const batchRowStatuses = ['pending', 'done', 'failed'] as const;

export const transferBatchRows = pgTable(
  'transfer_batch_rows',
  {
    batchId: bigint('batch_id', { mode: 'number' })
      .notNull()
      .references(() => transferBatches.id),
    /** the file's line number */
    line: integer('line').notNull(),
    /** p2p: { email }; a payout: { countryCode, payee (the form's fields, a card as BIN and last four) , name } */
    payee: jsonb('payee').$type<{ email?: string; countryCode?: string; fields?: Record<string, string>; name: string }>().notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    /** the fee quoted at upload: with the amount, the row's share of the batch's hold */
    feeMinor: bigint('fee_minor', { mode: 'bigint' }).notNull(),
    note: text('note'),
    reference: text('reference'),
    status: text('status', { enum: batchRowStatuses }).notNull().default('pending'),
    transferId: bigint('transfer_id', { mode: 'number' }).references(() => transfers.id),
    errorCode: text('error_code'),
    errorDescription: text('error_description'),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.line] }), check('transfer_batch_rows_amounts', sql`${t.amountMinor} > 0 and ${t.feeMinor} >= 0`)],
);
