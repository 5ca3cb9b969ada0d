/**
 * Model-test setup, run before each model test file: after the file's tests, write the paths its
 * coverage checks replayed (tests/model/coverage.ts). The model files share their modules within
 * a worker (vitest.config.ts: not isolated), so the hook is registered here, once per file, and
 * not by the coverage module, which is imported once per worker.
 */
import { basename } from 'node:path';
import { afterAll } from 'vitest';
import { writeModelCoverage } from './coverage.ts';

// (vitest 4 hands the suite to a hook as its second argument, the first being the fixtures.)
afterAll(({}, suite) => {
  const file = (suite as { file?: { name?: string; filepath?: string } }).file;
  writeModelCoverage(basename(file?.filepath ?? file?.name ?? 'unknown test file'));
});
