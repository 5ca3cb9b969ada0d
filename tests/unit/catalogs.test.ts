/**
 * Every message of the source catalog exists in every translated language (en, es, pt, ro, ru,
 * uk): a string added without its translations fails here, not in front of a customer. `au` falls
 * back to English by design (lingui.config.ts) and is left out.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const TRANSLATED = ['es', 'pt', 'ro', 'ru', 'uk'] as const;

/** msgid -> msgstr of a .po file (single-line and multi-line strings). */
function readPo(locale: string): Map<string, string> {
  const text = readFileSync(new URL(`../../locales/${locale}.po`, import.meta.url), 'utf8');
  const entries = new Map<string, string>();
  const unquote = (line: string) => JSON.parse(line.slice(line.indexOf('"')));
  let id: string | null = null;
  let str: string | null = null;
  let field: 'id' | 'str' | null = null;
  const flush = () => {
    if (id) entries.set(id, str ?? '');
    id = str = field = null;
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('msgid ')) {
      flush();
      id = unquote(line);
      field = 'id';
    } else if (line.startsWith('msgstr ')) {
      str = unquote(line);
      field = 'str';
    } else if (line.startsWith('"') && field) {
      if (field === 'id') id = (id ?? '') + unquote(line);
      else str = (str ?? '') + unquote(line);
    } else if (line.trim() === '') {
      flush();
    }
  }
  flush();
  return entries;
}

describe('message catalogs', () => {
  const source = readPo('en');

  it('the source catalog is not empty', () => {
    expect(source.size).toBeGreaterThan(50);
  });

  it.each(TRANSLATED)('%s translates every message', (locale) => {
    const catalog = readPo(locale);
    const missing = [...source.keys()].filter((id) => !catalog.get(id));
    expect(missing).toEqual([]);
  });

  it.each(TRANSLATED)('%s keeps every placeholder of the source', (locale) => {
    const catalog = readPo(locale);
    const placeholders = (s: string) => [...new Set([...s.matchAll(/\{(\w+)\s*[,}]/g)].map((m) => m[1]))].sort();
    const broken = [...source.keys()].filter((id) => {
      const translated = catalog.get(id);
      return translated ? placeholders(translated).join() !== placeholders(id).join() : false;
    });
    expect(broken).toEqual([]);
  });
});
