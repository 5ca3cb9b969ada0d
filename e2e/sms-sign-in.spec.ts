/**
 * The sms sign-in flow (document 1 §3 "sms: masked phone, two-digit identifier"): after the
 * password the screen shows the masked phone and the identifier of the text message to use; the
 * code is read from that SMS in the outbox (development mailbox), paired by the identifier. A
 * wrong code is refused with a clear message and may be corrected. axe (WCAG 2.2 AA) on each step.
 */
import { expect, test } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { smsSignInCode } from './support/sms-code.ts';
import { LoginPage } from './models/login-page.ts';
import { MainLayout } from './models/main-layout.ts';

const sam = demoUserByKey.sam;

/** A six-digit code that is surely not `code`. */
function anotherCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

test('a customer signs in with the code from the text message marked with the identifier shown', async ({ page, request }) => {
  const login = new LoginPage(page);
  const main = new MainLayout(page);

  await login.open();
  await expectNoAxeViolations(page, '/login');
  await login.submitPassword(sam.email, sam.password);

  // "+370 *** **12": the country code and the last two digits only
  const identifier = await login.expectSmsStep(`+${sam.phone.countryCode} *** **${sam.phone.number.slice(-2)}`);
  await expect(page.getByText(sam.phone.number)).toHaveCount(0);
  await expectNoAxeViolations(page, '/login (sms step)');

  const code = await smsSignInCode(request, sam.phone, identifier);

  await login.submitSmsCode(anotherCode(code));
  await login.expectError('The code is not correct. Check the text message and try again.');
  // still the sms step, with the same identifier: the right code can follow
  await expect(page.getByRole('heading', { name: 'Enter the code from the text message' })).toBeVisible();
  await expect(page.getByText(`Enter the code from the text message marked ${identifier}.`)).toBeVisible();
  await expectNoAxeViolations(page, '/login (sms step, wrong code)');

  await login.submitSmsCode(code);
  await main.expectHome('Welcome, Sam Sidorov');
  await main.expectAccountsArea();
  await expectNoAxeViolations(page, '/home');
});
