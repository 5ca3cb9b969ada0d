/** UI test setup: unmount after each test and run every test in English, with both catalog parts. */
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { activateUiLanguage, ensureAppCatalog } from '../../src/lib/i18n.ts';
import { installFastComputedStyle } from './fast-computed-style.ts';

await activateUiLanguage('en');
// Views are tested with every catalog part (the app loads the app part before its routes render).
await ensureAppCatalog();

// A route's lazy chunk is transformed on its first import: on a busy machine that alone can take
// more than Testing Library's default second, so findBy*/waitFor wait up to 10 s (they end as soon
// as what they wait for is there).
configure({ asyncUtilTimeout: 10_000 });

// jsdom's style cascade, answered faster where the test DOM allows (see the module); the files
// that run in node (the platform's UI-facing transports) have no window
if (typeof window !== 'undefined') installFastComputedStyle(window);

afterEach(() => {
  cleanup();
});
