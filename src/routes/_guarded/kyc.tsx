import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../machines/session/session.select.ts';
import { activeVariant } from '../../../variants/index.ts';
import { LanguageSwitcher } from '../../app/language-switcher.tsx';
import { SignOutButton, useSavedLanguage } from '../../app/session-controls.tsx';
import { SiteFooter } from '../../app/site-footer.tsx';
import { useSessionCustomer } from '../../features/auth/session-actor.ts';
import { KycPage } from '../../features/profile/kyc-view.tsx';
import { ensureAppCatalog } from '../../lib/i18n.ts';

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
  useSavedLanguage(useSessionCustomer(session));
  const acting = useSelector(session, selectActingCustomerId);
  return (
    <div className="external-shell">
      <header className="app-header">
        <span className="app-brand">{activeVariant.projectName}</span>
        <div className="app-user">
          <LanguageSwitcher signedIn />
          <SignOutButton session={session} />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="app-main restricted-main">
        <KycPage
          actingCustomerId={acting}
          onDone={(customer) => {
            session.send({ type: 'CUSTOMER.LOADED', customer });
            void navigate({ to: '/home' });
          }}
        />
      </main>
      <SiteFooter />
    </div>
  );
}
