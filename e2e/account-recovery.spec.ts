/**
 * Account recovery end to end (document 1 §2 /account-recovery/ with email, status, reset, password
 * and success; §7 password change request, password code check, password change with code): a
 * customer who lost the password asks for a code, reads it from the development outbox, chooses a
 * new password and signs in with it (password, then the TOTP second step); the old password no
 * longer works. A customer who lost the e-mail too asks with personal data, uploads an identity
 * document and a selfie, an administrator approves in a second browser, and the code mailed to the
 * new address then sets the password; an owner cancels a stranger's request from the link in the
 * notice. axe (WCAG 2.2 AA) on every step visited.
 *
 * The user is viewer@northwind.test, which no other spec signs in: its password changes here, and
 * a TOTP step is accepted only once per user.
 */
import { expect, test, type Page } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { latestMessage } from './support/mailbox.ts';
import { totp } from './support/totp.ts';
import { AdminReviewPage } from './models/admin-review-page.ts';
import { AccountRecoveryPage } from './models/account-recovery-page.ts';
import { LoginPage, signInAdministrator } from './models/login-page.ts';

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

/** A 1×1 PNG: the platform reads the type from the content, so it must be a real one. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

test('a customer who can no longer read the e-mail proves who she is; an administrator approves; the code to the new address confirms it and sets the password', async ({
  page,
  request,
  browser,
}) => {
  const viewer = demoUserByKey.viewer;
  const newAddress = `viewer-new-${Date.now()}@e2e.test`;
  const newPassword = `Recovered-${Date.now()}-pd7`;
  const recovery = new AccountRecoveryPage(page);

  await recovery.open();
  await recovery.expectEmailStep({ openedCold: true });
  await recovery.lostAccessToEmail();
  await recovery.expectPersonalDataStep();
  await expectNoAxeViolations(page, '/account-recovery/email (personal data)');

  // Personal data alone decides nothing: the task waits for documents.
  await recovery.submitPersonalData({ email: viewer.email, recoveryEmail: newAddress, firstName: 'Vera', lastName: 'Vance', dob: '1970-01-01' });
  await recovery.expectDocumentsStep();
  await expectNoAxeViolations(page, '/account-recovery/status (documents)');
  // The account's e-mail was told at once, with a link to cancel.
  const notice = await latestMessage(request, viewer.email, 'mail', /\/account-recovery\/cancel\?taskId=/);
  expect(notice.message.subject).toMatch(/someone asked to recover your account/);

  await recovery.uploadDocuments({ name: 'passport.png', mimeType: 'image/png', buffer: PNG }, { name: 'selfie.png', mimeType: 'image/png', buffer: PNG });
  await recovery.expectWaitingStatus();
  await expectNoAxeViolations(page, '/account-recovery/status (waiting for review)');
  // The status survives a reload (?taskId= reloads the task); nothing was mailed to the new address.
  await page.reload();
  await recovery.expectWaitingStatus();

  // The administrator approves, in a second browser context.
  const adminContext = await browser.newContext();
  try {
    const adminPage = await adminContext.newPage();
    await signInAdministrator(adminPage);
    const review = new AdminReviewPage(adminPage);
    await review.open();
    const subject = `Account recovery of ${viewer.email}`;
    await review.expectWaiting(subject);
    await expectNoAxeViolations(adminPage, '/admin-overview (account recovery waiting)');
    await review.decide(subject, 'Approve it');
    await review.expectRecorded(new RegExp(`Recorded: ${subject.replace(/[.]/g, '\\.')}`));
  } finally {
    await adminContext.close();
  }

  await recovery.checkAgain();
  await recovery.expectApprovedStatus('v***@e2e.test');
  await expectNoAxeViolations(page, '/account-recovery/status (approved)');
  await recovery.continueToCode();
  await recovery.expectResetStep('v***@e2e.test');
  const { match } = await latestMessage(request, newAddress, 'mail', RESET_CODE);
  // The page was reloaded on /status, so the step asks for the login e-mail as well.
  await recovery.submitCodeWithEmail(match[1]!, viewer.email);
  await recovery.expectPasswordStep();
  await recovery.choosePassword(newPassword);
  await recovery.expectSuccessStep();

  // The new password works.
  const login = new LoginPage(page);
  await recovery.goToSignIn();
  await login.submitPassword(viewer.email, newPassword);
  await login.expectCodeStep();
});

test('the owner cancels a recovery someone else asked for, from the link in the notice', async ({ page, request }) => {
  const rita = demoUserByKey.rita;
  const recovery = new AccountRecoveryPage(page);
  await recovery.open();
  await recovery.lostAccessToEmail();
  await recovery.submitPersonalData({ email: rita.email, recoveryEmail: `thief-${Date.now()}@e2e.test`, firstName: 'Rita', lastName: 'R', dob: '1980-01-01' });
  await recovery.expectDocumentsStep();
  const taskUrl = page.url();

  const { match } = await latestMessage(request, rita.email, 'mail', /(https?:\/\/\S+\/account-recovery\/cancel\?taskId=[0-9a-f-]{36}&code=[0-9A-Z]{8})/);
  const link = new URL(match[1]!);
  await recovery.cancelFromLink(`${link.pathname}${link.search}`);
  await recovery.expectCanceled();
  await expectNoAxeViolations(page, '/account-recovery/cancel (canceled)');

  // The request's own page says so; no retry.
  await page.goto(new URL(taskUrl).pathname + new URL(taskUrl).search);
  await recovery.expectRejectedStatus(false);
  await expect(page.getByText('The owner of the account canceled this request from its e-mail address.')).toBeVisible();
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
