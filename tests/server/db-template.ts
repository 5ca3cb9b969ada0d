/**
 * Template databases for the test run: migrating and seeding a database takes seconds (PGlite's
 * initdb and the migrations most of it), copying a finished one a fraction of that. A vitest
 * globalSetup (tests/server/global-setup.ts) makes, once per run and driver, two databases
 * migrated and seeded exactly as the harness used to do per file (with the demo users and their
 * year of history, with the demo users only, and without them); createTestDatabase then copies the
 * one it needs:
 * - PGlite: the data directory dumped to a tar file (dumpDataDir), loaded into a new in-memory
 *   instance (loadDataDir);
 * - PostgreSQL: a database of its own, copied with CREATE DATABASE ... TEMPLATE.
 * Each copy is still a database of its own, so files stay as isolated as before.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openPglite, openPostgres } from '../../server/db/open.ts';
import { seedDatabase } from '../../server/db/seed.ts';

export type Driver = 'pglite' | 'pg';

/** What the tests receive (serialisable: vitest's provide/inject). */
export type TemplateInfo =
  /** tar files of the data directory */
  | { driver: 'pglite'; demo: string; people: string; bare: string }
  /**
   * database names on DATABASE_URL's server; `copies`: the name prefix of this run's copies (the
   * templates' teardown drops any a file left behind)
   */
  | { driver: 'pg'; demo: string; people: string; bare: string; copies: string };

/** What a template holds: the demo users with their history, the demo users only, or neither. */
export type TemplateKind = 'demo' | 'people' | 'bare';
const SEED_OPTIONS: Record<TemplateKind, { demo: boolean; history?: boolean }> = {
  demo: { demo: true },
  people: { demo: true, history: false },
  bare: { demo: false },
};

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplates: TemplateInfo | null;
  }
}

export interface Templates {
  info: TemplateInfo;
  drop(): Promise<void>;
}

/** A database name unique to this run ([a-z0-9_], no quoting needed beyond the usual). */
export const uniqueDatabaseName = (prefix: string): string =>
  `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

/** The URL of database `name` on the server of `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the server's maintenance connection (CREATE/DROP DATABASE cannot run in a transaction). */
export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * CREATE DATABASE name TEMPLATE template. PostgreSQL refuses while another session is connected
 * to the template (55006); a backend that just closed can linger a moment, so that is retried.
 */
export async function createDatabaseFromTemplate(serverUrl: string, name: string, template: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function makePgliteTemplates(): Promise<Templates> {
  const dir = mkdtempSync(join(tmpdir(), 'wlb-test-template-'));
  const make = async (kind: TemplateKind) => {
    const open = await openPglite();
    try {
      await seedDatabase(open.db, SEED_OPTIONS[kind]);
      if (open.driver !== 'pglite') throw new Error('expected PGlite');
      const dump = await open.client.dumpDataDir('none');
      const path = join(dir, `${kind}.tar`);
      writeFileSync(path, new Uint8Array(await dump.arrayBuffer()));
      return path;
    } finally {
      await open.close();
    }
  };
  // One after the other: each is CPU work in this process.
  const demo = await make('demo');
  const people = await make('people');
  const bare = await make('bare');
  return { info: { driver: 'pglite', demo, people, bare }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** Drops every database whose name starts with `prefix` (the copies of one run). */
export async function dropDatabasesNamed(serverUrl: string, prefix: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

async function makePgTemplates(serverUrl: string): Promise<Templates> {
  const names: string[] = [];
  const copies = `${uniqueDatabaseName('wlb_test')}_c`;
  const make = async (kind: TemplateKind) => {
    const name = uniqueDatabaseName(`wlb_test_tpl_${kind}`);
    await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
    names.push(name);
    const open = await openPostgres(databaseUrl(serverUrl, name), 2);
    try {
      await seedDatabase(open.db, SEED_OPTIONS[kind]);
    } finally {
      // every connection to a template must be gone before it is copied
      await open.close();
    }
    return name;
  };
  try {
    const [demo, people, bare] = await Promise.all([make('demo'), make('people'), make('bare')]);
    return {
      info: { driver: 'pg', demo, people, bare, copies },
      drop: async () => {
        // the copies whose drop a file started in the background and did not see end (harness.ts)
        await dropDatabasesNamed(serverUrl, `${copies}_`);
        for (const name of names) await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      },
    };
  } catch (err) {
    for (const name of names) await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    throw err;
  }
}

/** Migrates and seeds the two template databases of a driver (PostgreSQL: on serverUrl's server). */
export async function makeTemplates(driver: Driver, serverUrl?: string): Promise<Templates> {
  if (driver === 'pglite') return makePgliteTemplates();
  if (!serverUrl) throw new Error('TEST_DB=pg needs DATABASE_URL');
  return makePgTemplates(serverUrl);
}
