/**
 * The operations of operations.tsv added by issue 11 for areas already built: states
 * {countryCode}, beneficiaryList, paymentTemplateList, usernameChangeRequestIdentityJob and
 * usernameChangeRequestCompleted. Each: who may call it, VF on bad input, the happy path.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/modules/customers/customers.tables.ts';
import { transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { auditLog, outbox } from '../../server/modules/platform/platform.tables.ts';
import { customerDocuments, identityJobs, usernameChangeRequests } from '../../server/modules/profile/profile.tables.ts';
import { API_VERSION_PATH } from '../../api/http.ts';
import { callMethod, createTestApp, pkcePair, signIn, type MethodAnswer, type SignedIn, type TestApp } from './harness.ts';

let t: TestApp;
let app: FastifyInstance;
let rita: SignedIn;
let boris: SignedIn;
let uma: SignedIn;

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false });
  app = t.app;
  [rita, boris, uma] = await Promise.all([signIn(app, 'rita'), signIn(app, 'boris'), signIn(app, 'uma')]);
});
afterAll(async () => {
  await t?.close();
});

const money = (name: string, body: Record<string, unknown>, token: string): Promise<MethodAnswer> =>
  callMethod(app, name, body, { token, headers: { 'Idempotency-Key': randomUUID() } });

async function eurAccountOf(token: string): Promise<number> {
  const res = await callMethod(app, 'balanceInquiry', {}, { token });
  const eur = (res.body.accounts as { account: { accountId: number; currency: string }[] }).account.find((a) => a.currency === 'EUR');
  if (!eur) throw new Error('no EUR account');
  return eur.accountId;
}

async function lastMailCode(to: string): Promise<string> {
  const [row] = await t.db.select().from(outbox).where(and(eq(outbox.channel, 'mail'), eq(outbox.recipient, to))).orderBy(desc(outbox.id)).limit(1);
  const code = /is (\d{6})\./.exec(row?.body ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

describe('states {countryCode}', () => {
  it('lists the states of a country, none for a country without them, VF for a code that is no country; no sign-in needed', async () => {
    const us = await callMethod(app, 'states', { countryCode: 'us' });
    expect(us.body.responseCode).toBe('00');
    const list = us.body.states as { stateCode: string; stateName: string }[];
    expect(list).toHaveLength(51);
    expect(list).toContainEqual({ stateCode: 'NY', stateName: 'New York' });
    expect((await callMethod(app, 'states', { countryCode: 'LT' })).body).toEqual({ responseCode: '00', states: [] });
    expect((await callMethod(app, 'states', { countryCode: 'XX' })).body).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'countryCode', description: 'must be a country' }] });
    expect((await callMethod(app, 'states', { countryCode: 'USA' })).body).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'countryCode' }] });
  });
});

describe('beneficiaryList and paymentTemplateList', () => {
  it('need a sign-in and a sensible limit', async () => {
    for (const name of ['beneficiaryList', 'paymentTemplateList']) {
      expect((await callMethod(app, name, {})).status).toBe(401);
      expect((await callMethod(app, name, { limit: 0 }, { token: rita.accessToken })).body).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'limit' }] });
    }
  });

  it('list the p2p payees (one row per e-mail, latest first) and the saved templates (latest per name), of the caller only', async () => {
    const eur = await eurAccountOf(rita.accessToken);
    // rita's payments of the demo history to each payee (posted), counted with the new ones
    const [ritaUser] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, 'rita@demo.test'));
    const before = async (email: string) =>
      (await t.db.select({ id: transfers.id }).from(transfers).where(and(eq(transfers.customerId, ritaUser!.customerId), eq(transfers.kind, 'p2p'), eq(transfers.toEmail, email), inArray(transfers.status, ['posted', 'pending'])))).length;
    const tomBefore = await before('tom@demo.test');
    const borisBefore = await before('boris@demo.test');
    const send = (toEmail: string, amount: string, templateName?: string) =>
      money('transferP2p', { accountId: eur, amount, currency: 'EUR', toEmail, ...(templateName ? { templateName } : {}) }, rita.accessToken);
    expect((await send('tom@demo.test', '1.00', 'Tom lunch')).body.responseCode).toBe('00');
    expect((await send('boris@demo.test', '2.00')).body.responseCode).toBe('00');
    expect((await send('Tom@Demo.test', '3.50', 'Tom lunch')).body.responseCode).toBe('00');
    expect((await money('transferBetweenAccounts', { fromAccount: eur, toAccount: eur, toAmount: '1', currency: 'EUR' }, rita.accessToken)).body.responseCode).not.toBe('00');

    const payees = await callMethod(app, 'beneficiaryList', {}, { token: rita.accessToken });
    expect(payees.body.responseCode, JSON.stringify(payees.body)).toBe('00');
    // the two just paid come first; the payees of rita's demo history follow
    expect((payees.body.beneficiaries as unknown[]).slice(0, 2)).toMatchObject([
      { email: 'tom@demo.test', lastAmount: '3.50', currency: 'EUR', transferCount: tomBefore + 2 },
      { email: 'boris@demo.test', lastAmount: '2.00', transferCount: borisBefore + 1 },
    ]);
    const [tom] = payees.body.beneficiaries as { name: string | null }[];
    expect(tom!.name).toBeTruthy();
    expect((await callMethod(app, 'beneficiaryList', { search: 'bor' }, { token: rita.accessToken })).body.beneficiaries).toMatchObject([{ email: 'boris@demo.test' }]);
    expect((await callMethod(app, 'beneficiaryList', { limit: 1 }, { token: rita.accessToken })).body.beneficiaries).toHaveLength(1);

    const templates = await callMethod(app, 'paymentTemplateList', {}, { token: rita.accessToken });
    expect(templates.body).toMatchObject({
      responseCode: '00',
      templates: [{ templateName: 'Tom lunch', type: 'p2p', fromAccountId: eur, toAccountId: null, amount: '3.50', currency: 'EUR' }],
    });
    expect(templates.body.templates).toHaveLength(1);

    // Another customer sees none of it.
    expect((await callMethod(app, 'beneficiaryList', {}, { token: uma.accessToken })).body.beneficiaries).toEqual([]);
    expect((await callMethod(app, 'paymentTemplateList', {}, { token: uma.accessToken })).body.templates).toEqual([]);
  });
});

describe('usernameChangeRequestIdentityJob and usernameChangeRequestCompleted', () => {
  it('an unverified customer starts the identity job of a pending change, which completes once the identity is validated', async () => {
    const create = await callMethod(app, 'usernameChangeRequestCreate', { desiredUsername: 'uma.new@example.com' }, { token: uma.accessToken });
    expect(create.body.responseCode, JSON.stringify(create.body)).toBe('00');
    const requestId = (create.body.usernameChangeRequest as { requestId: number }).requestId;

    // Active (the code is not confirmed yet): neither call applies.
    expect((await callMethod(app, 'usernameChangeRequestIdentityJob', { requestId }, { token: uma.accessToken })).body).toMatchObject({ responseCode: 'TA1', validationErrors: [{ param: 'requestId', description: 'is active' }] });
    expect((await callMethod(app, 'usernameChangeRequestCompleted', { requestId }, { token: uma.accessToken })).body.responseCode).toBe('TA1');

    const confirmed = await callMethod(app, 'usernameChangeRequestEmailConfirm', { requestId, code: await lastMailCode('uma.new@example.com') }, { token: uma.accessToken });
    expect(confirmed.body).toMatchObject({ responseCode: '00', login: 'uma@demo.test', usernameChangeRequest: { status: 'pending' } });

    // Another user's request, an unknown one and a bad id.
    expect((await callMethod(app, 'usernameChangeRequestIdentityJob', { requestId }, { token: boris.accessToken })).body.responseCode).toBe('ENOA');
    expect((await callMethod(app, 'usernameChangeRequestCompleted', { requestId }, { token: boris.accessToken })).body.responseCode).toBe('ENOA');
    expect((await callMethod(app, 'usernameChangeRequestIdentityJob', { requestId: 0 }, { token: uma.accessToken })).body).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'requestId' }] });
    expect((await callMethod(app, 'usernameChangeRequestCompleted', { requestId })).status).toBe(401);

    const job = await callMethod(app, 'usernameChangeRequestIdentityJob', { requestId }, { token: uma.accessToken });
    expect(job.body).toMatchObject({ responseCode: '00', provider: 'review', usernameChangeRequest: { status: 'pending' } });
    const workflowRunId = job.body.workflowRunId as string;
    expect(job.body.url).toBe(`/identity-verification/${workflowRunId}/${job.body.token as string}`);
    const [stored] = await t.db.select().from(identityJobs).where(eq(identityJobs.workflowRunId, workflowRunId));
    expect(stored).toMatchObject({ kind: 'identity', status: 'pending' });
    expect(stored!.tokenHash).not.toBe(job.body.token);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.method, 'usernameChangeRequestIdentityJob')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit?.details).toMatchObject({ requestId, workflowRunId });

    // Not validated yet: the change waits, the login stays.
    const early = await callMethod(app, 'usernameChangeRequestCompleted', { requestId }, { token: uma.accessToken });
    expect(early.body).toMatchObject({ responseCode: 'TA1', responseDescription: 'The identity is not validated yet' });
    const [before] = await t.db.select().from(users).where(eq(users.email, 'uma@demo.test'));
    expect(before).toBeDefined();

    // The identity validated (as an administrator's decisions would leave it): the change completes.
    // A confirmed passport on file (what the administrator's decision leaves): the identity is validated.
    await t.db.insert(customerDocuments).values({
      customerId: before!.customerId,
      categoryId: 1,
      documentTypeId: 1,
      statusId: 2,
      number: 'LT7777777',
      issuedDate: '2022-03-01',
      expiresDate: '2032-03-01',
      createdUsername: 'uma@demo.test',
      fileName: 'passport.pdf',
      mimeType: 'application/pdf',
      sizeBytes: 4,
      sha256: '0'.repeat(64),
      content: Buffer.from('%PDF'),
    });
    const done = await callMethod(app, 'usernameChangeRequestCompleted', { requestId }, { token: uma.accessToken });
    expect(done.body, JSON.stringify(done.body)).toMatchObject({ responseCode: '00', completed: true, usernameChangeRequest: null, login: 'uma.new@example.com' });
    // Asked again: the same answer, nothing changes.
    expect((await callMethod(app, 'usernameChangeRequestCompleted', { requestId }, { token: uma.accessToken })).body).toMatchObject({ responseCode: '00', completed: true });
    const [row] = await t.db.select().from(usernameChangeRequests).where(eq(usernameChangeRequests.id, requestId));
    expect(row!.status).toBe('completed');
    // A completed request starts no job.
    expect((await callMethod(app, 'usernameChangeRequestIdentityJob', { requestId }, { token: uma.accessToken })).body.responseCode).toBe('ENOA');
  });
});

describe('POST verification/customer/{id}/verify', () => {
  const verify = (customerId: number | string, payload: Record<string, unknown>, token?: string) =>
    app.inject({
      method: 'POST',
      url: `${API_VERSION_PATH}/verification/customer/${customerId}/verify`,
      payload,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });
  const customerOf = async (email: string) => (await t.db.select().from(users).where(eq(users.email, email)))[0]!.customerId;

  it('needs a sign-in, the customer\'s own id (or one it acts for) and a valid body', async () => {
    const ritaId = await customerOf('rita@demo.test');
    const { challenge } = pkcePair();
    expect((await verify(ritaId, { type: 'camera', codeChallenge: challenge })).statusCode).toBe(401);
    const foreign = await verify(ritaId, { type: 'camera', codeChallenge: challenge }, boris.accessToken);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ responseCode: 'ENOA' });
    const bad = await verify(ritaId, { type: 'fax', codeChallenge: 'short' }, rita.accessToken);
    expect(bad.statusCode).toBe(400);
    expect((bad.json().validationErrors as { param: string }[]).map((e) => e.param).sort()).toEqual(['codeChallenge', 'type']);
    expect((await verify('abc', { type: 'camera', codeChallenge: challenge }, rita.accessToken)).statusCode).toBe(404);
  });

  it('camera answers the job\'s link; email sends it to the login address and answers only where', async () => {
    const ritaId = await customerOf('rita@demo.test');
    const camera = await verify(ritaId, { type: 'camera', captcha: 'ok', codeChallenge: pkcePair().challenge }, rita.accessToken);
    expect(camera.statusCode, camera.body).toBe(200);
    const c = camera.json();
    expect(c).toMatchObject({ responseCode: '00', provider: 'review', type: 'camera' });
    expect(c.url).toBe(`/identity-verification/${c.workflowRunId}/${c.token}`);
    const [job] = await t.db.select().from(identityJobs).where(eq(identityJobs.workflowRunId, c.workflowRunId));
    expect(job).toMatchObject({ customerId: ritaId, kind: 'identity', channel: 'camera', status: 'pending' });

    const email = await verify(ritaId, { type: 'email', codeChallenge: pkcePair().challenge }, rita.accessToken);
    expect(email.statusCode, email.body).toBe(200);
    const e = email.json();
    expect(e).toMatchObject({ responseCode: '00', type: 'email', sentTo: 'r***@demo.test' });
    expect(e.token).toBeUndefined();
    expect(e.url).toBeUndefined();
    const [mail] = await t.db.select().from(outbox).where(and(eq(outbox.channel, 'mail'), eq(outbox.recipient, 'rita@demo.test'))).orderBy(desc(outbox.id)).limit(1);
    expect(mail!.body).toContain(`/identity-verification/${e.workflowRunId}/`);
    // The new job replaced the camera one.
    const [replaced] = await t.db.select().from(identityJobs).where(eq(identityJobs.workflowRunId, c.workflowRunId));
    expect(replaced!.status).toBe('expired');
  });

  it('sms needs a confirmed primary phone (TA1, nothing started otherwise)', async () => {
    const ritaId = await customerOf('rita@demo.test');
    const before = await t.db.select().from(identityJobs).where(eq(identityJobs.customerId, ritaId));
    const sms = await verify(ritaId, { type: 'sms', codeChallenge: pkcePair().challenge }, rita.accessToken);
    expect(sms.statusCode).toBe(409);
    expect(sms.json()).toMatchObject({ responseCode: 'TA1', validationErrors: [{ param: 'type' }] });
    expect(await t.db.select().from(identityJobs).where(eq(identityJobs.customerId, ritaId))).toHaveLength(before.length);
  });
});

describe('POST /service/check-urls', () => {
  const check = (payload: unknown) => app.inject({ method: 'POST', url: `${API_VERSION_PATH}/service/check-urls`, payload: payload as Record<string, unknown> });

  it('says which URLs are public web addresses, without fetching them', async () => {
    const res = await check({ urls: ['https://northwind.example.com/about', 'ftp://files.example.com', 'http://localhost:3000', 'https://user:pw@example.com', 'http://10.0.0.1', 'not a url'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      responseCode: '00',
      urls: [
        { url: 'https://northwind.example.com/about', valid: true, reason: null },
        { url: 'ftp://files.example.com', valid: false, reason: 'notHttp' },
        { url: 'http://localhost:3000', valid: false, reason: 'notPublicHost' },
        { url: 'https://user:pw@example.com', valid: false, reason: 'credentials' },
        { url: 'http://10.0.0.1', valid: false, reason: 'notPublicHost' },
        { url: 'not a url', valid: false, reason: 'notUrl' },
      ],
    });
  });

  it('VF for no list, an empty one or too many', async () => {
    for (const payload of [{}, { urls: [] }, { urls: Array.from({ length: 21 }, (_, i) => `https://a${i}.example.com`) }, { urls: 'https://example.com' }]) {
      const res = await check(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'urls' }] });
    }
  });
});
