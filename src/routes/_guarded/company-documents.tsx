import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId, selectCustomer } from '../../../machines/session/session.select.ts';
import { activeVariant } from '../../../variants/index.ts';
import { LanguageSwitcher } from '../../app/language-switcher.tsx';
import { SignOutButton, useSavedLanguage } from '../../app/session-controls.tsx';
import { SiteFooter } from '../../app/site-footer.tsx';
import { useSessionCustomer } from '../../features/auth/session-actor.ts';
import { CompanyDocumentsView } from '../../features/verification/company-documents-view.tsx';
import { ensureAppCatalog } from '../../lib/i18n.ts';

/**
 * /company-documents (document 1 §2: a guarded route outside the main layout, where a
 * representative without balance info goes after sign-in). Its own frame: the brand, the
 * language, sign-out; no navigation to pages the representative cannot use.
 */
export const Route = createFileRoute('/_guarded/company-documents')({
  beforeLoad: () => ensureAppCatalog(),
  component: CompanyDocumentsRoute,
});

function CompanyDocumentsRoute() {
  const { session } = Route.useRouteContext();
  useSavedLanguage(useSessionCustomer(session));
  const acting = useSelector(session, selectActingCustomerId);
  const isBusiness = useSelector(session, (s) => selectCustomer(s)?.customerType !== 'personal');
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
        <CompanyDocumentsView actingCustomerId={acting} isCompany={acting !== null || isBusiness} />
      </main>
      <SiteFooter />
    </div>
  );
}
