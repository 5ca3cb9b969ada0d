/**
 * Builds queued history exports (document 2 §7) into CSV files: an in-process worker polling
 * the history_exports table (started by history.routes.ts, stopped when the app closes), and
 * runExportJobs for tests and for the worker itself.
 *
 * A job: claim one queued export in a short transaction (FOR UPDATE SKIP LOCKED, so instances
 * sharing a PostgreSQL database never build one export twice), mark it processing, then walk its
 * rows newest first in chunks with a keyset cursor (historyChunk), updating progress (0-99) after
 * each chunk, and finally store the file, status done and progress 100. Any error: status failed,
 * except the database going away (db/outage.ts): the claim runs out and the export is built again.
 * No transaction stays open across the walk (PGlite is one connection; it would stall requests).
 *
 * The table has no lease column, so while an export is processing its finished_at holds the time
 * its claim runs out (renewed every chunk): an export whose builder died is claimed again after
 * that. Once done or failed, finished_at is the finishing time.
 *
 * Limits: at most MAX_EXPORT_ROWS rows per file (a larger export fails: narrow the filter);
 * manual exports are deleted EXPORT_RETENTION_DAYS after they finished (monthly ones stay: one
 * per account and month).
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
import type { Db } from '../../db/types.ts';
import { createBackoff, isConnectionError } from '../../db/outage.ts';
import { csvStart, manualExportFileName, monthlyExportFileName, transactionCsvLine } from './csv.ts';
import { documentLanguage, type DocumentLanguage } from './document-words.ts';
import { customerLanguage, historyChunk, historyCount, type HistoryCursor, type HistoryFilter } from './history.service.ts';
import { historyExports } from './history.tables.ts';
import { users } from '../customers/customers.tables.ts';

export const EXPORT_CHUNK_ROWS = 500;
export const MAX_EXPORT_ROWS = 100_000;
export const EXPORT_LEASE_MS = 5 * 60_000;
export const EXPORT_RETENTION_DAYS = 7;
export const EXPORT_POLL_MS = 2_000;
/** Jobs one run builds at most before it yields to the next poll. */
export const EXPORT_JOBS_PER_RUN = 10;

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

async function runAll(db: Db, now: () => number, options: ExportJobOptions): Promise<number> {
  await db
    .delete(historyExports)
    .where(
      and(
        eq(historyExports.source, 'manual'),
        inArray(historyExports.status, ['done', 'failed']),
        lt(historyExports.finishedAt, new Date(now() - EXPORT_RETENTION_DAYS * 86_400_000)),
      ),
    );
  let finished = 0;
  for (let i = 0; i < (options.maxJobs ?? EXPORT_JOBS_PER_RUN); i++) {
    const job = await claim(db, now);
    if (!job) break;
    await build(db, job, now, options);
    finished += 1;
  }
  return finished;
}

async function claim(db: Db, now: () => number): Promise<ExportRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(historyExports)
      .where(or(eq(historyExports.status, 'queued'), and(eq(historyExports.status, 'processing'), lt(historyExports.finishedAt, new Date(now())))))
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

export interface ExportWorker {
  stop(): Promise<void>;
}

/** The workers started on each database in this process. */
const workers = new WeakMap<Db, Set<ExportWorker>>();

/**
 * Stops the workers polling this database in this process: a test that drives runExportJobs
 * itself calls it first, so no poll builds an export between two of its steps.
 */
export async function stopExportWorkers(db: Db): Promise<void> {
  await Promise.all([...(workers.get(db) ?? [])].map((w) => w.stop()));
}

/** Polls every pollMs (the timer does not keep the process alive); stop() waits for the run in progress. */
export function startExportWorker(options: { db: Db; now?: () => number; pollMs?: number } & ExportJobOptions): ExportWorker {
  const { db, pollMs = EXPORT_POLL_MS, ...jobOptions } = options;
  const now = options.now ?? Date.now;
  let stopped = false;
  let current: Promise<unknown> | null = null;
  // After a failed run (the database away), polls are skipped for a growing, jittered while.
  const backoff = createBackoff({ baseMs: pollMs, capMs: 60_000 });
  const timer = setInterval(() => {
    if (stopped || current || !backoff.ready()) return;
    current = runExportJobs(db, now, jobOptions)
      .then(
        () => backoff.succeeded(),
        (err: unknown) => {
          backoff.failed();
          jobOptions.onError?.('', err);
        },
      )
      .finally(() => {
        current = null;
      });
  }, pollMs);
  timer.unref();
  const worker: ExportWorker = {
    async stop() {
      stopped = true;
      clearInterval(timer);
      workers.get(db)?.delete(worker);
      await current;
    },
  };
  workers.set(db, (workers.get(db) ?? new Set()).add(worker));
  return worker;
}
