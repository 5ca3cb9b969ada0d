import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectAccessToken } from '../../../../../machines/session/session.select.ts';
import { selectCanOpenAccount, selectOwnEmail } from '../../../../features/accounts/access.ts';
import { TransferPage } from '../../../../features/transfers/transfer-view.tsx';
import { RouterPageLink } from '../../../../features/transfers/page-link.tsx';
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
  const canOpenAccount = useSelector(session, selectCanOpenAccount);
  const ownEmail = useSelector(session, selectOwnEmail);
  const ownEmails = useMemo(() => (ownEmail ? [ownEmail] : []), [ownEmail]);
  return <TransferPage kind="betweenAccounts" deps={deps} canOpenAccount={canOpenAccount} ownEmails={ownEmails} link={RouterPageLink} />;
}
