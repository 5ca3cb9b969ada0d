import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { plural, t } from '@lingui/core/macro';
import { activateUiLanguage, ensureAppCatalog, fromSettingsLanguage, getUiLanguage, pickStartLanguage, toSettingsLanguage } from '../../src/lib/i18n.ts';

describe('i18n', () => {
  it('uk in the UI is ua in settings and back', () => {
    expect(toSettingsLanguage('uk')).toBe('ua');
    expect(fromSettingsLanguage('ua')).toBe('uk');
    expect(toSettingsLanguage('es')).toBe('es');
    expect(toSettingsLanguage('au')).toBe('en');
    expect(fromSettingsLanguage('xx')).toBe('en');
  });

  it('picks the saved language, then the browser, then English, within the variant languages', () => {
    const all = ['en', 'es', 'pt', 'ro', 'ru', 'uk', 'au'] as const;
    expect(pickStartLanguage({ allowed: all, saved: 'ro', browser: ['es'] })).toBe('ro');
    expect(pickStartLanguage({ allowed: all, saved: null, browser: ['uk-UA', 'en'] })).toBe('uk');
    expect(pickStartLanguage({ allowed: all, saved: null, browser: ['en-AU'] })).toBe('au');
    expect(pickStartLanguage({ allowed: all, saved: null, browser: ['de-DE'] })).toBe('en');
    expect(pickStartLanguage({ allowed: ['en', 'es'], saved: 'ru', browser: ['pt-BR'] })).toBe('en');
    expect(pickStartLanguage({ allowed: ['en', 'es'], saved: null, browser: ['es-MX'] })).toBe('es');
  });

  it('loads real translations and switches', async () => {
    await activateUiLanguage('es');
    expect(getUiLanguage()).toBe('es');
    expect(t`Server is not available`).toBe('El servidor no está disponible');
    await activateUiLanguage('en');
    expect(t`Server is not available`).toBe('Server is not available');
  });

  it('au falls back to English', async () => {
    await activateUiLanguage('au');
    expect(t`Server is not available`).toBe('Server is not available');
    await activateUiLanguage('en');
  });

  it('uses the Russian and Ukrainian plural forms', async () => {
    // The same message as the home view (same placeholder name, so the same catalog entry).
    const accounts = (count: number) => plural(count, { one: 'You have # account.', other: 'You have # accounts.' });
    // A home screen message: in the app catalog part, which signed-in routes load.
    await activateUiLanguage('ru');
    await ensureAppCatalog();
    expect([1, 3, 5, 21].map(accounts)).toEqual([
      'У вас 1 счёт.',
      'У вас 3 счёта.',
      'У вас 5 счетов.',
      'У вас 21 счёт.',
    ]);
    await activateUiLanguage('uk');
    expect([1, 3, 5, 11].map(accounts)).toEqual([
      'У вас 1 рахунок.',
      'У вас 3 рахунки.',
      'У вас 5 рахунків.',
      'У вас 11 рахунків.',
    ]);
    await activateUiLanguage('en');
    expect(i18n.locale).toBe('en');
  });

  it('loads the app part on request, and keeps it through a language switch', async () => {
    const accounts = (count: number) => plural(count, { one: 'You have # account.', other: 'You have # accounts.' });
    await activateUiLanguage('es');
    await ensureAppCatalog();
    expect(accounts(2)).not.toBe('You have 2 accounts.');
    await activateUiLanguage('ro');
    expect(accounts(2)).not.toBe('You have 2 accounts.');
    expect(i18n.locale).toBe('ro');
    await activateUiLanguage('en');
  });

  it('the language asked for last wins, whichever catalog arrives first', async () => {
    const first = activateUiLanguage('pt');
    const last = activateUiLanguage('uk');
    await Promise.all([first, last]);
    expect(i18n.locale).toBe('uk');
    await activateUiLanguage('en');
  });
});
