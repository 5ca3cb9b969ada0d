/**
 * The push client against a real graphql-ws server on a local port (ws in Node).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { createRequire } from 'node:module';
import { pushSdl, type PushEvent } from '../../api/push.ts';
import { backoffMs, connectPush, parsePushItem, PUSH_BACKOFF_MAX_MS } from '../../src/lib/push-client.ts';

// graphql-ws runs outside Vite and loads graphql's CommonJS build; a schema from Vite's ESM copy
// would be "from another module or realm", so build it with the same copy.
const { buildSchema } = createRequire(import.meta.url)('graphql') as typeof import('graphql');

let server: Server | null = null;
let wss: WebSocketServer | null = null;

afterEach(async () => {
  wss?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
  wss = null;
});

async function startServer(events: { type: string; payload: string }[], seenTokens: string[]) {
  server = createServer();
  wss = new WebSocketServer({ server, path: '/graphql' });
  const schema = buildSchema(pushSdl);
  useServer(
    {
      schema,
      onConnect: (ctx) => {
        seenTokens.push(String((ctx.connectionParams as { token?: string } | undefined)?.token));
        return true;
      },
      roots: {
        subscription: {
          events: async function* () {
            for (const e of events) yield { events: e };
          },
        },
      },
    },
    wss,
  );
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `ws://127.0.0.1:${(server!.address() as AddressInfo).port}/graphql`;
}

describe('push client', () => {
  it('connects with the token and delivers valid events, dropping invalid ones', async () => {
    const tokens: string[] = [];
    const url = await startServer(
      [
        { type: 'CustomerNotification', payload: JSON.stringify({ notificationType: 'info', status: 'new', title: 'Hi', body: 'There' }) },
        { type: 'PasswordChange', payload: JSON.stringify({ status: 'weird' }) },
        { type: 'TransactionConfirmation', payload: JSON.stringify({ transactionId: 9, status: 'approved' }) },
      ],
      tokens,
    );
    const received: PushEvent[] = [];
    const statuses: string[] = [];
    const warn = console.warn;
    console.warn = () => undefined;
    const close = connectPush({
      url,
      getToken: () => 'access-1',
      onEvent: (e) => received.push(e),
      onStatus: (s) => statuses.push(s),
      webSocketImpl: WebSocket,
    });
    await expect.poll(() => received.length, { timeout: 5_000 }).toBe(2);
    console.warn = warn;
    close();
    expect(tokens).toEqual(['access-1']);
    expect(received.map((e) => e.type)).toEqual(['CustomerNotification', 'TransactionConfirmation']);
    expect(statuses[0]).toBe('connecting');
    expect(statuses).toContain('open');
    expect(statuses.at(-1)).toBe('closed');
  });

  it('parsePushItem validates with the contract', () => {
    expect(parsePushItem({ type: 'PasswordChange', payload: '{"status":"changed"}' })).toEqual({ type: 'PasswordChange', status: 'changed' });
    expect(parsePushItem({ type: 'PasswordChange', payload: 'not json' })).toBeNull();
    expect(parsePushItem({ type: 'Unknown', payload: '{}' })).toBeNull();
    expect(parsePushItem(null)).toBeNull();
  });

  it('backs off exponentially with a cap', () => {
    const mid = () => 1; // no jitter reduction
    expect(backoffMs(0, mid)).toBe(1_000);
    expect(backoffMs(3, mid)).toBe(8_000);
    expect(backoffMs(20, mid)).toBe(PUSH_BACKOFF_MAX_MS);
    expect(backoffMs(2, () => 0)).toBe(2_000);
  });
});
