/**
 * Money out (issue 15 §3 and §6's e2e): a customer pays a German IBAN by local bank transfer
 * (SEPA) from /transfer/external: chooses the country, the method offered there, fills in the
 * payee's form as the platform gives it, sees the fee, reviews and sends; the money is on its way
 * and the simulated network settles it. A second payout to an IBAN whose bank answers "account
 * closed" (the simulator's R02 for numbers ending 0002) comes back: the history shows it returned
 * with the reason. axe (WCAG 2.2 AA) on every step.
 */
import { expect, test, type Page } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { LoginPage } from './models/login-page.ts';
import { step } from './support/step.ts';

const rita = demoUserByKey.rita;

async function payOut(page: Page, payee: { name: string; iban: string }, amount: string, check: boolean): Promise<void> {
  // from the menu, or (after one is sent) "Make another transfer"
  const another = page.getByRole('button', { name: 'Make another transfer' });
  if (await another.isVisible()) await another.click();
  else await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'To a bank or card' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Send to a bank, card or wallet' })).toBeVisible();
  const from = page.getByLabel('From account', { exact: true });
  const eur = await from.locator('option', { hasText: /^EUR account/ }).first().getAttribute('value');
  await from.selectOption(eur ?? '');
  await page.getByLabel("Payee's country").selectOption({ label: 'Germany' });
  await page.getByRole('radio', { name: 'Local bank transfer' }).check();
  await page.getByLabel("Payee's full name").fill(payee.name);
  await page.getByLabel('Amount (EUR)').fill(amount);
  if (check) {
    // a mistyped IBAN is caught on the form by the platform's own check, before anything is sent
    await page.getByLabel('IBAN', { exact: true }).fill(payee.iban.replace(/\d$/, (d) => String((Number(d) + 1) % 10)));
    await page.getByRole('button', { name: 'Review the transfer' }).click();
    await expect(page.getByLabel('IBAN', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('IBAN', { exact: true })).toBeFocused();
    await expectNoAxeViolations(page, '/transfer/external (a wrong IBAN)');
  }
  await page.getByLabel('IBAN', { exact: true }).fill(payee.iban);
  await expect(page.getByText(/^Fee: €0\.50\. They receive: €/)).toBeVisible();
  if (check) await expectNoAxeViolations(page, '/transfer/external (form filled)');
  await page.getByRole('button', { name: 'Review the transfer' }).click();
  await expect(page.getByRole('heading', { name: 'Check the transfer' })).toBeVisible();
  await expect(page.getByText('Local bank transfer')).toBeVisible();
  // the IBAN printed in groups of four
  await expect(page.getByText(payee.iban.replace(/(.{4})(?=.)/g, '$1 '))).toBeVisible();
  if (check) await expectNoAxeViolations(page, '/transfer/external (review)');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Successfully submitted' })).toBeVisible();
  await expect(page.getByText(/The money is on its way/)).toBeVisible();
  if (check) await expectNoAxeViolations(page, '/transfer/external (sent)');
}

test('a customer pays out to a bank account: it settles, and one to a closed account comes back with the reason', async ({ page }) => {
  test.setTimeout(240_000);
  const login = new LoginPage(page);
  await login.open();
  await login.submitPassword(rita.email, rita.password);
  await expect(page.getByRole('heading', { level: 1, name: /Rita/ })).toBeVisible();

  await payOut(page, { name: 'Hans Muster', iban: 'DE89370400440532013000' }, '12.34', true);
  await payOut(page, { name: 'Closed Konto', iban: 'DE40370400440532010002' }, '5.00', false);

  // the network settles the first (15 s in the simulator) and returns the second
  await expect(async () => {
    await page.goto('/history');
    await expect(page.getByRole('row').filter({ hasText: 'Hans Muster' }).filter({ hasText: 'Completed' }).first()).toBeVisible({ timeout: 8_000 });
    await expect(page.getByRole('row').filter({ hasText: 'Closed Konto' }).filter({ hasText: 'Returned' }).first()).toBeVisible({ timeout: 8_000 });
  }).toPass({ timeout: 90_000 });
  await page.getByRole('row').filter({ hasText: 'Closed Konto' }).first().getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Transaction details' })).toBeVisible();
  await expect(page.getByText("The payee's account is closed. (code R02)")).toBeVisible();
  await expectNoAxeViolations(page, '/history/… (a returned payout)');

  // the settled payout is offered to send again (the returned one is not), and fills the form
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'To a bank or card' }).click();
  const recent = page.getByRole('region', { name: 'Recent transfers' });
  await expect(recent.getByRole('button', { name: 'Send again to Hans Muster (Local bank transfer): €12.34' })).toBeVisible();
  await expect(recent).not.toContainText('Closed Konto');
  await recent.getByRole('button', { name: /^Send again to Hans Muster/ }).click();
  await expect(page.getByLabel('IBAN', { exact: true })).toHaveValue('DE89370400440532013000');
  await expect(page.getByRole('radio', { name: 'Local bank transfer' })).toBeChecked();
  await step(page, 'payout-recent');
});
