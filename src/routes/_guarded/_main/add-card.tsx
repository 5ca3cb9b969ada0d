import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectAccessToken } from '../../../../machines/session/session.select.ts';
import { selectCanOpenAccount } from '../../../features/accounts/access.ts';
import { RouterApplyLink } from '../../../features/cards/apply-link.tsx';
import { ApplyForCardPage } from '../../../features/cards/apply-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/** /add-card (document 2 §2): apply for a physical, virtual or debit card. */
export const Route = createFileRoute('/_guarded/_main/add-card')({
  beforeLoad: async () => {
    await ensureAppCatalog();
  },
  component: AddCardRoute,
});

function AddCardRoute() {
  const { session, queryClient } = Route.useRouteContext();
  const deps = useMemo(() => ({ getAccessToken: () => selectAccessToken(session.getSnapshot()), queryClient }), [session, queryClient]);
  const canOpenAccount = useSelector(session, selectCanOpenAccount);
  return <ApplyForCardPage deps={deps} canOpenAccount={canOpenAccount} link={RouterApplyLink} />;
}
