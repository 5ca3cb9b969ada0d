import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useLingui } from '@lingui/react';
import { useSelector } from '@xstate/react';
import { selectAccessToken } from '../../../../../machines/session/session.select.ts';
import { selectCanOpenAccount } from '../../../../features/accounts/access.ts';
import { countriesQuery } from '../../../../features/registration/queries.ts';
import { TransferPage } from '../../../../features/transfers/transfer-view.tsx';
import { RouterPageLink } from '../../../../features/transfers/page-link.tsx';
import { ensureAppCatalog } from '../../../../lib/i18n.ts';

/**
 * /transfer/external (document 2 §2): money out of the platform, to a bank account, a card, a
 * crypto wallet, a Pix key or an Interac contact, over the method the customer picks for the
 * payee's country (issue 15). The countries are the dictionary's, named in the UI language.
 */
export const Route = createFileRoute('/_guarded/_main/transfer/external')({
  beforeLoad: async () => {
    await ensureAppCatalog();
  },
  component: TransferExternalRoute,
});

function TransferExternalRoute() {
  const { session, queryClient } = Route.useRouteContext();
  const { i18n } = useLingui();
  const deps = useMemo(
    () => ({
      getAccessToken: () => selectAccessToken(session.getSnapshot()),
      queryClient,
    }),
    [session, queryClient],
  );
  const canOpenAccount = useSelector(session, selectCanOpenAccount);
  const countries = useQuery(countriesQuery(i18n.locale));
  const sorted = useMemo(
    () => [...(countries.data ?? [])].sort((a, b) => a.name.localeCompare(b.name, i18n.locale)).map((c) => ({ code: c.code, name: c.name })),
    [countries.data, i18n.locale],
  );
  return <TransferPage kind="external" deps={deps} canOpenAccount={canOpenAccount} link={RouterPageLink} countries={sorted} />;
}
