/** The transfer pages (/transfer/account, /transfer/p2p) with their review and approval steps. */
import { expect, type Page } from '@playwright/test';

export class TransferPage {
  constructor(private readonly page: Page) {}

  // actions
  async openBetweenAccounts(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Between accounts' }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Transfer between your accounts' })).toBeVisible();
  }

  async openP2p(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Send money' }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Send money to a person' })).toBeVisible();
  }

  /** Picks the first account whose option text matches (e.g. /EUR account/). */
  async chooseFrom(option: RegExp): Promise<void> {
    await this.choose('From account', option);
  }

  async chooseTo(option: RegExp): Promise<void> {
    await this.choose('To account', option);
  }

  async enterAmount(amount: string): Promise<void> {
    await this.page.getByLabel(/^Amount/).first().fill(amount);
  }

  async enterPayee(email: string, expectedName: RegExp): Promise<void> {
    await this.page.getByLabel("Payee's e-mail address").fill(email);
    await expect(this.page.getByText(expectedName).first()).toBeVisible();
  }

  async enterNote(note: string): Promise<void> {
    await this.page.getByLabel('Note to the payee (optional)').fill(note);
  }

  async review(): Promise<void> {
    await this.page.getByRole('button', { name: 'Review the transfer' }).click();
    await expect(this.page.getByRole('heading', { name: 'Check the transfer' })).toBeVisible();
  }

  async send(): Promise<void> {
    await this.page.getByRole('button', { name: 'Send', exact: true }).click();
  }

  async submitCode(code: string): Promise<void> {
    await this.page.getByLabel('Code', { exact: true }).fill(code);
    await this.page.getByRole('button', { name: 'Confirm' }).click();
  }

  // assertions
  async expectFeeShown(): Promise<void> {
    await expect(this.page.getByText(/^Fee: /).first()).toBeVisible();
  }

  async expectCodeStep(): Promise<void> {
    await expect(this.page.getByRole('heading', { name: /^Enter the code we sent/ })).toBeVisible();
  }

  async expectSuccess(): Promise<void> {
    await expect(this.page.getByRole('heading', { name: 'Successfully submitted' })).toBeVisible();
  }

  private async choose(label: string, option: RegExp): Promise<void> {
    const select = this.page.getByLabel(label, { exact: true });
    await expect(select.locator('option', { hasText: option }).first()).toBeAttached();
    const value = await select.locator('option', { hasText: option }).first().getAttribute('value');
    await select.selectOption(value ?? '');
  }
}
