/**
 * The cards routes' loaders: read the customer's accounts (through the shared accounts query, so
 * the page then draws from the same cache) and follow the routing rules of card-routing.ts by
 * throwing the router's redirect. The routes import this on demand, so the rules and the cards
 * contract stay out of the bundle every page loads. A failed read does not redirect: the page
 * shows, and its view says the accounts could not be loaded, with a way to try again.
 */
import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import type { Account } from '../../../api/accounts.ts';
import { accountsQuery } from '../../lib/accounts-query.ts';
import type { CardRoute } from './card-routing.ts';

export async function followCardRoute(queryClient: QueryClient, actingCustomerId: number | null, decide: (accounts: readonly Account[]) => CardRoute): Promise<void> {
  let accounts: readonly Account[];
  try {
    // the query's raw answer (its `select` applies to views only); read again once older than the
    // query's staleTime, so a card just applied for or blocked elsewhere counts
    accounts = (await queryClient.fetchQuery(accountsQuery(actingCustomerId))).accounts.account;
  } catch {
    return;
  }
  const route = decide(accounts);
  switch (route.to) {
    case 'stay':
      return;
    case 'list':
      throw redirect({ to: route.kind === 'physical' ? '/cards/physical' : '/cards/virtual', replace: true });
    case 'detail':
      throw redirect({ to: '/cards/$accountId', params: { accountId: String(route.accountId) }, replace: true });
    case 'cards':
      throw redirect({ to: '/cards', replace: true });
    case 'home':
      throw redirect({ to: '/home', replace: true });
  }
}
