/**
 * `npm run mutation`: StrykerJS mutates the machines and their rules and runs the model-based and
 * rule tests against each mutant (vitest.stryker.config.ts); a surviving mutant is a change of
 * behaviour no test noticed. A report, not part of `npm test`: docs/mutation/<machine>.json (the
 * mutation-testing-report schema, read by the audit pack) and reports/mutation/<machine>.html.
 *
 * Mutated: machines/**\/*.machine.ts (the charts: guards, actions, targets, context updates) and
 * machines/**\/*.rules.ts (the validation and request rules the machines call). Not mutated: the
 * *.select.ts view selectors (how a snapshot is shown, proven by the view tests rather than the
 * chart's), and the small helpers beside the machines (idempotency-key.ts, link-code.ts,
 * access-token.ts), which have their own unit tests.
 *
 * One machine at a time (all of them take more than ten hours on two cores):
 * `MUTATE_MACHINE=confirm-action npm run mutation` mutates machines/confirm-action/ only and writes
 * docs/mutation/confirm-action.json (committed; the pack reads every file there).
 */
import { existsSync, readdirSync } from 'node:fs';

const machine = process.env.MUTATE_MACHINE;
if (machine === undefined) throw new Error('npm run mutation mutates one machine at a time: MUTATE_MACHINE=<a directory of machines/> npm run mutation');
if (!/^[a-z][a-z-]*$/.test(machine)) throw new Error(`MUTATE_MACHINE names a directory of machines/, not ${machine}`);
if (!existsSync(`machines/${machine}`)) throw new Error(`no machines/${machine}`);

/**
 * A machine's definition runs when its module loads (setup(...).createMachine(...)), so nearly all
 * of its mutants are "static": the mutant must be active before the module is imported. Stryker
 * 9.6.1's vitest runner keeps one Vitest for the whole run and activates a static mutant too late
 * in some runs (stryker-js #6144, #6209: `setup({})` killed in a run of 8 mutants, survived in a
 * run of 96), so its scores cannot be trusted. The runs therefore use Stryker's command runner:
 * each mutant gets a fresh `vitest related` process over the files that import the
 * machine, with the mutant named in __STRYKER_ACTIVE_MUTANT__ before anything loads (slower: a
 * Vitest start per mutant, but every mutant is tested as it would run).
 */
const machineFiles = readdirSync(`machines/${machine}`).filter((f) => /\.(machine|rules)\.ts$/.test(f)).map((f) => `machines/${machine}/${f}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'command',
  // --bail=1: a mutant is killed by its first failing test; the rest of the run would only confirm it
  // MODEL_PATHS=all: every model path (CI runs the fewest covering each transition: tests/model/coverage.ts)
  commandRunner: { command: `MODEL_PATHS=all npx vitest related --run --bail=1 -c vitest.stryker.config.ts --reporter=dot ${machineFiles.join(' ')}` },
  concurrency: 2,
  plugins: ['./stryker-ignorers.mjs'],
  // descriptions, spec references, type markers and placeholder actors carry no behaviour
  ignorers: ['machine-documentation'],
  mutate: machineFiles,
  // 'off': every mutant runs the test files that import its machine (vitest `related`); 'perTest'
  // made Stryker 9.6.1 activate static mutants after their module had loaded (stryker-js #6144)
  coverageAnalysis: 'off',
  reporters: ['json', 'html', 'clear-text', 'progress'],
  jsonReporter: { fileName: `docs/mutation/${machine}.json` },
  htmlReporter: { fileName: `reports/mutation/${machine}.html` },
  // the sandbox is a copy of the project: leave out build output and local data
  ignorePatterns: ['dist', 'dist-server', 'data', 'reports', 'test-results', 'playwright-report', 'screenshots', '.tmp', '*.log'],
  tempDirName: '.stryker-tmp',
  // Stryker rewrites the tsconfig's extends/references for its sandbox through the TypeScript JS
  // API, which TypeScript 7 (the native compiler) no longer has; ours has neither, so that step is
  // skipped by naming a file that does not exist (the real tsconfig.json is still copied as is).
  tsconfigFile: 'tsconfig.stryker-skip.json',
  cleanTempDir: 'always',
  // model tests wait up to 10 s for what a mutant may never show
  timeoutMS: 15_000,
};
