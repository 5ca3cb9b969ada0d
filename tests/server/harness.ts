/**
 * Test harness for the platform: a fresh, migrated and seeded database per app (PGlite in memory,
 * or a uniquely named PostgreSQL database when TEST_DB=pg, dropped on close), the app built on it,
 * and helpers to sign in a demo user and to call a named method.
 */
import { Blob as NodeBlob } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp, type AppOptions } from '../../server/app.ts';
import { MIGRATIONS_DIR, openPglite, openPostgres, type OpenDatabase } from '../../server/db/open.ts';
import * as schema from '../../server/db/schema.ts';
import { seedDatabase } from '../../server/db/seed.ts';
import type { Db } from '../../server/db/types.ts';
import { demoUserByKey as demoUsers, type DemoUser } from '../../server/db/demo-users.ts';
import { createInProcessPublisher, createPgPublisher, type PushPublisher } from '../../server/modules/push/publisher.ts';
import { pkceChallenge } from '../../server/modules/auth/crypto.ts';
import { totpOfStep, totpStepAt } from '../../server/modules/auth/totp.ts';
import { API_VERSION_PATH } from '../../api/http.ts';
import { adminQuery, createDatabaseFromTemplate, databaseUrl, type TemplateInfo, type TemplateKind, uniqueDatabaseName } from './db-template.ts';

export const testDriver: 'pglite' | 'pg' = process.env.TEST_DB === 'pg' ? 'pg' : 'pglite';

/**
 * For the tests of a PostgreSQL suite (vitest.config.ts PG_SUITES) that are not what the suite runs
 * on PostgreSQL for: `describe.runIf(sameOnEitherDriver)` runs them on PGlite only (on PostgreSQL
 * too with SERVER_PG=all).
 */
export const sameOnEitherDriver = testDriver === 'pglite' || process.env.SERVER_PG === 'all';

export interface TestDatabase {
  open: OpenDatabase;
  /** the connection string on PostgreSQL; null on PGlite */
  url: string | null;
  /** closes the connection and, on PostgreSQL, drops the database */
  close(): Promise<void>;
}

/**
 * The demo data of a test database: the demo users with their year of history (true), the demo
 * users with their usual balances and no history ('without-history': suites that build exact
 * history fixtures of their own), or none (false).
 */
export type DemoData = boolean | 'without-history';

/**
 * A fresh database on the driver TEST_DB names, migrated and seeded; with the demo users unless
 * `demoData: false` (most suites sign them in; the platform itself seeds them in demo mode only).
 * Under vitest's globalSetup (tests/server/global-setup.ts) it is a copy of the run's template
 * database (PGlite: its dumped data directory loaded into a new instance; PostgreSQL: CREATE
 * DATABASE ... TEMPLATE); without one it is migrated and seeded here.
 */
export async function createTestDatabase({ demoData = true }: { demoData?: DemoData } = {}): Promise<TestDatabase> {
  const templates = providedTemplates();
  const kind: TemplateKind = demoData === 'without-history' ? 'people' : demoData ? 'demo' : 'bare';
  const seedOptions = { demo: demoData !== false, history: demoData === true };
  if (testDriver === 'pglite') {
    if (templates?.driver === 'pglite') {
      const open = await openPgliteCopy(templates[kind]);
      return { open, url: null, close: () => open.close() };
    }
    const open = await openPglite();
    await seedDatabase(open.db, seedOptions);
    return { open, url: null, close: () => open.close() };
  }
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DB=pg needs DATABASE_URL');
  const name = uniqueDatabaseName(templates?.driver === 'pg' ? templates.copies : 'wlb_test');
  if (templates?.driver === 'pg') await createDatabaseFromTemplate(serverUrl, name, templates[kind]);
  else await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  const url = databaseUrl(serverUrl, name);
  const open = await openPostgres(url, 5);
  if (templates?.driver !== 'pg') await seedDatabase(open.db, seedOptions);
  return {
    open,
    url,
    async close() {
      await open.close();
      const drop = adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      // A run's copies are dropped in the background: a DROP DATABASE waits for a checkpoint (3.4 s
      // for the first of a file on an idle machine, 12 s under a full run's load, issue 12), which
      // nothing in a test needs to wait for. Whatever is left when the run ends, the templates'
      // teardown drops (db-template.ts: every name with the run's `copies` prefix).
      if (templates?.driver === 'pg') void drop.catch(() => undefined);
      else await drop;
    },
  };
}

/** The run's template databases, when a globalSetup made them for this driver. */
function providedTemplates(): TemplateInfo | null {
  const templates = inject('dbTemplates') ?? null;
  return templates?.driver === testDriver ? templates : null;
}

/** A PGlite in memory holding a copy of a dumped data directory; migrations checked as openPglite does. */
async function openPgliteCopy(tarPath: string): Promise<OpenDatabase> {
  // Node's Blob: a jsdom test file replaces the global one
  const client = new PGlite({ loadDataDir: new NodeBlob([readFileSync(tarPath)]) as unknown as Blob });
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  return { driver: 'pglite', db: db as unknown as Db, client, close: () => client.close() };
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  database: TestDatabase;
  publisher: PushPublisher;
  close(): Promise<void>;
}

export interface TestAppOptions extends Partial<Omit<AppOptions, 'db' | 'publisher'>> {
  /** receives the app's log lines (JSON, one per line) */
  logStream?: Writable;
  /**
   * Run a second instance on another app's database (PostgreSQL only: its own pool and its own
   * LISTEN connection, as a second server process would have). Closing it leaves the database.
   */
  shareDatabaseOf?: TestApp;
  /** seed the demo users (default true; the app's own demo mode is the `demo` option) */
  demoData?: DemoData;
  /** a database the test made (createTestDatabase) and gives the app; closed with it */
  database?: TestDatabase;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { logStream, shareDatabaseOf, demoData, database: given, ...rest } = options;
  let database: TestDatabase;
  if (given) {
    database = given;
  } else if (shareDatabaseOf) {
    const url = shareDatabaseOf.database.url;
    if (!url) throw new Error('shareDatabaseOf needs PostgreSQL');
    const open = await openPostgres(url, 5);
    // Closing a second instance closes its own pool only; the first instance drops the database.
    database = { open, url, close: () => open.close() };
  } else {
    database = await createTestDatabase({ demoData: demoData ?? true });
  }
  const publisher = database.url ? await createPgPublisher(database.url) : createInProcessPublisher();
  const app = await buildApp({
    db: database.open.db,
    publisher,
    logger: logStream ? { level: 'info', stream: logStream } : false,
    ...rest,
  });
  await app.ready();
  return {
    app,
    db: database.open.db,
    database,
    publisher,
    async close() {
      await app.close();
      await publisher.close();
      await database.close();
    },
  };
}

/** A 128-character PKCE verifier (as the web client makes) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(96).toString('base64url').slice(0, 128);
  return { verifier, challenge: pkceChallenge(verifier) };
}

/** The TOTP code of a base32 secret at a time (default now), optionally shifted by whole steps. */
export function totpCode(secretBase32: string, timeMs = Date.now(), stepOffset = 0): string {
  return totpOfStep(secretBase32, totpStepAt(timeMs) + stepOffset);
}

export type DemoKey = keyof typeof demoUsers;

export interface InjectOptions {
  token?: string;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export async function postJson(
  app: FastifyInstance,
  url: string,
  body: unknown,
  options: InjectOptions = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    payload: body as Record<string, unknown>,
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

export interface SignedIn {
  accessToken: string;
  refreshToken: string;
}

/**
 * Signs a demo user in through the token service: login with a PKCE challenge, then (otp users)
 * the token step with a TOTP computed from the demo secret. A step is accepted once per user, so
 * repeated sign-ins in one test use the neighbouring steps the drift allows: at most three sign-ins
 * of one TOTP user per 30 s (reuse an earlier token, or use boris, who has no second step).
 */
export interface SignInOptions extends InjectOptions {
  /** the app's clock when it is not the real one (createTestApp's `now`): TOTP codes are computed at it */
  totpTimeMs?: number;
}

export async function signIn(app: FastifyInstance, who: DemoKey | DemoUser, options: SignInOptions = {}): Promise<SignedIn> {
  const { totpTimeMs, ...injectOptions } = options;
  const user: DemoUser = typeof who === 'string' ? demoUsers[who] : who;
  for (const stepOffset of [0, 1, -1]) {
    const { verifier, challenge } = pkcePair();
    const login = await postJson(
      app,
      '/auth/login',
      { client: 'spa', username: user.email, password: user.password, codeChallenge: challenge },
      injectOptions,
    );
    if (login.statusCode !== 200) throw new Error(`login of ${user.email} answered ${login.statusCode}: ${login.body}`);
    const answer = login.json() as { authFlow: string; code?: string; accessToken?: string; refreshToken?: string };
    if (answer.authFlow === 'simple') return { accessToken: answer.accessToken!, refreshToken: answer.refreshToken! };
    if (!user.totpSecret) throw new Error(`${user.email} needs a TOTP secret`);
    const token = await postJson(
      app,
      '/auth/token',
      { code: answer.code, codeVerifier: verifier, otp: totpCode(user.totpSecret, totpTimeMs ?? Date.now(), stepOffset) },
      injectOptions,
    );
    if (token.statusCode === 200) return token.json() as SignedIn;
    if (token.statusCode !== 403) throw new Error(`token step of ${user.email} answered ${token.statusCode}: ${token.body}`);
  }
  throw new Error(`could not sign ${user.email} in: every TOTP step within the drift is used`);
}

export interface MethodAnswer {
  status: number;
  body: { responseCode: string } & Record<string, unknown>;
  headers: LightMyRequestResponse['headers'];
}

/** Calls a named method: POST /api/v1/?{name} with a JSON body. */
export async function callMethod(
  app: FastifyInstance,
  name: string,
  body: Record<string, unknown> = {},
  options: InjectOptions = {},
): Promise<MethodAnswer> {
  const response = await postJson(app, `${API_VERSION_PATH}/?${name}`, body, options);
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

/** One file part of a multipart call. */
export interface MultipartFile {
  field: string;
  fileName: string;
  content: Buffer | string;
  /** application/pdf unless given */
  mime?: string;
}

export interface MultipartOptions {
  token?: string;
  idempotencyKey?: string;
  remoteAddress?: string;
}

/** Calls a named method as multipart (document 2 §5 uploads): the JSON in the part `data`, then the files. */
export async function callMultipart(app: FastifyInstance, name: string, data: Record<string, unknown>, files: MultipartFile[], options: MultipartOptions = {}): Promise<MethodAnswer> {
  const boundary = `----wlb${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="data"\r\n\r\n${JSON.stringify(data)}\r\n`)];
  for (const f of files) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.fileName}"\r\nContent-Type: ${f.mime ?? 'application/pdf'}\r\n\r\n`),
      Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  const res = await app.inject({ method: 'POST', url: `${API_VERSION_PATH}/?${name}`, payload: Buffer.concat(chunks), headers, ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}) });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}
