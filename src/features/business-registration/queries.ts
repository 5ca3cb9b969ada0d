/** Reads of the business registration screens. */
import { queryOptions } from '@tanstack/react-query';
import { callMethodOrThrow } from '../../lib/request.ts';

/** The countries dictionary in the UI language (the company's and its shareholders' countries). */
export const businessCountriesQuery = (lang: string) =>
  queryOptions({
    queryKey: ['dictionaries', lang],
    queryFn: () => callMethodOrThrow('dictionaries', {}),
    select: (answer) => answer.dictionaries.dictionaryCountries.dictionary.country,
    staleTime: 60 * 60 * 1000,
  });
