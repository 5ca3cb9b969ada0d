/**
 * Money and date formatting in the UI language. Amounts arrive as decimal strings (api/accounts.ts)
 * and are formatted from the string, never through a float, so 8-decimal crypto balances stay
 * exact: Intl.NumberFormat formats a numeric string at full precision.
 */
import { languageTags, type UiLang } from './i18n.ts';

/**
 * Intl formatters are costly to make (a fraction of a millisecond each, more on a phone) and a
 * page formats hundreds of amounts and dates: one formatter per language and options, kept.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

export function numberFormat(languageTag: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${languageTag}|${JSON.stringify(options)}`;
  let format = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!format) formatters.set(key, (format = new Intl.NumberFormat(languageTag, options)));
  return format;
}

export function dateTimeFormat(languageTag: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${languageTag}|${JSON.stringify(options)}`;
  let format = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) formatters.set(key, (format = new Intl.DateTimeFormat(languageTag, options)));
  return format;
}

/** Currencies shown with their symbol (document 1 §9); others with their code. */
export const SYMBOL_CURRENCIES: ReadonlySet<string> = new Set(['EUR', 'USD', 'AUD', 'CAD', 'GBP', 'RON']);
export const MAX_AMOUNT_DECIMALS = 8;
export const MIN_AMOUNT_DECIMALS = 2;

const DECIMAL = /^-?\d{1,30}(\.\d{1,30})?$/;
const CURRENCY = /^[A-Z]{3}$/;

/** How formatMoney shows the sign: only a minus (auto), or a plus too on amounts above zero (exceptZero). */
export type MoneySignDisplay = 'auto' | 'exceptZero';

/** A decimal string split into sign, integer magnitude and exactly `decimals` fraction digits, rounded half away from zero. */
function roundDecimal(amount: string, decimals: number): { negative: boolean; integer: bigint; fraction: string } {
  const negative = amount.startsWith('-');
  const [intPart = '0', fracPart = ''] = (negative ? amount.slice(1) : amount).split('.');
  const scale = 10n ** BigInt(decimals);
  let scaled = BigInt(intPart) * scale + BigInt(fracPart.slice(0, decimals).padEnd(decimals, '0') || '0');
  if ((fracPart[decimals] ?? '0') >= '5') scaled += 1n;
  return { negative, integer: scaled / scale, fraction: (scaled % scale).toString().padStart(decimals, '0') };
}

/**
 * Document 2 §5: "Amounts are formatted to 8 decimals then trimmed, with at least 2", in the UI
 * language's number format: formatMoney('1234.5', 'EUR', 'en') -> "€1,234.50",
 * ('0.000123456789', 'BTC', 'en') -> "BTC 0.00012346", ('-5', 'RON', 'ro') -> "-5,00 RON".
 *
 * Exact at any size: the digits never pass through a binary float. The integer part is formatted
 * as a BigInt (Intl's grouping, sign and currency placement for the language) and the fraction
 * digits are put in from the string, so this does not depend on Intl.NumberFormat v3's exact
 * string formatting. Rounds half away from zero at the 8th decimal (as toFixed(8) does on the
 * magnitude); a value that rounds to zero has no sign. `signDisplay: 'exceptZero'` adds a plus to
 * amounts above zero (history rows say the direction with a sign, not only with a colour).
 * Throws on a value that is not a decimal string or a currency that is not a three-letter code.
 */
export function formatMoney(amount: string, currency: string, lang: UiLang, { signDisplay = 'auto' }: { signDisplay?: MoneySignDisplay } = {}): string {
  if (!DECIMAL.test(amount)) throw new TypeError('amount must be a decimal string');
  if (!CURRENCY.test(currency)) throw new TypeError('currency must be a three-letter code');
  const { negative, integer, fraction } = roundDecimal(amount, MAX_AMOUNT_DECIMALS);
  const digits = fraction.replace(/0+$/, '').padEnd(MIN_AMOUNT_DECIMALS, '0');
  const isZero = integer === 0n && /^0+$/.test(fraction);
  const format = numberFormat(languageTags[lang], {
    style: 'currency',
    currency,
    currencyDisplay: SYMBOL_CURRENCIES.has(currency) ? 'symbol' : 'code',
    minimumFractionDigits: digits.length,
    maximumFractionDigits: digits.length,
    signDisplay,
  });
  // BigInt has no -0: below one, a template of 1 (with the amount's sign) is formatted and its integer digit put back as 0.
  const template = isZero ? 0n : (integer === 0n ? 1n : integer) * (negative ? -1n : 1n);
  return format
    .formatToParts(template)
    .map((part) => (part.type === 'fraction' ? digits : part.type === 'integer' && integer === 0n ? '0' : part.value))
    .join('');
}

/** A moment in the given BCP 47 language (src/lib/i18n.ts languageTags): date and time, seconds on request. */
export function formatDateTime(iso: string, languageTag: string, { seconds = false }: { seconds?: boolean } = {}): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  try {
    return dateTimeFormat(languageTag, { dateStyle: 'medium', timeStyle: seconds ? 'medium' : 'short' }).format(ms);
  } catch {
    return new Date(ms).toISOString();
  }
}

export function formatDate(iso: string, lang: UiLang): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return dateTimeFormat(languageTags[lang], { dateStyle: 'medium' }).format(date);
}

/** A country's name in the given language tag (Intl.DisplayNames); null for no code, the code itself where the runtime has no name. */
export function countryName(code: string | null, locale: string): string | null {
  if (!code || !/^[A-Z]{2}$/.test(code)) return null;
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
