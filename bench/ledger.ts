/**
 * `npm run bench:ledger` (and the ledger part of `npm run bench`): ledger transfers per second
 * through the platform's HTTP API against the same PostgreSQL server running a raw SQL transfer
 * with pgbench, in the same run, as a ratio (goal at least 0.5), for spread and hot-account load;
 * the same HTTP load through PGlite; the platform's memory under that load.
 *
 * Each side runs at each client count (BENCH_LEDGER_CONNECTIONS); the goal's ratio takes each at
 * its best count (see connectionCounts).
 *
 * (b) pgbench, in a database of its own on the server: bench_accounts(id, balance) with as many
 *     accounts as the platform's load uses, bench_journal(id bigserial, from_id, to_id, amount,
 *     created_at); one transaction per transfer: lock the two accounts in id order, two UPDATEs,
 *     one INSERT (`pgbench -n -f script.sql -c 16 -j 2 -T seconds -M prepared`).
 * (a) HTTP on PostgreSQL: a fresh database <prefix>bench_<pid>, seeded, with a load customer
 *     (scripts/ledger-fixture.ts: approve mode none, so a transfer is posted in its request), 16
 *     keep-alive connections sending transferBetweenAccounts of 0.01 EUR, each with its own
 *     Idempotency-Key (bench/ledger-load.ts), after a warm-up. Spread: random distinct pairs among
 *     the accounts of one customer, and among 16 customers' accounts (a customer's transfers of one
 *     kind and currency count in the daily limit's shards, migration 0010: before it, one counter row serialized them);
 *     hot: every transfer to or from one account. Only '00' answers count.
 * (c) the same HTTP load through PGlite (its data directory prepared before the platform starts).
 * (d) the resident memory of the platform's node process, sampled every 250 ms during each load.
 *
 * After each database's runs the platform is stopped and the database opened again: reconcile()
 * must be clean, the EUR legs must sum to zero, the customers' EUR total must be unchanged (own-
 * account transfers in one currency have no fee) and the posted transfers must be exactly the
 * '00' answers. A run whose books do not balance says so and exits non-zero.
 *
 * Figures, not pass/fail tests: the machine is shared and noisy, and the load generator, the
 * platform and PostgreSQL share its cores. BENCH_SECONDS sets each phase's length (default 8),
 * BENCH_PG_URL the PostgreSQL server's maintenance database (default: DATABASE_URL's server, else
 * postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_LEDGER_CONNECTIONS the client counts each side runs at (default 16,64),
 * BENCH_ACCOUNTS the accounts (default 200), BENCH_POOL_MAX the platform's pool (default 16),
 * BENCH_LEDGER_PORT the platform's port (default 4393), BENCH_DB_PREFIX the databases' name prefix (default wlb_bench_, bench/platform.ts),
 * BENCH_SKIP_PGLITE=1 skips (c) (PostgreSQL's figures only).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openPglite, openPostgres, type OpenDatabase } from '../server/db/open.ts';
import { seedDatabase } from '../server/db/seed.ts';
import { reconcile } from '../server/modules/accounts/ledger.ts';
import { createLedgerFixture, eurTotals, type LedgerFixture } from '../scripts/ledger-fixture.ts';
import { ledgerLoad, type LedgerLoadCustomer, type LedgerLoadOptions, type LedgerLoadResult } from './ledger-load.ts';
import { adminQuery, createBenchDatabase, pgServer, signInSimple, startPlatform, type Started } from './platform.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
/**
 * The client counts each side runs at (BENCH_LEDGER_CONNECTIONS, default 16 and 64): pgbench's
 * clients and the HTTP load's keep-alive connections alike. The goal compares what each side
 * reaches at its best count: PostgreSQL's own capacity against the platform's, in the same run.
 * pgbench's best count varies from run to run on 2 cores (16 in most of session 9's runs, 64 in
 * one; with 64 its hot transfer fell to about two thirds), while the platform's batches
 * (ledger-batch.ts) need the requests of many customers at once to fill them: at 16 connections a batch holds 5 requests and waits on the
 * WAL's flush for most of its time (pg_stat_activity sampled in session 9: WALSync and WALWrite
 * in 58 % of the samples of a running batch, 28 WAL records and 3.2 kB per transfer against
 * pgbench's 7 records and 445 bytes). The ratio at equal counts is printed too.
 */
const connectionCounts = (process.env.BENCH_LEDGER_CONNECTIONS ?? '16,64')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
/** the first count: pgbench's runs of the platform's one statement (a') */
const connections = connectionCounts[0] ?? 16;
const accountCount = Number(process.env.BENCH_ACCOUNTS ?? 200);
const poolMax = Number(process.env.BENCH_POOL_MAX ?? 16);
const SPREAD_CUSTOMERS = 16;
const AMOUNT = '0.01';
const RATIO_GOAL = 0.5;
const WARMUP_MS = 1500;
/** the platform's port (BENCH_LEDGER_PORT; several benches on one machine need their own) */
const PORT = Number(process.env.BENCH_LEDGER_PORT ?? 4393);
/** the API answers 404 here once it listens (the web app need not be built) */
const READY_PATH = '/api/v1/';

function line(label: string, value: string): void {
  console.log(`${label.padEnd(48)} ${value}`);
}
const eur = (minor: bigint) => `${minor < 0n ? '-' : ''}${(minor < 0n ? -minor : minor) / 100n}.${((minor < 0n ? -minor : minor) % 100n).toString().padStart(2, '0')} EUR`;

// ---- memory of the platform process ----------------------------------------------------------

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // gone
  }
  return out;
}

/** The node process running server/main.ts under the spawned npx (npx -> tsx -> node): the deepest match. */
function platformPid(rootPid: number): number | null {
  let found: number | null = null;
  const walk = (pid: number) => {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      return;
    }
    if (/server\/main\.ts|dist-server\/main\.js/.test(cmdline) && /(^|\/)node /.test(cmdline)) found = pid;
    for (const child of childrenOf(pid)) walk(child);
  };
  walk(rootPid);
  return found;
}

function rssMb(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Waits until a process is gone (its database closed); SIGKILL after 20 s. */
async function waitForExit(pid: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (existsSync(`/proc/${pid}`)) {
    if (Date.now() > deadline) {
      console.log(`  warning: the platform (pid ${pid}) did not exit after SIGTERM; killed`);
      process.kill(pid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 500));
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ---- CPU: the platform's process, PostgreSQL's processes, the whole machine ------------------------

const TICKS_PER_SECOND = 100;

function cpuTicksOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return 0;
  }
}

/** CPU ticks of PostgreSQL's processes by pid: the backends of `database` only when given. */
function postgresTicksByPid(database?: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      // a backend's title: "postgres: <user> <database> <client> <state>"
      if (database && !readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(` ${database} `)) continue;
      out.set(Number(entry), cpuTicksOf(Number(entry)));
    } catch {
      // gone
    }
  }
  return out;
}

/**
 * PostgreSQL's CPU ticks since start, sampled every 200 ms so that backends which end before stop
 * (pgbench's) still count; a backend first seen after start counts from 0.
 */
function samplePostgresTicks(database?: string): { stop(): number } {
  const start = postgresTicksByPid(database);
  const last = new Map(start);
  const take = () => {
    for (const [pid, ticks] of postgresTicksByPid(database)) last.set(pid, ticks);
  };
  const timer = setInterval(take, 200);
  return {
    stop() {
      clearInterval(timer);
      take();
      let total = 0;
      for (const [pid, ticks] of last) total += ticks - (start.get(pid) ?? 0);
      return total;
    },
  };
}

function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = fields[3]! + fields[4]!;
  return { busy: total - idle, total };
}

interface Cpu {
  /** percent of one core */
  platform: number;
  postgres: number;
  /** percent of the whole machine busy */
  machine: number;
}

/** CPU used between start and stop, as percentages (PostgreSQL: the backends of `database`; none for null). */
function measureCpu(pid: number | null, database: string | null): { stop(): Cpu } {
  const t0 = performance.now();
  const p0 = pid === null ? 0 : cpuTicksOf(pid);
  const postgres = database === null ? { stop: () => 0 } : samplePostgresTicks(database);
  const m0 = machineTicks();
  return {
    stop() {
      const seconds = (performance.now() - t0) / 1000;
      const m1 = machineTicks();
      const pct = (ticks: number) => (ticks / TICKS_PER_SECOND / seconds) * 100;
      return {
        platform: pid === null ? 0 : pct(cpuTicksOf(pid) - p0),
        postgres: pct(postgres.stop()),
        machine: ((m1.busy - m0.busy) / Math.max(1, m1.total - m0.total)) * 100,
      };
    },
  };
}

/** The load generator's own CPU per answered request. */
const generatorPerTransfer = (r: LedgerLoadResult) => {
  const answers = Object.values(r.codes).reduce((a, n) => a + n, 0);
  return answers > 0 ? `${(r.generatorCpuMs / answers).toFixed(2)} ms` : '?';
};

/** CPU milliseconds per transfer from a percentage of a core and a rate. */
const perTransfer = (percentOfCore: number, perSecond: number) => (perSecond > 0 ? `${((percentOfCore / 100) * 1000 / perSecond).toFixed(2)} ms` : '?');

interface Memory {
  peakMb: number;
  averageMb: number;
  samples: number;
}

/** Samples the RSS of `pid` every 250 ms until stopped. */
function sampleMemory(pid: number): { stop(): Memory } {
  const samples: number[] = [];
  const take = () => {
    const mb = rssMb(pid);
    if (mb !== null) samples.push(mb);
  };
  take();
  const timer = setInterval(take, 250);
  return {
    stop() {
      clearInterval(timer);
      take();
      const peakMb = Math.max(0, ...samples);
      const averageMb = samples.length ? samples.reduce((a, b) => a + b, 0) / samples.length : 0;
      return { peakMb, averageMb, samples: samples.length };
    },
  };
}

// ---- pgbench -----------------------------------------------------------------------------------

function findPgbench(): string | null {
  if (existsSync('/usr/bin/pgbench')) return '/usr/bin/pgbench';
  try {
    for (const version of readdirSync('/usr/lib/postgresql').sort().reverse()) {
      const path = `/usr/lib/postgresql/${version}/bin/pgbench`;
      if (existsSync(path)) return path;
    }
  } catch {
    // no PostgreSQL installation
  }
  return null;
}

const SPREAD_SQL = `\\set a random(1, :naccounts)
\\set k random(1, :naccounts - 1)
\\set b 1 + (:a - 1 + :k) % :naccounts
`;
// the hot account is 1: from it to a random other one, or back (d picks the direction)
const HOT_SQL = `\\set o random(2, :naccounts)
\\set d random(0, 1)
\\set a 1 + :d * (:o - 1)
\\set b :o - :d * (:o - 1)
`;
const TRANSFER_SQL = `BEGIN;
SELECT id FROM bench_accounts WHERE id IN (least(:a::int, :b::int), greatest(:a::int, :b::int)) ORDER BY id FOR UPDATE;
UPDATE bench_accounts SET balance = balance - 1 WHERE id = :a::int;
UPDATE bench_accounts SET balance = balance + 1 WHERE id = :b::int;
INSERT INTO bench_journal (from_id, to_id, amount) VALUES (:a::int, :b::int, 1);
COMMIT;
`;


type RawVariant = 'spread' | 'hot';

interface PgbenchFigures {
  /** transfers per second by variant and client count */
  rate: Record<RawVariant, Map<number, number>>;
  /** CPU of PostgreSQL's processes and of the machine during each run */
  cpu: Record<RawVariant, Map<number, Cpu>>;
  failed: string[];
}

/** The best rate of a run by client count, and the count it was reached at. */
function best(rates: Map<number, number>): { count: number; rate: number } {
  let top = { count: 0, rate: 0 };
  for (const [count, rate] of rates) if (rate > top.rate) top = { count, rate };
  return top;
}

/**
 * One pgbench phase on `url` with `script` (a warm-up second first), CPU sampled while its
 * backends live: transfers per second, or a failure line.
 */
async function pgbenchPhase(
  pgbench: string,
  file: string,
  define: string,
  url: string,
  database: string,
  clients = connections,
): Promise<{ tps: number; cpu: Cpu } | { failure: string; cpu: Cpu }> {
  const run = (s: number) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(pgbench, ['-n', '-f', file, '-c', String(clients), '-j', '2', '-T', String(s), '-M', 'prepared', '-D', define, url]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('close', (status) => done({ status, stdout, stderr }));
    });
  await run(1); // warm-up
  const cpuMeter = measureCpu(null, database);
  const result = await run(seconds);
  const cpu = cpuMeter.stop();
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(result.stdout) ?? /tps = ([\d.]+)/.exec(result.stdout);
  if (result.status !== 0 || !tps) return { failure: `pgbench exited ${result.status}: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`, cpu };
  const failed = /number of failed transactions: (\d+)/.exec(result.stdout);
  if (failed && Number(failed[1]) > 0) return { failure: `${failed[1]} failed transactions`, cpu };
  return { tps: Number(tps[1]), cpu };
}

function emptyPgbenchFigures(): PgbenchFigures {
  return { rate: { spread: new Map(), hot: new Map() }, cpu: { spread: new Map(), hot: new Map() }, failed: [] };
}

async function runPgbench(pgbench: string, workDir: string): Promise<PgbenchFigures> {
  const { name, url, drop } = await createBenchDatabase('pgbench');
  try {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`
        create table bench_accounts (id integer primary key, balance bigint not null);
        create table bench_journal (id bigserial primary key, from_id integer not null, to_id integer not null, amount bigint not null,
          created_at timestamptz not null default now());
        insert into bench_accounts select g, 100000000 from generate_series(1, ${accountCount}) g;`);
      await client.query('vacuum analyze bench_accounts');
    } finally {
      await client.end();
    }
    const scripts = { spread: SPREAD_SQL + TRANSFER_SQL, hot: HOT_SQL + TRANSFER_SQL };
    const figures = emptyPgbenchFigures();
    for (const variant of ['spread', 'hot'] as const) {
      const file = join(workDir, `pgbench-${variant}.sql`);
      writeFileSync(file, scripts[variant]);
      for (const clients of connectionCounts) {
        // asynchronous, so the CPU of pgbench's backends can be sampled while they live
        const phase = await pgbenchPhase(pgbench, file, `naccounts=${accountCount}`, url, name, clients);
        figures.cpu[variant].set(clients, phase.cpu);
        if ('failure' in phase) figures.failed.push(`${variant}, ${clients} clients: ${phase.failure}`);
        else figures.rate[variant].set(clients, phase.tps);
      }
    }
    // the raw SQL keeps its books too: the balances still sum to what they started with
    const check = new pg.Client({ connectionString: url });
    await check.connect();
    try {
      const { rows } = await check.query<{ total: string }>('select sum(balance)::text as total from bench_accounts');
      const expected = BigInt(accountCount) * 100_000_000n;
      if (BigInt(rows[0]!.total) !== expected) figures.failed.push(`pgbench balances sum to ${rows[0]!.total}, expected ${expected}`);
    } finally {
      await check.end();
    }
    return figures;
  } finally {
    await drop();
  }
}

// ---- pgbench calling the platform's one statement -------------------------------------------------

interface FunctionFigures {
  spreadOne: number;
  spreadMany: number;
  hot: number;
  cpu: Partial<Record<'spreadOne' | 'spreadMany' | 'hot', Cpu>>;
  failed: string[];
}

/**
 * The platform's transfer statement (ledger_transfer_now, migration 0009) run by pgbench on the
 * bench's database after the HTTP runs, with the same customers, accounts and amount: what the
 * database does per transfer without the platform, its HTTP and its pool. Each pgbench client acts
 * as one load customer (bench_fn_clients: its user, customer and contiguous account ids).
 */
async function runFunctionPgbench(pgbench: string, workDir: string, { name: database, url }: { name: string; url: string }, prepared: Prepared): Promise<FunctionFigures> {
  const figures: FunctionFigures = { spreadOne: 0, spreadMany: 0, hot: 0, cpu: {}, failed: [] };
  const contiguous = (f: LedgerFixture) => f.accountIds.every((id, i) => id === f.accountIds[0]! + i);
  if (!contiguous(prepared.main) || !prepared.many.every(contiguous)) {
    figures.failed.push('the load accounts are not contiguous ids: no function figures');
    return figures;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create table bench_fn_clients (variant text, client integer, user_id integer, customer_id integer, first_account integer, accounts integer)');
    const rows = [
      ...Array.from({ length: connections }, (_, i) => ['one', i, prepared.main]),
      ...Array.from({ length: connections }, (_, i) => ['many', i, prepared.many[i % prepared.many.length]!]),
    ] as [string, number, LedgerFixture][];
    for (const [variant, i, f] of rows) {
      await client.query('insert into bench_fn_clients values ($1, $2, $3, $4, $5, $6)', [variant, i, f.userId, f.customerId, f.accountIds[0], f.accountIds.length]);
    }
  } finally {
    await client.end();
  }
  const call = (variant: string, from: string, to: string) => `\\set key random(1, 9000000000000000)
select ledger_transfer_now(json_build_object('userId', c.user_id, 'customerId', c.customer_id, 'method', 'transferBetweenAccounts',
  'key', 'pgbench-' || :client_id || '-' || :key, 'requestHash', 'pgbench', 'kind', 'betweenAccounts',
  'from', ${from}, 'to', ${to}, 'currency', 'EUR', 'amountMinor', '1', 'exponent', 2,
  'requiredFlags', json_build_array('own.betweenAccounts'), 'params', json_build_object('to', 'toAccount', 'amount', 'toAmount', 'currency', 'currency'),
  'createdAt', now()::text, 'expiresAt', (now() + interval '15 min')::text, 'day', (now() at time zone 'UTC')::date::text)::jsonb) -> 'answer' ->> 'status'
from bench_fn_clients c where c.variant = '${variant}' and c.client = :client_id;
`;
  const spreadPick = `\\set a random(0, :n - 1)
\\set k random(1, :n - 1)
\\set b (:a + :k) % :n
`;
  const hotPick = `\\set o random(1, :n - 1)
\\set d random(0, 1)
\\set a :d * :o
\\set b :o - :d * :o
`;
  const scripts = {
    spreadOne: { n: prepared.main.accountIds.length, text: spreadPick + call('one', 'c.first_account + :a', 'c.first_account + :b') },
    spreadMany: { n: prepared.many[0]!.accountIds.length, text: spreadPick + call('many', 'c.first_account + :a', 'c.first_account + :b') },
    hot: { n: prepared.main.accountIds.length, text: hotPick + call('one', 'c.first_account + :a', 'c.first_account + :b') },
  };
  for (const variant of ['spreadOne', 'spreadMany', 'hot'] as const) {
    const file = join(workDir, `pgbench-fn-${variant}.sql`);
    writeFileSync(file, scripts[variant].text);
    const phase = await pgbenchPhase(pgbench, file, `n=${scripts[variant].n}`, url, database);
    figures.cpu[variant] = phase.cpu;
    if ('failure' in phase) figures.failed.push(`${variant}: ${phase.failure}`);
    else figures[variant] = phase.tps;
  }
  return figures;
}

// ---- the platform's HTTP load on one database --------------------------------------------------

interface Prepared {
  /** the spread/hot customer with `accountCount` accounts (the first funded for the hot load) */
  main: LedgerFixture;
  /** SPREAD_CUSTOMERS customers sharing `accountCount` accounts */
  many: LedgerFixture[];
  before: Awaited<ReturnType<typeof eurTotals>>;
}

async function prepare(database: OpenDatabase): Promise<Prepared> {
  await seedDatabase(database.db, { demo: false });
  const main = await createLedgerFixture(database.db, { accounts: accountCount, fundEach: '100.00', fundFirst: '100000.00', firstName: 'Load' });
  const many: LedgerFixture[] = [];
  const each = Math.max(2, Math.ceil(accountCount / SPREAD_CUSTOMERS));
  for (let i = 0; i < SPREAD_CUSTOMERS; i++) many.push(await createLedgerFixture(database.db, { accounts: each, fundEach: '100.00', firstName: `Load${i + 1}` }));
  return { main, many, before: await eurTotals(database.db) };
}

type Kind = 'spreadOne' | 'spreadMany' | 'hot';

interface Phase {
  kind: Kind;
  connections: number;
  label: string;
  result: LedgerLoadResult;
  memory: Memory;
  cpu: Cpu;
}

interface DatabaseRun {
  phases: Phase[];
  idleMb: number | null;
  overall: Memory;
  problems: string[];
  transfers: number;
}

async function runHttp(platform: Started, prepared: Prepared, database: string | null): Promise<Omit<DatabaseRun, 'problems'>> {
  const pid = platformPid(platform.child.pid!);
  if (pid === null) console.log('  warning: the platform node process was not found; no memory figures');
  const idleMb = pid === null ? null : rssMb(pid);
  const customerOf = async (f: LedgerFixture): Promise<LedgerLoadCustomer> => ({
    token: await signInSimple(platform.origin, f.email, f.password),
    accountIds: f.accountIds,
  });
  const main = await customerOf(prepared.main);
  const many: LedgerLoadCustomer[] = [];
  for (const f of prepared.many) many.push(await customerOf(f));
  const base = { origin: platform.origin, amount: AMOUNT };
  let transfers = 0;
  const phase = async (kind: Kind, label: string, options: Pick<LedgerLoadOptions, 'mode' | 'customers' | 'connections'>): Promise<Phase> => {
    const warm = await ledgerLoad({ ...base, ...options, durationMs: WARMUP_MS });
    transfers += warm.transfers;
    const sampler = pid === null ? null : sampleMemory(pid);
    const cpuMeter = measureCpu(pid, database);
    const result = await ledgerLoad({ ...base, ...options, durationMs: seconds * 1000 });
    const cpu = cpuMeter.stop();
    const memory = sampler ? sampler.stop() : { peakMb: 0, averageMb: 0, samples: 0 };
    transfers += result.transfers;
    return { kind, connections: options.connections, label: `${label}, ${options.connections} connections`, result, memory, cpu };
  };
  const phases: Phase[] = [];
  for (const n of connectionCounts) {
    phases.push(
      await phase('spreadOne', `spread, 1 customer x ${prepared.main.accountIds.length} accounts`, { mode: 'spread', customers: [main], connections: n }),
      await phase('spreadMany', `spread, ${many.length} customers x ${prepared.many[0]!.accountIds.length} accounts`, { mode: 'spread', customers: many, connections: n }),
      await phase('hot', 'hot: every transfer to or from one account', { mode: 'hot', customers: [main], connections: n }),
    );
  }
  const peaks = phases.map((p) => p.memory);
  const overall: Memory = {
    peakMb: Math.max(0, ...peaks.map((m) => m.peakMb)),
    averageMb: peaks.reduce((a, m) => a + m.averageMb * m.samples, 0) / Math.max(1, peaks.reduce((a, m) => a + m.samples, 0)),
    samples: peaks.reduce((a, m) => a + m.samples, 0),
  };
  return { phases, idleMb, overall, transfers };
}

/** After the platform stopped: the books of the database. */
async function verify(database: OpenDatabase, prepared: Prepared, answered: number): Promise<string[]> {
  const problems = await reconcile(database.db);
  const after = await eurTotals(database.db);
  line('  books after the run', `customers ${eur(after.customerBalances)}, provider legs ${eur(after.providerLegs)}, legs sum ${eur(after.legs)}`);
  if (after.legs !== 0n) problems.push(`the EUR legs sum to ${after.legs}, not 0`);
  if (after.customerBalances !== prepared.before.customerBalances) {
    problems.push(`the customers' EUR total changed from ${eur(prepared.before.customerBalances)} to ${eur(after.customerBalances)}`);
  }
  if (after.providerLegs !== prepared.before.providerLegs) problems.push(`the provider's EUR legs changed by ${after.providerLegs - prepared.before.providerLegs}`);
  const posted = after.transfers - prepared.before.transfers;
  if (posted !== answered) problems.push(`${posted} transfers were posted but ${answered} were answered '00'`);
  line('  transfers posted (warm-ups included)', `${posted}, '00' answers ${answered}`);
  return problems;
}

function report(run: DatabaseRun, label: string): void {
  for (const p of run.phases) {
    const r = p.result;
    const others = Object.entries(r.codes).filter(([c]) => c !== '00');
    line(
      `  ${p.label}`,
      `${r.transfersPerSecond.toFixed(0)} transfers/s (p50 ${r.latencyP50Ms.toFixed(1)} ms, p99 ${r.latencyP99Ms.toFixed(1)} ms)` +
        (others.length ? `, non-00: ${others.map(([c, n]) => `${c} x${n}`).join(', ')}` : '') +
        (r.errors ? `, ${r.errors} socket errors` : ''),
    );
  }
  for (const p of run.phases) {
    const tps = p.result.transfersPerSecond;
    line(
      `    CPU, ${p.label}`,
      `platform ${p.cpu.platform.toFixed(0)}% of a core (${perTransfer(p.cpu.platform, tps)} per transfer), PostgreSQL ${p.cpu.postgres.toFixed(0)}% (${perTransfer(p.cpu.postgres, tps)}), ` +
        `load generator ${generatorPerTransfer(p.result)}, machine ${p.cpu.machine.toFixed(0)}% busy`,
    );
  }
  line(`  memory of the platform (${label})`, `idle ${run.idleMb?.toFixed(0) ?? '?'} MB; under load peak ${run.overall.peakMb.toFixed(0)} MB, average ${run.overall.averageMb.toFixed(0)} MB`);
  for (const p of run.phases) line(`    ${p.label}`, `peak ${p.memory.peakMb.toFixed(0)} MB, average ${p.memory.averageMb.toFixed(0)} MB (${p.memory.samples} samples)`);
  if (run.problems.length === 0) line('  books', 'balanced: reconcile() clean, EUR total unchanged, every 00 posted once');
  else {
    console.log('  !!!!!!!! THE BOOKS DO NOT BALANCE !!!!!!!!');
    for (const problem of run.problems) console.log(`  !!! ${problem}`);
  }
}

function ratio(label: string, http: number, raw: number, goal = true): void {
  if (!raw) return line(label, 'no pgbench figure');
  const r = http / raw;
  line(label, goal ? `${r.toFixed(2)} (goal >= ${RATIO_GOAL}: ${r >= RATIO_GOAL ? 'met' : 'NOT met'})` : r.toFixed(2));
}

const KIND_LABELS: Record<Kind, string> = { spreadOne: 'spread (1 customer)', spreadMany: `spread (${SPREAD_CUSTOMERS} customers)`, hot: 'hot' };
const rawVariantOf = (kind: Kind): RawVariant => (kind === 'hot' ? 'hot' : 'spread');

/**
 * `what` (HTTP, or the platform's one statement) against pgbench's raw transfer: at each client
 * count both ran, then each at its best count (the goal's line).
 */
function ratios(what: string, rates: Map<Kind, Map<number, number>>, raw: PgbenchFigures, goal = true): void {
  for (const [kind, byCount] of rates) {
    const rawRates = raw.rate[rawVariantOf(kind)];
    for (const [n, rate] of byCount) if (rawRates.has(n)) ratio(`  ratio ${what} / pgbench, ${KIND_LABELS[kind]}, ${n} each`, rate, rawRates.get(n)!, false);
    const mine = best(byCount);
    const theirs = best(rawRates);
    ratio(`  ratio ${what} / pgbench, ${KIND_LABELS[kind]}, each at its best (${mine.count} / ${theirs.count})`, mine.rate, theirs.rate, goal);
  }
}

/** The HTTP rates of a run by kind and connection count. */
function httpRates(run: DatabaseRun): Map<Kind, Map<number, number>> {
  const rates = new Map<Kind, Map<number, number>>();
  for (const p of run.phases) {
    if (!rates.has(p.kind)) rates.set(p.kind, new Map());
    rates.get(p.kind)!.set(p.connections, p.result.transfersPerSecond);
  }
  return rates;
}

// ---- the run -----------------------------------------------------------------------------------

const workDir = mkdtempSync(join(tmpdir(), 'wlb-ledger-bench-'));
let failed = false;
try {
  console.log(`\n== Ledger transfers: HTTP API vs pgbench (${connectionCounts.join(' and ')} connections, ${seconds} s each, ${accountCount} accounts, ${AMOUNT} EUR each) ==`);
  let serverUp = true;
  try {
    await adminQuery('select 1');
  } catch (err) {
    serverUp = false;
    console.log(`  PostgreSQL at ${pgServer} is not reachable (${(err as Error).message}): pgbench and the PostgreSQL run are skipped`);
  }
  const pgbench = findPgbench();
  if (!pgbench) console.log('  pgbench not found (apt-get install -y postgresql-client): no raw SQL figure');

  let raw = emptyPgbenchFigures();
  if (serverUp && pgbench) {
    console.log('\n-- (b) pgbench: lock two accounts in id order, two UPDATEs, one INSERT --');
    raw = await runPgbench(pgbench, workDir);
    const labels: Record<RawVariant, string> = { spread: 'spread (random distinct pairs)', hot: 'hot (every transfer to or from account 1)' };
    for (const variant of ['spread', 'hot'] as const) {
      for (const [n, rate] of raw.rate[variant]) line(`  ${labels[variant]}, ${n} clients`, `${rate.toFixed(0)} transfers/s`);
    }
    for (const variant of ['spread', 'hot'] as const) {
      for (const [n, cpu] of raw.cpu[variant]) {
        const rate = raw.rate[variant].get(n);
        if (rate) line(`    CPU, ${variant}, ${n} clients`, `PostgreSQL ${cpu.postgres.toFixed(0)}% of a core (${perTransfer(cpu.postgres, rate)} per transfer), machine ${cpu.machine.toFixed(0)}% busy`);
      }
    }
    for (const f of raw.failed) console.log(`  warning: ${f}`);
  }

  const runOn = async (label: string, databaseName: string | null, open: () => Promise<OpenDatabase>, start: () => Promise<Started>): Promise<DatabaseRun & { prepared: Prepared }> => {
    const database = await open();
    let prepared: Prepared;
    try {
      prepared = await prepare(database);
    } finally {
      await database.close();
    }
    const platform = await start();
    const pid = platformPid(platform.child.pid!);
    let http: Omit<DatabaseRun, 'problems'>;
    try {
      http = await runHttp(platform, prepared, databaseName);
    } finally {
      await platform.stop();
      // stop() waits for npx; the platform's own node process closes its database after it
      if (pid !== null) await waitForExit(pid);
    }
    const reopened = await open();
    try {
      const run = { ...http, problems: await verify(reopened, prepared, http.transfers) };
      if (run.problems.length) failed = true;
      report(run, label);
      return { ...run, prepared };
    } finally {
      await reopened.close();
    }
  };

  if (serverUp) {
    console.log(`\n-- (a) HTTP on PostgreSQL (pool of ${poolMax}) --`);
    const database = await createBenchDatabase('ledger');
    const { name, url } = database;
    try {
      const run = await runOn('PostgreSQL', name, () => openPostgres(url, 4), () => startPlatform(PORT, url, { env: { DATABASE_POOL_MAX: String(poolMax) }, readyPath: READY_PATH }));
      ratios('HTTP', httpRates(run), raw);
      if (pgbench) {
        console.log("\n-- (a') pgbench calling the platform's one statement (ledger_transfer_now) on the same database: its SQL without HTTP --");
        const fn = await runFunctionPgbench(pgbench, workDir, database, run.prepared);
        for (const f of fn.failed) console.log(`  warning: ${f}`);
        line('  spread, 1 customer', `${fn.spreadOne.toFixed(0)} transfers/s (PostgreSQL ${perTransfer(fn.cpu.spreadOne?.postgres ?? 0, fn.spreadOne)} CPU per transfer)`);
        line(`  spread, ${SPREAD_CUSTOMERS} customers`, `${fn.spreadMany.toFixed(0)} transfers/s (PostgreSQL ${perTransfer(fn.cpu.spreadMany?.postgres ?? 0, fn.spreadMany)})`);
        line('  hot', `${fn.hot.toFixed(0)} transfers/s (PostgreSQL ${perTransfer(fn.cpu.hot?.postgres ?? 0, fn.hot)})`);
        ratios('function', new Map((['spreadOne', 'spreadMany', 'hot'] as const).map((kind) => [kind, new Map([[connections, fn[kind]]])])), raw, false);
        const check = await openPostgres(url, 2);
        try {
          // fresh statistics after tens of thousands of rows (reconcile's plans depend on them)
          await check.db.execute(sql`analyze`);
          const problems = await reconcile(check.db);
          if (problems.length) {
            failed = true;
            console.log('  !!!!!!!! THE BOOKS DO NOT BALANCE after the function runs !!!!!!!!');
            for (const problem of problems) console.log(`  !!! ${problem}`);
          } else line('  books after the function runs', 'balanced: reconcile() clean');
        } finally {
          await check.close();
        }
      }
    } finally {
      await database.drop();
    }
  }

  if (process.env.BENCH_SKIP_PGLITE) {
    console.log('\n-- (c) HTTP on PGlite: skipped (BENCH_SKIP_PGLITE) --');
  } else {
    console.log('\n-- (c) HTTP on PGlite (embedded, one connection) --');
    const dataDir = join(workDir, 'pglite');
    const run = await runOn('PGlite', null, () => openPglite(dataDir), () => startPlatform(PORT, undefined, { dataDir, readyPath: READY_PATH }));
    // (the goal is PostgreSQL's: PGlite is one connection in the platform's own process)
    ratios('HTTP on PGlite', httpRates(run), raw, false);
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
if (failed) {
  console.log('\n!!!!!!!! LEDGER BENCH: THE BOOKS DO NOT BALANCE (see above) !!!!!!!!');
  process.exitCode = 1;
}
