/**
 * Mass transfers (api/mass.ts; issue 15 §4, §6) through the real calls on the real database and
 * job queue: a p2p batch by pasted text and by file, paid in the background row by row; a wire
 * batch whose rows settle or come back; approval by SMS and cancel; every bad file answered per row
 * (or for the file) with nothing written; a row that fails when paid leaves the batch partial with
 * its reason; the ledger's invariants after each.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASS_MAX_ROWS } from '../../api/mass.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { DEMO_BLOCKED_BIN } from '../../server/db/seed.ts';
import { startJobQueue, type JobQueue } from '../../server/db/job-queue.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { currencyTotals, reconcile } from '../../server/modules/accounts/ledger.ts';
import { outbox } from '../../server/modules/platform/platform.tables.ts';
import { createPayoutService, type PayoutService } from '../../server/modules/rails/payouts.service.ts';
import { createSimulator, DEFAULT_SIMULATOR_OPTIONS } from '../../server/modules/rails/simulator.ts';
import { drainRailJobs, RAIL_QUEUES } from '../../server/modules/rails/workers.ts';
import { dailyUsageProblems } from '../../server/modules/transfers/fees.ts';
import { transferBatchRows, transferBatches } from '../../server/modules/transfers/mass.tables.ts';
import { maskCardNumbers } from '../../server/modules/transfers/mass.service.ts';
import { blacklist } from '../../server/modules/transfers/transfers.tables.ts';
import { resolvePayee, resolvePayees, type TransferPublisher } from '../../server/modules/transfers/transfers.service.ts';
import { users } from '../../server/modules/customers/customers.tables.ts';
import type { MethodFailure } from '../../server/modules/method-types.ts';
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
  for (const who of ['rita', 'tom', 'anna'] as const) tokens[who] = (await signIn(t.app, who)).accessToken;
}, 60_000);
afterAll(async () => {
  await queue?.stop();
  await t?.close();
});

const key = () => `k-${Math.random().toString(36).slice(2)}`;
const call = (who: string, name: string, body: Record<string, unknown> = {}, idempotencyKey = key()) =>
  callMethod(t.app, name, body, { token: tokens[who], headers: { 'idempotency-key': idempotencyKey } });

/** A mass call as multipart: the JSON in `data`, the CSV as the part `file`. */
function upload(who: string, name: string, data: Record<string, unknown>, file: Buffer | string, idempotencyKey = key()): Promise<MethodAnswer> {
  return callMultipart(t.app, name, data, [{ field: 'file', fileName: 'batch.csv', content: file, mime: 'text/csv' }], { token: tokens[who], idempotencyKey });
}

async function accountOf(who: keyof typeof demoUserByKey, currency: string) {
  const answer = (await callMethod(t.app, 'balanceInquiry', {}, { token: tokens[who] })).body as unknown as { accounts: { account: { accountId: number; currency: string; balance: string }[] } };
  return answer.accounts.account.find((a) => a.currency === currency)!;
}
async function held(accountId: number) {
  const [row] = await t.db.select({ balance: accounts.balanceMinor, pending: accounts.pendingMinor }).from(accounts).where(eq(accounts.accountId, accountId));
  return row!;
}
const batchCount = async () => (await t.db.select({ id: transferBatches.id }).from(transferBatches)).length;
/** publisher: what the worker pushes (a recorder: the pushes as published, no waiting for a socket) */
const drain = (publisher: TransferPublisher | null = null) => drainRailJobs(t.db, queue, payouts, undefined, publisher);
type Pushed = { customerId: number; event: Record<string, unknown> };
function pushRecorder(): TransferPublisher & { pushed: Pushed[] } {
  const pushed: Pushed[] = [];
  return { pushed, publish: async (customerId, event) => void pushed.push({ customerId, event }) };
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

describe('a p2p batch', () => {
  it('previews pasted lines without a header: each row with its payee and fee, the totals, nothing written', async () => {
    const eur = await accountOf('rita', 'EUR');
    const before = await held(eur.accountId);
    const res = await call('rita', 'massP2pText', { accountId: eur.accountId, preview: true, text: 'anna@demo.test\t10.00\tLunch\ntom@demo.test\t5.50\n\n' });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', kind: 'p2p', currency: 'EUR', count: 2, batchId: null, transactionId: null });
    expect(res.body.rows).toEqual([
      { line: 1, payee: 'anna@demo.test', countryCode: null, amount: '10.00', fee: expect.any(String) },
      { line: 2, payee: 'tom@demo.test', countryCode: null, amount: '5.50', fee: expect.any(String) },
    ]);
    const fees = (res.body.rows as { fee: string }[]).reduce((s, r) => s + Number(r.fee), 0);
    expect(Number(res.body.total)).toBe(15.5);
    expect(Number(res.body.grandTotal)).toBeCloseTo(15.5 + fees, 8);
    expect(await held(eur.accountId)).toEqual(before);
    expect(await batchCount()).toBe(0);
  });

  it('by file with approve mode none: holds the total, pays each row in the background, then shows the batch done', async () => {
    const eur = await accountOf('rita', 'EUR');
    const anna = await accountOf('anna', 'EUR');
    const before = await held(eur.accountId);
    const csv = 'Email;Amount;Currency;Note\r\nanna@demo.test;12,00\r\n'.replace('12,00', '12.00') + 'tom@demo.test;3.00;EUR;"Rent; March"\r\n';
    const res = await upload('rita', 'massP2pFile', { accountId: eur.accountId }, csv);
    expect(res.body).toMatchObject({ responseCode: '00', count: 2, status: 'processing', approveType: 'none', total: '15.00' });
    const grand = BigInt(String(res.body.grandTotal).replace('.', ''));
    expect(await held(eur.accountId)).toEqual({ balance: before.balance, pending: before.pending + grand });
    await expectClean();

    const quiet = pushRecorder();
    await drain(quiet);
    // every row paid: no batchPartial notice
    expect(quiet.pushed.filter((p) => p.event.notificationType === 'batchPartial')).toEqual([]);
    expect(await held(eur.accountId)).toEqual({ balance: before.balance - grand, pending: before.pending });
    expect((await accountOf('anna', 'EUR')).balance).toBe((Number(anna.balance) + 12).toFixed(2));
    const view = await call('rita', 'batchFileView', { id: res.body.batchId });
    expect(view.body.batch).toMatchObject({ status: 'done', count: 2, doneCount: 2, failedCount: 0, progress: 100, kind: 'p2p' });
    expect(view.body.rows).toEqual([
      expect.objectContaining({ line: 2, payee: 'anna@demo.test', status: 'done', transferStatus: 'posted', errorCode: null }),
      expect.objectContaining({ line: 3, payee: 'tom@demo.test', status: 'done', transferStatus: 'posted' }),
    ]);
    expect(view.body.file).toBe(csv);
    // history shows the two payments, not the batch's request
    const history = await call('rita', 'transactionHistory', { accountId: eur.accountId });
    const ids = (history.body.transactions as { transaction: { transactionId: number }[] }).transaction.map((r) => r.transactionId);
    const rowIds = (view.body.rows as { transactionId: number }[]).map((r) => r.transactionId);
    for (const id of rowIds) expect(ids).toContain(id);
    expect(ids).not.toContain(res.body.transactionId);
    expect((await call('rita', 'transactionDetail', { kind: 'transfer', id: res.body.transactionId })).body.responseCode).toBe('ENOA');
    // a second run of the job pays nothing twice
    await payouts.queueBatch(t.db as never, res.body.transactionId as number);
    await drain();
    expect(await held(eur.accountId)).toEqual({ balance: before.balance - grand, pending: before.pending });
    await expectClean();

    const list = await call('rita', 'batchTransferList', { types: ['p2p'] });
    expect(list.body.total).toBeGreaterThanOrEqual(1);
    expect((list.body.batchTransfer as { transfer: { id: number }[] }).transfer[0]).toMatchObject({ id: res.body.batchId, status: 'done', fileName: 'batch.csv' });
    // another customer's batch is unknown to them
    expect((await call('anna', 'batchFileView', { id: res.body.batchId })).body.responseCode).toBe('ENOA');
    expect((await call('anna', 'batchTransferList', {})).body.total).toBe(0);
  });

  it('the same key and file answer the same batch once; the same key with another file is refused', async () => {
    const eur = await accountOf('rita', 'EUR');
    const k = key();
    const first = await upload('rita', 'massP2pFile', { accountId: eur.accountId }, 'email,amount\nanna@demo.test,1.00\n', k);
    const again = await upload('rita', 'massP2pFile', { accountId: eur.accountId }, 'email,amount\nanna@demo.test,1.00\n', k);
    expect(again.body.batchId).toBe(first.body.batchId);
    const other = await upload('rita', 'massP2pFile', { accountId: eur.accountId }, 'email,amount\nanna@demo.test,2.00\n', k);
    expect(errorsOf(other)).toEqual([{ param: 'Idempotency-Key', code: 'idempotencyKeyReused' }]);
    await drain();
    await expectClean();
  });

  it('with SMS approval: awaits the code (the batch awaiting approval, the total held); canceled, nothing is paid', async () => {
    const eur = await accountOf('tom', 'EUR');
    const before = await held(eur.accountId);
    const res = await call('tom', 'massP2pText', { accountId: eur.accountId, text: 'email,amount\nrita@demo.test,4.00\nanna@demo.test,6.00\n' });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', status: 'pending', approveType: 'sms', approvalSentTo: expect.stringContaining('***') });
    const [sms] = await t.db.select().from(outbox).where(eq(outbox.channel, 'sms')).orderBy(desc(outbox.id)).limit(1);
    expect(sms!.body).toMatch(/2 payments/);
    expect((await call('tom', 'batchFileView', { id: res.body.batchId })).body.batch).toMatchObject({ status: 'awaitingApproval', progress: 0 });
    await drain();
    expect((await held(eur.accountId)).pending).toBe(before.pending + BigInt(String(res.body.grandTotal).replace('.', '')));
    expect((await call('tom', 'transferCancel', { trxid: res.body.transactionId })).body).toMatchObject({ responseCode: '00', status: 'canceled' });
    expect((await call('tom', 'batchFileView', { id: res.body.batchId })).body.batch).toMatchObject({ status: 'canceled', doneCount: 0 });
    expect(await held(eur.accountId)).toEqual(before);
    await expectClean();
  });

  it('approved by SMS: the rows are paid once approved', async () => {
    const eur = await accountOf('tom', 'EUR');
    const res = await call('tom', 'massP2pText', { accountId: eur.accountId, text: 'rita@demo.test,2.00\n' });
    const code = await lastSmsCode();
    expect((await call('tom', 'approveTransfer', { trxid: res.body.transactionId, approvalCode: code })).body).toMatchObject({ responseCode: '00', status: 'processing' });
    await drain();
    expect((await call('tom', 'batchFileView', { id: res.body.batchId })).body.batch).toMatchObject({ status: 'done', doneCount: 1 });
    expect((await call('tom', 'transferStatus', { trxid: res.body.transactionId })).body.status).toBe('posted');
    await expectClean();
  });

  it('a row that fails when paid (the payee closed the account meanwhile): partial, the reason kept, its share of the hold released, the sender told', async () => {
    const eur = await accountOf('tom', 'EUR');
    const anna = await accountOf('anna', 'EUR');
    const before = await held(eur.accountId);
    const recorder = pushRecorder();
    const res = await call('tom', 'massP2pText', { accountId: eur.accountId, text: 'email,amount\nanna@demo.test,1.00\nrita@demo.test,2.00\n' });
    expect(res.body.status, JSON.stringify(res.body)).toBe('pending');
    await t.db.update(accounts).set({ status: 11 }).where(eq(accounts.accountId, anna.accountId));
    try {
      const code = await lastSmsCode();
      expect((await call('tom', 'approveTransfer', { trxid: res.body.transactionId, approvalCode: code })).body.responseCode).toBe('00');
      await drain(recorder);
    } finally {
      await t.db.update(accounts).set({ status: 1 }).where(eq(accounts.accountId, anna.accountId));
    }
    const view = await call('tom', 'batchFileView', { id: res.body.batchId });
    expect(view.body.batch).toMatchObject({ status: 'partial', doneCount: 1, failedCount: 1, progress: 100 });
    // the signed-in sender is told (document 3 §2: a partial batch leads to the batch), once
    const [tom] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, demoUserByKey.tom.email));
    expect(recorder.pushed.filter((p) => p.event.notificationType === 'batchPartial')).toEqual([
      {
        customerId: tom!.customerId,
        event: expect.objectContaining({ type: 'CustomerNotification', target: { kind: 'batch', batchId: res.body.batchId }, params: { failed: 1, total: 2, batchKind: 'mass' } }),
      },
    ]);
    expect(view.body.rows).toEqual([
      expect.objectContaining({ line: 2, status: 'failed', transactionId: null, errorCode: 'VF' }),
      expect.objectContaining({ line: 3, status: 'done', transferStatus: 'posted' }),
    ]);
    const tomRow = (view.body.rows as { fee: string }[])[1]!;
    expect(await held(eur.accountId)).toEqual({ balance: before.balance - 200n - BigInt(tomRow.fee.replace('.', '')), pending: before.pending });
    await expectClean();
  });
});

/** The number with its Luhn check digit appended. */
function withLuhn(body: string): string {
  const sum = [...body].reverse().reduce((acc, ch, i) => {
    const d = Number(ch) * (i % 2 === 0 ? 2 : 1);
    return acc + (d > 9 ? d - 9 : d);
  }, 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** The last SMS code in the outbox (tom's: the only user here approving by SMS). */
async function lastSmsCode(): Promise<string> {
  const [sms] = await t.db.select().from(outbox).where(eq(outbox.channel, 'sms')).orderBy(desc(outbox.id)).limit(1);
  const code = /^(\d{6})/.exec(sms?.body ?? '')?.[1];
  if (!code) throw new Error('no SMS code in the outbox');
  return code;
}

describe("a batch's payees", () => {
  it('are found in one statement by the same rules, in the same order, as one transfer finds its payee', async () => {
    const [rita] = await t.db.select({ customerId: users.customerId, email: users.email }).from(users).where(eq(users.email, 'rita@demo.test'));
    const sender = { customerId: rita!.customerId, email: rita!.email };
    // tom refuses money from rita (his blacklist), to see that rule too
    const [tom] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, 'tom@demo.test'));
    await t.db.insert(blacklist).values({ customerId: tom!.customerId, email: 'rita@demo.test' });
    try {
      const emails = ['anna@demo.test', 'rita@demo.test', 'nobody@demo.test', 'tom@demo.test', 'boris@demo.test', 'admin@demo.test'];
      for (const currency of ['EUR', 'USD']) {
        const together = await resolvePayees(t.db, sender, emails, currency);
        for (const email of emails) {
          const alone = await resolvePayee(t.db, sender, email, currency).then(
            (payee) => payee,
            (err: unknown) => ({ code: (err as MethodFailure).validationErrors![0]!.code }),
          );
          expect(together.get(email), `${email} in ${currency}`).toEqual(alone);
        }
      }
      // each rule answered at least once above
      const codes = [...(await resolvePayees(t.db, sender, emails, 'USD')).values()].map((r) => ('code' in r ? r.code : 'ok'));
      expect(new Set(codes)).toEqual(new Set(['ok', 'payeeSelf', 'payeeUnknown', 'payeeRefuses', 'payeeNoAccount']));
    } finally {
      await t.db.delete(blacklist).where(and(eq(blacklist.customerId, tom!.customerId), eq(blacklist.email, 'rita@demo.test')));
    }
  });
});

describe('a payout batch', () => {
  it('pays a wire to each row: one settles, one comes back with its reason, the batch shows each', async () => {
    const eur = await accountOf('rita', 'EUR');
    const csv = [
      'countryCode,amount,reference,beneficiaryName,beneficiaryAddress,iban,swiftCode',
      'DE,20.00,Invoice 1,Erika Mustermann,"Hauptstrasse 1, Berlin",DE89370400440532013000,COBADEFFXXX',
      'GB,10.00,Invoice 2,John Smith,"1 High St, London",GB71WEST12345698760004,WESTGB2L',
    ].join('\n');
    const preview = await upload('rita', 'massExternalFile', { accountId: eur.accountId, paymentMethod: 'wire', preview: true }, csv);
    expect(preview.body).toMatchObject({ responseCode: '00', kind: 'wire', count: 2, total: '30.00' });
    expect(preview.body.rows).toEqual([
      expect.objectContaining({ line: 2, payee: 'Erika Mustermann', countryCode: 'DE', amount: '20.00' }),
      expect.objectContaining({ line: 3, payee: 'John Smith', countryCode: 'GB' }),
    ]);
    const before = await held(eur.accountId);
    const res = await upload('rita', 'massExternalFile', { accountId: eur.accountId, paymentMethod: 'wire' }, csv);
    expect(res.body).toMatchObject({ responseCode: '00', status: 'processing' });
    await drain();
    const view = await call('rita', 'batchFileView', { id: res.body.batchId });
    expect(view.body.batch).toMatchObject({ status: 'done', doneCount: 2 });
    expect((view.body.rows as { transferStatus: string }[]).map((r) => r.transferStatus)).toEqual(['posted', 'returned']);
    // the returned wire's amount is back; its fee follows the rail's policy
    const after = await held(eur.accountId);
    expect(after.pending).toBe(before.pending);
    expect(after.balance).toBeLessThanOrEqual(before.balance - 2000n);
    await expectClean();
  });
});

describe('a card batch', () => {
  it('keeps no card number: the file is stored masked, each row with its BIN and last four only', async () => {
    const eur = await accountOf('rita', 'EUR');
    const res = await upload('rita', 'massExternalFile', { accountId: eur.accountId, paymentMethod: 'oct' }, 'countryCode,amount,cardHolderName,cardNumber\nUS,5.00,Jane Doe,4111 1111 1111 1111\n');
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ responseCode: '00', count: 1 });
    const [batch] = await t.db.select().from(transferBatches).where(eq(transferBatches.id, res.body.batchId as number));
    const rows = await t.db.select().from(transferBatchRows).where(eq(transferBatchRows.batchId, res.body.batchId as number));
    const stored = JSON.stringify({ batch, rows }, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
    expect(stored.replace(/\s/g, '')).not.toContain('4111111111111111');
    expect(batch!.content).toContain('411111******1111');
    expect(rows[0]!.payee.fields).toEqual({ cardHolderName: 'Jane Doe', cardBin: '411111', cardLast4: '1111' });
    await drain();
    await expectClean();
  });
});

describe('a bad file is answered per row or for the file, with nothing written', () => {
  const expectNothing = async (res: MethodAnswer, expected: { param: string; code: string }[], accountId: number, before: { balance: bigint; pending: bigint }, batches: number) => {
    expect(errorsOf(res)).toEqual(expected);
    expect(await held(accountId)).toEqual(before);
    expect(await batchCount()).toBe(batches);
  };

  it('wrong columns, too many rows, a 10 MB file, a formula, mixed currencies, unknown payees, a blocked BIN, a binary file', async () => {
    const eur = await accountOf('rita', 'EUR');
    const before = await held(eur.accountId);
    const batches = await batchCount();
    const p2p = (csv: string | Buffer) => upload('rita', 'massP2pFile', { accountId: eur.accountId }, csv);
    await expectNothing(await p2p('mail,amount,colour\nanna@demo.test,1,red\n'), [
      { param: 'file', code: 'csvUnknownColumn' },
      { param: 'file', code: 'csvUnknownColumn' },
      { param: 'file', code: 'csvMissingColumn' },
    ], eur.accountId, before, batches);
    const many = `email,amount\n${'anna@demo.test,0.01\n'.repeat(MASS_MAX_ROWS + 1)}`;
    await expectNothing(await p2p(many), [{ param: 'file', code: 'csvTooManyRows' }], eur.accountId, before, batches);
    await expectNothing(await p2p(Buffer.alloc(10 * 1024 * 1024, 'a')), [{ param: 'file', code: 'fileTooLarge' }], eur.accountId, before, batches);
    await expectNothing(await p2p('email,amount,note\nanna@demo.test,1.00,=HYPERLINK("http://x")\n'), [{ param: 'rows.2.note', code: 'csvFormula' }], eur.accountId, before, batches);
    await expectNothing(
      await p2p('email,amount,currency\nanna@demo.test,1.00,EUR\ntom@demo.test,2.00,USD\nnobody@demo.test,1.5\nanna@demo.test,1.001\nrita@demo.test,1\n"unclosed,1\n'),
      [{ param: 'rows.7', code: 'csvQuotes' }],
      eur.accountId,
      before,
      batches,
    );
    await expectNothing(
      await p2p('email,amount,currency\nanna@demo.test,1.00,EUR\ntom@demo.test,2.00,USD\nnobody@demo.test,1.5\nanna@demo.test,1.001\nrita@demo.test,1\nanna@demo.test,1,EUR,extra\n'),
      [
        { param: 'rows.3.currency', code: 'currencyOfAccount' },
        { param: 'rows.4.email', code: 'payeeUnknown' },
        { param: 'rows.5.amount', code: 'maxDecimals' },
        { param: 'rows.6.email', code: 'payeeSelf' },
        { param: 'rows.7', code: 'csvCellCount' },
      ],
      eur.accountId,
      before,
      batches,
    );
    await expectNothing(await p2p(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0x14])), [{ param: 'file', code: 'csvNotText' }], eur.accountId, before, batches);
    const card = await upload(
      'rita',
      'massExternalFile',
      { accountId: eur.accountId, paymentMethod: 'oct' },
      `countryCode,amount,cardHolderName,cardNumber\nUS,5.00,Jane Doe,4111111111111111\nUS,5.00,Jim Doe,${withLuhn(`${DEMO_BLOCKED_BIN}000000000`)}\n`,
    );
    const blocked = errorsOf(card);
    // a card batch keeps its file with each card number masked (card data is never stored)
    expect(maskCardNumbers('countryCode,amount,cardHolderName,cardNumber\nUS,5.00,Jane Doe,4111 1111 1111 1111\nUS,1.00,Jo,5555-5555-5555-4444\n')).toBe(
      'countryCode,amount,cardHolderName,cardNumber\nUS,5.00,Jane Doe,411111******1111\nUS,1.00,Jo,555555******4444\n',
    );
    expect(blocked).toEqual([{ param: 'rows.3.cardNumber', code: 'cardBinBlocked' }]);
    await expectNothing(card, blocked, eur.accountId, before, batches);
    // more than the account holds: refused on the account
    await expectNothing(await p2p('email,amount\nanna@demo.test,700.00\nanna@demo.test,700.00\n'), [{ param: 'accountId', code: 'balanceExceeded' }], eur.accountId, before, batches);
  });

  it('needs the mass flag of its kind (13) and an account of the caller (ENOA)', async () => {
    const anna = await accountOf('anna', 'EUR');
    expect((await call('rita', 'massP2pText', { accountId: anna.accountId, text: 'tom@demo.test,1\n' })).body.responseCode).toBe('ENOA');
    await t.db.execute(sql`update users set money_permissions = money_permissions - 'mass.p2p' where email = 'rita@demo.test'`);
    try {
      const eur = await accountOf('rita', 'EUR');
      expect((await call('rita', 'massP2pText', { accountId: eur.accountId, text: 'tom@demo.test,1\n' })).body.responseCode).toBe('13');
    } finally {
      await t.db.execute(sql`update users set money_permissions = money_permissions || '{"mass.p2p": true}'::jsonb where email = 'rita@demo.test'`);
    }
  });
});
