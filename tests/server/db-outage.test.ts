/**
 * The database goes away under load (issue 11 "Faults"), without touching the shared PostgreSQL
 * server: a TCP proxy this test controls stands between the platform and PostgreSQL. The platform
 * is a real `server/main.ts` child process (so "the process stays up" means something) on a fresh
 * database reached only through the proxy. Eight client loops send own-account transfers, each
 * under its own Idempotency-Key; twice in the middle of the run the proxy drops every connection
 * (pool, LISTEN) and refuses new ones for a while, then lets them through again.
 *
 * Then: the process is still running; every call got an answer, either 00 or HTTP 503 with the
 * envelope (UE and a description) and Retry-After; every transfer answered 00 is booked exactly once
 * under its key, and the customer's transfers are exactly the stored keys' ones (nothing half
 * written); the ledger reconciles and the EUR totals are unchanged. A push subscription opened
 * before the cuts still receives events: one another instance published while this one's LISTEN
 * connection was cut (read back from the push outbox once it re-subscribed), and the event of a
 * transfer made after the cuts.
 *
 * PostgreSQL only: PGlite is embedded, there is no connection to lose.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PUSH_PATH, PUSH_SUBSCRIPTION } from '../../api/push.ts';
import { reconcile } from '../../server/modules/accounts/ledger.ts';
import { customers, users } from '../../server/modules/customers/customers.tables.ts';
import { createPgPublisher, type PushPublisher } from '../../server/modules/push/publisher.ts';
import { idempotencyKeys, transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { createLedgerFixture, eurTotals } from '../../scripts/ledger-fixture.ts';
import { createTestDatabase, pkcePair, testDriver, type TestDatabase } from './harness.ts';
import { endPlatformProcess, signInSimple, startPlatformProcess, type PlatformProcess } from './platform-process.ts';

const LOOPS = 8;
const ACCOUNTS = 10;
/** acknowledged transfers to wait for before each cut and after the last one */
const ACKED_PER_PHASE = 15;
/** how long the proxy refuses connections after a cut */
const REFUSE_MS = 1_500;
/** ports the system picks, so parallel runs (both database projects, other checkouts) never collide */
const PLATFORM_PORT = 0;
const PROXY_PORT = 0;

// ---- a TCP proxy the test can cut --------------------------------------------------------------

interface CuttableProxy {
  port: number;
  /** connections ever accepted and passed on */
  accepted(): number;
  /** drops every open connection at once and refuses new ones for refuseMs (during() runs meanwhile) */
  cut(refuseMs: number, during?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

function startProxy(target: { host: string; port: number }, port: number): Promise<CuttableProxy> {
  const open = new Set<net.Socket>();
  let refusing = false;
  let accepted = 0;
  const server = net.createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    accepted++;
    const upstream = net.connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolve({
        port: (server.address() as net.AddressInfo).port,
        accepted: () => accepted,
        async cut(refuseMs, during) {
          refusing = true;
          // A reset, as a server crash or a broken network would look to the platform.
          for (const socket of [...open]) socket.resetAndDestroy();
          open.clear();
          await Promise.all([during?.(), new Promise((r) => setTimeout(r, refuseMs))]);
          refusing = false;
        },
        close: () =>
          new Promise<void>((done) => {
            for (const socket of open) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

// ---- HTTP calls -----------------------------------------------------------------------------------


interface Sent {
  key: string;
  /** acked: 00; unavailable: 503; other: anything else (a failure of this test); lost: no answer */
  state: 'inflight' | 'acked' | 'unavailable' | 'other' | 'lost';
  transactionId?: number;
  status?: number;
  body?: Record<string, unknown>;
  retryAfter?: string | null;
}

async function transfer(origin: string, token: string, from: number, to: number, record: Sent): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${origin}/api/v1/?transferBetweenAccounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-client-version': '2.1.2', 'idempotency-key': record.key },
      body: JSON.stringify({ fromAccount: from, toAccount: to, toAmount: '0.01', currency: 'EUR' }),
    });
  } catch {
    record.state = 'lost';
    return;
  }
  record.status = response.status;
  record.retryAfter = response.headers.get('retry-after');
  const text = await response.text();
  try {
    record.body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    record.body = { text };
  }
  if (response.status === 200 && record.body.responseCode === '00') {
    record.state = 'acked';
    record.transactionId = Number(record.body.transactionId);
  } else if (response.status === 503) {
    record.state = 'unavailable';
  } else {
    record.state = 'other';
  }
}

/** Any named method with an Idempotency-Key; the parsed answer. */
async function callMethod(origin: string, token: string, name: string, body: Record<string, unknown>, key: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${origin}/api/v1/?${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-client-version': '2.1.2', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

async function until(what: string, check: () => boolean, platform: PlatformProcess, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (!platform.alive()) throw new Error(`the platform process died while waiting for ${what}:\n${platform.output()}`);
    if (Date.now() - start > timeoutMs) throw new Error(`gave up waiting for ${what}:\n${platform.output()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

// ---- the test ----------------------------------------------------------------------------------

let database: TestDatabase | null = null;
let proxy: CuttableProxy | null = null;
let platform: PlatformProcess | null = null;
let pushClient: Client | null = null;
let otherInstance: PushPublisher | null = null;

afterAll(async () => {
  await pushClient?.dispose();
  if (platform) await endPlatformProcess(platform, 'SIGKILL');
  await otherInstance?.close();
  await proxy?.close();
  await database?.close();
});

if (testDriver !== 'pg') {
  console.log('[db outage] skipped: PostgreSQL only (run it in the server-pg project, with DATABASE_URL set)');
}

describe.skipIf(testDriver !== 'pg')('database outage (PostgreSQL through a cuttable proxy)', () => {
  it('two cuts of every connection mid-load: the process stays up, calls answer 00 or 503, the books balance, pushes go on', { timeout: 120_000 }, async () => {
    database = await createTestDatabase();
    const direct = new URL(database.url!);
    const fixture = await createLedgerFixture(database.open.db, { accounts: ACCOUNTS, fundEach: '1000.00' });
    const before = await eurTotals(database.open.db);

    proxy = await startProxy({ host: direct.hostname, port: Number(direct.port || 5432) }, PROXY_PORT);
    const proxied = new URL(direct);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    // NODE_ENV test: the test database holds the harness's demo data, which a production start refuses.
    platform = await startPlatformProcess({ DATABASE_URL: proxied.toString(), DATABASE_POOL_MAX: '10', NODE_ENV: 'test' }, PLATFORM_PORT);
    const origin = platform.origin;
    const token = await signInSimple(origin, fixture.email, fixture.password);

    // The push subscription, opened before anything goes wrong.
    const events: Record<string, unknown>[] = [];
    pushClient = createClient({
      url: `${origin.replace('http', 'ws')}${PUSH_PATH}`,
      webSocketImpl: WebSocket,
      connectionParams: { token },
      lazy: false,
      retryAttempts: 0,
      // the socket's close is recorded below (closedSockets); no console dump
      onNonLazyError: () => {},
    });
    const closedSockets: unknown[] = [];
    pushClient.on('closed', (event) => closedSockets.push(event));
    const subscribed = new Promise<void>((resolve) => {
      const off = pushClient!.on('connected', () => {
        off();
        resolve();
      });
    });
    pushClient.subscribe<{ events: { type: string; payload: string } }>(
      { query: PUSH_SUBSCRIPTION },
      {
        next: (value) => {
          if (value.data) events.push(JSON.parse(value.data.events.payload) as Record<string, unknown>);
        },
        error: () => {},
        complete: () => {},
      },
    );
    await subscribed;
    /**
     * A transfer that pushes an event: a transfer posted at once (approve mode none, as in the
     * load) pushes nothing, so this one waits for an approval code and is then canceled, which
     * pushes TransferApproval 'canceled'. Returns its id.
     */
    const db = database.open.db;
    /** the keys of these transfers (not part of the load) */
    const setupKeys = new Set<string>();
    const pushedTransfer = async (from: number, to: number): Promise<number> => {
      await db.update(users).set({ approvalCodeHash: 'not-a-real-hash' }).where(eq(users.id, fixture.userId));
      await db.update(customers).set({ transactionApproveMode: 'approvalCode' }).where(eq(customers.id, fixture.customerId));
      try {
        const keys = [randomUUID(), randomUUID()];
        for (const key of keys) setupKeys.add(key);
        const asked = await callMethod(origin, token, 'transferBetweenAccounts', { fromAccount: from, toAccount: to, toAmount: '1.00', currency: 'EUR' }, keys[0]!);
        expect(asked, platform!.output()).toMatchObject({ responseCode: '00', status: 'pending' });
        const canceled = await callMethod(origin, token, 'transferCancel', { trxid: asked.transactionId }, keys[1]!);
        expect(canceled, platform!.output()).toMatchObject({ responseCode: '00', status: 'canceled' });
        return Number(asked.transactionId);
      } finally {
        await db.update(customers).set({ transactionApproveMode: 'none' }).where(eq(customers.id, fixture.customerId));
      }
    };
    const pushedCancel = (id: number) => events.some((e) => e.type === 'TransferApproval' && e.transactionId === id && e.status === 'canceled');
    // The subscription is live once an event reaches it (the subscribe message follows the ack).
    const probe = await pushedTransfer(fixture.accountIds[0]!, fixture.accountIds[1]!);
    await until('the probe transfer to be pushed', () => pushedCancel(probe), platform);

    // ---- the load, with two cuts ----
    const sent: Sent[] = [];
    let stop = false;
    const ids = fixture.accountIds;
    const loop = async () => {
      while (!stop && platform!.alive()) {
        const from = ids[Math.floor(Math.random() * ids.length)]!;
        let to = ids[Math.floor(Math.random() * ids.length)]!;
        while (to === from) to = ids[Math.floor(Math.random() * ids.length)]!;
        const record: Sent = { key: randomUUID(), state: 'inflight' };
        sent.push(record);
        await transfer(origin, token, from, to, record);
        // A refusal says to come back later: a short pause keeps the loop from spinning.
        if (record.state !== 'acked') await new Promise((r) => setTimeout(r, 50));
      }
    };
    const loops = Array.from({ length: LOOPS }, loop);
    const acked = () => sent.filter((s) => s.state === 'acked').length;

    // Another instance on the same database (its own healthy connection) publishes to this
    // customer while this instance's LISTEN connection is down.
    otherInstance = await createPgPublisher(database.url!);
    const marker = `published during the outage ${randomUUID()}`;
    let signInDuringOutage: { status: number; retryAfter: string | null; body: unknown } | null = null;
    try {
      for (let cut = 1; cut <= 2; cut++) {
        const target = acked() + ACKED_PER_PHASE;
        await until(`${ACKED_PER_PHASE} transfers acknowledged before cut ${cut}`, () => acked() >= target, platform);
        await proxy.cut(
          REFUSE_MS,
          cut === 1
            ? () => otherInstance!.publish(fixture.customerId, { type: 'CustomerNotification', notificationType: 'test', status: 'info', title: marker, body: '' })
            : async () => {
                // A sign-in meanwhile (a REST path of the token service): 503 with its message shape.
                const { challenge } = pkcePair();
                const signIn = () =>
                  fetch(`${origin}/auth/login`, {
                    method: 'POST',
                    headers: { 'content-type': 'application/json' },
                    body: JSON.stringify({ client: 'spa', username: fixture.email, password: fixture.password, codeChallenge: challenge }),
                  });
                // A kept-alive connection the client reuses as the server lets it go answers "other
                // side closed" (undici, UND_ERR_SOCKET): asked again once on a new one. A platform that
                // died fails the second time too (and the next wait says it died).
                const response = await signIn().catch((err: unknown) => {
                  if ((err as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw err;
                  if (platform && !platform.alive()) throw new Error(`the platform process died during the outage:\n${platform.output()}`);
                  return signIn();
                });
                signInDuringOutage = { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
              },
        );
      }
      const target = acked() + ACKED_PER_PHASE;
      await until(`${ACKED_PER_PHASE} transfers acknowledged after the cuts`, () => acked() >= target, platform);
    } finally {
      stop = true;
      await Promise.all(loops);
    }

    // ---- the process is up and every call was answered, 00 or 503 with the envelope ----
    expect(platform.alive(), `the platform process is still running:\n${platform.output()}`).toBe(true);
    expect(sent.filter((s) => s.state === 'lost').length, 'calls without an answer').toBe(0);
    expect(sent.filter((s) => s.state === 'other').map((s) => ({ status: s.status, body: s.body }))).toEqual([]);
    const unavailable = sent.filter((s) => s.state === 'unavailable');
    // The loops ran through both outages, so some calls met the database away.
    expect(unavailable.length).toBeGreaterThan(0);
    for (const s of unavailable) {
      expect(s.body).toEqual({ responseCode: 'UE', responseDescription: expect.stringMatching(/unavailable/i) });
      expect(s.retryAfter).toMatch(/^[1-9][0-9]*$/);
    }
    expect(signInDuringOutage).toEqual({ status: 503, retryAfter: expect.stringMatching(/^[1-9][0-9]*$/), body: { message: expect.stringMatching(/unavailable/i) } });
    // The LISTEN connection and the pool came back through the proxy.
    expect(proxy.accepted()).toBeGreaterThan(2);

    // ---- the books: every acknowledged transfer exactly once, nothing half written ----
    const ackedSent = sent.filter((s) => s.state === 'acked');
    const keys = (await db.select({ key: idempotencyKeys.key, response: idempotencyKeys.response }).from(idempotencyKeys).where(eq(idempotencyKeys.userId, fixture.userId))).filter(
      (k) => !setupKeys.has(k.key),
    );
    const byKey = new Map(keys.map((k) => [k.key, Number(k.response.transactionId)]));
    expect(keys.filter((k) => k.response.responseCode !== '00'), 'stored keys hold complete answers').toEqual([]);
    expect(ackedSent.filter((s) => byKey.get(s.key) !== s.transactionId).map((s) => s.key), 'acknowledged keys stored with their transfer').toEqual([]);
    const posted = (await db.select({ id: transfers.id, status: transfers.status, entryId: transfers.entryId }).from(transfers).where(eq(transfers.customerId, fixture.customerId))).filter((t) => t.id !== probe);
    expect(posted.every((t) => t.status === 'posted' && t.entryId !== null)).toBe(true);
    // the customer's transfers are exactly those of stored keys: none without its key, none twice
    expect(posted.map((t) => t.id).sort((a, b) => a - b)).toEqual([...byKey.values()].sort((a, b) => a - b));
    const sentKeys = new Set(sent.map((s) => s.key));
    expect(keys.filter((k) => !sentKeys.has(k.key))).toEqual([]);
    expect(await reconcile(db)).toEqual([]);
    const after = await eurTotals(db);
    expect(after.legs).toBe(0n);
    // own-account transfers carry no fee: customer money is conserved
    expect(after.customerBalances + after.providerLegs).toBe(before.customerBalances + before.providerLegs);
    expect(after.transfers - before.transfers).toBe(posted.length);

    // ---- pushes: the missed event is read back, and new events arrive ----
    await until('the event published during the outage', () => events.some((e) => e.title === marker), platform);
    const last = await pushedTransfer(ids[2]!, ids[3]!);
    await until('the push of a transfer made after the cuts', () => pushedCancel(last), platform);
    // the push socket itself stayed open through both outages
    expect(closedSockets).toEqual([]);

    console.log(
      `[db outage] ${sent.length} calls: ${ackedSent.length} acknowledged, ${unavailable.length} answered 503; ` +
        `${posted.length} transfers posted; ${proxy.accepted()} connections through the proxy; ${events.length} push events received`,
    );
  });
});
