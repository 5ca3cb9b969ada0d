/**
 * The cards area's routing rules (document 2 §2 "Cards routing"), pure, so the routes' loaders and
 * a table test share one copy:
 * - /cards goes to the physical list if any physical card exists, else to the virtual list, else
 *   stays (an empty state that offers a card);
 * - a list (/cards/physical, /cards/virtual) goes straight to the card's detail when exactly one
 *   card of that kind exists and none of the other kind;
 * - a detail (/cards/{accountId}) needs accountId to be one of those cards; otherwise it goes to
 *   the cards list when several card accounts exist, or home.
 *
 * "Those cards" are the customer's non-closed card accounts: a card product type (2006-2135,
 * api/cards.ts isCardType) whose status is not 11 (closed, api/accounts.ts). A canceled card
 * (status 4) is not closed: it stays listed, marked, so its history can still be read. The spec
 * speaks of prepaid card accounts (it knows prepaid and virtual products only); the debit cards of
 * issue 16 are counted too, as physical cards, so they can be managed in the same place.
 */
import { ACCOUNT_STATUS_CLOSED, type Account } from '../../../api/accounts.ts';
import { isCardType } from '../../../api/cards.ts';

export type CardListKind = 'physical' | 'virtual';

type CardFacts = Pick<Account, 'accountId' | 'type' | 'subType' | 'accountStatusId' | 'cardIsVirtual'>;

/** A card account the cards area shows: a card product, prepaid or debit, not closed. */
export const isListedCard = (a: CardFacts): boolean => isCardType(a.type) && (a.subType === 'PREPAID' || a.subType === 'DEBIT') && a.accountStatusId !== ACCOUNT_STATUS_CLOSED;

/** Virtual cards are those the platform marks so; every other card is a plastic one (prepaid or debit). */
export const cardKindOf = (a: Pick<Account, 'cardIsVirtual'>): CardListKind => (a.cardIsVirtual === true ? 'virtual' : 'physical');

/** The listed cards of one kind, in the platform's order. */
export function cardsOfKind<A extends CardFacts>(accounts: readonly A[], kind: CardListKind): A[] {
  return accounts.filter((a) => isListedCard(a) && cardKindOf(a) === kind);
}

/** Where a cards page goes instead of showing itself; `stay` shows the page. */
export type CardRoute = { to: 'stay' } | { to: 'list'; kind: CardListKind } | { to: 'detail'; accountId: number } | { to: 'cards' } | { to: 'home' };

/** /cards: the physical list if any physical card exists, else the virtual list, else stay (the empty state). */
export function cardsIndexRoute(accounts: readonly CardFacts[]): CardRoute {
  if (cardsOfKind(accounts, 'physical').length > 0) return { to: 'list', kind: 'physical' };
  if (cardsOfKind(accounts, 'virtual').length > 0) return { to: 'list', kind: 'virtual' };
  return { to: 'stay' };
}

/** /cards/physical and /cards/virtual: the detail when exactly one card of this kind exists and none of the other kind. */
export function cardListRoute(accounts: readonly CardFacts[], kind: CardListKind): CardRoute {
  const own = cardsOfKind(accounts, kind);
  const other = cardsOfKind(accounts, kind === 'physical' ? 'virtual' : 'physical');
  const only = own[0];
  if (own.length === 1 && other.length === 0 && only) return { to: 'detail', accountId: only.accountId };
  return { to: 'stay' };
}

/** /cards/{accountId}: stay for a listed card; otherwise the cards list when several card accounts exist, else home. */
export function cardDetailRoute(accounts: readonly CardFacts[], accountId: number): CardRoute {
  const listed = accounts.filter(isListedCard);
  if (listed.some((a) => a.accountId === accountId)) return { to: 'stay' };
  return listed.length > 1 ? { to: 'cards' } : { to: 'home' };
}

/** The path segment of /cards/{accountId}: a positive whole number, or null (the detail then routes away). */
export function parseCardAccountId(raw: string): number | null {
  if (!/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}
