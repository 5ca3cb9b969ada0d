/**
 * The platform's validation errors reach the customer in their language: every code of the
 * catalog (api/errors.ts) has a sentence in every compiled catalog, and the platform can send no
 * code the app cannot word (the sources are scanned for codes, including ones written as plain
 * strings, and for validation errors built without a code).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VF_CODES, describeVf, isVfCode, vf, vfCodes, type VfCode } from '../../api/errors.ts';
import { activateUiLanguage, ensureAppCatalog, type UiLang } from '../../src/lib/i18n.ts';
import { validationMessage, vfSentence } from '../../src/lib/validation-messages.ts';

const LOCALES = ['en', 'es', 'pt', 'ro', 'ru', 'uk'] as const satisfies readonly UiLang[];

/** Sample parameters: numbers for counts, words for the rest. */
function sampleParams(code: VfCode): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const name of VF_CODES[code].params as readonly string[]) {
    out[name] = ['min', 'max', 'days', 'decimals', 'triesLeft', 'maxMb'].includes(name) ? 3 : name === 'currency' ? 'EUR' : `«${name}»`;
  }
  return out;
}

/** Both catalogs: the payee checks' sentences are the app's (src/features/payees/validation-messages.ts), the rest the sign-in's. */
async function sentencesIn(locale: UiLang): Promise<Map<VfCode, string>> {
  await activateUiLanguage(locale);
  await ensureAppCatalog();
  return new Map(vfCodes.map((code) => [code, vfSentence(code, sampleParams(code))]));
}

describe('validation codes in every language', () => {
  it('every code renders its English description from its parameters', () => {
    for (const code of vfCodes) {
      const description = describeVf(code, sampleParams(code));
      expect(description, code).not.toMatch(/\{\w+\}/);
      for (const value of Object.values(sampleParams(code))) expect(description, code).toContain(String(value));
    }
    expect(vf('amount', 'belowMinimum', { amount: '1.00', currency: 'EUR' })).toEqual({
      param: 'amount',
      description: 'must be at least 1.00 EUR',
      code: 'belowMinimum',
      params: { amount: '1.00', currency: 'EUR' },
    });
  });

  it.each(LOCALES)('%s has a sentence for every code, with its parameters', async (locale) => {
    const english = await sentencesIn('en');
    const sentences = await sentencesIn(locale);
    for (const code of vfCodes) {
      const sentence = sentences.get(code)!;
      expect(sentence, code).toMatch(/\p{L}{2}/u);
      // No placeholder left unfilled, no message id shown instead of its text.
      expect(sentence, code).not.toMatch(/[{}]/);
      for (const value of Object.values(sampleParams(code))) {
        if (!sentence.includes('«') && typeof value === 'string' && value.startsWith('«')) continue; // a sentence may leave a detail out
        expect(sentence, `${locale} ${code}`).toContain(String(value));
      }
      if (locale !== 'en') expect(sentence, `${locale} ${code} is the English`).not.toBe(english.get(code));
    }
  });

  it('counts agree with their number in Russian and Ukrainian (ICU plurals)', async () => {
    await activateUiLanguage('ru');
    expect(vfSentence('tooLong', { max: 1 })).toBe('Введите не более 1 символа.');
    expect(vfSentence('tooLong', { max: 5 })).toBe('Введите не более 5 символов.');
    expect(vfSentence('approvalCodeWrong', { triesLeft: 2 })).toBe('Неверный код (осталось 2 попытки).');
    await activateUiLanguage('uk');
    expect(vfSentence('approvalCodeWrong', { triesLeft: 1 })).toBe('Неправильний код (залишилася 1 спроба).');
    await activateUiLanguage('en');
  });

  it('an error without a known code (another platform) shows its own description', async () => {
    await activateUiLanguage('ro');
    expect(validationMessage({ param: 'x', description: 'is odd' })).toBe('is odd');
    expect(validationMessage({ param: 'x', description: 'is odd', code: 'noSuchCode' })).toBe('is odd');
    expect(validationMessage({ param: 'amount', description: 'exceeds the available balance', code: 'balanceExceeded', params: {} })).toBe('Suma depășește soldul disponibil.');
    await activateUiLanguage('en');
  });
});

/* ------------------------------------------------------------------------------------------ */
/* The platform sends only codes the app knows                                                 */
/* ------------------------------------------------------------------------------------------ */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? sourcesUnder(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

// api/ownership.ts answers rule codes, not VF codes: the platform words each as a VF code through a
// table typed over every rule code (server/modules/registration/business-registration.service.ts).
const PLATFORM_SOURCES = [...sourcesUnder('server'), ...sourcesUnder('api')].filter((p) => !p.endsWith('api/errors.ts') && !p.endsWith('api/ownership.ts'));

/** Every code the sources name: VfCode.x, vf(param, 'x'), vfFailure(param, 'x'), and a schema's message VfCode.x. */
function codesNamedIn(text: string): string[] {
  const named = [...text.matchAll(/\bVfCode\.(\w+)/g)].map((m) => m[1]!);
  const literal = [...text.matchAll(/\bvf(?:Failure|Error)?\(\s*[^,()]+(?:\([^()]*\))?\s*,\s*['"`](\w+)['"`]/g)].map((m) => m[1]!);
  const coded = [...text.matchAll(/\bcode:\s*['"`](\w+)['"`]\s*,\s*params:/g)].map((m) => m[1]!);
  return [...named, ...literal, ...coded];
}

/** Validation errors built by hand: `{ param: ..., description: ... }` without going through vf(). */
function uncodedErrorsIn(text: string): string[] {
  return [...text.matchAll(/\{\s*param(?::[^,}]*)?,\s*description\b[^}]*\}/g)].map((m) => m[0]).filter((m) => !/\bcode\b/.test(m));
}

describe('the platform sends only codes the app can word', () => {
  it('the scan finds codes however they are written', () => {
    expect(codesNamedIn(`throw vf('amount', VfCode.positive); vf(x, 'tooLong', { max: 3 }); vfFailure(p.amount, "noSuch"); ({ code: 'fileEmpty', params: {} })`)).toEqual([
      'positive',
      'tooLong',
      'noSuch',
      'fileEmpty',
    ]);
    expect(uncodedErrorsIn(`errors.push({ param: 'x', description: 'is odd' }); errors.push({ param, description });`)).toHaveLength(2);
  });

  it('every code named in server/ and api/ is in the catalog', () => {
    const unknown: string[] = [];
    let found = 0;
    for (const path of PLATFORM_SOURCES) {
      for (const code of codesNamedIn(readFileSync(join(ROOT, path), 'utf8'))) {
        found += 1;
        if (!isVfCode(code)) unknown.push(`${path}: ${code}`);
      }
    }
    expect(found).toBeGreaterThan(50);
    expect(unknown).toEqual([]);
  });

  it('no validation error is built without its code', () => {
    const uncoded = PLATFORM_SOURCES.flatMap((path) => uncodedErrorsIn(readFileSync(join(ROOT, path), 'utf8')).map((m) => `${path}: ${m}`));
    expect(uncoded).toEqual([]);
  });
});
