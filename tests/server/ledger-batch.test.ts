/**
 * Transfers posted in batches (migration 0011, ledger_transfer_batch, and ledger-batch.ts). The
 * batch posts the common case and leaves every other request to the one-by-one statement
 * (answered {"retry": true}): a refusal of any kind, a key met twice, a stored key, another kind.
 * Its balances are checked request by request in the batch's order (a transfer may spend what an
 * earlier one of the batch brought); a request refused under the locks writes nothing and leaves
 * no key; a daily limit refusing part of the batch raises and writes nothing. The batcher sends a
 * request at once when nothing runs and groups what arrives meanwhile. (That the rows of a
 * transfer posted by a batch are the transactional path's is ledger-one-statement.test.ts: every
 * transfer it posts goes through a batch.)
 */
import { randomUUID } from 'node:crypto';
import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';
import { accounts, journalEntries, journalLegs } from '../../server/modules/accounts/accounts.tables.ts';
import { reconcile } from '../../server/modules/accounts/ledger.ts';
import { customers, users } from '../../server/modules/customers/customers.tables.ts';
import { auditLog } from '../../server/modules/platform/platform.tables.ts';
import { dailyUsageProblems } from '../../server/modules/transfers/fees.ts';
import { idempotencyKeys, transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { createLedgerBatcher, type BatchAnswer } from '../../server/modules/transfers/ledger-batch.ts';
import { pgErrorCode } from '../../server/modules/platform/method-endpoint.ts';

let t: TestApp;
let userId: number;
let customerId: number;
let funded: number;
let usd: number;
let b: number;
let c: number;
const DAY = '2026-06-01';

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** A request as transfers.service.ts requestNow builds it. */
function request(from: number, to: number, amountMinor: string | null, overrides: Record<string, unknown> = {}) {
  return {
    userId,
    customerId,
    method: 'transferBetweenAccounts',
    key: randomUUID(),
    requestHash: 'hash',
    kind: 'betweenAccounts',
    from,
    to,
    currency: 'EUR',
    amountMinor,
    exponent: 2,
    requiredFlags: ['own.betweenAccounts'],
    params: { to: 'toAccount', amount: 'toAmount', currency: 'currency' },
    createdAt: '2026-06-01T12:00:00.000Z',
    expiresAt: '2026-06-01T12:15:00.000Z',
    day: DAY,
    ...overrides,
  };
}

async function batch(requests: object[]): Promise<BatchAnswer[]> {
  const [row] = rowsOf<{ r: BatchAnswer[] }>(await t.db.execute(sql`select ledger_transfer_batch(${JSON.stringify(requests)}::jsonb) as r`));
  return row!.r;
}

async function balance(accountId: number): Promise<bigint> {
  const [row] = await t.db.select({ b: accounts.balanceMinor }).from(accounts).where(eq(accounts.accountId, accountId));
  return BigInt(row!.b);
}

async function footprint() {
  const n = async (table: typeof transfers | typeof journalEntries | typeof journalLegs | typeof idempotencyKeys | typeof auditLog) =>
    (await t.db.select({ n: count() }).from(table))[0]!.n;
  const [usage] = rowsOf<{ used: string }>(await t.db.execute(sql`select coalesce(sum(used_minor), 0)::text as used from transfer_daily_usage`));
  return {
    transfers: await n(transfers),
    legs: await n(journalLegs),
    keys: await n(idempotencyKeys),
    audit: await n(auditLog),
    balances: [await balance(funded), await balance(b), await balance(c)],
    usage: usage!.used,
  };
}

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false });
  const own = await t.db
    .select({ id: accounts.accountId, currency: accounts.currency, customerId: accounts.customerId, userId: users.id })
    .from(accounts)
    .innerJoin(users, eq(users.customerId, accounts.customerId))
    .where(eq(users.email, 'rita@demo.test'))
    .orderBy(asc(accounts.accountId));
  const eur = own.find((a) => a.currency === 'EUR')!;
  usd = own.find((a) => a.currency === 'USD')!.id;
  funded = eur.id;
  userId = eur.userId;
  customerId = eur.customerId;
  const added = await t.db
    .insert(accounts)
    .values([
      { type: 1001, currency: 'EUR', customerId },
      { type: 1001, currency: 'EUR', customerId },
    ])
    .returning({ id: accounts.accountId });
  [b, c] = added.map((a) => a.id).sort((x, y) => x - y) as [number, number];
  await t.db.update(customers).set({ transactionApproveMode: 'none' }).where(eq(customers.id, customerId));
  expect(await balance(funded)).toBeGreaterThan(1000n);
});

afterAll(async () => {
  expect(await reconcile(t.db)).toEqual([]);
  expect(await dailyUsageProblems(t.db)).toEqual([]);
  await t?.close();
});

describe('ledger_transfer_batch', () => {
  it('posts the common case in order and leaves every other request to the one-by-one statement', async () => {
    const before = await footprint();
    const first = request(funded, b, '500');
    const stored = request(funded, b, '1');
    await t.db.insert(idempotencyKeys).values({ userId, key: stored.key, method: stored.method, requestHash: stored.requestHash, response: { responseCode: '00' } });
    const requests = [
      first, // posted
      request(b, c, '500'), // posted: spends what the first brought to b
      request(b, c, '1'), // b is empty again: refused under the lock
      { ...request(funded, b, '1'), key: first.key }, // the first's key again
      request(funded, funded, '1'), // the same account
      request(funded, b, '1', { requiredFlags: ['others.p2p', 'no.such.flag'] }), // a flag the user lacks
      stored, // a key stored before (a replay)
      request(funded, b, '1', { kind: 'p2p' }), // another kind
      request(funded, usd, '1'), // another currency
      request(funded, b, null), // an amount with too many decimals
      request(funded, b, '0'), // not positive
    ];
    const answers = await batch(requests);
    expect(answers.map((a) => ('answer' in a ? a.answer.responseCode : 'retry'))).toEqual(['00', '00', ...Array(9).fill('retry')]);

    const posted = answers.slice(0, 2).map((a) => ('answer' in a ? Number(a.answer.transactionId) : 0));
    const rows = await t.db.select().from(transfers).where(inArray(transfers.id, posted)).orderBy(asc(transfers.id));
    expect(rows.map((r) => [r.fromAccountId, r.toAccountId, r.amountMinor, r.status, r.approveType, r.userId])).toEqual([
      [funded, b, 500n, 'posted', 'none', userId],
      [b, c, 500n, 'posted', 'none', userId],
    ]);
    const legs = await t.db
      .select({ accountId: journalLegs.accountId, amount: journalLegs.amountMinor })
      .from(journalLegs)
      .where(inArray(journalLegs.entryId, rows.map((r) => r.entryId!)))
      .orderBy(asc(journalLegs.entryId), asc(journalLegs.amountMinor));
    expect(legs).toEqual([
      { accountId: funded, amount: -500n },
      { accountId: b, amount: 500n },
      { accountId: b, amount: -500n },
      { accountId: c, amount: 500n },
    ]);
    // the keys of the posted ones only, each with its answer; the audit entries of the posted ones
    const keys = await t.db.select().from(idempotencyKeys).where(inArray(idempotencyKeys.key, requests.map((r) => r.key)));
    expect(keys.map((k) => k.key).sort()).toEqual([first.key, requests[1]!.key, stored.key].sort());
    expect(keys.find((k) => k.key === first.key)!.response).toEqual((answers[0] as { answer: unknown }).answer);
    const after = await footprint();
    expect(after).toEqual({
      transfers: before.transfers + 2,
      legs: before.legs + 4,
      keys: before.keys + 1 + 2,
      audit: before.audit + 2,
      balances: [before.balances[0]! - 500n, before.balances[1]!, before.balances[2]! + 500n],
      usage: (BigInt(before.usage) + 1000n).toString(),
    });
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.customerId, customerId)).orderBy(asc(auditLog.id));
    expect(audit.slice(-2).map((a) => a.details)).toEqual(posted.map((id) => ({ transferId: id, kind: 'betweenAccounts', approveType: 'none' })));
  });

  it('writes nothing when the day limit refuses part of the batch (each request is then asked alone)', async () => {
    const day = '2099-05-01';
    const [limit] = rowsOf<{ daily: string }>(await t.db.execute(sql`select daily_minor::text as daily from transfer_limits where operation = 'betweenAccounts' and currency = 'EUR'`));
    // the day's counter 0.50 EUR below its limit
    await t.db.execute(sql`select ledger_count_daily(${customerId}::integer, 'betweenAccounts', 'EUR', ${day}::date, ${(BigInt(limit!.daily) - 50n).toString()}::bigint, ${limit!.daily}::numeric)`);
    try {
      const before = await footprint();
      const refused = await batch([request(funded, b, '30', { day }), request(funded, b, '30', { day })]).catch((err: unknown) => err);
      expect(pgErrorCode(refused)).toBe('WL003');
      expect(await footprint()).toEqual(before);
      // through the batcher: 0.60 alone (over), then the two of 0.30 that arrived while it ran,
      // together (over together, not alone): every one answered retry, for the one-by-one statement
      const batcher = createLedgerBatcher(t.db, { maxBatch: 8, inFlight: 1, minParallel: 1 });
      const alone = batcher.submit(request(funded, b, '60', { day }));
      await new Promise((r) => setImmediate(r));
      const answers = await Promise.all([alone, ...['30', '30'].map((amount) => batcher.submit(request(funded, b, amount, { day })))]);
      expect(answers).toEqual([{ retry: true }, { retry: true }, { retry: true }]);
      expect(batcher.stats).toMatchObject({ batches: 2, largest: 2, failed: 2, retried: 3 });
      expect(await footprint()).toEqual(before);
    } finally {
      await t.db.execute(sql`delete from transfer_daily_usage where day = ${day}::date`);
    }
  });
});

describe('the batcher', () => {
  it('posts the requests arriving in one turn as one batch', async () => {
    const before = await footprint();
    const batcher = createLedgerBatcher(t.db, { maxBatch: 8, inFlight: 1, minParallel: 1 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => batcher.submit(request(funded, c, '1'))));
    expect(answers.every((a) => 'answer' in a && a.answer.responseCode === '00')).toBe(true);
    // 8, then the 2 left when it ended
    expect(batcher.stats).toEqual({ batches: 2, requests: 10, largest: 8, retried: 0, failed: 0 });
    const after = await footprint();
    expect(after.transfers).toBe(before.transfers + 10);
    expect(after.balances[2]).toBe(before.balances[2]! + 10n);
    expect(new Set(answers.map((a) => ('answer' in a ? a.answer.transactionId : null))).size).toBe(10);
  });

  /** A database handle whose statements end when the test says (the batches it was sent, in order). */
  function heldDatabase() {
    const sent: { size: number; end: () => void }[] = [];
    const db = {
      dialect: new PgDialect(),
      session: {
        prepareQuery: (built: { params: unknown[] }) => ({
          execute: () =>
            new Promise((resolve) => {
              const requests = JSON.parse(String(built.params[0])) as unknown[];
              sent.push({ size: requests.length, end: () => resolve({ rows: [{ r: requests.map(() => ({ retry: true })) }] }) });
            }),
        }),
      },
    };
    return { db: db as unknown as TestApp['db'], sent };
  }
  const turn = () => new Promise((r) => setImmediate(r));

  it('sends a request at once when nothing runs, and what arrives meanwhile when it ends', async () => {
    const { db, sent } = heldDatabase();
    const batcher = createLedgerBatcher(db, { maxBatch: 8, inFlight: 1, minParallel: 1 });
    const all = [batcher.submit({})];
    await turn();
    expect(sent.map((b) => b.size)).toEqual([1]);
    for (let i = 0; i < 9; i++) all.push(batcher.submit({}));
    await turn();
    expect(sent.map((b) => b.size)).toEqual([1]);
    sent[0]!.end();
    await turn();
    expect(sent.map((b) => b.size)).toEqual([1, 8]);
    sent[1]!.end();
    await turn();
    expect(sent.map((b) => b.size)).toEqual([1, 8, 1]);
    sent[2]!.end();
    expect(await Promise.all(all)).toEqual(Array(10).fill({ retry: true }));
  });

  it('starts a batch beside a running one only with enough requests waiting', async () => {
    const { db, sent } = heldDatabase();
    const batcher = createLedgerBatcher(db, { maxBatch: 32, inFlight: 2, minParallel: 3 });
    const all = [batcher.submit({})];
    await turn();
    all.push(batcher.submit({}), batcher.submit({}));
    await turn();
    // two waiting, fewer than 3: no second batch yet
    expect(sent.map((b) => b.size)).toEqual([1]);
    all.push(batcher.submit({}));
    await turn();
    expect(sent.map((b) => b.size)).toEqual([1, 3]);
    // both running (the most): the next waits, whatever the queue
    for (let i = 0; i < 5; i++) all.push(batcher.submit({}));
    await turn();
    expect(sent.map((b) => b.size)).toEqual([1, 3]);
    sent[1]!.end();
    await turn();
    expect(sent.map((b) => b.size)).toEqual([1, 3, 5]);
    sent[0]!.end();
    sent[2]!.end();
    await Promise.all(all);
    expect(batcher.stats).toMatchObject({ batches: 3, requests: 9, largest: 5, retried: 9 });
  });

  it('shares the waiting requests out among batches at once, keeping those that share an account together', async () => {
    const { db, sent } = heldDatabase();
    const batcher = createLedgerBatcher(db, { maxBatch: 32, inFlight: 3, minParallel: 2 });
    const pair = (from: number, to: number) => batcher.submit({ from, to });
    // six requests on distinct accounts: three batches of two (one backend each)
    const spread = [pair(1, 2), pair(3, 4), pair(5, 6), pair(7, 8), pair(9, 10), pair(11, 12)];
    await turn();
    expect(sent.map((b) => b.size)).toEqual([2, 2, 2]);
    sent.forEach((b) => b.end());
    await Promise.all(spread);
    // a hot account: every request in one batch, locked once
    const hot = [pair(1, 2), pair(3, 1), pair(1, 4), pair(5, 1)];
    await turn();
    expect(sent.slice(3).map((b) => b.size)).toEqual([4]);
    sent[3]!.end();
    await Promise.all(hot);
    // (5, 6) joins the batch of (1, 5); (2, 6) would join two batches into one: it waits for the next
    const mixed = [pair(1, 5), pair(2, 3), pair(5, 6), pair(2, 6)];
    await turn();
    expect(sent.slice(4).map((b) => b.size)).toEqual([2, 1]);
    sent[4]!.end();
    sent[5]!.end();
    await turn();
    expect(sent.slice(6).map((b) => b.size)).toEqual([1]);
    sent[6]!.end();
    await Promise.all(mixed);
  });

  it("rejects every request of a batch with the database's error when it is not a retry", async () => {
    const batcher = createLedgerBatcher(t.db, { maxBatch: 8, inFlight: 1, minParallel: 1 });
    const before = await footprint();
    const bad = Promise.all([batcher.submit(request(funded, c, '1')), batcher.submit({ ...request(funded, c, '1'), from: 'not a number' })]);
    await expect(bad).rejects.toBeTruthy();
    // one batch (both arrived in one turn), failed as a whole: nothing written
    expect(batcher.stats.batches).toBe(1);
    expect((await footprint()).transfers).toBe(before.transfers);
  });
});
