/**
 * The CSV of a mass batch (api/mass.ts): RFC 4180 quoting (a quoted cell may hold the separator,
 * a doubled quote and a line break), comma, semicolon or tab (the one the first line uses outside
 * quotes: spreadsheets in many languages save CSV with semicolons, and copy cells with tabs), a UTF-8 byte-order mark
 * ignored, blank lines skipped, cells trimmed. Each row keeps the number of the line it starts on,
 * the number a person sees in their editor.
 *
 * Pure: the service (mass.service.ts) checks the columns and the values; every problem here is
 * a coded validation error naming `file` or `rows.<line>.<column>`.
 */
import { vf, VfCode, type CodedValidationError } from '../../../api/errors.ts';
import { MASS_FILE_MAX_BYTES, MASS_MAX_ROWS } from '../../../api/mass.ts';

export interface CsvRow {
  /** the line the row starts on (1-based) */
  line: number;
  cells: string[];
}

export interface CsvTable {
  /** the header's cells as written (trimmed) */
  header: string[];
  rows: CsvRow[];
}

export type CsvResult = { ok: true; table: CsvTable } | { ok: false; errors: CodedValidationError[] };

const fail = (...errors: CodedValidationError[]): CsvResult => ({ ok: false, errors });

/** A file's bytes as text: UTF-8 without NUL bytes (a spreadsheet's binary format or an image is not a CSV). */
export function csvText(bytes: Uint8Array): { ok: true; text: string } | { ok: false; errors: CodedValidationError[] } {
  if (bytes.length > MASS_FILE_MAX_BYTES) return { ok: false, errors: [vf('file', VfCode.fileTooLarge, { maxMb: MASS_FILE_MAX_BYTES / 1_000_000 })] };
  if (bytes.length === 0) return { ok: false, errors: [vf('file', VfCode.fileEmpty)] };
  if (bytes.includes(0)) return { ok: false, errors: [vf('file', VfCode.csvNotText)] };
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, errors: [vf('file', VfCode.csvNotText)] };
  }
}

/**
 * The separator the first line uses outside quotes: the most frequent of tab (lines pasted from a
 * spreadsheet), semicolon and comma; a comma when none.
 */
function separatorOf(text: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  return [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

/**
 * Splits the text into rows of cells. `hasHeader`: the first row names the columns (false: every
 * row is data, header []; a function: asked with the first row's cells). More than MASS_MAX_ROWS
 * data rows, or none, is a file error.
 */
export function parseCsv(input: string, hasHeader: boolean | ((first: readonly string[]) => boolean)): CsvResult {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const sep = separatorOf(text);
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let quoteLine = 1;
  const endRow = () => {
    cells.push(cell.trim());
    if (cells.some((c) => c !== '')) rows.push({ line: rowLine, cells });
    cells = [];
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
      continue;
    }
    if (ch === '"' && cell.trim() === '') {
      cell = '';
      quoted = true;
      quoteLine = line;
    } else if (ch === sep) {
      cells.push(cell.trim());
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else cell += ch;
  }
  if (quoted) return fail(vf(`rows.${quoteLine}`, VfCode.csvQuotes));
  endRow();
  const withHeader = typeof hasHeader === 'function' ? rows.length > 0 && hasHeader(rows[0]!.cells) : hasHeader;
  const header = withHeader ? (rows.shift()?.cells ?? []) : [];
  if (rows.length === 0) return fail(vf('file', VfCode.csvNoRows));
  if (rows.length > MASS_MAX_ROWS) return fail(vf('file', VfCode.csvTooManyRows, { max: MASS_MAX_ROWS }));
  return { ok: true, table: { header, rows } };
}

/** A spreadsheet would run a cell starting with these as a formula (CSV injection). */
export function isFormula(cell: string): boolean {
  return /^[=+\-@\t\r]/.test(cell);
}

/** Normalises a column name for matching: case, spaces, dashes and underscores ignored. */
export function columnKey(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}
