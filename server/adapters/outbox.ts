/**
 * The outbox: mail and SMS are never sent from a request. A service that wants to write to someone
 * inserts an outbox row inside its own transaction (DESIGN.md "Outside world behind adapters"), so
 * a change that rolls back sends nothing, and a change that commits always leaves its message.
 *
 * - mail rows are delivered by the SMTP worker (mail-sender.ts) on the platform's job queue when
 *   SMTP_HOST is configured: the worker registers its job sender here (setMailJobSender), and each
 *   mail row is queued with its `outbox.mail` job in the same transaction; without SMTP no job is
 *   sent and the rows stay queued in the outbox table (readable at /dev/mailbox in demo mode);
 * - SMS rows stay queued for the SMS provider adapter (a later issue); nothing here sends them.
 *
 * Inputs are checked here, at the edge, so a bad address fails the caller's transaction instead of
 * becoming a row the worker can never deliver. Error messages name the field, never its value
 * (an address is personal data, a text may carry a one-time code).
 */
import { outbox } from '../modules/platform/platform.tables.ts';
import type { Db, Tx } from '../db/types.ts';

/** RFC 5321 limits: 254 characters for a path, 64 for its local part. */
export const MAX_EMAIL_LENGTH = 254;
export const MAX_SUBJECT_LENGTH = 200;
/** Our mail is short transactional text; anything longer is a bug, not a letter. */
export const MAX_MAIL_TEXT_LENGTH = 100_000;
/** Three concatenated GSM-7 segments (3 × 153) rounded down: one-time codes and notices only. */
export const MAX_SMS_TEXT_LENGTH = 459;

export class OutboxInputError extends Error {
  override name = 'OutboxInputError';
  constructor(
    readonly field: 'to' | 'subject' | 'text',
    reason: string,
  ) {
    super(`outbox: ${field} ${reason}`);
  }
}

export interface MailInput {
  to: string;
  subject: string;
  text: string;
}

export interface SmsInput {
  /** international number: +, country code and digits; spaces, dots, dashes and brackets are dropped */
  to: string;
  text: string;
}

/** The caller's transaction (or the database itself for a single insert). */
export type OutboxExecutor = Db | Tx;

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** dot-atom local part (no quoted strings, no comments) @ a dotted host name */
const EMAIL = new RegExp(`^[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+)*@${LABEL}(?:\\.${LABEL})+$`);
/** control characters, except tab, line feed and carriage return (kept for multi-line text) */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const ANY_CONTROL = /[\u0000-\u001F\u007F]/;

/** A valid, trimmed e-mail address, or throws. */
export function checkEmailAddress(value: unknown): string {
  if (typeof value !== 'string') throw new OutboxInputError('to', 'must be a string');
  const address = value.trim();
  if (address.length === 0) throw new OutboxInputError('to', 'is required');
  if (address.length > MAX_EMAIL_LENGTH) throw new OutboxInputError('to', `must be at most ${MAX_EMAIL_LENGTH} characters`);
  const at = address.lastIndexOf('@');
  if (at > 64) throw new OutboxInputError('to', 'has a local part longer than 64 characters');
  if (!EMAIL.test(address)) throw new OutboxInputError('to', 'is not an e-mail address');
  return address;
}

/** A phone number as E.164 (+ and 8 to 15 digits), or throws. */
export function checkPhoneNumber(value: unknown): string {
  if (typeof value !== 'string') throw new OutboxInputError('to', 'must be a string');
  const compact = value.trim().replace(/[\s.()-]/g, '');
  if (compact.length === 0) throw new OutboxInputError('to', 'is required');
  if (!/^\+[1-9][0-9]{7,14}$/.test(compact)) {
    throw new OutboxInputError('to', 'must be an international number: +, the country code and 8 to 15 digits in all');
  }
  return compact;
}

function checkText(field: 'subject' | 'text', value: unknown, max: number, singleLine: boolean): string {
  if (typeof value !== 'string') throw new OutboxInputError(field, 'must be a string');
  if (value.trim().length === 0) throw new OutboxInputError(field, 'is required');
  if (value.length > max) throw new OutboxInputError(field, `must be at most ${max} characters`);
  // A line break in a subject would be a header injection; other control characters are garbage.
  if ((singleLine ? ANY_CONTROL : CONTROL).test(value)) throw new OutboxInputError(field, 'contains control characters');
  return value;
}

/** Sends a mail row's delivery job in the transaction that wrote the row. */
export type MailJobSender = (tx: OutboxExecutor, outboxId: number) => Promise<void>;

/**
 * The mail worker's job sender, set while one runs in this process (mail-sender.ts
 * startMailOutbox): the services queueing mail (registration, recovery, profile, history…) take
 * only their transaction, and one process serves one platform database (main.ts), whose job queue
 * the sender writes to. None: mail rows are written without a job (no SMTP; tests).
 */
let mailJobSender: MailJobSender | null = null;

export function setMailJobSender(sender: MailJobSender | null): void {
  mailJobSender = sender;
}

/** Queues a mail in the caller's transaction, with its delivery job when a mail worker runs; returns the outbox row id. */
export async function enqueueMail(tx: OutboxExecutor, input: MailInput): Promise<number> {
  const recipient = checkEmailAddress(input.to);
  const subject = checkText('subject', input.subject, MAX_SUBJECT_LENGTH, true).trim();
  const body = checkText('text', input.text, MAX_MAIL_TEXT_LENGTH, false);
  const [row] = await tx.insert(outbox).values({ channel: 'mail', recipient, subject, body }).returning({ id: outbox.id });
  if (!row) throw new Error('outbox: the insert returned no row');
  if (mailJobSender) await mailJobSender(tx, row.id);
  return row.id;
}

/**
 * Queues an SMS in the caller's transaction; returns the outbox row id. The row stays queued until
 * the SMS provider adapter (a later issue) sends it; the SMTP worker never touches SMS rows.
 */
export async function enqueueSms(tx: OutboxExecutor, input: SmsInput): Promise<number> {
  const recipient = checkPhoneNumber(input.to);
  const body = checkText('text', input.text, MAX_SMS_TEXT_LENGTH, false);
  const [row] = await tx.insert(outbox).values({ channel: 'sms', recipient, subject: null, body }).returning({ id: outbox.id });
  if (!row) throw new Error('outbox: the insert returned no row');
  return row.id;
}
