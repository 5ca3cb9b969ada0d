/**
 * Opens the database on either driver and applies the migrations:
 * - PGlite (embedded PostgreSQL) by default, its data kept in a directory (or in memory for tests);
 * - PostgreSQL through node-postgres (a pg.Pool) when a connection string is given.
 */
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import type { Db } from './types.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

export type OpenDatabase =
  | { driver: 'pglite'; db: Db; client: PGlite; close(): Promise<void> }
  | { driver: 'pg'; db: Db; pool: pg.Pool; connectionString: string; close(): Promise<void> };

/** PGlite in `dataDir` (a path), or in memory when dataDir is undefined. */
export async function openPglite(dataDir?: string): Promise<OpenDatabase> {
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  return { driver: 'pglite', db: db as unknown as Db, client, close: () => client.close() };
}

/** A node-postgres pool on `connectionString`; at most `maxConnections` connections. */
export async function openPostgres(connectionString: string, maxConnections = 10): Promise<OpenDatabase> {
  const pool = new pg.Pool({ connectionString, max: maxConnections, idleTimeoutMillis: 30_000 });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema });
  await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
  return { driver: 'pg', db: db as unknown as Db, pool, connectionString, close: () => pool.end() };
}
