import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { sessionRequestHooks, useSessionCustomer } from '../../../features/auth/session-actor.ts';
import { ContractPage } from '../../../features/contracts/contract-view.tsx';
import { appPathOf, mayActOnContracts } from '../../../features/contracts/rights.ts';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/**
 * /revenue-split/$contractId (document 3 §2; issue 19 item 1): one contract's life and its actions
 * (machines/contract). Signing goes to the app's /e-sign/<token> page, which comes back here once
 * signed; the identity check is another site. A parameter that is not a contract number shows
 * "not found" as an unknown contract does.
 */
export const Route = createFileRoute('/_guarded/_main/revenue-split_/$contractId')({
  beforeLoad: () => ensureAppCatalog(),
  component: ContractRoute,
});

function ContractRoute() {
  const { session } = Route.useRouteContext();
  const navigate = Route.useNavigate();
  const { contractId } = Route.useParams();
  const customer = useSessionCustomer(session);
  const acting = useSelector(session, selectActingCustomerId);
  const rights = useSelector(session, (s) => s.context.accessInfo?.accessRights ?? null);
  const access = useMemo(() => sessionRequestHooks(session), [session]);
  if (!customer) return null;
  const customerId = acting ?? customer.customerId;
  const id = /^[1-9]\d{0,9}$/.test(contractId) ? Number(contractId) : 0;
  const mayAct = mayActOnContracts({ actingForOther: acting !== null && acting !== customer.customerId, accessRights: rights });
  return (
    <ContractPage
      key={`${customerId}-${contractId}`}
      access={access}
      contractId={id}
      customerId={customerId}
      mayAct={mayAct}
      onBack={() => void navigate({ to: '/revenue-split' })}
      onLeave={(url) => {
        const path = appPathOf(url, window.location.origin);
        if (path) void navigate({ href: path });
        else window.location.assign(url);
      }}
    />
  );
}
