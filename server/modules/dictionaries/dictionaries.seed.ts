/**
 * Writes every reference dictionary into `dictionary_items`.
 *
 * Idempotent: rows are upserted by (dictionary, item_key), so re-running after a data change
 * updates names, order and data in place; rows of a seeded dictionary that the data no longer
 * lists are deleted, so the table always equals the data files (nothing references dictionary
 * rows by foreign key: answers store the item ids, which stay stable).
 */
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/types.ts';
import { dictionaryItems } from './dictionaries.tables.ts';
import { additionalQuestionRows } from './data/additional-questions.ts';
import { birthCountryRows, countryRows } from './data/countries.ts';
import { currencyRows } from './data/currencies.ts';
import { documentRows } from './data/documents.ts';
import { fundsAndPurposeRows } from './data/funds-and-purposes.ts';
import { industryRows } from './data/industries.ts';
import { occupationRows } from './data/occupations.ts';
import { personalOnboardingRows } from './data/personal-onboarding.ts';
import { transactionTypeRows } from './data/transaction-types.ts';
import { DictionaryKey, uiLanguages, type DictionaryRow } from './data/types.ts';

/** Rows per INSERT: 6 parameters each stays far below PostgreSQL's 65535-parameter limit. */
const INSERT_BATCH_ROWS = 200;
/** A sanity bound: the data is about 1,000 rows; far more means a generator went wrong. */
const MAX_ROWS = 5_000;
const MAX_NAME_CHARS = 200;

/** Every row of every dictionary, checked. */
export function allDictionaryRows(): DictionaryRow[] {
  const rows = [
    ...countryRows(),
    ...birthCountryRows(),
    ...currencyRows(),
    ...occupationRows(),
    ...transactionTypeRows(),
    ...personalOnboardingRows(),
    ...documentRows(),
    ...fundsAndPurposeRows(),
    ...industryRows(),
    ...additionalQuestionRows(),
  ];
  assertValidRows(rows);
  return rows;
}

function assertValidRows(rows: readonly DictionaryRow[]): void {
  if (rows.length > MAX_ROWS) throw new Error(`dictionary data has ${rows.length} rows, more than ${MAX_ROWS}`);
  const seen = new Set<string>();
  for (const row of rows) {
    const key = `${row.dictionary}/${row.itemKey}`;
    if (seen.has(key)) throw new Error(`dictionary row ${key} is listed twice`);
    seen.add(key);
    for (const lang of uiLanguages) {
      const name = row.names[lang];
      if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME_CHARS) {
        throw new Error(`dictionary row ${key} has no valid ${lang} name`);
      }
    }
  }
  const seeded = new Set(rows.map((row) => row.dictionary));
  for (const dictionary of Object.values(DictionaryKey)) {
    if (!seeded.has(dictionary)) throw new Error(`dictionary ${dictionary} has no rows`);
  }
}

export async function seedDictionaries(db: Tx | Db): Promise<{ rows: number }> {
  const rows = allDictionaryRows();
  // One transaction (a savepoint when `db` already is one): readers never see a half-seeded table.
  await db.transaction(async (tx) => {
    for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
      const batch = rows.slice(start, start + INSERT_BATCH_ROWS);
      await tx
        .insert(dictionaryItems)
        .values(batch)
        .onConflictDoUpdate({
          target: [dictionaryItems.dictionary, dictionaryItems.itemKey],
          set: {
            sortOrder: sql`excluded.sort_order`,
            parentKey: sql`excluded.parent_key`,
            data: sql`excluded.data`,
            names: sql`excluded.names`,
          },
        });
    }
    for (const dictionary of Object.values(DictionaryKey)) {
      const keys = rows.filter((row) => row.dictionary === dictionary).map((row) => row.itemKey);
      await tx
        .delete(dictionaryItems)
        .where(and(eq(dictionaryItems.dictionary, dictionary), notInArray(dictionaryItems.itemKey, keys)));
    }
  });
  return { rows: rows.length };
}
