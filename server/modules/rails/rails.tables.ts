/**
 * Rail instructions (issue 15 §1-§2): one row per payout (a transfer of a payout kind) or per
 * incoming payment, with its status on the rail; the status events applied to it, each once; and
 * the provider's clearing account of each rail and currency.
 *
 * A payout's money (transfers.ts, the ledger): held on the source account when requested (status
 * queued or accepted: accounts.pending_minor); moved to the rail's clearing account when sent (the
 * transfer's entry); moved out of clearing to the provider's capital account (the money has left
 * the platform) when settled; or back to the source in full when returned (the fee by the rail's
 * policy, rails.ts). Incoming money enters the rail's clearing account from capital when received
 * and is credited to the account its receiving details name, or returned to the sender.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables.ts';
import { transfers } from '../transfers/transfers.tables.ts';

export const instructionStatuses = ['awaitingApproval', 'canceled', 'queued', 'accepted', 'sent', 'settled', 'returned', 'refused', 'received', 'credited'] as const;
export type InstructionStatus = (typeof instructionStatuses)[number];

export const railInstructions = pgTable(
  'rail_instructions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    rail: text('rail').notNull(),
    direction: text('direction', { enum: ['out', 'in'] }).notNull(),
    /**
     * out: awaitingApproval (its transfer awaits the customer's approval; money held), canceled
     * (the transfer was rejected, expired or canceled first), queued (money held, to be
     * submitted), accepted, sent (in clearing), settled, returned, refused (at submission: nothing
     * sent). in: received (in clearing), credited, returned.
     */
    status: text('status', { enum: instructionStatuses }).notNull(),
    /** the payout's transfer (out), or the credited account's transfer-less entry (in: null) */
    transferId: bigint('transfer_id', { mode: 'number' }).references(() => transfers.id),
    /** in: the account the receiving details name (null when they name none) */
    accountId: integer('account_id').references(() => accounts.accountId),
    currency: text('currency').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    /** what the rail needs (no full card number: BIN, last four, fingerprint) */
    beneficiary: jsonb('beneficiary').$type<Record<string, string>>().notNull(),
    reference: text('reference'),
    /** the adapter that took it, and its id there */
    adapter: text('adapter'),
    networkRef: text('network_ref'),
    reasonCode: text('reason_code'),
    /** the fee given back on a return (the rail's policy at the time) */
    feeRefundedMinor: bigint('fee_refunded_minor', { mode: 'bigint' }),
    submitAttempts: integer('submit_attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rail_instructions_transfer').on(t.transferId),
    index('rail_instructions_account').on(t.accountId, t.createdAt),
    index('rail_instructions_status').on(t.status),
    check('rail_instructions_positive', sql`${t.amountMinor} > 0`),
  ],
);

/** Each status event applied to an instruction, once (the key is the instruction and the event). */
export const railEvents = pgTable(
  'rail_events',
  {
    instructionId: bigint('instruction_id', { mode: 'number' })
      .notNull()
      .references(() => railInstructions.id),
    type: text('type').notNull(),
    reasonCode: text('reason_code'),
    /** the journal entry the event booked (null for events that move no money) */
    entryId: bigint('entry_id', { mode: 'number' }),
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.instructionId, t.type] })],
);

/** The provider's clearing account of a rail and currency (purpose 'clearing', append-only like every provider account). */
export const railClearingAccounts = pgTable(
  'rail_clearing_accounts',
  {
    rail: text('rail').notNull(),
    currency: text('currency').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.accountId),
  },
  (t) => [primaryKey({ columns: [t.rail, t.currency] })],
);

/** Payment instructions (api/funding.ts) a user has opened: the "Add money" page shows the others as new. */
export const paymentInstructionViews = pgTable(
  'payment_instruction_views',
  {
    userId: integer('user_id').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.accountId),
    instructionId: integer('instruction_id').notNull(),
    viewedAt: timestamp('viewed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.accountId, t.instructionId] })],
);

/**
 * Card BINs the provider does not pay out to (document 2 §7 blockedBinList; §5 the app keeps the
 * list only if non-empty): an entry of 6 or 8 digits blocks every card number it starts.
 */
export const blockedCardBins = pgTable(
  'blocked_card_bins',
  {
    bin: text('bin').primaryKey(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('blocked_card_bins_digits', sql`${t.bin} ~ '^([0-9]{6}|[0-9]{8})$'`)],
);
