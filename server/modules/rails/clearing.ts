/** The provider's clearing accounts of the rails (rails.tables.ts), apart so the transfer service can name one without the payout service. */
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/types.ts';
import { accounts } from '../accounts/accounts.tables.ts';
import { LedgerError, providerCustomerId } from '../accounts/ledger.ts';
import { railClearingAccounts } from './rails.tables.ts';
import type { Rail } from './rails.ts';

/** The provider's clearing account of a rail and currency, created on first use (concurrent first uses agree on one). */
export async function clearingAccountId(db: Db | Tx, rail: Rail, currency: string): Promise<number> {
  const find = async () =>
    (await db.select({ id: railClearingAccounts.accountId }).from(railClearingAccounts).where(and(eq(railClearingAccounts.rail, rail), eq(railClearingAccounts.currency, currency))))[0]?.id;
  const existing = await find();
  if (existing !== undefined) return existing;
  const provider = await providerCustomerId(db);
  if (provider === null) throw new LedgerError('no provider customer: the platform is not seeded');
  const [account] = await db.insert(accounts).values({ type: 1001, currency, customerId: provider, purpose: 'clearing' }).returning({ id: accounts.accountId });
  const [mapped] = await db
    .insert(railClearingAccounts)
    .values({ rail, currency, accountId: account!.id })
    .onConflictDoNothing()
    .returning({ id: railClearingAccounts.accountId });
  // another transaction mapped one first: ours stays an unused, empty provider account
  return mapped?.id ?? (await find())!;
}

