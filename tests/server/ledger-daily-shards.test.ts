/**
 * The daily limit's counter in shards (migration 0010, ledger_count_daily): however many requests
 * of one customer count themselves at once, the day's total never exceeds the limit, a refusal is
 * exact (the day's total at its moment plus its amount is over the limit, and it counts nothing),
 * no shard holds more than its allowance, and giving back takes exactly the amount back. On
 * PostgreSQL the requests run concurrently on two pools (10 connections), each holding its counter
 * lock a little before committing; PGlite runs them one by one (the same arithmetic).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDriver, type TestApp } from './harness.ts';
import { users } from '../../server/modules/customers/customers.tables.ts';

const onPostgres = testDriver === 'pg';
let first: TestApp;
let second: TestApp | null = null;
let customerId = 0;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** A deterministic stream of amounts (1..max) from a seed. */
function amounts(seed: number, n: number, max: number): bigint[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return BigInt(1 + (x % max));
  });
}

async function count(app: TestApp, day: string, amount: bigint, limit: bigint | null, holdMs: number): Promise<bigint | null> {
  return app.db.transaction(async (tx) => {
    const [row] = rowsOf<{ used: string | null }>(
      await tx.execute(
        sql`select ledger_count_daily(${customerId}::integer, 'betweenAccounts', 'EUR', ${day}::date, ${amount.toString()}::bigint, ${limit === null ? null : limit.toString()}::numeric)::text as used`,
      ),
    );
    // the counter's lock held a little, as a transfer holds it to its commit
    if (holdMs > 0 && onPostgres) await tx.execute(sql`select pg_sleep(${holdMs / 1000})`);
    return row!.used === null ? null : BigInt(row!.used);
  });
}

async function shards(day: string) {
  return rowsOf<{ shard: number; used: string; allowance: string; limit: string | null }>(
    await first.db.execute(sql`select shard, used_minor::text as used, allowance_minor::text as allowance, limit_minor::text as limit
      from transfer_daily_usage where customer_id = ${customerId} and operation = 'betweenAccounts' and currency = 'EUR' and day = ${day}::date order by shard`),
  );
}

async function totalOf(day: string): Promise<bigint> {
  return (await shards(day)).reduce((sum, s) => sum + BigInt(s.used), 0n);
}

describe('the daily limit counted in shards', () => {
  beforeAll(async () => {
    first = await createTestApp({ transferWorkers: false, globalRateLimitPerMinute: false });
    if (onPostgres) second = await createTestApp({ transferWorkers: false, globalRateLimitPerMinute: false, shareDatabaseOf: first });
    const [user] = await first.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, 'rita@demo.test'));
    customerId = user!.customerId;
  });

  afterAll(async () => {
    // days far from today: no transfers of theirs, so remove the counters this test made
    await first?.db.execute(sql`delete from transfer_daily_usage where day >= '2099-01-01'`);
    await second?.close();
    await first?.close();
  });

  for (const [label, day, limit, seed, max] of [
    ['small amounts against a limit of 1000', '2099-01-01', 1000n, 7, 40],
    ['amounts near the limit (every request may need the exact total)', '2099-01-02', 500n, 11, 300],
    ['a limit a few shards wide', '2099-01-03', 60n, 13, 9],
  ] as const) {
    it(`never exceeds the limit and refuses exactly: ${label}`, async () => {
      const apps = second ? [first, second] : [first];
      const list = amounts(seed, 120, max);
      const answers = await Promise.all(list.map((amount, i) => count(apps[i % apps.length]!, day, amount, limit, 3).then((used) => ({ amount, used }))));
      const counted = answers.filter((a) => a.used === null).reduce((sum, a) => sum + a.amount, 0n);
      const total = await totalOf(day);
      expect(total).toBe(counted);
      expect(total <= limit).toBe(true);
      for (const a of answers.filter((x) => x.used !== null)) {
        // the day's total at the refusal, plus its amount, was over the limit; totals only grow here
        expect(a.used! > limit).toBe(true);
        expect(a.used! - a.amount <= total).toBe(true);
        expect(total + a.amount > limit).toBe(true);
      }
      for (const s of await shards(day)) {
        expect(BigInt(s.used) >= 0n).toBe(true);
        if (s.limit !== null) expect(BigInt(s.used) <= BigInt(s.allowance)).toBe(true);
      }
      expect(answers.some((a) => a.used !== null)).toBe(true);
    });
  }

  it('counts without a limit, follows a changed limit and gives back exactly', async () => {
    const day = '2099-02-01';
    for (const amount of amounts(3, 20, 50)) expect(await count(first, day, amount, null, 0)).toBeNull();
    const total = await totalOf(day);
    // a limit set now below today's total: every request refused with the exact total, nothing counted
    expect(await count(first, day, 5n, total - 1n, 0)).toBe(total + 5n);
    expect(await totalOf(day)).toBe(total);
    // raised: counted up to it exactly
    expect(await count(first, day, 10n, total + 10n, 0)).toBeNull();
    expect(await count(first, day, 1n, total + 10n, 0)).toBe(total + 11n);
    await first.db.transaction(async (tx) => {
      await tx.execute(sql`select ledger_give_back_daily(${customerId}::integer, 'betweenAccounts', 'EUR', ${day}::date, ${(total + 10n).toString()}::bigint)`);
    });
    expect(await totalOf(day)).toBe(0n);
    // more than was counted cannot be given back
    await expect(
      first.db.transaction(async (tx) => {
        await tx.execute(sql`select ledger_give_back_daily(${customerId}::integer, 'betweenAccounts', 'EUR', ${day}::date, 1::bigint)`);
      }),
    ).rejects.toThrow();
  });
});
