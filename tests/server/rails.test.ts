/**
 * Payouts and incoming payments through the rails, on the real database and the real job queue
 * (pg-boss on PGlite or PostgreSQL) with the network simulator: every path of an instruction
 * (settled, refused at submission, returned with each fee policy, money arriving for an account
 * and for none), delivered more than once and out of order, and random mixes of them (fast-check)
 * keep every currency's total and the ledger's invariants (reconcile, with the clearing rule).
 */
import { and, eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './harness.ts';
import { startJobQueue, type JobQueue } from '../../server/db/job-queue.ts';
import { accounts, journalEntries } from '../../server/modules/accounts/accounts.tables.ts';
import { currencyTotals, reconcile } from '../../server/modules/accounts/ledger.ts';
import { dailyUsageProblems } from '../../server/modules/transfers/fees.ts';
import { users } from '../../server/modules/customers/customers.tables.ts';
import { transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { railEvents, railInstructions } from '../../server/modules/rails/rails.tables.ts';
import { clearingAccountId, createPayoutService, type PayoutService } from '../../server/modules/rails/payouts.service.ts';
import { drainRailJobs, RAIL_QUEUES } from '../../server/modules/rails/workers.ts';
import { createSimulator, DEFAULT_SIMULATOR_OPTIONS, type SimulatorOptions } from '../../server/modules/rails/simulator.ts';
import type { PayoutRail } from '../../server/modules/rails/rails.ts';
import { createTransferService, type TransferService } from '../../server/modules/transfers/transfers.service.ts';

let database: TestDatabase;
let queue: JobQueue;
let service: PayoutService;
let transferService: TransferService;
let simulator: SimulatorOptions;
let customerId: number;
let userId: number;
let eur: number;
const errors: unknown[] = [];

/** Valid IBANs whose last digits choose the simulator's answer (simulator.ts CHOSEN_OUTCOMES). */
const IBAN = {
  settles: 'DE89370400440532013000',
  closed: 'GB71WEST12345698760004', // wire AC04, returned
  wrongAccount: 'GB55WEST12345698760001', // wire AC01, refused at submission
};

async function balances() {
  const [row] = await database.open.db.select({ balance: accounts.balanceMinor, pending: accounts.pendingMinor }).from(accounts).where(eq(accounts.accountId, eur));
  return row!;
}
const db = () => database.open.db;

/** Runs every job that is due now, as the workers would, until none is left. */
const drain = () => drainRailJobs(db(), queue, service);

const PARAMS = { from: 'fromAccountId', to: 'payee', amount: 'amount', currency: 'currency' };
const decimal = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;

/** A payout as the calls ask it: through the one transfer request (rita: approve mode none), its fee from the demo's rules. */
async function payout(rail: PayoutRail, amountMinor: bigint, beneficiary: Record<string, string>) {
  const actor = { userId, customerId, ip: '127.0.0.1', publish: () => undefined };
  const spec = { kind: rail, fromAccountId: eur, amount: decimal(amountMinor), currency: 'EUR', reference: 'Invoice 42', params: PARAMS, beneficiary, beneficiaryName: beneficiary.name ?? 'Payee' };
  const result = await db().transaction((tx) => transferService.request(tx, actor, spec));
  const [instruction] = await db().select({ id: railInstructions.id }).from(railInstructions).where(eq(railInstructions.transferId, result.transactionId));
  return { transferId: result.transactionId, instructionId: instruction!.id, feeMinor: BigInt(result.fee.replace('.', '')) };
}

async function expectClean() {
  expect(await reconcile(db())).toEqual([]);
  expect(await dailyUsageProblems(db())).toEqual([]);
  for (const [currency, totals] of await currencyTotals(db())) expect(totals.legs, currency).toBe(0n);
}

beforeAll(async () => {
  database = await createTestDatabase({ demoData: 'without-history' });
  // retried at once: the test drains the queue itself
  queue = await startJobQueue(database.open, RAIL_QUEUES.map((q) => ({ ...q, retryDelaySeconds: 0 })), (err) => errors.push(err));
  // every event due at once: the test is about what happens, not when
  simulator = { ...DEFAULT_SIMULATOR_OPTIONS, sentAfterMs: 0, settleAfterMs: { wire: 0, eft: 0, oct: 0, digital: 0, instant: 0, interac: 0, funding: 0 }, returnBasisPoints: 0 };
  const adapter = createSimulator(simulator);
  service = createPayoutService({ queue, adapterOf: () => adapter, now: Date.now });
  transferService = createTransferService({ now: Date.now, approvals: null, publisher: null, payouts: service });
  const [rita] = await db().select({ id: users.id, customerId: users.customerId }).from(users).where(eq(users.email, 'rita@demo.test'));
  userId = rita!.id;
  customerId = rita!.customerId;
  const [account] = await db().select({ id: accounts.accountId }).from(accounts).where(and(eq(accounts.customerId, customerId), eq(accounts.currency, 'EUR'), eq(accounts.purpose, 'customer')));
  eur = account!.id;
}, 60_000);

afterAll(async () => {
  await queue?.stop();
  await database?.close();
});

describe('a payout', () => {
  it('holds the money, sends it to the rail clearing account, and settles it out of the platform', async () => {
    const before = await balances();
    const { transferId, instructionId, feeMinor } = await payout('wire', 10_000n, { iban: IBAN.settles, name: 'Hans Muster' });
    expect(feeMinor).toBe(500n);
    expect(await balances()).toEqual({ balance: before.balance, pending: before.pending + 10_500n });
    await expectClean();
    await drain();
    const [t] = await db().select().from(transfers).where(eq(transfers.id, transferId));
    expect(t!.status).toBe('posted');
    const [i] = await db().select().from(railInstructions).where(eq(railInstructions.id, instructionId));
    expect(i).toMatchObject({ status: 'settled', adapter: 'simulator', networkRef: `SIM-WIRE-${String(instructionId).padStart(10, '0')}` });
    expect(await balances()).toEqual({ balance: before.balance - 10_500n, pending: before.pending });
    const events = await db().select({ type: railEvents.type }).from(railEvents).where(eq(railEvents.instructionId, instructionId));
    expect(events.map((e) => e.type).sort()).toEqual(['sent', 'settled']);
    const entries = await db().select({ kind: journalEntries.kind }).from(journalEntries).where(eq(journalEntries.transferId, transferId));
    expect(entries.map((e) => e.kind).sort()).toEqual(['payout_sent', 'payout_settled']);
    await expectClean();
  });

  it('refused at submission (AC01): nothing sent, the hold released, the transfer rejected', async () => {
    const before = await balances();
    const { transferId, instructionId } = await payout('wire', 2_500n, { iban: IBAN.wrongAccount, name: 'Nobody' });
    await drain();
    expect((await db().select().from(transfers).where(eq(transfers.id, transferId)))[0]!.status).toBe('rejected');
    expect((await db().select().from(railInstructions).where(eq(railInstructions.id, instructionId)))[0]).toMatchObject({ status: 'refused', reasonCode: 'AC01' });
    expect(await balances()).toEqual(before);
    expect(await db().select().from(journalEntries).where(eq(journalEntries.transferId, transferId))).toEqual([]);
    await expectClean();
  });

  it('returned (wire AC04): the amount comes back, the wire fee is kept by the rail policy', async () => {
    const before = await balances();
    const { transferId, instructionId, feeMinor } = await payout('wire', 4_000n, { iban: IBAN.closed, name: 'Closed Account' });
    await drain();
    expect((await db().select().from(transfers).where(eq(transfers.id, transferId)))[0]!.status).toBe('returned');
    expect((await db().select().from(railInstructions).where(eq(railInstructions.id, instructionId)))[0]).toMatchObject({ status: 'returned', reasonCode: 'AC04', feeRefundedMinor: 0n });
    expect(await balances()).toEqual({ balance: before.balance - feeMinor, pending: before.pending });
    await expectClean();
  });

  it('returned (EFT R02): the amount and the fee come back', async () => {
    const before = await balances();
    const { instructionId, feeMinor } = await payout('eft', 4_000n, { accountNumber: '000123450002', bankCode: '021000021', name: 'Closed Account' });
    expect(feeMinor).toBe(50n);
    await drain();
    expect((await db().select().from(railInstructions).where(eq(railInstructions.id, instructionId)))[0]).toMatchObject({ status: 'returned', reasonCode: 'R02', feeRefundedMinor: feeMinor });
    expect(await balances()).toEqual(before);
    await expectClean();
  });

  it('is sent and settled once, whatever is delivered twice or out of order', async () => {
    const before = await balances();
    const { transferId, instructionId, feeMinor } = await payout('instant', 1_000n, { instantKey: 'maria@example.com', name: 'Maria' });
    // the settlement first (the sent event is applied with it), then everything again
    await service.submit(db(), instructionId);
    await service.submit(db(), instructionId);
    await service.applyEvent(db(), { instructionId, type: 'settled' });
    await service.applyEvent(db(), { instructionId, type: 'sent' });
    await service.applyEvent(db(), { instructionId, type: 'settled' });
    await drain(); // the simulator's own two events, and the second submission's
    expect((await db().select().from(transfers).where(eq(transfers.id, transferId)))[0]!.status).toBe('posted');
    expect(await db().select().from(journalEntries).where(eq(journalEntries.transferId, transferId))).toHaveLength(2);
    expect(await balances()).toEqual({ balance: before.balance - 1_000n - feeMinor, pending: before.pending });
    await expectClean();
  });

  it('waits for acceptance: an event for an instruction not yet accepted is retried, not applied', async () => {
    const { instructionId } = await payout('oct', 1_000n, { cardBin: '411111', cardLast4: '1111', cardFingerprint: 'f'.repeat(64) });
    await expect(service.applyEvent(db(), { instructionId, type: 'sent' })).rejects.toThrow(/not accepted yet/);
    expect(await db().select().from(railEvents).where(eq(railEvents.instructionId, instructionId))).toEqual([]);
    await drain();
    expect((await db().select().from(railInstructions).where(eq(railInstructions.id, instructionId)))[0]!.status).toBe('settled');
    await expectClean();
  });

  it('a returned payout that had settled comes back from outside (a late return)', async () => {
    const before = await balances();
    const { instructionId } = await payout('eft', 3_000n, { accountNumber: '000123457777', bankCode: '021000021', name: 'Late Return' });
    await drain();
    expect((await db().select().from(railInstructions).where(eq(railInstructions.id, instructionId)))[0]!.status).toBe('settled');
    await service.applyEvent(db(), { instructionId, type: 'returned', reasonCode: 'R16' });
    expect(await balances()).toEqual(before);
    await expectClean();
  });

  it('leaves nothing when its transaction rolls back: no transfer, no hold, no job', async () => {
    const before = await balances();
    const count = async () => (await db().select({ id: railInstructions.id }).from(railInstructions)).length;
    const instructions = await count();
    await expect(
      db().transaction(async (tx) => {
        await transferService.request(tx, { userId, customerId, ip: '127.0.0.1', publish: () => undefined }, { kind: 'wire', fromAccountId: eur, amount: '5.00', currency: 'EUR', params: PARAMS, beneficiary: { iban: IBAN.settles }, beneficiaryName: 'Payee' });
        throw new Error('the call failed after the request');
      }),
    ).rejects.toThrow(/failed after/);
    expect(await balances()).toEqual(before);
    expect(await count()).toBe(instructions);
    await drain();
    await expectClean();
  });

  it('is refused when the money is not there, changing nothing', async () => {
    const before = await balances();
    await expect(payout('wire', before.balance - before.pending - 499n, { iban: IBAN.settles })).rejects.toMatchObject({ responseCode: 'VF' });
    expect(await balances()).toEqual(before);
    await expectClean();
  });
});

describe('money arriving', () => {
  it('is credited through the funding clearing account, once per network reference', async () => {
    const before = await balances();
    const incoming = { networkRef: 'SEPA-IN-1', currency: 'EUR', amountMinor: 25_000n, receivingNumber: 'LT00 TEST', senderName: 'Rita Sender', reference: 'Top-up', accountId: eur };
    const first = await service.receive(db(), incoming);
    expect(await service.receive(db(), incoming)).toBe(first);
    await expectClean();
    await drain();
    expect((await db().select().from(railInstructions).where(eq(railInstructions.id, first)))[0]!.status).toBe('credited');
    expect(await balances()).toEqual({ balance: before.balance + 25_000n, pending: before.pending });
    await expectClean();
  });

  it('naming no account of ours (or one of another currency), is returned to the sender (AC01)', async () => {
    const before = await balances();
    const none = await service.receive(db(), { networkRef: 'SEPA-IN-2', currency: 'EUR', amountMinor: 700n, receivingNumber: 'LT00 NONE', senderName: 'X', reference: null, accountId: null });
    const otherCurrency = await service.receive(db(), { networkRef: 'SEPA-IN-3', currency: 'GBP', amountMinor: 700n, receivingNumber: 'LT00 TEST', senderName: 'X', reference: null, accountId: eur });
    await drain();
    const rows = await db().select().from(railInstructions).where(inArray(railInstructions.id, [none, otherCurrency]));
    expect(rows.map((r) => [r.status, r.reasonCode])).toEqual([
      ['returned', 'AC01'],
      ['returned', 'AC01'],
    ]);
    expect(await balances()).toEqual(before);
    await expectClean();
  });
});

describe('random mixes of payouts, returns and fundings', () => {
  it('keep every currency total, every balance and every invariant', async () => {
    const rail = fc.constantFrom<PayoutRail>('wire', 'eft', 'oct', 'digital', 'instant', 'interac');
    const op = fc.oneof(
      fc.record({ type: fc.constant('payout' as const), rail, amount: fc.integer({ min: 1, max: 5_000 }), outcome: fc.constantFrom('0000', '0004', '0001', '0002', '0014') }),
      fc.record({ type: fc.constant('funding' as const), amount: fc.integer({ min: 1, max: 5_000 }), known: fc.boolean() }),
      fc.record({ type: fc.constant('late-return' as const), pick: fc.nat() }),
      fc.constant({ type: 'drain' as const }),
    );
    let serial = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
        const capitalBefore = await currencyTotals(db());
        const settled: number[] = [];
        for (const o of ops) {
          if (o.type === 'payout') {
            const beneficiary = { iban: `GB82WEST1234569876${o.outcome}`, accountNumber: `00012345${o.outcome}`, instantKey: `key${o.outcome}`, cardLast4: o.outcome, email: o.outcome === '0004' ? 'decline@example.com' : 'ok@example.com', address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' };
            // refused (VF) when the balance or a limit does not allow it: nothing then changes
            await payout(o.rail, BigInt(o.amount), beneficiary).catch((err: { responseCode?: string }) => expect(err.responseCode).toBe('VF'));
          } else if (o.type === 'funding') {
            serial += 1;
            await service.receive(db(), { networkRef: `MIX-${Date.now()}-${serial}`, currency: 'EUR', amountMinor: BigInt(o.amount), receivingNumber: 'x', senderName: 'Mix', reference: null, accountId: o.known ? eur : null });
          } else if (o.type === 'late-return') {
            const rows = await db().select({ id: railInstructions.id }).from(railInstructions).where(and(eq(railInstructions.status, 'settled'), eq(railInstructions.direction, 'out')));
            const row = rows[o.pick % Math.max(1, rows.length)];
            if (row) await service.applyEvent(db(), { instructionId: row.id, type: 'returned', reasonCode: 'MS03' });
          } else await drain();
          expect(await reconcile(db())).toEqual([]);
          expect(await dailyUsageProblems(db())).toEqual([]);
        }
        await drain();
        settled.length = 0;
        expect(await reconcile(db())).toEqual([]);
        // customers + provider (capital, fee, clearing) per currency: still zero, as before the run
        for (const [currency, totals] of await currencyTotals(db())) {
          expect(totals.legs, currency).toBe(0n);
          expect(totals.customerBalances + totals.providerLegs, currency).toBe((capitalBefore.get(currency)?.customerBalances ?? 0n) + (capitalBefore.get(currency)?.providerLegs ?? 0n));
        }
        // nothing is left in flight: every clearing account is empty once the queue is drained
        for (const r of ['wire', 'eft', 'oct', 'digital', 'instant', 'interac', 'funding'] as const) {
          const id = await clearingAccountId(db(), r, 'EUR');
          const legs = await db().execute(`select coalesce(sum(amount_minor), 0)::text as total from journal_legs where account_id = ${id}` as never);
          expect((legs as unknown as { rows: { total: string }[] }).rows[0]!.total, r).toBe('0');
        }
      }),
      { numRuns: 12 },
    );
    expect(errors.filter((e) => !String(e).includes('not accepted yet'))).toEqual([]);
  }, 120_000);
});
