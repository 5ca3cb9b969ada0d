/**
 * Profile calls over HTTP: e-mails (add, confirm with the e-mailed code, set primary, delete),
 * the username change (code to the desired address, applied for a verified customer), KYC,
 * identity-verification jobs, and another customer's ids answering ENOA with nothing changed.
 */
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION_PATH } from '../../api/http.ts';
import { customers, users } from '../../server/modules/customers/customers.tables.ts';
import { outbox } from '../../server/modules/platform/platform.tables.ts';
import { customerEmails } from '../../server/modules/profile/profile.tables.ts';
import { callMethod, createTestApp, signIn, type SignedIn, type TestApp } from './harness.ts';

let t: TestApp;
let app: FastifyInstance;
let rita: SignedIn;
let boris: SignedIn;

async function lastMailCode(to: string): Promise<string> {
  const [row] = await t.db.select().from(outbox).where(and(eq(outbox.channel, 'mail'), eq(outbox.recipient, to))).orderBy(desc(outbox.id)).limit(1);
  const code = /is (\d{6})\./.exec(row?.body ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false });
  app = t.app;
  rita = await signIn(app, 'rita');
  boris = await signIn(app, 'boris');
});

afterAll(async () => {
  await t?.close();
});

describe('e-mails', () => {
  it('lists the login as the primary address, adds one, confirms it with the mailed code and makes it primary', async () => {
    const list = await callMethod(app, 'emailInquiry', {}, { token: rita.accessToken });
    expect(list.body).toMatchObject({ responseCode: '00', login: 'rita@demo.test', emails: [{ emailAddress: 'rita@demo.test', status: 'Primary', confirmed: true }], usernameChangeRequest: null });
    const add = await callMethod(app, 'addEmail', { emailAddress: ' Rita.Work@Example.COM ' }, { token: rita.accessToken });
    expect(add.body.responseCode, JSON.stringify(add.body)).toBe('00');
    const email = add.body.email as { id: number; emailAddress: string };
    expect(email.emailAddress).toBe('rita.work@example.com');
    const early = await callMethod(app, 'setPrimaryEmail', { emailId: email.id }, { token: rita.accessToken });
    expect(early.body.responseCode).toBe('TA1');
    expect((await callMethod(app, 'confirmRequestEmail', { emailId: email.id }, { token: rita.accessToken })).body.responseCode).toBe('00');
    const confirm = await callMethod(app, 'confirmEmail', { emailId: email.id, confirmationCode: await lastMailCode('rita.work@example.com') }, { token: rita.accessToken });
    expect(confirm.body).toMatchObject({ responseCode: '00', email: { confirmed: true } });
    const primary = await callMethod(app, 'setPrimaryEmail', { emailId: email.id }, { token: rita.accessToken });
    expect(primary.body).toMatchObject({ responseCode: '00', email: { status: 'Primary' } });
  });

  it("another customer's e-mail id answers ENOA and the address stays", async () => {
    const [row] = await t.db.select().from(customerEmails).where(eq(customerEmails.emailAddress, 'rita.work@example.com'));
    const res = await callMethod(app, 'deleteEmail', { emailId: row!.id }, { token: boris.accessToken });
    expect(res.body.responseCode).toBe('ENOA');
    const [still] = await t.db.select().from(customerEmails).where(eq(customerEmails.id, row!.id));
    expect(still).toBeDefined();
    const bad = await callMethod(app, 'addEmail', { emailAddress: 'not-an-address' }, { token: boris.accessToken });
    expect(bad.body.responseCode).toBe('VF');
  });
});

describe('username change', () => {
  it('a verified customer changes the login with the code mailed to the new address', async () => {
    const taken = await callMethod(app, 'usernameChangeRequestCreate', { desiredUsername: 'boris@demo.test' }, { token: rita.accessToken });
    expect(taken.body.responseCode).toBe('VF');
    const create = await callMethod(app, 'usernameChangeRequestCreate', { desiredUsername: 'rita.new@example.com' }, { token: rita.accessToken });
    expect(create.body).toMatchObject({ responseCode: '00', usernameChangeRequest: { status: 'active', desiredUsername: 'rita.new@example.com' } });
    const requestId = (create.body.usernameChangeRequest as { requestId: number }).requestId;
    const foreign = await callMethod(app, 'usernameChangeRequestDelete', { requestId }, { token: boris.accessToken });
    expect(foreign.body.responseCode).toBe('ENOA');
    const done = await callMethod(app, 'usernameChangeRequestEmailConfirm', { requestId, code: await lastMailCode('rita.new@example.com') }, { token: rita.accessToken });
    expect(done.body).toMatchObject({ responseCode: '00', login: 'rita.new@example.com', usernameChangeRequest: null });
    const [u] = await t.db.select({ email: users.email }).from(users).where(eq(users.email, 'rita.new@example.com'));
    expect(u).toBeDefined();
  });
});

describe('KYC', () => {
  it('answering the KYC clears isNeedKyc; bad answers are VF', async () => {
    const [u] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, 'boris@demo.test'));
    await t.db.update(customers).set({ isNeedKyc: true }).where(eq(customers.id, u!.customerId));
    const bad = await callMethod(app, 'kycInfoUpdate', { occupationId: 0, sourceOfFundsIds: [], purposeIds: [1], expectedMonthlyTurnover: '', isPoliticallyExposed: false }, { token: boris.accessToken });
    expect(bad.body.responseCode).toBe('VF');
    expect((bad.body.validationErrors as { param: string }[]).map((e) => e.param).sort()).toEqual(['expectedMonthlyTurnover', 'occupationId', 'sourceOfFundsIds']);
    const ok = await callMethod(app, 'kycInfoUpdate', { occupationId: 3, sourceOfFundsIds: [1], purposeIds: [2], expectedMonthlyTurnover: '1000-5000', isPoliticallyExposed: false }, { token: boris.accessToken });
    expect(ok.body.responseCode).toBe('00');
    const info = await callMethod(app, 'kycCustomerInfoGet', {}, { token: boris.accessToken });
    expect(info.body).toMatchObject({ isNeedKyc: false, kycInfo: { occupationId: 3 } });
  });
});

describe('identity-verification jobs', () => {
  it('starts a job on the built-in review provider; its page answers by token only', async () => {
    const start = await app.inject({ method: 'POST', url: `${API_VERSION_PATH}/identity-verification`, payload: {}, headers: { authorization: `Bearer ${boris.accessToken}` } });
    expect(start.statusCode, start.body).toBe(200);
    const job = start.json() as { workflowRunId: string; token: string; provider: string; url: string };
    expect(job.provider).toBe('review');
    const page = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/identity-verification/${job.workflowRunId}/${job.token}` });
    expect(page.json()).toMatchObject({ status: 'pending', kind: 'identity' });
    const wrong = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/identity-verification/${job.workflowRunId}/${'x'.repeat(43)}` });
    expect(wrong.statusCode).toBe(404);
    const [r] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, 'rita.new@example.com'));
    const foreign = await app.inject({ method: 'POST', url: `${API_VERSION_PATH}/customers/${r!.customerId}/identity-verification`, payload: {}, headers: { authorization: `Bearer ${boris.accessToken}` } });
    expect(foreign.statusCode).toBe(403);
  });
});
