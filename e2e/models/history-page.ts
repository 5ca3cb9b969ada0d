/** /history: the filtered, paged transaction table and the CSV export. */
import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';

export class HistoryPage {
  constructor(private readonly page: Page) {}

  // actions
  async open(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History', exact: true }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Transaction history' })).toBeVisible();
  }

  /** Asks for the CSV, waits for it to be ready, downloads it; returns its name and text. */
  async exportCsv(): Promise<{ fileName: string; content: string }> {
    await this.page.getByRole('button', { name: 'Export CSV' }).click();
    await expect(this.page.getByText('The file is ready.')).toBeVisible({ timeout: 30_000 });
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByRole('button', { name: 'Download CSV' }).click()]);
    const path = await download.path();
    return { fileName: download.suggestedFilename(), content: await readFile(path, 'utf8') };
  }

  // assertions
  /** A row of the table whose text matches both patterns. */
  async expectRow(first: RegExp, second: RegExp): Promise<void> {
    const rows = this.page.getByRole('table').getByRole('row').filter({ hasText: first }).filter({ hasText: second });
    await expect(rows.first()).toBeVisible();
  }
}
