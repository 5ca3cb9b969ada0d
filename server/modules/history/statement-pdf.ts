/**
 * The monthly account statement as a PDF (document 2 §2 /statements, §7 "keyed per account, year
 * and month") in the customer's language (document-words.ts): the provider, the customer's name
 * and address, the account's number (the platform's account id; a crypto wallet also shows its
 * address) and currency, the period, the opening balance, every posted movement of the month
 * (date, description, amount, running balance), the totals in and out and the closing balance.
 * Rows that do not fit continue on further pages, each with the table's header again. Every page
 * ends with the provider's legal footer, the support contacts and "Page i of n".
 *
 * Names, notes and addresses are shown as written in any script DejaVu Sans covers
 * (pdf-document.ts embeds the font).
 */
import { minorToDecimal } from '../accounts/money.ts';
import { monthName, wordsFor, type DocumentLanguage, type DocumentWords } from './document-words.ts';
import type { StatementMovement } from './history.service.ts';
import { CONTENT_RIGHT, PAGE, PdfCanvas, drawFooters, footerLineCount, footerLines, footerTop, utcMinute, type StructElement } from './pdf-document.ts';

export type { StatementMovement };

export interface StatementData {
  lang: DocumentLanguage;
  providerName: string;
  customerName: string;
  /** one line; '' when the customer has no address on file */
  customerAddress: string;
  accountId: number;
  /** a crypto wallet's receiving address, else null */
  accountAddress?: string | null;
  currency: string;
  year: number;
  /** 1-12 */
  month: number;
  openingBalanceMinor: bigint;
  movements: readonly StatementMovement[];
  generatedAt: Date;
}

export interface StatementSummary {
  totalInMinor: bigint;
  totalOutMinor: bigint;
  closingBalanceMinor: bigint;
  /** the balance after each movement */
  runningMinor: bigint[];
}

export function summarise(data: { openingBalanceMinor: bigint; movements: readonly { amountMinor: bigint }[] }): StatementSummary {
  let balance = data.openingBalanceMinor;
  let totalInMinor = 0n;
  let totalOutMinor = 0n;
  const runningMinor: bigint[] = [];
  for (const m of data.movements) {
    balance += m.amountMinor;
    if (m.amountMinor >= 0n) totalInMinor += m.amountMinor;
    else totalOutMinor -= m.amountMinor;
    runningMinor.push(balance);
  }
  return { totalInMinor, totalOutMinor, closingBalanceMinor: balance, runningMinor };
}

/** A movement in words: what it was and with whom, then its note and reference. */
export function describeMovement(words: DocumentWords, m: StatementMovement): string {
  const party = m.counterparty;
  const out = m.direction === 'out';
  const base = (() => {
    switch (m.operationType) {
      case 'Fees':
        return words.fee;
      case 'deposit':
        return out ? words.withdrawal : words.operationTypes.deposit;
      case 'p2p':
        return out ? words.paymentTo(party) : words.paymentFrom(party);
      case 'exchange':
        return out ? words.exchangeTo(party) : words.exchangeFrom(party);
      default:
        return out ? words.transferTo(party) : words.transferFrom(party);
    }
  })();
  const extras = [m.note, m.reference ? words.referenceShort(m.reference) : null].filter((x): x is string => !!x);
  return extras.length > 0 && m.operationType !== 'Fees' ? `${base}: ${extras.join(', ')}` : base;
}

export function statementFileName(accountId: number, year: number, month: number): string {
  return `statement-${accountId}-${year}-${String(month).padStart(2, '0')}.pdf`;
}

/** "101 (EUR)": the account's number as the platform keeps it, with its currency. */
export const accountLabel = (accountId: number, currency: string) => `${accountId} (${currency})`;

const ROW_HEIGHT = 14;
const YIELD_EVERY_ROWS = 50;
const FONT_SIZE = 9;
const LABEL_WIDTH = 140;
const COLUMNS = { date: PAGE.margin, description: 118, descriptionWidth: 250, amountRight: 455, balanceRight: CONTENT_RIGHT } as const;

/** The statement's PDF file. */
export async function renderStatementPdf(data: StatementData): Promise<Buffer> {
  const words = wordsFor(data.lang);
  const money = (minor: bigint) => minorToDecimal(minor, data.currency);
  const signed = (minor: bigint) => (minor > 0n ? `+${money(minor)}` : money(minor));
  const summary = summarise(data);
  const lastDay = new Date(Date.UTC(data.year, data.month, 0)).getUTCDate();
  const mm = String(data.month).padStart(2, '0');
  const period = words.periodRange(`${data.year}-${mm}-01`, `${data.year}-${mm}-${String(lastDay).padStart(2, '0')}`);
  const account = accountLabel(data.accountId, data.currency);
  const month = monthName(data.lang, data.year, data.month);
  const title = words.statementOf(month);

  const canvas = new PdfCanvas({ title: `${title}: ${account}`, author: data.providerName, lang: data.lang, createdAt: data.generatedAt });
  const footer = footerLines(words, data.lang);
  const bottom = footerTop(footerLineCount(canvas, footer)) - 14 - ROW_HEIGHT;
  let y = PAGE.margin;

  // The movements are one table in the structure tree; its header row is read once (the repeat on
  // a continuation page is an artifact).
  let table: StructElement | null = null;
  const tableHeader = (repeat: boolean) => {
    const row = repeat ? undefined : canvas.group('TR', table!);
    const cell = (x: number, text: string, align?: 'right') =>
      canvas.text(x, y, text, { size: FONT_SIZE, font: 'bold', ...(align ? { align } : {}), ...(row ? { tag: 'TH' as const, parent: row } : { tag: 'Artifact' as const }) });
    cell(COLUMNS.date, words.date);
    cell(COLUMNS.description, words.description);
    cell(COLUMNS.amountRight, words.amountIn(data.currency), 'right');
    cell(COLUMNS.balanceRight, words.balance, 'right');
    row?.end();
    canvas.rule(PAGE.margin, CONTENT_RIGHT, y + 13);
    y += ROW_HEIGHT + 4;
  };

  const continuation = () => {
    canvas.addPage();
    y = PAGE.margin;
    canvas.text(PAGE.margin, y, `${data.providerName}: ${title}, ${account} ${words.continued}`, {
      size: 10,
      font: 'bold',
      maxWidth: CONTENT_RIGHT - PAGE.margin,
      tag: 'Artifact',
    });
    y += 24;
    tableHeader(true);
  };

  // The first page: who issues it, to whom, for which account and month.
  canvas.text(PAGE.margin, y, data.providerName, { size: 16, font: 'bold', maxWidth: CONTENT_RIGHT - PAGE.margin });
  y += 24;
  canvas.text(PAGE.margin, y, title, { size: 12, font: 'bold', maxWidth: CONTENT_RIGHT - PAGE.margin, tag: 'H1' });
  y += 22;
  const valueX = PAGE.margin + LABEL_WIDTH;
  const valueWidth = CONTENT_RIGHT - valueX;
  const details: [string, string[]][] = [
    [words.customer, [canvas.fit(data.customerName, valueWidth, 10)]],
    ...(data.customerAddress ? ([[words.address, canvas.wrap(data.customerAddress, valueWidth, 10).slice(0, 3)]] as [string, string[]][]) : []),
    [words.account, [account, ...(data.accountAddress ? [canvas.fit(data.accountAddress, valueWidth, 10)] : [])]],
    [words.period, [period]],
    [words.openingBalance, [`${money(data.openingBalanceMinor)} ${data.currency}`]],
  ];
  for (const [label, lines] of details) {
    const paragraph = canvas.group('P');
    canvas.text(PAGE.margin, y, `${label}:`, { size: 10, font: 'bold', maxWidth: LABEL_WIDTH - 6, tag: 'Span', parent: paragraph });
    for (const line of lines) {
      canvas.text(valueX, y, line, { size: 10, tag: 'Span', parent: paragraph });
      y += 14;
    }
    paragraph.end();
  }
  y += 12;
  table = canvas.group('Table');
  tableHeader(false);
  for (const [i, m] of data.movements.entries()) {
    // Laying out a tagged row takes about a millisecond (text layout in JavaScript): a long month
    // yields to the event loop now and then instead of stalling every other request.
    if (i > 0 && i % YIELD_EVERY_ROWS === 0) await new Promise((resolve) => setImmediate(resolve));
    if (y > bottom) continuation();
    const row = canvas.group('TR', table);
    canvas.text(COLUMNS.date, y, m.bookedAt.toISOString().slice(0, 10), { size: FONT_SIZE, tag: 'TD', parent: row });
    canvas.text(COLUMNS.description, y, describeMovement(words, m), { size: FONT_SIZE, maxWidth: COLUMNS.descriptionWidth, tag: 'TD', parent: row });
    canvas.text(COLUMNS.amountRight, y, signed(m.amountMinor), { size: FONT_SIZE, align: 'right', tag: 'TD', parent: row });
    canvas.text(COLUMNS.balanceRight, y, money(summary.runningMinor[i]!), { size: FONT_SIZE, align: 'right', tag: 'TD', parent: row });
    row.end();
    y += ROW_HEIGHT;
  }
  table.end();
  if (data.movements.length === 0) {
    canvas.text(PAGE.margin, y, words.noMovements, { size: FONT_SIZE });
    y += ROW_HEIGHT;
  }

  // The totals stay together: a new page when the three lines would not fit.
  if (y + 3 * ROW_HEIGHT > bottom + ROW_HEIGHT) continuation();
  canvas.rule(PAGE.margin, CONTENT_RIGHT, y - 2);
  y += 4;
  for (const [label, value] of [
    [words.totalIn, `+${money(summary.totalInMinor)}`],
    [words.totalOut, money(-summary.totalOutMinor)],
    [words.closingBalance, money(summary.closingBalanceMinor)],
  ] as const) {
    const paragraph = canvas.group('P');
    canvas.text(COLUMNS.description, y, label, { size: FONT_SIZE + 1, font: 'bold', tag: 'Span', parent: paragraph });
    canvas.text(COLUMNS.balanceRight, y, `${value} ${data.currency}`, { size: FONT_SIZE + 1, font: 'bold', align: 'right', tag: 'Span', parent: paragraph });
    paragraph.end();
    y += ROW_HEIGHT;
  }

  drawFooters(canvas, footer, words.generated(utcMinute(data.generatedAt)), words);
  return canvas.finish();
}
