/**
 * Token-service state (document 1 §3, §5, §7). Everything lives in the database so that several
 * instances on one PostgreSQL agree: login codes, refresh-token families, used TOTP steps and
 * sign-in failures for rate limiting.
 */
import { bigserial, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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

/** Failed sign-in attempts, counted per account and per address over a sliding window. */
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
