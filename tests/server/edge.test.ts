/**
 * The platform's edge (issue 11): which proxy hops are believed for the client address
 * (TRUST_PROXY), HSTS in production, and the one bearer parser at every entry point.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { bearerToken, parseBearer, tokenValue } from '../../server/modules/platform/bearer.ts';
import { HSTS_VALUE } from '../../server/modules/platform/security-headers.ts';
import { parseTrustProxy, TrustProxyMessages } from '../../server/modules/platform/trust-proxy.ts';
import { createInProcessPublisher } from '../../server/modules/push/publisher.ts';
import { callMethod, createTestDatabase, signIn, type TestDatabase } from './harness.ts';

let database: TestDatabase;
/** TRUST_PROXY=1, production mode, serving a small web app */
let hop: FastifyInstance;
/** TRUST_PROXY=10.9.0.0/16 */
let listed: FastifyInstance;
/** no TRUST_PROXY, development mode */
let plain: FastifyInstance;
let annaToken: string;

const publisher = createInProcessPublisher();

beforeAll(async () => {
  database = await createTestDatabase();
  const distDir = mkdtempSync(join(tmpdir(), 'wlb-edge-dist-'));
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  mkdirSync(join(distDir, 'assets'));
  writeFileSync(join(distDir, 'assets', 'app.js'), 'console.log("app")');
  const common = { db: database.open.db, publisher, logger: false as const, transferWorkers: false as const };
  hop = await buildApp({ ...common, trustProxy: 1, production: true, distDir });
  listed = await buildApp({ ...common, trustProxy: parseTrustProxy('10.9.0.0/16'), production: false, distDir: null });
  plain = await buildApp({ ...common, production: false, distDir: null });
  await Promise.all([hop.ready(), listed.ready(), plain.ready()]);
  annaToken = (await signIn(plain, 'anna')).accessToken;
});
afterAll(async () => {
  await Promise.all([hop?.close(), listed?.close(), plain?.close()]);
  await publisher.close();
  await database?.close();
});

const ipOf = async (app: FastifyInstance, remoteAddress: string, forwarded?: string) =>
  (await callMethod(app, 'ipInfo', {}, { remoteAddress, ...(forwarded ? { headers: { 'x-forwarded-for': forwarded } } : {}) })).body.ip;

describe('TRUST_PROXY', () => {
  it('refuses true with a message naming the safe settings, and reads counts and address lists', () => {
    expect(() => parseTrustProxy('true')).toThrow(TrustProxyMessages.trueRefused);
    expect(() => parseTrustProxy('TRUE')).toThrow(/TRUST_PROXY=1/);
    expect(() => parseTrustProxy('10.0.0.1,nonsense')).toThrow(/"nonsense"/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/10\.0\.0\.0\/33/);
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy(' 10.0.0.1, 192.168.0.0/16 ,::1')).toEqual(['10.0.0.1', '192.168.0.0/16', '::1']);
  });

  it('with one hop, the address the proxy saw is the client, not what the client wrote before it', async () => {
    expect(await ipOf(hop, '127.0.0.1', '6.6.6.6, 10.0.0.9')).toBe('10.0.0.9');
    expect(await ipOf(hop, '127.0.0.1', '10.0.0.9')).toBe('10.0.0.9');
    expect(await ipOf(hop, '127.0.0.1')).toBe('127.0.0.1');
  });

  it('with a list, only a listed proxy is believed, and the walk stops at the first untrusted address', async () => {
    expect(await ipOf(listed, '127.0.0.1', '6.6.6.6')).toBe('127.0.0.1');
    expect(await ipOf(listed, '10.9.1.1', '6.6.6.6')).toBe('6.6.6.6');
    expect(await ipOf(listed, '10.9.1.1', '6.6.6.6, 7.7.7.7, 10.9.2.2')).toBe('7.7.7.7');
  });

  it('without it, the header is ignored', async () => {
    expect(await ipOf(plain, '127.0.0.1', '6.6.6.6')).toBe('127.0.0.1');
  });

  it('the login history records the address the proxy saw', async () => {
    const signedIn = await signIn(hop, 'boris', { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '6.6.6.6, 10.0.0.42' } });
    const history = await callMethod(hop, 'loginHistory', {}, { token: signedIn.accessToken });
    const ips = (history.body.items as { ip: string }[]).map((i) => i.ip);
    expect(ips[0]).toBe('10.0.0.42');
    expect(ips).not.toContain('6.6.6.6');
  });
});

describe('HSTS', () => {
  it('is on every answer in production: pages, files, API answers, errors and 404s', async () => {
    const answers = await Promise.all([
      hop.inject({ method: 'GET', url: '/' }),
      hop.inject({ method: 'GET', url: '/assets/app.js' }),
      hop.inject({ method: 'GET', url: '/assets/missing.js' }),
      hop.inject({ method: 'GET', url: '/api/v1/nothing' }),
      hop.inject({ method: 'POST', url: '/api/v1/?getCustomerInfo', payload: {} }),
      hop.inject({ method: 'POST', url: '/api/v1/?dictionaries', headers: { 'content-type': 'application/json' }, payload: '{not json' }),
      hop.inject({ method: 'POST', url: '/auth/login', payload: {} }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 404, 404, 401, 400, 403]);
    for (const a of answers) expect(a.headers['strict-transport-security']).toBe(HSTS_VALUE);
  });

  it('is left out in development over plain http', async () => {
    expect((await plain.inject({ method: 'GET', url: '/api/v1/nothing' })).headers['strict-transport-security']).toBeUndefined();
  });
});

describe('the bearer parser', () => {
  it('takes the scheme in any case, exactly one space and one token68; nothing else', () => {
    expect(parseBearer('Bearer abc.DEF-_~+/x==')).toBe('abc.DEF-_~+/x==');
    expect(parseBearer('bearer abc')).toBe('abc');
    expect(parseBearer('BEARER abc')).toBe('abc');
    for (const bad of [undefined, '', 'Bearer', 'Bearer ', 'Bearer  abc', 'Bearer\tabc', 'Bearer abc ', ' Bearer abc', 'Bearer abc def', 'Basic abc', 'Bearerabc', 'Bearer a=b', ['Bearer abc', 'Bearer def'], `Bearer ${'a'.repeat(5000)}`]) {
      expect(parseBearer(bad), String(bad)).toBeNull();
    }
    expect(bearerToken({ headers: { authorization: 'bearer xyz' } })).toBe('xyz');
    expect(tokenValue('abc def')).toBeNull();
    expect(tokenValue(42)).toBeNull();
  });

  /** The lower-case scheme is accepted and a doubled space refused, alike at every entry point. */
  const variants = (token: string) => ({ good: `bearer ${token}`, bad: `Bearer  ${token}` });

  it('the method endpoint', async () => {
    const { good, bad } = variants(annaToken);
    expect((await callMethod(plain, 'getCustomerInfo', {}, { headers: { authorization: good } })).status).toBe(200);
    expect((await callMethod(plain, 'getCustomerInfo', {}, { headers: { authorization: bad } })).status).toBe(401);
  });

  it('the REST routes (devices, two-step settings)', async () => {
    const { good, bad } = variants(annaToken);
    for (const url of ['/auth/devices', '/auth/recovery-codes']) {
      expect((await plain.inject({ method: 'GET', url, headers: { authorization: good } })).statusCode, url).toBe(200);
      expect((await plain.inject({ method: 'GET', url, headers: { authorization: bad } })).statusCode, url).toBe(401);
    }
  });

  it('the downloads', async () => {
    const { good, bad } = variants(annaToken);
    // An export that does not exist: a signed-in caller gets 404, an unreadable bearer 401.
    const url = '/api/v1/exports/00000000-0000-4000-8000-000000000000/file';
    expect((await plain.inject({ method: 'GET', url, headers: { authorization: good } })).statusCode).toBe(404);
    expect((await plain.inject({ method: 'GET', url, headers: { authorization: bad } })).statusCode).toBe(401);
  });

  it('the push socket: { token } and the upgrade Authorization header', async () => {
    await plain.listen({ port: 0, host: '127.0.0.1' });
    const address = plain.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const url = `ws://127.0.0.1:${address.port}/graphql`;
    /** 'ack' when the connection is accepted, else the close code. */
    const open = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
      new Promise<string>((resolve, reject) => {
        const ws = new WebSocket(url, 'graphql-transport-ws', { headers });
        ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload })));
        ws.on('message', (data) => {
          if ((JSON.parse(String(data)) as { type: string }).type === 'connection_ack') {
            resolve('ack');
            ws.close();
          }
        });
        ws.on('close', (code) => resolve(String(code)));
        ws.on('error', reject);
      });
    const { good, bad } = variants(annaToken);
    expect(await open({ token: annaToken })).toBe('ack');
    expect(await open({}, { authorization: good })).toBe('ack');
    expect(await open({}, { authorization: bad })).toBe('4403');
    expect(await open({ token: ` ${annaToken}` })).toBe('4403');
    expect(await open({ token: `Bearer ${annaToken}` })).toBe('4403');
  });
});
