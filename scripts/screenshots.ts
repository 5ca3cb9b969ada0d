/**
 * `npm run screenshots` (issue 13): every main page of the app at 1366 and 390 pixels wide, for
 * each white-label variant and each demo customer, so a reviewer can look at them side by side.
 *
 * For each variant: the web app is built with VARIANT set (its logo, colours and name), the
 * platform starts on a fresh embedded database in demo mode (the demo customers and their
 * history), the signed-out pages are taken, then each demo customer signs in through the app's
 * own form (second factor: the authenticator code from the demo secret, or the text message read
 * from the development mailbox) and every page of the main layout is taken at both widths in the
 * same session (one sign-in per customer: a TOTP code is accepted once).
 *
 * Output: screenshots/<variant>/<customer>/<page>-<width>.png and screenshots/index.html, a page
 * that shows them side by side (screenshots/ is not committed; it is remade in a few minutes).
 *
 *   SCREENSHOT_VARIANTS=wallet,bank   only these variants (default: all six)
 *   SCREENSHOT_USERS=anna,boris       only these demo customers (default: every one)
 *   SCREENSHOT_OUT=dir                another output directory
 *   SCREENSHOT_PORT=4720              the platform's port
 *   SCREENSHOT_ORIGIN=http://host:port  take a platform already running instead (one variant, its
 *                                       build as it is: e.g. an older version, for a before/after)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { startPlatform } from '../bench/platform.ts';
import { NORTHWIND_NAME, demoUserByKey, type DemoUser } from '../server/db/demo-users.ts';
import { variantIds, type VariantId } from '../variants/schema.ts';
import { totp } from '../e2e/support/totp.ts';

const WIDTHS = [1366, 390] as const;
const HEIGHT: Record<(typeof WIDTHS)[number], number> = { 1366: 900, 390: 844 };
const SIGNED_OUT_PAGES = ['/login', '/register', '/account-recovery'] as const;
/** The main layout's pages (a page a customer may not open shows what the app shows instead). */
const MAIN_PAGES = ['/home', '/history', '/statements', '/transfer/p2p', '/transfer/account', '/profile', '/setting', '/login-history?page=1'] as const;

const list = (value: string | undefined) => (value ? value.split(',').map((s) => s.trim()).filter(Boolean) : null);
const variants = (list(process.env.SCREENSHOT_VARIANTS) ?? [...variantIds]) as VariantId[];
for (const v of variants) if (!variantIds.includes(v)) throw new Error(`unknown variant ${v}`);
const users = (list(process.env.SCREENSHOT_USERS) ?? Object.keys(demoUserByKey)).map((key) => {
  const user = (demoUserByKey as Record<string, DemoUser>)[key];
  if (!user) throw new Error(`unknown demo user ${key}`);
  return user;
});
const out = process.env.SCREENSHOT_OUT ?? 'screenshots';
const port = Number(process.env.SCREENSHOT_PORT ?? 4720);
const given = process.env.SCREENSHOT_ORIGIN ?? null;
const origin = given ?? `http://127.0.0.1:${port}`;
if (given && variants.length !== 1) throw new Error('SCREENSHOT_ORIGIN takes one variant: set SCREENSHOT_VARIANTS to the one it runs');

const fileName = (path: string) => path.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '-').replace(/-+$/, '') || 'root';

/** Waits until the page shows its heading and its reads are done. */
async function settle(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor({ timeout: 15_000 });
  await page.waitForLoadState('networkidle');
}

async function shoot(page: Page, dir: string, name: string, taken: string[]): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT[width] });
    // a width change can move the layout: let it settle before the picture
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const file = join(dir, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    taken.push(file);
  }
}

async function smsCode(phone: string): Promise<string> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const response = await fetch(`${origin}/dev/mailbox.json?to=${encodeURIComponent(phone)}&channel=sms`);
    const { messages } = (await response.json()) as { messages: { body: string }[] };
    const code = messages.map((m) => /\b(\d{6})\b/.exec(m.body)?.[1]).find(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no sign-in code for ${phone}`);
}

async function signIn(page: Page, user: DemoUser, dir: string, taken: string[]): Promise<void> {
  await page.goto(`${origin}/login`);
  await page.locator('input[autocomplete="username"]').fill(user.email);
  await page.locator('input[type="password"]').fill(user.password);
  await page.locator('form button[type="submit"]').first().click();
  if (user.login2faMode !== 'no') {
    const code = user.login2faMode === 'otp' ? totp(user.totpSecret as string) : await smsCode(`+${user.phone?.countryCode}${user.phone?.number}`);
    await page.locator('input[autocomplete="one-time-code"]').fill(code);
    await page.locator('form button[type="submit"]').first().click();
  }
  if (user.landing === 'account-chooser') {
    // the sign-in's last step: which customer to act for (the company, as a business user would)
    const company = page.getByRole('button', { name: NORTHWIND_NAME });
    await company.waitFor({ timeout: 15_000 });
    await shoot(page, dir, 'landing-account-chooser', taken);
    await company.click();
  }
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 15_000 });
}

const taken: string[] = [];
rmSync(out, { recursive: true, force: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const variant of variants) {
    const dist = join('.tmp', 'screenshots', `dist-${variant}`);
    if (!given) {
      const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', dist, '--emptyOutDir'], { stdio: 'inherit', env: { ...process.env, VARIANT: variant } });
      if (build.status !== 0) throw new Error(`the ${variant} build failed`);
    }
    const platform = given
      ? { stop: async () => undefined }
      : await startPlatform(port, undefined, { env: { DEMO_DATA: 'true', NODE_ENV: 'test', DIST_DIR: join(process.cwd(), dist), LOG_LEVEL: 'warn' } });
    try {
      const signedOut = await browser.newPage();
      const dir = join(out, variant, 'signed-out');
      mkdirSync(dir, { recursive: true });
      for (const path of SIGNED_OUT_PAGES) {
        await signedOut.goto(`${origin}${path}`);
        await settle(signedOut);
        await shoot(signedOut, dir, fileName(path), taken);
      }
      await signedOut.close();

      for (const user of users) {
        const page = await browser.newPage({ viewport: { width: WIDTHS[0], height: HEIGHT[WIDTHS[0]] } });
        const userDir = join(out, variant, user.key);
        mkdirSync(userDir, { recursive: true });
        try {
          await signIn(page, user, userDir, taken);
          await settle(page);
          // where sign-in lands (home, the administrator's overview, a page the start rules ask for)
          await shoot(page, userDir, `landing-${fileName(new URL(page.url()).pathname)}`, taken);
          if (user.role === 'administrator') continue;
          for (const path of MAIN_PAGES) {
            await page.goto(`${origin}${path}`);
            await settle(page);
            await shoot(page, userDir, fileName(path.split('?')[0] as string), taken);
          }
        } catch (error) {
          console.error(`${variant}/${user.key}: ${(error as Error).message.split('\n')[0]}`);
        } finally {
          await page.close();
        }
      }
    } finally {
      await platform.stop();
    }
    console.log(`${variant}: ${taken.filter((f) => f.includes(`${join(out, variant)}/`)).length} screenshots`);
  }
} finally {
  await browser.close();
}

// the side-by-side page: each page's wide and narrow picture in one row
const rows = new Map<string, string[]>();
for (const file of taken) {
  const key = file.replace(/-(1366|390)\.png$/, '');
  rows.set(key, [...(rows.get(key) ?? []), relative(out, file)]);
}
const html = `<!doctype html><meta charset="utf-8"><title>Screenshots</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem}section{display:flex;gap:1rem;align-items:flex-start;margin:0 0 2rem}img{border:1px solid #ccc;max-width:100%}figure{margin:0}figure.w1366{flex:3}figure.w390{flex:1}</style>
<h1>Screenshots (${taken.length})</h1>
${[...rows]
  .map(([key, files]) => `<h2>${relative(out, key)}</h2><section>${files.map((f) => `<figure class="w${/-(\d+)\.png$/.exec(f)?.[1]}"><img loading="lazy" src="${f}" alt="${f}"></figure>`).join('')}</section>`)
  .join('\n')}`;
writeFileSync(join(out, 'index.html'), html);
console.log(`${taken.length} screenshots in ${out}/ (open ${join(out, 'index.html')})`);
