/**
 * Accounts and the double-entry journal (design: "Money is a double-entry ledger").
 * Amounts are integers in minor units (bigint); the legs of one entry sum to zero per currency.
 * This foundation only writes opening balances from the provider's capital account; the
 * money-core issue adds transfers.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.ts';

export const accounts = pgTable(
  'accounts',
  {
    accountId: serial('account_id').primaryKey(),
    /** 1001 payment, 1003 payment variant, 4001 prepayment, 4002 receiving; cards 2006-2135 */
    type: integer('type').notNull(),
    subType: text('sub_type', { enum: ['PREPAID', 'DEBIT'] }),
    /** 1 active; 11 closed */
    status: integer('status').notNull().default(1),
    currency: text('currency').notNull(),
    balanceMinor: bigint('balance_minor', { mode: 'bigint' }).notNull().default(sql`0`),
    /** the balance may never go below this (negative only for the provider's capital accounts) */
    balanceMinMinor: bigint('balance_min_minor', { mode: 'bigint' }).notNull().default(sql`0`),
    pendingMinor: bigint('pending_minor', { mode: 'bigint' }).notNull().default(sql`0`),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    settlementAccountId: integer('settlement_account_id'),
    /**
     * customer, or the provider's own: capital (issues money), fee (collects fees), fx (the other
     * side of conversions), clearing (money on its way through a payment rail: rails.tables.ts)
     */
    purpose: text('purpose', { enum: ['customer', 'capital', 'fee', 'fx', 'clearing'] }).notNull().default('customer'),
    /** a crypto wallet's receiving address (create wallet) */
    address: text('address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('accounts_customer').on(t.customerId),
    uniqueIndex('accounts_address').on(t.address),
    check('accounts_balance_floor', sql`${t.balanceMinor} >= ${t.balanceMinMinor}`),
    // Held money (pending transfers) is part of the balance and never more than it allows.
    check('accounts_pending_held', sql`${t.pendingMinor} >= 0 and ${t.balanceMinor} - ${t.pendingMinor} >= ${t.balanceMinMinor}`),
    check('accounts_currency_code', sql`${t.currency} ~ '^[A-Z]{3,4}$'`),
  ],
);

export const journalEntries = pgTable(
  'journal_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** what the entry is: 'opening_balance' here; transfers come with the money-core issue */
    kind: text('kind').notNull(),
    /** a caller-chosen key: the same key never books twice */
    idempotencyKey: text('idempotency_key').notNull(),
    /** the transfer it books (transfers.id), null for opening balances */
    transferId: bigint('transfer_id', { mode: 'number' }),
    description: jsonb('description').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('journal_entries_idempotency').on(t.idempotencyKey), index('journal_entries_transfer').on(t.transferId)],
);

export const journalLegs = pgTable(
  'journal_legs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => journalEntries.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.accountId),
    currency: text('currency').notNull(),
    /** positive credits the account, negative debits it */
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
  },
  (t) => [index('journal_legs_entry').on(t.entryId), index('journal_legs_account').on(t.accountId)],
);
