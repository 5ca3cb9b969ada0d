/**
 * /setting: the security settings. Linked phones (list, unlink) and two-step verification (change
 * the method, recovery codes shown once). Actions first, then assertions.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export class SettingsPage {
  constructor(private readonly page: Page) {}

  // actions
  async open(): Promise<void> {
    await this.page.goto('/setting');
    await this.expectOpen();
  }

  /** Unlinks a phone from the list, confirming in the dialog (which closes, linked or refused). */
  async unlinkPhone(name: string): Promise<void> {
    await this.linkedPhones().getByRole('button', { name: `Unlink ${name}` }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Unlink this phone?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`${name} will no longer approve your sign-ins.`);
    await dialog.getByRole('button', { name: 'Unlink', exact: true }).click();
    await expect(dialog).toBeHidden();
  }

  /** "Link a phone": the dialog with the QR code and the link code; returns the link the QR code holds. */
  async startLinkingPhone(): Promise<string> {
    await this.linkedPhones().getByRole('button', { name: 'Link a phone' }).click();
    const dialog = this.linkDialog();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('img', { name: 'QR code to link your phone' })).toBeVisible();
    await expect(dialog.getByText(/^\d+-[A-Z2-9]{8}$/)).toBeVisible();
    const href = await dialog.getByRole('figure').getByRole('link').getAttribute('href');
    expect(href, 'the link the QR code holds').toMatch(/\/device\/#link=\d+\.[A-Z2-9]{8}$/);
    return href!;
  }

  async closeLinkDialog(): Promise<void> {
    await this.linkDialog().getByRole('button', { name: 'Close' }).click();
    await expect(this.linkDialog()).toBeHidden();
  }

  /**
   * Starts changing the two-step method to an authenticator app (the current password
   * re-authenticates the change); returns the new key shown.
   */
  async startAuthenticatorSetup(currentPassword: string): Promise<string> {
    const section = this.twoStep();
    await section.getByRole('button', { name: 'Change two-step verification' }).click();
    await expect(section.getByRole('heading', { name: 'Choose how to confirm' })).toBeFocused();
    await section.getByRole('radio', { name: 'Authenticator app' }).check();
    await section.getByLabel('Current password').fill(currentPassword);
    await section.getByRole('button', { name: 'Continue' }).click();
    await expect(section.getByRole('heading', { name: 'Scan the QR code with your authenticator app' })).toBeVisible();
    await expect(section.getByRole('img', { name: 'QR code of your new authenticator key' })).toBeVisible();
    const key = (await section.getByRole('figure').locator('code').textContent())?.trim() ?? '';
    expect(key, 'the authenticator key shown under the QR code').toMatch(/^[A-Z2-7]{16,}$/);
    return key;
  }

  async confirmAuthenticatorCode(code: string): Promise<void> {
    const section = this.twoStep();
    await section.getByLabel('Code', { exact: true }).fill(code);
    await section.getByRole('button', { name: 'Confirm' }).click();
  }

  /** The recovery codes, shown once: reads them, ticks "I saved them" and continues. */
  async keepRecoveryCodes(): Promise<string[]> {
    const section = this.twoStep();
    await expect(section.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
    const items = section.locator('ol.recovery-codes code');
    await expect(items).toHaveCount(10);
    const codes = (await items.allTextContents()).map((c) => c.trim());
    // continuing needs "I saved my recovery codes"
    await expect(section.getByRole('button', { name: 'Continue' })).toBeDisabled();
    await section.getByLabel('I saved my recovery codes').check();
    await section.getByRole('button', { name: 'Continue' }).click();
    await expect(section.getByRole('heading', { name: 'Save your recovery codes' })).toHaveCount(0);
    return codes;
  }

  // assertions
  async expectError(text: string): Promise<void> {
    await expect(this.page.getByRole('alert').filter({ hasText: text })).toBeVisible();
  }

  async expectOpen(): Promise<void> {
    await expect(this.page).toHaveURL(/\/setting$/);
    await expect(this.page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  }

  linkDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Link a phone' });
  }

  /** The dialog says the phone finished linking (it heard the phone over the live channel). */
  async expectPhoneLinkedInDialog(): Promise<void> {
    const done = this.linkDialog().getByRole('status').filter({ hasText: 'Phone linked' });
    await expect(done).toBeVisible();
    await expect(done).toContainText('Your phone can now approve your sign-ins.');
  }

  linkedPhones(): Locator {
    return this.page.getByRole('region', { name: 'Linked phones' });
  }

  twoStep(): Locator {
    return this.page.getByRole('region', { name: 'Two-step verification' });
  }

  /** The phone is listed with its type and what it may approve. */
  async expectLinkedPhone(name: string, typeLabel: string): Promise<void> {
    const item = this.linkedPhones().getByRole('listitem').filter({ has: this.page.getByRole('heading', { level: 3, name }) });
    await expect(item).toHaveCount(1);
    await expect(item).toContainText(typeLabel);
    await expect(item.getByRole('checkbox', { name: 'Approve sign-ins' })).toBeChecked();
  }

  async expectNoLinkedPhone(): Promise<void> {
    await expect(this.linkedPhones().getByText('No phone is linked yet.')).toBeVisible();
  }

  async expectCurrentMethod(name: string): Promise<void> {
    await expect(this.twoStep().getByText(`Current method: ${name}`)).toBeVisible();
  }

  /** A session signed in with a recovery code: two-step verification must be set up again. */
  async expectSetupAgainRequired(): Promise<void> {
    const notice = this.twoStep().getByRole('status').filter({ hasText: 'Set up two-step verification again' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('You signed in with a recovery code');
  }
}
