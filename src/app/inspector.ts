/**
 * The statechart inspector for development: `?inspect` in the URL opens the Stately inspector (a
 * window served by stately.ai), `?inspect=local` the in-page one (src/app/local-inspector/: works
 * offline, draws the audit pack's diagrams), and every actor the app starts afterwards reports to
 * it (they all start through src/lib/actors.ts, which reads the shared inspector set here). The
 * imports are dynamic and behind import.meta.env.DEV, so production builds drop them entirely. The
 * inspector is created once per page and shared by all actors.
 */
import type { InspectionEvent } from 'xstate';
import { setSharedInspect, type Inspect } from '../lib/actors.ts';

export type { Inspect };

/** per kind: one Stately window, or one in-page panel */
const created = new Map<'local' | 'stately', Promise<Inspect>>();

function createInspector(kind: 'local' | 'stately'): Promise<Inspect> {
  if (kind === 'local') {
    return Promise.all([import('./local-inspector/store.ts'), import('./local-inspector/panel.tsx')]).then(([{ InspectorStore }, { mountInspectorPanel }]) => {
      const store = new InspectorStore();
      mountInspectorPanel(store);
      return store.inspect;
    });
  }
  return import('@statelyai/inspect').then(({ createBrowserInspector }) => {
    const inspector = createBrowserInspector();
    return (e: InspectionEvent) => inspector.inspect.next?.(e);
  });
}

export async function createDevInspector(): Promise<Inspect | undefined> {
  if (!import.meta.env.DEV) return undefined;
  if (typeof window === 'undefined') return undefined;
  const asked = new URLSearchParams(window.location.search).get('inspect');
  if (asked === null) return undefined;
  const kind = asked === 'local' ? 'local' : 'stately';
  let inspect = created.get(kind);
  if (!inspect) {
    inspect = createInspector(kind);
    created.set(kind, inspect);
  }
  return inspect;
}

/** Creates the dev inspector (when asked for) and hands it to every actor started from now on. */
export async function installDevInspector(): Promise<void> {
  const inspect = await createDevInspector();
  if (inspect) setSharedInspect(inspect);
}
