import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId, selectCustomer } from '../../../../machines/session/session.select.ts';
import { sessionRequestHooks } from '../../../features/auth/session-actor.ts';
import { historyRequest, parseHistorySearch, type HistoryFilter } from '../../../features/history/filter.ts';
import { EXPORT_ID_PATTERN } from '../../../features/history/emailed-export.tsx';
import { HistoryView } from '../../../features/history/history-view.tsx';
import { accountsQuery, transactionHistoryQuery } from '../../../features/history/queries.ts';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/** The URL's search: the filter, the page when it is not the first, and an e-mailed export's id. */
export type HistoryUrlSearch = HistoryFilter & { page?: number; exportId?: string };

/** The export id of an e-mail's link, when it looks like one. */
const emailedExportId = (raw: Record<string, unknown>): string | undefined =>
  typeof raw.exportId === 'string' && EXPORT_ID_PATTERN.test(raw.exportId) ? raw.exportId : undefined;

/**
 * /history (document 2 §2): the filter lives in the URL, so a filtered page can be bookmarked,
 * shared with oneself and walked with back and forward. Values that do not pass the contract's
 * schemas are dropped (filter.ts parseHistorySearch).
 */
export const Route = createFileRoute('/_guarded/_main/history')({
  validateSearch: (raw: Record<string, unknown>): HistoryUrlSearch => {
    const { page, ...filter } = parseHistorySearch(raw);
    const exportId = emailedExportId(raw);
    return { ...filter, ...(page > 1 ? { page } : {}), ...(exportId ? { exportId } : {}) };
  },
  beforeLoad: () => ensureAppCatalog(),
  // The search of a route merges its parents' (the root passes any value through unchecked):
  // only the history's own values, read again, go further.
  loaderDeps: ({ search }) => parseHistorySearch(search),
  loader: ({ context, deps }) => {
    const acting = selectActingCustomerId(context.session.getSnapshot());
    const { page, ...filter } = deps;
    void context.queryClient.prefetchQuery(accountsQuery(acting));
    void context.queryClient.prefetchQuery(transactionHistoryQuery(acting, historyRequest(filter, page)));
  },
  component: HistoryRoute,
});

function HistoryRoute() {
  const { session } = Route.useRouteContext();
  const raw = Route.useSearch();
  const search = parseHistorySearch(raw);
  const navigate = Route.useNavigate();
  const acting = useSelector(session, selectActingCustomerId);
  // The address an export is sent to: the signed-in user's own login, never typed.
  const email = useSelector(session, (s) => selectCustomer(s)?.login ?? null);
  const access = useMemo(() => sessionRequestHooks(session), [session]);
  return (
    <HistoryView
      actingCustomerId={acting}
      search={search}
      onSearch={({ page, ...filter }) => void navigate({ search: page > 1 ? { ...filter, page } : filter })}
      access={access}
      email={email}
      emailedExportId={emailedExportId(raw)}
    />
  );
}
