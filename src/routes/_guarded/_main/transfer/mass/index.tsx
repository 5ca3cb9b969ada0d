import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../../../machines/session/session.select.ts';
import { MassChoices } from '../../../../../features/mass/mass-choices.tsx';
import { ensureAppCatalog } from '../../../../../lib/i18n.ts';

/** /transfer/mass (document 2 §2): the kinds of batch the customer can pay. */
export const Route = createFileRoute('/_guarded/_main/transfer/mass/')({
  beforeLoad: async () => {
    await ensureAppCatalog();
  },
  component: function MassChoicesPage() {
    const { session } = Route.useRouteContext();
    return <MassChoices actingCustomerId={useSelector(session, selectActingCustomerId)} />;
  },
});
