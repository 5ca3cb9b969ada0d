/** UI test setup: unmount after each test and run every test in English. */
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { activateUiLanguage } from '../../src/lib/i18n.ts';

await activateUiLanguage('en');

afterEach(() => {
  cleanup();
});
