/**
 * Starts the platform (or the bare reference) as a child process for a benchmark and stops it.
 * The platform runs as in production: the built server (`node dist-server/main.js`, built once per
 * bench process by scripts/build-server.ts); BENCH_SERVER=tsx runs server/main.ts through tsx
 * instead (how it ran before the server build, for comparison).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildServer, SERVER_NODE_OPTIONS } from '../scripts/build-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Started {
  origin: string;
  /** the node process itself (no npx or shell in between): its pid is the one to measure */
  child: ChildProcess;
  pid: number;
  stop(): Promise<void>;
}

/** How the platform runs in a bench: 'built' (default, as `npm start`) or 'tsx'. */
export const serverMode: 'built' | 'tsx' = process.env.BENCH_SERVER === 'tsx' ? 'tsx' : 'built';
let built: Promise<void> | null = null;
/** node's options of the built server: those of `npm start`, or BENCH_SERVER_NODE_OPTIONS (space-separated) to compare */
const serverNodeOptions: readonly string[] =
  process.env.BENCH_SERVER_NODE_OPTIONS !== undefined ? process.env.BENCH_SERVER_NODE_OPTIONS.split(' ').filter(Boolean) : SERVER_NODE_OPTIONS;

/** The resident memory of a process in MB (VmRSS), or null once it is gone. */
export function rssMb(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** CPU time a process has used so far, user and system, in seconds (/proc/<pid>/stat; 100 ticks a second). */
export function cpuSeconds(pid: number): number {
  try {
    // the fields after the command's closing parenthesis: state is the 3rd field, utime the 14th, stime the 15th
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server's maintenance database: BENCH_PG_URL, else DATABASE_URL's server, else the local one. */
export const pgServer = (() => {
  if (process.env.BENCH_PG_URL) return process.env.BENCH_PG_URL;
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = '/postgres';
    return url.toString();
  }
  return 'postgres://postgres@127.0.0.1:5432/postgres';
})();

/** Bench databases are named with this prefix (BENCH_DB_PREFIX, default wlb_bench_) and the bench's pid. */
export const benchDbPrefix = process.env.BENCH_DB_PREFIX ?? 'wlb_bench_';

export async function adminQuery(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgServer });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** Is the PostgreSQL server reachable? */
export async function postgresReachable(): Promise<boolean> {
  try {
    await adminQuery('select 1');
    return true;
  } catch {
    return false;
  }
}

/** A fresh database on the server (dropped by the returned function), as a connection string. */
export async function createBenchDatabase(suffix: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${benchDbPrefix}${process.pid}_${suffix}`;
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(pgServer);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

async function waitFor(url: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // a process that exited (its port taken by another, say) must not pass for whatever answers there
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`the process for ${url} exited (${child.exitCode ?? child.signalCode})`);
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${url}`);
}

/**
 * Starts `script` (a .ts file through tsx, a .js file with plain node) in a node process of its own
 * with `env`, and waits until `readyPath` answers below 500.
 */
export async function startProcess(script: string, port: number, env: Record<string, string>, readyPath: string, nodeArgs: string[] = []): Promise<Started> {
  const args = [...nodeArgs, ...(script.endsWith('.ts') ? ['--import', 'tsx', script] : [script])];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
    // its own process group, so stop() ends whatever it started too
    detached: true,
  });
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitFor(origin + readyPath, 120_000, child);
  } catch (err) {
    // never leave the group behind
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    throw err;
  }
  return {
    origin,
    child,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        process.kill(-child.pid!, 'SIGTERM');
      }),
  };
}

export interface PlatformOptions {
  /**
   * An existing PGlite data directory (prepared beforehand: PGlite allows one process at a time);
   * it is kept when the platform stops. Without it, a fresh temporary directory removed on stop.
   */
  dataDir?: string;
  /** more environment for the platform (DATABASE_POOL_MAX...) */
  env?: Record<string, string>;
  /** the path answering below 500 once the platform listens (default /login, which needs the built app) */
  readyPath?: string;
  /** options of node itself (e.g. --cpu-prof) */
  nodeArgs?: string[];
}

/** The platform on a fresh embedded database (or DATABASE_URL when given), logging warnings only. */
export async function startPlatform(port: number, databaseUrl?: string, options: PlatformOptions = {}): Promise<Started> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'wlb-bench-'));
  if (serverMode === 'built') await (built ??= buildServer());
  const started = await startProcess(
    serverMode === 'built' ? 'dist-server/main.js' : 'server/main.ts',
    port,
    {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      LOG_LEVEL: 'warn',
      // measured as in production, which refuses demo mode (server/modules/platform/demo-mode.ts)
      NODE_ENV: 'production',
      DEMO_DATA: 'false',
      RATE_LIMIT_PER_MINUTE: 'off',
      ...options.env,
    },
    options.readyPath ?? '/login',
    // the built server with node's options of `npm start`
    serverMode === 'built' ? [...serverNodeOptions, ...(options.nodeArgs ?? [])] : options.nodeArgs,
  );
  const stop = started.stop;
  if (options.dataDir) return started;
  return { ...started, stop: async () => { await stop(); rmSync(dataDir, { recursive: true, force: true }); } };
}

function base64url(buffer: Buffer): string {
  return buffer.toString('base64url');
}

/** Signs a simple-flow user (a load customer of scripts/ledger-fixture.ts) in through the token service and returns the access token. */
export async function signInSimple(origin: string, username: string, password: string): Promise<string> {
  const verifier = base64url(randomBytes(96)).slice(0, 128);
  const challenge = base64url(createHash('sha256').update(verifier).digest());
  const response = await fetch(`${origin}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client: 'spa', username, password, codeChallenge: challenge }),
  });
  const body = (await response.json()) as { authFlow?: string; accessToken?: string; message?: string };
  if (!response.ok || body.authFlow !== 'simple' || !body.accessToken) {
    throw new Error(`sign-in failed: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.accessToken;
}
