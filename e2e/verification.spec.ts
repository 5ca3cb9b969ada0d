/**
 * The verification journey of issue 5: uma (not verified: phone not confirmed, no identity document,
 * no proof of residence) sees the status banner with its count of 3, confirms her phone with the SMS
 * code read from the outbox, uploads an identity document and a proof of address; the administrator,
 * in a second browser context, confirms both in the review queue; uma's banner is gone and her status
 * reads Checked. axe (WCAG 2.2 AA) on every page and step visited.
 */
import { expect, test, type Page } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { latestMessage } from './support/mailbox.ts';
import { LoginPage, signInAdministrator } from './models/login-page.ts';
import { ProfilePage } from './models/profile-page.ts';
import { AdminReviewPage } from './models/admin-review-page.ts';

const uma = demoUserByKey.uma;

/** A 1×1 PNG: the platform reads the type from the content, so it must be a real one. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
/** A minimal PDF (the header is what the platform checks). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n');

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** The verification banner: the status region that links to the profile or the limited-account page. */
function banner(page: Page) {
  return page.getByRole('status').filter({ has: page.getByRole('link', { name: /Go to your profile|See what is needed/ }) });
}

test('an unverified customer confirms her phone and uploads her documents, an administrator confirms them, and she is verified', async ({ page, request, browser }) => {
  test.setTimeout(360_000);

  // 1. uma signs in: the banner warns with 3 actions and links to her profile
  const login = new LoginPage(page);
  await login.open();
  await login.submitPassword(uma.email, uma.password);
  await expect(page.getByRole('heading', { level: 1, name: /Uma/ })).toBeVisible();
  await expect(banner(page)).toContainText('3 actions required');
  await expectNoAxeViolations(page, '/home (uma, banner)');
  await banner(page).getByRole('link', { name: 'Go to your profile' }).click();
  await expect(page).toHaveURL(/\/profile/);

  const profile = new ProfilePage(page);
  await expect(profile.section('Phones')).toBeVisible();
  await profile.expectStatus(/not verified yet/);
  await expectNoAxeViolations(page, '/profile (uma)');

  // 2. her phone, confirmed with the code of the text message
  const phoneLabel = `+${uma.phone.countryCode} ${uma.phone.number}`;
  await profile.confirmPhone(phoneLabel, async () => {
    const { match } = await latestMessage(request, `+${uma.phone.countryCode}${uma.phone.number}`, 'sms', /(\d{6}) is your code to confirm this phone number/);
    return match[1]!;
  });
  await expect(banner(page)).toContainText('2 actions required');
  await expectNoAxeViolations(page, '/profile (phone confirmed)');

  // 3. an identity document and a proof of address
  await profile.upload('Upload an identity document', {
    type: 'Passport',
    file: { name: 'passport.png', mimeType: 'image/png', buffer: PNG },
    number: 'LT7788990',
    issued: isoDay(-400),
    expires: isoDay(3650),
  });
  await expect(banner(page)).toContainText('1 action required');
  await profile.upload('Upload a proof of residence', {
    type: 'Utility bill',
    file: { name: 'bill.pdf', mimeType: 'application/pdf', buffer: PDF },
    issued: isoDay(-20),
  });
  // nothing left to do: she waits for the check, and the banner gives way to the profile's status
  await expect(banner(page)).toHaveCount(0);
  await profile.expectStatus(/checking your documents/);
  await expectNoAxeViolations(page, '/profile (documents in review)');

  // 4. the administrator confirms both, in a second browser context
  const adminContext = await browser.newContext();
  try {
    const adminPage = await adminContext.newPage();
    await signInAdministrator(adminPage);
    const review = new AdminReviewPage(adminPage);
    await review.open();
    await expectNoAxeViolations(adminPage, '/admin-overview (review queue)');
    await review.expectWaiting('Passport of Uma Urbonaite');
    await review.decide('Passport of Uma Urbonaite', 'Confirm the document');
    await review.expectRecorded(/Recorded: Passport of Uma Urbonaite/);
    await expectNoAxeViolations(adminPage, '/admin-overview (decision recorded)');
    await review.decide('Utility bill of Uma Urbonaite', 'Confirm the document');
    await review.expectRecorded(/The customer is verified now/);
  } finally {
    await adminContext.close();
  }

  // 5. uma: no banner, and her status reads Checked
  await profile.open();
  await profile.expectStatus('Checked');
  await expect(banner(page)).toHaveCount(0);
  await expectNoAxeViolations(page, '/profile (verified)');
  await page.goto('/home');
  await expect(page.getByRole('heading', { level: 1, name: /Uma/ })).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
  await expectNoAxeViolations(page, '/home (verified)');
});
