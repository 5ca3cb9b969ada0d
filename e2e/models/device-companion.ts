/**
 * The device companion (/device/): the customer's phone that links to the account and answers
 * sign-in approval requests. Runs in a browser context of its own (its own localStorage, so the web
 * app's context never holds the device secret). Actions first, then assertions.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export class DeviceCompanion {
  constructor(private readonly page: Page) {}

  // actions
  /** Opens the companion; `hash` carries `#link=<id>.<code>` from a QR code, or nothing. */
  async open(hash = ''): Promise<void> {
    await this.page.goto(`/device/${hash}`);
  }

  /** Types the link code shown in the online banking (and a name for this phone), then links. */
  async link(linkCode: string, phoneName: string): Promise<void> {
    await this.expectLinkForm();
    await this.page.getByLabel('Link code').fill(linkCode);
    await this.page.getByLabel('Name of this phone (optional)').fill(phoneName);
    await this.page.getByRole('button', { name: 'Link this phone' }).click();
  }

  /** Opened from a QR code: the link code is filled in already; only the name is typed. */
  async linkScanned(linkCode: RegExp, phoneName: string): Promise<void> {
    await this.expectLinkForm();
    await expect(this.page.getByLabel('Link code')).toHaveValue(linkCode);
    await this.page.getByLabel('Name of this phone (optional)').fill(phoneName);
    await this.page.getByRole('button', { name: 'Link this phone' }).click();
  }

  /** Approves the (only) pending sign-in request with one tap. */
  async approveSignIn(): Promise<void> {
    await this.signInRequest().getByRole('button', { name: 'Approve' }).click();
  }

  async declineSignIn(): Promise<void> {
    await this.signInRequest().getByRole('button', { name: 'Decline' }).click();
  }

  /** "Unlink this phone", confirmed on the next screen. */
  async unlinkThisPhone(): Promise<void> {
    await this.page.getByRole('button', { name: 'Unlink this phone' }).click();
    const heading = this.page.getByRole('heading', { level: 1, name: 'Unlink this phone?' });
    await expect(heading).toBeFocused();
    await this.page.getByRole('button', { name: 'Unlink', exact: true }).click();
  }

  // assertions
  async expectError(text: string): Promise<void> {
    await expect(this.page.getByRole('alert').filter({ hasText: text })).toBeVisible();
  }

  async expectLinkForm(): Promise<void> {
    await expect(this.page.getByRole('heading', { level: 1, name: 'Link this phone' })).toBeVisible();
  }

  /** Linked and listening: who it approves for, under which name, and no request yet. */
  async expectLinked(login: string, phoneName: string): Promise<void> {
    await expect(this.page.getByRole('heading', { level: 1, name: 'Approval requests' })).toBeVisible();
    await expect(this.page.getByText(`Linked to ${login} as “${phoneName}”.`)).toBeVisible();
  }

  async expectNoRequests(): Promise<void> {
    await expect(this.page.getByRole('status').filter({ hasText: 'No requests right now.' })).toBeVisible();
  }

  /** The pending sign-in request card (arrives over the live channel). */
  signInRequest(): Locator {
    return this.page.getByRole('list', { name: 'Pending requests' }).getByRole('listitem').filter({
      has: this.page.getByRole('heading', { level: 2, name: 'Sign-in request' }),
    });
  }

  /** A sign-in request arrived, showing where it comes from and the Approve / Decline taps. */
  async expectSignInRequest(): Promise<void> {
    const card = this.signInRequest();
    await expect(card).toHaveCount(1);
    await expect(card.getByText('Address')).toBeVisible();
    await expect(card.getByText('Browser')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Approve' })).toBeEnabled();
    await expect(card.getByRole('button', { name: 'Decline' })).toBeEnabled();
  }

  /** After an answer: the notice says which, and the request is gone. */
  async expectAnswered(notice: 'Approved.' | 'Declined.'): Promise<void> {
    await expect(this.page.getByRole('status').filter({ hasText: notice })).toBeVisible();
    await expect(this.signInRequest()).toHaveCount(0);
  }

  /** Unlinked from the online banking's settings: the companion forgets its link and says so. */
  async expectUnlinkedElsewhere(): Promise<void> {
    await this.expectLinkForm();
    await expect(this.page.getByRole('status').filter({ hasText: 'This phone was unlinked in your online banking.' })).toBeVisible();
  }
}
