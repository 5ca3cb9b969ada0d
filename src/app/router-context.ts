/** What every route's beforeLoad and loader receive (TanStack Router context). */
import type { QueryClient } from '@tanstack/react-query';
import type { SessionActor } from '../features/auth/session-actor.ts';

export interface RouterContext {
  session: SessionActor;
  queryClient: QueryClient;
}
