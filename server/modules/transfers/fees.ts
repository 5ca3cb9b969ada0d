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
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/types.ts';
import { feeRules, transferLimits, transfers, type TransferKind } from './transfers.tables.ts';
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

/** The source amounts of the customer's pending and posted transfers of a kind and currency today (UTC). */
export async function usedToday(db: Db | Tx, customerId: number, kind: TransferKind, currency: string, nowMs: number): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${transfers.amountMinor}), 0)::text` })
    .from(transfers)
    .where(
      and(
        eq(transfers.customerId, customerId),
        eq(transfers.kind, kind),
        eq(transfers.fromCurrency, currency),
        inArray(transfers.status, ['pending', 'posted']),
        gte(transfers.createdAt, utcDayStart(nowMs)),
      ),
    );
  return BigInt(row?.total ?? '0');
}
