/**
 * The currencies a customer can open now: every currency the platform offers (api/transfers.ts
 * CURRENCIES, the platform's own picklist for addCurrency) without an open account of the
 * customer's (one open account per currency, the platform refuses a second; cards do not count), crypto only with the
 * funding.digital flag (createWallet refuses without it). Fiat first, then crypto, each in the
 * platform's order.
 */
import { ACCOUNT_STATUS_CLOSED, type Account } from '../../../api/accounts.ts';
import { isCardType } from '../../../api/cards.ts';
import { CRYPTO_CURRENCIES, CURRENCIES, type CurrencyCode, type MoneyPermissions } from '../../../api/transfers.ts';

export const isCrypto = (currency: string) => (CRYPTO_CURRENCIES as readonly string[]).includes(currency);

export function openableCurrencies(accounts: readonly Account[], permissions: MoneyPermissions | null): CurrencyCode[] {
  // a card (api/cards.ts) is no payment account: a EUR card leaves EUR openable
  const held = new Set(accounts.filter((a) => a.accountStatusId !== ACCOUNT_STATUS_CLOSED && !isCardType(a.type)).map((a) => a.currency));
  const mayWallet = permissions?.funding.digital === true;
  return CURRENCIES.filter((c) => !held.has(c) && (!isCrypto(c) || mayWallet));
}
