/**
 * /transfer/preapproved-payments (document 2 §2, §7; issue 13) through the real route tree: the
 * recurring payments listed with payee, amount, frequency, next date and status; a stoppable one
 * stopped after a confirmation (preapprovedCancel) and the list read again; a refusal shown in
 * the dialog with the platform's words (§10); the empty state; a failed load; the navigation
 * entry. Only fetch is replaced.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type * as v from 'valibot';
import type { SubscriptionSchema } from '../../api/transfers.ts';
import { expectNoAxeViolations, platform, renderApp, useHarness } from './history-harness.tsx';

type Subscription = v.InferOutput<typeof SubscriptionSchema>;
const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

const GYM: Subscription = {
  id: 4, type: 'p2p', amount: '5.00', currency: 'EUR', toAccount: null, beneficiaryEmail: 'gym@demo.test', frequency: 'monthly', status: 'active',
  transactionsDone: 3, transactionsTotal: 12, endDate: null, nextRunAt: '2026-12-20T08:00:00.000Z', userCancel: true,
};
const SAVINGS: Subscription = {
  id: 5, type: 'betweenAccounts', amount: '50.00', currency: 'EUR', toAccount: 102, beneficiaryEmail: null, frequency: 'weekly', status: 'active',
  transactionsDone: 1, transactionsTotal: null, endDate: '2027-06-30', nextRunAt: '2026-11-27T08:00:00.000Z', userCancel: false,
};
const OVER: Subscription = { ...GYM, id: 6, beneficiaryEmail: 'old@demo.test', status: 'finished', nextRunAt: null, transactionsDone: 12 };

let list: Subscription[] = [];
useHarness(() => {
  list = [GYM, SAVINGS, OVER];
  return {
    preapprovedList: () => ({ responseCode: '00', subscriptions: list, total: list.length }),
    preapprovedCancel: (body) => {
      list = list.map((s) => (s.id === body.id ? { ...s, status: 'canceled', nextRunAt: null } : s));
      return { responseCode: '00', subscription: list.find((s) => s.id === body.id) };
    },
  };
});

const rowOf = (name: string) => screen.getAllByRole('row').find((r) => within(r).queryByText(name))!;

describe('pre-approved payments', () => {
  it('lists each payment with payee, amount, frequency, next date and status, without axe violations', async () => {
    await renderApp('/transfer/preapproved-payments');
    await screen.findByRole('heading', { level: 1, name: 'Pre-approved payments' });
    await screen.findByRole('table', { name: /^Pre-approved payments, page 1 of 1/ });
    const gym = plain(rowOf('gym@demo.test').textContent);
    expect(gym).toContain('€5.00');
    expect(gym).toContain('Monthly');
    expect(gym).toMatch(/Next: Dec 20, 2026/);
    expect(gym).toContain('3 of 12 made');
    expect(gym).toContain('Active');
    const savings = plain(rowOf('Your account 102').textContent);
    expect(savings).toContain('Weekly');
    expect(savings).toMatch(/1 made, until Jun 30, 2027/);
    // Only the ones the customer may stop have a Stop button.
    expect(within(rowOf('gym@demo.test')).getByRole('button', { name: 'Stop the payment to gym@demo.test' })).toBeTruthy();
    expect(within(rowOf('Your account 102')).queryByRole('button')).toBeNull();
    expect(within(rowOf('old@demo.test')).queryByRole('button')).toBeNull();
    expect(plain(rowOf('old@demo.test').textContent)).toContain('Finished');
    expect(plain(rowOf('old@demo.test').textContent)).not.toContain('Next:');
    expect(platform.bodies('preapprovedList')).toEqual([{ pageNumber: 1, pageSize: 50 }]);
    // The main navigation's Payments group links here (drawn one step after the page: Deferred).
    expect((await screen.findByRole('link', { name: 'Pre-approved payments' })).getAttribute('aria-current')).toBe('page');
    await expectNoAxeViolations('the list');
  });

  it('stops a payment after a confirmation and reads the list again', async () => {
    const user = userEvent.setup();
    await renderApp('/transfer/preapproved-payments');
    await user.click(await screen.findByRole('button', { name: 'Stop the payment to gym@demo.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop this payment?' });
    expect(plain(dialog.textContent)).toContain('No further payments of €5.00 will be made to gym@demo.test');
    await expectNoAxeViolations('the stop dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Stop the payment' }));
    const done = await screen.findByText('The payment to gym@demo.test was stopped. No further payments will be made.');
    expect(platform.bodies('preapprovedCancel')).toEqual([{ id: 4 }]);
    await waitFor(() => expect(plain(rowOf('gym@demo.test').textContent)).toContain('Stopped'));
    expect(within(rowOf('gym@demo.test')).queryByRole('button')).toBeNull();
    expect(platform.bodies('preapprovedList').length).toBeGreaterThanOrEqual(2);
    expect(done.closest('.confirm-done')).toBe(document.activeElement);
  });

  it('shows a refusal in the dialog in the platform\'s words', async () => {
    platform.handlers.preapprovedCancel = () => ({ responseCode: 'TA1', responseDescription: 'This pre-approved payment has already ended' });
    const user = userEvent.setup();
    await renderApp('/transfer/preapproved-payments');
    await user.click(await screen.findByRole('button', { name: 'Stop the payment to gym@demo.test' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Stop the payment' }));
    const alert = await within(dialog).findByRole('alert');
    expect(within(alert).getByText('The payment was not stopped')).toBeTruthy();
    expect(within(alert).getByText('This pre-approved payment has already ended')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says so when there are none, and offers to send money', async () => {
    platform.handlers.preapprovedList = () => ({ responseCode: '00', subscriptions: [], total: 0 });
    await renderApp('/transfer/preapproved-payments');
    const heading = await screen.findByRole('heading', { name: 'No pre-approved payments' });
    const empty = heading.closest('.empty-state') as HTMLElement;
    expect(within(empty).getByRole('link', { name: 'Send money' }).getAttribute('href')).toBe('/transfer/p2p');
    expect(screen.queryByRole('table')).toBeNull();
    await expectNoAxeViolations('the empty state');
  });

  it('shows a failed load with the platform\'s words and a way to try again', async () => {
    platform.handlers.preapprovedList = () => ({ responseCode: '13', responseDescription: 'Your access rights to this customer do not allow this' });
    const user = userEvent.setup();
    await renderApp('/transfer/preapproved-payments');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The pre-approved payments could not be loaded')).toBeTruthy();
    expect(within(alert).getByText('Your access rights to this customer do not allow this')).toBeTruthy();
    platform.handlers.preapprovedList = () => ({ responseCode: '00', subscriptions: [GYM], total: 1 });
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByText('gym@demo.test');
  });
});
