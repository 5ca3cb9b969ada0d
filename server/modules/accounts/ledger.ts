/**
 * The minimal double-entry journal of the foundation: one balanced entry moving an amount between
 * two accounts of one currency. Used only to seed opening balances from the provider's capital
 * account; the money-core issue builds transfers (with approval, fees, idempotency over HTTP).
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/types.ts';
import { accounts, journalEntries, journalLegs } from './accounts.tables.ts';

export interface BalancedMove {
  kind: string;
  idempotencyKey: string;
  fromAccountId: number;
  toAccountId: number;
  amountMinor: bigint;
  description?: Record<string, unknown>;
}

/** Books the move; returns the entry id (the existing one when the key was used before). */
export async function bookMove(tx: Tx, move: BalancedMove): Promise<number> {
  if (move.amountMinor <= 0n) throw new Error('a move must be positive');
  if (move.fromAccountId === move.toAccountId) throw new Error('a move needs two accounts');
  const existing = await tx
    .select({ id: journalEntries.id })
    .from(journalEntries)
    .where(eq(journalEntries.idempotencyKey, move.idempotencyKey));
  if (existing[0]) return existing[0].id;

  // Lock both accounts in id order so that concurrent moves cannot deadlock.
  const ids = [move.fromAccountId, move.toAccountId].sort((a, b) => a - b);
  const locked = await tx
    .select()
    .from(accounts)
    .where(inArray(accounts.accountId, ids))
    .orderBy(accounts.accountId)
    .for('update');
  const from = locked.find((a) => a.accountId === move.fromAccountId);
  const to = locked.find((a) => a.accountId === move.toAccountId);
  if (!from || !to) throw new Error('unknown account');
  if (from.currency !== to.currency) throw new Error('a move stays in one currency');
  if (from.balanceMinor - move.amountMinor < from.balanceMinMinor) throw new Error('balance below its minimum');

  const [entry] = await tx
    .insert(journalEntries)
    .values({ kind: move.kind, idempotencyKey: move.idempotencyKey, description: move.description ?? {} })
    .returning({ id: journalEntries.id });
  const legs = [
    { entryId: entry!.id, accountId: from.accountId, currency: from.currency, amountMinor: -move.amountMinor },
    { entryId: entry!.id, accountId: to.accountId, currency: to.currency, amountMinor: move.amountMinor },
  ];
  // Invariant: the legs of an entry sum to zero per currency.
  if (legs.reduce((sum, leg) => sum + leg.amountMinor, 0n) !== 0n) throw new Error('unbalanced entry');
  await tx.insert(journalLegs).values(legs);
  for (const leg of legs) {
    await tx
      .update(accounts)
      .set({ balanceMinor: sql`${accounts.balanceMinor} + ${leg.amountMinor.toString()}::bigint` })
      .where(eq(accounts.accountId, leg.accountId));
  }
  return entry!.id;
}
