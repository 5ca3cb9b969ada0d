import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { useSessionCustomer } from '../../../features/auth/session-actor.ts';
import { CompanyAccessPage } from '../../../features/company/company-access-view.tsx';
import { mayManageCompany } from '../../../features/company/rights.ts';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/** /company-access (document 1 §2 "manage users"; document 3 §3 Access rights): who may act for the company. */
export const Route = createFileRoute('/_guarded/_main/company-access')({
  beforeLoad: () => ensureAppCatalog(),
  component: CompanyAccessRoute,
});

function CompanyAccessRoute() {
  const { session } = Route.useRouteContext();
  const customer = useSessionCustomer(session);
  const acting = useSelector(session, selectActingCustomerId);
  const rights = useSelector(session, (s) => s.context.accessInfo?.accessRights ?? null);
  const mayManage = customer ? mayManageCompany({ userType: customer.userType, actingForOther: acting !== null && acting !== customer.customerId, accessRights: rights }) : false;
  return <CompanyAccessPage actingCustomerId={acting} mayManage={mayManage} />;
}
