/**
 * Reads of the history, export and statement screens. The acting-for customer id is part of
 * every key: the same call answers differently for the user and for a company the user acts for.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { EXPORT_LIST_PAGE_SIZE, type TransactionKind } from '../../../api/history.ts';
import { MethodCallError, callMethodOrThrow } from '../../lib/request.ts';
import type { HistoryRequest } from './filter.ts';

export { accountsQuery } from '../../lib/accounts-query.ts';

export const transactionHistoryQuery = (actingCustomerId: number | null, request: HistoryRequest) =>
  queryOptions({
    queryKey: ['transactionHistory', actingCustomerId, request],
    queryFn: () => callMethodOrThrow('transactionHistory', request),
    // The page being left stays on screen while the next one loads (no jump to a spinner).
    placeholderData: keepPreviousData,
  });

/** The monthly exports of one account, newest first, 12 a page (document 2 §7, §9). */
export const exportListQuery = (actingCustomerId: number | null, accountId: number, page: number) =>
  queryOptions({
    queryKey: ['transactionHistoryExportList', actingCustomerId, accountId, page],
    queryFn: () => callMethodOrThrow('transactionHistoryExportList', { accountId, source: 'monthly', pageNumber: page, pageSize: EXPORT_LIST_PAGE_SIZE }),
    // The page being left stays while the next one of the same account loads; another account's never does.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === accountId ? previous : undefined),
  });

export const statementPeriodsQuery = (actingCustomerId: number | null, accountId: number) =>
  queryOptions({
    queryKey: ['statementPeriods', actingCustomerId, accountId],
    queryFn: () => callMethodOrThrow('statementPeriods', { accountId }),
    select: (answer) => answer.periods,
  });

/** One transaction in full (the detail page); unknown and another customer's answer ENOA. */
export const transactionDetailQuery = (actingCustomerId: number | null, kind: TransactionKind, id: number) =>
  queryOptions({
    queryKey: ['transactionDetail', actingCustomerId, kind, id],
    queryFn: () => callMethodOrThrow('transactionDetail', { kind, id }),
    select: (answer) => answer.transaction,
    // "Not found" is an answer, not a hiccup: asking again would not change it.
    retry: (count, error) => !(error instanceof MethodCallError && error.failure.responseCode === 'ENOA') && count < 2,
  });
