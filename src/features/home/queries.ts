/**
 * Reads of the home screen. The acting-for customer id is part of every key: the same call
 * answers differently for the user and for a company the user acts for.
 */
import { queryOptions } from '@tanstack/react-query';
import { callMethodOrThrow } from '../../lib/request.ts';

export const customerInfoQuery = (actingCustomerId: number | null) =>
  queryOptions({
    queryKey: ['getCustomerInfo', actingCustomerId],
    queryFn: () => callMethodOrThrow('getCustomerInfo', {}),
    select: (answer) => answer.customer,
  });

/** Document 1 §9: the account list is cached for 5000 ms. */
export const accountsQuery = (actingCustomerId: number | null) =>
  queryOptions({
    queryKey: ['accounts.account', actingCustomerId],
    queryFn: () => callMethodOrThrow('accounts.account', {}),
    select: (answer) => answer.accounts.account,
    staleTime: 5_000,
  });
