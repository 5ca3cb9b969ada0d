import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { AddMoneyView } from '../../../features/funding/add-money-view.tsx';
import { paymentInstructionsQuery } from '../../../features/funding/queries.ts';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/** /add-money (issue 15 §2; not in the spec's route list): each account's receiving details. */
export const Route = createFileRoute('/_guarded/_main/add-money')({
  beforeLoad: () => ensureAppCatalog(),
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(paymentInstructionsQuery(selectActingCustomerId(context.session.getSnapshot())));
  },
  component: AddMoneyRoute,
});

function AddMoneyRoute() {
  const { session } = Route.useRouteContext();
  const acting = useSelector(session, selectActingCustomerId);
  return <AddMoneyView actingCustomerId={acting} />;
}
