import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { sessionRequestHooks } from '../../../features/auth/session-actor.ts';
import { accountsQuery } from '../../../lib/accounts-query.ts';
import { StatementsView } from '../../../features/history/statements-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/** /statements (document 2 §2): an account's monthly statement as a PDF. */
export const Route = createFileRoute('/_guarded/_main/statements')({
  beforeLoad: () => ensureAppCatalog(),
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(accountsQuery(selectActingCustomerId(context.session.getSnapshot())));
  },
  component: StatementsRoute,
});

function StatementsRoute() {
  const { session } = Route.useRouteContext();
  const acting = useSelector(session, selectActingCustomerId);
  const access = useMemo(() => sessionRequestHooks(session), [session]);
  return <StatementsView actingCustomerId={acting} access={access} />;
}
