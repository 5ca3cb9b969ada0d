import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { CardsPage } from '../../../features/cards/cards-view.tsx';

/**
 * /cards/virtual (document 2 §2): the customer's virtual cards; straight to the card's detail when it
 * is the only virtual card and there is no card of the other kind (card-routing.ts cardListRoute).
 */
export const Route = createFileRoute('/_guarded/_main/cards/virtual')({
  loader: async ({ context }) => {
    const [{ followCardRoute }, { cardListRoute }] = await Promise.all([import('../../../features/cards/card-route-load.ts'), import('../../../features/cards/card-routing.ts')]);
    await followCardRoute(context.queryClient!, selectActingCustomerId(context.session.getSnapshot()), (accounts) => cardListRoute(accounts, 'virtual'));
  },
  component: CardsListRoute,
});

function CardsListRoute() {
  const { session } = Route.useRouteContext();
  const navigate = Route.useNavigate();
  const acting = useSelector(session, selectActingCustomerId);
  return <CardsPage actingCustomerId={acting} kind="virtual" onKind={(kind) => void navigate({ to: kind === 'physical' ? '/cards/physical' : '/cards/virtual' })} />;
}
