/**
 * Push fan-out. A handler publishes `{ customerId, event }` after its transaction commits; every
 * socket subscribed for that customer receives it, on whichever instance holds the socket.
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

export interface PushPublisher {
  publish(customerId: number, event: PushMessage): Promise<void>;
  /** returns the unsubscribe function */
  subscribe(customerId: number, listener: PushListener): () => void;
  close(): Promise<void>;
}

/** Delivers to listeners registered in this process. */
class LocalFanOut {
  private readonly emitter = new EventEmitter();
  constructor() {
    // One listener per open socket: the default limit of 10 would warn falsely.
    this.emitter.setMaxListeners(0);
  }
  deliver(customerId: number, event: PushMessage): void {
    this.emitter.emit(String(customerId), event);
  }
  subscribe(customerId: number, listener: PushListener): () => void {
    this.emitter.on(String(customerId), listener);
    return () => this.emitter.off(String(customerId), listener);
  }
  clear(): void {
    this.emitter.removeAllListeners();
  }
}

export function createInProcessPublisher(): PushPublisher {
  const local = new LocalFanOut();
  return {
    async publish(customerId, event) {
      local.deliver(customerId, event);
    },
    subscribe: (customerId, listener) => local.subscribe(customerId, listener),
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
      const parsed = JSON.parse(message.payload) as { customerId: number; event: PushMessage };
      if (typeof parsed.customerId === 'number' && parsed.event && typeof parsed.event.type === 'string') {
        local.deliver(parsed.customerId, parsed.event);
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
  return {
    async publish(customerId, event) {
      const payload = JSON.stringify({ customerId, event });
      if (Buffer.byteLength(payload) > MAX_NOTIFY_PAYLOAD_BYTES) throw new Error('push event too large for NOTIFY');
      await notifier.query('SELECT pg_notify($1, $2)', [PUSH_CHANNEL, payload]);
    },
    subscribe: (customerId, fn) => local.subscribe(customerId, fn),
    async close() {
      if (closed) return;
      closed = true;
      local.clear();
      await listener?.end();
      await notifier.end();
    },
  };
}
