import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { sessionRequestHooks, useSessionCustomer } from '../../../features/auth/session-actor.ts';
import { downloadFile } from '../../../features/history/download.ts';
import { mayManageCompany } from '../../../features/company/rights.ts';
import { BusinessCertificationPage, type DownloadForm } from '../../../features/tax/business-certification-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/**
 * /self-certification-business (document 3 §2): the company's FATCA/CRS self-certification. It
 * loads the certification with its documents, the shareholders and directors. Saving and signing
 * need the 'manage' level (full rights 2, or the owner: api/rights.ts); anyone else sees it read-only.
 */
export const Route = createFileRoute('/_guarded/_main/self-certification-business')({
  beforeLoad: () => ensureAppCatalog(),
  component: SelfCertificationBusinessRoute,
});

function SelfCertificationBusinessRoute() {
  const { session, queryClient } = Route.useRouteContext();
  const customer = useSessionCustomer(session);
  const acting = useSelector(session, selectActingCustomerId);
  const rights = useSelector(session, (s) => s.context.accessInfo?.accessRights ?? null);
  const canManage = customer ? mayManageCompany({ userType: customer.userType, actingForOther: acting !== null && acting !== customer.customerId, accessRights: rights }) : false;
  const deps = useMemo(() => ({ queryClient }), [queryClient]);
  // a signed form's PDF: a GET with the session's token (its url is a path of the platform)
  const download = useMemo<DownloadForm>(() => {
    const access = sessionRequestHooks(session);
    return async (url, fileName) => {
      const result = await downloadFile(access, url, 'application/pdf', fileName);
      return result.ok ? { ok: true } : { ok: false, detail: result.detail };
    };
  }, [session]);
  // a new machine when the acting company or the rights change
  return <BusinessCertificationPage key={`${acting}:${canManage}`} deps={deps} canManage={canManage} download={download} />;
}
