import { createFileRoute, redirect } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId, selectCustomer } from '../../../../machines/session/session.select.ts';
import { UnverifiedAccountView } from '../../../features/verification/unverified-account-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/**
 * /unverified-account (document 1 §2): closed to verified users, who go home (§6). The session's
 * customer decides before the page loads; the view checks the fresh status too.
 */
export const Route = createFileRoute('/_guarded/_main/unverified-account')({
  beforeLoad: ({ context }) => {
    if (selectCustomer(context.session.getSnapshot())?.verified) throw redirect({ to: '/home' });
    return ensureAppCatalog();
  },
  component: UnverifiedAccountRoute,
});

function UnverifiedAccountRoute() {
  const { session } = Route.useRouteContext();
  const acting = useSelector(session, selectActingCustomerId);
  const navigate = Route.useNavigate();
  return <UnverifiedAccountView actingCustomerId={acting} onVerified={() => void navigate({ to: '/home', replace: true })} />;
}
