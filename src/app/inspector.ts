/**
 * The Stately inspector for development: `?inspect` in the URL opens it and connects every actor.
 * The import is dynamic and behind import.meta.env.DEV, so production builds drop it entirely.
 */
import type { InspectionEvent } from 'xstate';

export type Inspect = (e: InspectionEvent) => void;

export async function createDevInspector(): Promise<Inspect | undefined> {
  if (!import.meta.env.DEV) return undefined;
  if (typeof window === 'undefined' || !new URLSearchParams(window.location.search).has('inspect')) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  const inspector = createBrowserInspector();
  return (e) => inspector.inspect.next?.(e);
}
