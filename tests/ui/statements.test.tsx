/**
 * /statements through the real route tree: an account, a year and a month of those the platform
 * lists (statementPeriods), and "Download PDF": a REST GET of statementPath with the session's
 * headers (Customer-Id when acting for a company), saved as statement-<account>-<yyyy>-<mm>.pdf;
 * the failures said in words. Only fetch is replaced.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { statementPath } from '../../api/history.ts';
import { accessToken, account, expectNoAxeViolations, platform, renderApp, stubSaving, useHarness } from './history-harness.tsx';

const periods: Record<number, { year: number; month: number }[]> = {
  101: [
    { year: 2025, month: 11 },
    { year: 2025, month: 12 },
    { year: 2026, month: 1 },
    { year: 2026, month: 2 },
    { year: 2026, month: 3 },
  ],
  102: [{ year: 2026, month: 3 }],
};

useHarness(() => ({
  balanceInquiry: () => ({
    responseCode: '00',
    accounts: { account: [account({ accountId: 101, currency: 'EUR', balance: '100' }), account({ accountId: 102, currency: 'USD', balance: '5', accountStatusId: 11 })] },
  }),
  statementPeriods: (body) => ({ responseCode: '00', periods: periods[Number(body.accountId)] ?? [] }),
}));

/** The alert that says `text` (not the first alert of the page). */
async function statementAlert(text: string): Promise<HTMLElement> {
  const alert = (await screen.findByText(text)).closest<HTMLElement>('[role="alert"]');
  expect(alert, `an alert saying ${text}`).not.toBeNull();
  return alert!;
}

const select = (label: string) => screen.getByRole('combobox', { name: label }) as HTMLSelectElement;
const optionsOf = (label: string) => [...select(label).options].map((o) => [o.value, o.textContent]);
const pdf = () => ({ status: 200, body: '%PDF-1.4 statement', headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="statement-101-2026-02.pdf"' } });

describe('statements', () => {
  it('offers the account’s years and months, newest first, and downloads the chosen month as a PDF', async () => {
    const user = userEvent.setup();
    const saving = stubSaving();
    platform.files[statementPath(101, 2026, 2)] = pdf;
    await renderApp('/statements');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Statements' });
    // focus on the page's heading when it opens
    await waitFor(() => expect(document.activeElement).toBe(heading));
    await screen.findByRole('combobox', { name: 'Year' });
    expect(optionsOf('Account')).toEqual([
      ['101', 'EUR account 101'],
      ['102', 'USD account 102 (closed)'],
    ]);
    expect(platform.bodies('statementPeriods')).toEqual([{ accountId: 101 }]);
    expect(optionsOf('Year')).toEqual([
      ['2026', '2026'],
      ['2025', '2025'],
    ]);
    expect(optionsOf('Month')).toEqual([
      ['3', 'March'],
      ['2', 'February'],
      ['1', 'January'],
    ]);

    await user.selectOptions(select('Month'), '2');
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(saving.saved).toHaveLength(1));
    expect(platform.downloads.map((d) => d.path)).toEqual(['/api/v1/statements/101/2026/2']);
    const headers = platform.downloads[0]!.headers;
    expect(headers.get('Authorization')).toBe(`Bearer ${accessToken}`);
    expect(headers.get('Accept')).toMatch(/^application\/pdf/);
    expect(headers.get('Customer-Id')).toBeNull();
    expect(saving.saved[0]!.download).toBe('statement-101-2026-02.pdf');
    await expectNoAxeViolations('/statements');
    expect(await saving.created[0]!.text()).toBe('%PDF-1.4 statement');

    // another year: its months
    await user.selectOptions(select('Year'), '2025');
    expect(optionsOf('Month')).toEqual([
      ['12', 'December'],
      ['11', 'November'],
    ]);
  });

  it('names the file itself when the platform sends no name', async () => {
    const user = userEvent.setup();
    const saving = stubSaving();
    platform.files[statementPath(102, 2026, 3)] = () => ({ status: 200, body: '%PDF-1.4', headers: { 'Content-Type': 'application/pdf' } });
    await renderApp('/statements');
    await screen.findByRole('combobox', { name: 'Year' });
    await user.selectOptions(select('Account'), '102');
    await waitFor(() => expect(platform.bodies('statementPeriods')).toEqual([{ accountId: 101 }, { accountId: 102 }]));
    await waitFor(() => expect(optionsOf('Month')).toEqual([['3', 'March']]));
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(saving.saved.map((s) => s.download)).toEqual(['statement-102-2026-03.pdf']));
  });

  it('says when the month has no statement, or the download fails', async () => {
    const user = userEvent.setup();
    const saving = stubSaving();
    platform.files[statementPath(101, 2026, 3)] = () => ({
      status: 404,
      body: JSON.stringify({ responseCode: 'ENOA', responseDescription: 'Not found' }),
      headers: { 'Content-Type': 'application/json' },
    });
    await renderApp('/statements');
    await screen.findByRole('combobox', { name: 'Year' });
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    // the page's own alert (the shell's verification banner is an alert too when its status cannot be read)
    const alert = await statementAlert('The statement could not be downloaded');
    expect(within(alert).getByText('There is no statement for this month.')).toBeTruthy();

    platform.files[statementPath(101, 2026, 3)] = () => ({
      status: 500,
      body: JSON.stringify({ responseCode: 'UE', responseDescription: 'The statement cannot be issued' }),
      headers: { 'Content-Type': 'application/json' },
    });
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await statementAlert('The statement cannot be issued')).toBeTruthy();
    expect(screen.getByText('The file could not be downloaded.')).toBeTruthy();
    expect(saving.saved).toEqual([]);
  });

  it('says when an account has no statement months, and when the months cannot be loaded', async () => {
    platform.handlers.statementPeriods = (body) =>
      body.accountId === 101 ? { responseCode: '00', periods: [] } : { responseCode: 'ENOA', responseDescription: 'No access to this account' };
    const user = userEvent.setup();
    await renderApp('/statements');
    expect(await screen.findByText('There are no statements for this account yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download PDF' })).toBeNull();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Account' }), '102');
    expect(await statementAlert('No access to this account')).toBeTruthy();
  });

  it('acting for a company: the calls and the download carry the company', async () => {
    const user = userEvent.setup();
    const saving = stubSaving();
    platform.files[statementPath(101, 2026, 3)] = pdf;
    await renderApp('/statements', { actingCustomerId: 55 });
    await screen.findByRole('combobox', { name: 'Year' });
    expect(platform.bodies('statementPeriods')).toEqual([{ accountId: 101, fromCustomerId: 55 }]);
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(saving.saved).toHaveLength(1));
    expect(platform.downloads[0]!.headers.get('Customer-Id')).toBe('55');
  });
});
