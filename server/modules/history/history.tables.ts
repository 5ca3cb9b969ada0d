/** Transaction-history exports (document 2 §7). */
import { index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables.ts';
import { customers, users } from '../customers/customers.tables.ts';

/** A CSV export of the transaction history (document 2 §7): asked, built by a worker, downloaded. */
export const historyExports = pgTable(
  'history_exports',
  {
    /** the exportId of the wire (random, unguessable) */
    id: text('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** manual: asked from the history screen; monthly: the month's export of one account */
    source: text('source', { enum: ['manual', 'monthly'] }).notNull(),
    accountId: integer('account_id').references(() => accounts.accountId),
    /** monthly: the month covered (YYYY-MM) */
    period: text('period'),
    filter: jsonb('filter').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: ['queued', 'processing', 'done', 'failed'] }).notNull().default('queued'),
    /** 0-100 */
    progress: smallint('progress').notNull().default(0),
    rowCount: integer('row_count'),
    fileName: text('file_name'),
    content: text('content'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('history_exports_customer').on(t.customerId, t.createdAt), uniqueIndex('history_exports_monthly').on(t.accountId, t.period)],
);
