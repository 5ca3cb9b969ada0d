/**
 * Personal registration (/register, /register/personal) and activation (/activate, or the e-mailed
 * link's query action): actions a visitor takes, then assertions about what they see.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export interface PersonalDetails {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  /** the country's name as the list shows it in English */
  country: string;
}

export class RegistrationPage {
  constructor(private readonly page: Page) {}

  private emailField(): Locator {
    return this.page.getByLabel('E-mail address');
  }

  // actions
  async openChooser(): Promise<void> {
    await this.page.goto('/register');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Open an account' })).toBeVisible();
  }

  async choosePersonal(): Promise<void> {
    await this.page.getByRole('link', { name: 'Personal account' }).click();
    await expect(this.page).toHaveURL(/\/register\/personal$/);
    await expect(this.page.getByRole('heading', { level: 1, name: 'Open a personal account' })).toBeVisible();
  }

  /** Types the address as a user would (the existence check runs once the typing pauses). */
  async typeEmail(email: string): Promise<void> {
    await this.emailField().fill(email);
  }

  async fillDetails(details: PersonalDetails): Promise<void> {
    await this.page.getByLabel('First name').fill(details.firstName);
    await this.page.getByLabel('Last name').fill(details.lastName);
    await this.typeEmail(details.email);
    await this.page.getByLabel('Password', { exact: true }).fill(details.password);
    await this.page.getByLabel('Country of residence').selectOption({ label: details.country });
    await this.page.getByLabel('I accept the terms and the privacy policy').check();
  }

  async submit(): Promise<void> {
    await this.page.getByRole('button', { name: 'Open the account' }).click();
  }

  /** From "check your e-mail": the link to the activation form, prefilled with the address. */
  async goToActivation(): Promise<void> {
    await this.page.getByRole('link', { name: 'Enter the activation code' }).click();
  }

  // assertions
  /** The check's answer: the field's description, and a status message read out while typing. */
  private async expectEmailCheck(text: string | RegExp): Promise<void> {
    await expect(this.emailField()).toHaveAccessibleDescription(text);
    await expect(this.page.getByRole('status').filter({ hasText: text })).toHaveCount(1);
  }

  async expectEmailFree(): Promise<void> {
    await this.expectEmailCheck('This e-mail address is free.');
  }

  async expectEmailTaken(): Promise<void> {
    await this.expectEmailCheck(/already registered\. Sign in or recover your password/);
  }

  async expectEmailError(text: string | RegExp): Promise<void> {
    await expect(this.emailField()).toHaveAttribute('aria-invalid', 'true');
    await expect(this.emailField()).toHaveAccessibleDescription(text);
  }

  async expectSent(email: string): Promise<void> {
    const heading = this.page.getByRole('heading', { level: 1, name: 'Check your e-mail' });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    await expect(this.page.getByText(`We sent an activation link and code to ${email}.`)).toBeVisible();
  }
}

export class ActivationPage {
  constructor(private readonly page: Page) {}

  // actions
  async submitCode(code: string): Promise<void> {
    await this.page.getByLabel('Activation code').fill(code);
    await this.page.getByRole('button', { name: 'Activate', exact: true }).click();
  }

  async continueToSignIn(): Promise<void> {
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }

  // assertions
  async expectForm(email: string): Promise<void> {
    await expect(this.page).toHaveURL(/\/activate\?/);
    await expect(this.page.getByRole('heading', { level: 1, name: 'Activate your account' })).toBeVisible();
    await expect(this.page.getByLabel('E-mail address')).toHaveValue(email);
  }

  async expectError(text: string | RegExp): Promise<void> {
    await expect(this.page.getByRole('alert').filter({ hasText: text })).toBeVisible();
  }

  async expectActivated(): Promise<void> {
    const heading = this.page.getByRole('heading', { level: 1, name: 'Your account is activated' });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
  }
}
