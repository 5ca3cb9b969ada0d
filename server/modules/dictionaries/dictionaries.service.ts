/**
 * Reads the dictionary table and shapes items for one UI language. Pure functions of (db, lang):
 * nothing is cached in the instance, so a re-seed is visible to every server at once.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/types.ts';
import { dictionaryItems, type UiLanguage } from './dictionaries.tables.ts';
import type { StoredQuestionData } from './data/additional-questions.ts';
import { DictionaryKey } from './data/types.ts';
import { industryGroupIds, type IndustryGroupId } from './data/industries.ts';

type Row = typeof dictionaryItems.$inferSelect;

/** No dictionary has more rows; a larger answer means the table holds something it should not. */
const MAX_ROWS_PER_DICTIONARY = 1_000;

/** 'ua' is how settings name Ukrainian; everything else is already a UI language. */
export function toUiLanguage(lang: string | undefined, fallback: UiLanguage = 'en'): UiLanguage {
  switch (lang) {
    case 'ua':
    case 'uk':
      return 'uk';
    case 'en':
    case 'es':
    case 'pt':
    case 'ro':
    case 'ru':
      return lang;
    default:
      return fallback;
  }
}

async function rowsOf(db: Db, dictionary: DictionaryKey): Promise<Row[]> {
  return db
    .select()
    .from(dictionaryItems)
    .where(eq(dictionaryItems.dictionary, dictionary))
    .orderBy(asc(dictionaryItems.sortOrder), asc(dictionaryItems.itemKey))
    .limit(MAX_ROWS_PER_DICTIONARY);
}

function nameOf(row: Row, lang: UiLanguage): string {
  return row.names[lang] ?? row.names.en;
}

export async function readNamed(db: Db, dictionary: DictionaryKey, lang: UiLanguage) {
  const rows = await rowsOf(db, dictionary);
  return rows.map((row) => ({ id: Number(row.itemKey), name: nameOf(row, lang) }));
}

const collators = new Map<UiLanguage, Intl.Collator>();
function collatorFor(lang: UiLanguage): Intl.Collator {
  let collator = collators.get(lang);
  if (!collator) {
    collator = new Intl.Collator(lang, { sensitivity: 'base' });
    collators.set(lang, collator);
  }
  return collator;
}

/** Countries sorted by their name in `lang` with that language's collation. */
export async function readCountries(db: Db, dictionary: 'countries' | 'birthCountries', lang: UiLanguage) {
  const rows = await rowsOf(db, dictionary);
  const collator = collatorFor(lang);
  return rows
    .map((row) => ({ code: row.itemKey, name: nameOf(row, lang), phoneCode: String(row.data.phoneCode ?? '') }))
    .sort((a, b) => collator.compare(a.name, b.name) || a.code.localeCompare(b.code));
}

export async function countryExists(db: Db, code: string): Promise<boolean> {
  const found = await db
    .select({ itemKey: dictionaryItems.itemKey })
    .from(dictionaryItems)
    .where(and(eq(dictionaryItems.dictionary, DictionaryKey.countries), eq(dictionaryItems.itemKey, code)))
    .limit(1);
  return found.length > 0;
}

export async function readCurrencies(db: Db, lang: UiLanguage) {
  const rows = await rowsOf(db, DictionaryKey.currencies);
  return rows.map((row) => ({
    code: row.itemKey,
    name: nameOf(row, lang),
    exponent: Number(row.data.exponent),
    symbol: String(row.data.symbol),
    crypto: row.data.crypto === true,
  }));
}

export async function readAgreements(db: Db, lang: UiLanguage) {
  const rows = await rowsOf(db, DictionaryKey.personalAgreements);
  return rows.map((row) => ({ id: Number(row.itemKey), name: nameOf(row, lang), url: String(row.data.url) }));
}

interface DocumentTypeItem {
  id: number;
  name: string;
  needsBack: boolean;
  secondPage?: 'back' | 'registrationStamp';
  countryCodes?: string[];
}

function documentType(row: Row, lang: UiLanguage): DocumentTypeItem {
  const secondPage = row.data.secondPage;
  const countryCodes = row.data.countryCodes;
  return {
    id: Number(row.data.id),
    name: nameOf(row, lang),
    needsBack: row.data.needsBack === true,
    ...(secondPage === 'back' || secondPage === 'registrationStamp' ? { secondPage } : {}),
    ...(Array.isArray(countryCodes) ? { countryCodes: countryCodes.map(String) } : {}),
  };
}

/**
 * Categories with their types. `typesDictionary` is documentTypes (all categories) or
 * addressDocumentTypes; `countryCode` keeps the default types plus those of that country.
 * Categories left without a type are dropped.
 */
export async function readDocumentCategories(
  db: Db,
  lang: UiLanguage,
  typesDictionary: 'documentTypes' | 'addressDocumentTypes',
  countryCode?: string,
) {
  // Sequential on purpose: a transaction is one connection (and PGlite is one connection).
  const categories = await rowsOf(db, DictionaryKey.documentCategories);
  const types = await rowsOf(db, typesDictionary);
  const byCategory = new Map<string, DocumentTypeItem[]>();
  for (const row of types) {
    const countries = row.data.countryCodes;
    if (countryCode && Array.isArray(countries) && !countries.includes(countryCode)) continue;
    const list = byCategory.get(row.parentKey ?? '') ?? [];
    list.push(documentType(row, lang));
    byCategory.set(row.parentKey ?? '', list);
  }
  return categories
    .map((row) => ({ id: Number(row.itemKey), name: nameOf(row, lang), customerDocumentTypes: byCategory.get(row.itemKey) ?? [] }))
    .filter((category) => typesDictionary === 'documentTypes' || category.customerDocumentTypes.length > 0);
}

function isGroupId(value: string | null): value is IndustryGroupId {
  return (industryGroupIds as readonly (string | null)[]).includes(value);
}

export async function readIndustries(db: Db, lang: UiLanguage, hideAdult: boolean) {
  const groups = await rowsOf(db, DictionaryKey.industryGroups);
  const industries = await rowsOf(db, DictionaryKey.industries);
  return groups
    .filter((group): group is Row & { itemKey: IndustryGroupId } => isGroupId(group.itemKey))
    .filter((group) => !(hideAdult && group.itemKey === 'adult'))
    .map((group) => ({
      id: group.itemKey,
      name: nameOf(group, lang),
      industries: industries
        .filter((industry) => industry.parentKey === group.itemKey)
        .map((industry) => ({ id: Number(industry.itemKey), name: nameOf(industry, lang) })),
    }));
}

export async function readQuestions(
  db: Db,
  dictionary: 'personalAdditionalQuestions' | 'businessAdditionalQuestions',
  lang: UiLanguage,
) {
  const rows = await rowsOf(db, dictionary);
  return rows.map((row) => {
    const data = row.data as StoredQuestionData;
    return {
      id: row.itemKey,
      type: data.type,
      question: nameOf(row, lang),
      ...(data.options
        ? { options: data.options.map((option) => ({ value: option.value, label: option.labels[lang] ?? option.labels.en })) }
        : {}),
      ...(data.followUp
        ? {
            followUp: {
              when: data.followUp.when,
              id: data.followUp.id,
              type: data.followUp.type,
              question: data.followUp.questions[lang] ?? data.followUp.questions.en,
            },
          }
        : {}),
    };
  });
}
