/**
 * Personal registration end to end (document 1 §2 /register, /register/personal, /activate and the
 * activation query action; §4 e-mail existence check; §7 check email, activate account): a visitor
 * registers with a fresh address, reads the activation code or link from the development outbox,
 * activates, and signs in with the new password, landing where the start-page rules say (a new
 * personal customer: the tax self-certification's splash, rule 7; "Not now" leads home). axe (WCAG 2.2 AA) on every page and step visited.
 */
import { expect, test } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { latestMessage } from './support/mailbox.ts';
import { LoginPage } from './models/login-page.ts';
import { MainLayout } from './models/main-layout.ts';
import { ActivationPage, RegistrationPage, type PersonalDetails } from './models/registration-page.ts';

/** The code line and the link of the activation e-mail (server/modules/registration). */
const ACTIVATION_CODE = /enter this code on the activation page: ([A-Z0-9]{8})/;
const ACTIVATION_LINK = /(https?:\/\/\S+\/login\?action=activation&user=\S+&code=[A-Z0-9]{8})/;

function newCustomer(tag: string): PersonalDetails {
  const unique = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  return {
    firstName: 'Rita',
    lastName: `Nowak ${tag}`,
    email: `reg-${tag}-${unique}@e2e.test`,
    password: `Fresh-${unique}-pw1`,
    country: 'Lithuania',
  };
}

test('a visitor registers a personal account, activates it with the e-mailed code and signs in', async ({ page, request }) => {
  const rita = newCustomer('code');
  const registration = new RegistrationPage(page);
  const activation = new ActivationPage(page);
  const login = new LoginPage(page);

  await registration.openChooser();
  await expectNoAxeViolations(page, '/register');
  await registration.choosePersonal();
  await expectNoAxeViolations(page, '/register/personal');

  // A sent form without anything in it names every missing field.
  await registration.submit();
  await registration.expectEmailError('This field is required.');
  await expect(page.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page, '/register/personal (missing fields)');

  await registration.fillDetails(rita);
  await registration.expectEmailFree();
  await expectNoAxeViolations(page, '/register/personal (e-mail free)');

  await registration.submit();
  await registration.expectSent(rita.email);
  await expectNoAxeViolations(page, '/register/personal (check your e-mail)');

  const { match } = await latestMessage(request, rita.email, 'mail', ACTIVATION_CODE);
  const code = match[1]!;

  await registration.goToActivation();
  await activation.expectForm(rita.email);
  await expectNoAxeViolations(page, '/activate');

  // A wrong code is refused and activates nothing.
  const wrong = code === 'AAAAAAAA' ? 'BBBBBBBB' : 'AAAAAAAA';
  await activation.submitCode(wrong);
  await activation.expectError('The activation code is not correct. Check the e-mail and try again.');
  await expectNoAxeViolations(page, '/activate (wrong code)');

  // Typed as people do: lower case, with a space in the middle.
  await activation.submitCode(`${code.slice(0, 4).toLowerCase()} ${code.slice(4).toLowerCase()}`);
  await activation.expectActivated();
  await expectNoAxeViolations(page, '/activate (activated)');

  await activation.continueToSignIn();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Account activated')).toBeVisible();
  await expectNoAxeViolations(page, '/login (after activation)');

  // The account is active and signs in (a new account has no second step).
  // A new customer has no tax self-certification yet: the start page's rule 7 shows its splash first.
  await login.submitPassword(rita.email, rita.password);
  await expect(page).toHaveURL(/\/self-certification-splash$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your tax details' })).toBeVisible();
  await expectNoAxeViolations(page, '/self-certification-splash (new customer)');
  await page.getByRole('link', { name: 'Not now' }).click();
  await new MainLayout(page).expectHome(`Welcome, ${rita.firstName} ${rita.lastName}`);
  await expectNoAxeViolations(page, '/home (new customer)');
});

test('the e-mailed activation link activates the account through its query action', async ({ page, request }) => {
  const pavel = newCustomer('link');
  const registration = new RegistrationPage(page);
  const activation = new ActivationPage(page);
  const login = new LoginPage(page);

  await page.goto('/register/personal');
  await expect(page.getByRole('heading', { level: 1, name: 'Open a personal account' })).toBeVisible();
  await registration.fillDetails(pavel);
  await registration.expectEmailFree();
  await registration.submit();
  await registration.expectSent(pavel.email);

  // Before activation the account does not sign in.
  await login.open();
  await login.submitPassword(pavel.email, pavel.password);
  await login.expectError(/not activated/i);
  await expectNoAxeViolations(page, '/login (not activated)');

  const { match } = await latestMessage(request, pavel.email, 'mail', ACTIVATION_LINK);
  const link = new URL(match[1]!);
  expect(link.searchParams.get('user')).toBe(pavel.email);
  await page.goto(`${link.pathname}${link.search}`);
  await activation.expectActivated();
  await expectNoAxeViolations(page, '/login?action=activation (activated)');

  await activation.continueToSignIn();
  // a clean /login: the query action and its code are gone from the address bar
  await expect(page).toHaveURL(/\/login$/);
  await login.submitPassword(pavel.email, pavel.password);
  await expect(page).toHaveURL(/\/self-certification-splash$/);
  await page.getByRole('link', { name: 'Not now' }).click();
  await new MainLayout(page).expectHome(`Welcome, ${pavel.firstName} ${pavel.lastName}`);

  // The link works once: opened again it says the account is already active.
  await new MainLayout(page).signOut();
  await expect(page).toHaveURL(/\/login/);
  await page.goto(`${link.pathname}${link.search}`);
  await activation.expectError('This account is already activated. You can sign in.');
  await expectNoAxeViolations(page, '/login?action=activation (used link)');
});

test('an e-mail address that already has an account is reported by the existence check', async ({ page }) => {
  const registration = new RegistrationPage(page);
  await page.goto('/register/personal');
  await expect(page.getByRole('heading', { level: 1, name: 'Open a personal account' })).toBeVisible();

  await registration.typeEmail(demoUserByKey.anna.email);
  await registration.expectEmailTaken();
  await expectNoAxeViolations(page, '/register/personal (e-mail exists)');

  // The check is case-blind, like sign-in.
  await registration.typeEmail('Anna@Demo.TEST');
  await registration.expectEmailTaken();

  // Sending the form anyway is stopped with the reason on the field; nothing is created.
  await registration.fillDetails({ ...newCustomer('taken'), email: demoUserByKey.anna.email });
  await registration.submit();
  await registration.expectEmailError(/already registered/);
  await expect(page.getByRole('heading', { level: 1, name: 'Open a personal account' })).toBeVisible();
  await expectNoAxeViolations(page, '/register/personal (e-mail exists, sent)');

  // Another address clears the message and is checked again.
  await registration.typeEmail(newCustomer('free').email);
  await registration.expectEmailFree();
});
