/**
 * Reads of the cards area (document 2 §7): the customer's accounts (the cards are accounts of the
 * ledger: balanceInquiry, shared with every screen that lists accounts), the products the customer
 * may have (applyForCardInfo: a card's brand and its product's shipping fees, for reissue and
 * upgrade shipping), and the two authorisation lists, 10 a page (document 2 §9). The acting-for
 * customer id is part of every key.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { AUTHORIZATION_PAGE_SIZE } from '../../../api/cards.ts';
import { callMethodOrThrow } from '../../lib/request-later.ts';

export { accountsQuery } from '../../lib/accounts-query.ts';

/** The products offered in the customer's country (their fees and shipping options rarely change: a minute). */
export const cardProductsQuery = (actingCustomerId: number | null) =>
  queryOptions({
    queryKey: ['applyForCardInfo', actingCustomerId],
    queryFn: () => callMethodOrThrow('applyForCardInfo', {}),
    select: (answer) => answer.products,
    staleTime: 60_000,
  });

/**
 * debitcard: the debit cards' authorisations on a settlement account (every status); current: the
 * authorisations holding an account's money now (document 2 §7 "Debit and current-account
 * authorization lists").
 */
export type AuthorizationList = 'debitcard' | 'current';

const METHODS = { debitcard: 'debitcardAuthorizationListGet', current: 'currentAccountAuthorizationListGet' } as const;

export const authorizationsQuery = (actingCustomerId: number | null, list: AuthorizationList, accountId: number, page: number) =>
  queryOptions({
    queryKey: [METHODS[list], actingCustomerId, accountId, page],
    queryFn: () => callMethodOrThrow(METHODS[list], { accountId, pageNumber: page, pageSize: AUTHORIZATION_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

/** What every card action changes: the accounts (a card's status, balance and alias) and its authorisations. */
export const CARD_QUERY_KEYS = [['balanceInquiry'], ['debitcardAuthorizationListGet'], ['currentAccountAuthorizationListGet'], ['balanceHistory'], ['transactionHistory']] as const;
