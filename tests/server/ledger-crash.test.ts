/**
 * Crash test of the ledger (issue 4 §5): the platform, a real `server/main.ts` process in a
 * process group of its own, takes concurrent transfers from 8 client loops (own-account transfers
 * among 20 accounts, and some person-to-person transfers to a second customer, with a fee), each
 * under a unique Idempotency-Key; in the middle of the run the whole group is killed with SIGKILL.
 *
 * Then, on the database as the crash left it (opened by this test: on PGlite that is the crash
 * recovery of the data directory), every acknowledged transfer is there and the books reconcile.
 * The platform is restarted on the same database and EVERY key is sent again with the same body:
 * an acknowledged key answers its transactionId again (booked exactly once), a key whose answer was
 * lost answers either its original booking or a fresh one; in all cases the load customer's posted
 * transfers are exactly the distinct transactionIds of the keys answered '00', no key is booked
 * twice, every transfer is wholly there (posted, one entry with balanced legs, balances) or absent,
 * each account holds its opening balance plus exactly what its answered transfers moved, and the
 * EUR total of all accounts and the provider's legs is unchanged.
 *
 * Runs on PGlite (a data directory in a temporary folder) and, in the server-pg project, on
 * PostgreSQL (a database of its own). No timing assertions: the kill comes once the run is under
 * way (some transfers acknowledged), whatever the machine's speed.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite, type OpenDatabase } from '../../server/db/open.ts';
import { seedDatabase } from '../../server/db/seed.ts';
import type { Db } from '../../server/db/types.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { dailyUsageProblems } from '../../server/modules/transfers/fees.ts';
import { reconcile } from '../../server/modules/accounts/ledger.ts';
import { decimalToMinor } from '../../server/modules/accounts/money.ts';
import { idempotencyKeys, transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { createLedgerFixture, eurTotals, type LedgerFixture } from '../../scripts/ledger-fixture.ts';
import { createTestDatabase, testDriver, type TestDatabase } from './harness.ts';
import { endPlatformProcess, signInSimple, startPlatformProcess, type PlatformProcess } from './platform-process.ts';

const LOOPS = 8;
const ACCOUNTS = 20;

// ---- the platform as a child process (tests/server/platform-process.ts) ------------------------

type MethodName = 'transferBetweenAccounts' | 'transferP2p';

interface Answer {
  responseCode: string;
  transactionId?: number;
  fee?: string;
  [k: string]: unknown;
}

async function call(origin: string, token: string, name: MethodName, body: Record<string, unknown>, key: string): Promise<Answer> {
  const response = await fetch(`${origin}/api/v1/?${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-client-version': '2.1.2', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Answer;
}

// ---- the database on either driver ------------------------------------------------------------

interface Store {
  /** the platform's environment for this database */
  env: Record<string, string>;
  /** opens the database for the test's own reads; PGlite: one process at a time, close it before a start */
  open(): Promise<OpenDatabase>;
  /** closes what open() gave (a no-op on PostgreSQL, whose pool the test keeps) */
  release(database: OpenDatabase): Promise<void>;
  dispose(): Promise<void>;
}

async function createStore(): Promise<Store> {
  if (testDriver === 'pg') {
    // No demo users: the platform runs with NODE_ENV=production, which refuses them.
    const database: TestDatabase = await createTestDatabase({ demoData: false });
    return {
      env: { DATABASE_URL: database.url!, DATABASE_POOL_MAX: '10' },
      open: async () => database.open,
      release: async () => {},
      dispose: () => database.close(),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'wlb-crash-'));
  const dataDir = join(dir, 'pglite');
  const first = await openPglite(dataDir);
  try {
    await seedDatabase(first.db, { demo: false });
  } finally {
    await first.close();
  }
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: '', DEMO_DATA: 'false' },
    open: () => openPglite(dataDir),
    release: (database) => database.close(),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

// ---- the run ----------------------------------------------------------------------------------

interface Sent {
  key: string;
  name: MethodName;
  body: Record<string, unknown>;
  /** inflight: no answer came (the kill); acked: '00'; refused: another code */
  state: 'inflight' | 'acked' | 'refused';
  transactionId?: number;
  code?: string;
}

const randomAmount = () => {
  const cents = 1 + Math.floor(Math.random() * 500);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
};

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

async function balancesOf(db: Db, ids: number[]): Promise<Map<number, bigint>> {
  const rows = await db.select({ id: accounts.accountId, balance: accounts.balanceMinor }).from(accounts).where(inArray(accounts.accountId, ids));
  return new Map(rows.map((r) => [r.id, BigInt(r.balance)]));
}

let store: Store | null = null;
let running: PlatformProcess | null = null;

afterAll(async () => {
  if (running) await endPlatformProcess(running, 'SIGKILL');
  await store?.dispose();
});

describe(`ledger crash (${testDriver})`, () => {
  it('SIGKILL mid-run: acknowledged transfers are there exactly once, the rest wholly or not at all, totals unchanged', { timeout: 240_000 }, async () => {
    store = await createStore();

    // The load customer (20 EUR accounts) and a payee for p2p transfers.
    let load: LedgerFixture;
    let payee: LedgerFixture;
    let opening: Map<number, bigint>;
    let before: Awaited<ReturnType<typeof eurTotals>>;
    {
      const database = await store.open();
      try {
        load = await createLedgerFixture(database.db, { accounts: ACCOUNTS, fundEach: '1000.00' });
        payee = await createLedgerFixture(database.db, { accounts: 1, fundEach: '10.00', firstName: 'Payee' });
        opening = await balancesOf(database.db, [...load.accountIds, ...payee.accountIds]);
        before = await eurTotals(database.db);
      } finally {
        await store.release(database);
      }
    }
    const ids = load.accountIds;

    // ---- run, then SIGKILL the process group in the middle of it ----
    running = await startPlatformProcess(store.env);
    const origin = running.origin;
    const token = await signInSimple(origin, load.email, load.password);
    const sent: Sent[] = [];
    let killed = false;
    const loop = async () => {
      while (!killed) {
        const p2p = Math.random() < 0.25;
        const from = ids[Math.floor(Math.random() * ids.length)]!;
        let to = ids[Math.floor(Math.random() * ids.length)]!;
        while (to === from) to = ids[Math.floor(Math.random() * ids.length)]!;
        const record: Sent = p2p
          ? { key: randomUUID(), name: 'transferP2p', body: { accountId: from, amount: randomAmount(), currency: 'EUR', toEmail: payee.email }, state: 'inflight' }
          : { key: randomUUID(), name: 'transferBetweenAccounts', body: { fromAccount: from, toAccount: to, toAmount: randomAmount(), currency: 'EUR' }, state: 'inflight' };
        sent.push(record);
        try {
          const answer = await call(origin, token, record.name, record.body, record.key);
          if (answer.responseCode === '00') {
            record.state = 'acked';
            record.transactionId = answer.transactionId!;
          } else {
            record.state = 'refused';
            record.code = `${answer.responseCode} ${JSON.stringify(answer.validationErrors ?? answer.responseDescription)}`;
          }
        } catch {
          // no answer: the process is gone (or going); the request stays in flight
          return;
        }
      }
    };
    const loops = Array.from({ length: LOOPS }, loop);
    const startedAt = Date.now();
    // Kill once the run is under way: after 1.5 s with at least 30 acknowledged, at the latest after 3 s.
    while (Date.now() - startedAt < 3_000 && !(Date.now() - startedAt >= 1_500 && sent.filter((s) => s.state === 'acked').length >= 30)) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const victim = running;
    await endPlatformProcess(victim, 'SIGKILL');
    killed = true;
    running = null;
    await Promise.all(loops);
    expect(victim.child.signalCode).toBe('SIGKILL');

    const acked = sent.filter((s) => s.state === 'acked');
    const inflight = sent.filter((s) => s.state === 'inflight');
    const refused = sent.filter((s) => s.state === 'refused');
    expect(acked.length, 'some transfers were acknowledged before the kill').toBeGreaterThan(0);
    // A refusal here would be a test bug (funds and limits are ample): show it.
    expect(refused.map((r) => r.code)).toEqual([]);

    // ---- the database as the crash left it ----
    let postedAtCrash = new Set<number>();
    let crashed: OpenDatabase;
    try {
      crashed = await store.open();
    } catch (err) {
      throw new Error(`the ${testDriver} database cannot be opened after SIGKILL: ${(err as Error).stack ?? String(err)}`);
    }
    try {
      expect(await reconcile(crashed.db), 'reconcile right after the crash').toEqual([]);
      expect(await dailyUsageProblems(crashed.db), 'daily usage counters').toEqual([]);
      const posted = await crashed.db.select({ id: transfers.id, status: transfers.status }).from(transfers).where(eq(transfers.customerId, load.customerId));
      // approve mode none: a transfer is posted in its request's transaction, never seen pending
      expect(posted.filter((t) => t.status !== 'posted')).toEqual([]);
      const postedIds = new Set(posted.map((t) => t.id));
      postedAtCrash = postedIds;
      // durability: every acknowledged transfer survived the kill
      expect(acked.filter((a) => !postedIds.has(a.transactionId!)).map((a) => a.transactionId)).toEqual([]);
      // a stored key exactly when its transfer exists, each with its complete answer
      const keys = await crashed.db
        .select({ key: idempotencyKeys.key, response: idempotencyKeys.response })
        .from(idempotencyKeys)
        .where(eq(idempotencyKeys.userId, load.userId));
      expect(keys.filter((k) => k.response.responseCode !== '00')).toEqual([]);
      expect(new Set(keys.map((k) => Number(k.response.transactionId)))).toEqual(postedIds);
      const sentKeys = new Set(sent.map((s) => s.key));
      expect(keys.filter((k) => !sentKeys.has(k.key))).toEqual([]);
    } finally {
      await store.release(crashed);
    }

    // ---- restart on the same database and send every key again with its body ----
    running = await startPlatformProcess(store.env);
    const again = running.origin;
    const finals = new Map<string, Answer>();
    let next = 0;
    await Promise.all(
      Array.from({ length: LOOPS }, async () => {
        while (next < sent.length) {
          const s = sent[next++]!;
          finals.set(s.key, await call(again, token, s.name, s.body, s.key));
        }
      }),
    );
    await endPlatformProcess(running, 'SIGTERM');
    running = null;

    const notOk = [...finals.entries()].filter(([, a]) => a.responseCode !== '00');
    expect(notOk, 'every key answers 00 after the restart').toEqual([]);
    for (const a of acked) expect(finals.get(a.key)!.transactionId, `acknowledged key ${a.key} answers its first transfer`).toBe(a.transactionId);
    const booked = sent.map((s) => finals.get(s.key)!.transactionId!);
    // no key booked twice, no two keys sharing one booking
    expect(new Set(booked).size).toBe(sent.length);

    // ---- the books after the restart ----
    const after = await store.open();
    try {
      expect(await reconcile(after.db), 'reconcile after the re-send').toEqual([]);
      expect(await dailyUsageProblems(after.db), 'daily usage counters').toEqual([]);
      const rows = await after.db.select().from(transfers).where(eq(transfers.customerId, load.customerId));
      expect(new Set(rows.map((t) => t.id))).toEqual(new Set(booked));
      expect(rows.every((t) => t.status === 'posted' && t.entryId !== null)).toBe(true);
      // each transfer is what its key asked for
      const byId = new Map(rows.map((t) => [t.id, t]));
      for (const s of sent) {
        const t = byId.get(finals.get(s.key)!.transactionId!)!;
        if (s.name === 'transferBetweenAccounts') {
          expect([t.kind, t.fromAccountId, t.toAccountId, t.amountMinor]).toEqual(['betweenAccounts', s.body.fromAccount, s.body.toAccount, decimalToMinor(String(s.body.toAmount), 'EUR')]);
        } else {
          expect([t.kind, t.fromAccountId, t.toAccountId, t.amountMinor]).toEqual(['p2p', s.body.accountId, payee.accountIds[0], decimalToMinor(String(s.body.amount), 'EUR')]);
        }
      }
      // one journal entry per transfer of the run, with balanced legs (reconcile checks the legs' sums and sides)
      const entries = rowsOf<{ transfer_id: string; n: number }>(
        await after.db.execute(sql`select transfer_id::text, count(*)::int as n from journal_entries where transfer_id in ${booked} group by transfer_id`),
      );
      expect(entries.length).toBe(booked.length);
      expect(entries.every((e) => e.n === 1)).toBe(true);
      // every account: its opening balance plus exactly what the answered transfers moved
      const expected = new Map(opening);
      const add = (id: number, delta: bigint) => expected.set(id, expected.get(id)! + delta);
      let fees = 0n;
      for (const s of sent) {
        const t = byId.get(finals.get(s.key)!.transactionId!)!;
        add(t.fromAccountId, -(t.amountMinor + t.feeMinor));
        add(t.toAccountId, t.toAmountMinor);
        fees += t.feeMinor;
        expect(decimalToMinor(String(finals.get(s.key)!.fee), 'EUR')).toBe(t.feeMinor);
      }
      expect(await balancesOf(after.db, [...expected.keys()])).toEqual(expected);
      // EUR: every leg sums to zero; customers lost exactly the fees the provider's fee account gained
      const totals = await eurTotals(after.db);
      expect(totals.legs).toBe(0n);
      expect(totals.customerBalances + totals.providerLegs).toBe(before.customerBalances + before.providerLegs);
      expect(totals.customerBalances).toBe(before.customerBalances - fees);
      expect(totals.providerLegs).toBe(before.providerLegs + fees);
      expect(totals.transfers - before.transfers).toBe(booked.length);
      // the stored keys are exactly the keys sent
      const keys = await after.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(and(eq(idempotencyKeys.userId, load.userId)));
      expect(new Set(keys.map((k) => k.key))).toEqual(new Set(sent.map((s) => s.key)));
      console.log(
        `[ledger crash ${testDriver}] sent ${sent.length}: acknowledged ${acked.length}, no answer ${inflight.length} ` +
          `(${inflight.filter((s) => postedAtCrash.has(finals.get(s.key)!.transactionId!)).length} of them booked before the kill); ` +
          `${booked.length} transfers posted in all, fees ${fees}`,
      );
    } finally {
      await store.release(after);
    }
  });
});
