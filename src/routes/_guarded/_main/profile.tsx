import { createFileRoute, useLocation } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { ProfilePage } from '../../../features/profile/profile-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/** /profile: the customer's data, documents and KYC in sections (#phones, #address, #identity...). */
export const Route = createFileRoute('/_guarded/_main/profile')({
  beforeLoad: () => ensureAppCatalog(),
  component: ProfileRoute,
});

function ProfileRoute() {
  const { session } = Route.useRouteContext();
  const acting = useSelector(session, selectActingCustomerId);
  const hash = useLocation({ select: (l) => l.hash });
  return <ProfilePage actingCustomerId={acting} hash={hash} />;
}
