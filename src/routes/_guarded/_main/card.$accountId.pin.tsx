import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { CardPinPage } from '../../../features/cards/secret-view.tsx';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/**
 * /card/$accountId/pin (document 2 §2 "/card/{accountId}/pin/"; the router drops the trailing
 * slash, so /card/5/pin/ opens this page too): the card's PIN and details after a fresh approval,
 * and the PIN change (src/features/cards/secret-view.tsx). The id must be one of the customer's
 * non-closed card accounts; anything else (not a number, not a card, another customer's) goes to
 * /cards. Nothing secret is ever in the address: the page holds it in its chart only.
 */
export const Route = createFileRoute('/_guarded/_main/card/$accountId/pin')({
  beforeLoad: () => ensureAppCatalog(),
  loader: async ({ context, params }) => {
    const [{ followCardRoute }, { isListedCard, parseCardAccountId }] = await Promise.all([
      import('../../../features/cards/card-route-load.ts'),
      import('../../../features/cards/card-routing.ts'),
    ]);
    const accountId = parseCardAccountId(params.accountId);
    await followCardRoute(context.queryClient!, selectActingCustomerId(context.session.getSnapshot()), (accounts) =>
      accounts.some((a) => a.accountId === accountId && isListedCard(a)) ? { to: 'stay' } : { to: 'cards' },
    );
  },
  component: CardPinRoute,
});

function CardPinRoute() {
  const { session } = Route.useRouteContext();
  const { accountId } = Route.useParams();
  const acting = useSelector(session, selectActingCustomerId);
  return <CardPinPage key={accountId} actingCustomerId={acting} accountId={Number(accountId)} />;
}
