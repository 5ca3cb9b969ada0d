/**
 * reconcile() finds books that do not balance. Every ledger test asserts it comes back clean; this
 * one breaks the books on purpose, inside a transaction rolled back after, and expects each check
 * to say what is wrong: a transfer whose legs do not match it, a posted transfer without its entry,
 * a balance that is not the sum of its legs.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callMethod, createTestApp, signIn, type TestApp } from './harness.ts';
import { reconcile } from '../../server/modules/accounts/ledger.ts';
import type { Db } from '../../server/db/types.ts';
import { transfers } from '../../server/modules/transfers/transfers.tables.ts';

let t: TestApp;
let transferId: number;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

class RolledBack extends Error {}

/** reconcile() after `breakIt`, in a transaction that is then rolled back. */
async function problemsAfter(breakIt: (tx: Db) => Promise<unknown>): Promise<string[]> {
  let problems: string[] = [];
  await t.db
    .transaction(async (tx) => {
      await breakIt(tx as unknown as Db);
      problems = await reconcile(tx as unknown as Db);
      throw new RolledBack();
    })
    .catch((err: unknown) => {
      if (!(err instanceof RolledBack)) throw err;
    });
  return problems;
}

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false });
  // a transfer between two of Rita's EUR accounts, posted at once through the API
  const rita = await signIn(t.app, 'rita');
  const [own] = rowsOf<{ customer_id: number }>(await t.db.execute(sql`select customer_id from users where email = 'rita@demo.test'`));
  const customerId = own!.customer_id;
  await t.db.execute(sql`insert into accounts (type, currency, customer_id) values (1001, 'EUR', ${customerId})`);
  await t.db.execute(sql`update customers set transaction_approve_mode = 'none' where id = ${customerId}`);
  const ids = rowsOf<{ id: number }>(
    await t.db.execute(sql`select account_id as id from accounts where customer_id = ${customerId} and currency = 'EUR' order by account_id`),
  ).map((r) => r.id);
  const answer = await callMethod(t.app, 'transferBetweenAccounts', { fromAccount: ids[0], toAccount: ids.at(-1), toAmount: '1.00', currency: 'EUR' }, {
    token: rita.accessToken,
    headers: { 'Idempotency-Key': randomUUID() },
  });
  expect(answer.body.responseCode, JSON.stringify(answer.body)).toBe('00');
  transferId = Number(answer.body.transactionId);
  expect(await reconcile(t.db)).toEqual([]);
});

afterAll(async () => {
  expect(await reconcile(t.db)).toEqual([]);
  await t?.close();
});

it('finds a transfer whose legs do not match it', async () => {
  const problems = await problemsAfter((tx) => tx.update(transfers).set({ toAmountMinor: 99n }).where(eq(transfers.id, transferId)));
  expect(problems).toEqual([`transfer ${transferId} (posted) does not match its journal entries (1 found)`]);
});

it('finds a posted transfer without its journal entry', async () => {
  const problems = await problemsAfter((tx) => tx.execute(sql`update journal_entries set transfer_id = null where transfer_id = ${transferId}`));
  expect(problems).toEqual([`transfer ${transferId} (posted) does not match its journal entries (0 found)`]);
});

it('finds a balance that is not the sum of its legs', async () => {
  const problems = await problemsAfter((tx) =>
    tx.execute(sql`update accounts set balance_minor = balance_minor + 1 where account_id = (select to_account_id from transfers where id = ${transferId})`),
  );
  expect(problems.length).toBeGreaterThan(0);
  expect(problems.some((p) => /balance/.test(p))).toBe(true);
});
