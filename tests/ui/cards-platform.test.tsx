/**
 * The card detail against the REAL platform (PGlite), through the app's real route tree: rita
 * applies for a virtual card (the platform's cardApply, set up here), opens /cards, which goes
 * straight to her only card (document 2 §2), pauses it (Pause, then Unpause is what the status
 * allows), renames it, then blocks it behind the confirmation and sees its balance go back to her
 * EUR account. Only the transport is swapped (fetch -> app.inject).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryHistory } from '@tanstack/react-router';
import { eq } from 'drizzle-orm';
import { CardStatus } from '../../api/cards.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { CARD_PRODUCTS } from '../../server/modules/cards/products.ts';
import { AppRoot } from '../../src/app/app-root.tsx';
import { createAppQueryClient } from '../../src/app/query-client.ts';
import { createAppRouter } from '../../src/app/router.ts';
import { SESSION_STORAGE_KEY, createSessionActor, sessionRequestHooks, type SessionActor } from '../../src/features/auth/session-actor.ts';
import { configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { callMethod, createTestApp, signIn, type TestApp } from '../server/harness.ts';
import { injectFetch } from './platform-transport.ts';
import { SilentWebSocket } from './silent-websocket.ts';

configure({ asyncUtilTimeout: 15_000 });

let t: TestApp;
let tokens: { accessToken: string; refreshToken: string };
let cardId = 0;
let session: SessionActor | null = null;
const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

/** The signed-in session opens the push socket; one that stays "connecting" keeps the test quiet. */
beforeAll(async () => {
  t = await createTestApp();
  tokens = await signIn(t.app, 'rita');
  const options = { token: tokens.accessToken, headers: { 'idempotency-key': `k-${Math.random().toString(36).slice(2)}` } };
  const list = (await callMethod(t.app, 'balanceInquiry', {}, options)).body as unknown as { accounts: { account: { accountId: number; currency: string; type: number }[] } };
  const eur = list.accounts.account.find((a) => a.currency === 'EUR' && a.type < 2000)!;
  const type = CARD_PRODUCTS.find((p) => p.countryCode === 'IT' && p.kind === 'virtual' && p.currency === 'EUR')!.type;
  const applied = await callMethod(t.app, 'cardApply', { type, feeAccountId: eur.accountId, cardAliasName: 'Online' }, options);
  expect(applied.body.responseCode, JSON.stringify(applied.body)).toBe('00');
  cardId = applied.body.accountId as number;
  setFetchForTests(injectFetch(t.app));
  vi.stubGlobal('WebSocket', SilentWebSocket);
}, 60_000);
afterAll(async () => {
  session?.stop();
  setFetchForTests(null);
  vi.unstubAllGlobals();
  await t?.close();
});

async function renderApp(path: string) {
  const info = (await callMethod(t.app, 'getCustomerInfo', {}, { token: tokens.accessToken })).body as unknown as { customer: unknown };
  sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ tokens, customer: info.customer, accessInfo: null, actingCustomerId: null, rememberedPath: null }));
  const client = createAppQueryClient();
  session = createSessionActor({ clearCaches: () => client.clear() });
  configureRequest(sessionRequestHooks(session));
  const router = createAppRouter({ session, queryClient: client }, createMemoryHistory({ initialEntries: [path] }));
  render(<AppRoot router={router} queryClient={client} />);
  return router;
}

const actions = (): string[] => {
  const section = screen.getByRole('heading', { level: 2, name: 'Manage the card' }).closest('section')!;
  return [...section.querySelectorAll('a, button')].map((el) => plain(el.textContent));
};

describe('a virtual card against the platform (rita)', () => {
  it('opens the only card from /cards, pauses, renames and blocks it', async () => {
    const user = userEvent.setup();
    const router = await renderApp('/cards');
    expect(await screen.findByRole('heading', { level: 1, name: 'Online' })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/cards/${cardId}`);
    expect(actions()).toEqual([
      'Add money to the card',
      'Move money off the card',
      'Show PIN or card details',
      'Change PIN',
      'Pause',
      'Rename',
      'Order a new card',
      'Block the card',
    ]);

    await user.click(screen.getByRole('button', { name: 'Pause' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Pause this card?' })).getByRole('button', { name: 'Pause the card' }));
    expect(await screen.findByText('The card is paused. Payments with it are declined until you unpause it.')).toBeTruthy();
    await waitFor(() => expect(actions()).toContain('Unpause'));
    expect(actions()).not.toContain('Pause');
    expect(actions()).not.toContain('Add money to the card');

    await user.click(screen.getByRole('button', { name: 'Rename' }));
    const rename = await screen.findByRole('dialog', { name: 'Rename the card' });
    await user.clear(within(rename).getByRole('textbox', { name: 'Card name' }));
    await user.type(within(rename).getByRole('textbox', { name: 'Card name' }), 'Travel');
    await user.click(within(rename).getByRole('button', { name: 'Save the name' }));
    expect(await screen.findByText('The card is now called Travel.')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Travel' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Block the card' }));
    const block = await screen.findByRole('dialog', { name: 'Block this card for good?' });
    expect(within(block).getByText('This cannot be undone: a blocked card can never be used again.')).toBeTruthy();
    await user.click(within(block).getByRole('button', { name: 'Block the card' }));
    expect(await screen.findByText(/^The card is blocked\./)).toBeTruthy();
    expect(await screen.findByText('The card is canceled')).toBeTruthy();
    const [card] = await t.db.select({ status: accounts.status }).from(accounts).where(eq(accounts.accountId, cardId));
    expect(card!.status).toBe(CardStatus.canceled);
  });
});
