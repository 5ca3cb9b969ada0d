/** Starts the platform (or the bare reference) as a child process for a benchmark and stops it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Started {
  origin: string;
  child: ChildProcess;
  stop(): Promise<void>;
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

export async function startProcess(script: string, port: number, env: Record<string, string>, readyPath: string): Promise<Started> {
  const child = spawn('npx', ['tsx', script], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
    // its own process group: npx -> tsx -> node, and stop() must end all of them
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
}

/** The platform on a fresh embedded database (or DATABASE_URL when given), logging warnings only. */
export async function startPlatform(port: number, databaseUrl?: string, options: PlatformOptions = {}): Promise<Started> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'wlb-bench-'));
  const started = await startProcess(
    'server/main.ts',
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
