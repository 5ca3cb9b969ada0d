/**
 * The mail side of the outbox (outbox.ts): delivers queued mail rows through SMTP, one
 * `outbox.mail` job per row on the platform's job queue (db/job-queue.ts). enqueueMail sends the
 * job in the transaction that writes the row, so a mail that commits always has its job.
 *
 * One delivery (the job's handler, idempotent on its row):
 * - claim: one statement counts the attempt and stamps a lease on the row, only while it is a
 *   queued mail row that is due (sent_at null or past) with attempts left; it commits before
 *   anything is sent: no transaction stays open across an SMTP conversation (that would hold a
 *   pooled connection, and on PGlite, a single connection, stall every request). Two jobs for one
 *   row (a retried job, a job too many) never both claim it: the second finds it leased or sent.
 * - not claimed: sent or failed already, or gone: nothing to do; leased by a delivery under way,
 *   or waiting for its retry time: the job is sent again for that time; its last attempt never
 *   came back (a worker died mid-send) and its lease ran out: failed.
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
 * - anything else (4xx, connection refused, timeout): last_error recorded, and the row's next
 *   attempt and its job sent for it in one transaction after a growing delay (retryDelayMs: the
 *   back-off is the SMTP answer's, per row); failed once maxAttempts attempts were made.
 * Retries of the job itself (the database away while it ran, a worker that died: the job's expiry)
 * come from the queue's definition (MAIL_QUEUES). Delivery is at least once, never concurrent.
 *
 * SMS rows are never touched here: they stay queued for the SMS provider adapter (a later issue).
 *
 * Logging: row ids, channel, status, attempt counts and SMTP reply codes only. Never a body (it
 * carries one-time codes), a recipient, an SMTP reply text (it can quote the recipient) or a
 * password.
 */
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db } from '../db/types.ts';
import { outbox } from '../modules/platform/platform.tables.ts';
import type { Job, JobQueue, QueueDefinition } from '../db/job-queue.ts';
import { setMailJobSender } from './outbox.ts';

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

export const DEFAULT_MAX_ATTEMPTS = 8;
export const DEFAULT_SEND_TIMEOUT_MS = 60_000;

export const MAIL_QUEUE = 'outbox.mail';

export const MAIL_QUEUES: readonly QueueDefinition[] = [
  // the job failing (the database away, a worker that died): tried again 10 s, 20 s, … for hours;
  // a job outlives a send's timeout and its lease
  { name: MAIL_QUEUE, retryLimit: 12, retryDelaySeconds: 10, expireInSeconds: 300 },
];

/** 30 s, 1 min, 2 min, … doubling, at most an hour: 8 attempts span about two hours. */
export function defaultRetryDelayMs(attempt: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
}

export interface MailDeliveryOptions {
  db: Db;
  transport: MailTransport;
  logger: OutboxLogger;
  /** where a row's next attempt is sent as a job */
  queue: Pick<JobQueue, 'send'>;
  /** attempts before a row is marked failed (including the first) */
  maxAttempts?: number;
  /** the clock in ms (tests move it to make retries due) */
  now?: () => number;
  /** the wait after failed attempt n (1-based) before the next */
  retryDelayMs?: (attempt: number) => number;
  /** one send that takes longer counts as failed (and is retried) */
  sendTimeoutMs?: number;
  /** how long a claim keeps other deliveries off its row; must outlast a send: sendTimeoutMs plus a minute by default */
  leaseMs?: number;
}

/**
 * What one delivery did: sent, retrying (its next attempt queued), failed (for good, or attempts
 * spent) after a claim; gaveUp (its last attempt never came back: failed without a claim), later
 * (not due: the job sent again for its time), done (nothing to do: sent, failed, gone, or SMS).
 */
export type MailOutcome = 'sent' | 'retrying' | 'failed' | 'gaveUp' | 'later' | 'done';

export interface MailDelivery {
  /** delivers one outbox row (the `outbox.mail` job's handler) */
  deliver(outboxId: number): Promise<MailOutcome>;
  handler(job: Job<{ outboxId: number }>): Promise<void>;
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

export function createMailDelivery(options: MailDeliveryOptions): MailDelivery {
  const { db, transport, logger, queue } = options;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const now = options.now ?? Date.now;
  const retryDelayMs = options.retryDelayMs ?? defaultRetryDelayMs;
  const sendTimeoutMs = options.sendTimeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? sendTimeoutMs + 60_000;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error('mail delivery: maxAttempts must be a positive integer');

  const mine = (id: number) => and(eq(outbox.id, id), eq(outbox.channel, 'mail'), eq(outbox.status, 'queued'));
  const due = (at: Date) => or(isNull(outbox.sentAt), lte(outbox.sentAt, at));

  /** One statement: the attempt counted and the lease stamped, only on a due queued mail row with attempts left. */
  async function claim(id: number): Promise<ClaimedRow | null> {
    const at = new Date(now());
    const [row] = await db
      .update(outbox)
      .set({ attempts: sql`${outbox.attempts} + 1`, sentAt: new Date(at.getTime() + leaseMs) })
      .where(and(mine(id), sql`${outbox.attempts} < ${maxAttempts}`, due(at)))
      .returning({ id: outbox.id, recipient: outbox.recipient, subject: outbox.subject, body: outbox.body, attempts: outbox.attempts });
    return row ?? null;
  }

  /** Not claimed: why, and what follows. */
  async function unclaimed(id: number): Promise<MailOutcome> {
    const at = new Date(now());
    // A worker died during the last allowed attempt: the lease ran out, nothing is left to try.
    const gaveUp = await db
      .update(outbox)
      .set({ status: 'failed', sentAt: null, lastError: sql`coalesce(${outbox.lastError}, 'the last attempt did not finish')` })
      .where(and(mine(id), sql`${outbox.attempts} >= ${maxAttempts}`, due(at)))
      .returning({ id: outbox.id, attempts: outbox.attempts });
    if (gaveUp.length > 0) {
      logger.warn({ outboxId: id, channel: 'mail', status: 'failed', attempts: gaveUp[0]!.attempts }, 'outbox: the last attempt did not finish');
      return 'gaveUp';
    }
    const [row] = await db.select({ sentAt: outbox.sentAt }).from(outbox).where(mine(id));
    if (!row) return 'done';
    // leased by a delivery under way, or waiting for its retry: this job comes back at that time
    await queue.send(MAIL_QUEUE, { outboxId: id }, { afterMs: Math.max(0, (row.sentAt?.getTime() ?? at.getTime()) - at.getTime()) });
    return 'later';
  }

  /** Updates a row this delivery claimed, unless its lease was lost to another one meanwhile. */
  async function settle(tx: Db, row: ClaimedRow, values: Partial<typeof outbox.$inferInsert>): Promise<boolean> {
    const updated = await tx
      .update(outbox)
      .set(values)
      .where(and(mine(row.id), eq(outbox.attempts, row.attempts)))
      .returning({ id: outbox.id });
    if (updated.length === 0) logger.warn({ outboxId: row.id, channel: 'mail', attempts: row.attempts }, 'outbox: row changed while it was being sent');
    return updated.length > 0;
  }

  async function deliver(outboxId: number): Promise<MailOutcome> {
    const row = await claim(outboxId);
    if (!row) return unclaimed(outboxId);
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
        await settle(db, row, { status: 'failed', sentAt: null, lastError: errorText(err) });
        logger.warn({ outboxId: row.id, channel: 'mail', status: 'failed', attempts: row.attempts, permanent, ...codes }, 'outbox: mail failed');
        return 'failed';
      }
      const delayMs = retryDelayMs(row.attempts);
      const retryAt = new Date(now() + delayMs);
      // the row's next attempt and its job together: neither without the other
      await db.transaction(async (tx) => {
        if (await settle(tx as unknown as Db, row, { sentAt: retryAt, lastError: errorText(err) })) await queue.send(MAIL_QUEUE, { outboxId: row.id }, { tx, afterMs: delayMs });
      });
      logger.warn({ outboxId: row.id, channel: 'mail', status: 'queued', attempts: row.attempts, retryAt: retryAt.toISOString(), ...codes }, 'outbox: mail will be retried');
      return 'retrying';
    }
    await settle(db, row, { status: 'sent', sentAt: new Date(now()), lastError: null });
    logger.info({ outboxId: row.id, channel: 'mail', status: 'sent', attempts: row.attempts }, 'outbox: mail sent');
    return 'sent';
  }

  return {
    deliver,
    async handler(job) {
      await deliver(job.data.outboxId);
    },
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
 * What main.ts runs: with SMTP_HOST, mail delivery on the job queue (the job sender registered for
 * enqueueMail, a job sent at start for each mail row still queued: rows written while no mail worker
 * ran, and a job too many changes nothing); without, nothing but one log line (mail stays in the
 * outbox table, readable at /dev/mailbox in demo mode). stop() stops this process's deliveries (one
 * under way finishes when the queue stops).
 */
export async function startMailOutbox(options: {
  db: Db;
  queue: Pick<JobQueue, 'send' | 'work' | 'offWork'>;
  logger: OutboxLogger;
  env?: NodeJS.ProcessEnv;
  projectName: string;
}): Promise<MailOutbox> {
  const { db, queue, logger } = options;
  const settings = smtpSettingsFromEnv(options.env ?? process.env, options.projectName);
  if (!settings) {
    logger.info({ channel: 'mail' }, 'outbox: SMTP_HOST is not set, so no mail is sent; mail stays queued in the outbox table');
    return { stop: async () => {} };
  }
  const transport = createSmtpTransport(settings);
  const delivery = createMailDelivery({ db, transport, logger, queue });
  setMailJobSender((tx, outboxId) => queue.send(MAIL_QUEUE, { outboxId }, { tx }));
  // one at a time: a stopping worker holds at most the send under way
  await queue.work(MAIL_QUEUE, delivery.handler, { batchSize: 1 });
  const waiting = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.channel, 'mail'), eq(outbox.status, 'queued')));
  for (const row of waiting) await queue.send(MAIL_QUEUE, { outboxId: row.id });
  logger.info(
    { channel: 'mail', smtpHost: settings.host, smtpPort: settings.port, smtpSecure: settings.secure, smtpAuth: Boolean(settings.user), queued: waiting.length },
    'outbox: sending queued mail through SMTP',
  );
  return {
    async stop() {
      setMailJobSender(null);
      await queue.offWork(MAIL_QUEUE);
      transport.close();
    },
  };
}
