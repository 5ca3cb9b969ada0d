/**
 * The in-page statechart inspector (development only, `?inspect=local`; src/app/inspector.ts
 * mounts it): a button at the bottom of the page opens a drawer listing every machine actor the
 * app started (store.ts), and for the one chosen its diagram (the audit pack's elkjs layout,
 * scripts/audit-pack/) with the states it is in highlighted, the event that led to each state, and
 * its context. A developer's tool in English only, like the Stately inspector it stands in for;
 * production builds never load it. Secrets in a context (passwords, tokens, codes) are masked.
 */
import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { auditMachine, type AuditMachine } from '../../../scripts/audit-pack/model.ts';
import { layoutMachine } from '../../../scripts/audit-pack/layout.ts';
import type { InspectedActor, InspectorStore } from './store.ts';
import '../../../scripts/audit-pack/chart.css';
import './panel.css';

/** Keys whose values the panel never shows. */
const SECRET_KEY = /password|token|secret|otp|pin|code$|cvv|pan$/i;

/** A context as readable JSON: actors by their id, secrets masked, cycles cut. */
export function contextText(context: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(
    context,
    (key, value: unknown) => {
      if (key && SECRET_KEY.test(key) && value !== null && value !== undefined && value !== '') return '•••';
      if (value && typeof value === 'object') {
        // an actor (as its toJSON gives it, or itself)
        if ('xstate$$type' in value || ('sessionId' in value && 'send' in value)) return `[actor ${String((value as { id?: unknown }).id)}]`;
        if (seen.has(value)) return '[cycle]';
        seen.add(value);
      }
      return value;
    },
    2,
  );
}

interface Laid {
  model: AuditMachine;
  svg: string;
}
const layouts = new WeakMap<AnyStateMachine, Promise<Laid>>();
function layoutOf(machine: AnyStateMachine): Promise<Laid> {
  let laid = layouts.get(machine);
  if (!laid) {
    const model = auditMachine(machine);
    laid = layoutMachine(model, machine.id).then(({ svg }) => ({ model, svg }));
    layouts.set(machine, laid);
  }
  return laid;
}

/** 'editing.fee.waiting' -> matches({ editing: { fee: 'waiting' } }) */
function isIn(snapshot: AnyMachineSnapshot, path: string): boolean {
  if (path === '(root)') return snapshot.status === 'active';
  const parts = path.split('.');
  let value: unknown = parts.pop();
  while (parts.length) value = { [parts.pop() as string]: value };
  return snapshot.matches(value as never);
}

/** The ids of the states the snapshot is in, by the audit model's paths. */
export function activeStateIds(model: AuditMachine, snapshot: AnyMachineSnapshot): string[] {
  return model.states.filter((s) => isIn(snapshot, s.path)).map((s) => s.id);
}

function Chart({ actor }: { actor: InspectedActor }) {
  const [laid, setLaid] = useState<Laid | null>(null);
  // the whole chart in the panel's width first; at its own size (scrolled to the state it is in) on demand
  const [fit, setFit] = useState(true);
  const [failed, setFailed] = useState<string | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    setLaid(null);
    layoutOf(actor.machine).then(
      (l) => live && setLaid(l),
      (e: unknown) => live && setFailed(String(e)),
    );
    return () => {
      live = false;
    };
  }, [actor.machine]);
  useEffect(() => {
    const root = frame.current;
    if (!laid || !root) return;
    // the machine's own box always holds the rest: only the states within it are marked
    const active = new Set(activeStateIds(laid.model, actor.snapshot).filter((id) => id !== laid.model.rootId));
    for (const g of root.querySelectorAll<SVGGElement>('g.state[data-state-id]')) g.classList.toggle('active', active.has(g.dataset.stateId ?? ''));
    const last = actor.events[0]?.type;
    // the labels of the event taken last: its transitions from or into a state the actor is in
    // now (an event the actor ignored marks none)
    const taken = new Set(
      laid.model.transitions.filter((t) => t.eventType === last && (active.has(t.sourceId) || t.targetIds.some((id) => active.has(id)))).map((t) => t.key),
    );
    for (const g of root.querySelectorAll<SVGGElement>('g.edge-label[data-transition]')) g.classList.toggle('last', taken.has(g.dataset.transition ?? ''));
    if (!fit) root.querySelector('g.state.active:not(.container)')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [laid, actor.snapshot, actor.events, fit]);
  if (failed) return <p className="dev-inspector-note">The chart could not be laid out: {failed}</p>;
  // the SVG is the pack's own output from the machine definition (no user data in it)
  return (
    <>
      <div className="dev-inspector-bar">
        <p className="dev-inspector-value">
          In <code>{actor.events[0]?.value}</code>
        </p>
        <button type="button" aria-pressed={!fit} onClick={() => setFit((f) => !f)}>
          Actual size
        </button>
      </div>
      <div
        ref={frame}
        className={`dev-inspector-chart${fit ? ' fit' : ''}`}
        role="region"
        aria-label={`The ${actor.machine.id} chart`}
        // a scrolling area a keyboard can reach
        tabIndex={0}
        aria-busy={laid ? undefined : true}
        dangerouslySetInnerHTML={{ __html: laid?.svg ?? '' }}
      />
    </>
  );
}

const timeOf = (at: number) => new Date(at).toLocaleTimeString('en-GB', { hour12: false });

function ActorDetail({ actor }: { actor: InspectedActor }) {
  const headingId = useId();
  return (
    <section className="dev-inspector-detail" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {actor.machine.id} <span className={`dev-inspector-status status-${actor.snapshot.status}`}>{actor.snapshot.status}</span>
      </h3>
      <Chart actor={actor} />
      <h4>Events, newest first</h4>
      <ol className="dev-inspector-events">
        {actor.events.map((e, i) => (
          <li key={`${e.at}-${i}`}>
            <code>{e.type}</code> → <code>{e.value}</code> <time dateTime={new Date(e.at).toISOString()}>{timeOf(e.at)}</time>
          </li>
        ))}
      </ol>
      <details>
        <summary>Context</summary>
        <pre>{contextText(actor.snapshot.context)}</pre>
      </details>
    </section>
  );
}

export function InspectorPanel({ store, initiallyOpen = false }: { store: InspectorStore; initiallyOpen?: boolean }) {
  const actors = useSyncExternalStore(store.subscribe, store.getActors);
  const [open, setOpen] = useState(initiallyOpen);
  const [chosen, setChosen] = useState<string | null>(null);
  const drawerId = useId();
  const headingId = useId();
  const running = actors.filter((a) => a.snapshot.status === 'active');
  // the one chosen, else the flow started last that still runs
  const current = useMemo(
    () => actors.find((a) => a.sessionId === chosen) ?? [...running].reverse().find((a) => a.parentSessionId === null) ?? running.at(-1) ?? actors.at(-1),
    [actors, running, chosen],
  );
  return (
    <aside className="dev-inspector" aria-label="Statechart inspector">
      <button type="button" className="dev-inspector-toggle" aria-expanded={open} aria-controls={drawerId} onClick={() => setOpen((o) => !o)}>
        Statecharts · {running.length} running
      </button>
      {open ? (
        <div id={drawerId} className="dev-inspector-drawer" role="region" aria-labelledby={headingId}>
          <header>
            <h2 id={headingId}>Statecharts</h2>
            <button type="button" onClick={() => setOpen(false)}>
              Close
            </button>
          </header>
          <p className="dev-inspector-note">Development only: every machine the app started, live. The diagrams are the audit pack's.</p>
          <ul className="dev-inspector-actors">
            {[...actors].reverse().map((a) => (
              <li key={a.sessionId}>
                <button type="button" aria-pressed={a === current} onClick={() => setChosen(a.sessionId)}>
                  <span className="dev-inspector-id">
                    {a.parentSessionId ? '↳ ' : ''}
                    {a.machine.id}
                  </span>{' '}
                  <code>{a.events[0]?.value}</code> <span className={`dev-inspector-status status-${a.snapshot.status}`}>{a.snapshot.status}</span>
                </button>
              </li>
            ))}
          </ul>
          {current ? <ActorDetail actor={current} /> : <p className="dev-inspector-note">No statechart has started yet.</p>}
        </div>
      ) : null}
    </aside>
  );
}

/** Mounts the panel in a root of its own at the end of the page (outside the app's tree). */
export function mountInspectorPanel(store: InspectorStore): void {
  const host = document.createElement('div');
  host.className = 'dev-inspector-host';
  document.body.append(host);
  createRoot(host).render(<InspectorPanel store={store} />);
}
