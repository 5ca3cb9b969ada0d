/**
 * Reference dictionaries (document 3 §3, §7) live in one table: each row is one item of one
 * dictionary, its language-independent data in `data` and its display name per UI language in
 * `names` ({ en, es, pt, ro, ru, uk }).
 */
import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

export type UiLanguage = 'en' | 'es' | 'pt' | 'ro' | 'ru' | 'uk';
export type LocalizedNames = Record<UiLanguage, string>;

export const dictionaryItems = pgTable(
  'dictionary_items',
  {
    /** the dictionary's key, e.g. 'countries', 'occupations', 'industries' */
    dictionary: text('dictionary').notNull(),
    /** the item's key inside its dictionary (numeric ids are stored as text) */
    itemKey: text('item_key').notNull(),
    sortOrder: integer('sort_order').notNull(),
    /** an optional parent item key (industry group, document category, question) */
    parentKey: text('parent_key'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    names: jsonb('names').$type<LocalizedNames>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.dictionary, t.itemKey] }), index('dictionary_items_sort').on(t.dictionary, t.sortOrder)],
);
