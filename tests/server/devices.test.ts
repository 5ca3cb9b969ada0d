/**
 * Linked devices over HTTP (api/devices.ts): linking with a code, the device secret and device
 * tokens, the device API, approval methods, unlinking, /scp deeplinks and the companion link by SMS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { and, eq } from 'drizzle-orm';
import { createTestApp, callMethod, signIn, testDriver, type TestApp } from './harness.ts';
import { devices, tokenFamilies } from '../../server/modules/auth/auth.tables.ts';
import { customers, users } from '../../server/modules/customers/customers.tables.ts';
import { outbox } from '../../server/modules/platform/platform.tables.ts';
import { sha256Hex } from '../../server/modules/auth/crypto.ts';
import { countryOfIp } from '../../server/adapters/ip-info.ts';
import { MAX_LINK_ATTEMPTS, MAX_PENDING_LINKS } from '../../server/modules/auth/devices.service.ts';
import type { PushMessage } from '../../server/modules/push/publisher.ts';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

async function newApp(options: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp> {
  const t = await createTestApp(options);
  apps.push(t);
  return t;
}

function send(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  options: { body?: unknown; token?: string; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    ...(options.body !== undefined ? { payload: options.body as Record<string, unknown> } : {}),
    headers: {
      host: 'bank.example',
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

interface Started {
  device: { id: number; status: string };
  code: string;
  qrLink: string;
  expiresInS: number;
}

async function startLink(app: FastifyInstance, token: string, name = 'My phone'): Promise<Started> {
  const res = await send(app, 'POST', '/auth/devices', { token, body: { name } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Started;
}

/** Links a phone for the user of `token`: { id, secret, deviceToken }. */
async function linkPhone(app: FastifyInstance, token: string, extra: Record<string, unknown> = {}) {
  const started = await startLink(app, token);
  const approved = await send(app, 'POST', `/auth/devices/${started.device.id}/approve`, {
    body: { code: started.code, type: 'android', ...extra },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const { secret } = approved.json() as { secret: string };
  const signedIn = await send(app, 'POST', '/auth/token', { body: { secret } });
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  return { id: started.device.id, secret, deviceToken: (signedIn.json() as { accessToken: string }).accessToken };
}

describe('linked devices', () => {
  let t: TestApp;
  let anna: string;
  let clerk: string;
  beforeAll(async () => {
    t = await newApp();
    anna = (await signIn(t.app, 'anna')).accessToken;
    clerk = (await signIn(t.app, 'clerk')).accessToken;
  });

  it('lists the approval methods without a bearer', async () => {
    const res = await send(t.app, 'GET', '/auth/devices/approve-methods');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ methods: [{ id: 1, name: 'login' }, { id: 2, name: 'twoStepMode' }] });
  });

  it('needs a user bearer for the user endpoints', async () => {
    expect((await send(t.app, 'GET', '/auth/devices')).statusCode).toBe(401);
    expect((await send(t.app, 'POST', '/auth/devices', { body: { name: 'x' } })).statusCode).toBe(401);
    expect((await send(t.app, 'GET', '/auth/devices', { token: 'garbage' })).statusCode).toBe(401);
  });

  it('starts linking: a pending device, an 8-character code and the companion link', async () => {
    const started = await startLink(t.app, anna, '  Kitchen phone ');
    expect(started.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(started.qrLink).toBe(`http://bank.example/device/#link=${started.device.id}.${started.code}`);
    expect(started.expiresInS).toBe(600);
    expect(started.device).toMatchObject({ status: 'pending', name: 'Kitchen phone', type: null, approveMethodIds: [], hasPushToken: false });
    // Only the hash of the code is stored.
    const [row] = await t.db.select().from(devices).where(eq(devices.id, started.device.id));
    expect(row!.linkCodeHash).toBe(sha256Hex(started.code));
    const list = (await send(t.app, 'GET', '/auth/devices', { token: anna })).json() as { devices: { id: number }[] };
    expect(list.devices.map((d) => d.id)).toContain(started.device.id);
    const one = await send(t.app, 'GET', `/auth/devices/${started.device.id}`, { token: anna });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: started.device.id, status: 'pending' });
    // A name is required.
    expect((await send(t.app, 'POST', '/auth/devices', { token: anna, body: { name: '   ' } })).statusCode).toBe(403);
  });

  it("answers 404 for another user's device on every user endpoint", async () => {
    const started = await startLink(t.app, anna);
    const id = started.device.id;
    expect((await send(t.app, 'GET', `/auth/devices/${id}`, { token: clerk })).statusCode).toBe(404);
    expect((await send(t.app, 'DELETE', `/auth/devices/${id}`, { token: clerk })).statusCode).toBe(404);
    expect((await send(t.app, 'PATCH', `/auth/devices/${id}/approve/1`, { token: clerk, body: { enabled: false } })).statusCode).toBe(404);
    const clerkList = (await send(t.app, 'GET', '/auth/devices', { token: clerk })).json() as { devices: { id: number }[] };
    expect(clerkList.devices.map((d) => d.id)).not.toContain(id);
    expect((await send(t.app, 'GET', '/auth/devices/99999', { token: anna })).statusCode).toBe(404);
    expect((await send(t.app, 'GET', '/auth/devices/abc', { token: anna })).statusCode).toBe(404);
  });

  it('links with the right code: approved, both methods, a secret shown once and stored hashed', async () => {
    const customerId = decodeJwt(anna).cid as number;
    const linked: PushMessage[] = [];
    const off = t.publisher.subscribe(customerId, (e) => linked.push(e));
    const started = await startLink(t.app, anna);
    const wrong = await send(t.app, 'POST', `/auth/devices/${started.device.id}/approve`, { body: { code: 'AAAAAAAA', type: 'ios' } });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ message: 'Wrong linking code' });
    const typed = `${started.code.slice(0, 4).toLowerCase()}-${started.code.slice(4)}`;
    const res = await send(t.app, 'POST', `/auth/devices/${started.device.id}/approve`, {
      body: { code: typed, type: 'ios', name: 'Anna iPhone', pushToken: 'push-token-1' },
      remoteAddress: '8.8.8.8',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { device: Record<string, unknown>; secret: string };
    expect(body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.device).toMatchObject({
      id: started.device.id,
      status: 'approved',
      type: 'ios',
      name: 'Anna iPhone',
      approveMethodIds: [1, 2],
      hasPushToken: true,
      location: countryOfIp('8.8.8.8'),
    });
    expect(body.device.location).toMatch(/^[A-Z]{2}$/);
    const [row] = await t.db.select().from(devices).where(eq(devices.id, started.device.id));
    expect(row!.secretHash).toBe(sha256Hex(body.secret));
    expect(row!.linkCodeHash).toBeNull();
    // The code is spent.
    const again = await send(t.app, 'POST', `/auth/devices/${started.device.id}/approve`, { body: { code: started.code, type: 'ios' } });
    expect(again.statusCode).toBe(404);
    await new Promise((r) => setTimeout(r, 50));
    off();
    expect(linked).toContainEqual({ type: 'DeviceLinked', deviceId: started.device.id, name: 'Anna iPhone' });
    // anna keeps her authenticator sign-in: she has no migration deadline and a second step.
    const [user] = await t.db.select().from(users).where(eq(users.email, 'anna@demo.test'));
    expect(user!.login2faMode).toBe('otp');
  });

  it(`kills a pending link after ${MAX_LINK_ATTEMPTS} wrong codes`, async () => {
    const started = await startLink(t.app, anna);
    for (let i = 0; i < MAX_LINK_ATTEMPTS; i++) {
      const wrong = await send(t.app, 'POST', `/auth/devices/${started.device.id}/approve`, { body: { code: '22222222', type: 'android' } });
      expect(wrong.statusCode).toBe(403);
    }
    const right = await send(t.app, 'POST', `/auth/devices/${started.device.id}/approve`, { body: { code: started.code, type: 'android' } });
    expect(right.statusCode).toBe(404);
    expect((await send(t.app, 'GET', `/auth/devices/${started.device.id}`, { token: anna })).statusCode).toBe(404);
  });

  it(`keeps at most ${MAX_PENDING_LINKS} pending links per user (the oldest expires)`, async () => {
    const started: Started[] = [];
    for (let i = 0; i < MAX_PENDING_LINKS + 1; i++) started.push(await startLink(t.app, clerk, `Phone ${i}`));
    const list = (await send(t.app, 'GET', '/auth/devices', { token: clerk })).json() as { devices: { id: number; status: string }[] };
    const pending = list.devices.filter((d) => d.status === 'pending').map((d) => d.id);
    expect(pending).toHaveLength(MAX_PENDING_LINKS);
    expect(pending).not.toContain(started[0]!.device.id);
    const oldest = await send(t.app, 'POST', `/auth/devices/${started[0]!.device.id}/approve`, { body: { code: started[0]!.code, type: 'android' } });
    expect(oldest.statusCode).toBe(404);
    const newest = started.at(-1)!;
    const ok = await send(t.app, 'POST', `/auth/devices/${newest.device.id}/approve`, { body: { code: newest.code, type: 'android' } });
    expect(ok.statusCode).toBe(200);
  });

  it('toggles an approval method; unknown methods and pending devices are 404', async () => {
    const phone = await linkPhone(t.app, anna);
    const off = await send(t.app, 'PATCH', `/auth/devices/${phone.id}/approve/1`, { token: anna, body: { enabled: false } });
    expect(off.statusCode, off.body).toBe(200);
    expect((off.json() as { device: { approveMethodIds: number[] } }).device.approveMethodIds).toEqual([2]);
    const on = await send(t.app, 'PATCH', `/auth/devices/${phone.id}/approve/1`, { token: anna, body: { enabled: true } });
    expect((on.json() as { device: { approveMethodIds: number[] } }).device.approveMethodIds).toEqual([1, 2]);
    expect((await send(t.app, 'PATCH', `/auth/devices/${phone.id}/approve/7`, { token: anna, body: { enabled: true } })).statusCode).toBe(404);
    expect((await send(t.app, 'PATCH', `/auth/devices/${phone.id}/approve/1`, { token: anna, body: {} })).statusCode).toBe(403);
    const pending = await startLink(t.app, anna);
    expect((await send(t.app, 'PATCH', `/auth/devices/${pending.device.id}/approve/1`, { token: anna, body: { enabled: true } })).statusCode).toBe(404);
  });

  it('signs a device in with its secret: a 300 s device token in a family of its own', async () => {
    const phone = await linkPhone(t.app, anna);
    const claims = decodeJwt(phone.deviceToken);
    expect(claims).toMatchObject({ typ: 'device', dev: phone.id, sub: String(decodeJwt(anna).sub), cid: decodeJwt(anna).cid });
    expect(claims.exp! - claims.iat!).toBe(300);
    const [family] = await t.db.select().from(tokenFamilies).where(eq(tokenFamilies.id, claims.fam as string));
    expect(family).toBeDefined();
    const wrong = await send(t.app, 'POST', '/auth/token', { body: { secret: 'not-a-secret' } });
    expect(wrong.statusCode).toBe(403);
    // A revoked family stops its device token at once.
    await t.db.update(tokenFamilies).set({ revokedAt: new Date() }).where(eq(tokenFamilies.id, claims.fam as string));
    expect((await send(t.app, 'GET', '/device-api/device', { token: phone.deviceToken })).statusCode).toBe(401);
  });

  it('answers the device API with the device, its login and pending requests', async () => {
    const phone = await linkPhone(t.app, anna);
    await t.db.update(devices).set({ lastActivityAt: null }).where(eq(devices.id, phone.id));
    const res = await send(t.app, 'GET', '/device-api/device', { token: phone.deviceToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ device: { id: phone.id, status: 'approved' }, login: 'anna@demo.test', pending: [] });
    const [row] = await t.db.select().from(devices).where(eq(devices.id, phone.id));
    expect(row!.lastActivityAt).not.toBeNull();
    // A user token is not a device token.
    expect((await send(t.app, 'GET', '/device-api/device', { token: anna })).statusCode).toBe(401);
    expect((await send(t.app, 'GET', '/device-api/device')).statusCode).toBe(401);
  });

  it('refuses a device token on user endpoints and named methods', async () => {
    const phone = await linkPhone(t.app, anna);
    expect((await send(t.app, 'GET', '/auth/devices', { token: phone.deviceToken })).statusCode).toBe(401);
    expect((await send(t.app, 'POST', '/auth/devices', { token: phone.deviceToken, body: { name: 'x' } })).statusCode).toBe(401);
    expect((await send(t.app, 'POST', '/auth/scp/request', { token: phone.deviceToken })).statusCode).toBe(401);
    const named = await callMethod(t.app, 'getCustomerInfo', {}, { token: phone.deviceToken });
    expect(named.status).toBe(401);
    expect(named.body.responseCode).toBe('AU');
  });

  it('lets a device unlink only itself, after which its token and secret stop working', async () => {
    const phone = await linkPhone(t.app, anna);
    const other = await linkPhone(t.app, anna);
    expect((await send(t.app, 'DELETE', `/device-api/device/${other.id}`, { token: phone.deviceToken })).statusCode).toBe(403);
    expect((await send(t.app, 'DELETE', `/device-api/device/${phone.id}`, { token: phone.deviceToken })).statusCode).toBe(204);
    expect((await send(t.app, 'GET', '/device-api/device', { token: phone.deviceToken })).statusCode).toBe(401);
    expect((await send(t.app, 'POST', '/auth/token', { body: { secret: phone.secret } })).statusCode).toBe(403);
    expect((await send(t.app, 'GET', `/auth/devices/${phone.id}`, { token: anna })).statusCode).toBe(404);
    expect((await send(t.app, 'GET', '/device-api/device', { token: other.deviceToken })).statusCode).toBe(200);
  });

  it('unlinks from settings: revoked, DeviceUnlinked on the device channel, token refused', async () => {
    const phone = await linkPhone(t.app, anna);
    const heard: PushMessage[] = [];
    const off = t.publisher.subscribeTo({ kind: 'device', id: phone.id }, (e) => heard.push(e));
    expect((await send(t.app, 'DELETE', `/auth/devices/${phone.id}`, { token: anna })).statusCode).toBe(204);
    await new Promise((r) => setTimeout(r, 50));
    off();
    expect(heard).toEqual([{ type: 'DeviceUnlinked', deviceId: phone.id }]);
    const [row] = await t.db.select().from(devices).where(eq(devices.id, phone.id));
    expect(row!.status).toBe('revoked');
    expect((await send(t.app, 'GET', '/device-api/device', { token: phone.deviceToken })).statusCode).toBe(401);
    expect((await send(t.app, 'DELETE', `/auth/devices/${phone.id}`, { token: anna })).statusCode).toBe(404);
  });

  it('answers /auth/scp/request with a deeplink to /scp-mobile', async () => {
    const res = await send(t.app, 'POST', '/auth/scp/request', { token: anna });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { deeplink: string; code: string; deviceId: number; expiresInS: number };
    expect(body.deeplink).toBe(`http://bank.example/scp-mobile#link=${body.deviceId}.${body.code}`);
    expect(body.expiresInS).toBe(600);
    const device = (await send(t.app, 'GET', `/auth/devices/${body.deviceId}`, { token: anna })).json() as { name: string; status: string };
    expect(device).toMatchObject({ name: 'Phone', status: 'pending' });
  });

  it('sends the companion link by SMS through the outbox, at most 3 per hour', async () => {
    const sms = async (phoneNumber: string) => send(t.app, 'POST', '/auth/stores-urls/send', { token: clerk, body: { phoneNumber } });
    expect((await sms('12')).statusCode).toBe(403);
    for (let i = 0; i < 3; i++) expect((await sms('+370 612 34599')).statusCode).toBe(204);
    const limited = await sms('+370 612 34599');
    expect(limited.statusCode).toBe(429);
    const rows = await t.db.select().from(outbox).where(and(eq(outbox.channel, 'sms'), eq(outbox.recipient, '+37061234599')));
    expect(rows).toHaveLength(3);
    expect(rows[0]!.body).toContain('http://bank.example/device/');
    // anna's own allowance is untouched.
    expect((await send(t.app, 'POST', '/auth/stores-urls/send', { token: anna, body: { phoneNumber: '37061234598' } })).statusCode).toBe(204);
  });
});

describe('linking and the sign-in mode', () => {
  it('moves a user without a second step to push approval', async () => {
    const t = await newApp();
    const boris = (await signIn(t.app, 'boris')).accessToken;
    await linkPhone(t.app, boris);
    const [user] = await t.db.select().from(users).where(eq(users.email, 'boris@demo.test'));
    expect(user!.login2faMode).toBe('push');
  });

  it('completes a strict push migration from the restricted session it allows', async () => {
    const t = await newApp();
    const mila = (await signIn(t.app, 'mila')).accessToken;
    expect(decodeJwt(mila).rst).toBe('scp');
    // The restricted session may link a phone (that is what it is for).
    const res = await send(t.app, 'POST', '/auth/scp/request', { token: mila });
    expect(res.statusCode, res.body).toBe(200);
    const { deviceId, code } = res.json() as { deviceId: number; code: string };
    const approved = await send(t.app, 'POST', `/auth/devices/${deviceId}/approve`, { body: { code, type: 'android' } });
    expect(approved.statusCode, approved.body).toBe(200);
    const [user] = await t.db.select().from(users).where(eq(users.email, 'mila@demo.test'));
    expect(user!.login2faMode).toBe('push');
    expect(user!.pushMigrationDeadline).toBeNull();
    // Settings names the method sign-ins now use (getCustomerInfo twoStepVerificationMode).
    const [customer] = await t.db.select().from(customers).where(eq(customers.id, user!.customerId));
    expect(customer!.twoStepVerificationMode).toBe(1);
    expect(customer!.transactionApproveMode).toBe('push');
  });

  it('keeps the last phone that approves the sign-ins of a push user, until another method is chosen', async () => {
    const t = await newApp();
    const boris = (await signIn(t.app, 'boris')).accessToken;
    const first = await linkPhone(t.app, boris);
    const lastOne = { message: 'This is the only phone that approves your sign-ins; choose another two-step verification method first' };
    // Unlinking it from the settings, from the phone itself, or switching off its sign-in approval
    // would leave every later sign-in without a phone: refused, and nothing changed.
    const unlink = await send(t.app, 'DELETE', `/auth/devices/${first.id}`, { token: boris });
    expect(unlink.statusCode).toBe(403);
    expect(unlink.json()).toEqual(lastOne);
    const self = await send(t.app, 'DELETE', `/device-api/device/${first.id}`, { token: first.deviceToken });
    expect(self.statusCode).toBe(403);
    expect(self.json()).toEqual(lastOne);
    const loginOff = await send(t.app, 'PATCH', `/auth/devices/${first.id}/approve/1`, { token: boris, body: { enabled: false } });
    expect(loginOff.statusCode).toBe(403);
    // Other approvals are its own business.
    expect((await send(t.app, 'PATCH', `/auth/devices/${first.id}/approve/2`, { token: boris, body: { enabled: false } })).statusCode).toBe(200);
    const [kept] = await t.db.select().from(devices).where(eq(devices.id, first.id));
    expect(kept).toMatchObject({ status: 'approved', approveMethodIds: [1] });

    // With a second phone, either may go, but not both.
    const second = await linkPhone(t.app, boris);
    expect((await send(t.app, 'DELETE', `/auth/devices/${first.id}`, { token: boris })).statusCode).toBe(204);
    expect((await send(t.app, 'DELETE', `/device-api/device/${second.id}`, { token: second.deviceToken })).statusCode).toBe(403);

    // Another sign-in method chosen: the phone may go.
    await t.db.update(users).set({ login2faMode: 'otp' }).where(eq(users.email, 'boris@demo.test'));
    expect((await send(t.app, 'DELETE', `/device-api/device/${second.id}`, { token: second.deviceToken })).statusCode).toBe(204);
  });

  it('refuses an expired linking code', async () => {
    let clockMs = Date.now();
    const t = await newApp({ now: () => clockMs });
    const boris = (await signIn(t.app, 'boris')).accessToken;
    const started = await startLink(t.app, boris);
    clockMs += 601_000;
    const res = await send(t.app, 'POST', `/auth/devices/${started.device.id}/approve`, { body: { code: started.code, type: 'android' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'The linking code has expired; start linking again' });
  });
});

// PGlite is one connection; races are real only on PostgreSQL.
describe.runIf(testDriver === 'pg')('linking under concurrency', () => {
  it('counts every one of simultaneous wrong codes, and links once for simultaneous right ones', async () => {
    const t = await newApp();
    const clerk = (await signIn(t.app, 'clerk')).accessToken;
    const guessed = await startLink(t.app, clerk);
    const guesses = await Promise.all(
      Array.from({ length: 8 }, () => send(t.app, 'POST', `/auth/devices/${guessed.device.id}/approve`, { body: { code: '33333333', type: 'android' } })),
    );
    expect(guesses.every((g) => g.statusCode === 403 || g.statusCode === 404)).toBe(true);
    const late = await send(t.app, 'POST', `/auth/devices/${guessed.device.id}/approve`, { body: { code: guessed.code, type: 'android' } });
    expect(late.statusCode).toBe(404);

    const started = await startLink(t.app, clerk);
    const approvals = await Promise.all(
      Array.from({ length: 4 }, () => send(t.app, 'POST', `/auth/devices/${started.device.id}/approve`, { body: { code: started.code, type: 'ios' } })),
    );
    expect(approvals.filter((a) => a.statusCode === 200)).toHaveLength(1);
  });
});
