/**
 * The customer's account list (balance inquiry), shared by every screen that shows accounts
 * (home, history, statements, transfers read it through their own actors). The acting-for
 * customer id is part of the key. Document 1 §9: cached for 5000 ms.
 */
import { queryOptions } from '@tanstack/react-query';
import { callMethodOrThrow } from './request-later.ts';

export const accountsQuery = (actingCustomerId: number | null) =>
  queryOptions({
    queryKey: ['balanceInquiry', actingCustomerId],
    queryFn: () => callMethodOrThrow('balanceInquiry', {}),
    select: (answer) => answer.accounts.account,
    staleTime: 5_000,
  });
