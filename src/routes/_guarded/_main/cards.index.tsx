import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { CardsPage } from '../../../features/cards/cards-view.tsx';

/**
 * /cards (document 2 §2): to the physical list if any physical card exists, else the virtual list,
 * else it stays and offers a card (src/features/cards/card-routing.ts cardsIndexRoute).
 */
export const Route = createFileRoute('/_guarded/_main/cards/')({
  loader: async ({ context }) => {
    const [{ followCardRoute }, { cardsIndexRoute }] = await Promise.all([import('../../../features/cards/card-route-load.ts'), import('../../../features/cards/card-routing.ts')]);
    await followCardRoute(context.queryClient!, selectActingCustomerId(context.session.getSnapshot()), cardsIndexRoute);
  },
  component: CardsIndexRoute,
});

function CardsIndexRoute() {
  const { session } = Route.useRouteContext();
  const navigate = Route.useNavigate();
  const acting = useSelector(session, selectActingCustomerId);
  return <CardsPage actingCustomerId={acting} kind={null} onKind={(kind) => void navigate({ to: kind === 'physical' ? '/cards/physical' : '/cards/virtual' })} />;
}
