/**
 * Cards (issue 16; document 2 §3, §4). A card is an account of the ledger (accounts: its type the
 * product 2006-2135, sub_type PREPAID or DEBIT, status one of api/cards.ts CardStatus); this module
 * keeps what a card has beyond an account: its product and kind, the BIN and last four digits (never
 * the full number), expiry, alias, where it ships and which account pays its fees.
 *
 * The card's secrets (full number, CVV, PIN) live only in the issuer's adapter: the built-in
 * simulator keeps them, encrypted, in its own table (card_issuer_sim_cards) that nothing else reads.
 *
 * Card payments: an authorisation holds the money on the account that pays (the card itself, or a
 * debit card's settlement account: accounts.pending_minor), a clearing books it (the paying account
 * to the card scheme's settlement account of the currency) and releases the hold, a reversal only
 * releases it. A declined authorisation is kept with its reason (history shows it) and holds nothing.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables.ts';
import { users } from '../customers/customers.tables.ts';

export const cardKinds = ['physical', 'virtual', 'debit'] as const;

export const cards = pgTable(
  'cards',
  {
    accountId: integer('account_id')
      .primaryKey()
      .references(() => accounts.accountId),
    kind: text('kind', { enum: cardKinds }).notNull(),
    isVirtual: boolean('is_virtual').notNull(),
    aliasName: text('alias_name'),
    expiryMonth: smallint('expiry_month').notNull(),
    expiryYear: smallint('expiry_year').notNull(),
    /** the first 6 digits and the last 4: all the platform ever keeps of the number */
    bin: text('bin').notNull(),
    last4: text('last4').notNull(),
    /** the card's id at the issuer (the adapter's; the simulator's card_issuer_sim_cards.issuer_ref) */
    issuerRef: text('issuer_ref').notNull(),
    /** the account the card's fees are charged from (the application's fee account) */
    feeAccountId: integer('fee_account_id')
      .notNull()
      .references(() => accounts.accountId),
    /** physical and debit cards: the customer's address it ships to (profile's customer_addresses id) and how */
    addressId: integer('address_id'),
    shipping: text('shipping', { enum: ['standard', 'express'] }),
    /** the transfer that charged the application's fees (null when there were none to charge) */
    feeTransferId: bigint('fee_transfer_id', { mode: 'number' }),
    /** the card this one replaced, and the card that replaced this one (cardReissue) */
    reissuedFromAccountId: integer('reissued_from_account_id'),
    reissuedToAccountId: integer('reissued_to_account_id'),
    /** the user who applied */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('cards_issuer_ref').on(t.issuerRef),
    index('cards_fee_account').on(t.feeAccountId),
    check('cards_bin', sql`${t.bin} ~ '^[0-9]{6}$'`),
    check('cards_last4', sql`${t.last4} ~ '^[0-9]{4}$'`),
    check('cards_expiry_month', sql`${t.expiryMonth} between 1 and 12`),
  ],
);

export const authorizationStatuses = ['authorized', 'cleared', 'reversed', 'declined'] as const;

export const cardAuthorizations = pgTable(
  'card_authorizations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    cardAccountId: integer('card_account_id')
      .notNull()
      .references(() => accounts.accountId),
    /** the account whose money it is: the card (prepaid) or its settlement account (debit) */
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.accountId),
    currency: text('currency').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    merchantName: text('merchant_name').notNull(),
    merchantCategoryCode: text('merchant_category_code').notNull(),
    merchantCountryCode: text('merchant_country_code').notNull(),
    status: text('status', { enum: authorizationStatuses }).notNull(),
    declineReason: text('decline_reason'),
    /** the scheme's id of the authorisation: the same message twice authorises once */
    networkRef: text('network_ref').notNull(),
    /** the clearing's journal entry */
    entryId: bigint('entry_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('card_authorizations_network_ref').on(t.networkRef),
    index('card_authorizations_account').on(t.accountId, t.id),
    index('card_authorizations_card').on(t.cardAccountId, t.id),
    check('card_authorizations_amount', sql`${t.amountMinor} > 0`),
    check('card_authorizations_declined', sql`(${t.status} = 'declined') = (${t.declineReason} is not null)`),
  ],
);

/** The card scheme's settlement account per currency (a provider account, purpose clearing): cleared card payments owed to the scheme. */
export const cardSchemeAccounts = pgTable('card_scheme_accounts', {
  currency: text('currency').primaryKey(),
  accountId: integer('account_id')
    .notNull()
    .references(() => accounts.accountId),
});

/** A reveal of a card's secret (showPin, then getPin): one approval, one answer. */
export const cardReveals = pgTable(
  'card_reveals',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    cardAccountId: integer('card_account_id')
      .notNull()
      .references(() => accounts.accountId),
    reveal: text('reveal', { enum: ['pin', 'card'] }).notNull(),
    method: text('method', { enum: ['sms', 'otp', 'approvalCode', 'password'] }).notNull(),
    /** sha256 of the SMS code (sms only) */
    codeHash: text('code_hash'),
    attempts: smallint('attempts').notNull().default(0),
    status: text('status', { enum: ['pending', 'used', 'failed'] }).notNull().default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('card_reveals_user').on(t.userId, t.createdAt)],
);

/**
 * The issuer simulator's own records (server/modules/cards/issuer-simulator.ts): what a real issuer
 * keeps on its side. Only the simulator reads or writes this table. The number, CVV and PIN are
 * encrypted (AES-256-GCM, the key from CARD_ISSUER_KEY or derived per installation); the number's
 * HMAC finds a card from what a merchant's terminal sends.
 */
export const cardIssuerSimCards = pgTable(
  'card_issuer_sim_cards',
  {
    issuerRef: text('issuer_ref').primaryKey(),
    panHmac: text('pan_hmac').notNull(),
    panSealed: text('pan_sealed').notNull(),
    cvvSealed: text('cvv_sealed').notNull(),
    pinSealed: text('pin_sealed'),
    expiryMonth: smallint('expiry_month').notNull(),
    expiryYear: smallint('expiry_year').notNull(),
    /** the production steps of a physical card: submitted, processing, printing, printed, shipped; virtual: issued */
    stage: text('stage').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('card_issuer_sim_cards_pan').on(t.panHmac)],
);
