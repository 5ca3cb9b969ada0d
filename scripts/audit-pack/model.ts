/**
 * The audit pack's view of one machine definition: its states and transitions with what an
 * auditor reads (description, specification references, guard, actions, delays), taken from the
 * definition itself (scripts/machine-graph.ts walks it), so the pack shows the chart the app runs.
 * A missing description is kept as null (shown as "—" and counted as missing).
 */
import type { AnyStateMachine, StateNode } from 'xstate';
import { allNodes, eventLabel, listTransitions, type ChartTransition } from '../machine-graph.ts';

type AnyNode = StateNode<any, any>;

export type StateKind = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

export interface AuditState {
  id: string;
  key: string;
  /** the path from the root, e.g. editing.fee.waiting; '(root)' for the machine itself */
  path: string;
  parentId: string | null;
  kind: StateKind;
  /** a region of a parallel state (drawn dashed) */
  region: boolean;
  /** the ids of the initial child states (compound states) */
  initialIds: string[];
  description: string | null;
  spec: string[];
  invokes: string[];
  entry: string[];
  exit: string[];
  depth: number;
}

export interface AuditTransition extends ChartTransition {
  /** the label drawn on the edge: event, [guard] */
  event: string;
  /** the delay of an `after` transition (a number of ms or the delay's name) */
  delay: string | null;
  actions: string[];
  description: string | null;
  spec: string[];
}

export interface AuditMachine {
  rootId: string;
  states: AuditState[];
  transitions: AuditTransition[];
  /** meta.spec of the root: the sections the machine implements */
  spec: string[];
}

/** A readable name for an action, guard-less: named actions by name, built-ins without `xstate.`. */
export function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  if (action && typeof action === 'object' && 'type' in action) return String((action as { type: unknown }).type);
  if (typeof action === 'function') {
    const type = (action as { type?: unknown }).type;
    if (typeof type === 'string') return type.replace(/^xstate\./, '');
    return action.name ? action.name : 'inline';
  }
  return 'inline';
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function specOf(meta: unknown): string[] {
  const spec = meta && typeof meta === 'object' ? (meta as { spec?: unknown }).spec : undefined;
  if (typeof spec === 'string') return [spec];
  return Array.isArray(spec) ? spec.filter((s): s is string => typeof s === 'string') : [];
}

function kindOf(node: AnyNode): StateKind {
  if (node.type === 'final' || node.type === 'history' || node.type === 'parallel' || node.type === 'compound') return node.type;
  return 'atomic';
}

function actionsOf(list: unknown): string[] {
  return (Array.isArray(list) ? list : list ? [list] : []).map(actionName);
}

/** The state node's relative path: editing.fee.waiting. */
function pathOf(node: AnyNode): string {
  return node.path.length ? node.path.join('.') : '(root)';
}

export function auditMachine(machine: AnyStateMachine): AuditMachine {
  const nodes = allNodes(machine);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const states: AuditState[] = nodes.map((node) => ({
    id: node.id,
    key: node.parent ? node.key : machine.id,
    path: pathOf(node),
    parentId: node.parent?.id ?? null,
    kind: kindOf(node),
    region: node.parent?.type === 'parallel',
    initialIds: node.type === 'compound' ? (node.initial?.target ?? []).map((t: AnyNode) => t.id) : [],
    description: text(node.description),
    spec: specOf(node.meta),
    invokes: (node.invoke ?? []).map((i: { src: unknown; id: string }) => (typeof i.src === 'string' ? i.src : i.id)),
    entry: actionsOf(node.entry),
    exit: actionsOf(node.exit),
    depth: node.path.length,
  }));

  const transitions: AuditTransition[] = listTransitions(machine).map((t) => {
    const node = byId.get(t.sourceId) as AnyNode;
    const list = t.eventType === 'always' ? node.always : node.transitions.get(t.eventType);
    const def = (list?.[t.index] ?? {}) as { actions?: unknown; description?: unknown; meta?: unknown };
    const delay = t.eventType.startsWith('xstate.after.') ? (t.eventType.slice('xstate.after.'.length).split('.')[0] ?? null) : null;
    return {
      ...t,
      event: eventLabel(t.eventType),
      delay,
      actions: actionsOf(def.actions),
      description: text(def.description),
      spec: specOf(def.meta),
    };
  });

  return { rootId: machine.root.id, states, transitions, spec: specOf(machine.root.meta) };
}

/** The text drawn on an edge: `EVENT` then `[guard]` on a second line when there is one; `after <delay>`. */
export function edgeLabelLines(t: Pick<AuditTransition, 'event' | 'guard' | 'delay'>): string[] {
  const first = t.delay !== null ? `after ${/^\d+$/.test(t.delay) ? `${t.delay} ms` : t.delay}` : t.event;
  // an eventless transition is named by its guard alone (as in the Mermaid charts)
  if (t.event === 'always' && t.guard) return [`[${t.guard}]`];
  return t.guard ? [first, `[${t.guard}]`] : [first];
}
