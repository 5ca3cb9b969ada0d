/**
 * Builds queued history exports (document 2 §7) into CSV files, on the platform's job queue
 * (db/job-queue.ts): asking for an export writes its row and sends its `history.export` job in the
 * same transaction (history.methods.ts), and the job builds that export (startExportWorkers, from
 * history.routes.ts when the app has a queue). runExportJobs builds every queued export in-process:
 * tests drive it, and an app without a queue has no other builder.
 *
 * A build: claim the export in a short transaction (only while it is queued, or processing with its
 * claim run out; FOR UPDATE SKIP LOCKED, so instances sharing a PostgreSQL database never build one
 * export twice), mark it processing, then walk its rows newest first in chunks with a keyset cursor
 * (historyChunk), updating progress (0-99) after each chunk, and finally store the file, status
 * done and progress 100. Any error: status failed, except the database going away (db/outage.ts):
 * the job fails and the queue retries it with back-off, and the export is built again once its
 * claim runs out. A job for an export that is done, failed or gone does nothing (idempotent); one
 * for an export another builder holds comes back when that claim runs out.
 * No transaction stays open across the walk (PGlite is one connection; it would stall requests).
 *
 * The table has no lease column, so while an export is processing its finished_at holds the time
 * its claim runs out (renewed every chunk): an export whose builder died is claimed again after
 * that. Once done or failed, finished_at is the finishing time.
 *
 * Limits: at most MAX_EXPORT_ROWS rows per file (a larger export fails: narrow the filter);
 * manual exports are deleted EXPORT_RETENTION_DAYS after they finished (monthly ones stay: one
 * per account and month), by the periodic `history.export-sweep` job, which also sends a build job
 * for an export left without one (written by an app without a queue, or whose job gave up).
 *
 * Language: the file's header row, types, directions and statuses are in the saved settings
 * language of the user who asked for it (history_exports.user_id's own customer, the same rule
 * as the PDFs). A monthly export is built once for everyone who may see the account, in the
 * language of the user whose listing created it.
 *
 * Logging: the export id and the error's type only, never rows or filters (they hold names,
 * e-mail addresses and notes).
 */
import { and, asc, eq, inArray, lt, or } from 'drizzle-orm';
import { activeVariant } from '../../../variants/index.ts';
import type { Db, Tx } from '../../db/types.ts';
import { isConnectionError } from '../../db/outage.ts';
import { workPeriodically, type Job, type JobQueue, type QueueDefinition } from '../../db/job-queue.ts';
import { csvStart, manualExportFileName, monthlyExportFileName, transactionCsvLine } from './csv.ts';
import { documentLanguage, type DocumentLanguage } from './document-words.ts';
import { customerLanguage, historyChunk, historyCount, type HistoryCursor, type HistoryFilter } from './history.service.ts';
import { historyExports } from './history.tables.ts';
import { users } from '../customers/customers.tables.ts';

export const EXPORT_CHUNK_ROWS = 500;
export const MAX_EXPORT_ROWS = 100_000;
export const EXPORT_LEASE_MS = 5 * 60_000;
export const EXPORT_RETENTION_DAYS = 7;
/** Jobs one runExportJobs call builds at most. */
export const EXPORT_JOBS_PER_RUN = 10;
/** How often the sweep deletes old exports and finds those left without a job. */
export const EXPORT_SWEEP_INTERVAL_MS = 10 * 60_000;

export const EXPORT_QUEUE = 'history.export';
export const EXPORT_SWEEP_QUEUE = 'history.export-sweep';

export const EXPORT_QUEUES: readonly QueueDefinition[] = [
  // the database away: tried again 10 s, 20 s, … for about an hour; a job outlives the claim (5 min)
  { name: EXPORT_QUEUE, retryLimit: 8, retryDelaySeconds: 10, expireInSeconds: 600 },
  { name: EXPORT_SWEEP_QUEUE, policy: 'stately', retryLimit: 3, retryDelaySeconds: 60 },
];

/** Sends the build job of a new export, in the transaction that wrote its row (the outbox rule). */
export function sendExportJob(queue: Pick<JobQueue, 'send'>, tx: Db | Tx, exportId: string): Promise<void> {
  return queue.send(EXPORT_QUEUE, { exportId }, { tx });
}

export interface ExportJobOptions {
  providerName?: string;
  chunkRows?: number;
  maxJobs?: number;
  /** told about a failed export (its id and the error) */
  onError?: (exportId: string, err: unknown) => void;
}

type ExportRow = typeof historyExports.$inferSelect;

/** Runs on one database, one at a time in this process (see runExportJobs). */
const runs = new WeakMap<Db, Promise<unknown>>();

/**
 * Builds the queued exports (and those whose builder's claim ran out); returns how many it
 * finished (done or failed). Calls in one process run one after another: a call returns only
 * after every export queued before it was made has been built, whichever call claimed it.
 */
export function runExportJobs(db: Db, now: () => number = Date.now, options: ExportJobOptions = {}): Promise<number> {
  const previous = runs.get(db) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => runAll(db, now, options));
  runs.set(db, run);
  return run;
}

/** Deletes manual exports finished more than EXPORT_RETENTION_DAYS ago. */
async function deleteOldExports(db: Db, now: () => number): Promise<void> {
  await db
    .delete(historyExports)
    .where(
      and(
        eq(historyExports.source, 'manual'),
        inArray(historyExports.status, ['done', 'failed']),
        lt(historyExports.finishedAt, new Date(now() - EXPORT_RETENTION_DAYS * 86_400_000)),
      ),
    );
}

async function runAll(db: Db, now: () => number, options: ExportJobOptions): Promise<number> {
  await deleteOldExports(db, now);
  let finished = 0;
  for (let i = 0; i < (options.maxJobs ?? EXPORT_JOBS_PER_RUN); i++) {
    const job = await claim(db, now);
    if (!job) break;
    await build(db, job, now, options);
    finished += 1;
  }
  return finished;
}

/** Claims the oldest claimable export, or the one named. */
async function claim(db: Db, now: () => number, exportId?: string): Promise<ExportRow | null> {
  return db.transaction(async (tx) => {
    const claimable = or(eq(historyExports.status, 'queued'), and(eq(historyExports.status, 'processing'), lt(historyExports.finishedAt, new Date(now()))));
    const [row] = await tx
      .select()
      .from(historyExports)
      .where(exportId === undefined ? claimable : and(eq(historyExports.id, exportId), claimable))
      .orderBy(asc(historyExports.createdAt), asc(historyExports.id))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!row) return null;
    await tx
      .update(historyExports)
      .set({ status: 'processing', progress: 0, finishedAt: new Date(now() + EXPORT_LEASE_MS) })
      .where(eq(historyExports.id, row.id));
    return row;
  });
}

class TooManyRows extends Error {}

async function build(db: Db, job: ExportRow, now: () => number, options: ExportJobOptions): Promise<void> {
  const providerName = options.providerName ?? activeVariant.projectName;
  const chunkRows = options.chunkRows ?? EXPORT_CHUNK_ROWS;
  const mine = and(eq(historyExports.id, job.id), eq(historyExports.status, 'processing'));
  try {
    const filter = job.filter as HistoryFilter;
    const total = await historyCount(db, job.customerId, filter, providerName);
    if (total > MAX_EXPORT_ROWS) throw new TooManyRows();
    const lang = await askerLanguage(db, job.userId);
    let content = csvStart(lang);
    let cursor: HistoryCursor | null = null;
    let written = 0;
    for (;;) {
      const chunk = await historyChunk(db, job.customerId, filter, cursor, chunkRows, providerName);
      for (const row of chunk.transactions) content += transactionCsvLine(row, lang);
      written += chunk.transactions.length;
      cursor = chunk.cursor;
      if (chunk.transactions.length < chunkRows) break;
      if (written >= MAX_EXPORT_ROWS) throw new TooManyRows();
      const progress = Math.min(99, Math.floor((written * 100) / Math.max(total, 1)));
      await db.update(historyExports).set({ progress, finishedAt: new Date(now() + EXPORT_LEASE_MS) }).where(mine);
    }
    const fileName = job.source === 'monthly' && job.accountId !== null && job.period ? monthlyExportFileName(job.accountId, job.period) : manualExportFileName(job.createdAt);
    await db
      .update(historyExports)
      .set({ status: 'done', progress: 100, content, rowCount: written, fileName, finishedAt: new Date(now()) })
      .where(mine);
  } catch (err) {
    // The database went away: the export is not at fault. It stays processing until its claim
    // runs out and is then built again (the worker backs off meanwhile).
    if (isConnectionError(err)) throw err;
    options.onError?.(job.id, err);
    await db.update(historyExports).set({ status: 'failed', finishedAt: new Date(now()) }).where(mine);
  }
}

/** The saved language of the user's own customer (English when the user is gone). */
async function askerLanguage(db: Db, userId: number): Promise<DocumentLanguage> {
  const [user] = await db.select({ customerId: users.customerId }).from(users).where(eq(users.id, userId));
  return documentLanguage(user ? await customerLanguage(db, user.customerId) : null);
}

/**
 * Job history.export: builds the export named, once. Done, failed or gone: nothing to do. Held by
 * another builder: the job comes back when that claim runs out (and finds it done, or takes it over
 * from a builder that died). The database away: throws, and the queue retries with back-off.
 */
export async function buildExportJob(db: Db, queue: Pick<JobQueue, 'send'>, exportId: string, now: () => number = Date.now, options: ExportJobOptions = {}): Promise<'built' | 'done' | 'later'> {
  const job = await claim(db, now, exportId);
  if (job) {
    await build(db, job, now, options);
    return 'built';
  }
  const [row] = await db.select({ status: historyExports.status, leaseEnd: historyExports.finishedAt }).from(historyExports).where(eq(historyExports.id, exportId));
  if (!row || row.status !== 'processing') return 'done';
  await queue.send(EXPORT_QUEUE, { exportId }, { afterMs: Math.max(1_000, (row.leaseEnd?.getTime() ?? now()) - now() + 1_000) });
  return 'later';
}

/**
 * Job history.export-sweep: deletes old manual exports, and sends a build job for each export left
 * without one: queued for more than a lease (written by an app without a queue, or whose job gave
 * up), or processing with its claim run out. A job too many builds nothing twice (buildExportJob).
 */
export async function sweepExports(db: Db, queue: Pick<JobQueue, 'send'>, now: () => number = Date.now): Promise<number> {
  await deleteOldExports(db, now);
  const stale = await db
    .select({ id: historyExports.id })
    .from(historyExports)
    .where(
      or(
        and(eq(historyExports.status, 'queued'), lt(historyExports.createdAt, new Date(now() - EXPORT_LEASE_MS))),
        and(eq(historyExports.status, 'processing'), lt(historyExports.finishedAt, new Date(now()))),
      ),
    )
    .orderBy(asc(historyExports.createdAt))
    .limit(1_000);
  for (const row of stale) await queue.send(EXPORT_QUEUE, { exportId: row.id });
  return stale.length;
}

export interface ExportWorkers {
  stop(): Promise<void>;
}

/** The export builders and the periodic sweep on the platform's job queue (history.routes.ts starts them). */
export async function startExportWorkers(options: { db: Db; queue: JobQueue; now?: () => number } & ExportJobOptions): Promise<ExportWorkers> {
  const { db, queue, now = Date.now, ...jobOptions } = options;
  await queue.work(EXPORT_QUEUE, async (job: Job<{ exportId: string }>) => void (await buildExportJob(db, queue, job.data.exportId, now, jobOptions)));
  await workPeriodically(queue, EXPORT_SWEEP_QUEUE, EXPORT_SWEEP_INTERVAL_MS, () => sweepExports(db, queue, now));
  return {
    async stop() {
      await queue.offWork(EXPORT_QUEUE);
      await queue.offWork(EXPORT_SWEEP_QUEUE);
    },
  };
}
