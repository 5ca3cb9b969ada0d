/** Reads of the registration screens. */
import { queryOptions } from '@tanstack/react-query';
import { callMethodOrThrow } from '../../lib/request.ts';

/** The countries dictionary in the UI language, for the residence country (document 3 §7). */
export const countriesQuery = (lang: string) =>
  queryOptions({
    queryKey: ['dictionaries', lang],
    queryFn: () => callMethodOrThrow('dictionaries', {}),
    select: (answer) => answer.dictionaries.dictionaryCountries.dictionary.country,
    staleTime: 60 * 60 * 1000,
  });
