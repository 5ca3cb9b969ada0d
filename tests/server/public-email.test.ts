/**
 * Issue 11, finding 9: public methods write nothing for an e-mail no user has. Anyone may call
 * them without a token, so a row per call (an audit entry, an outbox mail, a code, a failure
 * counter) would let a stranger fill the database with made-up addresses. Every table is counted
 * before and after each call. Where the answer must not tell whether an address is registered
 * (activation resend, password reset request), the unknown address's answer equals a known one's.
 * (accountRecoveryRequest is left out: a personal-data recovery keeps a task for any address,
 * which the caller then fills with documents and an administrator rejects, so that every later
 * answer is alike. accountCreate is left out: an unknown address is what it registers.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { executeNamed } from '../../server/db/prepared.ts';
import { callMethod, createTestApp, type TestApp } from './harness.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false });
});
afterAll(async () => {
  await t?.close();
});

/** Rows of every table of the public schema, by table. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = (
    (await executeNamed(t.db, sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`)) as {
      rows: { table_name: string }[];
    }
  ).rows.map((r) => r.table_name);
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const result = (await executeNamed(t.db, sql.raw(`select count(*)::int as n from "${table}"`))) as { rows: { n: number }[] };
    counts[table] = result.rows[0]!.n;
  }
  return counts;
}

const UNKNOWN = 'nobody-here@unknown.test';

const calls: { method: string; body: Record<string, unknown> }[] = [
  { method: 'checkEmail', body: { email: UNKNOWN } },
  { method: 'activateAccount', body: { username: UNKNOWN, activationCode: '123456' } },
  { method: 'businessAccountActivate', body: { email: UNKNOWN, activationCode: '123456' } },
  { method: 'employeeAccountActivate', body: { email: UNKNOWN, activationCode: '123456', password: 'Another-Pass-2026' } },
  { method: 'activationCodeResend', body: { email: UNKNOWN } },
  { method: 'passwordChangeRequest', body: { email: UNKNOWN } },
  { method: 'passwordCodeCheck', body: { email: UNKNOWN, code: '123456' } },
  { method: 'passwordChangeWithCode', body: { email: UNKNOWN, code: '123456', password: 'Another-Pass-2026' } },
];

describe('public methods and an unknown e-mail', () => {
  it.each(calls.map((c) => [c.method, c] as const))('%s writes no row anywhere', async (_name, c) => {
    // Once first: a per-address rate-limit counter is created on the first call from an address
    // (known or unknown e-mail alike); the call under test may only update it.
    await callMethod(t.app, c.method, c.body);
    const before = await rowCounts();
    const res = await callMethod(t.app, c.method, c.body);
    expect(res.body.responseCode).not.toBe('UE');
    expect(await rowCounts()).toEqual(before);
  });

  it('activationCodeResend answers an unknown address exactly as a registered one waiting for activation (which gets a code)', async () => {
    const registered = await callMethod(t.app, 'accountCreate', {
      personalType: 'individual', firstName: 'Wait', lastName: 'Ing', email: 'waiting@example.test', password: 'Demo-Pass-2026x', residenceCountryCode: 'LT', acceptTerms: true,
    });
    expect(registered.body.responseCode, JSON.stringify(registered.body)).toBe('00');
    const before = await rowCounts();
    const forKnown = await callMethod(t.app, 'activationCodeResend', { email: 'waiting@example.test' });
    const after = await rowCounts();
    // The registered address did get a code, a mail and an audit entry: the call did something.
    expect(after.one_time_codes).toBe(before.one_time_codes! + 1);
    expect(after.audit_log).toBe(before.audit_log! + 1);
    const forUnknown = await callMethod(t.app, 'activationCodeResend', { email: 'another-nobody@unknown.test' });
    expect({ status: forUnknown.status, ...forUnknown.body }).toEqual({ status: forKnown.status, ...forKnown.body });
  });

  it('passwordChangeRequest answers an unknown address as a registered one (a fresh task id, the address masked)', async () => {
    const forKnown = await callMethod(t.app, 'passwordChangeRequest', { email: 'boris@demo.test' });
    const forUnknown = await callMethod(t.app, 'passwordChangeRequest', { email: 'xavier@unknown.test' });
    const shape = (body: Record<string, unknown>) => ({ ...body, taskId: typeof body.taskId, recoveryEmail: /^.\*{3}@[^@]+$/.test(String(body.recoveryEmail)) });
    expect(shape(forUnknown.body)).toEqual(shape(forKnown.body));
    // No task is kept for either: the status call knows neither id.
    const statuses = await Promise.all([forKnown, forUnknown].map((a) => callMethod(t.app, 'accountRecoveryStatus', { taskId: a.body.taskId })));
    expect(statuses[1]!.body).toEqual(statuses[0]!.body);
    expect(statuses[0]!.body.responseCode).toBe('TA1');
  });
});
