import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { callMethodOrThrow } from '../../lib/request.ts';

export const ADMIN_PAGE_SIZE = 20;

export const adminCustomersQuery = (page: number) =>
  queryOptions({
    queryKey: ['adminCustomerList', page, ADMIN_PAGE_SIZE],
    queryFn: () => callMethodOrThrow('adminCustomerList', { page, pageSize: ADMIN_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
