/**
 * The business operations of document 3 §7 that record a company's statements and reach its
 * representatives who are not users (api/business-declarations.ts):
 * - business_statement_acceptances: one row per accepted statement (the studio and streaming
 *   declarations of a representative, the company's prohibited-escort statement): who accepted
 *   which version of which text, when and from where. Written once; never updated.
 * - business_representative_links: the secret link (authSecret) a representative who is not a user
 *   uses for REPRESENTATIVE_SECRET_METHODS (api/method.ts), stored as its SHA-256 only, with an
 *   expiry. Issuing a new one revokes the earlier ones of that representative.
 * - business_representative_identity_jobs: which identity-verification job (identity_jobs) was
 *   started for which representative, so the job's decision moves the representative's status.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers, users } from '../customers/customers.tables.ts';
import { identityJobs } from '../profile/profile.tables.ts';
import { businessRepresentatives } from './business.tables.ts';

/** The statements a company or its representative accepts (api/business-declarations.ts StatementKind). */
export const statementKinds = ['studio', 'streaming', 'prohibitedEscort'] as const;

export const businessStatementAcceptances = pgTable(
  'business_statement_acceptances',
  {
    id: serial('id').primaryKey(),
    /** the company */
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    kind: text('kind', { enum: statementKinds }).notNull(),
    /** the representative who declares (studio, streaming); null for the company's own statement */
    representativeId: integer('representative_id').references(() => businessRepresentatives.id),
    /** the text version accepted, and the SHA-256 of that text (what was shown, byte for byte) */
    textVersion: text('text_version').notNull(),
    textSha256: text('text_sha256').notNull(),
    /** the user who accepted it */
    acceptedByUserId: integer('accepted_by_user_id')
      .notNull()
      .references(() => users.id),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull(),
    /** the client's address of the accepting call */
    ip: text('ip').notNull(),
  },
  (t) => [
    // Once per representative and kind, once per company for the company's own statement.
    uniqueIndex('business_statement_acceptances_rep')
      .on(t.customerId, t.kind, t.representativeId)
      .where(sql`${t.representativeId} is not null`),
    uniqueIndex('business_statement_acceptances_company')
      .on(t.customerId, t.kind)
      .where(sql`${t.representativeId} is null`),
    check('business_statement_acceptances_rep_kind', sql`(${t.kind} = 'prohibitedEscort') = (${t.representativeId} is null)`),
  ],
);

export const businessRepresentativeLinks = pgTable(
  'business_representative_links',
  {
    id: serial('id').primaryKey(),
    representativeId: integer('representative_id')
      .notNull()
      .references(() => businessRepresentatives.id),
    /** SHA-256 (hex) of the authSecret; the secret itself is only in the e-mail */
    secretHash: text('secret_hash').notNull(),
    /** the address the link was sent to (lower-case): fromEmail must be it */
    email: text('email').notNull(),
    createdByUserId: integer('created_by_user_id').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** set when a newer link replaces it, or the representative is removed */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('business_representative_links_secret').on(t.secretHash),
    index('business_representative_links_rep').on(t.representativeId),
    check('business_representative_links_email_lower', sql`${t.email} = lower(${t.email})`),
  ],
);

export const businessRepresentativeIdentityJobs = pgTable(
  'business_representative_identity_jobs',
  {
    jobId: integer('job_id')
      .primaryKey()
      .references(() => identityJobs.id),
    representativeId: integer('representative_id')
      .notNull()
      .references(() => businessRepresentatives.id),
  },
  (t) => [index('business_representative_identity_jobs_rep').on(t.representativeId)],
);
