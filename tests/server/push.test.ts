/** Push over graphql-ws: authenticated sockets, per-customer events, fan-out across instances. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { decodeJwt } from 'jose';
import { PUSH_SUBSCRIPTION } from '../../api/push.ts';
import { MAX_SOCKETS_PER_SESSION, TOO_MANY_SOCKETS } from '../../server/modules/push/push.server.ts';
import { MethodFailure, type MethodContext } from '../../server/modules/method-types.ts';
import { createTestApp, callMethod, postJson, signIn, testDriver, type TestApp } from './harness.ts';

const apps: TestApp[] = [];
const clients: Client[] = [];

async function listening(options: Parameters<typeof createTestApp>[0] = {}): Promise<{ t: TestApp; url: string }> {
  const t = await createTestApp(options);
  apps.push(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { t, url: `ws://127.0.0.1:${address.port}/graphql` };
}

function connect(url: string, connectionParams: Record<string, unknown>): Client {
  const client = createClient({ url, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
  clients.push(client);
  return client;
}

interface Received {
  events: { type: string; payload: string }[];
  errors: unknown[];
  /** resolves once the subscription is acknowledged by the server (its first ping round-trip) */
  ready: Promise<void>;
}

function subscribe(client: Client): Received {
  const received: Received = { events: [], errors: [], ready: Promise.resolve() };
  received.ready = new Promise<void>((resolve) => {
    const off = client.on('connected', () => {
      off();
      // The subscribe message follows the ack; give the server a moment to register it.
      setTimeout(resolve, 150);
    });
    client.on('closed', () => resolve());
  });
  client.subscribe<{ events: { type: string; payload: string } }>(
    { query: PUSH_SUBSCRIPTION },
    {
      next: (value) => {
        if (value.data) received.events.push(value.data.events);
      },
      error: (err) => received.errors.push(err),
      complete: () => {},
    },
  );
  return received;
}

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

afterAll(async () => {
  for (const c of clients) await c.dispose();
  // Close second instances first: they share the first one's database.
  for (const t of apps.reverse()) await t.close();
});

describe('push over graphql-ws', () => {
  let first: { t: TestApp; url: string };
  beforeAll(async () => {
    first = await listening({
      handlerOverrides: {
        // A mutation that publishes, then (for 'ru') fails: nothing may be delivered then.
        async customerLanguageUpdate(input: unknown, ctx: MethodContext) {
          const { language } = input as { language: string };
          ctx.publish(ctx.customerId!, { type: 'CustomerNotification', notificationType: 'settings', status: 'info', title: 'Language', body: language });
          if (language === 'ru') throw new MethodFailure('TA1', 'refused');
          return {};
        },
      },
    });
  });

  it('refuses a socket without a valid token', async () => {
    const received = subscribe(connect(first.url, { token: 'garbage' }));
    await waitFor(() => received.errors.length > 0);
  });

  it("delivers a customer's events to that customer's sockets only, after commit", async () => {
    const anna = await signIn(first.t.app, 'anna');
    const boris = await signIn(first.t.app, 'boris');
    const annaSees = subscribe(connect(first.url, { token: anna.accessToken }));
    const borisSees = subscribe(connect(first.url, { token: boris.accessToken }));
    await Promise.all([annaSees.ready, borisSees.ready]);

    const failed = await callMethod(first.t.app, 'customerLanguageUpdate', { language: 'ru' }, { token: anna.accessToken });
    expect(failed.body.responseCode).toBe('TA1');
    const ok = await callMethod(first.t.app, 'customerLanguageUpdate', { language: 'es' }, { token: anna.accessToken });
    expect(ok.body.responseCode).toBe('00');

    await waitFor(() => annaSees.events.length > 0);
    await new Promise((r) => setTimeout(r, 200));
    expect(annaSees.events).toHaveLength(1);
    expect(annaSees.events[0]!.type).toBe('CustomerNotification');
    expect(JSON.parse(annaSees.events[0]!.payload)).toMatchObject({ type: 'CustomerNotification', body: 'es' });
    expect(borisSees.events).toHaveLength(0);
    expect(annaSees.errors).toEqual([]);
  });

  it("lets an authorised user listen for the company, and refuses a company it may not act for", async () => {
    const clerk = await signIn(first.t.app, 'clerk');
    const anna = await signIn(first.t.app, 'anna');
    const clerkCustomer = decodeJwt(clerk.accessToken).cid as number;
    const list = await callMethod(first.t.app, 'userAccessList', {}, { token: clerk.accessToken });
    const northwindId = (list.body.customerAccesses as { customerId: number }[])[0]!.customerId;
    expect(northwindId).not.toBe(clerkCustomer);
    const clerkSees = subscribe(connect(first.url, { token: clerk.accessToken, customerId: northwindId }));
    await clerkSees.ready;
    await first.t.publisher.publish(northwindId, { type: 'TransactionConfirmation', transactionId: 7, status: 'approved' });
    await waitFor(() => clerkSees.events.length === 1);
    const intruder = subscribe(connect(first.url, { token: anna.accessToken, customerId: northwindId }));
    await waitFor(() => intruder.errors.length > 0);
  });

  it.runIf(testDriver === 'pg')('delivers across two instances on one PostgreSQL through NOTIFY', async () => {
    const second = await listening({ shareDatabaseOf: first.t });
    const anna = await signIn(first.t.app, 'anna');
    const annaCustomer = decodeJwt(anna.accessToken).cid as number;
    // The socket is on the second instance; the change is made through the first.
    const seen = subscribe(connect(second.url, { token: anna.accessToken }));
    await seen.ready;
    const ok = await callMethod(first.t.app, 'customerLanguageUpdate', { language: 'pt' }, { token: anna.accessToken });
    expect(ok.body.responseCode).toBe('00');
    await waitFor(() => seen.events.length === 1);
    expect(JSON.parse(seen.events[0]!.payload)).toMatchObject({ body: 'pt' });
    // And the other way round, straight through the second instance's publisher.
    const seenOnFirst = subscribe(connect(first.url, { token: anna.accessToken }));
    await seenOnFirst.ready;
    await second.t.publisher.publish(annaCustomer, { type: 'PasswordChange', status: 'changed' });
    await waitFor(() => seenOnFirst.events.some((e) => e.type === 'PasswordChange'));
  });

  it.runIf(testDriver === 'pg')('keeps delivering after the LISTEN connection is cut (it reconnects)', async () => {
    // boris signs in without a TOTP step: any number of sign-ins per 30 s.
    const boris = await signIn(first.t.app, 'boris');
    const borisCustomer = decodeJwt(boris.accessToken).cid as number;
    const seen = subscribe(connect(first.url, { token: boris.accessToken }));
    await seen.ready;
    const pool = (first.t.database.open as { pool: import('pg').Pool }).pool;
    const cut = await pool.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN%' and pid <> pg_backend_pid()",
    );
    expect(cut.rowCount).toBeGreaterThan(0);
    // Publish until the reconnected listener hears it (reconnection waits about a second).
    const deadline = Date.now() + 8000;
    while (!seen.events.some((e) => e.type === 'PasswordChange') && Date.now() < deadline) {
      await first.t.publisher.publish(borisCustomer, { type: 'PasswordChange', status: 'canceled' });
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(seen.events.some((e) => e.type === 'PasswordChange')).toBe(true);
  });

  describe('a socket does not outlive its session', () => {
    function closedWith(client: Client): Promise<number> {
      return new Promise((resolve) => client.on('closed', (event) => resolve((event as { code: number }).code)));
    }

    it('is closed (4403) soon after the session is logged out', async () => {
      const { t, url } = await listening({ pushRecheckMs: 100 });
      const s = await signIn(t.app, 'boris');
      const client = connect(url, { token: s.accessToken });
      const received = subscribe(client);
      await received.ready;
      const closed = closedWith(client);
      expect((await postJson(t.app, '/auth/logout', { refreshToken: s.refreshToken })).statusCode).toBe(204);
      expect(await closed).toBe(4403);
    });

    it('is closed (4403) once its access token has expired, and stays open while it is valid', async () => {
      let clockMs = Date.now();
      const { t, url } = await listening({ pushRecheckMs: 100, now: () => clockMs });
      const s = await signIn(t.app, 'boris');
      const client = connect(url, { token: s.accessToken });
      const received = subscribe(client);
      await received.ready;
      let closedCode: number | null = null;
      void closedWith(client).then((code) => (closedCode = code));
      await new Promise((r) => setTimeout(r, 400));
      expect(closedCode).toBeNull();
      clockMs += 301_000;
      await waitFor(() => closedCode !== null);
      expect(closedCode).toBe(4403);
    });
  });
});

describe('push limits', () => {
  let app: { t: TestApp; url: string };
  beforeAll(async () => {
    app = await listening();
  });

  const closeOf = (client: Client) =>
    new Promise<{ code: number; reason: string }>((resolve) =>
      client.on('closed', (event) => resolve({ code: (event as { code: number }).code, reason: String((event as { reason: unknown }).reason) })),
    );

  it(`opens at most ${MAX_SOCKETS_PER_SESSION} sockets per session: the next is refused with ${TOO_MANY_SOCKETS.code}, and a closed one frees its place`, async () => {
    const s = await signIn(app.t.app, 'boris');
    const open = Array.from({ length: MAX_SOCKETS_PER_SESSION }, () => connect(app.url, { token: s.accessToken }));
    const seen = open.map((c) => subscribe(c));
    await Promise.all(seen.map((r) => r.ready));
    expect(seen.every((r) => r.errors.length === 0)).toBe(true);

    const sixth = connect(app.url, { token: s.accessToken });
    const sixthOutcome = Promise.race([closeOf(sixth), new Promise<string>((resolve) => sixth.on('connected', () => resolve('connected')))]);
    subscribe(sixth);
    expect(await sixthOutcome).toEqual({ code: TOO_MANY_SOCKETS.code, reason: TOO_MANY_SOCKETS.reason });

    // Another session of the same user has places of its own.
    const other = await signIn(app.t.app, 'boris');
    const otherSeen = subscribe(connect(app.url, { token: other.accessToken }));
    await otherSeen.ready;
    expect(otherSeen.errors).toEqual([]);

    // The oldest socket closes; a new one of the session is admitted in its place and gets events.
    await open[0]!.dispose();
    await new Promise((r) => setTimeout(r, 100));
    const again = subscribe(connect(app.url, { token: s.accessToken }));
    await again.ready;
    await app.t.publisher.publish(decodeJwt(s.accessToken).cid as number, { type: 'TransactionConfirmation', transactionId: 9, status: 'approved' });
    await waitFor(() => again.events.length === 1);
    expect(again.errors).toEqual([]);
  });

  const introspect = (client: Client) =>
    new Promise<{ data?: unknown; errors?: readonly { message: string }[] }>((resolve) => {
      // A document the server's validation refuses comes back as the subscription's error: the list of errors.
      client.subscribe<unknown>(
        { query: '{ __schema { queryType { name } } }' },
        { next: (value) => resolve(value as never), error: (errors) => resolve({ errors: errors as { message: string }[] }), complete: () => undefined },
      );
    });

  it('answers no introspection outside development, and answers it in development', async () => {
    const s = await signIn(app.t.app, 'boris');
    const refused = await introspect(connect(app.url, { token: s.accessToken }));
    expect(refused.data).toBeUndefined();
    expect(refused.errors?.[0]?.message).toMatch(/introspection/i);

    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = 'development';
    let dev: { t: TestApp; url: string };
    try {
      dev = await listening();
    } finally {
      process.env.NODE_ENV = saved;
    }
    const d = await signIn(dev.t.app, 'boris');
    const answered = await introspect(connect(dev.url, { token: d.accessToken }));
    expect(answered).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });
});
