import { useCallback } from 'react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import type { OpenedAccount } from '../../../../machines/open-account/open-account.machine.ts';
import { selectCanOpenAccount } from '../../../features/accounts/access.ts';
import { OpenAccountPage } from '../../../features/accounts/open-account-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';
import { pushToast } from '../../../lib/notify.ts';

/**
 * /accounts/open: open an account in another currency or a crypto wallet (issue 13). The spec
 * names no route for it (document 2 §2 lists none): /accounts/open sits under the main layout
 * beside /home, where its button is, and leaves /accounts free for an account list later.
 */
export const Route = createFileRoute('/_guarded/_main/accounts/open')({
  beforeLoad: () => ensureAppCatalog(),
  component: OpenAccountRoute,
});

/** Reads that show the new account: the balances (home, transfers, history filters) and the chart. */
const CHANGED_QUERIES = [['balanceInquiry'], ['balanceHistory']] as const;

function OpenAccountRoute() {
  const { t } = useLingui();
  const { session, queryClient } = Route.useRouteContext();
  const acting = useSelector(session, selectActingCustomerId);
  const canOpen = useSelector(session, selectCanOpenAccount);
  const navigate = useNavigate();
  const onOpened = useCallback(
    (account: OpenedAccount) => {
      void (async () => {
        await Promise.all(CHANGED_QUERIES.map((queryKey) => queryClient.invalidateQueries({ queryKey: [...queryKey] })));
        const currency = account.currency;
        const address = account.address ?? '';
        pushToast({
          tone: 'success',
          title: account.address ? t`Your ${currency} wallet is ready` : t`Your ${currency} account is open`,
          // The receiving address is long: the toast stays a while (a wallet's address is also on its account later).
          ...(account.address ? { body: t`Its receiving address: ${address}`, timeoutMs: 30_000 } : {}),
        });
        await navigate({ to: '/home' });
      })();
    },
    [queryClient, navigate, t],
  );
  return (
    <OpenAccountPage
      actingCustomerId={acting}
      canOpen={canOpen}
      onOpened={onOpened}
      homeLink={<Link to="/home">{t`Back to your accounts`}</Link>}
    />
  );
}
