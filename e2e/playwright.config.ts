import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_OPTIONS } from '../scripts/build-server.ts';
import { E2E_SERVER_DIR } from './server-dir.ts';
import { E2E_WORKERS, e2eOrigin, e2ePort } from './support/origins.ts';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // One platform per worker (support/test.ts): the spec files are dealt to the workers, the tests
  // of a file stay in order on one worker and its platform.
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  // Timeouts find a journey that hangs; they are not speed checks (bench/ measures speed). On this
  // shared 2-core machine the same journeys ran 2 to 2.5 times slower on 2026-11-27 than on
  // 2026-11-25 (a sign-in with a wrong password 11.5 s): the limits leave that room.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: e2eOrigin(0),
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: Array.from({ length: E2E_WORKERS }, (_, index) => ({
    // built by scripts/e2e.ts, run as `npm start` runs it
    command: `node ${SERVER_NODE_OPTIONS.join(' ')} ${join(E2E_SERVER_DIR, 'main.js')}`,
    cwd: '..',
    url: `${e2eOrigin(index)}/login`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(e2ePort(index)),
      HOST: '127.0.0.1',
      // a fresh embedded database per platform: in demo mode the platform seeds the demo users into it
      DATA_DIR: mkdtempSync(join(tmpdir(), `wlb-e2e-${index}-`)),
      DATABASE_URL: '',
      // Demo mode (server/modules/platform/demo-mode.ts): the demo users the journeys sign in as, and
      // the development mailbox they read one-time codes and links from. Demo mode is never
      // production: a NODE_ENV=production start with demo data is refused.
      DEMO_DATA: 'true',
      NODE_ENV: 'test',
      // the network simulator settles every rail in 3 s (2 to 20 s by rail otherwise): the payout
      // journey waits for a settlement and a return without waiting for a wire's day
      RAIL_SIMULATOR_SETTLE_MS: '3000',
      // and returns only what the payee's number asks for (no random share: the journeys may run in any order)
      RAIL_SIMULATOR_RETURN_BP: '0',
      // the web app scripts/e2e.ts built: dist/, or a build of its own when parallel runs share a
      // checkout (the built server looks for ../dist beside its own directory, .tmp/ here)
      DIST_DIR: process.env.DIST_DIR ?? fileURLToPath(new URL('../dist', import.meta.url)),
    },
  })),
});
