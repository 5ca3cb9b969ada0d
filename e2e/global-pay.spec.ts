/**
 * Global pay (issue 15 §5 and §6): a business pays three people who have no account with us. The
 * clerk, acting for Northwind, uploads a CSV on /transfer/mass/global, removes a payment from the
 * draft and restores it, has the payees pay their own fee, checks the summary at
 * /transfer/external/global-summary, submits and approves with the authenticator, and finds the
 * batch among its batches (/history/batch-transfers), each payment waiting. Each payee is
 * e-mailed a link; one opens it at /receive/{id}, chooses Lithuania and a card, types the card,
 * confirms with the e-mailed code and sees the money on its way. axe (WCAG 2.2 AA) on every step;
 * E2E_SHOTS=<dir> also saves each step at 390 and 1366 pixels wide.
 *
 * Pays from Northwind's EUR account: the sign-in journey asserts Northwind's GBP balance on the same
 * platform.
 */
import { expect, test } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { LoginPage } from './models/login-page.ts';
import { latestMessage } from './support/mailbox.ts';
import { step } from './support/step.ts';
import { totp } from './support/totp.ts';
import { totpAfterStep, totpStep } from './support/totp-step.ts';

const clerk = demoUserByKey.clerk;
const run = Date.now().toString(36);
const payees = [
  { name: 'Lena Petraitė', email: `lena.${run}@payees.example`, country: 'LT', amount: '120.00' },
  { name: 'Marco Bianchi', email: `marco.${run}@payees.example`, country: 'IT', amount: '80.50' },
  { name: 'Ana Silva', email: `ana.${run}@payees.example`, country: 'PT', amount: '45.00' },
];
const CSV = ['beneficiaryName,beneficiaryEmail,beneficiaryCountryCode,amount,description', ...payees.map((p) => `${p.name},${p.email},${p.country},${p.amount},Design work November`)].join('\r\n');

test('a business pays three people by global pay; one takes the money by card at /receive', async ({ page, request }) => {
  test.setTimeout(240_000);
  const login = new LoginPage(page);
  await login.open();
  await login.submitPassword(clerk.email, clerk.password);
  await login.expectCodeStep();
  const signInStep = totpStep();
  await login.submitCode(totp(clerk.totpSecret!));
  await login.chooseAccount('Northwind Trading Ltd');
  await expect(page.getByRole('banner')).toContainText('Acting for Northwind Trading Ltd');

  // the kinds of batch: global pay among them (the clerk holds mass.global)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pay many people' }).click();
  await page.getByRole('link', { name: /^Global pay / }).click();
  await expect(page).toHaveURL(/\/transfer\/mass\/global$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Global pay' })).toBeVisible();
  const from = page.getByLabel('Pay from', { exact: true });
  const eur = await from.locator('option', { hasText: /^EUR account/ }).first().getAttribute('value');
  await from.selectOption(eur!);
  await page.getByLabel('Batch name').fill(`Designers ${run}`);
  await page.getByLabel('CSV file').setInputFiles({ name: 'designers.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await step(page, 'global-form');
  await page.getByRole('button', { name: 'Upload the file' }).click();

  // the draft: three payments; one removed and restored; the payees pay their own fee
  await expect(page.getByRole('heading', { level: 1, name: 'Check the draft batch' })).toBeVisible();
  const table = page.getByRole('table', { name: /Payments in this batch/ });
  for (const p of payees) await expect(table.getByRole('row').filter({ hasText: p.email })).toContainText(p.name);
  await page.getByRole('button', { name: `Remove the payment to ${payees[2]!.name}` }).click();
  await expect(table.getByRole('row').filter({ hasText: payees[2]!.email })).toContainText('Removed');
  await page.getByRole('button', { name: `Restore the payment to ${payees[2]!.name}` }).click();
  await expect(table.getByRole('row').filter({ hasText: payees[2]!.email })).not.toContainText('Removed');
  await page.getByLabel('Select all payments').check();
  await page.getByRole('button', { name: 'The payee pays the fee' }).click();
  for (const p of payees) await expect(table.getByRole('row').filter({ hasText: p.email })).toContainText('The payee');
  await step(page, 'global-draft');
  await page.getByRole('button', { name: 'Continue' }).click();

  // the summary: nothing to hold for fees (the payees pay them), the amounts' total
  await expect(page).toHaveURL(/\/transfer\/external\/global-summary$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Batch summary' })).toBeVisible();
  await expect(page.getByText('€245.50').first()).toBeVisible();
  await step(page, 'global-summary');
  await page.getByRole('button', { name: 'Submit the batch' }).click();

  // approved with the authenticator (Northwind approves by otp), then submitted
  await expect(page.getByRole('heading', { level: 1, name: 'Approve the batch' })).toBeVisible();
  await page.getByLabel('Code', { exact: true }).fill(totpAfterStep(clerk.totpSecret!, signInStep));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Batch submitted' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Each payee gets an e-mail with a link to take the payment.')).toBeVisible();
  await step(page, 'global-done');

  // the batch is among the customer's batches, its payments waiting for their payees
  await page.getByRole('link', { name: 'See your batches' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Batch payments' })).toBeVisible();
  const listed = page.getByRole('row').filter({ hasText: `Designers ${run}` }).first();
  await expect(listed).toContainText('Global pay');
  await listed.getByRole('button').first().click();
  const rows = page.getByRole('table', { name: 'Payments in this batch' }).getByRole('row');
  for (const p of payees) await expect(rows.filter({ hasText: p.name })).toContainText('Waiting for the payee');
  await step(page, 'global-batch-detail');

  // every payee is e-mailed a link; Lena takes hers by card
  for (const p of payees.slice(1)) await latestMessage(request, p.email, 'mail', /\/receive\/\d+\?s=[A-Za-z0-9_-]+/);
  const { match } = await latestMessage(request, payees[0]!.email, 'mail', /\/receive\/\d+\?s=[A-Za-z0-9_-]+/);
  await page.context().clearCookies();
  await page.goto(match[0]);
  await expect(page.getByRole('heading', { level: 1, name: 'You have a payment' })).toBeVisible();
  await expect(page.getByText('Northwind Trading Ltd sent you money. Choose how to receive it, or refuse it.')).toBeVisible();
  await step(page, 'receive-details');
  await page.getByRole('button', { name: 'Take the money' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Where do you want the money?' })).toBeVisible();
  await page.getByLabel('Country').selectOption('LT');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'How do you want to be paid?' })).toBeVisible();
  await page.getByRole('radio', { name: /^To a card/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your details' })).toBeVisible();
  await page.getByLabel('Name on the card').fill(payees[0]!.name);
  await page.getByLabel('Card number').fill('4111 1111 1111 1111');
  await step(page, 'receive-form');
  await page.getByRole('button', { name: 'Send me the code' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Enter the code' })).toBeVisible();
  const code = await latestMessage(request, payees[0]!.email, 'mail', /is (\d{6})\. It is valid/);
  await step(page, 'receive-code');
  await page.getByLabel('Code', { exact: true }).fill(code.match[1]!);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'On its way' })).toBeVisible({ timeout: 20_000 });
  await step(page, 'receive-done');

  // the same link now says the payment was taken
  await page.goto(match[0]);
  await expect(page.getByRole('heading', { level: 1, name: /^Already (taken|paid)$/ })).toBeVisible();
});
