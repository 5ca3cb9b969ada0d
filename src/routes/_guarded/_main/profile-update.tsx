import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { ProfileUpdatePage } from '../../../features/profile/profile-update-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/**
 * /profile-update (document 1 §2 start page rule 5: isNeedPersonalInfoUpdate). Once saved, the
 * customer info read again goes into the session (the start page reads it) and the customer goes home.
 */
export const Route = createFileRoute('/_guarded/_main/profile-update')({
  beforeLoad: () => ensureAppCatalog(),
  component: ProfileUpdateRoute,
});

function ProfileUpdateRoute() {
  const { session } = Route.useRouteContext();
  const navigate = Route.useNavigate();
  const acting = useSelector(session, selectActingCustomerId);
  return (
    <ProfileUpdatePage
      actingCustomerId={acting}
      onDone={(customer) => {
        session.send({ type: 'CUSTOMER.LOADED', customer });
        void navigate({ to: '/home' });
      }}
    />
  );
}
