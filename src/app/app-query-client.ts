/**
 * The app's one QueryClient, made when a route that reads through TanStack Query first asks
 * (ensureQueryClient in its beforeLoad), so the sign-in page, which reads nothing through it,
 * does not download the library (issue 12: /login's JavaScript). The UI tests pass a client of
 * their own in the router context and to AppRoot; that one is used then.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { RouterContext } from './router-context.ts';

let client: QueryClient | null = null;
let loading: Promise<QueryClient> | null = null;
const listeners = new Set<() => void>();

/** Loads the library and makes the client, once; a failed load (network) is tried again by the next caller. */
export function loadAppQueryClient(): Promise<QueryClient> {
  loading ??= import('./query-client.ts').then(
    ({ createAppQueryClient }) => {
      client = createAppQueryClient();
      for (const listener of listeners) listener();
      return client;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The client once loaded, else null (AppRoot provides it; sign-out clears it). */
export function loadedAppQueryClient(): QueryClient | null {
  return client;
}

export function subscribeAppQueryClient(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * For a route's beforeLoad: the client its loaders and views read through, in the context of the
 * route and its children (the router context's own when a test passed one).
 */
export async function ensureQueryClient(context: RouterContext): Promise<{ queryClient: QueryClient }> {
  return { queryClient: context.queryClient ?? (await loadAppQueryClient()) };
}
