/**
 * The database going away (a restart, a failover, a broken network): how the platform tells such
 * an error from any other, how it answers a request meanwhile, and the back-off its reconnecting
 * parts share.
 *
 * A request that meets the database away is refused with HTTP 503, Retry-After and the envelope.
 * The spec's response codes (document 1 §8) have no "unavailable": AE is the client's own code for
 * a call that got no answer at all, so the answer is UE (unknown error) with a description that
 * says what happened; the web client shows "Server is not available" for any 5xx (document 1 §8).
 * Its transaction rolled back (or never began), so nothing was written half. A money call cut
 * while committing may or may not have been booked: the same Idempotency-Key answers which.
 */
import type { FastifyReply } from 'fastify';
import { ResponseCode, type Failure } from '../../api/envelope.ts';

/** Socket errors of a connection that could not be made or was lost. */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // DatabaseGate (open.ts): the pool is backing off after failed connects
  'EDBUNAVAILABLE',
]);

/**
 * PostgreSQL codes of a server that is going away or not taking connections: class 08 (connection
 * exception), 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up
 * or in recovery), 53300 too many connections.
 */
const SERVER_CODES = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** node-postgres' own messages for a connection lost, unusable or not obtained in time. */
const DRIVER_MESSAGES = /Connection terminated|is not queryable|timeout exceeded when trying to connect|Connection ended unexpectedly/i;

/** Is this error (or one it wraps: drizzle's DrizzleQueryError.cause) the database being away? */
export function isConnectionError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.test(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
  }
  return false;
}

/** Seconds a refused client is asked to wait (Retry-After). */
export const RETRY_AFTER_S = 2;

export const DATABASE_UNAVAILABLE: Failure = {
  responseCode: ResponseCode.unknown,
  responseDescription: 'The service is temporarily unavailable. Try again in a moment; a money transfer with the same Idempotency-Key.',
};

/** HTTP 503 with Retry-After: the envelope on the API, a message elsewhere (the REST paths' shape). */
export function replyUnavailable(reply: FastifyReply, envelope = true): FastifyReply {
  reply.header('retry-after', String(RETRY_AFTER_S));
  return reply.code(503).send(envelope ? DATABASE_UNAVAILABLE : { message: DATABASE_UNAVAILABLE.responseDescription });
}

/**
 * Logging refusals without a flood: while the database is away every request is refused, so only
 * the first refusal is logged and then one line per everyMs with how many were refused since.
 */
export function createRefusalLog(everyMs = 5_000, now: () => number = Date.now) {
  let lastMs = -Infinity;
  let since = 0;
  /** the count to log with this refusal, or null to stay quiet */
  return (): number | null => {
    since++;
    if (now() - lastMs < everyMs) return null;
    lastMs = now();
    const count = since;
    since = 0;
    return count;
  };
}

/**
 * The wait before retry number `failures` (1 after the first failure): exponential from baseMs,
 * capped at capMs, with full jitter (a random wait up to that bound) so many waiters that failed
 * together do not all come back in the same instant.
 */
export function backoffDelayMs(failures: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const bound = Math.min(capMs, baseMs * 2 ** Math.max(0, Math.min(failures - 1, 30)));
  return Math.max(1, Math.round(bound * random()));
}

/**
 * Back-off for a polling worker: after a failed round the next rounds are skipped until a
 * jittered, growing delay has passed; a round that succeeds resets it.
 */
export interface Backoff {
  /** may a round run now? */
  ready(): boolean;
  /** the round failed: wait longer before the next */
  failed(): number;
  /** the round succeeded */
  succeeded(): void;
}

export function createBackoff(options: { baseMs: number; capMs: number; now?: () => number }): Backoff {
  const now = options.now ?? Date.now;
  let failures = 0;
  let until = 0;
  return {
    ready: () => now() >= until,
    failed() {
      failures++;
      const delayMs = backoffDelayMs(failures, options.baseMs, options.capMs);
      until = now() + delayMs;
      return delayMs;
    },
    succeeded() {
      failures = 0;
      until = 0;
    },
  };
}
