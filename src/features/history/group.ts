/**
 * Transactions grouped by day (document 2 §4 "Transactions are grouped by date"): the day is the
 * calendar day where the user is (the browser's time zone), in the order the rows came (newest
 * first from the platform).
 */
import type { Transaction } from '../../../api/history.ts';
import { dateTimeFormat } from '../../lib/format.ts';

export interface DayGroup {
  /** YYYY-MM-DD of the local day */
  day: string;
  /** a moment of that day (the first row's), for formatting its heading */
  date: Date;
  transactions: Transaction[];
}

function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function groupByDay(transactions: readonly Transaction[]): DayGroup[] {
  const groups: DayGroup[] = [];
  const byDay = new Map<string, DayGroup>();
  for (const transaction of transactions) {
    const date = new Date(transaction.transactionDate);
    const day = Number.isNaN(date.getTime()) ? transaction.transactionDate : localDay(date);
    let group = byDay.get(day);
    if (!group) {
      group = { day, date, transactions: [] };
      byDay.set(day, group);
      groups.push(group);
    }
    group.transactions.push(transaction);
  }
  return groups;
}

/** The day's heading in the UI language: "Friday, 20 November 2026". */
export function formatDayHeading(group: DayGroup, languageTag: string): string {
  if (Number.isNaN(group.date.getTime())) return group.day;
  return dateTimeFormat(languageTag, { dateStyle: 'full' }).format(group.date);
}
