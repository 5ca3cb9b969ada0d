/**
 * The platform's job queue (issue 15 §1, DESIGN.md "Background work"): pg-boss 10 on the platform's
 * own database, either driver (STACK.md: pg-boss 11 needs Node 22).
 *
 * - On PostgreSQL pg-boss runs its statements on the platform's pool; on PGlite through the one
 *   client (a statement without parameters may hold several, which pg-boss's locked commands do:
 *   PGlite's `exec` runs them together, never interleaved with another transaction's statements).
 * - A job is sent inside the caller's transaction when one is given (`send(..., { tx })`): a change
 *   that rolls back leaves no job, a change that commits always leaves its job (the outbox rule).
 * - Delivery is at least once (a worker that dies mid-job has its job retried after expiry, with
 *   back-off): every handler is idempotent on its own rows, which is what makes a job's effect
 *   happen exactly once across restarts and instances.
 * - Every worker of the platform runs here: the rails (rails/workers.ts), the mail outbox
 *   (adapters/mail-sender.ts), history exports (history/exports.worker.ts) and the transfers'
 *   periodic work (transfers/workers.ts). Periodic work is a self-rescheduling job on a `stately`
 *   queue (workPeriodically): at most one run waits and one runs, whatever the number of instances.
 * - One queue per process (main.ts starts it and gives it to buildApp); `expireInSecondsMax`
 *   (JOB_EXPIRE_SECONDS) shortens how long a dead worker's jobs wait before another takes them.
 */
import PgBoss from 'pg-boss';
import { sql, type SQL } from 'drizzle-orm';
import type { OpenDatabase } from './open.ts';
import { isConnectionError } from './outage.ts';
import type { Db, Tx } from './types.ts';

type Executor = { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

/**
 * A value as node-postgres would send it: drizzle leaves an undefined parameter out of the
 * statement altogether (pg sends null), and an object goes as its JSON text.
 */
function asParameter(value: unknown): unknown {
  if (value === undefined) return null;
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !Array.isArray(value) && !Buffer.isBuffer(value)) return JSON.stringify(value);
  return value;
}

/** pg-boss's statements on a drizzle handle (a transaction's, so the job commits with it). */
function drizzleExecutor(db: Db | Tx): Executor {
  return {
    async executeSql(text, values = []) {
      // $1..$n become drizzle parameters of the same values, in place
      const parts = text.split(/\$(\d+)/);
      const chunks: SQL[] = [];
      parts.forEach((part, i) => chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${asParameter(values[Number(part) - 1])}`));
      const result = (await db.execute(sql.join(chunks, sql``))) as unknown as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}

/** pg-boss's way to the database (exported for its test: tests/unit/job-queue-executor.test.ts). */
export function executorOf(open: OpenDatabase, log: (err: unknown) => void): Executor {
  const client = open.driver === 'pg' ? null : open.client;
  const execute: Executor['executeSql'] =
    open.driver === 'pg'
      ? (text, values) => open.pool.query(text, values as unknown[])
      : async (text, values) => {
          if (values && values.length > 0) return client!.query(text, values as unknown[]);
          const results = await client!.exec(text);
          return { rows: results.at(-1)?.rows ?? [] };
        };
  return {
    async executeSql(text, values) {
      try {
        return await execute(text, values);
      } catch (err) {
        // pg-boss 10 completes (or fails) a worker's jobs after its callback without awaiting the
        // call (manager.js work/onFetch): with the database away at that moment the rejection
        // reaches no handler and would end the process. Such a job stays active and is taken
        // again once it expires (at least once; every handler is idempotent on its rows). The
        // answer says no job was changed: pg-boss reads its count (rows[0].count; an empty rows
        // threw a TypeError there, as unhandled, found by the db-outage test on PostgreSQL).
        if (isConnectionError(err) && COMPLETION_STATEMENT.test(text)) {
          log(err);
          return { rows: [{ count: 0 }] };
        }
        throw err;
      }
    },
  };
}

/** pg-boss's statements that complete or fail jobs by id (plans.js completeJobs, failJobsById). */
const COMPLETION_STATEMENT = /AND id IN \(SELECT UNNEST\(\$2::uuid\[\]\)\)/;

export interface SendOptions {
  /** the caller's transaction: the job exists only if it commits */
  tx?: Db | Tx;
  /** not before this many milliseconds from now */
  afterMs?: number;
}

export interface Job<T> {
  id: string;
  data: T;
}

export interface JobQueue {
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<void>;
  /** Runs `handler` for each job of `name` (a thrown error retries the job with back-off). */
  work<T extends object>(name: string, handler: (job: Job<T>) => Promise<void>, options?: { pollingIntervalMs?: number; batchSize?: number }): Promise<void>;
  /** Takes the ready jobs of `name` now and runs them, one at a time (tests, and a drain on demand); returns how many ran. */
  runDue<T extends object>(name: string, handler: (job: Job<T>) => Promise<void>, limit?: number): Promise<number>;
  /** Stops this process's workers of `name` (jobs they hold finish; the rest wait for another worker). */
  offWork(name: string): Promise<void>;
  stop(): Promise<void>;
}

export interface QueueDefinition {
  name: string;
  /** attempts after the first (default 10) */
  retryLimit?: number;
  /** first retry after this many seconds, doubling (default 5) */
  retryDelaySeconds?: number;
  /** a job not finished in this time is taken again (default 300) */
  expireInSeconds?: number;
  /**
   * 'stately': at most one job waiting and one running at a time (a second send while one waits
   * does nothing), for periodic work (workPeriodically); 'standard' (default): any number
   */
  policy?: 'standard' | 'stately';
}

export interface JobQueueOptions {
  /** caps every queue's expireInSeconds: a dead worker's jobs are taken again sooner (tests, JOB_EXPIRE_SECONDS) */
  expireInSecondsMax?: number;
}

export async function startJobQueue(open: OpenDatabase, queues: readonly QueueDefinition[], log: (err: unknown) => void, queueOptions: JobQueueOptions = {}): Promise<JobQueue> {
  const expireMax = queueOptions.expireInSecondsMax;
  if (expireMax !== undefined && !(Number.isInteger(expireMax) && expireMax >= 1)) throw new Error(`expireInSecondsMax must be a whole number of seconds, at least 1, got ${expireMax}`);
  const boss = new PgBoss({
    db: executorOf(open, log),
    // the platform's periodic work is self-rescheduling jobs (workPeriodically), not pg-boss's cron;
    // pg-boss's maintenance (expiry of a dead worker's jobs, archive) stays on, at least as often as
    // the shortest expiry so a job that expired is taken again soon after
    schedule: false,
    supervise: true,
    ...(expireMax !== undefined ? { maintenanceIntervalSeconds: Math.min(120, expireMax) } : {}),
  } as unknown as PgBoss.ConstructorOptions);
  boss.on('error', log);
  await boss.start();
  for (const q of queues) {
    const options: PgBoss.Queue = {
      name: q.name,
      retryLimit: q.retryLimit ?? 10,
      retryDelay: q.retryDelaySeconds ?? 5,
      retryBackoff: true,
      expireInSeconds: Math.min(q.expireInSeconds ?? 300, expireMax ?? Infinity),
      policy: q.policy ?? 'standard',
    };
    const existing = await boss.getQueue(q.name);
    if (existing) await boss.updateQueue(q.name, options);
    else await boss.createQueue(q.name, options);
  }
  const run = async <T extends object>(handler: (job: Job<T>) => Promise<void>, name: string, job: PgBoss.Job<T>) => {
    try {
      await handler({ id: job.id, data: job.data });
      await boss.complete(name, job.id);
    } catch (err) {
      await boss.fail(name, job.id, { message: err instanceof Error ? err.message : String(err) });
      log(err);
    }
  };
  return {
    async send(name, data, options = {}) {
      const sendOptions: PgBoss.SendOptions & { db?: Executor } = {};
      if (options.afterMs && options.afterMs > 0) sendOptions.startAfter = new Date(Date.now() + options.afterMs);
      if (options.tx) sendOptions.db = drizzleExecutor(options.tx);
      await boss.send(name, data, sendOptions);
    },
    async work(name, handler, options = {}) {
      await boss.work<typeof handler extends (job: Job<infer T>) => Promise<void> ? T : never>(
        name,
        { pollingIntervalSeconds: Math.max(0.5, (options.pollingIntervalMs ?? 1000) / 1000), batchSize: options.batchSize ?? 5 },
        async (jobs) => {
          // one at a time: a failure fails its job alone (pg-boss fails the whole batch otherwise)
          for (const job of jobs) await run(handler as never, name, job as never);
        },
      );
    },
    async runDue(name, handler, limit = 100) {
      const jobs = (await boss.fetch(name, { batchSize: limit })) as PgBoss.Job<never>[];
      for (const job of jobs) await run(handler as never, name, job);
      return jobs.length;
    },
    async offWork(name) {
      await boss.offWork(name);
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}

/**
 * Periodic work as a self-rescheduling job on a `stately` queue: each run first sends the next
 * (everyMs later), then does the work, so a run that fails or a process that dies never ends the
 * chain; every instance sends one at start, which does nothing while one is already waiting. The
 * queue lets one run at a time, so several instances never run it at once (the work itself stays
 * idempotent: a run repeated after a crash changes nothing twice).
 */
export async function workPeriodically(queue: Pick<JobQueue, 'send' | 'work'>, name: string, everyMs: number, run: () => Promise<unknown>): Promise<void> {
  await queue.work(name, async () => {
    await queue.send(name, {}, { afterMs: everyMs });
    await run();
  });
  await queue.send(name, {});
}
