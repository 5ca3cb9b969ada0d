import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { selectAccessToken } from '../../../../../machines/session/session.select.ts';
import { TransferPage } from '../../../../features/transfers/transfer-view.tsx';
import { ensureAppCatalog } from '../../../../lib/i18n.ts';

/** /transfer/account (document 2 §2): a transfer between the customer's own accounts. */
export const Route = createFileRoute('/_guarded/_main/transfer/account')({
  beforeLoad: async () => {
    await ensureAppCatalog();
  },
  component: TransferAccountRoute,
});

function TransferAccountRoute() {
  const { session, queryClient } = Route.useRouteContext();
  const deps = useMemo(() => ({ getAccessToken: () => selectAccessToken(session.getSnapshot()), queryClient }), [session, queryClient]);
  return <TransferPage kind="betweenAccounts" deps={deps} />;
}
