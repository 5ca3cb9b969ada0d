/**
 * The contracts' reads (document 3 §7) as TanStack Query options: the list with its meta counts,
 * the counts alone, one contract, the companies a contract may be made for, and the customer
 * lookup by e-mail. Keyed by the acting customer: a user who switches company sees that company's.
 * The flows (machines/contract, machines/contract-create) read through these too, so an action's
 * re-read refreshes the list and the counts (invalidateContracts).
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  CONTRACT_PAGE_SIZE_DEFAULT,
  CONTRACT_ROUTES,
  CompanyListAnswerSchema,
  ContractAnswerSchema,
  ContractListAnswerSchema,
  ContractStatsAnswerSchema,
  CustomerLookupAnswerSchema,
  contractPath,
} from '../../../api/contracts.ts';
import { contractRest, orThrow, withQuery, type ContractAccess } from './rest.ts';

export const contractsQueryKey = ['contracts'] as const;

export type ContractOrderBy = 'COMPANY_NAME' | 'INCOMING_FIRST' | 'CREATED_AT';
export interface ContractListParams {
  /** comma-separated statuses, or none for every contract */
  statuses?: string;
  companyName?: string;
  counterpartyName?: string;
  orderBy: ContractOrderBy;
  orderDir: 'ASC' | 'DESC';
  /** 1 and up */
  page: number;
}

export const listPath = (p: ContractListParams) =>
  withQuery(CONTRACT_ROUTES.list, {
    statuses: p.statuses,
    companyName: p.companyName?.trim(),
    counterpartyName: p.counterpartyName?.trim(),
    orderBy: p.orderBy,
    orderDir: p.orderDir,
    page: p.page,
    pageSize: CONTRACT_PAGE_SIZE_DEFAULT,
  });

export const contractListQuery = (access: ContractAccess, params: ContractListParams) =>
  queryOptions({
    queryKey: [...contractsQueryKey, 'list', access.getActingCustomerId(), params],
    queryFn: async () => orThrow(await contractRest(access, 'GET', listPath(params), ContractListAnswerSchema)),
    // the other party signs or ends contracts meanwhile: read again when the window regains focus
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

export const contractStatsQuery = (access: ContractAccess) =>
  queryOptions({
    queryKey: [...contractsQueryKey, 'stats', access.getActingCustomerId()],
    queryFn: async () => orThrow(await contractRest(access, 'GET', CONTRACT_ROUTES.stats, ContractStatsAnswerSchema)).meta,
    staleTime: 0,
  });

export const contractQuery = (access: ContractAccess, id: number) =>
  queryOptions({
    queryKey: [...contractsQueryKey, 'one', access.getActingCustomerId(), id],
    queryFn: async () => orThrow(await contractRest(access, 'GET', contractPath(id), ContractAnswerSchema)).contract,
    staleTime: 0,
    retry: false,
  });

export const companiesQuery = (access: ContractAccess) =>
  queryOptions({
    queryKey: [...contractsQueryKey, 'companies', access.getActingCustomerId()],
    queryFn: async () =>
      orThrow(await contractRest(access, 'GET', withQuery(CONTRACT_ROUTES.companies, { page: 1, pageSize: CONTRACT_PAGE_SIZE_DEFAULT }), CompanyListAnswerSchema)).companies,
    staleTime: 60_000,
  });

export const customerLookupQuery = (access: ContractAccess, email: string) =>
  queryOptions({
    queryKey: [...contractsQueryKey, 'lookup', access.getActingCustomerId(), email.toLowerCase()],
    queryFn: async () => orThrow(await contractRest(access, 'GET', withQuery(CONTRACT_ROUTES.customerLookup, { email }), CustomerLookupAnswerSchema)),
    staleTime: 0,
    retry: false,
  });

/** After an action or a creation: every list, count and contract is read again. */
export const invalidateContracts = (client: QueryClient) => client.invalidateQueries({ queryKey: contractsQueryKey });
