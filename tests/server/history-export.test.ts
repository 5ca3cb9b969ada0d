/**
 * History exports (api/history.ts; document 2 §7, §9): ask, build with the worker, poll, download
 * the CSV (BOM, RFC 4180, CSV-injection safe), send the link to the user's own e-mail, and the
 * monthly export list of an account (12 a page). Transfers are written straight into the ledger's
 * tables (history-fixture.ts). The app has no job queue, so it builds no export itself: the test
 * builds them with runExportJobs, so every step sees a known state. The last part runs an app on
 * the job queue (pg-boss), whose export jobs build what is asked, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { auditLog, customers, historyExports, outbox } from '../../server/db/schema.ts';
import { demoUserByKey, NORTHWIND_NAME } from '../../server/db/demo-users.ts';
import { buildExportJob, EXPORT_LEASE_MS, EXPORT_QUEUES, runExportJobs, sweepExports } from '../../server/modules/history/exports.worker.ts';
import { startJobQueue, type JobQueue } from '../../server/db/job-queue.ts';
import type { Db } from '../../server/db/types.ts';
import { callMethod, createTestApp, createTestDatabase, signIn, type SignedIn, type TestApp } from './harness.ts';
import { accountOf, addAccount, backdate, insertTransfer, setupLedger, userOf, type Ledger } from './history-fixture.ts';

let t: TestApp;
let ledger: Ledger;
let anna: SignedIn;
let boris: SignedIn;
let A: { userId: number; customerId: number };
let B: { userId: number; customerId: number };
let AE: number;
let AE2: number;
let BE: number;
const ids: Record<string, number> = {};
const PUBLIC_URL = 'https://bank.example';

/** RFC 4180 records of a CSV text (quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || record.length > 0) throw new Error('the file does not end with CRLF');
  return records;
}

async function call(name: string, body: Record<string, unknown>, who: SignedIn = anna) {
  return (await callMethod(t.app, name, body, { token: who.accessToken })).body as Record<string, unknown> & { responseCode: string };
}

async function download(exportId: string, who: SignedIn | null = anna, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'GET',
    url: `/api/v1/exports/${encodeURIComponent(exportId)}/file`,
    headers: { ...(who ? { authorization: `Bearer ${who.accessToken}` } : {}), ...headers },
  });
}

const run = () => runExportJobs(t.db);

beforeAll(async () => {
  // The demo users without their seeded year: this suite's expectations are exact over its own fixtures
  // (the seeded history is checked in demo-history.test.ts).
  t = await createTestApp({ publicUrl: `${PUBLIC_URL}/`, demoData: 'without-history' });
  ledger = await setupLedger(t.db);
  A = await userOf(t.db, demoUserByKey.anna.email);
  B = await userOf(t.db, demoUserByKey.boris.email);
  AE = await accountOf(t.db, A.customerId, 'EUR');
  BE = await accountOf(t.db, B.customerId, 'EUR');
  AE2 = await addAccount(t.db, A.customerId, 'EUR');
  await t.db.update(customers).set({ firstName: 'Борис', lastName: 'Петров' }).where(eq(customers.id, B.customerId));

  const at = (d: string) => new Date(`${d}T09:30:00Z`);
  ids.formula = await insertTransfer(t.db, ledger, {
    kind: 'p2p', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: BE, toCustomerId: B.customerId, toEmail: 'boris@demo.test',
    amountMinor: 1234n, feeMinor: 12n, note: '=HYPERLINK("http://evil.example","click")', reference: '+SUM(A1)', at: at('2025-05-02'),
  });
  ids.quoted = await insertTransfer(t.db, ledger, {
    kind: 'betweenAccounts', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: AE2, toCustomerId: A.customerId,
    amountMinor: 500n, note: 'multi\nline, with "quotes"', reference: '@ref', at: at('2025-05-03'),
  });
  ids.received = await insertTransfer(t.db, ledger, {
    kind: 'p2p', status: 'posted', customerId: B.customerId, userId: B.userId, from: BE, to: AE, toCustomerId: A.customerId, toEmail: 'anna@demo.test',
    amountMinor: 300n, note: '-1 minus first', at: at('2025-05-04'),
  });
  for (let i = 0; i < 30; i++) {
    await insertTransfer(t.db, ledger, {
      kind: 'betweenAccounts', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: AE2, toCustomerId: A.customerId,
      amountMinor: 10n + BigInt(i), at: new Date(at('2025-06-01').getTime() + i * 60_000),
    });
  }
  anna = await signIn(t.app, 'anna');
  boris = await signIn(t.app, 'boris');
});

afterAll(async () => {
  await t?.close();
});

describe('transactionHistoryExport', () => {
  it('queues an export, builds it, reports progress and serves the CSV', async () => {
    const asked = await call('transactionHistoryExport', {});
    expect(asked.responseCode).toBe('00');
    const exportId = asked.exportId as string;
    expect(exportId).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const queued = await call('transactionHistoryExportStatus', { exportId });
    expect(queued.export).toMatchObject({ exportId, source: 'manual', accountId: null, period: null, status: 'queued', progress: 0, rowCount: null, fileName: null });
    const early = await download(exportId);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ responseCode: 'TA1' });

    expect(await run()).toBe(1);
    const history = await call('transactionHistory', {});
    const done = await call('transactionHistoryExportStatus', { exportId });
    expect(done.export).toMatchObject({ status: 'done', progress: 100, rowCount: history.results });
    const fileName = (done.export as { fileName: string }).fileName;
    expect(fileName).toMatch(/^history-\d{8}-\d{4}\.csv$/);

    const file = await download(exportId);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${fileName}"`);
    expect(file.headers['cache-control']).toBe('no-store');
    const bytes = file.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    const records = parseCsv(text);
    expect(records[0]).toEqual(['Date', 'Transaction ID', 'Type', 'Direction', 'Status', 'Account', 'Amount', 'Currency', 'Counterparty', 'Note', 'Reference']);
    expect(records).toHaveLength(1 + (history.results as number));
    // Every record has every column; the rows are the history's, newest first.
    expect(records.every((r) => r.length === 11)).toBe(true);
    const firstPage = (history.transactions as { transaction: { transactionId: number; amount: string }[] }).transaction;
    expect(records.slice(1, 21).map((r) => [Number(/^E?(\d+)-/.exec(r[1]!)![1]), r[6]])).toEqual(firstPage.map((r) => [r.transactionId, r.amount]));
    // One id per row, although a transfer gives several rows (out, fee, in).
    const rowIds = records.slice(1).map((r) => r[1]);
    expect(new Set(rowIds).size).toBe(rowIds.length);
    expect(rowIds).toEqual(expect.arrayContaining([`${ids.quoted}-out`, `${ids.quoted}-in`, `${ids.formula}-out`, `${ids.formula}-fee`]));
    expect(rowIds.some((id) => /^E\d+-\d+$/.test(id!))).toBe(true);
    // Words, not codes.
    expect(new Set(records.slice(1).map((r) => r[2]))).toEqual(new Set(['Between own accounts', 'Payment to a person', 'Fee', 'Deposit']));
    expect(new Set(records.slice(1).map((r) => r[3]))).toEqual(new Set(['Incoming', 'Outgoing']));
    expect(new Set(records.slice(1).map((r) => r[4]))).toEqual(new Set(['Completed']));
  });

  it('writes the file in the language the asking user saved', async () => {
    await t.db.update(customers).set({ language: 'ua' }).where(eq(customers.id, A.customerId));
    try {
      const asked = await call('transactionHistoryExport', { fromDate: '2025-05-01', toDate: '2025-05-31' });
      await run();
      const records = parseCsv((await download(asked.exportId as string)).body.slice(1));
      expect(records[0]).toEqual(['Дата', 'ID операції', 'Тип', 'Напрямок', 'Статус', 'Рахунок', 'Сума', 'Валюта', 'Контрагент', 'Примітка', 'Референс']);
      expect(records.find((r) => r[1] === `${ids.formula}-fee`)?.slice(2, 5)).toEqual(['Комісія', 'Вихідна', 'Виконано']);
      expect(records.find((r) => r[1] === `${ids.received}-in`)?.slice(2, 5)).toEqual(['Платіж іншій особі', 'Вхідна', 'Виконано']);
    } finally {
      await t.db.update(customers).set({ language: 'en' }).where(eq(customers.id, A.customerId));
    }
  });

  it('writes cells safely: formulas neutralised, quotes and line breaks quoted, negative amounts as numbers, UTF-8 names', async () => {
    const asked = await call('transactionHistoryExport', { fromDate: '2025-05-01', toDate: '2025-05-31' });
    await run();
    const text = (await download(asked.exportId as string)).rawPayload.toString('utf8');
    const records = parseCsv(text.slice(1));
    const rowsOf = (id: number) => records.filter((r) => r[1]!.startsWith(`${id}-`));
    const [formulaOut, formulaFee] = rowsOf(ids.formula!);
    expect(formulaOut).toEqual([
      '2025-05-02T09:30:00Z', `${ids.formula}-out`, 'Payment to a person', 'Outgoing', 'Completed', String(AE), '-12.34', 'EUR', 'boris@demo.test',
      `'=HYPERLINK("http://evil.example","click")`, `'+SUM(A1)`,
    ]);
    expect(formulaFee?.[1]).toBe(`${ids.formula}-fee`);
    expect(formulaFee?.[2]).toBe('Fee');
    expect(formulaFee?.[6]).toBe('-0.12');
    const quoted = rowsOf(ids.quoted!);
    expect(quoted.map((r) => r[9])).toEqual(['multi\nline, with "quotes"', 'multi\nline, with "quotes"']);
    expect(quoted.map((r) => r[10])).toEqual([`'@ref`, `'@ref`]);
    const [received] = rowsOf(ids.received!);
    expect(received?.[8]).toBe('Борис Петров');
    expect(received?.[9]).toBe(`'-1 minus first`);
    expect(received?.[6]).toBe('3.00');
    // The raw text: the formula cell is quoted with doubled quotes, records end with CRLF.
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(records).toHaveLength(1 + 5);
  });

  it('builds the same file in small chunks as in one (a keyset walk, nothing repeated or skipped)', async () => {
    const small = (await call('transactionHistoryExport', { accountId: AE2 })).exportId as string;
    expect(await runExportJobs(t.db, Date.now, { chunkRows: 7 })).toBe(1);
    const whole = (await call('transactionHistoryExport', { accountId: AE2 })).exportId as string;
    await run();
    const a = (await download(small)).body;
    const b = (await download(whole)).body;
    expect(a).toBe(b);
    const records = parseCsv(a.slice(1));
    expect(records).toHaveLength(1 + 31);
    expect(records.slice(1).every((r) => r[5] === String(AE2) && r[3] === 'Incoming')).toBe(true);
    const status = await call('transactionHistoryExportStatus', { exportId: small });
    expect(status.export).toMatchObject({ accountId: AE2, rowCount: 31, progress: 100 });
  });

  it('exports under the §7 filter names (type, amountFrom, amountTo, customerEmail)', async () => {
    const asked = await call('transactionHistoryExport', { type: 'p2p', amountFrom: '3', amountTo: '12.34', customerEmail: 'BORIS@' });
    await run();
    const records = parseCsv((await download(asked.exportId as string)).body.slice(1));
    expect(records.slice(1).map((r) => [r[1], r[2], r[6]])).toEqual([[`${ids.formula}-out`, 'Payment to a person', '-12.34']]);
    const bad = await call('transactionHistoryExport', { amountFrom: '5', amountTo: '1', fromDate: '2025-01-02', toDate: '2025-01-01' });
    expect(bad.responseCode).toBe('VF');
    expect(bad.validationErrors).toEqual([
      { param: 'toDate', description: 'must not be before fromDate', code: 'notBefore', params: { other: 'fromDate' } },
      { param: 'amountTo', description: 'must not be less than amountFrom', code: 'notLessThan', params: { other: 'amountFrom' } },
    ]);
    expect((await call('transactionHistoryExport', { accountId: BE })).responseCode).toBe('ENOA');
  });

  it('keeps exports to their customer: ENOA for the status and the e-mail, 404 for the file', async () => {
    const mine = (await call('transactionHistoryExport', {})).exportId as string;
    await run();
    expect((await call('transactionHistoryExportStatus', { exportId: mine }, boris)).responseCode).toBe('ENOA');
    expect((await call('transactionHistoryExportSend', { exportId: mine, email: demoUserByKey.boris.email }, boris)).responseCode).toBe('ENOA');
    expect((await download(mine, boris)).statusCode).toBe(404);
    expect((await call('transactionHistoryExportStatus', { exportId: 'no-such-export' })).responseCode).toBe('ENOA');
    expect((await download('no-such-export')).statusCode).toBe(404);
    expect((await download('bad id!')).statusCode).toBe(404);
    expect((await download(mine, null)).statusCode).toBe(401);
    // Acting for a company the user may not act for.
    const [northwind] = await t.db.select({ id: customers.id }).from(customers).where(eq(customers.businessName, NORTHWIND_NAME));
    expect((await download(mine, anna, { 'Customer-Id': String(northwind!.id) })).statusCode).toBe(403);
    expect((await download(mine, anna, { 'Customer-Id': 'x' })).statusCode).toBe(403);
  });

  it('records who asked and who downloaded, without the file', async () => {
    const exportId = (await call('transactionHistoryExport', {})).exportId as string;
    await run();
    await download(exportId);
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.customerId, A.customerId)).orderBy(desc(auditLog.id)).limit(2);
    expect(entries.map((e) => [e.method, e.details])).toEqual([
      ['exportDownload', { exportId }],
      ['transactionHistoryExport', { exportId }],
    ]);
  });

  it('limits the exports in progress', async () => {
    const open = await t.db.select().from(historyExports).where(and(eq(historyExports.customerId, A.customerId), eq(historyExports.status, 'queued')));
    expect(open).toHaveLength(0);
    for (let i = 0; i < 5; i++) expect((await call('transactionHistoryExport', {})).responseCode).toBe('00');
    const refused = await call('transactionHistoryExport', {});
    expect(refused.responseCode).toBe('TA1');
    await run();
    expect((await call('transactionHistoryExport', {})).responseCode).toBe('00');
    await run();
  });
});

describe('transactionHistoryExportSend', () => {
  it('mails a sign-in link to the download, only when done and only to the user’s own address', async () => {
    const exportId = (await call('transactionHistoryExport', {})).exportId as string;
    const early = await call('transactionHistoryExportSend', { exportId, email: demoUserByKey.anna.email });
    expect(early.responseCode).toBe('TA1');
    await run();
    const elsewhere = await call('transactionHistoryExportSend', { exportId, email: 'someone@else.example' });
    expect(elsewhere.responseCode).toBe('VF');
    expect(elsewhere.validationErrors).toEqual([{ param: 'email', description: 'must be the e-mail address you sign in with', code: 'ownEmailOnly', params: {} }]);
    const malformed = await call('transactionHistoryExportSend', { exportId, email: 'not an address' });
    expect(malformed.responseCode).toBe('VF');
    const before = await t.db.select().from(outbox);

    const sent = await call('transactionHistoryExportSend', { exportId, email: ' Anna@Demo.test ' });
    expect(sent.responseCode).toBe('00');
    const after = await t.db.select().from(outbox);
    expect(after).toHaveLength(before.length + 1);
    const mail = after.find((m) => !before.some((b) => b.id === m.id))!;
    expect(mail).toMatchObject({ channel: 'mail', recipient: demoUserByKey.anna.email, status: 'queued' });
    expect(mail.subject).toMatch(/transaction history export/);
    expect(mail.body).toContain(`${PUBLIC_URL}/history?exportId=${exportId}`);
    const [row] = await t.db.select().from(historyExports).where(eq(historyExports.id, exportId));
    expect(mail.body).toContain(row!.fileName!);
    // The file itself never goes into the mail.
    expect(mail.body).not.toContain('Transaction ID');
  });
});

describe('transactionHistoryExportList (monthly)', () => {
  it('lists one export per finished month since the account opened, newest first, 12 a page, built by the worker', async () => {
    const now = new Date();
    const thisMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const opened = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 14, 15));
    await backdate(t.db, A.customerId, opened);
    const period = (monthsAgo: number) => {
      const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 1));
      return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    };
    // A movement in last month, on both of anna's EUR accounts.
    const lastMonthDay = new Date(thisMonth - 10 * 86_400_000);
    const inLastMonth = await insertTransfer(t.db, ledger, {
      kind: 'betweenAccounts', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: AE2, toCustomerId: A.customerId,
      amountMinor: 777n, note: 'last month', at: lastMonthDay,
    });

    const first = await call('transactionHistoryExportList', { accountId: AE, source: 'monthly' });
    expect(first.responseCode).toBe('00');
    expect(first.total).toBe(14);
    const page1 = first.exports as { exportId: string; source: string; accountId: number; period: string; status: string; progress: number }[];
    expect(page1).toHaveLength(12);
    expect(page1.map((e) => e.period)).toEqual(Array.from({ length: 12 }, (_, i) => period(i + 1)));
    expect(page1.every((e) => e.source === 'monthly' && e.accountId === AE && e.status === 'queued' && e.progress === 0)).toBe(true);
    const page2 = (await call('transactionHistoryExportList', { accountId: AE, pageNumber: 2 })).exports as { period: string }[];
    expect(page2.map((e) => e.period)).toEqual([period(13), period(14)]);
    expect(((await call('transactionHistoryExportList', { accountId: AE, pageNumber: 3 })).exports as unknown[]).length).toBe(0);
    const small = await call('transactionHistoryExportList', { accountId: AE, pageSize: 5 });
    expect((small.exports as unknown[]).length).toBe(5);

    // Listing again creates nothing new.
    const again = (await call('transactionHistoryExportList', { accountId: AE })).exports as { exportId: string }[];
    expect(again.map((e) => e.exportId)).toEqual(page1.map((e) => e.exportId));

    await run();
    await run();
    const built = (await call('transactionHistoryExportList', { accountId: AE })).exports as { exportId: string; status: string; rowCount: number; fileName: string; period: string }[];
    expect(built.every((e) => e.status === 'done')).toBe(true);
    expect(built[0]).toMatchObject({ period: period(1), rowCount: 1, fileName: `history-${AE}-${period(1)}.csv` });
    const records = parseCsv((await download(built[0]!.exportId)).body.slice(1));
    expect(records.slice(1).map((r) => [r[1], r[3], r[5], r[6], r[9]])).toEqual([[`${inLastMonth}-out`, 'Outgoing', String(AE), '-7.77', 'last month']]);
    // A month without movement: the header alone.
    expect(built[1]).toMatchObject({ rowCount: 0 });
    expect(parseCsv((await download(built[1]!.exportId)).body.slice(1))).toHaveLength(1);

    expect((await call('transactionHistoryExportList', { accountId: BE })).responseCode).toBe('ENOA');
    expect((await call('transactionHistoryExportList', { accountId: BE }, boris)).total).toBe(0);
  });
});

describe('the database going away while an export is built', () => {
  it('leaves the export to be built again instead of failing it', async () => {
    await run();
    const asked = await call('transactionHistoryExport', {});
    const exportId = asked.exportId as string;
    // Queries go through; the history walk (execute) meets a lost connection.
    const lost = new Error('Connection terminated unexpectedly');
    const flaky = new Proxy(t.db, {
      get: (target, prop, receiver) => (prop === 'execute' ? () => Promise.reject(lost) : Reflect.get(target, prop, receiver)),
    }) as Db;
    await expect(runExportJobs(flaky)).rejects.toBe(lost);
    const [row] = await t.db.select({ status: historyExports.status }).from(historyExports).where(eq(historyExports.id, exportId));
    expect(row?.status).toBe('processing');
    // Once its claim ran out, the next run builds it.
    expect(await runExportJobs(t.db, () => Date.now() + EXPORT_LEASE_MS + 1_000)).toBe(1);
    expect(((await call('transactionHistoryExportStatus', { exportId })).export as { status: string }).status).toBe('done');
  });
});

describe('on the job queue', () => {
  let q: TestApp;
  let queue: JobQueue;
  let who: SignedIn;

  beforeAll(async () => {
    const database = await createTestDatabase({ demoData: 'without-history' });
    queue = await startJobQueue(database.open, EXPORT_QUEUES, (err) => {
      throw err;
    });
    q = await createTestApp({ database, jobQueue: queue, transferWorkers: false });
    who = await signIn(q.app, 'anna');
  });

  afterAll(async () => {
    await queue?.stop();
    await q?.close();
  });

  const status = async (exportId: string) =>
    ((await callMethod(q.app, 'transactionHistoryExportStatus', { exportId }, { token: who.accessToken })).body as unknown as { export: { status: string; fileName: string | null } }).export;

  it("builds an export from the job sent with its row, and a second job for it changes nothing", async () => {
    const asked = (await callMethod(q.app, 'transactionHistoryExport', {}, { token: who.accessToken })).body as unknown as { exportId: string };
    // the app's worker takes the job (polling each second)
    const until = Date.now() + 15_000;
    while ((await status(asked.exportId)).status !== 'done') {
      if (Date.now() > until) throw new Error('the export was not built from its job');
      await new Promise((r) => setTimeout(r, 100));
    }
    const [built] = await q.db.select().from(historyExports).where(eq(historyExports.id, asked.exportId));
    // the job again (a worker that died after building it): nothing is built twice
    expect(await buildExportJob(q.db, queue, asked.exportId)).toBe('done');
    const [again] = await q.db.select().from(historyExports).where(eq(historyExports.id, asked.exportId));
    expect(again).toEqual(built);
  });

  it('the sweep sends a job for an export left without one', async () => {
    // a row an app without a queue wrote a while ago: no job of its own
    const [row] = await q.db
      .insert(historyExports)
      .values({ id: 'left-without-a-job-0001', customerId: A.customerId, userId: A.userId, source: 'manual', filter: {}, createdAt: new Date(Date.now() - EXPORT_LEASE_MS - 1_000) })
      .returning();
    expect(await sweepExports(q.db, queue)).toBe(1);
    const until = Date.now() + 15_000;
    while ((await status(row!.id)).status !== 'done') {
      if (Date.now() > until) throw new Error('the swept export was not built');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
});
