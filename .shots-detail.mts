import { chromium } from '@playwright/test';
import { mkdirSync } from 'node:fs';
const [base, outDir] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const width of [390, 1366]) {
  const page = await browser.newPage({ viewport: { width, height: width > 1000 ? 900 : 844 } });
  await page.goto(base + '/login');
  await page.getByLabel('E-mail address').fill(process.env.WHO ?? 'boris@demo.test');
  await page.getByLabel('Password').fill('Demo-Pass-2026');
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.waitForURL(/home/);
  const shot = async (name: string) => {
    await page.locator('h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    console.log(name, width, page.url(), overflow ? 'OVERFLOW' : 'ok');
    await page.screenshot({ path: `${outDir}/${name}-${width}.png`, fullPage: true });
  };
  await page.waitForLoadState('networkidle');
  await page.locator('.activity-link').first().click();
  await shot('from-home');

  await page.goto(base + '/history?status=pending');
  await page.waitForLoadState('networkidle');
  if (await page.locator('.row-link').count()) {
    await page.locator('.row-link').first().click();
    await shot('pending');
    const cancel = page.getByRole('button', { name: 'Cancel this transfer' });
    if (await cancel.count()) { await cancel.click(); await page.waitForTimeout(300); await page.screenshot({ path: `${outDir}/pending-dialog-${width}.png` }); await page.getByRole('button', { name: 'Cancel the transfer' }).click(); await page.waitForTimeout(1500); await page.screenshot({ path: `${outDir}/pending-canceled-${width}.png`, fullPage: true }); break; }
  }
  await page.goto(base + '/history?transactionType=deposit');
  await page.waitForLoadState('networkidle');
  if (await page.locator('.row-link').count()) { await page.locator('.row-link').first().click(); await shot('deposit'); }
  await page.goto(base + '/history/t999999'); await shot('notfound');
  await page.goto(base + '/transfer/preapproved-payments'); await shot('preapproved');
  await page.close();
}
await browser.close();
