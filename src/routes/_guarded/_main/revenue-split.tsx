import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { sessionRequestHooks, useSessionCustomer } from '../../../features/auth/session-actor.ts';
import { ContractsListView } from '../../../features/contracts/contracts-list-view.tsx';
import { mayActOnContracts } from '../../../features/contracts/rights.ts';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/**
 * /revenue-split (document 3 §2; issue 19 item 1): the acting customer's revenue-split contracts.
 * Every signed-in customer has them (a contract is between two customers, a person or a company);
 * "New contract" only with full rights (the platform answers 403 otherwise).
 */
export const Route = createFileRoute('/_guarded/_main/revenue-split')({
  beforeLoad: () => ensureAppCatalog(),
  component: ContractsRoute,
});

function ContractsRoute() {
  const { session } = Route.useRouteContext();
  const navigate = Route.useNavigate();
  const customer = useSessionCustomer(session);
  const acting = useSelector(session, selectActingCustomerId);
  const rights = useSelector(session, (s) => s.context.accessInfo?.accessRights ?? null);
  const access = useMemo(() => sessionRequestHooks(session), [session]);
  if (!customer) return null;
  const customerId = acting ?? customer.customerId;
  const mayCreate = mayActOnContracts({ actingForOther: acting !== null && acting !== customer.customerId, accessRights: rights });
  return (
    <ContractsListView
      key={customerId}
      access={access}
      customerId={customerId}
      mayCreate={mayCreate}
      onOpen={(id) => void navigate({ to: '/revenue-split/$contractId', params: { contractId: String(id) } })}
      onNew={() => void navigate({ to: '/revenue-split/new' })}
    />
  );
}
