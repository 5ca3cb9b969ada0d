/** The model tests' path selection (tests/model/coverage.ts): a path that is the start of another is not run twice. */
import { describe, expect, it } from 'vitest';
import { withoutPrefixes } from '../model/coverage.ts';

const path = (...types: string[]) => ({ steps: [{ event: { type: 'xstate.init' } }, ...types.map((type) => ({ event: { type } }))] });
const names = (paths: { steps: { event: { type: string } }[] }[]) => paths.map((p) => p.steps.slice(1).map((s) => s.event.type).join(' '));

describe('withoutPrefixes', () => {
  it('keeps the longest paths, each once, in their order', () => {
    const paths = [path(), path('A'), path('A', 'B'), path('A', 'C'), path('A', 'B'), path('AB'), path('A', 'B', 'C')];
    expect(names(withoutPrefixes(paths))).toEqual(['A C', 'AB', 'A B C']);
  });

  it('tells an event from one whose name starts the same (A is not the start of AB)', () => {
    expect(names(withoutPrefixes([path('A'), path('AB')]))).toEqual(['A', 'AB']);
  });

  it('compares whole events, their data included', () => {
    const a = { steps: [{ event: { type: 'xstate.init' } }, { event: { type: 'SET', value: 1 } }] };
    const b = { steps: [{ event: { type: 'xstate.init' } }, { event: { type: 'SET', value: 1 } }, { event: { type: 'GO' } }] };
    const c = { steps: [{ event: { type: 'xstate.init' } }, { event: { type: 'SET', value: 2 } }] };
    expect(withoutPrefixes([a, b, c])).toEqual([b, c]);
  });
});
