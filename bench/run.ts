/**
 * `npm run bench`: builds the app and the server, and prints
 * (a) the JavaScript /login loads before it is interactive as Chromium received it (brotli; goal at
 *     most 130 kB in at most 12 requests), and (a') Lighthouse mobile performance on /login and on
 *     /home signed in (goal at least 95; bench/lighthouse.ts);
 * (b) getCustomerInfo against its references in the same run, on PGlite and (when reachable) on
 *     PostgreSQL: requests per second of the platform (built server, production mode) with a valid
 *     token, of a minimal Fastify handler doing the same work (the same HMAC verify, the same
 *     prepared SELECT through the same kind of pool, the same JSON: bench/bare-server.ts /minimal;
 *     goal: platform at least 0.8 of it) and of a bare Fastify route (/bare), as ratios; and the
 *     platform's memory (RSS) idle after its start and a few requests (goals 120 MB on PostgreSQL,
 *     300 MB on PGlite) and after the load;
 * (c) ledger transfers per second through the HTTP API against pgbench on the same PostgreSQL,
 *     spread and hot, on PostgreSQL and PGlite, with the platform's memory (bench/ledger.ts, also
 *     `npm run bench:ledger` on its own);
 * (d) two platform instances on one PostgreSQL under the ledger load at once: the combined rate,
 *     the books' check (bench/scale-out.ts, also on its own); pushes across instances are tested in
 *     tests/server/push.test.ts and approvals.test.ts (NOTIFY and the outbox, on PostgreSQL);
 * (e) the test suite's time per project against its budget, as `npm test` spends it
 *     (bench/suite.ts, also on its own: `npx tsx bench/suite.ts`; about six minutes).
 * Figures, not pass/fail tests: the machine is shared and noisy, so compare the ratios.
 *
 * BENCH_SECONDS sets each load phase's length (default 8); BENCH_PARTS picks parts (default
 * `bundle,lighthouse,api,ledger,scale,suite`); BENCH_PORT the first of the ports used (default 4650: the platform,
 * +1 the references, +10 and +11 the scale-out instances, ledger.ts its own); BENCH_PG_URL the
 * PostgreSQL server (bench/platform.ts); BENCH_API_DATABASES part (b)'s databases (default
 * `pglite,pg`); BENCH_SERVER=tsx runs the platform through tsx instead of
 * the built server (the way it ran before, for comparison).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureLoginBundle, printLoginBundle } from './bundle.ts';
import { measureLighthouse, printLighthouse, startBenchPlatform } from './lighthouse.ts';
import { load, type LoadOptions, type LoadResult } from './load.ts';
import { cpuSeconds, createBenchDatabase, postgresReachable, rssMb, serverMode, signInSimple, startPlatform, startProcess, type Started } from './platform.ts';
import { runScaleOut } from './scale-out.ts';
import { openPglite, openPostgres, type OpenDatabase } from '../server/db/open.ts';
import { seedDatabase } from '../server/db/seed.ts';
import { createLedgerFixture } from '../scripts/ledger-fixture.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const parts = new Set((process.env.BENCH_PARTS ?? 'bundle,lighthouse,api,ledger,scale,suite').split(',').map((p) => p.trim()));
/** BENCH_API_DATABASES: part (b) on `pglite`, `pg` or both (default) */
const apiDatabases = new Set((process.env.BENCH_API_DATABASES ?? 'pglite,pg').split(',').map((p) => p.trim()));
const basePort = Number(process.env.BENCH_PORT ?? 4650);
const PLATFORM_PORT = basePort;
const REFERENCE_PORT = basePort + 1;
const MINIMAL_RATIO_GOAL = 0.8;
const MEMORY_GOAL_MB = { PostgreSQL: 120, PGlite: 300 } as const;
/** the pool of the platform and of the minimal reference on PostgreSQL (main.ts's default) */
const POOL_MAX = 10;

function line(label: string, value: string): void {
  console.log(`${label.padEnd(48)} ${value}`);
}
function describe(result: LoadResult & { requestsPerCpuSecond?: number }): string {
  return `${result.requestsPerSecond.toFixed(0)} req/s, ${result.requestsPerCpuSecond?.toFixed(0) ?? '?'} per CPU-second (p50 ${result.latencyP50Ms.toFixed(2)} ms, p99 ${result.latencyP99Ms.toFixed(2)} ms, ${result.non2xx} non-2xx, ${result.errors} errors)`;
}
const mb = (value: number | null) => (value === null ? '?' : `${value.toFixed(0)} MB`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
console.log(`(the platform runs ${serverMode === 'built' ? 'as built JavaScript: node dist-server/main.js' : 'through tsx: server/main.ts'}, NODE_ENV=production, the default log level)`);

type DatabaseLabel = keyof typeof MEMORY_GOAL_MB;
interface ApiRun {
  label: DatabaseLabel;
  platform: Measured;
  minimal: Measured;
  bare: Measured;
  idleMb: number | null;
  afterLoadMb: number | null;
}

/** A load phase's figures with the CPU time its server used meanwhile. */
interface Measured extends LoadResult {
  /** requests answered per CPU-second of the server's process (its efficiency, less sensitive than the rate to the machine's other work) */
  requestsPerCpuSecond: number;
}

/** Adds up load phases of one target (requests over elapsed time; latencies of the longest phase). */
function combine(results: { result: LoadResult; cpu: number }[]): Measured {
  const requests = results.reduce((a, r) => a + r.result.requests, 0);
  const elapsed = results.reduce((a, r) => a + r.result.requests / Math.max(r.result.requestsPerSecond, 1e-9), 0);
  const cpu = results.reduce((a, r) => a + r.cpu, 0);
  const longest = results.reduce((a, r) => (r.result.requests > a.requests ? r.result : a), results[0]!.result);
  return {
    requests,
    non2xx: results.reduce((a, r) => a + r.result.non2xx, 0),
    errors: results.reduce((a, r) => a + r.result.errors, 0),
    requestsPerSecond: requests / elapsed,
    latencyP50Ms: longest.latencyP50Ms,
    latencyP99Ms: longest.latencyP99Ms,
    requestsPerCpuSecond: requests / Math.max(cpu, 0.01),
  };
}

/**
 * Loads the targets in turn, `rounds` rounds of seconds/rounds each (after a warm-up of each), so
 * the machine's other work weighs on every target alike; the CPU time of each target's server
 * process (pid) is read around each of its phases.
 */
async function alternate(targets: { request: Omit<LoadOptions, 'durationMs'>; pid: number }[], rounds: number): Promise<Measured[]> {
  for (const t of targets) await load({ ...t.request, durationMs: 1500 }); // warm-up: JIT, connection pools
  const phases: { result: LoadResult; cpu: number }[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, t] of targets.entries()) {
      const cpuBefore = cpuSeconds(t.pid);
      const result = await load({ ...t.request, durationMs: (seconds * 1000) / rounds });
      phases[i]!.push({ result, cpu: cpuSeconds(t.pid) - cpuBefore });
    }
  }
  return phases.map(combine);
}

/**
 * Part (b) on one database. On PostgreSQL the platform and the references run at once and are
 * loaded in turn; on PGlite (one process at a time) the platform first, then the references on the
 * same data directory. BENCH_CPU_PROF=<dir> runs the platform with node --cpu-prof (the profile is
 * written there when it stops; bench/profile-summary.ts sums it up).
 */
async function apiRun(label: DatabaseLabel, open: () => Promise<OpenDatabase>, env: { databaseUrl?: string; dataDir?: string }): Promise<ApiRun> {
  // The platform runs as in production, without demo users: a load customer signs in instead.
  const prepared = await open();
  let loadUser: { email: string; password: string };
  try {
    await seedDatabase(prepared.db, { demo: false });
    loadUser = await createLedgerFixture(prepared.db, { accounts: 1, firstName: 'Bench' });
  } finally {
    await prepared.close();
  }
  const platformEnv: Record<string, string> = { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', DATABASE_POOL_MAX: String(POOL_MAX) };
  const nodeArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const referencesEnv: Record<string, string> = env.databaseUrl ? { DATABASE_URL: env.databaseUrl, DATABASE_POOL_MAX: String(POOL_MAX) } : { DATA_DIR: env.dataDir!, DATABASE_URL: '' };
  const request = (origin: string, path: string, token: string) => ({
    url: `${origin}${path}`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-client-version': '2.1.2' },
    body: '{}',
    connections,
  });
  let platform: Started | null = await startPlatform(PLATFORM_PORT, env.databaseUrl, { ...(env.dataDir ? { dataDir: env.dataDir } : {}), env: platformEnv, nodeArgs });
  let references: Started | null = null;
  try {
    const token = await signInSimple(platform.origin, loadUser.email, loadUser.password);
    // Idle memory: after the start and a few requests of a signed-in customer.
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${platform.origin}/api/v1/?getCustomerInfo`, { method: 'POST', headers: request(platform.origin, '', token).headers, body: '{}' });
      await response.arrayBuffer();
    }
    await (await fetch(`${platform.origin}/login`)).arrayBuffer();
    await sleep(3000);
    const idleMb = rssMb(platform.pid);
    const target = request(platform.origin, '/api/v1/?getCustomerInfo', token);
    if (env.databaseUrl) {
      references = await startProcess('bench/bare-server.ts', REFERENCE_PORT, referencesEnv, '/', nodeArgs);
      const [measured, minimal, bare] = (await alternate(
        [
          { request: target, pid: platform.pid },
          { request: request(references.origin, '/minimal', token), pid: references.pid },
          { request: request(references.origin, '/bare', token), pid: references.pid },
        ],
        3,
      )) as [Measured, Measured, Measured];
      return { label, platform: measured, minimal, bare, idleMb, afterLoadMb: rssMb(platform.pid) };
    }
    const [measured] = (await alternate([{ request: target, pid: platform.pid }], 1)) as [Measured];
    const afterLoadMb = rssMb(platform.pid);
    await platform.stop();
    platform = null;
    references = await startProcess('bench/bare-server.ts', REFERENCE_PORT, referencesEnv, '/');
    const [minimal, bare] = (await alternate(
      [
        { request: request(references.origin, '/minimal', token), pid: references.pid },
        { request: request(references.origin, '/bare', token), pid: references.pid },
      ],
      1,
    )) as [Measured, Measured];
    return { label, platform: measured, minimal, bare, idleMb, afterLoadMb };
  } finally {
    await platform?.stop();
    await references?.stop();
  }
}

function reportApi(run: ApiRun): void {
  console.log(`\n-- on ${run.label} --`);
  line('  getCustomerInfo (platform)', describe(run.platform));
  line('  minimal handler, same work', describe(run.minimal));
  line('  bare Fastify route', describe(run.bare));
  const toMinimal = run.platform.requestsPerSecond / run.minimal.requestsPerSecond;
  line('  ratio platform / minimal handler', `${toMinimal.toFixed(2)} (goal >= ${MINIMAL_RATIO_GOAL}: ${toMinimal >= MINIMAL_RATIO_GOAL ? 'met' : 'NOT met'})`);
  line('  ratio platform / bare route', (run.platform.requestsPerSecond / run.bare.requestsPerSecond).toFixed(2));
  line(
    '  the same per CPU-second of the server',
    `${(run.platform.requestsPerCpuSecond / run.minimal.requestsPerCpuSecond).toFixed(2)} of the minimal handler, ${(run.platform.requestsPerCpuSecond / run.bare.requestsPerCpuSecond).toFixed(2)} of the bare route`,
  );
  const goal = MEMORY_GOAL_MB[run.label];
  line(
    `  platform memory (RSS), idle`,
    `${mb(run.idleMb)} (goal <= ${goal} MB: ${run.idleMb !== null && run.idleMb <= goal ? 'met' : 'NOT met'}); after the load ${mb(run.afterLoadMb)}`,
  );
  for (const [name, r] of [['platform', run.platform], ['minimal', run.minimal], ['bare', run.bare]] as const) {
    if (r.non2xx || r.errors) console.log(`  warning: the ${name} answered errors during the run; its figure is not valid`);
  }
}

if (parts.has('bundle') || parts.has('lighthouse')) {
  if (existsSync('/usr/bin/chromium')) {
    // one platform on a fresh embedded database with a load customer (bench/lighthouse.ts)
    const web = await startBenchPlatform(PLATFORM_PORT);
    try {
      if (parts.has('bundle')) {
        console.log('\n== (a) JavaScript /login loads before it is interactive, as transferred (brotli, headers included) ==');
        printLoginBundle(await measureLoginBundle(web.origin), line);
      }
      if (parts.has('lighthouse')) {
        console.log('\n== (a\') Lighthouse 12.2.3, mobile (default throttling), performance: /login and /home signed in ==');
        printLighthouse(await measureLighthouse(web.origin, web.user), line);
      }
    } finally {
      await web.stop();
    }
  } else {
    console.log('\n(a) skipped: /usr/bin/chromium is missing (apt-get install -y chromium)');
  }
}

if (parts.has('api')) {
  console.log(`\n== (b) getCustomerInfo vs a minimal handler doing the same work and a bare Fastify route (${connections} connections, ${seconds} s each); the platform's memory ==`);
  const dataDir = mkdtempSync(join(tmpdir(), 'wlb-bench-'));
  try {
    if (apiDatabases.has('pglite')) reportApi(await apiRun('PGlite', () => openPglite(dataDir), { dataDir }));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (!apiDatabases.has('pg')) {
    // not asked for
  } else if (await postgresReachable()) {
    const database = await createBenchDatabase('api');
    try {
      reportApi(await apiRun('PostgreSQL', () => openPostgres(database.url, 2), { databaseUrl: database.url }));
    } finally {
      await database.drop();
    }
  } else {
    console.log('\n  PostgreSQL is not reachable (BENCH_PG_URL): the PostgreSQL run is skipped');
  }
}

// (c) in a process of its own: it starts and stops platforms of its own on other databases.
if (parts.has('ledger')) {
  const ledger = spawnSync('npx', ['tsx', 'bench/ledger.ts'], { stdio: 'inherit' });
  if (ledger.status !== 0) process.exitCode = ledger.status ?? 1;
}

if (parts.has('scale')) {
  const ok = await runScaleOut({ ports: [basePort + 10, basePort + 11], seconds, connections });
  if (!ok) process.exitCode = 1;
}

// (e) last, in a process of its own: the whole suite, on a machine the parts above no longer load
if (parts.has('suite')) {
  console.log('\n== (e) the test suite, as npm test runs it: time per project against the budget (bench/suite.ts) ==');
  const suite = spawnSync('npx', ['tsx', 'bench/suite.ts'], { stdio: 'inherit', env: { ...process.env, E2E_PORT: String(basePort + 20) } });
  if (suite.status !== 0) process.exitCode = suite.status ?? 1;
}
