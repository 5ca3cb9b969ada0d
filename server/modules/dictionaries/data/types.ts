/**
 * The shape every data file produces: rows of the one `dictionary_items` table.
 *
 * Names are given positionally in the fixed order en, es, pt, ro, ru, uk (`names(...)`), which
 * keeps the translation tables readable; `seedDictionaries` checks every name is non-empty.
 */
import type { LocalizedNames, UiLanguage } from '../dictionaries.tables.ts';

export const uiLanguages = ['en', 'es', 'pt', 'ro', 'ru', 'uk'] as const satisfies readonly UiLanguage[];

/** The dictionary keys stored in `dictionary_items.dictionary`. */
export const DictionaryKey = {
  countries: 'countries',
  birthCountries: 'birthCountries',
  currencies: 'currencies',
  occupations: 'occupations',
  occupations2: 'occupations2',
  transactionTypes: 'transactionTypes',
  personalAgreements: 'personalAgreements',
  estimatedMonthlyDeposits: 'estimatedMonthlyDeposits',
  documentCategories: 'documentCategories',
  /** types of documentCategories; parentKey = category id */
  documentTypes: 'documentTypes',
  /** address proofs; parentKey = category id, data.countryCodes null = every country */
  addressDocumentTypes: 'addressDocumentTypes',
  personalSourceOfFunds: 'personalSourceOfFunds',
  personalSourceOfFunds2: 'personalSourceOfFunds2',
  employeeSourceOfFunds: 'employeeSourceOfFunds',
  businessSourceOfFunds: 'businessSourceOfFunds',
  personalPurposeOfAccount: 'personalPurposeOfAccount',
  businessPurposeOfAccount: 'businessPurposeOfAccount',
  industryGroups: 'industryGroups',
  /** parentKey = industry group id */
  industries: 'industries',
  personalAdditionalQuestions: 'personalAdditionalQuestions',
  businessAdditionalQuestions: 'businessAdditionalQuestions',
} as const;
export type DictionaryKey = (typeof DictionaryKey)[keyof typeof DictionaryKey];

export interface DictionaryRow {
  dictionary: DictionaryKey;
  itemKey: string;
  sortOrder: number;
  parentKey: string | null;
  data: Record<string, unknown>;
  names: LocalizedNames;
}

export function names(en: string, es: string, pt: string, ro: string, ru: string, uk: string): LocalizedNames {
  return { en, es, pt, ro, ru, uk };
}

/** Tuple form used by the translation tables: [en, es, pt, ro, ru, uk]. */
export type NameTuple = readonly [string, string, string, string, string, string];
export function fromTuple(t: NameTuple): LocalizedNames {
  return names(...t);
}

/** Rows of a plain `{ id, name }` dictionary, sorted in the order given. */
export function namedRows(dictionary: DictionaryKey, items: readonly (readonly [number, NameTuple])[]): DictionaryRow[] {
  return items.map(([id, tuple], index) => ({
    dictionary,
    itemKey: String(id),
    sortOrder: (index + 1) * 10,
    parentKey: null,
    data: {},
    names: fromTuple(tuple),
  }));
}
