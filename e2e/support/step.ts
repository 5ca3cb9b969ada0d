/**
 * One step of a journey looked at: axe (WCAG 2.2 AA) on the page as it is, and with
 * E2E_SHOTS=<dir> a full-page screenshot at 390 and 1366 pixels wide (looking at the pages).
 */
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';

export async function step(page: Page, name: string): Promise<void> {
  await expectNoAxeViolations(page, name);
  const dir = process.env.E2E_SHOTS;
  if (!dir) return;
  const size = page.viewportSize();
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${dir}/${name.replace(/[^a-z0-9]+/gi, '-')}-${width}.png`, fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}
