/**
 * Fees (fee_rules) and limits (transfer_limits) of a transfer.
 *
 * Fee rules are keyed by operation and the source currency: 'betweenAccounts' (own accounts, one
 * currency), 'exchange' (own accounts across currencies), 'p2p'. A fee is fixed + basis points of
 * the amount (half-even), clamped to [min, max]; an amount of 0 costs nothing (document 2 §5: the
 * p2p fee is asked only above 0). No rule: no fee.
 *
 * Limits are keyed by the transfer kind and the source currency and apply to the source amount
 * (fee excluded): at least min, at most max per transfer, and at most daily per UTC day over the
 * acting customer's pending and posted transfers of that kind and currency. No row: no limit.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/types.ts';
import { feeRules, transferDailyUsage, transferLimits, type TransferKind, type TransferRowKind } from './transfers.tables.ts';
import { divideHalfEven } from './rates.ts';
import type { PayoutMethod } from '../../../api/payees/payout-methods.ts';

/** the transfers inside the platform, and a payout's rail (its rules keyed by the rail's name) */
export type FeeOperation = 'betweenAccounts' | 'exchange' | 'p2p' | 'wire' | 'eft' | 'oct' | 'digital' | 'instant' | 'interac';

export interface FeeRule {
  fixedMinor: bigint;
  basisPoints: number;
  minMinor: bigint;
  maxMinor: bigint | null;
}

export interface Limits {
  minMinor: bigint;
  maxMinor: bigint;
  dailyMinor: bigint;
}

/** Without a limits row: one minor unit at least, and amounts the wire cannot even carry at most. */
export const NO_LIMITS: Limits = { minMinor: 1n, maxMinor: 10n ** 23n - 1n, dailyMinor: 10n ** 23n - 1n };

export function feeOperationOf(kind: TransferKind | PayoutMethod, fromCurrency: string, toCurrency: string): FeeOperation {
  // a payout's fee rule is its rail's (sent in the source's currency)
  if (kind !== 'betweenAccounts') return kind;
  return fromCurrency === toCurrency ? 'betweenAccounts' : 'exchange';
}

export function computeFee(rule: FeeRule | null, amountMinor: bigint): bigint {
  if (!rule || amountMinor <= 0n) return 0n;
  let fee = rule.fixedMinor + divideHalfEven(amountMinor * BigInt(rule.basisPoints), 10_000n);
  if (fee < rule.minMinor) fee = rule.minMinor;
  if (rule.maxMinor !== null && fee > rule.maxMinor) fee = rule.maxMinor;
  return fee;
}

/** The fee rule of an operation and currency, or null. */
export async function feeRuleFor(db: Db | Tx, operation: FeeOperation, currency: string): Promise<FeeRule | null> {
  const [rule] = await db
    .select({ fixedMinor: feeRules.fixedMinor, basisPoints: feeRules.basisPoints, minMinor: feeRules.minMinor, maxMinor: feeRules.maxMinor })
    .from(feeRules)
    .where(and(eq(feeRules.operation, operation), eq(feeRules.currency, currency)));
  return rule ?? null;
}

export async function limitsFor(db: Db | Tx, kind: TransferRowKind, currency: string): Promise<Limits> {
  const [row] = await db
    .select({ minMinor: transferLimits.minMinor, maxMinor: transferLimits.maxMinor, dailyMinor: transferLimits.dailyMinor })
    .from(transferLimits)
    .where(and(eq(transferLimits.operation, kind), eq(transferLimits.currency, currency)));
  return row ?? NO_LIMITS;
}

/** Midnight UTC of the day `nowMs` falls in. */
export function utcDayStart(nowMs: number): Date {
  const d = new Date(nowMs);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/** The UTC day (YYYY-MM-DD) a transfer created at this time counts in. */
export function utcDay(at: Date | number): string {
  return new Date(at).toISOString().slice(0, 10);
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * The source amounts of the customer's pending and posted transfers of a kind and currency today
 * (UTC): the sum of the day's counter shards (transfer_daily_usage), which always equals their sum.
 */
export async function usedToday(db: Db | Tx, customerId: number, kind: TransferRowKind, currency: string, nowMs: number): Promise<bigint> {
  const [row] = await db
    .select({ used: sql<string | null>`sum(${transferDailyUsage.usedMinor})::text` })
    .from(transferDailyUsage)
    .where(
      and(
        eq(transferDailyUsage.customerId, customerId),
        eq(transferDailyUsage.operation, kind),
        eq(transferDailyUsage.currency, currency),
        eq(transferDailyUsage.day, utcDay(nowMs)),
      ),
    );
  return BigInt(row?.used ?? '0');
}

/**
 * The SQL that counts a new pending or posted transfer's source amount on its day under the daily
 * limit (ledger_count_daily, migration 0010) and answers `used` (text): NULL when counted, else the
 * day's total with it (over the limit; nothing counted, the caller refuses). It locks one counter
 * shard not held by another transaction (or, when none has room, all of the day's shards in order)
 * until commit: callers run it as late as they can (after the accounts' locks, so the lock order
 * stays: accounts, then the counter).
 */
export function addUsageSql(customerId: number, kind: TransferRowKind, currency: string, day: string, amountMinor: bigint, dailyMinor: bigint) {
  return sql`select ledger_count_daily(${customerId}::integer, ${kind}::text, ${currency}::text, ${day}::date, ${amountMinor.toString()}::bigint, ${dailyMinor.toString()}::numeric)::text as used`;
}

/** Counts a transfer's amount on its day (see addUsageSql): null when counted, else the day's total with it (over the limit). */
export async function addDailyUsage(tx: Tx, customerId: number, kind: TransferRowKind, currency: string, day: string, amountMinor: bigint, dailyMinor: bigint): Promise<bigint | null> {
  const [row] = rowsOf<{ used: string | null }>(await tx.execute(addUsageSql(customerId, kind, currency, day, amountMinor, dailyMinor)));
  return row!.used === null ? null : BigInt(row!.used);
}

/** A pending transfer voided: its amount no longer counts on the day it was created (taken back from the day's shards). */
export async function giveBackDailyUsage(tx: Tx, t: { customerId: number; kind: TransferRowKind; fromCurrency: string; createdAt: Date; amountMinor: bigint }): Promise<void> {
  await tx.execute(
    sql`select ledger_give_back_daily(${t.customerId}::integer, ${t.kind}::text, ${t.fromCurrency}::text, ${utcDay(t.createdAt)}::date, ${t.amountMinor.toString()}::bigint)`,
  );
}

/**
 * Where the counters differ from the sums over transfers (per UTC day: pending and posted, and the
 * payouts with their rail or returned; a payout the rail refused gave its amount back; a mass
 * batch's request counts nothing, its rows count as their own transfers); [] when exact.
 */
export async function dailyUsageProblems(db: Db | Tx): Promise<string[]> {
  const rows = rowsOf<{ customer_id: number; operation: string; currency: string; day: string; counted: string; summed: string }>(
    await db.execute(sql`
      with summed as (
        select customer_id, kind as operation, from_currency as currency, (created_at at time zone 'UTC')::date as day, sum(amount_minor) as total
        from transfers where status in ('pending', 'processing', 'posted', 'returned') and kind <> 'mass' group by 1, 2, 3, 4
      )
      select coalesce(u.customer_id, s.customer_id) as customer_id, coalesce(u.operation, s.operation) as operation,
        coalesce(u.currency, s.currency) as currency, coalesce(u.day, s.day)::text as day,
        coalesce(u.used_minor, 0)::text as counted, coalesce(s.total, 0)::text as summed
      from (select customer_id, operation, currency, day, sum(used_minor) as used_minor from transfer_daily_usage group by 1, 2, 3, 4) u
      full join summed s on s.customer_id = u.customer_id and s.operation = u.operation and s.currency = u.currency and s.day = u.day
      where coalesce(u.used_minor, 0) <> coalesce(s.total, 0)`),
  );
  return rows.map((r) => `daily usage of customer ${r.customer_id} ${r.operation} ${r.currency} on ${r.day}: counted ${r.counted}, transfers sum to ${r.summed}`);
}

/** The failure of a request that takes the day's total to `used` (this transfer's amount included); null within the limit. */
export function dailyLimitExceeded(used: bigint, amountMinor: bigint, dailyMinor: bigint): bigint | null {
  if (used <= dailyMinor) return null;
  const before = used - amountMinor;
  return dailyMinor > before ? dailyMinor - before : 0n;
}
