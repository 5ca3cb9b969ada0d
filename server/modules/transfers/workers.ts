/**
 * Background work of transfers, safe on several instances at once (rows are taken FOR UPDATE SKIP
 * LOCKED, runs are keyed): the expiry sweeper voids pending transfers past their time, the schedule
 * worker books due runs of recurring transfers. Both are plain functions tests call with their own
 * clock; startTransferWorkers runs them as periodic jobs on the platform's job queue
 * (db/job-queue.ts workPeriodically: a `stately` queue each, so one run at a time across
 * instances, the next run sent before the work so a failure or a crash never ends the chain).
 */
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/types.ts';
import { workPeriodically, type JobQueue, type QueueDefinition } from '../../db/job-queue.ts';
import { users } from '../customers/customers.tables.ts';
import { MethodFailure, type MethodContext } from '../method-types.ts';
import { OPERATION_FLAGS, requireFlags } from './permissions.ts';
import type { TransferKind } from './transfers.tables.ts';
import { createTransferService, type TransferActor, type TransferService } from './transfers.service.ts';

/** How often the sweeper and the schedule worker look for work. */
export const EXPIRY_INTERVAL_MS = 15_000;
export const SCHEDULE_INTERVAL_MS = 30_000;

export const EXPIRY_QUEUE = 'transfers.expiry';
export const SCHEDULE_QUEUE = 'transfers.schedules';

/** A failed run (the database away) is tried again with back-off; the next periodic run is already waiting. */
export const TRANSFER_QUEUES: readonly QueueDefinition[] = [
  { name: EXPIRY_QUEUE, policy: 'stately', retryLimit: 5, retryDelaySeconds: 15, expireInSeconds: 120 },
  { name: SCHEDULE_QUEUE, policy: 'stately', retryLimit: 5, retryDelaySeconds: 30, expireInSeconds: 300 },
];

let fallback: TransferService | null = null;
/** Without the app's service: no push requests to close (they expire with the transfer) and no events. */
const defaultService = () => (fallback ??= createTransferService({ now: Date.now, approvals: null, publisher: null }));

/** Voids every pending transfer whose time is up at `nowMs`; returns how many. */
export async function expireDueTransfers(db: Db, nowMs: number, service: TransferService = defaultService()): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await service.expireDue(db, nowMs);
    total += expired;
    if (expired < 100) return total;
  }
}

/**
 * A schedule's owner must still hold the flags of its operation for the acting customer when a
 * run is booked (flags withdrawn stop the pre-approved payments: the run is skipped with 13).
 */
export async function scheduleFlagsCheck(tx: Tx, actor: TransferActor, kind: TransferKind): Promise<void> {
  const [user] = await tx.select({ customerId: users.customerId, disabled: users.disabled }).from(users).where(eq(users.id, actor.userId));
  if (!user || user.disabled) throw new MethodFailure('13', 'The user of this schedule can no longer send money');
  const ctx = {
    db: tx as unknown as Db,
    caller: { userId: actor.userId, customerId: user.customerId, isAdmin: false },
    customerId: actor.customerId,
  } as MethodContext;
  await requireFlags(ctx, ...OPERATION_FLAGS[kind]);
}

/** Books every due run at `nowMs` (one run per schedule per call); returns how many were booked. */
export async function runDueSchedules(db: Db, nowMs: number, service: TransferService = defaultService()): Promise<number> {
  return service.runDueSchedules(db, nowMs, 100, scheduleFlagsCheck);
}

export interface TransferWorkers {
  stop(): Promise<void>;
}

/** Runs the sweeper and the schedule worker as periodic jobs on the queue, with the app's clock. */
export async function startTransferWorkers(options: {
  db: Db;
  queue: JobQueue;
  service: TransferService;
  now: () => number;
  expiryIntervalMs?: number;
  scheduleIntervalMs?: number;
  /** more expiry work on the sweeper's run (global-pay payments past their time) */
  alsoExpire?: (nowMs: number) => Promise<number>;
}): Promise<TransferWorkers> {
  const { db, queue, service, now } = options;
  // a failed run throws: the queue logs it (its log, main.ts) and retries it with back-off
  await workPeriodically(queue, EXPIRY_QUEUE, options.expiryIntervalMs ?? EXPIRY_INTERVAL_MS, async () => {
    const expired = await expireDueTransfers(db, now(), service);
    return expired + ((await options.alsoExpire?.(now())) ?? 0);
  });
  await workPeriodically(queue, SCHEDULE_QUEUE, options.scheduleIntervalMs ?? SCHEDULE_INTERVAL_MS, () => runDueSchedules(db, now(), service));
  return {
    async stop() {
      await queue.offWork(EXPIRY_QUEUE);
      await queue.offWork(SCHEDULE_QUEUE);
    },
  };
}
