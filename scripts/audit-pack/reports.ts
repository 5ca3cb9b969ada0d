/**
 * The two reports the audit pack reads when they exist:
 * - reports/model-coverage/<machine file>.json, written by the model tests (tests/model/coverage.ts):
 *   for each chart transition key, the model-test paths that take it;
 * - StrykerJS's reports (mutation-testing-report-schema): the mutants of each machine file, killed
 *   or surviving, from the recorded per-machine runs (docs/mutation/<machine>.json) and a local full
 *   run (reports/mutation/mutation.json).
 * A report that is absent is "not run"; nothing is guessed.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';

export interface ModelCoverageFile {
  machine: string;
  /** the test files whose paths are in this file, with when each wrote it */
  testFiles: Record<string, string>;
  /** transition key (scripts/machine-graph.ts) -> the paths that take it, "<test file>: <path>" */
  transitions: Record<string, string[]>;
}

export function readModelCoverage(reportsDir: string, file: string): ModelCoverageFile | null {
  const path = resolve(reportsDir, 'model-coverage', `${file}.json`);
  if (!existsSync(path)) return null;
  const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<ModelCoverageFile>;
  return { machine: data.machine ?? file, testFiles: data.testFiles ?? {}, transitions: data.transitions ?? {} };
}

/** The part of a Stryker mutant the pack shows. */
export interface Mutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
  description?: string;
}

export interface MutationResult {
  /** killed + timed out over killed + timed out + survived + no coverage, in percent; null when no valid mutant */
  score: number | null;
  killed: number;
  survived: number;
  noCoverage: number;
  timeout: number;
  /** not mutated on purpose (stryker-ignorers.mjs: descriptions, types, placeholder actors) */
  ignored: number;
  total: number;
  /** the mutants the tests did not detect (Survived, NoCoverage) */
  surviving: Mutant[];
}

export interface MutationReport {
  files: Record<string, { mutants: Mutant[] }>;
}

/** One StrykerJS report's files, their names relative to the repository with forward slashes. */
function reportFiles(path: string): MutationReport['files'] {
  const data = JSON.parse(readFileSync(path, 'utf8')) as { files?: Record<string, { mutants?: Mutant[] }> };
  const files: MutationReport['files'] = {};
  for (const [name, f] of Object.entries(data.files ?? {})) files[name.replace(/\\/g, '/')] = { mutants: f.mutants ?? [] };
  return files;
}

/**
 * The mutation results: the recorded per-machine runs (`recordedDir`, docs/mutation/<machine>.json,
 * committed: `MUTATE_MACHINE=<machine> npm run mutation` writes them; all machines take more than
 * ten hours on two cores), overlaid with a report placed at reports/mutation/mutation.json (one
 * Stryker report over several machines), which is newer when present. null when there is neither.
 */
export function readMutationReport(reportsDir: string, recordedDir?: string): MutationReport | null {
  const files: MutationReport['files'] = {};
  let found = false;
  if (recordedDir && existsSync(recordedDir)) {
    for (const name of readdirSync(recordedDir).filter((n) => n.endsWith('.json')).sort()) {
      Object.assign(files, reportFiles(resolve(recordedDir, name)));
      found = true;
    }
  }
  const full = resolve(reportsDir, 'mutation', 'mutation.json');
  if (existsSync(full)) {
    Object.assign(files, reportFiles(full));
    found = true;
  }
  return found ? { files } : null;
}

/** The mutation result of one source file (its path relative to the repository, as diagramMachines' `source`). */
export function mutationOf(report: MutationReport | null, source: string): MutationResult | null {
  if (!report) return null;
  const entry = Object.entries(report.files).find(([name]) => name === source || name.endsWith(`/${source}`));
  if (!entry) return null;
  const mutants = entry[1].mutants;
  const count = (status: string) => mutants.filter((m) => m.status === status).length;
  const killed = count('Killed');
  const timeout = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const valid = killed + timeout + survived + noCoverage;
  return {
    score: valid ? ((killed + timeout) / valid) * 100 : null,
    killed,
    survived,
    noCoverage,
    timeout,
    ignored: count('Ignored'),
    total: mutants.length,
    surviving: mutants.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage').sort((a, b) => a.location.start.line - b.location.start.line),
  };
}
