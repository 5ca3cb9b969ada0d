/**
 * DataTable (src/ui/data-table.tsx): a real table (caption, column headers, cells), each cell
 * labelled with its column's header for the card layout below 640px, and rows that open.
 */
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DataTable, type DataTableColumn } from '../../src/ui/data-table.tsx';
import { expectNoAxeViolations } from './axe.ts';

interface Payment {
  id: number;
  payee: string;
  amount: string;
}
const rows: Payment[] = [
  { id: 1, payee: 'Ana Pop', amount: '12.50 EUR' },
  { id: 2, payee: 'Harbour Café', amount: '3.20 EUR' },
];
const columns: DataTableColumn<Payment>[] = [
  { header: 'Payee', render: (p) => p.payee },
  { header: 'Amount', render: (p) => p.amount, align: 'end' },
];

describe('DataTable', () => {
  it('is a table with its caption and headers; every cell carries its header for the card layout', async () => {
    render(<DataTable caption="Payments" columns={columns} rows={rows} rowKey={(p) => p.id} />);
    const table = screen.getByRole('table', { name: 'Payments' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Payee', 'Amount']);
    const bodyRows = within(table).getAllByRole('row').slice(1);
    expect(bodyRows).toHaveLength(2);
    const cells = within(bodyRows[1]!).getAllByRole('cell');
    expect(cells.map((c) => [c.getAttribute('data-label'), c.textContent])).toEqual([
      ['Payee', 'Harbour Café'],
      ['Amount', '3.20 EUR'],
    ]);
    expect(cells[1]!.className).toContain('align-end');
    expect(within(table).queryByRole('button')).toBeNull();
    await expectNoAxeViolations('DataTable');
  });

  it('a row opens from its first cell, by click or keyboard, named by rowLabel', async () => {
    const user = userEvent.setup();
    const opened: number[] = [];
    render(<DataTable caption="Payments" columns={columns} rows={rows} rowKey={(p) => p.id} onRowClick={(p) => opened.push(p.id)} rowLabel={(p) => `Payment to ${p.payee}`} />);
    await user.click(screen.getByRole('button', { name: 'Payment to Ana Pop' }));
    screen.getByRole('button', { name: 'Payment to Harbour Café' }).focus();
    await user.keyboard('{Enter}');
    expect(opened).toEqual([1, 2]);
  });

  it('rowHref makes each row a link', () => {
    render(<DataTable caption="Payments" columns={columns} rows={rows} rowKey={(p) => p.id} rowHref={(p) => `/history/${p.id}`} />);
    expect(screen.getByRole('link', { name: 'Ana Pop' }).getAttribute('href')).toBe('/history/1');
  });
});
