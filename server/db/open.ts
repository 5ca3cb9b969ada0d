/**
 * Opens the database on either driver and applies the migrations:
 * - PGlite (embedded PostgreSQL) by default, its data kept in a directory (or in memory for tests);
 * - PostgreSQL through node-postgres (a pg.Pool) when a connection string is given.
 */
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import type { Db } from './types.ts';
import { backoffDelayMs, isConnectionError } from './outage.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

export type OpenDatabase =
  | { driver: 'pglite'; db: Db; client: PGlite; close(): Promise<void> }
  | { driver: 'pg'; db: Db; pool: pg.Pool; connectionString: string; close(): Promise<void> };

/**
 * PostgreSQL settings of the embedded database. PGlite's memory is a WebAssembly memory, which
 * grows and never shrinks: every page PostgreSQL once touched stays resident. With PostgreSQL's
 * defaults (shared_buffers 128MB, maintenance_work_mem 64MB, the latter filled by the migrations'
 * index builds) the platform idled at about 370 MB on PGlite. The embedded database is the
 * single-process default (development, demo, small installs), its data far smaller than these
 * buffers, and PGlite reads its files through the OS page cache anyway; PGLITE_SHARED_BUFFERS
 * (e.g. 128MB) sets the buffers otherwise.
 */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: process.env.PGLITE_SHARED_BUFFERS || '16MB',
  maintenance_work_mem: '8MB',
  temp_buffers: '2MB',
  wal_buffers: '1MB',
};

/**
 * PGlite in `dataDir` (a path), or in memory when dataDir is undefined. PGlite and its drizzle
 * driver are loaded here, on first use: a platform on PostgreSQL never loads them.
 */
export async function openPglite(dataDir?: string): Promise<OpenDatabase> {
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  // PGlite's own start parameters (single-user mode and its settings) with ours after them.
  const defaults = (PGlite as unknown as { defaultStartParams?: readonly string[] }).defaultStartParams;
  const startParams = defaults ? [...defaults, ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`])] : undefined;
  const client = new PGlite(dataDir, startParams ? { startParams } : {});
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  return { driver: 'pglite', db: db as unknown as Db, client, close: () => client.close() };
}

/** Where connection errors are reported: a short text without the connection string or query parameters. */
export type ConnectionErrorLog = (err: unknown, where: string) => void;

/** The error fields safe to log for a connection error: its code and the driver's message. */
export function connectionErrorFields(err: unknown): { code?: string; message: string } {
  const e = err as { code?: unknown; message?: unknown } | null;
  return {
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
    message: typeof e?.message === 'string' ? e.message.slice(0, 200) : 'unknown',
  };
}

const defaultConnectionLog: ConnectionErrorLog = (err, where) => console.error(`database connection error (${where})`, connectionErrorFields(err));

/**
 * Waiting longer than this for a connection (the pool full, or a server that accepts but never
 * answers) fails, and the request answers 503.
 */
export const CONNECT_TIMEOUT_MS = 10_000;
/** Back-off of a pool whose connects fail: from 200 ms, doubling, at most 2 s (the Retry-After), jittered. */
const GATE_BASE_MS = 200;
const GATE_CAP_MS = 2_000;

/**
 * A pg.Pool that rides out its server going away.
 *
 * Errors. pg-pool listens for 'error' only on its idle clients: a client checked out for a
 * transaction whose connection breaks emits 'error' with no listener, which ends the process.
 * Every client gets a permanent listener when it connects (the pool drops a broken client on its
 * release; the query in flight fails with the error and the request answers 503).
 *
 * Back-off. While the server is away every request would open a new connection attempt; after a
 * failed connect the pool instead refuses at once (EDBUNAVAILABLE, a connection error) for a
 * jittered, growing delay, then lets attempts through again; the first connect that succeeds
 * ends the back-off. Connects only wait CONNECT_TIMEOUT_MS, so a request never hangs on a
 * server that does not answer.
 */
export class ResilientPool extends pg.Pool {
  private failures = 0;
  private closedUntilMs = 0;
  private readonly report: ConnectionErrorLog;

  constructor(config: pg.PoolConfig, report: ConnectionErrorLog = defaultConnectionLog) {
    super({ connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...config });
    this.report = report;
    this.on('connect', (client) => client.on('error', (err) => report(err, 'client')));
    // The pool re-emits an idle client's error (and would end the process without a listener);
    // the client's own listener above has reported it already.
    this.on('error', () => {});
  }

  /** A connect that failed for the server's sake (not a pool merely full) opens the back-off. */
  private noteConnect(err: unknown): void {
    if (!err) {
      this.failures = 0;
      this.closedUntilMs = 0;
      return;
    }
    if (!isConnectionError(err) || /timeout exceeded when trying to connect/i.test(String((err as Error).message))) return;
    this.failures++;
    this.closedUntilMs = Date.now() + backoffDelayMs(this.failures, GATE_BASE_MS, GATE_CAP_MS);
    if (this.failures === 1) this.report(err, 'connect');
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    if (Date.now() < this.closedUntilMs) {
      const refused = Object.assign(new Error('the database is unavailable (reconnecting with back-off)'), { code: 'EDBUNAVAILABLE' });
      if (callback) return void setImmediate(() => callback(refused, undefined, () => {}));
      return Promise.reject(refused);
    }
    if (callback) {
      return super.connect((err, client, done) => {
        this.noteConnect(err);
        callback(err, client, done);
      });
    }
    return super.connect().then(
      (client) => {
        this.noteConnect(undefined);
        return client;
      },
      (err: unknown) => {
        this.noteConnect(err);
        throw err;
      },
    );
  }
}

/** A node-postgres pool on `connectionString`; at most `maxConnections` connections. */
export async function openPostgres(connectionString: string, maxConnections = 10, report?: ConnectionErrorLog): Promise<OpenDatabase> {
  const pool = new ResilientPool({ connectionString, max: maxConnections, idleTimeoutMillis: 30_000 }, report);
  const db = drizzlePg(pool, { schema });
  await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
  return { driver: 'pg', db: db as unknown as Db, pool, connectionString, close: () => pool.end() };
}
