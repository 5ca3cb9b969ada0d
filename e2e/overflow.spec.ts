/**
 * No page scrolls sideways on a phone (issue 13): every route of the app, read from the router's
 * generated tree (src/routeTree.gen.ts) so a new route is walked without touching this file, is
 * opened at 390 pixels wide and then narrowed to 320; the page fails when the document is wider
 * than the viewport. Signed-out pages are walked signed out, the main layout's signed in as a
 * personal customer, the restricted layout's as the administrator.
 *
 * The width changes without a reload: the layout's breakpoints (476, 640, 1024) put 320 and 390 in
 * the same bucket, so one load per route serves both widths.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from './support/test.ts';
import { demoUserByKey } from '../server/db/demo-users.ts';
import { LoginPage } from './models/login-page.ts';
import { totp } from './support/totp.ts';

const WIDTHS = [390, 320] as const;
const HEIGHT = 844;

/** The leaf routes of the tree by layout: '/_external/register/personal' -> ['_external', '/register/personal']. */
function routesByLayout(): Map<string, string[]> {
  const source = readFileSync(new URL('../src/routeTree.gen.ts', import.meta.url), 'utf8');
  const body = source.slice(source.indexOf('export interface FileRoutesById'), source.indexOf('export interface FileRouteTypes'));
  const ids = [...body.matchAll(/^\s+'(\/_[^']+)': typeof/gm)].map((m) => m[1] as string);
  // a layout route (one with children) is walked through its children (an index child is its page)
  const leaves = ids.filter((id) => !ids.some((other) => other !== id && other.startsWith(`${id}/`)));
  const byLayout = new Map<string, string[]>();
  for (const id of leaves) {
    const segments = id.split('/').filter(Boolean);
    const layout = segments[0] as string;
    const path = `/${segments
      .filter((s) => !s.startsWith('_'))
      // `history_` is TanStack's way out of a parent's layout: the URL segment is `history`.
      .map((s) => (s.startsWith('$') ? 'overflow-check' : s.replace(/_$/, '')))
      .join('/')}`.replace(/\/$/, '') || '/';
    byLayout.set(layout, [...(byLayout.get(layout) ?? []), path]);
  }
  return byLayout;
}

/** How much wider than the viewport the document is at each width, for every path. */
async function walk(page: Page, paths: readonly string[]): Promise<string[]> {
  const failures: string[] = [];
  for (const path of paths) {
    await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
    await page.goto(path);
    // the page has rendered its heading (or its guard has sent it elsewhere and that page has)
    await expect(page.locator('h1').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      const excess = await page.evaluate(() => {
        const root = document.documentElement;
        const sticksOut = (el: Element) => el.getBoundingClientRect().right > root.clientWidth + 1;
        // the innermost elements that stick out: where the fix goes
        const offenders = [...document.querySelectorAll('body *')].filter((el) => sticksOut(el) && ![...el.children].some(sticksOut));
        const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
        return { scroll: root.scrollWidth, client: root.clientWidth, offenders: offenders.slice(0, 3).map(describe) };
      });
      if (excess.scroll > excess.client) failures.push(`${path} (landed on ${new URL(page.url()).pathname}) at ${width}px: ${excess.scroll - excess.client}px too wide (${excess.offenders.join(', ')})`);
    }
  }
  return failures;
}

const routes = routesByLayout();

test('the route tree was read', () => {
  expect(routes.get('_external')).toContain('/login');
  expect(routes.get('_guarded')).toContain('/home');
  expect(routes.get('_restricted')).toContain('/admin-overview');
});

test('no signed-out page scrolls sideways at 390 or 320 pixels', async ({ page }) => {
  test.setTimeout(240_000);
  expect(await walk(page, routes.get('_external') ?? [])).toEqual([]);
});

test('no page of the signed-in layouts scrolls sideways at 390 or 320 pixels', async ({ page, browser, baseURL }) => {
  test.setTimeout(360_000);
  const login = new LoginPage(page);
  const boris = demoUserByKey.boris;
  await login.open();
  await login.submitPassword(boris.email, boris.password);
  await expect(page).toHaveURL(/\/home$/);
  const failures = await walk(page, routes.get('_guarded') ?? []);

  // the administrator's restricted layout (a fresh page: sign-out is not what is tested here)
  const adminPage = await browser.newPage({ baseURL });
  try {
    const admin = demoUserByKey.admin;
    const adminLogin = new LoginPage(adminPage);
    await adminLogin.open();
    await adminLogin.submitPassword(admin.email, admin.password);
    await adminLogin.submitCode(totp(admin.totpSecret!));
    await expect(adminPage).toHaveURL(/\/admin-overview/);
    failures.push(...(await walk(adminPage, routes.get('_restricted') ?? [])));
  } finally {
    await adminPage.close();
  }
  expect(failures).toEqual([]);
});
