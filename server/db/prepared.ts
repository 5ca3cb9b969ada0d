/**
 * Named prepared statements for the hottest queries, one set per database handle.
 *
 * Why: on PostgreSQL, planning the getCustomerInfo query costs more than running it (measured
 * 1.3 ms planning vs 0.3 ms execution); a named prepared statement is planned once per pooled
 * connection and reused. Statements are built lazily on first use and cached per `db` object.
 */
import type { Db } from './types.ts';

const perDatabase = new WeakMap<Db, Map<string, unknown>>();

export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let statements = perDatabase.get(db);
  if (!statements) {
    statements = new Map();
    perDatabase.set(db, statements);
  }
  if (!statements.has(name)) statements.set(name, build(db));
  return statements.get(name) as T;
}
