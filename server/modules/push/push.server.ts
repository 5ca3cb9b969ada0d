/**
 * The push socket (document 3 §7): graphql-ws on a `ws` server attached to Fastify's own HTTP
 * server at /graphql. The client authenticates with `connectionParams: { token }` (and may name a
 * company it acts for with `customerId`); the subscription `events` yields that customer's events.
 */
import { createRequire } from 'node:module';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { FastifyInstance } from 'fastify';
import { PUSH_PATH, pushSdl } from '../../../api/push.ts';
import type { Db } from '../../db/types.ts';
import type { TokenService } from '../auth/tokens.service.ts';
import { mayActFor } from '../platform/method-endpoint.ts';
import type { PushMessage, PushPublisher } from './publisher.ts';

/**
 * graphql ships CommonJS (main) and ESM (module) builds without an exports map: Node loads the
 * CommonJS one for graphql-ws, while a bundler-style resolver (vitest) would pick the ESM one, and
 * graphql refuses a schema built by "another" copy. Loading it through require pins the one copy
 * graphql-ws itself uses.
 */
const { buildSchema } = createRequire(import.meta.url)('graphql') as typeof import('graphql');

/** Events buffered for a slow socket; older ones are dropped beyond this. */
const MAX_QUEUED_EVENTS = 100;
/** graphql-ws keeps the link alive with pings at this interval. */
const KEEP_ALIVE_MS = 12_000;

/**
 * An open socket re-checks its access token this often and is closed (4403) once the token has
 * expired or its session was revoked (logout, refresh-token reuse): a socket must not outlive the
 * session that opened it. 4403 is a close code the graphql-ws client retries, with the fresh token
 * the session has by then, so a live session reconnects and a dead one does not.
 */
export const PUSH_RECHECK_MS = 15_000;

type PushExtra = {
  customerId?: number;
  recheck?: ReturnType<typeof setInterval>;
};

/** An async iterator over one customer's events, ending when the client unsubscribes. */
function eventStream(publisher: PushPublisher, customerId: number): AsyncIterableIterator<{ events: { type: string; payload: string } }> {
  const queue: PushMessage[] = [];
  let wake: (() => void) | null = null;
  let done = false;
  const unsubscribe = publisher.subscribe(customerId, (event) => {
    queue.push(event);
    if (queue.length > MAX_QUEUED_EVENTS) queue.shift();
    wake?.();
  });
  const finish = () => {
    done = true;
    unsubscribe();
    wake?.();
  };
  const iterator: AsyncIterableIterator<{ events: { type: string; payload: string } }> = {
    async next() {
      while (!done && queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      if (done) return { done: true, value: undefined };
      const event = queue.shift()!;
      return { done: false, value: { events: { type: event.type, payload: JSON.stringify(event) } } };
    },
    async return() {
      finish();
      return { done: true, value: undefined };
    },
    async throw(err?: unknown) {
      finish();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

export function attachPush(
  app: FastifyInstance,
  deps: { db: Db; tokens: TokenService; publisher: PushPublisher; recheckMs?: number },
): void {
  const recheckMs = deps.recheckMs ?? PUSH_RECHECK_MS;
  const schema = buildSchema(pushSdl);
  const wss = new WebSocketServer({ server: app.server, path: PUSH_PATH, maxPayload: 64 * 1024 });
  const disposable = useServer<Record<string, unknown> | undefined, PushExtra>(
    {
      schema,
      roots: {
        query: { health: () => 'ok' },
        subscription: {
          events: (_args: unknown, context: { customerId: number }) => eventStream(deps.publisher, context.customerId),
        },
      },
      // Refuses the connection (4403) without a valid access token or with a company it may not act for.
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const token = typeof params.token === 'string' ? params.token : null;
        const caller = await deps.tokens.authenticate(token);
        if (!caller) return false;
        let customerId = caller.customerId;
        if (params.customerId !== undefined) {
          if (typeof params.customerId !== 'number' || !Number.isInteger(params.customerId)) return false;
          if (!(await mayActFor(deps.db, caller, params.customerId))) return false;
          customerId = params.customerId;
        }
        ctx.extra.customerId = customerId;
        const socket = ctx.extra.socket;
        ctx.extra.recheck = setInterval(() => {
          void deps.tokens.authenticate(token).then(
            (still) => {
              if (!still) socket.close(4403, 'Forbidden');
            },
            () => socket.close(4403, 'Forbidden'),
          );
        }, recheckMs);
        ctx.extra.recheck.unref();
        return true;
      },
      onClose: (ctx) => {
        if (ctx.extra.recheck) clearInterval(ctx.extra.recheck);
      },
      context: (ctx) => ({ customerId: ctx.extra.customerId }),
    },
    wss,
    KEEP_ALIVE_MS,
  );
  app.addHook('onClose', async () => {
    await disposable.dispose();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
}
