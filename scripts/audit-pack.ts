/**
 * `npm run audit-pack`: the statechart audit pack, a static site in dist/audit/ (HTML, SVG, one
 * stylesheet; no script, relative links only, so it opens from the file system and is served to
 * administrators at /audit/ by the platform, server/modules/platform/audit-pack.ts). Per machine
 * of scripts/diagrams.ts's list: the diagram laid out by elkjs (scripts/audit-pack/layout.ts),
 * the states and transitions with their descriptions and specification references (the machine's
 * `description` and `meta.spec`), the model-test paths covering each transition
 * (reports/model-coverage/, written by the model tests) and the mutation score with the
 * surviving mutants (the recorded per-machine runs in docs/mutation/ and a local full run's
 * reports/mutation/mutation.json, `npm run mutation`); an index by area.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diagramMachines } from './diagrams.ts';
import { layoutMachine, standaloneSvg } from './audit-pack/layout.ts';
import { auditMachine } from './audit-pack/model.ts';
import { renderIndex, renderMachinePage, countsOf, type MachinePage } from './audit-pack/pages.ts';
import { mutationOf, readModelCoverage, readMutationReport } from './audit-pack/reports.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..');

export interface AuditPackOptions {
  outDir?: string;
  reportsDir?: string;
  /** the recorded per-machine mutation runs (default docs/mutation) */
  mutationDir?: string;
  /** the time printed on the index (tests pass a fixed one) */
  now?: Date;
}

export async function buildMachinePages(reportsDir = resolve(repoRoot, 'reports'), mutationDir = resolve(repoRoot, 'docs', 'mutation')): Promise<MachinePage[]> {
  const mutationReport = readMutationReport(reportsDir, mutationDir);
  const pages: MachinePage[] = [];
  for (const entry of diagramMachines) {
    const model = auditMachine(entry.machine);
    const { svg } = await layoutMachine(model, entry.title);
    pages.push({
      file: entry.file,
      title: entry.title,
      source: entry.source,
      model,
      svg,
      coverage: readModelCoverage(reportsDir, entry.file),
      mutation: mutationOf(mutationReport, entry.source),
      mutationRun: mutationReport !== null,
    });
  }
  return pages;
}

export async function writeAuditPack(options: AuditPackOptions = {}): Promise<{ outDir: string; pages: MachinePage[] }> {
  const outDir = options.outDir ?? resolve(repoRoot, 'dist', 'audit');
  const pages = await buildMachinePages(options.reportsDir, options.mutationDir);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  // the pages' stylesheet and the diagrams' (chart.css, shared with the development inspector)
  const css = ['audit.css', 'chart.css'].map((f) => readFileSync(resolve(here, 'audit-pack', f), 'utf8')).join('\n');
  writeFileSync(resolve(outDir, 'audit.css'), css);
  for (const page of pages) {
    writeFileSync(resolve(outDir, `${page.file}.html`), renderMachinePage(page));
    writeFileSync(resolve(outDir, `${page.file}.svg`), standaloneSvg(page.svg));
  }
  writeFileSync(resolve(outDir, 'index.html'), renderIndex(pages, (options.now ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z')));
  return { outDir, pages };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { outDir, pages } = await writeAuditPack();
  for (const page of pages) {
    const c = countsOf(page);
    console.log(
      `${page.file.padEnd(20)} ${String(c.states).padStart(3)} states ${String(c.transitions).padStart(3)} transitions, covered ${c.covered === null ? 'not run' : `${c.covered}/${c.transitions}`}, ${c.missingDescriptions} missing descriptions`,
    );
  }
  console.log(`wrote ${outDir}/index.html and ${pages.length} machine pages`);
}
