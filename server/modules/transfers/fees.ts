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
import { feeRules, transferDailyUsage, transferLimits, type TransferKind } from './transfers.tables.ts';
import { divideHalfEven } from './rates.ts';

export type FeeOperation = 'betweenAccounts' | 'exchange' | 'p2p';

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

export function feeOperationOf(kind: TransferKind, fromCurrency: string, toCurrency: string): FeeOperation {
  if (kind === 'p2p') return 'p2p';
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

export async function limitsFor(db: Db | Tx, kind: TransferKind, currency: string): Promise<Limits> {
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
 * (UTC): the day's counter (transfer_daily_usage), which always equals their sum.
 */
export async function usedToday(db: Db | Tx, customerId: number, kind: TransferKind, currency: string, nowMs: number): Promise<bigint> {
  const [row] = await db
    .select({ used: sql<string>`${transferDailyUsage.usedMinor}::text` })
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
 * The SQL that adds a new pending or posted transfer's source amount to its day's counter and
 * answers the day's total with it as `used` (text). Taking the counter row's lock, it serialises
 * the customer's requests of this kind and currency until commit: callers run it as late as they
 * can (after the accounts' locks, so the lock order stays: accounts, then the counter).
 */
export function addUsageSql(customerId: number, kind: TransferKind, currency: string, day: string, amountMinor: bigint) {
  return sql`insert into transfer_daily_usage (customer_id, operation, currency, day, used_minor)
    values (${customerId}, ${kind}, ${currency}, ${day}::date, ${amountMinor.toString()}::bigint)
    on conflict (customer_id, operation, currency, day) do update set used_minor = transfer_daily_usage.used_minor + excluded.used_minor
    returning used_minor::text as used`;
}

/** Adds a transfer's amount to its day's counter (see addUsageSql); the day's total with it. */
export async function addDailyUsage(tx: Tx, customerId: number, kind: TransferKind, currency: string, day: string, amountMinor: bigint): Promise<bigint> {
  const [row] = rowsOf<{ used: string }>(await tx.execute(addUsageSql(customerId, kind, currency, day, amountMinor)));
  return BigInt(row!.used);
}

/** A pending transfer voided: its amount no longer counts on the day it was created. */
export async function giveBackDailyUsage(tx: Tx, t: { customerId: number; kind: TransferKind; fromCurrency: string; createdAt: Date; amountMinor: bigint }): Promise<void> {
  await tx.execute(sql`update transfer_daily_usage set used_minor = used_minor - ${t.amountMinor.toString()}::bigint
    where customer_id = ${t.customerId} and operation = ${t.kind} and currency = ${t.fromCurrency} and day = ${utcDay(t.createdAt)}::date`);
}

/** Where the counters differ from the sums over transfers (pending and posted, per UTC day); [] when exact. */
export async function dailyUsageProblems(db: Db | Tx): Promise<string[]> {
  const rows = rowsOf<{ customer_id: number; operation: string; currency: string; day: string; counted: string; summed: string }>(
    await db.execute(sql`
      with summed as (
        select customer_id, kind as operation, from_currency as currency, (created_at at time zone 'UTC')::date as day, sum(amount_minor) as total
        from transfers where status in ('pending', 'posted') group by 1, 2, 3, 4
      )
      select coalesce(u.customer_id, s.customer_id) as customer_id, coalesce(u.operation, s.operation) as operation,
        coalesce(u.currency, s.currency) as currency, coalesce(u.day, s.day)::text as day,
        coalesce(u.used_minor, 0)::text as counted, coalesce(s.total, 0)::text as summed
      from transfer_daily_usage u
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
