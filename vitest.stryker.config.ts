import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/**
 * The tests `npm run mutation` (StrykerJS, stryker.config.mjs) runs against mutated machines: the
 * model-based tests (tests/model, through the real views in jsdom) and the rule tests (tests/unit,
 * tests/ui/*-rules); no server or platform tests, no database. Stryker's vitest runner keeps
 * `related` on, so a run only starts the files that import a mutated file (a one-machine run
 * starts that machine's tests).
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
            // it compares the generated Mermaid text with the committed docs: any change to a
            // chart's shape "kills" a mutant there without any behaviour being checked
            exclude: ['tests/unit/diagrams.test.ts'],
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
