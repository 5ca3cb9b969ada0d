/**
 * Transfers over HTTP on the real platform: quotes (fee, max amount, limits), requests between own
 * accounts (with conversion) and to other people, every approval mode (none, sms with the code read
 * from the outbox, otp with the authenticator, approvalCode, push answered on a linked phone),
 * resend, wrong codes, expiry with a moved clock, cancel, recurring schedules, and every refusal
 * (VF on the field, ENOA, CA, 13, TA1). After each test the ledger reconciles.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callMethod, createTestApp, signIn, totpCode, type MethodAnswer, type SignedIn, type TestApp } from './harness.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { accounts, journalLegs } from '../../server/modules/accounts/accounts.tables.ts';
import { dailyUsageProblems } from '../../server/modules/transfers/fees.ts';
import { currencyTotals, providerAccountId, reconcile } from '../../server/modules/accounts/ledger.ts';
import { customers, users } from '../../server/modules/customers/customers.tables.ts';
import { outbox } from '../../server/modules/platform/platform.tables.ts';
import { blacklist, transferLimits, transferSchedules, transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { hashPassword } from '../../server/modules/auth/crypto.ts';
import { expireDueTransfers, runDueSchedules } from '../../server/modules/transfers/workers.ts';
import { TRANSFER_APPROVAL_TTL_S } from '../../server/modules/transfers/transfers.service.ts';
import type { ApprovalRequest } from '../../api/devices.ts';

let t: TestApp;
let app: FastifyInstance;
let clockMs = Date.now();
const now = () => clockMs;
const tick = (seconds: number) => {
  clockMs += seconds * 1000;
};

let tom: SignedIn;
let rita: SignedIn;
let anna: SignedIn;
let boris: SignedIn;
let viewer: SignedIn;

interface Account {
  accountId: number;
  currency: string;
  balance: string;
  pendingAmount: string;
  customerId: number;
}

/** A money-moving call with a fresh idempotency key (or the one given). */
function money(name: string, body: Record<string, unknown>, token: string, key: string = randomUUID()): Promise<MethodAnswer> {
  return callMethod(app, name, body, { token, headers: { 'Idempotency-Key': key } });
}

async function accountsOf(token: string): Promise<Account[]> {
  const res = await callMethod(app, 'balanceInquiry', {}, { token });
  expect(res.body.responseCode).toBe('00');
  return (res.body.accounts as { account: Account[] }).account;
}

async function account(token: string, currency: string): Promise<Account> {
  const found = (await accountsOf(token)).find((a) => a.currency === currency);
  if (!found) throw new Error(`no ${currency} account`);
  return found;
}

/** The last SMS code sent to a phone number (E.164 without the plus sign's masking). */
async function lastSmsCode(recipient: string): Promise<string> {
  const [row] = await t.db.select().from(outbox).where(and(eq(outbox.channel, 'sms'), eq(outbox.recipient, recipient))).orderBy(desc(outbox.id)).limit(1);
  const code = /^(\d{6}) is your code to approve the transfer/.exec(row?.body ?? '')?.[1];
  if (!code) throw new Error('no transfer code in the outbox');
  return code;
}

const tomPhone = `+${demoUserByKey.tom.phone.countryCode}${demoUserByKey.tom.phone.number}`;

function expectVf(res: MethodAnswer, param: string, description?: string | RegExp): void {
  expect(res.body.responseCode, JSON.stringify(res.body)).toBe('VF');
  const errors = res.body.validationErrors as { param: string; description: string }[];
  const match = errors.find((e) => e.param === param);
  expect(match, JSON.stringify(errors)).toBeDefined();
  if (description !== undefined) expect(match!.description).toMatch(description);
}

async function setApproveMode(email: string, mode: 'none' | 'sms' | 'otp' | 'approvalCode' | 'push'): Promise<void> {
  const [user] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, email));
  await t.db.update(customers).set({ transactionApproveMode: mode }).where(eq(customers.id, user!.customerId));
}

async function transferRow(id: number) {
  const [row] = await t.db.select().from(transfers).where(eq(transfers.id, id));
  return row!;
}

let signedInAtMs = 0;
/** Signs everyone in (again): access tokens live 5 minutes of the app's clock, which tests move. */
async function signInAll(): Promise<void> {
  const at = { totpTimeMs: clockMs };
  [tom, rita, anna, boris, viewer] = [
    await signIn(app, 'tom'),
    await signIn(app, 'rita'),
    await signIn(app, 'anna', at),
    await signIn(app, 'boris'),
    await signIn(app, 'viewer', at),
  ];
  signedInAtMs = clockMs;
}

beforeAll(async () => {
  t = await createTestApp({ now, transferWorkers: false });
  app = t.app;
  await signInAll();
});

beforeEach(async () => {
  if (clockMs - signedInAtMs > 4 * 60 * 1000) await signInAll();
});

afterAll(async () => {
  await t?.close();
});

afterEach(async () => {
  // Every test leaves a consistent ledger: balanced legs, balances = legs, holds = pending transfers.
  expect(await reconcile(t.db)).toEqual([]);
  // the daily limit's counters equal the sums of the transfers they count
  expect(await dailyUsageProblems(t.db)).toEqual([]);
});

describe('between own accounts', () => {
  it('converts EUR to USD at the stored rate with the exchange fee, posted at once with approve mode none', async () => {
    const eur = await account(rita.accessToken, 'EUR');
    const usd = await account(rita.accessToken, 'USD');
    const res = await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '100.00', currency: 'EUR' }, rita.accessToken);
    expect(res.body).toMatchObject({
      responseCode: '00',
      status: 'posted',
      approveType: 'none',
      approvalSentTo: null,
      amount: '100.00',
      currency: 'EUR',
      toAmount: '108.00',
      toCurrency: 'USD',
      rate: '1.08',
      // exchange: 0.5%, at least 0.50
      fee: '0.50',
      feeCurrency: 'EUR',
      scheduleId: null,
    });
    expect((await account(rita.accessToken, 'EUR')).balance).toBe('699.50');
    expect((await account(rita.accessToken, 'USD')).balance).toBe('558.00');

    // The legs: source -(amount + fee), destination +toAmount, fee account +fee, FX accounts +amount EUR / -toAmount USD.
    const row = await transferRow(res.body.transactionId as number);
    const legs = await t.db.select().from(journalLegs).where(eq(journalLegs.entryId, row.entryId!));
    const byAccount = new Map(legs.map((l) => [l.accountId, l.amountMinor]));
    expect(byAccount.get(eur.accountId)).toBe(-10050n);
    expect(byAccount.get(usd.accountId)).toBe(10800n);
    expect(byAccount.get(await providerAccountId(t.db, 'fee', 'EUR'))).toBe(50n);
    expect(byAccount.get(await providerAccountId(t.db, 'fx', 'EUR'))).toBe(10000n);
    expect(byAccount.get(await providerAccountId(t.db, 'fx', 'USD'))).toBe(-10800n);
    expect(legs).toHaveLength(5);
  });

  it('takes the amount in the destination currency and computes the source amount back', async () => {
    const eur = await account(rita.accessToken, 'EUR');
    const usd = await account(rita.accessToken, 'USD');
    const quote = await callMethod(app, 'transferFee', { operation: 'betweenAccounts', amount: '54.00', fromAccountId: eur.accountId, toAccountId: usd.accountId, currency: 'USD' }, { token: rita.accessToken });
    expect(quote.body).toMatchObject({ responseCode: '00', amount: '50.00', currency: 'EUR', toAmount: '54.00', toCurrency: 'USD', fee: '0.50', feeCurrency: 'EUR', rate: '1.08' });
    const res = await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '54.00', currency: 'USD' }, rita.accessToken);
    expect(res.body).toMatchObject({ responseCode: '00', status: 'posted', amount: '50.00', toAmount: '54.00', fee: '0.50' });
    expect(BigInt((await account(rita.accessToken, 'EUR')).balance.replace('.', ''))).toBe(BigInt(eur.balance.replace('.', '')) - 5050n);
  });

  it('answers the fee, the max amount and the limits', async () => {
    const eur = await account(rita.accessToken, 'EUR');
    const usd = await account(rita.accessToken, 'USD');
    const p2p = await callMethod(app, 'transferFee', { operation: 'p2p', amount: '100', fromAccountId: eur.accountId }, { token: rita.accessToken });
    // p2p: 0.2% + 0.10
    expect(p2p.body).toMatchObject({ responseCode: '00', fee: '0.30', amount: '100.00', toAmount: '100.00', rate: '1', currency: 'EUR', toCurrency: 'EUR' });
    const zero = await callMethod(app, 'transferFee', { operation: 'p2p', amount: '0', fromAccountId: eur.accountId }, { token: rita.accessToken });
    expect(zero.body).toMatchObject({ responseCode: '00', fee: '0.00' });
    const same = await callMethod(app, 'transferFee', { operation: 'betweenAccounts', amount: '10', fromAccountId: usd.accountId, toAccountId: eur.accountId }, { token: rita.accessToken });
    // 1 USD = 1/1.08 EUR, stored as 0.9259259259: 10 USD -> 9.259259259 -> 9.26 (half-even)
    expect(same.body).toMatchObject({ responseCode: '00', amount: '10.00', toAmount: '9.26', fee: '0.50', currency: 'USD', toCurrency: 'EUR' });

    // Max: the largest amount whose amount + fee fits the available balance.
    const max = await callMethod(app, 'transferMaxAmount', { operation: 'betweenAccounts', fromAccountId: eur.accountId, toAccountId: usd.accountId }, { token: rita.accessToken });
    expect(max.body.responseCode).toBe('00');
    const maxAmount = max.body.maxAmount as string;
    const toMinor = (s: string) => BigInt(s.replace('.', ''));
    const feeOf = async (amount: string) =>
      toMinor((await callMethod(app, 'transferFee', { operation: 'betweenAccounts', amount, fromAccountId: eur.accountId, toAccountId: usd.accountId }, { token: rita.accessToken })).body.fee as string);
    const available = toMinor(eur.balance) - toMinor(eur.pendingAmount);
    expect(toMinor(maxAmount) + (await feeOf(maxAmount))).toBeLessThanOrEqual(available);
    const oneMore = (toMinor(maxAmount) + 1n).toString();
    expect(toMinor(`${oneMore.slice(0, -2)}.${oneMore.slice(-2)}`) + (await feeOf(`${oneMore.slice(0, -2)}.${oneMore.slice(-2)}`))).toBeGreaterThan(available);
    // Sending exactly the max works and leaves nothing available.
    const all = await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: maxAmount, currency: 'EUR' }, rita.accessToken);
    expect(all.body).toMatchObject({ responseCode: '00', status: 'posted' });
    const emptied = await callMethod(app, 'transferMaxAmount', { operation: 'p2p', fromAccountId: eur.accountId }, { token: rita.accessToken });
    expect(emptied.body).toMatchObject({ responseCode: '00', maxAmount: '0.00', currency: 'EUR' });
    // Put money back for the next tests (USD -> EUR).
    const back = await money('transferBetweenAccounts', { fromAccount: usd.accountId, toAccount: eur.accountId, toAmount: '400.00', currency: 'EUR' }, rita.accessToken);
    expect(back.body).toMatchObject({ responseCode: '00', status: 'posted', toAmount: '400.00' });

    const limits = await callMethod(app, 'customerLimits', { type: 'p2p', currencyCode: 'EUR', fromAccountId: eur.accountId }, { token: rita.accessToken });
    expect(limits.body).toMatchObject({ responseCode: '00', limits: { currencyCode: 'EUR', minAmount: '0.01', maxAmount: '10000.00', dailyLimit: '25000.00', dailyRemaining: '25000.00' } });
    const between = await callMethod(app, 'customerLimits', { type: 'betweenAccounts', currencyCode: 'EUR' }, { token: rita.accessToken });
    const remaining = toMinor((between.body.limits as { dailyRemaining: string }).dailyRemaining);
    expect(remaining).toBeLessThan(2_500_000n);
  });

  it('refuses bad input on the field, changing nothing', async () => {
    const eur = await account(rita.accessToken, 'EUR');
    const usd = await account(rita.accessToken, 'USD');
    const before = await currencyTotals(t.db);
    expectVf(await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '1.005', currency: 'EUR' }, rita.accessToken), 'toAmount', /at most 2 decimals/);
    expectVf(await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '0', currency: 'EUR' }, rita.accessToken), 'toAmount', /more than 0/);
    expectVf(await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: 'ten', currency: 'EUR' }, rita.accessToken), 'toAmount');
    expectVf(await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: eur.accountId, toAmount: '1', currency: 'EUR' }, rita.accessToken), 'toAccount', /another account/);
    expectVf(await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '1', currency: 'GBP' }, rita.accessToken), 'currency');
    expectVf(await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '1', currency: 'XXX' }, rita.accessToken), 'currency');
    const overBalance = await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '9000.00', currency: 'EUR' }, rita.accessToken);
    expectVf(overBalance, 'toAmount', /available balance/);
    // The code the app words in the customer's language (api/errors.ts), with its parameters.
    expect(overBalance.body.validationErrors).toEqual([{ param: 'toAmount', description: 'exceeds the available balance', code: 'balanceExceeded', params: {} }]);
    const overMax = await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '10000.01', currency: 'EUR' }, rita.accessToken);
    expectVf(overMax, 'toAmount', /at most 10000.00 EUR/);
    expect(overMax.body.validationErrors).toEqual([
      { param: 'toAmount', description: 'must be at most 10000.00 EUR per transfer', code: 'aboveMaximum', params: { amount: '10000.00', currency: 'EUR' } },
    ]);
    expectVf(
      await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '1', currency: 'EUR', subscriptionTransactions: 3 }, rita.accessToken),
      'subscriptionFrequency',
      /required/,
    );
    expectVf(await callMethod(app, 'transferFee', { operation: 'betweenAccounts', amount: '1', fromAccountId: eur.accountId }, { token: rita.accessToken }), 'toAccountId', /required/);
    expectVf(await money('transferP2p', { accountId: eur.accountId, amount: '1', currency: 'EUR', toEmail: 'nobody@demo.test' }, rita.accessToken), 'toEmail', /No customer/);
    expectVf(await money('transferP2p', { accountId: eur.accountId, amount: '1', currency: 'EUR', toEmail: 'rita@demo.test' }, rita.accessToken), 'toEmail', /yourself/);
    expectVf(await money('transferP2p', { accountId: eur.accountId, amount: '1', currency: 'USD', toEmail: 'tom@demo.test' }, rita.accessToken), 'currency');
    // boris has no USD account
    const usdP2p = await money('transferP2p', { accountId: usd.accountId, amount: '1', currency: 'USD', toEmail: 'boris@demo.test' }, rita.accessToken);
    expectVf(usdP2p, 'toEmail', /no account in USD/);
    expect(await currencyTotals(t.db)).toEqual(before);
    expect((await account(rita.accessToken, 'EUR')).pendingAmount).toBe('0.00');
  });

  it('answers ENOA for another customer\'s account, CA for a closed one, 13 without the flags', async () => {
    const ritaEur = await account(rita.accessToken, 'EUR');
    const tomEur = await account(tom.accessToken, 'EUR');
    const steal = await money('transferBetweenAccounts', { fromAccount: tomEur.accountId, toAccount: ritaEur.accountId, toAmount: '1', currency: 'EUR' }, rita.accessToken);
    expect(steal.body.responseCode).toBe('ENOA');
    const into = await money('transferBetweenAccounts', { fromAccount: ritaEur.accountId, toAccount: tomEur.accountId, toAmount: '1', currency: 'EUR' }, rita.accessToken);
    expect(into.body.responseCode).toBe('ENOA');
    expect((await callMethod(app, 'transferFee', { operation: 'p2p', amount: '1', fromAccountId: tomEur.accountId }, { token: rita.accessToken })).body.responseCode).toBe('ENOA');
    expect((await callMethod(app, 'transferMaxAmount', { operation: 'p2p', fromAccountId: tomEur.accountId }, { token: rita.accessToken })).body.responseCode).toBe('ENOA');
    const provider = await providerAccountId(t.db, 'capital', 'EUR');
    expect((await money('transferBetweenAccounts', { fromAccount: provider, toAccount: ritaEur.accountId, toAmount: '1', currency: 'EUR' }, rita.accessToken)).body.responseCode).toBe('ENOA');

    const [closed] = await t.db.insert(accounts).values({ type: 1001, currency: 'GBP', customerId: ritaEur.customerId, status: 11 }).returning();
    const toClosed = await money('transferBetweenAccounts', { fromAccount: ritaEur.accountId, toAccount: closed!.accountId, toAmount: '1', currency: 'EUR' }, rita.accessToken);
    expect(toClosed.body.responseCode).toBe('CA');
    expect((await callMethod(app, 'transferFee', { operation: 'p2p', amount: '1', fromAccountId: closed!.accountId }, { token: rita.accessToken })).body.responseCode).toBe('CA');

    // boris holds no money flags: every transfer call answers 13.
    const borisEur = await account(boris.accessToken, 'EUR');
    for (const [name, body] of [
      ['transferFee', { operation: 'p2p', amount: '1', fromAccountId: borisEur.accountId }],
      ['transferMaxAmount', { operation: 'p2p', fromAccountId: borisEur.accountId }],
      ['customerLimits', { type: 'p2p', currencyCode: 'EUR' }],
      ['transferStatus', { trxid: 1 }],
    ] as const) {
      expect((await callMethod(app, name, body, { token: boris.accessToken })).body.responseCode, name).toBe('13');
    }
    expect((await money('transferP2p', { accountId: borisEur.accountId, amount: '1', currency: 'EUR', toEmail: 'rita@demo.test' }, boris.accessToken)).body.responseCode).toBe('13');
    expect((await money('transferCancel', { trxid: 1 }, boris.accessToken)).body.responseCode).toBe('13');
    // The viewer's read access to Northwind moves no money.
    const [northwind] = await t.db.select({ id: customers.id }).from(customers).where(eq(customers.businessName, 'Northwind Trading Ltd'));
    const nwEur = (await accountsOf(viewer.accessToken)).length; // the viewer's own customer has no accounts
    expect(nwEur).toBe(0);
    const viewerCall = await callMethod(app, 'customerLimits', { type: 'betweenAccounts', currencyCode: 'EUR', fromCustomerId: northwind!.id }, { token: viewer.accessToken });
    expect(viewerCall.body.responseCode).toBe('13');
  });

  it('keeps to the daily limit over pending and posted transfers of the UTC day', async () => {
    await t.db.update(transferLimits).set({ dailyMinor: 15_000n }).where(and(eq(transferLimits.operation, 'p2p'), eq(transferLimits.currency, 'EUR')));
    try {
      const eur = await account(rita.accessToken, 'EUR');
      const first = await money('transferP2p', { accountId: eur.accountId, amount: '100.00', currency: 'EUR', toEmail: 'tom@demo.test' }, rita.accessToken);
      expect(first.body).toMatchObject({ responseCode: '00', status: 'posted' });
      const second = await money('transferP2p', { accountId: eur.accountId, amount: '60.00', currency: 'EUR', toEmail: 'tom@demo.test' }, rita.accessToken);
      expectVf(second, 'amount', /today's limit \(50.00 EUR left\)/);
      const limits = await callMethod(app, 'customerLimits', { type: 'p2p', currencyCode: 'EUR' }, { token: rita.accessToken });
      expect((limits.body.limits as { dailyRemaining: string }).dailyRemaining).toBe('50.00');
      expect((await money('transferP2p', { accountId: eur.accountId, amount: '50.00', currency: 'EUR', toEmail: 'tom@demo.test' }, rita.accessToken)).body.responseCode).toBe('00');
    } finally {
      await t.db.update(transferLimits).set({ dailyMinor: 2_500_000n }).where(and(eq(transferLimits.operation, 'p2p'), eq(transferLimits.currency, 'EUR')));
    }
  });

  it('refuses a payee who blacklisted the sender', async () => {
    const [ritaUser] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, 'rita@demo.test'));
    await t.db.insert(blacklist).values({ customerId: ritaUser!.customerId, email: 'tom@demo.test' });
    try {
      const eur = await account(tom.accessToken, 'EUR');
      expectVf(await money('transferP2p', { accountId: eur.accountId, amount: '1', currency: 'EUR', toEmail: 'rita@demo.test' }, tom.accessToken), 'toEmail', /does not accept/);
    } finally {
      await t.db.delete(blacklist).where(eq(blacklist.customerId, ritaUser!.customerId));
    }
  });
});

describe('approval by SMS (tom)', () => {
  it('holds the money, takes the code from the SMS and posts; a wrong code counts and changes nothing else', async () => {
    const tomEur = await account(tom.accessToken, 'EUR');
    const ritaEur = await account(rita.accessToken, 'EUR');
    const res = await money('transferP2p', { accountId: tomEur.accountId, amount: '25.00', currency: 'EUR', toEmail: 'rita@demo.test', note: 'Dinner' }, tom.accessToken);
    expect(res.body).toMatchObject({ responseCode: '00', status: 'pending', approveType: 'sms', approvalSentTo: '+370 *** **77', fee: '0.15', amount: '25.00' });
    const id = res.body.transactionId as number;
    // 25.00 + 0.15 held; the balance itself is unchanged until approval.
    expect(await account(tom.accessToken, 'EUR')).toMatchObject({ balance: tomEur.balance, pendingAmount: '25.15' });

    const code = await lastSmsCode(tomPhone);
    const wrong = await money('approveTransfer', { trxid: id, approvalCode: code === '000000' ? '111111' : '000000' }, tom.accessToken);
    expectVf(wrong, 'approvalCode', /wrong.*4 tries left/);
    expect((await transferRow(id)).status).toBe('pending');

    const ok = await money('approveTransfer', { trxid: id, approvalCode: code }, tom.accessToken);
    expect(ok.body).toMatchObject({ responseCode: '00', status: 'posted', transactionId: id, approvalSentTo: '+370 *** **77' });
    const after = await account(tom.accessToken, 'EUR');
    expect(after.pendingAmount).toBe('0.00');
    expect(BigInt(after.balance.replace('.', ''))).toBe(BigInt(tomEur.balance.replace('.', '')) - 2515n);
    expect(BigInt((await account(rita.accessToken, 'EUR')).balance.replace('.', ''))).toBe(BigInt(ritaEur.balance.replace('.', '')) + 2500n);

    // Approving again with another key: no longer pending.
    expect((await money('approveTransfer', { trxid: id, approvalCode: code }, tom.accessToken)).body.responseCode).toBe('TA1');
    const status = await callMethod(app, 'transferStatus', { trxid: id }, { token: tom.accessToken });
    expect(status.body).toMatchObject({ responseCode: '00', status: 'posted' });
    // Someone else's transfer answers as one that does not exist: ENOA, the same description.
    const theirs = await callMethod(app, 'transferStatus', { trxid: id }, { token: rita.accessToken });
    expect(theirs.body.responseCode).toBe('ENOA');
    expect((await callMethod(app, 'transferStatus', { trxid: 999_999 }, { token: rita.accessToken })).body).toEqual(theirs.body);
  });

  it('resends a new code at most every 30 seconds; the old code stops working', async () => {
    const tomEur = await account(tom.accessToken, 'EUR');
    const res = await money('transferP2p', { accountId: tomEur.accountId, amount: '5.00', currency: 'EUR', toEmail: 'rita@demo.test' }, tom.accessToken);
    const id = res.body.transactionId as number;
    const first = await lastSmsCode(tomPhone);
    const tooSoon = await callMethod(app, 'resendApproval', { trxid: id }, { token: tom.accessToken });
    expect(tooSoon.body.responseCode).toBe('TA1');
    tick(31);
    const resent = await callMethod(app, 'resendApproval', { trxid: id }, { token: tom.accessToken });
    expect(resent.body).toMatchObject({ responseCode: '00', approvalSentTo: '+370 *** **77' });
    const second = await lastSmsCode(tomPhone);
    if (first !== second) expectVf(await money('approveTransfer', { trxid: id, approvalCode: first }, tom.accessToken), 'approvalCode');
    expect((await money('approveTransfer', { trxid: id, approvalCode: second }, tom.accessToken)).body).toMatchObject({ responseCode: '00', status: 'posted' });
  });

  it('rejects the transfer at the fifth wrong code and releases the hold', async () => {
    const tomEur = await account(tom.accessToken, 'EUR');
    const events: unknown[] = [];
    const off = t.publisher.subscribe(tomEur.customerId, (e) => events.push(e));
    const res = await money('transferP2p', { accountId: tomEur.accountId, amount: '7.00', currency: 'EUR', toEmail: 'rita@demo.test' }, tom.accessToken);
    const id = res.body.transactionId as number;
    const code = await lastSmsCode(tomPhone);
    const wrongCode = code === '123456' ? '654321' : '123456';
    for (let i = 1; i <= 4; i++) expectVf(await money('approveTransfer', { trxid: id, approvalCode: wrongCode }, tom.accessToken), 'approvalCode', /wrong/);
    expectVf(await money('approveTransfer', { trxid: id, approvalCode: wrongCode }, tom.accessToken), 'approvalCode', /Too many wrong codes/);
    expect((await transferRow(id)).status).toBe('rejected');
    expect((await account(tom.accessToken, 'EUR')).pendingAmount).toBe('0.00');
    // The right code is too late now.
    expect((await money('approveTransfer', { trxid: id, approvalCode: code }, tom.accessToken)).body.responseCode).toBe('TA1');
    await new Promise((r) => setTimeout(r, 20));
    off();
    expect(events).toContainEqual({ type: 'TransferApproval', transactionId: id, status: 'rejected' });
  });

  it('expires a pending transfer after TRANSFER_APPROVAL_TTL_S: lazily when touched, and by the sweeper', async () => {
    const tomEur = await account(tom.accessToken, 'EUR');
    const a = await money('transferP2p', { accountId: tomEur.accountId, amount: '3.00', currency: 'EUR', toEmail: 'rita@demo.test' }, tom.accessToken);
    const b = await money('transferP2p', { accountId: tomEur.accountId, amount: '4.00', currency: 'EUR', toEmail: 'rita@demo.test' }, tom.accessToken);
    expect(a.body.expiresAt).toBe(new Date(clockMs + TRANSFER_APPROVAL_TTL_S * 1000).toISOString());
    // 3.00 + 0.11 and 4.00 + 0.11 (p2p: 0.10 + 0.2%, half-even to the cent)
    expect((await account(tom.accessToken, 'EUR')).pendingAmount).toBe('7.22');
    tick(TRANSFER_APPROVAL_TTL_S + 1);
    await signInAll();
    const code = await lastSmsCode(tomPhone);
    const late = await money('approveTransfer', { trxid: b.body.transactionId, approvalCode: code }, tom.accessToken);
    expect(late.body).toMatchObject({ responseCode: 'TA1', responseDescription: 'This transfer has expired' });
    expect((await transferRow(b.body.transactionId as number)).status).toBe('expired');
    // Every pending transfer past its time: tom's other one, and the demo history's pending transfer
    // of anna when the test clock is past its expiry.
    const [due] = (
      (await t.db.execute(sql`select count(*)::int as n from transfers where status = 'pending' and expires_at <= ${new Date(clockMs).toISOString()}::timestamptz`)) as unknown as { rows: { n: number }[] }
    ).rows;
    expect(due!.n).toBeGreaterThanOrEqual(1);
    expect(await expireDueTransfers(t.db, clockMs)).toBe(due!.n);
    expect((await transferRow(a.body.transactionId as number)).status).toBe('expired');
    expect((await account(tom.accessToken, 'EUR')).pendingAmount).toBe('0.00');
    expect((await callMethod(app, 'transferStatus', { trxid: a.body.transactionId }, { token: tom.accessToken })).body).toMatchObject({ responseCode: '00', status: 'expired' });
  });

  it('cancels a pending transfer and releases its hold', async () => {
    const tomEur = await account(tom.accessToken, 'EUR');
    const res = await money('transferP2p', { accountId: tomEur.accountId, amount: '9.99', currency: 'EUR', toEmail: 'rita@demo.test' }, tom.accessToken);
    const id = res.body.transactionId as number;
    expect((await account(tom.accessToken, 'EUR')).pendingAmount).not.toBe('0.00');
    const canceled = await money('transferCancel', { trxid: id }, tom.accessToken);
    expect(canceled.body).toMatchObject({ responseCode: '00', status: 'canceled', transactionId: id });
    expect((await account(tom.accessToken, 'EUR')).pendingAmount).toBe('0.00');
    expect((await money('transferCancel', { trxid: id }, tom.accessToken)).body.responseCode).toBe('TA1');
    expect((await money('transferCancel', { trxid: id }, rita.accessToken)).body.responseCode).toBe('ENOA');
  });
});

describe('approval by authenticator and by approval code', () => {
  it('otp: the authenticator code approves once; a used step is refused', async () => {
    tick(60);
    const eur = await account(anna.accessToken, 'EUR');
    const usd = await account(anna.accessToken, 'USD');
    const first = await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '10.00', currency: 'EUR' }, anna.accessToken);
    expect(first.body).toMatchObject({ responseCode: '00', status: 'pending', approveType: 'otp', approvalSentTo: null });
    const code = totpCode(demoUserByKey.anna.totpSecret, clockMs);
    const ok = await money('approveTransfer', { trxid: first.body.transactionId, approvalCode: code }, anna.accessToken);
    expect(ok.body).toMatchObject({ responseCode: '00', status: 'posted' });
    const second = await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '10.00', currency: 'EUR' }, anna.accessToken);
    expectVf(await money('approveTransfer', { trxid: second.body.transactionId, approvalCode: code }, anna.accessToken), 'approvalCode', /already used/);
    expectVf(await money('approveTransfer', { trxid: second.body.transactionId, approvalCode: '12345678' }, anna.accessToken), 'approvalCode', /wrong/);
    tick(30);
    const next = await money('approveTransfer', { trxid: second.body.transactionId, approvalCode: totpCode(demoUserByKey.anna.totpSecret, clockMs) }, anna.accessToken);
    expect(next.body).toMatchObject({ responseCode: '00', status: 'posted' });
    // Nothing to resend for an authenticator.
    const third = await money('transferBetweenAccounts', { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '1.00', currency: 'EUR' }, anna.accessToken);
    expect((await callMethod(app, 'resendApproval', { trxid: third.body.transactionId }, { token: anna.accessToken })).body.responseCode).toBe('TA1');
    expect((await money('transferCancel', { trxid: third.body.transactionId }, anna.accessToken)).body.responseCode).toBe('00');
  });

  it('approvalCode: the user\'s approval code approves', async () => {
    await setApproveMode('tom@demo.test', 'approvalCode');
    await t.db.update(users).set({ approvalCodeHash: await hashPassword('246810') }).where(eq(users.email, 'tom@demo.test'));
    try {
      const eur = await account(tom.accessToken, 'EUR');
      const res = await money('transferP2p', { accountId: eur.accountId, amount: '2.00', currency: 'EUR', toEmail: 'rita@demo.test' }, tom.accessToken);
      expect(res.body).toMatchObject({ responseCode: '00', status: 'pending', approveType: 'approvalCode' });
      expectVf(await money('approveTransfer', { trxid: res.body.transactionId, approvalCode: '135791' }, tom.accessToken), 'approvalCode', /wrong/);
      expect((await money('approveTransfer', { trxid: res.body.transactionId, approvalCode: '246810' }, tom.accessToken)).body).toMatchObject({ responseCode: '00', status: 'posted' });
    } finally {
      await setApproveMode('tom@demo.test', 'sms');
    }
  });

  it('answers TA1 when the mode cannot be used: no approval code set', async () => {
    await setApproveMode('rita@demo.test', 'approvalCode');
    try {
      const eur = await account(rita.accessToken, 'EUR');
      const res = await money('transferP2p', { accountId: eur.accountId, amount: '2.00', currency: 'EUR', toEmail: 'tom@demo.test' }, rita.accessToken);
      expect(res.body).toMatchObject({ responseCode: 'TA1', responseDescription: 'Set an approval code to approve transfers' });
      expect((await account(rita.accessToken, 'EUR')).pendingAmount).toBe('0.00');
    } finally {
      await setApproveMode('rita@demo.test', 'none');
    }
  });
});

describe('approval on a linked phone (push)', () => {
  async function send(method: 'GET' | 'POST' | 'PUT', url: string, options: { body?: unknown; token?: string } = {}): Promise<LightMyRequestResponse> {
    return app.inject({
      method,
      url,
      ...(options.body !== undefined ? { payload: options.body as Record<string, unknown> } : {}),
      headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    });
  }

  it('shows the amount and payee on the phone; approving posts, declining rejects with "Transaction was rejected."', async () => {
    // rita links a phone and approves transfers on it.
    const started = (await send('POST', '/auth/devices', { token: rita.accessToken, body: { name: 'Rita phone' } })).json() as { device: { id: number }; code: string };
    const linked = await send('POST', `/auth/devices/${started.device.id}/approve`, { body: { code: started.code, type: 'android' } });
    expect(linked.statusCode, linked.body).toBe(200);
    const secret = (linked.json() as { secret: string }).secret;
    const deviceToken = ((await send('POST', '/auth/token', { body: { secret } })).json() as { accessToken: string }).accessToken;
    await setApproveMode('rita@demo.test', 'push');
    try {
      const eur = await account(rita.accessToken, 'EUR');
      const events: { type: string }[] = [];
      const off = t.publisher.subscribe(eur.customerId, (e) => events.push(e));
      const res = await money('transferP2p', { accountId: eur.accountId, amount: '5.00', currency: 'EUR', toEmail: 'tom@demo.test' }, rita.accessToken);
      expect(res.body).toMatchObject({ responseCode: '00', status: 'pending', approveType: 'push' });
      const id = res.body.transactionId as number;
      expect((await money('approveTransfer', { trxid: id, approvalCode: '123456' }, rita.accessToken)).body).toMatchObject({ responseCode: 'TA1', responseDescription: 'Approve this transfer on your phone' });

      const pending = (await send('GET', '/device-api/device', { token: deviceToken })).json() as { pending: ApprovalRequest[] };
      const request = pending.pending.find((r) => r.kind === 'transfer' && r.transfer?.transactionId === id);
      expect(request?.transfer).toEqual({ transactionId: id, amount: '5.00', currency: 'EUR', fee: '0.11', payeeName: 'Tom Tamm' });
      const answer = await send('PUT', `/auth/login/${encodeURIComponent(request!.key)}/confirm`, { token: deviceToken, body: { result: true } });
      expect(answer.json()).toEqual({ result: true });
      expect((await callMethod(app, 'transferStatus', { trxid: id }, { token: rita.accessToken })).body).toMatchObject({ responseCode: '00', status: 'posted' });
      expect((await account(rita.accessToken, 'EUR')).pendingAmount).toBe('0.00');

      const declinedRes = await money('transferP2p', { accountId: eur.accountId, amount: '6.00', currency: 'EUR', toEmail: 'tom@demo.test' }, rita.accessToken);
      const declinedId = declinedRes.body.transactionId as number;
      const list = (await send('GET', '/device-api/device', { token: deviceToken })).json() as { pending: ApprovalRequest[] };
      const second = list.pending.find((r) => r.transfer?.transactionId === declinedId)!;
      expect((await send('PUT', `/auth/login/${encodeURIComponent(second.key)}/confirm`, { token: deviceToken, body: { result: false } })).json()).toEqual({ result: true });
      const status = await callMethod(app, 'transferStatus', { trxid: declinedId }, { token: rita.accessToken });
      expect(status.body).toMatchObject({ responseCode: '00', status: 'rejected', responseDescription: 'Transaction was rejected.' });
      expect((await account(rita.accessToken, 'EUR')).pendingAmount).toBe('0.00');

      // Canceling a push transfer closes its request: the phone's later answer counts for nothing.
      const canceledRes = await money('transferP2p', { accountId: eur.accountId, amount: '1.00', currency: 'EUR', toEmail: 'tom@demo.test' }, rita.accessToken);
      const canceledId = canceledRes.body.transactionId as number;
      const third = ((await send('GET', '/device-api/device', { token: deviceToken })).json() as { pending: ApprovalRequest[] }).pending.find((r) => r.transfer?.transactionId === canceledId)!;
      expect((await money('transferCancel', { trxid: canceledId }, rita.accessToken)).body).toMatchObject({ responseCode: '00', status: 'canceled' });
      expect((await send('PUT', `/auth/login/${encodeURIComponent(third.key)}/confirm`, { token: deviceToken, body: { result: true } })).json()).toEqual({ result: false });
      expect((await transferRow(canceledId)).status).toBe('canceled');

      await new Promise((r) => setTimeout(r, 50));
      off();
      expect(events).toContainEqual({ type: 'TransferApproval', transactionId: id, status: 'posted' });
      expect(events).toContainEqual({ type: 'TransferApproval', transactionId: declinedId, status: 'rejected', description: 'Transaction was rejected.' });
    } finally {
      await setApproveMode('rita@demo.test', 'none');
      // Unlinked again: linking made the phone rita's sign-in step, and her demo sign-in is simple.
      await t.db.update(users).set({ login2faMode: 'no' }).where(eq(users.email, 'rita@demo.test'));
      const unlinked = await app.inject({ method: 'DELETE', url: `/auth/devices/${started.device.id}`, headers: { authorization: `Bearer ${rita.accessToken}` } });
      expect(unlinked.statusCode, unlinked.body).toBe(204);
    }
  });

  it('refuses push mode without a linked phone (TA1), holding nothing', async () => {
    await setApproveMode('tom@demo.test', 'push');
    try {
      const eur = await account(tom.accessToken, 'EUR');
      const res = await money('transferP2p', { accountId: eur.accountId, amount: '1.00', currency: 'EUR', toEmail: 'rita@demo.test' }, tom.accessToken);
      expect(res.body).toMatchObject({ responseCode: 'TA1', responseDescription: 'Link a phone to approve transfers on it' });
      expect((await account(tom.accessToken, 'EUR')).pendingAmount).toBe('0.00');
    } finally {
      await setApproveMode('tom@demo.test', 'sms');
    }
  });
});

describe('recurring transfers', () => {
  it('books each due run once, pre-approved, until the number of runs', async () => {
    const eur = await account(rita.accessToken, 'EUR');
    const usd = await account(rita.accessToken, 'USD');
    const res = await money(
      'transferBetweenAccounts',
      { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '1.00', currency: 'USD', subscriptionFrequency: 'daily', subscriptionTransactions: 3 },
      rita.accessToken,
    );
    expect(res.body).toMatchObject({ responseCode: '00', status: 'posted' });
    const scheduleId = res.body.scheduleId as number;
    expect(scheduleId).toBeGreaterThan(0);
    const schedule = async () => (await t.db.select().from(transferSchedules).where(eq(transferSchedules.id, scheduleId)))[0]!;
    expect(await schedule()).toMatchObject({ status: 'active', transactionsDone: 1 });

    expect(await runDueSchedules(t.db, clockMs)).toBe(0);
    tick(24 * 60 * 60 + 1);
    expect(await runDueSchedules(t.db, clockMs)).toBe(1);
    // Run again at the same moment: nothing more is due.
    expect(await runDueSchedules(t.db, clockMs)).toBe(0);
    expect(await schedule()).toMatchObject({ status: 'active', transactionsDone: 2, lastError: null });
    tick(24 * 60 * 60);
    expect(await runDueSchedules(t.db, clockMs)).toBe(1);
    expect(await schedule()).toMatchObject({ status: 'finished', transactionsDone: 3 });
    tick(24 * 60 * 60);
    expect(await runDueSchedules(t.db, clockMs)).toBe(0);
    const runs = await t.db.select().from(transfers).where(eq(transfers.scheduleId, scheduleId));
    expect(runs.map((r) => r.status)).toEqual(['posted', 'posted', 'posted']);
    const keys = await t.db.execute(sql`select idempotency_key from journal_entries where idempotency_key like ${`schedule:${scheduleId}:%`} order by idempotency_key`);
    expect((keys as unknown as { rows: { idempotency_key: string }[] }).rows.map((r) => r.idempotency_key)).toEqual([`schedule:${scheduleId}:2`, `schedule:${scheduleId}:3`]);
  });

  it('waits for the first approval, skips a run that cannot be paid and keeps the error', async () => {
    const eur = await account(tom.accessToken, 'EUR');
    const res = await money('transferP2p', { accountId: eur.accountId, amount: '1.00', currency: 'EUR', toEmail: 'rita@demo.test', subscriptionFrequency: 'weekly' }, tom.accessToken);
    expect(res.body).toMatchObject({ responseCode: '00', status: 'pending' });
    const scheduleId = res.body.scheduleId as number;
    const schedule = async () => (await t.db.select().from(transferSchedules).where(eq(transferSchedules.id, scheduleId)))[0]!;
    expect(await schedule()).toMatchObject({ status: 'awaitingApproval' });
    const approved = await money('approveTransfer', { trxid: res.body.transactionId, approvalCode: await lastSmsCode(tomPhone) }, tom.accessToken);
    expect(approved.body).toMatchObject({ responseCode: '00', status: 'posted' });
    expect(await schedule()).toMatchObject({ status: 'active', transactionsDone: 1 });

    await t.db.update(transferSchedules).set({ request: { amount: '99999.00', currency: 'EUR', toEmail: 'rita@demo.test' } }).where(eq(transferSchedules.id, scheduleId));
    tick(7 * 24 * 60 * 60 + 1);
    expect(await runDueSchedules(t.db, clockMs)).toBe(0);
    const skipped = await schedule();
    expect(skipped).toMatchObject({ status: 'active', transactionsDone: 1 });
    expect(skipped.lastError).toMatch(/amount/);
    expect(skipped.nextRunAt.getTime()).toBeGreaterThan(clockMs);

    await t.db.update(transferSchedules).set({ request: { amount: '1.00', currency: 'EUR', toEmail: 'rita@demo.test' } }).where(eq(transferSchedules.id, scheduleId));
    tick(7 * 24 * 60 * 60);
    expect(await runDueSchedules(t.db, clockMs)).toBe(1);
    expect(await schedule()).toMatchObject({ status: 'active', transactionsDone: 2, lastError: null });
    await t.db.update(transferSchedules).set({ status: 'canceled' }).where(eq(transferSchedules.id, scheduleId));
  });

  it('cancels the schedule when its first transfer is voided', async () => {
    const eur = await account(tom.accessToken, 'EUR');
    const res = await money('transferP2p', { accountId: eur.accountId, amount: '1.00', currency: 'EUR', toEmail: 'rita@demo.test', subscriptionFrequency: 'monthly', subscriptionEndDate: '2999-01-01' }, tom.accessToken);
    expect((await money('transferCancel', { trxid: res.body.transactionId }, tom.accessToken)).body.responseCode).toBe('00');
    const [schedule] = await t.db.select().from(transferSchedules).where(eq(transferSchedules.id, res.body.scheduleId as number));
    expect(schedule).toMatchObject({ status: 'canceled' });
    expectVf(await money('transferP2p', { accountId: eur.accountId, amount: '1.00', currency: 'EUR', toEmail: 'rita@demo.test', subscriptionFrequency: 'monthly', subscriptionEndDate: '2000-01-01' }, tom.accessToken), 'subscriptionEndDate');
  });
});
