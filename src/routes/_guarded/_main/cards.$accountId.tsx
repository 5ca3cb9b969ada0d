import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { CardDetailPage } from '../../../features/cards/card-detail-view.tsx';

/**
 * /cards/$accountId (document 2 §2): one card. The id must be one of the customer's non-closed
 * card accounts; otherwise the cards list when several card accounts exist, else home
 * (card-routing.ts cardDetailRoute; an id that is not a number is no card).
 */
export const Route = createFileRoute('/_guarded/_main/cards/$accountId')({
  loader: async ({ context, params }) => {
    const [{ followCardRoute }, { cardDetailRoute, parseCardAccountId }] = await Promise.all([
      import('../../../features/cards/card-route-load.ts'),
      import('../../../features/cards/card-routing.ts'),
    ]);
    const accountId = parseCardAccountId(params.accountId) ?? 0;
    await followCardRoute(context.queryClient!, selectActingCustomerId(context.session.getSnapshot()), (accounts) => cardDetailRoute(accounts, accountId));
  },
  component: CardDetailRoute,
});

function CardDetailRoute() {
  const { session } = Route.useRouteContext();
  const { accountId } = Route.useParams();
  const acting = useSelector(session, selectActingCustomerId);
  return <CardDetailPage key={accountId} actingCustomerId={acting} accountId={Number(accountId)} />;
}
