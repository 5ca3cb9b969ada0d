/**
 * The database-away rules (server/db/outage.ts, server/db/open.ts): which errors mean the database
 * is away, the jittered back-off, and the pool refusing at once while it backs off. The whole
 * platform under a real outage: tests/server/db-outage.test.ts.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ResilientPool } from '../../server/db/open.ts';
import { backoffDelayMs, createBackoff, createRefusalLog, isConnectionError } from '../../server/db/outage.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isConnectionError', () => {
  it('knows a lost or refused connection, also wrapped in a query error', () => {
    for (const err of [
      withCode('ECONNREFUSED'),
      withCode('ECONNRESET'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('08006'),
      withCode('57P03', 'the database system is starting up'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('Failed query: rollback'), { cause: new Error('Connection terminated unexpectedly') }),
    ]) {
      expect(isConnectionError(err), String(err)).toBe(true);
    }
  });

  it('does not take other database errors or bugs for an outage', () => {
    for (const err of [withCode('23505', 'duplicate key'), withCode('40001'), withCode('42P01', 'relation does not exist'), new TypeError('x is undefined'), 'text', null]) {
      expect(isConnectionError(err), String(err)).toBe(false);
    }
  });
});

describe('back-off', () => {
  it('grows exponentially to its cap, jittered below the bound', () => {
    expect([1, 2, 3, 4, 10].map((n) => backoffDelayMs(n, 100, 1_000, () => 1))).toEqual([100, 200, 400, 800, 1_000]);
    expect(backoffDelayMs(3, 100, 1_000, () => 0.5)).toBe(200);
    expect(backoffDelayMs(1, 100, 1_000, () => 0)).toBe(1);
  });

  it('a worker skips rounds after a failure until the delay passed; a success resets it', () => {
    let nowMs = 0;
    const backoff = createBackoff({ baseMs: 1_000, capMs: 60_000, now: () => nowMs });
    expect(backoff.ready()).toBe(true);
    const delayMs = backoff.failed();
    expect(delayMs).toBeGreaterThan(0);
    expect(delayMs).toBeLessThanOrEqual(1_000);
    nowMs = delayMs - 1;
    expect(backoff.ready()).toBe(false);
    nowMs = delayMs;
    expect(backoff.ready()).toBe(true);
    backoff.failed();
    backoff.succeeded();
    expect(backoff.ready()).toBe(true);
  });
});

describe('createRefusalLog', () => {
  it('logs the first refusal, then one line per period with the count since', () => {
    let nowMs = 0;
    const note = createRefusalLog(1_000, () => nowMs);
    expect(note()).toBe(1);
    expect([note(), note(), note()]).toEqual([null, null, null]);
    nowMs = 1_000;
    expect(note()).toBe(4);
    nowMs = 1_500;
    expect(note()).toBeNull();
  });
});

describe('ResilientPool', () => {
  it('after a refused connect, refuses at once (EDBUNAVAILABLE) instead of trying again for every query', async () => {
    // a port nobody listens on
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    let attempts = 0;
    const reported: unknown[] = [];
    const pool = new ResilientPool({ connectionString: `postgres://nobody@127.0.0.1:${port}/none`, max: 2 }, (err) => reported.push(err));
    pool.on('connect', () => attempts++);
    try {
      const first = await pool.query('select 1').catch((err: unknown) => err);
      expect((first as { code?: string }).code).toBe('ECONNREFUSED');
      const second = await pool.query('select 1').catch((err: unknown) => err);
      expect((second as { code?: string }).code).toBe('EDBUNAVAILABLE');
      expect(isConnectionError(second)).toBe(true);
      expect(attempts).toBe(0);
      // one report for the outage, not one per refused query
      expect(reported).toHaveLength(1);
    } finally {
      await pool.end();
    }
  });
});
