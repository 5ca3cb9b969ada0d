/**
 * Model-test plumbing shared by the model tests:
 * - `edgeCoveringPaths`: a shortest path to every state, plus, for every edge of the adjacency map
 *   that no shortest path takes, the shortest path to its source followed by that edge (this is how
 *   returns to earlier states, which shortest and simple paths never target, get a path); of
 *   those, the fewest that take every chart transition they take (`coveringTransitions`: what CI
 *   runs), or all of them with MODEL_PATHS=all (the mutation runs);
 * - `transitionsTaken`: replays paths on a live actor and records which chart transitions fired
 *   (from the inspector's microsteps), for the transition-coverage check; what each path took is
 *   also written, once the test file has run, to reports/model-coverage/<machine file>.json
 *   (transition key -> the paths taking it), which the audit pack (npm run audit-pack) shows;
 * - `expectOffered` and `unreachedStates`: checks that do not come from the paths (a chart that
 *   lost a transition or a state gets no path through it).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { createActor, fromCallback, type AnyStateMachine, type EventObject, type Snapshot } from 'xstate';
import type { Step, TestModel, TestPath } from '@xstate/graph';
import { listTransitions, machineFileOf } from '../../scripts/machine-graph.ts';

export function edgeCoveringPaths<S extends Snapshot<unknown>, E extends EventObject>(
  model: TestModel<S, E, any>,
  serialize: (s: S) => string,
  /** all: every maximal path, whatever MODEL_PATHS says (a file that picks its own cover across several inputs: coveringAcrossInputs) */
  options: { all?: boolean } = {},
): TestPath<S, E>[] {
  // allowDuplicatePaths keeps the paths that are prefixes of longer ones: each is a prefix we need.
  const shortest = model.getShortestPaths({ allowDuplicatePaths: true });
  const adjacency = model.getAdjacencyMap() as unknown as Record<string, { state: S; transitions: Record<string, { event: E; state: S }> }>;
  const prefix = new Map<string, E[]>();
  const covered = new Set<string>();
  const edge = (from: string, event: E) => `${from}|${JSON.stringify(event)}`;
  const initial = shortest[0]?.steps[0]?.state;
  if (!initial) return [];
  prefix.set(serialize(initial), []);
  for (const p of shortest) {
    const events = p.steps.map((s) => s.event).filter((e) => e.type !== 'xstate.init');
    prefix.set(serialize(p.state), events);
    for (let i = 1; i < p.steps.length; i++) {
      const before = p.steps[i - 1];
      const step = p.steps[i];
      if (before && step) covered.add(edge(serialize(before.state), step.event));
    }
  }

  /**
   * Replays events on the adjacency map. (TestModel.getPathsFromEvents would do this, but in
   * @xstate/graph 3.0.4 it ignores the model's options, starts from an errored snapshot and then
   * matches no state check, or throws.)
   */
  const replay = (events: E[]): TestPath<S, E> => {
    let state = initial;
    const steps: Step<S, E>[] = [{ event: { type: 'xstate.init' } as E, state }];
    for (const event of events) {
      const entry = adjacency[serialize(state)];
      const next = entry && Object.values(entry.transitions).find((t) => JSON.stringify(t.event) === JSON.stringify(event));
      if (!next) throw new Error(`cannot replay ${JSON.stringify(event)} from ${serialize(state)}`);
      state = next.state as S;
      steps.push({ event, state });
    }
    const path = { state, steps, weight: events.length };
    return {
      ...path,
      description: events.map((e) => e.type).join(' → '),
      test: (params) => model.testPath(path, params),
    };
  };

  const paths = [...shortest];
  for (const [stateKey, entry] of Object.entries(adjacency)) {
    const base = prefix.get(stateKey);
    if (!base) throw new Error(`no shortest path reaches ${stateKey}`);
    for (const { event } of Object.values(entry.transitions)) {
      const key = edge(stateKey, event as E);
      if (covered.has(key)) continue;
      covered.add(key);
      paths.push(replay([...base, event as E]));
    }
  }
  const maximal = withoutPrefixes(paths);
  if (process.env.MODEL_PATHS === 'all' || options.all) return maximal;
  const logic = (model as unknown as { testLogic: unknown }).testLogic;
  const input = (model as unknown as { options: { input?: unknown } }).options.input;
  return isMachine(logic) ? coveringTransitions(maximal, logic, input) : maximal;
}

function isMachine(logic: unknown): logic is AnyStateMachine {
  return typeof logic === 'object' && logic !== null && 'root' in logic && 'getInitialSnapshot' in logic;
}

/**
 * The fewest paths (greedy: each next path the one taking the most chart transitions not yet taken,
 * the shorter on a tie) that together take every chart transition the given paths take: CI runs
 * these (each transition proven once through the view, checked at every step); `MODEL_PATHS=all`
 * keeps every path (the mutation runs: stryker.config.mjs), which also tells apart the context
 * variants of one transition.
 */
export function coveringTransitions<P extends { steps: { event: EventObject }[] }>(paths: readonly P[], machine: AnyStateMachine, input: unknown): P[] {
  const eventsOf = (p: P) => p.steps.map((s) => s.event).filter((e) => e.type !== 'xstate.init');
  // the paths give every actor's answer as an event: the invoked actors themselves stay silent
  const silent = machine.provide({ actors: Object.fromEntries(Object.keys(machine.implementations.actors).map((name) => [name, fromCallback(() => () => undefined)])) });
  const takes = paths.map((p) => transitionKeysOf(silent, input, eventsOf(p)));
  const left = new Set(takes.flatMap((keys) => [...keys]));
  const chosen: P[] = [];
  const open = new Set(paths.map((_, i) => i));
  while (left.size > 0) {
    let best = -1;
    let bestGain = 0;
    for (const i of open) {
      let gain = 0;
      for (const key of takes[i]!) if (left.has(key)) gain++;
      if (gain > bestGain || (gain === bestGain && gain > 0 && paths[i]!.steps.length < paths[best]!.steps.length)) {
        best = i;
        bestGain = gain;
      }
    }
    if (best < 0) break;
    open.delete(best);
    for (const key of takes[best]!) left.delete(key);
    chosen.push(paths[best]!);
  }
  // in the order they were generated (shortest paths first): stable test names and order
  return paths.filter((p) => chosen.includes(p));
}

/**
 * coveringTransitions across several starting inputs of one chart (a file whose paths start from
 * several contexts, e.g. a customer's and an agent's ticket): the fewest paths, whatever their
 * input, that together take every chart transition the candidates take. Each input's own cover
 * repeated the transitions the inputs share (the ticket chart: 111 paths against 40).
 * MODEL_PATHS=all keeps every candidate (the mutation runs).
 */
export function coveringAcrossInputs<C extends { input: unknown; path: { steps: { event: EventObject }[] } }>(machine: AnyStateMachine, candidates: readonly C[]): C[] {
  if (process.env.MODEL_PATHS === 'all') return [...candidates];
  const silent = machine.provide({ actors: Object.fromEntries(Object.keys(machine.implementations.actors).map((name) => [name, fromCallback(() => () => undefined)])) });
  const takes = candidates.map((c) => transitionKeysOf(silent, c.input, c.path.steps.map((st) => st.event).filter((e) => e.type !== 'xstate.init')));
  const left = new Set(takes.flatMap((keys) => [...keys]));
  const chosen = new Set<number>();
  while (left.size > 0) {
    let best = -1;
    let bestGain = 0;
    candidates.forEach((c, i) => {
      if (chosen.has(i)) return;
      let gain = 0;
      for (const key of takes[i]!) if (left.has(key)) gain++;
      if (gain > bestGain || (gain === bestGain && gain > 0 && c.path.steps.length < candidates[best]!.path.steps.length)) {
        best = i;
        bestGain = gain;
      }
    });
    if (best < 0) break;
    chosen.add(best);
    for (const key of takes[best]!) left.delete(key);
  }
  return candidates.filter((_, i) => chosen.has(i));
}

/**
 * The paths less those that are the start of another: the runs check the page at every step
 * (runPathCheckingEveryStep), so the longer path checks every state and edge the shorter one
 * does. A shortest path to a state is most often the start of the path to the next one; running
 * both checked the same steps twice (issue 14: about half of every model file's paths).
 */
export function withoutPrefixes<P extends { steps: { event: EventObject }[] }>(paths: readonly P[]): P[] {
  const keyOf = (p: P) => p.steps.map((s) => JSON.stringify(s.event)).join('\u0000');
  const keys = paths.map(keyOf);
  const sorted = [...keys].sort();
  // in sorted order the keys a key starts follow it: look on while they share its start
  const isPrefix = new Set<string>();
  for (let i = 0; i < sorted.length; i++) {
    const key = sorted[i]!;
    for (let j = i + 1; j < sorted.length && sorted[j]!.startsWith(key); j++) {
      if (sorted[j]!.startsWith(`${key}\u0000`)) {
        isPrefix.add(key);
        break;
      }
    }
  }
  const seen = new Set<string>();
  return paths.filter((_, i) => {
    const key = keys[i]!;
    if (isPrefix.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const definitions = new WeakMap<AnyStateMachine, Map<unknown, string>>();

/** Keys (as in listTransitions) of the chart transitions one event sequence takes (nothing recorded). */
function transitionKeysOf(machine: AnyStateMachine, input: unknown, events: readonly EventObject[]): Set<string> {
  let byDefinition = definitions.get(machine);
  if (!byDefinition) {
    byDefinition = new Map<unknown, string>();
    for (const node of allNodesOf(machine)) {
      for (const [eventType, list] of node.transitions.entries()) {
        list.forEach((t: unknown, i: number) => byDefinition!.set(t, `${node.id}|${eventType}|${i}`));
      }
      (node.always ?? []).forEach((t: unknown, i: number) => byDefinition!.set(t, `${node.id}|always|${i}`));
    }
    definitions.set(machine, byDefinition);
  }
  const keys = byDefinition;
  const byPath = new Set<string>();
  const actor = createActor(machine, {
    input,
    inspect: (e) => {
      if (e.type !== '@xstate.microstep') return;
      for (const t of (e as unknown as { _transitions: unknown[] })._transitions) {
        const key = keys.get(t);
        if (key) byPath.add(key);
      }
    },
  });
  actor.start();
  for (const event of events) actor.send(event);
  actor.stop();
  return byPath;
}

/** Keys (as in listTransitions) of the chart transitions the given event sequences take; each path recorded for the audit pack. */
export function transitionsTaken(machine: AnyStateMachine, input: unknown, sequences: EventObject[][]): Set<string> {
  const taken = new Set<string>();
  for (const events of sequences) {
    const byPath = transitionKeysOf(machine, input, events);
    for (const key of byPath) taken.add(key);
    recordPath(machine, pathName(input, events), byPath);
  }
  return taken;
}

/**
 * The coverage file of the machines this test file replayed paths of: machine file (the machine's
 * id in kebab case, as in scripts/diagrams.ts: accountRecovery -> account-recovery) -> transition
 * key -> path names. Written once per test file (afterAll below).
 */
const recorded = new Map<string, Map<string, Set<string>>>();

export const modelCoverageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'reports', 'model-coverage');

function recordPath(machine: AnyStateMachine, name: string, keys: Set<string>): void {
  const file = machineFileOf(machine);
  const byKey = recorded.get(file) ?? new Map<string, Set<string>>();
  recorded.set(file, byKey);
  for (const key of keys) byKey.set(key, (byKey.get(key) ?? new Set()).add(name));
}

const shortEvent = (type: string) =>
  type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.').replace(/^xstate\.after\.([^.]+)\..*$/, 'after.$1');

/** A path as a reader can replay it: the input's simple fields, then its events. */
function pathName(input: unknown, events: EventObject[]): string {
  const fields =
    input && typeof input === 'object'
      ? Object.entries(input as Record<string, unknown>)
          .filter(([, v]) => v !== null && v !== undefined && ['string', 'number', 'boolean'].includes(typeof v))
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(', ')
      : '';
  const steps = events.map((e) => shortEvent(e.type)).join(' → ') || 'initial state';
  return `${fields ? `(${fields.length > 60 ? `${fields.slice(0, 59)}…` : fields}) ` : ''}${steps}`;
}

/**
 * Writes this test file's paths into each replayed machine's coverage file, keeping what other
 * test files of the same machine wrote there (their paths are named by their file) and replacing
 * this file's earlier run.
 */
export function writeModelCoverage(testFile: string, dir = modelCoverageDir): void {
  if (recorded.size === 0) return;
  mkdirSync(dir, { recursive: true });
  const prefix = `${testFile}: `;
  for (const [file, byKey] of recorded) {
    const path = resolve(dir, `${file}.json`);
    let previous: { testFiles?: Record<string, string>; transitions?: Record<string, string[]> } = {};
    try {
      if (existsSync(path)) previous = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      previous = {};
    }
    const transitions: Record<string, string[]> = {};
    for (const [key, names] of Object.entries(previous.transitions ?? {})) {
      const kept = names.filter((n) => !n.startsWith(prefix));
      if (kept.length) transitions[key] = kept;
    }
    for (const [key, names] of byKey) transitions[key] = [...(transitions[key] ?? []), ...[...names].map((n) => prefix + n)];
    const testFiles = { ...previous.testFiles, [testFile]: new Date().toISOString() };
    const sorted = Object.fromEntries(Object.entries(transitions).sort(([a], [b]) => a.localeCompare(b)));
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ machine: file, testFiles, transitions: sorted }, null, 2)}\n`);
    renameSync(tmp, path);
  }
  recorded.clear();
}

function allNodesOf(machine: AnyStateMachine) {
  const out: any[] = [];
  const walk = (n: any) => {
    out.push(n);
    for (const c of Object.values(n.states)) walk(c);
  };
  walk(machine.root);
  return out;
}

export function chartTransitionKeys(machine: AnyStateMachine): string[] {
  return listTransitions(machine).map((t) => t.key);
}

/**
 * Wraps state checks so a test can prove they ran: every step of a path must match at least one
 * check (STACK.md: a stateMatcher that matches nothing makes every test pass).
 */
export function countingChecks<T extends Record<string, (s: any) => Promise<void>>>(checks: T): { checks: T; matchedSteps: () => number } {
  const seen = new Set<unknown>();
  const wrapped = Object.fromEntries(
    Object.entries(checks).map(([key, check]) => [
      key,
      async (s: unknown) => {
        seen.add(s);
        await check(s);
      },
    ]),
  ) as T;
  return { checks: wrapped, matchedSteps: () => seen.size };
}

/**
 * Runs one generated path against the real view and proves its state checks ran: every distinct
 * snapshot of the path must have been asserted by some check.
 */
export async function runPathCheckingEveryStep(
  path: { steps: { state: unknown }[]; test(params: { states: never; events: never }): Promise<unknown> },
  checks: Record<string, (s: any) => Promise<void>>,
  events: Record<string, unknown>,
): Promise<void> {
  const counted = countingChecks(checks);
  await path.test({ states: counted.checks as never, events: events as never });
  expect(counted.matchedSteps()).toBe(new Set(path.steps.map((st) => st.state)).size);
}

/** 'signedIn.token.fresh' -> matches({ signedIn: { token: 'fresh' } }). */
export function matchesPath(s: { matches(v: any): boolean }, key: string): boolean {
  const parts = key.split('.');
  let value: unknown = parts.pop();
  while (parts.length) value = { [parts.pop() as string]: value };
  return s.matches(value);
}

/**
 * The controls a page offers are events the chart takes in the state it shows: a check that does
 * not come from the paths (generated from the chart under test, a chart that lost a transition
 * has no path through it; the view still offers its control).
 */
export function expectOffered<E extends EventObject>(s: { can(event: E): boolean }, events: readonly E[]): void {
  for (const event of events) expect(s.can(event), event.type).toBe(true);
}

/** The top-level states of `machine` that no step of `paths` is in (a flat chart's every state). */
export function unreachedStates(machine: AnyStateMachine, paths: readonly TestPath<any, any>[]): string[] {
  return Object.keys(machine.states).filter((state) => !paths.some((path) => path.steps.some((step) => (step.state as { matches(v: string): boolean }).matches(state))));
}

/**
 * A path's event executors, each noting the event first (what the test did: the model tests
 * expect each page from it, not from the chart's own context) and then performing it.
 */
export function recordingExecutors<E>(
  executors: Record<string, (arg: { event: E }) => Promise<unknown>>,
  note: (event: E) => void,
): Record<string, (arg: { event: E }) => Promise<void>> {
  return Object.fromEntries(
    Object.entries(executors).map(([type, run]) => [
      type,
      async (arg: { event: E }) => {
        note(arg.event);
        await run(arg);
      },
    ]),
  );
}
