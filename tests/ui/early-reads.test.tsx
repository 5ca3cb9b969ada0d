/**
 * Early reads (src/lib/early-reads.ts): /home's first reads, started by src/early-start.ts before
 * the app's bundle has arrived, are the very calls the page makes (URL, body and headers, for the
 * customer and for a company acted for), and the request wrapper takes each early answer once
 * instead of asking again; with another token, another language (or none started) it asks as
 * always. The plan the app writes is what the early start reads back. Only fetch is replaced.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { EARLY_READ_PLAN_KEY, EARLY_READS, FIRST_HEADING_KEY, drawFirstHeading, forgetEarlyReads, readBody, readHeaders, startEarlyReads } from '../../src/lib/early-reads.ts';
import { EARLY_READ_PLAN_STORAGE_KEY, FIRST_HEADING_STORAGE_KEY, earlyReadPlan } from '../../src/lib/early-read-plan.ts';
import { SESSION_STORAGE_KEY } from '../../src/features/auth/session-actor.ts';
import { makeAccessToken } from '../model/support.ts';
import { accessToken, account, platform, renderApp, useHarness } from './history-harness.tsx';

useHarness(() => ({
  balanceInquiry: () => ({ responseCode: '00', accounts: { account: [account({ accountId: 101, currency: 'EUR', balance: '12.5' })] } }),
  balanceHistory: () => ({ responseCode: '00', series: [] }),
  transactionHistory: () => ({ responseCode: '00', transactions: { transaction: [] }, results: 0, rejectedCount: 0, processingCount: 0, exportId: null, exportCsv: null }),
}));

afterEach(() => {
  forgetEarlyReads();
  sessionStorage.removeItem(EARLY_READ_PLAN_KEY);
  sessionStorage.removeItem(FIRST_HEADING_KEY);
  // the boot shell a test drew: the files of this project share their document
  document.body.innerHTML = '';
});

const session = (token: string) => ({ accessToken: token, actingCustomerId: null });

/** The calls fetch was given for one method, in order: URL, raw JSON body, headers. */
function sent(method: string): { url: string; body: string; headers: Record<string, string> }[] {
  return vi
    .mocked(fetch)
    .mock.calls.filter(([url]) => String(url).endsWith(`?${method}`))
    .map(([url, init]) => ({ url: String(url), body: String(init?.body), headers: Object.fromEntries(new Headers(init?.headers).entries()) }));
}
const lowerCased = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

describe('early reads of /home', () => {
  for (const acting of [null, 7]) {
    it(`are the calls the page makes, URL, body and headers (${acting === null ? 'the customer' : 'a company acted for'})`, async () => {
      await renderApp('/home', { actingCustomerId: acting });
      await screen.findByRole('heading', { level: 1, name: /Welcome/ });
      // the recent activity's read comes with its view, after the heading
      await vi.waitFor(() => expect(sent('transactionHistory')).toHaveLength(1));
      const plan = earlyReadPlan(SESSION_STORAGE_KEY);
      for (const read of EARLY_READS['/home']!) {
        const call = sent(read.method)[0];
        expect(call?.url, read.method).toBe(`${plan.methodUrlPrefix}${read.method}`);
        expect(call?.body, read.method).toBe(readBody(read.method, read.payload, acting));
        expect(call?.headers, read.method).toEqual(lowerCased(readHeaders(plan, { accessToken, actingCustomerId: acting })));
      }
    });
  }

  it("remember /home's greeting, which the early start writes into the boot shell as text for the same page and company only", async () => {
    expect(FIRST_HEADING_STORAGE_KEY).toBe(FIRST_HEADING_KEY);
    await renderApp('/home', { actingCustomerId: 7 });
    const greeting = await screen.findByRole('heading', { level: 1, name: /Welcome/ });
    const stored = JSON.parse(sessionStorage.getItem(FIRST_HEADING_KEY) ?? 'null') as unknown;
    expect(stored).toEqual({ path: '/home', actingCustomerId: 7, text: greeting.textContent });
    const boot = () => {
      document.body.innerHTML = '<div class="boot-shell"><main><h1 data-boot-heading></h1></main></div>';
      return document.querySelector('[data-boot-heading]')!;
    };
    let heading = boot();
    drawFirstHeading(document, stored, '/home', 7);
    expect(heading.textContent).toBe(greeting.textContent);
    for (const [path, acting] of [['/history', 7], ['/home', null], ['/home', 8]] as const) {
      heading = boot();
      drawFirstHeading(document, stored, path, acting);
      expect(heading.textContent, `${path} ${acting}`).toBe('');
    }
    heading = boot();
    drawFirstHeading(document, { path: '/home', actingCustomerId: null, text: '<img src=x onerror=alert(1)>' }, '/home', null);
    expect(heading.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(heading.children).toHaveLength(0);
  });

  it('read the plan the session actor keeps beside the session, under the key the early start looks for', async () => {
    expect(EARLY_READ_PLAN_STORAGE_KEY).toBe(EARLY_READ_PLAN_KEY);
    await renderApp('/home');
    await screen.findByText('€12.50');
    expect(JSON.parse(sessionStorage.getItem(EARLY_READ_PLAN_KEY) ?? 'null')).toEqual(earlyReadPlan(SESSION_STORAGE_KEY));
  });

  it('are taken by the loader once instead of being asked again', async () => {
    startEarlyReads('/home', earlyReadPlan(SESSION_STORAGE_KEY), session(accessToken));
    await renderApp('/home');
    await screen.findByText('€12.50');
    await vi.waitFor(() => expect(sent('transactionHistory')).toHaveLength(1));
    for (const read of EARLY_READS['/home']!) expect(platform.bodies(read.method), read.method).toHaveLength(1);
  });

  it('are not taken for another token or another language', async () => {
    startEarlyReads('/home', earlyReadPlan(SESSION_STORAGE_KEY), session(makeAccessToken(300, Date.now(), { cid: 99 })));
    const otherLanguage = earlyReadPlan(SESSION_STORAGE_KEY);
    otherLanguage.headers['Accept-Language'] = 'uk-UA';
    startEarlyReads('/home', otherLanguage, session(accessToken));
    await renderApp('/home');
    await screen.findByText('€12.50');
    // the other token's and the other language's early reads, then the page's own
    await vi.waitFor(() => expect(platform.bodies('transactionHistory')).toHaveLength(3));
    for (const read of EARLY_READS['/home']!) expect(platform.bodies(read.method), read.method).toHaveLength(3);
  });
});
