/**
 * Tax self-certification (api/tax-certification.ts): one row per certification, holding the
 * answers as last saved. A person's own (customer_id = the person, kind personal), a company's
 * (customer_id = the company, kind business) and a representative's who is not a user
 * (customer_id = the company, representative_id set, kind personal). The signed forms are
 * customer documents (category 5, TAX_DOCUMENT_TYPES); a representative's are linked through
 * business_representative_documents as their other documents are.
 */
import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { BusinessCertification, PersonalCertification } from '../../../api/tax-certification.ts';
import { businessRepresentatives } from '../business/business.tables.ts';
import { customers, users } from '../customers/customers.tables.ts';

export const taxCertifications = pgTable(
  'tax_certifications',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    representativeId: integer('representative_id').references(() => businessRepresentatives.id),
    kind: text('kind', { enum: ['personal', 'business'] }).notNull(),
    answers: jsonb('answers').$type<PersonalCertification | BusinessCertification>().notNull(),
    /** the answers last changed: forms signed before it no longer count */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    /** the user who saved them; null for a representative's link */
    updatedByUserId: integer('updated_by_user_id').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tax_certifications_own').on(t.customerId, t.kind).where(sql`${t.representativeId} is null`),
    uniqueIndex('tax_certifications_representative').on(t.representativeId).where(sql`${t.representativeId} is not null`),
    check('tax_certifications_representative_personal', sql`${t.representativeId} is null or ${t.kind} = 'personal'`),
  ],
);
