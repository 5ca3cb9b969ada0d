/**
 * Balances per currency for the home screen: the sum of the customer's accounts that are not
 * closed (status 11), per currency, in exact decimal arithmetic (the amounts are decimal strings
 * of up to 8 decimals; a binary float would lose money on large or crypto balances).
 */
import { ACCOUNT_STATUS_CLOSED, type Account } from '../../../api/accounts.ts';

const SCALE_DIGITS = 8;
const SCALE = 10n ** BigInt(SCALE_DIGITS);
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** "12.5" -> 1250000000n (units of 10^-8); digits past the 8th are not expected and are cut. */
export function toScaled(amount: string): bigint {
  const match = DECIMAL.exec(amount);
  if (!match) throw new TypeError('amount must be a decimal string');
  const [, sign, int = '0', frac = ''] = match;
  const value = BigInt(int) * SCALE + BigInt(frac.slice(0, SCALE_DIGITS).padEnd(SCALE_DIGITS, '0'));
  return sign === '-' ? -value : value;
}

/** 1250000000n -> "12.5" (no trailing zeros; formatMoney pads to 2). */
export function fromScaled(value: bigint): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const int = magnitude / SCALE;
  const frac = (magnitude % SCALE).toString().padStart(SCALE_DIGITS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

export interface CurrencyTotal {
  currency: string;
  balance: string;
  /** the accounts summed */
  accounts: number;
}

/** Totals of the open accounts, one per currency, in the order the currencies first appear. */
export function balancesByCurrency(accounts: readonly Account[]): CurrencyTotal[] {
  const totals = new Map<string, { sum: bigint; accounts: number }>();
  for (const account of accounts) {
    if (account.accountStatusId === ACCOUNT_STATUS_CLOSED) continue;
    const entry = totals.get(account.currency) ?? { sum: 0n, accounts: 0 };
    entry.sum += toScaled(account.balance);
    entry.accounts += 1;
    totals.set(account.currency, entry);
  }
  return [...totals].map(([currency, { sum, accounts: count }]) => ({ currency, balance: fromScaled(sum), accounts: count }));
}
