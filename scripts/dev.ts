/**
 * `npm run dev`: the platform (embedded database in ./data, demo mode) on PLATFORM_PORT (3000)
 * and Vite with hot reload on 5173, proxying /api, /auth, /dev and the /graphql push socket to
 * the platform (vite.config.ts). Ctrl-C stops both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { demoSettings } from '../server/modules/platform/demo-mode.ts';

const platformPort = process.env.PLATFORM_PORT ?? '3000';
const children: ChildProcess[] = [];

function start(name: string, command: string, args: string[], env: Record<string, string>): void {
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code) => {
    console.log(`dev: ${name} exited (${code ?? 'signal'}); stopping`);
    stop(code ?? 0);
  });
  children.push(child);
}

function stop(code: number): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exit(code);
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

const platformEnv = { PORT: platformPort, NODE_ENV: 'development', DEV_MAILBOX: 'true' };
// Demo mode as the platform will see it (the embedded database unless DEMO_DATA=false; DATABASE_URL
// only with DEMO_DATA=true): Vite marks the pages it serves the same way (vite.config.ts).
const demo = demoSettings({ ...process.env, ...platformEnv });
start('platform', 'npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], platformEnv);
start('vite', 'npx', ['vite', '--port', '5173', '--strictPort'], {
  PLATFORM_PORT: platformPort,
  PLATFORM_DEMO: String(demo.demo),
  PLATFORM_DEV_MAILBOX: String(demo.devMailbox),
});
console.log(`dev: open http://127.0.0.1:5173/ (add ?inspect to watch the statecharts in the Stately inspector, ?inspect=local for the in-page one that works offline); mail and SMS at http://127.0.0.1:5173/dev/mailbox`);
