import { useMemo } from 'react';
import { Link, createFileRoute } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { requireAdmin } from '../../app/guards.ts';
import { AdminOverviewView, adminPageOf } from '../../features/admin/admin-overview-view.tsx';
import { sessionRequestHooks } from '../../features/auth/session-actor.ts';

/**
 * /admin-overview?page=N. The search is passed through as it is (this file is in the bundle every
 * page loads, so no schema here): the view reads the page (adminPageOf: 1 to 100 000, anything
 * else page 1) and loads its own data.
 */
export const Route = createFileRoute('/_restricted/admin-overview')({
  validateSearch: (raw: Record<string, unknown>) => raw as { page?: unknown },
  beforeLoad: ({ context }) => requireAdmin(context.session),
  component: AdminOverviewRoute,
});

function AdminOverviewRoute() {
  const { t } = useLingui();
  const { page } = Route.useSearch();
  const navigate = Route.useNavigate();
  const { session } = Route.useRouteContext();
  const access = useMemo(() => sessionRequestHooks(session), [session]);
  return (
    <>
      <AdminOverviewView page={adminPageOf(page)} onPageChange={(next) => void navigate({ search: { page: next } })} access={access} />
      {/* the agents' support desk (issue 19 item 3) */}
      <p>
        <Link to="/admin-support" className="btn btn-secondary">
          {t`Support desk`}
        </Link>
      </p>
    </>
  );
}
