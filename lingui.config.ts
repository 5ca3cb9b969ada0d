import type { LinguiConfig } from '@lingui/conf';

/**
 * Two catalogs per language, so the sign-in page downloads only what it shows:
 * - locales/{locale}.po: the sign-in page and the shell every page has (layouts, toasts, 404);
 * - locales/app/{locale}.po: everything else (signed-in screens, registration, activation,
 *   recovery, the device companion), loaded by those routes before they render
 *   (src/lib/i18n.ts ensureAppCatalog). A message used in both places is in both.
 */
export const SIGN_IN_SOURCES = [
  '<rootDir>/src/features/auth',
  '<rootDir>/src/app',
  '<rootDir>/src/ui',
  '<rootDir>/src/lib',
  '<rootDir>/src/routes/__root.tsx',
  '<rootDir>/src/routes/index.tsx',
  '<rootDir>/src/routes/_external.tsx',
  '<rootDir>/src/routes/_external/login.tsx',
];

/** UI locales; `au` is the extra locale file the spec names (English for Australia). */
const config: LinguiConfig = {
  sourceLocale: 'en',
  locales: ['en', 'es', 'pt', 'ro', 'ru', 'uk', 'au'],
  fallbackLocales: { au: 'en', default: 'en' },
  catalogs: [
    { path: '<rootDir>/locales/{locale}', include: SIGN_IN_SOURCES },
    {
      path: '<rootDir>/locales/app/{locale}',
      include: ['<rootDir>/src', '<rootDir>/machines'],
      exclude: SIGN_IN_SOURCES.map((path) => (path.endsWith('.tsx') ? path : `${path}/**`)),
    },
  ],
  format: 'po',
  compileNamespace: 'ts',
};
export default config;
