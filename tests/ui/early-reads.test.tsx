/**
 * Early reads (src/lib/early-reads.ts): /home's first reads, started by main.tsx before the
 * router loads, are the very calls its loader makes (body for body, for the customer and for a
 * company acted for), and the request wrapper takes each early answer once instead of asking
 * again; with another token (or none started) it asks as always. Only fetch is replaced.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { EARLY_READS, forgetEarlyReads, readBody, startEarlyReads } from '../../src/lib/early-reads.ts';
import { getMethodUrl } from '../../src/lib/api-base.ts';
import { readAccessExpiryMs } from '../../machines/session/access-token.ts';
import { makeAccessToken } from '../model/support.ts';
import { accessToken, account, platform, renderApp, useHarness } from './history-harness.tsx';

useHarness(() => ({
  balanceInquiry: () => ({ responseCode: '00', accounts: { account: [account({ accountId: 101, currency: 'EUR', balance: '12.5' })] } }),
  balanceHistory: () => ({ responseCode: '00', series: [] }),
  transactionHistory: () => ({ responseCode: '00', transactions: { transaction: [] }, results: 0, rejectedCount: 0, processingCount: 0, exportId: null, exportCsv: null }),
}));

afterEach(() => forgetEarlyReads());

const early = (token: string) => ({ accessToken: token, expiresAtMs: readAccessExpiryMs(token), actingCustomerId: null, methodUrl: getMethodUrl, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` } });

/** The raw JSON bodies fetch was given for one method, in order. */
function sentBodies(method: string): string[] {
  return vi
    .mocked(fetch)
    .mock.calls.filter(([url]) => String(url).endsWith(`?${method}`))
    .map(([, init]) => String(init?.body));
}

describe('early reads of /home', () => {
  for (const acting of [null, 7]) {
    it(`are the calls its loader makes, body for body (${acting === null ? 'the customer' : 'a company acted for'})`, async () => {
      await renderApp('/home', { actingCustomerId: acting });
      await screen.findByRole('heading', { level: 1, name: /Welcome/ });
      for (const read of EARLY_READS['/home']!) expect(sentBodies(read.method)[0], read.method).toBe(readBody(read.method, read.payload, acting));
    });
  }

  it('are taken by the loader once instead of being asked again', async () => {
    startEarlyReads('/home', early(accessToken));
    await renderApp('/home');
    await screen.findByText('€12.50');
    for (const read of EARLY_READS['/home']!) expect(platform.bodies(read.method), read.method).toHaveLength(1);
  });

  it('are not taken for another token, and not started for one about to expire', async () => {
    startEarlyReads('/home', early(makeAccessToken(300, Date.now(), { cid: 99 })));
    startEarlyReads('/home', early(makeAccessToken(5, Date.now(), { cid: 10 })));
    await renderApp('/home');
    await screen.findByText('€12.50');
    // the other token's early reads, then the loader's own
    for (const read of EARLY_READS['/home']!) expect(platform.bodies(read.method), read.method).toHaveLength(2);
  });
});
