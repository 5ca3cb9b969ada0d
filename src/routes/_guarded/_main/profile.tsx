import { Link, createFileRoute, useLocation } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { ProfilePage } from '../../../features/profile/profile-view.tsx';
import type { SelfCertificationLink } from '../../../features/profile/tax-certification-summary.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/** /profile: the customer's data, documents and KYC in sections (#phones, #address, #identity...). */
export const Route = createFileRoute('/_guarded/_main/profile')({
  beforeLoad: () => ensureAppCatalog(),
  component: ProfileRoute,
});

const TaxLink: SelfCertificationLink = ({ className, children }) => (
  <Link to="/self-certification" className={className}>
    {children}
  </Link>
);

function ProfileRoute() {
  const { session } = Route.useRouteContext();
  const acting = useSelector(session, selectActingCustomerId);
  const hash = useLocation({ select: (l) => l.hash });
  return <ProfilePage actingCustomerId={acting} hash={hash} taxLink={TaxLink} />;
}
