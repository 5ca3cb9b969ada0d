/**
 * /transfer/approved (document 2 §4 "Business approvals", §7; issue 17 item 6) through the real
 * route tree, only fetch replaced: the company's waiting payments and batch listed for its owner
 * (linked in the navigation; not for a personal user); chosen payments declined at once; chosen
 * payments approved with the checker's own approval (authenticator) through the one approval
 * chart, a wrong code worded from its VF code, then confirmed; approved or declined on the checker's
 * phone (push: the decided payments' status read); a batch approved as a whole; a
 * refusal (the checker's own payment) shown in the customer's words with nothing decided.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BusinessTransactionRequest } from '../../api/business-approvals.ts';
import { makeCustomer } from '../model/support.ts';
import { expectNoAxeViolations, platform, renderApp, useHarness } from './history-harness.tsx';

const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');
const owner = makeCustomer({ customerType: 'business', businessName: 'Northwind Trading Ltd', firstName: 'Olivia', lastName: 'Owens', login: 'owner@northwind.test', userType: 2 });

const base = {
  batchId: null,
  fee: '0.00',
  currency: 'EUR',
  fromAccountId: 201,
  toAccountId: null,
  count: null,
  total: null,
  initiatorName: 'Ivy Initiator',
  createdAt: '2026-11-20T10:00:00.000Z',
  expiresAt: '2026-11-27T10:00:00.000Z',
} as const;
const RITA: BusinessTransactionRequest = { ...base, kind: 'transfer', transactionId: 51, transferKind: 'p2p', amount: '10.00', payeeName: 'Rita Rossi', toEmail: 'rita@demo.test' };
const TOM: BusinessTransactionRequest = { ...base, kind: 'transfer', transactionId: 52, transferKind: 'p2p', amount: '7.50', payeeName: 'Tom Tamm', toEmail: 'tom@demo.test' };
const BATCH: BusinessTransactionRequest = {
  ...base,
  kind: 'batch',
  transactionId: 53,
  batchId: 9,
  transferKind: 'mass',
  amount: '30.00',
  payeeName: null,
  toEmail: null,
  count: 3,
  total: '30.00',
};

let waiting: BusinessTransactionRequest[] = [];
const decided = (ids: number[], status: 'declined' | 'approved') => {
  waiting = waiting.filter((r) => !ids.includes(r.transactionId));
  return { responseCode: '00', status, approvalId: null, approveType: 'none', approvalSentTo: null, transactionIds: ids, expiresAt: null };
};
useHarness(() => {
  waiting = [RITA, TOM, BATCH];
  return {
    getCustomerInfo: () => ({ responseCode: '00', customer: owner }),
    businessTransactionRequestList: () => ({ responseCode: '00', requests: waiting, total: waiting.length, pageNumber: 1, pageSize: 50 }),
    businessTransactionRequestApprove: (body) => decided(body.transactionIds as number[], body.declined ? 'declined' : 'approved'),
    businessMassApprove: (body) => decided([53], body.declined ? 'declined' : 'approved'),
  };
});

/** transferStatus's answer for a decided payment */
const statusAnswer = (transactionId: number, status: 'posted' | 'rejected') => ({
  responseCode: '00',
  transactionId,
  status,
  approveType: 'none',
  approvalSentTo: null,
  fee: '0.00',
  feeCurrency: 'EUR',
  amount: '10.00',
  currency: 'EUR',
  toAmount: '10.00',
  toCurrency: 'EUR',
  rate: '1',
  expiresAt: '2026-11-27T10:00:00.000Z',
  scheduleId: null,
});
const rowOf = (text: string) => screen.getAllByRole('row').find((r) => within(r).queryAllByText(text, { exact: false }).length > 0)!;

describe('/transfer/approved', () => {
  it('lists the waiting payments and the batch for the owner, linked in the navigation, without axe violations', async () => {
    await renderApp('/transfer/approved', { signedIn: owner });
    await screen.findByRole('heading', { level: 1, name: 'Payments to approve' });
    await screen.findByRole('table', { name: /^Payments to approve, page 1 of 1/ });
    const rita = plain(rowOf('Rita Rossi').textContent);
    expect(rita).toContain('€10.00');
    expect(rita).toContain('Ivy Initiator');
    expect(rita).toContain('Account 201');
    expect(plain(rowOf('Batch of 3 payments').textContent)).toContain('€30.00');
    expect(within(rowOf('Batch of 3 payments')).getByRole('button', { name: 'Approve the batch of 3 payments' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Approve chosen (0)' }).hasAttribute('disabled')).toBe(true);
    expect((await screen.findByRole('link', { name: 'Payments to approve' })).getAttribute('aria-current')).toBe('page');
    await expectNoAxeViolations('the list');
    // the first render loads the route's chunks and catalog: slow on a loaded machine
  }, 60_000);

  it('declines the chosen payments at once and says so', async () => {
    const user = userEvent.setup();
    await renderApp('/transfer/approved', { signedIn: owner });
    await user.click(await screen.findByRole('checkbox', { name: 'Choose the payment to Rita Rossi (rita@demo.test)' }));
    await user.click(screen.getByRole('checkbox', { name: 'Choose the payment to Tom Tamm (tom@demo.test)' }));
    await user.click(screen.getByRole('button', { name: 'Decline chosen (2)' }));
    await screen.findByRole('heading', { level: 1, name: 'Payments declined' });
    expect(platform.bodies('businessTransactionRequestApprove')).toEqual([{ transactionIds: [51, 52], declined: true }]);
    expect(screen.getByText(/^2 declined: the money held for them is available again/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Back to the payments to approve' }));
    await screen.findByRole('heading', { level: 1, name: 'Payments to approve' });
    await waitFor(() => expect(screen.queryByText('Rita Rossi', { exact: false })).toBeNull());
  });

  it('approves the chosen payments with the checker’s own authenticator code: a wrong code is worded, the right one confirms', async () => {
    const user = userEvent.setup();
    platform.handlers.businessTransactionRequestApprove = (body) => ({
      responseCode: '00',
      status: 'approvalNeeded',
      approvalId: 77,
      approveType: 'otp',
      approvalSentTo: null,
      transactionIds: body.transactionIds,
      expiresAt: new Date(Date.now() + 900_000).toISOString(),
    });
    let tries = 0;
    platform.handlers.businessApprovalConfirm = (body) =>
      ++tries === 1
        ? {
            responseCode: 'VF',
            responseDescription: 'Invalid request',
            validationErrors: [{ param: 'approvalCode', description: 'The code is wrong (4 tries left)', code: 'approvalCodeWrong', params: { triesLeft: 4 } }],
          }
        : { ...decided([51], 'approved'), approvalId: body.approvalId, approveType: 'otp' };
    await renderApp('/transfer/approved', { signedIn: owner });
    await user.click(await screen.findByRole('checkbox', { name: 'Choose the payment to Rita Rossi (rita@demo.test)' }));
    await user.click(screen.getByRole('button', { name: 'Approve chosen (1)' }));
    await screen.findByRole('heading', { level: 1, name: 'Approve the payments' });
    const code = await screen.findByRole('textbox');
    await user.type(code, '000000');
    await user.keyboard('{Enter}');
    await screen.findByText('The code is wrong (4 tries left).');
    await user.clear(code);
    await user.type(code, '123456');
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { level: 1, name: 'Payments approved' });
    expect(platform.bodies('businessTransactionRequestApprove')).toEqual([{ transactionIds: [51], declined: false }]);
    expect(platform.bodies('businessApprovalConfirm')).toEqual([
      { approvalId: 77, approvalCode: '000000' },
      { approvalId: 77, approvalCode: '123456' },
    ]);
  });

  it('approves on the checker’s phone (push): no code asked, the decided payments’ status tells the outcome', async () => {
    const user = userEvent.setup();
    platform.handlers.businessTransactionRequestApprove = (body) => ({
      responseCode: '00',
      status: 'approvalNeeded',
      approvalId: 78,
      approveType: 'push',
      approvalSentTo: null,
      transactionIds: body.transactionIds,
      expiresAt: new Date(Date.now() + 900_000).toISOString(),
    });
    // answered on the phone: both payments posted
    platform.handlers.transferStatus = (body) => statusAnswer(body.trxid as number, 'posted');
    await renderApp('/transfer/approved', { signedIn: owner });
    await user.click(await screen.findByRole('checkbox', { name: 'Choose the payment to Rita Rossi (rita@demo.test)' }));
    await user.click(screen.getByRole('checkbox', { name: 'Choose the payment to Tom Tamm (tom@demo.test)' }));
    await user.click(screen.getByRole('button', { name: 'Approve chosen (2)' }));
    await screen.findByRole('heading', { level: 1, name: 'Payments approved' });
    expect(platform.bodies('transferStatus')[0]).toEqual({ trxid: 51 });
    expect(platform.bodies('businessApprovalConfirm')).toEqual([]);
  });

  it('declined on the checker’s phone: says the payments are declined', async () => {
    const user = userEvent.setup();
    platform.handlers.businessTransactionRequestApprove = (body) => ({
      responseCode: '00',
      status: 'approvalNeeded',
      approvalId: 79,
      approveType: 'push',
      approvalSentTo: null,
      transactionIds: body.transactionIds,
      expiresAt: new Date(Date.now() + 900_000).toISOString(),
    });
    platform.handlers.transferStatus = (body) => statusAnswer(body.trxid as number, 'rejected');
    await renderApp('/transfer/approved', { signedIn: owner });
    await user.click(await screen.findByRole('checkbox', { name: 'Choose the payment to Tom Tamm (tom@demo.test)' }));
    await user.click(screen.getByRole('button', { name: 'Approve chosen (1)' }));
    await screen.findByRole('heading', { level: 1, name: 'The payments were not approved' });
    await screen.findByText('You declined them on your phone: they are declined, and the money held for them is available again.');
    expect(platform.bodies('transferStatus')[0]).toEqual({ trxid: 52 });
  });

  it('approves a batch as a whole', async () => {
    const user = userEvent.setup();
    await renderApp('/transfer/approved', { signedIn: owner });
    await user.click(await screen.findByRole('button', { name: 'Approve the batch of 3 payments' }));
    await screen.findByRole('heading', { level: 1, name: 'Payments approved' });
    expect(platform.bodies('businessMassApprove')).toEqual([{ batchId: 9, declined: false }]);
  });

  it('shows a refusal in the customer’s words and decides nothing', async () => {
    const user = userEvent.setup();
    platform.handlers.businessTransactionRequestApprove = () => ({
      responseCode: 'VF',
      responseDescription: 'Invalid request',
      validationErrors: [{ param: 'transactionIds', description: 'includes a payment you initiated', code: 'selfApproval', params: {} }],
    });
    await renderApp('/transfer/approved', { signedIn: owner });
    await user.click(await screen.findByRole('checkbox', { name: 'Choose the payment to Tom Tamm (tom@demo.test)' }));
    await user.click(screen.getByRole('button', { name: 'Approve chosen (1)' }));
    await screen.findByText('You initiated this payment: another user of the company must approve or decline it.');
    expect(screen.getByRole('heading', { level: 1, name: 'Payments to approve' })).toBeTruthy();
    expect(rowOf('Tom Tamm')).toBeTruthy();
  });

  it('is not in the navigation of a personal customer', async () => {
    platform.handlers.getCustomerInfo = () => ({ responseCode: '00', customer: makeCustomer() });
    await renderApp('/transfer/preapproved-payments', { signedIn: makeCustomer() });
    await screen.findByRole('link', { name: 'Pre-approved payments' });
    expect(screen.queryByRole('link', { name: 'Payments to approve' })).toBeNull();
  });
});
