/**
 * Conversions at the stored rate (exchange_rates: toCurrency per one fromCurrency, a decimal string
 * of at most 10 decimals), in exact integer arithmetic on minor units.
 *
 * The rate of a pair (document 2 §5): 1 for the same currency or a missing one; the stored pair;
 * else the inverse of the stored opposite pair (1/x, half up to 10 decimals, as the exchangeRate
 * shows it to the customer); else 1. The seed stores every ordered pair, so the fallbacks are for
 * an operator's partial table.
 *
 * Rounding: half-even (banker's rounding) to the destination's minor unit, in both directions.
 * Half-even has no bias over many conversions, so neither the customer nor the provider gains
 * systematically; the FX accounts absorb the sub-unit difference, and every entry still balances
 * per currency because the provider's FX accounts take the two sides (ledger.ts).
 */
import { and, eq, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/types.ts';
import { currencyExponent } from '../accounts/money.ts';
import { exchangeRates } from './transfers.tables.ts';

export const RATE_DECIMALS = 10;

/** A rate as an integer and its decimals: "1.085" -> { units: 1085n, decimals: 3 }; null when malformed or zero. */
export function parseRate(rate: string): { units: bigint; decimals: number } | null {
  const match = /^(\d+)(?:\.(\d{1,18}))?$/.exec(rate);
  if (!match) return null;
  const fraction = match[2] ?? '';
  const units = BigInt(match[1]! + fraction);
  return units === 0n ? null : { units, decimals: fraction.length };
}

/** numerator / denominator rounded half-even (both positive, or numerator zero). */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n || numerator < 0n) throw new Error('divideHalfEven takes a non-negative numerator and a positive denominator');
  const q = numerator / denominator;
  const r = numerator % denominator;
  if (2n * r > denominator || (2n * r === denominator && q % 2n === 1n)) return q + 1n;
  return q;
}

/** 1/rate, half up to RATE_DECIMALS decimals (at least 1e-10), trimmed. */
export function invertRate(rate: string): string | null {
  const parsed = parseRate(rate);
  if (!parsed) return null;
  // 1/rate = 10^decimals / units; times 10^RATE_DECIMALS, half up.
  const numerator = 10n ** BigInt(parsed.decimals + RATE_DECIMALS);
  let q = (2n * numerator + parsed.units) / (2n * parsed.units);
  if (q === 0n) q = 1n;
  const digits = q.toString().padStart(RATE_DECIMALS + 1, '0');
  const whole = digits.slice(0, -RATE_DECIMALS);
  const fraction = digits.slice(-RATE_DECIMALS).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A stored rate trimmed ("1.0850000000" -> "1.085"); null for a malformed or zero rate. */
export function normaliseRate(rate: string): string | null {
  const parsed = parseRate(rate);
  if (!parsed) return null;
  const digits = parsed.units.toString().padStart(parsed.decimals + 1, '0');
  const whole = digits.slice(0, digits.length - parsed.decimals);
  const fraction = digits.slice(digits.length - parsed.decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** The rate to use from one currency to another, by the rules above (the same or a missing currency: 1). */
export async function rateFor(db: Db | Tx, from: string | undefined, to: string | undefined): Promise<string> {
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
  return pickRate(rows, from, to);
}

/** The rate of a pair from the stored rows of the pair and its opposite (rateFor's rules). */
export function pickRate(rows: readonly { from: string; rate: string }[], from: string, to: string): string {
  if (from === to) return '1';
  const direct = rows.find((r) => r.from === from);
  const directRate = direct ? normaliseRate(direct.rate) : null;
  if (directRate) return directRate;
  const inverse = rows.find((r) => r.from === to);
  return (inverse && invertRate(inverse.rate)) || '1';
}

/** amount (fromCurrency minor units) at the rate, in toCurrency minor units, half-even. */
export function convertForward(amountMinor: bigint, fromCurrency: string, toCurrency: string, rate: string): bigint {
  const parsed = parseRate(rate);
  if (!parsed) throw new Error('not a rate');
  // to = amount / 10^ef * (units / 10^rd) * 10^et
  const numerator = amountMinor * parsed.units * 10n ** BigInt(currencyExponent(toCurrency));
  const denominator = 10n ** BigInt(currencyExponent(fromCurrency) + parsed.decimals);
  return divideHalfEven(numerator, denominator);
}

/** The source amount that buys toAmount (toCurrency minor units) at the rate, half-even. */
export function convertInverse(toAmountMinor: bigint, fromCurrency: string, toCurrency: string, rate: string): bigint {
  const parsed = parseRate(rate);
  if (!parsed) throw new Error('not a rate');
  // from = to / 10^et / (units / 10^rd) * 10^ef
  const numerator = toAmountMinor * 10n ** BigInt(currencyExponent(fromCurrency) + parsed.decimals);
  const denominator = parsed.units * 10n ** BigInt(currencyExponent(toCurrency));
  return divideHalfEven(numerator, denominator);
}
