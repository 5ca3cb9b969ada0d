import { createFileRoute } from '@tanstack/react-router';
import { selectAccessToken } from '../../../../../../machines/session/session.select.ts';
import { MassRoute } from '../../../../../features/mass/mass-route.tsx';
import { ensureAppCatalog } from '../../../../../lib/i18n.ts';

/** /transfer/mass/p2p (document 2 §2): a batch of payments from a CSV file or pasted lines (src/features/mass/mass-route.tsx). */
export const Route = createFileRoute('/_guarded/_main/transfer/mass/p2p')({
  beforeLoad: async () => {
    await ensureAppCatalog();
  },
  component: function MassPage() {
    const { session, queryClient } = Route.useRouteContext();
    return <MassRoute kind="p2p" confirm={false} getAccessToken={() => selectAccessToken(session.getSnapshot())} queryClient={queryClient} />;
  },
});
