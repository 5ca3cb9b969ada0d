/**
 * Monthly statements (document 2 §2 /statements, §7): statementPeriods and the PDF at
 * GET /api/v1/statements/{accountId}/{year}/{month}. Data is written straight into the ledger's
 * tables (history-fixture.ts), dated relative to today: the account opened three months ago.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, customers } from '../../server/db/schema.ts';
import { demoUserByKey, NORTHWIND_NAME } from '../../server/db/demo-users.ts';
import { activeVariant } from '../../variants/index.ts';
import { callMethod, createTestApp, signIn, type SignedIn, type TestApp } from './harness.ts';
import { accountOf, backdate, insertTransfer, setupLedger, userOf, type Ledger } from './history-fixture.ts';

let t: TestApp;
let ledger: Ledger;
let anna: SignedIn;
let boris: SignedIn;
let clerk: SignedIn;
let A: { userId: number; customerId: number };
let B: { userId: number; customerId: number };
let AE: number;
let AU: number;
let BE: number;
let northwindId: number;
let NE: number;
const now = new Date();
/** {year, month} n months before the current one */
const monthsAgo = (n: number) => {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 1));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, start: d };
};
const last = monthsAgo(1);
const atLast = (day: number, hour = 12) => new Date(Date.UTC(last.year, last.month - 1, day, hour));

function statement(accountId: number, year: number, month: number | string, who: SignedIn | null = anna, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'GET',
    url: `/api/v1/statements/${accountId}/${year}/${month}`,
    headers: { ...(who ? { authorization: `Bearer ${who.accessToken}` } : {}), ...headers },
  });
}

/** The text drawn by the content streams: the (…) operands of Tj, unescaped. */
function drawnText(pdf: string): string[] {
  return [...pdf.matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)].map((m) => m[1]!.replace(/\\([()\\])/g, '$1'));
}

beforeAll(async () => {
  // The demo users without their seeded year: this suite's expectations are exact over its own fixtures
  // (the seeded history is checked in demo-history.test.ts).
  t = await createTestApp({ demoData: 'without-history' });
  ledger = await setupLedger(t.db);
  A = await userOf(t.db, demoUserByKey.anna.email);
  B = await userOf(t.db, demoUserByKey.boris.email);
  northwindId = (await userOf(t.db, demoUserByKey.owner.email)).customerId;
  AE = await accountOf(t.db, A.customerId, 'EUR');
  AU = await accountOf(t.db, A.customerId, 'USD');
  BE = await accountOf(t.db, B.customerId, 'EUR');
  NE = await accountOf(t.db, northwindId, 'EUR');
  // Anna's accounts and opening balances (2450.75 EUR) date from three months ago, on the 20th.
  const opened = monthsAgo(3);
  await backdate(t.db, A.customerId, new Date(Date.UTC(opened.year, opened.month - 1, 20)));
  await backdate(t.db, B.customerId, new Date(Date.UTC(opened.year, opened.month - 1, 20)));
  await t.db.update(customers).set({ firstName: 'Борис', lastName: 'Петров' }).where(eq(customers.id, B.customerId));

  // Last month: an exchange with a fee, a payment received, one sent; a pending and a rejected one.
  await insertTransfer(t.db, ledger, {
    kind: 'betweenAccounts', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: AU, toCustomerId: A.customerId,
    amountMinor: 10000n, toAmountMinor: 10800n, feeMinor: 50n, note: 'Trip (Paris) \\ fund', at: atLast(3),
  });
  await insertTransfer(t.db, ledger, {
    kind: 'p2p', status: 'posted', customerId: B.customerId, userId: B.userId, from: BE, to: AE, toCustomerId: A.customerId, toEmail: 'anna@demo.test',
    amountMinor: 2000n, at: atLast(5),
  });
  await insertTransfer(t.db, ledger, {
    kind: 'p2p', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: BE, toCustomerId: B.customerId, toEmail: 'boris@demo.test',
    amountMinor: 1234n, feeMinor: 12n, reference: 'INV-7', at: atLast(8),
  });
  await insertTransfer(t.db, ledger, {
    kind: 'p2p', status: 'pending', customerId: A.customerId, userId: A.userId, from: AE, to: BE, toCustomerId: B.customerId, toEmail: 'boris@demo.test',
    amountMinor: 3333n, at: atLast(9),
  });
  await insertTransfer(t.db, ledger, {
    kind: 'p2p', status: 'rejected', customerId: A.customerId, userId: A.userId, from: AE, to: BE, toCustomerId: B.customerId, toEmail: 'boris@demo.test',
    amountMinor: 4444n, at: atLast(9, 13),
  });
  // Asked on the last day of the month before, booked on the 1st of last month: it belongs to last month.
  const monthBefore = monthsAgo(2);
  await insertTransfer(t.db, ledger, {
    kind: 'betweenAccounts', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: AU, toCustomerId: A.customerId,
    amountMinor: 1000n, toAmountMinor: 1080n, at: new Date(last.start.getTime() - 3_600_000), bookedAt: new Date(last.start.getTime() + 3_600_000),
  });
  // Two months ago: 90 small movements between anna's accounts (several pages).
  for (let i = 0; i < 90; i++) {
    await insertTransfer(t.db, ledger, {
      kind: 'betweenAccounts', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: AU, toCustomerId: A.customerId,
      amountMinor: 100n, toAmountMinor: 108n, at: new Date(Date.UTC(monthBefore.year, monthBefore.month - 1, 1 + (i % 27), 8, i)),
    });
  }
  anna = await signIn(t.app, 'anna');
  boris = await signIn(t.app, 'boris');
  clerk = await signIn(t.app, 'clerk');
});

afterAll(async () => {
  await t?.close();
});

describe('statementPeriods', () => {
  it('lists the months from the account’s first to the current one, newest first', async () => {
    const answer = await callMethod(t.app, 'statementPeriods', { accountId: AE }, { token: anna.accessToken });
    expect(answer.body.responseCode).toBe('00');
    expect(answer.body.periods).toEqual([0, 1, 2, 3].map((n) => ({ year: monthsAgo(n).year, month: monthsAgo(n).month })));
    expect((await callMethod(t.app, 'statementPeriods', { accountId: BE }, { token: anna.accessToken })).body.responseCode).toBe('ENOA');
    expect((await callMethod(t.app, 'statementPeriods', { accountId: ledger.fee.EUR! }, { token: anna.accessToken })).body.responseCode).toBe('ENOA');
  });
});

describe('the statement PDF', () => {
  it('has the provider, the customer, the account, the period, every posted movement with its running balance, and the totals', async () => {
    const answer = await statement(AE, last.year, last.month);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    const mm = String(last.month).padStart(2, '0');
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="statement-${AE}-${last.year}-${mm}.pdf"`);
    const pdf = answer.rawPayload.toString('latin1');
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    const text = drawnText(pdf);
    expect(text).toContain(activeVariant.projectName);
    expect(text).toContain('Anna Kowalska');
    expect(text).toContain(`${AE} (EUR)`);
    const lastDay = new Date(Date.UTC(last.year, last.month, 0)).getUTCDate();
    expect(text).toContain(`${last.year}-${mm}-01 to ${last.year}-${mm}-${lastDay}`);
    // Opening: 2450.75 minus the 90 movements of the month before (90 x 1.00).
    expect(text).toContain('2360.75 EUR');
    // Booked in order: the conversion booked on the 1st, the exchange (+ fee), received, sent (+ fee).
    const amounts = text.filter((s) => /^[+-]\d+\.\d{2}$/.test(s));
    expect(amounts).toEqual(['-10.00', '-100.00', '-0.50', '+20.00', '-12.34', '-0.12']);
    const balances = ['2350.75', '2250.75', '2250.25', '2270.25', '2257.91', '2257.79'];
    for (const b of balances) expect(text).toContain(b);
    expect(text).toContain(`Exchange to #${AU} USD: Trip (Paris) \\ fund`);
    expect(text).toContain('Payment from Boris Petrov');
    expect(text).toContain('Payment to boris@demo.test: ref. INV-7');
    expect(text).toContain('Fee');
    expect(text).toContain('+20.00 EUR');
    expect(text).toContain('-122.96 EUR');
    expect(text).toContain('2257.79 EUR');
    // Neither the pending nor the rejected transfer.
    expect(pdf).not.toContain('33.33');
    expect(pdf).not.toContain('44.44');
    // The escaped form in the file itself.
    expect(pdf).toContain('(Exchange to #');
    expect(pdf).toContain('Trip \\(Paris\\) \\\\ fund');
    expect(pdf).toContain('/Count 1');
  });

  it('shows the payee side in another currency and transliterates names the PDF fonts cannot show', async () => {
    const usd = drawnText((await statement(AU, last.year, last.month)).rawPayload.toString('latin1'));
    expect(usd.filter((s) => /^[+-]\d+\.\d{2}$/.test(s))).toEqual(['+10.80', '+108.00']);
    const borisPdf = drawnText((await statement(BE, last.year, last.month, boris)).rawPayload.toString('latin1'));
    expect(borisPdf).toContain('Boris Petrov');
    expect(borisPdf).toContain('Payment to anna@demo.test');
    expect(borisPdf).toContain('Payment from Anna Kowalska: ref. INV-7');
  });

  it('continues on further pages when the rows do not fit', async () => {
    const before = monthsAgo(2);
    const pdf = (await statement(AE, before.year, before.month)).rawPayload.toString('latin1');
    const pages = [...pdf.matchAll(/\/Type \/Page\b(?!s)/g)].length;
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(pdf).toContain(`/Count ${pages}`);
    const text = drawnText(pdf);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text.filter((s) => s === '-1.00')).toHaveLength(90);
    expect(text.filter((s) => s === 'Date')).toHaveLength(pages);
    expect(text).toContain('2360.75 EUR');
  });

  it('says so when a month has no movement', async () => {
    const text = drawnText((await statement(AE, now.getUTCFullYear(), now.getUTCMonth() + 1)).rawPayload.toString('latin1'));
    expect(text).toContain('No movements in this period.');
  });

  it('answers 404 for months outside the account’s life, other customers’ accounts and bad paths; 401 without a token', async () => {
    const opened = monthsAgo(3);
    const beforeOpening = monthsAgo(4);
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    expect((await statement(AE, opened.year, opened.month)).statusCode).toBe(200);
    expect((await statement(AE, beforeOpening.year, beforeOpening.month)).statusCode).toBe(404);
    expect((await statement(AE, next.getUTCFullYear(), next.getUTCMonth() + 1)).statusCode).toBe(404);
    expect((await statement(BE, last.year, last.month)).statusCode).toBe(404);
    expect((await statement(ledger.fee.EUR!, last.year, last.month)).statusCode).toBe(404);
    expect((await statement(999_999, last.year, last.month)).statusCode).toBe(404);
    expect((await statement(AE, last.year, 13)).statusCode).toBe(404);
    expect((await statement(AE, last.year, 'x')).statusCode).toBe(404);
    const missing = await statement(AE, last.year, last.month, null);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ responseCode: 'AU' });
    expect((await statement(BE, last.year, last.month)).json()).toMatchObject({ responseCode: 'ENOA' });
  });

  it('serves a company’s statement to a user acting for it with the Customer-Id header, and to nobody else', async () => {
    expect((await statement(NE, now.getUTCFullYear(), now.getUTCMonth() + 1, clerk, { 'Customer-Id': String(northwindId) })).statusCode).toBe(200);
    expect((await statement(NE, now.getUTCFullYear(), now.getUTCMonth() + 1, clerk)).statusCode).toBe(404);
    expect((await statement(NE, now.getUTCFullYear(), now.getUTCMonth() + 1, anna, { 'Customer-Id': String(northwindId) })).statusCode).toBe(403);
    const [c] = await t.db.select({ name: customers.businessName }).from(customers).where(eq(customers.id, northwindId));
    expect(c?.name).toBe(NORTHWIND_NAME);
  });

  it('records each download in the audit log', async () => {
    await statement(AE, last.year, last.month);
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.method, 'statementDownload'));
    const mm = String(last.month).padStart(2, '0');
    expect(entries.at(-1)).toMatchObject({ userId: A.userId, customerId: A.customerId, details: { accountId: AE, period: `${last.year}-${mm}` } });
  });
});
