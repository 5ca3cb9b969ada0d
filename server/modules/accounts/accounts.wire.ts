/** Accounts as the wire shows them (api/accounts.ts AccountSchema): the one mapping from a stored account. */
import type { Account } from '../../../api/accounts.ts';
import type { accounts } from './accounts.tables.ts';
import { minorToDecimal } from './money.ts';

export type AccountRow = typeof accounts.$inferSelect;

/** What the wire shows of a card beyond its account (cards/cards.tables.ts); the reissued card's status when it was reissued. */
export interface WireCardFields {
  isVirtual: boolean;
  aliasName: string | null;
  expiryMonth: number;
  expiryYear: number;
  reissuedStatusId: number | null;
  last4: string;
}

/** A stored account in the AccountSchema shape: amounts as decimal strings of major units; a card's fields from its card row, null for every other account. */
export function toWireAccount(a: AccountRow, card: WireCardFields | null = null): Account {
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
    // document 2 §3: the card fields of a card account; null on every other account
    cardIsVirtual: card?.isVirtual ?? null,
    cardAliasName: card?.aliasName ?? null,
    cardExpiryMonth: card?.expiryMonth ?? null,
    cardExpiryYear: card?.expiryYear ?? null,
    cardReissuedStatusId: card?.reissuedStatusId ?? null,
    cardLast4: card?.last4 ?? null,
  };
}
