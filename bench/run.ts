/**
 * `npm run bench`: builds the app, starts the platform on a fresh embedded database, and prints
 * (a) the gzip size of the JavaScript /login loads before it is interactive (budget 160 kB), and
 * (b) requests per second of getCustomerInfo with a valid token against a bare Fastify route
 *     measured in the same run, as a ratio (goal at least 0.5).
 * (c) ledger transfers per second through the HTTP API against pgbench on the same PostgreSQL,
 *     spread and hot, on PostgreSQL and PGlite, with the platform's memory (bench/ledger.ts, also
 *     `npm run bench:ledger` on its own).
 * Figures, not pass/fail tests: the machine is shared and noisy, so compare the ratio.
 * BENCH_SECONDS sets each load phase's length (default 8); DATABASE_URL runs (b) on PostgreSQL.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { measureLoginBundle, printLoginBundle } from './bundle.ts';
import { load, type LoadResult } from './load.ts';
import { signInSimple, startPlatform, startProcess } from './platform.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite, openPostgres } from '../server/db/open.ts';
import { seedDatabase } from '../server/db/seed.ts';
import { createLedgerFixture } from '../scripts/ledger-fixture.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const RPC_RATIO_GOAL = 0.5;

function line(label: string, value: string): void {
  console.log(`${label.padEnd(44)} ${value}`);
}
function describe(result: LoadResult): string {
  return `${result.requestsPerSecond.toFixed(0)} req/s (p50 ${result.latencyP50Ms.toFixed(2)} ms, p99 ${result.latencyP99Ms.toFixed(2)} ms, ${result.non2xx} non-2xx, ${result.errors} errors)`;
}

const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// The platform runs as in production, without demo users: a load customer signs in instead,
// prepared before the start (PGlite allows one process at a time).
const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'wlb-bench-'));
const prepared = databaseUrl ? await openPostgres(databaseUrl, 2) : await openPglite(dataDir);
let loadUser: { email: string; password: string };
try {
  await seedDatabase(prepared.db, { demo: false });
  loadUser = await createLedgerFixture(prepared.db, { accounts: 1, firstName: 'Bench' });
} finally {
  await prepared.close();
}
const platform = await startPlatform(4391, databaseUrl, { dataDir });
try {
  console.log('\n== (a) JavaScript loaded by /login before it is interactive ==');
  if (existsSync('/usr/bin/chromium')) {
    printLoginBundle(await measureLoginBundle(platform.origin), line);
  } else {
    console.log('  skipped: /usr/bin/chromium is missing (apt-get install -y chromium)');
  }

  console.log(`\n== (b) getCustomerInfo vs a bare Fastify route (${connections} connections, ${seconds} s each) ==`);
  const token = await signInSimple(platform.origin, loadUser.email, loadUser.password);
  const rpc = {
    url: `${platform.origin}/api/v1/?getCustomerInfo`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-client-version': '2.1.2' },
    body: '{}',
    connections,
  };
  await load({ ...rpc, durationMs: 1500 }); // warm-up: JIT, connection pools
  const rpcResult = await load({ ...rpc, durationMs: seconds * 1000 });

  const bare = await startProcess('bench/bare-server.ts', 4399, {}, '/');
  let bareResult: LoadResult;
  try {
    const bareRequest = { ...rpc, url: `${bare.origin}/bare` };
    await load({ ...bareRequest, durationMs: 1500 });
    bareResult = await load({ ...bareRequest, durationMs: seconds * 1000 });
  } finally {
    await bare.stop();
  }
  line('  getCustomerInfo (platform, ' + (process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite') + ')', describe(rpcResult));
  line('  bare Fastify route', describe(bareResult));
  const ratio = rpcResult.requestsPerSecond / bareResult.requestsPerSecond;
  line('ratio platform / bare', `${ratio.toFixed(2)} (goal >= ${RPC_RATIO_GOAL}: ${ratio >= RPC_RATIO_GOAL ? 'met' : 'NOT met'})`);
  if (rpcResult.non2xx || rpcResult.errors) console.log('  warning: the platform answered errors during the run; the figure is not valid');
} finally {
  await platform.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

// (c) in a process of its own: it starts and stops platforms of its own on other databases.
const ledger = spawnSync('npx', ['tsx', 'bench/ledger.ts'], { stdio: 'inherit' });
if (ledger.status !== 0) process.exitCode = ledger.status ?? 1;
