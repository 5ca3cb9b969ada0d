import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../machines/session/session.select.ts';
import { KycPage } from '../../features/profile/kyc-view.tsx';
import { ensureAppCatalog } from '../../lib/i18n.ts';
import { RestrictedShell } from '../../app/restricted-shell.tsx';

/**
 * /kyc (document 1 §2: a guarded route outside the main layout; while KYC is needed every other
 * guarded route leads here, src/app/guards.ts requireKycDone). Its own frame: the brand, the
 * language and sign-out, no navigation to the pages KYC keeps closed. Once answered, the customer
 * info read again goes into the session (which opens the other routes) and the customer goes home.
 */
export const Route = createFileRoute('/_guarded/kyc')({
  beforeLoad: () => ensureAppCatalog(),
  component: KycRoute,
});

function KycRoute() {
  const { session } = Route.useRouteContext();
  const navigate = Route.useNavigate();
  const acting = useSelector(session, selectActingCustomerId);
  return (
    <RestrictedShell session={session}>
      <KycPage
        actingCustomerId={acting}
        onDone={(customer) => {
          session.send({ type: 'CUSTOMER.LOADED', customer });
          void navigate({ to: '/home' });
        }}
      />
    </RestrictedShell>
  );
}
