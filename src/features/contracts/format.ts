/** How the contracts' pages write a share, a day and the other party. */
import type { Contract } from '../../../api/contracts.ts';
import { dateTimeFormat, numberFormat } from '../../lib/format.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';

/** 30 -> "30%", 12.5 -> "12.5%" in the UI language */
export const formatPercentage = (p: number) => numberFormat(getUiLanguageTag(), { style: 'percent', maximumFractionDigits: 2 }).format(p / 100);

/** A contract's day (activeFrom, activeTo: the day's start in UTC) as that day, wherever the reader is. */
export function formatDay(iso: string | null): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return dateTimeFormat(getUiLanguageTag(), { dateStyle: 'medium', timeZone: 'UTC' }).format(ms);
}

export function formatInstant(iso: string | null): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return dateTimeFormat(getUiLanguageTag(), { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}

/** The other party, seen from the acting customer's side (direction PAY: it is the payer). */
export const counterpartyOf = (c: Contract) => (c.direction === 'PAY' ? c.beneficiary : c.sender);
