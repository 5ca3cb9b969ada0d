/**
 * The job queue's way to the database (server/db/job-queue.ts executorOf) while the database is
 * away: pg-boss 10 completes and fails a worker's jobs without awaiting the call, so a lost
 * connection there would end the process. The executor answers "no job changed" in the shape
 * pg-boss reads (its own Manager.mapCommandResponse, run here): found by the db-outage test on
 * PostgreSQL, where an empty answer threw a TypeError as an unhandled rejection. Any other
 * statement, and any other error, still fails.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { OpenDatabase } from '../../server/db/open.ts';
import { executorOf } from '../../server/db/job-queue.ts';

const require = createRequire(import.meta.url);
const plans = require('pg-boss/src/plans.js') as { completeJobs(schema: string): string; failJobsById(schema: string): string; fetchNextJob(schema: string): (options: object) => string };
const Manager = require('pg-boss/src/manager.js') as { prototype: { mapCommandResponse(ids: string[], result: unknown): { affected: number } } };

const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
const failingPool = (err: Error) => ({ driver: 'pg', pool: { query: async () => Promise.reject(err) } }) as unknown as OpenDatabase;

describe('the job queue executor with the database away', () => {
  it('answers "no job changed" to a completion or a failure of jobs, as pg-boss reads it, and logs the error', async () => {
    const logged: unknown[] = [];
    const executor = executorOf(failingPool(reset), (err) => logged.push(err));
    for (const statement of [plans.completeJobs('pgboss'), plans.failJobsById('pgboss')]) {
      const result = await executor.executeSql(statement, ['rail.submit', ['00000000-0000-0000-0000-000000000001'], null]);
      expect(Manager.prototype.mapCommandResponse(['00000000-0000-0000-0000-000000000001'], result).affected).toBe(0);
    }
    expect(logged).toEqual([reset, reset]);
  });

  it('still fails any other statement, and a completion that fails for another reason', async () => {
    const executor = executorOf(failingPool(reset), () => undefined);
    await expect(executor.executeSql('SELECT 1', [])).rejects.toBe(reset);
    const syntax = Object.assign(new Error('syntax error'), { code: '42601' });
    await expect(executorOf(failingPool(syntax), () => undefined).executeSql(plans.completeJobs('pgboss'), [])).rejects.toBe(syntax);
  });
});
