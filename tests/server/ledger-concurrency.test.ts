/**
 * Concurrency of the ledger on PostgreSQL (PGlite is one connection: concurrent requests there are
 * serialized by the driver, so these tests are skipped on it). Two platform instances on one
 * database, each with its own pool, take many concurrent transfer requests:
 *
 * - spread: random transfers among a few accounts (own accounts with conversions, p2p both ways);
 * - hot: every transfer touches one account (money in from several customers, money out of it).
 *
 * Afterwards: no call failed unexpectedly (deadlocks would; retries hide serialization failures),
 * each account's balance is its opening balance plus exactly what the answered transfers moved
 * (no lost update), every currency's legs sum to zero with customer balances plus the provider's
 * legs unchanged, and reconcile() is clean.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod, createTestApp, signIn, testDriver, type MethodAnswer, type SignedIn, type TestApp } from './harness.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { dailyUsageProblems } from '../../server/modules/transfers/fees.ts';
import { currencyTotals, reconcile } from '../../server/modules/accounts/ledger.ts';
import { customers, users } from '../../server/modules/customers/customers.tables.ts';

type Who = 'tom' | 'rita' | 'anna';
type Cur = 'EUR' | 'USD';

const onPostgres = testDriver === 'pg';

let first: TestApp;
let second: TestApp;
const tokens = {} as Record<Who, SignedIn>;
const ids: Record<Who, Record<Cur, number>> = { tom: { EUR: 0, USD: 0 }, rita: { EUR: 0, USD: 0 }, anna: { EUR: 0, USD: 0 } };

const toMinor = (decimal: string) => {
  const [whole, fraction = ''] = decimal.split('.');
  return BigInt(whole! + fraction.padEnd(2, '0'));
};

/** Runs tasks with at most `limit` in flight. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]!();
      }
    }),
  );
  return results;
}

async function balances(): Promise<Map<number, bigint>> {
  const all = Object.values(ids).flatMap((m) => Object.values(m));
  const rows = await first.db.select().from(accounts).where(inArray(accounts.accountId, all));
  return new Map(rows.map((r) => [r.accountId, r.balanceMinor]));
}

interface Move {
  who: Who;
  name: 'transferBetweenAccounts' | 'transferP2p';
  body: Record<string, unknown>;
  from: number;
  to: number;
}

/** Sends every move through one of the two instances; returns the expected balance changes from the answers. */
async function run(moves: Move[], concurrency: number): Promise<{ answers: MethodAnswer[]; expected: Map<number, bigint> }> {
  const answers = await pool(
    moves.map((m, i) => () =>
      callMethod((i % 2 === 0 ? first : second).app, m.name, m.body, { token: tokens[m.who].accessToken, headers: { 'Idempotency-Key': randomUUID() } }),
    ),
    concurrency,
  );
  const expected = new Map<number, bigint>();
  const add = (id: number, delta: bigint) => expected.set(id, (expected.get(id) ?? 0n) + delta);
  answers.forEach((a, i) => {
    const m = moves[i]!;
    // Refusals are fine (funds short under contention); unexpected failures are not.
    expect(['00', 'VF'], JSON.stringify(a.body)).toContain(a.body.responseCode);
    if (a.body.responseCode !== '00') return;
    expect(a.body.status).toBe('posted');
    add(m.from, -(toMinor(a.body.amount as string) + toMinor(a.body.fee as string)));
    add(m.to, toMinor(a.body.toAmount as string));
  });
  return { answers, expected };
}

async function expectConsistent(before: Map<number, bigint>, expected: Map<number, bigint>, totalsBefore: Awaited<ReturnType<typeof currencyTotals>>): Promise<void> {
  const after = await balances();
  for (const [id, balance] of before) expect(after.get(id), `account ${id}`).toBe(balance + (expected.get(id) ?? 0n));
  const totals = await currencyTotals(first.db);
  for (const [currency, total] of totals) {
    expect(total.legs, currency).toBe(0n);
    expect(total.customerBalances + total.providerLegs, currency).toBe(0n);
    const was = totalsBefore.get(currency);
    if (was) expect(total.customerBalances + total.providerLegs).toBe(was.customerBalances + was.providerLegs);
  }
  expect(await reconcile(first.db)).toEqual([]);
  // the daily limit's counters equal the sums of the transfers they count
  expect(await dailyUsageProblems(first.db)).toEqual([]);
}

describe.skipIf(!onPostgres)('ledger under concurrent load (PostgreSQL)', () => {
  beforeAll(async () => {
    first = await createTestApp({ transferWorkers: false, globalRateLimitPerMinute: false });
    second = await createTestApp({ transferWorkers: false, globalRateLimitPerMinute: false, shareDatabaseOf: first });
    for (const w of ['tom', 'rita', 'anna'] as const) {
      const [user] = await first.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, `${w}@demo.test`));
      // Posted at once: the load is on the ledger, not on approvals.
      await first.db.update(customers).set({ transactionApproveMode: 'none' }).where(eq(customers.id, user!.customerId));
      for (const c of ['EUR', 'USD'] as const) {
        const [row] = await first.db
          .select({ id: accounts.accountId })
          .from(accounts)
          .where(and(eq(accounts.customerId, user!.customerId), eq(accounts.currency, c)));
        ids[w][c] = row!.id;
      }
      tokens[w] = await signIn(first.app, w);
    }
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('keeps every balance exact with many clients transferring among few accounts', async () => {
    const before = await balances();
    const totalsBefore = await currencyTotals(first.db);
    const people: Who[] = ['tom', 'rita', 'anna'];
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const moves: Move[] = Array.from({ length: 240 }, () => {
      const who = people[random(3)]!;
      const amount = `${1 + random(40)}.${String(random(100)).padStart(2, '0')}`;
      const from: Cur = random(2) === 0 ? 'EUR' : 'USD';
      if (random(2) === 0) {
        const to: Cur = from === 'EUR' ? 'USD' : 'EUR';
        return { who, name: 'transferBetweenAccounts', body: { fromAccount: ids[who][from], toAccount: ids[who][to], toAmount: amount, currency: random(2) === 0 ? from : to }, from: ids[who][from], to: ids[who][to] };
      }
      const payee = people.filter((p) => p !== who)[random(2)]!;
      return { who, name: 'transferP2p', body: { accountId: ids[who][from], amount, currency: from, toEmail: `${payee}@demo.test` }, from: ids[who][from], to: ids[payee][from] };
    });
    const { answers, expected } = await run(moves, 24);
    expect(answers.filter((a) => a.body.responseCode === '00').length).toBeGreaterThan(moves.length / 2);
    await expectConsistent(before, expected, totalsBefore);
  });

  it('keeps one hot account exact when every transfer touches it', async () => {
    const before = await balances();
    const totalsBefore = await currencyTotals(first.db);
    const hot = ids.rita.EUR;
    const moves: Move[] = Array.from({ length: 200 }, (_, i) => {
      const amount = `${1 + (i % 7)}.${String((i * 37) % 100).padStart(2, '0')}`;
      switch (i % 4) {
        case 0:
          return { who: 'tom', name: 'transferP2p', body: { accountId: ids.tom.EUR, amount, currency: 'EUR', toEmail: 'rita@demo.test' }, from: ids.tom.EUR, to: hot };
        case 1:
          return { who: 'anna', name: 'transferP2p', body: { accountId: ids.anna.EUR, amount, currency: 'EUR', toEmail: 'rita@demo.test' }, from: ids.anna.EUR, to: hot };
        case 2:
          return { who: 'rita', name: 'transferP2p', body: { accountId: hot, amount, currency: 'EUR', toEmail: i % 8 === 2 ? 'tom@demo.test' : 'anna@demo.test' }, from: hot, to: i % 8 === 2 ? ids.tom.EUR : ids.anna.EUR };
        default:
          return { who: 'rita', name: 'transferBetweenAccounts', body: { fromAccount: hot, toAccount: ids.rita.USD, toAmount: amount, currency: 'EUR' }, from: hot, to: ids.rita.USD };
      }
    });
    const { answers, expected } = await run(moves, 32);
    // Refusals are possible (the hot account may run short between money coming in); most go through.
    expect(answers.filter((a) => a.body.responseCode === '00').length).toBeGreaterThan(moves.length * 0.8);
    await expectConsistent(before, expected, totalsBefore);
  });
});

describe.skipIf(onPostgres)('ledger under concurrent load', () => {
  it.skip('runs on PostgreSQL only: PGlite is a single connection, so concurrent requests never overlap there', () => {});
});
