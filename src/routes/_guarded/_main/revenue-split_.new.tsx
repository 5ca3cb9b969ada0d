import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { sessionRequestHooks, useSessionCustomer } from '../../../features/auth/session-actor.ts';
import { ContractCreatePage } from '../../../features/contracts/contract-create-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/**
 * /revenue-split/new (document 3 §2; issue 19 item 1): a new revenue-split contract. `revenue-split_`
 * keeps it out of the list's layout (a sibling page, as /history/$transactionId is).
 */
export const Route = createFileRoute('/_guarded/_main/revenue-split_/new')({
  beforeLoad: () => ensureAppCatalog(),
  component: NewContractRoute,
});

function NewContractRoute() {
  const { session } = Route.useRouteContext();
  const navigate = Route.useNavigate();
  const customer = useSessionCustomer(session);
  const acting = useSelector(session, selectActingCustomerId);
  const access = useMemo(() => sessionRequestHooks(session), [session]);
  if (!customer) return null;
  const customerId = acting ?? customer.customerId;
  return (
    <ContractCreatePage
      key={customerId}
      access={access}
      companyId={customerId}
      onCreated={(id) => void navigate({ to: '/revenue-split/$contractId', params: { contractId: String(id) } })}
      onCancel={() => void navigate({ to: '/revenue-split' })}
    />
  );
}
