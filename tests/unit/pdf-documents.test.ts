/**
 * The PDF documents (server/modules/history/pdf-document.ts, statement-pdf.ts, receipt-pdf.ts):
 * pdfkit with DejaVu Sans embedded, text read back through each font's ToUnicode map
 * (tests/pdf-text.ts), so a name in any script must come out exactly as written.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { activeVariant } from '../../variants/index.ts';
import { formatSupportHours } from '../../variants/support-hours.ts';
import { documentLanguage, DOCUMENT_LANGUAGES, documentWords, monthName } from '../../server/modules/history/document-words.ts';
import { FONT_FILES, PdfCanvas } from '../../server/modules/history/pdf-document.ts';
import { entryReceiptFields, receiptFields, renderReceiptPdf } from '../../server/modules/history/receipt-pdf.ts';
import { describeMovement, renderStatementPdf, summarise, type StatementData, type StatementMovement } from '../../server/modules/history/statement-pdf.ts';
import type { ReceiptTransfer } from '../../server/modules/history/history.service.ts';
import { readPdf, type ReadPdf } from '../pdf-text.ts';

/**
 * Layout problems of a file: two placed texts of a page that overlap (same line, crossing
 * extents), or a text outside the page's margins (50 pt each side, 20 pt top and bottom).
 */
function layoutProblems(pdf: ReadPdf): string[] {
  const measure = new PdfCanvas({ title: 'm', author: 'm', lang: 'en', createdAt: new Date(0) });
  const problems: string[] = [];
  for (const page of pdf.pages) {
    const boxes = page.placed.map((p) => ({ ...p, width: measure.width(p.text, p.size, p.font.endsWith('-Bold') ? 'bold' : 'regular') }));
    boxes.forEach((a, i) => {
      if (a.x < 49.9 || a.x + a.width > 545.4 || a.y < 20 || a.y > 822) problems.push(`outside: ${a.text}`);
      for (const b of boxes.slice(i + 1)) {
        if (Math.abs(a.y - b.y) < Math.min(a.size, b.size) && a.x < b.x + b.width && b.x < a.x + a.width) problems.push(`overlap: ${a.text} / ${b.text}`);
      }
    });
  }
  return problems;
}

const movement = (i: number): StatementMovement => ({
  bookedAt: new Date(Date.UTC(2026, 2, 1 + (i % 28), 10)),
  amountMinor: i % 2 === 0 ? 150n : -100n,
  operationType: 'betweenAccounts',
  direction: i % 2 === 0 ? 'in' : 'out',
  counterparty: `#${i}`,
  note: `Movement ${i + 1}`,
  reference: null,
});

const statement = (over: Partial<StatementData> = {}): StatementData => ({
  lang: 'en',
  providerName: 'Lumen Wallet',
  customerName: 'Юлія Щербак',
  customerAddress: 'вул. Хрещатик 1, 01001 Київ, Україна',
  accountId: 42,
  currency: 'EUR',
  year: 2026,
  month: 3,
  openingBalanceMinor: 100000n,
  movements: [],
  generatedAt: new Date('2026-04-01T08:00:00Z'),
  ...over,
});

describe('the fonts', () => {
  it('are DejaVu Sans and DejaVu Sans Bold from the package, embedded as subsets', async () => {
    expect(existsSync(FONT_FILES.regular)).toBe(true);
    expect(existsSync(FONT_FILES.bold)).toBe(true);
    const pdf = readPdf(await renderStatementPdf(statement()));
    expect(pdf.fonts.some((f) => /^[A-Z]{6}\+DejaVuSans$/.test(f))).toBe(true);
    expect(pdf.fonts.some((f) => /^[A-Z]{6}\+DejaVuSans-Bold$/.test(f))).toBe(true);
    // No standard font (WinAnsi only) is left in the file.
    expect((await renderStatementPdf(statement())).toString('latin1')).not.toMatch(/\/BaseFont \/Helvetica/);
  });
});

describe('statement layout', () => {
  it('sums the movements: totals in and out, running and closing balances', () => {
    const s = summarise({ openingBalanceMinor: 1000n, movements: [0, 1, 2, 3].map(movement) });
    expect(s).toEqual({ totalInMinor: 300n, totalOutMinor: 200n, closingBalanceMinor: 1100n, runningMinor: [1150n, 1050n, 1200n, 1100n] });
  });

  it('shows names and addresses in any script as written, with no transliteration', async () => {
    const names = ['Юлія Щербак', 'Борис Петров', 'Łukasz Żółć', 'Ștefan Țurcanu', 'Γιώργος Παπαδόπουλος', 'Müller & Søn', 'Արամ Խաչատրյան', 'ნინო ბერიძე'];
    for (const customerName of names) {
      const pdf = readPdf(await renderStatementPdf(statement({ customerName })));
      expect(pdf.lines).toContain(customerName);
    }
    const pdf = readPdf(await renderStatementPdf(statement()));
    expect(pdf.lines).toContain('вул. Хрещатик 1, 01001 Київ, Україна');
    expect(pdf.lines).not.toContain('Yuliya Shcherbak');
  });

  it('puts every movement on a page, the header on each, numbers the pages and ends each with the footer', async () => {
    const movements = Array.from({ length: 120 }, (_, i) => movement(i));
    const pdf = readPdf(await renderStatementPdf(statement({ movements })));
    expect(pdf.pages.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i <= 120; i++) expect(pdf.lines.some((l) => l.endsWith(`: Movement ${i}`))).toBe(true);
    const hours = formatSupportHours(activeVariant.support.hours, 'en');
    pdf.pages.forEach((p, i) => {
      expect(p.lines).toContain('Description');
      expect(p.lines).toContain(`Page ${i + 1} of ${pdf.pages.length}`);
      expect(p.lines.some((l) => l.startsWith(activeVariant.letter.legalName))).toBe(true);
      expect(p.lines.some((l) => l.includes(activeVariant.support.email) && l.includes(hours))).toBe(true);
    });
    const first = pdf.pages[0]!.lines;
    expect(first).toContain('Account statement, March 2026');
    expect(first).toContain('2026-03-01 to 2026-03-31');
    expect(first).toContain('1000.00 EUR');
    expect(first).toContain('42 (EUR)');
    const last = pdf.pages.at(-1)!.lines;
    expect(last).toContain('+90.00 EUR');
    expect(last).toContain('-60.00 EUR');
    expect(last).toContain('1030.00 EUR');
  });

  it('writes a one-page statement with no movements', async () => {
    const pdf = readPdf(await renderStatementPdf(statement({ currency: 'BTC', month: 2, openingBalanceMinor: 5n, customerAddress: '' })));
    expect(pdf.pages).toHaveLength(1);
    expect(pdf.lines).toContain('No movements in this period.');
    expect(pdf.lines).toContain('2026-02-01 to 2026-02-28');
    expect(pdf.lines).toContain('0.00000005 BTC');
    expect(pdf.lines).not.toContain('Address:');
  });

  it('is written in the customer’s language, support hours included', async () => {
    const pdf = readPdf(await renderStatementPdf(statement({ lang: 'uk', movements: [movement(1)] })));
    expect(pdf.lines).toContain(`Виписка з рахунку, ${monthName('uk', 2026, 3)}`);
    expect(pdf.lines).toContain('Клієнт:');
    expect(pdf.lines).toContain('Адреса:');
    expect(pdf.lines).toContain('з 2026-03-01 по 2026-03-31');
    expect(pdf.lines).toContain('Переказ на рахунок #1: Movement 2');
    expect(pdf.lines).toContain('Сторінка 1 з 1');
    expect(pdf.lines.some((l) => l.startsWith('Підтримка: ') && l.includes(formatSupportHours(activeVariant.support.hours, 'uk')))).toBe(true);
    expect(pdf.lines).not.toContain('Description');
  });

  it('gives the same bytes for the same data (a fixed creation date)', async () => {
    const a = await renderStatementPdf(statement({ movements: [movement(1)] }));
    const b = await renderStatementPdf(statement({ movements: [movement(1)] }));
    expect(a.equals(b)).toBe(true);
    expect(readPdf(a).info).toContain('D:20260401080000Z');
  });
});

describe('accessibility', () => {
  it('is a tagged PDF in the document’s language: a heading, the movements as one table, page furniture as artifacts', async () => {
    const movements = Array.from({ length: 70 }, (_, i) => movement(i));
    const file = await renderStatementPdf(statement({ lang: 'uk', movements }));
    expect(readPdf(file).pages).toHaveLength(2);
    const raw = file.toString('latin1');
    const count = (tag: string) => (raw.match(new RegExp(`/S /${tag}\\b`, 'g')) ?? []).length;
    expect(raw.startsWith('%PDF-1.7')).toBe(true);
    expect(raw).toMatch(/\/Marked true/);
    expect(raw).toMatch(/\/StructTreeRoot \d+ 0 R/);
    expect(raw).toMatch(/\/Lang \(uk\)/);
    expect(raw).toMatch(/\/DisplayDocTitle true/);
    expect(count('H1')).toBe(1);
    expect(count('Table')).toBe(1);
    // The header row once (its repeat on page 2 is an artifact), then one row per movement.
    expect(count('TH')).toBe(4);
    expect(count('TR')).toBe(71);
    expect(count('TD')).toBe(280);
    const receipt = (await renderReceiptPdf({ lang: 'en', providerName: 'P', customerName: 'C', customerAddress: '', receiptId: '1', fields: [['Type', 'Fee']], generatedAt: new Date(0) })).toString('latin1');
    expect((receipt.match(/\/S \/TH\b/g) ?? []).length).toBe(2);
  });
});

describe('the layout', () => {
  it('keeps every text inside the margins and apart from the others, in every language, long values included', async () => {
    const note = 'Оплата за квартиру и коммунальные услуги за март, договор аренды № 12345';
    const movements = Array.from({ length: 60 }, (_, i): StatementMovement => ({
      ...movement(i), operationType: 'exchange', counterparty: '#1234567 BTC', note, reference: `INV-${i}`, amountMinor: i % 2 ? -123456789n : 5000000n,
    }));
    const transfer: ReceiptTransfer = {
      transactionId: 123456, operationType: 'exchange', viewer: 'payer', status: 'pending', createdAt: new Date(0), updatedAt: new Date(0), expiresAt: new Date(0),
      bookedAt: null, fromAccountId: 1234567, fromCurrency: 'EUR', amountMinor: 123456789n, feeMinor: 1234n, toAccountId: 7654321, toCurrency: 'USD',
      toAmountMinor: 133456789n, rate: '1.0812345678', counterparty: '', note: `${note} `.repeat(10), reference: 'R'.repeat(140), payout: false, railReason: null,
    };
    const address = 'вулиця Велика Васильківська 100, квартира 1234, 01001 Київ, Київська область, Україна';
    for (const lang of DOCUMENT_LANGUAGES) {
      const statementPdf = readPdf(
        await renderStatementPdf(statement({ lang, movements, currency: 'BTC', accountId: 1234567, accountAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh', customerAddress: address })),
      );
      expect(statementPdf.pages.length).toBe(2);
      expect(layoutProblems(statementPdf)).toEqual([]);
      const receiptPdf = readPdf(
        await renderReceiptPdf({ lang, providerName: 'Lumen Wallet', customerName: 'Юлія Щербак', customerAddress: address, receiptId: '123456', fields: receiptFields({ lang, transfer }), generatedAt: new Date(0) }),
      );
      expect(layoutProblems(receiptPdf)).toEqual([]);
      // The note (ten times a long sentence) fills eight lines, the last one cut with an ellipsis.
      const noteLines = receiptPdf.lines.filter((l) => /Оплата|квартиру|коммунальные|договор|аренды/.test(l));
      expect(noteLines).toHaveLength(8);
      expect(noteLines.at(-1)!.endsWith('…')).toBe(true);
      // Labels whole, never cut to their column.
      for (const [label] of receiptFields({ lang, transfer })) expect(receiptPdf.lines).toContain(label);
      const w = documentWords[lang];
      for (const label of [w.customer, w.address, w.account, w.period, w.openingBalance]) expect(statementPdf.lines).toContain(`${label}:`);
    }
  }, 30_000); // 12 PDFs in six languages: seconds of CPU, more on a busy machine
});

describe('the words', () => {
  it('describe every kind of movement in every language', () => {
    for (const lang of DOCUMENT_LANGUAGES) {
      const w = documentWords[lang];
      expect(describeMovement(w, { ...movement(0), operationType: 'Fees', note: 'x' })).toBe(w.fee);
      expect(describeMovement(w, { ...movement(0), operationType: 'p2p', direction: 'out', counterparty: 'Борис', note: null, reference: 'R-1' })).toBe(
        `${w.paymentTo('Борис')}: ${w.referenceShort('R-1')}`,
      );
    }
  });

  it('pick the saved language first, then Accept-Language, else English', () => {
    expect(documentLanguage('ua', 'es')).toBe('uk');
    expect(documentLanguage('ru', 'en')).toBe('ru');
    expect(documentLanguage(null, 'de-DE, pt-BR;q=0.8')).toBe('pt');
    expect(documentLanguage(null, 'de')).toBe('en');
    expect(documentLanguage(undefined)).toBe('en');
  });
});

describe('support hours', () => {
  it('are written in each language, the UK’s own time in words', () => {
    const hours = { days: 'monFri', opens: '09:00', closes: '17:30', timeZone: 'UK' } as const;
    expect(formatSupportHours(hours, 'en')).toBe('Mon–Fri 09:00–17:30 UK time');
    expect(formatSupportHours(hours, 'au')).toBe('Mon–Fri 09:00–17:30 UK time');
    expect(formatSupportHours(hours, 'uk')).toBe('Пн–пт 09:00–17:30 за часом Великої Британії');
    expect(formatSupportHours(hours, 'ua')).toBe('Пн–пт 09:00–17:30 за часом Великої Британії');
    expect(formatSupportHours({ ...hours, days: 'everyDay', timeZone: 'GMT' }, 'es')).toBe('Todos los días 09:00–17:30 GMT');
  });
});

describe('the receipt', () => {
  const transfer: ReceiptTransfer = {
    transactionId: 77,
    operationType: 'exchange',
    viewer: 'payer',
    status: 'posted',
    createdAt: new Date('2026-03-04T05:06:07Z'),
    updatedAt: new Date('2026-03-04T05:07:00Z'),
    expiresAt: new Date('2026-03-05T05:06:07Z'),
    bookedAt: new Date('2026-03-04T05:07:00Z'),
    fromAccountId: 101,
    fromCurrency: 'EUR',
    amountMinor: 10000n,
    feeMinor: 50n,
    toAccountId: 102,
    toCurrency: 'USD',
    toAmountMinor: 10800n,
    rate: '1.08',
    counterparty: '',
    note: 'Поездка в Париж',
    reference: null,
    payout: false,
    railReason: null,
  };

  it('lists every field: id, time, type, status with its times, amounts, fee, rate, accounts, note, reference', async () => {
    const pdf = readPdf(await renderReceiptPdf({ lang: 'en', providerName: 'Lumen Wallet', customerName: 'Борис Петров', customerAddress: '', receiptId: '77', fields: receiptFields({ lang: 'en', transfer }), generatedAt: new Date('2026-03-04T06:00:00Z') }));
    const lines = pdf.lines;
    const expected: [string, string][] = [
      ['Transaction ID', '77'],
      ['Date and time', '2026-03-04 05:06 UTC'],
      ['Type', 'Currency exchange'],
      ['Status', 'Completed'],
      ['Booked', '2026-03-04 05:07 UTC'],
      ['Amount', '100.00 EUR'],
      ['Fee', '0.50 EUR'],
      ['Total debited', '100.50 EUR'],
      ['Amount credited', '108.00 USD'],
      ['Exchange rate', '1 EUR = 1.08 USD'],
      ['Debit account', '101 (EUR)'],
      ['Credit account', '102 (USD)'],
      ['Note', 'Поездка в Париж'],
      ['Reference', '—'],
    ];
    for (const [label, value] of expected) {
      expect(lines).toContain(label);
      expect(lines[lines.indexOf(label) + 1]).toBe(value);
    }
    expect(lines).toContain('Борис Петров');
    expect(lines).toContain('Transaction receipt');
  });

  it('shows a payee only its own side, and a voided or pending transfer’s times', () => {
    const payee = receiptFields({ lang: 'en', transfer: { ...transfer, operationType: 'p2p', viewer: 'payee', counterparty: 'Anna Kowalska' } });
    const labels = payee.map(([l]) => l);
    expect(labels).not.toContain('Fee');
    expect(labels).not.toContain('Debit account');
    expect(payee).toContainEqual(['Amount credited', '108.00 USD']);
    expect(payee).toContainEqual(['Counterparty', 'Anna Kowalska']);
    expect(payee).toContainEqual(['Direction', 'Incoming']);
    expect(receiptFields({ lang: 'en', transfer: { ...transfer, status: 'rejected', bookedAt: null } })).toContainEqual(['Status changed', '2026-03-04 05:07 UTC']);
    expect(receiptFields({ lang: 'ru', transfer: { ...transfer, status: 'pending', bookedAt: null } })).toContainEqual(['Истекает без подтверждения', '2026-03-05 05:06 UTC']);
  });

  it('describes a booking without a transfer: a deposit from the provider to one account', () => {
    const fields = entryReceiptFields({
      lang: 'es',
      providerName: 'Lumen Wallet',
      entry: { entryId: 5, bookedAt: new Date('2026-01-02T03:04:05Z'), operationType: 'deposit', payer: null, reason: null, legs: [{ accountId: 101, currency: 'EUR', amountMinor: 245075n }] },
    });
    expect(fields).toEqual([
      ['ID de la operación', 'E5'],
      ['Fecha y hora', '2026-01-02 03:04 UTC'],
      ['Tipo', 'Ingreso'],
      ['Estado', 'Completado'],
      ['Contabilizada', '2026-01-02 03:04 UTC'],
      ['Cuenta de abono', '101 (EUR)'],
      ['Importe abonado', '2450.75 EUR'],
      ['Contraparte', 'Lumen Wallet'],
      ['Nota', '—'],
    ]);
  });

  it('describes an account fee as a fee, and a salary from outside with its payer and reason', () => {
    const entry = { entryId: 6, bookedAt: new Date('2026-01-02T03:04:05Z'), legs: [{ accountId: 101, currency: 'EUR', amountMinor: -500n }] };
    const fee = entryReceiptFields({ lang: 'en', providerName: 'Lumen Wallet', entry: { ...entry, operationType: 'Fees', payer: null, reason: 'monthly account fee' } });
    expect(fee).toContainEqual(['Type', 'Fee']);
    expect(fee).toContainEqual(['Counterparty', 'Lumen Wallet']);
    expect(fee).toContainEqual(['Note', 'monthly account fee']);
    const salary = entryReceiptFields({
      lang: 'en',
      providerName: 'Lumen Wallet',
      entry: { ...entry, operationType: 'deposit', payer: 'Carpathia Logistics SRL', reason: 'Salary', legs: [{ accountId: 101, currency: 'EUR', amountMinor: 250000n }] },
    });
    expect(salary).toContainEqual(['Type', 'Deposit']);
    expect(salary).toContainEqual(['Counterparty', 'Carpathia Logistics SRL']);
    expect(salary).toContainEqual(['Note', 'Salary']);
  });
});
