/**
 * What the four form generators share: country names, addresses, TINs, dates and file names.
 * Pure functions (the tests read them too).
 */
import type { TaxIdEntry } from '../../../../api/tax-certification.ts';
import { birthCountryRows } from '../../dictionaries/data/countries.ts';
import type { FormAddress, TaxFormInput } from './types.ts';

export type FormLanguage = TaxFormInput['lang'];

let countryNames: Map<string, Record<FormLanguage, string>> | null = null;

/**
 * A country's name as the countries dictionary has it (i18n-iso-countries with the dictionary's
 * own corrections, and the birth countries that no longer exist): the code itself if unknown.
 */
export function countryName(code: string, lang: FormLanguage = 'en'): string {
  countryNames ??= new Map(birthCountryRows().map((row) => [row.itemKey, row.names as Record<FormLanguage, string>]));
  return countryNames.get(code.toUpperCase())?.[lang] ?? code;
}

/** The street part of an address: "address1, address2". */
export const streetLine = (a: FormAddress) => [a.address1, a.address2].filter((s) => s && s.trim() !== '').join(', ');

/** "City, State Postal code" (the W-9's "City, state, and ZIP code"; the W-8's "City or town, state or province"). */
export const cityLine = (a: FormAddress) => [a.city, [a.state, a.postalCode].filter((s) => s && s.trim() !== '').join(' ')].filter((s) => s !== '').join(', ');

/** The address in one line, with its country's name. */
export const addressOneLine = (a: FormAddress, lang: FormLanguage = 'en') => [streetLine(a), cityLine(a), countryName(a.countryCode, lang)].filter((s) => s !== '').join(', ');

export const sameAddress = (a: FormAddress | null | undefined, b: FormAddress | null | undefined): boolean =>
  !a || !b || addressOneLine(a).toLowerCase().replace(/\s+/g, ' ') === addressOneLine(b).toLowerCase().replace(/\s+/g, ' ');

const digits = (tin: string) => tin.replace(/\D/g, '');

/** A US TIN as the IRS prints it: an SSN or ITIN 123-45-6789, an EIN 12-3456789; other shapes as given. */
export function formatUsTin(tin: string, kind: 'ssn' | 'ein'): string {
  const d = digits(tin);
  if (d.length !== 9) return tin;
  return kind === 'ssn' ? `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}` : `${d.slice(0, 2)}-${d.slice(2)}`;
}

export const usEntry = (taxIds: readonly TaxIdEntry[]) => taxIds.find((t) => t.countryCode === 'US') ?? null;

/** The first tax residence other than the US (the W-8 forms' foreign TIN). */
export const foreignEntry = (taxIds: readonly TaxIdEntry[]) => taxIds.find((t) => t.countryCode !== 'US') ?? null;

/** "2026-11-27" (UTC) */
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The IRS's MM-DD-YYYY from an ISO date. */
export function usDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[2]}-${m[3]}-${m[1]}` : iso;
}

// Cyrillic to Latin for file names only (a download's name reads the same on every system); the
// forms print names as written.
const CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  ґ: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  є: 'ie',
  ж: 'zh',
  з: 'z',
  и: 'i',
  і: 'i',
  ї: 'i',
  й: 'i',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'iu',
  я: 'ia',
};

/** A name as a file-name part: ASCII letters and digits, dashes between words, lower case. */
export function fileSlug(name: string, fallback: string): string {
  const latin = [...name.toLowerCase()].map((c) => CYRILLIC[c] ?? c).join('');
  const slug = latin
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || fallback;
}

/** e.g. W-8BEN-shcherbak-2026-11-27.pdf */
export const formFileName = (form: string, name: string, nowMs: number) => `${form}-${fileSlug(name, 'form')}-${isoDay(nowMs)}.pdf`;
