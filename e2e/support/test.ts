/**
 * The journeys' `test`: Playwright's, with each worker on a platform of its own. Two workers run
 * the spec files side by side (issue 12: a journey waits on the browser and the platform far more
 * than it computes, 100 s of CPU in 218 s), and two journeys on one platform would share the demo
 * users (one resetting a password another signs in with, one using the TOTP step another needs),
 * so playwright.config.ts starts one platform per worker, each on its own embedded database, and
 * a worker's journeys go to its own (its parallel index picks the port).
 */
import { test as base } from '@playwright/test';
import { e2eOrigin } from './origins.ts';

export { expect, devices, type Page, type Locator } from '@playwright/test';

export const test = base.extend({
  baseURL: async ({}, use, testInfo) => {
    await use(e2eOrigin(testInfo.parallelIndex));
  },
});
