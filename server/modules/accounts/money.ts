/**
 * Money at the edge: integers in minor units inside, decimal strings of major units on the wire.
 * Exponents are those of ISO 4217 for fiat; crypto is capped at 8 decimals on this platform.
 */
const EXPONENTS: Readonly<Record<string, number>> = {
  EUR: 2,
  USD: 2,
  AUD: 2,
  CAD: 2,
  GBP: 2,
  RON: 2,
  BTC: 8,
  ETH: 8,
};
export const MAX_EXPONENT = 8;

export function currencyExponent(currency: string): number {
  const exponent = EXPONENTS[currency];
  if (exponent === undefined) throw new Error(`unknown currency ${currency}`);
  return exponent;
}

/** 12345n EUR -> "123.45"; -5n EUR -> "-0.05"; exponent 0 -> no decimal point. */
export function minorToDecimal(amountMinor: bigint, currency: string): string {
  const exponent = currencyExponent(currency);
  const negative = amountMinor < 0n;
  const digits = (negative ? -amountMinor : amountMinor).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${negative ? '-' : ''}${whole}${exponent > 0 ? `.${fraction}` : ''}`;
}

/** "123.45" EUR -> 12345n; refuses more decimals than the currency has. */
export function decimalToMinor(amount: string, currency: string): bigint {
  const exponent = currencyExponent(currency);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) throw new Error('not a decimal amount');
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > exponent) throw new Error(`more than ${exponent} decimals`);
  const minor = BigInt(whole! + fraction.padEnd(exponent, '0'));
  return sign === '-' ? -minor : minor;
}
