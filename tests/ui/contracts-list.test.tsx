/**
 * /revenue-split's list (document 3 §3 Contracts meta, §7 GET /contract): the meta counts on the
 * filter chips (the requests standing out), the rows (counterparty, direction, share, status, a
 * signature needed), and the query string each filter, search, order and page sends, with the
 * bearer token and the acting company's header. Only fetch is replaced (the platform's answer).
 *
 * Proof it can fail (2026-11-28): I made the Active chip send the ended statuses (FILTER_STATUSES
 * active: ENDED_STATUSES): the chip test went red (statuses=TERMINATED,... instead of ACTIVE,TERMINATING).
 * And (2026-11-28, the contracts journey's axe in Chromium found it): with the company's name
 * back inside the row's button, the WCAG 2.5.3 test went red ("Bea LtdAcme Ltd" is not part of
 * the name "Contract with Bea Ltd").
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Contract } from '../../api/contracts.ts';
import { ContractsListView } from '../../src/features/contracts/contracts-list-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { expectNoAxeViolations } from './axe.ts';

const ME = 10;
let asked: URL[];
let headers: Headers[];

function contract(id: number, over: Partial<Contract>): Contract {
  return {
    id,
    status: 'ACTIVE',
    identificationStatus: 'SUCCESS',
    percentage: 30,
    initiatorId: ME,
    direction: 'PAY',
    note: null,
    activeFrom: '2026-12-01T00:00:00.000Z',
    activeTo: null,
    terminateInfo: null,
    updatedAt: '2026-11-28T00:00:00.000Z',
    createdAt: '2026-11-28T00:00:00.000Z',
    company: { id: ME, title: 'Acme Ltd', logo: null },
    sender: { id: ME, username: 'acme@example.com', name: 'Acme Ltd' },
    beneficiary: { id: 20, username: 'bea@example.com', name: 'Bea Ltd' },
    senderSignerName: 'Ann',
    senderObligations: ['Pay'],
    beneficiarySignerName: 'Bob',
    beneficiaryObligations: ['Deliver'],
    senderSignedAt: '2026-11-28T01:00:00.000Z',
    beneficiarySignedAt: '2026-11-28T01:00:00.000Z',
    actions: [],
    splitTotals: [],
    ...over,
  };
}

const ROWS: Contract[] = [
  contract(1, {}),
  contract(2, {
    status: 'UNSIGNED',
    direction: 'RECEIVE',
    percentage: 12.5,
    initiatorId: 30,
    sender: { id: 30, username: 'cy@example.com', name: 'Cy Corp' },
    beneficiary: { id: ME, username: 'acme@example.com', name: 'Acme Ltd' },
    senderSignedAt: null,
    beneficiarySignedAt: null,
  }),
];
const META = { active: 1, total: 2, requests: 1, pending: 0, ended: 0, pay: 1, receive: 0 };

beforeEach(() => {
  asked = [];
  headers = [];
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    asked.push(url);
    headers.push(new Headers(init?.headers));
    const body = { responseCode: '00', contracts: ROWS, count: 250, page: Number(url.searchParams.get('page')), pageSize: 100, meta: META };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function show(mayCreate = true) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onOpen = vi.fn();
  const onNew = vi.fn();
  const access = { getAccessToken: () => 'token-1', refresh: async () => false, getActingCustomerId: () => ME };
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <ContractsListView access={access} customerId={ME} mayCreate={mayCreate} onOpen={onOpen} onNew={onNew} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { onOpen, onNew, user: userEvent.setup({ delay: null }) };
}

const last = () => asked.at(-1)!;
const chip = (name: RegExp) => screen.getByRole('button', { name });

describe('contracts list', () => {
  it('reads the first page of 100, newest first, with the token and the acting company, and shows the counts and rows', async () => {
    show();
    await screen.findByRole('table');
    expect(last().pathname).toBe('/api/v1/contract');
    expect(Object.fromEntries(last().searchParams)).toEqual({ orderBy: 'CREATED_AT', orderDir: 'DESC', page: '1', pageSize: '100' });
    expect(headers.at(-1)!.get('Authorization')).toBe('Bearer token-1');
    expect(headers.at(-1)!.get('Customer-Id')).toBe(String(ME));
    expect(chip(/^All/).textContent).toBe('All2');
    expect(chip(/^To sign/).textContent).toBe('To sign1');
    expect(chip(/^To sign/).className).toContain('is-urgent');
    expect(chip(/^All/).getAttribute('aria-pressed')).toBe('true');
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('button', { name: 'Contract with Bea Ltd' })).toBeTruthy();
    expect(rows[0]!.textContent).toContain('I pay');
    expect(rows[0]!.textContent).toContain('30%');
    expect(rows[0]!.textContent).toContain('Active');
    expect(rows[1]!.textContent).toContain('Cy Corp');
    expect(rows[1]!.textContent).toContain('I receive');
    expect(rows[1]!.textContent).toContain('12.5%');
    expect(rows[1]!.textContent).toContain('Your signature is needed');
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
  });

  it('sends each chip’s statuses; the requests chip keeps the contracts waiting for this customer’s signature', async () => {
    const { user } = show();
    await screen.findByRole('table');
    await user.click(chip(/^Active/));
    await waitFor(() => expect(last().searchParams.get('statuses')).toBe('ACTIVE,TERMINATING'));
    await user.click(chip(/^Ended/));
    await waitFor(() => expect(last().searchParams.get('statuses')).toBe('TERMINATED,EXPIRED,CANCELLED,REJECTED'));
    await user.click(chip(/^To sign/));
    await waitFor(() => expect(last().searchParams.get('statuses')).toBe('UNSIGNED,WAITING'));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(screen.getAllByRole('row')[1]!.textContent).toContain('Cy Corp');
    expect(chip(/^To sign/).getAttribute('aria-pressed')).toBe('true');
  });

  it('searches by company and counterparty name, orders, and pages', async () => {
    const { user, onOpen } = show();
    await screen.findByRole('table');
    await user.type(screen.getByLabelText('Company name'), 'Acme');
    await user.type(screen.getByLabelText('Counterparty name'), 'Bea');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(last().searchParams.get('companyName')).toBe('Acme'));
    expect(last().searchParams.get('counterpartyName')).toBe('Bea');
    await user.selectOptions(screen.getByLabelText('Order by'), 'INCOMING_FIRST');
    await user.selectOptions(screen.getByLabelText('Order'), 'ASC');
    await waitFor(() => expect(last().searchParams.get('orderDir')).toBe('ASC'));
    expect(last().searchParams.get('orderBy')).toBe('INCOMING_FIRST');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(last().searchParams.get('page')).toBe('2'));
    expect(last().searchParams.get('companyName')).toBe('Acme');
    await user.click(screen.getByRole('button', { name: 'Contract with Bea Ltd' }));
    expect(onOpen).toHaveBeenCalledWith(1);
  });

  it('offers New contract only with full rights', async () => {
    const first = show(true);
    await screen.findByRole('table');
    await first.user.click(screen.getByRole('button', { name: 'New contract' }));
    expect(first.onNew).toHaveBeenCalledTimes(1);
    document.body.innerHTML = '';
    show(false);
    await screen.findByRole('table');
    expect(screen.queryByRole('button', { name: 'New contract' })).toBeNull();
  });

  it('names each row’s button for what it shows (WCAG 2.5.3 label in name: its visible text is part of its name), without axe violations', async () => {
    show();
    await screen.findByRole('table');
    const buttons = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('button')[0]!);
    expect(buttons.map((b) => b.textContent)).toEqual(['Bea Ltd', 'Cy Corp']);
    for (const b of buttons) expect(b.getAttribute('aria-label')).toContain(b.textContent!);
    // the contract's company keeps a column of its own
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toContain('Company');
    expect(within(screen.getAllByRole('row')[1]!).getAllByRole('cell')[1]!.textContent).toBe('Acme Ltd');
    await expectNoAxeViolations('the contracts list');
  });
});
