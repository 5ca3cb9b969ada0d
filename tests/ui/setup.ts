/** UI test setup: unmount after each test and run every test in English, with both catalog parts. */
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { activateUiLanguage, ensureAppCatalog } from '../../src/lib/i18n.ts';

await activateUiLanguage('en');
// Views are tested with every catalog part (the app loads the app part before its routes render).
await ensureAppCatalog();

afterEach(() => {
  cleanup();
});
