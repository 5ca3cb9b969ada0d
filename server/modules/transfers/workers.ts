/**
 * Background work of transfers, safe on several instances at once (rows are taken FOR UPDATE SKIP
 * LOCKED, runs are keyed): the expiry sweeper voids pending transfers past their time, the schedule
 * worker books due runs of recurring transfers. Both are plain functions tests call with their own
 * clock; startTransferWorkers runs them on intervals (unref'd: they never keep a process alive).
 */
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/types.ts';
import { createBackoff } from '../../db/outage.ts';
import { users } from '../customers/customers.tables.ts';
import { MethodFailure, type MethodContext } from '../method-types.ts';
import { OPERATION_FLAGS, requireFlags } from './permissions.ts';
import type { TransferKind } from './transfers.tables.ts';
import { createTransferService, type TransferActor, type TransferService } from './transfers.service.ts';

/** How often the sweeper and the schedule worker look for work. */
export const EXPIRY_INTERVAL_MS = 15_000;
export const SCHEDULE_INTERVAL_MS = 30_000;

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
  stop(): void;
}

export function startTransferWorkers(options: {
  db: Db;
  service: TransferService;
  now: () => number;
  expiryIntervalMs?: number;
  scheduleIntervalMs?: number;
  log: (err: unknown) => void;
}): TransferWorkers {
  const { db, service, now, log } = options;
  // One pass at a time per worker: a slow pass is never overlapped by the next tick. After a
  // failed pass (the database away) ticks are skipped for a growing, jittered while.
  const loop = (intervalMs: number, work: () => Promise<unknown>) => {
    let running = false;
    const backoff = createBackoff({ baseMs: intervalMs, capMs: 5 * 60_000 });
    const timer = setInterval(() => {
      if (running || !backoff.ready()) return;
      running = true;
      work()
        .then(
          () => backoff.succeeded(),
          (err: unknown) => {
            backoff.failed();
            log(err);
          },
        )
        .finally(() => {
          running = false;
        });
    }, intervalMs);
    timer.unref();
    return timer;
  };
  const timers = [
    loop(options.expiryIntervalMs ?? EXPIRY_INTERVAL_MS, () => expireDueTransfers(db, now(), service)),
    loop(options.scheduleIntervalMs ?? SCHEDULE_INTERVAL_MS, () => runDueSchedules(db, now(), service)),
  ];
  return {
    stop() {
      for (const timer of timers) clearInterval(timer);
    },
  };
}
