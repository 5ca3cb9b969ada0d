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
 *   dedicated connection and delivers to its own sockets, so publishing is a NOTIFY only.
 */
import { EventEmitter } from 'node:events';
import pg from 'pg';

export const PUSH_CHANNEL = 'push_events';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_NOTIFY_PAYLOAD_BYTES = 7_900;

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

export async function createPgPublisher(connectionString: string, log?: (err: unknown) => void): Promise<PushPublisher> {
  const local = new LocalFanOut();
  // Publishing uses its own small pool so a NOTIFY never waits behind application queries.
  const notifier = new pg.Pool({ connectionString, max: 2 });
  notifier.on('error', (err) => log?.(err));
  let closed = false;
  let listener: pg.Client | null = null;

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== PUSH_CHANNEL || !message.payload) return;
    try {
      const parsed = JSON.parse(message.payload) as { channel: string; event: PushMessage };
      if (typeof parsed.channel === 'string' && CHANNEL_KEY.test(parsed.channel) && parsed.event && typeof parsed.event.type === 'string') {
        local.deliver(parsed.channel, parsed.event);
      }
    } catch (err) {
      log?.(err);
    }
  };

  /** Opens the LISTEN connection; when it drops, reconnects with backoff (1 s doubling to 30 s). */
  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString });
    client.on('notification', onNotification);
    let retried = false;
    const retry = (err?: unknown) => {
      if (err) log?.(err);
      if (closed || retried) return;
      retried = true;
      listener = null;
      void client.end().catch(() => {});
      let delayMs = 1_000;
      const attempt = () => {
        if (closed) return;
        listen().catch((e: unknown) => {
          log?.(e);
          delayMs = Math.min(delayMs * 2, 30_000);
          setTimeout(attempt, delayMs).unref();
        });
      };
      setTimeout(attempt, delayMs).unref();
    };
    client.on('error', retry);
    client.on('end', () => retry());
    try {
      await client.connect();
      await client.query(`LISTEN ${PUSH_CHANNEL}`);
    } catch (err) {
      // The caller retries (or startup fails): this client must not start a second retry chain.
      retried = true;
      void client.end().catch(() => {});
      throw err;
    }
    listener = client;
  };
  await listen();
  const publishTo = async (channel: PushChannel, event: PushMessage) => {
    const payload = JSON.stringify({ channel: channelKey(channel), event });
    if (Buffer.byteLength(payload) > MAX_NOTIFY_PAYLOAD_BYTES) throw new Error('push event too large for NOTIFY');
    await notifier.query('SELECT pg_notify($1, $2)', [PUSH_CHANNEL, payload]);
  };
  const subscribeTo = (channel: PushChannel, fn: PushListener) => local.subscribe(channelKey(channel), fn);
  return {
    publish: (customerId, event) => publishTo({ kind: 'customer', id: customerId }, event),
    publishTo,
    subscribe: (customerId, fn) => subscribeTo({ kind: 'customer', id: customerId }, fn),
    subscribeTo,
    async close() {
      if (closed) return;
      closed = true;
      local.clear();
      await listener?.end();
      await notifier.end();
    },
  };
}
