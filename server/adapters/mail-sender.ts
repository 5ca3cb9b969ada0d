/**
 * The mail side of the outbox (outbox.ts): a worker that delivers queued mail rows through SMTP.
 *
 * Claiming. A short transaction picks queued mail rows with `FOR UPDATE SKIP LOCKED` (so two
 * instances polling together take different rows, neither waiting for the other), counts the
 * attempt and stamps a lease on them, and commits before anything is sent: no transaction stays
 * open across an SMTP conversation (that would hold a pooled connection, and on PGlite, a single
 * connection, it would stall every request). The same SQL runs on PGlite, which is PostgreSQL.
 *
 * The table has no column of its own for the lease or the retry time, so `sent_at` carries it
 * while a row is queued: a queued row is due when `sent_at` is null or in the past. On delivery
 * `sent_at` becomes the delivery time; a failed row has none. (A dedicated `next_attempt_at`
 * column would say this more plainly; the schema is not this adapter's to change.)
 *
 * Outcome of one attempt:
 * - accepted by the server: status sent, sent_at = now, last_error cleared;
 * - rejected for good (a 5xx to RCPT TO or DATA: no such mailbox, message refused): failed at once,
 *   retrying a permanent answer never helps and hurts the sender's reputation;
 * - anything else (4xx, connection refused, timeout): last_error recorded, retried after a growing
 *   delay, and failed once maxAttempts attempts were made.
 * A worker that dies mid-send leaves its lease to expire; the row is then tried again (delivery is
 * at least once, never concurrent).
 *
 * SMS rows are never touched here: they stay queued for the SMS provider adapter (a later issue).
 *
 * Logging: row ids, channel, status, attempt counts and SMTP reply codes only. Never a body (it
 * carries one-time codes), a recipient, an SMTP reply text (it can quote the recipient) or a
 * password.
 */
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db } from '../db/types.ts';
import { outbox } from '../modules/platform/platform.tables.ts';
import { safeError } from '../modules/platform/log.ts';
import { backoffDelayMs } from '../db/outage.ts';

/** One message as the worker hands it to the transport (the sender comes from the transport). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  headers?: Record<string, string>;
}

/** What the worker needs of a transport; a nodemailer Transporter is one. */
export interface MailTransport {
  sendMail(message: OutgoingMail): Promise<unknown>;
}

/** The structured logger the worker writes to (Fastify's app.log is one). */
export interface OutboxLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

export const DEFAULT_POLL_MS = 2_000;
export const DEFAULT_BATCH_SIZE = 10;
export const DEFAULT_MAX_ATTEMPTS = 8;
export const DEFAULT_SEND_TIMEOUT_MS = 60_000;

/** 30 s, 1 min, 2 min, … doubling, at most an hour: 8 attempts span about two hours. */
export function defaultRetryDelayMs(attempt: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
}

export interface OutboxWorkerOptions {
  db: Db;
  transport: MailTransport;
  logger: OutboxLogger;
  /** the wait between polls when the last one found less than a full batch */
  pollMs?: number;
  /** rows claimed per poll */
  batchSize?: number;
  /** attempts before a row is marked failed (including the first) */
  maxAttempts?: number;
  /** the clock in ms (tests move it to make retries due) */
  now?: () => number;
  /** the wait after failed attempt n (1-based) before the next */
  retryDelayMs?: (attempt: number) => number;
  /** one send that takes longer counts as failed (and is retried) */
  sendTimeoutMs?: number;
  /**
   * how long a claim keeps other workers off its rows; must outlast a whole batch of sends, so by
   * default batchSize × sendTimeoutMs plus a minute
   */
  leaseMs?: number;
}

export interface BatchResult {
  claimed: number;
  sent: number;
  /** failed attempts that will be tried again */
  retrying: number;
  /** rows marked failed (attempts exhausted, or rejected for good) */
  failed: number;
  /** claimed rows handed back unsent because the worker was stopping */
  released: number;
}

export interface OutboxWorker {
  /** polls every pollMs until stop() */
  start(): void;
  /** stops polling; waits for the send in flight and hands the rest of its batch back */
  stop(): Promise<void>;
  /** one claim-and-send round (start() runs these; tests call it directly) */
  runOnce(): Promise<BatchResult>;
}

interface ClaimedRow {
  id: number;
  recipient: string;
  subject: string | null;
  body: string;
  attempts: number;
}

/** Codes of an SMTP or socket error, without its text (which may quote the recipient). */
function errorCodes(err: unknown): { errorCode?: string; smtpCode?: number; command?: string } {
  const e = err as { code?: unknown; responseCode?: unknown; command?: unknown } | null;
  return {
    ...(typeof e?.code === 'string' ? { errorCode: e.code } : {}),
    ...(typeof e?.responseCode === 'number' ? { smtpCode: e.responseCode } : {}),
    ...(typeof e?.command === 'string' ? { command: e.command } : {}),
  };
}

/** A 5xx answer about this message or its recipient: trying again cannot succeed. */
export function isPermanentSmtpError(err: unknown): boolean {
  const { smtpCode, command, errorCode } = errorCodes(err);
  if (smtpCode !== undefined && smtpCode >= 500 && smtpCode < 600) return command === 'RCPT TO' || command === 'DATA';
  // nodemailer refusing the envelope itself (an address it cannot use) before talking to a server
  return errorCode === 'EENVELOPE' && command === 'API';
}

function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\s+/g, ' ').trim().slice(0, 500) || 'unknown error';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { db, transport, logger } = options;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const now = options.now ?? Date.now;
  const retryDelayMs = options.retryDelayMs ?? defaultRetryDelayMs;
  const sendTimeoutMs = options.sendTimeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? batchSize * sendTimeoutMs + 60_000;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error('outbox worker: batchSize must be a positive integer');
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error('outbox worker: maxAttempts must be a positive integer');
  if (!(pollMs > 0)) throw new Error('outbox worker: pollMs must be positive');

  let running = false;
  let stopping = false;
  let failedRounds = 0;
  let timer: NodeJS.Timeout | null = null;
  const inFlight = new Set<Promise<unknown>>();

  /** The short transaction: give up on rows whose last attempt never came back, then claim. */
  async function claim(): Promise<ClaimedRow[]> {
    const at = new Date(now());
    return db.transaction(async (tx) => {
      const due = or(isNull(outbox.sentAt), lte(outbox.sentAt, at));
      // A worker died during the last allowed attempt: the lease ran out, nothing is left to try.
      await tx
        .update(outbox)
        .set({ status: 'failed', sentAt: null, lastError: sql`coalesce(${outbox.lastError}, 'the last attempt did not finish')` })
        .where(and(eq(outbox.channel, 'mail'), eq(outbox.status, 'queued'), sql`${outbox.attempts} >= ${maxAttempts}`, due));
      const picked = await tx
        .select({ id: outbox.id })
        .from(outbox)
        .where(and(eq(outbox.channel, 'mail'), eq(outbox.status, 'queued'), sql`${outbox.attempts} < ${maxAttempts}`, due))
        .orderBy(asc(outbox.createdAt), asc(outbox.id))
        .limit(batchSize)
        .for('update', { skipLocked: true });
      if (picked.length === 0) return [];
      const rows = await tx
        .update(outbox)
        .set({ attempts: sql`${outbox.attempts} + 1`, sentAt: new Date(at.getTime() + leaseMs) })
        .where(inArray(
          outbox.id,
          picked.map((row) => row.id),
        ))
        .returning({ id: outbox.id, recipient: outbox.recipient, subject: outbox.subject, body: outbox.body, attempts: outbox.attempts });
      return rows.sort((a, b) => a.id - b.id);
    });
  }

  /** Updates a row this worker claimed, unless its lease was lost to another worker meanwhile. */
  async function settle(row: ClaimedRow, values: Partial<typeof outbox.$inferInsert>): Promise<boolean> {
    const updated = await db
      .update(outbox)
      .set(values)
      .where(and(eq(outbox.id, row.id), eq(outbox.status, 'queued'), eq(outbox.attempts, row.attempts)))
      .returning({ id: outbox.id });
    if (updated.length === 0) logger.warn({ outboxId: row.id, channel: 'mail', attempts: row.attempts }, 'outbox: row changed while it was being sent');
    return updated.length > 0;
  }

  async function deliver(row: ClaimedRow, result: BatchResult): Promise<void> {
    try {
      await withTimeout(
        transport.sendMail({
          to: row.recipient,
          subject: row.subject ?? '',
          text: row.body,
          // tells auto-responders (out of office) not to answer a machine
          headers: { 'Auto-Submitted': 'auto-generated' },
        }),
        sendTimeoutMs,
      );
    } catch (err) {
      const codes = errorCodes(err);
      const permanent = isPermanentSmtpError(err);
      if (permanent || row.attempts >= maxAttempts) {
        await settle(row, { status: 'failed', sentAt: null, lastError: errorText(err) });
        result.failed++;
        logger.warn({ outboxId: row.id, channel: 'mail', status: 'failed', attempts: row.attempts, permanent, ...codes }, 'outbox: mail failed');
      } else {
        const retryAt = new Date(now() + retryDelayMs(row.attempts));
        await settle(row, { sentAt: retryAt, lastError: errorText(err) });
        result.retrying++;
        logger.warn({ outboxId: row.id, channel: 'mail', status: 'queued', attempts: row.attempts, retryAt: retryAt.toISOString(), ...codes }, 'outbox: mail will be retried');
      }
      return;
    }
    await settle(row, { status: 'sent', sentAt: new Date(now()), lastError: null });
    result.sent++;
    logger.info({ outboxId: row.id, channel: 'mail', status: 'sent', attempts: row.attempts }, 'outbox: mail sent');
  }

  /** Hands claimed rows back as they were, so another instance sends them without waiting for the lease. */
  async function release(rows: ClaimedRow[]): Promise<number> {
    let released = 0;
    for (const row of rows) {
      if (await settle(row, { attempts: row.attempts - 1, sentAt: null })) released++;
    }
    return released;
  }

  async function runBatch(): Promise<BatchResult> {
    const result: BatchResult = { claimed: 0, sent: 0, retrying: 0, failed: 0, released: 0 };
    const rows = await claim();
    result.claimed = rows.length;
    for (let i = 0; i < rows.length; i++) {
      if (stopping) {
        result.released = await release(rows.slice(i));
        break;
      }
      await deliver(rows[i]!, result);
    }
    return result;
  }

  function runOnce(): Promise<BatchResult> {
    const run = runBatch();
    inFlight.add(run);
    const forget = () => inFlight.delete(run);
    run.then(forget, forget);
    return run;
  }

  async function tick(): Promise<void> {
    timer = null;
    if (!running) return;
    let full = false;
    let waitMs = pollMs;
    try {
      const result = await runOnce();
      full = result.claimed === batchSize;
      failedRounds = 0;
    } catch (err) {
      // The database away (or any failed round): wait longer each time, jittered, at most 5 min.
      failedRounds++;
      waitMs = Math.max(pollMs, backoffDelayMs(failedRounds, pollMs * 2, 5 * 60_000));
      logger.error({ error: safeError(err), failedRounds, retryInMs: waitMs }, 'outbox: mail round failed');
    }
    // A full batch means more may be waiting: go on at once instead of waiting a poll.
    if (running) timer = setTimeout(() => void tick(), full ? 0 : waitMs);
  }

  return {
    start() {
      if (running) return;
      running = true;
      stopping = false;
      timer = setTimeout(() => void tick(), 0);
    },
    async stop() {
      running = false;
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await Promise.allSettled([...inFlight]);
      stopping = false;
    },
    runOnce,
  };
}

// ---------------------------------------------------------------------------------------------
// SMTP settings from the environment

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); false: plain, upgraded by STARTTLS when offered */
  secure: boolean;
  user?: string;
  password?: string;
  /** the From header, e.g. `Bank <no-reply@bank.example>` */
  from: string;
}

/**
 * SMTP_HOST, SMTP_PORT (587), SMTP_SECURE (true|false, false), SMTP_USER, SMTP_PASSWORD,
 * MAIL_FROM (`<project name> <no-reply@localhost>`). Null without SMTP_HOST; throws on a bad value.
 */
export function smtpSettingsFromEnv(env: NodeJS.ProcessEnv, projectName: string): SmtpSettings | null {
  const host = env.SMTP_HOST?.trim();
  if (!host) return null;
  const portText = env.SMTP_PORT?.trim() || '587';
  const port = Number(portText);
  if (!/^[0-9]+$/.test(portText) || port < 1 || port > 65_535) throw new Error(`SMTP_PORT must be a port number, got ${env.SMTP_PORT}`);
  const secureText = env.SMTP_SECURE?.trim().toLowerCase() || 'false';
  if (secureText !== 'true' && secureText !== 'false') throw new Error(`SMTP_SECURE must be true or false, got ${env.SMTP_SECURE}`);
  const user = env.SMTP_USER || undefined;
  const password = env.SMTP_PASSWORD || undefined;
  if (Boolean(user) !== Boolean(password)) throw new Error('SMTP_USER and SMTP_PASSWORD go together: set both or neither');
  const from = env.MAIL_FROM?.trim() || `${projectName.replace(/[<>"\r\n]/g, '')} <no-reply@localhost>`;
  return { host, port, secure: secureText === 'true', from, ...(user && password ? { user, password } : {}) };
}

export interface SmtpTransport extends MailTransport {
  close(): void;
}

/**
 * A nodemailer SMTP transport for the settings. Timeouts keep a dead server from holding a claim;
 * `ignoreTLS` (tests only: a plain local server) skips STARTTLS.
 */
export function createSmtpTransport(settings: SmtpSettings, extra: { ignoreTLS?: boolean } = {}): SmtpTransport {
  return nodemailer.createTransport(
    {
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      ...(settings.user && settings.password ? { auth: { user: settings.user, pass: settings.password } } : {}),
      ...(extra.ignoreTLS ? { ignoreTLS: true } : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      // nodemailer's own logger would print message contents; ours logs ids only
      logger: false,
      debug: false,
    },
    { from: settings.from },
  );
}

export interface MailOutbox {
  stop(): Promise<void>;
}

/**
 * What main.ts runs: with SMTP_HOST, a worker delivering queued mail; without, nothing but one log
 * line (mail stays in the outbox table, readable at /dev/mailbox in demo mode).
 */
export function startMailOutbox(options: { db: Db; logger: OutboxLogger; env?: NodeJS.ProcessEnv; projectName: string }): MailOutbox {
  const settings = smtpSettingsFromEnv(options.env ?? process.env, options.projectName);
  if (!settings) {
    options.logger.info({ channel: 'mail' }, 'outbox: SMTP_HOST is not set, so no mail is sent; mail stays queued in the outbox table');
    return { stop: async () => {} };
  }
  const transport = createSmtpTransport(settings);
  const worker = createOutboxWorker({ db: options.db, transport, logger: options.logger });
  worker.start();
  options.logger.info(
    { channel: 'mail', smtpHost: settings.host, smtpPort: settings.port, smtpSecure: settings.secure, smtpAuth: Boolean(settings.user) },
    'outbox: sending queued mail through SMTP',
  );
  return {
    async stop() {
      await worker.stop();
      transport.close();
    },
  };
}
