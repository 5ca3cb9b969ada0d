import { createFileRoute } from '@tanstack/react-router';
import { selectAccessToken } from '../../../../../../machines/session/session.select.ts';
import { MassRoute } from '../../../../../features/mass/mass-route.tsx';
import { ensureAppCatalog } from '../../../../../lib/i18n.ts';

/** /transfer/mass/wire (document 2 §2): a batch of payments from a CSV file (src/features/mass/mass-route.tsx). */
export const Route = createFileRoute('/_guarded/_main/transfer/mass/wire')({
  beforeLoad: async () => {
    await ensureAppCatalog();
  },
  component: function MassPage() {
    const { session, queryClient } = Route.useRouteContext();
    return <MassRoute kind="wire" confirm={false} getAccessToken={() => selectAccessToken(session.getSnapshot())} queryClient={queryClient} />;
  },
});
