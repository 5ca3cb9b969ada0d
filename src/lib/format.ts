/**
 * Money and date formatting in the UI language. Amounts arrive as decimal strings (api/accounts.ts)
 * and are formatted from the string, never through a float, so 8-decimal crypto balances stay
 * exact: Intl.NumberFormat formats a numeric string at full precision.
 */
import { languageTags, type UiLang } from './i18n.ts';

/** Currencies shown with their symbol (document 1 §9); others with their code. */
export const SYMBOL_CURRENCIES: ReadonlySet<string> = new Set(['EUR', 'USD', 'AUD', 'CAD', 'GBP', 'RON']);
export const MAX_AMOUNT_DECIMALS = 8;
export const MIN_AMOUNT_DECIMALS = 2;

const DECIMAL = /^-?\d{1,30}(\.\d{1,30})?$/;
const CURRENCY = /^[A-Z]{3}$/;

/**
 * 1234.5 EUR in English -> "€1,234.50"; 0.00012345 BTC -> "BTC 0.00012345": at most 8 decimals,
 * trailing zeros trimmed down to 2. Throws on a value that is not a decimal string (a contract
 * violation the schema should already have caught).
 */
export function formatAmount(amount: string, currency: string, lang: UiLang): string {
  if (!DECIMAL.test(amount)) throw new TypeError('amount must be a decimal string');
  if (!CURRENCY.test(currency)) throw new TypeError('currency must be a three-letter code');
  const format = new Intl.NumberFormat(languageTags[lang], {
    style: 'currency',
    currency,
    currencyDisplay: SYMBOL_CURRENCIES.has(currency) ? 'symbol' : 'code',
    minimumFractionDigits: MIN_AMOUNT_DECIMALS,
    maximumFractionDigits: MAX_AMOUNT_DECIMALS,
    roundingMode: 'trunc',
  });
  // A numeric string keeps its precision (Intl.NumberFormat v3); the cast is for older lib types.
  return format.format(amount as unknown as number);
}

/** A moment in the given BCP 47 language (src/lib/i18n.ts languageTags): date and time, seconds on request. */
export function formatDateTime(iso: string, languageTag: string, { seconds = false }: { seconds?: boolean } = {}): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  try {
    return new Intl.DateTimeFormat(languageTag, { dateStyle: 'medium', timeStyle: seconds ? 'medium' : 'short' }).format(ms);
  } catch {
    return new Date(ms).toISOString();
  }
}

export function formatDate(iso: string, lang: UiLang): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(languageTags[lang], { dateStyle: 'medium' }).format(date);
}
