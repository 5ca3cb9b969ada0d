/**
 * The push socket (document 3 §7): graphql-ws on a `ws` server attached to Fastify's own HTTP
 * server at /graphql. Who connects decides the channel the subscription `events` reads
 * (api/push.ts):
 * - `{ token }` with a user access token (and optionally `customerId`, a company it may act for):
 *   that customer's events;
 * - `{ token }` with a device token: the linked device's events; DeviceUnlinked is its last;
 * - `{ temporaryToken }` of a push or verifyDevice sign-in: LoginApproval for that attempt; the
 *   final one is the last event. An unknown or expired attempt is refused (4403); an attempt
 *   answered before the socket opened gets its answer at once.
 * After its last event a socket is closed with 4403: nothing more will come on it.
 *
 * At most MAX_SOCKETS_PER_SESSION sockets are open per session (a sign-in's token family, a
 * device's family, a sign-in attempt) on one instance; the next one is refused with 4429 (see
 * there). Schema introspection is answered only when NODE_ENV is development.
 */
import { createRequire } from 'node:module';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocket, WebSocketServer } from 'ws';
import type { FastifyInstance } from 'fastify';
import { PUSH_PATH, pushSdl } from '../../../api/push.ts';
import { MAX_ID } from '../../../api/method.ts';
import type { Db } from '../../db/types.ts';
import { isConnectionError } from '../../db/outage.ts';
import type { ApprovalService } from '../auth/approvals.service.ts';
import type { DeviceService } from '../auth/devices.service.ts';
import type { TokenService } from '../auth/tokens.service.ts';
import { bearerToken, tokenValue } from '../platform/bearer.ts';
import { mayActFor } from '../platform/method-endpoint.ts';
import type { PushChannel, PushMessage, PushPublisher } from './publisher.ts';

/**
 * graphql ships CommonJS (main) and ESM (module) builds without an exports map: Node loads the
 * CommonJS one for graphql-ws, while a bundler-style resolver (vitest) would pick the ESM one, and
 * graphql refuses a schema built by "another" copy. Loading it through require pins the one copy
 * graphql-ws itself uses.
 */
const { buildSchema, specifiedRules, validate, NoSchemaIntrospectionCustomRule } = createRequire(import.meta.url)('graphql') as typeof import('graphql');

/**
 * Open sockets per session on one instance. A session's tabs share one socket each, and a few
 * tabs are normal; a stolen or leaked token must not hold an instance's sockets without bound.
 * The count is per instance (sockets live in their instance's memory; counting across instances
 * would need a shared, heartbeated registry): behind N instances a session holds at most 5 * N.
 */
export const MAX_SOCKETS_PER_SESSION = 5;
/**
 * The close code of a socket past MAX_SOCKETS_PER_SESSION: graphql-ws's "too many" code, which its
 * client treats as final (no retry). The newest socket is refused, not the oldest closed: evicting
 * the oldest would let whoever holds a copy of the token push the customer's own sockets out, and
 * six tabs would evict each other in a reconnect loop; refusing the newest is stable.
 */
export const TOO_MANY_SOCKETS = { code: 4429, reason: 'Too many push sockets for this session' } as const;

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

/** What a connection listens to, fixed when it is accepted. */
interface Listening {
  channel: PushChannel;
  /** delivered before anything published (an attempt answered before the socket opened) */
  initial: PushMessage[];
  /** the event after which nothing more comes: the socket is closed once it has been sent */
  isLast: (event: PushMessage) => boolean;
  /** closes the socket (4403) */
  end: () => void;
  /** a user's socket: an event naming its users (FOR_USER_IDS) reaches only theirs */
  userId?: number;
}

/**
 * An event's field naming the only users whose sockets get it (a notice meant for one user of a
 * customer several users act for, e.g. a company's checkers); never sent on.
 */
export const FOR_USER_IDS = 'forUserIds';

/** The event as one socket gets it: null when it names other users only. */
export function eventFor(event: PushMessage, userId: number | undefined): PushMessage | null {
  const targets = event[FOR_USER_IDS];
  if (!Array.isArray(targets)) return event;
  if (userId === undefined || !targets.includes(userId)) return null;
  const { [FOR_USER_IDS]: _targets, ...rest } = event;
  return rest as PushMessage;
}

type PushExtra = {
  listening?: Listening;
  recheck?: ReturnType<typeof setInterval>;
  expiry?: ReturnType<typeof setTimeout>;
  /** the session this socket counts against (MAX_SOCKETS_PER_SESSION) */
  session?: string;
};

const isFinalLoginApproval = (event: PushMessage) => event.type === 'LoginApproval';
const isDeviceUnlinked = (event: PushMessage) => event.type === 'DeviceUnlinked';

/**
 * An async iterator over one channel's events, ending when the client unsubscribes. After the
 * channel's last event the next pull (graphql-ws pulls again only once the previous event was
 * sent) closes the socket.
 */
function eventStream(publisher: PushPublisher, listening: Listening): AsyncIterableIterator<{ events: { type: string; payload: string } }> {
  const queue: PushMessage[] = [...listening.initial];
  let wake: (() => void) | null = null;
  let done = false;
  let lastSent = false;
  const unsubscribe = publisher.subscribeTo(listening.channel, (published) => {
    const event = eventFor(published, listening.userId);
    if (!event) return;
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
      if (lastSent) {
        finish();
        listening.end();
        return { done: true, value: undefined };
      }
      while (!done && queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      if (done) return { done: true, value: undefined };
      const event = queue.shift()!;
      if (listening.isLast(event)) lastSent = true;
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
  deps: {
    db: Db;
    tokens: TokenService;
    devices: DeviceService;
    approvals: ApprovalService;
    publisher: PushPublisher;
    recheckMs?: number;
    now?: () => number;
    /** answer schema introspection (default: NODE_ENV is development) */
    introspection?: boolean;
  },
): void {
  const recheckMs = deps.recheckMs ?? PUSH_RECHECK_MS;
  const now = deps.now ?? Date.now;
  const schema = buildSchema(pushSdl);
  const introspection = deps.introspection ?? process.env.NODE_ENV === 'development';
  const rules = introspection ? specifiedRules : [...specifiedRules, NoSchemaIntrospectionCustomRule];
  /** Open sockets by session (MAX_SOCKETS_PER_SESSION). */
  const sessions = new Map<string, number>();
  /** Counts the socket against its session; false (and the socket closed with 4429) past the limit. */
  const admit = (extra: PushExtra & { socket: WebSocket }, session: string): boolean => {
    // A socket that closed while its credentials were checked has had its onClose already.
    if (extra.socket.readyState !== WebSocket.OPEN) return false;
    const open = sessions.get(session) ?? 0;
    if (open >= MAX_SOCKETS_PER_SESSION) {
      extra.socket.close(TOO_MANY_SOCKETS.code, TOO_MANY_SOCKETS.reason);
      return false;
    }
    sessions.set(session, open + 1);
    extra.session = session;
    return true;
  };
  const wss = new WebSocketServer({ server: app.server, path: PUSH_PATH, maxPayload: 64 * 1024 });
  const disposable = useServer<Record<string, unknown> | undefined, PushExtra>(
    {
      schema,
      validate: (s, document) => validate(s, document, rules),
      roots: {
        query: { health: () => 'ok' },
        subscription: {
          events: (_args: unknown, context: { listening: Listening }) => eventStream(deps.publisher, context.listening),
        },
      },
      // Refuses the connection (4403) without valid credentials or with a company it may not act for.
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const socket = ctx.extra.socket;
        const end = () => socket.close(4403, 'Forbidden');
        /**
         * Re-checks every recheckMs; a false or failed check closes the socket (4403), except
         * while the database is away: the session may well be valid, so the next check decides.
         */
        const recheckWith = (check: () => Promise<boolean>) => {
          ctx.extra.recheck = setInterval(() => {
            void check().then(
              (still) => {
                if (!still) end();
              },
              (err: unknown) => {
                if (!isConnectionError(err)) end();
              },
            );
          }, recheckMs);
          ctx.extra.recheck.unref();
        };

        if (typeof params.temporaryToken === 'string') {
          const temporaryToken = params.temporaryToken;
          const row = await deps.approvals.findAttempt(temporaryToken);
          if (!row || !row.temporaryTokenHash) return false;
          const expired = row.status === 'expired' || (row.status === 'pending' && row.expiresAt.getTime() <= now());
          if (expired) {
            await deps.approvals.expireIfDue(row.keyHash);
            return false;
          }
          if (!admit(ctx.extra, `attempt:${row.temporaryTokenHash}`)) return false;
          const initial: PushMessage[] =
            row.status === 'approved' || row.status === 'declined' ? [{ type: 'LoginApproval', status: row.status }] : [];
          ctx.extra.listening = { channel: { kind: 'attempt', id: row.temporaryTokenHash }, initial, isLast: isFinalLoginApproval, end };
          // At expiry the attempt is marked expired and LoginApproval 'expired' ends the socket. The
          // timer finds it on time; the recheck covers re-sends (a later expiry) and clock changes.
          const expireLater = (atMs: number) => {
            if (ctx.extra.expiry) clearTimeout(ctx.extra.expiry);
            ctx.extra.expiry = setTimeout(() => void deps.approvals.expireIfDue(row.keyHash).catch(() => end()), Math.max(0, atMs - now()) + 50);
            ctx.extra.expiry.unref();
          };
          if (row.status === 'pending') expireLater(row.expiresAt.getTime());
          recheckWith(async () => {
            const current = await deps.approvals.findAttempt(temporaryToken);
            if (!current) return false;
            if (current.status === 'pending') {
              if (current.expiresAt.getTime() <= now()) await deps.approvals.expireIfDue(current.keyHash);
              else expireLater(current.expiresAt.getTime());
            }
            return true;
          });
          return true;
        }

        // `{ token }` (the web app and the companion), or the upgrade request's Authorization header:
        // both read with the one bearer grammar (bearer.ts), so no malformed token goes further.
        const token = params.token !== undefined ? tokenValue(params.token) : bearerToken(ctx.extra.request);
        if (!token) return false;
        const device = await deps.devices.authenticateDevice(token);
        if (device) {
          if (params.customerId !== undefined) return false;
          if (!admit(ctx.extra, `device-family:${device.familyId}`)) return false;
          ctx.extra.listening = { channel: { kind: 'device', id: device.deviceId }, initial: [], isLast: isDeviceUnlinked, end };
          // A revoked device, a revoked family or an expired device token ends the socket. Unlinking
          // publishes DeviceUnlinked right after its commit: the first failed check waits one more
          // interval, so the companion hears why before the socket closes (the event ends it).
          let failedOnce = false;
          recheckWith(async () => {
            if ((await deps.devices.authenticateDevice(token)) !== null) return true;
            if (failedOnce) return false;
            failedOnce = true;
            return true;
          });
          return true;
        }

        const caller = await deps.tokens.authenticate(token);
        if (!caller) return false;
        let customerId = caller.customerId;
        if (params.customerId !== undefined) {
          if (typeof params.customerId !== 'number' || !Number.isInteger(params.customerId) || params.customerId < 1 || params.customerId > MAX_ID) return false;
          if (!(await mayActFor(deps.db, caller, params.customerId))) return false;
          customerId = params.customerId;
        }
        if (!admit(ctx.extra, caller.familyId ? `family:${caller.familyId}` : `user:${caller.userId}`)) return false;
        ctx.extra.listening = { channel: { kind: 'customer', id: customerId }, initial: [], isLast: () => false, end, userId: caller.userId };
        recheckWith(async () => (await deps.tokens.authenticate(token)) !== null);
        return true;
      },
      onClose: (ctx) => {
        if (ctx.extra.recheck) clearInterval(ctx.extra.recheck);
        if (ctx.extra.expiry) clearTimeout(ctx.extra.expiry);
        if (ctx.extra.session) {
          const left = (sessions.get(ctx.extra.session) ?? 1) - 1;
          if (left > 0) sessions.set(ctx.extra.session, left);
          else sessions.delete(ctx.extra.session);
          ctx.extra.session = undefined;
        }
      },
      context: (ctx) => ({ listening: ctx.extra.listening }),
    },
    wss,
    KEEP_ALIVE_MS,
  );
  app.addHook('onClose', async () => {
    await disposable.dispose();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
}
