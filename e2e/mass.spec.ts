/**
 * Paying many people at once (issue 15 §4): a customer pastes lines on /transfer/mass/p2p, is
 * told which line is wrong and why (nothing sent), fixes it, sees each payment with its fee and
 * the total on the confirm page, pays, watches the progress until every payment is made, and
 * finds the batch with its rows on /history/batch-transfers. axe (WCAG 2.2 AA) on every step.
 * E2E_SHOTS=<dir> also saves each step at 390 and 1366 pixels wide (looking at the pages).
 */
import { expect, test } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { step } from './support/step.ts';
import { LoginPage } from './models/login-page.ts';

const rita = demoUserByKey.rita;

test('a customer pays three people from pasted lines: a wrong line is named, the batch is previewed, paid and listed', async ({ page }) => {
  test.setTimeout(240_000);
  const login = new LoginPage(page);
  await login.open();
  await login.submitPassword(rita.email, rita.password);
  await expect(page.getByRole('heading', { level: 1, name: /Rita/ })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pay many people' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Pay many people at once' })).toBeVisible();
  await step(page, 'mass-kinds');
  await page.getByRole('link', { name: /^Many payments by e-mail To people who bank with us/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Many payments by e-mail' })).toBeVisible();
  const from = page.getByLabel('Pay from', { exact: true });
  const eur = await from.locator('option', { hasText: /^EUR account/ }).first().getAttribute('value');
  await from.selectOption(eur ?? '');
  await page.getByRole('radio', { name: 'Lines I paste' }).check();
  const lines = page.getByLabel('Payments, one a line');
  await lines.fill('owner@northwind.test, 10.00, Lunch\ntom@demo.test, 5.5\nnobody@demo.test, 2.00\nboris@demo.test, 1.005');
  await page.getByRole('button', { name: 'Check the payments' }).click();
  const fix = page.getByRole('table', { name: 'Lines to fix' });
  await expect(fix.getByRole('row').filter({ hasText: 'nobody' }).or(fix.getByRole('row').filter({ hasText: /^3/ })).first()).toBeVisible();
  await expect(fix.getByRole('row')).toHaveCount(3); // the header and lines 3 and 4
  await expect(page.getByText('2 lines need fixing. Nothing was sent.')).toBeVisible();
  await step(page, 'mass-p2p-lines-to-fix');

  await lines.fill('owner@northwind.test, 10.00, Lunch\ntom@demo.test, 5.5\nboris@demo.test, 1.25');
  await page.getByRole('button', { name: 'Check the payments' }).click();
  await expect(page).toHaveURL(/\/transfer\/mass\/p2p\/confirm$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Check the payments' })).toBeVisible();
  const payments = page.getByRole('table', { name: 'Payments in this batch' });
  await expect(payments.getByRole('row')).toHaveCount(4);
  await expect(payments.getByRole('row').filter({ hasText: 'tom@demo.test' })).toContainText('€5.50');
  await step(page, 'mass-p2p-confirm');
  // the browser's Back goes back to the form as it was (not forward again), and on from there
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Many payments by e-mail' })).toBeVisible();
  await expect(page).toHaveURL(/\/transfer\/mass\/p2p$/);
  await expect(lines).toHaveValue(/boris@demo\.test, 1\.25/);
  await page.getByRole('button', { name: 'Check the payments' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Check the payments' })).toBeVisible();

  await page.getByRole('button', { name: /^Pay 3 payments/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'All payments made' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('All 3 payments were made.')).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveAttribute('value', '100');
  await step(page, 'mass-p2p-done');

  await page.getByRole('link', { name: 'See your batches' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Batch payments' })).toBeVisible();
  const batch = page.getByRole('row').filter({ hasText: 'pasted.csv' }).first();
  await expect(batch).toContainText('Done');
  await step(page, 'batches');
  await batch.getByRole('button').first().click();
  await expect(page.getByRole('table', { name: 'Payments in this batch' }).getByRole('row').filter({ hasText: 'boris@demo.test' })).toContainText('Paid');
  await step(page, 'batch-detail');
});
