/**
 * Payouts and incoming payments on the ledger (issue 15 §1-§2). Each step is one transaction and
 * idempotent, so the job queue's at-least-once delivery makes each happen once:
 *
 *   request   (the payout calls)     the one transfer request (transfers.service.ts) holds amount +
 *                                    fee on the source; `instruct` writes the instruction, `queued`
 *                                    with its submit job in the same transaction (or, while the
 *                                    customer's approval is awaited, `awaitingApproval` until
 *                                    `release` or `cancel`)
 *   submit    (job rail.submit)      the adapter gets the instruction (idempotent by its id); then
 *                                    `accepted` (its network id kept) or `refused` with the rail's
 *                                    code: hold released, transfer `rejected`, nothing moved
 *   sent      (job rail.event)       entry: source -(amount + fee), the rail's clearing +amount, fee
 *                                    +fee; the hold released in the same entry
 *   settled   (job rail.event)       entry: clearing -amount, capital +amount (the money has left
 *                                    the platform); transfer `posted`
 *   returned  (job rail.event)       entry: clearing (or capital, when it had settled) -amount,
 *                                    source +amount, and the fee back when the rail's policy says
 *                                    so (rails.ts); transfer `returned` with the reason code
 *
 * An event is applied once per instruction (rail_events' key); a settlement or return that
 * arrives before its `sent` applies `sent` first (both happened); a `sent` before the instruction
 * was accepted is retried (the job fails and comes back). Incoming money: `received` books
 * capital -> the funding rail's clearing, then `credit` moves it from clearing to the account the
 * receiving details name, or returns it (clearing -> capital) with the reason when they name none.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/types.ts';
import type { JobQueue } from '../../db/job-queue.ts';
import { accounts } from '../accounts/accounts.tables.ts';
import { bookEntry, lockAccounts, providerAccountId, releaseHold, LedgerError } from '../accounts/ledger.ts';
import { ACCOUNT_STATUS_CLOSED } from '../../../api/accounts.ts';
import { giveBackDailyUsage } from '../transfers/fees.ts';
import { transfers } from '../transfers/transfers.tables.ts';
import { clearingAccountId } from './clearing.ts';
import { railEvents, railInstructions, type InstructionStatus } from './rails.tables.ts';

export { clearingAccountId };
import { RAIL_FEE_POLICY, type Instruction, type PayoutRail, type Rail, type RailAdapter, type StatusEvent } from './rails.ts';

export const SUBMIT_QUEUE = 'rail.submit';
export const EVENT_QUEUE = 'rail.event';
export const CREDIT_QUEUE = 'rail.credit';
/** an approved mass batch's rows to pay (transfers/mass.service.ts), on the same queue as the rails */
export const MASS_QUEUE = 'mass.pay';

/** The job asks again later: the instruction is not where this step can apply (e.g. `sent` before `accepted`). */
export class NotYetError extends Error {
  override name = 'NotYetError';
}

type InstructionRow = typeof railInstructions.$inferSelect;

export interface PayoutsDeps {
  queue: Pick<JobQueue, 'send'>;
  adapterOf(rail: Rail): RailAdapter;
  now(): number;
}

export function createPayoutService(deps: PayoutsDeps) {
  const at = () => new Date(deps.now());

  async function lockInstruction(tx: Tx, id: number): Promise<InstructionRow> {
    const [row] = await tx.select().from(railInstructions).where(eq(railInstructions.id, id)).for('update');
    if (!row) throw new LedgerError(`no rail instruction ${id}`);
    return row;
  }

  async function transferOf(tx: Tx, row: InstructionRow) {
    const [t] = await tx.select().from(transfers).where(eq(transfers.id, row.transferId!));
    if (!t) throw new LedgerError(`instruction ${row.id} has no transfer`);
    return t;
  }

  async function setStatus(tx: Tx, row: InstructionRow, status: InstructionStatus, more: Partial<InstructionRow> = {}) {
    await tx.update(railInstructions).set({ status, updatedAt: at(), ...more }).where(eq(railInstructions.id, row.id));
    row.status = status;
  }

  /** Records an event (a status event, or the adapter's refusal) once; false when it had been applied before. */
  async function firstTime(tx: Tx, id: number, event: { type: StatusEvent['type'] | 'refused'; reasonCode?: string }): Promise<boolean> {
    const inserted = await tx
      .insert(railEvents)
      .values({ instructionId: id, type: event.type, reasonCode: event.reasonCode ?? null, appliedAt: at() })
      .onConflictDoNothing()
      .returning({ type: railEvents.type });
    return inserted.length > 0;
  }

  /** The journal entry an applied event booked (rail_events.entry_id), for the audit trail. */
  async function noteEntry(tx: Tx, id: number, type: StatusEvent['type'], entryId: number): Promise<void> {
    await tx.update(railEvents).set({ entryId }).where(and(eq(railEvents.instructionId, id), eq(railEvents.type, type)));
  }

  /** accepted -> sent: the held money goes to the rail's clearing account and the fee to the provider. */
  async function applySent(tx: Tx, row: InstructionRow): Promise<void> {
    const t = await transferOf(tx, row);
    const clearing = await clearingAccountId(tx, row.rail as Rail, row.currency);
    const fee = await providerAccountId(tx, 'fee', row.currency);
    const locked = await lockAccounts(tx, [t.fromAccountId]);
    const held = t.amountMinor + t.feeMinor;
    const booked = await bookEntry(tx, {
      kind: 'payout_sent',
      idempotencyKey: `rail:${row.id}:sent`,
      transferId: t.id,
      description: { instructionId: row.id, rail: row.rail },
      locked,
      releaseHolds: [{ accountId: t.fromAccountId, amountMinor: held }],
      legs: [
        { accountId: t.fromAccountId, amountMinor: -held },
        { accountId: clearing, amountMinor: t.amountMinor },
        { accountId: fee, amountMinor: t.feeMinor },
      ],
    });
    await tx.update(transfers).set({ entryId: booked.entryId, updatedAt: at() }).where(eq(transfers.id, t.id));
    await setStatus(tx, row, 'sent');
    await noteEntry(tx, row.id, 'sent', booked.entryId);
  }

  async function applySettled(tx: Tx, row: InstructionRow): Promise<void> {
    const t = await transferOf(tx, row);
    const clearing = await clearingAccountId(tx, row.rail as Rail, row.currency);
    const capital = await providerAccountId(tx, 'capital', row.currency);
    const booked = await bookEntry(tx, {
      kind: 'payout_settled',
      idempotencyKey: `rail:${row.id}:settled`,
      transferId: t.id,
      description: { instructionId: row.id, rail: row.rail },
      legs: [
        { accountId: clearing, amountMinor: -t.amountMinor },
        { accountId: capital, amountMinor: t.amountMinor },
      ],
    });
    await tx.update(transfers).set({ status: 'posted', updatedAt: at() }).where(eq(transfers.id, t.id));
    await setStatus(tx, row, 'settled');
    await noteEntry(tx, row.id, 'settled', booked.entryId);
  }

  async function applyReturned(tx: Tx, row: InstructionRow, reasonCode: string): Promise<void> {
    const t = await transferOf(tx, row);
    // returned before settling: the money is still in clearing; after: it comes back from outside
    const from = row.status === 'settled' ? await providerAccountId(tx, 'capital', row.currency) : await clearingAccountId(tx, row.rail as Rail, row.currency);
    const feeBack = RAIL_FEE_POLICY[row.rail as PayoutRail]?.refundFeeOnReturn ? t.feeMinor : 0n;
    const legs = [
      { accountId: from, amountMinor: -t.amountMinor },
      { accountId: t.fromAccountId, amountMinor: t.amountMinor + feeBack },
    ];
    if (feeBack > 0n) legs.push({ accountId: await providerAccountId(tx, 'fee', row.currency), amountMinor: -feeBack });
    const booked = await bookEntry(tx, {
      kind: 'payout_returned',
      idempotencyKey: `rail:${row.id}:returned`,
      transferId: t.id,
      description: { instructionId: row.id, rail: row.rail, reasonCode },
      legs,
    });
    await tx.update(transfers).set({ status: 'returned', updatedAt: at() }).where(eq(transfers.id, t.id));
    await setStatus(tx, row, 'returned', { reasonCode, feeRefundedMinor: feeBack });
    await noteEntry(tx, row.id, 'returned', booked.entryId);
  }

  return {
    /**
     * The instruction of a payout transfer the transfer service wrote (and holds the money of), in
     * its transaction: queued at once (the submit job sent with it) or, while the transfer awaits
     * the customer's approval, awaitingApproval.
     */
    async instruct(tx: Tx, t: { id: number; kind: string; fromCurrency: string; amountMinor: bigint; reference: string | null }, beneficiary: Record<string, string>, status: 'queued' | 'awaitingApproval'): Promise<number> {
      const [row] = await tx
        .insert(railInstructions)
        .values({ rail: t.kind, direction: 'out', status, transferId: t.id, currency: t.fromCurrency, amountMinor: t.amountMinor, beneficiary, reference: t.reference, createdAt: at(), updatedAt: at() })
        .returning({ id: railInstructions.id });
      if (status === 'queued') await deps.queue.send(SUBMIT_QUEUE, { instructionId: row!.id }, { tx });
      return row!.id;
    },

    /** The transfer was approved: its instruction goes to the rail (the money stays held until sent). */
    async release(tx: Tx, transferId: number): Promise<void> {
      const [row] = await tx
        .update(railInstructions)
        .set({ status: 'queued', updatedAt: at() })
        .where(and(eq(railInstructions.transferId, transferId), eq(railInstructions.status, 'awaitingApproval')))
        .returning({ id: railInstructions.id });
      if (!row) throw new LedgerError(`transfer ${transferId} has no instruction awaiting approval`);
      await deps.queue.send(SUBMIT_QUEUE, { instructionId: row.id }, { tx });
    },

    /** A mass batch's request was approved (or asked no approval): the batch job pays its rows. */
    async queueBatch(tx: Tx, transferId: number): Promise<void> {
      await deps.queue.send(MASS_QUEUE, { transferId }, { tx });
    },

    /** The transfer was rejected, expired or canceled before approval: its instruction never goes out. */
    async cancel(tx: Tx, transferId: number): Promise<void> {
      await tx
        .update(railInstructions)
        .set({ status: 'canceled', updatedAt: at() })
        .where(and(eq(railInstructions.transferId, transferId), eq(railInstructions.status, 'awaitingApproval')));
    },

    /** Job rail.submit: gives the instruction to its rail's adapter and records the answer. */
    async submit(db: Db, instructionId: number): Promise<InstructionStatus> {
      const [row] = await db.select().from(railInstructions).where(eq(railInstructions.id, instructionId));
      if (!row) throw new LedgerError(`no rail instruction ${instructionId}`);
      if (row.status !== 'queued') return row.status;
      await db.update(railInstructions).set({ submitAttempts: sql`${railInstructions.submitAttempts} + 1` }).where(eq(railInstructions.id, instructionId));
      const adapter = deps.adapterOf(row.rail as Rail);
      const instruction: Instruction = {
        instructionId,
        rail: row.rail as Rail,
        direction: row.direction,
        currency: row.currency,
        amountMinor: row.amountMinor,
        beneficiary: row.beneficiary,
        reference: row.reference,
      };
      // outside any transaction: a network call never holds a lock (the adapter is idempotent by the id)
      const result = await adapter.submit(instruction, (event, afterMs) => deps.queue.send(EVENT_QUEUE, event, { afterMs }));
      return db.transaction(async (tx) => {
        const locked = await lockInstruction(tx, instructionId);
        if (locked.status !== 'queued') return locked.status;
        if (result.accepted) {
          await setStatus(tx, locked, 'accepted', { adapter: adapter.name, networkRef: result.networkRef });
          return locked.status;
        }
        const t = await transferOf(tx, locked);
        const accounts = await lockAccounts(tx, [t.fromAccountId]);
        await releaseHold(tx, accounts.get(t.fromAccountId)!, t.amountMinor + t.feeMinor);
        await tx.update(transfers).set({ status: 'rejected', updatedAt: at() }).where(eq(transfers.id, t.id));
        // nothing left: its amount no longer counts towards the day's limit (the counter last, after the accounts)
        await giveBackDailyUsage(tx, t);
        await firstTime(tx, instructionId, { type: 'refused', reasonCode: result.reasonCode });
        await setStatus(tx, locked, 'refused', { adapter: adapter.name, reasonCode: result.reasonCode });
        return locked.status;
      });
    },

    /** Job rail.event (or a provider's webhook): applies a status event once. */
    async applyEvent(db: Db, event: StatusEvent): Promise<InstructionStatus> {
      return db.transaction(async (tx) => {
        const row = await lockInstruction(tx, event.instructionId);
        if (row.direction !== 'out') throw new LedgerError(`instruction ${row.id} is not a payout`);
        if (row.status === 'queued' || row.status === 'awaitingApproval') throw new NotYetError(`instruction ${row.id} is not accepted yet`);
        if (row.status === 'refused' || row.status === 'returned' || row.status === 'canceled') return row.status;
        if (!(await firstTime(tx, row.id, event))) return row.status;
        if (row.status === 'accepted') {
          if (event.type !== 'sent') await firstTime(tx, row.id, { type: 'sent' });
          await applySent(tx, row);
          if (event.type === 'sent') return row.status;
        }
        if (event.type === 'settled' && row.status === 'sent') await applySettled(tx, row);
        else if (event.type === 'returned') await applyReturned(tx, row, event.reasonCode ?? 'MS03');
        return row.status;
      });
    },

    /**
     * Money arriving from outside (the funding rail): booked from capital to the funding rail's
     * clearing account at once, then credited by the rail.credit job. Idempotent by the network's
     * reference: the same incoming payment told twice is booked once.
     */
    async receive(db: Db, incoming: { networkRef: string; currency: string; amountMinor: bigint; receivingNumber: string; senderName: string; reference: string | null; accountId: number | null }): Promise<number> {
      if (incoming.amountMinor <= 0n) throw new LedgerError('an incoming payment is positive');
      return db.transaction(async (tx) => {
        const [existing] = await tx.select({ id: railInstructions.id }).from(railInstructions).where(and(eq(railInstructions.rail, 'funding'), eq(railInstructions.networkRef, incoming.networkRef)));
        if (existing) return existing.id;
        const [row] = await tx
          .insert(railInstructions)
          .values({
            rail: 'funding',
            direction: 'in',
            status: 'received',
            accountId: incoming.accountId,
            currency: incoming.currency,
            amountMinor: incoming.amountMinor,
            beneficiary: { receivingNumber: incoming.receivingNumber, senderName: incoming.senderName },
            reference: incoming.reference,
            adapter: 'network',
            networkRef: incoming.networkRef,
            createdAt: at(),
            updatedAt: at(),
          })
          .returning({ id: railInstructions.id });
        const clearing = await clearingAccountId(tx, 'funding', incoming.currency);
        const capital = await providerAccountId(tx, 'capital', incoming.currency);
        await bookEntry(tx, {
          kind: 'funding_received',
          idempotencyKey: `rail:${row!.id}:received`,
          description: { instructionId: row!.id, rail: 'funding' },
          legs: [
            { accountId: capital, amountMinor: -incoming.amountMinor },
            { accountId: clearing, amountMinor: incoming.amountMinor },
          ],
        });
        await deps.queue.send(CREDIT_QUEUE, { instructionId: row!.id }, { tx });
        return row!.id;
      });
    },

    /** Job rail.credit: clearing -> the named account, or back to the sender (AC01 none, AC04 closed, currency other than the account's). */
    async credit(db: Db, instructionId: number): Promise<InstructionStatus> {
      return db.transaction(async (tx) => {
        const row = await lockInstruction(tx, instructionId);
        if (row.direction !== 'in' || row.status !== 'received') return row.status;
        const clearing = await clearingAccountId(tx, 'funding', row.currency);
        const [account] = row.accountId === null ? [] : await tx.select().from(accounts).where(eq(accounts.accountId, row.accountId));
        const refusal = !account || account.purpose !== 'customer' || account.currency !== row.currency ? 'AC01' : account.status === ACCOUNT_STATUS_CLOSED ? 'AC04' : null;
        if (refusal) {
          const capital = await providerAccountId(tx, 'capital', row.currency);
          await bookEntry(tx, {
            kind: 'funding_returned',
            idempotencyKey: `rail:${row.id}:returned`,
            description: { instructionId: row.id, rail: 'funding', reasonCode: refusal },
            legs: [
              { accountId: clearing, amountMinor: -row.amountMinor },
              { accountId: capital, amountMinor: row.amountMinor },
            ],
          });
          await setStatus(tx, row, 'returned', { reasonCode: refusal });
          return row.status;
        }
        await bookEntry(tx, {
          kind: 'deposit',
          idempotencyKey: `rail:${row.id}:credited`,
          // history names `payer` as the other side and `reason` as the note
          description: { instructionId: row.id, rail: 'funding', payer: row.beneficiary.senderName ?? null, reason: row.reference },
          legs: [
            { accountId: clearing, amountMinor: -row.amountMinor },
            { accountId: account!.accountId, amountMinor: row.amountMinor },
          ],
          // money from outside the platform: the payee's revenue-split contracts take their shares (contracts/split.ts)
          split: { accountId: account!.accountId, fromCustomerIds: [], at: at() },
        });
        await setStatus(tx, row, 'credited');
        return row.status;
      });
    },
  };
}

export type PayoutService = ReturnType<typeof createPayoutService>;
