/** The committed diagrams in docs/ must be what `npm run diagrams` writes from the machines now. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagramMachines, docsDir, eventLabel, renderDoc, renderMermaid } from '../../scripts/diagrams.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';

describe('statechart diagrams', () => {
  it.each(diagramMachines.map((e) => [e.file, e] as const))('docs/%s.md is up to date (run npm run diagrams)', (_file, entry) => {
    const committed = readFileSync(resolve(docsDir, `${entry.file}.md`), 'utf8');
    expect(committed).toBe(renderDoc(entry));
  });

  it.each(diagramMachines.map((e) => [e.file, e] as const))('%s: every transition and guard is drawn', (_file, entry) => {
    const doc = renderDoc(entry);
    const mermaid = renderMermaid(entry.machine);
    for (const t of listTransitions(entry.machine)) {
      expect(doc).toContain(eventLabel(t.eventType));
      if (t.guard) expect(doc).toContain(t.guard);
    }
    expect(mermaid.startsWith('stateDiagram-v2')).toBe(true);
  });
});
