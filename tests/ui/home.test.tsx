/**
 * /home through the real route tree: the total of the open accounts per currency, each account,
 * the balance chart (an image with a summary, the points in a table, a currency chooser), and
 * the recent activity (the first history page, Fees rows left out, grouped by day, signed amounts
 * and status badges). Only fetch is replaced.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { activateUiLanguage } from '../../src/lib/i18n.ts';
import { account, customer, expectNoAxeViolations, platform, renderApp, row, useHarness } from './history-harness.tsx';

const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

const accounts = [
  account({ accountId: 101, currency: 'EUR', balance: '1250.5' }),
  account({ accountId: 104, currency: 'EUR', balance: '0.25', type: 4001 }),
  // closed: listed, but not in the total
  account({ accountId: 105, currency: 'EUR', balance: '999', accountStatusId: 11 }),
  account({ accountId: 102, currency: 'BTC', balance: '0.00012345' }),
];

const rows = [
  row({ day: '2026-11-20', counterparty: 'boris@demo.test', amount: '-25', direction: 'out', status: 'pending', note: 'Dinner' }),
  row({ day: '2026-11-20', counterparty: 'Fee', amount: '-0.5', operationType: 'Fees' }),
  row({ day: '2026-11-20', counterparty: 'EUR account 104', amount: '40', direction: 'in', operationType: 'betweenAccounts' }),
  row({ day: '2026-11-18', counterparty: 'Mila Marin', amount: '100.1', direction: 'in', operationType: 'p2p' }),
  row({ day: '2026-11-18', counterparty: 'Fee', amount: '-1', operationType: 'Fees' }),
  row({ day: '2026-11-02', counterparty: 'carl@demo.test', amount: '-5', direction: 'out', status: 'rejected' }),
];

const series = [
  {
    currency: 'EUR',
    points: [
      { date: '2026-09-01', balance: '1000' },
      { date: '2026-10-01', balance: '800.5' },
      { date: '2026-11-20', balance: '1250.75' },
    ],
  },
  { currency: 'BTC', points: [{ date: '2026-11-01', balance: '0.00012345' }] },
];

useHarness(() => ({
  balanceInquiry: () => ({ responseCode: '00', accounts: { account: accounts } }),
  balanceHistory: () => ({ responseCode: '00', series }),
  transactionHistory: () => ({ responseCode: '00', transactions: { transaction: rows }, results: rows.length, rejectedCount: 1, processingCount: 1, exportId: null, exportCsv: null }),
}));

describe('home', () => {
  it('shows each account once, and a total only for a currency with several open accounts', async () => {
    await renderApp('/home');
    const totals = await screen.findByRole('list', { name: 'Total per currency' });
    // BTC has one account: its total would only repeat that account's balance
    expect(within(totals).getAllByRole('listitem').map((li) => plain(li.textContent))).toEqual(['EUR total: €1,250.75']);
    expect(within(screen.getByRole('listitem', { name: 'Payment account · BTC' })).getByText((_, el) => plain(el?.textContent) === 'BTC 0.00012345' && el?.tagName === 'P')).toBeTruthy();
    expect(screen.getByText('You have 4 accounts.')).toBeTruthy();
    expect(screen.getByText('€999.00')).toBeTruthy();
  });

  it('draws the balance over time with a summary, the points in a table, and a currency chooser', async () => {
    const user = userEvent.setup();
    await renderApp('/home');
    const chart = await screen.findByRole('img', { name: /^EUR balance, Last 90 days:/ });
    expect(plain(chart.getAttribute('aria-label'))).toBe('EUR balance, Last 90 days: from €1,000.00 (Sep 1, 2026) to €1,250.75 (Nov 20, 2026); lowest €800.50, highest €1,250.75.');
    // a step line through the three points (drawn one step after the page: src/ui/deferred.tsx)
    await waitFor(() => expect(chart.querySelectorAll('circle')).toHaveLength(3));
    expect(chart.querySelector('path')?.getAttribute('d')).toMatch(/^M[\d.]+ [\d.]+ H[\d.]+ V[\d.]+ H[\d.]+ V[\d.]+$/);
    // the points' table is drawn once opened
    expect(screen.queryByRole('table', { name: 'EUR balance by day, Last 90 days' })).toBeNull();
    await user.click(screen.getByText('Show the data points'));
    const table = await screen.findByRole('table', { name: 'EUR balance by day, Last 90 days' });
    expect(within(table).getAllByRole('row').slice(1).map((r) => plain(r.textContent))).toEqual(['Sep 1, 2026€1,000.00', 'Oct 1, 2026€800.50', 'Nov 20, 2026€1,250.75']);
    expect(platform.bodies('balanceHistory')).toEqual([{ days: 90 }]);
    // readable axes: the lowest, middle and highest value on the left, dates below
    const labels = [...chart.querySelectorAll('text')].map((el) => plain(el.textContent));
    expect(labels).toEqual(['€800.50', '€1,025.63', '€1,250.75', 'Sep 1, 2026', 'Oct 1, 2026', 'Nov 20, 2026']);
    // the keyboard reads each day: the chart takes the focus, Home goes to the first day
    const reader = screen.getByRole('group', { name: /^Balance chart/ });
    reader.focus();
    await user.keyboard('{Home}');
    expect(within(reader).getByText('Sep 1, 2026: €1,000.00')).toBeTruthy();
    await user.keyboard('{ArrowRight}');
    expect(within(reader).getByText('Oct 1, 2026: €800.50')).toBeTruthy();
    expect(chart.querySelectorAll('.chart-point-active')).toHaveLength(1);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Currency' }), 'BTC');
    expect(plain(screen.getByRole('img', { name: /balance|Баланс/ }).getAttribute('aria-label'))).toBe(
      'BTC balance, Last 90 days: from BTC 0.00012345 (Nov 1, 2026) to BTC 0.00012345 (Nov 1, 2026); lowest BTC 0.00012345, highest BTC 0.00012345.',
    );

    await user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), '365');
    await waitFor(() => expect(platform.bodies('balanceHistory')).toEqual([{ days: 90 }, { days: 365 }]));
    expect(await screen.findByRole('img', { name: /^BTC balance, Last 12 months:/ })).toBeTruthy();
  });

  it('lists the recent activity by day, without the Fees rows, signed and with status badges', async () => {
    await renderApp('/home');
    const section = (await screen.findByRole('heading', { name: 'Recent activity' })).closest('section')!;
    await within(section).findByText('Mila Marin');
    expect(platform.bodies('transactionHistory')).toEqual([{ pageNumber: 1, pageSize: 20 }]);
    const days = within(section).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(days).toEqual(['Friday, November 20, 2026', 'Wednesday, November 18, 2026', 'Monday, November 2, 2026']);
    const lists = within(section).getAllByRole('list');
    const items = lists.map((list) => within(list).getAllByRole('listitem').map((li) => plain(li.textContent)));
    expect(items).toEqual([
      // each row starts with the counterparty's initial
      ['Bboris@demo.testPayment to a person · DinnerPending-€25.00', 'EEUR account 104Between own accounts+€40.00'],
      ['MMila MarinPayment to a person+€100.10'],
      ['Ccarl@demo.testPayment to a personRejected-€5.00'],
    ]);
    // each day's list is named by its heading; no fee row anywhere
    expect(within(section).getByRole('list', { name: 'Friday, November 20, 2026' })).toBeTruthy();
    expect(within(section).queryByText('Fee')).toBeNull();
    // direction by colour and by sign
    const incoming = within(section).getByText('+€100.10');
    expect(incoming.className).toBe('amount amount-in');
    expect(within(section).getByText('-€25.00').className).toBe('amount amount-out');
    expect(within(section).getByRole('link', { name: 'All transactions' }).getAttribute('href')).toBe('/history');
  });

  it('has no axe violations with everything loaded', async () => {
    await renderApp('/home');
    await screen.findByText('Mila Marin');
    await screen.findByRole('img', { name: /^EUR balance/ });
    await expectNoAxeViolations('/home');
  });

  it('shows the newest eight rows of activity, not the whole first page', async () => {
    const many = Array.from({ length: 12 }, (_, i) => row({ day: `2026-11-${String(20 - i).padStart(2, '0')}`, counterparty: `Payee ${i + 1}`, amount: '-1', direction: 'out' }));
    platform.handlers.transactionHistory = () => ({ responseCode: '00', transactions: { transaction: many }, results: many.length, rejectedCount: 0, processingCount: 0, exportId: null, exportCsv: null });
    await renderApp('/home');
    const section = (await screen.findByRole('heading', { name: 'Recent activity' })).closest('section')!;
    await within(section).findByText('Payee 1');
    expect(within(section).getAllByRole('listitem')).toHaveLength(8);
    expect(within(section).queryByText('Payee 9')).toBeNull();
  });

  it('links to the transfers, opening an account and the history', async () => {
    await renderApp('/home');
    const nav = await screen.findByRole('navigation', { name: 'Move money' });
    expect(within(nav).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Send to a person', '/transfer/p2p'],
      ['Between your accounts', '/transfer/account'],
      ['Open an account', '/accounts/open'],
      ['Transaction history', '/history'],
    ]);
  });

  it('says so politely when the chart or the activity cannot be loaded', async () => {
    platform.handlers.balanceHistory = () => ({ responseCode: 'UE', responseDescription: 'Chart service down' });
    platform.handlers.transactionHistory = () => ({ responseCode: 'UE', responseDescription: 'History service down' });
    await renderApp('/home');
    expect(await screen.findByText('The balance history could not be loaded')).toBeTruthy();
    expect(await screen.findByText('Chart service down')).toBeTruthy();
    expect(await screen.findByText('History service down')).toBeTruthy();
    // the accounts still load; only their failure would be an alert
    expect(screen.queryByRole('alert')).toBeNull();
    expect(await screen.findByText('You have 4 accounts.')).toBeTruthy();
  });

  it('speaks the UI language: day headings, amounts and the chart summary', async () => {
    // the signed-in user's saved language is the one the app speaks
    await activateUiLanguage('ru');
    await renderApp('/home', { signedIn: { ...customer, language: 'ru' } });
    expect(await screen.findByRole('heading', { level: 3, name: 'пятница, 20 ноября 2026 г.' })).toBeTruthy();
    expect(screen.getByText((_, el) => el?.className === 'amount amount-in' && plain(el.textContent) === '+100,10 €')).toBeTruthy();
    expect(plain(screen.getByRole('img', { name: /balance|Баланс/ }).getAttribute('aria-label'))).toMatch(/^Баланс в EUR, период «.*»: с 1 000,00 € \(1 сент\. 2026 г\.\) до 1 250,75 € /);
  });
});
