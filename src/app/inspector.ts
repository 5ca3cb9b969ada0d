/**
 * The Stately inspector for development: `?inspect` in the URL opens it, and every actor the app
 * starts afterwards reports to it (they all start through src/lib/actors.ts, which reads the
 * shared inspector set here). The import is dynamic and behind import.meta.env.DEV, so production
 * builds drop it entirely. The inspector is created once per page and shared by all actors.
 */
import { setSharedInspect, type Inspect } from '../lib/actors.ts';

export type { Inspect };

let created: Promise<Inspect> | undefined;

export async function createDevInspector(): Promise<Inspect | undefined> {
  if (!import.meta.env.DEV) return undefined;
  if (typeof window === 'undefined' || !new URLSearchParams(window.location.search).has('inspect')) return undefined;
  created ??= import('@statelyai/inspect').then(({ createBrowserInspector }) => {
    const inspector = createBrowserInspector();
    return (e) => inspector.inspect.next?.(e);
  });
  return created;
}

/** Creates the dev inspector (when asked for) and hands it to every actor started from now on. */
export async function installDevInspector(): Promise<void> {
  const inspect = await createDevInspector();
  if (inspect) setSharedInspect(inspect);
}
