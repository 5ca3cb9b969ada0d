import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId, selectCustomer } from '../../../machines/session/session.select.ts';
import { CompanyDocumentsView } from '../../features/verification/company-documents-view.tsx';
import { ensureAppCatalog } from '../../lib/i18n.ts';
import { RestrictedShell } from '../../app/restricted-shell.tsx';

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
  const acting = useSelector(session, selectActingCustomerId);
  const isBusiness = useSelector(session, (s) => selectCustomer(s)?.customerType !== 'personal');
  return (
    <RestrictedShell session={session}>
      <CompanyDocumentsView actingCustomerId={acting} isCompany={acting !== null || isBusiness} />
    </RestrictedShell>
  );
}
