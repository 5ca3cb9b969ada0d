import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/**
 * Test projects:
 * - unit: pure rules (node)
 * - ui: component tests through the real views (jsdom)
 * - model: the model-based tests, paths generated from each chart, through the real views (jsdom)
 * - server-pglite: platform integration tests on the embedded database (server-pglite-isolated: the
 *   files among them that replace a module)
 * - server-pg (and server-pg-isolated): the same suites on PostgreSQL, only when DATABASE_URL is set
 *   (CI sets it)
 */
/** server test files that replace a module (vi.mock): they need modules of their own */
const SERVER_MOCKING = ['tests/server/sign-in-throttle.test.ts'];

/**
 * A driver's server suites, in two projects: most files share their modules within a worker (not
 * isolated: each file imported the whole platform again, 105 of the project's 194 s on PGlite,
 * issue 12); each file still starts its own platform on its own copy of the template database.
 * The files that replace a module run isolated, in `<name>-isolated`.
 */
const serverProjects = (name: string, driver: 'pglite' | 'pg') =>
  [
    { name, include: ['tests/server/**/*.test.ts'], exclude: SERVER_MOCKING, isolate: false },
    { name: `${name}-isolated`, include: SERVER_MOCKING, exclude: [], isolate: true },
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

const uiProject = (name: string, include: string[], isolate: boolean) => ({
  extends: true as const,
  test: {
    name,
    include,
    isolate,
    environment: 'jsdom',
    setupFiles: ['tests/ui/setup.ts', ...(isolate ? [] : ['tests/model/setup.ts'])],
    // the files that run the platform on PGlite copy its template database (no model test does)
    globalSetup: isolate ? ['tests/server/global-setup.ts'] : [],
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
        { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
        uiProject('ui', ['tests/ui/**/*.test.{ts,tsx}'], true),
        // The model tests share their modules within a worker (not isolated): each file imported the
        // whole app again (issue 12: 1 to 3 s a file). They hold no module mocks and start their own
        // actors, query clients and views; tests/model/setup.ts writes each file's coverage.
        uiProject('model', ['tests/model/**/*.test.{ts,tsx}'], false),
        ...serverProjects('server-pglite', 'pglite'),
        ...(process.env.DATABASE_URL ? serverProjects('server-pg', 'pg') : []),
      ],
    },
  }),
);
