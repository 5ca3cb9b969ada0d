/**
 * Push fan-out over channels. A service publishes an event to a channel after its transaction
 * commits; every socket subscribed to that channel receives it, on whichever instance holds it.
 * Channels (api/push.ts):
 * - customer: a customer's events (web app sockets with a user token);
 * - device: a linked device's events (device companion sockets with a device token);
 * - attempt: one sign-in attempt waiting for approval (the browser's socket with a temporary
 *   token); named by the sha256 of the temporary token, so a NOTIFY payload never holds the token.
 * Transports:
 * - in-process: one instance (PGlite is a single-process database);
 * - PostgreSQL LISTEN/NOTIFY: several instances on one PostgreSQL; each instance LISTENs on one
 *   dedicated connection and delivers to its own sockets.
 *
 * The push outbox (PostgreSQL). A NOTIFY reaches only the connections listening at that moment:
 * an instance whose LISTEN connection is down (a database restart, a network cut) would lose
 * every event sent meanwhile. So each event is also a row of push_events (push.tables.ts) with an
 * increasing id, written by the same statement as its NOTIFY. A method's events are written in
 * its own transaction (stage(): the row and the NOTIFY both take effect exactly at the commit, so
 * a rolled-back change sends nothing and a committed one cannot lose its event between commit
 * and publish); events of background work go through publishTo() (one autocommit statement).
 * A listener remembers the ids it delivered; once it has re-subscribed after losing its
 * connection it reads the rows after the last id it saw and delivers those it had not. Ids are
 * handed out before commit, so a transaction that began earlier can commit a smaller id after a
 * larger one was seen: the read starts REPLAY_WINDOW_IDS below the last id seen and skips ids
 * already delivered. Rows older than PUSH_EVENT_RETENTION_MS are pruned: they only serve that
 * catch-up. Delivery is at most once per instance; a socket that was itself disconnected misses
 * what came meanwhile, as before.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { CONNECT_TIMEOUT_MS, ResilientPool } from '../../db/open.ts';
import { backoffDelayMs, isConnectionError } from '../../db/outage.ts';
import type { Tx } from '../../db/types.ts';

export const PUSH_CHANNEL = 'push_events';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_NOTIFY_PAYLOAD_BYTES = 7_900;

/** How far below the last id seen a catch-up starts (ids of transactions that committed late). */
const REPLAY_WINDOW_IDS = 1_000;
/** Rows read per catch-up query. */
const REPLAY_PAGE = 5_000;
/** How long push outbox rows are kept for a catch-up, and how often old ones are deleted. */
export const PUSH_EVENT_RETENTION_MS = 60 * 60_000;
const PRUNE_EVERY_MS = 10 * 60_000;
/** Re-subscribing after the LISTEN connection was lost: from 500 ms, doubling, at most 30 s, jittered. */
const RESUBSCRIBE_BASE_MS = 500;
const RESUBSCRIBE_CAP_MS = 30_000;
/** publishTo's attempts while the database is away (background events; a method's go with its transaction). */
const PUBLISH_ATTEMPTS = 5;

export type PushMessage = Record<string, unknown> & { type: string };
export type PushListener = (event: PushMessage) => void;

export type PushChannel =
  | { kind: 'customer'; id: number }
  | { kind: 'device'; id: number }
  /** id: sha256 (hex) of the attempt's temporary token */
  | { kind: 'attempt'; id: string };

export interface PushPublisher {
  /** shorthand for publishTo({ kind: 'customer', id: customerId }, event) */
  publish(customerId: number, event: PushMessage): Promise<void>;
  publishTo(channel: PushChannel, event: PushMessage): Promise<void>;
  /** returns the unsubscribe function */
  subscribe(customerId: number, listener: PushListener): () => void;
  subscribeTo(channel: PushChannel, listener: PushListener): () => void;
  /**
   * Writes customer events in the caller's transaction, to go out exactly when it commits;
   * true when done so, false when this transport publishes after the commit instead (in-process).
   */
  stage?(tx: Tx, items: readonly { customerId: number; event: PushMessage }[]): Promise<boolean>;
  close(): Promise<void>;
}

const CHANNEL_KEY = /^(customer|device):\d{1,12}$|^attempt:[0-9a-f]{64}$/;

export function channelKey(channel: PushChannel): string {
  return `${channel.kind}:${channel.id}`;
}

/** Delivers to listeners registered in this process. */
class LocalFanOut {
  private readonly emitter = new EventEmitter();
  constructor() {
    // One listener per open socket: the default limit of 10 would warn falsely.
    this.emitter.setMaxListeners(0);
  }
  deliver(key: string, event: PushMessage): void {
    this.emitter.emit(key, event);
  }
  subscribe(key: string, listener: PushListener): () => void {
    this.emitter.on(key, listener);
    return () => this.emitter.off(key, listener);
  }
  clear(): void {
    this.emitter.removeAllListeners();
  }
}

export function createInProcessPublisher(): PushPublisher {
  const local = new LocalFanOut();
  const publishTo = async (channel: PushChannel, event: PushMessage) => local.deliver(channelKey(channel), event);
  const subscribeTo = (channel: PushChannel, listener: PushListener) => local.subscribe(channelKey(channel), listener);
  return {
    publish: (customerId, event) => publishTo({ kind: 'customer', id: customerId }, event),
    publishTo,
    subscribe: (customerId, listener) => subscribeTo({ kind: 'customer', id: customerId }, listener),
    subscribeTo,
    async close() {
      local.clear();
    },
  };
}

/**
 * One statement: the events as push outbox rows, and per row a NOTIFY with the row (or only its
 * id when the row is too large for a NOTIFY payload; the listener then reads it).
 */
function stageStatement(rows: readonly { channel: string; event: PushMessage }[]) {
  return sql`
    with staged as (
      insert into push_events (channel, event)
      select x.item ->> 'channel', x.item -> 'event' from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) with ordinality as x(item, n)
      order by x.n
      returning id, channel, event)
    select pg_notify(${PUSH_CHANNEL}, case when octet_length(p) <= ${MAX_NOTIFY_PAYLOAD_BYTES} then p else json_build_object('id', id)::text end)
    from (select id, json_build_object('id', id, 'channel', channel, 'event', event)::text as p from staged) s`;
}

/** A logger for the publisher's connection errors (code and driver message only). */
export type PushLog = (err: unknown) => void;

export async function createPgPublisher(connectionString: string, log: PushLog = () => {}): Promise<PushPublisher> {
  const local = new LocalFanOut();
  // Publishing uses its own small pool so a NOTIFY never waits behind application queries.
  const notifier = new ResilientPool({ connectionString, max: 2 }, (err) => log(err));
  const notifierDb = drizzle(notifier);
  let closed = false;
  let listener: pg.Client | null = null;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | null = null;

  /** ids below this existed before this publisher started: never replayed */
  let floorId: number | null = null;
  /** the highest id delivered */
  let lastSeenId = 0;
  /** ids delivered within REPLAY_WINDOW_IDS of lastSeenId (a catch-up skips them) */
  const delivered = new Set<number>();

  const deliverRow = (id: number, channel: unknown, event: unknown) => {
    if (delivered.has(id)) return;
    if (typeof channel !== 'string' || !CHANNEL_KEY.test(channel) || !event || typeof (event as PushMessage).type !== 'string') return;
    delivered.add(id);
    if (id > lastSeenId) lastSeenId = id;
    if (delivered.size > 2 * REPLAY_WINDOW_IDS) {
      for (const old of delivered) if (old <= lastSeenId - REPLAY_WINDOW_IDS) delivered.delete(old);
    }
    local.deliver(channel, event as PushMessage);
  };

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== PUSH_CHANNEL || !message.payload) return;
    try {
      const parsed = JSON.parse(message.payload) as { id?: unknown; channel?: unknown; event?: unknown };
      const id = Number(parsed.id);
      if (!Number.isSafeInteger(id)) return;
      if (parsed.event !== undefined) return deliverRow(id, parsed.channel, parsed.event);
      // Too large for the payload: read the row.
      notifier
        .query<{ channel: string; event: PushMessage }>('select channel, event from push_events where id = $1', [id])
        .then((result) => result.rows[0] && deliverRow(id, result.rows[0].channel, result.rows[0].event))
        .catch(log);
    } catch (err) {
      log(err);
    }
  };

  /** Delivers the rows this instance may have missed while it was not listening. */
  const catchUp = async (client: pg.Client) => {
    let after = Math.max(floorId ?? 0, lastSeenId - REPLAY_WINDOW_IDS);
    for (;;) {
      const { rows } = await client.query<{ id: string; channel: string; event: PushMessage }>(
        'select id, channel, event from push_events where id > $1 order by id limit $2',
        [after, REPLAY_PAGE],
      );
      for (const row of rows) deliverRow(Number(row.id), row.channel, row.event);
      if (rows.length < REPLAY_PAGE) return;
      after = Number(rows[rows.length - 1]!.id);
    }
  };

  /**
   * Subscribes on a new connection: LISTEN, then (after a loss) the catch-up. When the connection
   * fails, now or later, it is dropped and subscribe() runs again after a back-off; true once
   * subscribed.
   */
  const subscribe = async (): Promise<boolean> => {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    let lost = false;
    const lose = (err?: unknown) => {
      if (lost) return;
      if (err) log(err);
      lost = true;
      if (listener === client) listener = null;
      void client.end().catch(() => {});
      if (!closed) resubscribeLater();
    };
    client.on('notification', onNotification);
    client.on('error', lose);
    client.on('end', () => lose());
    try {
      await client.connect();
      const first = floorId === null;
      if (first) {
        const { rows } = await client.query<{ max: string }>('select coalesce(max(id), 0)::text as max from push_events');
        floorId = Number(rows[0]!.max);
      }
      await client.query(`LISTEN ${PUSH_CHANNEL}`);
      if (!first) await catchUp(client);
    } catch (err) {
      lose(err);
      return false;
    }
    if (lost || closed) {
      if (closed) void client.end().catch(() => {});
      return false;
    }
    listener = client;
    failures = 0;
    return true;
  };
  const resubscribeLater = () => {
    failures++;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (!closed) void subscribe();
    }, backoffDelayMs(failures, RESUBSCRIBE_BASE_MS, RESUBSCRIBE_CAP_MS));
    retryTimer.unref();
  };

  // The database was reachable a moment ago (migrations); if this first subscribe fails, it is
  // retried in the background like any later loss.
  await subscribe();

  const prune = setInterval(() => {
    notifier
      .query(`delete from push_events where created_at < now() - make_interval(secs => $1)`, [PUSH_EVENT_RETENTION_MS / 1000])
      .catch((err: unknown) => log(err));
  }, PRUNE_EVERY_MS);
  prune.unref();

  const rowOf = (customerId: number, event: PushMessage) => ({ channel: channelKey({ kind: 'customer', id: customerId }), event });

  const publishTo = async (channel: PushChannel, event: PushMessage) => {
    const key = channelKey(channel);
    if (!CHANNEL_KEY.test(key)) throw new Error('push: not a channel');
    for (let attempt = 1; ; attempt++) {
      try {
        await notifierDb.execute(stageStatement([{ channel: key, event }]));
        return;
      } catch (err) {
        if (closed || attempt >= PUBLISH_ATTEMPTS || !isConnectionError(err)) throw err;
        await new Promise((r) => setTimeout(r, backoffDelayMs(attempt, 500, 5_000)).unref());
      }
    }
  };
  const subscribeTo = (channel: PushChannel, fn: PushListener) => local.subscribe(channelKey(channel), fn);
  return {
    publish: (customerId, event) => publishTo({ kind: 'customer', id: customerId }, event),
    publishTo,
    subscribe: (customerId, fn) => subscribeTo({ kind: 'customer', id: customerId }, fn),
    subscribeTo,
    async stage(tx, items) {
      if (items.length > 0) await tx.execute(stageStatement(items.map((i) => rowOf(i.customerId, i.event))));
      return true;
    },
    async close() {
      if (closed) return;
      closed = true;
      local.clear();
      clearInterval(prune);
      if (retryTimer) clearTimeout(retryTimer);
      await listener?.end().catch(() => {});
      await notifier.end();
    },
  };
}

