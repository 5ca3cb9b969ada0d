import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectActingCustomerId } from '../../../../machines/session/session.select.ts';
import { CardsSummary } from '../../../features/cards/cards-summary.tsx';
import { RecentActivity } from '../../../features/history/recent-activity.tsx';
import { HomeView } from '../../../features/home/home-view.tsx';
import { DEFAULT_CHART_DAYS, balanceHistoryQuery, customerInfoQuery } from '../../../features/home/queries.ts';
import { accountsQuery } from '../../../lib/accounts-query.ts';
import { ensureAppCatalog } from '../../../lib/i18n.ts';

/**
 * /home: the greeting, balances per currency and per account, the balance chart (home feature),
 * the cards (cards feature) and the recent activity (history feature), composed here.
 */
export const Route = createFileRoute('/_guarded/_main/home')({
  beforeLoad: () => ensureAppCatalog(),
  loader: async ({ context }) => {
    const acting = selectActingCustomerId(context.session.getSnapshot());
    // The first screen's data (the greeting, the balances, the chart) before the page shows, so it
    // appears once instead of moving as each part arrives (issue 12: layout shift on a phone). A
    // prefetch never throws: a failed read is in the cache and the view shows its error state.
    // The layout's status banner too: drawn after the page, it pushed the whole page down (a
    // layout shift of 0.03 to 0.4 on a phone). Its query module comes with the layout's chunk, so
    // it is imported here on demand, not into the bundle /login loads.
    await Promise.all([
      context.queryClient.prefetchQuery(customerInfoQuery(acting)),
      context.queryClient.prefetchQuery(accountsQuery(acting)),
      context.queryClient.prefetchQuery(balanceHistoryQuery(acting, DEFAULT_CHART_DAYS)),
      import('../../../features/verification/queries.ts').then(({ verificationStatusQuery }) => context.queryClient.prefetchQuery(verificationStatusQuery(acting))),
    ]);
    // The recent activity loads with its view: its request builder and the history contract stay
    // out of the route file, which is part of the bundle every page (/login too) loads.
  },
  component: HomeRoute,
});

function HomeRoute() {
  const { session } = Route.useRouteContext();
  const acting = useSelector(session, selectActingCustomerId);
  return <HomeView actingCustomerId={acting} cards={<CardsSummary actingCustomerId={acting} />} activity={<RecentActivity actingCustomerId={acting} />} />;
}
