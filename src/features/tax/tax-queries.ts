/**
 * The reference data of the self-certification pages (shared by the personal and the business
 * flows): the countries, the birth countries (document 3 §2: /self-certification loads them) and
 * the per-country tax-number table (dictionaryTaxNumbers, api/tax-numbers.ts). Each read goes
 * through a call function, so the representative's store can serve them too.
 */
import { queryOptions } from '@tanstack/react-query';
import type { TaxNumberEntry } from '../../../api/tax-numbers.ts';
import { GENERIC_TAX_NUMBER, TAX_NUMBERS } from '../../../api/tax-numbers.ts';
import { callMethod, isFailure, MethodCallError } from '../../lib/request.ts';
import type { MethodCall } from './personal-actors.ts';

const STALE_MS = 60 * 60 * 1000;
async function orThrow<T extends { responseCode: string }>(p: Promise<T>) {
  const a = await p;
  if (isFailure(a)) throw new MethodCallError(a);
  return a as Exclude<T, { responseCode: 'AE' }>;
}

export const taxCountriesQuery = (lang: string, call: MethodCall = callMethod) =>
  queryOptions({
    queryKey: ['dictionaries', lang],
    queryFn: async () => {
      const a = await orThrow(call('dictionaries', {}));
      if (!('dictionaries' in a)) throw new Error('unexpected answer');
      return a;
    },
    select: (a) => a.dictionaries.dictionaryCountries.dictionary.country,
    staleTime: STALE_MS,
  });

export const birthCountriesQuery = (lang: string, call: MethodCall = callMethod) =>
  queryOptions({
    queryKey: ['dictionaryBirthCountries', lang],
    queryFn: async () => {
      const a = await orThrow(call('dictionaryBirthCountries', {}));
      if (!('dictionary' in a)) throw new Error('unexpected answer');
      return a;
    },
    select: (a) => a.dictionary.country,
    staleTime: STALE_MS,
  });

export const taxNumbersQuery = (call: MethodCall = callMethod) =>
  queryOptions({
    queryKey: ['dictionaryTaxNumbers'],
    queryFn: async () => {
      const a = await orThrow(call('dictionaryTaxNumbers', {}));
      if (!('taxNumbers' in a)) throw new Error('unexpected answer');
      return a;
    },
    staleTime: STALE_MS,
  });

/** The row of a country from the served table; the module's own copy until it has come (the same data). */
export function taxNumberRowOf(served: { taxNumbers: readonly TaxNumberEntry[]; generic: TaxNumberEntry } | undefined, countryCode: string): TaxNumberEntry {
  const rows = served?.taxNumbers ?? TAX_NUMBERS;
  return rows.find((r) => r.countryCode === countryCode) ?? served?.generic ?? GENERIC_TAX_NUMBER;
}
