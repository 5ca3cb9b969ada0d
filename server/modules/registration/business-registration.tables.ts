/**
 * Business registration's own tables (issue 17 items 1 and 3; api/business-registration.ts).
 *
 * - business_registration_drafts: the wizard's saved draft, one per e-mail address and device. The
 *   device secret is a capability the browser keeps; only its sha-256 is stored, so the table alone
 *   reads no draft. A draft lives BUSINESS_DRAFT_TTL_DAYS from its last save (expires_at); an expired
 *   one reads as none and the transfers sweeper's run deletes it (deleteExpiredDrafts).
 * - business_document_requirements: the documents a registered company is asked to upload, by
 *   category (document 3 §3 Document categories), for the company itself (representative_id null) or
 *   one of its representatives. The company's verification banner counts those still without a document.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.ts';
import { businessRepresentatives } from '../business/business.tables.ts';

export const businessRegistrationDrafts = pgTable(
  'business_registration_drafts',
  {
    id: serial('id').primaryKey(),
    /** the e-mail the draft is kept for, lower-case */
    email: text('email').notNull(),
    /** sha-256 (hex) of the device secret */
    deviceSecretHash: text('device_secret_hash').notNull(),
    /** the wizard's draft version (§9: 3.54) */
    version: text('version').notNull(),
    /** the wizard's draft, opaque to the platform (at most BUSINESS_DRAFT_MAX_BYTES of JSON) */
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('business_registration_drafts_key').on(t.email, t.deviceSecretHash),
    index('business_registration_drafts_expiry').on(t.expiresAt),
    check('business_registration_drafts_email_lower', sql`${t.email} = lower(${t.email})`),
  ],
);

export const businessDocumentRequirements = pgTable(
  'business_document_requirements',
  {
    id: serial('id').primaryKey(),
    /** the company (business customer) */
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** null: the company's own document; else the representative it is about */
    representativeId: integer('representative_id').references(() => businessRepresentatives.id),
    /** api/verification.ts DocumentCategory */
    categoryId: integer('category_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('business_document_requirements_customer').on(t.customerId),
    uniqueIndex('business_document_requirements_one').on(t.customerId, t.categoryId, sql`coalesce(${t.representativeId}, 0)`),
  ],
);
