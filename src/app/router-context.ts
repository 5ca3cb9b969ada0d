/** What every route's beforeLoad and loader receive (TanStack Router context). */
import type { QueryClient } from '@tanstack/react-query';
import type { SessionActor } from '../features/auth/session-actor.ts';

export interface RouterContext {
  session: SessionActor;
  /**
   * Given by the UI tests; the app loads its own when a route first needs it: such a route's
   * beforeLoad puts it in its children's context (ensureQueryClient in app-query-client.ts).
   */
  queryClient?: QueryClient;
}
