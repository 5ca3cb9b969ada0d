/**
 * Approval requests end to end: a push sign-in delivered to the linked phone over graphql-ws, the
 * phone's answer (PUT /auth/login/{key}/confirm), the waiting browser's temporary-token channel,
 * re-sends, verifyDevice, expiry, wrong devices, and the device channel's own lifecycle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import * as v from 'valibot';
import { PUSH_SUBSCRIPTION, PushEventSchema, type PushEvent } from '../../api/push.ts';
import type { ApprovalRequest } from '../../api/devices.ts';
import { createTestApp, pkcePair, signIn, testDriver, type TestApp } from './harness.ts';
import { approvalRequests, tokenFamilies } from '../../server/modules/auth/auth.tables.ts';
import { createApprovalService, type ApprovalRow } from '../../server/modules/auth/approvals.service.ts';
import { sha256Hex } from '../../server/modules/auth/crypto.ts';
import type { DeviceCaller } from '../../server/modules/auth/devices.service.ts';

const apps: TestApp[] = [];
const clients: Client[] = [];

afterAll(async () => {
  for (const c of clients) await c.dispose();
  for (const t of apps.reverse()) await t.close();
});

async function listening(options: Parameters<typeof createTestApp>[0] = {}): Promise<{ t: TestApp; url: string }> {
  const t = await createTestApp(options);
  apps.push(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { t, url: `ws://127.0.0.1:${address.port}/graphql` };
}

interface Socket {
  /** every payload, checked against the contract's schema */
  events: PushEvent[];
  errors: unknown[];
  ready: Promise<void>;
  closed: Promise<number>;
}

/** Connects with connectionParams and subscribes to `events`; payloads arrive parsed. */
function listen(url: string, connectionParams: Record<string, unknown>): Socket {
  const client = createClient({ url, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
  clients.push(client);
  const socket: Socket = { events: [], errors: [], ready: Promise.resolve(), closed: Promise.resolve(0) };
  socket.closed = new Promise((resolve) => client.on('closed', (event) => resolve((event as { code: number }).code)));
  socket.ready = new Promise<void>((resolve) => {
    const off = client.on('connected', () => {
      off();
      setTimeout(resolve, 150);
    });
    client.on('closed', () => resolve());
  });
  client.subscribe<{ events: { type: string; payload: string } }>(
    { query: PUSH_SUBSCRIPTION },
    {
      next: (value) => {
        if (value.data) socket.events.push(v.parse(PushEventSchema, JSON.parse(value.data.events.payload)));
      },
      error: (err) => socket.errors.push(err),
      complete: () => {},
    },
  );
  return socket;
}

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const requestsOf = (socket: Socket): ApprovalRequest[] => socket.events.flatMap((e) => (e.type === 'ApprovalRequested' ? [e.request] : []));

const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

function send(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  options: { body?: unknown; token?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    ...(options.body !== undefined ? { payload: options.body as Record<string, unknown> } : {}),
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
  });
}

interface Phone {
  id: number;
  secret: string;
}

async function linkPhone(app: FastifyInstance, userToken: string, name: string): Promise<Phone> {
  const started = (await send(app, 'POST', '/auth/devices', { token: userToken, body: { name } })).json() as { device: { id: number }; code: string };
  const approved = await send(app, 'POST', `/auth/devices/${started.device.id}/approve`, { body: { code: started.code, type: 'android' } });
  expect(approved.statusCode, approved.body).toBe(200);
  return { id: started.device.id, secret: (approved.json() as { secret: string }).secret };
}

/** A fresh device token (the clock of these apps moves, so tokens are taken when needed). */
async function deviceToken(app: FastifyInstance, phone: Phone): Promise<string> {
  const res = await send(app, 'POST', '/auth/token', { body: { secret: phone.secret } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { accessToken: string }).accessToken;
}

interface PushAnswer {
  authFlow: string;
  code: string;
  temporaryToken: string;
  qrLink: string;
  deviceList: { id: number }[];
  expiresInS: number;
  verifier: string;
}

async function pushSignIn(app: FastifyInstance, email: string): Promise<PushAnswer> {
  const { verifier, challenge } = pkcePair();
  const res = await send(app, 'POST', '/auth/login', {
    body: { client: 'spa', username: email, password: 'Demo-Pass-2026', codeChallenge: challenge },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...(res.json() as Omit<PushAnswer, 'verifier'>), verifier };
}

const confirm = (app: FastifyInstance, token: string, key: string, result: boolean) =>
  send(app, 'PUT', `/auth/login/${encodeURIComponent(key)}/confirm`, { token, body: { result } });

const keyOfQr = (qrLink: string) => decodeURIComponent(qrLink.split('#approve=')[1]!);

describe('push approval over the live channels', () => {
  let clockMs = Date.now();
  let t: TestApp;
  let url: string;
  let phoneA: Phone;
  let annaPhone: Phone;
  let annaToken: string;
  const boris = 'boris@demo.test';

  beforeAll(async () => {
    ({ t, url } = await listening({ now: () => clockMs, pushRecheckMs: 100 }));
    const borisToken = (await signIn(t.app, 'boris')).accessToken;
    // boris has no second step: linking his phone moves his sign-in to push approval.
    phoneA = await linkPhone(t.app, borisToken, 'Boris phone');
    annaToken = (await signIn(t.app, 'anna')).accessToken;
    annaPhone = await linkPhone(t.app, annaToken, 'Anna phone');
  });

  it('delivers the request to the phone, which approves it; the browser hears it and signs in', async () => {
    const phoneSocket = listen(url, { token: await deviceToken(t.app, phoneA) });
    await phoneSocket.ready;
    const attempt = await pushSignIn(t.app, boris);
    expect(attempt.authFlow).toBe('push');
    expect(attempt.deviceList.map((d) => d.id)).toEqual([phoneA.id]);
    const browser = listen(url, { temporaryToken: attempt.temporaryToken });
    await browser.ready;

    await waitFor(() => phoneSocket.events.some((e) => e.type === 'ApprovalRequested'));
    const requested = { request: requestsOf(phoneSocket)[0]! };
    expect(requested.request.kind).toBe('login');
    // The QR link carries the same key the phone received.
    expect(requested.request.key).toBe(keyOfQr(attempt.qrLink));
    const [row] = await t.db.select().from(approvalRequests).where(eq(approvalRequests.keyHash, sha256Hex(requested.request.key)));
    expect(row!.status).toBe('pending');

    const token = await deviceToken(t.app, phoneA);
    const listed = (await send(t.app, 'GET', '/device-api/device', { token })).json() as { pending: { key: string }[] };
    expect(listed.pending.map((p) => p.key)).toEqual([requested.request.key]);

    // Not yet approved: the code does not exchange.
    expect((await send(t.app, 'POST', '/auth/token', { body: { code: attempt.code, codeVerifier: attempt.verifier } })).statusCode).toBe(403);
    // Another user's phone may not answer; an unknown key is 404.
    expect((await confirm(t.app, await deviceToken(t.app, annaPhone), requested.request.key, true)).statusCode).toBe(403);
    expect((await confirm(t.app, token, 'no-such-key', true)).statusCode).toBe(404);
    // A user token is not a device token.
    expect((await confirm(t.app, annaToken, requested.request.key, true)).statusCode).toBe(401);

    const answered = await confirm(t.app, token, requested.request.key, true);
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toEqual({ result: true });
    expect(await browser.closed).toBe(4403);
    expect(browser.events).toEqual([{ type: 'LoginApproval', status: 'approved' }]);
    await waitFor(() => phoneSocket.events.some((e) => e.type === 'ApprovalClosed'));
    expect(phoneSocket.events.find((e) => e.type === 'ApprovalClosed')).toEqual({ type: 'ApprovalClosed', key: requested.request.key, status: 'approved' });

    // The second answer counts for nothing.
    expect((await confirm(t.app, token, requested.request.key, false)).json()).toEqual({ result: false });
    const tokens = await send(t.app, 'POST', '/auth/token', { body: { code: attempt.code, codeVerifier: attempt.verifier } });
    expect(tokens.statusCode, tokens.body).toBe(200);
    // A browser arriving after the answer hears it at once.
    const late = listen(url, { temporaryToken: attempt.temporaryToken });
    expect(await late.closed).toBe(4403);
    expect(late.events).toEqual([{ type: 'LoginApproval', status: 'approved' }]);
  });

  it('tells the browser when the phone declines', async () => {
    const attempt = await pushSignIn(t.app, boris);
    const browser = listen(url, { temporaryToken: attempt.temporaryToken });
    await browser.ready;
    const res = await confirm(t.app, await deviceToken(t.app, phoneA), keyOfQr(attempt.qrLink), false);
    expect(res.json()).toEqual({ result: true });
    expect(await browser.closed).toBe(4403);
    expect(browser.events).toEqual([{ type: 'LoginApproval', status: 'declined' }]);
    expect((await send(t.app, 'POST', '/auth/token', { body: { code: attempt.code, codeVerifier: attempt.verifier } })).statusCode).toBe(403);
  });

  it('refuses a temporary token it does not know', async () => {
    const stranger = listen(url, { temporaryToken: 'not-a-token' });
    expect(await stranger.closed).toBe(4403);
    expect(stranger.events).toEqual([]);
  });

  it('never delivers a request whose transaction rolled back, and runs the twoStepMode hook in the answer', async () => {
    const phoneSocket = listen(url, { token: await deviceToken(t.app, phoneA) });
    await phoneSocket.ready;
    const hooked: ApprovalRow[] = [];
    const approvals = createApprovalService({
      db: t.db,
      publisher: t.publisher,
      now: () => clockMs,
      onApproved: { twoStepMode: async (_tx, row) => void hooked.push(row) },
    });
    const userId = Number(decodeJwt(await deviceToken(t.app, phoneA)).sub);
    const details = { ip: '127.0.0.1', countryCode: null, userAgent: 'test' };
    await expect(
      t.db.transaction(async (tx) => {
        await approvals.createTwoStepApproval(tx, { userId, mode: 1, details });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const created = await t.db.transaction((tx) => approvals.createTwoStepApproval(tx, { userId, mode: 1, details }));
    expect(created.deviceCount).toBe(1);
    await waitFor(() => phoneSocket.events.some((e) => e.type === 'ApprovalRequested'));
    await settle();
    const requested = requestsOf(phoneSocket);
    expect(requested).toHaveLength(1);
    expect(requested[0]).toMatchObject({ key: created.key, kind: 'twoStepMode', mode: 1 });

    const caller: DeviceCaller = { deviceId: phoneA.id, userId, customerId: 0, familyId: '' };
    // Without the twoStepMode method the phone may not answer it (the PATCH endpoint is tested in devices.test.ts).
    await t.db.execute(sql`update devices set approve_method_ids = '[1]'::jsonb where id = ${phoneA.id}`);
    await expect(approvals.answer(caller, created.key, true)).rejects.toMatchObject({ statusCode: 403 });
    await t.db.execute(sql`update devices set approve_method_ids = '[1,2]'::jsonb where id = ${phoneA.id}`);
    expect(await approvals.answer(caller, created.key, true)).toEqual({ result: true });
    expect(hooked.map((r) => r.keyHash)).toEqual([created.keyHash]);
    expect(await approvals.answer(caller, created.key, true)).toEqual({ result: false });
    expect(hooked).toHaveLength(1);
  });

  it('closes a device socket with DeviceUnlinked when the user unlinks the phone', async () => {
    const spare = await linkPhone(t.app, annaToken, 'Spare');
    const socket = listen(url, { token: await deviceToken(t.app, spare) });
    await socket.ready;
    expect((await send(t.app, 'DELETE', `/auth/devices/${spare.id}`, { token: annaToken })).statusCode).toBe(204);
    expect(await socket.closed).toBe(4403);
    expect(socket.events).toEqual([{ type: 'DeviceUnlinked', deviceId: spare.id }]);
  });

  it('closes a device socket once its token family is revoked (the periodic re-check)', async () => {
    const token = await deviceToken(t.app, annaPhone);
    const socket = listen(url, { token });
    await socket.ready;
    await t.db.update(tokenFamilies).set({ revokedAt: new Date(clockMs) }).where(eq(tokenFamilies.id, decodeJwt(token).fam as string));
    expect(await socket.closed).toBe(4403);
  });

  it('expires an unanswered request: the phone gets false, the browser hears expired', async () => {
    const attempt = await pushSignIn(t.app, boris);
    const browser = listen(url, { temporaryToken: attempt.temporaryToken });
    await browser.ready;
    clockMs += 121_000;
    expect(await browser.closed).toBe(4403);
    expect(browser.events).toEqual([{ type: 'LoginApproval', status: 'expired' }]);
    expect((await confirm(t.app, await deviceToken(t.app, phoneA), keyOfQr(attempt.qrLink), true)).json()).toEqual({ result: false });
    // An expired attempt's channel refuses new sockets.
    const again = listen(url, { temporaryToken: attempt.temporaryToken });
    expect(await again.closed).toBe(4403);
    expect(again.events).toEqual([]);
  });

  it('re-sends at most once per 10 s, revives an expired request and stops with the sign-in', async () => {
    const phoneSocket = listen(url, { token: await deviceToken(t.app, phoneA) });
    await phoneSocket.ready;
    const attempt = await pushSignIn(t.app, boris);
    const resend = (body: Record<string, unknown>) => send(t.app, 'POST', '/auth/push/re-send', { body });
    await waitFor(() => phoneSocket.events.filter((e) => e.type === 'ApprovalRequested').length === 1);

    const tooSoon = await resend({ temporaryToken: attempt.temporaryToken });
    expect(tooSoon.statusCode).toBe(429);
    expect((await resend({ temporaryToken: 'unknown' })).statusCode).toBe(404);
    clockMs += 11_000;
    // Only the user's approved login devices may be chosen.
    expect((await resend({ temporaryToken: attempt.temporaryToken, deviceId: annaPhone.id })).statusCode).toBe(403);
    const ok = await resend({ temporaryToken: attempt.temporaryToken });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ expiresInS: 120 });
    await waitFor(() => phoneSocket.events.filter((e) => e.type === 'ApprovalRequested').length === 2);

    // Expired, then sent again: it lives again for 120 s and can be approved.
    clockMs += 121_000;
    const token = await deviceToken(t.app, phoneA);
    expect((await confirm(t.app, token, keyOfQr(attempt.qrLink), true)).json()).toEqual({ result: false });
    expect((await resend({ temporaryToken: attempt.temporaryToken })).statusCode).toBe(200);
    expect((await confirm(t.app, token, keyOfQr(attempt.qrLink), true)).json()).toEqual({ result: true });
    expect((await resend({ temporaryToken: attempt.temporaryToken })).statusCode).toBe(404);

    // A sign-in attempt is over with its login code (300 s): no more re-sends.
    const old = await pushSignIn(t.app, boris);
    clockMs += 301_000;
    expect((await resend({ temporaryToken: old.temporaryToken })).statusCode).toBe(403);
  });

  it('verifyDevice: nothing is sent until the user picks a phone, then only to that phone', async () => {
    // A second phone for boris, linked from a session his first phone approves.
    const first = await pushSignIn(t.app, boris);
    const firstToken = await deviceToken(t.app, phoneA);
    expect((await confirm(t.app, firstToken, keyOfQr(first.qrLink), true)).json()).toEqual({ result: true });
    const tokens = (await send(t.app, 'POST', '/auth/token', { body: { code: first.code, codeVerifier: first.verifier } })).json() as {
      accessToken: string;
    };
    const phoneB = await linkPhone(t.app, tokens.accessToken, 'Boris tablet');

    const socketA = listen(url, { token: await deviceToken(t.app, phoneA) });
    const socketB = listen(url, { token: await deviceToken(t.app, phoneB) });
    await Promise.all([socketA.ready, socketB.ready]);
    const attempt = await pushSignIn(t.app, boris);
    expect(attempt.authFlow).toBe('verifyDevice');
    expect(attempt.deviceList.map((d) => d.id).sort()).toEqual([phoneA.id, phoneB.id].sort());
    await settle();
    expect(socketA.events).toEqual([]);
    expect(socketB.events).toEqual([]);
    const tokenA = await deviceToken(t.app, phoneA);
    expect(((await send(t.app, 'GET', '/device-api/device', { token: tokenA })).json() as { pending: unknown[] }).pending).toEqual([]);

    // The first choice goes at once (no re-send wait: nothing was sent yet).
    const chosen = await send(t.app, 'POST', '/auth/push/re-send', { body: { temporaryToken: attempt.temporaryToken, deviceId: phoneB.id } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    await waitFor(() => socketB.events.some((e) => e.type === 'ApprovalRequested'));
    await settle();
    expect(socketA.events).toEqual([]);
    const key = requestsOf(socketB)[0]!.key;
    // The phone not chosen may not answer.
    expect((await confirm(t.app, tokenA, key, true)).statusCode).toBe(403);
    expect((await confirm(t.app, await deviceToken(t.app, phoneB), key, true)).json()).toEqual({ result: true });
  });
});

describe.runIf(testDriver === 'pg')('approvals across two instances', () => {
  it('delivers to a phone on one instance and the answer to a browser on the other', async () => {
    const first = await listening();
    const second = await listening({ shareDatabaseOf: first.t });
    const borisToken = (await signIn(first.t.app, 'boris')).accessToken;
    const phone = await linkPhone(first.t.app, borisToken, 'Phone');
    const phoneSocket = listen(second.url, { token: await deviceToken(first.t.app, phone) });
    await phoneSocket.ready;
    const attempt = await pushSignIn(first.t.app, 'boris@demo.test');
    const browser = listen(first.url, { temporaryToken: attempt.temporaryToken });
    await browser.ready;
    await waitFor(() => phoneSocket.events.some((e) => e.type === 'ApprovalRequested'));
    const res = await confirm(second.t.app, await deviceToken(second.t.app, phone), keyOfQr(attempt.qrLink), true);
    expect(res.json()).toEqual({ result: true });
    expect(await browser.closed).toBe(4403);
    expect(browser.events).toEqual([{ type: 'LoginApproval', status: 'approved' }]);
  });
});

// PGlite is one connection; races are real only on PostgreSQL.
describe.runIf(testDriver === 'pg')('approvals under concurrency', () => {
  it('counts exactly one of several simultaneous answers, and one of several simultaneous re-sends', async () => {
    let clockMs = Date.now();
    const { t } = await listening({ now: () => clockMs });
    const phone = await linkPhone(t.app, (await signIn(t.app, 'boris')).accessToken, 'Phone');
    const token = await deviceToken(t.app, phone);

    const resent = await pushSignIn(t.app, 'boris@demo.test');
    clockMs += 11_000;
    const resends = await Promise.all(
      Array.from({ length: 5 }, () => send(t.app, 'POST', '/auth/push/re-send', { body: { temporaryToken: resent.temporaryToken } })),
    );
    expect(resends.map((r) => r.statusCode).sort()).toEqual([200, 429, 429, 429, 429]);

    const attempt = await pushSignIn(t.app, 'boris@demo.test');
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => confirm(t.app, token, keyOfQr(attempt.qrLink), i % 2 === 0)));
    const results = answers.map((r) => (r.json() as { result: boolean }).result);
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
