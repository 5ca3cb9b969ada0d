import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { useSelector } from '@xstate/react';
import { selectAccessToken } from '../../../../../machines/session/session.select.ts';
import { selectCanOpenAccount, selectOwnEmail } from '../../../../features/accounts/access.ts';
import { TransferPage } from '../../../../features/transfers/transfer-view.tsx';
import { RouterPageLink } from '../../../../features/transfers/page-link.tsx';
import { ensureAppCatalog } from '../../../../lib/i18n.ts';

/** An account id of the search (a number, or its digits as text), else none: a bad link opens the empty form. */
const AccountIdSchema = v.pipe(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number))]), v.integer(), v.minValue(1));
const accountIdOf = (value: unknown): number | undefined => {
  const parsed = v.safeParse(AccountIdSchema, value);
  return parsed.success ? parsed.output : undefined;
};

/**
 * /transfer/account (document 2 §2): a transfer between the customer's own accounts.
 * `?fromAccountId=` and `?toAccountId=` choose the accounts it opens with (a card's Unload and Load
 * links, api/cards.ts): taken when they are among the accounts offered, ignored otherwise.
 */
export const Route = createFileRoute('/_guarded/_main/transfer/account')({
  validateSearch: (search: Record<string, unknown>): { fromAccountId?: number; toAccountId?: number } => {
    const fromAccountId = accountIdOf(search.fromAccountId);
    const toAccountId = accountIdOf(search.toAccountId);
    return { ...(fromAccountId !== undefined ? { fromAccountId } : {}), ...(toAccountId !== undefined ? { toAccountId } : {}) };
  },
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
  const { fromAccountId, toAccountId } = Route.useSearch();
  // keyed by the chosen accounts: another card's link while on this page starts the form again with them
  return (
    <TransferPage
      key={`${fromAccountId ?? ''}:${toAccountId ?? ''}`}
      kind="betweenAccounts"
      deps={deps}
      canOpenAccount={canOpenAccount}
      ownEmails={ownEmails}
      link={RouterPageLink}
      fromAccountId={fromAccountId}
      toAccountId={toAccountId}
    />
  );
}
