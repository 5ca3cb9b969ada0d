/**
 * Transfers posted in batches (migration 0011, ledger_transfer_batch): the requests that arrive
 * while the database is busy with earlier ones are sent together, as one statement and one
 * transaction, when a batch finishes. A request arriving at a quiet platform goes at once, alone:
 * batching adds no wait, it only groups what would otherwise queue for the pool.
 *
 * Why: a transfer's cost in PostgreSQL is the work per statement and per row (executor start and
 * end, index inserts, foreign-key checks, the commit), not the round trip (bench/ledger.ts, the
 * profile in the migration). One statement writing the transfers of a batch, one their legs, one
 * the balances and one commit amortize it; a hot account is locked once per batch.
 *
 * The batch answers the common case only (a transfer posted now). Every other request, and every
 * request of a batch that raised a daily limit's refusal, a serialization failure or a deadlock,
 * is answered by the one-by-one statement after the batch's transaction ended: the exact answers,
 * refusals and replays stay in one place (ledger_transfer_now).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/types.ts';
import { executeNamed } from '../../db/prepared.ts';
import { pgErrorCode } from '../platform/method-endpoint.ts';

/** What the batch answered for one request: posted now, or left to the one-by-one statement. */
export type BatchAnswer = { answer: { responseCode: '00' } & Record<string, unknown> } | { retry: true };

export interface LedgerBatchOptions {
  /** requests per batch at most */
  maxBatch: number;
  /** batches running at once (each holds a pooled connection); more requests wait for one to end */
  inFlight: number;
  /** requests waiting at least, for a batch to start while another runs */
  minParallel: number;
}

/** A positive whole number from the environment, else the default (a typo must not stop transfers). */
function setting(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/**
 * The defaults (bench/ledger.ts, 2 cores): up to 3 batches at once, a second or third only with
 * 4 requests waiting. Between 1 and 6 at once, 1 and 8 waiting, batches of 8 or 32, the figures
 * moved less than the machine's noise; what counted was grouping the requests of one event-loop
 * turn, keeping a batch beside another off the accounts that one holds, and (session 9) sharing
 * the waiting requests out among the free slots at once instead of one batch taking them all:
 * 16 connections' spread load went from about 1700-2000 to 2000-2450 transfers/s, the batches
 * spending most of their time on the WAL's flush, which batches in flight together share.
 */
export const LEDGER_BATCH_DEFAULTS: LedgerBatchOptions = {
  maxBatch: setting('LEDGER_BATCH_MAX', 32),
  inFlight: setting('LEDGER_BATCHES_IN_FLIGHT', 3),
  minParallel: setting('LEDGER_BATCH_MIN_PARALLEL', 4),
};

interface Waiting {
  request: object;
  done: (answer: BatchAnswer) => void;
  fail: (err: unknown) => void;
}

/** What a batcher did since it was made (the tests read it). */
export interface LedgerBatchStats {
  batches: number;
  requests: number;
  /** the most requests in one batch */
  largest: number;
  /** requests the batch left to the one-by-one statement */
  retried: number;
  /** batches that raised a retryable error (every request then asked one by one) */
  failed: number;
}

/** The day's limit refusing part of a batch (0011), a serialization failure, a deadlock. */
const BATCH_RETRY_CODES = new Set(['WL003', '40001', '40P01']);

export interface LedgerBatcher {
  /** Posts the request with whatever else is waiting; resolves with its answer. */
  submit(request: object): Promise<BatchAnswer>;
  readonly stats: Readonly<LedgerBatchStats>;
}

const RETRY: BatchAnswer = { retry: true };

/** The accounts a request names (ledger_transfer_now's from and to). */
function accountsOf(request: object): number[] {
  const { from, to } = request as { from?: unknown; to?: unknown };
  return [from, to].filter((id): id is number => typeof id === 'number');
}

export function createLedgerBatcher(db: Db, options: LedgerBatchOptions = LEDGER_BATCH_DEFAULTS): LedgerBatcher {
  let queue: Waiting[] = [];
  /** the accounts of each running batch */
  const running = new Set<Set<number>>();
  let scheduled = false;
  const stats: LedgerBatchStats = { batches: 0, requests: 0, largest: 0, retried: 0, failed: 0 };

  const flush = (): void => {
    // A batch whenever none runs; others beside running ones only with enough requests waiting to
    // be worth their own transaction (else the waiting ones join the next batch, larger and
    // cheaper).
    const slots = options.inFlight - running.size;
    if (queue.length === 0 || slots <= 0 || (running.size > 0 && queue.length < options.minParallel)) return;
    // The waiting requests are shared out among as many batches as there are free slots and groups
    // of minParallel: one batch is one statement in one backend, on one core, while the platform
    // waits; two or three at once keep both the database's cores and the platform busy (bench/
    // ledger.ts: one batch of all 16 clients' requests left the machine a third idle).
    const batches = Array.from({ length: Math.max(1, Math.min(slots, Math.floor(queue.length / options.minParallel))) }, () => ({
      waiting: [] as Waiting[],
      accounts: new Set<number>(),
    }));
    // A request whose account a running batch holds would wait for its locks, and a request
    // sharing accounts with two new batches would join them into one: those keep their place for
    // a later batch. Requests sharing an account go in the same batch (a hot account's transfers
    // make one batch, locked once), the others in the smallest.
    const held = new Set<number>();
    for (const accounts of running) for (const id of accounts) held.add(id);
    const rest: Waiting[] = [];
    for (const w of queue) {
      const ids = accountsOf(w.request);
      const sharing = ids.some((id) => held.has(id)) ? batches : batches.filter((b) => ids.some((id) => b.accounts.has(id)));
      const target = sharing.length === 0 ? batches.reduce((a, b) => (b.waiting.length < a.waiting.length ? b : a)) : sharing.length === 1 ? sharing[0]! : undefined;
      if (!target || target.waiting.length >= options.maxBatch) {
        rest.push(w);
        continue;
      }
      target.waiting.push(w);
      for (const id of ids) target.accounts.add(id);
    }
    queue = rest;
    for (const { waiting, accounts } of batches) {
      if (waiting.length === 0) continue;
      running.add(accounts);
      void run(waiting).finally(() => {
        running.delete(accounts);
        flush();
      });
    }
  };

  const run = async (batch: Waiting[]): Promise<void> => {
    stats.batches++;
    stats.requests += batch.length;
    stats.largest = Math.max(stats.largest, batch.length);
    let answers: BatchAnswer[];
    try {
      const result = (await executeNamed(db, sql`select ledger_transfer_batch(${JSON.stringify(batch.map((w) => w.request))}::jsonb) as r`)) as {
        rows: { r: BatchAnswer[] }[];
      };
      answers = result.rows[0]!.r;
    } catch (err) {
      // Nothing was written (one transaction). A refusal of the day's limit or a re-run the
      // database asks for: each request is asked one by one, which answers exactly. Anything else
      // (the database away, a fault) is every request's error, as it would have been alone.
      if (!BATCH_RETRY_CODES.has(pgErrorCode(err) ?? '')) {
        batch.forEach((w) => w.fail(err));
        return;
      }
      answers = batch.map(() => RETRY);
      stats.failed++;
    }
    batch.forEach((w, i) => {
      const answer = answers[i] ?? RETRY;
      if ('retry' in answer) stats.retried++;
      w.done(answer);
    });
  };

  return {
    submit(request) {
      return new Promise<BatchAnswer>((done, fail) => {
        queue.push({ request, done, fail });
        // Sent after the requests read in this turn of the event loop reached here too: answers
        // of a batch go out together, so their clients' next requests arrive together.
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => {
            scheduled = false;
            flush();
          });
        }
      });
    },
    stats,
  };
}

const batchers = new WeakMap<Db, LedgerBatcher>();

/** The batcher of a database handle (one per pool: the batches share its connections). */
export function ledgerBatcherOf(db: Db): LedgerBatcher {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = createLedgerBatcher(db);
    batchers.set(db, batcher);
  }
  return batcher;
}
