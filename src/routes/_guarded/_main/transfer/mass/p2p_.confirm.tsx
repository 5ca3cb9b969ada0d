import { createFileRoute } from '@tanstack/react-router';
import { selectAccessToken } from '../../../../../../machines/session/session.select.ts';
import { MassRoute } from '../../../../../features/mass/mass-route.tsx';
import { ensureAppCatalog } from '../../../../../lib/i18n.ts';

/** /transfer/mass/p2p/confirm (document 2 §2): the p2p batch's preview, approval and progress (src/features/mass/mass-route.tsx). */
export const Route = createFileRoute('/_guarded/_main/transfer/mass/p2p_/confirm')({
  beforeLoad: async () => {
    await ensureAppCatalog();
  },
  component: function MassP2pConfirmPage() {
    const { session, queryClient } = Route.useRouteContext();
    return <MassRoute kind="p2p" confirm getAccessToken={() => selectAccessToken(session.getSnapshot())} queryClient={queryClient} />;
  },
});
