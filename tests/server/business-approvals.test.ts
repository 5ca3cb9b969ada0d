/**
 * Maker-checker approval of business payments (api/business-approvals.ts; issue 17 item 6) through
 * the real calls on the real database: ivy (Northwind's user with right 3, initiate) asks for
 * payments and a mass batch; they are held and wait; the owner or clerk (right 2) approves (their
 * own approval: none, or an approval code confirmed) or declines; ivy never decides her own; rights
 * 1, 3, 4 and 5 decide nothing; a request decided or expired is refused with nothing changed; the
 * transfers sweeper expires a waiting payment after 7 days, releasing its hold. After every test
 * the ledger reconciles (balanced legs, balances = legs, holds = pending transfers).
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUSINESS_APPROVAL_PAGE_SIZE, BUSINESS_REQUEST_TTL_DAYS } from '../../api/business-approvals.ts';
import { CardStatus } from '../../api/cards.ts';
import type { ApprovalRequest } from '../../api/devices.ts';
import { DEMO_MONEY_FLAGS, DEMO_PASSWORD, NORTHWIND_NAME, type DemoUser } from '../../server/db/demo-users.ts';
import { startJobQueue, type JobQueue } from '../../server/db/job-queue.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { reconcile } from '../../server/modules/accounts/ledger.ts';
import { hashPassword } from '../../server/modules/auth/crypto.ts';
import { customerAccess, customers, users } from '../../server/modules/customers/customers.tables.ts';
import { auditLog, outbox } from '../../server/modules/platform/platform.tables.ts';
import { eventFor } from '../../server/modules/push/push.server.ts';
import { createPayoutService, type PayoutService } from '../../server/modules/rails/payouts.service.ts';
import { createSimulator, DEFAULT_SIMULATOR_OPTIONS } from '../../server/modules/rails/simulator.ts';
import { drainRailJobs, RAIL_QUEUES } from '../../server/modules/rails/workers.ts';
import { businessTransactionRequests } from '../../server/modules/transfers/business-approvals.tables.ts';
import { dailyUsageProblems } from '../../server/modules/transfers/fees.ts';
import { transferBatches } from '../../server/modules/transfers/mass.tables.ts';
import { transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { expireDueTransfers } from '../../server/modules/transfers/workers.ts';
import { createTransferService } from '../../server/modules/transfers/transfers.service.ts';
import { callMethod, createTestApp, createTestDatabase, signIn, totpCode, type MethodAnswer, type TestApp } from './harness.ts';

let t: TestApp;
let queue: JobQueue;
let payouts: PayoutService;
let clockMs = Date.now();
const now = () => clockMs;

let northwindId: number;
let ivyUserId: number;
const tokens: Record<string, string> = {};
const IVY_TOTP = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const APPROVAL_CODE = '482915';

/** ivy: an authorised user of Northwind with right 3 (initiate), simple sign-in, her own authenticator. */
const ivy: DemoUser = {
  key: 'ivy' as DemoUser['key'],
  email: 'ivy@northwind.test',
  password: DEMO_PASSWORD,
  totpSecret: null,
  login2faMode: 'no',
  role: 'authorised-user',
  landing: 'account-chooser',
};
/** rhea: another authorised user, whose right each rights test sets (1, 3, 4, 5) */
const rhea: DemoUser = { ...ivy, key: 'rhea' as DemoUser['key'], email: 'rhea@northwind.test' };

async function addAuthorisedUser(who: DemoUser, rights: number, totpSecret: string | null): Promise<number> {
  const [customer] = await t.db
    .insert(customers)
    .values({ customerType: 'business', firstName: who.email.startsWith('ivy') ? 'Ivy' : 'Rhea', lastName: 'Initiator', verified: true })
    .returning();
  const [user] = await t.db
    .insert(users)
    .values({ email: who.email, passwordHash: await hashPassword(DEMO_PASSWORD), totpSecret, login2faMode: 'no', userType: 3, customerId: customer!.id })
    .returning();
  const flags = Object.fromEntries(DEMO_MONEY_FLAGS.map((f) => [f, true]));
  await t.db
    .insert(customerAccess)
    .values({ userId: user!.id, customerId: northwindId, accessRights: rights, moneyPermissions: flags, permissions: { balanceInfo: true, transfers: true } });
  await t.db.execute(
    sql`insert into terms_acceptances (customer_id, term_id, version) select ${customer!.id}::integer, term_id, version from terms_acceptances where customer_id = ${northwindId}::integer`,
  );
  return user!.id;
}

beforeAll(async () => {
  const database = await createTestDatabase({ demoData: 'without-history' });
  queue = await startJobQueue(database.open, RAIL_QUEUES, () => undefined);
  const simulator = createSimulator({
    ...DEFAULT_SIMULATOR_OPTIONS,
    sentAfterMs: 0,
    settleAfterMs: { wire: 0, eft: 0, oct: 0, digital: 0, instant: 0, interac: 0, funding: 0 },
    returnBasisPoints: 0,
  });
  payouts = createPayoutService({ queue, adapterOf: () => simulator, now });
  t = await createTestApp({ database, demo: true, payouts, now, transferWorkers: false });
  const [northwind] = await t.db.select({ id: customers.id }).from(customers).where(eq(customers.businessName, NORTHWIND_NAME));
  northwindId = northwind!.id;
  // Most tests: no approval mode, so a decision acts at once (one test sets approvalCode, one otp).
  await setMode('none');
  ivyUserId = await addAuthorisedUser(ivy, 3, IVY_TOTP);
  await addAuthorisedUser(rhea, 1, null);
  tokens.ivy = (await signIn(t.app, ivy)).accessToken;
  tokens.rhea = (await signIn(t.app, rhea)).accessToken;
  tokens.owner = (await signIn(t.app, 'owner', { totpTimeMs: clockMs })).accessToken;
  tokens.clerk = (await signIn(t.app, 'clerk', { totpTimeMs: clockMs })).accessToken;
  tokens.viewer = (await signIn(t.app, 'viewer', { totpTimeMs: clockMs })).accessToken;
}, 60_000);

afterAll(async () => {
  await queue?.stop();
  await t?.close();
});

afterEach(async () => {
  expect(await reconcile(t.db)).toEqual([]);
  expect(await dailyUsageProblems(t.db)).toEqual([]);
});

async function setMode(mode: 'none' | 'otp' | 'approvalCode' | 'push'): Promise<void> {
  await t.db.update(customers).set({ transactionApproveMode: mode }).where(eq(customers.id, northwindId));
}
async function setRights(email: string, rights: number): Promise<void> {
  const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  await t.db
    .update(customerAccess)
    .set({ accessRights: rights })
    .where(and(eq(customerAccess.userId, user!.id), eq(customerAccess.customerId, northwindId)));
}

/** A call acting for Northwind (the owner acts for it as their own customer). */
function call(who: string, name: string, body: Record<string, unknown> = {}): Promise<MethodAnswer> {
  const forNorthwind = who === 'owner' ? {} : { fromCustomerId: northwindId };
  return callMethod(t.app, name, { ...body, ...forNorthwind }, { token: tokens[who], headers: { 'Idempotency-Key': randomUUID() } });
}

async function northwindAccount(currency: string) {
  const [row] = await t.db
    .select()
    .from(accounts)
    .where(and(eq(accounts.customerId, northwindId), eq(accounts.currency, currency), eq(accounts.purpose, 'customer')));
  return row!;
}
async function transferRow(id: number) {
  const [row] = await t.db.select().from(transfers).where(eq(transfers.id, id));
  return row!;
}
async function requestRow(transferId: number) {
  const [row] = await t.db.select().from(businessTransactionRequests).where(eq(businessTransactionRequests.transferId, transferId));
  return row;
}

/** ivy sends rita 10.00 EUR (p2p): held, waiting for a checker. */
async function ivyPays(amount = '10.00'): Promise<number> {
  const eur = await northwindAccount('EUR');
  const res = await call('ivy', 'transferP2p', { accountId: eur.accountId, amount, currency: 'EUR', toEmail: 'rita@demo.test' });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', status: 'pending', approveType: 'none' });
  return res.body.transactionId as number;
}

function expectVf(res: MethodAnswer, param: string, code: string): void {
  expect(res.body.responseCode, JSON.stringify(res.body)).toBe('VF');
  expect((res.body.validationErrors as { param: string; code: string }[]).map((e) => [e.param, e.code])).toContainEqual([param, code]);
}

describe('a right-3 initiator’s payment waits for a checker', () => {
  it('is held, not posted, and listed for the owner with its initiator; the clerk (right 2) approves it and it posts', async () => {
    const eur = await northwindAccount('EUR');
    const id = await ivyPays('10.00');
    const waiting = await transferRow(id);
    expect(waiting.status).toBe('pending');
    expect(waiting.entryId).toBeNull();
    // amount + fee held on the company's account, balance unchanged
    const held = await northwindAccount('EUR');
    expect(held.balanceMinor).toBe(eur.balanceMinor);
    expect(held.pendingMinor).toBe(eur.pendingMinor + waiting.amountMinor + waiting.feeMinor);
    expect((await requestRow(id))!.status).toBe('waiting');
    // BUSINESS_REQUEST_TTL_DAYS from now
    expect(waiting.expiresAt.getTime()).toBe(clockMs + BUSINESS_REQUEST_TTL_DAYS * 86_400_000);

    const list = await call('owner', 'businessTransactionRequestList', {});
    expect(list.body.responseCode).toBe('00');
    expect(list.body.pageSize).toBe(BUSINESS_APPROVAL_PAGE_SIZE);
    const entry = (list.body.requests as { transactionId: number }[]).find((r) => r.transactionId === id);
    expect(entry).toMatchObject({
      kind: 'transfer',
      transferKind: 'p2p',
      amount: '10.00',
      currency: 'EUR',
      fromAccountId: eur.accountId,
      toEmail: 'rita@demo.test',
      initiatorName: 'Ivy Initiator',
      batchId: null,
    });

    const approved = await call('clerk', 'businessTransactionRequestApprove', { transactionIds: [id], declined: false });
    expect(approved.body, JSON.stringify(approved.body)).toMatchObject({ responseCode: '00', status: 'approved', transactionIds: [id] });
    expect((await transferRow(id)).status).toBe('posted');
    const after = await northwindAccount('EUR');
    expect(after.pendingMinor).toBe(eur.pendingMinor);
    expect(after.balanceMinor).toBe(eur.balanceMinor - waiting.amountMinor - waiting.feeMinor);
    const decided = (await requestRow(id))!;
    expect(decided.status).toBe('approved');
    // the decision is audited with its payments
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.method, 'businessTransactionRequestApprove'));
    expect(audits.some((a) => JSON.stringify(a.details).includes(`"transferIds":[${id}]`))).toBe(true);
    // no longer listed
    const again = await call('owner', 'businessTransactionRequestList', {});
    expect((again.body.requests as { transactionId: number }[]).some((r) => r.transactionId === id)).toBe(false);
  });

  it('declined by the owner: rejected, the hold released, nothing booked; a second decision is refused and changes nothing', async () => {
    const eur = await northwindAccount('EUR');
    const id = await ivyPays('7.00');
    const declined = await call('owner', 'businessTransactionRequestApprove', { transactionIds: [id], declined: true });
    expect(declined.body).toMatchObject({ responseCode: '00', status: 'declined', transactionIds: [id] });
    expect((await transferRow(id)).status).toBe('rejected');
    expect((await requestRow(id))!.status).toBe('declined');
    expect(await northwindAccount('EUR')).toMatchObject({ balanceMinor: eur.balanceMinor, pendingMinor: eur.pendingMinor });
    const twice = await call('clerk', 'businessTransactionRequestApprove', { transactionIds: [id], declined: false });
    expectVf(twice, 'transactionIds', 'businessRequestDecided');
    expect((await transferRow(id)).status).toBe('rejected');
  });

  it('all or nothing: a list with one decided id approves none of it', async () => {
    const first = await ivyPays('3.00');
    const second = await ivyPays('4.00');
    expect((await call('owner', 'businessTransactionRequestApprove', { transactionIds: [first], declined: true })).body.status).toBe('declined');
    const res = await call('owner', 'businessTransactionRequestApprove', { transactionIds: [second, first], declined: false });
    expectVf(res, 'transactionIds', 'businessRequestDecided');
    expect((await transferRow(second)).status).toBe('pending');
    expect((await requestRow(second))!.status).toBe('waiting');
    // an id that is not a waiting request of the company: unknown
    expectVf(await call('owner', 'businessTransactionRequestApprove', { transactionIds: [second, 999_999], declined: true }), 'transactionIds', 'businessRequestUnknown');
    expect((await transferRow(second)).status).toBe('pending');
    expect((await call('owner', 'businessTransactionRequestApprove', { transactionIds: [second], declined: true })).body.status).toBe('declined');
  });
});

describe('who decides', () => {
  it('the initiator never decides her own request, even once given full rights', async () => {
    const id = await ivyPays('2.00');
    await setRights(ivy.email, 2);
    try {
      expectVf(await call('ivy', 'businessTransactionRequestApprove', { transactionIds: [id], declined: false }), 'transactionIds', 'selfApproval');
      expectVf(await call('ivy', 'businessTransactionRequestApprove', { transactionIds: [id], declined: true }), 'transactionIds', 'selfApproval');
      expect((await transferRow(id)).status).toBe('pending');
    } finally {
      await setRights(ivy.email, 3);
    }
    expect((await call('owner', 'businessTransactionRequestApprove', { transactionIds: [id], declined: true })).body.status).toBe('declined');
  });

  it('rights 1 and 5 are refused by the rights table (13), 3 and 4 by the checker rule (13); nothing changes', async () => {
    const id = await ivyPays('2.50');
    for (const rights of [1, 3, 4, 5]) {
      await setRights(rhea.email, rights);
      for (const [name, body] of [
        ['businessTransactionRequestList', {}],
        ['businessTransactionRequestApprove', { transactionIds: [id], declined: false }],
        ['businessTransactionRequestApprove', { transactionIds: [id], declined: true }],
      ] as const) {
        expect((await call('rhea', name, body)).body.responseCode, `${name} with right ${rights}`).toBe('13');
      }
    }
    // ivy herself (right 3) may not even list
    expect((await call('ivy', 'businessTransactionRequestList', {})).body.responseCode).toBe('13');
    expect((await transferRow(id)).status).toBe('pending');
    expect((await call('owner', 'businessTransactionRequestApprove', { transactionIds: [id], declined: true })).body.status).toBe('declined');
  });

  it('right 4 (confirmed) pays at once, without a checker', async () => {
    await setRights(rhea.email, 4);
    const eur = await northwindAccount('EUR');
    const res = await call('rhea', 'transferP2p', { accountId: eur.accountId, amount: '1.00', currency: 'EUR', toEmail: 'rita@demo.test' });
    expect(res.body).toMatchObject({ responseCode: '00', status: 'posted' });
    expect(await requestRow(res.body.transactionId as number)).toBeUndefined();
  });
});

describe('the checker’s own approval', () => {
  it('approvalCode: the approval is started, a wrong code counts, the right one posts', async () => {
    await setMode('approvalCode');
    const [owner] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'owner@northwind.test'));
    await t.db
      .update(users)
      .set({ approvalCodeHash: await hashPassword(APPROVAL_CODE) })
      .where(eq(users.id, owner!.id));
    try {
      // ivy with a mode: her own approval first is hers (approveTransfer with her code), then it waits
      await t.db
        .update(users)
        .set({ approvalCodeHash: await hashPassword('13579') })
        .where(eq(users.id, ivyUserId));
      const eur = await northwindAccount('EUR');
      const asked = await call('ivy', 'transferP2p', { accountId: eur.accountId, amount: '5.00', currency: 'EUR', toEmail: 'rita@demo.test' });
      expect(asked.body).toMatchObject({ responseCode: '00', status: 'pending', approveType: 'approvalCode' });
      const id = asked.body.transactionId as number;
      expect(await requestRow(id)).toBeUndefined();
      const ivyApproved = await call('ivy', 'approveTransfer', { trxid: id, approvalCode: '13579' });
      expect(ivyApproved.body, JSON.stringify(ivyApproved.body)).toMatchObject({ responseCode: '00', status: 'pending' });
      expect((await requestRow(id))!.status).toBe('waiting');
      // her approval is spent: approving again is refused (TA1), still waiting
      expect((await call('ivy', 'approveTransfer', { trxid: id, approvalCode: '13579' })).body.responseCode).toBe('TA1');

      const started = await call('owner', 'businessTransactionRequestApprove', { transactionIds: [id], declined: false });
      expect(started.body).toMatchObject({ responseCode: '00', status: 'approvalNeeded', approveType: 'approvalCode', transactionIds: [id] });
      const approvalId = started.body.approvalId as number;
      expect((await transferRow(id)).status).toBe('pending');
      expectVf(await call('owner', 'businessApprovalConfirm', { approvalId, approvalCode: '000000' }), 'approvalCode', 'approvalCodeWrong');
      expect((await transferRow(id)).status).toBe('pending');
      // the clerk cannot confirm the owner's approval
      expectVf(await call('clerk', 'businessApprovalConfirm', { approvalId, approvalCode: APPROVAL_CODE }), 'approvalId', 'businessRequestUnknown');
      const done = await call('owner', 'businessApprovalConfirm', { approvalId, approvalCode: APPROVAL_CODE });
      expect(done.body, JSON.stringify(done.body)).toMatchObject({ responseCode: '00', status: 'approved', transactionIds: [id] });
      expect((await transferRow(id)).status).toBe('posted');
      expectVf(await call('owner', 'businessApprovalConfirm', { approvalId, approvalCode: APPROVAL_CODE }), 'approvalId', 'businessRequestDecided');
    } finally {
      await setMode('none');
    }
  });

  it('otp (Northwind’s demo mode): ivy approves with her authenticator, then it waits', async () => {
    await setMode('otp');
    try {
      const eur = await northwindAccount('EUR');
      const asked = await call('ivy', 'transferP2p', { accountId: eur.accountId, amount: '6.00', currency: 'EUR', toEmail: 'rita@demo.test' });
      expect(asked.body).toMatchObject({ responseCode: '00', status: 'pending', approveType: 'otp' });
      const id = asked.body.transactionId as number;
      const approved = await call('ivy', 'approveTransfer', { trxid: id, approvalCode: totpCode(IVY_TOTP, clockMs) });
      expect(approved.body, JSON.stringify(approved.body)).toMatchObject({ responseCode: '00', status: 'pending' });
      expect((await requestRow(id))!.status).toBe('waiting');
      expect((await call('clerk', 'businessTransactionRequestApprove', { transactionIds: [id], declined: true })).body.status).toBe('declined');
    } finally {
      await setMode('none');
    }
  });
});

describe('the checker approves on their phone (push)', () => {
  async function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { body?: unknown; token?: string } = {}): Promise<LightMyRequestResponse> {
    return t.app.inject({
      method,
      url,
      ...(options.body !== undefined ? { payload: options.body as Record<string, unknown> } : {}),
      headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    });
  }
  let deviceId: number;
  let deviceToken: string;
  beforeAll(async () => {
    // the owner links a phone (Northwind's approval mode is then push: a payment of theirs would be approved on it)
    const started = (await send('POST', '/auth/devices', { token: tokens.owner, body: { name: 'Owner phone' } })).json() as { device: { id: number }; code: string };
    const linked = await send('POST', `/auth/devices/${started.device.id}/approve`, { body: { code: started.code, type: 'android' } });
    expect(linked.statusCode, linked.body).toBe(200);
    deviceId = started.device.id;
    deviceToken = ((await send('POST', '/auth/token', { body: { secret: (linked.json() as { secret: string }).secret } })).json() as { accessToken: string }).accessToken;
  });
  afterAll(async () => {
    await setMode('none');
    expect((await send('DELETE', `/auth/devices/${deviceId}`, { token: tokens.owner })).statusCode).toBe(204);
  });
  async function phoneRequestFor(transactionId: number): Promise<ApprovalRequest> {
    const pending = (await send('GET', '/device-api/device', { token: deviceToken })).json() as { pending: ApprovalRequest[] };
    const request = pending.pending.find((r) => r.kind === 'transfer' && r.transfer?.transactionId === transactionId);
    expect(request, JSON.stringify(pending)).toBeDefined();
    return request!;
  }

  it('approved on the phone: the approval is push (not TA1), no code confirms it, the phone’s yes posts both payments once and is audited', async () => {
    const eur = await northwindAccount('EUR');
    // ivy asks while Northwind has no mode (hers would be push too); then the company approves on phones
    const first = await ivyPays('3.00');
    const second = await ivyPays('4.00');
    await setMode('push');
    const started = await call('owner', 'businessTransactionRequestApprove', { transactionIds: [second, first], declined: false });
    expect(started.body, JSON.stringify(started.body)).toMatchObject({ responseCode: '00', status: 'approvalNeeded', approveType: 'push', approvalSentTo: null });
    const approvalId = started.body.approvalId as number;
    // the phone shows what is approved: both payments' total
    const request = await phoneRequestFor(first);
    expect(request.transfer).toMatchObject({ transactionId: first, amount: '7.00', currency: 'EUR', payeeName: '2 payments' });
    // not confirmed by a code
    expect((await call('owner', 'businessApprovalConfirm', { approvalId, approvalCode: '123456' })).body.responseCode).toBe('TA1');
    expect((await transferRow(first)).status).toBe('pending');

    const events: { type: string }[] = [];
    const off = t.publisher.subscribe(northwindId, (e) => events.push(e));
    const answer = await send('PUT', `/auth/login/${encodeURIComponent(request.key)}/confirm`, { token: deviceToken, body: { result: true } });
    expect(answer.json()).toEqual({ result: true });
    expect((await transferRow(first)).status).toBe('posted');
    expect((await transferRow(second)).status).toBe('posted');
    expect((await requestRow(first))!).toMatchObject({ status: 'approved' });
    const after = await northwindAccount('EUR');
    expect(after.pendingMinor).toBe(eur.pendingMinor);
    // a second answer counts for nothing; the confirmation is spent
    expect((await send('PUT', `/auth/login/${encodeURIComponent(request.key)}/confirm`, { token: deviceToken, body: { result: true } })).json()).toEqual({ result: false });
    expectVf(await call('owner', 'businessApprovalConfirm', { approvalId, approvalCode: '123456' }), 'approvalId', 'businessRequestDecided');
    expect((await northwindAccount('EUR')).balanceMinor).toBe(after.balanceMinor);
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.method, 'businessApprovalConfirm'));
    expect(audits.some((a) => JSON.stringify(a.details).includes('"answeredOn":"phone"') && JSON.stringify(a.details).includes('"businessDecision":"approved"'))).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    off();
    expect(events).toContainEqual({ type: 'TransferApproval', transactionId: first, status: 'posted' });
  });

  it('declined on the phone: the payment is declined (rejected, the hold released)', async () => {
    await setMode('none');
    const eur = await northwindAccount('EUR');
    const id = await ivyPays('2.00');
    await setMode('push');
    const started = await call('owner', 'businessTransactionRequestApprove', { transactionIds: [id], declined: false });
    expect(started.body).toMatchObject({ status: 'approvalNeeded', approveType: 'push' });
    const request = await phoneRequestFor(id);
    expect(request.transfer).toMatchObject({ transactionId: id, amount: '2.00', currency: 'EUR', payeeName: 'rita@demo.test' });
    expect((await send('PUT', `/auth/login/${encodeURIComponent(request.key)}/confirm`, { token: deviceToken, body: { result: false } })).json()).toEqual({ result: true });
    expect((await transferRow(id)).status).toBe('rejected');
    expect((await requestRow(id))!.status).toBe('declined');
    expect(await northwindAccount('EUR')).toMatchObject({ balanceMinor: eur.balanceMinor, pendingMinor: eur.pendingMinor });
  });

  it('the clerk (right 2) without a linked phone gets TA1 and nothing changes', async () => {
    await setMode('none');
    const id = await ivyPays('1.50');
    await setMode('push');
    const res = await call('clerk', 'businessTransactionRequestApprove', { transactionIds: [id], declined: false });
    expect(res.body.responseCode).toBe('TA1');
    expect((await requestRow(id))!.status).toBe('waiting');
    await setMode('none');
    expect((await call('clerk', 'businessTransactionRequestApprove', { transactionIds: [id], declined: true })).body.status).toBe('declined');
  });
});

describe('mass batches', () => {
  it('a right-3 user’s batch waits and is listed with its count and total; approved as a whole, its rows are paid', async () => {
    const eur = await northwindAccount('EUR');
    const res = await call('ivy', 'massP2pText', { accountId: eur.accountId, text: 'email,amount\nrita@demo.test,4.00\nanna@demo.test,6.00\n' });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', status: 'pending' });
    const batchId = res.body.batchId as number;
    const requestTransfer = res.body.transactionId as number;
    await drainRailJobs(t.db, queue, payouts);
    expect((await transferRow(requestTransfer)).status).toBe('pending');
    const list = await call('clerk', 'businessTransactionRequestList', {});
    expect((list.body.requests as { batchId: number | null }[]).find((r) => r.batchId === batchId)).toMatchObject({
      kind: 'batch',
      count: 2,
      total: '10.00',
      transferKind: 'mass',
    });
    const approved = await call('clerk', 'businessMassApprove', { batchId, declined: false });
    expect(approved.body, JSON.stringify(approved.body)).toMatchObject({ responseCode: '00', status: 'approved', transactionIds: [requestTransfer] });
    await drainRailJobs(t.db, queue, payouts);
    const [batch] = await t.db.select().from(transferBatches).where(eq(transferBatches.id, batchId));
    expect(batch).toMatchObject({ doneCount: 2, failedCount: 0 });
    expect((await northwindAccount('EUR')).pendingMinor).toBe(eur.pendingMinor);
  });

  it('declined as a whole: nothing paid, the hold released; the initiator cannot decide it', async () => {
    const eur = await northwindAccount('EUR');
    const res = await call('ivy', 'massP2pText', { accountId: eur.accountId, text: 'email,amount\nrita@demo.test,2.00\n' });
    const batchId = res.body.batchId as number;
    // ivy given full rights still never decides her own batch
    await setRights(ivy.email, 2);
    try {
      expectVf(await call('ivy', 'businessMassApprove', { batchId, declined: true }), 'batchId', 'selfApproval');
    } finally {
      await setRights(ivy.email, 3);
    }
    expect((await call('owner', 'businessMassApprove', { batchId, declined: true })).body.status).toBe('declined');
    await drainRailJobs(t.db, queue, payouts);
    const [batch] = await t.db.select().from(transferBatches).where(eq(transferBatches.id, batchId));
    expect(batch).toMatchObject({ doneCount: 0 });
    expect((await transferRow(res.body.transactionId as number)).status).toBe('rejected');
    expect(await northwindAccount('EUR')).toMatchObject({ balanceMinor: eur.balanceMinor, pendingMinor: eur.pendingMinor });
    expectVf(await call('owner', 'businessMassApprove', { batchId: 999_999, declined: true }), 'batchId', 'businessRequestUnknown');
  });
});

describe('global-pay batches', () => {
  it('a right-3 user’s global payment waits for a checker (not 13); approved, its payee is mailed once and the money stays held for them', async () => {
    const eur = await northwindAccount('EUR');
    const email = 'gwen.global@example.com';
    const res = await call('ivy', 'globalPayP2pSubmit', {
      accountId: eur.accountId,
      beneficiaryName: 'Gwen Global',
      beneficiaryEmail: email,
      beneficiaryCountryCode: 'DE',
      amount: '20.00',
      description: 'Invoice 7',
    });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', status: 'pending', approveType: 'none' });
    const id = res.body.transactionId as number;
    expect((await requestRow(id))!.status).toBe('waiting');
    const held = (await northwindAccount('EUR')).pendingMinor - eur.pendingMinor;
    expect(held).toBeGreaterThan(0n);
    expect(await t.db.select().from(outbox).where(eq(outbox.recipient, email))).toEqual([]);
    const list = await call('clerk', 'businessTransactionRequestList', {});
    expect((list.body.requests as { transactionId: number }[]).find((r) => r.transactionId === id)).toMatchObject({
      kind: 'batch',
      batchId: null,
      transferKind: 'globalPay',
      count: 1,
      amount: '20.00',
    });
    const approved = await call('clerk', 'businessTransactionRequestApprove', { transactionIds: [id], declined: false });
    expect(approved.body, JSON.stringify(approved.body)).toMatchObject({ responseCode: '00', status: 'approved', transactionIds: [id] });
    // released once: processing (its payee chooses how to take it), one e-mail with the link, the money still held for the payee
    expect((await transferRow(id)).status).toBe('processing');
    expect(await t.db.select().from(outbox).where(eq(outbox.recipient, email))).toHaveLength(1);
    expect((await northwindAccount('EUR')).pendingMinor - eur.pendingMinor).toBe(held);
    expectVf(await call('owner', 'businessTransactionRequestApprove', { transactionIds: [id], declined: false }), 'transactionIds', 'businessRequestDecided');
    expect(await t.db.select().from(outbox).where(eq(outbox.recipient, email))).toHaveLength(1);
    // the sender takes it back: the hold released
    const batchId = res.body.batchId as number;
    expect((await call('owner', 'globalPayBatchCancel', { batchId })).body.responseCode).toBe('00');
    expect((await northwindAccount('EUR')).pendingMinor).toBe(eur.pendingMinor);
  });

  it('declined by a checker: nobody is mailed, the hold released', async () => {
    const eur = await northwindAccount('EUR');
    const email = 'dora.declined@example.com';
    const res = await call('ivy', 'globalPayP2pSubmit', { accountId: eur.accountId, beneficiaryName: 'Dora Declined', beneficiaryEmail: email, beneficiaryCountryCode: 'DE', amount: '15.00' });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', status: 'pending' });
    const id = res.body.transactionId as number;
    expect((await call('owner', 'businessTransactionRequestApprove', { transactionIds: [id], declined: true })).body.status).toBe('declined');
    expect((await transferRow(id)).status).toBe('rejected');
    expect(await t.db.select().from(outbox).where(eq(outbox.recipient, email))).toEqual([]);
    expect(await northwindAccount('EUR')).toMatchObject({ balanceMinor: eur.balanceMinor, pendingMinor: eur.pendingMinor });
  });
});

describe('card applications', () => {
  let residence: string | null = null;
  beforeAll(async () => {
    // Northwind orders Italy's cards here (the demo company has no residence country of its own)
    const [row] = await t.db.select({ residence: customers.residenceCountryCode }).from(customers).where(eq(customers.id, northwindId));
    residence = row!.residence;
    await t.db.update(customers).set({ residenceCountryCode: 'IT', verified: true }).where(eq(customers.id, northwindId));
  });
  afterAll(async () => {
    await t.db.update(customers).set({ residenceCountryCode: residence }).where(eq(customers.id, northwindId));
  });

  /** a virtual card Northwind may order in EUR (its country's products) */
  async function virtualEurType(): Promise<number> {
    const info = await call('owner', 'applyForCardInfo', {});
    expect(info.body.responseCode, JSON.stringify(info.body)).toBe('00');
    const product = (info.body.products as { type: number; isVirtual: boolean; currencyCode: string; disabledReasons: string[] }[]).find(
      (p) => p.currencyCode === 'EUR' && p.isVirtual && p.disabledReasons.length === 0,
    );
    expect(product, JSON.stringify(info.body.products)).toBeDefined();
    return product!.type;
  }

  it('a right-3 user’s card order for the company waits for a checker (its fee held, the card not issued); approved, the fee is booked once and the card is active', async () => {
    const eur = await northwindAccount('EUR');
    const type = await virtualEurType();
    const res = await call('ivy', 'cardApply', { type, feeAccountId: eur.accountId });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', status: 'pending', approveType: 'none', accountStatusId: CardStatus.pendingApproval });
    const id = res.body.transactionId as number;
    expect((await requestRow(id))!.status).toBe('waiting');
    const fee = await transferRow(id);
    expect(fee.kind).toBe('cardFee');
    expect((await northwindAccount('EUR')).pendingMinor).toBe(eur.pendingMinor + fee.amountMinor);
    const approved = await call('clerk', 'businessTransactionRequestApprove', { transactionIds: [id], declined: false });
    expect(approved.body, JSON.stringify(approved.body)).toMatchObject({ responseCode: '00', status: 'approved' });
    expect((await transferRow(id)).status).toBe('posted');
    const [card] = await t.db.select().from(accounts).where(eq(accounts.accountId, res.body.accountId as number));
    expect(card!.status).toBe(CardStatus.active);
    expect(await northwindAccount('EUR')).toMatchObject({ balanceMinor: eur.balanceMinor - fee.amountMinor, pendingMinor: eur.pendingMinor });
  });

  it('declined: the card is canceled and the fee’s hold released', async () => {
    const eur = await northwindAccount('EUR');
    const res = await call('ivy', 'cardApply', { type: await virtualEurType(), feeAccountId: eur.accountId });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', status: 'pending' });
    expect((await call('owner', 'businessTransactionRequestApprove', { transactionIds: [res.body.transactionId], declined: true })).body.status).toBe('declined');
    const [card] = await t.db.select().from(accounts).where(eq(accounts.accountId, res.body.accountId as number));
    expect(card!.status).toBe(CardStatus.canceled);
    expect(await northwindAccount('EUR')).toMatchObject({ balanceMinor: eur.balanceMinor, pendingMinor: eur.pendingMinor });
  });
});

describe('notices (CustomerNotification, each to one user on their own customer’s channel)', () => {
  type Notice = { type: string; notificationType?: string; status?: string; title?: string; body?: string; forUserIds?: number[] };
  async function userRow(email: string) {
    const [row] = await t.db.select({ id: users.id, customerId: users.customerId }).from(users).where(eq(users.email, email));
    return row!;
  }
  /** Listens on the channels of these customers while `run` runs; the notices heard, by channel. */
  async function heard(customerIds: number[], run: () => Promise<void>): Promise<Map<number, Notice[]>> {
    const got = new Map<number, Notice[]>(customerIds.map((id) => [id, []]));
    const offs = customerIds.map((id) => t.publisher.subscribe(id, (e) => void (e.type === 'CustomerNotification' && got.get(id)!.push(e as Notice))));
    try {
      await run();
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      for (const off of offs) off();
    }
    return got;
  }

  it('a payment waiting: the owner and the clerk (right 2) are told, each on their own channel; not ivy, not the viewer', async () => {
    const owner = await userRow('owner@northwind.test');
    const clerk = await userRow('clerk@northwind.test');
    const viewer = await userRow('viewer@northwind.test');
    const ivyRow = await userRow(ivy.email);
    let id = 0;
    const got = await heard([northwindId, clerk.customerId, viewer.customerId, ivyRow.customerId], async () => {
      id = await ivyPays('12.00');
    });
    expect(got.get(northwindId)).toEqual([
      expect.objectContaining({ notificationType: 'businessPaymentWaiting', status: 'waiting', title: 'A payment waits for your approval', forUserIds: [owner.id] }),
    ]);
    expect(got.get(northwindId)![0]!.body).toContain('Ivy Initiator asked to pay 12.');
    expect(got.get(clerk.customerId)).toEqual([expect.objectContaining({ notificationType: 'businessPaymentWaiting', forUserIds: [clerk.id] })]);
    expect(got.get(viewer.customerId)).toEqual([]);
    expect(got.get(ivyRow.customerId)).toEqual([]);

    // decided: ivy is told, on her own channel only
    const decided = await heard([northwindId, clerk.customerId, ivyRow.customerId], async () => {
      expect((await call('clerk', 'businessTransactionRequestApprove', { transactionIds: [id], declined: false })).body.status).toBe('approved');
    });
    expect(decided.get(ivyRow.customerId)).toEqual([
      expect.objectContaining({ notificationType: 'businessPaymentDecided', status: 'approved', title: 'Your payment was approved', forUserIds: [ivyUserId] }),
    ]);
    expect(decided.get(northwindId)).toEqual([]);
    expect(decided.get(clerk.customerId)).toEqual([]);
  });

  it('declined, and expired: ivy is told', async () => {
    const ivyRow = await userRow(ivy.email);
    const id = await ivyPays('2.20');
    // in her settings language
    await t.db.update(customers).set({ language: 'ru' }).where(eq(customers.id, ivyRow.customerId));
    try {
      const declined = await heard([ivyRow.customerId], async () => {
        expect((await call('owner', 'businessTransactionRequestApprove', { transactionIds: [id], declined: true })).body.status).toBe('declined');
      });
      expect(declined.get(ivyRow.customerId)).toEqual([expect.objectContaining({ status: 'declined', title: 'Ваш платёж отклонён', forUserIds: [ivyUserId] })]);
      expect(declined.get(ivyRow.customerId)![0]!.body).toMatch(/^Запрошенный вами платёж 2\.\d\d EUR со счёта Northwind Trading Ltd отклонён/);
    } finally {
      await t.db.update(customers).set({ language: 'en' }).where(eq(customers.id, ivyRow.customerId));
    }

    await ivyPays('2.30');
    const later = clockMs + BUSINESS_REQUEST_TTL_DAYS * 86_400_000 + 1000;
    // the sweeper with a publisher (the app's; the workers' default has none)
    const sweeper = createTransferService({ now: () => later, approvals: null, publisher: t.publisher });
    const expired = await heard([ivyRow.customerId], async () => {
      expect(await expireDueTransfers(t.db, later, sweeper)).toBeGreaterThanOrEqual(1);
    });
    expect(expired.get(ivyRow.customerId)).toEqual([expect.objectContaining({ status: 'expired', title: 'Your payment expired', forUserIds: [ivyUserId] })]);
  });

  it('a socket gets an event naming users only when its user is one of them, without the names', () => {
    const event = { type: 'CustomerNotification', status: 'waiting', forUserIds: [7] };
    expect(eventFor(event, 7)).toEqual({ type: 'CustomerNotification', status: 'waiting' });
    expect(eventFor(event, 8)).toBeNull();
    expect(eventFor(event, undefined)).toBeNull();
    expect(eventFor({ type: 'TransferApproval', transactionId: 1 }, 8)).toEqual({ type: 'TransferApproval', transactionId: 1 });
  });
});

describe('expiry', () => {
  it('after 7 days the sweeper expires a waiting payment: the hold released, the request expired, a decision refused', async () => {
    const eur = await northwindAccount('EUR');
    const id = await ivyPays('8.00');
    clockMs += BUSINESS_REQUEST_TTL_DAYS * 86_400_000 - 1000;
    // not yet: the transfers sweeper leaves it
    expect(await expireDueTransfers(t.db, clockMs)).toBe(0);
    clockMs += 2000;
    // due but not swept: a decision is refused as expired, nothing changes
    tokens.clerk = (await signIn(t.app, 'clerk', { totpTimeMs: clockMs })).accessToken;
    expectVf(await call('clerk', 'businessTransactionRequestApprove', { transactionIds: [id], declined: false }), 'transactionIds', 'businessRequestExpired');
    expect((await transferRow(id)).status).toBe('pending');
    expect(await expireDueTransfers(t.db, clockMs)).toBe(1);
    expect((await transferRow(id)).status).toBe('expired');
    expect((await requestRow(id))!.status).toBe('expired');
    expect(await northwindAccount('EUR')).toMatchObject({ balanceMinor: eur.balanceMinor, pendingMinor: eur.pendingMinor });
    expectVf(await call('clerk', 'businessTransactionRequestApprove', { transactionIds: [id], declined: true }), 'transactionIds', 'businessRequestExpired');
  });
});
