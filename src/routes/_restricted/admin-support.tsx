import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '../../app/guards.ts';
import { AdminDeskView, DESK_TABS, type DeskTab } from '../../features/support/admin-desk-view.tsx';

/**
 * /admin-support (issue 19 item 3): the provider's agents' support desk in the administrator's
 * area. `state` is the queue's tab (new by default), `ticketId` opens one ticket.
 */
export const Route = createFileRoute('/_restricted/admin-support')({
  validateSearch: (raw: Record<string, unknown>): { state?: DeskTab; ticketId?: number } => {
    const id = Number(raw.ticketId);
    const state = DESK_TABS.find((x) => x === raw.state);
    return { ...(state ? { state } : {}), ...(Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? { ticketId: id } : {}) };
  },
  beforeLoad: ({ context }) => requireAdmin(context.session),
  component: function AdminSupportRoute() {
    const { state, ticketId } = Route.useSearch();
    const navigate = Route.useNavigate();
    const tab = state ?? 'new';
    return (
      <AdminDeskView
        tab={tab}
        ticketId={ticketId ?? null}
        onTab={(next) => void navigate({ search: { state: next } })}
        onOpen={(id) => void navigate({ search: id === null ? { state: tab } : { state: tab, ticketId: id } })}
      />
    );
  },
});
