/**
 * The contracts' periodic job (contracts.service.ts advance for every contract with a move due):
 * SIGNED contracts become ACTIVE at their activeFrom, TERMINATING ones TERMINATED at their
 * activeTo, unsigned ones EXPIRED after SIGNING_DAYS, and those waiting for the payer's
 * identification move once the payer is verified; the parties are notified. Reads and actions
 * apply the same moves themselves, so an answer never waits for this job; it serves the contracts
 * nobody reads (the notifications, the split's end).
 *
 * A self-rescheduling job on a `stately` queue (db/job-queue.ts workPeriodically): one run at a
 * time across instances; each contract in its own transaction under its row lock (FOR UPDATE SKIP
 * LOCKED: a contract a call holds is left to that call), so a run repeated after a crash changes
 * nothing twice. main.ts creates the queue (CONTRACT_QUEUES); an app given a queue without it
 * (a test's) logs that and runs no job.
 */
import { and, asc, gt, inArray } from 'drizzle-orm';
import { workPeriodically, type JobQueue, type QueueDefinition } from '../../db/job-queue.ts';
import type { Db } from '../../db/types.ts';
import type { PublishAfterCommit } from '../notifications/notify.ts';
import type { PushPublisher } from '../push/publisher.ts';
import { advance, mayBeDue } from './contracts.service.ts';
import { contracts } from './contracts.tables.ts';

export const CONTRACT_ADVANCE_QUEUE = 'contracts.advance';
export const CONTRACT_ADVANCE_INTERVAL_MS = 60_000;
export const CONTRACT_QUEUES: readonly QueueDefinition[] = [{ name: CONTRACT_ADVANCE_QUEUE, policy: 'stately', retryLimit: 5, retryDelaySeconds: 30, expireInSeconds: 300 }];

/** Applies every due move at nowMs (100 contracts a round, in id order); answers how many contracts moved. */
export async function advanceDue(db: Db, nowMs: number, publisher: Pick<PushPublisher, 'publish' | 'stage'> | null): Promise<number> {
  let moved = 0;
  let cursor = 0;
  for (;;) {
    const ids = await db
      .select({ id: contracts.id })
      .from(contracts)
      .where(and(gt(contracts.id, cursor), mayBeDue(nowMs)))
      .orderBy(asc(contracts.id))
      .limit(100);
    let round = 0;
    for (const { id } of ids) {
      cursor = id;
      let events: { customerId: number; event: Record<string, unknown> & { type: string } }[] = [];
      const changed = await db.transaction(async (tx) => {
        events = [];
        const publish: PublishAfterCommit = (customerId, event) => events.push({ customerId, event });
        const [row] = await tx
          .select()
          .from(contracts)
          .where(inArray(contracts.id, [id]))
          .for('update', { skipLocked: true });
        if (!row) return false;
        const after = await advance(tx, row, nowMs, publish);
        if (events.length > 0 && publisher && (await publisher.stage?.(tx, events))) events = [];
        return after.status !== row.status || after.identificationStatus !== row.identificationStatus;
      });
      for (const e of events) publisher?.publish(e.customerId, e.event).catch(() => undefined);
      if (changed) round++;
    }
    moved += round;
    if (ids.length < 100) return moved;
  }
}

export interface ContractWorker {
  stop(): Promise<void>;
}

export async function startContractWorker(options: {
  db: Db;
  queue: JobQueue;
  now: () => number;
  publisher: PushPublisher;
  log: (err: unknown) => void;
  everyMs?: number;
}): Promise<ContractWorker> {
  const { db, queue, now, publisher } = options;
  try {
    await workPeriodically(queue, CONTRACT_ADVANCE_QUEUE, options.everyMs ?? CONTRACT_ADVANCE_INTERVAL_MS, () => advanceDue(db, now(), publisher));
  } catch (err) {
    // the queue was started without CONTRACT_QUEUES: reads and actions still keep the status current
    options.log(err);
    await queue.offWork(CONTRACT_ADVANCE_QUEUE).catch(() => undefined);
  }
  return { stop: () => queue.offWork(CONTRACT_ADVANCE_QUEUE) };
}
