import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { LimitedAccountView } from '../../../features/verification/limited-account-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/** /limited-account (document 1 §2, §4): the restriction reasons, their documents and uploads. */
export const Route = createFileRoute('/_guarded/_main/limited-account')({
  beforeLoad: () => ensureAppCatalog(),
  component: LimitedAccountRoute,
});

function LimitedAccountRoute() {
  const { session } = Route.useRouteContext();
  const acting = useSelector(session, selectActingCustomerId);
  return <LimitedAccountView actingCustomerId={acting} />;
}
