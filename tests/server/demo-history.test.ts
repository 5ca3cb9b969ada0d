/**
 * The demo history (server/db/demo-history.ts; issue 13 item 4): a year of movements booked
 * through the platform's own transfer service and journal, ending at the demo's usual balances,
 * with clean books, never below zero on the way, the same at every seeding, and a rejected and a
 * pending transfer for anna.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { DEMO_HISTORY_DAYS, DEMO_MERCHANTS, merchantEmail } from '../../server/db/demo-history.ts';
import { seedDatabase } from '../../server/db/seed.ts';
import type { Db } from '../../server/db/types.ts';
import { reconcile } from '../../server/modules/accounts/ledger.ts';
import { dailyUsageProblems } from '../../server/modules/transfers/fees.ts';
import { callMethod, createTestApp, createTestDatabase, postJson, signIn, type SignedIn, type TestApp, type TestDatabase } from './harness.ts';

const DAY_MS = 86_400_000;
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const q = async <T>(db: Db, query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));

let t: TestApp;
let anna: SignedIn;

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false });
  anna = await signIn(t.app, 'anna');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function call(name: string, body: Record<string, unknown>, who: SignedIn = anna) {
  const answer = await callMethod(t.app, name, body, { token: who.accessToken });
  expect(answer.body.responseCode, JSON.stringify(answer.body)).toBe('00');
  return answer.body as Record<string, unknown> & { responseCode: '00' };
}

describe('the seeded demo history', () => {
  it('keeps the books clean: reconcile() and the daily counters find nothing', async () => {
    expect(await reconcile(t.db)).toEqual([]);
    expect(await dailyUsageProblems(t.db)).toEqual([]);
  });

  it('spans twelve months for every demo customer with accounts, booked as transfers and entries', async () => {
    const rows = await q<{ email: string; months: number; first: string; last: string; transfers: number }>(
      t.db,
      sql`SELECT u.email, count(DISTINCT to_char(tr.created_at, 'YYYY-MM'))::int AS months,
            min(tr.created_at)::text AS first, max(tr.created_at)::text AS last, count(*)::int AS transfers
          FROM users u JOIN transfers tr ON tr.customer_id = u.customer_id OR tr.to_customer_id = u.customer_id
          WHERE u.email IN (${demoUserByKey.anna.email}, ${demoUserByKey.boris.email}, ${demoUserByKey.owner.email}, ${demoUserByKey.tom.email}, ${demoUserByKey.rita.email})
          GROUP BY u.email ORDER BY u.email`,
    );
    expect(rows.map((r) => r.email)).toEqual(
      [demoUserByKey.anna.email, demoUserByKey.boris.email, demoUserByKey.owner.email, demoUserByKey.rita.email, demoUserByKey.tom.email].sort(),
    );
    for (const r of rows) {
      expect(r.months, r.email).toBeGreaterThanOrEqual(12);
      expect(Date.parse(r.first), r.email).toBeLessThan(Date.now() - 330 * DAY_MS);
      expect(Date.parse(r.last), r.email).toBeGreaterThan(Date.now() - 40 * DAY_MS);
      expect(r.transfers, r.email).toBeGreaterThanOrEqual(40);
    }
    // Every journal entry of the history is dated within the year, none in the future.
    const [range] = await q<{ first: string; last: string }>(t.db, sql`SELECT min(created_at)::text AS first, max(created_at)::text AS last FROM journal_entries`);
    expect(Date.parse(range!.first)).toBeGreaterThanOrEqual(Date.now() - (DEMO_HISTORY_DAYS + 2) * DAY_MS);
    expect(Date.parse(range!.last)).toBeLessThanOrEqual(Date.now());
  });

  it('has every kind of movement: salary, card-like spending, conversions, payments between demo customers, fees', async () => {
    const kinds = await q<{ kind: string; n: number }>(t.db, sql`SELECT kind, count(*)::int AS n FROM journal_entries GROUP BY kind`);
    const byKind = Object.fromEntries(kinds.map((k) => [k.kind, k.n]));
    expect(byKind.deposit).toBeGreaterThanOrEqual(12);
    expect(byKind.account_fee).toBeGreaterThanOrEqual(12 * 5);
    const merchants = DEMO_MERCHANTS.map((m) => merchantEmail(m.key));
    const [counts] = await q<{ card: number; exchange: number; p2p_people: number; salary: number }>(
      t.db,
      sql`SELECT count(*) FILTER (WHERE to_email IN ${merchants})::int AS card,
            count(*) FILTER (WHERE from_currency <> to_currency)::int AS exchange,
            count(*) FILTER (WHERE kind = 'p2p' AND to_email NOT IN ${merchants} AND coalesce(note, '') <> 'Salary')::int AS p2p_people,
            count(*) FILTER (WHERE note = 'Salary')::int AS salary
          FROM transfers WHERE status = 'posted'`,
    );
    expect(counts!.card).toBeGreaterThanOrEqual(200);
    expect(counts!.exchange).toBeGreaterThanOrEqual(6);
    expect(counts!.p2p_people).toBeGreaterThanOrEqual(20);
    expect(counts!.salary).toBeGreaterThanOrEqual(24);
    // fees as the fee rules take them (every card-like payment is a payment with its fee)
    const [fees] = await q<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM transfers WHERE status = 'posted' AND fee_minor > 0`);
    expect(fees!.n).toBeGreaterThanOrEqual(counts!.card);
  });

  it('never takes a customer account below zero on the way', async () => {
    const dips = await q<{ account_id: number; lowest: string }>(
      t.db,
      sql`SELECT account_id, min(running)::text AS lowest FROM (
            SELECT l.account_id, sum(l.amount_minor) OVER (PARTITION BY l.account_id ORDER BY e.created_at, e.id) AS running
            FROM journal_legs l JOIN journal_entries e ON e.id = l.entry_id JOIN accounts a ON a.account_id = l.account_id
            WHERE a.purpose = 'customer') x
          GROUP BY account_id HAVING min(running) < 0`,
    );
    expect(dips).toEqual([]);
  });

  it('ends at the balances the demo has always had', async () => {
    const accounts = (await call('balanceInquiry', {})).accounts as { account: { currency: string; balance: string }[] };
    expect(accounts.account.map((a) => `${a.currency} ${a.balance}`)).toEqual(['EUR 2450.75', 'USD 310.00']);
  });

  it('shows anna her year through the API: history by month, the balance chart, statement periods', async () => {
    const monthAgo = (n: number) => new Date(Date.now() - n * 30 * DAY_MS).toISOString().slice(0, 10);
    const halfYear = await call('transactionHistory', { fromDate: monthAgo(7), toDate: monthAgo(6), pageSize: 100 });
    expect(halfYear.results as number).toBeGreaterThan(5);
    const chart = await call('balanceHistory', { days: 365 });
    const eur = (chart.series as { currency: string; points: { date: string; balance: string }[] }[]).find((s) => s.currency === 'EUR')!;
    expect(eur.points.length).toBeGreaterThan(100);
    expect(new Set(eur.points.map((p) => p.balance)).size).toBeGreaterThan(50);
    expect(eur.points.at(-1)!.balance).toBe('2450.75');
    const eurAccount = ((await call('balanceInquiry', {})).accounts as { account: { accountId: number; currency: string }[] }).account.find((a) => a.currency === 'EUR')!;
    const periods = await call('statementPeriods', { accountId: eurAccount.accountId });
    expect((periods.periods as unknown[]).length).toBeGreaterThanOrEqual(12);
  });

  it('gives anna a rejected and a pending transfer, and restores the approve modes after the history', async () => {
    const all = await call('transactionHistory', { pageSize: 10 });
    // rows: the payment and its fee
    expect(all.rejectedCount).toBe(2);
    expect(all.processingCount).toBe(2);
    const modes = await q<{ email: string; mode: string }>(
      t.db,
      sql`SELECT u.email, c.transaction_approve_mode AS mode FROM users u JOIN customers c ON c.id = u.customer_id
          WHERE u.email IN (${demoUserByKey.anna.email}, ${demoUserByKey.tom.email}, ${demoUserByKey.owner.email}) ORDER BY u.email`,
    );
    expect(modes.map((m) => `${m.email} ${m.mode}`)).toEqual([`${demoUserByKey.anna.email} otp`, `${demoUserByKey.owner.email} otp`, `${demoUserByKey.tom.email} sms`]);
  });

  it('gives the merchants users nobody can sign in as', async () => {
    const login = (username: string) => postJson(t.app, '/auth/login', { client: 'spa', username, password: demoUserByKey.anna.password, codeChallenge: 'x'.repeat(43) });
    // the demo password signs a demo user in, not a merchant
    expect((await login(demoUserByKey.rita.email)).statusCode).toBe(200);
    expect((await login(merchantEmail(DEMO_MERCHANTS[0].key))).statusCode).not.toBe(200);
  });
});

describe('seeding twice', () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of databases) await d.close();
  });

  /** Every transfer and journal entry, with its time as an offset from the end of the seeding day. */
  async function snapshot(now: number) {
    const database = await createTestDatabase({ demoData: false });
    databases.push(database);
    const db = database.open.db;
    await seedDatabase(db, { demo: true, now });
    const dayEnd = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
    const offset = (at: string) => dayEnd - Date.parse(at);
    const transfers = (
      await q<{ id: string; kind: string; status: string; from_account_id: number; to_account_id: number; amount_minor: string; to_amount_minor: string; fee_minor: string; note: string | null; at: string }>(
        db,
        sql`SELECT id::text, kind, status, from_account_id, to_account_id, amount_minor::text, to_amount_minor::text, fee_minor::text, note, created_at::text AS at FROM transfers ORDER BY id`,
      )
    ).map(({ at, ...rest }) => ({ ...rest, offset: rest.status === 'pending' ? 'now' : offset(at) }));
    const entries = (
      await q<{ id: string; kind: string; description: unknown; legs: string; at: string }>(
        db,
        sql`SELECT e.id::text, e.kind, e.description, string_agg(l.account_id || ':' || l.amount_minor, ' ' ORDER BY l.id) AS legs, e.created_at::text AS at
            FROM journal_entries e JOIN journal_legs l ON l.entry_id = e.id GROUP BY e.id ORDER BY e.id`,
      )
    ).map(({ at, ...rest }) => ({ ...rest, offset: offset(at) }));
    return { db, transfers, entries };
  }

  it('books the same history, dates shifted by the days between the seedings', async () => {
    const first = Date.parse('2026-03-10T09:30:00Z');
    const a = await snapshot(first);
    const b = await snapshot(first + 3 * DAY_MS + 5 * 3_600_000);
    expect(a.transfers.length).toBeGreaterThan(300);
    expect(b.transfers).toEqual(a.transfers);
    expect(b.entries).toEqual(a.entries);
    expect(await reconcile(a.db)).toEqual([]);
    // anna's rejected and pending transfers, in a database seeded a moment ago
    const annaId = (await q<{ customer_id: number }>(a.db, sql`SELECT customer_id FROM users WHERE email = ${demoUserByKey.anna.email}`))[0]!.customer_id;
    const statuses = await q<{ status: string; n: number }>(a.db, sql`SELECT status, count(*)::int AS n FROM transfers WHERE customer_id = ${annaId} AND status <> 'posted' GROUP BY status ORDER BY status`);
    expect(statuses).toEqual([
      { status: 'pending', n: 1 },
      { status: 'rejected', n: 1 },
    ]);
  }, 240_000);
});
