/**
 * The tax journey of issue 18: tess (verified, born in Chicago, a Lithuanian citizen who renounced
 * the US citizenship, not self-certified) is sent to the self-certification splash at sign-in
 * (start-page rule 7); she answers the questions (the US birthplace asks why she is not a US
 * citizen), signs the W-8BEN and the CRS self-certification on the built-in signing page, uploads
 * her certificate of loss of nationality; the administrator confirms the three documents in the
 * review queue; her profile's tax section then reads complete and home shows no tax action (the
 * banner's tax action goes as soon as nothing is missing: forms in review do not count, document 1 §4).
 * axe (WCAG 2.2 AA) on every page and step visited.
 */
import { expect, test, type Page } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { LoginPage, signInAdministrator } from './models/login-page.ts';
import { AdminReviewPage } from './models/admin-review-page.ts';
import { step } from './support/step.ts';

const tess = demoUserByKey.tess;

/** A minimal PDF (the header is what the platform checks). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n');

/** The verification banner: the status region that links to the profile or the limited-account page. */
const banner = (page: Page) => page.getByRole('status').filter({ has: page.getByRole('link', { name: /Go to your profile|See what is needed/ }) });

async function continueTo(page: Page, heading: string | RegExp): Promise<void> {
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused();
}

/** Signs the document open on the signing page with her typed name (the keyboard way). */
async function signDocument(page: Page, title: RegExp): Promise<void> {
  await expect(page.getByText(title).first()).toBeVisible();
  await page.getByRole('button', { name: 'Continue to sign' }).click();
  await page.getByLabel('Your full name').fill('Tess Turner');
  await page.getByLabel('Use my typed name as my signature').check();
  await page.getByLabel(/I agree that my electronic signature/).check();
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Document signed' })).toBeVisible({ timeout: 20_000 });
}

test('a person born in the US certifies, signs her W-8BEN online, uploads her CLN, and the administrator confirms them', async ({ page, browser }) => {
  test.setTimeout(180_000);

  // 1. tess signs in: the start page sends her to the splash (rule 7)
  const login = new LoginPage(page);
  await login.open();
  await login.submitPassword(tess.email, tess.password);
  await expect(page).toHaveURL(/\/self-certification-splash$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your tax details' })).toBeVisible();
  await expectNoAxeViolations(page, '/self-certification-splash');
  await step(page, 'tax-splash');

  // "Not now": home counts the tax action in the banner, which leads to the self-certification
  await page.getByRole('link', { name: 'Not now' }).click();
  await expect(banner(page)).toContainText('1 action required');
  await banner(page).getByRole('link', { name: 'Complete your tax certification' }).click();
  await expect(page).toHaveURL(/\/self-certification$/);

  // 2. the questions: born in Chicago (the date is her profile's), a Lithuanian citizen
  await expect(page.getByRole('heading', { level: 1, name: 'Where and when were you born?' })).toBeVisible();
  await expectNoAxeViolations(page, '/self-certification (birth)');
  await page.getByLabel('City of birth').fill('Chicago');
  await page.getByLabel('Country of birth').selectOption('US');
  await expect(page.getByLabel('Date of birth')).toHaveValue('1991-08-09');
  await continueTo(page, 'Your citizenships');
  await page.getByLabel('Citizenship', { exact: true }).selectOption('LT');
  await continueTo(page, 'Are you a US taxpayer?');
  await page.getByRole('radio', { name: 'No' }).check();
  // born in the US and not a citizen: the chart asks why
  await continueTo(page, 'Why are you not a US citizen?');
  await expectNoAxeViolations(page, '/self-certification (US birthplace)');
  await page.getByRole('radio', { name: 'I renounced my US citizenship' }).check();
  await continueTo(page, 'Where are you resident for tax purposes?');
  await page.getByLabel('Country of tax residence').first().selectOption('LT');
  await page.getByLabel(/Personal code|Asmens kodas/).first().fill('49108090125');
  await continueTo(page, 'Check your answers');
  await expect(page.getByText('Form W-8BEN (for persons who are not US persons)')).toBeVisible();
  await expect(page.getByText('Tax residency self-certification (CRS)')).toBeVisible();
  await expect(page.getByText('After signing, you will be asked to upload your certificate of loss of US nationality.')).toBeVisible();
  await expectNoAxeViolations(page, '/self-certification (review)');
  await step(page, 'tax-review');

  // 3. the signing page: the W-8BEN, then the CRS self-certification
  await page.getByRole('button', { name: 'Save and sign' }).click();
  await expect(page).toHaveURL(/\/e-sign\//, { timeout: 20_000 });
  await expect(page.getByText('Document 1 of 2')).toBeVisible();
  await expectNoAxeViolations(page, '/e-sign (W-8BEN)');
  await step(page, 'tax-sign');
  await signDocument(page, /Form W-8BEN/);
  await expectNoAxeViolations(page, '/e-sign (signed)');
  await page.getByRole('button', { name: 'Sign the next document' }).click();
  await expect(page.getByText('Document 2 of 2')).toBeVisible();
  await signDocument(page, /self-certification/i);
  await page.getByRole('button', { name: 'Finish' }).click();

  // 4. back at /self-certification: the forms wait for review, the CLN is asked
  await expect(page).toHaveURL(/\/self-certification$/, { timeout: 20_000 });
  await expect(page.getByText('One more thing: upload your certificate of loss of nationality below.')).toBeVisible();
  await expectNoAxeViolations(page, '/self-certification (CLN asked)');
  await page.getByLabel('Certificate file').setInputFiles({ name: 'cln.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByRole('button', { name: 'Upload the certificate' }).click();
  await expect(page.getByText('Thank you. We are checking your signed forms; this usually takes one or two working days.')).toBeVisible({ timeout: 20_000 });
  // nothing is missing any more (forms in review do not count): the banner reads again and goes
  await expect(banner(page)).toHaveCount(0);
  await expectNoAxeViolations(page, '/self-certification (in review)');
  await step(page, 'tax-in-review');

  // 5. the administrator confirms the three documents, in a second browser context
  const adminContext = await browser.newContext();
  try {
    const adminPage = await adminContext.newPage();
    await signInAdministrator(adminPage);
    const review = new AdminReviewPage(adminPage);
    await review.open();
    for (const subject of [
      'Form W-8BEN (foreign status of an individual) of Tess Turner',
      'Tax residency self-certification (CRS) of Tess Turner',
      'Certificate of loss of US nationality of Tess Turner',
    ]) {
      await review.expectWaiting(subject);
      await review.decide(subject, 'Confirm the document');
      await review.expectRecorded(new RegExp(`Recorded: ${subject.replace(/[()]/g, '\\$&')}`));
    }
    await expectNoAxeViolations(adminPage, '/admin-overview (tax forms confirmed)');
  } finally {
    await adminContext.close();
  }

  // 6. tess: the certification is complete, and home shows no tax action
  await page.goto('/self-certification');
  await expect(page.getByText('Your tax details are confirmed. There is nothing more to do.')).toBeVisible();
  await page.goto('/profile');
  await expect(page.getByText('Your tax self-certification is complete.')).toBeVisible();
  await expectNoAxeViolations(page, '/profile (tax complete)');
  await page.goto('/home');
  await expect(page.getByRole('heading', { level: 1, name: /Tess/ })).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
});
