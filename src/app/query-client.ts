import { QueryClient } from '@tanstack/react-query';

/**
 * Reads are cached briefly (document 1 §9: the account list is cached with a 5000 ms window) and
 * not retried on their own: the request wrapper already refreshes and replays on a 401, and
 * failures are values (see queries.ts: a failed answer becomes a thrown error there).
 */
export function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5_000, retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
