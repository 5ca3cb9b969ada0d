/**
 * The app through its real route tree for the home, history and statements tests: the real
 * session actor (restored from sessionStorage as after a reload), the real request wrapper and
 * downloads; only fetch is replaced. Named-method calls go to `handlers` by name, REST GETs to
 * `files` by path; every call is recorded with its body or headers.
 */
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { configure, render, waitFor } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import type { Account } from '../../api/accounts.ts';
import type { Customer } from '../../api/customer.ts';
import type { Transaction } from '../../api/history.ts';
import { AppRoot } from '../../src/app/app-root.tsx';
import { createAppQueryClient } from '../../src/app/query-client.ts';
import { createAppRouter } from '../../src/app/router.ts';
import { SESSION_STORAGE_KEY, createSessionActor, sessionRequestHooks, type SessionActor } from '../../src/features/auth/session-actor.ts';
import { activateUiLanguage } from '../../src/lib/i18n.ts';
import { configureRequest } from '../../src/lib/request.ts';
import { makeAccessToken, makeCustomer } from '../model/support.ts';
import { userStatusAnswer } from './verification-fixtures.ts';
import { methodBody } from './method-body.ts';
import { SilentWebSocket } from './silent-websocket.ts';

// The whole app renders here: a route's first render waits for its lazy chunks and catalog, which
// takes seconds on a loaded CI machine (as in recovery-routes and registration-routes tests).
configure({ asyncUtilTimeout: 10_000 });

export const customer: Customer = makeCustomer({ lastName: 'Lind', login: 'anna@demo.test' });
export const accessToken = makeAccessToken(300, Date.now(), { cid: 10 });

export function account(over: Partial<Account> & Pick<Account, 'accountId' | 'currency' | 'balance'>): Account {
  return { type: 1001, subType: null, accountStatusId: 1, accountBalanceMin: '0', pendingAmount: '0', customerId: 10, settlementAccountId: null, cardIsVirtual: null, cardAliasName: null, cardExpiryMonth: null, cardExpiryYear: null, cardReissuedStatusId: null, ...over };
}

let serial = 0;
/** A history row at noon UTC of `day` (the same calendar day in any time zone the tests run in). */
export function row(over: Partial<Transaction> & { day: string }): Transaction {
  serial += 1;
  const { day, ...rest } = over;
  return {
    rowId: `transfer:${serial}:101:p2p`,
    kind: 'transfer',
    transactionId: serial,
    transactionDate: `${day}T12:00:00.000Z`,
    operationType: 'p2p',
    direction: 'out',
    status: 'posted',
    accountId: 101,
    amount: '-10',
    currency: 'EUR',
    counterparty: 'boris@demo.test',
    note: null,
    reference: null,
    ...rest,
  };
}

export type Handler = (body: Record<string, unknown>) => unknown;
export interface FileAnswer {
  status: number;
  body: BodyInit | null;
  headers?: Record<string, string>;
}

export const platform = {
  handlers: {} as Record<string, Handler>,
  files: {} as Record<string, () => FileAnswer>,
  calls: [] as { name: string; body: Record<string, unknown> }[],
  downloads: [] as { path: string; headers: Headers }[],
  /** bodies of the calls of one method, in order */
  bodies(name: string): Record<string, unknown>[] {
    return this.calls.filter((c) => c.name === name).map((c) => c.body);
  },
};

/** The signed-in session opens the push socket; one that stays "connecting" keeps the test quiet. */
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

async function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = new URL(String(input), 'http://localhost');
  if (url.pathname === '/api/v1/' && url.search.length > 1) {
    const name = decodeURIComponent(url.search.slice(1));
    const body = methodBody(name, init);
    platform.calls.push({ name, body });
    const handler = platform.handlers[name];
    return json(handler ? handler(body) : { responseCode: 'IM', responseDescription: `no handler for ${name}` });
  }
  platform.downloads.push({ path: url.pathname, headers: new Headers(init?.headers) });
  const file = platform.files[url.pathname];
  if (!file) return new Response(JSON.stringify({ message: 'Not found' }), { status: 404, headers: { 'Content-Type': 'application/json' } });
  const answer = file();
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

let session: SessionActor | null = null;
let queryClient: ReturnType<typeof createAppQueryClient> | null = null;

export function useHarness(defaults: () => Record<string, Handler>) {
  beforeEach(() => {
    vi.stubGlobal('WebSocket', SilentWebSocket);
    vi.stubGlobal('fetch', vi.fn(fakeFetch));
    sessionStorage.clear();
    localStorage.clear();
    platform.calls = [];
    platform.downloads = [];
    platform.files = {};
    platform.handlers = {
      getCustomerInfo: () => ({ responseCode: '00', customer }),
      // the main layout's verification banner (nothing to do: no banner)
      userStatusGet: () => userStatusAnswer(),
      ...defaults(),
    };
  });

  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    // A query still loading would answer into the next test: let it finish here.
    const client = queryClient;
    if (client) await waitFor(() => expect(client.isFetching()).toBe(0));
    queryClient = null;
    session?.stop();
    session = null;
    vi.unstubAllGlobals();
    await activateUiLanguage('en');
  });
}

/** `signedIn`: the user in the session (their saved language is the one the app switches to). */
export async function renderApp(path: string, { actingCustomerId = null, signedIn = customer }: { actingCustomerId?: number | null; signedIn?: Customer } = {}) {
  sessionStorage.setItem(
    SESSION_STORAGE_KEY,
    JSON.stringify({ tokens: { accessToken, refreshToken: 'refresh-1' }, customer: signedIn, accessInfo: null, actingCustomerId, rememberedPath: null }),
  );
  const client = createAppQueryClient();
  queryClient = client;
  session = createSessionActor({ clearCaches: () => client.clear() });
  configureRequest(sessionRequestHooks(session));
  const history = createMemoryHistory({ initialEntries: [path] });
  const router = createAppRouter({ session, queryClient: client }, history);
  render(<AppRoot router={router} queryClient={client} />);
  return { router, history };
}

/** URL.createObjectURL / revokeObjectURL (jsdom has neither) and the link click that saves. */
export function stubSaving() {
  const created: Blob[] = [];
  const revoked: string[] = [];
  const saved: { href: string; download: string }[] = [];
  vi.stubGlobal('URL', Object.assign(URL, {
    createObjectURL: vi.fn((blob: Blob) => {
      created.push(blob);
      return `blob:http://localhost/${created.length}`;
    }),
    revokeObjectURL: vi.fn((href: string) => {
      revoked.push(href);
    }),
  }));
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download });
  });
  return { created, revoked, saved, click };
}

/** axe-core (WCAG 2.2 AA, as the e2e journeys use it) on the page as it is now. */
/** axe on the document (tests/ui/axe.ts), for the tests that use this harness. */
export { expectNoAxeViolations } from './axe.ts';
