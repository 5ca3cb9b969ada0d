/**
 * Customers (a person or a company), the users who sign in, the companies a user may act for,
 * and the terms each customer accepted (document 1 §3, §6).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const customers = pgTable('customers', {
  id: serial('id').primaryKey(),
  customerType: text('customer_type', { enum: ['personal', 'business'] }).notNull(),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  /** the company name of a business customer */
  businessName: text('business_name'),
  birthDay: date('birth_day'),
  residenceCountryCode: text('residence_country_code'),
  taxId: text('tax_id'),
  verified: boolean('verified').notNull().default(false),
  limited: boolean('limited').notNull().default(false),
  dueDiligenceLevel: integer('due_diligence_level').notNull().default(0),
  isNeedPersonalInfoUpdate: boolean('is_need_personal_info_update').notNull().default(false),
  isNeedKyc: boolean('is_need_kyc').notNull().default(false),
  transactionApproveMode: text('transaction_approve_mode', { enum: ['none', 'push', 'sms', 'otp', 'approvalCode'] })
    .notNull()
    .default('none'),
  twoStepVerificationMode: integer('two_step_verification_mode'),
  /** settings language: en es pt ro ru ua (ua is Ukrainian) */
  language: text('language', { enum: ['en', 'es', 'pt', 'ro', 'ru', 'ua'] }).notNull().default('en'),
  /** true for the platform provider itself: it owns the capital accounts money is issued from */
  isProvider: boolean('is_provider').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** the login: an e-mail address, always stored lower-case */
    email: text('email').notNull(),
    /** argon2id PHC string */
    passwordHash: text('password_hash').notNull(),
    /** RFC 6238 shared secret, base32; null when no authenticator is set up */
    totpSecret: text('totp_secret'),
    login2faMode: text('login_2fa_mode', { enum: ['no', 'otp', 'sms', 'push'] }).notNull().default('otp'),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** 1 personal, 2 business owner, 3 authorised user, 4 administrator */
    userType: integer('user_type').notNull(),
    /** the user's own customer */
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    permissions: jsonb('permissions').$type<Record<string, boolean>>().notNull().default({}),
    /** the money-movement flags of document 2 §6 for the user's own customer (api/transfers.ts), all false by default */
    moneyPermissions: jsonb('money_permissions').$type<Record<string, boolean>>().notNull().default({}),
    disabled: boolean('disabled').notNull().default(false),
    /** false from registration until the e-mailed activation code is entered (document 3 §2) */
    activated: boolean('activated').notNull().default(true),
    /**
     * The provider's push 2FA migration deadline for this user (document 1 §3): soft before it,
     * strict after it; null when no migration applies.
     */
    pushMigrationDeadline: timestamp('push_migration_deadline', { withTimezone: true }),
    /** set when a recovery code was used: two-step verification must be set up again */
    twoStepSetupRequired: boolean('two_step_setup_required').notNull().default(false),
    /** hash (argon2id) of the approval code (two-step mode 4, approvalCode) */
    approvalCodeHash: text('approval_code_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
    check('users_user_type', sql`${t.userType} between 1 and 4`),
    index('users_customer').on(t.customerId),
  ],
);

/** A user who may act for a company (document 1 §3 customer access info). */
export const customerAccess = pgTable(
  'customer_access',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** 0 none, 1 read, 2 full, 3 initiate, 4 confirmed, 5 uploading / authorised user */
    accessRights: integer('access_rights').notNull(),
    /** 2 director; 6 and 9 shareholder; 8 owner; other ids authorised users */
    positionIds: jsonb('position_ids').$type<number[]>().notNull().default([]),
    permissions: jsonb('permissions').$type<Record<string, boolean>>().notNull().default({}),
    /** the money-movement flags of document 2 §6 when acting for this company, all false by default */
    moneyPermissions: jsonb('money_permissions').$type<Record<string, boolean>>().notNull().default({}),
    balanceInfo: boolean('balance_info').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customer_access_user_customer').on(t.userId, t.customerId),
    check('customer_access_rights', sql`${t.accessRights} between 0 and 5`),
  ],
);

/** Every published version of every term; the current version of a term is its highest. */
export const terms = pgTable(
  'terms',
  {
    termId: integer('term_id').notNull(),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    url: text('url').notNull(),
    /** a required term must be accepted before anything else (TE) */
    required: boolean('required').notNull().default(true),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.termId, t.version] })],
);

export const termsAcceptances = pgTable(
  'terms_acceptances',
  {
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    termId: integer('term_id').notNull(),
    version: integer('version').notNull(),
    /** the user who accepted for the customer */
    userId: integer('user_id').references(() => users.id),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.termId, t.version] })],
);

/**
 * A customer's phones (document 1 §3 Phone). status 'primary' is the main one; the SMS second
 * step and SMS codes go to the primary confirmed phone. Issue 5 (profile) adds the screens.
 */
export const phones = pgTable(
  'phones',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** digits only, no plus sign (document 1 §5) */
    phoneCountryCode: text('phone_country_code').notNull(),
    phone: text('phone').notNull(),
    /** 2 on edit (document 1 §9) */
    phoneType: integer('phone_type').notNull().default(2),
    status: text('status', { enum: ['primary', 'secondary'] }).notNull().default('secondary'),
    confirmed: boolean('confirmed').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('phones_customer').on(t.customerId), check('phones_digits', sql`${t.phoneCountryCode} ~ '^[0-9]{1,4}$' and ${t.phone} ~ '^[0-9]{4,15}$'`)],
);
