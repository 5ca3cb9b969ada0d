/**
 * Account recovery end to end (document 1 §2 /account-recovery/ with email, reset, password and
 * success; §7 password change request, password code check, password change with code): a customer
 * who lost the password asks for a code, reads it from the development outbox, chooses a new
 * password and signs in with it (password, then the TOTP second step); the old password no longer
 * works. axe (WCAG 2.2 AA) on every step visited.
 *
 * The user is viewer@northwind.test, which no other spec signs in: its password changes here, and
 * a TOTP step is accepted only once per user.
 */
import { expect, test } from '@playwright/test';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { latestMessage } from './support/mailbox.ts';
import { totp } from './support/totp.ts';
import { AccountRecoveryPage } from './models/account-recovery-page.ts';
import { LoginPage } from './models/login-page.ts';

/** The code line of the reset e-mail (server/modules/recovery). */
const RESET_CODE = /Your code: ([0-9A-Z]{8})/;

test('a customer who lost the password resets it with the e-mailed code and signs in with the new one', async ({ page, request }) => {
  const viewer = demoUserByKey.viewer;
  const newPassword = `Recovered-${Date.now()}-pw7`;
  const login = new LoginPage(page);
  const recovery = new AccountRecoveryPage(page);

  // From the sign-in screen, as a customer would.
  await login.open();
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await recovery.expectEmailStep();
  await expectNoAxeViolations(page, '/account-recovery/email');

  // Something that is not an address is caught before anything is sent.
  await recovery.requestCode('viewer-at-northwind');
  await recovery.expectFieldError('E-mail address', 'Enter your e-mail address, for example name@example.com.');
  await expectNoAxeViolations(page, '/account-recovery/email (invalid e-mail)');

  await recovery.requestCode(viewer.email);
  await recovery.expectResetStep('v***@northwind.test');
  await expectNoAxeViolations(page, '/account-recovery/reset');

  const { message, match } = await latestMessage(request, viewer.email, 'mail', RESET_CODE);
  expect(message.subject).toMatch(/password reset code/);
  const code = match[1]!;

  // A wrong code is refused (counted; the right one still works afterwards).
  const wrong = code === '22222222' ? '33333333' : '22222222';
  await recovery.submitCode(wrong);
  await recovery.expectError('The code is not correct. Check the e-mail and try again.');
  await expect(page).toHaveURL(/\/account-recovery\/reset$/);
  await expectNoAxeViolations(page, '/account-recovery/reset (wrong code)');

  await recovery.submitCode(code.toLowerCase());
  await recovery.expectPasswordStep();
  await expectNoAxeViolations(page, '/account-recovery/password');

  // The rules hold before anything is sent.
  await recovery.choosePassword(newPassword, `${newPassword}x`);
  await recovery.expectFieldError('Repeat the new password', 'The two passwords do not match.');
  await expectNoAxeViolations(page, '/account-recovery/password (mismatch)');

  await recovery.choosePassword(newPassword);
  await recovery.expectSuccessStep();
  await expectNoAxeViolations(page, '/account-recovery/success');
  await latestMessage(request, viewer.email, 'mail', /The password of your account was changed/);

  await recovery.goToSignIn();
  await expect(page).toHaveURL(/\/login$/);

  // The old password no longer works.
  await login.submitPassword(viewer.email, viewer.password);
  await login.expectError(/e-mail address or password is not correct/i);
  await expectNoAxeViolations(page, '/login (old password refused)');

  // The new one does, followed by the user's own second step; an authorised user chooses the company.
  await login.submitPassword(viewer.email, newPassword);
  await login.expectCodeStep();
  await login.submitCode(totp(viewer.totpSecret!));
  await login.chooseAccount('Northwind Trading Ltd');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('banner')).toContainText('Acting for Northwind Trading Ltd');
  await expectNoAxeViolations(page, '/home (after recovery)');
});

test('a customer who can no longer read the e-mail is asked who they are; details that do not match are refused', async ({ page }) => {
  const viewer = demoUserByKey.viewer;
  const recovery = new AccountRecoveryPage(page);

  await recovery.open();
  await recovery.expectEmailStep();
  await recovery.lostAccessToEmail();
  await recovery.expectPersonalDataStep();
  await expectNoAxeViolations(page, '/account-recovery/email (personal data)');

  // The viewer's customer record holds no such birth date: the identity check says no.
  await recovery.submitPersonalData({
    email: viewer.email,
    recoveryEmail: `viewer-new-${Date.now()}@e2e.test`,
    firstName: 'Vera',
    lastName: 'Vance',
    dob: '1970-01-01',
  });
  await recovery.expectRejectedStatus(true);
  await expect(page.getByText('The details do not match our records. Check them and try again.')).toBeVisible();
  await expectNoAxeViolations(page, '/account-recovery/status (rejected)');

  // The status survives a reload (?taskId= reloads the task).
  await page.reload();
  await recovery.expectRejectedStatus(true);

  await recovery.startOver();
  await recovery.expectEmailStep();
});

test('only the newest reset code works: asking again retires the earlier one', async ({ page, request }) => {
  const viewer = demoUserByKey.viewer;
  const recovery = new AccountRecoveryPage(page);

  await recovery.open();
  await recovery.requestCode(viewer.email);
  await recovery.expectResetStep('v***@northwind.test');
  const first = (await latestMessage(request, viewer.email, 'mail', RESET_CODE)).match[1]!;

  await recovery.askForNewCode();
  await recovery.expectEmailStep();
  await recovery.requestCode(viewer.email);
  await recovery.expectResetStep('v***@northwind.test');
  // newest first: the code of the second request (any code but the first)
  const second = (await latestMessage(request, viewer.email, 'mail', new RegExp(`Your code: (?!${first})([0-9A-Z]{8})`))).match[1]!;

  await recovery.submitCode(first);
  await recovery.expectError('The code is not correct. Check the e-mail and try again.');
  await recovery.submitCode(second);
  await recovery.expectPasswordStep();
});
