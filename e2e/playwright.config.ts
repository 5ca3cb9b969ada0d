import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_OPTIONS } from '../scripts/build-server.ts';
import { E2E_SERVER_DIR } from './server-dir.ts';

const port = Number(process.env.E2E_PORT ?? 4317);
// A fresh embedded database per run: in demo mode the platform seeds the demo users into it.
const dataDir = mkdtempSync(join(tmpdir(), 'wlb-e2e-'));

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
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
  webServer: {
    // built by scripts/e2e.ts, run as `npm start` runs it
    command: `node ${SERVER_NODE_OPTIONS.join(' ')} ${join(E2E_SERVER_DIR, 'main.js')}`,
    cwd: '..',
    url: `http://127.0.0.1:${port}/login`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      // Demo mode (server/modules/platform/demo-mode.ts): the demo users the journeys sign in as, and
      // the development mailbox they read one-time codes and links from. Demo mode is never
      // production: a NODE_ENV=production start with demo data is refused.
      DEMO_DATA: 'true',
      NODE_ENV: 'test',
      // the web app scripts/e2e.ts built: dist/, or a build of its own when parallel runs share a
      // checkout (the built server looks for ../dist beside its own directory, .tmp/ here)
      DIST_DIR: process.env.DIST_DIR ?? fileURLToPath(new URL('../dist', import.meta.url)),
    },
  },
});
