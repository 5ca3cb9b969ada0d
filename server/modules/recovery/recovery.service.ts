/**
 * Password reset, account recovery and password change (api/recovery.ts). Functions take the
 * database handle they use; the methods module decides the transactions.
 *
 * Codes are random (40 bits), stored as sha256, single-use, short-lived and dead after
 * PASSWORD_CODE_MAX_ATTEMPTS wrong tries; new passwords are argon2id.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { and, count, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import {
  PASSWORD_CODE_ALPHABET,
  PASSWORD_CODE_LENGTH,
  PASSWORD_CODE_MAX_ATTEMPTS,
  type RecoveryTask,
} from '../../../api/recovery.ts';
import type { Db, Tx } from '../../db/types.ts';
import { accountRecoveryTasks, loginCodes, oneTimeCodes, refreshTokens, tokenFamilies } from '../auth/auth.tables.ts';
import { sha256Hex, timingSafeEqualText } from '../auth/crypto.ts';
import { customers, users } from '../customers/customers.tables.ts';
import { customerEmails } from '../profile/profile.tables.ts';
import { rateLimitCounters } from './recovery.tables.ts';

export type CodePurpose = 'passwordReset' | 'passwordChange';
type Exec = Db | Tx;

export function newPasswordCode(): string {
  let code = '';
  for (let i = 0; i < PASSWORD_CODE_LENGTH; i++) code += PASSWORD_CODE_ALPHABET[randomInt(0, PASSWORD_CODE_ALPHABET.length)];
  return code;
}

/** "a***@demo.test": enough for the owner to recognise the address, not enough to harvest it. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

/** Names compare case- and whitespace-insensitively: "  anna  maria " equals "Anna Maria". */
export function sameName(a: string, b: string): boolean {
  const norm = (s: string) => s.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase();
  return norm(a) === norm(b);
}

export async function findUserByEmail(exec: Exec, email: string) {
  const [row] = await exec
    .select({ id: users.id, email: users.email, customerId: users.customerId, passwordHash: users.passwordHash, disabled: users.disabled })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return row && !row.disabled ? row : null;
}

/** Ends every live earlier code of this purpose: only the newest one works. */
async function retireCodes(tx: Exec, userId: number, purpose: CodePurpose, at: Date): Promise<void> {
  await tx
    .update(oneTimeCodes)
    .set({ usedAt: at })
    .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose), isNull(oneTimeCodes.usedAt)));
}

/** Stores a new code (retiring older ones); returns its id and the code to mail (never stored). */
export async function issueCode(
  tx: Exec,
  input: { userId: number; purpose: CodePurpose; sentTo: string; ttlS: number; payload?: Record<string, unknown>; now: Date },
): Promise<{ id: string; code: string }> {
  await retireCodes(tx, input.userId, input.purpose, input.now);
  const id = randomUUID();
  const code = newPasswordCode();
  await tx.insert(oneTimeCodes).values({
    id,
    userId: input.userId,
    purpose: input.purpose,
    codeHash: sha256Hex(code),
    sentTo: input.sentTo,
    payload: input.payload ?? {},
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + input.ttlS * 1000),
  });
  return { id, code };
}

/** Reset codes mailed to this user within the window (a cap on mail bombing). */
export async function recentCodeCount(exec: Exec, userId: number, purpose: CodePurpose, since: Date): Promise<number> {
  const [row] = await exec
    .select({ n: count() })
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose), gt(oneTimeCodes.createdAt, since)));
  return row?.n ?? 0;
}

export type CodeCheck =
  | { ok: true; row: typeof oneTimeCodes.$inferSelect }
  | { ok: false; reason: 'wrong' | 'expired' | 'dead' | 'unknown' };

/**
 * Checks a typed code against the live code of the user (or of the request id). A wrong code is
 * counted at once, on `exec` outside any transaction that may roll back; the code dies at the limit.
 */
export async function checkCode(
  exec: Exec,
  where: { userId: number; purpose: CodePurpose; id?: string },
  code: string,
  now: Date,
): Promise<CodeCheck> {
  const conditions = [eq(oneTimeCodes.userId, where.userId), eq(oneTimeCodes.purpose, where.purpose)];
  if (where.id) conditions.push(eq(oneTimeCodes.id, where.id));
  const [row] = await exec
    .select()
    .from(oneTimeCodes)
    .where(and(...conditions))
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1);
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.failedAttempts >= PASSWORD_CODE_MAX_ATTEMPTS) return { ok: false, reason: 'dead' };
  if (row.usedAt) return { ok: false, reason: 'unknown' };
  if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  if (!timingSafeEqualText(row.codeHash, sha256Hex(code))) {
    const [counted] = await exec
      .update(oneTimeCodes)
      .set({ failedAttempts: sql`${oneTimeCodes.failedAttempts} + 1` })
      .where(eq(oneTimeCodes.id, row.id))
      .returning({ failedAttempts: oneTimeCodes.failedAttempts });
    return { ok: false, reason: (counted?.failedAttempts ?? PASSWORD_CODE_MAX_ATTEMPTS) >= PASSWORD_CODE_MAX_ATTEMPTS ? 'dead' : 'wrong' };
  }
  return { ok: true, row };
}

/**
 * Spends a code inside the caller's transaction. The condition makes two concurrent uses of one
 * code race safely: only one update finds it unused.
 */
export async function spendCode(tx: Exec, id: string, now: Date): Promise<boolean> {
  const spent = await tx
    .update(oneTimeCodes)
    .set({ usedAt: now })
    .where(and(eq(oneTimeCodes.id, id), isNull(oneTimeCodes.usedAt)))
    .returning({ id: oneTimeCodes.id });
  return spent.length === 1;
}

/**
 * Ends the user's sign-in sessions, except `keepFamilyId` (the caller's own). Other instances
 * notice within FAMILY_CHECK_TTL_MS (tokens.service.ts); refresh tokens stop at once.
 */
export async function revokeFamilies(tx: Exec, userId: number, reason: string, now: Date, keepFamilyId?: string): Promise<number> {
  const conditions = [eq(tokenFamilies.userId, userId), isNull(tokenFamilies.revokedAt)];
  if (keepFamilyId) conditions.push(ne(tokenFamilies.id, keepFamilyId));
  const revoked = await tx
    .update(tokenFamilies)
    .set({ revokedAt: now, revokeReason: reason })
    .where(and(...conditions))
    .returning({ id: tokenFamilies.id });
  const refreshConditions = [eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)];
  if (keepFamilyId) refreshConditions.push(ne(refreshTokens.familyId, keepFamilyId));
  await tx.update(refreshTokens).set({ revokedAt: now }).where(and(...refreshConditions));
  // A sign-in half done with the old password (waiting for its second step) must not finish either.
  await tx.update(loginCodes).set({ usedAt: now }).where(and(eq(loginCodes.userId, userId), isNull(loginCodes.usedAt)));
  return revoked.length;
}

export async function customerOfUser(exec: Exec, customerId: number) {
  const [row] = await exec
    .select({ firstName: customers.firstName, lastName: customers.lastName, birthDay: customers.birthDay })
    .from(customers)
    .where(eq(customers.id, customerId))
    .limit(1);
  return row ?? null;
}

export type TaskRow = typeof accountRecoveryTasks.$inferSelect;

export function taskView(row: TaskRow): RecoveryTask {
  return {
    taskId: row.taskId,
    emailId: row.taskId,
    email: maskEmail(row.email),
    recoveryEmail: maskEmail(row.recoveryEmail),
    verificationStatus: row.verificationStatus,
    ...(row.rejectReason ? { rejectReason: row.rejectReason as NonNullable<RecoveryTask['rejectReason']> } : {}),
    ...(row.rejectComment ? { rejectComment: row.rejectComment } : {}),
    isRetryable: row.verificationStatus === 'rejected' && row.retryable,
    documentsUploaded: row.documentsAt !== null,
  };
}

export async function findTask(exec: Exec, taskId: string, forUpdate = false): Promise<TaskRow | null> {
  const query = exec.select().from(accountRecoveryTasks).where(eq(accountRecoveryTasks.taskId, taskId)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/**
 * Every current e-mail of an account: the login e-mail and the customer's confirmed addresses
 * (lower-cased, once each). A personal-data recovery is told to all of them: whichever the owner
 * still reads, the owner learns of it.
 */
export async function currentEmailsOf(exec: Exec, userId: number): Promise<string[]> {
  const [user] = await exec.select({ email: users.email, customerId: users.customerId }).from(users).where(eq(users.id, userId));
  if (!user) return [];
  const confirmed = await exec
    .select({ address: customerEmails.emailAddress })
    .from(customerEmails)
    .where(and(eq(customerEmails.customerId, user.customerId), eq(customerEmails.confirmed, true)));
  return [...new Set([user.email.toLowerCase(), ...confirmed.map((r) => r.address.toLowerCase())])];
}

/** Personal data typed equals the record's (a hint for the administrator, never a decision). */
export async function personalDataMatches(exec: Exec, task: TaskRow): Promise<{ matches: boolean; recordDob: string | null; customerId: number | null }> {
  if (task.userId === null) return { matches: false, recordDob: null, customerId: null };
  const [user] = await exec.select({ customerId: users.customerId }).from(users).where(eq(users.id, task.userId));
  const customer = user ? await customerOfUser(exec, user.customerId) : null;
  if (!user || !customer) return { matches: false, recordDob: null, customerId: null };
  const matches =
    sameName(customer.firstName, task.firstName ?? '') && sameName(customer.lastName, task.lastName ?? '') && customer.birthDay === task.dob;
  return { matches, recordDob: customer.birthDay, customerId: user.customerId };
}

/* ------------------------------------------------------------------------ rate limits */

export interface RateLimitKey {
  /** 'account:<sha256 of the e-mail or task>' or 'address:<ip>' */
  key: string;
  max: number;
}

/** A counter key that keeps no personal data: the e-mail only as a hash. */
export function accountKey(email: string): string {
  return `account:${sha256Hex(email.trim().toLowerCase())}`;
}
export function addressKey(ip: string): string {
  return `address:${ip}`;
}

/**
 * Counts one call under every key and answers whether any key is over its limit. One statement
 * (a multi-row upsert) counts and reads: concurrent calls queue on the counter rows, so the
 * limit holds exactly even across instances. Fixed windows (aligned to the epoch): at a window's
 * edge up to twice the limit may pass within one window length, the price of one row per key.
 * Callers count BEFORE any work and keep the count even when the call then fails (KeptFailure),
 * so failed calls are limited too.
 */
export async function overRateLimit(exec: Exec, scope: string, keys: readonly RateLimitKey[], windowS: number, now: Date): Promise<boolean> {
  const windowMs = windowS * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const rows = await exec
    .insert(rateLimitCounters)
    .values(keys.map((k) => ({ scope, key: k.key, windowStart, count: 1 })))
    .onConflictDoUpdate({
      target: [rateLimitCounters.scope, rateLimitCounters.key, rateLimitCounters.windowStart],
      set: { count: sql`${rateLimitCounters.count} + 1` },
    })
    .returning({ key: rateLimitCounters.key, count: rateLimitCounters.count });
  const limitOf = new Map(keys.map((k) => [k.key, k.max]));
  return rows.some((r) => r.count > (limitOf.get(r.key) ?? Infinity));
}

/** Gives one counted call back (it was no failed attempt): the key's count in the window of `now`. */
export async function refundRateLimit(exec: Exec, scope: string, key: string, windowS: number, now: Date): Promise<void> {
  const windowMs = windowS * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  await exec
    .update(rateLimitCounters)
    .set({ count: sql`greatest(${rateLimitCounters.count} - 1, 0)` })
    .where(and(eq(rateLimitCounters.scope, scope), eq(rateLimitCounters.key, key), eq(rateLimitCounters.windowStart, windowStart)));
}

/** Drops counters of windows that ended long ago (called now and then). */
export async function pruneRateLimits(exec: Exec, before: Date): Promise<void> {
  await exec.delete(rateLimitCounters).where(lt(rateLimitCounters.windowStart, before));
}
