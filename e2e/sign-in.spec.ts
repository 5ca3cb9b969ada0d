/**
 * The foundation's journeys against the built app served by the platform on a fresh embedded
 * database: sign in with password and a TOTP code computed from the demo secret, land where the
 * start-page rules say, switch language, sign out; axe (WCAG 2.2 AA) on every page visited.
 * Each test signs in a different demo user: a TOTP step is accepted only once per user.
 */
import { expect, test } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { totp } from './support/totp.ts';
import { LoginPage } from './models/login-page.ts';
import { MainLayout } from './models/main-layout.ts';
import { EARLY_READS } from '../src/lib/early-reads.ts';

test('a verified customer signs in with password and one-time code, switches language and signs out', async ({ page }) => {
  const anna = demoUserByKey.anna;
  const login = new LoginPage(page);
  const main = new MainLayout(page);

  await login.open('/');
  await expect(page).toHaveURL(/\/login/);
  // The e2e platform runs in demo mode: the Demo bar links to the mailbox (axe checks its contrast).
  const demoBar = page.getByRole('complementary', { name: 'Demo' });
  await expect(demoBar).toContainText('Test data only: do not enter real details.');
  await expect(demoBar.getByRole('link', { name: 'Mail and SMS (opens in a new tab)' })).toHaveAttribute('href', '/dev/mailbox');
  await expectNoAxeViolations(page, '/login');

  await login.submitPassword(anna.email, anna.password);
  await login.expectCodeStep();
  await expectNoAxeViolations(page, '/login (code step)');
  await login.submitCode(totp(anna.totpSecret!));

  await main.expectHome('Welcome, Anna Kowalska');
  await main.expectAccountsArea();
  await expect(page.getByRole('listitem', { name: 'Payment account · EUR' })).toContainText('€2,450.75');
  await expect(demoBar).toBeVisible();
  await expectNoAxeViolations(page, '/home');

  // A reload of /home: its page carries the early reads' script (src/early-start.ts), which asks
  // for the first screen's data before the app has arrived, and the app takes those answers
  // instead of asking again: each read once.
  const methods: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/v1/') methods.push(url.search.slice(1));
  });
  await page.reload();
  await main.expectHome('Welcome, Anna Kowalska');
  await expect(page.getByRole('listitem', { name: 'Payment account · EUR' })).toContainText('€2,450.75');
  await expect(page.locator('script[src*="/assets/early-"]')).toHaveCount(1);
  await page.waitForLoadState('networkidle');
  for (const read of EARLY_READS['/home']) expect(methods.filter((method) => method === read.method), read.method).toEqual([read.method]);

  // Until the app has arrived, that page shows the signed-in shell's top bar and the greeting
  // (vite.config.ts bootShell, src/early-start.ts): both stand where the app then draws them, on a
  // phone and on a laptop. The page as a production platform serves it: without demo mode's marks
  // (and so its Demo bar).
  await page.route('**/home', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: (await response.text()).replace(/<meta name="wlb-[^>]*>/g, '') });
  });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const entry = /\/assets\/main-[^/]+\.js$/;
    await page.route(entry, async (route) => {
      await held;
      await route.continue();
    });
    // (not 'domcontentloaded': that waits for the module script held here)
    await page.reload({ waitUntil: 'commit' });
    const brand = page.locator('.shell-topbar .logo-name');
    await expect(brand).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(0);
    // Measured once the head's stylesheets apply: they block the first paint, so nobody sees the
    // shell without them, but the layout can be read before they have arrived (a CI run did).
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every((link) => link.sheet !== null));
    const drawnFirst = await brand.boundingBox();
    // the greeting as the app drew it before, written there by the early script
    const bootHeading = page.locator('.boot-shell h1');
    await expect(bootHeading).toHaveText('Welcome, Anna Kowalska');
    const headingFirst = await bootHeading.boundingBox();
    release();
    await main.expectHome('Welcome, Anna Kowalska');
    expect(await brand.boundingBox(), `${width} px`).toEqual(drawnFirst);
    expect(await page.getByRole('heading', { level: 1 }).boundingBox(), `${width} px`).toEqual(headingFirst);
    await page.unroute(entry);
  }
  await page.unroute('**/home');
  await page.reload();
  await expect(demoBar).toBeVisible();

  await main.switchLanguage('Español');
  await main.expectHome('Te damos la bienvenida, Anna Kowalska');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('listitem', { name: 'Cuenta de pago · EUR' })).toContainText('2450,75 €');
  await expectNoAxeViolations(page, '/home (es)');

  await main.signOut('Cerrar sesión');
  await expect(page).toHaveURL(/\/login/);
  // logout clears session storage (tokens included)
  expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([]);
  // the session is gone: a guarded route sends the visitor back to sign-in
  await page.goto('/home');
  await expect(page).toHaveURL(/\/login/);
});

test('a wrong password is refused with a clear message and nothing else happens', async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await login.submitPassword(demoUserByKey.boris.email, 'not-the-password');
  await login.expectError(/e-mail address or password is not correct/i);
  await expect(page).toHaveURL(/\/login/);
  await expectNoAxeViolations(page, '/login (error)');
});

test('a guarded path is remembered and opened after sign-in (simple flow)', async ({ page }) => {
  const boris = demoUserByKey.boris;
  const login = new LoginPage(page);
  await page.goto('/home');
  await expect(page).toHaveURL(/\/login/);
  await login.submitPassword(boris.email, boris.password);
  await new MainLayout(page).expectHome(/Boris/);
});

test('an authorised user chooses the company to act for', async ({ page }) => {
  const clerk = demoUserByKey.clerk;
  const login = new LoginPage(page);
  await login.open();
  await login.submitPassword(clerk.email, clerk.password);
  await login.expectCodeStep();
  await login.submitCode(totp(clerk.totpSecret!));
  await expectNoAxeViolations(page, '/login (account chooser)');
  await login.chooseAccount('Northwind Trading Ltd');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('banner')).toContainText('Acting for Northwind Trading Ltd');
  // the company's accounts, not the user's own
  await expect(page.getByRole('listitem', { name: 'Payment account · GBP' })).toContainText('£12,875.40');
  await expect(page.getByRole('heading', { name: /Accounts/ })).toBeVisible();
  await expectNoAxeViolations(page, '/home (acting for Northwind)');
});

test('an administrator lands on the admin overview', async ({ page }) => {
  const admin = demoUserByKey.admin;
  const login = new LoginPage(page);
  await login.open();
  await login.submitPassword(admin.email, admin.password);
  await login.expectCodeStep();
  await login.submitCode(totp(admin.totpSecret!));
  await expect(page).toHaveURL(/\/admin-overview/);
  await expect(page.getByRole('cell', { name: 'anna@demo.test' }).or(page.getByText('Anna Kowalska')).first()).toBeVisible();
  await expectNoAxeViolations(page, '/admin-overview');
});

test('an unknown path shows the 404 page', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/not found/i);
  await expectNoAxeViolations(page, '404');
});

test('the development mailbox page is accessible', async ({ page }) => {
  await page.goto('/dev/mailbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Development mailbox' })).toBeVisible();
  await expectNoAxeViolations(page, '/dev/mailbox');
});
