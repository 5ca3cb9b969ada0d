/** The sign-in screen: actions a visitor takes, then assertions about what they see. */
import { expect, type Page } from '@playwright/test';

export class LoginPage {
  constructor(private readonly page: Page) {}

  // actions
  async open(path = '/login'): Promise<void> {
    await this.page.goto(path);
    await expect(this.page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  }

  async submitPassword(email: string, password: string): Promise<void> {
    await this.page.getByLabel('E-mail address').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }

  async submitCode(code: string): Promise<void> {
    await this.page.getByLabel('6-digit code').fill(code);
    await this.page.getByRole('button', { name: 'Verify' }).click();
  }

  async chooseAccount(companyName: string): Promise<void> {
    await expect(this.page.getByRole('heading', { name: 'Choose an account' })).toBeVisible();
    await this.page.getByRole('button', { name: companyName }).click();
  }

  // assertions
  async expectCodeStep(): Promise<void> {
    const heading = this.page.getByRole('heading', { name: 'Enter your verification code' });
    await expect(heading).toBeVisible();
    // focus management on steps: the new step's heading takes focus
    await expect(heading).toBeFocused();
  }

  async expectError(text: RegExp | string): Promise<void> {
    await expect(this.page.getByRole('alert').filter({ hasText: text })).toBeVisible();
  }
}
