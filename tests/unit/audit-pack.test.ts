/**
 * The audit pack (npm run audit-pack): every machine lays out with elkjs and draws a box per
 * state and a label per transition; the pages are accessible static HTML with relative links; the
 * model tests' coverage files and Stryker's report are read when present ("not run" otherwise);
 * a coverage file keeps what each test file of a machine wrote.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeAuditPack } from '../../scripts/audit-pack.ts';
import { layoutMachine } from '../../scripts/audit-pack/layout.ts';
import { auditMachine } from '../../scripts/audit-pack/model.ts';
import { AREA_OF, countsOf, mutationText } from '../../scripts/audit-pack/pages.ts';
import { mutationOf, readModelCoverage, readMutationReport } from '../../scripts/audit-pack/reports.ts';
import { diagramMachines } from '../../scripts/diagrams.ts';
import { listTransitions, machineFileOf } from '../../scripts/machine-graph.ts';
import { transitionsTaken, writeModelCoverage } from '../model/coverage.ts';

const scratch = mkdtempSync(join(tmpdir(), 'audit-pack-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('audit pack diagrams', () => {
  it.each(diagramMachines.map((e) => [e.file, e] as const))('%s lays out with elkjs: one box per state, one label per transition', async (_file, entry) => {
    const model = auditMachine(entry.machine);
    const laid = await layoutMachine(model, entry.title);
    expect(laid.width).toBeGreaterThan(0);
    expect(laid.height).toBeGreaterThan(0);
    expect(laid.boxes).toBe(model.states.length);
    expect(laid.labels).toBe(listTransitions(entry.machine).length);
    expect(count(laid.svg, 'data-state-id="')).toBe(model.states.length);
    expect(count(laid.svg, 'class="edge-label"')).toBe(model.transitions.length);
    for (const s of model.states) expect(laid.svg).toContain(`data-state-id="${s.id}"`);
    for (const t of model.transitions) expect(laid.svg).toContain(`data-transition="${t.key}"`);
    // nothing the platform's Content-Security-Policy would refuse (style-src 'self')
    expect(laid.svg).not.toMatch(/<style|style="/);
    expect(laid.svg).not.toContain('NaN');
  }, 60_000);

  it('every machine has an area on the index and its files are named after its id', () => {
    for (const entry of diagramMachines) {
      expect(AREA_OF[entry.file], entry.file).toBeDefined();
      expect(machineFileOf(entry.machine)).toBe(entry.file);
    }
  });
});

describe('audit pack site', () => {
  it('writes an index and a page per machine: static, accessible, relative links, "not run" without reports', async () => {
    const outDir = join(scratch, 'pack');
    const { pages } = await writeAuditPack({ outDir, reportsDir: join(scratch, 'no-reports'), mutationDir: join(scratch, 'no-recorded-runs'), now: new Date('2026-01-01T00:00:00Z') });
    const files = readdirSync(outDir);
    expect(files).toContain('index.html');
    expect(files).toContain('audit.css');
    // one stylesheet for the pages and the diagrams (chart.css, shared with the development inspector)
    const css = readFileSync(join(outDir, 'audit.css'), 'utf8');
    expect(css).toContain('thead th {');
    expect(css).toContain('svg.chart .state rect{');
    for (const entry of diagramMachines) {
      expect(files).toContain(`${entry.file}.html`);
      expect(files).toContain(`${entry.file}.svg`);
    }
    const index = readFileSync(join(outDir, 'index.html'), 'utf8');
    expect(index).toContain('<html lang="en">');
    expect(index).toContain('<h1>');
    expect(count(index, '<caption>')).toBe(new Set(Object.values(AREA_OF)).size);
    for (const entry of diagramMachines) expect(index).toContain(`href="${entry.file}.html"`);
    expect(index).toContain('not run');
    for (const page of pages) {
      const html = readFileSync(join(outDir, `${page.file}.html`), 'utf8');
      expect(html).toContain('<html lang="en">');
      expect(count(html, '<caption>')).toBeGreaterThanOrEqual(2);
      expect(html).not.toMatch(/<script|style="|(href|src)="(\/|https?:)/);
      expect(html).toContain('<svg');
      expect(countsOf(page).covered).toBeNull();
      expect(mutationText(page)).toBe('not run');
    }
  }, 120_000);

  it('reads the coverage files and the mutation report when they exist', async () => {
    const reportsDir = join(scratch, 'reports');
    const entry = diagramMachines.find((e) => e.file === 'confirm-action')!;
    const keys = listTransitions(entry.machine).map((t) => t.key);
    mkdirSync(join(reportsDir, 'model-coverage'), { recursive: true });
    mkdirSync(join(reportsDir, 'mutation'), { recursive: true });
    writeFileSync(
      join(reportsDir, 'model-coverage', 'confirm-action.json'),
      JSON.stringify({ machine: 'confirm-action', testFiles: {}, transitions: { [keys[0]!]: ['a.test.tsx: ASK'] } }),
    );
    writeFileSync(
      join(reportsDir, 'mutation', 'mutation.json'),
      JSON.stringify({
        schemaVersion: '1.0',
        thresholds: { high: 80, low: 60 },
        files: {
          [entry.source]: {
            language: 'typescript',
            source: '',
            mutants: [
              { id: '1', mutatorName: 'BooleanLiteral', replacement: 'false', status: 'Killed', location: { start: { line: 3, column: 1 }, end: { line: 3, column: 5 } } },
              { id: '2', mutatorName: 'StringLiteral', replacement: '""', status: 'Survived', location: { start: { line: 9, column: 4 }, end: { line: 9, column: 9 } } },
              { id: '3', mutatorName: 'ConditionalExpression', replacement: 'true', status: 'Timeout', location: { start: { line: 5, column: 2 }, end: { line: 5, column: 8 } } },
              { id: '4', mutatorName: 'BlockStatement', replacement: '{}', status: 'CompileError', location: { start: { line: 7, column: 2 }, end: { line: 7, column: 8 } } },
              { id: '5', mutatorName: 'StringLiteral', replacement: '""', status: 'Ignored', location: { start: { line: 8, column: 2 }, end: { line: 8, column: 8 } } },
            ],
          },
        },
      }),
    );
    expect(readModelCoverage(reportsDir, 'confirm-action')?.transitions[keys[0]!]).toEqual(['a.test.tsx: ASK']);
    const mutation = mutationOf(readMutationReport(reportsDir), entry.source);
    expect(mutation?.score).toBeCloseTo((2 / 3) * 100);
    expect(mutation?.surviving.map((m) => m.id)).toEqual(['2']);

    const outDir = join(scratch, 'pack-with-reports');
    const { pages } = await writeAuditPack({ outDir, reportsDir, mutationDir: join(scratch, 'no-recorded-runs') });
    const page = pages.find((p) => p.file === 'confirm-action')!;
    expect(countsOf(page).covered).toBe(1);
    const html = readFileSync(join(outDir, 'confirm-action.html'), 'utf8');
    expect(html).toContain('66.7 %');
    expect(html).toContain('1 left unmutated');
    expect(html).toContain('StringLiteral');
    expect(html).toContain('a.test.tsx: ASK');
    expect(html).toContain('not covered');
    const index = readFileSync(join(outDir, 'index.html'), 'utf8');
    expect(index).toContain(`1 of ${keys.length}`);
    // a machine the report does not name
    expect(mutationText(pages.find((p) => p.file === 'login')!)).toBe('not in the report');

    // the recorded per-machine runs fill in what the full run does not name; the full run wins
    const recordedDir = join(scratch, 'recorded');
    mkdirSync(recordedDir, { recursive: true });
    const login = diagramMachines.find((e) => e.file === 'login')!;
    const killedOnly = (source: string) =>
      JSON.stringify({
        files: { [source]: { mutants: [{ id: '9', mutatorName: 'BooleanLiteral', replacement: 'true', status: 'Killed', location: { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } } }] } },
      });
    writeFileSync(join(recordedDir, 'login.json'), killedOnly(login.source));
    writeFileSync(join(recordedDir, 'confirm-action.json'), killedOnly(entry.source));
    const merged = readMutationReport(reportsDir, recordedDir);
    expect(mutationOf(merged, login.source)?.score).toBe(100);
    expect(mutationOf(merged, entry.source)?.score).toBeCloseTo((2 / 3) * 100);
    expect(mutationOf(readMutationReport(join(scratch, 'no-reports'), recordedDir), entry.source)?.score).toBe(100);
  }, 120_000);
});

describe('model-coverage files', () => {
  it('are written per machine and keep the paths of the other test files of that machine', () => {
    const dir = join(scratch, 'model-coverage');
    const entry = diagramMachines.find((e) => e.file === 'confirm-action')!;
    transitionsTaken(entry.machine, undefined, [[{ type: 'ASK' } as never]]);
    writeModelCoverage('first.test.tsx', dir);
    transitionsTaken(entry.machine, undefined, [[{ type: 'ASK' } as never, { type: 'DISMISS' } as never]]);
    writeModelCoverage('second.test.tsx', dir);
    // the first file again: its earlier paths are replaced, the second file's kept
    transitionsTaken(entry.machine, undefined, [[{ type: 'ASK' } as never, { type: 'CONFIRM' } as never]]);
    writeModelCoverage('first.test.tsx', dir);
    const written = JSON.parse(readFileSync(join(dir, 'confirm-action.json'), 'utf8'));
    expect(Object.keys(written.testFiles).sort()).toEqual(['first.test.tsx', 'second.test.tsx']);
    const all = Object.values(written.transitions as Record<string, string[]>).flat();
    expect(all).toContain('second.test.tsx: ASK → DISMISS');
    expect(all).toContain('first.test.tsx: ASK → CONFIRM');
    expect(all).not.toContain('first.test.tsx: ASK');
    for (const key of Object.keys(written.transitions)) expect(listTransitions(entry.machine).map((t) => t.key)).toContain(key);
  });
});
