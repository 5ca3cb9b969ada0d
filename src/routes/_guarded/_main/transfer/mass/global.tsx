import { createFileRoute } from '@tanstack/react-router';
import { selectAccessToken } from '../../../../../../machines/session/session.select.ts';
import { GlobalPayRoute } from '../../../../../features/global-pay/batch-route.tsx';
import { ensureAppCatalog } from '../../../../../lib/i18n.ts';

/** /transfer/mass/global (document 2 §2): a global-pay batch from a CSV file, its draft edited (src/features/global-pay/batch-route.tsx). */
export const Route = createFileRoute('/_guarded/_main/transfer/mass/global')({
  beforeLoad: async () => {
    await ensureAppCatalog();
  },
  component: function GlobalPayPage() {
    const { session, queryClient } = Route.useRouteContext();
    return <GlobalPayRoute summary={false} getAccessToken={() => selectAccessToken(session.getSnapshot())} queryClient={queryClient} />;
  },
});
