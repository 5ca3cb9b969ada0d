import { createFileRoute } from '@tanstack/react-router';
import { selectAccessToken } from '../../../../../machines/session/session.select.ts';
import { GlobalPayRoute } from '../../../../features/global-pay/batch-route.tsx';
import { ensureAppCatalog } from '../../../../lib/i18n.ts';

/** /transfer/external/global-summary (document 2 §2): a global-pay batch's summary, approval and result (src/features/global-pay/batch-route.tsx). */
export const Route = createFileRoute('/_guarded/_main/transfer/external_/global-summary')({
  beforeLoad: async () => {
    await ensureAppCatalog();
  },
  component: function GlobalPaySummaryPage() {
    const { session, queryClient } = Route.useRouteContext();
    return <GlobalPayRoute summary getAccessToken={() => selectAccessToken(session.getSnapshot())} queryClient={queryClient} />;
  },
});
