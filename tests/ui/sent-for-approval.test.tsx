/**
 * Maker-checker's done screens (issue 17 item 6): a mass batch, a global-pay batch and a card order
 * that a company's right-3 user made wait for the company's checker, and their done screens say so
 * with the one title and note the single transfer's done screen shows (sent-for-approval.tsx), linking
 * to the history, where it shows as pending; never "paying", "submitted" or "card applied for". Each view is driven by its
 * machine with answers given here (the platform's, as business-approvals.test.ts has them).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { testAccount } from '../account-fixture.ts';
import type { Batch } from '../../api/mass.ts';
import {
  massTransferMachine,
  type MassCheckResult,
  type MassCreated,
  type MassCreateResult,
  type MassEvent,
  type MassLoadResult,
  type MassPreview,
  type MassUploadRequest,
} from '../../machines/mass-transfer/mass-transfer.machine.ts';
import type { MassKind } from '../../api/mass.ts';
import {
  globalPayBatchMachine,
  type GlobalBatch,
  type GlobalPayment,
  type GlobalPaySubmitted,
  type LoadResult as GlobalPayLoadResult,
  type QuoteResult,
  type SubmitResult,
  type UploadRequest,
  type UploadResult,
} from '../../machines/global-pay-batch/global-pay-batch.machine.ts';
import { approvalMachine, type ApprovalEvent, type ApproveResult } from '../../machines/approval/approval.machine.ts';
import { GlobalPayBatchView } from '../../src/features/global-pay/batch-view.tsx';
import { MassTransferView } from '../../src/features/mass/mass-view.tsx';
import { CardStatus, type CardProduct } from '../../api/cards.ts';
import {
  cardApplicationMachine,
  type ApplyResult,
  type CardApplied,
  type CardApplyRequest,
  type CardStatusResult,
  type LoadResult as CardLoadResult,
} from '../../machines/card-application/card-application.machine.ts';
import { ApplyView } from '../../src/features/cards/apply-view.tsx';
import { ensureAppCatalog, i18n } from '../../src/lib/i18n.ts';

afterEach(() => cleanup());

const account = testAccount;

/** The title and note of a result waiting for the company's checker, with its link. */
async function expectSentForApproval() {
  await screen.findByRole('heading', { level: 1, name: 'Sent for approval' });
  expect(screen.getByText(/waits for an approval by a user of the company with full rights: the money has not gone yet/)).toBeTruthy();
  expect(screen.getByRole('link', { name: 'transaction history' }).getAttribute('href')).toBe('/history');
}

describe('a mass batch of a right-3 user', () => {
  const PREVIEW: MassPreview = {
    rows: [{ line: 2, payee: 'ann@demo.test', countryCode: null, amount: '25.00', fee: '0.25' }],
    count: 1,
    currency: 'EUR',
    total: '25.00',
    fee: '0.25',
    grandTotal: '25.25',
  };
  // parked at once (no approval mode): status pending, approve type none
  const CREATED: MassCreated = {
    ...PREVIEW,
    batchId: 77,
    transactionId: 9100,
    status: 'pending',
    approveType: 'none',
    approvalSentTo: null,
    expiresAt: '2026-12-04T10:00:00.000Z',
  };
  const batch = (status: Batch['status']): Batch => ({
    id: 77,
    dateTime: '2026-11-27T10:00:00.000Z',
    kind: 'p2p',
    status,
    fileName: 'pasted',
    accountId: 101,
    currency: 'EUR',
    count: 1,
    doneCount: 0,
    failedCount: 0,
    progress: 0,
    total: '25.00',
    fee: '0.25',
    transactionId: 9100,
  });

  it('says it was sent for approval while the batch waits for the checker, not that it is being paid', async () => {
    await ensureAppCatalog();
    const logic = massTransferMachine.provide({
      actors: {
        loadAccounts: fromPromise<MassLoadResult, { kind: MassKind }>(async () => ({ ok: true, accounts: [account(101, '1500.00')] })),
        checkBatch: fromPromise<MassCheckResult, MassUploadRequest>(async () => ({ ok: true, preview: PREVIEW })),
        createBatch: fromPromise<MassCreateResult, MassUploadRequest & { idempotencyKey: string }>(async () => ({ ok: true, created: CREATED })),
        watchBatch: fromCallback<MassEvent, { batchId: number }>(({ sendBack }) => {
          sendBack({ type: 'BATCH.PROGRESS', batch: batch('awaitingApproval') });
          return () => undefined;
        }),
      },
    });
    const actor = createActor(logic, { input: { kind: 'p2p' } }).start();
    render(
      <I18nProvider i18n={i18n}>
        <MassTransferView actor={actor} batchesLink={<a href="/history/batch-transfers">See your batches</a>} />
      </I18nProvider>,
    );
    await waitFor(() => expect(actor.getSnapshot().value).toBe('editing'));
    actor.send({ type: 'FORM.SOURCE', source: 'text' });
    actor.send({ type: 'FORM.TEXT', text: 'ann@demo.test, 25.00' });
    actor.send({ type: 'BATCH.CHECK' });
    await waitFor(() => expect(actor.getSnapshot().value).toBe('previewing'));
    actor.send({ type: 'BATCH.CONFIRM' });
    await expectSentForApproval();
    expect(screen.queryByText(/your payments are being made/i)).toBeNull();
    expect(screen.getByRole('link', { name: 'See your batches' })).toBeTruthy();
    actor.stop();
  });
});

describe('a global-pay batch of a right-3 user', () => {
  const PAYMENT: GlobalPayment = {
    id: 501,
    line: 2,
    amount: '200.00',
    description: '',
    beneficiaryType: 'individual',
    beneficiaryName: 'Erika Mustermann',
    beneficiaryEmail: 'erika@example.com',
    beneficiaryCountryCode: 'DE',
    feeShare: 'sender',
    paymentMethods: [{ name: 'wire', forbidden: false }],
    status: 'draft',
    heldFee: '0.00',
    expiresAt: null,
    transactionId: null,
  };
  const BATCH: GlobalBatch = {
    batchId: 55,
    name: 'March',
    accountId: 101,
    currency: 'EUR',
    status: 'draft',
    createdDate: '2026-11-27T09:00:00.000Z',
    submittedDate: null,
    expireDays: 14,
    count: 1,
    total: '200.00',
    fee: '0.00',
    transactionId: null,
    payments: [PAYMENT],
  };
  const submitted = (approveType: 'none' | 'otp'): GlobalPaySubmitted => ({
    transactionId: 9200,
    status: 'pending',
    approveType,
    approvalSentTo: null,
    amount: '200.00',
    fee: '5.00',
    currency: 'EUR',
    expiresAt: '2026-12-04T10:00:00.000Z',
  });

  /** Uploads and submits the batch; the submission answers `answer`, the initiator's own approval (otp) `approved`. */
  async function submit(answer: GlobalPaySubmitted, approved?: ApproveResult) {
    await ensureAppCatalog();
    const logic = globalPayBatchMachine.provide({
      actors: {
        loadAccounts: fromPromise<GlobalPayLoadResult>(async () => ({ ok: true, accounts: [account(101, '1500.00')] })),
        uploadBatch: fromPromise<UploadResult, UploadRequest>(async () => ({ ok: true, batch: BATCH })),
        quoteBatch: fromPromise<QuoteResult, { accountId: number; payments: GlobalPayment[] }>(async () => ({ ok: true, quote: { fee: '5.00', total: '205.00' } })),
        submitBatch: fromPromise<SubmitResult, { batchId: number; idempotencyKey: string }>(async () => ({ ok: true, submitted: answer })),
        approval: approvalMachine.provide({
          actors: {
            approveTransfer: fromPromise<ApproveResult, { transactionId: number; code: string; idempotencyKey: string }>(async () => approved!),
            watchTransfer: fromCallback<ApprovalEvent, { transactionId: number }>(() => () => undefined),
          },
        }),
      },
    });
    const actor = createActor(logic).start();
    render(
      <I18nProvider i18n={i18n}>
        <GlobalPayBatchView actor={actor} batchesLink={<a href="/history/batch-transfers">See your batches</a>} />
      </I18nProvider>,
    );
    await waitFor(() => expect(actor.getSnapshot().value).toBe('form'));
    actor.send({ type: 'FORM.ACCOUNT', accountId: 101 });
    actor.send({ type: 'FORM.NAME', batchName: 'March' });
    actor.send({ type: 'FORM.FILE', file: { name: 'global.csv', content: new Blob(['x']) } });
    actor.send({ type: 'UPLOAD' });
    await waitFor(() => expect(JSON.stringify(actor.getSnapshot().value)).toContain('draft'));
    actor.send({ type: 'DRAFT.CONTINUE' });
    await waitFor(() => expect(JSON.stringify(actor.getSnapshot().value)).toContain('ready'));
    actor.send({ type: 'SUBMIT' });
    return actor;
  }

  it('parked at once (no approval mode): says it was sent for approval, not submitted', async () => {
    const actor = await submit(submitted('none'));
    await expectSentForApproval();
    expect(screen.queryByText('The batch was submitted.')).toBeNull();
    actor.stop();
  });

  it('approved by its initiator’s own code, it waits for the checker: sent for approval', async () => {
    const actor = await submit(submitted('otp'), { ok: true, status: 'pending' });
    await waitFor(() => expect(JSON.stringify(actor.getSnapshot().value)).toContain('approving'));
    const code = await screen.findByRole('textbox');
    const user = userEvent.setup();
    await user.type(code, '123456');
    await user.keyboard('{Enter}');
    await expectSentForApproval();
    expect(screen.queryByText('The batch was submitted.')).toBeNull();
    actor.stop();
  });

  it('approved by the own code of a user who pays without a checker: "submitted"', async () => {
    const actor = await submit(submitted('otp'), { ok: true, status: 'processing' });
    const code = await screen.findByRole('textbox');
    const user = userEvent.setup();
    await user.type(code, '123456');
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { level: 1, name: 'Batch submitted' });
    expect(screen.getByText('The batch was submitted.')).toBeTruthy();
    expect(screen.queryByText(/waits for an approval by a user of the company/)).toBeNull();
    actor.stop();
  });

  it('submitted by a user who pays at once: still "submitted"', async () => {
    const actor = await submit({ ...submitted('none'), status: 'processing' });
    await screen.findByRole('heading', { level: 1, name: 'Batch submitted' });
    expect(screen.getByText('The batch was submitted.')).toBeTruthy();
    actor.stop();
  });
});

describe('a card ordered for a company by a right-3 user', () => {
  const VIRTUAL: CardProduct = {
    type: 2030,
    kind: 'virtual',
    subType: 'PREPAID',
    isVirtual: true,
    currencyCode: 'EUR',
    cardBrand: 'VISA',
    fees: { annual: 0, issue: 2, monthly: 0, currency: 'EUR' },
    shippingOptions: [],
    limits: { perPayment: '1000.00', perDay: '2000.00' },
    disabledReasons: [],
  };
  const applied = (accountStatusId: number): CardApplied => ({
    accountId: 700,
    accountStatusId,
    transactionId: 9300,
    status: accountStatusId === CardStatus.pendingApproval ? 'pending' : 'posted',
    approveType: 'none',
    approvalSentTo: null,
    fee: '0.00',
    feeCurrency: 'EUR',
    amount: '2.00',
    currency: 'EUR',
    expiresAt: '2026-12-04T10:00:00.000Z',
  });

  async function apply(answer: CardApplied, statusAfter: number) {
    await ensureAppCatalog();
    const logic = cardApplicationMachine.provide({
      actors: {
        loadSetup: fromPromise<CardLoadResult>(async () => ({ ok: true, countryCode: 'IT', products: [VIRTUAL], accounts: [account(101, '1500.00')], addresses: [] })),
        applyForCard: fromPromise<ApplyResult, { request: CardApplyRequest; idempotencyKey: string }>(async () => ({ ok: true, applied: answer })),
        readCardStatus: fromPromise<CardStatusResult, { accountId: number }>(async () => ({ ok: true, accountStatusId: statusAfter })),
      },
    });
    const actor = createActor(logic).start();
    render(
      <I18nProvider i18n={i18n}>
        <ApplyView actor={actor} />
      </I18nProvider>,
    );
    await waitFor(() => expect(actor.getSnapshot().value).toBe('choosingProduct'));
    actor.send({ type: 'PRODUCT.CHOOSE', productType: VIRTUAL.type });
    for (let i = 0; i < 4 && !actor.getSnapshot().matches('reviewing'); i++) {
      if (actor.getSnapshot().matches('feeAccount')) actor.send({ type: 'FEE_ACCOUNT.CHOOSE', accountId: 101 });
      actor.send({ type: 'STEP.CONTINUE' });
    }
    expect(actor.getSnapshot().value).toBe('reviewing');
    actor.send({ type: 'SUBMIT' });
    return actor;
  }

  it('its fee waits for the company’s checker: sent for approval, not "card applied for"', async () => {
    const actor = await apply(applied(CardStatus.pendingApproval), CardStatus.pendingApproval);
    await expectSentForApproval();
    expect(screen.queryByRole('heading', { name: 'Card applied for' })).toBeNull();
    actor.stop();
  });

  it('paid at once by a user who needs no checker: the card is ready', async () => {
    const actor = await apply(applied(CardStatus.active), CardStatus.active);
    await screen.findByRole('heading', { level: 1, name: 'Card applied for' });
    expect(screen.getByText('Your virtual card is ready.')).toBeTruthy();
    actor.stop();
  });
});
