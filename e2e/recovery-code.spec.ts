/**
 * Signing in with a recovery code instead of the second step (document 1 §3), for the owner of
 * Northwind (an authenticator user without recovery codes). Setting up the authenticator in
 * Settings issues ten recovery codes, shown once; one is kept. The next sign-in uses it instead of
 * the TOTP code: the authenticator is switched off and the session is restricted until two-step
 * verification is set up again, which the app says and leads to; once set up, the account opens
 * again. A spent recovery code is refused. axe (WCAG 2.2 AA) on every step.
 */
import { expect, test } from './support/test.ts';
import { demoUserByKey, NORTHWIND_NAME } from '../server/db/demo-users.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { totp } from './support/totp.ts';
import { LoginPage } from './models/login-page.ts';
import { MainLayout } from './models/main-layout.ts';
import { SettingsPage } from './models/settings-page.ts';

const owner = demoUserByKey.owner;

test('recovery codes from Settings sign in once instead of the authenticator; two-step must then be set up again', async ({ page }) => {
  test.setTimeout(240_000);
  const login = new LoginPage(page);
  const main = new MainLayout(page);
  const settings = new SettingsPage(page);

  const kept = await test.step('signed in with the authenticator, the owner sets it up anew and gets recovery codes once', async () => {
    await login.open();
    await login.submitPassword(owner.email, owner.password);
    await login.expectCodeStep();
    await login.submitCode(totp(owner.totpSecret));
    await login.chooseAccount(NORTHWIND_NAME);
    await expect(page).toHaveURL(/\/home$/);

    await settings.open();
    await settings.expectCurrentMethod('Authenticator app');
    await expectNoAxeViolations(page, '/setting');

    const key = await settings.startAuthenticatorSetup(owner.password);
    await expectNoAxeViolations(page, '/setting (authenticator QR code)');
    await settings.confirmAuthenticatorCode(totp(key));
    const codes = await test.step('the codes, shown once', async () => {
      const section = settings.twoStep();
      await expect(section.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
      await expectNoAxeViolations(page, '/setting (recovery codes)');
      return settings.keepRecoveryCodes();
    });
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/);
    await expect(settings.twoStep().getByText('Two-step verification is now: Authenticator app.')).toBeVisible();
    // shown once: the codes are gone from the page
    await expect(page.getByText(codes[0]!)).toHaveCount(0);

    await main.signOut();
    await expect(page).toHaveURL(/\/login/);
    return codes[3]!;
  });

  await test.step('the next sign-in uses a recovery code instead of the code; the app asks to set up two-step again', async () => {
    await login.open();
    await login.submitPassword(owner.email, owner.password);
    await login.expectCodeStep();
    // typed as a person might: lower case, without the dash
    await login.submitRecoveryCode(kept.toLowerCase().replace('-', ''));
    await expect(page.getByRole('heading', { name: 'Sign in with a recovery code' })).toHaveCount(0);

    await settings.expectOpen();
    await expect(page.getByText('You signed in with a recovery code').first()).toBeVisible();
    await settings.expectSetupAgainRequired();
    await expect(settings.twoStep().getByRole('button', { name: 'Change two-step verification' })).toBeVisible();
    // restricted: the password change is not offered
    await expect(page.getByRole('region', { name: /password/i })).toHaveCount(0);
    await expectNoAxeViolations(page, '/setting (restricted after a recovery code)');
  });

  await test.step('set up again, the restriction lifts and home opens', async () => {
    const key = await settings.startAuthenticatorSetup(owner.password);
    await settings.confirmAuthenticatorCode(totp(key));
    await expect(settings.twoStep().getByText('Two-step verification is now: Authenticator app.')).toBeVisible();
    await expect(settings.twoStep().getByRole('status').filter({ hasText: 'Set up two-step verification again' })).toHaveCount(0);
    await expectNoAxeViolations(page, '/setting (two-step set up again)');
    await page.goto('/home');
    await main.expectHome(/Welcome/);
    await main.signOut();
  });

  await test.step('a spent recovery code is refused', async () => {
    await login.open();
    await login.submitPassword(owner.email, owner.password);
    await login.expectCodeStep();
    await login.submitRecoveryCode(kept);
    await login.expectError('This recovery code is not correct or was already used.');
    await expectNoAxeViolations(page, '/login (recovery code refused)');
  });
});
