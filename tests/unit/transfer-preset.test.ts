/**
 * The accounts /transfer/account opens with (issue 16: a card's Load and Unload links pass
 * ?toAccountId / ?fromAccountId, the route hands them to the transfer machine as input): taken once
 * the accounts are loaded when they are among those offered, ignored otherwise. Cards are offered
 * between own accounts only (a debit card never); a card counts as no account of its currency when
 * offering currencies to open (choices.ts).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Account } from '../../api/accounts.ts';
import { CardStatus } from '../../api/cards.ts';
import type { MoneyPermissions } from '../../api/transfers.ts';
import { transferMachine, type LoadResult, type TransferInput } from '../../machines/transfer/transfer.machine.ts';
import type { TransferKind } from '../../machines/transfer/transfer.rules.ts';
import { openableCurrencies } from '../../src/features/accounts/choices.ts';

const account = (accountId: number, currency: string, extra: Partial<Account> = {}): Account => ({
  accountId,
  type: 1001,
  subType: null,
  accountStatusId: 2,
  currency,
  balance: '10.00',
  accountBalanceMin: '0',
  pendingAmount: '0',
  customerId: 10,
  settlementAccountId: null,
  cardIsVirtual: null,
  cardAliasName: null,
  cardExpiryMonth: null,
  cardExpiryYear: null,
  cardReissuedStatusId: null,
  ...extra,
});
const card = (accountId: number, currency: string) => account(accountId, currency, { type: 2010, subType: 'PREPAID', accountStatusId: CardStatus.active, cardIsVirtual: true });
const PERMISSIONS = { topLevel: { sendMoneyUser: true }, own: { betweenAccounts: true }, others: {}, mass: {}, funding: {} } as unknown as MoneyPermissions;
const ACCOUNTS = [account(1, 'EUR'), account(2, 'USD'), card(7, 'EUR')];

async function formAfterLoad(input: Partial<TransferInput>) {
  const logic = transferMachine.provide({
    actors: {
      loadSetup: fromPromise<LoadResult, { kind: TransferKind; recentLimit: number }>(async () => ({ ok: true, accounts: ACCOUNTS, permissions: PERMISSIONS, recent: [] })),
    },
  });
  const actor = createActor(logic, { input: { kind: 'betweenAccounts', ...input } }).start();
  const snapshot = await waitFor(actor, (s) => s.context.accounts.length > 0);
  actor.stop();
  return { from: snapshot.context.form.fromAccountId, to: snapshot.context.form.toAccountId };
}

describe('the accounts a transfer opens with', () => {
  it('loads a card: the card preset as the destination', async () => {
    expect(await formAfterLoad({ toAccountId: 7 })).toEqual({ from: null, to: 7 });
  });

  it('unloads a card: the card preset as the source', async () => {
    expect(await formAfterLoad({ fromAccountId: 7 })).toEqual({ from: 7, to: null });
  });

  it('ignores an account not offered, and a destination equal to the source', async () => {
    expect(await formAfterLoad({ toAccountId: 99, fromAccountId: 98 })).toEqual({ from: null, to: null });
    expect(await formAfterLoad({ toAccountId: 7, fromAccountId: 7 })).toEqual({ from: 7, to: null });
  });
});

describe('the accounts offered beside cards', () => {
  it('offers a prepaid card between own accounts only, a debit card never', async () => {
    const debit = account(8, 'EUR', { type: 2020, subType: 'DEBIT', settlementAccountId: 1 });
    const offered = async (kind: TransferKind) => {
      const logic = transferMachine.provide({
        actors: {
          loadSetup: fromPromise<LoadResult, { kind: TransferKind; recentLimit: number }>(async () => ({
            ok: true,
            accounts: [...ACCOUNTS, debit],
            permissions: PERMISSIONS,
            recent: [],
          })),
        },
      });
      const actor = createActor(logic, { input: { kind } }).start();
      const snapshot = await waitFor(actor, (s) => s.context.accounts.length > 0);
      actor.stop();
      return snapshot.context.accounts.map((a) => a.accountId);
    };
    expect(await offered('betweenAccounts')).toEqual([1, 2, 7]);
    expect(await offered('p2p')).toEqual([1, 2]);
  });
});

describe('currencies to open beside a card', () => {
  it('offers EUR when the only EUR account is a card', () => {
    expect(openableCurrencies([card(7, 'EUR'), account(2, 'USD')], null)).toContain('EUR');
    expect(openableCurrencies([card(7, 'EUR'), account(1, 'EUR')], null)).not.toContain('EUR');
  });
});
