/**
 * CSV of the transaction history (document 2 §7): RFC 4180 (comma separated, CRLF line ends, a
 * field quoted when it holds a comma, a quote or a line break, quotes doubled), served as UTF-8
 * with a byte order mark so spreadsheet programs read non-ASCII names right.
 *
 * CSV injection: a spreadsheet runs a cell that starts with = + - @ (or a tab / carriage return,
 * which some programs strip before looking) as a formula. Such a cell gets a leading single quote,
 * so it is shown as text. Amounts are the exception: a negative amount must stay a number, so a
 * cell marked numeric that is exactly a decimal number is written as it is.
 */
import type { Transaction } from '../../../api/history.ts';
import { wordsFor, type CsvColumn, type DocumentLanguage } from './document-words.ts';

export const CSV_BOM = '\uFEFF';
export const CSV_LINE_END = '\r\n';

/** The columns in order; the header row names them in the customer's language (document-words.ts). */
export const CSV_COLUMNS: readonly CsvColumn[] = ['date', 'rowId', 'type', 'direction', 'status', 'account', 'amount', 'currency', 'counterparty', 'note', 'reference'];

const FORMULA_START = /^[=+\-@\t\r]/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell, neutralised and quoted as needed. */
export function csvCell(value: string | number | null | undefined, options: { numeric?: boolean } = {}): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (!(options.numeric && DECIMAL.test(text)) && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record with its line end. */
export function csvLine(cells: readonly string[]): string {
  return cells.join(',') + CSV_LINE_END;
}

/**
 * The header record: the start of every history file. The byte order mark is added when the
 * file is served (CSV_BOM), not stored: database drivers decoding text as UTF-8 drop a leading BOM.
 */
export function csvStart(lang: DocumentLanguage = 'en'): string {
  const header = wordsFor(lang).csvHeader;
  return csvLine(CSV_COLUMNS.map((c) => csvCell(header[c])));
}

/**
 * The file's id of a row, unique in any export. A history row is one account's side of a
 * movement, and one transfer gives up to three rows (the payer's 'out', its fee, and the 'in' on
 * the destination when that is the customer's own account), all with the transfer's id: the
 * transfer id plus the side tells them apart, and still names the transfer (the receipt, the
 * history's search). An entry's row (a deposit, an account fee) has a journal entry's id, a different number
 * sequence than the transfers' (entry 7 and transfer 7 are unrelated), so it gets the prefix E and
 * its account (one entry may credit several of the customer's accounts).
 */
export function csvRowId(row: Pick<Transaction, 'kind' | 'transactionId' | 'operationType' | 'direction' | 'accountId'>): string {
  if (row.kind === 'entry') return `E${row.transactionId}-${row.accountId}`;
  if (row.operationType === 'Fees') return `${row.transactionId}-fee`;
  return `${row.transactionId}-${row.direction}`;
}

/**
 * A history row as a record, in CSV_COLUMNS' order, its type, direction and status in words of the
 * language. Dates are UTC, ISO 8601 to the second.
 */
export function transactionCsvLine(row: Transaction, lang: DocumentLanguage = 'en'): string {
  const words = wordsFor(lang);
  return csvLine([
    csvCell(row.transactionDate.replace(/\.\d{3}Z$/, 'Z')),
    csvCell(csvRowId(row)),
    csvCell(words.operationTypes[row.operationType]),
    csvCell(words.directions[row.direction]),
    csvCell(words.statuses[row.status]),
    csvCell(row.accountId),
    csvCell(row.amount, { numeric: true }),
    csvCell(row.currency),
    csvCell(row.counterparty),
    csvCell(row.note),
    csvCell(row.reference),
  ]);
}

/** `history-YYYYMMDD-HHMM.csv` (UTC) for a manual export. */
export function manualExportFileName(at: Date): string {
  const iso = at.toISOString();
  return `history-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 16).replace(':', '')}.csv`;
}

/** `history-<accountId>-YYYY-MM.csv` for the monthly export of one account. */
export function monthlyExportFileName(accountId: number, period: string): string {
  return `history-${accountId}-${period}.csv`;
}
