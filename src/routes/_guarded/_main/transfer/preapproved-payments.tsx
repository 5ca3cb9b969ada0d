import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../../machines/session/session.select.ts';
import { PreapprovedPaymentsPage } from '../../../../features/transfers/preapproved-view.tsx';
import { ensureAppCatalog } from '../../../../lib/i18n.ts';

/** /transfer/preapproved-payments (document 2 §2): the recurring payments, each stoppable. */
export const Route = createFileRoute('/_guarded/_main/transfer/preapproved-payments')({
  beforeLoad: () => ensureAppCatalog(),
  component: PreapprovedPaymentsRoute,
});

function PreapprovedPaymentsRoute() {
  const { session } = Route.useRouteContext();
  const acting = useSelector(session, selectActingCustomerId);
  return <PreapprovedPaymentsPage actingCustomerId={acting} />;
}
