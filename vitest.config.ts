import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/**
 * Test projects:
 * - unit: pure rules (node)
 * - ui: model-based and component tests through the real views (jsdom)
 * - server-pglite: platform integration tests on the embedded database
 * - server-pg: the same suites on PostgreSQL, only when DATABASE_URL is set (CI sets it)
 */
const serverProject = (name: string, driver: 'pglite' | 'pg') => ({
  extends: true as const,
  test: {
    name,
    include: ['tests/server/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB: driver },
    // one migrated and seeded template database per driver for the run, copied per file
    globalSetup: ['tests/server/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      // vitest's default is one worker fewer than the cores: a single worker on a 2-core machine, so
      // every file ran one after the other while most of a server file's time is spent waiting on
      // the database. One worker per core and one more (at least three): a PostgreSQL file waits on
      // the server's own processes, a model test on its timers, and the extra worker uses that
      // time; all projects share them. VITEST_MAX_WORKERS overrides.
      maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || Math.max(3, availableParallelism() + 1),
      projects: [
        { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
        {
          extends: true,
          test: {
            name: 'ui',
            include: ['tests/{model,ui}/**/*.test.{ts,tsx}'],
            environment: 'jsdom',
            setupFiles: ['tests/ui/setup.ts'],
            // the files that run the platform on PGlite copy its template database
            globalSetup: ['tests/server/global-setup.ts'],
            testTimeout: 30_000,
          },
        },
        serverProject('server-pglite', 'pglite'),
        ...(process.env.DATABASE_URL ? [serverProject('server-pg', 'pg')] : []),
      ],
    },
  }),
);
