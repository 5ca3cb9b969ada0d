import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { CompanyEmailsPage } from '../../../features/company/company-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/** /company-emails (document 3 §2): the company's e-mail and its users'. */
export const Route = createFileRoute('/_guarded/_main/company-emails')({
  beforeLoad: () => ensureAppCatalog(),
  component: CompanyEmailsRoute,
});

function CompanyEmailsRoute() {
  const { session } = Route.useRouteContext();
  const acting = useSelector(session, selectActingCustomerId);
  return <CompanyEmailsPage actingCustomerId={acting} />;
}
