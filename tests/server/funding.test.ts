/**
 * "Add money" calls (api/funding.ts) on the real platform: each open account's own IBAN (which
 * names the account again) or wallet address, the viewed marks per user, and refusals that change
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { validateIBAN } from 'ibantools';
import { callMethod, createTestApp, createTestDatabase, postJson, signIn, type TestApp } from './harness.ts';
import { startJobQueue, type JobQueue } from '../../server/db/job-queue.ts';
import { createPayoutService, type PayoutService } from '../../server/modules/rails/payouts.service.ts';
import { railInstructions } from '../../server/modules/rails/rails.tables.ts';
import { accountOfIban, DEFAULT_RECEIVING_BANK } from '../../server/modules/rails/receiving.ts';
import { createSimulator, DEFAULT_SIMULATOR_OPTIONS } from '../../server/modules/rails/simulator.ts';
import { drainRailJobs, RAIL_QUEUES } from '../../server/modules/rails/workers.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { DEMO_BLOCKED_BIN } from '../../server/db/seed.ts';
import { outbox } from '../../server/modules/platform/platform.tables.ts';

let t: TestApp;
let token: string;
let queue: JobQueue;
let payouts: PayoutService;

beforeAll(async () => {
  // the platform in demo mode with the rails' service on its own database's job queue
  const database = await createTestDatabase({ demoData: 'without-history' });
  queue = await startJobQueue(database.open, RAIL_QUEUES, () => undefined);
  // every event due at once (the test drains the queue itself), no share of random returns
  const simulator = createSimulator({ ...DEFAULT_SIMULATOR_OPTIONS, sentAfterMs: 0, settleAfterMs: { wire: 0, eft: 0, oct: 0, digital: 0, instant: 0, interac: 0, funding: 0 }, returnBasisPoints: 0 });
  payouts = createPayoutService({ queue, adapterOf: () => simulator, now: Date.now });
  t = await createTestApp({ database, demo: true, payouts });
  token = (await signIn(t.app, 'rita')).accessToken;
}, 60_000);
afterAll(async () => {
  await queue?.stop();
  await t?.close();
});

const call = (name: string, body: Record<string, unknown> = {}) => callMethod(t.app, name, body, { token });

describe('payment instructions', () => {
  it("give each fiat account its own IBAN at the provider's bank, new until viewed", async () => {
    const accounts = (await call('balanceInquiry')).body as unknown as { accounts: { account: { accountId: number; currency: string }[] } };
    const answer = await call('paymentInstructions');
    expect(answer.body.responseCode).toBe('00');
    const instructions = answer.body.instructions as { instructionId: number; accountId: number; currency: string; iban: string | null; bic: string | null; scheme: string; viewed: boolean; beneficiaryName: string }[];
    const fiat = accounts.accounts.account.filter((a) => !['BTC', 'ETH'].includes(a.currency));
    expect(instructions.filter((i) => i.instructionId === 1).map((i) => i.accountId)).toEqual(fiat.map((a) => a.accountId));
    for (const i of instructions.filter((x) => x.instructionId === 1)) {
      expect(validateIBAN(i.iban!).valid).toBe(true);
      expect(accountOfIban(DEFAULT_RECEIVING_BANK, i.iban!)).toBe(i.accountId);
      expect(i.bic).toBe(DEFAULT_RECEIVING_BANK.bic);
      expect(i.scheme).toBe(i.currency === 'EUR' ? 'sepa' : 'swift');
      expect(i.viewed).toBe(false);
      expect(i.beneficiaryName).toMatch(/\S+ \S+/);
    }
  });

  it('mark one viewed for this user, once (a second mark changes nothing)', async () => {
    const [first] = (await call('paymentInstructions')).body.instructions as { instructionId: number; accountId: number }[];
    expect((await call('paymentInstructionMarkViewed', { instructionId: first!.instructionId, accountId: first!.accountId })).body.responseCode).toBe('00');
    expect((await call('paymentInstructionMarkViewed', { instructionId: first!.instructionId, accountId: first!.accountId })).body.responseCode).toBe('00');
    const one = await call('paymentInstructions', { accountId: first!.accountId });
    expect(one.body.instructions).toEqual([expect.objectContaining({ accountId: first!.accountId, viewed: true })]);
  });

  it("refuse another customer's account (ENOA) and an instruction the account does not have (VF), marking nothing", async () => {
    const boris = (await signIn(t.app, 'boris')).accessToken;
    const borisAccounts = (await callMethod(t.app, 'balanceInquiry', {}, { token: boris })).body as unknown as { accounts: { account: { accountId: number }[] } };
    const foreign = borisAccounts.accounts.account[0]!.accountId;
    expect((await call('paymentInstructions', { accountId: foreign })).body.responseCode).toBe('ENOA');
    expect((await call('paymentInstructionMarkViewed', { instructionId: 1, accountId: foreign })).body.responseCode).toBe('ENOA');
    const [mine] = ((await call('paymentInstructions')).body.instructions as { accountId: number; instructionId: number; viewed: boolean }[]).filter((i) => !i.viewed);
    const wrong = await call('paymentInstructionMarkViewed', { instructionId: 2, accountId: mine!.accountId });
    expect(wrong.body).toMatchObject({ responseCode: 'VF', validationErrors: [expect.objectContaining({ param: 'instructionId', code: 'notAllowed' })] });
    expect((await call('paymentInstructions', { accountId: mine!.accountId })).body.instructions).toEqual([expect.objectContaining({ viewed: false })]);
    expect((await callMethod(t.app, 'paymentInstructions', {})).body.responseCode).toBe('AU');
  });
});

describe('the simulated network (demo mode)', () => {
  const balanceOf = async (accountId: number) => {
    const answer = (await call('balanceInquiry')).body as unknown as { accounts: { account: { accountId: number; balance: string }[] } };
    return answer.accounts.account.find((a) => a.accountId === accountId)!.balance;
  };
  const drain = () => drainRailJobs(t.db, queue, payouts);

  it('pays into an account by its IBAN: the money arrives through the funding rail', async () => {
    const [eur] = ((await call('paymentInstructions')).body.instructions as { accountId: number; currency: string; iban: string }[]).filter((i) => i.currency === 'EUR');
    const before = Number(await balanceOf(eur!.accountId));
    const sent = await postJson(t.app, '/dev/rails/incoming', { iban: eur!.iban.replace(/(.{4})/g, '$1 '), amount: '125.50', currency: 'EUR', senderName: 'Rita Demo', reference: 'Top-up' });
    expect(sent.statusCode).toBe(202);
    await drain();
    expect(Number(await balanceOf(eur!.accountId))).toBeCloseTo(before + 125.5, 2);
    // history names who paid in, and the reference
    const history = (await call('transactionHistory', { accountId: eur!.accountId })).body as unknown as { transactions: { transaction: { operationType: string; counterparty: string; note: string | null; amount: string }[] } };
    expect(history.transactions.transaction[0]).toMatchObject({ operationType: 'deposit', counterparty: 'Rita Demo', note: 'Top-up' });
  });

  it('refuses a malformed payment, naming the field, and returns one to an IBAN of nobody', async () => {
    const bad = await postJson(t.app, '/dev/rails/incoming', { iban: 'LT973990000000000123', amount: '0', currency: 'EUR', senderName: 'X' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'amount' });
    const tooMuch = await postJson(t.app, '/dev/rails/incoming', { iban: 'LT973990000000000123', amount: '100000.01', currency: 'EUR', senderName: 'X' });
    expect(tooMuch.statusCode).toBe(400);
    const nobody = await postJson(t.app, '/dev/rails/incoming', { iban: 'LT12 1000 0111 0100 1000', amount: '5', currency: 'EUR', senderName: 'X' });
    expect(nobody.statusCode).toBe(202);
    await drain();
    const [row] = await t.db.select().from(railInstructions).where(eq(railInstructions.id, (nobody.json() as { instructionId: number }).instructionId));
    expect([row!.status, row!.reasonCode]).toEqual(['returned', 'AC01']);
  });

  it('does not exist outside demo mode', async () => {
    const plain = await createTestApp({ demoData: 'without-history' });
    try {
      expect((await postJson(plain.app, '/dev/rails/incoming', { iban: 'x', amount: '1', currency: 'EUR', senderName: 'X' })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('payouts through the calls', () => {
  const drain = () => drainRailJobs(t.db, queue, payouts);
  const eurAccount = async () => {
    const answer = (await call('balanceInquiry')).body as unknown as { accounts: { account: { accountId: number; currency: string; balance: string; pendingAmount: string }[] } };
    return answer.accounts.account.find((a) => a.currency === 'EUR')!;
  };
  const payoutCall = (name: string, body: Record<string, unknown>) => callMethod(t.app, name, body, { token, headers: { 'idempotency-key': `k-${name}-${Math.random().toString(36).slice(2)}` } });

  it('a wire holds the money, goes to the rail, and settles', async () => {
    const before = await eurAccount();
    const sent = await payoutCall('wireTransfer', { fromAccountId: before.accountId, amount: '40.00', currency: 'EUR', countryCode: 'DE', payee: { beneficiaryName: 'Hans Muster', beneficiaryAddress: 'Hauptstr. 1, Berlin', iban: 'DE89 3704 0044 0532 0130 00', swiftCode: 'COBADEFFXXX' }, reference: 'Invoice 7' });
    expect(sent.body).toMatchObject({ responseCode: '00', status: 'processing', approveType: 'none', amount: '40.00', currency: 'EUR' });
    const held = await eurAccount();
    expect(Number(held.pendingAmount) - Number(before.pendingAmount)).toBeCloseTo(40 + Number(sent.body.fee), 2);
    // on its way: counted among the history's transfers in progress (its two rows, the payout and its fee)
    const inProgress = async () => ((await call('transactionHistory', { accountId: before.accountId })).body as unknown as { processingCount: number }).processingCount;
    const processingBefore = await inProgress();
    expect(processingBefore).toBeGreaterThanOrEqual(2);
    await drain();
    expect(await inProgress()).toBe(processingBefore - 2);
    const status = await callMethod(t.app, 'transferStatus', { trxid: sent.body.transactionId }, { token });
    expect(status.body).toMatchObject({ responseCode: '00', status: 'posted' });
    const after = await eurAccount();
    expect(Number(after.balance)).toBeCloseTo(Number(before.balance) - 40 - Number(sent.body.fee), 2);
    expect(after.pendingAmount).toBe(before.pendingAmount);
    // history: a wire, to the payee the form named (not the rail's clearing account), and its fee
    const history = (await call('transactionHistory', { accountId: before.accountId })).body as unknown as { transactions: { transaction: { transactionId: number; operationType: string; counterparty: string; status: string; amount: string }[] } };
    const rows = history.transactions.transaction.filter((r) => r.transactionId === sent.body.transactionId);
    expect(rows.map((r) => [r.operationType, r.counterparty, r.status])).toEqual([
      ['wire', 'Hans Muster', 'posted'],
      ['Fees', expect.any(String), 'posted'],
    ]);
  });

  it('a wire to a closed account comes back (AC04): the amount returns, the wire fee stays', async () => {
    const before = await eurAccount();
    const sent = await payoutCall('wireTransfer', { fromAccountId: before.accountId, amount: '25.00', currency: 'EUR', countryCode: 'GB', payee: { beneficiaryName: 'Closed', beneficiaryAddress: '1 High St, London', iban: 'GB71WEST12345698760004', swiftCode: 'WESTGB22' } });
    expect(sent.body.responseCode).toBe('00');
    await drain();
    expect((await callMethod(t.app, 'transferStatus', { trxid: sent.body.transactionId }, { token })).body).toMatchObject({ status: 'returned' });
    expect(Number((await eurAccount()).balance)).toBeCloseTo(Number(before.balance) - Number(sent.body.fee), 2);
    // its detail names the payee and the rail's reason, never the rail's clearing account
    const detail = (await call('transactionDetail', { kind: 'transfer', id: sent.body.transactionId })).body.transaction;
    expect(detail).toMatchObject({ operationType: 'wire', status: 'returned', direction: 'out', counterparty: 'Closed', toAccountId: null, railReason: 'AC04' });
  });

  it('answers VF on the payee field that is wrong, naming it, and holds nothing', async () => {
    const before = await eurAccount();
    const bad = await payoutCall('wireTransfer', { fromAccountId: before.accountId, amount: '5.00', currency: 'EUR', countryCode: 'DE', payee: { beneficiaryName: 'Hans', beneficiaryAddress: 'Berlin', iban: 'DE89370400440532013001', swiftCode: 'COBADEFFXXX' } });
    expect(bad.body).toMatchObject({ responseCode: 'VF', validationErrors: [expect.objectContaining({ param: 'payee.iban', code: 'ibanChecksum' })] });
    const away = await payoutCall('interacTransfer', { fromAccountId: before.accountId, amount: '5.00', currency: 'EUR', countryCode: 'DE', payee: { beneficiaryName: 'X', email: 'x@example.com' } });
    expect(away.body).toMatchObject({ responseCode: 'VF', validationErrors: [expect.objectContaining({ param: 'countryCode' })] });
    expect(await eurAccount()).toEqual(before);
  });

  it('a card payout keeps only the BIN and the last four digits of the number', async () => {
    const before = await eurAccount();
    const sent = await payoutCall('octTransfer', { fromAccountId: before.accountId, amount: '12.00', currency: 'EUR', countryCode: 'LT', payee: { cardHolderName: 'Rita Rossi', cardNumber: '4111 1111 1111 1111' } });
    expect(sent.body).toMatchObject({ responseCode: '00', status: 'processing' });
    const [row] = await t.db.select().from(railInstructions).where(eq(railInstructions.transferId, sent.body.transactionId as number));
    expect(row!.beneficiary).toEqual({ cardHolderName: 'Rita Rossi', cardBin: '411111', cardLast4: '1111', countryCode: 'LT' });
    expect(JSON.stringify(row, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))).not.toContain('4111111111111111');
    await drain();
  });

  it('recent payouts: one a destination, newest first, to send again; a returned one and a card number left out', async () => {
    const recent = async (body: Record<string, unknown>) => {
      const res = await call('recentTransfers', body);
      expect(res.body.responseCode, JSON.stringify(res.body)).toBe('00');
      return res.body.transfers as { type: string; toName: string | null; countryCode?: string; payee?: Record<string, string>; amount: string; toAccountId: number | null }[];
    };
    const payouts = await recent({ types: ['wire', 'eft', 'oct', 'digital', 'instant', 'interac'], limit: 10 });
    // the card payout above, then the settled wire; the wire to the closed account came back: not a destination to offer
    expect(payouts.map((p) => [p.type, p.toName, p.countryCode, p.amount])).toEqual([
      ['oct', 'Rita Rossi', 'LT', '12.00'],
      ['wire', 'Hans Muster', 'DE', '40.00'],
    ]);
    expect(payouts[0]!.payee).toEqual({ cardHolderName: 'Rita Rossi', cardBin: '411111', cardLast4: '1111' });
    expect(payouts[1]!.payee).toEqual({ beneficiaryName: 'Hans Muster', beneficiaryAddress: 'Hauptstr. 1, Berlin', iban: 'DE89 3704 0044 0532 0130 00', swiftCode: 'COBADEFFXXX' });
    expect((await recent({ types: ['wire', 'oct'], countryCode: 'de' })).map((p) => p.type)).toEqual(['wire']);
    expect((await recent({ types: ['wire', 'oct'], search: 'rossi' })).map((p) => p.type)).toEqual(['oct']);
    expect(await recent({ types: ['wire', 'oct'], permission: 'own' })).toEqual([]);
    // without types: the transfers inside the platform only, as before
    expect((await recent({ limit: 50 })).every((p) => p.type === 'betweenAccounts' || p.type === 'p2p')).toBe(true);
  });

  it("with the customer's approval (tom: SMS): held while pending, sent when approved, never sent when canceled", async () => {
    const tom = (await signIn(t.app, 'tom')).accessToken;
    const asTom = (name: string, body: Record<string, unknown>) => callMethod(t.app, name, body, { token: tom, headers: { 'idempotency-key': `k-${name}-${Math.random().toString(36).slice(2)}` } });
    const accounts = (await callMethod(t.app, 'balanceInquiry', {}, { token: tom })).body as unknown as { accounts: { account: { accountId: number; currency: string; balance: string; pendingAmount: string }[] } };
    const eur = accounts.accounts.account.find((a) => a.currency === 'EUR')!;
    const payee = { beneficiaryName: 'Hans Muster', beneficiaryAddress: 'Hauptstr. 1, Berlin', iban: 'DE89370400440532013000', swiftCode: 'COBADEFFXXX' };
    const instructionOf = async (transferId: number) => (await t.db.select().from(railInstructions).where(eq(railInstructions.transferId, transferId)))[0]!;

    const first = await asTom('wireTransfer', { fromAccountId: eur.accountId, amount: '10.00', currency: 'EUR', countryCode: 'DE', payee });
    expect(first.body).toMatchObject({ responseCode: '00', status: 'pending', approveType: 'sms' });
    expect((await instructionOf(first.body.transactionId as number)).status).toBe('awaitingApproval');
    await drain();
    expect((await instructionOf(first.body.transactionId as number)).status).toBe('awaitingApproval');
    const phone = `+${demoUserByKey.tom.phone.countryCode}${demoUserByKey.tom.phone.number}`;
    const [sms] = await t.db.select().from(outbox).where(and(eq(outbox.channel, 'sms'), eq(outbox.recipient, phone))).orderBy(desc(outbox.id)).limit(1);
    const code = /^(\d{6}) is your code to approve the transfer/.exec(sms!.body)![1]!;
    expect((await asTom('approveTransfer', { trxid: first.body.transactionId, approvalCode: code })).body).toMatchObject({ responseCode: '00', status: 'processing' });
    await drain();
    expect((await callMethod(t.app, 'transferStatus', { trxid: first.body.transactionId }, { token: tom })).body).toMatchObject({ status: 'posted' });

    const second = await asTom('wireTransfer', { fromAccountId: eur.accountId, amount: '11.00', currency: 'EUR', countryCode: 'DE', payee });
    expect((await asTom('transferCancel', { trxid: second.body.transactionId })).body).toMatchObject({ responseCode: '00', status: 'canceled' });
    await drain();
    expect((await instructionOf(second.body.transactionId as number)).status).toBe('canceled');
    const after = ((await callMethod(t.app, 'balanceInquiry', {}, { token: tom })).body as unknown as typeof accounts).accounts.account.find((a) => a.currency === 'EUR')!;
    expect(after.pendingAmount).toBe(eur.pendingAmount);
    expect(Number(after.balance)).toBeCloseTo(Number(eur.balance) - 10 - Number(first.body.fee), 2);
  });

  it("refuses a card of a BIN the provider does not pay out to (blockedBinList), holding nothing", async () => {
    expect((await call('blockedBinList')).body).toMatchObject({ responseCode: '00', bins: [DEMO_BLOCKED_BIN] });
    const before = await eurAccount();
    const blocked = await payoutCall('octTransfer', { fromAccountId: before.accountId, amount: '12.00', currency: 'EUR', countryCode: 'LT', payee: { cardHolderName: 'Rita Rossi', cardNumber: '4000 0566 5566 5556' } });
    expect(blocked.body).toMatchObject({ responseCode: 'VF', validationErrors: [expect.objectContaining({ param: 'payee.cardNumber', code: 'cardBinBlocked' })] });
    expect(await eurAccount()).toEqual(before);
  });

  it('the fee calls answer the fee and the total taken', async () => {
    const eur = await eurAccount();
    const answer = await call('wireFee', { fromAccountId: eur.accountId, amount: '100.00', currency: 'EUR', countryCode: 'DE' });
    // the demo provider's wire fee: 5.00 (server/db/seed.ts)
    expect(answer.body).toMatchObject({ responseCode: '00', fee: '5.00', feeCurrency: 'EUR', amount: '100.00', total: '105.00' });
    expect((await call('octFee', { fromAccountId: eur.accountId, amount: '250.00', currency: 'EUR', countryCode: 'DE' })).body).toMatchObject({ fee: '2.50', total: '252.50' });
  });

  it("answer a method's limits and its send-all as the payout page asks them (the rail's rules, the rail's fee)", async () => {
    const eur = await eurAccount();
    const limits = await call('customerLimits', { type: 'wire', currencyCode: 'EUR', fromAccountId: eur.accountId });
    // the demo provider's fiat limits (server/db/seed.ts)
    expect(limits.body).toMatchObject({ responseCode: '00', limits: { currencyCode: 'EUR', minAmount: '0.01', maxAmount: '10000.00', dailyLimit: '25000.00' } });
    const available = Number(eur.balance) - Number(eur.pendingAmount);
    // send all by wire: the available balance less the wire's 5.00
    expect((await call('transferMaxAmount', { operation: 'wire', fromAccountId: eur.accountId })).body).toMatchObject({ responseCode: '00', currency: 'EUR', maxAmount: (available - 5).toFixed(2) });
    // by card (1 %, at least 1.00): the most whose fee still fits
    const card = Number((await call('transferMaxAmount', { operation: 'oct', fromAccountId: eur.accountId })).body.maxAmount);
    expect(card + Math.max(1, Math.round(card) / 100)).toBeLessThanOrEqual(available + 0.01);
    expect(card).toBeGreaterThan(available - 0.02 * available);
    expect((await call('customerLimits', { type: 'courier', currencyCode: 'EUR' })).body.responseCode).toBe('VF');
  });

  it("give Interac's form with its one-of group (an e-mail address or a mobile number)", async () => {
    const answer = await call('extraParams', { paymentMethod: 'interac', currencyCode: 'CAD', countryCode: 'CA' });
    expect(answer.body).toMatchObject({ responseCode: '00', oneOf: [['email', 'phone']] });
    expect((answer.body.params as { name: string }[]).map((p) => p.name)).toEqual(['beneficiaryName', 'email', 'phone']);
    expect((await call('extraParams', { paymentMethod: 'wire', currencyCode: 'EUR', countryCode: 'DE' })).body.oneOf).toBeUndefined();
  });
});
