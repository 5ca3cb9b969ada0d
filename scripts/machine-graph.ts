/**
 * Walks a machine definition (not a running actor) and lists its states and transitions. Used by
 * the diagram generator (scripts/diagrams.ts) and by the model tests' transition-coverage checks.
 */
import type { AnyStateMachine, StateNode } from 'xstate';

type AnyNode = StateNode<any, any>;

export interface ChartTransition {
  /** stable key: source id, event type, index among that event's candidates */
  key: string;
  sourceId: string;
  eventType: string;
  guard: string | null;
  targetIds: string[];
  /** the transition's position among the candidates of the same event in the same state */
  index: number;
}

function guardName(guard: unknown): string | null {
  if (!guard) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'inline';
}

export function allNodes(machine: AnyStateMachine): AnyNode[] {
  const out: AnyNode[] = [];
  const walk = (node: AnyNode) => {
    out.push(node);
    for (const child of Object.values(node.states) as AnyNode[]) walk(child);
  };
  walk(machine.root as AnyNode);
  return out;
}

/** Every transition of the chart, eventless ones under the event type `always`. */
export function listTransitions(machine: AnyStateMachine): ChartTransition[] {
  const out: ChartTransition[] = [];
  for (const node of allNodes(machine)) {
    const groups: [string, readonly { guard?: unknown; target?: readonly AnyNode[] | undefined }[]][] = [
      ...node.transitions.entries(),
    ];
    if (node.always?.length) groups.push(['always', node.always]);
    for (const [eventType, candidates] of groups) {
      candidates.forEach((t, index) => {
        out.push({
          key: `${node.id}|${eventType}|${index}`,
          sourceId: node.id,
          eventType,
          guard: guardName(t.guard),
          targetIds: (t.target ?? []).map((n) => n.id),
          index,
        });
      });
    }
  }
  return out;
}

/**
 * The name of a machine's files (docs/<file>.md, the audit pack's page, its model-coverage report):
 * its id in kebab case (accountRecovery -> account-recovery), as scripts/diagrams.ts lists them.
 */
export function machineFileOf(machine: AnyStateMachine): string {
  return machine.id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Short, readable event names: xstate.done.actor.signIn -> done signIn, after delays by name. */
export function eventLabel(eventType: string): string {
  if (eventType.startsWith('xstate.done.actor.')) return `done ${eventType.slice('xstate.done.actor.'.length)}`;
  if (eventType.startsWith('xstate.error.actor.')) return `error ${eventType.slice('xstate.error.actor.'.length)}`;
  if (eventType.startsWith('xstate.after.')) return `after ${eventType.slice('xstate.after.'.length).split('.')[0]}`;
  return eventType;
}
