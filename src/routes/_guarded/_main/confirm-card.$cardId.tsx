import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { RouterApplyLink } from '../../../features/cards/apply-link.tsx';
import { ConfirmCardView } from '../../../features/cards/confirm-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/** /confirm-card/{cardId} (document 2 §2): what a card waiting for its confirmation needs, and its confirmation. */
export const Route = createFileRoute('/_guarded/_main/confirm-card/$cardId')({
  beforeLoad: async () => {
    await ensureAppCatalog();
  },
  component: ConfirmCardRoute,
});

function ConfirmCardRoute() {
  const { session } = Route.useRouteContext();
  const { cardId } = Route.useParams();
  const acting = useSelector(session, selectActingCustomerId);
  return <ConfirmCardView key={cardId} actingCustomerId={acting} cardId={Number(cardId)} link={RouterApplyLink} />;
}
