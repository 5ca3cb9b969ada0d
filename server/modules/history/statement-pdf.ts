/**
 * The monthly account statement as a PDF (document 2 §2 /statements, §7 "keyed per account, year
 * and month"): the provider, the customer, the account and its currency, the period, the opening
 * balance, every posted movement of the month (date, description, amount, running balance), the
 * totals in and out and the closing balance. Rows that do not fit continue on further pages,
 * each with the table's header again and "Page i of n".
 *
 * The statement is in English (a document the platform issues; the web app's language is not
 * known to a file download) and in the WinAnsi characters of the standard PDF fonts: names in
 * other scripts are transliterated (see pdf.ts).
 */
import { minorToDecimal } from '../accounts/money.ts';
import { A4, buildPdf, fitText, type PdfPage, type PdfText } from './pdf.ts';

export interface StatementMovement {
  /** when it was booked (UTC) */
  bookedAt: Date;
  description: string;
  /** signed: negative leaves the account */
  amountMinor: bigint;
}

export interface StatementData {
  providerName: string;
  customerName: string;
  accountId: number;
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

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function monthName(year: number, month: number): string {
  return `${MONTHS[month - 1]} ${year}`;
}

export function summarise(data: Pick<StatementData, 'openingBalanceMinor' | 'movements'>): StatementSummary {
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

const MARGIN_LEFT = 50;
const MARGIN_RIGHT = A4.width - 50;
const BOTTOM = 70;
const ROW_HEIGHT = 14;
const FONT_SIZE = 9;
const COLUMNS = { date: MARGIN_LEFT, description: 118, descriptionWidth: 250, amountRight: 455, balanceRight: MARGIN_RIGHT } as const;

export function statementFileName(accountId: number, year: number, month: number): string {
  return `statement-${accountId}-${year}-${String(month).padStart(2, '0')}.pdf`;
}

/** The statement's PDF file. */
export function renderStatementPdf(data: StatementData): Buffer {
  const money = (minor: bigint) => minorToDecimal(minor, data.currency);
  const signed = (minor: bigint) => (minor > 0n ? `+${money(minor)}` : money(minor));
  const summary = summarise(data);
  const lastDay = new Date(Date.UTC(data.year, data.month, 0)).getUTCDate();
  const mm = String(data.month).padStart(2, '0');
  const period = `${data.year}-${mm}-01 to ${data.year}-${mm}-${String(lastDay).padStart(2, '0')}`;
  const accountLabel = `${data.accountId} (${data.currency})`;

  const pages: PdfPage[] = [];
  // Assigned by newPage before any use.
  let page!: PdfPage;
  let y = 0;
  const text = (t: PdfText) => page.texts.push(t);

  const tableHeader = () => {
    text({ x: COLUMNS.date, y, text: 'Date', size: FONT_SIZE, font: 'bold' });
    text({ x: COLUMNS.description, y, text: 'Description', size: FONT_SIZE, font: 'bold' });
    text({ x: COLUMNS.amountRight, y, text: `Amount (${data.currency})`, size: FONT_SIZE, font: 'bold', align: 'right' });
    text({ x: COLUMNS.balanceRight, y, text: 'Balance', size: FONT_SIZE, font: 'bold', align: 'right' });
    page.rules!.push({ x1: MARGIN_LEFT, y1: y - 4, x2: MARGIN_RIGHT, y2: y - 4 });
    y -= ROW_HEIGHT + 2;
  };

  const newPage = (first: boolean) => {
    page = { texts: [], rules: [] };
    pages.push(page);
    y = A4.height - 50;
    if (first) {
      text({ x: MARGIN_LEFT, y, text: data.providerName, size: 16, font: 'bold' });
      y -= 22;
      text({ x: MARGIN_LEFT, y, text: `Account statement, ${monthName(data.year, data.month)}`, size: 12, font: 'bold' });
      y -= 20;
      for (const [label, value] of [
        ['Customer', data.customerName],
        ['Account', accountLabel],
        ['Period', period],
        ['Opening balance', `${money(data.openingBalanceMinor)} ${data.currency}`],
      ] as const) {
        text({ x: MARGIN_LEFT, y, text: `${label}:`, size: 10, font: 'bold' });
        text({ x: MARGIN_LEFT + 95, y, text: fitText(value, MARGIN_RIGHT - MARGIN_LEFT - 95, 10), size: 10 });
        y -= 14;
      }
      y -= 12;
    } else {
      text({ x: MARGIN_LEFT, y, text: fitText(`${data.providerName}: statement of account ${accountLabel}, ${monthName(data.year, data.month)} (continued)`, MARGIN_RIGHT - MARGIN_LEFT, 10), size: 10, font: 'bold' });
      y -= 24;
    }
    tableHeader();
  };

  newPage(true);
  if (data.movements.length === 0) {
    text({ x: MARGIN_LEFT, y, text: 'No movements in this period.', size: FONT_SIZE });
    y -= ROW_HEIGHT;
  }
  data.movements.forEach((m, i) => {
    if (y < BOTTOM) newPage(false);
    text({ x: COLUMNS.date, y, text: m.bookedAt.toISOString().slice(0, 10), size: FONT_SIZE });
    text({ x: COLUMNS.description, y, text: fitText(m.description, COLUMNS.descriptionWidth, FONT_SIZE), size: FONT_SIZE });
    text({ x: COLUMNS.amountRight, y, text: signed(m.amountMinor), size: FONT_SIZE, align: 'right' });
    text({ x: COLUMNS.balanceRight, y, text: money(summary.runningMinor[i]!), size: FONT_SIZE, align: 'right' });
    y -= ROW_HEIGHT;
  });

  // The totals stay together: a new page when the three lines and the rule would not fit.
  if (y - 3 * ROW_HEIGHT < BOTTOM - ROW_HEIGHT) newPage(false);
  page.rules!.push({ x1: MARGIN_LEFT, y1: y + ROW_HEIGHT - 4, x2: MARGIN_RIGHT, y2: y + ROW_HEIGHT - 4 });
  y -= 4;
  for (const [label, value] of [
    ['Total in', `+${money(summary.totalInMinor)}`],
    ['Total out', money(-summary.totalOutMinor)],
    ['Closing balance', money(summary.closingBalanceMinor)],
  ] as const) {
    text({ x: COLUMNS.description, y, text: label, size: FONT_SIZE + 1, font: 'bold' });
    text({ x: COLUMNS.balanceRight, y, text: `${value} ${data.currency}`, size: FONT_SIZE + 1, font: 'bold', align: 'right' });
    y -= ROW_HEIGHT;
  }

  const generated = `Generated ${data.generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  pages.forEach((p, i) => {
    p.texts.push({ x: MARGIN_LEFT, y: 36, text: generated, size: 8 });
    p.texts.push({ x: MARGIN_RIGHT, y: 36, text: `Page ${i + 1} of ${pages.length}`, size: 8, align: 'right' });
  });

  return buildPdf(pages, {
    title: `Account statement ${accountLabel}, ${monthName(data.year, data.month)}`,
    author: data.providerName,
    createdAt: data.generatedAt,
  });
}
