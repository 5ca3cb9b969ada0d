/**
 * /history through the real route tree: the filter in the URL and in the request (both ways),
 * the form's checks, paging 20 with counts, the table, empty and error states, the CSV export
 * polled to done under fake timers and downloaded with the session's headers, sent to the sign-in
 * e-mail, a refused export retried, and the monthly exports paged 12 with their downloads. Only
 * fetch is replaced (named methods by name, REST downloads by path).
 */
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { HistoryExport, Transaction } from '../../api/history.ts';
import { REVOKE_AFTER_MS } from '../../src/features/history/download.ts';
import { accessToken, account, expectNoAxeViolations, platform, renderApp, row, stubSaving, useHarness } from './history-harness.tsx';

const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');
const TOTAL = 45;

/** Page p of the unfiltered history: 20 rows (5 on the last), newest first. */
function pageRows(p: number): Transaction[] {
  const count = Math.max(0, Math.min(20, TOTAL - (p - 1) * 20));
  return Array.from({ length: count }, (_, i) => {
    const n = (p - 1) * 20 + i;
    return row({
      day: `2026-10-${String(28 - Math.floor(n / 2)).padStart(2, '0')}`,
      counterparty: `person${n}@demo.test`,
      amount: n % 3 === 0 ? '25' : '-10.5',
      direction: n % 3 === 0 ? 'in' : 'out',
      status: n === 1 ? 'pending' : 'posted',
      note: n === 0 ? 'Rent share' : null,
      reference: n === 0 ? 'INV-7' : null,
    });
  });
}

const historyAnswer = (body: Record<string, unknown>) => ({
  responseCode: '00',
  transactions: { transaction: pageRows(Number(body.pageNumber ?? 1)) },
  results: TOTAL,
  rejectedCount: 1,
  processingCount: 2,
  exportId: null,
  exportCsv: null,
});

useHarness(() => ({
  balanceInquiry: () => ({
    responseCode: '00',
    accounts: { account: [account({ accountId: 101, currency: 'EUR', balance: '100' }), account({ accountId: 102, currency: 'USD', balance: '5' })] },
  }),
  transactionHistory: historyAnswer,
  transactionHistoryExportList: () => ({ responseCode: '00', exports: [], total: 0 }),
}));

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement | HTMLSelectElement;
const lastHistoryBody = () => platform.bodies('transactionHistory').at(-1);

async function openHistory(path = '/history') {
  const app = await renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'Transaction history' });
  await screen.findByRole('table', { name: /^Transactions, page/ });
  return app;
}

describe('history: the filter, the URL and the request', () => {
  it('reads the filter from the URL, sends it, and shows it in the form', async () => {
    await openHistory(
      '/history?accountId=101&keyword=anna&transactionType=p2p&fromDate=2026-01-01&toDate=2026-01-31&fromAmount=10.50&toAmount=200&transactionDirection=out&status=pending&page=2',
    );
    expect(lastHistoryBody()).toEqual({
      accountId: 101,
      keyword: 'anna',
      transactionType: 'p2p',
      fromDate: '2026-01-01',
      toDate: '2026-01-31',
      fromAmount: '10.5',
      toAmount: '200',
      transactionDirection: 'out',
      status: 'pending',
      pageNumber: 2,
      pageSize: 20,
    });
    expect(field('Account').value).toBe('101');
    expect(field('Keyword').value).toBe('anna');
    expect(field('Type').value).toBe('p2p');
    expect(field('From date').value).toBe('2026-01-01');
    expect(field('To date').value).toBe('2026-01-31');
    expect(field('Smallest amount').value).toBe('10.5');
    expect(field('Largest amount').value).toBe('200');
    expect(field('Direction').value).toBe('out');
    expect(field('Status').value).toBe('pending');
    // the filter's account starts the monthly exports
    await waitFor(() => expect(platform.bodies('transactionHistoryExportList').at(-1)).toMatchObject({ accountId: 101 }));
  });

  it('drops values the contract refuses and still opens the page', async () => {
    await openHistory('/history?status=bogus&fromDate=yesterday&transactionDirection=sideways&accountId=-4&page=0');
    expect(platform.bodies('transactionHistory')).toEqual([{ pageNumber: 1, pageSize: 20 }]);
  });

  it('puts the applied form in the URL and sends it; Reset clears both', async () => {
    const user = userEvent.setup();
    // a filtered request finds one row
    platform.handlers.transactionHistory = (body) =>
      body.keyword ? { ...historyAnswer(body), transactions: { transaction: pageRows(1).slice(0, 1) }, results: 1 } : historyAnswer(body);
    const { router } = await openHistory();
    await user.selectOptions(field('Account'), '102');
    await user.type(field('Keyword'), '  boris ');
    await user.selectOptions(field('Type'), 'Payment to a person');
    fireEvent.change(field('From date'), { target: { value: '2026-01-01' } });
    // a decimal comma is read as a point
    await user.type(field('Smallest amount'), '1,5');
    await user.selectOptions(field('Direction'), 'Outgoing');
    await user.selectOptions(field('Status'), 'Completed');
    await user.click(screen.getByRole('button', { name: 'Apply' }));

    const filter = { accountId: 102, keyword: 'boris', transactionType: 'p2p', fromDate: '2026-01-01', fromAmount: '1.5', transactionDirection: 'out', status: 'posted' };
    await waitFor(() => expect(router.state.location.search).toEqual(filter));
    await waitFor(() => expect(lastHistoryBody()).toEqual({ ...filter, pageNumber: 1, pageSize: 20 }));
    await screen.findByText('1 transaction found');
    // amounts stay text in the URL ("1.5", not the number 1.5)
    expect(router.state.location.href).toContain('fromAmount=%221.5%22');

    await user.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    // the unfiltered answer again (from the cache: it is still fresh)
    expect(await screen.findByText('45 transactions found')).toBeTruthy();
    expect(field('Keyword').value).toBe('');
    expect(field('Account').value).toBe('');
  });

  it('says what is wrong in the form and sends nothing', async () => {
    const user = userEvent.setup();
    const { router } = await openHistory();
    const before = platform.bodies('transactionHistory').length;
    await user.type(field('Smallest amount'), '12.5.1');
    fireEvent.change(field('From date'), { target: { value: '2026-03-01' } });
    fireEvent.change(field('To date'), { target: { value: '2026-02-01' } });
    await user.click(screen.getByRole('button', { name: 'Apply' }));

    const amount = field('Smallest amount');
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(amount.getAttribute('aria-describedby')!)?.textContent).toBe('Enter an amount such as 10 or 10.50 (up to 8 decimals).');
    const to = field('To date');
    // focus on the first wrong field of the form (the dates come before the amounts)
    expect(document.activeElement).toBe(to);
    expect(document.getElementById(to.getAttribute('aria-describedby')!)?.textContent).toBe('The end date must not be before the start date.');
    expect(router.state.location.search).toEqual({});
    expect(platform.bodies('transactionHistory')).toHaveLength(before);

    // changing a field clears its error only
    await user.clear(amount);
    expect(amount.getAttribute('aria-invalid')).toBeNull();
    expect(to.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('history: results', () => {
  it('shows the counts and 20 rows with date, description, type, status and a signed amount', async () => {
    await openHistory();
    expect(screen.getByRole('list', { name: 'Counts' }).textContent).toBe('45 transactions found2 processing1 rejected');
    const table = screen.getByRole('table', { name: 'Transactions, page 1 of 3' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(20);
    const first = within(rows[0]!).getAllByRole('cell');
    expect(first[0]!.querySelector('time')?.getAttribute('datetime')).toBe('2026-10-28T12:00:00.000Z');
    expect(first[0]!.textContent).toMatch(/^Oct 28, 2026, /);
    expect(first.slice(1).map((c) => plain(c.textContent))).toEqual(['person0@demo.testRent shareReference: INV-7', 'Payment to a person', 'Completed', '+€25.00']);
    expect(within(rows[1]!).getAllByRole('cell').slice(3).map((c) => plain(c.textContent))).toEqual(['Pending', '-€10.50']);
    expect(within(rows[0]!).getByText('+€25.00').className).toBe('amount amount-in');
  });

  it('pages with previous and next, through the URL, focus staying on the pager', async () => {
    const user = userEvent.setup();
    const { router } = await openHistory();
    const pager = screen.getByRole('navigation', { name: 'Transaction pages' });
    expect(within(pager).getByText('Page 1 of 3')).toBeTruthy();
    expect((within(pager).getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ page: 2 }));
    await screen.findByRole('table', { name: 'Transactions, page 2 of 3' });
    expect(lastHistoryBody()).toEqual({ pageNumber: 2, pageSize: 20 });

    await user.keyboard('{Enter}');
    await screen.findByRole('table', { name: 'Transactions, page 3 of 3' });
    expect(lastHistoryBody()).toEqual({ pageNumber: 3, pageSize: 20 });
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(1 + 5);
    // Next turned off: focus went to Previous, not to the page
    const next = within(pager).getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    expect(next.disabled).toBe(true);
    await waitFor(() => expect(document.activeElement).toBe(within(pager).getByRole('button', { name: 'Previous' })));

    await user.keyboard('{Enter}');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    await screen.findByRole('table', { name: 'Transactions, page 1 of 3' });
  });

  it('has no axe violations, with the form in error too', async () => {
    const user = userEvent.setup();
    platform.handlers.transactionHistoryExportList = () => ({ responseCode: '00', exports: [], total: 0 });
    await openHistory();
    await screen.findByText('There are no monthly exports for this account yet.');
    await expectNoAxeViolations('/history');
    await user.type(field('Largest amount'), 'ten');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await expectNoAxeViolations('/history with a wrong amount');
  });

  it('says when nothing matches, and when there is nothing at all', async () => {
    platform.handlers.transactionHistory = () => ({ responseCode: '00', transactions: { transaction: [] }, results: 0, rejectedCount: 0, processingCount: 0, exportId: null, exportCsv: null });
    await renderApp('/history?keyword=nobody');
    expect(await screen.findByText('No transactions match the filter. Change or reset it.')).toBeTruthy();
    expect(screen.getByText('No transactions found')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Transaction pages' })).toBeNull();
  });

  // Proof it can fail (2026-11-27): with the note always shown as written, this went red.
  it('says why a card payment was declined, in words; a note is shown as written', async () => {
    const declined = row({ day: '2026-11-20', counterparty: 'Corner Café', amount: '-12.5', direction: 'out', status: 'rejected', operationType: 'cardPayment', note: 'CARD_PAUSED' });
    const noted = row({ day: '2026-11-19', counterparty: 'anna@demo.test', amount: '-3', direction: 'out', status: 'posted', note: 'CARD_PAUSED' });
    platform.handlers.transactionHistory = () => ({ responseCode: '00', transactions: { transaction: [{ ...declined, kind: 'authorization' }, noted] }, results: 2, rejectedCount: 1, processingCount: 0, exportId: null, exportCsv: null });
    await renderApp('/history');
    const table = await screen.findByRole('table', { name: /^Transactions, page/ });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getByText('The card is paused')).toBeTruthy();
    expect(within(first!).queryByText('CARD_PAUSED')).toBeNull();
    // only a card authorisation's note is a reason code: a transfer's note is the customer's own text
    expect(within(second!).getByText('CARD_PAUSED')).toBeTruthy();
  });

  it('calls a revenue-split share so, not a deposit (its wire type is deposit)', async () => {
    const share = row({ day: '2026-11-20', counterparty: 'Fjord Goods Ltd', amount: '-30', direction: 'out', operationType: 'deposit', kind: 'entry', contractId: 7 });
    const deposit = row({ day: '2026-11-19', counterparty: 'Holm Holdings AS', amount: '100', direction: 'in', operationType: 'deposit', kind: 'entry' });
    platform.handlers.transactionHistory = () => ({ responseCode: '00', transactions: { transaction: [share, deposit] }, results: 2, rejectedCount: 0, processingCount: 0, exportId: null, exportCsv: null });
    await renderApp('/history');
    const table = await screen.findByRole('table', { name: /^Transactions, page/ });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getByRole('cell', { name: 'Revenue split share' })).toBeTruthy();
    expect(within(second!).getByRole('cell', { name: 'Deposit' })).toBeTruthy();
  });

  it('shows the platform refusal, and tries again', async () => {
    const user = userEvent.setup();
    platform.handlers.transactionHistory = () => ({ responseCode: 'VF', validationErrors: [{ param: 'keyword', description: 'must be at most 100 characters', code: 'tooLong', params: { max: 100 } }] });
    await renderApp('/history');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The transactions could not be loaded')).toBeTruthy();
    expect(within(alert).getByText('Enter at most 100 characters.')).toBeTruthy();
    platform.handlers.transactionHistory = historyAnswer;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Transactions, page 1 of 3' })).toBeTruthy();
  });
});

describe('history: CSV export', () => {
  const status = (over: Partial<HistoryExport>): HistoryExport => ({
    exportId: 'exp_1',
    source: 'manual',
    accountId: null,
    period: null,
    status: 'queued',
    progress: 0,
    rowCount: null,
    fileName: null,
    createdAt: '2026-11-20T12:00:00.000Z',
    ...over,
  });

  /** Runs the timers due in the next `ms` and lets every answer settle. */
  const advance = (ms: number) => act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

  it('asks with the filter, polls with a growing wait to done, downloads with the session headers and sends to the e-mail', async () => {
    const saving = stubSaving();
    const statuses = [status({ status: 'queued' }), status({ status: 'processing', progress: 50 }), status({ status: 'done', progress: 100, rowCount: 45, fileName: 'history-20261120.csv' })];
    platform.handlers.transactionHistoryExport = () => ({ responseCode: '00', exportId: 'exp_1' });
    platform.handlers.transactionHistoryExportStatus = () => ({ responseCode: '00', export: statuses.shift() });
    platform.handlers.transactionHistoryExportSend = () => ({ responseCode: '00' });
    platform.files['/api/v1/exports/exp_1/file'] = () => ({
      status: 200,
      body: 'date,amount\n2026-11-20,25.00\n',
      headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="history-20261120.csv"' },
    });
    // The amount is quoted in the URL: it stays the text "10.50".
    await openHistory('/history?transactionType=p2p&fromAmount=%2210.50%22&transactionDirection=in');

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const statusCalls = () => platform.bodies('transactionHistoryExportStatus').length;
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await advance(0);
    // the history filter under the export call's names
    expect(platform.bodies('transactionHistoryExport')).toEqual([{ type: 'p2p', amountFrom: '10.50', transactionDirection: 'in' }]);
    const bar = screen.getByRole('progressbar', { name: 'Export progress' });
    expect(bar.hasAttribute('value')).toBe(false);

    // checks after 1 s, then 1.5 s, then 2.25 s
    await advance(999);
    expect(statusCalls()).toBe(0);
    await advance(1);
    expect(platform.bodies('transactionHistoryExportStatus')).toEqual([{ exportId: 'exp_1' }]);
    expect(screen.getByRole('progressbar', { name: 'Export progress' }).getAttribute('value')).toBe('0');
    expect(screen.getByText('The file is waiting to be prepared.')).toBeTruthy();

    await advance(1_499);
    expect(statusCalls()).toBe(1);
    await advance(1);
    expect(statusCalls()).toBe(2);
    expect(screen.getByRole('progressbar', { name: 'Export progress' }).getAttribute('value')).toBe('50');
    expect(screen.getByText(/Preparing the file: 50%/).getAttribute('aria-live')).toBe('polite');

    await advance(2_250);
    expect(statusCalls()).toBe(3);
    expect(screen.getByText('The file is ready.')).toBeTruthy();
    expect(screen.getByText('It holds 45 transactions.')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    // no more checks once done
    await advance(60_000);
    expect(statusCalls()).toBe(3);

    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await advance(0);
    expect(platform.downloads.map((d) => d.path)).toEqual(['/api/v1/exports/exp_1/file']);
    const headers = platform.downloads[0]!.headers;
    expect(headers.get('Authorization')).toBe(`Bearer ${accessToken}`);
    expect(headers.get('X-Client-Version')).toBe('2.1.2');
    expect(headers.get('Accept-Language')).toBe('en');
    expect(headers.get('Customer-Id')).toBeNull();
    expect(saving.saved).toEqual([{ href: 'blob:http://localhost/1', download: 'history-20261120.csv' }]);
    expect(await saving.created[0]!.text()).toBe('date,amount\n2026-11-20,25.00\n');
    // the object URL lives until the browser has the file, then goes
    expect(saving.revoked).toEqual([]);
    await advance(REVOKE_AFTER_MS);
    expect(saving.revoked).toEqual(['blob:http://localhost/1']);

    // the sign-in e-mail, shown and not editable
    const email = screen.getByLabelText('Your e-mail address') as HTMLInputElement;
    expect(email.value).toBe('anna@demo.test');
    expect(email.readOnly).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Send to e-mail' }));
    await advance(0);
    expect(platform.bodies('transactionHistoryExportSend')).toEqual([{ exportId: 'exp_1', email: 'anna@demo.test' }]);
    expect(screen.getByText('The file was sent to anna@demo.test.')).toBeTruthy();
  });

  it('says why the platform refused the export, and tries again', async () => {
    const user = userEvent.setup();
    const answers = [
      { responseCode: 'VF', validationErrors: [{ param: 'amountFrom', description: 'must be an amount', code: 'amountFormat', params: {} }] },
      { responseCode: '00', exportId: 'exp_2' },
    ];
    platform.handlers.transactionHistoryExport = () => answers.shift();
    platform.handlers.transactionHistoryExportStatus = () => ({ responseCode: '00', export: status({ exportId: 'exp_2', status: 'processing', progress: 10 }) });
    await openHistory();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The export did not finish')).toBeTruthy();
    expect(within(alert).getByText('Enter an amount, such as 12.50.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(alert).getByRole('button', { name: 'Try again' })));
    await user.keyboard('{Enter}');
    await screen.findByRole('progressbar', { name: 'Export progress' });
    expect(platform.bodies('transactionHistoryExport')).toEqual([{}, {}]);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Export CSV' })).toBeTruthy();
  });

  it('says when the finished file can no longer be downloaded', async () => {
    const saving = stubSaving();
    platform.handlers.transactionHistoryExport = () => ({ responseCode: '00', exportId: 'gone' });
    platform.handlers.transactionHistoryExportStatus = () => ({ responseCode: '00', export: status({ exportId: 'gone', status: 'done', progress: 100, rowCount: 0, fileName: 'h.csv' }) });
    await openHistory();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await advance(1_000);
    expect(screen.getByText('It holds no transactions.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await advance(0);
    // the platform answers 404 with the envelope: its words and ours
    expect(screen.getByText('The file is no longer available.')).toBeTruthy();
    expect(screen.getByText('Not found')).toBeTruthy();
    expect(saving.saved).toEqual([]);
  });
});

describe('history: monthly exports', () => {
  const month = (n: number, over: Partial<HistoryExport> = {}): HistoryExport => ({
    exportId: `m-${n}`,
    source: 'monthly',
    accountId: 101,
    period: `2026-${String(n).padStart(2, '0')}`,
    status: 'done',
    progress: 100,
    rowCount: n,
    fileName: `history-101-2026-${String(n).padStart(2, '0')}.csv`,
    createdAt: '2026-11-01T00:00:00.000Z',
    ...over,
  });

  it('lists an account’s months 12 a page with their status, pages, switches account and downloads a month', async () => {
    const user = userEvent.setup();
    const saving = stubSaving();
    platform.handlers.transactionHistoryExportList = (body) => ({
      responseCode: '00',
      exports: body.pageNumber === 1 ? [month(10), month(9, { status: 'processing', progress: 30, rowCount: null, fileName: null }), month(8, { status: 'failed', rowCount: null, fileName: null })] : [month(1)],
      total: 30,
    });
    platform.files['/api/v1/exports/m-10/file'] = () => ({ status: 200, body: 'x', headers: { 'Content-Disposition': 'attachment; filename="history-101-2026-10.csv"' } });
    await openHistory();

    const table = await screen.findByRole('table', { name: 'Monthly exports of EUR account 101, page 1 of 3' });
    expect(platform.bodies('transactionHistoryExportList')).toEqual([{ accountId: 101, source: 'monthly', pageNumber: 1, pageSize: 12 }]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => plain(r.textContent))).toEqual(['October 2026Ready10Download October 2026', 'September 2026Being prepared (30%)——', 'August 2026Failed——']);

    await user.click(within(rows[0]!).getByRole('button', { name: 'Download October 2026' }));
    await waitFor(() => expect(saving.saved).toEqual([{ href: 'blob:http://localhost/1', download: 'history-101-2026-10.csv' }]));
    expect(platform.downloads[0]!.headers.get('Authorization')).toBe(`Bearer ${accessToken}`);

    const pager = screen.getByRole('navigation', { name: 'Monthly export pages' });
    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByRole('table', { name: 'Monthly exports of EUR account 101, page 2 of 3' });
    expect(platform.bodies('transactionHistoryExportList').at(-1)).toEqual({ accountId: 101, source: 'monthly', pageNumber: 2, pageSize: 12 });

    await user.selectOptions(field('Account of the monthly exports'), '102');
    await screen.findByRole('table', { name: 'Monthly exports of USD account 102, page 1 of 3' });
    expect(platform.bodies('transactionHistoryExportList').at(-1)).toEqual({ accountId: 102, source: 'monthly', pageNumber: 1, pageSize: 12 });
  });

  it('offers the export an e-mail linked to for download', async () => {
    const user = userEvent.setup();
    const saving = stubSaving();
    const kept = 'Kj3m9Qz0pLx7Vb2Nw8Rt1A';
    platform.files[`/api/v1/exports/${kept}/file`] = () => ({ status: 200, body: 'x', headers: { 'Content-Disposition': 'attachment; filename="history-20261123-0915.csv"' } });
    await openHistory(`/history?exportId=${kept}`);
    const section = await screen.findByRole('region', { name: 'The export from your e-mail' });
    await user.click(within(section).getByRole('button', { name: 'Download the file' }));
    await waitFor(() => expect(saving.saved).toEqual([{ href: 'blob:http://localhost/1', download: 'history-20261123-0915.csv' }]));
    expect(platform.downloads.map((d) => d.path)).toEqual([`/api/v1/exports/${kept}/file`]);
    expect(platform.downloads[0]!.headers.get('Authorization')).toBe(`Bearer ${accessToken}`);
    await expectNoAxeViolations('/history?exportId');
  });

  it('says when the e-mailed export is no longer there (kept 7 days, or another customer\'s: 404)', async () => {
    const user = userEvent.setup();
    await openHistory('/history?exportId=Gone0000000000000000000');
    const stale = await screen.findByRole('region', { name: 'The export from your e-mail' });
    await user.click(within(stale).getByRole('button', { name: 'Download the file' }));
    expect(await within(stale).findByText('The file is no longer available.')).toBeTruthy();
  });

  it('ignores an exportId that is not one', async () => {
    await openHistory('/history?exportId=%3Cscript%3E');
    expect(screen.queryByRole('region', { name: 'The export from your e-mail' })).toBeNull();
  });

  it('says when an account has no monthly exports yet', async () => {
    await openHistory();
    expect(await screen.findByText('There are no monthly exports for this account yet.')).toBeTruthy();
  });
});

describe('history: the main navigation', () => {
  it('marks History on the history', async () => {
    const nav = async () => within(await screen.findByRole('navigation', { name: 'Main' }));
    platform.handlers.batchTransferList = () => ({ responseCode: '00', batchTransfer: { transfer: [] }, total: 0 });
    await openHistory();
    expect((await (await nav()).findByRole('link', { name: 'History' })).getAttribute('aria-current')).toBe('page');
    expect((await nav()).getByRole('link', { name: 'Batch payments' }).getAttribute('aria-current')).toBeNull();
  });

  it('marks Batch payments, not History, on /history/batch-transfers', async () => {
    platform.handlers.batchTransferList = () => ({ responseCode: '00', batchTransfer: { transfer: [] }, total: 0 });
    await renderApp('/history/batch-transfers');
    const nav = within(await screen.findByRole('navigation', { name: 'Main' }));
    expect((await nav.findByRole('link', { name: 'Batch payments' })).getAttribute('aria-current')).toBe('page');
    expect(nav.getByRole('link', { name: 'History' }).getAttribute('aria-current')).toBeNull();
  });
});
