/** Terms: the current version of a term is its highest published version. */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Term } from '../../../api/envelope.ts';
import type { Db } from '../../db/types.ts';
import { terms, termsAcceptances } from './customers.tables.ts';

export interface CurrentTerm extends Term {
  required: boolean;
}

export async function currentTerms(db: Db): Promise<CurrentTerm[]> {
  const rows = await db
    .selectDistinctOn([terms.termId], { id: terms.termId, version: terms.version, title: terms.title, url: terms.url, required: terms.required })
    .from(terms)
    .orderBy(terms.termId, sql`${terms.version} desc`);
  return rows;
}

/** Current versions the customer has not accepted (only required ones when `requiredOnly`). */
export async function pendingTerms(db: Db, customerId: number, requiredOnly: boolean): Promise<Term[]> {
  const current = await currentTerms(db);
  const accepted = await db
    .select({ termId: termsAcceptances.termId, version: termsAcceptances.version })
    .from(termsAcceptances)
    .where(and(eq(termsAcceptances.customerId, customerId)));
  const acceptedKeys = new Set(accepted.map((a) => `${a.termId}:${a.version}`));
  return current
    .filter((t) => (!requiredOnly || t.required) && !acceptedKeys.has(`${t.id}:${t.version}`))
    .map(({ id, version, title, url }) => ({ id, version, title, url }));
}

/**
 * SQL selecting the current versions of required terms the customer (an SQL expression, so it can
 * be correlated) has not accepted; used inside `exists (...)` by the hot getCustomerInfo read.
 */
export function pendingRequiredTermsQuery(customerId: SQL): SQL {
  return sql`select 1 from ${terms} t
    where t.required
      and t.version = (select max(t2.version) from ${terms} t2 where t2.term_id = t.term_id)
      and not exists (select 1 from ${termsAcceptances} a
        where a.customer_id = ${customerId} and a.term_id = t.term_id and a.version = t.version)`;
}
