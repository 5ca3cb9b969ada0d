/**
 * /history/batch-transfers' view with global-pay batches (api/mass.ts kind 'global'): the list
 * names the kind "Global pay" and opens such a batch with its kind; its rows read as global pay's
 * payments (waiting for the payee, on their way, paid, not paid with the reason). A mass batch
 * opens without a kind, as before. Only fetch is replaced (the platform's answers).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Batch } from '../../api/mass.ts';
import { BatchesView, type OpenBatch } from '../../src/features/mass/batches-view.tsx';
import { activateUiLanguage, i18n } from '../../src/lib/i18n.ts';
import { setFetchForTests } from '../../src/lib/request.ts';

const base = { accountId: 1, currency: 'EUR', fee: '0.00', transactionId: 50 };
const GLOBAL: Batch = {
  ...base,
  id: 3,
  kind: 'global',
  status: 'processing',
  fileName: 'March',
  dateTime: '2026-11-20T12:00:00.000Z',
  count: 5,
  doneCount: 1,
  failedCount: 2,
  progress: 60,
  total: '100.00',
  fee: '5.00',
};
const MASS: Batch = {
  ...base,
  id: 3,
  kind: 'p2p',
  status: 'done',
  fileName: 'pasted.csv',
  dateTime: '2026-11-19T12:00:00.000Z',
  count: 1,
  doneCount: 1,
  failedCount: 0,
  progress: 100,
  total: '1.00',
};
const row = (line: number, payee: string, status: string, transactionId: number | null, transferStatus: string | null, errorCode: string | null = null) => ({
  line,
  payee,
  countryCode: 'DE',
  amount: '20.00',
  fee: '1.00',
  status,
  transactionId,
  transferStatus,
  errorCode,
  errorDescription: errorCode ? 'In English from the platform.' : null,
});
const GLOBAL_ROWS = [
  row(2, 'Erika', 'done', 71, 'posted'),
  row(3, 'Hans', 'pending', 72, 'processing'),
  row(4, 'Jane', 'pending', null, null),
  row(5, 'Rosa', 'failed', null, null, 'refused'),
  row(0, 'Cleo', 'failed', 73, 'returned', 'returned'),
];
let asked: { name: string; body: Record<string, unknown> }[];

beforeEach(() => {
  asked = [];
  setFetchForTests(async (input, init) => {
    const { method: name, ...body } = JSON.parse(String(init?.body ?? '{}')) as { method: string } & Record<string, unknown>;
    asked.push({ name, body });
    expect(String(input)).toContain(name);
    const answer =
      name === 'batchTransferList'
        ? { batchTransfer: { transfer: [GLOBAL, MASS] }, total: 2 }
        : body.kind === 'global'
          ? { batch: GLOBAL, rows: GLOBAL_ROWS, file: 'beneficiaryName\r\n' }
          : {
              batch: MASS,
              rows: [row(2, 'tom@demo.test', 'done', 80, 'posted')],
              file: 'email,amount\r\n',
            };
    return new Response(JSON.stringify({ responseCode: '00', ...answer }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
});
afterEach(async () => {
  setFetchForTests(null);
  await activateUiLanguage('en');
});

function show(open: OpenBatch | null, onOpen: (batch: OpenBatch | null) => void = () => {}) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false } },
  });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <BatchesView actingCustomerId={7} open={open} onOpen={onOpen} />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe('global-pay batches among the batches', () => {
  it('lists a global-pay batch as "Global pay" and opens it with its kind; a mass batch without', async () => {
    const user = userEvent.setup();
    const opened: (OpenBatch | null)[] = [];
    show(null, (b) => opened.push(b));
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent)
        .slice(1, 3),
    ).toEqual(['Global pay', 'March']);
    expect(within(rows[1]!).getAllByRole('cell')[1]!.textContent).toBe('Many payments by e-mail');
    for (const r of rows) await user.click(within(r).getByRole('button'));
    expect(opened).toEqual([
      { id: 3, kind: 'global' },
      { id: 3, kind: null },
    ]);
  });

  it('shows a global-pay batch’s payments: paid, on its way, waiting for the payee, not paid with the reason', async () => {
    show({ id: 3, kind: 'global' });
    const table = await screen.findByRole('table', {
      name: 'Payments in this batch',
    });
    expect(asked.find((a) => a.name === 'batchFileView')!.body).toEqual({
      id: 3,
      kind: 'global',
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Global pay · March' })).toBeTruthy();
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(cells.map((c) => [c[1], c[3], c[4]])).toEqual([
      ['Erika', 'Paid', ''],
      ['Hans', 'On its way', ''],
      ['Jane', 'Waiting for the payee', ''],
      ['Rosa', 'Not paid', 'Refused by the payee'],
      ['Cleo', 'Not paid', 'Returned'],
    ]);
  });

  it('opens a mass batch without a kind, as before', async () => {
    show({ id: 3, kind: null });
    await screen.findByRole('table', { name: 'Payments in this batch' });
    expect(asked.find((a) => a.name === 'batchFileView')!.body).toEqual({
      id: 3,
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Many payments by e-mail · pasted.csv' })).toBeTruthy();
  });
});
