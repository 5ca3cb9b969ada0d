/**
 * Every sign-in flow of the token service (document 1 §3; api/auth.ts LoginResponseSchema) on the
 * real app: simple, direct, otp, sms, push, verifyDevice, recovery codes, the push migration and
 * the restricted sessions it and recovery codes produce, limits, login history and the privacy
 * check. Users other than the demo ones are created per test so their limits never meet.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { and, desc, eq } from 'drizzle-orm';
import { APPROVAL_TTL_S, authPaths, LOGIN_CODE_TTL_S, SECOND_STEP_TTL_S } from '../../api/auth.ts';
import { ResponseCode } from '../../api/envelope.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { SEED_TERMS } from '../../server/db/seed.ts';
import { approvalRequests, devices, ipPrivacyRanges, loginCodes, loginHistory, recoveryCodes, signInThrottles } from '../../server/modules/auth/auth.tables.ts';
import { customers, phones, termsAcceptances, users } from '../../server/modules/customers/customers.tables.ts';
import { outbox } from '../../server/modules/platform/platform.tables.ts';
import { recoveryCodeHash, sha256Hex } from '../../server/modules/auth/crypto.ts';
import { signHs256 } from '../../server/modules/auth/jwt.ts';
import { AuthMessages, RestrictionMessages } from '../../server/modules/auth/tokens.service.ts';
import { callMethod, createTestApp, pkcePair, postJson, totpCode, type TestApp } from './harness.ts';

const JWT_SECRET = 'sign-in-flows-test-secret-of-enough-length';
const DAY_MS = 24 * 60 * 60 * 1000;
let t: TestApp;
/** The app's clock: tests move it forward to expire codes and approvals. */
let clockMs = Date.now();
let counter = 0;
/** Every test signs in from its own address so that per-address limits do not leak between tests. */
const freshAddress = () => `10.9.${Math.floor(++counter / 250)}.${counter % 250}`;
/** A method no restricted session may call. */
const UNRESTRICTED_METHOD = 'userAccessList';
/** A method a restricted session may call. */
const ALLOWED_METHOD = 'getCustomerInfo';

beforeAll(async () => {
  t = await createTestApp({ now: () => clockMs, jwtSecret: JWT_SECRET });
});
afterAll(async () => {
  await t?.close();
});

interface NewUser {
  id: number;
  email: string;
  password: string;
  customerId: number;
  totpSecret: string | null;
}

/** A fresh verified personal user with the demo password, accepted terms and the given settings. */
async function createUser(values: Partial<typeof users.$inferInsert> = {}): Promise<NewUser> {
  const [boris] = await t.db.select().from(users).where(eq(users.email, demoUserByKey.boris.email));
  const [customer] = await t.db
    .insert(customers)
    .values({ customerType: 'personal', firstName: 'Test', lastName: `User${++counter}`, verified: true })
    .returning({ id: customers.id });
  await t.db.insert(termsAcceptances).values(SEED_TERMS.map((term) => ({ customerId: customer!.id, termId: term.termId, version: term.version })));
  const email = `flow${counter}-${randomBytes(3).toString('hex')}@demo.test`;
  const [user] = await t.db
    .insert(users)
    .values({ email, passwordHash: boris!.passwordHash, login2faMode: 'otp', userType: 1, customerId: customer!.id, ...values })
    .returning();
  return { id: user!.id, email, password: demoUserByKey.boris.password, customerId: customer!.id, totpSecret: user!.totpSecret };
}

/** An approved linked device of the user (what finishing linking leaves behind) and its secret. */
async function linkDevice(userId: number, name = 'Phone', approveMethodIds = [1, 2]): Promise<{ id: number; secret: string }> {
  const secret = randomBytes(32).toString('base64url');
  const [device] = await t.db
    .insert(devices)
    .values({ userId, status: 'approved', type: 'android', name, secretHash: sha256Hex(secret), approveMethodIds, createdAt: new Date(clockMs) })
    .returning({ id: devices.id });
  return { id: device!.id, secret };
}

async function addRecoveryCodes(userId: number, codes: string[]): Promise<void> {
  await t.db.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: recoveryCodeHash(code) })));
}

interface LoginAnswer {
  authFlow: string;
  code: string;
  accessToken?: string;
  refreshToken?: string;
  phone?: string;
  identifier?: string;
  temporaryToken?: string;
  deviceList?: { id: number; type: string; name: string }[];
  qrLink?: string;
  expiresInS?: number;
  migration?: { requirement: string; daysLeft?: number; strategy: string };
}

async function login(user: { email: string; password: string }, extra: Record<string, unknown> = {}, remoteAddress = freshAddress()) {
  const pkce = pkcePair();
  const res = await postJson(
    t.app,
    authPaths.login,
    { client: 'spa', username: user.email, password: user.password, codeChallenge: pkce.challenge, ...extra },
    { remoteAddress, headers: { 'user-agent': 'FlowTest/1.0' } },
  );
  return { res, body: res.json() as LoginAnswer, verifier: pkce.verifier, remoteAddress };
}

async function startLogin(user: { email: string; password: string }, extra: Record<string, unknown> = {}) {
  const started = await login(user, extra);
  expect(started.res.statusCode, started.res.body).toBe(200);
  return started;
}

function exchange(started: { body: LoginAnswer; verifier: string; remoteAddress: string }, extra: Record<string, unknown> = {}) {
  return postJson(
    t.app,
    authPaths.token,
    { code: started.body.code, codeVerifier: started.verifier, ...extra },
    { remoteAddress: started.remoteAddress, headers: { 'user-agent': 'FlowTest/1.0' } },
  );
}

/** The last SMS queued to a number, and the 6-digit code in it. */
async function lastSms(to: string): Promise<{ body: string; code: string }> {
  const [row] = await t.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.channel, 'sms'), eq(outbox.recipient, to)))
    .orderBy(desc(outbox.id))
    .limit(1);
  expect(row).toBeDefined();
  const code = /code is (\d{6})/.exec(row!.body)?.[1];
  expect(code).toBeDefined();
  return { body: row!.body, code: code! };
}

/** A device token from the device secret (POST /auth/token { secret }). */
async function deviceToken(secret: string): Promise<string> {
  const res = await postJson(t.app, authPaths.token, { secret });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { accessToken: string }).accessToken;
}

/** The linked device answers the approval request the QR link names. */
async function answerApproval(secret: string, qrLink: string, result: boolean) {
  const key = decodeURIComponent(qrLink.split('#approve=')[1] ?? '');
  const res = await t.app.inject({
    method: 'PUT',
    url: authPaths.loginConfirm(key),
    payload: { result },
    headers: { authorization: `Bearer ${await deviceToken(secret)}`, 'content-type': 'application/json' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { result: boolean };
}

async function historyOf(userId: number) {
  return t.db.select().from(loginHistory).where(eq(loginHistory.userId, userId)).orderBy(loginHistory.id);
}

const claimsOf = (accessToken: string) => decodeJwt(accessToken) as { typ?: string; rst?: string; sub: string };

describe('simple flow', () => {
  it('issues user tokens at once and records the success', async () => {
    const user = await createUser({ login2faMode: 'no' });
    const { body, remoteAddress } = await startLogin(user);
    expect(body.authFlow).toBe('simple');
    expect(body.migration).toBeUndefined();
    const claims = claimsOf(body.accessToken!);
    expect(claims.typ).toBe('user');
    expect(claims.rst).toBeUndefined();
    expect((await callMethod(t.app, UNRESTRICTED_METHOD, {}, { token: body.accessToken! })).body.responseCode).toBe(ResponseCode.success);
    const history = await historyOf(user.id);
    expect(history).toEqual([expect.objectContaining({ authFlow: 'simple', result: 'success', ip: remoteAddress, userAgent: 'FlowTest/1.0' })]);
  });

  it('records a wrong password of a known user as a failure, and nothing for unknown e-mails', async () => {
    const user = await createUser({ login2faMode: 'no' });
    const wrong = await login({ email: user.email, password: 'not-the-password' });
    expect(wrong.res.statusCode).toBe(403);
    expect(await historyOf(user.id)).toEqual([expect.objectContaining({ authFlow: 'simple', result: 'failure' })]);
  });

  it('keeps at most 256 characters of the user agent', async () => {
    const user = await createUser({ login2faMode: 'no' });
    const res = await postJson(
      t.app,
      authPaths.login,
      { client: 'spa', username: user.email, password: user.password, codeChallenge: pkcePair().challenge },
      { remoteAddress: freshAddress(), headers: { 'user-agent': 'x'.repeat(1000) } },
    );
    expect(res.statusCode).toBe(200);
    const [row] = await historyOf(user.id);
    expect(row!.userAgent.length).toBe(256);
  });
});

describe('accounts not yet activated', () => {
  it('says so only after the right password, without counting a failure', async () => {
    const user = await createUser({ login2faMode: 'no', activated: false });
    const address = freshAddress();
    const wrong = await login({ email: user.email, password: 'not-the-password' }, {}, address);
    expect(wrong.res.statusCode).toBe(403);
    expect(wrong.body).toEqual({ message: AuthMessages.badCredentials });
    const right = await login(user, {}, address);
    expect(right.res.statusCode).toBe(403);
    expect(right.body).toEqual({ message: AuthMessages.notActivated });
    // Only the wrong password counted.
    const [counted] = await t.db.select().from(signInThrottles).where(eq(signInThrottles.key, `account:${user.email}`));
    expect(counted?.attempts).toBe(1);
  });
});

describe('privacy check', () => {
  it('refuses sign-in from a flagged address before the password is checked', async () => {
    const user = await createUser({ login2faMode: 'no' });
    const [range] = await t.db.insert(ipPrivacyRanges).values({ cidr: '127.0.0.1/32', vpn: true, note: 'test' }).returning();
    try {
      for (const password of [user.password, 'not-the-password']) {
        const refused = await login({ email: user.email, password }, {}, '127.0.0.1');
        expect(refused.res.statusCode).toBe(403);
        expect(refused.body).toEqual({ message: AuthMessages.privacyRefused });
      }
      // A flagged address is not a guess: nothing counts against the limits.
      expect((await t.db.select().from(signInThrottles).where(eq(signInThrottles.key, `account:${user.email}`))).length).toBe(0);
      expect((await historyOf(user.id)).map((h) => h.result)).toEqual(['failure', 'failure']);
      // service alone passes the check.
      await t.db.update(ipPrivacyRanges).set({ vpn: false, service: true }).where(eq(ipPrivacyRanges.id, range!.id));
      expect((await login(user, {}, '127.0.0.1')).res.statusCode).toBe(200);
    } finally {
      await t.db.delete(ipPrivacyRanges).where(eq(ipPrivacyRanges.id, range!.id));
    }
  });
});

describe('otp flow', () => {
  it('works with the authenticator code and records the country-less loopback sign-in', async () => {
    const user = await createUser({ totpSecret: demoUserByKey.anna.totpSecret });
    const started = await startLogin(user);
    expect(started.body).toEqual({ authFlow: 'otp', code: expect.any(String) });
    const res = await exchange(started, { otp: totpCode(user.totpSecret!, clockMs) });
    expect(res.statusCode, res.body).toBe(200);
    expect(claimsOf(res.json().accessToken).rst).toBeUndefined();
    expect((await historyOf(user.id)).at(-1)).toMatchObject({ authFlow: 'otp', result: 'success', countryCode: null });
  });

  it('is the flow of a user without an authenticator: only a recovery code finishes it', async () => {
    const user = await createUser({ totpSecret: null });
    const started = await startLogin(user);
    expect(started.body.authFlow).toBe('otp');
    const res = await exchange(started, { otp: '123456' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(AuthMessages.noSecondStep);
  });
});

describe('sms flow', () => {
  it('sends a 6-digit code with the identifier through the outbox and exchanges it once', async () => {
    const sam = demoUserByKey.sam;
    const started = await startLogin(sam);
    expect(started.body).toEqual({ authFlow: 'sms', code: expect.any(String), phone: '+370 *** **12', identifier: expect.stringMatching(/^\d{2}$/) });
    const sms = await lastSms('+37061234512');
    expect(sms.body).toContain(`identifier ${started.body.identifier}`);
    // Only the hash is stored on the login code.
    const [row] = await t.db.select().from(loginCodes).where(eq(loginCodes.codeHash, sha256Hex(started.body.code)));
    expect(row!.smsCodeHash).toBe(sha256Hex(sms.code));

    const wrongCode = sms.code === '000000' ? '111111' : '000000';
    const wrong = await exchange(started, { otp: wrongCode });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe(AuthMessages.wrongSmsCode);
    const missing = await exchange(started);
    expect(missing.statusCode).toBe(403);
    expect(missing.json().message).toBe(AuthMessages.otpRequired);

    const ok = await exchange(started, { otp: sms.code });
    expect(ok.statusCode, ok.body).toBe(200);
    const reused = await exchange(started, { otp: sms.code });
    expect(reused.statusCode).toBe(404);
  });

  it('refuses the SMS code of another sign-in and an expired code', async () => {
    const user = await createUser({ login2faMode: 'sms' });
    await t.db.insert(phones).values({ customerId: user.customerId, phoneCountryCode: '44', phone: '7700900123', status: 'primary', confirmed: true });
    const first = await startLogin(user);
    const firstSms = await lastSms('+447700900123');
    const second = await startLogin(user);
    const secondSms = await lastSms('+447700900123');
    expect(second.body.phone).toBe('+44 *** **23');
    if (firstSms.code !== secondSms.code) {
      const crossed = await exchange(second, { otp: firstSms.code });
      expect(crossed.statusCode).toBe(403);
    }
    clockMs += (SECOND_STEP_TTL_S + 1) * 1000;
    const expired = await exchange(first, { otp: firstSms.code });
    expect(expired.statusCode).toBe(404);
  });

  it('kills the code after 5 wrong SMS codes', async () => {
    const user = await createUser({ login2faMode: 'sms' });
    await t.db.insert(phones).values({ customerId: user.customerId, phoneCountryCode: '370', phone: '61234599', status: 'primary', confirmed: true });
    const started = await startLogin(user);
    const sms = await lastSms('+37061234599');
    const wrongCode = sms.code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await exchange(started, { otp: wrongCode })).statusCode).toBe(403);
    // The account is now rate-limited, and after the window the code is still dead.
    expect((await exchange(started, { otp: sms.code })).statusCode).toBe(404);
    clockMs += 16 * 60_000;
    expect((await exchange(started, { otp: sms.code })).statusCode).toBe(404);
  });

  it('without a confirmed primary phone answers the otp flow instead (no SMS is queued)', async () => {
    const user = await createUser({ login2faMode: 'sms', totpSecret: demoUserByKey.owner.totpSecret });
    await t.db.insert(phones).values({ customerId: user.customerId, phoneCountryCode: '370', phone: '61234577', status: 'primary', confirmed: false });
    const started = await startLogin(user);
    expect(started.body.authFlow).toBe('otp');
    expect(await t.db.select().from(outbox).where(eq(outbox.recipient, '+37061234577'))).toEqual([]);
    const res = await exchange(started, { otp: totpCode(user.totpSecret!, clockMs) });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('push and verifyDevice flows', () => {
  it('push: one device is asked at once; the code exchanges only once it approved', async () => {
    const user = await createUser({ login2faMode: 'push' });
    const phone = await linkDevice(user.id, 'Pixel');
    const started = await startLogin(user);
    const body = started.body;
    expect(body).toMatchObject({ authFlow: 'push', deviceList: [{ id: phone.id, type: 'android', name: 'Pixel' }], expiresInS: APPROVAL_TTL_S });
    expect(body.temporaryToken!.length).toBeGreaterThanOrEqual(43);
    expect(body.qrLink).toMatch(/^http:\/\/localhost(:\d+)?\/device\/#approve=.+/);
    const key = decodeURIComponent(body.qrLink!.split('#approve=')[1]!);
    const [approval] = await t.db.select().from(approvalRequests).where(eq(approvalRequests.keyHash, sha256Hex(key)));
    expect(approval).toMatchObject({ userId: user.id, kind: 'login', deviceId: phone.id, status: 'pending' });
    const [code] = await t.db.select().from(loginCodes).where(eq(loginCodes.codeHash, sha256Hex(body.code)));
    expect(code!.approvalKeyHash).toBe(sha256Hex(key));

    // Waiting is not guessing: asking while pending neither counts nor ends the code.
    for (let i = 0; i < 6; i++) {
      const pending = await exchange(started);
      expect(pending.statusCode).toBe(403);
      expect(pending.json().message).toBe(AuthMessages.notApprovedYet);
    }
    expect(await answerApproval(phone.secret, body.qrLink!, true)).toEqual({ result: true });
    const ok = await exchange(started);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(claimsOf(ok.json().accessToken).typ).toBe('user');
    expect((await exchange(started)).statusCode).toBe(404);
    expect((await historyOf(user.id)).at(-1)).toMatchObject({ authFlow: 'push', result: 'success' });
  });

  it('push: an approved code signs in within LOGIN_CODE_TTL_S of the approval, not later', async () => {
    const user = await createUser({ login2faMode: 'push' });
    const phone = await linkDevice(user.id);
    const late = await startLogin(user);
    expect(await answerApproval(phone.secret, late.body.qrLink!, true)).toEqual({ result: true });
    clockMs += (LOGIN_CODE_TTL_S + 1) * 1000;
    const refused = await exchange(late);
    expect(refused.statusCode).toBe(404);
    expect((await exchange(late)).statusCode).toBe(404);
    // Waiting for the approval is the second step's time; the 60 s start at the approval.
    const inTime = await startLogin(user);
    clockMs += (APPROVAL_TTL_S - 10) * 1000;
    expect(await answerApproval(phone.secret, inTime.body.qrLink!, true)).toEqual({ result: true });
    clockMs += (LOGIN_CODE_TTL_S - 1) * 1000;
    expect((await exchange(inTime)).statusCode).toBe(200);
  });

  it('push: a declined request ends the code', async () => {
    const user = await createUser({ login2faMode: 'push' });
    const phone = await linkDevice(user.id);
    const started = await startLogin(user);
    await answerApproval(phone.secret, started.body.qrLink!, false);
    const declined = await exchange(started);
    expect(declined.statusCode).toBe(403);
    expect(declined.json().message).toBe(AuthMessages.approvalDeclined);
    expect((await exchange(started)).statusCode).toBe(404);
    expect((await historyOf(user.id)).at(-1)).toMatchObject({ authFlow: 'push', result: 'failure' });
  });

  it('push: an expired request is refused; the device can no longer approve it', async () => {
    const user = await createUser({ login2faMode: 'push' });
    const phone = await linkDevice(user.id);
    const started = await startLogin(user);
    clockMs += (APPROVAL_TTL_S + 1) * 1000;
    const expired = await exchange(started);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toBe(AuthMessages.approvalExpired);
    expect(await answerApproval(phone.secret, started.body.qrLink!, true)).toEqual({ result: false });
    expect((await exchange(started)).statusCode).toBe(403);
  });

  it('verifyDevice: with several devices the request waits for the user to choose one', async () => {
    const user = await createUser({ login2faMode: 'push' });
    const first = await linkDevice(user.id, 'Phone A');
    const second = await linkDevice(user.id, 'Phone B');
    // a device that may not approve sign-ins is not listed
    await linkDevice(user.id, 'Tablet', [2]);
    const started = await startLogin(user);
    expect(started.body).toMatchObject({
      authFlow: 'verifyDevice',
      deviceList: [
        { id: first.id, name: 'Phone A' },
        { id: second.id, name: 'Phone B' },
      ],
    });
    const key = decodeURIComponent(started.body.qrLink!.split('#approve=')[1]!);
    const [approval] = await t.db.select().from(approvalRequests).where(eq(approvalRequests.keyHash, sha256Hex(key)));
    expect(approval!.deviceId).toBeNull();
    const resend = await postJson(t.app, authPaths.pushResend, { temporaryToken: started.body.temporaryToken, deviceId: second.id });
    expect(resend.statusCode, resend.body).toBe(200);
    expect(await answerApproval(second.secret, started.body.qrLink!, true)).toEqual({ result: true });
    const ok = await exchange(started);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await historyOf(user.id)).at(-1)).toMatchObject({ authFlow: 'verifyDevice', result: 'success' });
  });

  it('push without an approved device: nothing to wait for; only a recovery code finishes', async () => {
    const user = await createUser({ login2faMode: 'push' });
    await addRecoveryCodes(user.id, ['AAAAA-11111']);
    const started = await startLogin(user);
    expect(started.body).toMatchObject({ authFlow: 'push', deviceList: [], temporaryToken: '', qrLink: '' });
    expect(await t.db.select().from(approvalRequests).where(eq(approvalRequests.userId, user.id))).toEqual([]);
    const refused = await exchange(started);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(AuthMessages.noApprovingDevice);
    const ok = await exchange(started, { recoveryCode: 'aaaaa11111' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(claimsOf(ok.json().accessToken).rst).toBe('setup2fa');
  });
});

describe('direct flow', () => {
  it('a device secret of the user makes the device the second factor; the push token is stored', async () => {
    const user = await createUser({ login2faMode: 'push' });
    const phone = await linkDevice(user.id);
    const started = await startLogin(user, { secret: phone.secret, pushToken: 'push-token-1' });
    expect(started.body).toEqual({ authFlow: 'direct', code: expect.any(String) });
    expect(await t.db.select().from(approvalRequests).where(eq(approvalRequests.userId, user.id))).toEqual([]);
    const [device] = await t.db.select().from(devices).where(eq(devices.id, phone.id));
    expect(device!.pushToken).toBe('push-token-1');
    const wrongVerifier = await exchange({ ...started, verifier: pkcePair().verifier });
    expect(wrongVerifier.statusCode).toBe(403);
    expect(wrongVerifier.json().message).toBe(AuthMessages.verifierMismatch);
    const recovery = await exchange(started, { recoveryCode: 'AAAAA-11111' });
    expect(recovery.statusCode).toBe(403);
    expect(recovery.json().message).toBe(AuthMessages.recoveryNotAccepted);
    const ok = await exchange(started);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await exchange(started)).statusCode).toBe(404);
    expect((await historyOf(user.id)).at(-1)).toMatchObject({ authFlow: 'direct', result: 'success' });
  });

  it('a direct code (the code of the query sign-in) lives LOGIN_CODE_TTL_S = 60 s', async () => {
    expect(LOGIN_CODE_TTL_S).toBe(60);
    const user = await createUser({ login2faMode: 'push' });
    const phone = await linkDevice(user.id);
    const inTime = await startLogin(user, { secret: phone.secret });
    clockMs += LOGIN_CODE_TTL_S * 1000 - 1000;
    expect((await exchange(inTime)).statusCode).toBe(200);
    const late = await startLogin(user, { secret: phone.secret });
    clockMs += (LOGIN_CODE_TTL_S + 1) * 1000;
    const refused = await exchange(late);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe(AuthMessages.unknownCode);
  });

  it('ignores a secret of no device of this user (another user\'s, revoked or made up)', async () => {
    const user = await createUser({ totpSecret: demoUserByKey.viewer.totpSecret });
    const other = await createUser({ login2faMode: 'push' });
    const othersPhone = await linkDevice(other.id);
    const revoked = await linkDevice(user.id);
    await t.db.update(devices).set({ status: 'revoked' }).where(eq(devices.id, revoked.id));
    for (const secret of [othersPhone.secret, revoked.secret, 'made-up-secret']) {
      const started = await startLogin(user, { secret });
      expect(started.body.authFlow).toBe('otp');
    }
  });
});

describe('recovery codes', () => {
  it('signs in once per code, unlinks every device, clears the authenticator and restricts the session', async () => {
    const user = await createUser({ totpSecret: demoUserByKey.clerk.totpSecret });
    await addRecoveryCodes(user.id, ['BBBBB-22222', 'CCCCC-33333']);
    const phone = await linkDevice(user.id);
    const started = await startLogin(user);
    const wrong = await exchange(started, { recoveryCode: 'ZZZZZ-99999' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe(AuthMessages.wrongRecoveryCode);
    const badShape = await exchange(started, { recoveryCode: 'not-a-code' });
    expect(badShape.statusCode).toBe(403);
    expect(badShape.json().message).toContain('recoveryCode');

    const ok = await exchange(started, { recoveryCode: ' bbbbb-22222 ' });
    expect(ok.statusCode, ok.body).toBe(200);
    const tokens = ok.json() as { accessToken: string; refreshToken: string };
    expect(claimsOf(tokens.accessToken).rst).toBe('setup2fa');
    const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(after).toMatchObject({ totpSecret: null, twoStepSetupRequired: true });
    const [device] = await t.db.select().from(devices).where(eq(devices.id, phone.id));
    expect(device!.status).toBe('revoked');
    expect(device!.revokedAt).not.toBeNull();
    expect((await historyOf(user.id)).at(-1)).toMatchObject({ authFlow: 'recoveryCode', result: 'success' });

    // The session may only set two-step verification up again.
    expect((await callMethod(t.app, ALLOWED_METHOD, {}, { token: tokens.accessToken })).body.responseCode).toBe(ResponseCode.success);
    const refused = await callMethod(t.app, UNRESTRICTED_METHOD, {}, { token: tokens.accessToken });
    expect(refused.body).toEqual({ responseCode: ResponseCode.accessDenied, responseDescription: RestrictionMessages.setup2fa });

    // A refresh keeps the restriction while the setup is outstanding and lifts it once done.
    const kept = await postJson(t.app, authPaths.refresh, { refreshToken: tokens.refreshToken });
    expect(claimsOf(kept.json().accessToken).rst).toBe('setup2fa');
    await t.db.update(users).set({ twoStepSetupRequired: false }).where(eq(users.id, user.id));
    const lifted = await postJson(t.app, authPaths.refresh, { refreshToken: kept.json().refreshToken });
    expect(claimsOf(lifted.json().accessToken).rst).toBeUndefined();
    expect((await callMethod(t.app, UNRESTRICTED_METHOD, {}, { token: lifted.json().accessToken })).body.responseCode).toBe(ResponseCode.success);

    // The spent code never works again.
    const again = await startLogin(user);
    const reused = await exchange(again, { recoveryCode: 'BBBBB-22222' });
    expect(reused.statusCode).toBe(403);
    expect(reused.json().message).toBe(AuthMessages.wrongRecoveryCode);
  });

  it('finishes the sms flow too; anna\'s demo codes are seeded hashed', async () => {
    const anna = demoUserByKey.anna;
    const stored = await t.db.select().from(recoveryCodes).innerJoin(users, eq(users.id, recoveryCodes.userId)).where(eq(users.email, anna.email));
    expect(stored.length).toBe(10);
    expect(stored.every((r) => r.recovery_codes.codeHash === recoveryCodeHash(anna.recoveryCodes[stored.indexOf(r)]!))).toBe(true);
    const started = await startLogin(anna);
    const ok = await exchange(started, { recoveryCode: anna.recoveryCodes[0] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(claimsOf(ok.json().accessToken).rst).toBe('setup2fa');
  });
});

describe('push 2FA migration', () => {
  it('soft before the deadline (days left rounded up), strategy migrate; tokens unrestricted', async () => {
    const user = await createUser({ totpSecret: demoUserByKey.admin.totpSecret, pushMigrationDeadline: new Date(clockMs + 10.5 * DAY_MS) });
    const started = await startLogin(user);
    expect(started.body.migration).toEqual({ requirement: 'soft', daysLeft: 11, strategy: 'migrate' });
    const [code] = await t.db.select().from(loginCodes).where(eq(loginCodes.codeHash, sha256Hex(started.body.code)));
    expect(code!.migration).toBe('soft');
    const ok = await exchange(started, { otp: totpCode(user.totpSecret!, clockMs) });
    expect(claimsOf(ok.json().accessToken).rst).toBeUndefined();
  });

  it('strict after the deadline: the session may only enable push (13 elsewhere)', async () => {
    const mila = demoUserByKey.mila;
    const started = await startLogin(mila);
    expect(started.body.migration).toEqual({ requirement: 'strict', strategy: 'migrate' });
    const ok = await exchange(started, { otp: totpCode(mila.totpSecret, clockMs) });
    expect(ok.statusCode, ok.body).toBe(200);
    const { accessToken } = ok.json() as { accessToken: string };
    expect(claimsOf(accessToken).rst).toBe('scp');
    expect((await callMethod(t.app, ALLOWED_METHOD, {}, { token: accessToken })).body.responseCode).toBe(ResponseCode.success);
    const refused = await callMethod(t.app, UNRESTRICTED_METHOD, {}, { token: accessToken });
    expect(refused.body).toEqual({ responseCode: ResponseCode.accessDenied, responseDescription: RestrictionMessages.scp });
  });

  it('rides on the simple flow as strategy enable; on push with a device there is none', async () => {
    const simple = await createUser({ login2faMode: 'no', pushMigrationDeadline: new Date(clockMs - DAY_MS) });
    const answer = await startLogin(simple);
    expect(answer.body).toMatchObject({ authFlow: 'simple', migration: { requirement: 'strict', strategy: 'enable' } });
    expect(claimsOf(answer.body.accessToken!).rst).toBe('scp');

    const onPush = await createUser({ login2faMode: 'push', pushMigrationDeadline: new Date(clockMs - DAY_MS) });
    const phone = await linkDevice(onPush.id);
    const started = await startLogin(onPush);
    expect(started.body.authFlow).toBe('push');
    await answerApproval(phone.secret, started.body.qrLink!, true);
    const ok = await exchange(started);
    expect(claimsOf(ok.json().accessToken).rst).toBeUndefined();
  });
});

describe('limits and tokens', () => {
  it('counts wrong second steps of every kind against the same per-account limit', async () => {
    const user = await createUser({ login2faMode: 'sms', totpSecret: null });
    await t.db.insert(phones).values({ customerId: user.customerId, phoneCountryCode: '370', phone: '61234588', status: 'primary', confirmed: true });
    const spare = await startLogin(user);
    const spareSms = await lastSms('+37061234588');
    const started = await startLogin(user);
    const sms = await lastSms('+37061234588');
    const wrongCode = sms.code === '000000' ? '111111' : '000000';
    expect((await exchange(started, { otp: wrongCode })).statusCode).toBe(403);
    expect((await exchange(started, { otp: wrongCode })).statusCode).toBe(403);
    expect((await exchange(started, { recoveryCode: 'DDDDD-44444' })).statusCode).toBe(403);
    expect((await exchange(started, { recoveryCode: 'DDDDD-44445' })).statusCode).toBe(403);
    expect((await exchange({ ...started, verifier: pkcePair().verifier }, { otp: sms.code })).statusCode).toBe(403);
    // Five failures: that code is dead, and the account is limited: another live code with its
    // right SMS code, and a fresh password step, are refused now.
    expect((await exchange(started, { otp: sms.code })).statusCode).toBe(404);
    expect((await exchange(spare, { otp: spareSms.code })).statusCode).toBe(429);
    expect((await login(user)).res.statusCode).toBe(429);
    const failures = (await historyOf(user.id)).filter((h) => h.result === 'failure');
    expect(failures.map((h) => h.authFlow)).toEqual(['sms', 'sms', 'recoveryCode', 'recoveryCode', 'sms']);
    clockMs += 16 * 60_000;
  });

  it('a device token is not a user caller on named methods', async () => {
    const user = await createUser({ login2faMode: 'no' });
    const { body } = await startLogin(user);
    const claims = decodeJwt(body.accessToken!);
    const forged = await signHs256({ ...claims, typ: 'device', dev: 1 }, new TextEncoder().encode(JWT_SECRET));
    expect((await callMethod(t.app, ALLOWED_METHOD, {}, { token: forged })).status).toBe(401);
    expect((await callMethod(t.app, ALLOWED_METHOD, {}, { token: body.accessToken! })).body.responseCode).toBe(ResponseCode.success);
  });

  it('POST /auth/token with a secret is a device sign-in; validation errors name its field', async () => {
    const user = await createUser({ login2faMode: 'push' });
    const phone = await linkDevice(user.id);
    const res = await postJson(t.app, authPaths.token, { secret: phone.secret });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as { accessToken: string; deviceId: number };
    expect(answer.deviceId).toBe(phone.id);
    expect(claimsOf(answer.accessToken).typ).toBe('device');
    const empty = await postJson(t.app, authPaths.token, { secret: '' });
    expect(empty.statusCode).toBe(403);
    expect(empty.json().message).toContain('secret');
    const user2 = await postJson(t.app, authPaths.token, { code: '', codeVerifier: 'x' });
    expect(user2.json().message).toContain('code');
  });
});
