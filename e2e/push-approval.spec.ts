/**
 * Sign-in approval on a linked phone (document 1 §3 push flow and push 2FA migration), with the
 * device companion (/device/) in a second browser context of its own, sized like a phone: its
 * localStorage holds the device secret, which the web app's context must never see (a browser
 * holding a linked device's secret signs in "direct", without asking the phone).
 *
 * mila's push migration deadline has passed (strict): after password and TOTP the session may only
 * link a phone at /scp. The companion links with the typed link code; the web app continues on its
 * own. From then on each sign-in waits on the login screen until the phone answers: approved lands
 * on home, declined is said on the login screen and leaves no session. Settings lists the phone;
 * as the only phone approving her sign-ins it stays linked (from Settings and from the phone
 * itself) until another method is chosen, then it is unlinked and the companion hears it at once.
 * Linked again from Settings through the QR link, the phone does not take over her sign-ins (the
 * authenticator she chose stays). axe (WCAG 2.2 AA) on every step of both browsers.
 */
import { devices, expect, test } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { totp } from './support/totp.ts';
import { totpAfterStep, totpStep } from './support/totp-step.ts';
import { DeviceCompanion } from './models/device-companion.ts';
import { LoginPage } from './models/login-page.ts';
import { MainLayout } from './models/main-layout.ts';
import { ScpPage } from './models/scp-page.ts';
import { SettingsPage } from './models/settings-page.ts';

const mila = demoUserByKey.mila;
const PHONE_NAME = 'Mila’s Pixel';

/** Password on the web app, then the push step waiting for the linked phone. */
async function signInUntilPushStep(login: LoginPage): Promise<void> {
  await login.open();
  await login.submitPassword(mila.email, mila.password);
  await login.expectPushWaiting(PHONE_NAME);
}

test('a strict push migration links a phone; the phone then approves and declines sign-ins', async ({ page, browser, baseURL }) => {
  // Two browsers, a live channel each way and a dozen steps each checked with axe.
  test.setTimeout(360_000);
  const login = new LoginPage(page);
  const main = new MainLayout(page);
  const scp = new ScpPage(page);
  const settings = new SettingsPage(page);

  // The phone: a context of its own (own storage), Pixel-sized, touch.
  const phoneContext = await browser.newContext({ ...devices['Pixel 7'], baseURL });
  let phonePage = await phoneContext.newPage();
  let phone = new DeviceCompanion(phonePage);

  let firstTotpStep = 0;
  try {
    await test.step('password and TOTP; the strict migration sends mila to /scp', async () => {
      await login.open();
      await expectNoAxeViolations(page, '/login');
      await login.submitPassword(mila.email, mila.password);
      await login.expectCodeStep();
      await login.expectStrictMigrationNotice();
      await expectNoAxeViolations(page, '/login (code step, strict migration notice)');
      firstTotpStep = totpStep();
      await login.submitCode(totp(mila.totpSecret));
    });

    const linkCode = await test.step('/scp shows the link code and QR link; nothing else is open', async () => {
      const code = await scp.expectStrictLinkRequired();
      // the QR code opens /scp-mobile on the phone with the same code (typed here instead)
      const [deviceId, short] = code.split('-');
      expect(await scp.qrLink()).toMatch(new RegExp(`/scp-mobile#link=${deviceId}\\.${short}$`));
      await expectNoAxeViolations(page, '/scp');
      // the restricted session cannot reach the main layout yet: the platform refuses its calls
      await expect(page.getByRole('heading', { level: 1, name: /Welcome/ })).toHaveCount(0);
      return code;
    });

    await test.step('the companion links with the typed link code', async () => {
      await phone.open();
      await phone.expectLinkForm();
      await expectNoAxeViolations(phonePage, '/device/ (link form)');
      await phone.link(linkCode, PHONE_NAME);
      await phone.expectLinked(mila.email, PHONE_NAME);
      await phone.expectNoRequests();
      await expectNoAxeViolations(phonePage, '/device/ (linked, no requests)');
    });

    await test.step('the web app hears the phone is linked and continues to home', async () => {
      await main.expectHome('Welcome, Mila Marin');
      await expectNoAxeViolations(page, '/home (after linking)');
    });

    await test.step('signing in again waits for the phone, which approves with one tap', async () => {
      await main.signOut();
      await expect(page).toHaveURL(/\/login/);
      await signInUntilPushStep(login);
      await expectNoAxeViolations(page, '/login (push step, waiting)');

      await phone.expectSignInRequest();
      await expectNoAxeViolations(phonePage, '/device/ (sign-in request)');
      await phone.approveSignIn();
      await phone.expectAnswered('Approved.');
      await expectNoAxeViolations(phonePage, '/device/ (approved)');

      await main.expectHome('Welcome, Mila Marin');
      await expectNoAxeViolations(page, '/home (after push approval)');
    });

    await test.step('Settings lists the linked phone', async () => {
      await settings.open();
      await settings.expectLinkedPhone(PHONE_NAME, 'Android');
      await settings.expectCurrentMethod('Approval on a linked phone');
      await expectNoAxeViolations(page, '/setting (linked phone)');
    });

    await test.step('a declined request is said on the login screen and leaves no session', async () => {
      await main.signOut();
      await expect(page).toHaveURL(/\/login/);
      await signInUntilPushStep(login);
      await phone.expectSignInRequest();
      await phone.declineSignIn();
      await phone.expectAnswered('Declined.');
      await expectNoAxeViolations(phonePage, '/device/ (declined)');

      await login.expectCredentialsStepWithError('The sign-in was rejected on your device.');
      await expectNoAxeViolations(page, '/login (declined)');
      // no session: a guarded route sends the visitor back to sign-in
      await page.goto('/home');
      await expect(page).toHaveURL(/\/login/);
    });

    const newKey = await test.step('the only sign-in phone is kept until another method is chosen, then unlinked; the companion hears it', async () => {
      await signInUntilPushStep(login);
      await phone.expectSignInRequest();
      await phone.approveSignIn();
      await main.expectHome('Welcome, Mila Marin');

      // Unlinking the only phone would leave every later sign-in with nothing to approve it.
      await settings.open();
      await settings.unlinkPhone(PHONE_NAME);
      await settings.expectError('This is the only phone that approves your sign-ins. Choose another two-step verification method first');
      await settings.expectLinkedPhone(PHONE_NAME, 'Android');
      await expectNoAxeViolations(page, '/setting (only sign-in phone kept)');
      // The phone itself is refused alike, and stays linked.
      await phone.unlinkThisPhone();
      await phone.expectError('This is the only phone that approves your sign-ins, so it stays linked.');
      await phone.expectLinked(mila.email, PHONE_NAME);
      await expectNoAxeViolations(phonePage, '/device/ (unlink refused)');

      // An authenticator app instead (its recovery codes come with it), then the phone may go.
      const key = await settings.startAuthenticatorSetup(mila.password);
      await settings.confirmAuthenticatorCode(totp(key));
      await settings.keepRecoveryCodes();
      await settings.expectCurrentMethod('Authenticator app');
      await settings.unlinkPhone(PHONE_NAME);
      await settings.expectNoLinkedPhone();
      await expectNoAxeViolations(page, '/setting (phone unlinked)');

      await phone.expectUnlinkedElsewhere();
      await expectNoAxeViolations(phonePage, '/device/ (unlinked in the online banking)');
      return key;
    });

    await test.step('a phone links again from Settings through the QR link; sign-ins stay with the authenticator', async () => {
      const qrLink = await settings.startLinkingPhone();
      await expectNoAxeViolations(page, '/setting (link a phone dialog)');
      // scanning the code opens the link on the phone: a page load of its own
      await phonePage.close();
      phonePage = await phoneContext.newPage();
      phone = new DeviceCompanion(phonePage);
      await phonePage.goto(qrLink);
      // the code leaves the address bar once read
      await expect(phonePage).toHaveURL(/\/device\/$/);
      await phone.linkScanned(/^\d+-[A-Z2-9]{8}$/, PHONE_NAME);
      await phone.expectLinked(mila.email, PHONE_NAME);
      await settings.expectPhoneLinkedInDialog();
      await expectNoAxeViolations(page, '/setting (phone linked dialog)');
      await settings.closeLinkDialog();
      await settings.expectLinkedPhone(PHONE_NAME, 'Android');
      await settings.expectCurrentMethod('Authenticator app');
    });

    await test.step('mila still signs in, with the authenticator app', async () => {
      await main.signOut();
      await login.open();
      await login.submitPassword(mila.email, mila.password);
      await login.expectCodeStep();
      // the platform takes a TOTP step once per user: the first sign-in's may still be current
      await login.submitCode(totpAfterStep(newKey, firstTotpStep));
      await main.expectHome('Welcome, Mila Marin');
    });
  } finally {
    await phoneContext.close();
  }
});
