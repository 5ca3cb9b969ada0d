/**
 * Runs the Playwright journeys in Debian's Chromium against the built app served by the platform.
 * Without /usr/bin/chromium it says how to install it; that is a failure under CI (CI must run
 * the journeys), a skip on a developer's machine.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildServer } from './build-server.ts';
import { E2E_SERVER_DIR } from '../e2e/server-dir.ts';

const CHROMIUM = '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  const message = [
    `e2e: Chromium is not installed at ${CHROMIUM}, so the browser journeys did not run.`,
    '     Install it from Debian with:  sudo apt-get install -y chromium',
    '     (never `npx playwright install`: browser downloads do not work here).',
  ].join('\n');
  console.error(message);
  process.exit(process.env.CI ? 1 : 0);
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const outDir = process.env.DIST_DIR ? ['--outDir', process.env.DIST_DIR, '--emptyOutDir'] : [];
run('npx', ['vite', 'build', '--logLevel', 'warn', ...outDir]);
// The journeys run against the platform as `npm start` runs it: built JavaScript on plain Node.
await buildServer(E2E_SERVER_DIR);
run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)]);
