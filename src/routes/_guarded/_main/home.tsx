import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { HomeView } from '../../../features/home/home-view.tsx';
import { accountsQuery, customerInfoQuery } from '../../../features/home/queries.ts';

export const Route = createFileRoute('/_guarded/_main/home')({
  loader: ({ context }) => {
    const acting = selectActingCustomerId(context.session.getSnapshot());
    // Prefetch only: the view shows loading and error states itself.
    void context.queryClient.prefetchQuery(customerInfoQuery(acting));
    void context.queryClient.prefetchQuery(accountsQuery(acting));
  },
  component: HomeRoute,
});

function HomeRoute() {
  const { session } = Route.useRouteContext();
  const acting = useSelector(session, selectActingCustomerId);
  return <HomeView actingCustomerId={acting} />;
}
