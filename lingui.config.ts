import type { LinguiConfig } from '@lingui/conf';

/** UI locales; `au` is the extra locale file the spec names (English for Australia). */
const config: LinguiConfig = {
  sourceLocale: 'en',
  locales: ['en', 'es', 'pt', 'ro', 'ru', 'uk', 'au'],
  fallbackLocales: { au: 'en', default: 'en' },
  catalogs: [{ path: '<rootDir>/locales/{locale}', include: ['src', 'machines'] }],
  format: 'po',
  compileNamespace: 'ts',
};
export default config;
