/**
 * The global-pay payee page against the REAL platform (PGlite, the job queue and the rails'
 * simulator): only the transport is swapped (fetch → app.inject); the page, the global-payee
 * statechart, its actors and the request wrapper are the app's own. rita (approval mode none)
 * uploads a batch of one and submits it; the beneficiary's e-mail in the dev mailbox carries the
 * link /receive/{id}?s=<secret>; the page opened with it shows the payment, the beneficiary takes
 * it: Germany, a card, the form filled (a card number with a wrong check digit refused on its
 * field first), the code from the mailbox (a wrong one first, its tries left on the field), and
 * the money is on its way. The platform then has the payout at its rail. axe on each step.
 *
 * Runs in jsdom (typing), in the ui-platform project (its setup, tests/ui/platform-seams.ts, puts
 * in the environment's seams the platform needs there).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { desc, eq } from 'drizzle-orm';
import { outbox } from '../../server/modules/platform/platform.tables.ts';
import { globalPayments } from '../../server/modules/transfers/global-pay.tables.ts';
import { startJobQueue, type JobQueue } from '../../server/db/job-queue.ts';
import { createPayoutService } from '../../server/modules/rails/payouts.service.ts';
import { createSimulator, DEFAULT_SIMULATOR_OPTIONS } from '../../server/modules/rails/simulator.ts';
import { RAIL_QUEUES } from '../../server/modules/rails/workers.ts';
import { ReceivePage } from '../../src/features/global-pay/receive-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { callMethod, callMultipart, createTestApp, createTestDatabase, signIn, type TestApp } from '../server/harness.ts';
import { expectNoAxeViolations } from './axe.ts';
import { injectFetch } from './platform-transport.ts';

configure({ asyncUtilTimeout: 15_000 });

let t: TestApp;
let queue: JobQueue;
let token = '';
const EMAIL = 'greta@example.com';

async function mailsTo(address: string) {
  return t.db.select().from(outbox).where(eq(outbox.recipient, address)).orderBy(desc(outbox.id));
}

beforeAll(async () => {
  const database = await createTestDatabase({ demoData: 'without-history' });
  queue = await startJobQueue(database.open, RAIL_QUEUES, () => undefined);
  const simulator = createSimulator({ ...DEFAULT_SIMULATOR_OPTIONS, returnBasisPoints: 0 });
  const payouts = createPayoutService({ queue, adapterOf: () => simulator, now: Date.now });
  t = await createTestApp({ database, demo: true, payouts });
  token = (await signIn(t.app, 'rita')).accessToken;
  // the payee page calls without a sign-in
  configureRequest({ getAccessToken: () => null, refresh: async () => false, getActingCustomerId: () => null });
  setFetchForTests(injectFetch(t.app));
}, 120_000);

afterAll(async () => {
  setFetchForTests(null);
  await queue?.stop();
  await t?.close();
});

/** rita's batch of one to Greta (DE, 120.00 EUR), uploaded, submitted and (mode none) approved at once. */
async function sendOne(): Promise<{ paymentId: number; secret: string }> {
  const balances = (await callMethod(t.app, 'balanceInquiry', {}, { token })).body as unknown as { accounts: { account: { accountId: number; currency: string }[] } };
  const eur = balances.accounts.account.find((a) => a.currency === 'EUR')!;
  const file = `beneficiaryName,beneficiaryEmail,beneficiaryCountryCode,amount,description\r\nGreta Gruber,${EMAIL},DE,120.00,Consulting November\r\n`;
  const key = () => `k-${Math.random().toString(36).slice(2)}`;
  const uploaded = await callMultipart(
    t.app,
    'globalPayUpload',
    { accountId: eur.accountId, batchName: 'November', ignoreIdenticalBatch: true },
    [{ field: 'file', fileName: 'global.csv', content: file, mime: 'text/csv' }],
    {
      token,
      idempotencyKey: key(),
    },
  );
  expect(uploaded.body.responseCode, JSON.stringify(uploaded.body)).toBe('00');
  const submitted = await callMethod(t.app, 'globalPayBatchSubmit', { batchId: uploaded.body.batchId }, { token, headers: { 'idempotency-key': key() } });
  expect(submitted.body, JSON.stringify(submitted.body)).toMatchObject({ responseCode: '00', approveType: 'none' });
  for (const mail of await mailsTo(EMAIL)) {
    const found = /\/receive\/(\d+)\?s=([A-Za-z0-9_-]+)/.exec(mail.body);
    if (found) return { paymentId: Number(found[1]), secret: found[2]! };
  }
  throw new Error('no link mailed');
}

async function mailedCode(): Promise<string> {
  const [mail] = await mailsTo(EMAIL);
  return /Your confirmation code: (\d{6})/.exec(mail?.subject ?? '')![1]!;
}

describe('the payee page on the real platform', () => {
  it('takes a payment by card: details, country, method, the form, the e-mailed code, on its way', async () => {
    const link = await sendOne();
    const user = userEvent.setup();
    render(
      <I18nProvider i18n={i18n}>
        <ReceivePage input={link} />
      </I18nProvider>,
    );
    await screen.findByRole('heading', { level: 1, name: 'You have a payment' });
    const summary = document.querySelector('dl')!.textContent!.replace(/[\u00a0\u202f]/g, ' ');
    expect(summary).toContain('Greta Gruber');
    expect(summary).toContain('€120.00');
    expect(summary).toContain('Consulting November');
    expect(summary).toContain('Paid by the sender');
    await expectNoAxeViolations('the details');

    await user.click(screen.getByRole('button', { name: 'Take the money' }));
    await screen.findByRole('heading', { level: 1, name: 'Where do you want the money?' });
    await expectNoAxeViolations('the country');
    await user.selectOptions(screen.getByLabelText('Country'), 'DE');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await screen.findByRole('heading', { level: 1, name: 'How do you want to be paid?' });
    await expectNoAxeViolations('the method');
    await user.click(screen.getByRole('radio', { name: 'To a card' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await screen.findByRole('heading', { level: 1, name: 'Your details' });
    expect(within(screen.getByRole('region', { name: 'Your recent payments' })).getByText('You have taken no payment before.')).toBeTruthy();
    await user.type(screen.getByLabelText('Name on the card'), 'Greta Gruber');
    await user.type(screen.getByLabelText('Card number'), '4111111111111112');
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));
    // the platform's check of the card number, on its field
    await waitFor(() => expect(screen.getByLabelText('Card number').getAttribute('aria-invalid')).toBe('true'));
    await expectNoAxeViolations('the form with a refused field');
    await user.clear(screen.getByLabelText('Card number'));
    await user.type(screen.getByLabelText('Card number'), '4111 1111 1111 1111');
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));

    await screen.findByRole('heading', { level: 1, name: 'Enter the code' });
    expect(screen.getByText(/^We sent a code to .*\*.*\. Enter it to confirm where the money goes\.$/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send a new code' }) as HTMLButtonElement).disabled).toBe(true);
    const code = await mailedCode();
    await user.type(screen.getByLabelText('Code'), code === '000000' ? '111111' : '000000');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByLabelText('Code').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('The code is wrong (4 tries left).')).toBeTruthy();
    await expectNoAxeViolations('the code with a wrong one');
    await user.clear(screen.getByLabelText('Code'));
    await user.type(screen.getByLabelText('Code'), code);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    await screen.findByRole('heading', { level: 1, name: 'On its way' });
    expect(screen.getByRole('status').textContent).toContain('The money is on its way to you.');
    await expectNoAxeViolations('on its way');
    const [row] = await t.db.select({ state: globalPayments.state, payout: globalPayments.payoutTransferId }).from(globalPayments).where(eq(globalPayments.id, link.paymentId));
    expect(row!.payout).not.toBeNull();
  });

  it('a wrong secret: the page says the payment is not found', async () => {
    const link = await sendOne();
    render(
      <I18nProvider i18n={i18n}>
        <ReceivePage input={{ paymentId: link.paymentId, secret: 'W'.repeat(32) }} />
      </I18nProvider>,
    );
    await screen.findByRole('heading', { level: 1, name: 'Payment not found' });
    expect(screen.getByRole('alert').textContent).toBe('We could not find this payment. Check that you opened the whole link from the e-mail.');
  });

  it('a link cut short (no secret, as the route passes it): not found either', async () => {
    render(
      <I18nProvider i18n={i18n}>
        <ReceivePage input={{ paymentId: 0, secret: '' }} />
      </I18nProvider>,
    );
    await screen.findByRole('heading', { level: 1, name: 'Payment not found' });
  });
});
