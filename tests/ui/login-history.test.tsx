/**
 * /login-history's view (document 1 §2: date, paged 20): the rows of the page asked for, newest
 * first as the platform sends them, in the UI language, with a readable browser, and paging that
 * stops at both ends. Only fetch is replaced (the platform's answer for loginHistory).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { LoginHistoryView } from '../../src/features/security/login-history-view.tsx';
import { activateUiLanguage, i18n } from '../../src/lib/i18n.ts';
import { setFetchForTests } from '../../src/lib/request.ts';
import { methodBody } from './method-body.ts';

const TOTAL = 45;
const CHROME_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
let asked: number[];

function itemsOf(page: number) {
  const first = (page - 1) * 20;
  return Array.from({ length: Math.max(0, Math.min(20, TOTAL - first)) }, (_, i) => ({
    date: new Date(Date.UTC(2026, 10, 20, 12) - (first + i) * 3_600_000).toISOString(),
    ip: `198.51.100.${first + i}`,
    countryCode: (first + i) % 2 === 0 ? 'LT' : null,
    userAgent: CHROME_ON_WINDOWS,
    authFlow: 'otp',
    result: (first + i) % 5 === 4 ? 'failure' : 'success',
  }));
}

beforeEach(() => {
  asked = [];
  setFetchForTests(async (_input, init) => {
    const { pageNumber } = methodBody('loginHistory', init) as { pageNumber: number };
    asked.push(pageNumber);
    const body = { responseCode: '00', items: itemsOf(pageNumber), pageNumber, pageSize: 20, total: TOTAL };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
});
afterEach(async () => {
  setFetchForTests(null);
  await activateUiLanguage('en');
});

async function show(page: number, onPage: (p: number) => void = () => {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <LoginHistoryView page={page} onPage={onPage} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  await screen.findByRole('table');
  return view;
}

describe('login history', () => {
  it('shows the 20 sign-ins of the first page with date, address, country, browser and result', async () => {
    await show(1);
    expect(asked).toEqual([1]);
    expect(screen.getByRole('table')).toHaveProperty('caption.textContent', 'Page 1 of 3');
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(20);
    const cells = within(rows[0]!).getAllByRole('cell').map((c) => c.textContent);
    // noon UTC: the same calendar day in any time zone the tests run in
    expect(cells[0]).toMatch(/^Nov 20, 2026, \d{1,2}:\d{2}/);
    expect(cells.slice(1)).toEqual(['198.51.100.0', 'LT', 'Chrome, Windows', 'Signed in']);
    expect(within(rows[0]!).getByRole('cell', { name: /2026/ }).querySelector('time')?.getAttribute('datetime')).toBe(itemsOf(1)[0]!.date);
    expect(within(rows[1]!).getAllByRole('cell')[2]!.textContent).toBe('—');
    expect(within(rows[4]!).getAllByRole('cell')[4]!.textContent).toBe('Failed');
  });

  it('pages: "Newer" is off on the first page, "Older" asks for the next; the last page is short', async () => {
    const user = userEvent.setup();
    const wanted: number[] = [];
    const first = await show(1, (p) => wanted.push(p));
    expect((screen.getByRole('button', { name: 'Newer' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Older' }));
    expect(wanted).toEqual([2]);
    first.unmount();

    await show(3);
    expect(screen.getByRole('table')).toHaveProperty('caption.textContent', 'Page 3 of 3');
    expect(within(screen.getByRole('table')).getAllByRole('row').slice(1)).toHaveLength(TOTAL - 40);
    expect((screen.getByRole('button', { name: 'Older' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Newer' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('speaks the UI language', async () => {
    await activateUiLanguage('ru');
    await show(1);
    expect(screen.getByRole('columnheader', { name: 'Дата' })).toBeTruthy();
    expect(screen.getByRole('table').querySelector('caption')?.textContent).toBe('Страница 1 из 3');
  });
});
