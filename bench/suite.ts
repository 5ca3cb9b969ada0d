/**
 * The test suite's time, as `npm test` spends it: the typecheck, one vitest run of every project
 * (unit, ui, server-pglite, and server-pg when DATABASE_URL is set, as .ci/run sets it), then the
 * e2e journeys (scripts/e2e.ts: build, then Playwright in Chromium). Prints the time per project and
 * the total against the budget: `npm test` at most 10 minutes, `.ci/run` (with PostgreSQL) at most 15.
 *
 * The vitest projects run together in one run (their files share the workers), so a project's time
 * is its span in that run, from its first file's start to its last file's end, next to the sum of
 * its files' own durations; the run's wall time is what counts toward the total.
 *
 * `npx tsx bench/suite.ts` (options: --no-e2e, --no-typecheck, vitest file filters; E2E_PORT, default 4517). A figure, not
 * a timed test: on a shared machine compare runs made one after the other.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestModule } from 'vitest/node';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const NPM_TEST_BUDGET_MS = 10 * 60_000;
export const CI_BUDGET_MS = 15 * 60_000;

export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
}

export interface ProjectTiming {
  name: string;
  files: number;
  tests: TestCounts;
  /** first file start to last file end, in the shared run */
  spanMs: number;
  /** the files' own durations added up */
  fileMs: number;
}

export interface StepTiming {
  ms: number;
  ok: boolean;
}

export interface SuiteResult {
  /** DATABASE_URL was set: the server suites ran on PostgreSQL too (the CI run) */
  withPostgres: boolean;
  typecheck: StepTiming | null;
  vitest: StepTiming & { projects: ProjectTiming[] };
  e2e: (StepTiming & { tests: TestCounts | null }) | null;
  totalMs: number;
  budgetMs: number;
}

export interface SuiteOptions {
  /** PostgreSQL for the server-pg project (default: process.env.DATABASE_URL) */
  databaseUrl?: string;
  typecheck?: boolean;
  e2e?: boolean;
  e2ePort?: number;
  /** print the table (default true) */
  print?: boolean;
  /** vitest file filters (default: every file) */
  filters?: string[];
}

/** Runs a command from the repository root, its output passed through; resolves with its time and output. */
function timed(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<StepTiming & { output: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.on('close', (code) => resolve({ ms: performance.now() - started, ok: code === 0, output }));
  });
}

/** One vitest run of every project, timing each project's files from a reporter. */
async function runVitest(databaseUrl: string | undefined, filters: string[] = []): Promise<SuiteResult['vitest']> {
  const previous = process.env.DATABASE_URL;
  if (databaseUrl) process.env.DATABASE_URL = databaseUrl;
  else delete process.env.DATABASE_URL;
  const byProject = new Map<string, ProjectTiming & { first: number; last: number }>();
  const startedAt = new Map<TestModule, number>();
  const timing: Reporter = {
    onTestModuleStart(module) {
      startedAt.set(module, Date.now());
    },
    onTestModuleEnd(module) {
      const name = module.project.name;
      let p = byProject.get(name);
      if (!p) {
        p = { name, files: 0, tests: { passed: 0, failed: 0, skipped: 0 }, spanMs: 0, fileMs: 0, first: Infinity, last: 0 };
        byProject.set(name, p);
      }
      const end = Date.now();
      p.files++;
      p.fileMs += module.diagnostic().duration;
      p.first = Math.min(p.first, startedAt.get(module) ?? end);
      p.last = Math.max(p.last, end);
      p.spanMs = p.last - p.first;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') p.tests.passed++;
        else if (state === 'failed') p.tests.failed++;
        else p.tests.skipped++;
      }
      // a file that failed outside its tests (an import, a hook) counts as a failure
      if (module.state() === 'failed' && [...module.children.allTests()].every((t) => t.result().state !== 'failed')) p.tests.failed++;
    },
  };
  const started = performance.now();
  const { startVitest } = await import('vitest/node');
  const vitest = await startVitest('test', filters, { watch: false, root: ROOT, reporters: ['default', timing] });
  const ms = performance.now() - started;
  const failed = !vitest || vitest.state.getCountOfFailedTests() > 0 || process.exitCode === 1;
  await vitest?.close();
  if (previous === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = previous;
  const order = ['unit', 'ui', 'ui-isolated', 'model', 'server-pglite', 'server-pglite-isolated', 'server-pg', 'server-pg-isolated'];
  const projects = [...byProject.values()]
    .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name))
    .map(({ first: _f, last: _l, ...p }) => p);
  const anyFailed = projects.some((p) => p.tests.failed > 0);
  return { ms, ok: !failed && !anyFailed, projects };
}

/** Playwright's list reporter summary: "12 passed", "1 failed", "2 skipped". */
function playwrightCounts(output: string): TestCounts | null {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const count = (word: string) => Number(plain.match(new RegExp(`(\\d+) ${word}\\b`))?.[1] ?? 0);
  const counts = { passed: count('passed'), failed: count('failed') + count('flaky'), skipped: count('skipped') + count('did not run') };
  return counts.passed + counts.failed + counts.skipped > 0 ? counts : null;
}

const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
const counts = (c: TestCounts | null) => (c ? `${c.passed} passed${c.failed ? `, ${c.failed} FAILED` : ''}${c.skipped ? `, ${c.skipped} skipped` : ''}` : '');

export function printSuite(result: SuiteResult): void {
  const row = (label: string, value: string, extra = '') => console.log(`${label.padEnd(30)} ${value.padStart(8)}  ${extra}`);
  console.log(`\n== test suite time (${result.withPostgres ? '.ci/run: PGlite and PostgreSQL' : 'npm test: PGlite'}) ==`);
  if (result.typecheck) row('typecheck', seconds(result.typecheck.ms), result.typecheck.ok ? '' : 'FAILED');
  row('vitest (all projects, one run)', seconds(result.vitest.ms), result.vitest.ok ? '' : 'FAILED');
  for (const p of result.vitest.projects) {
    row(`  ${p.name}`, seconds(p.spanMs), `span in the run; files' own time ${seconds(p.fileMs)}; ${p.files} files, ${counts(p.tests)}`);
  }
  if (result.e2e) row('e2e (build + Chromium journeys)', seconds(result.e2e.ms), `${counts(result.e2e.tests)}${result.e2e.ok ? '' : ' FAILED'}`);
  const share = (result.totalMs / result.budgetMs) * 100;
  row('total', minutes(result.totalMs), `budget ${minutes(result.budgetMs)} (${result.withPostgres ? '.ci/run' : 'npm test'}), ${share.toFixed(0)}% used`);
}

export async function measureSuite(options: SuiteOptions = {}): Promise<SuiteResult> {
  const databaseUrl = options.databaseUrl ?? (process.env.DATABASE_URL || undefined);
  const typecheck = options.typecheck === false ? null : await timed('npx', ['tsc', '-p', 'tsconfig.json']);
  const vitest = await runVitest(databaseUrl, options.filters);
  let e2e: SuiteResult['e2e'] = null;
  if (options.e2e !== false) {
    const env = { ...process.env, E2E_PORT: String(options.e2ePort ?? process.env.E2E_PORT ?? 4517) };
    const run = await timed('npx', ['tsx', 'scripts/e2e.ts'], env);
    e2e = { ms: run.ms, ok: run.ok, tests: playwrightCounts(run.output) };
  }
  const result: SuiteResult = {
    withPostgres: Boolean(databaseUrl),
    typecheck: typecheck && { ms: typecheck.ms, ok: typecheck.ok },
    vitest,
    e2e,
    totalMs: (typecheck?.ms ?? 0) + vitest.ms + (e2e?.ms ?? 0),
    budgetMs: databaseUrl ? CI_BUDGET_MS : NPM_TEST_BUDGET_MS,
  };
  if (options.print !== false) printSuite(result);
  return result;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argv = process.argv.slice(2);
  const args = new Set(argv);
  const filters = argv.filter((a) => !a.startsWith('--'));
  const result = await measureSuite({ e2e: !args.has('--no-e2e'), typecheck: !args.has('--no-typecheck'), filters });
  const ok = (result.typecheck?.ok ?? true) && result.vitest.ok && (result.e2e?.ok ?? true);
  process.exit(ok ? 0 : 1);
}
