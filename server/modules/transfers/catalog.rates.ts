/**
 * Exchange rates (document 2 §5): toCurrency per one fromCurrency, from table exchange_rates.
 *
 * - the same currency, or either one missing: 1 (document 2 §5);
 * - the pair stored: its rate;
 * - only the inverse pair stored: 1 / inverse, rounded half up to 10 decimals (the precision the
 *   table keeps), never below 0.0000000001;
 * - neither: 1 (the table's rule "a missing pair has rate 1").
 * A stored rate of zero is treated as not stored (it cannot be a price, and cannot be inverted).
 */
import { and, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/types.ts';
import { exchangeRates } from './transfers.tables.ts';

export const RATE_DECIMALS = 10;
const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS);

/** A decimal string as an integer of 1e-10 units; null when it is not a plain decimal of at most 10 decimals. */
function toUnits(rate: string): bigint | null {
  const match = /^(\d+)(?:\.(\d{1,10}))?$/.exec(rate);
  if (!match) return null;
  return BigInt(match[1]! + (match[2] ?? '').padEnd(RATE_DECIMALS, '0'));
}

/** 1e-10 units as a trimmed decimal string: 10850000000n -> "1.085", 10000000000n -> "1". */
function fromUnits(units: bigint): string {
  const whole = units / RATE_SCALE;
  const fraction = (units % RATE_SCALE).toString().padStart(RATE_DECIMALS, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

/** A stored rate, trimmed ("1.0850000000" -> "1.085"); null for a malformed or zero rate. */
export function normaliseRate(rate: string): string | null {
  const units = toUnits(rate);
  return units === null || units === 0n ? null : fromUnits(units);
}

/** 1 / rate, rounded half up to 10 decimals (at least 0.0000000001); null for a malformed or zero rate. */
export function invertRate(rate: string): string | null {
  const units = toUnits(rate);
  if (units === null || units === 0n) return null;
  // 1/rate in 1e-10 units is 1e20 / units; half up: (2 * 1e20 + units) / (2 * units).
  const inverse = (2n * RATE_SCALE * RATE_SCALE + units) / (2n * units);
  return fromUnits(inverse > 0n ? inverse : 1n);
}

/** toCurrency per one fromCurrency, by the rules above. */
export async function exchangeRateOf(db: Db, from: string | undefined, to: string | undefined): Promise<string> {
  if (!from || !to || from === to) return '1';
  const rows = await db
    .select({ from: exchangeRates.fromCurrency, rate: exchangeRates.rate })
    .from(exchangeRates)
    .where(
      or(
        and(eq(exchangeRates.fromCurrency, from), eq(exchangeRates.toCurrency, to)),
        and(eq(exchangeRates.fromCurrency, to), eq(exchangeRates.toCurrency, from)),
      ),
    );
  const direct = rows.find((r) => r.from === from);
  const directRate = direct ? normaliseRate(direct.rate) : null;
  if (directRate) return directRate;
  const inverse = rows.find((r) => r.from === to);
  return (inverse && invertRate(inverse.rate)) || '1';
}
