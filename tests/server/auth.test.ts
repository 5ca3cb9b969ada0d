/** The token service (document 1 §3, §5, §7) over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { eq } from 'drizzle-orm';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { refreshTokens, tokenFamilies } from '../../server/db/schema.ts';
import { callMethod, createTestApp, pkcePair, postJson, signIn, testDriver, totpCode, type TestApp } from './harness.ts';
import { FAMILY_CHECK_TTL_MS } from '../../server/modules/auth/tokens.service.ts';

const anna = demoUserByKey.anna;
const boris = demoUserByKey.boris;
let t: TestApp;
/** The app's clock: tests move it forward to expire codes and tokens. */
let clockMs = Date.now();
let addressCounter = 0;
/** Every test signs in from its own address so that per-address limits do not leak between tests. */
const freshAddress = () => `10.0.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

beforeAll(async () => {
  t = await createTestApp({ now: () => clockMs });
});
afterAll(async () => {
  await t?.close();
});

async function startOtp(user: { email: string; password: string } = anna, remoteAddress = freshAddress()) {
  const pkce = pkcePair();
  const login = await postJson(t.app, '/auth/login', { client: 'spa', username: user.email, password: user.password, codeChallenge: pkce.challenge }, { remoteAddress });
  expect(login.statusCode).toBe(200);
  const body = login.json() as { authFlow: string; code: string };
  expect(body.authFlow).toBe('otp');
  return { ...pkce, code: body.code, remoteAddress };
}

describe('POST /auth/login', () => {
  it('gives tokens at once in the simple flow (2FA off), with the access-token claims', async () => {
    const { challenge } = pkcePair();
    const res = await postJson(t.app, '/auth/login', { client: 'spa', username: boris.email, password: boris.password, codeChallenge: challenge }, { remoteAddress: freshAddress() });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.authFlow).toBe('simple');
    const claims = decodeJwt(body.accessToken);
    expect(claims.exp! - claims.iat!).toBe(300);
    expect(typeof claims.cid).toBe('number');
    expect(typeof claims.fam).toBe('string');
    expect(claims.sub).toMatch(/^\d+$/);
    expect(body.refreshToken.length).toBeGreaterThanOrEqual(43);
  });

  it('accepts the username in any case', async () => {
    const { challenge } = pkcePair();
    const res = await postJson(t.app, '/auth/login', { client: 'spa', username: 'BORIS@Demo.TEST', password: boris.password, codeChallenge: challenge }, { remoteAddress: freshAddress() });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a username that is not an e-mail, naming the field', async () => {
    const { challenge } = pkcePair();
    const res = await postJson(t.app, '/auth/login', { client: 'spa', username: 'boris', password: 'x', codeChallenge: challenge }, { remoteAddress: freshAddress() });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('username');
  });

  it('refuses a short challenge, a challenge with bad characters, and the plain method', async () => {
    const base = { client: 'spa', username: boris.email, password: boris.password };
    const short = await postJson(t.app, '/auth/login', { ...base, codeChallenge: 'a'.repeat(42) }, { remoteAddress: freshAddress() });
    expect(short.statusCode).toBe(403);
    expect(short.json().message).toContain('codeChallenge');
    const bad = await postJson(t.app, '/auth/login', { ...base, codeChallenge: `${'a'.repeat(50)}+/=` }, { remoteAddress: freshAddress() });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().message).toContain('codeChallenge');
    const plain = await postJson(t.app, '/auth/login', { ...base, codeChallenge: 'a'.repeat(64), codeChallengeMethod: 'plain' }, { remoteAddress: freshAddress() });
    expect(plain.statusCode).toBe(403);
    expect(plain.json().message).toContain('codeChallengeMethod');
    const missing = await postJson(t.app, '/auth/login', base, { remoteAddress: freshAddress() });
    expect(missing.statusCode).toBe(403);
  });

  it('answers the same 403 message for a wrong password and an unknown user', async () => {
    const { challenge } = pkcePair();
    const wrong = await postJson(t.app, '/auth/login', { client: 'spa', username: anna.email, password: 'not-it', codeChallenge: challenge }, { remoteAddress: freshAddress() });
    const unknown = await postJson(t.app, '/auth/login', { client: 'spa', username: 'nobody@demo.test', password: 'not-it', codeChallenge: challenge }, { remoteAddress: freshAddress() });
    expect(wrong.statusCode).toBe(403);
    expect(unknown.statusCode).toBe(403);
    expect(wrong.json().message).toBe(unknown.json().message);
  });
});

describe('POST /auth/token (otp flow)', () => {
  it('exchanges code + verifier + TOTP for tokens; the code is single-use', async () => {
    const { code, verifier, remoteAddress } = await startOtp();
    const res = await postJson(t.app, '/auth/token', { code, codeVerifier: verifier, otp: totpCode(anna.totpSecret, clockMs) }, { remoteAddress });
    expect(res.statusCode).toBe(200);
    const tokens = res.json();
    expect(decodeJwt(tokens.accessToken).exp).toBeGreaterThan(clockMs / 1000);
    const info = await callMethod(t.app, 'getCustomerInfo', {}, { token: tokens.accessToken });
    expect(info.body.responseCode).toBe('00');

    const again = await postJson(t.app, '/auth/token', { code, codeVerifier: verifier, otp: totpCode(anna.totpSecret, clockMs, 1) }, { remoteAddress });
    expect([403, 404]).toContain(again.statusCode);
    expect(again.json().message).toBeTruthy();
  });

  it('refuses a wrong verifier and a verifier with bad characters', async () => {
    const { code, remoteAddress } = await startOtp();
    const other = pkcePair();
    const res = await postJson(t.app, '/auth/token', { code, codeVerifier: other.verifier, otp: totpCode(anna.totpSecret, clockMs) }, { remoteAddress });
    expect(res.statusCode).toBe(403);
    const bad = await postJson(t.app, '/auth/token', { code, codeVerifier: `${'a'.repeat(60)}!`, otp: '123456' }, { remoteAddress });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().message).toContain('codeVerifier');
  });

  it('refuses a wrong TOTP, a TOTP two steps off, and a TOTP step already used', async () => {
    const clerk = demoUserByKey.clerk;
    const first = await startOtp(clerk);
    const wrongCode = totpCode(clerk.totpSecret, clockMs) === '000000' ? '111111' : '000000';
    const wrong = await postJson(t.app, '/auth/token', { code: first.code, codeVerifier: first.verifier, otp: wrongCode }, { remoteAddress: first.remoteAddress });
    expect(wrong.statusCode).toBe(403);
    const drifted = await postJson(t.app, '/auth/token', { code: first.code, codeVerifier: first.verifier, otp: totpCode(clerk.totpSecret, clockMs, 2) }, { remoteAddress: first.remoteAddress });
    expect(drifted.statusCode).toBe(403);
    // One step of drift is accepted...
    const ok = await postJson(t.app, '/auth/token', { code: first.code, codeVerifier: first.verifier, otp: totpCode(clerk.totpSecret, clockMs, -1) }, { remoteAddress: first.remoteAddress });
    expect(ok.statusCode).toBe(200);
    // ...but never the same step twice, even with a new code.
    const second = await startOtp(clerk);
    const reused = await postJson(t.app, '/auth/token', { code: second.code, codeVerifier: second.verifier, otp: totpCode(clerk.totpSecret, clockMs, -1) }, { remoteAddress: second.remoteAddress });
    expect(reused.statusCode).toBe(403);
    expect(reused.json().message).toMatch(/already used/);
    // The code survived the refused step: the next step works with it.
    const next = await postJson(t.app, '/auth/token', { code: second.code, codeVerifier: second.verifier, otp: totpCode(clerk.totpSecret, clockMs, 0) }, { remoteAddress: second.remoteAddress });
    expect(next.statusCode).toBe(200);
  });

  it('lets only one of two concurrent exchanges of one code succeed', async () => {
    const admin = demoUserByKey.admin;
    const { code, verifier, remoteAddress } = await startOtp(admin);
    const [a, b] = await Promise.all([
      postJson(t.app, '/auth/token', { code, codeVerifier: verifier, otp: totpCode(admin.totpSecret, clockMs, 0) }, { remoteAddress }),
      postJson(t.app, '/auth/token', { code, codeVerifier: verifier, otp: totpCode(admin.totpSecret, clockMs, 1) }, { remoteAddress }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 404]);
  });

  it('requires the otp in the otp flow', async () => {
    const { code, verifier, remoteAddress } = await startOtp(demoUserByKey.viewer);
    const res = await postJson(t.app, '/auth/token', { code, codeVerifier: verifier }, { remoteAddress });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('otp');
  });

  it('refuses an unknown code and an expired code (after 300 s)', async () => {
    const unknown = await postJson(t.app, '/auth/token', { code: 'no-such-code', codeVerifier: pkcePair().verifier, otp: '123456' }, { remoteAddress: freshAddress() });
    expect(unknown.statusCode).toBe(404);
    const { code, verifier, remoteAddress } = await startOtp(demoUserByKey.owner);
    clockMs += 301_000;
    try {
      const res = await postJson(t.app, '/auth/token', { code, codeVerifier: verifier, otp: totpCode(demoUserByKey.owner.totpSecret, clockMs) }, { remoteAddress });
      expect(res.statusCode).toBe(404);
    } finally {
      clockMs += 60_000;
    }
  });
});

describe('refresh and logout', () => {
  it('rotates the refresh token; reusing a rotated one revokes the whole family', async () => {
    const first = await signIn(t.app, 'boris', { remoteAddress: freshAddress() });
    const r1 = await postJson(t.app, '/auth/refresh', { refreshToken: first.refreshToken });
    expect(r1.statusCode).toBe(200);
    const second = r1.json();
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect((await callMethod(t.app, 'getCustomerInfo', {}, { token: second.accessToken })).body.responseCode).toBe('00');

    // The old token again: theft signal.
    const reuse = await postJson(t.app, '/auth/refresh', { refreshToken: first.refreshToken });
    expect(reuse.statusCode).toBe(403);
    // Now every token of the family fails: the newest refresh token and the access tokens.
    expect((await postJson(t.app, '/auth/refresh', { refreshToken: second.refreshToken })).statusCode).toBe(403);
    const call = await callMethod(t.app, 'getCustomerInfo', {}, { token: second.accessToken });
    expect(call.status).toBe(401);
    expect(call.body.responseCode).toBe('AU');
    const fam = decodeJwt(second.accessToken).fam as string;
    const [family] = await t.db.select().from(tokenFamilies).where(eq(tokenFamilies.id, fam));
    expect(family?.revokedAt).not.toBeNull();
    const rows = await t.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, fam));
    expect(rows.length).toBe(2);
    expect(rows.every((r) => r.revokedAt !== null)).toBe(true);
  });

  it('of two concurrent refreshes with one token, one wins and the other ends the family', async () => {
    const s = await signIn(t.app, 'boris', { remoteAddress: freshAddress() });
    const [a, b] = await Promise.all([
      postJson(t.app, '/auth/refresh', { refreshToken: s.refreshToken }),
      postJson(t.app, '/auth/refresh', { refreshToken: s.refreshToken }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 403]);
    const winner = (a.statusCode === 200 ? a : b).json();
    expect((await postJson(t.app, '/auth/refresh', { refreshToken: winner.refreshToken })).statusCode).toBe(403);
  });

  it('stores refresh tokens hashed only', async () => {
    const s = await signIn(t.app, 'boris', { remoteAddress: freshAddress() });
    const rows = await t.db.select().from(refreshTokens);
    expect(rows.some((r) => r.tokenHash === s.refreshToken)).toBe(false);
  });

  it('refuses an unknown refresh token', async () => {
    const res = await postJson(t.app, '/auth/refresh', { refreshToken: 'nope' });
    expect([403, 404]).toContain(res.statusCode);
    expect(res.json().message).toBeTruthy();
  });

  it('logout revokes the family: refresh and access tokens stop working', async () => {
    const s = await signIn(t.app, 'boris', { remoteAddress: freshAddress() });
    const out = await postJson(t.app, '/auth/logout', { refreshToken: s.refreshToken });
    expect(out.statusCode).toBe(204);
    expect((await postJson(t.app, '/auth/refresh', { refreshToken: s.refreshToken })).statusCode).toBe(403);
    expect((await callMethod(t.app, 'getCustomerInfo', {}, { token: s.accessToken })).status).toBe(401);
  });

  it.runIf(testDriver === 'pg')('another instance honours a logout within FAMILY_CHECK_TTL_MS', async () => {
    const other = await createTestApp({ now: () => clockMs, shareDatabaseOf: t });
    try {
      const s = await signIn(t.app, 'boris', { remoteAddress: freshAddress() });
      // the other instance has seen the session live and remembers it
      expect((await callMethod(other.app, 'getCustomerInfo', {}, { token: s.accessToken })).body.responseCode).toBe('00');
      expect((await postJson(t.app, '/auth/logout', { refreshToken: s.refreshToken })).statusCode).toBe(204);
      // at once on the instance that logged out; on the other once its last look is older than the TTL
      expect((await callMethod(t.app, 'getCustomerInfo', {}, { token: s.accessToken })).status).toBe(401);
      clockMs += FAMILY_CHECK_TTL_MS;
      expect((await callMethod(other.app, 'getCustomerInfo', {}, { token: s.accessToken })).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('an access token expires after 300 s', async () => {
    const s = await signIn(t.app, 'boris', { remoteAddress: freshAddress() });
    clockMs += 301_000;
    const res = await callMethod(t.app, 'getCustomerInfo', {}, { token: s.accessToken });
    expect(res.status).toBe(401);
    expect(res.body.responseCode).toBe('AU');
    // The refresh token still works and gives a fresh access token.
    const r = await postJson(t.app, '/auth/refresh', { refreshToken: s.refreshToken });
    expect(r.statusCode).toBe(200);
    expect((await callMethod(t.app, 'getCustomerInfo', {}, { token: r.json().accessToken })).body.responseCode).toBe('00');
  });
});

describe('sign-in rate limits (counted in the database)', () => {
  it('answers 429 after 5 failures for one account, even with the right password', async () => {
    const { challenge } = pkcePair();
    const body = { client: 'spa', username: demoUserByKey.admin.email, password: 'wrong', codeChallenge: challenge };
    for (let i = 0; i < 5; i++) {
      expect((await postJson(t.app, '/auth/login', body, { remoteAddress: freshAddress() })).statusCode).toBe(403);
    }
    const limited = await postJson(t.app, '/auth/login', { ...body, password: demoUserByKey.admin.password }, { remoteAddress: freshAddress() });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBeTruthy();
    // After the 15-minute window the account signs in again.
    clockMs += 15 * 60_000 + 1000;
    const after = await postJson(t.app, '/auth/login', { ...body, password: demoUserByKey.admin.password }, { remoteAddress: freshAddress() });
    expect(after.statusCode).toBe(200);
  });

  it('answers 429 after 20 failures from one address, for any account', async () => {
    const address = '192.0.2.77';
    const { challenge } = pkcePair();
    for (let i = 0; i < 20; i++) {
      const res = await postJson(t.app, '/auth/login', { client: 'spa', username: `user${i}@nowhere.test`, password: 'x', codeChallenge: challenge }, { remoteAddress: address });
      expect(res.statusCode).toBe(403);
    }
    const limited = await postJson(t.app, '/auth/login', { client: 'spa', username: boris.email, password: boris.password, codeChallenge: challenge }, { remoteAddress: address });
    expect(limited.statusCode).toBe(429);
    const elsewhere = await postJson(t.app, '/auth/login', { client: 'spa', username: boris.email, password: boris.password, codeChallenge: challenge }, { remoteAddress: freshAddress() });
    expect(elsewhere.statusCode).toBe(200);
  });
});
