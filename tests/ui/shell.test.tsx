/**
 * The shell through the real route tree: guards, layouts, the home view, the admin overview, the
 * 404 page and the language switcher. The session actor is the real one (restored from
 * sessionStorage as after a reload); only fetch is replaced, inside this test.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryHistory } from '@tanstack/react-router';
import type { Customer } from '../../api/customer.ts';
import { AppRoot } from '../../src/app/app-root.tsx';
import { createAppQueryClient } from '../../src/app/query-client.ts';
import { createAppRouter } from '../../src/app/router.ts';
import { SESSION_STORAGE_KEY, createSessionActor, sessionRequestHooks, type SessionActor } from '../../src/features/auth/session-actor.ts';
import { activateUiLanguage } from '../../src/lib/i18n.ts';
import { storeLoginResult } from '../../src/features/devices/login-result.ts';
import { configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { makeAccessToken, makeCustomer } from '../model/support.ts';
import { userStatusAnswer } from './verification-fixtures.ts';
import { methodBody } from './method-body.ts';
import { SilentWebSocket } from './silent-websocket.ts';

const baseCustomer: Customer = makeCustomer({
  lastName: 'Lind',
  transactionApproveMode: 'otp',
  customerCreationDate: '2025-01-02T00:00:00.000Z',
  dueDiligenceLevel: 1,
});

const accounts = [
  { accountId: 101, type: 1001, subType: null, accountStatusId: 1, currency: 'EUR', balance: '1250.5', accountBalanceMin: '0', pendingAmount: '0', customerId: 10, settlementAccountId: null, cardIsVirtual: null, cardAliasName: null, cardExpiryMonth: null, cardExpiryYear: null, cardReissuedStatusId: null },
  { accountId: 102, type: 1001, subType: null, accountStatusId: 1, currency: 'BTC', balance: '0.00012345', accountBalanceMin: '0', pendingAmount: '0', customerId: 10, settlementAccountId: null, cardIsVirtual: null, cardAliasName: null, cardExpiryMonth: null, cardExpiryYear: null, cardReissuedStatusId: null },
  { accountId: 103, type: 4001, subType: null, accountStatusId: 1, currency: 'USD', balance: '7', accountBalanceMin: '0', pendingAmount: '0', customerId: 10, settlementAccountId: null, cardIsVirtual: null, cardAliasName: null, cardExpiryMonth: null, cardExpiryYear: null, cardReissuedStatusId: null },
];


function signedInAs(customer: Customer | null, claims: Record<string, unknown> = {}) {
  if (customer === null) return;
  sessionStorage.setItem(
    SESSION_STORAGE_KEY,
    JSON.stringify({
      tokens: { accessToken: makeAccessToken(300, Date.now(), { cid: 10, ...claims }), refreshToken: 'refresh-1' },
      customer,
      accessInfo: null,
      actingCustomerId: null,
      rememberedPath: null,
    }),
  );
}

type Handler = (body: Record<string, unknown>) => unknown;
let handlers: Record<string, Handler>;
let methodCalls: { name: string; body: Record<string, unknown> }[];
let session: SessionActor | null = null;
let queryClient: ReturnType<typeof createAppQueryClient> | null = null;

/**
 * The signed-in session opens the push socket; no platform listens in this test, and jsdom reports
 * a refused socket as an uncaught error. A socket that stays "connecting" keeps the test quiet.
 */
beforeEach(() => {
  vi.stubGlobal('WebSocket', SilentWebSocket);
  sessionStorage.clear();
  localStorage.clear();
  methodCalls = [];
  handlers = {
    getCustomerInfo: () => ({ responseCode: '00', customer: baseCustomer }),
    // the main layout's verification banner (nothing to do: no banner)
    userStatusGet: () => userStatusAnswer(),
    balanceInquiry: () => ({ responseCode: '00', accounts: { account: accounts } }),
  };
  setFetchForTests(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const name = decodeURIComponent(url.search.slice(1));
    const body = methodBody(name, init);
    methodCalls.push({ name, body });
    const handler = handlers[name];
    if (!handler) return new Response(JSON.stringify({ responseCode: 'IM' }), { status: 200 });
    return new Response(JSON.stringify(handler(body)), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
});

afterEach(async () => {
  // A query still loading (a route's prefetch) would send its call during the next test, into that
  // test's record: let it finish here.
  const client = queryClient;
  if (client) await waitFor(() => expect(client.isFetching()).toBe(0));
  queryClient = null;
  session?.stop();
  session = null;
  setFetchForTests(null);
  vi.unstubAllGlobals();
  await activateUiLanguage('en');
});

async function renderApp(path: string, customer: Customer | null, claims: Record<string, unknown> = {}) {
  signedInAs(customer, claims);
  const client = createAppQueryClient();
  queryClient = client;
  session = createSessionActor({ clearCaches: () => client.clear() });
  configureRequest(sessionRequestHooks(session));
  const history = createMemoryHistory({ initialEntries: [path] });
  const router = createAppRouter({ session, queryClient: client }, history);
  render(<AppRoot router={router} queryClient={client} />);
  return { router, history, session };
}

describe('guards', () => {
  it('a signed-out user asking for /home goes to login, and the path is remembered', async () => {
    const { router } = await renderApp('/home?tab=1', null);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEY) ?? '{}').rememberedPath).toBe('/home?tab=1');
    expect(methodCalls.map((c) => c.name)).not.toContain('balanceInquiry');
  });

  it('a signed-in user needing KYC is sent to /kyc', async () => {
    const { router } = await renderApp('/home', { ...baseCustomer, isNeedKyc: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/kyc'));
  });

  it('the admin overview is closed to a customer who is not an administrator', async () => {
    const { router } = await renderApp('/admin-overview', baseCustomer);
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(methodCalls.map((c) => c.name)).not.toContain('adminCustomerList');
  });

  // A restricted session stays on the screen that lifts the restriction, after a reload too.
  it.each([
    ['/home', 'setup2fa', '/setting'],
    ['/login-history', 'setup2fa', '/setting'],
    ['/admin-overview', 'setup2fa', '/setting'],
    ['/home', 'scp', '/scp'],
    ['/setting', 'scp', '/scp'],
  ])('a session restricted to set-up asking for %s (rst %s) is kept on %s', async (path, rst, expected) => {
    // /scp opens only with a login result (document 1 §2), as the sign-in that restricted it left
    if (rst === 'scp') storeLoginResult({ requirement: 'strict', strategy: 'enable' });
    const { router } = await renderApp(path, baseCustomer, { rst });
    await waitFor(() => expect(router.state.location.pathname).toBe(expected));
    expect(methodCalls.map((c) => c.name)).not.toContain('balanceInquiry');
  });

  it('a session restricted to two-step set-up may open the settings page', async () => {
    const { router } = await renderApp('/setting', baseCustomer, { rst: 'setup2fa' });
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    expect(router.state.location.pathname).toBe('/setting');
  });

  it('the root path goes home', async () => {
    const { router } = await renderApp('/', baseCustomer);
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });
});

describe('home', () => {
  it('greets the customer by name and lists the balances in the UI language', async () => {
    await renderApp('/home', baseCustomer);
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Anna Lind' })).toBeTruthy();
    expect(await screen.findByText('€1,250.50')).toBeTruthy();
    expect(screen.getByText((_, el) => el?.textContent?.replace(/\u00a0/g, ' ') === 'BTC 0.00012345')).toBeTruthy();
    expect(screen.getByText('$7.00')).toBeTruthy();
    expect(screen.getByText('You have 3 accounts.')).toBeTruthy();
    // landmarks and the skip link
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Skip to main content' }).getAttribute('href')).toBe('#main');
    // the header's account menu shows the customer's name from the session, and opens with it
    const accountButton = within(screen.getByRole('banner')).getByRole('button', { name: 'Anna Lind, account menu' });
    expect(accountButton.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
    await userEvent.click(accountButton);
    expect(accountButton.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    // Escape closes it and the focus goes back to the button
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
    expect(document.activeElement).toBe(accountButton);
  });

  it('a business customer is greeted with the company name', async () => {
    handlers.getCustomerInfo = () => ({ responseCode: '00', customer: { ...baseCustomer, customerType: 'business', businessName: 'Northwind Trading Ltd' } });
    await renderApp('/home', baseCustomer);
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Northwind Trading Ltd' })).toBeTruthy();
  });

  it('shows the failure when the accounts cannot be loaded, and retries', async () => {
    handlers['balanceInquiry'] = () => ({ responseCode: 'UE', responseDescription: 'Ledger is closed for maintenance' });
    await renderApp('/home', baseCustomer);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Your accounts could not be loaded')).toBeTruthy();
    expect(within(alert).getByText('Ledger is closed for maintenance')).toBeTruthy();
    handlers['balanceInquiry'] = () => ({ responseCode: '00', accounts: { account: accounts.slice(0, 1) } });
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('You have 1 account.')).toBeTruthy();
  });
});

describe('admin overview', () => {
  it('lists customers from adminCustomerList for an administrator', async () => {
    handlers.adminCustomerList = (body) => ({
      responseCode: '00',
      customers: [
        { customerId: 12, name: 'Northwind Trading Ltd', customerType: 'business', verified: true, limited: false, customerCreationDate: '2025-03-01T10:00:00.000Z' },
        { customerId: 11, name: 'Boris Demo', customerType: 'personal', verified: false, limited: false, customerCreationDate: '2025-02-01T10:00:00.000Z' },
      ],
      total: 2,
      page: body.page,
      pageSize: body.pageSize,
    });
    await renderApp('/admin-overview', { ...baseCustomer, isAdmin: true, userType: 4 });
    const table = await screen.findByRole('table', { name: 'Customers, newest first' });
    expect(within(table).getByRole('rowheader', { name: 'Northwind Trading Ltd' })).toBeTruthy();
    expect(within(table).getByText('Not verified')).toBeTruthy();
    expect(screen.getByText('2 customers in total.')).toBeTruthy();
    expect(methodCalls.find((c) => c.name === 'adminCustomerList')?.body).toEqual({ page: 1, pageSize: 20 });
  });
});

describe('not found and language', () => {
  it('an unknown path shows the 404 page', async () => {
    await renderApp('/no-such-page', baseCustomer);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });

  it('switching the language translates the UI and saves ua in settings when signed in', async () => {
    handlers.customerLanguageUpdate = () => ({ responseCode: '00' });
    await renderApp('/home', baseCustomer);
    await screen.findByRole('heading', { level: 1, name: 'Welcome, Anna Lind' });
    await userEvent.click(screen.getByRole('button', { name: /account menu/i }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'uk');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ласкаво просимо, Anna Lind' })).toBeTruthy();
    expect(screen.getByText('У вас 3 рахунки.')).toBeTruthy();
    // balances follow the UI language's number format
    expect(screen.getByText((_, el) => el?.tagName === 'P' && el.textContent?.replace(/[\u00a0\u202f]/g, ' ') === '1 250,50 EUR')).toBeTruthy();
    await waitFor(() => expect(methodCalls.find((c) => c.name === 'customerLanguageUpdate')?.body).toEqual({ language: 'ua' }));
    expect(document.documentElement.lang).toBe('uk');
  });
});
