import { useMemo } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { requireAdmin } from '../../app/guards.ts';
import { AdminOverviewView } from '../../features/admin/admin-overview-view.tsx';
import { adminCustomersQuery } from '../../features/admin/queries.ts';
import { sessionRequestHooks } from '../../features/auth/session-actor.ts';

/** ?page=N, 1 to 100 000; anything else falls back to page 1. */
const SearchSchema = v.object({
  page: v.fallback(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000)), 1), 1),
});

export const Route = createFileRoute('/_restricted/admin-overview')({
  validateSearch: SearchSchema,
  beforeLoad: ({ context }) => requireAdmin(context.session),
  loaderDeps: ({ search }) => ({ page: search.page }),
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(adminCustomersQuery(deps.page));
  },
  component: AdminOverviewRoute,
});

function AdminOverviewRoute() {
  const { page } = Route.useSearch();
  const navigate = Route.useNavigate();
  const { session } = Route.useRouteContext();
  const access = useMemo(() => sessionRequestHooks(session), [session]);
  return <AdminOverviewView page={page} onPageChange={(next) => void navigate({ search: { page: next } })} access={access} />;
}
