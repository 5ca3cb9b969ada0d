import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectAccessToken } from '../../../../../machines/session/session.select.ts';
import { selectCanOpenAccount, selectOwnEmail } from '../../../../features/accounts/access.ts';
import { TransferPage } from '../../../../features/transfers/transfer-view.tsx';
import { RouterPageLink } from '../../../../features/transfers/page-link.tsx';
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
  const canOpenAccount = useSelector(session, selectCanOpenAccount);
  const ownEmail = useSelector(session, selectOwnEmail);
  const ownEmails = useMemo(() => (ownEmail ? [ownEmail] : []), [ownEmail]);
  return <TransferPage kind="p2p" deps={deps} canOpenAccount={canOpenAccount} ownEmails={ownEmails} link={RouterPageLink} />;
}
