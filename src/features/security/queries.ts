/** Reads of the security settings: the login history (the route's loader reads it: nothing else here). */
import { queryOptions } from '@tanstack/react-query';
import { callMethodOrThrow } from '../../lib/request-later.ts';

export const loginHistoryQuery = (page: number) =>
  queryOptions({
    queryKey: ['loginHistory', page],
    queryFn: () => callMethodOrThrow('loginHistory', { pageNumber: page }),
  });
