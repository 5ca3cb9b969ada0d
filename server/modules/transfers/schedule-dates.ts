/**
 * The dates of a recurring transfer: slot k of a schedule is its first transfer's time plus k
 * periods (UTC). A month later keeps the day of the month, or the month's last day when it has
 * fewer days (31 January -> 28/29 February -> 31 March: always counted from the first date, so a
 * short month does not shift the later ones).
 */
export type Frequency = 'daily' | 'weekly' | 'monthly';

const DAY_MS = 24 * 60 * 60 * 1000;

function addMonths(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(anchor.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(year, month, day, anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()),
  );
}

/** Slot k: the anchor plus k periods. */
export function addPeriods(anchor: Date, frequency: Frequency, k: number): Date {
  if (frequency === 'daily') return new Date(anchor.getTime() + k * DAY_MS);
  if (frequency === 'weekly') return new Date(anchor.getTime() + 7 * k * DAY_MS);
  return addMonths(anchor, k);
}

/** The first slot (k >= 1) strictly after `after`: missed slots are not made up, the schedule moves on. */
export function nextSlotAfter(anchor: Date, frequency: Frequency, after: Date): Date {
  const elapsed = after.getTime() - anchor.getTime();
  let k: number;
  if (frequency === 'monthly') {
    k = Math.max(1, (after.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (after.getUTCMonth() - anchor.getUTCMonth()) - 1);
  } else {
    const periodMs = (frequency === 'daily' ? 1 : 7) * DAY_MS;
    k = Math.max(1, Math.floor(elapsed / periodMs));
  }
  while (addPeriods(anchor, frequency, k).getTime() <= after.getTime()) k++;
  return addPeriods(anchor, frequency, k);
}
