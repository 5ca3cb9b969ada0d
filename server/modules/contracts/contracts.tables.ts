/**
 * Revenue-split contracts (document 3 §3 Contract, §4 Contracts, §7 Contracts service;
 * api/contracts.ts). A contract is created by a company (company_id, the customer acting) between
 * a payer (sender) and a beneficiary; while ACTIVE, every covered incoming payment to the payer's
 * account moves `percentage_bp` basis points of it to the beneficiary's account in the same
 * ledger transaction (contract_splits records each move beside its journal entry).
 *
 * The status is the platform's copy of machines/contract's states (the same guards decide the
 * moves: api/contracts.ts). Each side signs through the e-signature port (purpose 'contract',
 * context { contractId, side }); the signed PDF of each side is kept as evidence.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts, journalEntries } from '../accounts/accounts.tables.ts';
import { customers, users } from '../customers/customers.tables.ts';
import { esignDocuments } from '../esign/esign.tables.ts';

export const contracts = pgTable(
  'contracts',
  {
    id: serial('id').primaryKey(),
    /** the company the contract was created for (document 3 §3 company: id, title, logo) */
    companyId: integer('company_id')
      .notNull()
      .references(() => customers.id),
    /** the customer who created it (initiatorId on the wire) */
    initiatorId: integer('initiator_id')
      .notNull()
      .references(() => customers.id),
    createdByUserId: integer('created_by_user_id').references(() => users.id),
    /** the payer: its incoming payments are split */
    senderId: integer('sender_id')
      .notNull()
      .references(() => customers.id),
    senderSignerName: text('sender_signer_name').notNull(),
    senderObligations: jsonb('sender_obligations').$type<string[]>().notNull(),
    beneficiaryId: integer('beneficiary_id')
      .notNull()
      .references(() => customers.id),
    beneficiarySignerName: text('beneficiary_signer_name').notNull(),
    beneficiaryObligations: jsonb('beneficiary_obligations').$type<string[]>().notNull(),
    /** the percentage in basis points: 1 (0.01 %) to 10000 (100 %) */
    percentageBp: integer('percentage_bp').notNull(),
    note: text('note'),
    /** api/contracts.ts ContractStatus */
    status: text('status').notNull(),
    /** the payer's identification (api/contracts.ts IdentificationStatus) */
    identificationStatus: text('identification_status').notNull().default('NEW'),
    activeFrom: timestamp('active_from', { withTimezone: true }).notNull(),
    /** when the split stops (set by a termination or its notice period) */
    activeTo: timestamp('active_to', { withTimezone: true }),
    senderSignedAt: timestamp('sender_signed_at', { withTimezone: true }),
    senderSignedDocumentId: integer('sender_signed_document_id').references(() => esignDocuments.id),
    beneficiarySignedAt: timestamp('beneficiary_signed_at', { withTimezone: true }),
    beneficiarySignedDocumentId: integer('beneficiary_signed_document_id').references(() => esignDocuments.id),
    /** terminateInfo: who asked (a party's customer id), when, with which note */
    terminatedBy: integer('terminated_by').references(() => customers.id),
    terminateRequestedAt: timestamp('terminate_requested_at', { withTimezone: true }),
    terminatedAt: timestamp('terminated_at', { withTimezone: true }),
    terminateNote: text('terminate_note'),
    /** cancelled (by the initiator before both signed) or rejected (by the other party) */
    closedBy: integer('closed_by').references(() => customers.id),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('contracts_sender').on(t.senderId, t.status),
    index('contracts_beneficiary').on(t.beneficiaryId, t.status),
    index('contracts_company').on(t.companyId),
    check('contracts_percentage', sql`${t.percentageBp} > 0 and ${t.percentageBp} <= 10000`),
    check('contracts_parties', sql`${t.senderId} <> ${t.beneficiaryId}`),
  ],
);

/**
 * One split: the share of one incoming payment moved from the payer's account to the
 * beneficiary's, booked in the same database transaction as the payment (its own balanced legs in
 * `entry_id`, or legs of the payment's entry: `entry_id` names the entry that holds them).
 */
export const contractSplits = pgTable(
  'contract_splits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    contractId: integer('contract_id')
      .notNull()
      .references(() => contracts.id),
    /** the incoming payment's journal entry */
    sourceEntryId: bigint('source_entry_id', { mode: 'number' })
      .notNull()
      .references(() => journalEntries.id),
    /** the entry that moved the share */
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => journalEntries.id),
    payerAccountId: integer('payer_account_id')
      .notNull()
      .references(() => accounts.accountId),
    beneficiaryAccountId: integer('beneficiary_account_id')
      .notNull()
      .references(() => accounts.accountId),
    currency: text('currency').notNull(),
    /** the incoming payment, in minor units */
    grossMinor: bigint('gross_minor', { mode: 'bigint' }).notNull(),
    /** the share moved (half-even of gross x percentage; the remainder stays with the payer) */
    shareMinor: bigint('share_minor', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('contract_splits_source').on(t.contractId, t.sourceEntryId),
    index('contract_splits_entry').on(t.entryId),
    check('contract_splits_share', sql`${t.shareMinor} >= 0 and ${t.shareMinor} <= ${t.grossMinor}`),
  ],
);
