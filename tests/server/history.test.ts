/**
 * transactionHistory and balanceHistory (api/history.ts; document 2 §3, §4, §9) on the real
 * platform, with transfers written straight into the ledger's tables (history-fixture.ts).
 *
 * The expected rows come from a small model written here in plain code from the fixture's specs
 * (out / Fees / in rows, who sees what), and every filter is checked against it, one by one and
 * combined; a few rows are also spelled out by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { accounts, journalEntries, journalLegs } from '../../server/db/schema.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { activeVariant } from '../../variants/index.ts';
import { callMethod, createTestApp, signIn, type SignedIn, type TestApp } from './harness.ts';
import { accountOf, addAccount, insertTransfer, setupLedger, userOf, type Ledger, type TransferSpec } from './history-fixture.ts';

interface Row {
  rowId: string;
  kind: 'transfer' | 'entry';
  transactionId: number;
  transactionDate: string;
  operationType: string;
  direction: 'in' | 'out';
  status: string;
  accountId: number;
  amount: string;
  currency: string;
  counterparty: string;
  note: string | null;
  reference: string | null;
}

interface ModelRow extends Row {
  at: number;
  part: number;
  amountMinor: bigint;
  email: string | null;
}

let t: TestApp;
let ledger: Ledger;
let anna: SignedIn;
let boris: SignedIn;
let owner: SignedIn;
let A: { userId: number; customerId: number };
let B: { userId: number; customerId: number };
let AE: number;
let AU: number;
let AE2: number;
let BE: number;
let northwindId: number;
const provider = activeVariant.projectName;
const names = new Map<number, string>();
const specs: (TransferSpec & { id: number; fromCurrency: string; toCurrency: string })[] = [];
const ids: Record<string, number> = {};
const day = (d: string, hh = 10, mm = 0) => new Date(`${d}T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00Z`);

const money = (minor: bigint) => {
  const neg = minor < 0n;
  const abs = (neg ? -minor : minor).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${abs.slice(0, -2)}.${abs.slice(-2)}`;
};

async function add(name: string, spec: TransferSpec) {
  const id = await insertTransfer(t.db, ledger, spec);
  const cur = async (accountId: number) => (await t.db.select().from(accounts).where(eq(accounts.accountId, accountId)))[0]!.currency;
  specs.push({ ...spec, id, fromCurrency: await cur(spec.from), toCurrency: await cur(spec.to) });
  ids[name] = id;
  return id;
}

let deposits: ModelRow[] = [];

/** Every row the customer should see, by the rules of document 2 as the module states them. */
function model(customerId: number, accountOwner: Map<number, number>): ModelRow[] {
  const rows: ModelRow[] = deposits.filter((d) => accountOwner.get(d.accountId) === customerId);
  for (const s of specs) {
    const type = s.kind === 'p2p' ? 'p2p' : s.fromCurrency !== s.toCurrency ? 'exchange' : 'betweenAccounts';
    const base = { kind: 'transfer' as const, transactionId: s.id, transactionDate: s.at.toISOString(), at: s.at.getTime(), status: s.status, note: s.note ?? null, reference: s.reference ?? null, email: s.toEmail ?? null };
    const toAmount = s.toAmountMinor ?? s.amountMinor;
    if (s.customerId === customerId) {
      const counterparty = s.kind === 'p2p' ? (s.toEmail ?? names.get(s.toCustomerId)!) : `#${s.to} ${s.toCurrency}`;
      rows.push({ ...base, rowId: `transfer:${s.id}:${s.from}:${type}`, part: 3, operationType: type, direction: 'out', accountId: s.from, amountMinor: -s.amountMinor, amount: money(-s.amountMinor), currency: s.fromCurrency, counterparty });
      if ((s.feeMinor ?? 0n) > 0n) {
        rows.push({ ...base, rowId: `transfer:${s.id}:${s.from}:Fees`, part: 2, operationType: 'Fees', direction: 'out', accountId: s.from, amountMinor: -s.feeMinor!, amount: money(-s.feeMinor!), currency: s.fromCurrency, counterparty: provider });
      }
    }
    if (s.toCustomerId === customerId && (s.status === 'posted' || s.customerId === customerId)) {
      const counterparty = s.kind === 'p2p' ? names.get(s.customerId)! : `#${s.from} ${s.fromCurrency}`;
      rows.push({ ...base, rowId: `transfer:${s.id}:${s.to}:${type}`, part: 1, operationType: type, direction: 'in', accountId: s.to, amountMinor: toAmount, amount: money(toAmount), currency: s.toCurrency, counterparty });
    }
  }
  return rows.sort((a, b) => b.at - a.at || b.transactionId - a.transactionId || b.part - a.part || b.accountId - a.accountId);
}

type Filter = {
  accountId?: number;
  keyword?: string;
  transactionType?: string;
  fromDate?: string;
  toDate?: string;
  fromAmount?: string;
  toAmount?: string;
  transactionDirection?: 'in' | 'out';
  status?: string;
};

function applyFilter(rows: ModelRow[], f: Filter, withStatus = true): ModelRow[] {
  return rows.filter((r) => {
    if (f.accountId !== undefined && r.accountId !== f.accountId) return false;
    if (f.transactionType !== undefined && r.operationType !== f.transactionType) return false;
    if (f.transactionDirection !== undefined && r.direction !== f.transactionDirection) return false;
    if (withStatus && f.status !== undefined && r.status !== f.status) return false;
    if (f.fromDate !== undefined && r.at < Date.parse(`${f.fromDate}T00:00:00Z`)) return false;
    if (f.toDate !== undefined && r.at >= Date.parse(`${f.toDate}T00:00:00Z`) + 86_400_000) return false;
    const abs = r.amountMinor < 0n ? -r.amountMinor : r.amountMinor;
    if (f.fromAmount !== undefined && abs < BigInt(Math.round(Number(f.fromAmount) * 100))) return false;
    if (f.toAmount !== undefined && abs > BigInt(Math.round(Number(f.toAmount) * 100))) return false;
    if (f.keyword) {
      const k = f.keyword.toLowerCase();
      const hit = [r.note, r.reference, r.counterparty, r.email].some((x) => x !== null && x.toLowerCase().includes(k)) || String(r.transactionId) === f.keyword;
      if (!hit) return false;
    }
    return true;
  });
}

async function history(token: string, body: Record<string, unknown> = {}, headers?: Record<string, string>) {
  const answer = await callMethod(t.app, 'transactionHistory', body, { token, ...(headers ? { headers } : {}) });
  return answer.body as { responseCode: string; transactions: { transaction: Row[] }; results: number; rejectedCount: number; processingCount: number; validationErrors?: { param: string; description: string }[] };
}

/** Every page of a filter, 20 a page. */
async function allPages(token: string, filter: Filter): Promise<{ rows: Row[]; results: number; rejectedCount: number; processingCount: number }> {
  const rows: Row[] = [];
  const first = await history(token, filter);
  expect(first.responseCode).toBe('00');
  rows.push(...first.transactions.transaction);
  for (let page = 2; (page - 1) * 20 < first.results; page++) {
    const next = await history(token, { ...filter, pageNumber: page });
    expect(next.results).toBe(first.results);
    rows.push(...next.transactions.transaction);
  }
  return { rows, results: first.results, rejectedCount: first.rejectedCount, processingCount: first.processingCount };
}

let owners: Map<number, number>;

beforeAll(async () => {
  // The demo users without their seeded year: this suite's expectations are exact over its own fixtures
  // (the seeded history is checked in demo-history.test.ts).
  t = await createTestApp({ demoData: 'without-history' });
  ledger = await setupLedger(t.db);
  A = await userOf(t.db, demoUserByKey.anna.email);
  B = await userOf(t.db, demoUserByKey.boris.email);
  const owner0 = await userOf(t.db, demoUserByKey.owner.email);
  northwindId = owner0.customerId;
  names.set(A.customerId, 'Anna Kowalska');
  names.set(B.customerId, 'Boris Petrov');
  AE = await accountOf(t.db, A.customerId, 'EUR');
  AU = await accountOf(t.db, A.customerId, 'USD');
  BE = await accountOf(t.db, B.customerId, 'EUR');
  AE2 = await addAccount(t.db, A.customerId, 'EUR');

  const p2p = (from: 'A' | 'B', extra: Partial<TransferSpec> & Pick<TransferSpec, 'status' | 'amountMinor' | 'at'>): TransferSpec =>
    from === 'A'
      ? { kind: 'p2p', customerId: A.customerId, userId: A.userId, from: AE, to: BE, toCustomerId: B.customerId, toEmail: 'boris@demo.test', ...extra }
      : { kind: 'p2p', customerId: B.customerId, userId: B.userId, from: BE, to: AE, toCustomerId: A.customerId, toEmail: 'anna@demo.test', ...extra };

  await add('exchange', {
    kind: 'betweenAccounts', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: AU, toCustomerId: A.customerId,
    amountMinor: 10000n, toAmountMinor: 10800n, feeMinor: 50n, note: 'Holiday cash', reference: 'REF-1', at: day('2025-03-10'),
  });
  await add('paid', p2p('A', { status: 'posted', amountMinor: 2500n, feeMinor: 25n, note: 'Dinner 50% split', reference: 'INV_2025', at: day('2025-03-11') }));
  await add('pending', p2p('A', { status: 'pending', amountMinor: 4000n, at: day('2025-03-12') }));
  await add('rejected', p2p('A', { status: 'rejected', amountMinor: 1500n, at: day('2025-03-12', 11) }));
  await add('expired', p2p('A', { status: 'expired', amountMinor: 1200n, at: day('2025-03-13') }));
  await add('canceled', p2p('A', { status: 'canceled', amountMinor: 1100n, at: day('2025-03-13', 12) }));
  await add('received', p2p('B', { status: 'posted', amountMinor: 1000n, note: 'Thanks', at: day('2025-03-14') }));
  await add('receivedPending', p2p('B', { status: 'pending', amountMinor: 700n, at: day('2025-03-14', 12) }));
  await add('own', {
    kind: 'betweenAccounts', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: AE2, toCustomerId: A.customerId,
    amountMinor: 5000n, at: day('2025-03-15'),
  });
  // 25 own transfers of 1.00 to 1.25, an hour apart: 50 rows for paging. Two share one instant.
  for (let i = 0; i < 25; i++) {
    await add(`bulk${i}`, {
      kind: 'betweenAccounts', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: AE2, toCustomerId: A.customerId,
      amountMinor: 100n + BigInt(i), at: new Date(day('2025-04-01').getTime() + (i === 24 ? 23 : i) * 3_600_000),
    });
  }

  const legs = await t.db
    .select({ entryId: journalEntries.id, at: journalEntries.createdAt, accountId: journalLegs.accountId, amountMinor: journalLegs.amountMinor, currency: journalLegs.currency, customerId: accounts.customerId })
    .from(journalEntries)
    .innerJoin(journalLegs, eq(journalLegs.entryId, journalEntries.id))
    .innerJoin(accounts, eq(accounts.accountId, journalLegs.accountId))
    .where(and(isNull(journalEntries.transferId), eq(accounts.purpose, 'customer')));
  deposits = legs.map((l) => ({
    rowId: `entry:${l.entryId}:${l.accountId}:deposit`, kind: 'entry', transactionId: l.entryId, transactionDate: l.at.toISOString(), at: l.at.getTime(), part: 0,
    operationType: 'deposit', direction: l.amountMinor < 0n ? 'out' : 'in', status: 'posted', accountId: l.accountId, amountMinor: l.amountMinor,
    amount: money(l.amountMinor), currency: l.currency, counterparty: provider, note: null, reference: null, email: null,
  }));
  owners = new Map((await t.db.select({ id: accounts.accountId, c: accounts.customerId }).from(accounts)).map((a) => [a.id, a.c]));

  anna = await signIn(t.app, 'anna');
  boris = await signIn(t.app, 'boris');
  owner = await signIn(t.app, 'owner');
});

afterAll(async () => {
  await t?.close();
});

describe('transactionHistory', () => {
  it('lists every row of the customer, newest first, 20 a page, with the counts', async () => {
    const expected = model(A.customerId, owners);
    // 2 deposits, exchange 3, paid 2, pending/rejected/expired/canceled 1 each, received 1, own 2, bulk 50.
    expect(expected).toHaveLength(64);
    const first = await history(anna.accessToken);
    expect(first.responseCode).toBe('00');
    expect(first.results).toBe(64);
    expect(first.transactions.transaction).toHaveLength(20);
    expect(first.rejectedCount).toBe(1);
    expect(first.processingCount).toBe(1);
    const { rows } = await allPages(anna.accessToken, {});
    expect(rows.map((r) => r.rowId)).toEqual(expected.map((r) => r.rowId));
    expect(new Set(rows.map((r) => r.rowId)).size).toBe(64);
    const last = await history(anna.accessToken, { pageNumber: 4 });
    expect(last.transactions.transaction).toHaveLength(4);
    const beyond = await history(anna.accessToken, { pageNumber: 5 });
    expect(beyond.transactions.transaction).toEqual([]);
    expect(beyond.results).toBe(64);
    const wide = await history(anna.accessToken, { pageSize: 100 });
    expect(wide.transactions.transaction.map((r) => r.rowId)).toEqual(expected.map((r) => r.rowId));
  });

  it('shows a conversion as out, Fees and in rows with their amounts and sides', async () => {
    const { rows } = await allPages(anna.accessToken, { keyword: 'holiday' });
    const id = ids.exchange!;
    expect(rows).toEqual([
      { rowId: `transfer:${id}:${AE}:exchange`, kind: 'transfer', transactionId: id, transactionDate: '2025-03-10T10:00:00.000Z', operationType: 'exchange', direction: 'out', status: 'posted', accountId: AE, amount: '-100.00', currency: 'EUR', counterparty: `#${AU} USD`, note: 'Holiday cash', reference: 'REF-1' },
      { rowId: `transfer:${id}:${AE}:Fees`, kind: 'transfer', transactionId: id, transactionDate: '2025-03-10T10:00:00.000Z', operationType: 'Fees', direction: 'out', status: 'posted', accountId: AE, amount: '-0.50', currency: 'EUR', counterparty: provider, note: 'Holiday cash', reference: 'REF-1' },
      { rowId: `transfer:${id}:${AU}:exchange`, kind: 'transfer', transactionId: id, transactionDate: '2025-03-10T10:00:00.000Z', operationType: 'exchange', direction: 'in', status: 'posted', accountId: AU, amount: '108.00', currency: 'USD', counterparty: `#${AE} EUR`, note: 'Holiday cash', reference: 'REF-1' },
    ]);
  });

  it('shows the payer every status and the payee posted transfers only, with the payer’s name', async () => {
    const annaRows = (await allPages(anna.accessToken, {})).rows;
    expect(annaRows.find((r) => r.operationType !== 'deposit' && r.transactionId === ids.pending)).toMatchObject({ status: 'pending', direction: 'out', amount: '-40.00', counterparty: 'boris@demo.test' });
    expect(annaRows.find((r) => r.operationType !== 'deposit' && r.transactionId === ids.rejected)).toMatchObject({ status: 'rejected' });
    expect(annaRows.find((r) => r.operationType !== 'deposit' && r.transactionId === ids.received)).toMatchObject({ direction: 'in', amount: '10.00', counterparty: 'Boris Petrov', accountId: AE, operationType: 'p2p' });
    // boris's pending payment to anna is not hers yet.
    expect(annaRows.some((r) => r.operationType !== 'deposit' && r.transactionId === ids.receivedPending)).toBe(false);

    const borisAll = await allPages(boris.accessToken, {});
    const borisRows = borisAll.rows;
    expect(borisRows.map((r) => r.rowId)).toEqual(model(B.customerId, owners).map((r) => r.rowId));
    expect(borisRows.find((r) => r.operationType !== 'deposit' && r.transactionId === ids.paid)).toMatchObject({ direction: 'in', amount: '25.00', counterparty: 'Anna Kowalska', accountId: BE, note: 'Dinner 50% split' });
    for (const name of ['pending', 'rejected', 'expired', 'canceled']) expect(borisRows.some((r) => r.operationType !== 'deposit' && r.transactionId === ids[name])).toBe(false);
    // The payee never sees the payer's fee.
    expect(borisRows.some((r) => r.transactionId === ids.paid && r.operationType === 'Fees')).toBe(false);
    expect(borisRows.find((r) => r.operationType !== 'deposit' && r.transactionId === ids.receivedPending)).toMatchObject({ direction: 'out', status: 'pending' });
    expect(borisAll.processingCount).toBe(1);
    expect(borisAll.rejectedCount).toBe(0);
    // Nobody's rows leak into another's list.
    expect(borisRows.every((r) => owners.get(r.accountId) === B.customerId)).toBe(true);
    expect(annaRows.every((r) => owners.get(r.accountId) === A.customerId)).toBe(true);
  });

  const filters: [string, Filter, number | null][] = [
    ['accountId (the second EUR account)', {}, 26],
    ['keyword in a note, any case', { keyword: 'HOLIDAY' }, 3],
    ['keyword: % is a literal (not every row)', { keyword: '%' }, 2],
    ['keyword: _ is a literal (not every row)', { keyword: '_' }, 2],
    ['keyword: the payee e-mail', { keyword: 'Boris@Demo' }, 6],
    ['keyword: the payer name', { keyword: 'petrov' }, 1],
    ['keyword: a transaction id', {}, null],
    ['transactionType exchange', { transactionType: 'exchange' }, 2],
    ['transactionType Fees', { transactionType: 'Fees' }, 2],
    ['transactionType deposit', { transactionType: 'deposit' }, 2],
    ['transactionType p2p', { transactionType: 'p2p' }, 6],
    ['fromDate and toDate are inclusive days', { fromDate: '2025-03-11', toDate: '2025-03-12' }, 4],
    ['fromDate alone', { fromDate: '2025-04-01' }, 52],
    ['toDate alone', { toDate: '2025-03-10' }, 3],
    ['amounts on the absolute value, inclusive', { fromAmount: '25', toAmount: '40.00' }, 2],
    ['fromAmount alone', { fromAmount: '100' }, 4],
    ['direction in', { transactionDirection: 'in' }, 30],
    ['direction out', { transactionDirection: 'out' }, 34],
    ['status pending', { status: 'pending' }, 1],
    ['status posted', { status: 'posted' }, 60],
    ['combined: account, direction, type, status', { transactionDirection: 'out', transactionType: 'p2p', status: 'posted' }, 1],
    ['combined: dates, amounts and keyword', { fromDate: '2025-03-01', toDate: '2025-03-31', fromAmount: '0.5', keyword: 'demo.test' }, 6],
  ];

  it.each(filters)('filters: %s', async (_name, filter0, count) => {
    const filter: Filter = { ...filter0 };
    if (_name.startsWith('accountId')) filter.accountId = AE2;
    if (_name.startsWith('combined: account')) filter.accountId = AE;
    if (_name.includes('transaction id')) filter.keyword = String(ids.paid);
    const expected = applyFilter(model(A.customerId, owners), filter);
    if (count !== null) expect(expected).toHaveLength(count);
    const got = await allPages(anna.accessToken, filter);
    expect(got.results).toBe(expected.length);
    expect(got.rows.map((r) => r.rowId)).toEqual(expected.map((r) => r.rowId));
    // The counts ignore the status filter.
    const withoutStatus = applyFilter(model(A.customerId, owners), filter, false);
    expect(got.rejectedCount).toBe(withoutStatus.filter((r) => r.status === 'rejected').length);
    expect(got.processingCount).toBe(withoutStatus.filter((r) => r.status === 'pending').length);
  });

  it('keeps the counts when a status is chosen', async () => {
    const posted = await history(anna.accessToken, { status: 'posted' });
    expect(posted.results).toBe(60);
    expect(posted.rejectedCount).toBe(1);
    expect(posted.processingCount).toBe(1);
    const rejected = await history(anna.accessToken, { status: 'rejected' });
    expect(rejected.results).toBe(1);
    expect(rejected.transactions.transaction[0]).toMatchObject({ transactionId: ids.rejected, status: 'rejected' });
  });

  it('answers ENOA for another customer’s account and VF for a bad filter, listing every bad field', async () => {
    expect((await history(anna.accessToken, { accountId: BE })).responseCode).toBe('ENOA');
    expect((await history(anna.accessToken, { accountId: ledger.fee.EUR })).responseCode).toBe('ENOA');
    expect((await history(anna.accessToken, { accountId: 999_999 })).responseCode).toBe('ENOA');
    const bad = await history(anna.accessToken, { fromDate: '2025-03-12', toDate: '2025-03-11', fromAmount: '5', toAmount: '1' });
    expect(bad.responseCode).toBe('VF');
    expect(bad.validationErrors).toEqual([
      { param: 'toDate', description: 'must not be before fromDate', code: 'notBefore', params: { other: 'fromDate' } },
      { param: 'toAmount', description: 'must not be less than fromAmount', code: 'notLessThan', params: { other: 'fromAmount' } },
    ]);
    const impossible = await history(anna.accessToken, { fromDate: '2025-02-30' });
    expect(impossible.responseCode).toBe('VF');
    expect(impossible.validationErrors?.[0]?.param).toBe('fromDate');
    const shape = await history(anna.accessToken, { fromAmount: '-1', transactionType: 'card', pageSize: 500 });
    expect(shape.responseCode).toBe('VF');
    expect(shape.validationErrors?.map((e) => e.param).sort()).toEqual(['fromAmount', 'pageSize', 'transactionType']);
    const unsigned = await callMethod(t.app, 'transactionHistory', {});
    expect(unsigned.status).toBe(401);
  });

  it('filters by the payee e-mail and by the acting customerId (another customer is ENOA), and queues a CSV on exportCsv', async () => {
    const expected = model(A.customerId, owners);
    const withEmail = expected.filter((r) => r.email !== null);
    expect(withEmail.length).toBeGreaterThan(0);
    const someEmail = withEmail[0]!.email!;
    const byEmail = await allPages(anna.accessToken, { email: someEmail.toUpperCase() } as Filter);
    expect(byEmail.rows.map((r) => r.rowId)).toEqual(expected.filter((r) => r.email !== null && r.email.toLowerCase().includes(someEmail.toLowerCase())).map((r) => r.rowId));
    const mine = await history(anna.accessToken, { customerId: A.customerId });
    expect(mine.responseCode).toBe('00');
    expect(mine.results).toBe(expected.length);
    expect((await history(anna.accessToken, { customerId: B.customerId })).responseCode).toBe('ENOA');
    // No export unless asked for.
    const plain = (await callMethod(t.app, 'transactionHistory', {}, { token: anna.accessToken })).body;
    expect(plain).toMatchObject({ exportId: null, exportCsv: null });
    const asked = (await callMethod(t.app, 'transactionHistory', { exportCsv: true, transactionType: 'exchange' }, { token: anna.accessToken })).body;
    expect(asked.responseCode).toBe('00');
    expect(asked.exportCsv).toBe(`/api/v1/exports/${asked.exportId as string}/file`);
    const status = await callMethod(t.app, 'transactionHistoryExportStatus', { exportId: asked.exportId }, { token: anna.accessToken });
    expect(status.body).toMatchObject({ responseCode: '00', export: { exportId: asked.exportId, source: 'manual' } });
    expect((await callMethod(t.app, 'transactionHistoryExportStatus', { exportId: asked.exportId }, { token: boris.accessToken })).body.responseCode).toBe('ENOA');
  });

  it('acts for a company with fromCustomerId only when the user may', async () => {
    const own = await history(owner.accessToken, { fromCustomerId: northwindId });
    expect(own.responseCode).toBe('00');
    const northwindAccounts = await t.db.select({ id: accounts.accountId }).from(accounts).where(eq(accounts.customerId, northwindId));
    expect(own.results).toBe(2);
    expect(own.transactions.transaction.every((r) => northwindAccounts.some((a) => a.id === r.accountId) && r.operationType === 'deposit')).toBe(true);
    expect((await history(anna.accessToken, { fromCustomerId: northwindId })).responseCode).toBe('ENOA');
    expect((await history(anna.accessToken, {}, { 'Customer-Id': String(northwindId) })).responseCode).toBe('ENOA');
  });
});

describe('balanceHistory', () => {
  it('gives each currency’s end-of-day balance: the start, each day with movement, today', async () => {
    const answer = await callMethod(t.app, 'balanceHistory', { days: 30 }, { token: anna.accessToken });
    expect(answer.body.responseCode).toBe('00');
    const series = answer.body.series as { currency: string; points: { date: string; balance: string }[] }[];
    expect(series.map((s) => s.currency).sort()).toEqual(['EUR', 'USD']);
    const balances = await t.db.select().from(accounts).where(and(eq(accounts.customerId, A.customerId), eq(accounts.purpose, 'customer')));
    const today = new Date().toISOString().slice(0, 10);
    for (const s of series) {
      const total = balances.filter((b) => b.currency === s.currency).reduce((sum, b) => sum + b.balanceMinor, 0n);
      expect(s.points.at(-1)).toEqual({ date: today, balance: money(total) });
      const dates = s.points.map((p) => p.date);
      expect([...dates].sort()).toEqual(dates);
      expect(new Set(dates).size).toBe(dates.length);
      expect(dates[0]).toBe(new Date(Date.parse(`${today}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10));
    }
  });

  it('draws every point from the journal legs up to the end of its day', async () => {
    const answer = await callMethod(t.app, 'balanceHistory', { days: 366 }, { token: anna.accessToken });
    const series = answer.body.series as { currency: string; points: { date: string; balance: string }[] }[];
    const eur = series.find((s) => s.currency === 'EUR')!;
    const legs = await t.db
      .select({ at: journalEntries.createdAt, amountMinor: journalLegs.amountMinor, currency: journalLegs.currency })
      .from(journalLegs)
      .innerJoin(journalEntries, eq(journalEntries.id, journalLegs.entryId))
      .innerJoin(accounts, eq(accounts.accountId, journalLegs.accountId))
      .where(and(eq(accounts.customerId, A.customerId), eq(accounts.purpose, 'customer'), eq(journalLegs.currency, 'EUR')));
    for (const point of eur.points) {
      const end = Date.parse(`${point.date}T00:00:00Z`) + 86_400_000;
      const sum = legs.filter((l) => l.at.getTime() < end).reduce((s, l) => s + l.amountMinor, 0n);
      expect(point.balance, point.date).toBe(money(sum));
    }
    const start = new Date(Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) - 366 * 86_400_000).toISOString().slice(0, 10);
    const daysWithMovement = new Set(legs.map((l) => l.at.toISOString().slice(0, 10)).filter((d) => d > start));
    expect(eur.points.map((p) => p.date).filter((d) => d !== start).sort()).toEqual([...new Set([...daysWithMovement, new Date().toISOString().slice(0, 10)])].sort());
  });

  it('refuses a window outside 7-366 days', async () => {
    const answer = await callMethod(t.app, 'balanceHistory', { days: 3 }, { token: anna.accessToken });
    expect(answer.body.responseCode).toBe('VF');
  });
});
