/**
 * Sign-in throttling (OWASP "Slow Down Online Guessing Attacks with Device Cookies").
 *
 * - A browser that signed in to an account before holds that account's device cookie (HttpOnly,
 *   SameSite=Strict, HMAC-signed with a server key, bound to the user). Its attempts count against
 *   its own allowance only: guesses from anywhere else never slow the owner's known browser down.
 * - Every other client is untrusted: its attempts count against the account's untrusted allowance
 *   and against its address's. When either is used up, untrusted clients wait, with a delay that
 *   doubles with each further attempt (answered 429 with the wait), instead of a hard lock. A known
 *   browser is never slowed down by the account's or its address's untrusted counts.
 * - An attempt is counted BEFORE the password or the second step is verified, in one statement
 *   under the row lock (insert ... on conflict do update ... where next_attempt_at <= now), so
 *   parallel guesses cannot all pass a check made before any of them was counted. A right answer
 *   gives its attempt back; a whole sign-in starts the device's count again.
 * Limits live in the database, so several instances share them.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/types.ts';
import { signInThrottles } from './auth.tables.ts';

export interface SignInLimits {
  /** attempts untrusted clients may make on one account before the delays start */
  perAccount: number;
  /** attempts a browser holding the account's device cookie may make before its own delays start */
  perDevice: number;
  /** attempts untrusted clients of one address may make (on any accounts) before the delays start */
  perAddress: number;
  /**
   * a key's count starts again this long after its first attempt; a key being slowed down only
   * once it was quiet this long after its last wait
   */
  windowMs: number;
  /** the wait once an allowance is used up; it doubles with every further attempt */
  firstDelayMs: number;
  /** the longest wait */
  maxDelayMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perAccount: 5,
  perDevice: 5,
  perAddress: 20,
  windowMs: 15 * 60 * 1000,
  firstDelayMs: 30 * 1000,
  maxDelayMs: 15 * 60 * 1000,
};

/** A device cookie lives half a year; each sign-in from the browser renews it. */
export const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 60 * 60;
/** Sent only to the token service's paths (sign-in and code exchange read it). */
export const DEVICE_COOKIE_PATH = '/auth';
const DEVICE_COOKIE_PREFIX = 'device_';
const NONCE_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export interface ThrottleKey {
  key: string;
  allowance: number;
}

export type Claim = { ok: true; keys: ThrottleKey[] } | { ok: false; retryAfterMs: number };

/** The device cookie's name for a user: one per account, so a shared browser keeps each. */
export const deviceCookieName = (userId: number) => `${DEVICE_COOKIE_PREFIX}${userId}`;

export function createSignInThrottle({ db, now, limits, cookieKey }: { db: Db; now: () => number; limits: SignInLimits; cookieKey: Uint8Array }) {
  const iso = (ms: number) => new Date(ms).toISOString();
  const sign = (userId: number, nonce: string) => createHmac('sha256', cookieKey).update(`device-cookie.v1.${userId}.${nonce}`).digest();

  /** The wait after the n-th counted attempt of a key with this allowance (0 while within it). */
  const delayAfterMs = (n: number, allowance: number) =>
    n < allowance ? 0 : Math.min(limits.maxDelayMs, limits.firstDelayMs * 2 ** Math.min(n - allowance, 40));

  /** Counts one attempt on a key unless it must wait; one statement, serialised by the row lock. */
  async function claimOne(exec: Db | Tx, { key, allowance }: ThrottleKey): Promise<{ ok: true } | { ok: false; retryAfterMs: number }> {
    const nowMs = now();
    const T = signInThrottles;
    const windowStart = sql`${iso(nowMs - limits.windowMs)}::timestamptz`;
    // The count starts again once its window is over, or, for a key being slowed down, once it was
    // quiet for a window after its last wait (else waiting out each delay would earn a new allowance).
    // Right answers give their attempts back but do not keep a window open.
    const fresh = sql`((${T.attempts} < ${allowance}::int and ${T.windowStartedAt} <= ${windowStart}) or ${T.nextAttemptAt} <= ${windowStart})`;
    const counted = sql`(case when ${fresh} then 1 else ${T.attempts} + 1 end)`;
    const rows = await exec
      .insert(T)
      .values({ key, attempts: 1, windowStartedAt: new Date(nowMs), lastAttemptAt: new Date(nowMs), nextAttemptAt: new Date(nowMs + delayAfterMs(1, allowance)) })
      .onConflictDoUpdate({
        target: T.key,
        set: {
          attempts: counted,
          windowStartedAt: sql`case when ${fresh} then ${iso(nowMs)}::timestamptz else ${T.windowStartedAt} end`,
          lastAttemptAt: new Date(nowMs),
          nextAttemptAt: sql`${iso(nowMs)}::timestamptz + (case when ${counted} < ${allowance}::int then 0
            else least(${limits.maxDelayMs}::float8, ${limits.firstDelayMs}::float8 * power(2, least(${counted} - ${allowance}::int, 40))) end) * interval '1 millisecond'`,
        },
        // A key that must still wait is neither counted nor verified (within the allowance nothing waits).
        setWhere: sql`(${T.attempts} < ${allowance}::int or ${T.nextAttemptAt} <= ${iso(nowMs)}::timestamptz)`,
      })
      .returning({ attempts: T.attempts });
    if (rows.length > 0) return { ok: true };
    const [row] = await exec.select({ nextAttemptAt: T.nextAttemptAt }).from(T).where(eq(T.key, key));
    return { ok: false, retryAfterMs: Math.max(1000, (row?.nextAttemptAt.getTime() ?? nowMs) - nowMs) };
  }

  /** Gives one counted attempt back (it was not a wrong guess); the wait ends once within the allowance. */
  async function refundOne(exec: Db | Tx, { key, allowance }: ThrottleKey): Promise<void> {
    const T = signInThrottles;
    await exec
      .update(T)
      .set({
        attempts: sql`greatest(${T.attempts} - 1, 0)`,
        nextAttemptAt: sql`case when ${T.attempts} - 1 < ${allowance}::int then least(${T.nextAttemptAt}, ${iso(now())}::timestamptz) else ${T.nextAttemptAt} end`,
      })
      .where(eq(T.key, key));
  }

  return {
    /**
     * The keys an attempt counts against: the device's own when the request carries this user's
     * valid device cookie, else the account's and the address's untrusted allowances.
     */
    keysFor(input: { username: string; address: string; device: string | null }): ThrottleKey[] {
      if (input.device) return [{ key: `device:${input.device}`, allowance: limits.perDevice }];
      return [
        { key: `address:${input.address}`, allowance: limits.perAddress },
        { key: `account:${input.username}`, allowance: limits.perAccount },
      ];
    },

    /** Counts an attempt on every key, or on none when one of them must wait (then says how long). */
    async claim(keys: ThrottleKey[]): Promise<Claim> {
      const claimed: ThrottleKey[] = [];
      for (const key of keys) {
        const outcome = await claimOne(db, key);
        if (!outcome.ok) {
          for (const done of claimed) await refundOne(db, done);
          return outcome;
        }
        claimed.push(key);
      }
      return { ok: true, keys: claimed };
    },

    /** The attempt was not a wrong guess (a right password, a pending approval): its count is given back. */
    async refund(keys: ThrottleKey[], exec: Db | Tx = db): Promise<void> {
      for (const key of keys) await refundOne(exec, key);
    },

    /** A whole sign-in succeeded (both steps): the device's count starts again. */
    async resetDevice(exec: Db | Tx, keys: ThrottleKey[]): Promise<void> {
      for (const key of keys) {
        if (key.key.startsWith('device:')) await exec.delete(signInThrottles).where(eq(signInThrottles.key, key.key));
      }
    },

    /** The device id of a valid device cookie of this user among the request's cookies, or null. */
    deviceOf(cookies: Record<string, string>, userId: number): string | null {
      const value = cookies[deviceCookieName(userId)];
      if (!value) return null;
      const [nonce, signature, ...rest] = value.split('.');
      if (rest.length > 0 || !nonce || !signature || !NONCE_PATTERN.test(nonce)) return null;
      // Compared as the canonical text: base64url decoding ignores a last character's spare bits, so
      // a decoded comparison accepted a few altered spellings of the same signature.
      const expected = Buffer.from(sign(userId, nonce).toString('base64url'));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected) ? nonce : null;
    },

    /** The device cookie's value for this user: the same device when it had one, else a new one. */
    deviceCookieValue(userId: number, device: string | null): string {
      const nonce = device ?? randomBytes(16).toString('base64url');
      return `${nonce}.${sign(userId, nonce).toString('base64url')}`;
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;

/** The request's cookies (RFC 6265 Cookie header); later duplicates do not replace earlier ones. */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const eqAt = part.indexOf('=');
    if (eqAt <= 0) continue;
    const name = part.slice(0, eqAt).trim();
    if (name.startsWith(DEVICE_COOKIE_PREFIX) && !(name in out)) out[name] = part.slice(eqAt + 1).trim();
  }
  return out;
}

/** The Set-Cookie header of a device cookie (Secure whenever the browser came over https or in production). */
export function deviceCookieHeader(name: string, value: string, secure: boolean): string {
  return `${name}=${value}; Path=${DEVICE_COOKIE_PATH}; Max-Age=${DEVICE_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}
