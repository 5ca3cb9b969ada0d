/** Two-step verification settings and recovery codes (api/security.ts, document 1 §7). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { customers, outbox, rateLimitCounters, recoveryCodes, twoStepRequests, users } from '../../server/db/schema.ts';
import { CURRENT_PASSWORD_SCOPE, currentPasswordKey } from '../../server/modules/auth/current-password.ts';
import { DEFAULT_SIGN_IN_LIMITS } from '../../server/modules/auth/tokens.service.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { TWO_STEP_MAX_ATTEMPTS, TWO_STEP_REQUEST_TTL_S } from '../../api/security.ts';
import { hashRecoveryCode, normaliseRecoveryCode, RECOVERY_CODE_ALPHABET } from '../../server/modules/security/recovery-codes.ts';
import { createTwoStepService, TwoStepMessages } from '../../server/modules/security/two-step.service.ts';
import { createInProcessPublisher } from '../../server/modules/push/publisher.ts';
import { createTestApp, pkcePair, postJson, signIn, totpCode, type SignedIn, type TestApp } from './harness.ts';

let t: TestApp;
let clockMs = Date.now();
let boris: SignedIn;
let anna: SignedIn;
let annaCodes: string[] = [];

/** Every demo user's password is the demo password: a mode change re-authenticates with it. */
const setMode = (token: string, body: Record<string, unknown>) =>
  postJson(t.app, '/auth/two-step-verification', { password: demoUserByKey.anna.password, ...body }, { token });
const confirm = (token: string, reqId: string, code?: string) =>
  postJson(t.app, `/auth/two-step-verification/${reqId}/confirm`, code === undefined ? {} : { code }, { token });
/** The sms flow: the code is read from the SMS outbox. */
async function signInWithSms(who: 'sam'): Promise<SignedIn> {
  const { verifier, challenge } = pkcePair();
  const user = demoUserByKey[who];
  const login = await postJson(t.app, '/auth/login', { client: 'spa', username: user.email, password: user.password, codeChallenge: challenge });
  const { code } = login.json() as { code: string };
  const [sms] = await t.db.select().from(outbox).where(eq(outbox.channel, 'sms')).orderBy(desc(outbox.id)).limit(1);
  const otp = /(\d{6})/.exec(sms!.body)![1]!;
  const token = await postJson(t.app, '/auth/token', { code, codeVerifier: verifier, otp });
  if (token.statusCode !== 200) throw new Error(`sms sign-in answered ${token.statusCode}: ${token.body}`);
  return token.json() as SignedIn;
}
const userIdOf = (s: SignedIn) => Number(decodeJwt(s.accessToken).sub);

beforeAll(async () => {
  t = await createTestApp({ now: () => clockMs });
  boris = await signIn(t.app, 'boris');
  anna = await signIn(t.app, 'anna');
});
afterAll(async () => {
  await t?.close();
});

describe('recovery code format', () => {
  it('normalises to upper case without dash and hashes the same for every spelling', () => {
    expect(normaliseRecoveryCode('7kq4m-2xh9p')).toBe('7KQ4M2XH9P');
    expect(hashRecoveryCode('7kq4m-2xh9p')).toBe(hashRecoveryCode('7KQ4M2XH9P'));
    expect(RECOVERY_CODE_ALPHABET).not.toMatch(/[01OIL]/);
  });
});

describe('otp mode', () => {
  it('enrols a new authenticator, confirms with its code, and answers ten recovery codes once', async () => {
    const start = await setMode(boris.accessToken, { mode: 3 });
    expect(start.statusCode).toBe(200);
    const body = start.json() as { reqId: string; mode: number; expiresInS: number; otpauthUri: string; secret: string };
    expect(body.mode).toBe(3);
    expect(body.expiresInS).toBe(TWO_STEP_REQUEST_TTL_S);
    expect(body.otpauthUri).toMatch(/^otpauth:\/\/totp\/Web%20Banking%3Aboris%40demo\.test\?secret=[A-Z2-7]+&issuer=Web%20Banking/);
    // Nothing changes before the confirmation.
    const [before] = await t.db.select().from(users).where(eq(users.id, userIdOf(boris)));
    expect(before!.totpSecret).toBeNull();

    const wrong = await confirm(boris.accessToken, body.reqId, '000000' === totpCode(body.secret, clockMs) ? '111111' : '000000');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ message: 'Wrong code' });

    const ok = await confirm(boris.accessToken, body.reqId, totpCode(body.secret, clockMs));
    expect(ok.statusCode).toBe(200);
    const answer = ok.json() as { mode: number; recoveryCodes: string[] };
    expect(answer.mode).toBe(3);
    expect(answer.recoveryCodes).toHaveLength(10);
    for (const code of answer.recoveryCodes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const stored = await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userIdOf(boris)));
    expect(stored.map((r) => r.codeHash).sort()).toEqual(answer.recoveryCodes.map(hashRecoveryCode).sort());

    const [after] = await t.db.select().from(users).where(eq(users.id, userIdOf(boris)));
    expect(after!.totpSecret).toBe(body.secret);
    expect(after!.login2faMode).toBe('otp');
    const [customer] = await t.db.select().from(customers).where(eq(customers.id, after!.customerId));
    expect(customer!.twoStepVerificationMode).toBe(3);
    expect(customer!.transactionApproveMode).toBe('otp');

    // The request is spent: the same code again is refused.
    const again = await confirm(boris.accessToken, body.reqId, totpCode(body.secret, clockMs));
    expect(again.statusCode).toBe(404);
  });

  it('keeps existing unused recovery codes: no new ones in the answer', async () => {
    const start = (await setMode(anna.accessToken, { typeMode: 3 })).json() as { reqId: string; secret: string };
    const ok = await confirm(anna.accessToken, start.reqId, totpCode(start.secret, clockMs));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ mode: 3 });
  });

  it('dies after five wrong codes', async () => {
    const start = (await setMode(anna.accessToken, { mode: 3 })).json() as { reqId: string; secret: string };
    const right = totpCode(start.secret, clockMs);
    const wrongCode = right === '123456' ? '654321' : '123456';
    const answers: string[] = [];
    for (let i = 0; i < TWO_STEP_MAX_ATTEMPTS; i++) answers.push((await confirm(anna.accessToken, start.reqId, wrongCode)).json().message);
    expect(answers.at(-1)).toBe('Too many wrong codes; start again');
    const late = await confirm(anna.accessToken, start.reqId, right);
    expect(late.statusCode).toBe(404);
  });

  it('expires after ten minutes', async () => {
    const start = (await setMode(anna.accessToken, { mode: 3 })).json() as { reqId: string; secret: string };
    const [row] = await t.db.select().from(twoStepRequests).where(eq(twoStepRequests.reqId, start.reqId));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(TWO_STEP_REQUEST_TTL_S * 1000);
    // The access token lives 5 minutes, the request 10: ask the service itself 10 minutes later.
    const later = clockMs + TWO_STEP_REQUEST_TTL_S * 1000 + 1000;
    const service = createTwoStepService({ db: t.db, now: () => later, publisher: t.publisher, approvals: null });
    const caller = { userId: userIdOf(anna), customerId: Number(decodeJwt(anna.accessToken).cid), isAdmin: false };
    await expect(service.confirm(caller, start.reqId, totpCode(start.secret, later))).rejects.toThrow('Unknown, used or expired request');
  });

  it("answers 404 for another user's request, and for a malformed reqId", async () => {
    const start = (await setMode(anna.accessToken, { mode: 3 })).json() as { reqId: string; secret: string };
    const foreign = await confirm(boris.accessToken, start.reqId, totpCode(start.secret, clockMs));
    expect(foreign.statusCode).toBe(404);
    expect((await confirm(boris.accessToken, 'not-a-uuid', '123456')).statusCode).toBe(404);
  });

  it('refuses without a token and validates the body', async () => {
    expect((await postJson(t.app, '/auth/two-step-verification', { mode: 3 })).statusCode).toBe(401);
    const bad = await setMode(anna.accessToken, { mode: 9 });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().message).toMatch(/^mode:/);
    const missing = await setMode(anna.accessToken, {});
    expect(missing.json().message).toMatch(/^mode: is required/);
    const noCode = await setMode(anna.accessToken, { mode: 4 });
    expect(noCode.json().message).toMatch(/^approvalCode: is required/);
    const noPassword = await postJson(t.app, '/auth/two-step-verification', { mode: 3 }, { token: anna.accessToken });
    expect(noPassword.statusCode).toBe(403);
    expect(noPassword.json().message).toBe('password: is required');
  });

  // A stolen access token alone must not put an attacker's authenticator on the account.
  it('needs the current password: a wrong one changes nothing and counts as a failed sign-in', async () => {
    const before = await t.db.select().from(twoStepRequests).where(eq(twoStepRequests.userId, Number(decodeJwt(boris.accessToken).sub)));
    const wrong = await setMode(boris.accessToken, { mode: 3, password: 'not-the-password' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ message: TwoStepMessages.wrongPassword });
    const after = await t.db.select().from(twoStepRequests).where(eq(twoStepRequests.userId, Number(decodeJwt(boris.accessToken).sub)));
    expect(after.length).toBe(before.length);
    const [counted] = await t.db
      .select()
      .from(rateLimitCounters)
      .where(and(eq(rateLimitCounters.scope, CURRENT_PASSWORD_SCOPE), eq(rateLimitCounters.key, currentPasswordKey(Number(decodeJwt(boris.accessToken).sub)))));
    expect(counted?.count).toBeGreaterThanOrEqual(1);
  });

  it('stops password guessing at the sign-in limit (429), even with the right password', async () => {
    const viewer = await signIn(t.app, 'viewer');
    for (let i = 0; i < DEFAULT_SIGN_IN_LIMITS.perAccount; i++) {
      expect((await setMode(viewer.accessToken, { mode: 3, password: `guess-${i}` })).statusCode).toBe(403);
    }
    const res = await setMode(viewer.accessToken, { mode: 3 });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ message: TwoStepMessages.tooManyPasswords });
  });
});

describe('sms mode', () => {
  it('sends a code to the primary confirmed phone, masked in the answer', async () => {
    const sam = await signInWithSms('sam');
    const start = await setMode(sam.accessToken, { mode: 2 });
    expect(start.statusCode).toBe(200);
    const body = start.json() as { reqId: string; sentTo: string };
    expect(body.sentTo).toMatch(/^\+370 \*\*\* \*\*\d\d$/);
    const [sms] = await t.db.select().from(outbox).where(eq(outbox.channel, 'sms')).orderBy(desc(outbox.id)).limit(1);
    const code = /(\d{6})/.exec(sms!.body)![1]!;
    expect((await confirm(sam.accessToken, body.reqId, code === '000000' ? '000001' : '000000')).statusCode).toBe(403);
    const ok = await confirm(sam.accessToken, body.reqId, code);
    expect(ok.statusCode).toBe(200);
    expect((await confirm(sam.accessToken, body.reqId, code)).statusCode).toBe(404);
  });

  it('refuses a user without a confirmed phone', async () => {
    const res = await setMode(boris.accessToken, { mode: 2 });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Add and confirm a phone first' });
  });
});

describe('approvalCode mode', () => {
  it('stores the chosen code (argon2id) once it is typed again; sign-in stays as it was', async () => {
    const [before] = await t.db.select().from(users).where(eq(users.id, userIdOf(anna)));
    const start = (await setMode(anna.accessToken, { mode: 4, approvalCode: '246810' })).json() as { reqId: string };
    expect((await confirm(anna.accessToken, start.reqId, '135790')).statusCode).toBe(403);
    const ok = await confirm(anna.accessToken, start.reqId, '246810');
    expect(ok.statusCode).toBe(200);
    const [after] = await t.db.select().from(users).where(eq(users.id, userIdOf(anna)));
    expect(after!.approvalCodeHash).toMatch(/^\$argon2id\$/);
    expect(after!.login2faMode).toBe(before!.login2faMode);
    const [customer] = await t.db.select().from(customers).where(eq(customers.id, after!.customerId));
    expect(customer!.transactionApproveMode).toBe('approvalCode');
  });
});

describe('limits', () => {
  it('allows five mode changes per ten minutes', async () => {
    const res = await setMode(anna.accessToken, { mode: 3 });
    expect(res.statusCode).toBe(429);
  });
});

describe('push mode', () => {
  it('needs a linked phone', async () => {
    const res = await setMode(boris.accessToken, { mode: 1 });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Link a phone first' });
  });

  it('is confirmed by the device hook, then the browser collects the answer', async () => {
    // The approvals service calls approvedByDevice in its answer transaction; driven directly here.
    const publisher = createInProcessPublisher();
    const events: unknown[] = [];
    const customerId = Number(decodeJwt(boris.accessToken).cid);
    publisher.subscribe(customerId, (e) => events.push(e));
    const service = createTwoStepService({ db: t.db, now: () => clockMs, publisher, approvals: null });
    const reqId = '00000000-0000-4000-8000-000000000001';
    await t.db.insert(twoStepRequests).values({
      reqId,
      userId: userIdOf(boris),
      mode: 1,
      approvalKeyHash: 'k'.repeat(64),
      createdAt: new Date(clockMs),
      expiresAt: new Date(clockMs + 60_000),
    });
    const pending = await service.confirm({ userId: userIdOf(boris), customerId, isAdmin: false }, reqId, undefined).catch((e: Error) => e.message);
    expect(pending).toBe('The change is waiting for the approval on your phone');
    await t.db.transaction((tx) => service.approvedByDevice(tx, { keyHash: 'k'.repeat(64), userId: userIdOf(boris) }));
    await new Promise((r) => setTimeout(r, 300));
    expect(events).toEqual([{ type: 'TwoStepVerificationConfirmed', mode: 1 }]);
    const [user] = await t.db.select().from(users).where(eq(users.id, userIdOf(boris)));
    expect(user!.login2faMode).toBe('push');
    const collected = await service.confirm({ userId: userIdOf(boris), customerId, isAdmin: false }, reqId, undefined);
    expect(collected.answer.mode).toBe(1);
    await publisher.close();
  });
});

describe('push mode end to end (a linked phone answers)', () => {
  const inject = (method: 'GET' | 'PUT' | 'POST', url: string, token?: string, body?: unknown) =>
    t.app.inject({ method, url, ...(body === undefined ? {} : { payload: body as Record<string, unknown> }), headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('the phone approves: the browser collects the confirmation and the recovery codes; a decline ends the request', async () => {
    const clerk = await signIn(t.app, 'clerk');
    const started = (await inject('POST', '/auth/devices', clerk.accessToken, { name: 'Phone' })).json() as { device: { id: number }; code: string };
    const approved = await inject('POST', `/auth/devices/${started.device.id}/approve`, undefined, { code: started.code, type: 'android' });
    expect(approved.statusCode, approved.body).toBe(200);
    const { secret } = approved.json() as { secret: string };
    const deviceToken = async () => ((await inject('POST', '/auth/token', undefined, { secret })).json() as { accessToken: string }).accessToken;
    const pendingKey = async () => ((await inject('GET', '/device-api/device', await deviceToken())).json() as { pending: { key: string; kind: string; mode?: number }[] }).pending;

    const start = await setMode(clerk.accessToken, { mode: 1 });
    expect(start.statusCode, start.body).toBe(200);
    const { reqId, deviceCount } = start.json() as { reqId: string; deviceCount: number };
    expect(deviceCount).toBe(1);
    const [pending] = await pendingKey();
    expect(pending).toMatchObject({ kind: 'twoStepMode', mode: 1 });
    expect((await confirm(clerk.accessToken, reqId)).json()).toEqual({ message: 'The change is waiting for the approval on your phone' });

    const answer = await inject('PUT', `/auth/login/${encodeURIComponent(pending!.key)}/confirm`, await deviceToken(), { result: true });
    expect(answer.statusCode, answer.body).toBe(200);
    const collected = await confirm(clerk.accessToken, reqId);
    expect(collected.statusCode).toBe(200);
    const body = collected.json() as { mode: number; recoveryCodes?: string[] };
    expect(body.mode).toBe(1);
    expect(body.recoveryCodes).toHaveLength(10);
    // Collected once: the codes are not answered again.
    expect((await confirm(clerk.accessToken, reqId)).json()).toEqual({ mode: 1 });
    const [user] = await t.db.select().from(users).where(eq(users.id, userIdOf(clerk)));
    expect(user!.login2faMode).toBe('push');

    const again = (await setMode(clerk.accessToken, { mode: 1 })).json() as { reqId: string };
    const [second] = await pendingKey();
    await inject('PUT', `/auth/login/${encodeURIComponent(second!.key)}/confirm`, await deviceToken(), { result: false });
    const declined = await confirm(clerk.accessToken, again.reqId);
    expect(declined.statusCode).toBe(403);
    expect(declined.json()).toEqual({ message: 'The change was declined on the phone' });
    expect((await confirm(clerk.accessToken, again.reqId)).statusCode).toBe(404);
  });
});

describe('recovery codes', () => {
  it('counts unused codes and replaces them with the password', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/auth/recovery-codes', headers: { authorization: `Bearer ${anna.accessToken}` } });
    expect(before.json()).toEqual({ unused: demoUserByKey.anna.recoveryCodes.length });
    const wrong = await postJson(t.app, '/auth/recovery-codes', { password: 'not it' }, { token: anna.accessToken });
    expect(wrong.statusCode).toBe(403);
    const ok = await postJson(t.app, '/auth/recovery-codes', { password: demoUserByKey.anna.password }, { token: anna.accessToken });
    expect(ok.statusCode).toBe(200);
    const codes = (ok.json() as { recoveryCodes: string[] }).recoveryCodes;
    expect(codes).toHaveLength(10);
    const unused = await t.db
      .select()
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userIdOf(anna)), isNull(recoveryCodes.usedAt)));
    // The old demo codes are gone: only the new ones work.
    expect(unused.map((r) => r.codeHash).sort()).toEqual(codes.map(hashRecoveryCode).sort());
    expect(unused.some((r) => r.codeHash === hashRecoveryCode(demoUserByKey.anna.recoveryCodes[0]!))).toBe(false);
    annaCodes = codes;
  });

  // The web app turns these messages into its error codes (src/features/security/actors.ts
  // recoveryCodesErrorOf); a refused renewal must leave the codes as they were.
  it('refuses a wrong password (403) and a guessed-out account (429) with their messages, and makes no codes', async () => {
    const owner = await signIn(t.app, 'owner');
    const status = async () =>
      (await t.app.inject({ method: 'GET', url: '/auth/recovery-codes', headers: { authorization: `Bearer ${owner.accessToken}` } })).json();
    const before = await status();
    const wrong = await postJson(t.app, '/auth/recovery-codes', { password: 'not it' }, { token: owner.accessToken });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ message: TwoStepMessages.wrongPassword });
    expect(await status()).toEqual(before);
    // The wrong one above counted; the rest of the allowance goes on more wrong ones.
    for (let i = 1; i < DEFAULT_SIGN_IN_LIMITS.perAccount; i++) {
      expect((await postJson(t.app, '/auth/recovery-codes', { password: `guess-${i}` }, { token: owner.accessToken })).statusCode).toBe(403);
    }
    const limited = await postJson(t.app, '/auth/recovery-codes', { password: demoUserByKey.owner.password }, { token: owner.accessToken });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: TwoStepMessages.tooManyPasswords });
    expect(await status()).toEqual(before);
  });
});

describe('a restricted session (signed in with a recovery code)', () => {
  it('may set up two-step verification again, but not with an approval code; confirming lifts the requirement', async () => {
    const { verifier, challenge } = pkcePair();
    const user = demoUserByKey.anna;
    const login = await postJson(t.app, '/auth/login', { client: 'spa', username: user.email, password: user.password, codeChallenge: challenge });
    const { code } = login.json() as { code: string };
    const token = await postJson(t.app, '/auth/token', { code, codeVerifier: verifier, recoveryCode: annaCodes[0]!.toLowerCase() });
    expect(token.statusCode).toBe(200);
    const restricted = token.json() as SignedIn;
    expect(decodeJwt(restricted.accessToken).rst).toBe('setup2fa');

    // The ten-minute window of anna's earlier changes has to pass first (the clock moves; the token is fresh).
    clockMs += TWO_STEP_REQUEST_TTL_S * 1000;
    try {
      const again = await signInWithRecovery(annaCodes[1]!);
      expect((await setMode(again.accessToken, { mode: 4, approvalCode: '111111' })).statusCode).toBe(403);
      const start = (await setMode(again.accessToken, { mode: 3 })).json() as { reqId: string; secret: string };
      const ok = await confirm(again.accessToken, start.reqId, totpCode(start.secret, clockMs));
      expect(ok.statusCode).toBe(200);
      const [after] = await t.db.select().from(users).where(eq(users.id, userIdOf(anna)));
      expect(after!.twoStepSetupRequired).toBe(false);
    } finally {
      clockMs -= TWO_STEP_REQUEST_TTL_S * 1000;
    }
  });
});

async function signInWithRecovery(recoveryCode: string): Promise<SignedIn> {
  const { verifier, challenge } = pkcePair();
  const user = demoUserByKey.anna;
  const login = await postJson(t.app, '/auth/login', { client: 'spa', username: user.email, password: user.password, codeChallenge: challenge });
  const { code } = login.json() as { code: string };
  const token = await postJson(t.app, '/auth/token', { code, codeVerifier: verifier, recoveryCode });
  if (token.statusCode !== 200) throw new Error(`recovery sign-in answered ${token.statusCode}: ${token.body}`);
  return token.json() as SignedIn;
}

// Document 1 §7 push events: every open session of the customer hears the change start and end
// (src/lib/two-step-toast.ts shows them); the code modes publish from the routes after commit.
describe('push events of a change', () => {
  // One sign-in: confirming mode 3 replaces the demo authenticator secret.
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await signIn(t.app, 'admin');
  });

  it.each([
    [3, 'authenticator'],
    [4, 'approval code'],
  ] as const)('mode %s (%s): TwoStepVerificationModeSet when started, TwoStepVerificationConfirmed when confirmed', async (mode, _what) => {
    const customerId = Number(decodeJwt(admin.accessToken).cid);
    const events: unknown[] = [];
    const stop = t.publisher.subscribe(customerId, (e) => events.push(e));
    try {
      const start = await setMode(admin.accessToken, mode === 4 ? { mode, approvalCode: '975310' } : { mode });
      expect(start.statusCode, start.body).toBe(200);
      const { reqId, secret } = start.json() as { reqId: string; secret?: string };
      await expect.poll(() => events).toEqual([{ type: 'TwoStepVerificationModeSet', mode, reqId }]);
      const code = mode === 4 ? '975310' : totpCode(secret!, clockMs);
      expect((await confirm(admin.accessToken, reqId, code)).statusCode).toBe(200);
      await expect.poll(() => events).toEqual([
        { type: 'TwoStepVerificationModeSet', mode, reqId },
        { type: 'TwoStepVerificationConfirmed', mode },
      ]);
    } finally {
      stop();
    }
  });
});
