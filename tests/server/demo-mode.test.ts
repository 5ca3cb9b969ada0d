/**
 * Demo mode (issue 11, finding 2; server/modules/platform/demo-mode.ts): demo users, the demo SSO
 * partner and the development mailbox exist in demo mode only, the web app's pages say "Demo", and
 * a production start with anything of the demo present is refused.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUsers } from '../../server/db/demo-users.ts';
import { seedDatabase } from '../../server/db/seed.ts';
import { ssoClients } from '../../server/modules/auth/auth.tables.ts';
import { customers, terms, users } from '../../server/modules/customers/customers.tables.ts';
import { DEMO_SSO_CLIENT_ID, DEMO_SSO_REDIRECT_PATH } from '../../server/modules/security/sso.service.ts';
import { DEMO_META, DEV_MAILBOX_META } from '../../server/modules/platform/static.ts';
import { DemoConfigError, demoDataIn, demoProductionProblems, demoProductionRefusal, demoSettings } from '../../server/modules/platform/demo-mode.ts';
import { createTestApp, createTestDatabase, pkcePair, postJson, signIn, testDriver, type TestApp } from './harness.ts';

const PG_URL = 'postgres://postgres@127.0.0.1:5432/bank';

describe('demoSettings: demo mode from the environment', () => {
  it('is demo mode on the embedded database unless DEMO_DATA=false, with the mailbox on', () => {
    expect(demoSettings({})).toEqual({ demo: true, devMailbox: true, production: false });
    expect(demoSettings({ DATABASE_URL: '' })).toEqual({ demo: true, devMailbox: true, production: false });
    expect(demoSettings({ DEMO_DATA: 'false' })).toEqual({ demo: false, devMailbox: false, production: false });
    expect(demoSettings({ DEV_MAILBOX: 'false' })).toEqual({ demo: true, devMailbox: false, production: false });
  });

  it('is not demo mode with DATABASE_URL unless DEMO_DATA=true', () => {
    expect(demoSettings({ DATABASE_URL: PG_URL })).toEqual({ demo: false, devMailbox: false, production: false });
    expect(demoSettings({ DATABASE_URL: PG_URL, DEMO_DATA: 'true' })).toEqual({ demo: true, devMailbox: true, production: false });
  });

  it('turns the mailbox on outside demo mode in development only, and refuses it elsewhere', () => {
    expect(demoSettings({ DATABASE_URL: PG_URL, DEV_MAILBOX: 'true', NODE_ENV: 'development' })).toEqual({ demo: false, devMailbox: true, production: false });
    expect(() => demoSettings({ DATABASE_URL: PG_URL, DEV_MAILBOX: 'true' })).toThrow(DemoConfigError);
    expect(() => demoSettings({ DEMO_DATA: 'false', DEV_MAILBOX: 'true', NODE_ENV: 'test' })).toThrow(/DEV_MAILBOX=true needs demo mode/);
  });

  it('refuses a switch that is neither true nor false', () => {
    expect(() => demoSettings({ DEMO_DATA: 'yes' })).toThrow(/DEMO_DATA must be true or false/);
    expect(() => demoSettings({ DEV_MAILBOX: '1' })).toThrow(/DEV_MAILBOX must be true or false/);
  });
});

describe('demoProductionProblems: demo mode is never production', () => {
  const problems = (env: Record<string, string>, inDatabase: string[] = []) => demoProductionProblems(env, demoSettings(env), inDatabase);

  it('lets a production start without anything of the demo go on', () => {
    expect(problems({ NODE_ENV: 'production', DATABASE_URL: PG_URL })).toEqual([]);
    expect(problems({ NODE_ENV: 'production', DEMO_DATA: 'false' })).toEqual([]);
    expect(problems({ NODE_ENV: 'production', DATABASE_URL: PG_URL, DEV_MAILBOX: 'false', DEMO_DATA: 'false' })).toEqual([]);
  });

  it('names every demo setting present', () => {
    expect(problems({ NODE_ENV: 'production', DATABASE_URL: PG_URL, DEMO_DATA: 'true' })).toEqual(['DEMO_DATA=true', 'the development mailbox (on in demo mode)']);
    expect(problems({ NODE_ENV: 'production', DATABASE_URL: PG_URL, DEV_MAILBOX: 'true' })).toEqual(['DEV_MAILBOX=true']);
    expect(problems({ NODE_ENV: 'production', DEV_MAILBOX: 'false' })).toEqual(['demo mode (the embedded database without DEMO_DATA=false)']);
  });

  it('names the demo rows of the database', () => {
    const found = problems({ NODE_ENV: 'production', DATABASE_URL: PG_URL }, ['demo users in the database (anna@demo.test)']);
    expect(found).toEqual(['demo users in the database (anna@demo.test)']);
    expect(demoProductionRefusal(found)).toMatch(/^Refusing to start with NODE_ENV=production[^]*- demo users in the database \(anna@demo\.test\)/);
  });

  it('does not check outside production', () => {
    expect(problems({ DEMO_DATA: 'true', DATABASE_URL: PG_URL }, ['demo users in the database (anna@demo.test)'])).toEqual([]);
  });
});

describe('demo credentials: none outside demo mode (a fresh database)', () => {
  let t: TestApp;
  let distDir: string;
  beforeAll(async () => {
    distDir = mkdtempSync(join(tmpdir(), 'wlb-demo-dist-'));
    writeFileSync(join(distDir, 'index.html'), '<!doctype html><html><head><title>x</title></head><body></body></html>');
    t = await createTestApp({ demoData: false, distDir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  it('has no demo user: anna cannot sign in, and there is no administrator', async () => {
    const { challenge } = pkcePair();
    const login = await postJson(t.app, '/auth/login', { client: 'spa', username: demoUsers[0]!.email, password: demoUsers[0]!.password, codeChallenge: challenge });
    expect(login.statusCode).toBe(403);
    expect(await t.db.select({ id: users.id }).from(users)).toEqual([]);
    expect(await t.db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true))).toEqual([]);
    expect(await demoDataIn(t.db)).toEqual([]);
  });

  it('has the reference data a real provider starts from (the provider, the terms)', async () => {
    expect(await t.db.select({ id: customers.id }).from(customers).where(eq(customers.isProvider, true))).toHaveLength(1);
    expect(await t.db.select({ id: terms.termId }).from(terms)).toHaveLength(2);
  });

  it('has no demo SSO client and no partner page', async () => {
    expect(await t.db.select().from(ssoClients)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: DEMO_SSO_REDIRECT_PATH })).statusCode).toBe(404);
  });

  it('has no mailbox', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/dev/mailbox' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/dev/mailbox.json' })).statusCode).toBe(404);
  });

  it('serves the web app unmarked', async () => {
    for (const url of ['/', '/login', '/index.html']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>x</title>');
      expect(page.body).not.toContain('wlb-demo');
    }
  });
});

describe('demo credentials: in demo mode', () => {
  let t: TestApp;
  let distDir: string;
  beforeAll(async () => {
    distDir = mkdtempSync(join(tmpdir(), 'wlb-demo-dist-'));
    writeFileSync(join(distDir, 'index.html'), '<!doctype html><html><head><title>x</title></head><body></body></html>');
    writeFileSync(join(distDir, 'device.html'), '<!doctype html><html><head><title>device</title></head><body></body></html>');
    mkdirSync(join(distDir, 'assets'));
    writeFileSync(join(distDir, 'assets', 'app.js'), 'console.log(1)');
    t = await createTestApp({ demo: true, devMailbox: true, distDir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  it('has the demo users, the administrator among them, and the demo SSO client', async () => {
    await signIn(t.app, 'boris');
    await signIn(t.app, 'admin');
    expect(await t.db.select({ id: ssoClients.clientId }).from(ssoClients)).toEqual([{ id: DEMO_SSO_CLIENT_ID }]);
    const found = await demoDataIn(t.db);
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('anna@demo.test');
    expect(found[0]).toContain('admin@demo.test');
    expect(found[1]).toBe(`the demo SSO client "${DEMO_SSO_CLIENT_ID}" in the database`);
  });

  it('serves the mailbox and the partner page', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/dev/mailbox.json' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: DEMO_SSO_REDIRECT_PATH })).statusCode).toBe(200);
  });

  it('marks every page of the web app (and the companion) as demo, with the mailbox', async () => {
    for (const url of ['/', '/login', '/home', '/index.html']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.body).toContain(`<title>x</title>${DEMO_META}${DEV_MAILBOX_META}</head>`);
    }
    for (const url of ['/device/', '/device.html']) {
      expect((await t.app.inject({ method: 'GET', url })).body).toContain(`<title>device</title>${DEMO_META}`);
    }
    // other files are served as they are
    expect((await t.app.inject({ method: 'GET', url: '/assets/app.js' })).body).toBe('console.log(1)');
  });
});

describe('seeding', () => {
  // a whole seeding of the demo people (their signed tax forms and contracts among them) took over 30 s on a loaded machine: the limit catches a hang
  it('seeds the demo people later into a database a start outside demo mode set up (still without users)', { timeout: 120_000 }, async () => {
    const database = await createTestDatabase({ demoData: false });
    try {
      expect(await seedDatabase(database.open.db, { demo: false })).toBe(false);
      // the people only: their year of history has its own test (demo-history.test.ts)
      expect(await seedDatabase(database.open.db, { demo: true, history: false })).toBe(true);
      expect(await database.open.db.select({ id: customers.id }).from(customers).where(eq(customers.isProvider, true))).toHaveLength(1);
      expect((await demoDataIn(database.open.db))[0]).toContain('anna@demo.test');
      // once users exist, demo mode seeds nothing more
      expect(await seedDatabase(database.open.db, { demo: true })).toBe(false);
    } finally {
      await database.close();
    }
  });
});

describe('a production start (server/main.ts)', () => {
  const ROOT = fileURLToPath(new URL('../..', import.meta.url));
  // One start per driver, as an operator would do it: a production server on a database holding the demo data.
  it('is refused on a database holding demo data, naming what is present', { timeout: 90_000 }, async () => {
    const database = testDriver === 'pg' ? await createTestDatabase({ demoData: true }) : null;
    const dataDir = mkdtempSync(join(tmpdir(), 'wlb-demo-prod-'));
    try {
      let env: Record<string, string>;
      if (database) env = { DATABASE_URL: database.url! };
      else {
        // PGlite allows one process at a time: seed a data directory of its own for the child.
        const { openPglite } = await import('../../server/db/open.ts');
        const seeded = await openPglite(dataDir);
        // the demo people are what the start must refuse; their year of history adds nothing here
        await seedDatabase(seeded.db, { demo: true, history: false });
        await seeded.close();
        env = { DATABASE_URL: '', DATA_DIR: dataDir, DEMO_DATA: 'false' };
      }
      const child = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: ROOT,
        env: { ...process.env, ...env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DEV_MAILBOX: 'true', LOG_LEVEL: 'warn' },
        encoding: 'utf8',
        timeout: 80_000,
      });
      expect(child.status).toBe(1);
      expect(child.stdout).not.toContain('Platform listening');
      expect(child.stderr).toContain('Refusing to start with NODE_ENV=production');
      expect(child.stderr).toContain('- DEV_MAILBOX=true');
      expect(child.stderr).toMatch(/- demo users in the database \(.*anna@demo\.test/);
      expect(child.stderr).toContain(`- the demo SSO client "${DEMO_SSO_CLIENT_ID}" in the database`);
    } finally {
      await database?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
