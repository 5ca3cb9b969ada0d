/**
 * The platform as a real child process (`server/main.ts` under tsx, in a process group of its own)
 * for tests that must see the process itself: that it survives a fault, or what a kill leaves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pkcePair } from './harness.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface PlatformProcess {
  origin: string;
  child: ChildProcess;
  /** still running: neither exited nor killed */
  alive(): boolean;
  /** the last 20 000 characters the process wrote to stdout and stderr (for failure messages) */
  output(): string;
}

/** Starts server/main.ts with `env` over the test's environment, on PORT (0: it prints the one it got). */
export function startPlatformProcess(env: Record<string, string>, port = 0): Promise<PlatformProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: 'off',
      ...env,
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => (out = (out + chunk.toString()).slice(-20_000));
  child.stderr!.on('data', keep);
  child.stdout!.on('data', keep);
  const alive = () => child.exitCode === null && child.signalCode === null;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // never leave the group behind
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      reject(new Error(`the platform did not start within 90 s: ${out}`));
    }, 90_000);
    const onData = () => {
      const match = /Platform listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve({ origin: match[1]!, child, alive, output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the platform exited before listening (code ${code}, signal ${signal}):\n${out}`));
    });
  });
}

/** Ends the process group with `signal` and waits for the process to exit. */
export function endPlatformProcess(platform: PlatformProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (!platform.alive()) return resolve();
    platform.child.once('exit', () => resolve());
    try {
      process.kill(-platform.child.pid!, signal);
    } catch {
      resolve();
    }
  });
}

/** Signs a user of the simple flow (password only) in over HTTP; the access token. */
export async function signInSimple(origin: string, email: string, password: string): Promise<string> {
  const { challenge } = pkcePair();
  const response = await fetch(`${origin}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client: 'spa', username: email, password, codeChallenge: challenge }),
  });
  const body = (await response.json()) as { authFlow?: string; accessToken?: string };
  if (body.authFlow !== 'simple' || !body.accessToken) throw new Error(`sign-in of ${email} failed: ${response.status} ${JSON.stringify(body)}`);
  return body.accessToken;
}
