/**
 * (a) What a cold /login downloads before it is interactive, as the browser received it: the bytes
 * each response really took on the wire (Chrome DevTools Protocol `Network.loadingFinished`
 * `encodedDataLength`: headers plus the body as served, brotli here) and the number of requests.
 * Goal (issue 12): at most 130 kB of JavaScript in at most 12 requests. "Interactive" is the
 * sign-in form's e-mail field taking a click; what loads after that (until the network is quiet)
 * is printed apart, so a deferred download cannot hide.
 */
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

export const LOGIN_JS_BUDGET_KB = 130;
export const LOGIN_REQUEST_BUDGET = 12;

export interface TransferredFile {
  url: string;
  /** Chromium's resource type: Document, Script, Stylesheet, Font, Fetch... */
  type: string;
  /** bytes on the wire (headers and the encoded body) */
  bytes: number;
  /** Content-Encoding of the response ('' when none) */
  encoding: string;
}

export interface BundleFigures {
  /** every request finished before the page was interactive */
  beforeInteractive: TransferredFile[];
  /** requests finished after it, until the network was quiet */
  afterInteractive: TransferredFile[];
  /** JavaScript before interactive, kB (1000 bytes) transferred */
  scriptKb: number;
  scriptRequests: number;
  /** all requests before interactive (document, styles, scripts, fonts, API calls) */
  requests: number;
  budgetKb: number;
  requestBudget: number;
}

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function measureLoginBundle(origin: string, path = '/login'): Promise<BundleFigures> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const pending = new Map<string, { url: string; type: string; encoding: string }>();
    const finished: TransferredFile[] = [];
    let interactiveAt = -1;
    cdp.on('Network.responseReceived', (event) => {
      const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      pending.set(event.requestId, { url: event.response.url, type: event.type ?? 'Other', encoding: headers['content-encoding'] ?? '' });
    });
    cdp.on('Network.loadingFinished', (event) => {
      const response = pending.get(event.requestId);
      if (!response) return;
      const url = new URL(response.url);
      finished.push({ url: url.origin === origin ? url.pathname : response.url, type: response.type, bytes: event.encodedDataLength, encoding: response.encoding });
    });
    await page.goto(`${origin}${path}`);
    const field = page.getByRole('textbox').first();
    await field.waitFor({ state: 'visible' });
    await field.click();
    interactiveAt = finished.length;
    await page.waitForLoadState('networkidle');
    const beforeInteractive = finished.slice(0, interactiveAt);
    const afterInteractive = finished.slice(interactiveAt);
    const scripts = beforeInteractive.filter((f) => f.type === 'Script');
    return {
      beforeInteractive,
      afterInteractive,
      scriptKb: scripts.reduce((sum, f) => sum + f.bytes, 0) / 1000,
      scriptRequests: scripts.length,
      requests: beforeInteractive.length,
      budgetKb: LOGIN_JS_BUDGET_KB,
      requestBudget: LOGIN_REQUEST_BUDGET,
    };
  } finally {
    await browser.close();
  }
}

/** The figures as `npm run bench` prints them. */
export function printLoginBundle(bundle: BundleFigures, line: (label: string, value: string) => void): void {
  for (const file of bundle.beforeInteractive) line(`  ${file.type.padEnd(10)} ${file.url}`, `${(file.bytes / 1000).toFixed(1)} kB ${file.encoding || 'identity'}`);
  for (const file of bundle.afterInteractive) line(`  (after)    ${file.url}`, `${(file.bytes / 1000).toFixed(1)} kB ${file.encoding || 'identity'}`);
  line('JavaScript transferred before interactive', `${bundle.scriptKb.toFixed(1)} kB in ${bundle.scriptRequests} requests (goal <= ${bundle.budgetKb} kB, <= ${bundle.requestBudget} requests)`);
  line('all requests before interactive', `${bundle.requests} (${(bundle.beforeInteractive.reduce((s, f) => s + f.bytes, 0) / 1000).toFixed(1)} kB)`);
}

/** `npx tsx bench/bundle.ts [--no-build]`: builds, starts the platform as `npm run bench` does, prints (a). */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { buildApp, startBenchPlatform } = await import('./lighthouse.ts');
  if (!process.argv.includes('--no-build')) buildApp();
  const platform = await startBenchPlatform(Number(process.env.BENCH_WEB_PORT ?? 4391));
  try {
    console.log('\n== (a) /login before it is interactive, as transferred ==');
    printLoginBundle(await measureLoginBundle(platform.origin), (label, value) => console.log(`${label.padEnd(60)} ${value}`));
  } finally {
    await platform.stop();
  }
}
