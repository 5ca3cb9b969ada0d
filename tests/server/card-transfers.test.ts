/**
 * Money onto and off a card through the transfer pipeline (issue 16; api/cards.ts cardActionAllowed,
 * document 2 §4): a prepaid card is loaded while active only and unloaded while active, paused or
 * expired, both by a transfer between the customer's own accounts; its money never leaves to
 * anyone else (p2p refused on the source); a debit card holds no money of its own and is never a
 * side of a transfer; a refusal writes and holds nothing. Sam (the demo cards' owner: a EUR
 * account, an active virtual EUR card with €25) posts at once here (approve mode none), so his
 * requests take the one-statement path first: a card sends them the transactional way, where the
 * rule is checked. A load approved after the card was paused is rejected. A recurring load stops once the card is paused (a schedule's run goes the same
 * way). Opening an account: a card in a currency does not count as the customer's account in it.
 * The ledger reconciles at the end.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CardStatus, isCardType } from '../../api/cards.ts';
import { VfCode } from '../../api/errors.ts';
import { PERMISSION_FLAGS } from '../../api/transfers.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { reconcile } from '../../server/modules/accounts/ledger.ts';
import { hashPassword } from '../../server/modules/auth/crypto.ts';
import { CARD_PRODUCTS } from '../../server/modules/cards/products.ts';
import { customers, users } from '../../server/modules/customers/customers.tables.ts';
import { transferSchedules, transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { runDueSchedules } from '../../server/modules/transfers/workers.ts';
import { callMethod, createTestApp, signIn, type MethodAnswer, type TestApp } from './harness.ts';

let t: TestApp;
let token = '';
let customerId = 0;
let eurAccountId = 0;
let cardId = 0;

beforeAll(async () => {
  t = await createTestApp({ demoData: 'without-history' });
  // sam signs in by SMS and holds no money flags in the demo: neither is what this file tests
  const flags = Object.fromEntries(Object.entries(PERMISSION_FLAGS).flatMap(([group, names]) => names.map((n) => [`${group}.${n}`, true])));
  await t.db.update(users).set({ login2faMode: 'no', moneyPermissions: flags }).where(eq(users.email, demoUserByKey.sam.email));
  token = (await signIn(t.app, 'sam')).accessToken;
  const [user] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, demoUserByKey.sam.email));
  customerId = user!.customerId;
  // posted at once: the one-statement path is tried first
  await t.db.update(customers).set({ transactionApproveMode: 'none' }).where(eq(customers.id, customerId));
  const own = await t.db.select().from(accounts).where(eq(accounts.customerId, customerId));
  eurAccountId = own.find((a) => a.currency === 'EUR' && !isCardType(a.type))!.accountId;
  cardId = own.find((a) => isCardType(a.type) && a.status === CardStatus.active && a.balanceMinor === 2500n)!.accountId;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const key = () => `k-${Math.random().toString(36).slice(2)}`;
const call = (name: string, body: Record<string, unknown>) => callMethod(t.app, name, body, { token, headers: { 'idempotency-key': key() } });
const between = (fromAccount: number, toAccount: number, toAmount: string, extra: Record<string, unknown> = {}) =>
  call('transferBetweenAccounts', { fromAccount, toAccount, toAmount, currency: 'EUR', ...extra });
const errorsOf = (res: MethodAnswer) => {
  expect(res.body.responseCode, JSON.stringify(res.body)).toBe('VF');
  return (res.body.validationErrors as { param: string; code: string }[]).map((e) => ({ param: e.param, code: e.code }));
};
const balanceOf = async (accountId: number) => {
  const [row] = await t.db.select({ balance: accounts.balanceMinor, pending: accounts.pendingMinor }).from(accounts).where(eq(accounts.accountId, accountId));
  return row!;
};
const setStatus = (accountId: number, status: number) => t.db.update(accounts).set({ status }).where(eq(accounts.accountId, accountId));
const transferCount = async () => (await t.db.select({ id: transfers.id }).from(transfers).where(eq(transfers.customerId, customerId))).length;

describe('loading and unloading a card', () => {
  it('loads an active card from an own account', async () => {
    const res = await between(eurAccountId, cardId, '10.00');
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', status: 'posted' });
    expect(await balanceOf(cardId)).toEqual({ balance: 3500n, pending: 0n });
  });

  it('refuses to load a paused card (cardStatus on toAccount), nothing written or held', async () => {
    await setStatus(cardId, CardStatus.paused);
    const before = await transferCount();
    expect(errorsOf(await between(eurAccountId, cardId, '5.00'))).toEqual([{ param: 'toAccount', code: VfCode.cardStatus }]);
    expect(await transferCount()).toBe(before);
    expect(await balanceOf(cardId)).toEqual({ balance: 3500n, pending: 0n });
    expect((await balanceOf(eurAccountId)).pending).toBe(0n);
  });

  it('unloads a paused card to an own account', async () => {
    const res = await between(cardId, eurAccountId, '5.00');
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', status: 'posted' });
    expect(await balanceOf(cardId)).toEqual({ balance: 3000n, pending: 0n });
  });

  it('refuses to unload a canceled card, and to load it (cardStatus on each side)', async () => {
    await setStatus(cardId, CardStatus.canceled);
    expect(errorsOf(await between(cardId, eurAccountId, '1.00'))).toEqual([{ param: 'fromAccount', code: VfCode.cardStatus }]);
    expect(errorsOf(await between(eurAccountId, cardId, '1.00'))).toEqual([{ param: 'toAccount', code: VfCode.cardStatus }]);
    await setStatus(cardId, CardStatus.active);
  });

  it('refuses a payment to someone else from a card (notAllowed on the source)', async () => {
    const res = await call('transferP2p', { accountId: cardId, amount: '1.00', currency: 'EUR', toEmail: demoUserByKey.rita.email });
    expect(errorsOf(res)).toEqual([{ param: 'accountId', code: VfCode.notAllowed }]);
    expect(await balanceOf(cardId)).toEqual({ balance: 3000n, pending: 0n });
  });

  it('never moves money onto or off a debit card (notAllowed)', async () => {
    const debit = CARD_PRODUCTS.find((p) => p.kind === 'debit' && p.currency === 'EUR')!;
    const [row] = await t.db
      .insert(accounts)
      .values({ type: debit.type, subType: 'DEBIT', currency: 'EUR', customerId, purpose: 'customer', status: CardStatus.active })
      .returning({ id: accounts.accountId });
    const debitId = row!.id;
    expect(errorsOf(await between(eurAccountId, debitId, '1.00'))).toEqual([{ param: 'toAccount', code: VfCode.notAllowed }]);
    expect(errorsOf(await between(debitId, eurAccountId, '1.00'))).toEqual([{ param: 'fromAccount', code: VfCode.notAllowed }]);
    await setStatus(debitId, 11);
  });
});

describe('a load waiting for its approval', () => {
  it('is rejected, its hold released, when the card was paused meanwhile', async () => {
    await t.db.update(customers).set({ transactionApproveMode: 'approvalCode' }).where(eq(customers.id, customerId));
    await t.db
      .update(users)
      .set({ approvalCodeHash: await hashPassword('246810') })
      .where(eq(users.email, demoUserByKey.sam.email));
    try {
      const res = await between(eurAccountId, cardId, '2.00');
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', status: 'pending' });
      expect((await balanceOf(eurAccountId)).pending).toBe(200n);
      await setStatus(cardId, CardStatus.paused);
      const approved = await call('approveTransfer', { trxid: res.body.transactionId, approvalCode: '246810' });
      expect(errorsOf(approved)).toEqual([{ param: 'trxid', code: VfCode.cardStatus }]);
      const [row] = await t.db
        .select({ status: transfers.status })
        .from(transfers)
        .where(eq(transfers.id, res.body.transactionId as number));
      expect(row!.status).toBe('rejected');
      expect((await balanceOf(eurAccountId)).pending).toBe(0n);
      expect(await balanceOf(cardId)).toEqual({ balance: 3000n, pending: 0n });
    } finally {
      await setStatus(cardId, CardStatus.active);
      await t.db.update(customers).set({ transactionApproveMode: 'none' }).where(eq(customers.id, customerId));
    }
  });
});

describe('a recurring load', () => {
  it('runs while the card is active and stops being paid once it is paused', async () => {
    const res = await between(eurAccountId, cardId, '1.00', { subscriptionFrequency: 'daily', subscriptionTransactions: 3 });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', status: 'posted' });
    const scheduleId = res.body.scheduleId as number;
    await setStatus(cardId, CardStatus.paused);
    const dueNow = Date.now() + 2 * 86_400_000;
    await t.db
      .update(transferSchedules)
      .set({ nextRunAt: new Date(Date.now() - 1000) })
      .where(eq(transferSchedules.id, scheduleId));
    expect(await runDueSchedules(t.db, dueNow)).toBe(0);
    const [schedule] = await t.db.select().from(transferSchedules).where(eq(transferSchedules.id, scheduleId));
    expect(schedule).toMatchObject({ transactionsDone: 1 });
    expect(schedule!.lastError).toContain('toAccount');
    expect(await balanceOf(cardId)).toEqual({ balance: 3100n, pending: 0n });
    await setStatus(cardId, CardStatus.active);
    await t.db.update(transferSchedules).set({ status: 'canceled' }).where(eq(transferSchedules.id, scheduleId));
  });
});

describe('opening an account beside a card', () => {
  it('opens a USD account though a USD card exists, and keeps the card out of it', async () => {
    const usdCard = CARD_PRODUCTS.find((p) => p.kind === 'virtual' && p.currency === 'USD')!;
    const [card] = await t.db
      .insert(accounts)
      .values({ type: usdCard.type, subType: 'PREPAID', currency: 'USD', customerId, purpose: 'customer', status: CardStatus.active })
      .returning({ id: accounts.accountId });
    const res = await call('addCurrency', { currencyCode: 'USD' });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', account: { currency: 'USD' } });
    const opened = (res.body.account as { accountId: number }).accountId;
    expect(opened).not.toBe(card!.id);
    const usd = await t.db
      .select({ id: accounts.accountId, type: accounts.type })
      .from(accounts)
      .where(and(eq(accounts.customerId, customerId), eq(accounts.currency, 'USD')));
    expect(usd.filter((a) => !isCardType(a.type)).map((a) => a.id)).toEqual([opened]);
    // a second one in that currency is refused as before
    expect(errorsOf(await call('addCurrency', { currencyCode: 'USD' }))).toEqual([{ param: 'currencyCode', code: VfCode.hasCurrency }]);
    await setStatus(card!.id, CardStatus.canceled);
  });

  it('leaves the ledger reconciled', async () => {
    expect(await reconcile(t.db)).toEqual([]);
  });
});
