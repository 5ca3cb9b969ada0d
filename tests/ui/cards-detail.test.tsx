/**
 * /cards/{accountId} through the real route tree: the actions shown for each status exactly as
 * api/cards.ts cardActionAllowed allows (document 2 §4), the production steps of a card on its
 * way, blocking behind a confirmation that says it is final (keep: nothing sent; confirm: cardBlock,
 * the refund told, the accounts read again), a refused rename in the customer's words (VF through
 * src/lib/validation-messages.ts), and a debit card's settlement-account card payments, 10 a page.
 * Only fetch is replaced (history-harness.tsx).
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Account } from '../../api/accounts.ts';
import { CardStatus } from '../../api/cards.ts';
import { account, expectNoAxeViolations, platform, renderApp, useHarness } from './history-harness.tsx';

const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

let accounts: Account[] = [];
const payment = account({ accountId: 101, currency: 'EUR', balance: '500' });
const card = (over: Partial<Account> & { accountId: number }): Account =>
  account({
    currency: 'EUR',
    balance: '25',
    type: 2006,
    subType: 'PREPAID',
    accountStatusId: CardStatus.active,
    cardIsVirtual: false,
    cardExpiryMonth: 3,
    cardExpiryYear: 2029,
    ...over,
  });

const product = {
  type: 2006,
  kind: 'physical',
  subType: 'PREPAID',
  isVirtual: false,
  currencyCode: 'EUR',
  cardBrand: 'VISA',
  fees: { annual: 0, issue: 5, monthly: 0, currency: 'EUR' },
  shippingOptions: [
    { id: 1, type: 'standard', fee: 2, currency: 'EUR', deliveryTime: 10, disabledReasons: [] },
    { id: 2, type: 'express', fee: 12.5, currency: 'EUR', deliveryTime: 3, disabledReasons: [] },
  ],
  limits: { perPayment: '1000', perDay: '2000' },
  disabledReasons: [],
};

useHarness(() => ({
  balanceInquiry: () => ({ responseCode: '00', accounts: { account: accounts } }),
  applyForCardInfo: () => ({ responseCode: '00', countryCode: 'DE', products: [product] }),
  currentAccountAuthorizationListGet: () => ({ responseCode: '00', authorizations: [], total: 0 }),
}));

/** The names of the buttons and links of the card's "Manage the card" section. */
async function actionNames(): Promise<string[]> {
  const section = (await screen.findByRole('heading', { level: 2, name: 'Manage the card' })).closest('section')!;
  return [...section.querySelectorAll('a, button')].map((el) => plain(el.textContent));
}

describe('card detail: the actions per status (cardActionAllowed)', () => {
  it.each<[string, Partial<Account>, string[]]>([
    [
      'an active physical prepaid card',
      { accountStatusId: CardStatus.active },
      ['Add money to the card', 'Move money off the card', 'Show PIN or card details', 'Change PIN', 'Pause', 'Order a new card', 'Block the card'],
    ],
    [
      'a paused virtual card (rename only for virtual cards, no loading while paused)',
      { accountStatusId: CardStatus.paused, cardIsVirtual: true, type: 2100 },
      ['Move money off the card', 'Show PIN or card details', 'Change PIN', 'Unpause', 'Rename', 'Order a new card', 'Block the card'],
    ],
    [
      'an expired card',
      { accountStatusId: CardStatus.expired },
      ['Move money off the card', 'Show PIN or card details', 'Change PIN', 'Pause', 'Order a new card', 'Block the card'],
    ],
    ['a card blocked for fraud', { accountStatusId: CardStatus.fraud }, ['Order a new card']],
    ['a physical card being printed', { accountStatusId: CardStatus.printing }, ['Send by express']],
    ['a canceled card', { accountStatusId: CardStatus.canceled }, []],
    ['a limited card', { accountStatusId: CardStatus.limited }, []],
    ['a card waiting for approval', { accountStatusId: CardStatus.pendingApproval }, []],
  ])('%s', async (_, over, names) => {
    accounts = [payment, card({ accountId: 201, ...over })];
    await renderApp('/cards/201');
    expect(await actionNames()).toEqual(names);
    if (names.length === 0) expect(screen.getByText('Nothing can be done with this card in its present state.')).toBeTruthy();
  });

  it('shows the balance and holds only where the status allows it; a card on its way shows its production steps', async () => {
    accounts = [payment, card({ accountId: 201, accountStatusId: CardStatus.printing, cardExpiryMonth: null, cardExpiryYear: null })];
    await renderApp('/cards/201');
    const steps = await screen.findByRole('list', { name: "Your card's production" });
    expect(
      within(steps)
        .getAllByRole('listitem')
        .map((li) => plain(li.textContent)),
    ).toEqual(['Submitted (done)', 'Processing (done)', '3Printing', '4Printed', '5Shipped']);
    expect(within(steps).getAllByRole('listitem')[2]!.getAttribute('aria-current')).toBe('step');
    expect(screen.queryByText('Balance')).toBeNull();
    // nothing to state beside the face: no empty list of facts (it kept a gap under the steps)
    expect(document.querySelector('dl.card-facts')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Card payments on hold' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Transactions of this card' })).toBeNull();
    await expectNoAxeViolations('the card on its way');
  });

  it('links loading and unloading to the transfer between own accounts, with the card preset', async () => {
    accounts = [payment, card({ accountId: 201 })];
    await renderApp('/cards/201');
    expect((await screen.findByRole('link', { name: 'Add money to the card' })).getAttribute('href')).toBe('/transfer/account?toAccountId=201');
    expect(screen.getByRole('link', { name: 'Move money off the card' }).getAttribute('href')).toBe('/transfer/account?fromAccountId=201');
    expect(screen.getByRole('link', { name: 'Change PIN' }).getAttribute('href')).toBe('/card/201/pin');
    expect(screen.getByRole('link', { name: 'Transactions of this card' }).getAttribute('href')).toBe('/history?accountId=201');
    const facts = screen.getByText('Balance').closest('dl')!;
    expect(plain(facts.textContent)).toBe('Balance€25.00On hold€0.00');
  });
});

describe('card detail: the actions', () => {
  it('blocks only after a confirmation that says it is final and where the money goes', async () => {
    accounts = [payment, card({ accountId: 201, balance: '25' })];
    platform.handlers.cardBlock = () => {
      accounts = [payment, card({ accountId: 201, balance: '0', accountStatusId: CardStatus.canceled })];
      return { responseCode: '00', accountStatusId: CardStatus.canceled, refundedAmount: '25', refundedToAccountId: 101 };
    };
    const user = userEvent.setup();
    await renderApp('/cards/201');
    await user.click(await screen.findByRole('button', { name: 'Block the card' }));
    let dialog = await screen.findByRole('dialog', { name: 'Block this card for good?' });
    expect(within(dialog).getByText('This cannot be undone: a blocked card can never be used again.')).toBeTruthy();
    expect(plain(within(dialog).getByText(/goes back to your/).textContent)).toBe('The money left on the card (€25.00) goes back to your EUR account.');
    await expectNoAxeViolations('the block dialog');
    // keeping the card sends nothing
    await user.click(within(dialog).getByRole('button', { name: 'Keep the card' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(platform.bodies('cardBlock')).toEqual([]);

    const reads = platform.bodies('balanceInquiry').length;
    await user.click(screen.getByRole('button', { name: 'Block the card' }));
    dialog = await screen.findByRole('dialog', { name: 'Block this card for good?' });
    await user.click(within(dialog).getByRole('button', { name: 'Block the card' }));
    const done = await screen.findByText(/The card is blocked\./);
    expect(plain(done.textContent)).toBe('The card is blocked. €25.00 went back to your EUR account 101.');
    expect(platform.bodies('cardBlock')).toEqual([{ accountId: 201 }]);
    // the accounts are read again: the card is canceled now, nothing more can be done with it
    await waitFor(() => expect(platform.bodies('balanceInquiry').length).toBeGreaterThan(reads));
    await waitFor(async () => expect(await actionNames()).toEqual(['Close this message']));
    expect(await screen.findByText('The card is canceled')).toBeTruthy();
  });

  it('shows a refusal of a rename in the customer words, and renames once accepted', async () => {
    accounts = [payment, card({ accountId: 202, type: 2100, cardIsVirtual: true, cardAliasName: 'Online' })];
    let answer: unknown = {
      responseCode: 'VF',
      responseDescription: 'Validation failed',
      validationErrors: [{ param: 'cardAliasName', description: 'too long', code: 'tooLong', params: { max: 40 } }],
    };
    platform.handlers.setAlias = () => answer;
    const user = userEvent.setup();
    await renderApp('/cards/202');
    await user.click(await screen.findByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename the card' });
    const field = within(dialog).getByRole('textbox', { name: 'Card name' });
    expect((field as HTMLInputElement).value).toBe('Online');
    await user.clear(field);
    await user.type(field, 'Travel');
    await user.click(within(dialog).getByRole('button', { name: 'Save the name' }));
    expect(await within(dialog).findByText('Enter at most 40 characters.')).toBeTruthy();
    answer = { responseCode: '00', cardAliasName: 'Travel' };
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('The card is now called Travel.')).toBeTruthy();
    expect(platform.bodies('setAlias')).toEqual([
      { accountId: 202, cardAliasName: 'Travel' },
      { accountId: 202, cardAliasName: 'Travel' },
    ]);
  });

  it('reissues with the delivery chosen, its fee shown', async () => {
    accounts = [payment, card({ accountId: 201 })];
    platform.handlers.cardReissue = () => ({ responseCode: '00', accountId: 205, accountStatusId: CardStatus.submitted, fee: '17.5', feeCurrency: 'EUR' });
    const user = userEvent.setup();
    await renderApp('/cards/201');
    await user.click(await screen.findByRole('button', { name: 'Order a new card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Order a new card?' });
    expect(plain(within(dialog).getByText(/^The issue fee/).textContent)).toBe('The issue fee of €5.00 is charged.');
    const express = within(dialog).getByRole('radio', { name: 'Express delivery' });
    expect(plain(document.getElementById(express.getAttribute('aria-describedby')!)!.textContent)).toBe('€12.50 · at most 3 business days');
    await user.click(express);
    await user.click(within(dialog).getByRole('button', { name: 'Order the new card' }));
    expect(plain((await screen.findByText(/Your new card is ordered/)).textContent)).toContain('€17.50 was charged.');
    expect(screen.getByRole('link', { name: 'Open the new card' }).getAttribute('href')).toBe('/cards/205');
    expect(platform.bodies('cardReissue')).toEqual([{ accountId: 201, isExpressShipping: true }]);
  });
});

describe("a debit card's settlement account", () => {
  it('lists the card payments of the account it draws on, 10 a page, with decline reasons', async () => {
    const debit = card({ accountId: 206, type: 2118, subType: 'DEBIT', settlementAccountId: 101, balance: '0' });
    accounts = [payment, debit];
    const row = (id: number, status: string, declineReason: string | null = null) => ({
      id,
      cardAccountId: 206,
      accountId: 101,
      cardLast4: '4242',
      merchantName: `Shop ${id}`,
      merchantCategoryCode: '5411',
      merchantCountryCode: 'DE',
      amount: '12.3',
      currencyCode: 'EUR',
      status,
      declineReason,
      createdAt: '2026-11-20T12:00:00.000Z',
      updatedAt: '2026-11-20T12:00:00.000Z',
    });
    platform.handlers.debitcardAuthorizationListGet = (body) =>
      body.pageNumber === 1
        ? { responseCode: '00', authorizations: [row(1, 'declined', 'INSUFFICIENT_FUNDS'), row(2, 'cleared')], total: 12 }
        : { responseCode: '00', authorizations: [row(3, 'reversed')], total: 12 };
    const user = userEvent.setup();
    await renderApp('/cards/206');
    const section = (await screen.findByRole('heading', { level: 2, name: 'Card payments' })).closest('section')!;
    await within(section).findByText('Shop 1');
    expect(within(section).getByText('Not enough money')).toBeTruthy();
    expect(within(section).getAllByText('Card ending 4242')).toHaveLength(2);
    expect(platform.bodies('debitcardAuthorizationListGet')).toEqual([{ accountId: 101, pageNumber: 1, pageSize: 10 }]);
    expect(platform.bodies('currentAccountAuthorizationListGet')).toEqual([{ accountId: 101, pageNumber: 1, pageSize: 10 }]);
    await user.click(within(section).getByRole('button', { name: 'Next' }));
    await within(section).findByText('Shop 3');
    expect(platform.bodies('debitcardAuthorizationListGet').at(-1)).toEqual({ accountId: 101, pageNumber: 2, pageSize: 10 });
    expect(within(section).getByText('Page 2 of 2')).toBeTruthy();
    // no loading or unloading of a debit card: it holds no money of its own
    expect(screen.queryByRole('link', { name: 'Add money to the card' })).toBeNull();
  });
});
