/**
 * Every state and every transition of every machine says what it means in one line (`description`
 * beside the code, issue 14), and every machine names the specification sections it implements
 * (`meta.spec` on its root): the audit pack shows them to auditors and counts the gaps.
 */
import { describe, expect, it } from 'vitest';
import { auditMachine } from '../../scripts/audit-pack/model.ts';
import { diagramMachines } from '../../scripts/diagrams.ts';

describe('machine descriptions', () => {
  it.each(diagramMachines.map((e) => [e.file, e] as const))('%s: every state and transition has a description, the root its spec sections', (_file, entry) => {
    const model = auditMachine(entry.machine);
    const states = model.states.filter((s) => !s.description).map((s) => s.path);
    const transitions = model.transitions.filter((t) => !t.description).map((t) => t.key);
    expect({ states, transitions }).toEqual({ states: [], transitions: [] });
    expect(model.spec.length).toBeGreaterThan(0);
    for (const ref of [...model.spec, ...model.states.flatMap((s) => s.spec), ...model.transitions.flatMap((t) => t.spec)]) {
      expect(ref).toMatch(/^document [123] §\d+(\.\d+)*$/);
    }
  });
});
