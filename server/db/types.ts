import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.ts';

/** The database, on either driver (STACK.md: type it as PgDatabase, not a union). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle has the same query surface. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
