/**
 * The transfer pages with the keyboard only: a p2p transfer approved by SMS code and an
 * own-account conversion, focus on each step's heading, axe (WCAG 2.2 AA) on every step, and
 * amounts in the UI language. Actors are test doubles answered in order; the debounces are sent
 * as their events (the real delays are an hour).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import axe from 'axe-core';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { Account } from '../../api/accounts.ts';
import type { MoneyPermissions } from '../../api/transfers.ts';
import { approvalMachine, type ApprovalEvent, type ApproveResult } from '../../machines/approval/approval.machine.ts';
import { transferMachine, type FeeResult, type LimitsResult, type LoadResult, type PayeeResult, type SubmitResult } from '../../machines/transfer/transfer.machine.ts';
import type { TransferKind } from '../../machines/transfer/transfer.rules.ts';
import { TransferView } from '../../src/features/transfers/transfer-view.tsx';
import { activateUiLanguage, ensureAppCatalog, i18n } from '../../src/lib/i18n.ts';
import { AnswerQueue } from '../model/support.ts';

const AFTER_FEE = 'xstate.after.feeDebounce.transfer.editing.fee.waiting';
const AFTER_PAYEE = 'xstate.after.payeeDebounce.transfer.editing.payee.waiting';
const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

const account = (accountId: number, currency: string, balance: string): Account => ({
  accountId, type: 1001, subType: null, accountStatusId: 2, currency, balance, accountBalanceMin: '0', pendingAmount: '0', customerId: 10, settlementAccountId: null, cardIsVirtual: null, cardAliasName: null, cardExpiryMonth: null, cardExpiryYear: null, cardReissuedStatusId: null,
});
const flags = (v: boolean) => Object.fromEntries(['sendMoneyUser', 'betweenAccounts', 'p2p'].map((k) => [k, v]));
const PERMISSIONS = {
  topLevel: { ...flags(false), sendMoneyUser: true },
  own: { betweenAccounts: true },
  others: { p2p: true },
  mass: {},
  funding: {},
} as unknown as MoneyPermissions;

afterEach(async () => {
  await activateUiLanguage('en');
});

function mount(kind: TransferKind, ownEmails: readonly string[] = [], canOpenAccount = false) {
  const q = {
    loadSetup: new AnswerQueue<unknown, LoadResult>(),
    quoteFee: new AnswerQueue<unknown, FeeResult>(),
    fetchLimits: new AnswerQueue<unknown, LimitsResult>(),
    checkPayee: new AnswerQueue<unknown, PayeeResult>(),
    submitTransfer: new AnswerQueue<{ idempotencyKey: string }, SubmitResult>(),
    approveTransfer: new AnswerQueue<unknown, ApproveResult>(),
  };
  const logic = transferMachine.provide({
    actors: {
      loadSetup: fromPromise(({ input }) => q.loadSetup.next(input)),
      quoteFee: fromPromise(({ input }) => q.quoteFee.next(input)),
      fetchLimits: fromPromise(({ input }) => q.fetchLimits.next(input)),
      checkPayee: fromPromise(({ input }) => q.checkPayee.next(input)),
      submitTransfer: fromPromise(({ input }) => q.submitTransfer.next(input)),
      approval: approvalMachine.provide({
        actors: {
          approveTransfer: fromPromise(({ input }) => q.approveTransfer.next(input)),
          watchTransfer: fromCallback<ApprovalEvent, { transactionId: number }>(() => () => undefined),
        },
        delays: { resendCooldown: 3_600_000, untilExpiry: 3_600_000 },
      }),
    },
    delays: { feeDebounce: 3_600_000, payeeDebounce: 3_600_000 },
  });
  const actor = createActor(logic, { input: { kind, ownEmails } }).start();
  const user = userEvent.setup();
  const { container } = render(
    <I18nProvider i18n={i18n}>
      <TransferView actor={actor} canOpenAccount={canOpenAccount} />
    </I18nProvider>,
  );
  return { q, actor, user, container };
}
type Harness = ReturnType<typeof mount>;

async function expectNoAxeViolations(h: Harness, where: string) {
  const results = await axe.run(h.container, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    // jsdom has no layout: colours and sizes cannot be measured here (the e2e runs check them).
    rules: { 'color-contrast': { enabled: false }, 'target-size': { enabled: false } },
  });
  const summary = results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
  expect(summary, `axe violations in ${where}`).toEqual([]);
}

const focused = () => document.activeElement as HTMLElement;
const send = (h: Harness, type: string) => act(() => h.actor.send({ type } as never));

describe('transfer pages with the keyboard', () => {
  it('p2p: payee checked, live fee, review, SMS approval, success; focus on each step heading; no axe violations', async () => {
    const h = mount('p2p');
    await act(async () =>
      h.q.loadSetup.answer({
        ok: true,
        accounts: [account(101, 'EUR', '500')],
        permissions: PERMISSIONS,
        recent: [],
      }),
    );
    // the only account is chosen; the page's heading has the focus
    await waitFor(() => expect(focused().textContent).toBe('Send money to a person'));
    await act(async () => h.q.fetchLimits.answer({ ok: true, limits: { currencyCode: 'EUR', minAmount: '1', maxAmount: '1000', dailyLimit: '2000', dailyRemaining: '1500' } }));
    await expectNoAxeViolations(h, 'the form');

    // Tab: the source account, then the payee's e-mail
    await h.user.tab();
    expect(focused().getAttribute('name')).toBe('fromAccountId');
    await h.user.tab();
    expect(focused().getAttribute('name')).toBe('payeeEmail');
    await h.user.keyboard('bob@demo.test');
    send(h, AFTER_PAYEE);
    await act(async () => h.q.checkPayee.answer({ ok: true, payee: { exist: true, exists: true, isEmployee: false, outBlacklist: false, name: 'Bob Demo' } }));
    expect(screen.getByText('Sending to Bob Demo')).toBeTruthy();
    await h.user.tab();
    expect(focused().getAttribute('name')).toBe('amount');
    // above the limit first: the review is refused and the amount takes the focus
    await h.user.keyboard('1234,5');
    send(h, AFTER_FEE);
    await act(async () =>
      h.q.quoteFee.answer({ ok: true, quote: { fee: '1.5', feeCurrency: 'EUR', amount: '1234.5', currency: 'EUR', toAmount: '1234.5', toCurrency: 'EUR', rate: '1' } }),
    );
    await h.user.click(screen.getByRole('button', { name: /review the transfer/i }));
    await waitFor(() => expect(focused().getAttribute('name')).toBe('amount'));
    expect(focused().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The amount is above the largest transfer allowed.')).toBeTruthy();
    await expectNoAxeViolations(h, 'a refused review');
    await h.user.clear(focused());
    await h.user.keyboard('234,5');
    expect(screen.getByText(/calculating the fee/i)).toBeTruthy();
    send(h, AFTER_FEE);
    expect(h.q.quoteFee.calls.at(-1)).toEqual({ operation: 'p2p', amount: '234.5', fromAccountId: 101 });
    await act(async () =>
      h.q.quoteFee.answer({ ok: true, quote: { fee: '1.5', feeCurrency: 'EUR', amount: '234.5', currency: 'EUR', toAmount: '234.5', toCurrency: 'EUR', rate: '1' } }),
    );
    // the live region says the fee, in the UI language
    // and what leaves the account: the amount and its fee
    expect(plain(document.querySelector('[aria-live="polite"]')?.textContent)).toBe('Fee: €1.50. They receive: €234.50. You pay in total: €236.00.');
    await expectNoAxeViolations(h, 'the filled form');

    // Enter in a field submits the form: the review
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect(focused().textContent).toBe('Check the transfer'));
    expect(plain(document.querySelector('dl')?.textContent)).toContain('Bob Demo (bob@demo.test)');
    expect(plain(document.querySelector('dl')?.textContent)).toContain('You pay in total€236.00');
    await expectNoAxeViolations(h, 'the review');
    await h.user.tab();
    expect(focused().textContent).toBe('Send');
    await h.user.keyboard('{Enter}');
    await waitFor(() => expect(h.q.submitTransfer.waiting).toBe(1));
    await act(async () =>
      h.q.submitTransfer.answer({
        ok: true,
        result: {
          transactionId: 5, status: 'pending', approveType: 'sms', approvalSentTo: '+370 *** **12', fee: '1.5', feeCurrency: 'EUR', amount: '1234.5', currency: 'EUR',
          toAmount: '1234.5', toCurrency: 'EUR', rate: '1', expiresAt: '2099-01-01T00:00:00Z', scheduleId: null,
        },
      }),
    );
    // the approval: its heading has the focus; the code field suits one-time codes
    await waitFor(() => expect(focused().textContent).toBe('Enter the code we sent to +370 *** **12'));
    await expectNoAxeViolations(h, 'the approval');
    await h.user.tab();
    expect(focused().getAttribute('autocomplete')).toBe('one-time-code');
    await h.user.keyboard('123456{Enter}');
    await waitFor(() => expect(h.q.approveTransfer.calls.at(-1)).toMatchObject({ transactionId: 5, code: '123456' }));
    await act(async () => h.q.approveTransfer.answer({ ok: true, status: 'posted' }));
    await waitFor(() => expect(focused().textContent).toBe('Successfully submitted'));
    // approved: the money has gone (the platform's status posted), said plainly under the heading
    expect(screen.getByText(/the money has been sent: it has left your account/i)).toBeTruthy();
    expect(screen.queryByText(/waits for an approval/i)).toBeNull();
    await expectNoAxeViolations(h, 'the result');
    h.actor.stop();
  });

  it('own accounts in Spanish: the amount in the destination currency, the rate, the limits', async () => {
    await activateUiLanguage('es');
    await ensureAppCatalog();
    const h = mount('betweenAccounts');
    await act(async () => h.q.loadSetup.answer({ ok: true, accounts: [account(101, 'EUR', '1234.5'), account(102, 'USD', '0.00012')], permissions: PERMISSIONS, recent: [] }));
    const from = (await screen.findByRole('combobox', { name: 'Cuenta de origen' })) as HTMLSelectElement;
    // balances in the UI language: 8 decimals at most, at least 2
    expect(plain(from.textContent)).toContain('1234,50 €');
    expect(plain(from.textContent)).toContain('0,00012 US$');
    await h.user.selectOptions(from, '101');
    const to = screen.getAllByRole('combobox')[1] as HTMLSelectElement;
    await h.user.selectOptions(to, '102');
    expect(h.q.fetchLimits.calls.at(-1)).toEqual({ type: 'betweenAccounts', currencyCode: 'EUR', fromAccountId: 101 });
    await act(async () => h.q.fetchLimits.answer({ ok: true, limits: { currencyCode: 'EUR', minAmount: '1', maxAmount: '1000', dailyLimit: '2000', dailyRemaining: '1500.5' } }));
    // the currency choice appears once both accounts are known
    const currency = screen.getAllByRole('combobox')[2] as HTMLSelectElement;
    await h.user.selectOptions(currency, 'USD');
    const amount = screen.getAllByRole('textbox')[0] as HTMLInputElement;
    await h.user.type(amount, '10');
    send(h, AFTER_FEE);
    expect(h.q.quoteFee.calls.at(-1)).toEqual({ operation: 'betweenAccounts', amount: '10', fromAccountId: 101, toAccountId: 102, currency: 'USD' });
    await act(async () => h.q.quoteFee.answer({ ok: true, quote: { fee: '0.1', feeCurrency: 'EUR', amount: '9.22', currency: 'EUR', toAmount: '10', toCurrency: 'USD', rate: '1.085' } }));
    const live = document.querySelector('[aria-live="polite"]')!;
    expect(plain(live.textContent)).toContain('0,10 €');
    expect(plain(live.textContent)).toContain('10,00 US$');
    expect(live.textContent).toContain('1 EUR = 1.085 USD');
    expect(plain(document.querySelector('.transfer-limits')?.textContent)).toContain('1500,50 €');
    await expectNoAxeViolations(h, 'the conversion form');
    h.actor.stop();
  });
});

describe('transfer page: the everyday gaps (issue 13)', () => {
  const quote = (amount: string, fee: string) => ({ ok: true as const, quote: { fee, feeCurrency: 'EUR', amount, currency: 'EUR', toAmount: amount, toCurrency: 'EUR', rate: '1' } });

  it('refuses an amount (with its fee) above the available balance before review, and points one\'s own e-mail to the between-accounts page', async () => {
    const h = mount('p2p', ['Anna@Demo.test'], true);
    // 100 on the account, 20 of it held by a pending transfer: 80 available
    await act(async () => h.q.loadSetup.answer({ ok: true, accounts: [{ ...account(101, 'EUR', '100'), pendingAmount: '20' }], permissions: PERMISSIONS, recent: [] }));
    await screen.findByRole('heading', { name: 'Send money to a person' });
    await act(async () => h.q.fetchLimits.answer({ ok: false, code: 'network' }));
    await h.user.type(screen.getByLabelText(/payee's e-mail address/i), 'anna@demo.test');
    send(h, AFTER_PAYEE);
    await act(async () => h.q.checkPayee.answer({ ok: true, payee: { exist: true, exists: true, isEmployee: false, outBlacklist: false, name: 'Anna Demo' } }));
    await h.user.type(screen.getByLabelText(/^amount/i), '79.5');
    send(h, AFTER_FEE);
    await act(async () => h.q.quoteFee.answer(quote('79.5', '1')));
    await h.user.click(screen.getByRole('button', { name: /review the transfer/i }));
    // both refused on their fields; the review is not reached
    const amount = screen.getByLabelText(/^amount/i);
    await waitFor(() => expect(amount.getAttribute('aria-invalid')).toBe('true'));
    expect(plain(screen.getByText(/more than the available balance/i).textContent)).toBe('The amount and its fee come to more than the available balance of €80.00.');
    expect(screen.getByLabelText(/payee's e-mail address/i).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/this is your own e-mail address/i)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Move money between your accounts' }).getAttribute('href')).toBe('/transfer/account');
    expect(screen.queryByRole('heading', { name: 'Check the transfer' })).toBeNull();
    expect(h.actor.getSnapshot().matches('editing')).toBe(true);
    await expectNoAxeViolations(h, 'refused amount and own e-mail');
    // fitting with its fee (79 + 1 = 80) and to someone else: on to the review
    await h.user.clear(screen.getByLabelText(/payee's e-mail address/i));
    await h.user.type(screen.getByLabelText(/payee's e-mail address/i), 'bob@demo.test');
    send(h, AFTER_PAYEE);
    await act(async () => h.q.checkPayee.answer({ ok: true, payee: { exist: true, exists: true, isEmployee: false, outBlacklist: false, name: 'Bob Demo' } }));
    await h.user.clear(screen.getByLabelText(/^amount/i));
    await h.user.type(screen.getByLabelText(/^amount/i), '79');
    send(h, AFTER_FEE);
    await act(async () => h.q.quoteFee.answer(quote('79', '1')));
    await h.user.click(screen.getByRole('button', { name: /review the transfer/i }));
    await screen.findByRole('heading', { name: 'Check the transfer' });
    h.actor.stop();
  });

  it('says a transfer waiting for an approval has not gone yet', async () => {
    const h = mount('betweenAccounts');
    await act(async () => h.q.loadSetup.answer({ ok: true, accounts: [account(101, 'EUR', '500'), account(102, 'USD', '0')], permissions: PERMISSIONS, recent: [] }));
    await h.user.selectOptions(await screen.findByLabelText(/^from account$/i), '101');
    await h.user.selectOptions(screen.getByLabelText(/^to account$/i), '102');
    await act(async () => h.q.fetchLimits.answer({ ok: false, code: 'network' }));
    await h.user.type(screen.getByLabelText(/^amount \(EUR\)$/i), '10');
    send(h, AFTER_FEE);
    await act(async () => h.q.quoteFee.answer({ ok: true, quote: { fee: '0.1', feeCurrency: 'EUR', amount: '10', currency: 'EUR', toAmount: '10.85', toCurrency: 'USD', rate: '1.085' } }));
    await h.user.click(screen.getByRole('button', { name: /review the transfer/i }));
    await h.user.click(await screen.findByRole('button', { name: /^send$/i }));
    await act(async () =>
      h.q.submitTransfer.answer({
        ok: true,
        result: { transactionId: 6, status: 'pending', approveType: 'none', approvalSentTo: null, fee: '0.1', feeCurrency: 'EUR', amount: '10', currency: 'EUR', toAmount: '10.85', toCurrency: 'USD', rate: '1.085', expiresAt: '2099-01-01T00:00:00Z', scheduleId: null },
      }),
    );
    // document 2 §4: a payment waiting for another approval (a company's checker) has its own title
    await screen.findByRole('heading', { name: 'Sent for approval' });
    // the note every done screen of a payment waiting for the company's checker shows, linking to where checkers decide
    expect(screen.getByText(/waits for an approval by a user of the company with full rights: the money has not gone yet/i)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'transaction history' }).getAttribute('href')).toBe('/history');
    expect(screen.queryByText(/the money has been/i)).toBeNull();
    h.actor.stop();
  });

  it('offers a customer with no account to open one (and keeps "ask the owner" for a company without the right)', async () => {
    const own = mount('p2p', ['anna@demo.test'], true);
    await act(async () => own.q.loadSetup.answer({ ok: true, accounts: [], permissions: PERMISSIONS, recent: [] }));
    expect(await screen.findByText('You have no account to send from yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open an account' }).getAttribute('href')).toBe('/accounts/open');
    expect(screen.queryByLabelText(/^from account$/i)).toBeNull();
    await expectNoAxeViolations(own, 'no account');
    own.actor.stop();
    cleanup();

    const company = mount('p2p', [], false);
    await act(async () => company.q.loadSetup.answer({ ok: true, accounts: [], permissions: { ...PERMISSIONS, others: { p2p: false } } as MoneyPermissions, recent: [] }));
    expect(await screen.findByText(/ask the account's owner/i)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Open an account' })).toBeNull();
    company.actor.stop();
  });
});
