import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { BatchesView } from '../../../features/mass/batches-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/** /history/batch-transfers (document 2 §2, 3 §2): the batch payments, 20 a page; `id` opens one. */
export const Route = createFileRoute('/_guarded/_main/history_/batch-transfers')({
  validateSearch: (search: Record<string, unknown>): { id?: number } => {
    const id = Number(search.id);
    return Number.isInteger(id) && id > 0 ? { id } : {};
  },
  beforeLoad: () => ensureAppCatalog(),
  component: function BatchTransfersRoute() {
    const { session } = Route.useRouteContext();
    const acting = useSelector(session, selectActingCustomerId);
    const { id } = Route.useSearch();
    const navigate = useNavigate();
    return <BatchesView actingCustomerId={acting} openId={id ?? null} onOpen={(open) => void navigate({ to: '/history/batch-transfers', search: open === null ? {} : { id: open } })} />;
  },
});
