/**
 * Sign-in throttling (server/modules/auth/sign-in-throttle.ts) and the session's idle expiry, over
 * HTTP: attempts are counted before they are verified (40 parallel guesses verify at most the
 * allowance), a browser that signed in before keeps its own allowance through its device cookie,
 * untrusted clients wait with delays that grow, and a refresh after 15 minutes idle ends the session.
 * The 40 parallel guesses matter on PostgreSQL (server-pg); on PGlite (one connection) they run too.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeJwt } from 'jose';
import { eq } from 'drizzle-orm';
import { authPaths, SESSION_IDLE_S } from '../../api/auth.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { refreshTokens, signInThrottles, tokenFamilies, users } from '../../server/db/schema.ts';
import { DEFAULT_SIGN_IN_LIMITS } from '../../server/modules/auth/sign-in-throttle.ts';
import { AuthMessages } from '../../server/modules/auth/tokens.service.ts';
import { callMethod, createTestApp, pkcePair, postJson, sameOnEitherDriver, totpCode, type TestApp } from './harness.ts';

/** How many passwords and one-time passwords the platform really verified (argon2 / TOTP). */
const verified = vi.hoisted(() => ({ passwords: 0, totps: 0 }));
vi.mock('../../server/modules/auth/crypto.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../server/modules/auth/crypto.ts')>();
  return {
    ...real,
    verifyPassword: (hash: string, password: string) => {
      verified.passwords++;
      return real.verifyPassword(hash, password);
    },
  };
});
vi.mock('../../server/modules/auth/totp.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../server/modules/auth/totp.ts')>();
  return {
    ...real,
    matchTotpStep: (secret: string, code: string, timeMs: number) => {
      verified.totps++;
      return real.matchTotpStep(secret, code, timeMs);
    },
  };
});

let t: TestApp;
let clockMs = Date.now();
let addressCounter = 0;
const freshAddress = () => `10.7.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;
const limits = DEFAULT_SIGN_IN_LIMITS;

beforeAll(async () => {
  t = await createTestApp({ now: () => clockMs });
});
afterAll(async () => {
  await t?.close();
});

interface Who {
  email: string;
  password: string;
}

function login(who: Who, password: string, options: { address?: string; cookie?: string } = {}) {
  return postJson(
    t.app,
    authPaths.login,
    { client: 'spa', username: who.email, password, codeChallenge: pkcePair().challenge },
    { remoteAddress: options.address ?? freshAddress(), headers: options.cookie ? { cookie: options.cookie } : {} },
  );
}

/** Signs in with the right password and returns the device cookie the browser was given. */
async function deviceCookieOf(who: Who): Promise<string> {
  const res = await login(who, who.password);
  expect(res.statusCode, res.body).toBe(200);
  const header = res.headers['set-cookie'];
  const cookie = String(Array.isArray(header) ? header[0] : header);
  expect(cookie).toMatch(/^device_\d+=[^;]+; Path=\/auth; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
  return cookie.split(';')[0]!;
}

async function userIdOf(email: string): Promise<number> {
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

/** Lets every delay and window run out, so tests do not inherit each other's counts. */
const quiet = () => {
  clockMs += limits.windowMs + limits.maxDelayMs + 1000;
};

describe('attempts are counted before they are verified', () => {
  it('of 40 parallel guesses on one account only the allowance is verified; the right password at position 12 is refused', async () => {
    quiet();
    const who = demoUserByKey.tom;
    const before = verified.passwords;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(who, i === 11 ? who.password : `wrong-${i}`)),
    );
    const passwordsVerified = verified.passwords - before;
    const statuses = answers.map((a) => a.statusCode);
    const wrongVerified = answers.filter((a) => a.statusCode === 403 && a.json().message === AuthMessages.badCredentials).length;
    const signedIn = statuses.filter((s) => s === 200).length;
    const throttled = answers.filter((a) => a.statusCode === 429);
    // At most the allowance of wrong passwords was verified, and the right one at most once (its
    // success gives its attempt back).
    expect(passwordsVerified).toBeLessThanOrEqual(limits.perAccount + signedIn);
    expect(passwordsVerified).toBe(wrongVerified + signedIn);
    expect(wrongVerified).toBeLessThanOrEqual(limits.perAccount);
    expect(signedIn).toBeLessThanOrEqual(1);
    expect(wrongVerified + signedIn + throttled.length).toBe(40);
    expect(throttled.length).toBeGreaterThanOrEqual(40 - limits.perAccount - 1);
    for (const refused of throttled) {
      expect(refused.json()).toEqual({ message: AuthMessages.rateLimited, retryAfterS: expect.any(Number) });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Once the allowance is used, the right password is refused too (not verified).
    if (signedIn === 0) {
      expect(statuses[11]).toBe(429);
      expect((await login(who, who.password)).statusCode).toBe(429);
    }
    const [row] = await t.db.select().from(signInThrottles).where(eq(signInThrottles.key, `account:${who.email}`));
    expect(row!.attempts).toBeLessThanOrEqual(limits.perAccount);
  });

  it('of 40 parallel one-time passwords on one login code at most the allowance is verified', async () => {
    quiet();
    const anna = demoUserByKey.anna;
    const address = freshAddress();
    const pkce = pkcePair();
    const started = await postJson(t.app, authPaths.login, { client: 'spa', username: anna.email, password: anna.password, codeChallenge: pkce.challenge }, { remoteAddress: address });
    expect(started.statusCode).toBe(200);
    const code = started.json().code as string;
    const right = totpCode(anna.totpSecret!, clockMs);
    const wrong = (i: number) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0');
    const before = verified.totps;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => postJson(t.app, authPaths.token, { code, codeVerifier: pkce.verifier, otp: i === 11 ? right : wrong(i) }, { remoteAddress: address })),
    );
    const totpsVerified = verified.totps - before;
    expect(totpsVerified).toBeLessThanOrEqual(limits.perAccount);
    const wrongVerified = answers.filter((a) => a.statusCode === 403 && a.json().message === AuthMessages.wrongOtp).length;
    const signedIn = answers.filter((a) => a.statusCode === 200).length;
    expect(wrongVerified).toBeLessThanOrEqual(limits.perAccount);
    expect(signedIn).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.statusCode === 429 || a.statusCode === 404).length).toBeGreaterThanOrEqual(40 - limits.perAccount - 1);
  });
});

// on PostgreSQL for the parallel guesses above only: the rest is the same statements in turn
describe.runIf(sameOnEitherDriver)('device cookies: the owner is never locked out by guesses from elsewhere', () => {
  it('the owner\'s known browser signs in after 50 failures from elsewhere; an attacker without the cookie waits', async () => {
    quiet();
    const who = demoUserByKey.rita;
    const cookie = await deviceCookieOf(who);
    for (let i = 0; i < 50; i++) {
      const guess = await login(who, `guess-${i}`);
      expect([403, 429]).toContain(guess.statusCode);
    }
    // The attacker, even with the right password, from anywhere without the cookie: wait.
    const attacker = await login(who, who.password);
    expect(attacker.statusCode).toBe(429);
    expect(attacker.json().retryAfterS).toBeGreaterThan(0);
    // Another account's cookie (or a forged one) is no key to this account.
    const [name, value] = cookie.split('=') as [string, string];
    const borisId = await userIdOf(demoUserByKey.boris.email);
    expect((await login(who, who.password, { cookie: `device_${borisId}=${value}` })).statusCode).toBe(429);
    // the signature altered in its first character (always a different signature) and in its last
    // one's spare bits (the same bytes once decoded, a different text: refused as well)
    const at = value.indexOf('.') + 1;
    const firstAltered = `${value.slice(0, at)}${value[at] === 'A' ? 'B' : 'A'}${value.slice(at + 1)}`;
    expect((await login(who, who.password, { cookie: `${name}=${firstAltered}` })).statusCode).toBe(429);
    const last = value.at(-1) as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sameBits = alphabet[alphabet.indexOf(last) ^ 1] as string;
    expect((await login(who, who.password, { cookie: `${name}=${value.slice(0, -1)}${sameBits}` })).statusCode).toBe(429);
    // The owner's browser: signed in at once, and its cookie renewed.
    const owner = await login(who, who.password, { cookie });
    expect(owner.statusCode, owner.body).toBe(200);
    expect(String(owner.headers['set-cookie'])).toContain(`${cookie};`);
  });

  it('a known browser\'s own failures count against its own allowance, not the account\'s', async () => {
    quiet();
    const who = demoUserByKey.boris;
    const cookie = await deviceCookieOf(who);
    for (let i = 0; i < limits.perDevice; i++) expect((await login(who, `mine-${i}`, { cookie })).statusCode).toBe(403);
    expect((await login(who, who.password, { cookie })).statusCode).toBe(429);
    // Nobody else is slowed down by that browser.
    expect((await login(who, who.password)).statusCode).toBe(200);
  });

  it('the per-address limit slows untrusted clients of the address with growing delays, never a known browser', async () => {
    quiet();
    const address = '192.0.2.90';
    const cookie = await deviceCookieOf(demoUserByKey.boris);
    for (let i = 0; i < limits.perAddress; i++) {
      expect((await login({ email: `nobody${i}@nowhere.test`, password: 'x' }, 'x', { address })).statusCode).toBe(403);
    }
    const first = await login(demoUserByKey.tom, demoUserByKey.tom.password, { address });
    expect(first.statusCode).toBe(429);
    expect(first.json().retryAfterS).toBe(limits.firstDelayMs / 1000);
    // The known browser behind the same address is not slowed down.
    expect((await login(demoUserByKey.boris, demoUserByKey.boris.password, { address, cookie })).statusCode).toBe(200);
    // Once the wait is over one more attempt is taken; the next waits twice as long.
    clockMs += limits.firstDelayMs;
    expect((await login({ email: 'nobody@nowhere.test', password: 'x' }, 'x', { address })).statusCode).toBe(403);
    const second = await login(demoUserByKey.tom, demoUserByKey.tom.password, { address });
    expect(second.statusCode).toBe(429);
    expect(second.json().retryAfterS).toBe((2 * limits.firstDelayMs) / 1000);
  });

  it('failures of a busy address expire with their window even while others sign in from it', async () => {
    quiet();
    const address = '192.0.2.91';
    for (let i = 0; i < limits.perAddress - 1; i++) {
      expect((await login({ email: `typo${i}@nowhere.test`, password: 'x' }, 'x', { address })).statusCode).toBe(403);
    }
    // Customers keep signing in from the address (a shared network) for longer than the window.
    for (let minute = 0; minute <= limits.windowMs / 60_000; minute++) {
      clockMs += 60_000;
      expect((await login(demoUserByKey.rita, demoUserByKey.rita.password, { address })).statusCode).toBe(200);
    }
    // The old failures are gone: a few new typos are not slowed down.
    for (let i = 0; i < 5; i++) {
      expect((await login({ email: `later${i}@nowhere.test`, password: 'x' }, 'x', { address })).statusCode).toBe(403);
    }
  });

  it('untrusted clients of an account wait longer with each further failure, and sign in once the wait is over', async () => {
    quiet();
    const who = demoUserByKey.tom;
    for (let i = 0; i < limits.perAccount; i++) expect((await login(who, `wrong-${i}`)).statusCode).toBe(403);
    const waits: number[] = [];
    for (let round = 0; round < 3; round++) {
      const refused = await login(who, who.password);
      expect(refused.statusCode).toBe(429);
      waits.push(refused.json().retryAfterS as number);
      clockMs += waits.at(-1)! * 1000;
      expect((await login(who, `late-${round}`)).statusCode).toBe(403);
    }
    expect(waits).toEqual([30, 60, 120]);
    const wait = (await login(who, who.password)).json().retryAfterS as number;
    expect(wait).toBe(240);
    clockMs += wait * 1000;
    expect((await login(who, who.password)).statusCode).toBe(200);
  });
});

describe.runIf(sameOnEitherDriver)('session idle expiry (document 1 §4: 15 minutes)', () => {
  async function signInBoris() {
    const res = await login(demoUserByKey.boris, demoUserByKey.boris.password);
    expect(res.statusCode).toBe(200);
    return res.json() as { accessToken: string; refreshToken: string };
  }

  it('a refresh within the idle time works and counts as activity', async () => {
    quiet();
    let tokens = await signInBoris();
    for (let i = 0; i < 3; i++) {
      clockMs += SESSION_IDLE_S * 1000 - 1000;
      const res = await postJson(t.app, authPaths.refresh, { refreshToken: tokens.refreshToken });
      expect(res.statusCode, res.body).toBe(200);
      tokens = res.json();
    }
  });

  it('a refresh after more than the idle time is refused and ends the session family', async () => {
    quiet();
    const first = await signInBoris();
    const refreshed = await postJson(t.app, authPaths.refresh, { refreshToken: first.refreshToken });
    expect(refreshed.statusCode).toBe(200);
    const tokens = refreshed.json() as { accessToken: string; refreshToken: string };
    clockMs += SESSION_IDLE_S * 1000 + 1000;
    const idle = await postJson(t.app, authPaths.refresh, { refreshToken: tokens.refreshToken });
    expect(idle.statusCode).toBe(403);
    expect(idle.json().message).toBe(AuthMessages.sessionIdle);
    const family = decodeJwt(tokens.accessToken).fam as string;
    const [row] = await t.db.select().from(tokenFamilies).where(eq(tokenFamilies.id, family));
    expect(row).toMatchObject({ revokeReason: 'idle', revokedAt: expect.any(Date) });
    const familyTokens = await t.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, family));
    expect(familyTokens.every((r) => r.revokedAt !== null)).toBe(true);
    // Nothing of the family works any more.
    expect((await postJson(t.app, authPaths.refresh, { refreshToken: tokens.refreshToken })).statusCode).toBe(403);
    const call = await callMethod(t.app, 'getCustomerInfo', {}, { token: tokens.accessToken });
    expect(call.status).toBe(401);
    expect(call.body.responseCode).toBe('AU');
  });
});
