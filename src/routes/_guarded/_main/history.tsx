import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId, selectCustomer } from '../../../../machines/session/session.select.ts';
import { sessionRequestHooks } from '../../../features/auth/session-actor.ts';
import type { HistoryFilter } from '../../../features/history/filter.ts';
import { HistoryPage } from '../../../features/history/history-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/** The URL's search: the filter, the page when it is not the first, and an e-mailed export's id. */
export type HistoryUrlSearch = HistoryFilter & { page?: number; exportId?: string };

/** Export ids are 128-bit base64url (server/modules/history); anything else is not one. */
const EXPORT_ID_PATTERN = /^[A-Za-z0-9_-]{16,100}$/;
/** The export id of an e-mail's link, when it looks like one. */
const emailedExportId = (raw: Record<string, unknown>): string | undefined =>
  typeof raw.exportId === 'string' && EXPORT_ID_PATTERN.test(raw.exportId) ? raw.exportId : undefined;


/**
 * /history (document 2 §2): the filter lives in the URL, so a filtered page can be bookmarked,
 * shared with oneself and walked with back and forward. Values that do not pass the contract's
 * schemas are dropped (filter.ts parseHistorySearch).
 */
export const Route = createFileRoute('/_guarded/_main/history')({
  // Passed through as it is here (this file is in the bundle every page loads): the view checks
  // every value with the contract's schemas (HistoryPage -> parseHistorySearch) and drops what does
  // not pass; it also loads its own data (no loader prefetch) for the same reason.
  validateSearch: (raw: Record<string, unknown>) => raw as HistoryUrlSearch,
  beforeLoad: () => ensureAppCatalog(),
  component: HistoryRoute,
});

function HistoryRoute() {
  const { session } = Route.useRouteContext();
  const raw = Route.useSearch();
  const navigate = Route.useNavigate();
  const acting = useSelector(session, selectActingCustomerId);
  // The address an export is sent to: the signed-in user's own login, never typed.
  const email = useSelector(session, (s) => selectCustomer(s)?.login ?? null);
  const access = useMemo(() => sessionRequestHooks(session), [session]);
  return (
    <HistoryPage
      actingCustomerId={acting}
      rawSearch={raw}
      onSearch={({ page, ...filter }) => void navigate({ search: page > 1 ? { ...filter, page } : filter })}
      access={access}
      email={email}
      emailedExportId={emailedExportId(raw)}
    />
  );
}
