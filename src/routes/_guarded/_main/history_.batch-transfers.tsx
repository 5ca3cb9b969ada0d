import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { BatchesView } from '../../../features/mass/batches-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/**
 * /history/batch-transfers (document 2 §2, 3 §2): the batch payments, 20 a page; `id` opens one,
 * with `kind=global` a global-pay batch (their ids are their own sequence; without it a mass batch,
 * as the links before global pay was listed).
 */
export const Route = createFileRoute('/_guarded/_main/history_/batch-transfers')({
  validateSearch: (search: Record<string, unknown>): { id?: number; kind?: 'global' } => {
    const id = Number(search.id);
    if (!Number.isInteger(id) || id <= 0) return {};
    return search.kind === 'global' ? { id, kind: 'global' } : { id };
  },
  beforeLoad: () => ensureAppCatalog(),
  component: function BatchTransfersRoute() {
    const { session } = Route.useRouteContext();
    const acting = useSelector(session, selectActingCustomerId);
    const { id, kind } = Route.useSearch();
    const navigate = useNavigate();
    return (
      <BatchesView
        actingCustomerId={acting}
        open={id === undefined ? null : { id, kind: kind ?? null }}
        onOpen={(open) => void navigate({ to: '/history/batch-transfers', search: open === null ? {} : open.kind === null ? { id: open.id } : { id: open.id, kind: open.kind } })}
      />
    );
  },
});
