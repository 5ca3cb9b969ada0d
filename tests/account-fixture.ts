/** A payment account as balanceInquiry answers it, for tests that provide their own actors: EUR, active, customer 10, unless `fields` say otherwise. */
import type { Account } from '../api/accounts.ts';

export const testAccount = (accountId: number, balance: string, fields: Partial<Account> = {}): Account => ({
  accountId,
  type: 1001,
  subType: null,
  accountStatusId: 2,
  currency: 'EUR',
  balance,
  accountBalanceMin: '0',
  pendingAmount: '0',
  customerId: 10,
  settlementAccountId: null,
  cardIsVirtual: null,
  cardAliasName: null,
  cardExpiryMonth: null,
  cardExpiryYear: null,
  cardReissuedStatusId: null,
  ...fields,
});
