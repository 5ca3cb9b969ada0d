/**
 * The push connection (document 3 §7, §4 "Session and push"): GraphQL over WebSocket
 * (graphql-ws) at /graphql, authenticated with the access token in connectionParams. The
 * session machine opens it while signed in and closes it on logout.
 *
 * Reconnects with capped, jittered exponential backoff; the token is read again on every
 * (re)connection so a refreshed token is used. Events are validated with api/push.ts; anything
 * else is dropped with a console warning (never its content: payloads may hold personal data).
 *
 * graphql-ws is imported on first connection, not with the app: the sign-in page never needs it.
 */
import type { Client } from 'graphql-ws';
import * as v from 'valibot';
import { PUSH_SUBSCRIPTION, PushEventSchema, type PushEvent } from '../../api/push.ts';

export type PushStatus = 'connecting' | 'open' | 'closed';

export interface PushOptions {
  url: string;
  getToken(): string | null;
  onEvent(e: PushEvent): void;
  onStatus?(s: PushStatus): void;
  /** tests inject a WebSocket implementation; browsers use their own */
  webSocketImpl?: unknown;
}

/** After this many failed reconnections in a row the connection gives up (and says 'closed'). */
export const PUSH_RETRY_ATTEMPTS = 30;
export const PUSH_BACKOFF_BASE_MS = 1_000;
export const PUSH_BACKOFF_MAX_MS = 30_000;

/** The wait before reconnection attempt `retries` (0-based): 1 s, 2 s, 4 s ... capped, plus jitter. */
export function backoffMs(retries: number, random: () => number = Math.random): number {
  const exp = Math.min(PUSH_BACKOFF_BASE_MS * 2 ** Math.min(retries, 16), PUSH_BACKOFF_MAX_MS);
  return Math.round(exp * (0.5 + random() * 0.5));
}

/** Turns one `{ type, payload }` item of the subscription into a typed event, or null. */
export function parsePushItem(item: unknown): PushEvent | null {
  if (typeof item !== 'object' || item === null) return null;
  const { type, payload } = item as { type?: unknown; payload?: unknown };
  if (typeof type !== 'string' || typeof payload !== 'string') return null;
  let fields: unknown;
  try {
    fields = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return null;
  const parsed = v.safeParse(PushEventSchema, { ...fields, type });
  return parsed.success ? parsed.output : null;
}

export function connectPush(opts: PushOptions): () => void {
  let closedForGood = false;
  let client: Client | null = null;
  let unsubscribe: (() => void) | null = null;
  const status = (s: PushStatus) => {
    if (!closedForGood || s === 'closed') opts.onStatus?.(s);
  };

  status('connecting');
  void import('graphql-ws').then(
    ({ createClient }) => {
      if (closedForGood) return;
      client = createClient({
        url: opts.url,
        lazy: false,
        connectionParams: () => ({ token: opts.getToken() ?? '' }),
        retryAttempts: PUSH_RETRY_ATTEMPTS,
        retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, backoffMs(retries))),
        // Also retry on connection errors (network down) and auth refusals: the next attempt reads
        // a fresh token.
        shouldRetry: () => !closedForGood,
        keepAlive: 20_000,
        ...(opts.webSocketImpl ? { webSocketImpl: opts.webSocketImpl } : {}),
        on: {
          connecting: () => status('connecting'),
          connected: () => status('open'),
          closed: () => status('closed'),
        },
      });
      unsubscribe = client.subscribe<{ events: unknown }>(
        { query: PUSH_SUBSCRIPTION },
        {
          next: (result) => {
            const event = parsePushItem(result.data?.events);
            if (event) opts.onEvent(event);
            else console.warn('[push] dropped an event that does not match the contract');
          },
          // Retries are exhausted or the server refused for good.
          error: () => status('closed'),
          complete: () => undefined,
        },
      );
    },
    () => status('closed'),
  );

  return () => {
    if (closedForGood) return;
    closedForGood = true;
    unsubscribe?.();
    void client?.dispose();
    opts.onStatus?.('closed');
  };
}

/* ---------------------------------------------------- a channel that ends: refused or given up */

export interface EventChannelOptions {
  url: string;
  /** what authenticates this channel (never logged) */
  connectionParams: Record<string, string>;
  retryAttempts: number;
  /** the platform's close code meaning "refused for good": no retry, the channel is lost */
  refusedCloseCode: number;
  /** each event of the contract; return true when it was the last one wanted (the channel closes) */
  onEvent(e: PushEvent): boolean | void;
  /** the channel ended without being closed here: refused, completed, or retries exhausted */
  onLost(): void;
  keepAliveMs?: number;
  /** tests inject a WebSocket implementation; browsers use their own */
  webSocketImpl?: unknown;
}

function closeCodeOf(event: unknown): number | null {
  return typeof event === 'object' && event !== null && 'code' in event && typeof (event as { code: unknown }).code === 'number'
    ? (event as { code: number }).code
    : null;
}

/**
 * The subscription for one purpose that can end (a sign-in attempt's answer, a linked phone's
 * requests), unlike the session's push connection, which retries for as long as it is signed in.
 * Network drops retry with the capped backoff; the refused close code, a completed subscription or
 * exhausted retries end it (onLost, once). Returns the close function (idempotent; no onLost).
 */
export function openEventChannel(opts: EventChannelOptions): () => void {
  let ended = false;
  let client: Client | null = null;
  let unsubscribe: (() => void) | null = null;
  const end = (lost: boolean) => {
    if (ended) return;
    ended = true;
    unsubscribe?.();
    unsubscribe = null;
    void client?.dispose();
    if (lost) opts.onLost();
  };
  void import('graphql-ws').then(
    ({ createClient }) => {
      if (ended) return;
      client = createClient({
        url: opts.url,
        lazy: false,
        connectionParams: () => opts.connectionParams,
        retryAttempts: opts.retryAttempts,
        retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, backoffMs(retries))),
        shouldRetry: (event) => !ended && closeCodeOf(event) !== opts.refusedCloseCode,
        ...(opts.keepAliveMs ? { keepAlive: opts.keepAliveMs } : {}),
        ...(opts.webSocketImpl ? { webSocketImpl: opts.webSocketImpl } : {}),
      });
      unsubscribe = client.subscribe<{ events: unknown }>(
        { query: PUSH_SUBSCRIPTION },
        {
          next: (result) => {
            const event = parsePushItem(result.data?.events);
            if (event && opts.onEvent(event) === true) end(false);
          },
          // A close that is not retried (the refused code, or retries exhausted) arrives here;
          // disposing from the client's own close listener instead leaves a rejection unhandled.
          error: () => end(true),
          complete: () => end(true),
        },
      );
    },
    () => end(true),
  );
  return () => end(false);
}
