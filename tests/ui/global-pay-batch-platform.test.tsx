/**
 * The global-pay sender pages against the REAL platform (PGlite, the job queue and the rails'
 * simulator): only the transport is swapped (fetch → app.inject); the view, the global-pay-batch
 * statechart, its actors (the multipart upload, the edits, the fee quote, the submission, the
 * cancel) and the request wrapper are the app's own. rita (approval mode none) uploads a file
 * already uploaded once ('92': asked, then sent again), edits the draft (removes and restores a
 * payment, sets a fee side, forbids a method), reads the summary with the fees to hold, submits
 * (each beneficiary e-mailed), and cancels the batch (every payment not taken comes back).
 *
 * Runs in jsdom (typing), in the ui-platform project (its setup, tests/ui/platform-seams.ts, puts
 * in the environment's seams the platform needs there).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { eq } from 'drizzle-orm';
import { createActor } from 'xstate';
import { outbox } from '../../server/modules/platform/platform.tables.ts';
import { globalPayBatches } from '../../server/modules/transfers/global-pay.tables.ts';
import { startJobQueue, type JobQueue } from '../../server/db/job-queue.ts';
import { createPayoutService } from '../../server/modules/rails/payouts.service.ts';
import { createSimulator, DEFAULT_SIMULATOR_OPTIONS } from '../../server/modules/rails/simulator.ts';
import { RAIL_QUEUES } from '../../server/modules/rails/workers.ts';
import { createGlobalPayLogic } from '../../src/features/global-pay/batch-actors.ts';
import { GlobalPayBatchView } from '../../src/features/global-pay/batch-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { callMethod, callMultipart, createTestApp, createTestDatabase, signIn, type TestApp } from '../server/harness.ts';
import { injectFetch } from './platform-transport.ts';

configure({ asyncUtilTimeout: 15_000 });

let t: TestApp;
let queue: JobQueue;
let token = '';
let eurAccountId = 0;
const FILE = [
  'beneficiaryName,beneficiaryEmail,beneficiaryCountryCode,amount,description,feeShare',
  'Erika Mustermann,erika.gp@example.com,DE,200.00,Invoice 1,sender',
  'Hans Meier,hans.gp@example.com,DE,50.00,Invoice 2,beneficiary',
  'Jane Roe,jane.gp@example.com,DE,30.00,Invoice 3,',
  '',
].join('\r\n');

beforeAll(async () => {
  const database = await createTestDatabase({ demoData: 'without-history' });
  queue = await startJobQueue(database.open, RAIL_QUEUES, () => undefined);
  const simulator = createSimulator({ ...DEFAULT_SIMULATOR_OPTIONS, returnBasisPoints: 0 });
  const payouts = createPayoutService({ queue, adapterOf: () => simulator, now: Date.now });
  t = await createTestApp({ database, demo: true, payouts });
  token = (await signIn(t.app, 'rita')).accessToken;
  configureRequest({ getAccessToken: () => token, refresh: async () => false, getActingCustomerId: () => null });
  setFetchForTests(injectFetch(t.app));
  const balances = (await callMethod(t.app, 'balanceInquiry', {}, { token })).body as unknown as { accounts: { account: { accountId: number; currency: string }[] } };
  eurAccountId = balances.accounts.account.find((a) => a.currency === 'EUR')!.accountId;
  // the same file uploaded once before: the page's upload is answered '92'
  const before = await callMultipart(
    t.app,
    'globalPayUpload',
    { accountId: eurAccountId, batchName: 'Earlier' },
    [{ field: 'file', fileName: 'global.csv', content: FILE, mime: 'text/csv' }],
    {
      token,
      idempotencyKey: `k-${Math.random().toString(36).slice(2)}`,
    },
  );
  expect(before.body.responseCode, JSON.stringify(before.body)).toBe('00');
}, 120_000);

afterAll(async () => {
  setFetchForTests(null);
  await queue?.stop();
  await t?.close();
});

const rowOf = (name: string) =>
  within(screen.getByRole('table', { name: 'Payments in this batch' }))
    .getByText(name)
    .closest('tr')!;
const cells = (name: string) =>
  within(rowOf(name))
    .getAllByRole('cell')
    .map((c) => c.textContent!.replace(/[\u00a0\u202f]/g, ' '));

describe('the global-pay sender pages on the real platform', () => {
  it('uploads (the same file: asked), edits the draft, sums it up, submits and cancels', async () => {
    const user = userEvent.setup();
    const actor = createActor(createGlobalPayLogic({ getAccessToken: () => token })).start();
    render(
      <I18nProvider i18n={i18n}>
        <GlobalPayBatchView actor={actor} />
      </I18nProvider>,
    );
    await screen.findByRole('heading', { level: 1, name: 'Global pay' });
    const from = (await screen.findByLabelText('Pay from')) as HTMLSelectElement;
    await user.selectOptions(from, String(eurAccountId));
    await user.type(screen.getByLabelText('Batch name'), 'March');
    await user.upload(screen.getByLabelText('CSV file'), new File([FILE], 'global.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Upload the file' }));

    // '92': asked, then sent again with ignoreIdenticalBatch
    await screen.findByRole('heading', { level: 1, name: 'Upload the same file again?' });
    expect(screen.getByRole('status').textContent).toMatch(/^A batch with the same file was uploaded on .+\.Upload it again as a new batch\?$/);
    await user.click(screen.getByRole('button', { name: 'Upload it again' }));

    await screen.findByRole('heading', { level: 1, name: 'Check the draft batch' });
    expect(screen.getByText(/^March: 3 payments, €280\.00\./)).toBeTruthy();
    // the payee's name with the e-mail under it
    expect(cells('Erika Mustermann').slice(1, 7)).toEqual([
      'Erika Mustermannerika.gp@example.com',
      'DE',
      '€200.00',
      'You',
      expect.stringContaining('International wire (SWIFT)'),
      'Draft',
    ]);
    expect(cells('Hans Meier')[4]).toBe('The payee');

    // remove and restore Jane
    await user.click(screen.getByRole('button', { name: 'Remove the payment to Jane Roe' }));
    await waitFor(() => expect(cells('Jane Roe')[6]).toBe('Removed'));
    expect(within(rowOf('Jane Roe')).getByText('Jane Roe').tagName).toBe('DEL');
    expect(screen.getByText(/^March: 2 payments, €250\.00\./)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Restore the payment to Jane Roe' }));
    await waitFor(() => expect(cells('Jane Roe')[6]).toBe('Draft'));

    // Jane's fee paid by her; wire forbidden for Erika
    await user.click(screen.getByRole('checkbox', { name: 'Select Jane Roe' }));
    await user.click(screen.getByRole('button', { name: 'The payee pays the fee' }));
    await waitFor(() => expect(cells('Jane Roe')[4]).toBe('The payee'));
    await user.click(screen.getByRole('checkbox', { name: 'Select Jane Roe' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Erika Mustermann' }));
    await user.selectOptions(screen.getByLabelText('Payout method'), 'wire');
    await user.click(screen.getByRole('button', { name: 'Forbid the method' }));
    await waitFor(() => expect(cells('Erika Mustermann')[5]).toContain('International wire (SWIFT) (forbidden)'));
    expect(screen.queryAllByRole('alert')).toHaveLength(0);

    // the summary: the fees to hold worked out by the platform's rule
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { level: 1, name: 'Batch summary' });
    await waitFor(() => expect((screen.getByRole('button', { name: 'Submit the batch' }) as HTMLButtonElement).disabled).toBe(false));
    const summary = document.querySelector('dl')!.textContent!.replace(/[\u00a0\u202f]/g, ' ');
    const quoted = /Fees held(€[\d.,]+)Total to hold(€[\d.,]+)$/.exec(summary);
    expect(summary, summary).toMatch(/^BatchMarchPay fromEUR account \d+Payments3Amounts€280\.00Fees paid by the payees2/);
    expect(quoted, summary).not.toBeNull();

    // submitted (approval mode none): the held fee is what the summary said
    await user.click(screen.getByRole('button', { name: 'Submit the batch' }));
    await screen.findByRole('heading', { level: 1, name: 'Batch submitted' });
    const held = [...document.querySelectorAll('dl')].find((dl) => dl.textContent!.includes('Fees held'))!.textContent!.replace(/[\u00a0\u202f]/g, ' ');
    expect(held).toBe(`Payments3Amounts€280.00Fees held${quoted![1]}Total held${quoted![2]}`);
    const mails = await t.db.select().from(outbox).where(eq(outbox.recipient, 'erika.gp@example.com'));
    expect(mails.some((m) => /\/receive\/\d+\?s=/.test(m.body))).toBe(true);

    // canceled: every payment not taken comes back
    await user.click(screen.getByRole('button', { name: 'Cancel the batch' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Cancel the batch?' })).getByRole('button', { name: 'Yes, cancel the batch' }));
    await screen.findByRole('heading', { level: 1, name: 'Batch canceled' });
    const batchId = actor.getSnapshot().context.batch!.batchId;
    const [row] = await t.db.select({ state: globalPayBatches.state }).from(globalPayBatches).where(eq(globalPayBatches.id, batchId));
    expect(row!.state).toBe('canceled');
    actor.stop();
  });
});
