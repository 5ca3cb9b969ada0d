/** UI test setup: unmount after each test and run every test in English, with both catalog parts. */
import * as React from 'react';
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

// React's development build records an owner stack for every element it creates (jsxDEV makes an
// Error with a ten-frame stack trace each time, at most 10,000 a second): 12 % of a model test's
// time (issue 12, a CPU profile of tests/model/address-edit). The stacks only annotate React's own
// warnings, which these tests never read: the counter of recent stacks stays at its limit, so
// React takes the shared unknown-owner stack instead. Behaviour and act() are unchanged.
const reactInternals = (React as unknown as Record<string, Record<string, unknown>>).__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
if (reactInternals) Object.defineProperty(reactInternals, 'recentlyCreatedOwnerStacks', { configurable: true, get: () => 1e4, set: () => undefined });
