import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { selectAccessToken } from '../../../../../machines/session/session.select.ts';
import { TransferPage } from '../../../../features/transfers/transfer-view.tsx';
import { ensureAppCatalog } from '../../../../lib/i18n.ts';

/** /transfer/p2p (document 2 §2): money to another customer by e-mail. */
export const Route = createFileRoute('/_guarded/_main/transfer/p2p')({
  beforeLoad: async () => {
    await ensureAppCatalog();
  },
  component: TransferP2pRoute,
});

function TransferP2pRoute() {
  const { session, queryClient } = Route.useRouteContext();
  const deps = useMemo(() => ({ getAccessToken: () => selectAccessToken(session.getSnapshot()), queryClient }), [session, queryClient]);
  return <TransferPage kind="p2p" deps={deps} />;
}
