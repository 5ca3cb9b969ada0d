/**
 * A company's own details, and its structure: the persons and companies that direct, own and
 * hold shares in it (document 3 §3 Company info, Registration payload, Representative kinds).
 * The users who act for it are customer_access rows (customers.tables.ts); a person here who is a
 * user names that user (user_id).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { customers, users } from '../customers/customers.tables.ts';
import { addressStatuses, customerDocuments } from '../profile/profile.tables.ts';

/**
 * The company details of a business customer that customers lacks (document 3 §3 Company info):
 * one row per company, keyed by its customer id. The name is customers.business_name, the country
 * customers.residence_country_code, the phone its primary phone (customers.tables.ts phones).
 */
export const businessCompanies = pgTable('business_companies', {
  customerId: integer('customer_id')
    .primaryKey()
    .references(() => customers.id),
  tradingName: text('trading_name'),
  registrationNumber: text('registration_number'),
  registrationDate: date('registration_date'),
  businessTaxId: text('business_tax_id'),
  website: text('website'),
  description: text('description'),
  email: text('email'),
  financialInstitution: text('financial_institution'),
  /** the registration's financialDetail (monthly amounts, sources, purposes, industry) */
  financialDetail: jsonb('financial_detail').$type<Record<string, unknown>>().notNull().default({}),
  /** the registration's dueDiligence answers */
  dueDiligence: jsonb('due_diligence').$type<Record<string, unknown>>().notNull().default({}),
  /** answers to the additional questions, by question id */
  additionalQuestionAnswers: jsonb('additional_question_answers').$type<Record<string, string>>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A person or company in a company's structure. position_ids: 2 director; 6 shareholder of the
 * company; 9 shareholder of a corporate shareholder; 8 owner. parent_id: the corporate
 * representative this one belongs to (its shareholder or director), null for the company's own.
 * share_hundredths: a shareholder's share of its parent in hundredths of a percent (1-10000).
 * A removed representative keeps its row (deleted_at), as the audit refers to it.
 */
export const businessRepresentatives = pgTable(
  'business_representatives',
  {
    id: serial('id').primaryKey(),
    /** the company (business customer) */
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    kind: text('kind', { enum: ['person', 'company'] }).notNull(),
    positionIds: jsonb('position_ids').$type<number[]>().notNull().default([]),
    parentId: integer('parent_id'),
    shareHundredths: integer('share_hundredths'),
    // a person
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    birthDay: date('birth_day'),
    // a company
    companyName: text('company_name').notNull().default(''),
    registrationNumber: text('registration_number'),
    countryCode: text('country_code'),
    // either
    /** stored lower-case */
    email: text('email'),
    phoneCountryCode: text('phone_country_code'),
    phone: text('phone'),
    phoneConfirmed: boolean('phone_confirmed').notNull().default(false),
    taxId: text('tax_id'),
    /** source-of-funds details of an ultimate beneficial owner, by source id (document 3 §5) */
    sourceOfFunds: jsonb('source_of_funds').$type<Record<string, string>>().notNull().default({}),
    identityStatus: text('identity_status', { enum: ['none', 'pending', 'validated', 'rejected'] })
      .notNull()
      .default('none'),
    /** the user this person is, when they are one of the company's users */
    userId: integer('user_id').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('business_representatives_customer').on(t.customerId),
    index('business_representatives_parent').on(t.parentId),
    check('business_representatives_share', sql`${t.shareHundredths} is null or ${t.shareHundredths} between 1 and 10000`),
    check('business_representatives_email_lower', sql`${t.email} is null or ${t.email} = lower(${t.email})`),
  ],
);

/** A representative's addresses (the profile's address fields and statuses). */
export const businessRepresentativeAddresses = pgTable(
  'business_representative_addresses',
  {
    id: serial('id').primaryKey(),
    representativeId: integer('representative_id')
      .notNull()
      .references(() => businessRepresentatives.id),
    address1: text('address1').notNull(),
    address2: text('address2').notNull().default(''),
    city: text('city').notNull(),
    postalCode: text('postal_code').notNull(),
    countryCode: text('country_code').notNull(),
    stateCode: text('state_code'),
    stateName: text('state_name'),
    status: text('status', { enum: addressStatuses }).notNull().default('unconfirmed'),
    customerConfirmedAt: timestamp('customer_confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('business_representative_addresses_rep').on(t.representativeId)],
);

/** The company's documents that belong to a representative (identity, address, source of wealth...). */
export const businessRepresentativeDocuments = pgTable(
  'business_representative_documents',
  {
    representativeId: integer('representative_id')
      .notNull()
      .references(() => businessRepresentatives.id),
    documentId: integer('document_id')
      .notNull()
      .references(() => customerDocuments.id),
  },
  (t) => [primaryKey({ columns: [t.representativeId, t.documentId] })],
);
