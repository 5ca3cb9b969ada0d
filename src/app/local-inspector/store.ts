/**
 * The in-page statechart inspector's memory (development only, `?inspect=local`): every machine
 * actor the app starts reports here through src/lib/actors.ts's shared inspector, with each
 * snapshot and the event that led to it. The panel (panel.tsx) reads it with
 * useSyncExternalStore. Designed here (the spec names only "the statechart inspector"): the
 * Stately inspector (`?inspect`) is served by stately.ai and needs the internet; this one runs
 * with the app, offline, and draws the same diagrams as the audit pack.
 */
import type { AnyActorRef, AnyMachineSnapshot, AnyStateMachine, InspectionEvent } from 'xstate';

/** how many events each actor keeps (newest first) */
export const EVENTS_KEPT = 50;
/** how many actors are kept: beyond it the oldest that ended are dropped (a long session's flows) */
export const ACTORS_KEPT = 100;

export interface InspectedEvent {
  /** the event's type as sent (xstate.done.actor.signIn, CREDENTIALS.SUBMIT...) */
  type: string;
  /** the state value it led to, as text (signingIn, editing.fee.waiting) */
  value: string;
  at: number;
}

export interface InspectedActor {
  sessionId: string;
  machine: AnyStateMachine;
  /** the actor that started it (a flow's invoked machine), or null for a root actor */
  parentSessionId: string | null;
  snapshot: AnyMachineSnapshot;
  events: InspectedEvent[];
  startedAt: number;
}

function isMachine(logic: unknown): logic is AnyStateMachine {
  return typeof logic === 'object' && logic !== null && 'root' in logic && 'config' in logic && 'id' in logic;
}

/** A state value as one line: `editing.fee.waiting`, `{form: editing, fee: waiting}` for parallel states. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return String(value);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1) {
    const [key, inner] = entries[0] as [string, unknown];
    return `${key}.${valueText(inner)}`;
  }
  return `{${entries.map(([key, inner]) => `${key}: ${valueText(inner)}`).join(', ')}}`;
}

export class InspectorStore {
  private readonly actors = new Map<string, InspectedActor>();
  private readonly listeners = new Set<() => void>();
  private list: readonly InspectedActor[] = [];

  /** The inspector to hand to the actors (src/lib/actors.ts setSharedInspect). */
  readonly inspect = (e: InspectionEvent): void => {
    if (e.type !== '@xstate.snapshot') return;
    const ref = e.actorRef as AnyActorRef & { logic?: unknown; _parent?: AnyActorRef };
    if (!isMachine(ref.logic)) return;
    const snapshot = e.snapshot as AnyMachineSnapshot;
    const previous = this.actors.get(ref.sessionId);
    const event: InspectedEvent = { type: e.event.type, value: valueText(snapshot.value), at: Date.now() };
    const parentSessionId = ref._parent?.sessionId ?? null;
    this.actors.set(ref.sessionId, {
      sessionId: ref.sessionId,
      machine: ref.logic,
      parentSessionId,
      snapshot,
      events: [event, ...(previous?.events ?? [])].slice(0, EVENTS_KEPT),
      startedAt: previous?.startedAt ?? event.at,
    });
    for (const [id, actor] of this.actors) {
      if (this.actors.size <= ACTORS_KEPT) break;
      if (actor.snapshot.status !== 'active') this.actors.delete(id);
    }
    this.list = [...this.actors.values()];
    for (const listener of this.listeners) listener();
  };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Every machine actor seen, in the order they started (the same array until something changes). */
  readonly getActors = (): readonly InspectedActor[] => this.list;
}
