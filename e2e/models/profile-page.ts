/** /profile: the customer's sections, the verification status summary, and the uploads. */
import { expect, type Locator, type Page } from '@playwright/test';

export interface UploadInput {
  type: string;
  file: { name: string; mimeType: string; buffer: Buffer };
  number?: string;
  issued: string;
  expires?: string;
}

export class ProfilePage {
  constructor(private readonly page: Page) {}

  section(name: string | RegExp): Locator {
    return this.page.getByRole('region', { name });
  }

  // actions
  async open(): Promise<void> {
    await this.page.goto('/profile');
    await expect(this.page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(this.section('Phones')).toBeVisible();
  }

  /** Confirms the phone with the code `readCode` returns once the code was sent. */
  async confirmPhone(phoneLabel: string, readCode: () => Promise<string>): Promise<void> {
    const phones = this.section('Phones');
    await phones.getByRole('button', { name: `Confirm ${phoneLabel}` }).click();
    const code = phones.getByRole('textbox', { name: 'Code' });
    await expect(code).toBeVisible();
    await code.fill(await readCode());
    await phones.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(phones.getByText(`Phone ${phoneLabel} confirmed.`)).toBeVisible();
  }

  /** Opens an upload of the identity section ("Upload an identity document" / "Upload a proof of residence") and goes through its steps. */
  async upload(opener: string, input: UploadInput): Promise<void> {
    const identity = this.section('Identity and proof of residence');
    await identity.getByRole('button', { name: opener }).click();
    await expect(identity.getByRole('heading', { name: 'Choose the document' })).toBeFocused();
    await identity.getByLabel('Document type').selectOption({ label: input.type });
    await identity.getByRole('button', { name: 'Continue' }).click();
    // choosing the file moves on to the details step
    await identity.getByLabel('Document file').setInputFiles(input.file);
    await expect(identity.getByLabel('Issue date')).toBeVisible();
    if (input.number !== undefined) await identity.getByLabel('Document number').fill(input.number);
    await identity.getByLabel('Issue date').fill(input.issued);
    if (input.expires !== undefined) await identity.getByLabel('Expiry date').fill(input.expires);
    await identity.getByRole('button', { name: 'Continue' }).click();
    await expect(identity.getByRole('heading', { name: 'Check and upload' })).toBeFocused();
    await identity.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(identity.getByText('The document was uploaded')).toBeVisible();
    await identity.getByRole('button', { name: 'Close' }).click();
  }

  // assertions
  async expectStatus(short: string | RegExp): Promise<void> {
    await expect(this.page.getByRole('region', { name: 'Verification status' })).toContainText(short);
  }
}
