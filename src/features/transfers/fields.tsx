/** The amount formatter of the transfer pages, in the UI language. */
import { formatMoney } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';

/** An amount of the platform (a decimal string) in the UI language; the text as is if it is not one. */
export function money(amount: string, currency: string): string {
  try {
    return formatMoney(amount, currency, getUiLanguage());
  } catch {
    return `${amount} ${currency}`;
  }
}
