/**
 * Every message of the source catalog exists in every translated language (en, es, pt, ro, ru,
 * uk): a string added without its translations fails here, not in front of a customer. `au` falls
 * back to English by design (lingui.config.ts) and is left out.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import linguiConfig from '../../lingui.config.ts';

const TRANSLATED = ['es', 'pt', 'ro', 'ru', 'uk'] as const;

/** msgid -> msgstr of a .po file (single-line and multi-line strings). */
/** The two catalog parts of lingui.config.ts: the sign-in page's and the rest of the app's. */
const PARTS = ['', 'app/'] as const;

function readPart(part: (typeof PARTS)[number], locale: string): Map<string, string> {
  return parsePo(readFileSync(new URL(`../../locales/${part}${locale}.po`, import.meta.url), 'utf8'));
}

/** Both parts of a language: what the app shows once everything is loaded. */
function readPo(locale: string): Map<string, string> {
  return new Map([...readPart('', locale), ...readPart('app/', locale)]);
}

function parsePo(text: string): Map<string, string> {
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

  // The checks below only compare with en.po: a string added to the code without re-extracting
  // would pass them and reach customers in English. Extract the code's messages afresh (into a
  // temporary folder, the real catalogs untouched) and compare.
  it('each catalog part holds exactly the messages its sources use (npm run i18n:extract is up to date)', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const work = mkdtempSync(join(tmpdir(), 'wlb-extract-'));
    try {
      // The project's own catalog configuration, written to a temporary folder.
      const catalogs = linguiConfig.catalogs!.map((catalog) => ({ ...catalog, path: catalog.path.replace('<rootDir>/locales', work) }));
      const config = join(work, 'lingui.config.mjs');
      writeFileSync(config, `export default ${JSON.stringify({ rootDir: root, sourceLocale: 'en', locales: ['en'], catalogs, format: 'po' })};`);
      const run = spawnSync(join(root, 'node_modules/.bin/lingui'), ['extract', '--config', config], { cwd: root, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      for (const part of PARTS) {
        const extracted = parsePo(readFileSync(join(work, `${part}en.po`), 'utf8'));
        const catalog = readPart(part, 'en');
        const notInCatalog = [...extracted.keys()].filter((id) => !catalog.has(id));
        const notInCode = [...catalog.keys()].filter((id) => !extracted.has(id));
        expect({ part, notInCatalog, notInCode }).toEqual({ part, notInCatalog: [], notInCode: [] });
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);

  it('the sign-in page part is the smaller one (the app part loads after it)', () => {
    expect(readPart('', 'en').size).toBeLessThan(readPart('app/', 'en').size);
  });

  it.each(TRANSLATED)('%s translates every message', (locale) => {
    const catalog = readPo(locale);
    const missing = [...source.keys()].filter((id) => !catalog.get(id));
    expect(missing).toEqual([]);
  });

  // A copy of the English is not a translation. Words that read the same in a language are listed,
  // and names that are the same everywhere: the IBAN standard and the Interac e-Transfer brand.
  // CVV and PIN are the card's codes as printed and said everywhere.
  const EVERYWHERE = ['IBAN', 'Interac e-Transfer', 'CVV', 'PIN', 'GIIN'];
  // the crypto networks' names, written in the Latin alphabet as they are (Cyrillic transliterates them)
  const NETWORKS = ['Bitcoin', 'Litecoin', 'Ethereum (ERC-20)', 'Tron (TRC-20)'];
  const SAME_IN = {
    // 'ticket' is Spanish for a support ticket as well (RAE: tique, ticket)
    es: ['Error', 'ID', 'Control', 'Selfie', 'Director', 'Ticket', 'Tickets', 'Ticket {ticketNumber}', ...EVERYWHERE, ...NETWORKS],
    pt: ['ID', 'Selfie', 'E-mails', ...EVERYWHERE, ...NETWORKS],
    ro: ['ID', 'Browser', 'Document', 'Selfie', 'Card', 'Director', 'Contract', ...EVERYWHERE, ...NETWORKS],
    ru: ['ID', ...EVERYWHERE],
    uk: ['ID', ...EVERYWHERE],
  } as Record<(typeof TRANSLATED)[number], string[]>;
  it.each(TRANSLATED)('%s does not copy the English', (locale) => {
    const catalog = readPo(locale);
    const copied = [...source.keys()].filter((id) => catalog.get(id) === id && !SAME_IN[locale].includes(id) && /[a-z]{3}/i.test(id.replace(/\{[^}]*\}/g, '')));
    expect(copied).toEqual([]);
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
