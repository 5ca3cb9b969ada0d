import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { sessionRequestHooks } from '../../../features/auth/session-actor.ts';
import { TransactionDetailPage } from '../../../features/history/transaction-detail-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/**
 * /history/$transactionId (issue 13): one transaction in full. The spec's routes name only
 * /history and /history/batch-transfers, so the detail sits under the history its rows come
 * from. `history_` keeps it out of the /history route's layout (a sibling page, not a child that
 * the history would have to render an outlet for). The parameter says the kind of id: t123 a
 * transfer, e456 a journal entry (a deposit row), because the two are numbered apart
 * (features/history/detail-param.ts); the view checks it and shows "not found" for anything else.
 */
export const Route = createFileRoute('/_guarded/_main/history_/$transactionId')({
  beforeLoad: () => ensureAppCatalog(),
  component: TransactionDetailRoute,
});

function TransactionDetailRoute() {
  const { session } = Route.useRouteContext();
  const { transactionId } = Route.useParams();
  const acting = useSelector(session, selectActingCustomerId);
  const access = useMemo(() => sessionRequestHooks(session), [session]);
  return <TransactionDetailPage key={transactionId} actingCustomerId={acting} param={transactionId} access={access} />;
}
