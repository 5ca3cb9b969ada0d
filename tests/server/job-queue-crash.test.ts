/**
 * Crash test of the job queue (issue 15 §6): the platform, a real `server/main.ts` process in a
 * process group of its own, on PostgreSQL, submits and settles payouts through a rail that keeps
 * its own book outside the process (crash-rail.ts: each submission appended to a file before the
 * rail answers, slowly, so a kill can land between the rail taking an instruction and the platform
 * recording its answer). While the first submissions are under way the whole group is killed with
 * SIGKILL; what the kill left is read at once; the platform is started again and runs until every
 * instruction is settled, returned or refused and no rail job is left.
 *
 * Then every instruction reached the rail, and a second time only when the killed process had not
 * recorded the rail's answer (the instruction was still `queued` after the kill), and never twice
 * from one process; each payout's money was held once and released once, sent once and settled or
 * returned once (one event row per kind, one journal entry per kind); the source account holds its
 * opening balance less exactly what the payouts kept, with nothing held; the ledger reconciles and
 * every currency's legs sum to zero.
 *
 * PostgreSQL only (the server-pg project): the test reads the database while the platform runs,
 * which PGlite (one process at a time) does not allow; in server-pglite it is listed as skipped.
 * JOB_EXPIRE_SECONDS=2 lets the restarted process take the killed one's jobs after 2 s (5 minutes
 * by default) and the simulator settles in 300 ms, so the run takes seconds, not minutes.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDriver, type TestDatabase } from './harness.ts';
import { endPlatformProcess, startPlatformProcess, type PlatformProcess } from './platform-process.ts';
import { startJobQueue, type JobQueue } from '../../server/db/job-queue.ts';
import { accounts, journalEntries } from '../../server/modules/accounts/accounts.tables.ts';
import { currencyTotals, reconcile } from '../../server/modules/accounts/ledger.ts';
import { users } from '../../server/modules/customers/customers.tables.ts';
import { railEvents, railInstructions } from '../../server/modules/rails/rails.tables.ts';
import { createPayoutService } from '../../server/modules/rails/payouts.service.ts';
import { RAIL_QUEUES } from '../../server/modules/rails/workers.ts';
import { transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { createTransferService } from '../../server/modules/transfers/transfers.service.ts';

/** Valid IBANs whose last digits choose the simulator's answer (simulator.ts CHOSEN_OUTCOMES). */
const IBAN = { settles: 'DE89370400440532013000', closed: 'GB71WEST12345698760004', wrongAccount: 'GB55WEST12345698760001' };
const PAYEES = [
  ...Array.from({ length: 6 }, () => ({ iban: IBAN.settles, outcome: 'settled' })),
  { iban: IBAN.closed, outcome: 'returned' },
  { iban: IBAN.closed, outcome: 'returned' },
  { iban: IBAN.wrongAccount, outcome: 'refused' },
  ...Array.from({ length: 3 }, () => ({ iban: IBAN.settles, outcome: 'settled' })),
] as const;
const RAIL_DELAY_MS = 250;
const KILL_AFTER_SUBMISSIONS = 3;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let database: TestDatabase | null = null;
let sender: JobQueue | null = null;
let running: PlatformProcess | null = null;
let dir: string | null = null;

afterAll(async () => {
  if (running) await endPlatformProcess(running, 'SIGKILL');
  await sender?.stop();
  await database?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe(`job queue crash (${testDriver})`, () => {
  it.skipIf(testDriver !== 'pg')('SIGKILL while payouts are submitted and settled: each reaches the rail and is settled exactly once (PostgreSQL only)', { timeout: 180_000 }, async () => {
    const started = Date.now();
    database = await createTestDatabase({ demoData: 'without-history' });
    const db = database.open.db;
    dir = mkdtempSync(join(tmpdir(), 'wlb-queue-crash-'));
    const book = join(dir, 'rail-book.txt');
    const env = {
      DATABASE_URL: database.url!,
      DATABASE_POOL_MAX: '5',
      // not production (the database holds the demo users), not demo mode
      NODE_ENV: 'development',
      DEMO_DATA: 'false',
      RAIL_ADAPTERS: `wire=${fileURLToPath(new URL('./crash-rail.ts', import.meta.url))}`,
      CRASH_RAIL_BOOK: book,
      CRASH_RAIL_DELAY_MS: String(RAIL_DELAY_MS),
      RAIL_SIMULATOR_SETTLE_MS: '300',
      RAIL_SIMULATOR_RETURN_BP: '0',
      JOB_EXPIRE_SECONDS: '2',
    };
    // The platform first: it makes the queues (pg-boss's schema) it will work.
    running = await startPlatformProcess(env);

    // The payouts, as the payout calls make them (the one transfer request, rita: approve mode none),
    // each with its submit job in its transaction; this queue only sends, with the platform's
    // JOB_EXPIRE_SECONDS (a job keeps the expiry its queue had when it was sent).
    sender = await startJobQueue(database.open, RAIL_QUEUES, () => undefined, { expireInSecondsMax: Number(env.JOB_EXPIRE_SECONDS) });
    const payouts = createPayoutService({
      queue: sender,
      adapterOf: () => {
        throw new Error('the test process never submits');
      },
      now: Date.now,
    });
    const transferService = createTransferService({ now: Date.now, approvals: null, publisher: null, payouts });
    const [rita] = await db.select({ id: users.id, customerId: users.customerId }).from(users).where(eq(users.email, 'rita@demo.test'));
    const [account] = await db
      .select({ id: accounts.accountId, balance: accounts.balanceMinor, pending: accounts.pendingMinor })
      .from(accounts)
      .where(and(eq(accounts.customerId, rita!.customerId), eq(accounts.currency, 'EUR'), eq(accounts.purpose, 'customer')));
    const source = account!.id;
    const actor = { userId: rita!.id, customerId: rita!.customerId, ip: '127.0.0.1', publish: () => undefined };
    const made: { transferId: number; instructionId: number; expected: string }[] = [];
    for (const [i, payee] of PAYEES.entries()) {
      const spec = {
        kind: 'wire' as const,
        fromAccountId: source,
        amount: `${10 + i}.00`,
        currency: 'EUR',
        reference: `Crash ${i}`,
        params: { from: 'fromAccountId', to: 'payee', amount: 'amount', currency: 'currency' },
        beneficiary: { iban: payee.iban, name: `Payee ${i}` },
        beneficiaryName: `Payee ${i}`,
      };
      const result = await db.transaction((tx) => transferService.request(tx, actor, spec));
      const [instruction] = await db.select({ id: railInstructions.id }).from(railInstructions).where(eq(railInstructions.transferId, result.transactionId));
      made.push({ transferId: result.transactionId, instructionId: instruction!.id, expected: payee.outcome });
    }
    const ids = made.map((m) => m.instructionId);

    // The kill: as soon as a few submissions reached the rail (one is then inside the rail's answer).
    const bookLines = () => (existsSync(book) ? readFileSync(book, 'utf8').split('\n').filter(Boolean) : []);
    const killDeadline = Date.now() + 60_000;
    while (bookLines().length < KILL_AFTER_SUBMISSIONS) {
      if (Date.now() > killDeadline) throw new Error(`no submission reached the rail:\n${running.output()}`);
      await sleep(10);
    }
    const killedPid = running.child.pid!;
    await endPlatformProcess(running, 'SIGKILL');
    running = null;
    const killedAt = Date.now();
    // What the kill left: which instructions the killed process had not recorded an answer for.
    const atKill = new Map(
      (await db.select({ id: railInstructions.id, status: railInstructions.status }).from(railInstructions).where(inArray(railInstructions.id, ids))).map((r) => [r.id, r.status]),
    );
    const bookAtKill = bookLines();
    expect(bookAtKill.length, 'the kill came while submissions were under way').toBeLessThan(PAYEES.length);

    // Started again on the same database: it takes up what the killed process left.
    running = await startPlatformProcess(env);
    const settleDeadline = Date.now() + 90_000;
    // open instructions with no rail job left to move them: lost (fails after 10 s of it)
    let orphanedSince: number | null = null;
    for (;;) {
      const open = rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from ${railInstructions} where ${inArray(railInstructions.id, ids)} and ${railInstructions.status} not in ('settled', 'returned', 'refused')`),
      )[0]!.n;
      const jobs = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from pgboss.job where name like 'rail.%' and state in ('created', 'retry', 'active')`))[0]!.n;
      if (open === 0 && jobs === 0) break;
      orphanedSince = open > 0 && jobs === 0 ? (orphanedSince ?? Date.now()) : null;
      if (orphanedSince !== null && Date.now() - orphanedSince > 10_000) throw new Error(`${open} instructions open with no rail job left to move them:\n${running.output()}`);
      if (Date.now() > settleDeadline) throw new Error(`${open} instructions and ${jobs} rail jobs still open after the restart:\n${running.output()}`);
      await sleep(100);
    }
    const settledAt = Date.now();
    await endPlatformProcess(running, 'SIGTERM');
    running = null;

    // The rail's book: every instruction reached it; again only when the killed process had not
    // recorded the answer (still queued after the kill), at most once, and only from the new process.
    const lines = bookLines().map((line) => {
      const [id, pid, kind] = line.split(' ');
      return { id: Number(id), pid: Number(pid), kind };
    });
    for (const id of ids) {
      const mine = lines.filter((l) => l.id === id);
      const firsts = mine.filter((l) => l.kind === 'first');
      const agains = mine.filter((l) => l.kind === 'again');
      expect(firsts, `instruction ${id} reached the rail once`).toHaveLength(1);
      expect(agains.length, `instruction ${id} sent again at most once`).toBeLessThanOrEqual(1);
      if (agains.length > 0) {
        expect(firsts[0]!.pid, `instruction ${id}: first sent by the killed process`).toBe(killedPid);
        expect(agains[0]!.pid, `instruction ${id}: sent again by the new process`).not.toBe(killedPid);
        expect(atKill.get(id), `instruction ${id} sent again although its answer was recorded`).toBe('queued');
      }
    }
    const resubmitted = lines.filter((l) => l.kind === 'again').length;

    // Each payout: its outcome, one event row per kind, one journal entry per kind.
    const instructions = await db.select().from(railInstructions).where(inArray(railInstructions.id, ids));
    const events = await db.select({ id: railEvents.instructionId, type: railEvents.type }).from(railEvents).where(inArray(railEvents.instructionId, ids));
    const entries = await db
      .select({ transferId: journalEntries.transferId, kind: journalEntries.kind })
      .from(journalEntries)
      .where(inArray(journalEntries.transferId, made.map((m) => m.transferId)));
    const transferRows = await db.select().from(transfers).where(inArray(transfers.id, made.map((m) => m.transferId)));
    let keptMinor = 0n;
    for (const m of made) {
      const instruction = instructions.find((i) => i.id === m.instructionId)!;
      const transfer = transferRows.find((t) => t.id === m.transferId)!;
      const eventTypes = events.filter((e) => e.id === m.instructionId).map((e) => e.type).sort();
      const entryKinds = entries.filter((e) => e.transferId === m.transferId).map((e) => e.kind).sort();
      expect(instruction.status, `instruction ${m.instructionId}`).toBe(m.expected);
      if (m.expected === 'settled') {
        expect(eventTypes).toEqual(['sent', 'settled']);
        expect(entryKinds).toEqual(['payout_sent', 'payout_settled']);
        expect(transfer.status).toBe('posted');
        keptMinor += transfer.amountMinor + transfer.feeMinor;
      } else if (m.expected === 'returned') {
        expect(eventTypes).toEqual(['returned', 'sent']);
        expect(entryKinds).toEqual(['payout_returned', 'payout_sent']);
        expect(transfer.status).toBe('returned');
        keptMinor += transfer.feeMinor - (instruction.feeRefundedMinor ?? 0n);
      } else {
        expect(eventTypes).toEqual(['refused']);
        expect(entryKinds).toEqual([]);
        expect(transfer.status).toBe('rejected');
      }
      expect(instruction.submitAttempts, `instruction ${m.instructionId}: attempts are the rail's book`).toBe(lines.filter((l) => l.id === m.instructionId).length);
    }

    // The money: held once and released once, kept exactly once; the books balance.
    const [after] = await db.select({ balance: accounts.balanceMinor, pending: accounts.pendingMinor }).from(accounts).where(eq(accounts.accountId, source));
    expect(after).toEqual({ balance: account!.balance - keptMinor, pending: account!.pending });
    expect(await reconcile(db)).toEqual([]);
    for (const [currency, totals] of await currencyTotals(db)) expect(totals.legs, currency).toBe(0n);

    console.log(
      `job-queue crash: ${PAYEES.length} payouts, killed after ${bookAtKill.length} submissions (${[...atKill.values()].filter((s) => s === 'queued').length} still queued), ` +
        `${resubmitted} sent again after the restart; settled ${((settledAt - killedAt) / 1000).toFixed(1)} s after the kill, ${((Date.now() - started) / 1000).toFixed(1)} s in all`,
    );
  });
});
