/**
 * Monthly statements (document 2 §2 /statements, §7): statementPeriods and the PDF at
 * GET /api/v1/statements/{accountId}/{year}/{month}; transaction receipts at
 * GET /api/v1/history/transactions/{transactionId}/receipt. Data is written straight into the
 * ledger's tables (history-fixture.ts), dated relative to today: the account opened three months
 * ago. The PDFs' text is read back through their fonts' ToUnicode maps (tests/pdf-text.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, customers } from '../../server/db/schema.ts';
import { customerAddresses } from '../../server/modules/profile/profile.tables.ts';
import { transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { formatSupportHours } from '../../variants/support-hours.ts';
import { receiptPath, receiptPathOf } from '../../api/history.ts';
import { readPdf } from '../pdf-text.ts';
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

function receipt(transactionId: number | string, who: SignedIn | null = anna, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'GET',
    url: typeof transactionId === 'number' ? receiptPath(transactionId) : `/api/v1/history/transactions/${transactionId}/receipt`,
    headers: { ...(who ? { authorization: `Bearer ${who.accessToken}` } : {}), ...headers },
  });
}

/** The placed lines of a PDF answer. */
const drawnText = (answer: { rawPayload: Buffer }) => readPdf(answer.rawPayload).lines;
const ids: Record<string, number> = {};

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
  await t.db.update(customers).set({ firstName: 'Борис', lastName: 'Петров', language: 'ru' }).where(eq(customers.id, B.customerId));
  await t.db.insert(customerAddresses).values({ customerId: B.customerId, address1: 'ул. Тверская, д. 7, кв. 12', city: 'Москва', postalCode: '125009', countryCode: 'RU' });

  // Last month: an exchange with a fee, a payment received, one sent; a pending and a rejected one.
  ids.exchange = await insertTransfer(t.db, ledger, {
    kind: 'betweenAccounts', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: AU, toCustomerId: A.customerId,
    amountMinor: 10000n, toAmountMinor: 10800n, feeMinor: 50n, note: 'Trip (Paris) \\ fund', at: atLast(3),
  });
  ids.received = await insertTransfer(t.db, ledger, {
    kind: 'p2p', status: 'posted', customerId: B.customerId, userId: B.userId, from: BE, to: AE, toCustomerId: A.customerId, toEmail: 'anna@demo.test',
    amountMinor: 2000n, at: atLast(5),
  });
  ids.sent = await insertTransfer(t.db, ledger, {
    kind: 'p2p', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: BE, toCustomerId: B.customerId, toEmail: 'boris@demo.test',
    amountMinor: 1234n, feeMinor: 12n, reference: 'INV-7', at: atLast(8),
  });
  ids.pending = await insertTransfer(t.db, ledger, {
    kind: 'p2p', status: 'pending', customerId: A.customerId, userId: A.userId, from: AE, to: BE, toCustomerId: B.customerId, toEmail: 'boris@demo.test',
    amountMinor: 3333n, at: atLast(9),
  });
  ids.rejected = await insertTransfer(t.db, ledger, {
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
    expect(pdf.startsWith('%PDF-1.')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    const text = drawnText(answer);
    expect(text).toContain(activeVariant.projectName);
    expect(text).toContain('Anna Kowalska');
    expect(text).toContain(`${AE} (EUR)`);
    expect(text).toContain(`Account statement, ${new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(last.start)}`);
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
    expect(text).toContain('Payment from Борис Петров');
    expect(text).toContain('Payment to boris@demo.test: ref. INV-7');
    expect(text).toContain('Fee');
    expect(text).toContain('+20.00 EUR');
    expect(text).toContain('-122.96 EUR');
    expect(text).toContain('2257.79 EUR');
    // Neither the pending nor the rejected transfer.
    expect(text.join('\n')).not.toContain('33.33');
    expect(text.join('\n')).not.toContain('44.44');
    expect(readPdf(answer.rawPayload).pages).toHaveLength(1);
    // The footer: the provider's legal name and licence, support with its hours.
    expect(text.some((l) => l.startsWith(activeVariant.letter.legalName))).toBe(true);
    expect(text.some((l) => l.includes(activeVariant.letter.licence))).toBe(true);
    expect(text.some((l) => l.includes(activeVariant.support.email) && l.includes(formatSupportHours(activeVariant.support.hours, 'en')))).toBe(true);
  });

  it('shows the payee side in another currency', async () => {
    const usd = drawnText(await statement(AU, last.year, last.month));
    expect(usd.filter((s) => /^[+-]\d+\.\d{2}$/.test(s))).toEqual(['+10.80', '+108.00']);
  });

  it('is in the customer’s saved language, with a Cyrillic name and address as written', async () => {
    // Boris saved Russian; his browser asking for Spanish does not change the statement.
    const answer = await statement(BE, last.year, last.month, boris, { 'accept-language': 'es' });
    expect(answer.statusCode).toBe(200);
    const text = drawnText(answer);
    expect(text).toContain('Борис Петров');
    expect(text).not.toContain('Boris Petrov');
    expect(text).toContain('ул. Тверская, д. 7, кв. 12, 125009 Москва, Россия');
    expect(text).toContain('Клиент:');
    expect(text).toContain('Перевод: anna@demo.test');
    expect(text).toContain('Поступление от: Anna Kowalska: назн. INV-7');
    expect(text.some((l) => l.startsWith('Поддержка: ') && l.includes(formatSupportHours(activeVariant.support.hours, 'ru')))).toBe(true);
    expect(text).toContain('Страница 1 из 1');
  });

  it('continues on further pages when the rows do not fit', async () => {
    const before = monthsAgo(2);
    const answer = await statement(AE, before.year, before.month);
    const pages = readPdf(answer.rawPayload).pages.length;
    expect(pages).toBeGreaterThanOrEqual(2);
    const text = drawnText(answer);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text.filter((s) => s === '-1.00')).toHaveLength(90);
    expect(text.filter((s) => s === 'Date')).toHaveLength(pages);
    expect(text).toContain('2360.75 EUR');
  });

  it('says so when a month has no movement', async () => {
    const text = drawnText(await statement(AE, now.getUTCFullYear(), now.getUTCMonth() + 1));
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

describe('the transaction receipt', () => {
  it('answers one’s own transfer as a PDF with every field, in the customer’s language', async () => {
    const answer = await receipt(ids.sent!);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="receipt-${ids.sent}.pdf"`);
    const text = drawnText(answer);
    const value = (label: string) => text[text.indexOf(label) + 1];
    expect(text).toContain('Transaction receipt');
    expect(text).toContain('Anna Kowalska');
    expect(value('Transaction ID')).toBe(String(ids.sent));
    expect(value('Type')).toBe('Payment to a person');
    expect(value('Status')).toBe('Completed');
    expect(value('Amount')).toBe('12.34 EUR');
    expect(value('Fee')).toBe('0.12 EUR');
    expect(value('Total debited')).toBe('12.46 EUR');
    expect(value('Debit account')).toBe(`${AE} (EUR)`);
    expect(value('Counterparty')).toBe('boris@demo.test');
    expect(value('Reference')).toBe('INV-7');
    expect(text.some((l) => l.startsWith(activeVariant.letter.legalName))).toBe(true);

    const exchange = drawnText(await receipt(ids.exchange!));
    expect(exchange[exchange.indexOf('Exchange rate') + 1]).toMatch(/^1 EUR = [\d.]+ USD$/);
    expect(exchange[exchange.indexOf('Credit account') + 1]).toBe(`${AU} (USD)`);
    // A pending one of one's own: its expiry; a rejected one: when its status changed.
    expect(drawnText(await receipt(ids.pending!))).toContain('Expires unless approved');
    expect(drawnText(await receipt(ids.rejected!))).toContain('Status changed');
  });

  it('gives the payee its own side, in its language, and never the payer’s fee or account', async () => {
    const text = drawnText(await receipt(ids.sent!, boris));
    expect(text).toContain('Квитанция об операции');
    expect(text).toContain('Борис Петров');
    expect(text[text.indexOf('Зачислено') + 1]).toBe('12.34 EUR');
    expect(text[text.indexOf('Контрагент') + 1]).toBe('Anna Kowalska');
    expect(text).not.toContain('Комиссия');
    expect(text.join('\n')).not.toContain(`${AE} (EUR)`);
  });

  it('answers 404 for another customer’s transfer, a payment the payee may not see yet, unknown ids and bad paths; 401 without a token', async () => {
    // Boris's payment to anna: she is its payee, and it is posted.
    expect((await receipt(ids.received!)).statusCode).toBe(200);
    // Anna's pending and rejected payments to boris: boris never sees them.
    expect((await receipt(ids.pending!, boris)).statusCode).toBe(404);
    expect((await receipt(ids.rejected!, boris)).statusCode).toBe(404);
    // Anna's exchange between her own accounts is nobody else's business.
    const other = await receipt(ids.exchange!, boris);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ responseCode: 'ENOA' });
    expect((await receipt(999_999_999)).statusCode).toBe(404);
    expect((await receipt('x')).statusCode).toBe(404);
    expect((await receipt('-1')).statusCode).toBe(404);
    expect((await receipt(ids.sent!, null)).statusCode).toBe(401);
    expect((await receipt(ids.sent!, anna, { 'Customer-Id': String(northwindId) })).statusCode).toBe(403);
    // Acting for the company: the company's transfers only.
    expect((await receipt(ids.sent!, clerk, { 'Customer-Id': String(northwindId) })).statusCode).toBe(404);
  });

  it('records each download in the audit log', async () => {
    await receipt(ids.sent!);
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.method, 'receiptDownload'));
    expect(entries.at(-1)).toMatchObject({ userId: A.userId, customerId: A.customerId, details: { transactionId: ids.sent } });
  });

  it('answers the receipt of a deposit row (a booking without a transfer) at its own path, to its customer only', async () => {
    const history = await callMethod(t.app, 'transactionHistory', { transactionType: 'deposit', accountId: AE }, { token: anna.accessToken });
    const [deposit] = (history.body.transactions as { transaction: { transactionId: number; kind: 'entry' | 'transfer' }[] }).transaction;
    const path = receiptPathOf(deposit!);
    expect(path).toBe(`/api/v1/history/entries/${deposit!.transactionId}/receipt`);
    const get = (who: SignedIn) => t.app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${who.accessToken}` } });
    const answer = await get(anna);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="receipt-E${deposit!.transactionId}.pdf"`);
    const text = drawnText(answer);
    expect(text[text.indexOf('Type') + 1]).toBe('Deposit');
    expect(text[text.indexOf('Credit account') + 1]).toBe(`${AE} (EUR)`);
    expect(text[text.indexOf('Amount credited') + 1]).toBe('2450.75 EUR');
    expect((await get(boris)).statusCode).toBe(404);
    // A transfer's booking is no entry receipt: the transfer has its own.
    const [booked] = await t.db.select({ entryId: transfers.entryId }).from(transfers).where(eq(transfers.id, ids.sent!));
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/history/entries/${booked!.entryId}/receipt`, headers: { authorization: `Bearer ${anna.accessToken}` } })).statusCode).toBe(404);
  });
});
