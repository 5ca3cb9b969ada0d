/**
 * Reads of the home screen. The acting-for customer id is part of every key: the same call
 * answers differently for the user and for a company the user acts for.
 */
import { queryOptions } from '@tanstack/react-query';
import { callMethodOrThrow } from '../../lib/request-later.ts';

export const customerInfoQuery = (actingCustomerId: number | null) =>
  queryOptions({
    queryKey: ['getCustomerInfo', actingCustomerId],
    queryFn: () => callMethodOrThrow('getCustomerInfo', {}),
    select: (answer) => answer.customer,
  });

export { accountsQuery } from '../../lib/accounts-query.ts';

/** The balance of each currency over the last `days` days, one point per day with movement. */
export const balanceHistoryQuery = (actingCustomerId: number | null, days: number) =>
  queryOptions({
    queryKey: ['balanceHistory', actingCustomerId, days],
    queryFn: () => callMethodOrThrow('balanceHistory', { days }),
    select: (answer) => answer.series,
  });

/** The chart's period when home opens (days). */
export const DEFAULT_CHART_DAYS = 90;
