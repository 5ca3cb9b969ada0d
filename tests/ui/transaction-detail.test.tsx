/**
 * The transaction detail page (/history/$transactionId, issue 13) through the real route tree:
 * opened from a history row and from the home's recent activity, every field of a converted
 * transfer, the payee's view, a deposit (a journal entry: its own ids), the PDF receipt with the
 * session's headers, cancelling a pending transfer behind its confirmation, and "not found" for
 * an unknown, another customer's or a malformed id. Only fetch is replaced.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TransactionDetail } from '../../api/history.ts';
import { accessToken, account, expectNoAxeViolations, platform, renderApp, row, stubSaving, useHarness } from './history-harness.tsx';

const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

const BASE: TransactionDetail = {
  kind: 'transfer',
  id: 7,
  operationType: 'exchange',
  viewer: 'payer',
  direction: null,
  status: 'posted',
  createdAt: '2026-11-20T12:00:00.000Z',
  updatedAt: '2026-11-20T12:01:00.000Z',
  bookedAt: '2026-11-20T12:01:00.000Z',
  expiresAt: '2026-11-21T12:00:00.000Z',
  sent: { amount: '100.00', currency: 'EUR' },
  fee: { amount: '0.50', currency: 'EUR' },
  totalDebited: { amount: '100.50', currency: 'EUR' },
  received: { amount: '108.00', currency: 'USD' },
  rate: '1.08',
  fromAccountId: 101,
  toAccountId: 102,
  legs: [],
  counterparty: '',
  note: 'Trip to Paris',
  reference: 'INV-7',
  cancelable: false,
  railReason: null,
};

const PENDING: TransactionDetail = {
  ...BASE,
  id: 9,
  operationType: 'p2p',
  direction: 'out',
  status: 'pending',
  bookedAt: null,
  sent: { amount: '25.00', currency: 'EUR' },
  fee: { amount: '0.25', currency: 'EUR' },
  totalDebited: { amount: '25.25', currency: 'EUR' },
  received: { amount: '25.00', currency: 'EUR' },
  rate: null,
  toAccountId: null,
  counterparty: 'boris@demo.test',
  note: null,
  reference: null,
  cancelable: true,
};

let details: Record<string, TransactionDetail> = {};
const rows = [
  row({ day: '2026-11-20', transactionId: 7, operationType: 'exchange', counterparty: 'USD account 102', amount: '-100.5', direction: 'out' }),
  row({ day: '2026-11-19', kind: 'entry', transactionId: 3, operationType: 'deposit', counterparty: 'Lumen Wallet', amount: '120', direction: 'in' }),
];

useHarness(() => {
  details = { 'transfer:7': BASE, 'transfer:9': PENDING };
  return {
    balanceInquiry: () => ({ responseCode: '00', accounts: { account: [account({ accountId: 101, currency: 'EUR', balance: '100' }), account({ accountId: 102, currency: 'USD', balance: '5' })] } }),
    balanceHistory: () => ({ responseCode: '00', series: [] }),
    transactionHistory: () => ({ responseCode: '00', transactions: { transaction: rows }, results: rows.length, rejectedCount: 0, processingCount: 0, exportId: null, exportCsv: null }),
    transactionHistoryExportList: () => ({ responseCode: '00', exports: [], total: 0 }),
    transactionDetail: (body) => {
      const found = details[`${String(body.kind)}:${String(body.id)}`];
      return found ? { responseCode: '00', transaction: found } : { responseCode: 'ENOA', responseDescription: 'No such transaction' };
    },
    transferCancel: (body) => {
      details['transfer:9'] = { ...PENDING, status: 'canceled', cancelable: false, updatedAt: '2026-11-20T12:05:00.000Z' };
      return { responseCode: '00', transactionId: body.trxid, status: 'canceled', approveType: 'none', approvalSentTo: null, fee: '0.25', feeCurrency: 'EUR', amount: '25.00', currency: 'EUR', toAmount: '25.00', toCurrency: 'EUR', rate: '1', expiresAt: PENDING.expiresAt, scheduleId: null };
    },
  };
});

/** The detail list as label → value. */
async function fields(): Promise<Record<string, string>> {
  const list = await screen.findByRole('heading', { level: 2, name: 'Details' });
  const dl = list.parentElement!.querySelector('dl')!;
  const out: Record<string, string> = {};
  for (const div of Array.from(dl.children)) out[plain(div.querySelector('dt')?.textContent)] = plain(div.querySelector('dd')?.textContent);
  return out;
}

describe('transaction detail', () => {
  it('opens from a history row and shows every field of a converted transfer, without axe violations', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp('/history');
    const table = await screen.findByRole('table', { name: /^Transactions, page/ });
    await user.click(within(table).getByRole('link', { name: 'USD account 102' }));
    await screen.findByRole('heading', { level: 1, name: 'Transaction details' });
    expect(router.state.location.pathname).toBe('/history/t7');
    expect(platform.bodies('transactionDetail').at(-1)).toEqual({ kind: 'transfer', id: 7 });
    const f = await fields();
    expect(f).toMatchObject({
      Status: 'Completed',
      Type: 'Currency exchange',
      'Amount sent': '€100.00',
      Fee: '€0.50',
      'You pay in total': '€100.50',
      'Exchange rate': '1 EUR = 1.08 USD',
      'Amount credited': '$108.00',
      'From account': 'EUR account 101',
      'To account': 'USD account 102',
      Note: 'Trip to Paris',
      Reference: 'INV-7',
      'Transaction ID': '7',
    });
    expect(f['Created on']).toMatch(/2026/);
    expect(f['Completed on']).toMatch(/2026/);
    // No cancel for a completed transfer.
    expect(screen.queryByRole('button', { name: 'Cancel this transfer' })).toBeNull();
    await expectNoAxeViolations('a converted transfer');
    await user.click(screen.getByRole('link', { name: 'Back to the history' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/history'));
  });

  it('shows a returned payout with its payee, what they were to receive, and why it came back, in the reader\'s words', async () => {
    details['transfer:11'] = {
      ...BASE, id: 11, operationType: 'eft', direction: 'out', status: 'returned', bookedAt: null, updatedAt: '2026-11-20T12:30:00.000Z',
      sent: { amount: '5.00', currency: 'EUR' }, fee: { amount: '0.50', currency: 'EUR' }, totalDebited: { amount: '5.50', currency: 'EUR' },
      received: { amount: '5.00', currency: 'EUR' }, rate: null, toAccountId: null, counterparty: 'Closed Konto', note: null, reference: null, railReason: 'R02',
    };
    const { router } = await renderApp('/history/t11');
    expect(router.state.location.pathname).toBe('/history/t11');
    const f = await fields();
    expect(f).toMatchObject({ Status: 'Returned', Type: 'Bank transfer', 'They receive': '€5.00', To: 'Closed Konto', 'Why it came back': "The payee's account is closed. (code R02)" });
    expect(f['To account']).toBeUndefined();
    // a code the app does not know still reads as the network's answer, with its code
    details['transfer:12'] = { ...details['transfer:11'], id: 12, status: 'rejected', railReason: 'ZZ99' };
    await router.navigate({ to: '/history/$transactionId', params: { transactionId: 't12' } });
    await waitFor(async () => expect((await fields())['Why it was refused']).toBe('The payment network refused it. (code ZZ99)'));
    await expectNoAxeViolations('a refused payout');
  });

  it('opens a deposit row as a journal entry (e and its id) with its receipt path', async () => {
    details['entry:3'] = {
      ...BASE, kind: 'entry', id: 3, operationType: 'deposit', viewer: 'payee', direction: 'in', sent: null, fee: null, totalDebited: null, received: null, rate: null,
      fromAccountId: null, toAccountId: null, legs: [{ accountId: 101, currency: 'EUR', amount: '120.00' }], counterparty: 'Lumen Wallet', note: null, reference: null,
    };
    const saving = stubSaving();
    platform.files['/api/v1/history/entries/3/receipt'] = () => ({ status: 200, body: '%PDF-1.7', headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="receipt-E3.pdf"' } });
    const user = userEvent.setup();
    const { router } = await renderApp('/history');
    const table = await screen.findByRole('table', { name: /^Transactions, page/ });
    await user.click(within(table).getByRole('link', { name: 'Lumen Wallet' }));
    await screen.findByRole('heading', { level: 2, name: 'Details' });
    expect(router.state.location.pathname).toBe('/history/e3');
    expect(await fields()).toMatchObject({ 'To account': 'EUR account 101', 'Amount credited': '€120.00', From: 'Lumen Wallet', 'Transaction ID': 'E3' });
    await user.click(screen.getByRole('button', { name: 'Download receipt (PDF)' }));
    await waitFor(() => expect(saving.saved).toEqual([{ href: 'blob:http://localhost/1', download: 'receipt-E3.pdf' }]));
    expect(platform.downloads.at(-1)?.headers.get('Authorization')).toBe(`Bearer ${accessToken}`);
  });

  it('says a revenue split\'s share is one, on both sides, with its contract (linked when the customer may open it), and names the share on the payment it was taken from', async () => {
    const share: TransactionDetail = {
      ...BASE, kind: 'entry', id: 21, operationType: 'deposit', viewer: 'payer', direction: 'out', sent: null, fee: null, totalDebited: null, received: null, rate: null,
      fromAccountId: null, toAccountId: null, legs: [{ accountId: 101, currency: 'EUR', amount: '-30.00' }], counterparty: 'Anna Kowalska', note: null, reference: null,
      revenueSplit: { contractId: 12, counterparty: 'Anna Kowalska', contractVisible: true },
    };
    details['entry:21'] = share;
    details['entry:22'] = {
      ...share, id: 22, viewer: 'payee', direction: 'in', legs: [{ accountId: 101, currency: 'EUR', amount: '30.00' }], counterparty: 'Rita Rossi',
      revenueSplit: { contractId: 12, counterparty: 'Rita Rossi', contractVisible: false },
    };
    details['transfer:23'] = {
      ...BASE, id: 23, operationType: 'p2p', viewer: 'payee', direction: 'in', sent: null, fee: null, totalDebited: null, received: { amount: '100.00', currency: 'EUR' }, rate: null,
      fromAccountId: null, toAccountId: 101, counterparty: 'Boris Petrov', note: null, reference: null,
      splitShares: [{ contractId: 12, entryId: 21, share: { amount: '30.00', currency: 'EUR' }, beneficiary: 'Anna Kowalska', contractVisible: true }],
    };
    const user = userEvent.setup();
    const { router } = await renderApp('/history/t23');
    // the payment that was split: the share that left it, linked to the share's own page
    expect(await fields()).toMatchObject({ 'You received': '€100.00', From: 'Boris Petrov', 'Revenue split': '€30.00 went to Anna Kowalska under contract #12' });
    await expectNoAxeViolations('a payment that was split');
    await user.click(screen.getByRole('link', { name: '€30.00 went to Anna Kowalska under contract #12' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/history/e21'));
    // the payer's share: what it is, to whom, under which contract, with the contract's page a link away
    await waitFor(async () => expect((await fields()).Type).toBe('Revenue split share'));
    expect(await fields()).toMatchObject({ Contract: 'Contract #12', To: 'Anna Kowalska', 'From account': 'EUR account 101', 'Amount debited': '€30.00' });
    const summary = screen.getByRole('region', { name: 'Summary' });
    expect(plain(summary.textContent)).toContain('Revenue split share paid to Anna Kowalska under contract #12');
    expect(screen.getByRole('link', { name: 'Contract #12' }).getAttribute('href')).toBe('/revenue-split/12');
    await expectNoAxeViolations('a revenue split share, paid');
    // the beneficiary's: received from the payer; a contract it may not open is named, not linked
    await router.navigate({ to: '/history/$transactionId', params: { transactionId: 'e22' } });
    await waitFor(async () => expect((await fields()).From).toBe('Rita Rossi'));
    expect(await fields()).toMatchObject({ Type: 'Revenue split share', Contract: 'Contract #12', 'Amount credited': '€30.00' });
    expect(plain(screen.getByRole('region', { name: 'Summary' }).textContent)).toContain('Revenue split share received from Rita Rossi under contract #12');
    expect(screen.queryByRole('link', { name: 'Contract #12' })).toBeNull();
  });

  it('downloads a transfer\'s receipt with the session\'s token, and says so when it fails', async () => {
    const saving = stubSaving();
    const user = userEvent.setup();
    await renderApp('/history/t7');
    const button = await screen.findByRole('button', { name: 'Download receipt (PDF)' });
    await user.click(button);
    // No file for that path: the platform's 404.
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The receipt could not be downloaded')).toBeTruthy();
    expect(platform.downloads.at(-1)?.path).toBe('/api/v1/history/transactions/7/receipt');
    platform.files['/api/v1/history/transactions/7/receipt'] = () => ({ status: 200, body: '%PDF-1.7', headers: { 'Content-Type': 'application/pdf' } });
    await user.click(button);
    await waitFor(() => expect(saving.saved.map((s) => s.download)).toEqual(['receipt-7.pdf']));
    expect(platform.downloads.at(-1)?.headers.get('Authorization')).toBe(`Bearer ${accessToken}`);
  });

  it('cancels the customer\'s own pending transfer after a confirmation, and shows it canceled', async () => {
    const user = userEvent.setup();
    await renderApp('/history/t9');
    expect(await fields()).toMatchObject({ Status: 'Pending', Direction: 'Outgoing', To: 'boris@demo.test', 'They receive': '€25.00', 'You pay in total': '€25.25' });
    expect((await fields())['Expires on']).toMatch(/2026/);
    await user.click(screen.getByRole('button', { name: 'Cancel this transfer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this transfer?' });
    expect(plain(dialog.textContent)).toContain('€25.25 will not be sent to boris@demo.test');
    await expectNoAxeViolations('the cancel dialog');
    // Keeping it sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(platform.bodies('transferCancel')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Cancel this transfer' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel the transfer' }));
    await screen.findByText('The transfer was canceled. The money is available again in your account.');
    expect(platform.bodies('transferCancel')).toEqual([{ trxid: 9 }]);
    // The page reads the transaction again: canceled, with its time, and no cancel button.
    await waitFor(async () => expect((await fields()).Status).toBe('Canceled'));
    expect((await fields())['Canceled on']).toMatch(/2026/);
    expect(screen.queryByRole('button', { name: 'Cancel this transfer' })).toBeNull();
    await expectNoAxeViolations('a canceled transfer');
  });

  it('shows the platform\'s refusal in the dialog when the cancel is refused', async () => {
    platform.handlers.transferCancel = () => ({ responseCode: 'TA1', responseDescription: 'The transfer is not pending any more' });
    const user = userEvent.setup();
    await renderApp('/history/t9');
    await user.click(await screen.findByRole('button', { name: 'Cancel this transfer' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the transfer' }));
    const alert = await within(dialog).findByRole('alert');
    expect(within(alert).getByText('The transfer was not canceled')).toBeTruthy();
    expect(within(alert).getByText('The transfer is not pending any more')).toBeTruthy();
  });

  it('says "not found" for an unknown or another customer\'s id, and for a malformed one without asking', async () => {
    await renderApp('/history/t404');
    await screen.findByRole('heading', { name: 'Transaction not found' });
    expect(platform.bodies('transactionDetail')).toEqual([{ kind: 'transfer', id: 404 }]);
    await expectNoAxeViolations('not found');
  });

  it('says "not found" for a malformed id without asking the platform', async () => {
    await renderApp('/history/x12');
    await screen.findByRole('heading', { name: 'Transaction not found' });
    expect(screen.getByRole('link', { name: 'Go to the history' })).toBeTruthy();
    expect(platform.bodies('transactionDetail')).toEqual([]);
  });

  it('opens from a row of the home\'s recent activity', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp('/home');
    const recent = await screen.findByRole('heading', { name: 'Recent activity' });
    const card = recent.closest('section')!;
    const link = await within(card).findByRole('link', { name: /USD account 102/ });
    // The row keeps its content: the initial, the counterparty, the type and the amount.
    expect(plain(link.textContent)).toContain('U');
    expect(plain(link.textContent)).toContain('Currency exchange');
    expect(plain(link.textContent)).toMatch(/[-−]€100.50/);
    await user.click(link);
    await screen.findByRole('heading', { level: 1, name: 'Transaction details' });
    expect(router.state.location.pathname).toBe('/history/t7');
  });
});
