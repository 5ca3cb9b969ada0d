import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { MASS_PAYOUT_METHODS } from '../../../../../api/mass.ts';
import { selectAccessToken } from '../../../../../machines/session/session.select.ts';
import { MassRoute } from '../../../../features/mass/mass-route.tsx';
import { ensureAppCatalog } from '../../../../lib/i18n.ts';

/**
 * /transfer/external/mass/confirm (document 2 §2): a payout batch's preview, approval and
 * progress; `method` names the batch's kind (wire, eft, oct, digital), wire when missing.
 */
export const Route = createFileRoute('/_guarded/_main/transfer/external_/mass/confirm')({
  validateSearch: (search: Record<string, unknown>) => ({ method: v.is(v.picklist(MASS_PAYOUT_METHODS), search.method) ? search.method : ('wire' as const) }),
  beforeLoad: async () => {
    await ensureAppCatalog();
  },
  component: function MassExternalConfirmPage() {
    const { session, queryClient } = Route.useRouteContext();
    const { method } = Route.useSearch();
    return <MassRoute kind={method} confirm getAccessToken={() => selectAccessToken(session.getSnapshot())} queryClient={queryClient} />;
  },
});
