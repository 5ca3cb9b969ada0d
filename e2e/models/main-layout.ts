/** The signed-in main layout and home screen. */
import { expect, type Page } from '@playwright/test';

export class MainLayout {
  constructor(private readonly page: Page) {}

  // actions
  /** The account menu (src/app/shell/account-menu.tsx) holds the language and sign-out. */
  async openAccountMenu(): Promise<void> {
    const button = this.page.locator('#account-menu-button');
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  }

  async switchLanguage(optionLabel: string): Promise<void> {
    await this.openAccountMenu();
    await this.page.getByLabel(/^(Language|Idioma|Limbă|Язык|Мова)$/).selectOption({ label: optionLabel });
  }

  async signOut(label = 'Sign out'): Promise<void> {
    await this.openAccountMenu();
    await this.page.getByRole('button', { name: label }).click();
  }

  // assertions
  async expectHome(welcome: string | RegExp): Promise<void> {
    await expect(this.page).toHaveURL(/\/home$/);
    await expect(this.page.getByRole('heading', { level: 1, name: welcome })).toBeVisible();
  }

  async expectAccountsArea(): Promise<void> {
    await expect(this.page.getByRole('heading', { name: /Accounts|Cuentas/ })).toBeVisible();
  }
}
