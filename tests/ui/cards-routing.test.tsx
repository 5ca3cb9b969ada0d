/**
 * The cards area through the real route tree (document 2 §2 "Cards routing"): /cards with no card
 * offers one; with cards it goes to the physical list first, the tabs move between the kinds; the
 * only card of the only kind opens straight; a detail of an account that is not a listed card goes
 * home (or to the cards when there are several); the main navigation and home show the cards.
 * Only fetch is replaced (history-harness.tsx).
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Account } from '../../api/accounts.ts';
import { account, expectNoAxeViolations, renderApp, useHarness } from './history-harness.tsx';

const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

let accounts: Account[] = [];
const payment = account({ accountId: 101, currency: 'EUR', balance: '500' });
const physical = account({
  accountId: 201,
  currency: 'EUR',
  balance: '25.5',
  type: 2006,
  subType: 'PREPAID',
  accountStatusId: 2,
  cardIsVirtual: false,
  cardExpiryMonth: 3,
  cardExpiryYear: 2029,
});
const virtual = account({
  accountId: 202,
  currency: 'USD',
  balance: '10',
  type: 2100,
  subType: 'PREPAID',
  accountStatusId: 2,
  cardIsVirtual: true,
  cardAliasName: 'Online shopping',
  cardExpiryMonth: 11,
  cardExpiryYear: 2028,
});
const canceled = account({ accountId: 203, currency: 'EUR', balance: '0', type: 2006, subType: 'PREPAID', accountStatusId: 4, cardIsVirtual: false });
const closed = account({ accountId: 204, currency: 'EUR', balance: '0', type: 2100, subType: 'PREPAID', accountStatusId: 11, cardIsVirtual: true });

useHarness(() => ({
  balanceInquiry: () => ({ responseCode: '00', accounts: { account: accounts } }),
  applyForCardInfo: () => ({ responseCode: '00', countryCode: 'DE', products: [] }),
  currentAccountAuthorizationListGet: () => ({ responseCode: '00', authorizations: [], total: 0 }),
  balanceHistory: () => ({ responseCode: '00', series: [] }),
  transactionHistory: () => ({ responseCode: '00', transactions: { transaction: [] }, results: 0, rejectedCount: 0, processingCount: 0, exportId: null, exportCsv: null }),
}));

describe('cards routing', () => {
  it('/cards without a card stays and offers one', async () => {
    accounts = [payment, closed];
    const { router } = await renderApp('/cards');
    expect(await screen.findByRole('heading', { level: 2, name: 'You have no card yet' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/cards');
    expect(screen.getByRole('link', { name: 'Get a card' }).getAttribute('href')).toBe('/add-card');
    await expectNoAxeViolations('the empty cards page');
  });

  it('/cards goes to the physical list first; the tabs move between the kinds; each card opens its page', async () => {
    accounts = [payment, virtual, physical, canceled, closed];
    const user = userEvent.setup();
    const { router } = await renderApp('/cards');
    const physicalList = await screen.findByRole('list', { name: 'Your physical cards' });
    expect(router.state.location.pathname).toBe('/cards/physical');
    // the canceled card stays listed, marked; the closed one is not listed at all
    const faces = within(physicalList)
      .getAllByRole('link')
      .map((a) => plain(a.textContent));
    expect(faces).toEqual(['Prepaid cardActivePhysical · EUR€25.50Expires 03/29', 'Prepaid cardCanceledPhysical · EUR']);
    expect(within(physicalList).getAllByRole('link')[0]!.getAttribute('href')).toBe('/cards/201');
    expect(screen.getByRole('tab', { name: 'Physical cards', selected: true })).toBeTruthy();
    await expectNoAxeViolations('the physical cards list');

    await user.click(screen.getByRole('tab', { name: 'Virtual cards' }));
    const virtualList = await screen.findByRole('list', { name: 'Your virtual cards' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/cards/virtual'));
    expect(
      within(virtualList)
        .getAllByRole('link')
        .map((a) => plain(a.textContent)),
    ).toEqual(['Online shoppingActiveVirtual · USD$10.00Expires 11/28']);
    expect(screen.getByRole('link', { name: 'Add a card' }).getAttribute('href')).toBe('/add-card');
  });

  it('/cards with one virtual card only goes straight to that card', async () => {
    accounts = [payment, virtual, closed];
    const { router } = await renderApp('/cards');
    expect(await screen.findByRole('heading', { level: 1, name: 'Online shopping' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/cards/202');
    // one card: no way back to a list that would only lead here again
    expect(screen.queryByRole('link', { name: 'All cards' })).toBeNull();
  });

  it('a list with one card of its kind but a card of the other kind stays', async () => {
    accounts = [payment, virtual, physical];
    const { router } = await renderApp('/cards/virtual');
    expect(await screen.findByRole('list', { name: 'Your virtual cards' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/cards/virtual');
  });

  it('a detail of an account that is not a listed card: the cards list when several cards exist, else home', async () => {
    accounts = [payment, virtual, physical, closed];
    const first = await renderApp('/cards/204');
    await screen.findByRole('list', { name: 'Your physical cards' });
    expect(first.router.state.location.pathname).toBe('/cards/physical');
  });

  it('a detail of an unknown card with one card goes home', async () => {
    accounts = [payment, virtual];
    const { router } = await renderApp('/cards/101');
    await screen.findByRole('heading', { level: 1, name: /^Welcome/ });
    expect(router.state.location.pathname).toBe('/home');
  });

  it('the main navigation has Cards; home lists the cards apart from the accounts', async () => {
    accounts = [payment, physical, virtual, closed];
    await renderApp('/home');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect((await within(nav).findByRole('link', { name: 'Cards' })).getAttribute('href')).toBe('/cards');
    const cards = await screen.findByRole('list', { name: 'Your cards' });
    expect(
      within(cards)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/cards/201', '/cards/202']);
    // the accounts list holds the payment account only
    expect(await screen.findByText('You have 1 account.')).toBeTruthy();
  });
});
