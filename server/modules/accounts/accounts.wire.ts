/** Accounts as the wire shows them (api/accounts.ts AccountSchema): the one mapping from a stored account. */
import type { Account } from '../../../api/accounts.ts';
import type { accounts } from './accounts.tables.ts';
import { minorToDecimal } from './money.ts';

export type AccountRow = typeof accounts.$inferSelect;

/** A stored account in the AccountSchema shape: amounts as decimal strings of major units. */
export function toWireAccount(a: AccountRow): Account {
  return {
    accountId: a.accountId,
    type: a.type,
    subType: a.subType,
    accountStatusId: a.status,
    currency: a.currency,
    balance: minorToDecimal(a.balanceMinor, a.currency),
    accountBalanceMin: minorToDecimal(a.balanceMinMinor, a.currency),
    pendingAmount: minorToDecimal(a.pendingMinor, a.currency),
    customerId: a.customerId,
    settlementAccountId: a.settlementAccountId,
    // No card products yet: every account is a plain account (document 2 §3).
    cardIsVirtual: null,
    cardAliasName: null,
    cardExpiryMonth: null,
    cardExpiryYear: null,
    cardReissuedStatusId: null,
  };
}
