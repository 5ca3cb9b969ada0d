/**
 * The history filter (document 2 §3 "History filter") as it lives in the /history URL, as the
 * form edits it, and as the two calls take it: transactionHistory under the filter's own names,
 * transactionHistoryExport under the export's (document 2 §7 "The export filter uses amountFrom,
 * amountTo, customerEmail and type").
 */
import * as v from 'valibot';
import { HISTORY_PAGE_SIZE, HistoryFilterEntries, type transactionHistory } from '../../../api/history.ts';
import type { RequestOf } from '../../../api/method.ts';
import type { ExportFilter } from '../../../machines/history-export/history-export.machine.ts';

type FilterEntries = typeof HistoryFilterEntries;
export type HistoryFilter = { [K in keyof FilterEntries]?: Exclude<v.InferOutput<FilterEntries[K]>, undefined> };
export type HistoryFilterKey = keyof HistoryFilter;
export type HistorySearch = HistoryFilter & { page: number };
export type HistoryRequest = Omit<RequestOf<typeof transactionHistory>, 'lang' | 'fromCustomerId'>;

export const FILTER_KEYS = Object.keys(HistoryFilterEntries) as HistoryFilterKey[];
export const MAX_PAGE = 10_000;

const pageSchema = v.pipe(v.unknown(), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(MAX_PAGE));

/**
 * The URL's search values -> the filter. Each value is checked with the contract's own schema
 * and one that does not pass is dropped (a hand-edited URL still opens the page). The router
 * reads `?keyword=123` and `?fromAmount=10` as numbers: text and amounts are read back as text.
 */
export function parseHistorySearch(raw: Record<string, unknown>): HistorySearch {
  const out: Record<string, unknown> = {};
  for (const key of FILTER_KEYS) {
    let value = raw[key];
    if (key === 'accountId') {
      if (typeof value === 'string' && /^\d{1,12}$/.test(value)) value = Number(value);
    } else if (typeof value === 'number' && Number.isFinite(value)) {
      value = String(value);
    }
    const parsed = v.safeParse(HistoryFilterEntries[key] as v.GenericSchema, value);
    if (parsed.success && parsed.output !== undefined && parsed.output !== '') out[key] = parsed.output;
  }
  const page = v.safeParse(pageSchema, raw.page ?? 1);
  return { ...(out as HistoryFilter), page: page.success ? page.output : 1 };
}

/** The filter without the page (what the form shows and the export takes). */
export function filterOf(search: HistorySearch): HistoryFilter {
  const { page: _page, ...filter } = search;
  return filter;
}

export function historyRequest(filter: HistoryFilter, page: number, pageSize = HISTORY_PAGE_SIZE): HistoryRequest {
  return { ...filter, pageNumber: page, pageSize };
}

/** The same filter under the export call's names. */
export function exportFilterOf(filter: HistoryFilter): ExportFilter {
  const { transactionType, fromAmount, toAmount, ...same } = filter;
  return { ...same, type: transactionType, amountFrom: fromAmount, amountTo: toAmount };
}

/* ------------------------------------------------------------------------------------- form */

/** The form's fields, all text ('' = not filtered). */
export type FilterForm = Record<HistoryFilterKey, string>;
export type FilterFieldError = 'amount' | 'date' | 'amountOrder' | 'dateOrder' | 'keywordLength';
export type FilterFormErrors = Partial<Record<HistoryFilterKey, FilterFieldError>>;

export const KEYWORD_MAX = 100;
const AMOUNT = /^\d{1,15}(\.\d{1,8})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function formOf(filter: HistoryFilter): FilterForm {
  const form = Object.fromEntries(FILTER_KEYS.map((key) => [key, ''])) as FilterForm;
  for (const key of FILTER_KEYS) {
    const value = filter[key];
    if (value !== undefined) form[key] = String(value);
  }
  return form;
}

/** A typed amount: spaces dropped, a decimal comma read as a point (es, pt, ro, ru, uk type one). */
export function normaliseAmount(text: string): string {
  return text.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
}

/** Compares two amounts of the AMOUNT form exactly (no float). */
export function compareAmounts(a: string, b: string): number {
  const scaled = (s: string) => {
    const [int = '0', frac = ''] = s.split('.');
    return BigInt(int) * 100_000_000n + BigInt(frac.padEnd(8, '0') || '0');
  };
  const d = scaled(a) - scaled(b);
  return d === 0n ? 0 : d < 0n ? -1 : 1;
}

function isRealDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** The form -> a filter, or the codes of what is wrong (nothing is sent then). */
export function readFilterForm(form: FilterForm): { ok: true; filter: HistoryFilter } | { ok: false; errors: FilterFormErrors } {
  const errors: FilterFormErrors = {};
  const filter: Record<string, unknown> = {};
  const keyword = form.keyword.trim();
  if (keyword.length > KEYWORD_MAX) errors.keyword = 'keywordLength';
  else if (keyword) filter.keyword = keyword;
  if (form.accountId && /^\d{1,12}$/.test(form.accountId)) filter.accountId = Number(form.accountId);
  for (const key of ['transactionType', 'transactionDirection', 'status'] as const) {
    const parsed = v.safeParse(HistoryFilterEntries[key], form[key] || undefined);
    if (parsed.success && parsed.output !== undefined) filter[key] = parsed.output;
  }
  for (const key of ['fromDate', 'toDate'] as const) {
    const text = form[key].trim();
    if (!text) continue;
    if (isRealDate(text)) filter[key] = text;
    else errors[key] = 'date';
  }
  for (const key of ['fromAmount', 'toAmount'] as const) {
    const text = normaliseAmount(form[key]);
    if (!text) continue;
    if (AMOUNT.test(text)) filter[key] = text;
    else errors[key] = 'amount';
  }
  const { fromDate, toDate, fromAmount, toAmount } = filter as HistoryFilter;
  if (fromDate && toDate && fromDate > toDate) errors.toDate = 'dateOrder';
  if (fromAmount && toAmount && compareAmounts(fromAmount, toAmount) > 0) errors.toAmount = 'amountOrder';
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, filter: filter as HistoryFilter };
}

export function isFiltered(filter: HistoryFilter): boolean {
  return FILTER_KEYS.some((key) => filter[key] !== undefined);
}
