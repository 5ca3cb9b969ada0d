/**
 * The platform as `npm start` runs it: server/main.ts bundled to JavaScript (scripts/build-server.ts)
 * and started with plain node and the options of package.json's start script, no tsx. It must
 * find its migrations and packages, migrate a fresh database, and answer the API.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildServer, SERVER_NODE_OPTIONS } from '../../scripts/build-server.ts';
import { testDriver } from './harness.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Inside the project (node_modules is found from there), apart from dist-server/.
const outdir = join(ROOT, '.tmp', `dist-server-test-${process.pid}`);
const dataDir = mkdtempSync(join(tmpdir(), 'wlb-built-'));

beforeAll(async () => {
  await buildServer(outdir);
}, 60_000);
afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

it('npm start builds the server and runs the built file with plain node and the shared options', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(scripts.start).toBe(`npm run build && npm run build:server && node ${SERVER_NODE_OPTIONS.join(' ')} dist-server/main.js`);
  expect(scripts['build:server']).toBe('tsx scripts/build-server.ts');
});

// PGlite only: a fresh data directory shows the migrations are found beside the bundle.
it.runIf(testDriver === 'pglite')('starts with plain node on a fresh database and answers the API', async () => {
  const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, join(outdir, 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'production', DEMO_DATA: 'false', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not listening after 60 s:\n${out}`)), 60_000);
      child.stdout.on('data', () => {
        const match = /Platform listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
    });
    // no tsx in the process: its loader would show in the command line or the execArgv
    const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain('tsx');
    const response = await fetch(`${origin}/api/v1/?dictionaryCurrencies`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { responseCode: string }).responseCode).toBe('00');
    const refused = await fetch(`${origin}/api/v1/?getCustomerInfo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}, 90_000);
