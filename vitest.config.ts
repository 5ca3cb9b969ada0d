import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/**
 * Test projects:
 * - unit: pure rules (node)
 * - ui: component tests through the real views (jsdom); ui-isolated: the files among them that
 *   replace a module or need modules of their own (UI_ISOLATED)
 * - model: the model-based tests, paths generated from each chart, through the real views (jsdom)
 * - server-pglite: platform integration tests on the embedded database (server-pglite-isolated: the
 *   files among them that replace a module)
 * - server-pg (and server-pg-isolated): the server suites whose PostgreSQL run proves something the
 *   PGlite run cannot (PG_SUITES below), only when DATABASE_URL is set (CI sets it); SERVER_PG=all
 *   runs every server suite on PostgreSQL too
 */
/** server test files that replace a module (vi.mock): they need modules of their own */
const SERVER_MOCKING = ['tests/server/sign-in-throttle.test.ts'];
/**
 * Component test files that run isolated, in ui-isolated: those that replace a module (vi.mock),
 * and those that failed after other files in a shared worker (what an earlier file left in the
 * app's modules: the UI language, a cache).
 */
const UI_ISOLATED = [
  'tests/ui/inspector.test.tsx',
  'tests/ui/preapproved-payments.test.tsx',
  'tests/ui/session-controls.test.tsx',
  'tests/ui/verification-platform.test.tsx',
  // session 18: each failed once after other files in a shared worker (an app left mounted by an
  // earlier file: its verification banner, its acting company); the file that leaves it is not found yet
  'tests/ui/confirm-card-view.test.tsx',
  'tests/ui/demo-banner.test.tsx',
  'tests/ui/recovery-routes.test.tsx',
  'tests/ui/statements.test.tsx',
];
/**
 * Component test files that run the real platform (PGlite) in jsdom, isolated, with the
 * environment's seams the platform needs there (tests/ui/platform-seams.ts: it replaces node:url).
 */
const UI_PLATFORM = [
  'tests/ui/admin-review-platform.test.tsx',
  'tests/ui/cards-platform.test.tsx',
  'tests/ui/company-platform.test.tsx',
  'tests/ui/global-pay-batch-platform.test.tsx',
  'tests/ui/global-payee-platform.test.tsx',
  'tests/ui/profile-due-diligence.test.tsx',
  'tests/ui/profile-platform.test.tsx',
];

/**
 * The server suites that also run on PostgreSQL. The rule: a suite runs on PostgreSQL when it tests
 * what differs there from PGlite (one connection in one process, every transaction in turn):
 * - tests that run only on PostgreSQL or differ there: two instances on one database, LISTEN/NOTIFY,
 *   the database cut off, a process killed, a production start on a PostgreSQL database;
 * - concurrent calls, which PGlite serialises and PostgreSQL runs on several pooled connections at
 *   once: locks, serialization failures and deadlocks re-run, a counter counted once;
 * - the job queue (pg-boss: its own connections, SKIP LOCKED);
 * - the money paths' own SQL, which PostgreSQL runs as named prepared statements on pooled
 *   connections (server/db/prepared.ts) and answers through node-postgres's type parsers;
 * - the suites of the latest capability issues (business, cards, tax numbers and certification, the
 *   e-signature), whose "done when"
 *   asks for PostgreSQL runs, and reads whose SQL orders, groups and formats (history, reconcile).
 * Every other suite (the rules of a method, its answers and rights, the views' data) runs the same
 * statements through the same code on either driver: its PostgreSQL run repeated the PGlite run
 * (119 of server-pg's 320 s of file time on 2026-11-27, issue 12) and proved nothing more.
 * A new suite that is about one of the above belongs here; within one, the tests that are not run
 * on PostgreSQL too with `describe.runIf(sameOnEitherDriver)` (tests/server/harness.ts).
 * SERVER_PG=all runs every suite and test on both.
 */
const PG_SUITES = [
  // PostgreSQL-only tests, or a PostgreSQL variant of a test
  'tests/server/approvals.test.ts',
  'tests/server/auth.test.ts',
  'tests/server/db-outage.test.ts',
  'tests/server/db-template.test.ts',
  'tests/server/demo-mode.test.ts',
  'tests/server/devices.test.ts',
  'tests/server/job-queue-crash.test.ts',
  'tests/server/ledger-concurrency.test.ts',
  'tests/server/ledger-crash.test.ts',
  'tests/server/ledger-daily-shards.test.ts',
  'tests/server/outbox.test.ts',
  'tests/server/push.test.ts',
  // concurrent calls
  'tests/server/business-declarations.test.ts',
  'tests/server/idempotency.test.ts',
  'tests/server/ledger-batch.test.ts',
  'tests/server/recovery.test.ts',
  'tests/server/sign-in-throttle.test.ts',
  // the job queue
  'tests/server/funding.test.ts',
  'tests/server/history-export.test.ts',
  'tests/server/rails.test.ts',
  // the areas of the latest capability issues, whose "done when" asks for both drivers (business,
  // cards, tax numbers), and the reads whose SQL orders, groups and formats (history, reconcile)
  'tests/server/business-people.test.ts',
  'tests/server/business-registration.test.ts',
  'tests/server/business-rights.test.ts',
  'tests/server/card-payments.test.ts',
  'tests/server/card-transfers.test.ts',
  'tests/server/cards.test.ts',
  'tests/server/history.test.ts',
  'tests/server/reconcile.test.ts',
  'tests/server/registration.test.ts',
  'tests/server/tax-numbers.test.ts',
  'tests/server/tax-certification.test.ts',
  // the signature's row lock (signed once under concurrent presses) is PostgreSQL's own behaviour
  'tests/server/esign.test.ts',
  'tests/server/contracts.test.ts',
  // the revenue split: the PL/pgSQL posting core and the split functions on PostgreSQL too
  'tests/server/contract-split.test.ts',
  // the support desk: tickets' row locks and the SQL of the customer's status mapping
  'tests/server/support.test.ts',
  // notifications: the settings' upserts, the choice's once-only upsert and the centre's SQL on PostgreSQL too
  'tests/server/notifications.test.ts',
  // the money paths' SQL
  'tests/server/business-approvals.test.ts',
  'tests/server/global-pay.test.ts',
  'tests/server/ledger-one-statement.test.ts',
  'tests/server/mass.test.ts',
  'tests/server/transfers.test.ts',
];
for (const file of PG_SUITES) if (!existsSync(file)) throw new Error(`vitest.config.ts: PG_SUITES names ${file}, which does not exist`);
const pgAll = process.env.SERVER_PG === 'all';

/**
 * A driver's server suites, in two projects: most files share their modules within a worker (not
 * isolated: each file imported the whole platform again, 105 of the project's 194 s on PGlite,
 * issue 12); each file still starts its own platform on its own copy of the template database.
 * The files that replace a module run isolated, in `<name>-isolated`.
 */
const serverProjects = (name: string, driver: 'pglite' | 'pg') => {
  const every = driver === 'pglite' || pgAll;
  return [
    { name, include: every ? ['tests/server/**/*.test.ts'] : PG_SUITES.filter((f) => !SERVER_MOCKING.includes(f)), exclude: SERVER_MOCKING, isolate: false },
    { name: `${name}-isolated`, include: every ? SERVER_MOCKING : SERVER_MOCKING.filter((f) => PG_SUITES.includes(f)), exclude: [], isolate: true },
  ].map(({ name: projectName, include, exclude, isolate }) => ({
    extends: true as const,
    test: {
      name: projectName,
      include,
      exclude,
      isolate,
      environment: 'node',
      env: { TEST_DB: driver },
      // one migrated and seeded template database per driver for the run, copied per file
      globalSetup: ['tests/server/global-setup.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  }));
};

const uiProject = (name: string, include: string[], isolate: boolean, options: { exclude?: string[]; model?: boolean; platform?: boolean; seams?: boolean } = {}) => ({
  extends: true as const,
  test: {
    name,
    include,
    exclude: options.exclude ?? [],
    isolate,
    environment: 'jsdom',
    setupFiles: ['tests/ui/setup.ts', ...(options.model ? ['tests/model/setup.ts'] : []), ...(options.seams ? ['tests/ui/platform-seams.ts'] : [])],
    // the files that run the platform on PGlite copy its template database (no model test does)
    globalSetup: options.platform ? ['tests/server/global-setup.ts'] : [],
    // files that share their modules must not leave a stubbed global or variable to the next
    unstubGlobals: !isolate,
    unstubEnvs: !isolate,
    testTimeout: 30_000,
  },
});

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      // vitest's default is one worker fewer than the cores: a single worker on a 2-core machine, so
      // every file ran one after the other while most of a server file's time is spent waiting on
      // the database. Two workers more than the cores (at least four): a PostgreSQL file waits on
      // the server's own processes, a model test on its timers and its findBy* polls, and the extra
      // workers use that time; all projects share them (issue 12, 2026-11-26 on two cores: three
      // workers 446 s, four 408 s, at 1.85 cores busy). VITEST_MAX_WORKERS overrides.
      maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || Math.max(4, availableParallelism() + 2),
      projects: [
        // pure rules: the files share their modules within a worker (isolated, each imported them again)
        { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', isolate: false, unstubGlobals: true, unstubEnvs: true } },
        // The component and model tests share their modules within a worker (not isolated): each
        // file imported the whole app again (issue 12: 1 to 3 s a file); they start their own actors,
        // query clients and views. The component files that replace a module run in ui-isolated;
        // tests/model/setup.ts writes each model file's coverage.
        uiProject('ui', ['tests/ui/**/*.test.{ts,tsx}'], false, { exclude: [...UI_ISOLATED, ...UI_PLATFORM], platform: true }),
        uiProject('ui-isolated', UI_ISOLATED, true, { platform: true }),
        uiProject('ui-platform', UI_PLATFORM, true, { platform: true, seams: true }),
        uiProject('model', ['tests/model/**/*.test.{ts,tsx}'], false, { model: true }),
        ...serverProjects('server-pglite', 'pglite'),
        ...(process.env.DATABASE_URL ? serverProjects('server-pg', 'pg') : []),
      ],
    },
  }),
);
