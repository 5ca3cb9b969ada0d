/** Platform concerns: security headers, static app and history fallback, multipart, logs. */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompressFile } from '../../scripts/precompress.ts';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { callMethod, createTestApp, pkcePair, postJson, signIn, totpCode, type TestApp } from './harness.ts';

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk));
    done();
  },
});

let t: TestApp;
let distDir: string;

beforeAll(async () => {
  distDir = mkdtempSync(join(tmpdir(), 'wlb-dist-'));
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>');
  mkdirSync(join(distDir, 'assets'));
  writeFileSync(join(distDir, 'assets', 'app.js'), 'console.log("app")');
  // A bundle large enough to be worth compressing, with its build-time copies.
  writeFileSync(join(distDir, 'assets', 'big.js'), `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i % 7}`))};\n`);
  expect(precompressFile(join(distDir, 'assets', 'big.js'))).toBe(true);
  t = await createTestApp({ logStream, distDir });
});
afterAll(async () => {
  await t?.close();
});

function expectSecurityHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/connect-src 'self' ws:\/\/\S+ wss:\/\/\S+/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(String(headers['permissions-policy'])).toContain('geolocation=()');
}

describe('compressed assets', () => {
  it('serves the build-time brotli or gzip copy the client accepts, with Vary, and the file itself to anyone else', async () => {
    const original = readFileSync(join(distDir, 'assets', 'big.js'));
    const br = await t.app.inject({ method: 'GET', url: '/assets/big.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(original.length / 4);
    expect(brotliDecompressSync(br.rawPayload).equals(original)).toBe(true);
    const gz = await t.app.inject({ method: 'GET', url: '/assets/big.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(original)).toBe(true);
    const plain = await t.app.inject({ method: 'GET', url: '/assets/big.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(original)).toBe(true);
    // A file too small to be worth it has no copies and goes out as it is.
    const small = await t.app.inject({ method: 'GET', url: '/assets/app.js', headers: { 'accept-encoding': 'br' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('sends a build script only the headers that act on it (the document policies stay on pages and everything else)', async () => {
    const script = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(script.headers['content-security-policy']).toBeUndefined();
    expect(script.headers['permissions-policy']).toBeUndefined();
    // not a build script: a query, another kind of file, a path outside /assets/
    expectSecurityHeaders((await t.app.inject({ method: 'GET', url: '/assets/app.js?x=1' })).headers);
    expectSecurityHeaders((await t.app.inject({ method: 'GET', url: '/assets/missing.svg' })).headers);
    expectSecurityHeaders((await t.app.inject({ method: 'GET', url: '/app.js' })).headers);
  });
});

describe('security headers', () => {
  it('are on the app, on API answers, on token-service errors and on 404s', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expectSecurityHeaders(page.headers);
    expectSecurityHeaders((await callMethod(t.app, 'getCustomerInfo')).headers);
    expectSecurityHeaders((await postJson(t.app, '/auth/login', {})).headers);
    expectSecurityHeaders((await t.app.inject({ method: 'GET', url: '/api/v1/nothing' })).headers);
    expect(page.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS behind an https proxy', async () => {
    const proxied = await createTestApp({ trustProxy: 1, distDir });
    try {
      const res = await proxied.app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    } finally {
      await proxied.close();
    }
  });
});

describe('the web app', () => {
  it('serves files and falls back to index.html for client routes', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toContain('console.log');
    for (const url of ['/login', '/transfer/p2p', '/card/12/pin/']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('does not fall back for missing files or API paths', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/auth/login' })).statusCode).toBe(404);
  });

  it('says the app is not built when dist/ is missing, and the API still answers', async () => {
    const bare = await createTestApp({ distDir: join(distDir, 'nope') });
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/home' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('not built');
      expect((await callMethod(bare.app, 'dictionaryCurrencies')).body.responseCode).toBe('00');
    } finally {
      await bare.close();
    }
  });
});

describe('multipart calls', () => {
  it('reads the JSON body from the data part of a method that takes files', async () => {
    const s = await signIn(t.app, 'boris');
    const boundary = '----wlbtest';
    const payload = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="data"',
      '',
      JSON.stringify({ categoryId: 'bad', lang: 'xx' }),
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="a.txt"',
      'Content-Type: text/plain',
      '',
      'hello',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const send = (name: string, body: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/?${name}`,
        payload: body,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${s.accessToken}` },
      });
    const res = await send('customerJumioDocumentCreate', payload);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.responseCode).toBe('VF');
    expect(body.validationErrors.map((e: { param: string }) => e.param)).toEqual(expect.arrayContaining(['categoryId', 'lang']));

    const nj = await send('customerJumioDocumentCreate', payload.replace(JSON.stringify({ categoryId: 'bad', lang: 'xx' }), '{nope'));
    expect(nj.json()).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'data' }] });

    // A method whose contract takes no files refuses multipart (its JSON would be fine).
    const fileless = await send('termsList', payload.replace(JSON.stringify({ categoryId: 'bad', lang: 'xx' }), JSON.stringify({ lang: 'es' })));
    expect(fileless.statusCode).toBe(415);
    expect(fileless.json()).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'Content-Type' }] });
  });

  it('refuses a JSON body over 1 MB', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/?dictionaryCurrencies',
      payload: JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
  });
});

describe('logs', () => {
  it('never contain a password, a token, a code or a one-time password', async () => {
    const owner = demoUserByKey.owner;
    const pkce = pkcePair();
    const login = await postJson(t.app, '/auth/login', { client: 'spa', username: owner.email, password: owner.password, codeChallenge: pkce.challenge });
    const code = login.json().code as string;
    const otp = totpCode(owner.totpSecret);
    const tokens = (await postJson(t.app, '/auth/token', { code, codeVerifier: pkce.verifier, otp })).json();
    await callMethod(t.app, 'getCustomerInfo', { fromCustomerId: 1 }, { token: tokens.accessToken });
    await postJson(t.app, '/auth/refresh', { refreshToken: tokens.refreshToken });
    // Headers are never logged either (a cookie here).
    await callMethod(t.app, 'getCustomerInfo', {}, { token: tokens.accessToken, headers: { cookie: 'session=secretcookie' } });
    const all = logLines.join('\n');
    expect(logLines.length).toBeGreaterThanOrEqual(5);
    for (const secret of [owner.password, tokens.accessToken, tokens.refreshToken, code, pkce.verifier, 'secretcookie']) {
      expect(all).not.toContain(secret);
    }
    expect(all).not.toContain(`"otp":"${otp}"`);
  });
});

describe('request log lines', () => {
  // Every line logged for a request carries its reqId.
  const lines = (stream: string[]) =>
    stream.map((l) => JSON.parse(l) as { level: number; msg: string; reqId?: string; method?: string; path?: string; apiMethod?: string; status?: number }).filter((l) => l.reqId);
  function collector(): { lines: string[]; stream: Writable } {
    const collected: string[] = [];
    return {
      lines: collected,
      stream: new Writable({
        write(chunk, _encoding, done) {
          collected.push(...String(chunk).split('\n').filter(Boolean));
          done();
        },
      }),
    };
  }

  it('are one per request (method, path without the query, the API method, status), at info outside production', async () => {
    const log = collector();
    const app = await createTestApp({ logStream: log.stream, distDir, production: false });
    try {
      await callMethod(app.app, 'dictionaryCurrencies', {});
      await app.app.inject({ method: 'GET', url: '/login?next=%2Fhome' });
      await app.app.inject({ method: 'POST', url: '/api/v9/?x=secret' });
      expect(lines(log.lines).map((l) => [l.level, l.msg, l.method, l.path, l.apiMethod, l.status])).toEqual([
        [30, 'request', 'POST', '/api/v1/', 'dictionaryCurrencies', 200],
        [30, 'request', 'GET', '/login', undefined, 200],
        [30, 'request', 'POST', '/api/v9/', undefined, 404],
      ]);
      expect(log.lines.join('\n')).not.toContain('next=');
      expect(log.lines.join('\n')).not.toContain('secret');
    } finally {
      await app.close();
    }
  });

  it('are none at the info level in production (debug only)', async () => {
    for (const [level, expected] of [['info', 0], ['debug', 2]] as const) {
      const log = collector();
      const app = await createTestApp({ logStream: log.stream, distDir, production: true });
      // createTestApp logs at info; production's request lines are at debug
      app.app.log.level = level;
      try {
        await callMethod(app.app, 'dictionaryCurrencies', {});
        await app.app.inject({ method: 'GET', url: '/login' });
        expect(lines(log.lines).length).toBe(expected);
      } finally {
        await app.close();
      }
    }
  });
});
