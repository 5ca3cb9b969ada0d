// @vitest-environment node
/**
 * The transfer and approval machines with their real actors against the real platform (PGlite):
 * only the transport is swapped (fetch → app.inject). tom converts EUR to USD and sends USD to
 * rita, each approved with the SMS code from the outbox (a wrong code first); a submit whose
 * answer is lost on the way back is sent again with the same idempotency key, and the money
 * moves once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { createActor, waitFor, type ActorRefFrom } from 'xstate';
import { outbox } from '../../server/db/schema.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import type { ApprovalMachine } from '../../machines/approval/approval.machine.ts';
import { transferMachine } from '../../machines/transfer/transfer.machine.ts';
import type { TransferKind } from '../../machines/transfer/transfer.rules.ts';
import { compareDecimal, patchFromRecent, toScaled } from '../../machines/transfer/transfer.rules.ts';
import { createTransferActors } from '../../src/features/transfers/actors.ts';
import { callMethod, configureRequest, setFetchForTests } from '../../src/lib/request.ts';
import { createTestApp, createTestDatabase, signIn, type TestApp } from '../server/harness.ts';
import { startJobQueue, type JobQueue } from '../../server/db/job-queue.ts';
import { createPayoutService } from '../../server/modules/rails/payouts.service.ts';
import { createSimulator, DEFAULT_SIMULATOR_OPTIONS } from '../../server/modules/rails/simulator.ts';
import { RAIL_QUEUES } from '../../server/modules/rails/workers.ts';

let t: TestApp;
let token = '';
/** the next transferP2p answer is lost on its way back (the platform did the work) */
let loseNextP2pAnswer = false;
const sentKeys: { method: string; key: string | null }[] = [];

let queue: JobQueue;

beforeAll(async () => {
  // with the rails' service on the database's job queue (a payout is asked in the last test; nothing is sent: it is canceled)
  const database = await createTestDatabase();
  queue = await startJobQueue(database.open, RAIL_QUEUES, () => undefined);
  const payouts = createPayoutService({ queue, adapterOf: () => createSimulator(DEFAULT_SIMULATOR_OPTIONS), now: Date.now });
  t = await createTestApp({ database, payouts });
  token = (await signIn(t.app, 'tom')).accessToken;
  configureRequest({ getAccessToken: () => token, refresh: async () => false, getActingCustomerId: () => null });
  setFetchForTests(async (input, init) => {
    const url = new URL(String(input), 'http://platform.test');
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const method = url.search.slice(1);
    sentKeys.push({ method, key: headers['idempotency-key'] ?? null });
    const res = await t.app.inject({ method: 'POST', url: `${url.pathname}${url.search}`, headers, payload: init?.body as string });
    if (method === 'transferP2p' && loseNextP2pAnswer) {
      loseNextP2pAnswer = false;
      throw new TypeError('Failed to fetch');
    }
    return new Response(res.body, { status: res.statusCode, headers: { 'content-type': 'application/json' } });
  });
}, 60_000);
afterAll(async () => {
  setFetchForTests(null);
  await queue?.stop();
  await t?.close();
});

function start(kind: TransferKind) {
  const logic = transferMachine.provide({
    // the live channel is not needed for SMS codes
    actors: createTransferActors({ getAccessToken: () => token, connect: () => () => undefined }),
    delays: { feeDebounce: 0, payeeDebounce: 0 },
  });
  return createActor(logic, { input: { kind } }).start();
}

async function balances(): Promise<Record<string, string>> {
  const answer = await callMethod('balanceInquiry', {});
  if (answer.responseCode !== '00' || !('accounts' in answer)) throw new Error(`no accounts: ${JSON.stringify(answer)}`);
  return Object.fromEntries(answer.accounts.account.map((a) => [a.currency, a.balance]));
}

async function lastSmsCode(): Promise<string> {
  const phone = `+${demoUserByKey.tom.phone.countryCode}${demoUserByKey.tom.phone.number}`;
  const [sms] = await t.db.select().from(outbox).where(and(eq(outbox.channel, 'sms'), eq(outbox.recipient, phone))).orderBy(desc(outbox.id)).limit(1);
  return /^(\d{6})/.exec(sms!.body)![1]!;
}

const idle = { timeout: 20_000 };
type Transfer = ReturnType<typeof start>;
const approvalOf = (actor: Transfer) => (actor.getSnapshot().children as { approval?: ActorRefFrom<ApprovalMachine> }).approval!;

/** Review (once the fee is known) and send; then approve with a wrong code, then the SMS code. */
async function reviewSendApprove(actor: Transfer) {
  await waitFor(actor, (s) => s.matches({ editing: { fee: 'idle' } }) && s.context.quote !== null, idle);
  actor.send({ type: 'REVIEW' });
  expect(actor.getSnapshot().matches('reviewing')).toBe(true);
  actor.send({ type: 'SUBMIT' });
  await waitFor(actor, (s) => !s.matches('submitting'), idle);
  if (actor.getSnapshot().matches('reviewing')) {
    // the answer was lost: sent again, with the same key
    expect(actor.getSnapshot().context.submitUnanswered).toBe(true);
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => !s.matches('submitting'), idle);
  }
  expect(actor.getSnapshot().value).toBe('approving');
  const approval = approvalOf(actor);
  const code = await lastSmsCode();
  approval.send({ type: 'CODE.SUBMIT', code: code === '000000' ? '111111' : '000000' });
  await waitFor(approval, (s) => !s.matches({ active: { step: 'verifying' } }), idle);
  expect(approval.getSnapshot().context.error).toBe('wrongCode');
  expect(approval.getSnapshot().context.errorText).toMatch(/the code is wrong \(4 tries left\)/i);
  approval.send({ type: 'CODE.SUBMIT', code });
  await waitFor(actor, (s) => s.matches('done') || s.matches('failed'), idle);
  expect(actor.getSnapshot().value).toBe('done');
}

describe('transfers against the platform', () => {
  it('tom converts 100 EUR to USD between his accounts, approved by SMS code', async () => {
    const before = await balances();
    const actor = start('betweenAccounts');
    await waitFor(actor, (s) => s.matches('editing'), idle);
    const accounts = actor.getSnapshot().context.accounts;
    const eur = accounts.find((a) => a.currency === 'EUR')!.accountId;
    const usd = accounts.find((a) => a.currency === 'USD')!.accountId;
    actor.send({ type: 'FORM.CHANGE', patch: { fromAccountId: eur } });
    actor.send({ type: 'FORM.CHANGE', patch: { toAccountId: usd } });
    actor.send({ type: 'FORM.CHANGE', patch: { amount: '100' } });
    // limits of the pair, and the fee with what arrives at the stored rate
    await waitFor(actor, (s) => s.context.limits !== null && s.context.quote !== null, idle);
    const quote = actor.getSnapshot().context.quote!;
    expect(quote).toMatchObject({ currency: 'EUR', toCurrency: 'USD' });
    expect(compareDecimal(quote.rate, '1')).toBe(1);
    await reviewSendApprove(actor);
    const after = await balances();
    // the source paid the amount and the fee; the destination got what the quote said
    expect(toScaled(before.EUR!) - toScaled(after.EUR!)).toBe(toScaled(quote.amount) + toScaled(quote.fee));
    expect(toScaled(after.USD!) - toScaled(before.USD!)).toBe(toScaled(quote.toAmount));
    actor.stop();
  });

  it('tom sends 50 USD to rita (payee checked); the lost answer is sent again with the same key and the money moves once', async () => {
    const before = await balances();
    const actor = start('p2p');
    await waitFor(actor, (s) => s.matches('editing'), idle);
    const usd = actor.getSnapshot().context.accounts.find((a) => a.currency === 'USD')!.accountId;
    actor.send({ type: 'FORM.CHANGE', patch: { fromAccountId: usd } });
    actor.send({ type: 'FORM.CHANGE', patch: { payeeEmail: 'Rita@Demo.test' } });
    await waitFor(actor, (s) => s.context.payee !== null, idle);
    expect(actor.getSnapshot().context.payee).toMatchObject({ exist: true, exists: true, outBlacklist: false });
    actor.send({ type: 'FORM.CHANGE', patch: { amount: '50', note: 'Concert tickets' } });
    loseNextP2pAnswer = true;
    sentKeys.length = 0;
    await reviewSendApprove(actor);
    const submits = sentKeys.filter((k) => k.method === 'transferP2p');
    expect(submits).toHaveLength(2);
    expect(submits[0]!.key).toMatch(/^[0-9a-f]{32}$/);
    expect(submits[1]!.key).toBe(submits[0]!.key);
    const after = await balances();
    const quote = actor.getSnapshot().context.quote!;
    expect(toScaled(before.USD!) - toScaled(after.USD!)).toBe(toScaled('50') + toScaled(quote.fee));
    actor.stop();
  });

  it('a payee who does not exist is said before review', async () => {
    const actor = start('p2p');
    await waitFor(actor, (s) => s.matches('editing'), idle);
    actor.send({ type: 'FORM.CHANGE', patch: { payeeEmail: 'nobody@demo.test' } });
    await waitFor(actor, (s) => s.context.payee !== null, idle);
    expect(actor.getSnapshot().context.payee).toMatchObject({ exist: false });
    actor.send({ type: 'FORM.CHANGE', patch: { amount: '1' } });
    actor.send({ type: 'REVIEW' });
    expect(actor.getSnapshot().context.fieldErrors.payeeEmail).toEqual({ code: 'payeeNotFound' });
    actor.stop();
  });
});

describe('a payout sent again from the recent ones (issue 15 item 3)', () => {
  it("the external form lists tom's wire and takes its country, method and payee back, ready to review", async () => {
    const eur = ((await callMethod('balanceInquiry', {})) as unknown as { accounts: { account: { accountId: number; currency: string }[] } }).accounts.account.find((a) => a.currency === 'EUR')!;
    const payee = { beneficiaryName: 'Hans Muster', beneficiaryAddress: 'Hauptstr. 1, Berlin', iban: 'DE89370400440532013000', swiftCode: 'COBADEFFXXX' };
    const wire = await callMethod('wireTransfer', { fromAccountId: eur.accountId, amount: '7.00', currency: 'EUR', countryCode: 'DE', payee }, { idempotencyKey: 'recent-payout-wire-0001' });
    expect(wire.responseCode, JSON.stringify(wire)).toBe('00');
    const actor = start('external');
    await waitFor(actor, (s) => s.matches('editing'), idle);
    const recent = actor.getSnapshot().context.recent;
    expect(recent.map((r) => [r.type, r.toName, r.countryCode, r.amount])).toEqual([['wire', 'Hans Muster', 'DE', '7.00']]);
    actor.send({ type: 'FORM.CHANGE', patch: patchFromRecent(recent[0]!) });
    await waitFor(actor, (s) => s.context.payeeForm !== null && s.matches({ editing: { fee: 'idle' } }) && s.context.quote !== null, idle);
    expect(actor.getSnapshot().context.form).toMatchObject({ fromAccountId: eur.accountId, amount: '7.00', countryCode: 'DE', method: 'wire', payeeFields: payee });
    actor.send({ type: 'REVIEW' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
    expect(actor.getSnapshot().matches('reviewing')).toBe(true);
    actor.stop();
    expect((await callMethod('transferCancel', { trxid: (wire as unknown as { transactionId: number }).transactionId }, { idempotencyKey: 'recent-payout-cancel-0001' })).responseCode).toBe('00');
  });
});
