/** The sign-in screen: actions a visitor takes, then assertions about what they see. */
import { expect, type Page } from '@playwright/test';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { totp } from '../support/totp.ts';
import { totpAfterStep, totpStep } from '../support/totp-step.ts';

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

  /** sms step: the code from the text message (the same field and button as the otp step). */
  async submitSmsCode(code: string): Promise<void> {
    await this.submitCode(code);
  }

  /** From a second step: sign in with a recovery code instead. */
  async submitRecoveryCode(code: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Use a recovery code' }).click();
    const heading = this.page.getByRole('heading', { name: 'Sign in with a recovery code' });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    await this.page.getByRole('textbox', { name: 'Recovery code' }).fill(code);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
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

  /** The sign-in step asks for the SMS code: the masked phone and the two-digit identifier; returns the identifier. */
  async expectSmsStep(maskedPhone: string): Promise<string> {
    const heading = this.page.getByRole('heading', { name: 'Enter the code from the text message' });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    const explanation = this.page.getByText(/We sent a text message to/);
    await expect(explanation).toContainText(maskedPhone);
    const identifier = (await explanation.textContent())?.match(/marked (\d{2})/)?.[1];
    expect(identifier, 'the two-digit identifier of the text message').toMatch(/^\d{2}$/);
    // the field's hint repeats it, so a screen reader user hears it where the code goes
    await expect(this.page.getByText(`Enter the code from the text message marked ${identifier}.`)).toBeVisible();
    return identifier!;
  }

  /** The push step: waiting for the named phone to approve. */
  async expectPushWaiting(deviceName: string): Promise<void> {
    const heading = this.page.getByRole('heading', { name: 'Confirm the sign-in on your phone' });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    await expect(this.page.getByText(`We sent a sign-in request to ${deviceName}.`, { exact: false })).toBeVisible();
    await expect(this.page.getByRole('status').filter({ hasText: 'Waiting for your phone' })).toBeVisible();
  }

  /** A strict push migration is announced on the second step. */
  async expectStrictMigrationNotice(): Promise<void> {
    await expect(this.page.getByText('you need to turn on sign-in approval on your phone', { exact: false })).toBeVisible();
  }

  /** Back on the first step (after a failure), with the error said. */
  async expectCredentialsStepWithError(text: RegExp | string): Promise<void> {
    await expect(this.page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await this.expectError(text);
  }
}

/**
 * A demo user signs in with password and authenticator. The platform takes a TOTP step once per
 * user and accepts one step of clock drift, so when another journey on this platform already used
 * this step's code (the refusal says so), the next step's code is entered, as an authenticator
 * whose clock runs a little ahead would show it. `arrived`: whether the page is past the code step
 * (where a user who may not pass it would be).
 */
export async function signInWithAuthenticator(page: Page, user: { email: string; password: string; totpSecret: string | null }, arrived: () => Promise<boolean>): Promise<void> {
  const secret = user.totpSecret!;
  const login = new LoginPage(page);
  await login.open();
  await login.submitPassword(user.email, user.password);
  await login.expectCodeStep();
  const step = totpStep();
  await login.submitCode(totp(secret));
  const refused = page.getByRole('alert');
  await expect.poll(async () => (await arrived()) || (await refused.first().isVisible()), { timeout: 20_000 }).toBe(true);
  if (!(await arrived())) await login.submitCode(totpAfterStep(secret, step));
}

/** The administrator signs in with the authenticator and lands on the admin overview. */
export async function signInAdministrator(page: Page): Promise<void> {
  await signInWithAuthenticator(page, demoUserByKey.admin, async () => /\/admin-overview/.test(page.url()));
  await expect(page).toHaveURL(/\/admin-overview/);
}
