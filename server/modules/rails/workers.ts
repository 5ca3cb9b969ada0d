/**
 * The rails' workers on the job queue: rail.submit gives an instruction to its adapter, rail.event
 * applies a status event, rail.credit credits money that arrived, mass.pay pays the rows of an
 * approved mass batch (transfers/mass.service.ts). Each handler is idempotent (payouts.service.ts,
 * mass.service.ts), so a job run twice (a worker that died, two instances) changes nothing
 * the second time; a handler that throws (the database away, an event before its acceptance) has
 * its job retried with back-off by the queue.
 *
 * Notices (document 3 §2, a partial batch leads to the batch) go out with the publisher given: a
 * mass batch's end (mass.service.ts), and a global-pay batch whose last payout the rail ended
 * (settled, returned, or refused at submit: global-pay.service.ts noticeIfPayoutEndedBatch, after
 * the step's own commit; once per batch, so a job run again tells nobody twice).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/types.ts';
import type { Job, JobQueue, QueueDefinition } from '../../db/job-queue.ts';
import { CREDIT_QUEUE, EVENT_QUEUE, MASS_QUEUE, SUBMIT_QUEUE, type PayoutService } from './payouts.service.ts';
import { noticeIfPayoutEndedBatch } from '../transfers/global-pay.service.ts';
import { createMassService } from '../transfers/mass.service.ts';
import { createTransferService, type TransferPublisher } from '../transfers/transfers.service.ts';
import { railInstructions, type InstructionStatus } from './rails.tables.ts';
import type { StatusEvent } from './rails.ts';

/** A payout's instruction statuses after which the rail does nothing more with it (a return after settling may still come, and is told then). */
const ENDED: ReadonlySet<InstructionStatus> = new Set(['settled', 'returned', 'refused']);

export const RAIL_QUEUES: readonly QueueDefinition[] = [
  // a rail that is down: retried for about a day (5 s doubling, 15 attempts)
  { name: SUBMIT_QUEUE, retryLimit: 15, retryDelaySeconds: 5 },
  { name: EVENT_QUEUE, retryLimit: 15, retryDelaySeconds: 2 },
  { name: CREDIT_QUEUE, retryLimit: 15, retryDelaySeconds: 2 },
  // a batch's rows: a job that dies mid-batch is taken again after its expiry and goes on from the first pending row
  { name: MASS_QUEUE, retryLimit: 15, retryDelaySeconds: 5 },
];

/** Each rail queue's handler (the workers run them; tests run them with queue.runDue); publisher: the batches' notices (null: kept for the centre only). */
export function railJobHandlers(db: Db, service: PayoutService, publisher: TransferPublisher | null = null): Record<string, (job: Job<never>) => Promise<void>> {
  // the rows of a batch are pre-approved transfers: no approvals, no push of their own (the batch's page polls); the batch's end notice is pushed
  const mass = createMassService(createTransferService({ now: Date.now, approvals: null, publisher: null, payouts: service }), publisher);
  /** a payout the rail ended may end its global-pay batch */
  const payoutEnded = async (instructionId: number) => {
    const [row] = await db.select({ transferId: railInstructions.transferId, status: railInstructions.status }).from(railInstructions).where(eq(railInstructions.id, instructionId));
    if (row?.transferId != null && ENDED.has(row.status)) await noticeIfPayoutEndedBatch(db, row.transferId, publisher, Date.now());
  };
  return {
    [MASS_QUEUE]: async (job: Job<{ transferId: number }>) => void (await mass.payBatch(db, job.data.transferId)),
    [SUBMIT_QUEUE]: async (job: Job<{ instructionId: number }>) => {
      await service.submit(db, job.data.instructionId);
      await payoutEnded(job.data.instructionId);
    },
    [EVENT_QUEUE]: async (job: Job<StatusEvent>) => {
      await service.applyEvent(db, job.data);
      await payoutEnded(job.data.instructionId);
    },
    [CREDIT_QUEUE]: async (job: Job<{ instructionId: number }>) => void (await service.credit(db, job.data.instructionId)),
  } as Record<string, (job: Job<never>) => Promise<void>>;
}

export async function startRailWorkers(db: Db, queue: JobQueue, service: PayoutService, publisher: TransferPublisher | null = null): Promise<void> {
  for (const [name, handler] of Object.entries(railJobHandlers(db, service, publisher))) await queue.work(name, handler);
}

/**
 * Runs every rail job that is due now, round after round, until none is left (the events a job
 * sends come due in the next round); returns how many ran. Tests drive the rails with it, and an
 * operator can drain the queue by hand; throws when it does not empty within `maxRounds`.
 */
export async function drainRailJobs(db: Db, queue: Pick<JobQueue, 'runDue'>, service: PayoutService, maxRounds = 20, publisher: TransferPublisher | null = null): Promise<number> {
  const handlers = Object.entries(railJobHandlers(db, service, publisher));
  let total = 0;
  for (let round = 0; round < maxRounds; round++) {
    let ran = 0;
    for (const [name, handler] of handlers) ran += await queue.runDue(name, handler);
    if (ran === 0) return total;
    total += ran;
  }
  throw new Error(`the rail jobs did not drain in ${maxRounds} rounds`);
}
