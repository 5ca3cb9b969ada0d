/** /admin-overview's review queue: an administrator decides on the documents customers uploaded. */
import { expect, type Page } from '@playwright/test';

export class AdminReviewPage {
  constructor(private readonly page: Page) {}

  // actions
  async open(): Promise<void> {
    await this.page.goto('/admin-overview');
    await expect(this.page.getByRole('heading', { name: 'Review queue' })).toBeVisible();
  }

  /** Decides on "<document type> of <customer>" with a decision without a reason (e.g. "Confirm the document"). */
  async decide(subject: string, decision: string): Promise<void> {
    await this.page.getByRole('button', { name: `Decide: ${subject}` }).click();
    await expect(this.page.getByRole('heading', { name: `Decide: ${subject}` })).toBeFocused();
    await this.page.getByRole('radio', { name: decision }).check();
    await this.page.getByRole('button', { name: 'Continue' }).click();
    await expect(this.page.getByRole('heading', { name: `Check the decision: ${subject}` })).toBeFocused();
    await this.page.getByRole('button', { name: 'Record the decision' }).click();
  }

  // assertions
  async expectWaiting(subject: string): Promise<void> {
    await expect(this.page.getByRole('button', { name: `Decide: ${subject}` })).toBeVisible();
  }

  async expectRecorded(text: string | RegExp): Promise<void> {
    await expect(this.page.getByRole('status').filter({ hasText: text }).first()).toBeVisible();
  }
}
