/**
 * The web app's sign-in-attempt client (src/lib/login-approval.ts) against the real platform:
 * the live channel with `{ temporaryToken }` hears the phone's answer (approved, declined, expired),
 * a refused channel is reported as lost, and POST /auth/push/re-send answers as the login machine
 * expects (429 too soon, 404 unknown, 200 with the new life).
 *
 * Proof it can fail: with the client ignoring LoginApproval events (broken on purpose, restored),
 * the approved, answered-before-connecting and expiry tests went red (each reported 'lost').
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { connectLoginApproval, resendLoginApproval, type LoginApprovalStatus } from '../../src/lib/login-approval.ts';
import { createTestApp, pkcePair, signIn, type TestApp } from './harness.ts';

let clockMs = Date.now();
let t: TestApp;
let wsUrl: string;
let httpBase: string;
let phone: { id: number; secret: string };
const disposers: (() => void)[] = [];

async function post(app: FastifyInstance, url: string, body: unknown, token?: string) {
  return app.inject({
    method: 'POST',
    url,
    payload: body as Record<string, unknown>,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

beforeAll(async () => {
  t = await createTestApp({ now: () => clockMs, pushRecheckMs: 100 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  wsUrl = `ws://127.0.0.1:${address.port}/graphql`;
  httpBase = `http://127.0.0.1:${address.port}`;
  // boris has no second step: linking a phone moves his sign-in to push approval.
  const borisToken = (await signIn(t.app, 'boris')).accessToken;
  const started = (await post(t.app, '/auth/devices', { name: 'Boris phone' }, borisToken)).json() as { device: { id: number }; code: string };
  const approved = await post(t.app, `/auth/devices/${started.device.id}/approve`, { code: started.code, type: 'android' });
  expect(approved.statusCode, approved.body).toBe(200);
  phone = { id: started.device.id, secret: (approved.json() as { secret: string }).secret };
});

afterAll(async () => {
  for (const dispose of disposers) dispose();
  await t.close();
});

async function pushSignIn() {
  const { verifier, challenge } = pkcePair();
  const res = await post(t.app, '/auth/login', { client: 'spa', username: 'boris@demo.test', password: 'Demo-Pass-2026', codeChallenge: challenge });
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json() as { authFlow: string; code: string; temporaryToken: string; qrLink: string };
  expect(answer.authFlow).toBe('push');
  return { ...answer, verifier, key: decodeURIComponent(answer.qrLink.split('#approve=')[1] ?? '') };
}

async function answerOnPhone(key: string, result: boolean) {
  const token = (await post(t.app, '/auth/token', { secret: phone.secret })).json() as { accessToken: string };
  const res = await t.app.inject({
    method: 'PUT',
    url: `/auth/login/${encodeURIComponent(key)}/confirm`,
    payload: { result },
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.accessToken}` },
  });
  expect(res.json()).toEqual({ result: true });
}

/** Opens the client's channel; resolves with what it reported first. */
function listen(temporaryToken: string) {
  let report: LoginApprovalStatus | 'lost' | null = null;
  const reported = new Promise<LoginApprovalStatus | 'lost'>((resolve) => {
    const dispose = connectLoginApproval({
      url: wsUrl,
      temporaryToken,
      webSocketImpl: WebSocket,
      onStatus: (s) => {
        report ??= s;
        resolve(s);
      },
      onLost: () => {
        report ??= 'lost';
        resolve('lost');
      },
    });
    disposers.push(dispose);
  });
  return { reported, current: () => report };
}

const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

describe('sign-in attempt live channel (src/lib/login-approval.ts)', () => {
  it('hears the approval; the code then exchanges without a one-time code', async () => {
    const attempt = await pushSignIn();
    const channel = listen(attempt.temporaryToken);
    await settle();
    expect(channel.current()).toBeNull();
    await answerOnPhone(attempt.key, true);
    expect(await channel.reported).toBe('approved');
    const tokens = await post(t.app, '/auth/token', { code: attempt.code, codeVerifier: attempt.verifier });
    expect(tokens.statusCode, tokens.body).toBe(200);
  });

  it('hears an answer given before it connected', async () => {
    const attempt = await pushSignIn();
    await answerOnPhone(attempt.key, false);
    expect(await listen(attempt.temporaryToken).reported).toBe('declined');
  });

  it('hears the expiry', async () => {
    const attempt = await pushSignIn();
    const channel = listen(attempt.temporaryToken);
    await settle();
    clockMs += 121_000;
    expect(await channel.reported).toBe('expired');
  });

  it('reports an unknown attempt as lost, without retrying', async () => {
    expect(await listen('not-a-temporary-token').reported).toBe('lost');
  });

  it('re-sends as the login machine expects', async () => {
    const deps = { authUrl: (path: string) => `${httpBase}${path}`, language: () => 'en' };
    const attempt = await pushSignIn();
    expect(await resendLoginApproval(deps, { temporaryToken: attempt.temporaryToken })).toEqual({ ok: false, status: 429 });
    expect(await resendLoginApproval(deps, { temporaryToken: 'unknown' })).toEqual({ ok: false, status: 404 });
    clockMs += 11_000;
    expect(await resendLoginApproval(deps, { temporaryToken: attempt.temporaryToken, deviceId: phone.id })).toEqual({ ok: true, expiresInS: 120 });
    // no answer at all (nothing listens there) is status 0
    expect(await resendLoginApproval({ ...deps, authUrl: (path) => `http://127.0.0.1:1${path}` }, { temporaryToken: 'x' })).toEqual({ ok: false, status: 0 });
  });
});
