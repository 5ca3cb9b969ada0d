/**
 * The statechart audit pack at /audit/ (server/modules/platform/audit-pack.ts): answered only to
 * an administrator's bearer token; a customer 403, no token 401; the web app's static files (and
 * its history fallback) never serve the pack's folder to anyone else.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type SignedIn, type TestApp } from './harness.ts';

let t: TestApp;
let admin: SignedIn;
let customer: SignedIn;
const distDir = mkdtempSync(join(tmpdir(), 'audit-dist-'));

beforeAll(async () => {
  mkdirSync(join(distDir, 'audit'), { recursive: true });
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(distDir, 'audit', 'index.html'), '<!doctype html><html lang="en"><title>Statechart audit pack</title></html>');
  writeFileSync(join(distDir, 'audit', 'transfer.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(distDir, 'audit', 'audit.css'), 'body{}');
  t = await createTestApp({ transferWorkers: false, distDir });
  admin = await signIn(t.app, 'admin');
  customer = await signIn(t.app, 'uma');
});

afterAll(async () => {
  await t?.close();
  rmSync(distDir, { recursive: true, force: true });
});

const get = (url: string, token?: string) => t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('audit pack at /audit/', () => {
  it('an administrator gets the pack: the index, a diagram, the stylesheet', async () => {
    for (const url of ['/audit/', '/audit', '/audit/index.html']) {
      const res = await get(url, admin.accessToken);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('Statechart audit pack');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const svg = await get('/audit/transfer.svg', admin.accessToken);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    expect((await get('/audit/audit.css', admin.accessToken)).headers['content-type']).toContain('text/css');
  });

  it('a customer is refused (403)', async () => {
    for (const url of ['/audit/', '/audit/index.html', '/audit/transfer.svg']) {
      const res = await get(url, customer.accessToken);
      expect(res.statusCode, url).toBe(403);
      expect(res.body).not.toContain('Statechart audit pack');
    }
  });

  it('without a token (a plain page load) or with a bad one: 401, never the file', async () => {
    for (const url of ['/audit/', '/audit', '/audit/index.html', '/audit/transfer.svg', '/audit/missing.html']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(401);
      expect(res.body).not.toContain('Statechart audit pack');
    }
    expect((await get('/audit/index.html', 'not-a-token')).statusCode).toBe(401);
  });

  it('opens from the app: an administrator\'s token becomes a cookie for /audit/ only, which then reads the pack', async () => {
    const session = (token?: string) => t.app.inject({ method: 'POST', url: '/audit/session', headers: token ? { authorization: `Bearer ${token}` } : {} });
    const opened = await session(admin.accessToken);
    expect(opened.statusCode).toBe(204);
    const cookie = String(opened.headers['set-cookie']);
    expect(cookie).toMatch(/^wlb_audit=[^;]+; Path=\/audit\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    const maxAge = Number(/Max-Age=(\d+)/.exec(cookie)?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(300);
    const value = cookie.split(';')[0]!;
    const page = await t.app.inject({ method: 'GET', url: '/audit/index.html', headers: { cookie: value } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Statechart audit pack');
    // an altered cookie is no token; a customer gets none; no token, none
    expect((await t.app.inject({ method: 'GET', url: '/audit/', headers: { cookie: `${value}x` } })).statusCode).toBe(401);
    const refused = await session(customer.accessToken);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect((await session()).statusCode).toBe(401);
    // a customer's token in the cookie reads nothing either
    expect((await t.app.inject({ method: 'GET', url: '/audit/', headers: { cookie: `wlb_audit=${customer.accessToken}` } })).statusCode).toBe(403);
  });

  it('an administrator asking for a file the pack does not have, or outside it: 404', async () => {
    for (const url of ['/audit/missing.html', '/audit/..%2findex.html', '/audit/sub/..%2f..%2findex.html', '/audit/index.js']) {
      const res = await get(url, admin.accessToken);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('<title>app</title>');
    }
  });
});
