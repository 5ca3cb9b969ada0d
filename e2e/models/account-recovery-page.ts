/**
 * Account recovery (/account-recovery/ with its steps email, reset, password, success): actions a
 * customer takes, then assertions about what they see. Each step's heading takes focus.
 */
import { expect, type Page } from '@playwright/test';

export interface FilePayload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export class AccountRecoveryPage {
  constructor(private readonly page: Page) {}

  // actions
  async open(path = '/account-recovery/'): Promise<void> {
    await this.page.goto(path);
  }

  async requestCode(email: string): Promise<void> {
    await this.page.getByLabel('E-mail address').fill(email);
    await this.page.getByRole('button', { name: 'Send code' }).click();
  }

  async lostAccessToEmail(): Promise<void> {
    await this.page.getByRole('button', { name: 'I can no longer read this e-mail' }).click();
  }

  async submitPersonalData(data: { email: string; recoveryEmail: string; firstName: string; lastName: string; dob: string }): Promise<void> {
    await this.page.getByLabel('E-mail address you signed in with').fill(data.email);
    await this.page.getByLabel('New e-mail address for the code').fill(data.recoveryEmail);
    await this.page.getByLabel('First name').fill(data.firstName);
    await this.page.getByLabel('Last name').fill(data.lastName);
    await this.page.getByLabel('Date of birth').fill(data.dob);
    await this.page.getByRole('button', { name: 'Send the request' }).click();
  }

  async uploadDocuments(document: FilePayload, selfie: FilePayload): Promise<void> {
    await this.page.getByLabel('Identity document (the page with your photo)').setInputFiles(document);
    await this.page.getByLabel('Selfie holding the document').setInputFiles(selfie);
    await this.page.getByRole('button', { name: 'Send the documents' }).click();
  }

  async checkAgain(): Promise<void> {
    await this.page.getByRole('button', { name: 'Check again' }).click();
  }

  async continueToCode(): Promise<void> {
    await this.page.getByRole('button', { name: 'Enter the code' }).click();
  }

  /** The owner's cancel page (the link of the notice): the code comes with the link. */
  async cancelFromLink(link: string): Promise<void> {
    await this.page.goto(link);
    // a page opened cold keeps the focus where the browser puts it (src/ui/step-heading.tsx)
    await expect(this.page.getByRole('heading', { level: 1, name: 'Cancel the recovery of your account' })).toBeVisible();
    await this.page.getByRole('button', { name: 'Cancel the request' }).click();
  }

  async startOver(): Promise<void> {
    await this.page.getByRole('button', { name: 'Start over' }).click();
  }

  async askForNewCode(): Promise<void> {
    await this.page.getByRole('button', { name: 'Ask for a new code' }).click();
  }

  async submitCode(code: string): Promise<void> {
    await this.page.getByLabel('Code from the e-mail').fill(code);
    await this.page.getByRole('button', { name: 'Check code' }).click();
  }

  /** Reloaded on /status, the code step no longer knows the login e-mail and asks for it too. */
  async submitCodeWithEmail(code: string, email: string): Promise<void> {
    await this.page.getByLabel('E-mail address you signed in with').fill(email);
    await this.submitCode(code);
  }

  async choosePassword(password: string, confirmation = password): Promise<void> {
    await this.page.getByLabel('New password', { exact: true }).fill(password);
    await this.page.getByLabel('Repeat the new password').fill(confirmation);
    await this.page.getByRole('button', { name: 'Save the new password' }).click();
  }

  async goToSignIn(): Promise<void> {
    await this.page.getByRole('link', { name: 'Sign in' }).click();
  }

  // assertions
  /**
   * `openedCold`: the page was just opened by its address, before the person did anything there.
   * Its heading then need not take focus (src/ui/step-heading.tsx: a page opened cold keeps the
   * browser's focus; whether Chromium counts the load as activated varied between runs).
   */
  private async expectStep(path: string, heading: string, openedCold = false): Promise<void> {
    await expect(this.page).toHaveURL(new RegExp(`/account-recovery/${path}$`));
    const h1 = this.page.getByRole('heading', { level: 1, name: heading });
    await expect(h1).toBeVisible();
    if (!openedCold) await expect(h1).toBeFocused();
  }

  async expectEmailStep({ openedCold = false }: { openedCold?: boolean } = {}): Promise<void> {
    await this.expectStep('email', 'Reset your password', openedCold);
  }

  async expectPersonalDataStep(): Promise<void> {
    await this.expectStep('email', 'Recover your account');
  }

  /** The task waits for the identity document and the selfie. */
  async expectDocumentsStep(): Promise<void> {
    await expect(this.page).toHaveURL(/\/account-recovery\/status\?taskId=[0-9a-f-]{36}$/);
    await expect(this.page.getByRole('heading', { level: 1, name: 'Prove who you are' })).toBeFocused();
  }

  /** The documents are in: an administrator decides. */
  async expectWaitingStatus(): Promise<void> {
    await expect(this.page.getByRole('heading', { level: 1, name: 'Your request is being checked' })).toBeVisible();
    await expect(this.page.getByRole('button', { name: 'Enter the code' })).toHaveCount(0);
  }

  async expectApprovedStatus(maskedNewEmail: string): Promise<void> {
    await expect(this.page.getByRole('heading', { level: 1, name: 'Identity confirmed' })).toBeVisible();
    await expect(this.page.getByText(`We sent a code to ${maskedNewEmail}.`)).toBeVisible();
  }

  async expectCanceled(): Promise<void> {
    await expect(this.page.getByRole('heading', { level: 1, name: 'The recovery request was canceled' })).toBeFocused();
  }

  /** The identity check said no; `retryable`: the "Try again" button is offered. */
  async expectRejectedStatus(retryable: boolean): Promise<void> {
    await expect(this.page).toHaveURL(/\/account-recovery\/status\?taskId=[0-9a-f-]{36}$/);
    await expect(this.page.getByRole('heading', { level: 1, name: 'We could not confirm your identity' })).toBeVisible();
    await expect(this.page.getByRole('button', { name: 'Try again' })).toHaveCount(retryable ? 1 : 0);
    await expect(this.page.getByRole('button', { name: 'Enter the code' })).toHaveCount(0);
  }

  async expectResetStep(maskedEmail: string): Promise<void> {
    await this.expectStep('reset', 'Enter the code');
    await expect(this.page.getByText(new RegExp(`sent an 8-character code to ${maskedEmail.replace(/[*.]/g, '\\$&')}`))).toBeVisible();
  }

  async expectPasswordStep(): Promise<void> {
    await this.expectStep('password', 'Choose a new password');
  }

  async expectSuccessStep(): Promise<void> {
    await this.expectStep('success', 'Your password was changed');
  }

  async expectError(text: string | RegExp): Promise<void> {
    await expect(this.page.getByRole('alert').filter({ hasText: text })).toBeVisible();
  }

  async expectFieldError(label: string, text: string | RegExp): Promise<void> {
    const field = this.page.getByLabel(label, { exact: true });
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(text);
  }
}
