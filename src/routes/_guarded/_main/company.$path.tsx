import { createFileRoute, redirect } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { CompanyPage, isCompanySection } from '../../../features/company/company-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/** /company/{path} (document 3 §2): one section of the company's pages; an unknown section shows the documents. */
export const Route = createFileRoute('/_guarded/_main/company/$path')({
  beforeLoad: ({ params }) => {
    if (!isCompanySection(params.path)) throw redirect({ to: '/company/$path', params: { path: 'documents' }, replace: true });
    return ensureAppCatalog();
  },
  component: CompanySectionRoute,
});

function CompanySectionRoute() {
  const { session } = Route.useRouteContext();
  const { path } = Route.useParams();
  const acting = useSelector(session, selectActingCustomerId);
  return <CompanyPage actingCustomerId={acting} section={isCompanySection(path) ? path : 'documents'} />;
}
