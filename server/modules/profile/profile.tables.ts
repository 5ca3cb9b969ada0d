/**
 * Profile, documents and verification (document 1 §3-§4; issue 5): the documents a customer
 * uploads (their file content kept by the platform, bytea, so PGlite and PostgreSQL alike hold
 * it), e-mail addresses and username-change requests, addresses, one-time codes confirming a
 * phone or an e-mail, identity-verification jobs (the provider adapter's work, video identity
 * included), account limit reasons, KYC info and requests, and due-diligence info.
 *
 * Phones live with the customer (customers.tables.ts phones).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, customType, date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers, users } from '../customers/customers.tables.ts';

/** PostgreSQL bytea as a Node Buffer (both drivers hand back a Buffer or a Uint8Array). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
  toDriver: (value) => value,
});

/** Address types of document 1 §3. */
export const addressTypes = ['unspecified', 'home', 'residence', 'business', 'homeAndBusiness', 'office'] as const;
/** Address verification statuses of document 1 §3. */
export const addressStatuses = ['unconfirmed', 'confirmed', 'pending', 'rejected', 'nameMismatch'] as const;

export const customerAddresses = pgTable(
  'customer_addresses',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    addressType: text('address_type', { enum: addressTypes }).notNull().default('home'),
    address1: text('address1').notNull().default(''),
    address2: text('address2').notNull().default(''),
    city: text('city').notNull().default(''),
    postalCode: text('postal_code').notNull().default(''),
    countryCode: text('country_code').notNull().default(''),
    stateCode: text('state_code'),
    stateName: text('state_name'),
    /** the wire's addressStatus: 1 for the customer's current address (set on create or replace, document 1 §9) */
    addressStatus: integer('address_status').notNull().default(1),
    /** the verification status, moved by the administrator's decision on the address documents */
    status: text('status', { enum: addressStatuses }).notNull().default('unconfirmed'),
    /** the customer confirmed that the address is still correct (confirm address) */
    customerConfirmedAt: timestamp('customer_confirmed_at', { withTimezone: true }),
    /** a further address document is needed for a card (someCardDocumentRequired) */
    isCardDocumentRequired: boolean('is_card_document_required').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** a deleted address is kept (its documents reference it) but no longer shown */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('customer_addresses_customer').on(t.customerId)],
);

/** The side of a document's file: the main page, or a second page some types need. */
export const documentSides = ['front', 'back', 'registrationStamp'] as const;

/**
 * An uploaded document (document 1 §3 Uploaded document). A type needing a second page (4 and 5:
 * the back; 88: the registration-stamp page) is one main row (side front) and one sub-document row
 * (isSubDocument, parent_id the main row); the administrator's decision on the main row applies to
 * both. status_id is one of api/verification.ts DocumentStatus.
 */
export const customerDocuments = pgTable(
  'customer_documents',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** api/verification.ts DocumentCategory */
    categoryId: integer('category_id').notNull(),
    documentTypeId: integer('document_type_id').notNull(),
    statusId: integer('status_id').notNull().default(0),
    side: text('side', { enum: documentSides }).notNull().default('front'),
    /** the main document of a sub-document (back side, stamp page) */
    parentId: integer('parent_id'),
    /** the address an address document proves */
    addressId: integer('address_id').references(() => customerAddresses.id),
    /** the identity document's number (duplicate-document check) */
    number: text('number'),
    issuedDate: date('issued_date'),
    expiresDate: date('expires_date'),
    /** the login of the user who uploaded it */
    createdUsername: text('created_username').notNull(),
    createdByUserId: integer('created_by_user_id').references(() => users.id),
    rejectReason: text('reject_reason'),
    uploaded: timestamp('uploaded', { withTimezone: true }).notNull().defaultNow(),
    fileName: text('file_name').notNull(),
    /** detected from the content (application/pdf, image/jpeg, image/png), never the client's claim */
    mimeType: text('mime_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    content: bytea('content').notNull(),
    decidedByUserId: integer('decided_by_user_id').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('customer_documents_customer').on(t.customerId, t.categoryId),
    index('customer_documents_status').on(t.statusId, t.uploaded),
    index('customer_documents_number').on(t.number),
    check('customer_documents_size', sql`${t.sizeBytes} > 0`),
  ],
);

/** A customer's e-mail addresses (document 1 §3 Email inquiry); the login is the user's e-mail. */
export const customerEmails = pgTable(
  'customer_emails',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** stored lower-case */
    emailAddress: text('email_address').notNull(),
    status: text('status', { enum: ['primary', 'secondary'] }).notNull().default('secondary'),
    confirmed: boolean('confirmed').notNull().default(false),
    lastModified: timestamp('last_modified', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('customer_emails_address').on(t.customerId, t.emailAddress), check('customer_emails_lower', sql`${t.emailAddress} = lower(${t.emailAddress})`)],
);

/**
 * Username-change request statuses: active (created, the code e-mailed to the desired address
 * waits), pending (the desired address confirmed; the change waits for a validated identity),
 * failed (too many wrong codes, or the username was taken meanwhile); completed and canceled
 * requests are history (not the current request).
 */
export const usernameChangeStatuses = ['active', 'pending', 'failed', 'completed', 'canceled'] as const;

export const usernameChangeRequests = pgTable(
  'username_change_requests',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    desiredUsername: text('desired_username').notNull(),
    status: text('status', { enum: usernameChangeStatuses }).notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('username_change_requests_user').on(t.userId, t.createdAt)],
);

export const usernameChangeLogs = pgTable(
  'username_change_logs',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => usernameChangeRequests.id),
    /** created, codeSent, wrongCode, emailConfirmed, completed, failed, canceled */
    event: text('event').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('username_change_logs_request').on(t.requestId, t.at)],
);

/**
 * One-time codes confirming a phone, an e-mail address or a username change: only the sha256 of
 * the code is kept; a phone verification started over REST also keeps the PKCE challenge its
 * confirmation must answer with the verifier. PROFILE_CODE_MAX_ATTEMPTS wrong answers end a code.
 */
export const profileCodes = pgTable(
  'profile_codes',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    purpose: text('purpose', { enum: ['phone', 'email', 'username'] }).notNull(),
    /** the phone, e-mail or username-change request the code confirms */
    targetId: integer('target_id').notNull(),
    codeHash: text('code_hash').notNull(),
    codeChallenge: text('code_challenge'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('profile_codes_target').on(t.purpose, t.targetId, t.createdAt), index('profile_codes_customer').on(t.customerId, t.purpose, t.createdAt)],
);

/**
 * Identity-verification jobs (document 1 §7 Identity and verification): an identity check or a
 * video identity, run by a provider adapter. The built-in provider 'review' is the administrator's
 * review queue; 'jmo' and 'nfd' are external providers a deployment may configure. The public
 * page /identity-verification/{workflowRunId}/{token} is authorised by the token (its sha256 kept).
 */
export const identityJobs = pgTable(
  'identity_jobs',
  {
    id: serial('id').primaryKey(),
    /** the workflowRunId of the wire (random uuid) */
    workflowRunId: text('workflow_run_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    kind: text('kind', { enum: ['identity', 'video'] }).notNull(),
    provider: text('provider').notNull(),
    /** pending: waiting for the customer or the reviewer; approved; rejected; expired */
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'expired'] }).notNull().default('pending'),
    /** the identity-verification channel (document 1 §3): email, sms, camera */
    channel: text('channel', { enum: ['email', 'sms', 'camera'] }).notNull().default('camera'),
    createdByUserId: integer('created_by_user_id').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** the administrator who approved or rejected the job (built-in provider: the review queue) */
    decidedByUserId: integer('decided_by_user_id').references(() => users.id),
    /** why the job was rejected; shown to the customer */
    rejectReason: text('reject_reason'),
  },
  (t) => [uniqueIndex('identity_jobs_run').on(t.workflowRunId), index('identity_jobs_customer').on(t.customerId, t.kind, t.createdAt)],
);

/** Account restriction reasons (document 1 §4) by actionTypeId. */
export const limitReasonKinds = ['expiredDocuments', 'unpaidInvoice', 'sanctions', 'adverseMedia', 'accountInvestigation'] as const;

/** Why an account is limited, and which document types lift it (document 1 §3 User status, limit data). */
export const limitReasons = pgTable(
  'limit_reasons',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    actionTypeId: integer('action_type_id').notNull(),
    reason: text('reason', { enum: limitReasonKinds }).notNull(),
    requiredDocumentTypeIds: jsonb('required_document_type_ids').$type<number[]>().notNull().default([]),
    note: text('note'),
    createdByUserId: integer('created_by_user_id').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** set when the administrator unlimits the account */
    liftedAt: timestamp('lifted_at', { withTimezone: true }),
  },
  (t) => [index('limit_reasons_customer').on(t.customerId, t.liftedAt)],
);

/** The customer's KYC answers (kyc info update), one row per customer. */
export const kycInfo = pgTable('kyc_info', {
  customerId: integer('customer_id')
    .primaryKey()
    .references(() => customers.id),
  occupationId: integer('occupation_id'),
  sourceOfFundsIds: jsonb('source_of_funds_ids').$type<number[]>().notNull().default([]),
  purposeIds: jsonb('purpose_ids').$type<number[]>().notNull().default([]),
  expectedMonthlyTurnover: text('expected_monthly_turnover'),
  isPoliticallyExposed: boolean('is_politically_exposed'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A KYC request the provider opened for a customer (customers.is_need_kyc while one is open). */
export const kycRequests = pgTable(
  'kyc_requests',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    status: text('status', { enum: ['open', 'answered'] }).notNull().default('open'),
    reason: text('reason').notNull().default('periodicReview'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [index('kyc_requests_customer').on(t.customerId, t.status)],
);

/** Due diligence of a customer (levels 1 and 4 load it on the web): financial info and what it requires. */
export const dueDiligenceInfo = pgTable('due_diligence_info', {
  customerId: integer('customer_id')
    .primaryKey()
    .references(() => customers.id),
  annualIncome: text('annual_income'),
  netWorth: text('net_worth'),
  sourceOfWealth: text('source_of_wealth'),
  employerName: text('employer_name'),
  /** the level requires a proof of address document */
  addressDocumentRequired: boolean('address_document_required').notNull().default(false),
  /** document type ids the level requires (source of wealth and the like) */
  requiredDocumentTypeIds: jsonb('required_document_type_ids').$type<number[]>().notNull().default([]),
  updatedByUserId: integer('updated_by_user_id').references(() => users.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
