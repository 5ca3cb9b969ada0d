import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/**
 * The tests `npm run mutation` (StrykerJS, stryker.config.mjs) runs against mutated machines: the
 * model-based tests (tests/model, through the real views in jsdom) and the rule tests (tests/unit,
 * tests/ui/*-rules); no server or platform tests, no database. Each mutant runs
 * `vitest related` over its machine's files, so only the files that import them start.
 */
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      projects: [
        {
          extends: true,
          test: {
            name: 'rules',
            include: ['tests/unit/**/*.test.ts'],
            // the documentation's tests (the committed Mermaid text, its rendering, the audit pack
            // and its pages, the descriptions): any change to a chart's shape "kills" a mutant
            // there without any behaviour being checked, and they import every machine, so each
            // mutant would run them (20 s of a one-machine mutant's 25)
            exclude: [
              'tests/unit/diagrams.test.ts',
              'tests/unit/mermaid.test.ts',
              'tests/unit/audit-pack.test.ts',
              'tests/unit/audit-pack-axe.test.ts',
              'tests/unit/machine-descriptions.test.ts',
            ],
            environment: 'node',
          },
        },
        {
          extends: true,
          test: {
            name: 'model',
            include: ['tests/model/**/*.test.{ts,tsx}', 'tests/ui/*-rules.test.{ts,tsx}'],
            environment: 'jsdom',
            setupFiles: ['tests/ui/setup.ts'],
            testTimeout: 30_000,
          },
        },
      ],
    },
  }),
);
