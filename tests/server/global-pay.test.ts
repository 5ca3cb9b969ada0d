/**
 * Global pay (api/global-pay.ts; issue 15 §5) through the real calls on the real database and job
 * queue, the rails' simulator settling: an upload (per-row VF, the identical file answered '92'
 * until confirmed), a draft's edits (add, update, remove, restore, fee side, forbidden method),
 * submit and approval (the total held with the largest allowed fee, each beneficiary e-mailed its
 * link), the payee's steps with the secret (wrong secrets refused alike and rate-limited, another
 * payment's secret useless), taking by card and by IBAN with the e-mailed code and the payout
 * settling, a single payment approved by SMS and refused (money back), expiry (money back), the
 * sender told when a batch ends with payments unpaid (batchPartial: refused, returned, expired); the
 * ledger's invariants after each. The batches list (batchTransferList, batchFileView kind global):
 * the submitted batches with the mass ones, newest first and paged, with counts and statuses.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION_PATH } from '../../api/http.ts';
import { GLOBAL_PAY_SECRET_LIMITS } from '../../api/global-pay.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { startJobQueue, type JobQueue } from '../../server/db/job-queue.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { users } from '../../server/modules/customers/customers.tables.ts';
import { notifications } from '../../server/modules/notifications/notifications.tables.ts';
import { currencyTotals, reconcile } from '../../server/modules/accounts/ledger.ts';
import { outbox } from '../../server/modules/platform/platform.tables.ts';
import { createPayoutService, type PayoutService } from '../../server/modules/rails/payouts.service.ts';
import { createSimulator, DEFAULT_SIMULATOR_OPTIONS } from '../../server/modules/rails/simulator.ts';
import { drainRailJobs, RAIL_QUEUES } from '../../server/modules/rails/workers.ts';
import { dailyUsageProblems } from '../../server/modules/transfers/fees.ts';
import { globalPayBatches, globalPayments } from '../../server/modules/transfers/global-pay.tables.ts';
import { expireDueGlobalPayments } from '../../server/modules/transfers/global-pay.service.ts';
import { transfers } from '../../server/modules/transfers/transfers.tables.ts';
import type { TransferPublisher } from '../../server/modules/transfers/transfers.service.ts';
import { callMethod, callMultipart, createTestApp, createTestDatabase, signIn, type MethodAnswer, type TestApp } from './harness.ts';

let t: TestApp;
let queue: JobQueue;
let payouts: PayoutService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  const database = await createTestDatabase({ demoData: 'without-history' });
  queue = await startJobQueue(database.open, RAIL_QUEUES, () => undefined);
  const simulator = createSimulator({ ...DEFAULT_SIMULATOR_OPTIONS, sentAfterMs: 0, settleAfterMs: { wire: 0, eft: 0, oct: 0, digital: 0, instant: 0, interac: 0, funding: 0 }, returnBasisPoints: 0 });
  payouts = createPayoutService({ queue, adapterOf: () => simulator, now: Date.now });
  t = await createTestApp({ database, demo: true, payouts });
  for (const who of ['rita', 'tom'] as const) tokens[who] = (await signIn(t.app, who)).accessToken;
}, 60_000);
afterAll(async () => {
  await queue?.stop();
  await t?.close();
});

const key = () => `k-${Math.random().toString(36).slice(2)}`;
const call = (who: string, name: string, body: Record<string, unknown> = {}) => callMethod(t.app, name, body, { token: tokens[who], headers: { 'idempotency-key': key() } });
/** A payee's call: no sign-in, the payment and its secret. */
const payee = (name: string, link: { paymentId: number; secret: string }, body: Record<string, unknown> = {}) => callMethod(t.app, name, { paymentId: link.paymentId, secret: link.secret, ...body });

function upload(who: string, data: Record<string, unknown>, file: string): Promise<MethodAnswer> {
  return callMultipart(t.app, 'globalPayUpload', data, [{ field: 'file', fileName: 'global.csv', content: file, mime: 'text/csv' }], { token: tokens[who], idempotencyKey: key() });
}

async function accountOf(who: keyof typeof demoUserByKey, currency: string) {
  const answer = (await callMethod(t.app, 'balanceInquiry', {}, { token: tokens[who] })).body as unknown as { accounts: { account: { accountId: number; currency: string }[] } };
  return answer.accounts.account.find((a) => a.currency === currency)!;
}
async function held(accountId: number) {
  const [row] = await t.db.select({ balance: accounts.balanceMinor, pending: accounts.pendingMinor }).from(accounts).where(eq(accounts.accountId, accountId));
  return row!;
}
/** publisher: what the rails' worker pushes (a recorder: the pushes as published, no waiting for a socket) */
const drain = (publisher: TransferPublisher | null = null) => drainRailJobs(t.db, queue, payouts, undefined, publisher);
type Pushed = { customerId: number; event: Record<string, unknown> };
function pushRecorder(): TransferPublisher & { pushed: Pushed[] } {
  const pushed: Pushed[] = [];
  return { pushed, publish: async (customerId, event) => void pushed.push({ customerId, event }) };
}
const partialNotices = (pushed: Pushed[]) => pushed.filter((p) => p.event.notificationType === 'batchPartial');
async function customerIdOf(who: keyof typeof demoUserByKey): Promise<number> {
  const [user] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, demoUserByKey[who].email));
  return user!.customerId;
}
/** The batchPartial notifications kept for a customer's global-pay batch (the centre's rows). */
async function partialRows(customerId: number, id: number) {
  const rows = await t.db.select({ params: notifications.params }).from(notifications).where(and(eq(notifications.customerId, customerId), eq(notifications.type, 'batchPartial')));
  return rows.map((r) => r.params).filter((p) => p.batchKind === 'global' && JSON.parse(String(p.target)).batchId === id);
}

async function expectClean() {
  expect(await reconcile(t.db)).toEqual([]);
  expect(await dailyUsageProblems(t.db)).toEqual([]);
  for (const [currency, totals] of await currencyTotals(t.db)) expect(totals.legs, currency).toBe(0n);
}

function errorsOf(res: MethodAnswer): { param: string; code: string }[] {
  expect(res.body.responseCode, JSON.stringify(res.body)).toBe('VF');
  return (res.body.validationErrors as { param: string; code: string }[]).map((e) => ({ param: e.param, code: e.code }));
}

async function mailsTo(address: string) {
  return t.db.select().from(outbox).where(eq(outbox.recipient, address)).orderBy(desc(outbox.id));
}
/** The link of the last e-mail to a beneficiary: /receive/{paymentId}?s=<secret>. */
async function linkOf(address: string): Promise<{ paymentId: number; secret: string }> {
  for (const mail of await mailsTo(address)) {
    const found = /\/receive\/(\d+)\?s=([A-Za-z0-9_-]+)/.exec(mail.body);
    if (found) return { paymentId: Number(found[1]), secret: found[2]! };
  }
  throw new Error(`no link mailed to ${address}`);
}
async function codeOf(address: string): Promise<string> {
  const [mail] = await mailsTo(address);
  const found = /Your confirmation code: (\d{6})/.exec(mail?.subject ?? '');
  if (!found) throw new Error(`no code mailed to ${address}`);
  return found[1]!;
}
async function lastSmsCode(): Promise<string> {
  const [sms] = await t.db.select().from(outbox).where(eq(outbox.channel, 'sms')).orderBy(desc(outbox.id)).limit(1);
  return /^(\d{6})/.exec(sms?.body ?? '')![1]!;
}

const HEADER = 'beneficiaryName,beneficiaryEmail,beneficiaryCountryCode,amount,description,feeShare';
const FILE = `${HEADER}\r\nErika Mustermann,erika@example.com,DE,200.00,Invoice 1,sender\r\nHans Meier,hans@example.com,DE,50.00,Invoice 2,beneficiary\r\nJane Roe,jane@example.com,DE,30.00,Invoice 3,\r\n`;

let batchId = 0;
let transactionId = 0;
const ids: Record<'erika' | 'hans' | 'jane', number> = { erika: 0, hans: 0, jane: 0 };
type Batch = { status: string; count: number; total: string; fee: string; payments: { id: number; beneficiaryEmail: string; status: string; feeShare: string; amount: string; heldFee: string; paymentMethods: { name: string; forbidden: boolean }[] }[] };

describe('the sender', () => {
  it('uploads a file: per-row VF with nothing written; a draft; the identical file answers 92 until confirmed', async () => {
    const eur = await accountOf('rita', 'EUR');
    const before = await held(eur.accountId);
    const batches = async () => (await t.db.select({ id: globalPayBatches.id }).from(globalPayBatches)).length;
    const bad = await upload('rita', { accountId: eur.accountId, batchName: 'March' }, `${HEADER}\nA,not-an-email,DE,10.00,x,\nB,b@example.com,ZZ,10.00,y,\nC,c@example.com,DE,1.001,z,nobody\n`);
    expect(errorsOf(bad)).toEqual([
      { param: 'rows.2.beneficiaryEmail', code: 'notEmail' },
      { param: 'rows.3.beneficiaryCountryCode', code: 'notAllowed' },
      { param: 'rows.4.feeShare', code: 'notAllowed' },
      { param: 'rows.4.amount', code: 'maxDecimals' },
    ]);
    expect(errorsOf(await upload('rita', { accountId: eur.accountId, batchName: 'March' }, 'beneficiaryName,amount\nA,1.00\n'))).toContainEqual({ param: 'file', code: 'csvMissingColumn' });
    expect(await batches()).toBe(0);

    const created = await upload('rita', { accountId: eur.accountId, batchName: 'March' }, FILE);
    expect(created.body, JSON.stringify(created.body)).toMatchObject({ responseCode: '00', batchId: expect.any(Number), result: { count: 3, total: '280.00', currency: 'EUR', status: 'draft' } });
    batchId = created.body.batchId as number;
    expect(await held(eur.accountId)).toEqual(before);

    const again = await upload('rita', { accountId: eur.accountId, batchName: 'March again' }, FILE);
    expect(again.body).toMatchObject({ responseCode: '92', batchId, date: created.body.date, result: null });
    expect(await batches()).toBe(1);
    const confirmed = await upload('rita', { accountId: eur.accountId, batchName: 'March again', ignoreIdenticalBatch: true }, FILE);
    expect(confirmed.body).toMatchObject({ responseCode: '00', result: { count: 3 } });
    expect(confirmed.body.batchId).not.toBe(batchId);
    const rejected = await call('rita', 'globalPayBatchReject', { batchId: confirmed.body.batchId });
    expect((rejected.body.batch as Batch).status).toBe('rejected');
    expect((await call('rita', 'globalPayBatchSubmit', { batchId: confirmed.body.batchId })).body.responseCode).toBe('TA1');
    // another customer's batch is unknown to them
    expect((await call('tom', 'globalPayBatchGet', { batchId })).body.responseCode).toBe('ENOA');
  });

  it('edits a draft: add, update, remove, restore, fee side, a forbidden method', async () => {
    const get = async () => (await call('rita', 'globalPayBatchGet', { batchId })).body.batch as Batch;
    const batch = await get();
    for (const p of batch.payments) ids[p.beneficiaryEmail.split('@')[0] as keyof typeof ids] = p.id;
    expect(batch.payments.map((p) => [p.beneficiaryEmail, p.feeShare, p.status])).toEqual([
      ['erika@example.com', 'sender', 'draft'],
      ['hans@example.com', 'beneficiary', 'draft'],
      ['jane@example.com', 'sender', 'draft'],
    ]);
    expect(batch.payments[0]!.paymentMethods).toEqual(expect.arrayContaining([{ name: 'oct', forbidden: false }, { name: 'wire', forbidden: false }, { name: 'eft', forbidden: false }]));

    const added = await call('rita', 'globalPayBatchAdd', { batchId, payment: { beneficiaryName: 'Extra', beneficiaryEmail: 'extra@example.com', beneficiaryCountryCode: 'FR', amount: '5.00' } });
    expect((added.body.batch as Batch).count).toBe(4);
    const extra = (added.body.batch as Batch).payments.find((p) => p.beneficiaryEmail === 'extra@example.com')!;
    const updated = await call('rita', 'globalPayBatchUpdate', { batchId, payment: { id: extra.id, beneficiaryName: 'Extra', beneficiaryEmail: 'extra@example.com', beneficiaryCountryCode: 'FR', amount: '7.00' } });
    expect((updated.body.batch as Batch).total).toBe('287.00');
    const removed = await call('rita', 'globalPayBatchRemove', { batchId, id: extra.id });
    expect((removed.body.batch as Batch).payments.find((p) => p.id === extra.id)!.status).toBe('deleted');
    expect((removed.body.batch as Batch).count).toBe(3);
    const restored = await call('rita', 'globalPayBatchRestore', { batchId, id: extra.id });
    expect((restored.body.batch as Batch).count).toBe(4);
    const bad = await call('rita', 'globalPayUpdatePayments', { batchId, updates: [{ id: extra.id, beneficiaryName: 'Extra', beneficiaryEmail: 'extra@example.com', beneficiaryCountryCode: 'FR', amount: '0' }], deletes: [999999] });
    expect(errorsOf(bad)).toEqual([
      { param: 'updates.0.amount', code: 'positive' },
      { param: 'deletes.0', code: 'invalid' },
    ]);
    const many = await call('rita', 'globalPayUpdatePayments', { batchId, deletes: [extra.id] });
    expect((many.body.batch as Batch).count).toBe(3);

    const side = await call('rita', 'globalPaySetFeeSide', { batchId, list: [ids.jane], feeShare: 'beneficiary' });
    expect((side.body.batch as Batch).payments.find((p) => p.id === ids.jane)!.feeShare).toBe('beneficiary');
    await call('rita', 'globalPaySetFeeSide', { batchId, list: [ids.jane], feeShare: 'sender' });
    const forbidden = await call('rita', 'globalPaySetMethodForbidden', { batchId, list: [ids.jane], forbidden: true, paymentMethod: 'wire' });
    expect(forbidden.body.responseCode, JSON.stringify(forbidden.body)).toBe('00');
    const jane = (forbidden.body.batch as Batch).payments.find((p) => p.id === ids.jane)!;
    expect(jane.paymentMethods).toContainEqual({ name: 'wire', forbidden: true });
    expect(jane.paymentMethods).toContainEqual({ name: 'oct', forbidden: false });
    expect((await call('rita', 'globalPayCountryMethods', { countryCode: 'DE', currencyCode: 'EUR' })).body.methods).toEqual(expect.arrayContaining(['wire', 'eft', 'oct']));
  });

  it('submits: the amounts plus the largest allowed fee held; approved (mode none) each beneficiary is e-mailed its own link', async () => {
    const eur = await accountOf('rita', 'EUR');
    const before = await held(eur.accountId);
    // a payment above a method's per-payment limit (10,000.00) is refused, nothing held
    const big = ((await call('rita', 'globalPayBatchAdd', { batchId, payment: { beneficiaryName: 'Big', beneficiaryEmail: 'big@example.com', beneficiaryCountryCode: 'DE', amount: '20000.00' } })).body.batch as Batch).payments.find(
      (p) => p.beneficiaryEmail === 'big@example.com',
    )!;
    expect(errorsOf(await call('rita', 'globalPayBatchSubmit', { batchId }))).toEqual([{ param: `payments.${big.id}.amount`, code: 'aboveMaximum' }]);
    expect(await held(eur.accountId)).toEqual(before);
    await call('rita', 'globalPayBatchRemove', { batchId, id: big.id });
    const res = await call('rita', 'globalPayBatchSubmit', { batchId });
    // erika 200.00 + wire 5.00; hans 50.00 (he pays his fee); jane 30.00 + card 1 % at least 1.00 (wire forbidden)
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', status: 'processing', approveType: 'none', amount: '280.00', fee: '6.00', batchId });
    transactionId = res.body.transactionId as number;
    expect(await held(eur.accountId)).toEqual({ balance: before.balance, pending: before.pending + 28_600n });
    await expectClean();
    const batch = (await call('rita', 'globalPayBatchGet', { batchId })).body.batch as Batch;
    expect(batch.status).toBe('processing');
    expect(batch.payments.filter((p) => p.status !== 'deleted').map((p) => [p.status, p.heldFee])).toEqual([
      ['waiting', '5.00'],
      ['waiting', '0.00'],
      ['waiting', '1.00'],
    ]);
    const status = await call('rita', 'globalPayBatchStatus', { batchId });
    expect(status.body).toMatchObject({ status: 'processing', count: 3, counts: { waiting: 3 }, transactionId });
    // the draft can no longer be changed
    expect((await call('rita', 'globalPayBatchRemove', { batchId, id: ids.erika })).body.responseCode).toBe('TA1');

    for (const who of ['erika', 'hans', 'jane'] as const) {
      const link = await linkOf(`${who}@example.com`);
      expect(link.paymentId).toBe(ids[who]);
      expect(link.secret.length).toBeGreaterThanOrEqual(22); // 128 bits and more in base64url
      const [row] = await t.db.select({ secretHash: globalPayments.secretHash }).from(globalPayments).where(eq(globalPayments.id, link.paymentId));
      expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row!.secretHash).not.toContain(link.secret);
    }
    const [mail] = await mailsTo('erika@example.com');
    expect(mail!.body).toContain(`/receive/${ids.erika}?s=`);
    expect(mail!.body).toContain('200.00 EUR');
  });
});

describe('the payee', () => {
  it('reads the payment with its secret only: a wrong secret, an unknown id and another payment’s secret answer alike', async () => {
    const erika = await linkOf('erika@example.com');
    const hans = await linkOf('hans@example.com');
    const details = await payee('globalPaymentDetails', erika);
    expect(details.body).toMatchObject({
      responseCode: '00',
      beneficiaryName: 'Erika Mustermann',
      status: 'waiting',
      amount: '200.00',
      currencyCode: 'EUR',
      description: 'Invoice 1',
      feeIsBen: false,
      paymentId: erika.paymentId,
      expireDays: 14,
    });
    expect(details.body.senderName).toEqual(expect.any(String));
    expect((await payee('globalPaymentDetails', hans)).body.feeIsBen).toBe(true);
    const wrong = await payee('globalPaymentDetails', { paymentId: erika.paymentId, secret: 'A'.repeat(32) });
    const unknown = await payee('globalPaymentDetails', { paymentId: 987654, secret: erika.secret });
    const other = await payee('globalPaymentDetails', { paymentId: erika.paymentId, secret: hans.secret });
    for (const res of [wrong, unknown, other]) expect(res.body).toEqual({ responseCode: 'ENOA', responseDescription: 'Unknown payment' });
    expect((await payee('globalPaymentCancel', { paymentId: erika.paymentId, secret: hans.secret })).body.responseCode).toBe('ENOA');
    expect((await payee('globalPaymentDetails', erika)).body.status).toBe('waiting');
  });

  it('is rate-limited per payment: past the limit even the right secret waits', async () => {
    const jane = await linkOf('jane@example.com');
    for (let i = 0; i < GLOBAL_PAY_SECRET_LIMITS.perPayment; i++) expect((await payee('globalPaymentDetails', { ...jane, secret: `wrong-secret-${i}-xxxxxxxx` })).body.responseCode).toBe('ENOA');
    expect((await payee('globalPaymentDetails', { ...jane, secret: 'wrong-secret-last-xxxxxxxx' })).body.responseCode).toBe('13');
    expect((await payee('globalPaymentDetails', jane)).body).toMatchObject({ responseCode: '13', responseDescription: 'Too many attempts: try again later' });
    // the other payments are not affected (the address's own allowance is larger)
    expect((await payee('globalPaymentDetails', await linkOf('erika@example.com'))).body.responseCode).toBe('00');
  });

  it('takes a payment by card with the e-mailed code: the payout settles through the rail, the unneeded fee goes back', async () => {
    const eur = await accountOf('rita', 'EUR');
    const erika = await linkOf('erika@example.com');
    expect((await payee('globalPaymentCountries', erika)).body.countries).toContainEqual(expect.objectContaining({ code: 'DE' }));
    expect((await payee('globalPaymentMethods', erika, { countryCode: 'DE' })).body.methods).toEqual(expect.arrayContaining(['oct', 'eft', 'wire']));
    const meta = await payee('globalPaymentMeta', erika, { paymentMethod: 'oct', toCurrencyCode: 'EUR', countryCode: 'DE' });
    expect(meta.body).toMatchObject({ responseCode: '00', exchangeRate: '1', toAmount: '200.00', fee: '2.00', estimatedTotal: '200.00', maximumTrxFee: '5.00', extraFxMarkupPercent: '0' });
    const form = await payee('globalPaymentExtraParams', erika, { paymentMethod: 'oct', currencyCode: 'EUR', countryCode: 'DE' });
    expect((form.body.params as { name: string }[]).map((p) => p.name)).toEqual(['cardHolderName', 'cardNumber']);
    expect((await payee('globalPaymentBinLookup', erika, { binNumber: '411111' })).body).toMatchObject({ bin: '411111', brand: 'visa', blocked: false, supported: true });

    const badCard = await payee('globalPaymentSubmit', erika, { paymentMethod: 'oct', currencyCode: 'EUR', countryCode: 'DE', paymentDetails: { cardHolderName: 'Erika Mustermann', cardNumber: '4111111111111112' } });
    expect(errorsOf(badCard)).toEqual([{ param: 'paymentDetails.cardNumber', code: 'cardChecksum' }]);
    const submitted = await payee('globalPaymentSubmit', erika, { paymentMethod: 'oct', currencyCode: 'EUR', countryCode: 'DE', paymentDetails: { cardHolderName: 'Erika Mustermann', cardNumber: '4111 1111 1111 1111' } });
    expect(submitted.body, JSON.stringify(submitted.body)).toMatchObject({ responseCode: '00', approveType: 'email', availableApprovalMethods: ['email'], approvalSentTo: expect.stringContaining('*') });
    const operationId = submitted.body.operationId as string;
    const code = await codeOf('erika@example.com');
    const wrongCode = code === '000000' ? '111111' : '000000';
    expect(errorsOf(await payee('globalPaymentApprove', erika, { operationId, approvalCode: wrongCode }))).toEqual([{ param: 'approvalCode', code: 'approvalCodeWrong' }]);
    const before = await held(eur.accountId);
    const approved = await payee('globalPaymentApprove', erika, { operationId, approvalCode: code });
    expect(approved.body, JSON.stringify(approved.body)).toMatchObject({ responseCode: '00', status: 'processing', paymentId: erika.paymentId });
    // 205.00 held for erika becomes the payout's 200.00 + 2.00: 3.00 released
    expect(await held(eur.accountId)).toEqual({ balance: before.balance, pending: before.pending - 300n });
    const [payout] = await t.db.select().from(transfers).where(eq(transfers.id, approved.body.withdrawalId as number));
    expect(payout).toMatchObject({ kind: 'oct', status: 'processing', amountMinor: 20_000n, feeMinor: 200n, fromAccountId: eur.accountId });
    await expectClean();
    // the secret and the code are single-purpose: the payment cannot be taken twice
    expect((await payee('globalPaymentApprove', erika, { operationId, approvalCode: code })).body.responseCode).toBe('TA1');

    await drain();
    expect(await held(eur.accountId)).toEqual({ balance: before.balance - 20_200n, pending: before.pending - 20_500n });
    expect((await payee('globalPaymentDetails', erika)).body.status).toBe('completed');
    const last = await payee('globalPaymentLastWithdrawals', erika);
    expect(last.body.withdrawals).toEqual([expect.objectContaining({ withdrawalId: erika.paymentId, paymentMethod: 'oct', status: 'completed', amount: '200.00', paymentDetails: { cardHolderName: 'Erika Mustermann', cardBin: '411111', cardLast4: '1111' } })]);
    expect((await payee('globalPaymentWithdrawalDetails', erika)).body.withdrawal).toMatchObject({ withdrawalId: erika.paymentId, status: 'completed' });
    await expectClean();
  });

  it('takes a payment by IBAN, the beneficiary paying the fee: what arrives is the amount less the fee', async () => {
    const eur = await accountOf('rita', 'EUR');
    const hans = await linkOf('hans@example.com');
    const meta = await payee('globalPaymentMeta', hans, { paymentMethod: 'eft', toCurrencyCode: 'EUR', countryCode: 'DE' });
    expect(meta.body).toMatchObject({ fee: '0.50', estimatedTotal: '49.50', toAmount: '49.50' });
    expect(errorsOf(await payee('globalPaymentSubmit', hans, { paymentMethod: 'eft', currencyCode: 'USD', countryCode: 'DE', paymentDetails: { beneficiaryName: 'Hans Meier', iban: 'DE89370400440532013000' } }))).toEqual([
      { param: 'currencyCode', code: 'currencyOfAccount' },
    ]);
    const submitted = await payee('globalPaymentSubmit', hans, { paymentMethod: 'eft', currencyCode: 'EUR', countryCode: 'DE', paymentDetails: { beneficiaryName: 'Hans Meier', iban: 'DE89 3704 0044 0532 0130 00' } });
    expect(submitted.body.responseCode, JSON.stringify(submitted.body)).toBe('00');
    const before = await held(eur.accountId);
    const approved = await payee('globalPaymentApprove', hans, { operationId: submitted.body.operationId, approvalCode: await codeOf('hans@example.com') });
    expect(approved.body.responseCode, JSON.stringify(approved.body)).toBe('00');
    const [payout] = await t.db.select().from(transfers).where(eq(transfers.id, approved.body.withdrawalId as number));
    expect(payout).toMatchObject({ kind: 'eft', amountMinor: 4950n, feeMinor: 50n });
    expect(await held(eur.accountId)).toEqual(before);
    await drain();
    expect(await held(eur.accountId)).toEqual({ balance: before.balance - 5000n, pending: before.pending - 5000n });
    expect((await payee('globalPaymentDetails', hans)).body.status).toBe('completed');
    await expectClean();
  });
});

describe('money back', () => {
  it('one payment approved by SMS (globalPayApprove), then refused by its payee: status refused, the money back', async () => {
    const eur = await accountOf('tom', 'EUR');
    const before = await held(eur.accountId);
    const meta = await call('tom', 'globalPayP2pMeta', { accountId: eur.accountId, countryCode: 'DE', amount: '20.00' });
    expect(meta.body).toMatchObject({ responseCode: '00', currency: 'EUR', maximumTrxFee: '5.00', fee: '5.00', total: '25.00' });
    const submitted = await call('tom', 'globalPayP2pSubmit', { accountId: eur.accountId, beneficiaryName: 'Rosa Refuser', beneficiaryEmail: 'rosa@example.com', beneficiaryCountryCode: 'DE', amount: '20.00', description: 'Gift' });
    expect(submitted.body, JSON.stringify(submitted.body)).toMatchObject({ responseCode: '00', status: 'pending', approveType: 'sms' });
    expect(await held(eur.accountId)).toEqual({ balance: before.balance, pending: before.pending + 2500n });
    expect(await mailsTo('rosa@example.com')).toEqual([]);
    // a single payment's operation is not a batch's
    expect((await call('tom', 'globalPayApproveBatch', { operationId: submitted.body.transactionId, approvalCode: '123456' })).body.responseCode).toBe('ENOA');
    const approved = await call('tom', 'globalPayApprove', { operationId: submitted.body.transactionId, approvalCode: await lastSmsCode() });
    expect(approved.body, JSON.stringify(approved.body)).toMatchObject({ responseCode: '00', status: 'processing' });
    await expectClean();

    const rosa = await linkOf('rosa@example.com');
    expect(rosa.paymentId).toBe(submitted.body.paymentId);
    const refused = await payee('globalPaymentCancel', rosa);
    expect(refused.body).toMatchObject({ responseCode: '00', status: 'refused', paymentId: rosa.paymentId });
    expect(await held(eur.accountId)).toEqual(before);
    expect((await payee('globalPaymentDetails', rosa)).body.status).toBe('refused');
    expect((await payee('globalPaymentCancel', rosa)).body.responseCode).toBe('TA1');
    const batch = (await call('tom', 'globalPayBatchGet', { batchId: submitted.body.batchId })).body.batch as Batch;
    expect(batch.status).toBe('done');
    // the batch ended unpaid: its sender is told once, leading to the batch
    expect(await partialRows(await customerIdOf('tom'), submitted.body.batchId as number)).toEqual([
      { failed: 1, total: 1, batchKind: 'global', target: JSON.stringify({ kind: 'batch', batchId: submitted.body.batchId }) },
    ]);
    await expectClean();
  });

  it('a batch approved by SMS (globalPayApproveBatch), then canceled by its sender: the payments not taken come back', async () => {
    const eur = await accountOf('tom', 'EUR');
    const before = await held(eur.accountId);
    const created = await upload('tom', { accountId: eur.accountId, batchName: 'Refunds' }, `${HEADER}\nAl One,al@example.com,FR,10.00,Refund,beneficiary\nBo Two,bo@example.com,NL,12.50,Refund,beneficiary\n`);
    expect(created.body.responseCode, JSON.stringify(created.body)).toBe('00');
    const submitted = await call('tom', 'globalPayBatchSubmit', { batchId: created.body.batchId });
    expect(submitted.body).toMatchObject({ responseCode: '00', status: 'pending', approveType: 'sms', amount: '22.50', fee: '0.00' });
    expect((await call('tom', 'globalPayBatchStatus', { batchId: created.body.batchId })).body).toMatchObject({ status: 'awaitingApproval', counts: { awaitingApproval: 2 } });
    const listedAs = async () => ((await call('tom', 'batchTransferList', {})).body.batchTransfer as { transfer: { id: number; kind: string; status: string; count: number; progress: number }[] }).transfer.find((b) => b.kind === 'global' && b.id === created.body.batchId);
    expect(await listedAs()).toMatchObject({ status: 'awaitingApproval', count: 2, progress: 0 });
    const code = await lastSmsCode();
    const wrong = await call('tom', 'globalPayApproveBatch', { operationId: submitted.body.transactionId, approvalCode: code === '000000' ? '111111' : '000000' });
    expect(errorsOf(wrong)).toEqual([{ param: 'approvalCode', code: 'approvalCodeWrong' }]);
    expect(await mailsTo('al@example.com')).toEqual([]);
    expect((await call('tom', 'globalPayApproveBatch', { operationId: submitted.body.transactionId, approvalCode: code })).body).toMatchObject({ responseCode: '00', status: 'processing' });
    expect(await held(eur.accountId)).toEqual({ balance: before.balance, pending: before.pending + 2250n });
    expect(await listedAs()).toMatchObject({ status: 'processing', count: 2, progress: 0 });
    const al = await linkOf('al@example.com');
    const bo = await linkOf('bo@example.com');
    // al asks for a code; a second one so soon is refused
    const asked = await payee('globalPaymentSubmit', al, { paymentMethod: 'oct', currencyCode: 'EUR', countryCode: 'FR', paymentDetails: { cardHolderName: 'Al One', cardNumber: '5555555555554444' } });
    expect(asked.body.responseCode, JSON.stringify(asked.body)).toBe('00');
    expect((await payee('globalPaymentResendCode', al, { operationId: asked.body.operationId, approveType: 'email' })).body).toMatchObject({ responseCode: 'TA1', responseDescription: 'A code was sent a moment ago' });
    await expectClean();

    const canceled = await call('tom', 'globalPayBatchCancel', { batchId: created.body.batchId });
    expect((canceled.body.batch as Batch).status).toBe('canceled');
    expect((canceled.body.batch as Batch).payments.map((p) => p.status)).toEqual(['canceled', 'canceled']);
    expect(await held(eur.accountId)).toEqual(before);
    expect((await payee('globalPaymentDetails', bo)).body.status).toBe('canceled');
    // al's code no longer takes anything
    expect((await payee('globalPaymentApprove', al, { operationId: asked.body.operationId, approvalCode: await codeOf('al@example.com') })).body.responseCode).toBe('TA1');
    // the sender canceled it: no batchPartial
    expect(await partialRows(await customerIdOf('tom'), created.body.batchId as number)).toEqual([]);
    await expectClean();
  });

  it('a payout the rail returns: the payee sees it returned with the reason, the money is back with the sender', async () => {
    const eur = await accountOf('rita', 'EUR');
    const before = await held(eur.accountId);
    const sent = await call('rita', 'globalPayP2pSubmit', { accountId: eur.accountId, beneficiaryName: 'Cleo Closed', beneficiaryEmail: 'cleo@example.com', beneficiaryCountryCode: 'DE', amount: '40.00', feeShare: 'beneficiary' });
    expect(sent.body, JSON.stringify(sent.body)).toMatchObject({ responseCode: '00', status: 'processing', approveType: 'none', fee: '0.00' });
    const cleo = await linkOf('cleo@example.com');
    // the simulator returns an EFT to an account ending in 0002 (R02, account closed)
    const asked = await payee('globalPaymentSubmit', cleo, { paymentMethod: 'eft', currencyCode: 'EUR', countryCode: 'DE', paymentDetails: { beneficiaryName: 'Cleo Closed', iban: 'DE40370400440532010002' } });
    expect(asked.body.responseCode, JSON.stringify(asked.body)).toBe('00');
    expect((await payee('globalPaymentApprove', cleo, { operationId: asked.body.operationId, approvalCode: await codeOf('cleo@example.com') })).body.responseCode).toBe('00');
    const recorder = pushRecorder();
    await drain(recorder);
    expect((await payee('globalPaymentDetails', cleo)).body.status).toBe('returned');
    // the rail ended the batch's last payout unpaid: the sender is pushed the notice leading to the batch
    expect(partialNotices(recorder.pushed)).toEqual([
      {
        customerId: await customerIdOf('rita'),
        event: expect.objectContaining({ type: 'CustomerNotification', target: { kind: 'batch', batchId: sent.body.batchId }, params: { failed: 1, total: 1, batchKind: 'global' } }),
      },
    ]);
    const [withdrawal] = (await payee('globalPaymentLastWithdrawals', cleo)).body.withdrawals as { status: string; reasonCode: string }[];
    expect(withdrawal).toMatchObject({ status: 'returned', reasonCode: 'R02' });
    // the amount is back; the fee stays with the provider unless the rail refunds it
    const after = await held(eur.accountId);
    expect(after.pending).toBe(before.pending);
    expect(before.balance - after.balance).toBeLessThanOrEqual(50n);
    await expectClean();
  });

  it('a payment not taken within expireDays expires: the money goes back to the sender', async () => {
    const eur = await accountOf('rita', 'EUR');
    const before = await held(eur.accountId);
    const recorder = pushRecorder();
    expect(await expireDueGlobalPayments(t.db, Date.now(), { publisher: recorder })).toBe(0);
    expect(partialNotices(recorder.pushed)).toEqual([]);
    expect(await expireDueGlobalPayments(t.db, Date.now() + 15 * 86_400_000, { publisher: recorder })).toBe(1);
    // the batch ended (two paid, jane's expired): the sender is pushed the notice leading to the batch
    expect(partialNotices(recorder.pushed)).toEqual([
      { customerId: await customerIdOf('rita'), event: expect.objectContaining({ type: 'CustomerNotification', target: { kind: 'batch', batchId }, params: { failed: 1, total: 3, batchKind: 'global' } }) },
    ]);
    // jane's 30.00 + 1.00 released
    expect(await held(eur.accountId)).toEqual({ balance: before.balance, pending: before.pending - 3100n });
    const batch = (await call('rita', 'globalPayBatchGet', { batchId })).body.batch as Batch;
    expect(batch.payments.map((p) => p.status)).toEqual(['completed', 'completed', 'expired', 'deleted', 'deleted']);
    expect(batch.status).toBe('done');
    const [request] = await t.db.select({ status: transfers.status }).from(transfers).where(eq(transfers.id, transactionId));
    expect(request!.status).toBe('posted');
    expect(await t.db.select({ id: globalPayments.id }).from(globalPayments).where(eq(globalPayments.state, 'waiting'))).toEqual([]);
    await expectClean();
  });
});

describe('guessing from one address', () => {
  it('is rate-limited per client address across payments: past the limit that address waits, others do not', async () => {
    const rosa = await linkOf('rosa@example.com');
    const from = (address: string, link: { paymentId: number; secret: string }) =>
      t.app.inject({ method: 'POST', url: `${API_VERSION_PATH}/?globalPaymentDetails`, payload: { paymentId: link.paymentId, secret: link.secret }, remoteAddress: address }).then((res) => res.json() as { responseCode: string });
    // each guess at another payment id: no payment's own allowance is used up
    for (let i = 0; i < GLOBAL_PAY_SECRET_LIMITS.perAddress; i++) expect((await from('10.9.9.9', { paymentId: 500_000 + i, secret: 'guessing-secret-xxxxxxxx' })).responseCode).toBe('ENOA');
    expect((await from('10.9.9.9', { paymentId: 600_000, secret: 'guessing-secret-xxxxxxxx' })).responseCode).toBe('13');
    expect((await from('10.9.9.9', rosa)).responseCode).toBe('13');
    expect((await from('10.9.9.10', rosa)).responseCode).toBe('00');
  });
});

describe('the batches list (batchTransferList, batchFileView)', () => {
  type Listed = { id: number; kind: string; status: string; fileName: string; count: number; doneCount: number; failedCount: number; progress: number; total: string; fee: string; transactionId: number; dateTime: string };
  const list = async (who: string, body: Record<string, unknown> = {}) => {
    const res = await call(who, 'batchTransferList', body);
    expect(res.body.responseCode, JSON.stringify(res.body)).toBe('00');
    return { batches: (res.body.batchTransfer as { transfer: Listed[] }).transfer, total: res.body.total as number };
  };
  const names = (batches: Listed[]) => batches.map((b) => `${b.kind}:${b.fileName}`);

  it('lists the submitted global-pay batches with the mass batches, newest first, paged, with their counts and statuses', async () => {
    const eur = await accountOf('rita', 'EUR');
    // a draft (never listed) and a mass batch after the global ones
    const draft = await upload('rita', { accountId: eur.accountId, batchName: 'April draft' }, `${HEADER}\r\nDora Draft,dora@example.com,DE,9.00,Later,\r\n`);
    expect(draft.body.responseCode, JSON.stringify(draft.body)).toBe('00');
    const mass = await call('rita', 'massP2pText', { accountId: eur.accountId, text: 'tom@demo.test\t1.00\tTea\n' });
    expect(mass.body, JSON.stringify(mass.body)).toMatchObject({ responseCode: '00', status: 'processing' });
    await drain();

    const all = await list('rita');
    // 'March' (submitted), 'Cleo Closed' (one payment), the mass batch; not 'March again' (discarded) nor the draft
    expect(all.total).toBe(3);
    expect(names(all.batches)).toEqual(['p2p:pasted.csv', 'global:Cleo Closed', 'global:March']);
    const dates = all.batches.map((b) => b.dateTime);
    expect([...dates].sort().reverse()).toEqual(dates);
    const [, cleo, march] = all.batches;
    // erika and hans paid, jane's expired
    expect(march).toMatchObject({ id: batchId, kind: 'global', status: 'partial', count: 3, doneCount: 2, failedCount: 1, progress: 100, total: '280.00', fee: '6.00', transactionId });
    // the rail returned cleo's payout
    expect(cleo).toMatchObject({ status: 'failed', count: 1, doneCount: 0, failedCount: 1, total: '40.00', fee: '0.00' });

    // pages: the same order sliced
    const first = await list('rita', { pageNumber: 1, pageSize: 2 });
    const second = await list('rita', { pageNumber: 2, pageSize: 2 });
    expect(first.total).toBe(3);
    expect(second.total).toBe(3);
    expect([...names(first.batches), ...names(second.batches)]).toEqual(names(all.batches));
    expect(names((await list('rita', { pageNumber: 2, pageSize: 1 })).batches)).toEqual(['global:Cleo Closed']);
    expect((await list('rita', { pageNumber: 4, pageSize: 1 })).batches).toEqual([]);
    // the filters apply to both kinds
    expect(names((await list('rita', { types: ['global'] })).batches)).toEqual(['global:Cleo Closed', 'global:March']);
    expect(names((await list('rita', { types: ['p2p'] })).batches)).toEqual(['p2p:pasted.csv']);
    expect(await list('rita', { search: 'march' })).toMatchObject({ total: 1, batches: [{ fileName: 'March' }] });
    expect((await list('rita', { to: '2000-01-01' })).total).toBe(0);

    // tom: a payment his payee refused, a batch he canceled
    const toms = await list('tom');
    expect(toms.total).toBe(2);
    expect(toms.batches.map((b) => [b.fileName, b.status, b.count, b.doneCount, b.failedCount])).toEqual([
      ['Refunds', 'canceled', 2, 0, 2],
      ['Rosa Refuser', 'failed', 1, 0, 1],
    ]);
  });

  it('opens a global-pay batch by its kind: its payments as rows, a CSV of them; anyone else’s, or a draft, is unknown', async () => {
    const view = await call('rita', 'batchFileView', { id: batchId, kind: 'global' });
    expect(view.body.responseCode, JSON.stringify(view.body)).toBe('00');
    expect(view.body.batch).toMatchObject({ id: batchId, kind: 'global', status: 'partial', fileName: 'March' });
    const rows = view.body.rows as { payee: string; status: string; transactionId: number | null; transferStatus: string | null; errorCode: string | null; errorDescription: string | null; amount: string; fee: string; countryCode: string }[];
    expect(rows.map((r) => [r.payee, r.countryCode, r.amount, r.fee, r.status, r.transferStatus, r.errorCode])).toEqual([
      ['Erika Mustermann', 'DE', '200.00', '5.00', 'done', 'posted', null],
      ['Hans Meier', 'DE', '50.00', '0.00', 'done', 'posted', null],
      ['Jane Roe', 'DE', '30.00', '1.00', 'failed', null, 'expired'],
    ]);
    expect(rows[0]!.transactionId).toEqual(expect.any(Number));
    expect(rows[2]).toMatchObject({ transactionId: null, errorDescription: 'The payee did not take the payment in time.' });
    expect(view.body.file).toBe(
      'beneficiaryName,beneficiaryEmail,beneficiaryCountryCode,amount,description\r\nErika Mustermann,erika@example.com,DE,200.00,Invoice 1\r\nHans Meier,hans@example.com,DE,50.00,Invoice 2\r\nJane Roe,jane@example.com,DE,30.00,Invoice 3\r\n',
    );
    // without the kind the id is a mass batch's (rita's pasted batch is the first of its sequence)
    const massView = await call('rita', 'batchFileView', { id: (await list('rita', { types: ['p2p'] })).batches[0]!.id });
    expect(massView.body.batch).toMatchObject({ kind: 'p2p', status: 'done' });
    // the returned payout: not paid, with its reason
    const cleo = (await list('rita', { types: ['global'] })).batches[0]!;
    const cleoRows = (await call('rita', 'batchFileView', { id: cleo.id, kind: 'global' })).body.rows as { status: string; transferStatus: string; errorCode: string }[];
    expect(cleoRows).toEqual([expect.objectContaining({ status: 'failed', transferStatus: 'returned', errorCode: 'returned' })]);

    expect((await call('tom', 'batchFileView', { id: batchId, kind: 'global' })).body.responseCode).toBe('ENOA');
    const [draft] = await t.db.select({ id: globalPayBatches.id }).from(globalPayBatches).where(eq(globalPayBatches.name, 'April draft'));
    expect((await call('rita', 'batchFileView', { id: draft!.id, kind: 'global' })).body.responseCode).toBe('ENOA');
    expect((await call('rita', 'batchFileView', { id: 999_999, kind: 'global' })).body.responseCode).toBe('ENOA');
    await expectClean();
  });
});
