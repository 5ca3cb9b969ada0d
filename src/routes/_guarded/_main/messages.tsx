import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { MessagesView } from '../../../features/support/messages-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/**
 * /messages (document 3 §2): the support tickets; `ticketNumber` opens that ticket (a ticket-reply
 * notification links here). A business user's tickets are the acting company's.
 */
export const Route = createFileRoute('/_guarded/_main/messages')({
  validateSearch: (search: Record<string, unknown>): { ticketNumber?: string } => {
    const raw = search.ticketNumber;
    const value = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
    return /^[A-Za-z0-9-]{1,40}$/.test(value) ? { ticketNumber: value } : {};
  },
  beforeLoad: () => ensureAppCatalog(),
  component: function MessagesRoute() {
    const { session } = Route.useRouteContext();
    const acting = useSelector(session, selectActingCustomerId);
    const { ticketNumber } = Route.useSearch();
    const navigate = useNavigate();
    return (
      <MessagesView
        actingCustomerId={acting}
        ticketNumber={ticketNumber ?? null}
        onOpen={(n) => void navigate({ to: '/messages', search: n === null ? {} : { ticketNumber: n } })}
      />
    );
  },
});
