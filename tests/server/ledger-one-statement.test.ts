/**
 * The ledger's hot path in one statement (ledger_transfer_now, migration 0009) against the
 * transactional path it replaces (transfers.service.ts request() in the endpoint's transaction):
 * the same request answers the same on both, writes the same rows when it succeeds (transfer,
 * entry and legs, balances, the day's counter, audit entry, stored answer), and refuses with the
 * same code and fields with nothing written when it does not. Requests it does not cover (another
 * approve mode, a conversion, recurring) fall back to the transactional path, writing nothing first.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod, createTestApp, signIn, type MethodAnswer, type SignedIn, type TestApp } from './harness.ts';
import { accounts, journalEntries, journalLegs } from '../../server/modules/accounts/accounts.tables.ts';
import { reconcile } from '../../server/modules/accounts/ledger.ts';
import { customers, users } from '../../server/modules/customers/customers.tables.ts';
import { auditLog } from '../../server/modules/platform/platform.tables.ts';
import { dailyUsageProblems } from '../../server/modules/transfers/fees.ts';
import { feeRules, idempotencyKeys, transferDailyUsage, transferLimits, transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { createTransferHandlers } from '../../server/modules/transfers/transfers.methods.ts';
import { createTransferService } from '../../server/modules/transfers/transfers.service.ts';
import type { OneStatement } from '../../server/modules/platform/method-endpoint.ts';
import type { MethodDef } from '../../api/method.ts';
import type { MethodHandler } from '../../server/modules/method-types.ts';

let t: TestApp;
let rita: SignedIn;
let tom: SignedIn;
let ritaEur: number;
let ritaEur2: number;
let ritaUsd: number;
let tomEur: number;
let ritaCustomer: number;
let ritaUser: number;
const clockMs = Date.UTC(2026, 5, 1, 12, 0, 0);

/** 'one': the endpoint tries the handler's one-statement path; 'transaction': its oneStatement answers null. */
let path: 'one' | 'transaction' = 'one';
/** calls answered by the one-statement path (a fallback returns null and is not counted) */
let answeredInOne = 0;

beforeAll(async () => {
  const service = createTransferService({ now: () => clockMs, approvals: null, publisher: null });
  const real = createTransferHandlers(service).transferBetweenAccounts as unknown as MethodHandler<MethodDef> & { oneStatement: OneStatement };
  const oneStatement: OneStatement = async (input, ctx, claim) => {
    if (path === 'transaction') return null;
    const done = await real.oneStatement(input, ctx, claim);
    if (done) answeredInOne++;
    return done;
  };
  t = await createTestApp({
    transferWorkers: false,
    now: () => clockMs,
    handlerOverrides: { transferBetweenAccounts: Object.assign((input: never, ctx: Parameters<typeof real>[1]) => real(input, ctx), { oneStatement }) as unknown as MethodHandler<MethodDef> },
  });
  rita = await signIn(t.app, 'rita');
  tom = await signIn(t.app, 'tom');
  const own = async (email: string, currency: string) => {
    const [row] = await t.db
      .select({ id: accounts.accountId, customerId: accounts.customerId, userId: users.id })
      .from(accounts)
      .innerJoin(users, eq(users.customerId, accounts.customerId))
      .where(and(eq(users.email, email), eq(accounts.currency, currency)))
      .orderBy(asc(accounts.accountId));
    return row!;
  };
  const eur = await own('rita@demo.test', 'EUR');
  ritaEur = eur.id;
  ritaCustomer = eur.customerId;
  ritaUser = eur.userId;
  ritaUsd = (await own('rita@demo.test', 'USD')).id;
  tomEur = (await own('tom@demo.test', 'EUR')).id;
  // A second EUR account of Rita's: transfers of one currency between own accounts are the hot path.
  const [second] = await t.db.insert(accounts).values({ type: 1001, currency: 'EUR', customerId: ritaCustomer }).returning({ id: accounts.accountId });
  ritaEur2 = second!.id;
  await t.db.update(customers).set({ transactionApproveMode: 'none' }).where(eq(customers.id, ritaCustomer));
});

afterAll(async () => {
  expect(await reconcile(t.db)).toEqual([]);
  expect(await dailyUsageProblems(t.db)).toEqual([]);
  await t?.close();
});

const call = (body: Record<string, unknown>, key = randomUUID(), token = rita.accessToken): Promise<MethodAnswer> =>
  callMethod(t.app, 'transferBetweenAccounts', body, { token, headers: { 'Idempotency-Key': key } });

/** Everything a transfer request may write, as counts and sums. */
async function footprint() {
  const n = async (table: typeof transfers | typeof journalEntries | typeof journalLegs | typeof idempotencyKeys | typeof auditLog) =>
    (await t.db.select({ n: count() }).from(table))[0]!.n;
  const [balances] = (
    (await t.db.execute(sql`select coalesce(sum(balance_minor), 0)::text as total, string_agg(account_id || ':' || balance_minor || ':' || pending_minor, ',' order by account_id) as each from accounts`)) as unknown as {
      rows: { total: string; each: string }[];
    }
  ).rows;
  const [usage] = (
    (await t.db.execute(sql`select coalesce(sum(used_minor), 0)::text as used, count(*)::int as rows from transfer_daily_usage`)) as unknown as { rows: { used: string; rows: number }[] }
  ).rows;
  return {
    transfers: await n(transfers),
    entries: await n(journalEntries),
    legs: await n(journalLegs),
    keys: await n(idempotencyKeys),
    audit: await n(auditLog),
    balances: balances!.each,
    usage,
  };
}

/** The same request through both paths (a fresh key each): both answers. */
async function both(body: Record<string, unknown>, token = rita.accessToken): Promise<{ one: MethodAnswer; transaction: MethodAnswer }> {
  path = 'one';
  const one = await call(body, randomUUID(), token);
  path = 'transaction';
  const transaction = await call(body, randomUUID(), token);
  path = 'one';
  return { one, transaction };
}

/** A refused request: the same answer on both paths, and nothing written by either. */
async function expectSameRefusal(body: Record<string, unknown>, code: string, token = rita.accessToken): Promise<MethodAnswer> {
  const before = await footprint();
  const counted = answeredInOne;
  const { one, transaction } = await both(body, token);
  expect(one.body.responseCode, JSON.stringify(one.body)).toBe(code);
  expect(one.body).toEqual(transaction.body);
  expect(answeredInOne).toBe(counted);
  expect(await footprint()).toEqual(before);
  return one;
}

/** The rows a posted transfer wrote, without its ids. */
async function written(transactionId: number) {
  const [row] = await t.db.select().from(transfers).where(eq(transfers.id, transactionId));
  const { id: _id, entryId, ...transfer } = row!;
  const [entry] = await t.db.select().from(journalEntries).where(eq(journalEntries.id, entryId!));
  const legs = await t.db
    .select({ accountId: journalLegs.accountId, currency: journalLegs.currency, amountMinor: journalLegs.amountMinor })
    .from(journalLegs)
    .where(eq(journalLegs.entryId, entryId!))
    .orderBy(asc(journalLegs.accountId));
  const [audit] = await t.db
    .select({ userId: auditLog.userId, customerId: auditLog.customerId, method: auditLog.method, details: auditLog.details })
    .from(auditLog)
    .where(sql`${auditLog.details} ->> 'transferId' = ${String(transactionId)}`);
  const [stored] = await t.db.select({ response: idempotencyKeys.response, method: idempotencyKeys.method }).from(idempotencyKeys).where(sql`${idempotencyKeys.response} ->> 'transactionId' = ${String(transactionId)}`);
  const withoutId = <T extends Record<string, unknown>>(o: T, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
  return {
    transfer,
    entry: { kind: entry!.kind, key: entry!.idempotencyKey.replace(String(transactionId), 'ID'), transferId: entry!.transferId === transactionId, description: withoutId(entry!.description as Record<string, unknown>, 'transferId') },
    legs,
    audit: { ...audit!, details: withoutId(audit!.details as Record<string, unknown>, 'transferId') },
    stored: { method: stored!.method, response: withoutId(stored!.response as Record<string, unknown>, 'transactionId') },
  };
}

async function balance(accountId: number): Promise<bigint> {
  return (await t.db.select({ b: accounts.balanceMinor }).from(accounts).where(eq(accounts.accountId, accountId)))[0]!.b;
}

describe('one statement: a transfer between own accounts of one currency, posted at once', () => {
  it('posts what the transactional path posts: answer, transfer, entry, legs, balances, counter, audit, stored answer', async () => {
    const body = { fromAccount: ritaEur, toAccount: ritaEur2, toAmount: '12.34', currency: 'EUR' };
    const [from0, to0] = [await balance(ritaEur), await balance(ritaEur2)];
    const usage0 = await footprint();
    const counted = answeredInOne;
    const { one, transaction } = await both(body);
    expect(answeredInOne).toBe(counted + 1);
    expect(one.body).toMatchObject({ responseCode: '00', status: 'posted', approveType: 'none', amount: '12.34', fee: '0.00', rate: '1' });
    const { transactionId: a, ...oneRest } = one.body;
    const { transactionId: b, ...transactionRest } = transaction.body;
    expect(oneRest).toEqual(transactionRest);
    expect(await written(a as number)).toEqual(await written(b as number));
    expect(await balance(ritaEur)).toBe(from0 - 2468n);
    expect(await balance(ritaEur2)).toBe(to0 + 2468n);
    expect(BigInt((await footprint()).usage!.used)).toBe(BigInt(usage0.usage!.used) + 2468n);
  });

  it('books the fee to the provider like the transactional path, and rounds it half-even', async () => {
    const rule = and(eq(feeRules.operation, 'betweenAccounts'), eq(feeRules.currency, 'EUR'));
    const [seeded] = await t.db.select().from(feeRules).where(rule);
    await t.db.delete(feeRules).where(rule);
    await t.db.insert(feeRules).values({ operation: 'betweenAccounts', currency: 'EUR', fixedMinor: 10n, basisPoints: 25, minMinor: 0n, maxMinor: 500n });
    try {
      // 0.25% of 2.00, 6.00 and 10.00 EUR is 0.5, 1.5 and 2.5 cents: half-even makes 0, 2 and 2
      for (const amount of ['2.00', '6.00', '10.00', '100.00']) {
        const { one, transaction } = await both({ fromAccount: ritaEur, toAccount: ritaEur2, toAmount: amount, currency: 'EUR' });
        expect(one.body.responseCode, JSON.stringify(one.body)).toBe('00');
        expect(one.body.fee).toBe(transaction.body.fee);
        expect(one.body.fee).toBe({ '2.00': '0.10', '6.00': '0.12', '10.00': '0.12', '100.00': '0.35' }[amount]);
        expect((await written(one.body.transactionId as number)).legs).toEqual((await written(transaction.body.transactionId as number)).legs);
      }
    } finally {
      await t.db.delete(feeRules).where(rule);
      if (seeded) await t.db.insert(feeRules).values(seeded);
    }
  });

  it('replays the stored answer for the same key and body, refuses the key with another body, once each', async () => {
    const key = randomUUID();
    const body = { fromAccount: ritaEur2, toAccount: ritaEur, toAmount: '1.00', currency: 'EUR' };
    const first = await call(body, key);
    expect(first.body.responseCode).toBe('00');
    const before = await footprint();
    const again = await call(body, key);
    expect(again.body).toEqual(first.body);
    const reused = await call({ ...body, toAmount: '2.00' }, key);
    expect(reused.body).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'Idempotency-Key' }] });
    expect(await footprint()).toEqual(before);
    // the transactional path replays the one-statement answer too
    path = 'transaction';
    const third = await call(body, key);
    path = 'one';
    expect(third.body).toEqual(first.body);
  });

  it('refuses like the transactional path, writing nothing: accounts, same account, currency, amount', async () => {
    await expectSameRefusal({ fromAccount: tomEur, toAccount: ritaEur, toAmount: '1.00', currency: 'EUR' }, 'ENOA');
    await expectSameRefusal({ fromAccount: ritaEur, toAccount: tomEur, toAmount: '1.00', currency: 'EUR' }, 'ENOA');
    await expectSameRefusal({ fromAccount: ritaEur, toAccount: 2_000_000_000, toAmount: '1.00', currency: 'EUR' }, 'ENOA');
    await expectSameRefusal({ fromAccount: ritaEur, toAccount: ritaEur, toAmount: '1.00', currency: 'EUR' }, 'VF');
    await expectSameRefusal({ fromAccount: ritaEur, toAccount: ritaEur2, toAmount: '1.00', currency: 'GBP' }, 'VF');
    await expectSameRefusal({ fromAccount: ritaEur, toAccount: ritaEur2, toAmount: '1.001', currency: 'EUR' }, 'VF');
    await expectSameRefusal({ fromAccount: ritaEur, toAccount: ritaEur2, toAmount: '99999999.00', currency: 'EUR' }, 'VF');
  });

  it('refuses a closed account (CA) and a caller without the flag (13)', async () => {
    await t.db.update(accounts).set({ status: 11 }).where(eq(accounts.accountId, ritaEur2));
    try {
      await expectSameRefusal({ fromAccount: ritaEur, toAccount: ritaEur2, toAmount: '1.00', currency: 'EUR' }, 'CA');
      await expectSameRefusal({ fromAccount: ritaEur2, toAccount: ritaEur, toAmount: '1.00', currency: 'EUR' }, 'CA');
    } finally {
      await t.db.update(accounts).set({ status: 1 }).where(eq(accounts.accountId, ritaEur2));
    }
    const [user] = await t.db.select({ flags: users.moneyPermissions }).from(users).where(eq(users.id, ritaUser));
    await t.db.update(users).set({ moneyPermissions: { ...(user!.flags as Record<string, boolean>), 'own.betweenAccounts': false } }).where(eq(users.id, ritaUser));
    try {
      await expectSameRefusal({ fromAccount: ritaEur, toAccount: ritaEur2, toAmount: '1.00', currency: 'EUR' }, '13');
    } finally {
      await t.db.update(users).set({ moneyPermissions: user!.flags }).where(eq(users.id, ritaUser));
    }
  });

  it('keeps to the limits: minimum, maximum and the day, like the transactional path', async () => {
    const [existing] = await t.db.select().from(transferLimits).where(and(eq(transferLimits.operation, 'betweenAccounts'), eq(transferLimits.currency, 'EUR')));
    // the day's counter: the sum of its shards (migration 0010) on the clock's day (the demo history
    // counted rita's conversions on days of their own)
    const today = new Date(clockMs).toISOString().slice(0, 10);
    const used = BigInt((await t.db.select({ u: sql<string | null>`sum(${transferDailyUsage.usedMinor})::text` }).from(transferDailyUsage).where(and(eq(transferDailyUsage.customerId, ritaCustomer), eq(transferDailyUsage.operation, 'betweenAccounts'), eq(transferDailyUsage.currency, 'EUR'), eq(transferDailyUsage.day, today))))[0]?.u ?? 0n);
    const limits = { minMinor: 100n, maxMinor: 5000n, dailyMinor: used + 6000n };
    if (existing) await t.db.update(transferLimits).set(limits).where(and(eq(transferLimits.operation, 'betweenAccounts'), eq(transferLimits.currency, 'EUR')));
    else await t.db.insert(transferLimits).values({ operation: 'betweenAccounts', currency: 'EUR', ...limits });
    try {
      await expectSameRefusal({ fromAccount: ritaEur, toAccount: ritaEur2, toAmount: '0.99', currency: 'EUR' }, 'VF');
      await expectSameRefusal({ fromAccount: ritaEur, toAccount: ritaEur2, toAmount: '50.01', currency: 'EUR' }, 'VF');
      path = 'one';
      expect((await call({ fromAccount: ritaEur, toAccount: ritaEur2, toAmount: '40.00', currency: 'EUR' })).body.responseCode).toBe('00');
      // 20.00 left today: 30.00 is over the day's limit on both paths
      const refused = await expectSameRefusal({ fromAccount: ritaEur, toAccount: ritaEur2, toAmount: '30.00', currency: 'EUR' }, 'VF');
      expect(refused.body.validationErrors).toEqual([expect.objectContaining({ param: 'toAmount', description: expect.stringContaining('20.00 EUR left') })]);
    } finally {
      if (existing) await t.db.update(transferLimits).set(existing).where(and(eq(transferLimits.operation, 'betweenAccounts'), eq(transferLimits.currency, 'EUR')));
      else await t.db.delete(transferLimits).where(and(eq(transferLimits.operation, 'betweenAccounts'), eq(transferLimits.currency, 'EUR')));
    }
  });

  it('refuses more than the balance (the day counter asked first), writing nothing', async () => {
    const available = await balance(ritaEur2);
    const amount = `${(available + 100n) / 100n}.${String((available + 100n) % 100n).padStart(2, '0')}`;
    const refused = await expectSameRefusal({ fromAccount: ritaEur2, toAccount: ritaEur, toAmount: amount, currency: 'EUR' }, 'VF');
    expect(refused.body.validationErrors).toEqual([expect.objectContaining({ param: 'toAmount' })]);
  });

  it('leaves what it does not cover to the transactional path, writing nothing first: a conversion, another approve mode, recurring', async () => {
    const counted = answeredInOne;
    const conversion = await call({ fromAccount: ritaEur, toAccount: ritaUsd, toAmount: '1.00', currency: 'EUR' });
    expect(conversion.body).toMatchObject({ responseCode: '00', status: 'posted', toCurrency: 'USD' });
    const recurring = await call({ fromAccount: ritaEur, toAccount: ritaEur2, toAmount: '1.00', currency: 'EUR', subscriptionFrequency: 'monthly' });
    expect(recurring.body.responseCode, JSON.stringify(recurring.body)).toBe('00');
    await t.db.update(customers).set({ transactionApproveMode: 'approvalCode' }).where(eq(customers.id, ritaCustomer));
    try {
      // Rita has no approval code: the transactional path answers TA1 (and the one statement wrote nothing before it)
      await expectSameRefusal({ fromAccount: ritaEur, toAccount: ritaEur2, toAmount: '1.00', currency: 'EUR' }, 'TA1');
    } finally {
      await t.db.update(customers).set({ transactionApproveMode: 'none' }).where(eq(customers.id, ritaCustomer));
    }
    expect(answeredInOne).toBe(counted);
    const [last] = await t.db.select({ kind: transfers.kind }).from(transfers).orderBy(desc(transfers.id)).limit(1);
    expect(last?.kind).toBe('betweenAccounts');
  });
});
