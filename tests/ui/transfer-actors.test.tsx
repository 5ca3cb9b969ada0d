/**
 * The transfer and approval machines' real actors (src/features/transfers/actors.ts) over the
 * real request wrapper, with only fetch replaced: the Idempotency-Key of money-moving calls (sent,
 * kept for a retry, refused when missing), how answers become machine results (VF on fields,
 * wrong codes, no answer), which queries a transfer refreshes, and the push wait (the live event
 * and the slow status poll, both read through transferStatus).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { assign, createActor, setup, toPromise, type AnyActorLogic } from 'xstate';
import { IDEMPOTENCY_KEY_HEADER } from '../../api/transfers.ts';
import type { ApprovalEvent } from '../../machines/approval/approval.machine.ts';
import { newIdempotencyKey } from '../../machines/approval/idempotency-key.ts';
import { transferRequest, emptyForm } from '../../machines/transfer/transfer.rules.ts';
import { createApprovalActors, createTransferActors, TRANSFER_STATUS_POLL_MS } from '../../src/features/transfers/actors.ts';
import type { PushOptions } from '../../src/lib/push-client.ts';
import { callMethod, setFetchForTests } from '../../src/lib/request.ts';
import { methodBody } from './method-body.ts';

interface Sent {
  method: string;
  body: Record<string, unknown>;
  key: string | null;
}
let sent: Sent[];
let answers: Record<string, (body: Record<string, unknown>) => unknown>;

const ok = (fields: Record<string, unknown>) => ({ responseCode: '00', ...fields });
const transferResult = (over: Record<string, unknown> = {}) =>
  ok({
    transactionId: 77,
    status: 'pending',
    approveType: 'sms',
    approvalSentTo: '+370 *** **12',
    fee: '0.25',
    feeCurrency: 'EUR',
    amount: '10.00',
    currency: 'EUR',
    toAmount: '10.00',
    toCurrency: 'EUR',
    rate: '1',
    expiresAt: '2026-11-24T10:00:00.000Z',
    scheduleId: null,
    ...over,
  });

beforeEach(() => {
  sent = [];
  answers = {};
  setFetchForTests(async (input, init) => {
    const method = String(input).split('?')[1] ?? '';
    const body = methodBody(method, init);
    const key = new Headers(init?.headers).get(IDEMPOTENCY_KEY_HEADER);
    sent.push({ method, body, key });
    const answer = answers[method];
    if (!answer) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(answer(body)), { status: 200, headers: { 'content-type': 'application/json' } });
  });
});
afterEach(() => {
  setFetchForTests(null);
  vi.useRealTimers();
});

/** Runs the watcher as a machine's child (its sendBack goes to the parent) and collects what it reports. */
function watch(logic: AnyActorLogic) {
  const collector = setup({ types: { context: {} as { got: ApprovalEvent[] }, events: {} as ApprovalEvent }, actors: { watchTransfer: logic } }).createMachine({
    context: { got: [] },
    invoke: { src: 'watchTransfer', input: { transactionId: 77 } },
    on: { 'TRANSFER.SETTLED': { actions: assign(({ context, event }) => ({ got: [...context.got, event] })) } },
  });
  const actor = createActor(collector).start();
  return { got: () => actor.getSnapshot().context.got, stop: () => actor.stop() };
}

const run = <T,>(logic: AnyActorLogic, input: unknown) => toPromise(createActor(logic, { input }).start()) as Promise<T>;

const form = { ...emptyForm(), fromAccountId: 101, amount: '10,5', payeeEmail: ' Bob@Demo.test ', note: ' Dinner ' };
const eur = { accountId: 101, type: 1001, subType: null, accountStatusId: 2, currency: 'EUR', balance: '50', accountBalanceMin: '0', pendingAmount: '0', customerId: 1, settlementAccountId: null, cardIsVirtual: null, cardAliasName: null, cardExpiryMonth: null, cardExpiryYear: null, cardReissuedStatusId: null };
const p2pRequest = transferRequest('p2p', form, [eur]);

describe('callMethod and the Idempotency-Key', () => {
  it('sends the key of a money-moving call as the header, not in the body', async () => {
    answers.transferP2p = () => transferResult();
    const key = newIdempotencyKey();
    const answer = await callMethod('transferP2p', { accountId: 101, amount: '10', currency: 'EUR', toEmail: 'bob@demo.test' }, { idempotencyKey: key });
    expect(answer.responseCode).toBe('00');
    expect(sent).toEqual([{ method: 'transferP2p', body: { accountId: 101, amount: '10', currency: 'EUR', toEmail: 'bob@demo.test' }, key }]);
  });

  it('refuses a money-moving call without a key, or with a malformed one, and sends nothing', async () => {
    await expect(callMethod('transferBetweenAccounts', { fromAccount: 1, toAccount: 2, toAmount: '1', currency: 'EUR' })).rejects.toThrow(TypeError);
    await expect(callMethod('approveTransfer', { trxid: 1, approvalCode: '123456' }, { idempotencyKey: 'short' })).rejects.toThrow(TypeError);
    await expect(callMethod('transferCancel', { trxid: 1 }, { idempotencyKey: 'has spaces in it' })).rejects.toThrow(TypeError);
    expect(sent).toEqual([]);
  });

  it('sends no key for reads', async () => {
    answers.transferStatus = () => transferResult();
    await callMethod('transferStatus', { trxid: 77 });
    expect(sent[0]?.key).toBeNull();
  });
});

describe('transfer actors', () => {
  it('loads accounts, permissions and, for p2p, 3 recent third-party p2p transfers without the disabled ones', async () => {
    answers['balanceInquiry'] = () => ok({ accounts: { account: [eur] } });
    answers.moneyPermissions = () =>
      ok({
        permissions: {
          topLevel: { sendMoneyPaxumUser: false, sendMoneyUser: true, requestMoney: false, settlementAccount: false, addFundsWireThirdParty: false, addFundsBankThirdParty: false },
          own: { digital: false, betweenAccounts: true, wire: false, eft: false, card: false, instant: false, interac: false },
          others: { digital: false, loadPrepaidCard: false, wire: false, eft: false, card: false, instant: false, interac: false, p2p: true, global: false },
          mass: { wire: false, eft: false, card: false, instant: false, interac: false, p2p: false, digital: false, global: false },
          funding: { digital: false },
        },
      });
    const recent = (isDisabled: boolean, toEmail: string) => ({
      permission: '3d', type: 'p2p', isDisabled, templateName: null, toEmail, toName: null, fromAccountId: 101, toAccountId: null, amount: '5.00', currency: 'EUR', date: '2026-11-01T00:00:00Z',
    });
    answers.recentTransfers = () => ok({ transfers: [recent(false, 'a@demo.test'), recent(true, 'b@demo.test')] });
    const actors = createTransferActors({ getAccessToken: () => null });
    const p2p = await run<{ ok: true; recent: { toEmail: string }[] }>(actors.loadSetup, { kind: 'p2p', recentLimit: 3 });
    expect(p2p.ok).toBe(true);
    expect(p2p.recent.map((r) => r.toEmail)).toEqual(['a@demo.test']);
    expect(sent.find((s) => s.method === 'recentTransfers')?.body).toEqual({ types: ['p2p'], permission: '3d', limit: 3 });

    // a payout page: the recent payouts of every method
    sent = [];
    await run(actors.loadSetup, { kind: 'external', recentLimit: 3 });
    expect(sent.find((s) => s.method === 'recentTransfers')?.body).toEqual({ types: ['wire', 'eft', 'oct', 'digital', 'instant', 'interac'], permission: '3d', limit: 3 });

    sent = [];
    await run(actors.loadSetup, { kind: 'betweenAccounts', recentLimit: 0 });
    expect(sent.map((s) => s.method).sort()).toEqual(['balanceInquiry', 'moneyPermissions']);
  });

  it('a refused load says why; no answer is network', async () => {
    answers['balanceInquiry'] = () => ({ responseCode: 'ENOA', responseDescription: 'No access' });
    answers.moneyPermissions = () => ok({});
    const actors = createTransferActors({ getAccessToken: () => null });
    expect(await run(actors.loadSetup, { kind: 'p2p', recentLimit: 0 })).toEqual({ ok: false, code: 'failed', failure: { responseCode: 'ENOA', responseDescription: 'No access' } });
    delete answers['balanceInquiry'];
    expect(await run(actors.loadSetup, { kind: 'p2p', recentLimit: 0 })).toEqual({ ok: false, code: 'network' });
  });

  it('sends the reviewed request with its key; a retry sends the same key; success refreshes balances and history', async () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const actors = createTransferActors({ getAccessToken: () => null, queryClient });
    const key = newIdempotencyKey();
    // no answer first: network, nothing refreshed
    expect(await run(actors.submitTransfer, { request: p2pRequest, idempotencyKey: key })).toEqual({ ok: false, code: 'network' });
    expect(invalidate).not.toHaveBeenCalled();
    answers.transferP2p = () => transferResult();
    const second = await run<{ ok: true; result: Record<string, unknown> }>(actors.submitTransfer, { request: p2pRequest, idempotencyKey: key });
    expect(second.ok).toBe(true);
    expect(second.result).not.toHaveProperty('responseCode');
    expect(second.result).toMatchObject({ transactionId: 77, approveType: 'sms', amount: '10.00' });
    expect(sent.map((s) => s.key)).toEqual([key, key]);
    // the body as reviewed: the amount normalised, the e-mail trimmed and lower-cased, empty texts left out
    expect(sent[1]?.body).toEqual({ accountId: 101, amount: '10.5', currency: 'EUR', toEmail: 'bob@demo.test', note: 'Dinner' });
    expect(invalidate.mock.calls.map(([f]) => f?.queryKey)).toEqual([['balanceInquiry'], ['transactionHistory'], ['recentTransfers']]);
  });

  it('VF on the request fields goes to the form; on anything else it is a refusal for the popup', async () => {
    const actors = createTransferActors({ getAccessToken: () => null });
    answers.transferP2p = () => ({ responseCode: 'VF', validationErrors: [{ param: 'amount', description: 'exceeds the available balance', code: 'balanceExceeded', params: {} }, { param: 'toEmail', description: 'cannot receive' }] });
    expect(await run(actors.submitTransfer, { request: p2pRequest, idempotencyKey: newIdempotencyKey() })).toEqual({
      ok: false,
      code: 'fields',
      fieldErrors: { amount: { code: 'server', error: { param: 'amount', description: 'exceeds the available balance', code: 'balanceExceeded', params: {} } }, payeeEmail: { code: 'server', error: { param: 'toEmail', description: 'cannot receive' } } },
    });
    answers.transferP2p = () => ({ responseCode: 'VF', validationErrors: [{ param: 'Idempotency-Key', description: 'was used for another request' }] });
    const refused = await run<{ ok: false; code: string }>(actors.submitTransfer, { request: p2pRequest, idempotencyKey: newIdempotencyKey() });
    expect(refused).toMatchObject({ ok: false, code: 'failed', failure: { responseCode: 'VF' } });
  });

  it('asks the fee, limits, payee and max amount with the request as given', async () => {
    answers.transferFee = () => ok({ fee: '0.10', feeCurrency: 'EUR', amount: '10.00', currency: 'EUR', toAmount: '10.85', toCurrency: 'USD', rate: '1.085' });
    answers.customerLimits = () => ok({ limits: { currencyCode: 'EUR', minAmount: '1.00', maxAmount: '1000.00', dailyLimit: '2000.00', dailyRemaining: '1500.00' } });
    answers.checkPayee = () => ok({ exist: true, exists: true, isEmployee: false, outBlacklist: false, name: 'Bob Demo' });
    answers.transferMaxAmount = () => ok({ maxAmount: '49.75', currency: 'EUR' });
    const actors = createTransferActors({ getAccessToken: () => null });
    const fee = { operation: 'betweenAccounts', amount: '10', fromAccountId: 101, toAccountId: 102 };
    expect(await run(actors.quoteFee, fee)).toEqual({ ok: true, quote: { fee: '0.10', feeCurrency: 'EUR', amount: '10.00', currency: 'EUR', toAmount: '10.85', toCurrency: 'USD', rate: '1.085' } });
    expect(await run(actors.fetchLimits, { type: 'p2p', currencyCode: 'EUR', fromAccountId: 101 })).toMatchObject({ ok: true, limits: { dailyRemaining: '1500.00' } });
    expect(await run(actors.checkPayee, { email: 'bob@demo.test' })).toEqual({ ok: true, payee: { exist: true, exists: true, isEmployee: false, outBlacklist: false, name: 'Bob Demo' } });
    expect(await run(actors.fetchMaxAmount, { operation: 'p2p', fromAccountId: 101 })).toEqual({ ok: true, maxAmount: '49.75', currency: 'EUR' });
    expect(sent.map((s) => [s.method, s.body])).toEqual([
      ['transferFee', fee],
      ['customerLimits', { type: 'p2p', currencyCode: 'EUR', fromAccountId: 101 }],
      ['checkPayee', { email: 'bob@demo.test' }],
      ['transferMaxAmount', { operation: 'p2p', fromAccountId: 101 }],
    ]);
    expect(sent.every((s) => s.key === null)).toBe(true);
  });
});

describe('approval actors', () => {
  it('approves with the code and the key; a wrong code is VF on approvalCode with the description', async () => {
    const actors = createApprovalActors({ getAccessToken: () => null });
    const key = newIdempotencyKey();
    answers.approveTransfer = () => ({ responseCode: 'VF', validationErrors: [{ param: 'approvalCode', description: 'is not right: 2 tries left' }] });
    expect(await run(actors.approveTransfer, { transactionId: 77, code: '123456', idempotencyKey: key })).toEqual({ ok: false, code: 'wrongCode', description: 'is not right: 2 tries left' });
    answers.transferStatus = () => transferResult({ status: 'pending' });
    expect(await run(actors.approveTransfer, { transactionId: 77, code: '123456', idempotencyKey: key })).toEqual({ ok: false, code: 'wrongCode', description: 'is not right: 2 tries left' });
    answers.approveTransfer = () => transferResult({ status: 'posted' });
    expect(await run(actors.approveTransfer, { transactionId: 77, code: '123456', idempotencyKey: key })).toEqual({ ok: true, status: 'posted' });
    expect(sent.filter((s) => s.method === 'approveTransfer').map((s) => [s.body, s.key])).toEqual([
      [{ trxid: 77, approvalCode: '123456' }, key],
      [{ trxid: 77, approvalCode: '123456' }, key],
      [{ trxid: 77, approvalCode: '123456' }, key],
    ]);
    answers.approveTransfer = () => ({ responseCode: 'TA1', responseDescription: 'The transfer is not pending' });
    expect(await run(actors.approveTransfer, { transactionId: 77, code: '123456', idempotencyKey: newIdempotencyKey() })).toEqual({
      ok: false,
      code: 'failed',
      failure: { responseCode: 'TA1', responseDescription: 'The transfer is not pending' },
    });
  });

  it('the last wrong code rejects the transfer: the approval is over, with the platform\'s words', async () => {
    const actors = createApprovalActors({ getAccessToken: () => null });
    answers.approveTransfer = () => ({ responseCode: 'VF', validationErrors: [{ param: 'approvalCode', description: 'Too many wrong codes: the transfer was rejected' }] });
    answers.transferStatus = () => transferResult({ status: 'rejected' });
    expect(await run(actors.approveTransfer, { transactionId: 77, code: '000000', idempotencyKey: newIdempotencyKey() })).toEqual({
      ok: false,
      code: 'failed',
      failure: { responseCode: 'VF', responseDescription: 'Too many wrong codes: the transfer was rejected' },
    });
  });

  it('resends and cancels (the cancel with its key)', async () => {
    const actors = createApprovalActors({ getAccessToken: () => null });
    answers.resendApproval = () => ok({ approvalSentTo: '+370 *** **34' });
    answers.transferCancel = () => transferResult({ status: 'canceled' });
    expect(await run(actors.resendApproval, { transactionId: 77 })).toEqual({ ok: true, approvalSentTo: '+370 *** **34' });
    const key = newIdempotencyKey();
    expect(await run(actors.cancelTransfer, { transactionId: 77, idempotencyKey: key })).toEqual({ ok: true, status: 'canceled' });
    expect(sent.map((s) => [s.method, s.key])).toEqual([
      ['resendApproval', null],
      ['transferCancel', key],
    ]);
  });

  it('waits for the phone: an event of this transfer, or the slow poll, reads the status; reported once', async () => {
    vi.useFakeTimers();
    let channel: PushOptions | null = null;
    let closed = false;
    const actors = createApprovalActors({
      getAccessToken: () => 'token',
      connect: (opts) => {
        channel = opts;
        return () => {
          closed = true;
        };
      },
    });
    let status = 'pending';
    answers.transferStatus = () => transferResult({ status });
    const watcher = watch(actors.watchTransfer);
    expect(channel).not.toBeNull();
    // another transfer's event: nothing asked
    channel!.onEvent({ type: 'TransferApproval', transactionId: 78, status: 'posted' } as never);
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual([]);
    // the poll while pending: asked, nothing reported
    await vi.advanceTimersByTimeAsync(TRANSFER_STATUS_POLL_MS);
    expect(sent.map((s) => s.method)).toEqual(['transferStatus']);
    expect(watcher.got()).toEqual([]);
    // this transfer's event: the status is read, and reported
    status = 'rejected';
    channel!.onEvent({ type: 'TransferApproval', transactionId: 77, status: 'rejected' } as never);
    await vi.advanceTimersByTimeAsync(0);
    expect(watcher.got()).toEqual([{ type: 'TRANSFER.SETTLED', status: 'rejected' }]);
    // later polls report nothing more
    await vi.advanceTimersByTimeAsync(TRANSFER_STATUS_POLL_MS);
    expect(watcher.got()).toHaveLength(1);
    watcher.stop();
    expect(closed).toBe(true);
  });

  it('when the status cannot be read, the event itself is the answer', async () => {
    let channel: PushOptions | null = null;
    const actors = createApprovalActors({ getAccessToken: () => 'token', connect: (opts) => ((channel = opts), () => undefined) });
    const watcher = watch(actors.watchTransfer);
    channel!.onEvent({ type: 'TransactionConfirmation', transactionId: 77, status: 'approved' });
    await vi.waitFor(() => expect(watcher.got()).toEqual([{ type: 'TRANSFER.SETTLED', status: 'posted' }]));
    watcher.stop();
  });
});
