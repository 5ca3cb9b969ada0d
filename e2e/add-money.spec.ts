/**
 * Adding money (issue 15 §2 and §6's e2e): a customer opens "Add money", finds her euro account's
 * own IBAN with its copy buttons and QR code, and (demo mode) has a bank on the simulated network
 * pay into it; the money arrives through the funding rail and shows in her history. axe (WCAG 2.2
 * AA) on the page.
 */
import { expect, test } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { LoginPage } from './models/login-page.ts';

const rita = demoUserByKey.rita;

test('a customer sees her account IBAN and money sent to it arrives', async ({ page }) => {
  test.setTimeout(180_000);
  const login = new LoginPage(page);
  await login.open();
  await login.submitPassword(rita.email, rita.password);
  await expect(page.getByRole('heading', { level: 1, name: /Rita/ })).toBeVisible();

  await page.getByRole('link', { name: 'Add money' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add money' })).toBeVisible();
  const eur = page.getByRole('article').filter({ has: page.getByRole('heading', { name: /^EUR account \d+/ }) }).first();
  await expect(eur.getByText(/^LT\d{2}( \d{4}){4}$/)).toBeVisible();
  await expect(eur.getByText('SEPA transfer in euro')).toBeVisible();
  await expect(eur.getByRole('img', { name: /QR code for a SEPA transfer/ })).toBeVisible();
  await expect(eur.getByRole('button', { name: 'Copy IBAN' })).toBeVisible();
  await expectNoAxeViolations(page, '/add-money');

  const demo = page.getByRole('region', { name: 'Try it: a bank transfer from outside' });
  const eurLabel = (await eur.getByRole('heading').first().innerText()).replace(/\s*New$/, '').trim();
  await demo.getByLabel('Account').selectOption({ label: eurLabel });
  await demo.getByLabel('Amount (EUR)').fill('73.25');
  await demo.getByLabel('Sender name').fill('Rita at her other bank');
  await demo.getByRole('button', { name: 'Send the test transfer' }).click();
  await expect(demo.getByRole('status')).toHaveText('The transfer is on its way: it arrives in a few seconds.');
  await expectNoAxeViolations(page, '/add-money (test transfer sent)');

  // the funding rail credits within seconds: the history shows the incoming money
  await expect(async () => {
    await page.goto('/history');
    await expect(page.getByText(/73\.25/).first()).toBeVisible({ timeout: 8_000 });
  }).toPass({ timeout: 90_000 });
});
