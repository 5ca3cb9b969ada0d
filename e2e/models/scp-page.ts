/**
 * /scp: the provider requires sign-in approval on a linked phone (push 2FA migration). The page
 * shows a link code and a QR link for the device companion, waits for the phone, then continues.
 */
import { expect, type Page } from '@playwright/test';

export class ScpPage {
  constructor(private readonly page: Page) {}

  // assertions
  /** Strict migration: the session may only link a phone here; returns the typed link code. */
  async expectStrictLinkRequired(): Promise<string> {
    await expect(this.page).toHaveURL(/\/scp$/);
    const heading = this.page.getByRole('heading', { level: 1, name: 'Approve sign-ins on your phone' });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    await expect(this.page.getByText('Link a phone now to continue to your account.')).toBeVisible();
    // strict: no way to postpone
    await expect(this.page.getByRole('button', { name: 'Not now' })).toHaveCount(0);
    await expect(this.page.getByRole('img', { name: 'QR code to link your phone' })).toBeVisible();
    await expect(this.page.getByRole('status').filter({ hasText: 'Waiting for your phone…' })).toBeVisible();
    const code = this.page.getByText(/^\d+-[A-Z2-9]{8}$/);
    await expect(code).toBeVisible();
    return (await code.textContent())!.trim();
  }

  /** The link the QR code carries (also shown as a link under it). */
  async qrLink(): Promise<string> {
    const link = this.page.getByRole('figure').getByRole('link');
    await expect(link).toBeVisible();
    return (await link.getAttribute('href'))!;
  }
}
