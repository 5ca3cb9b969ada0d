/**
 * The company's reads (document 3 §2 /company pages, §7 business methods), as TanStack Query
 * options keyed by the company acted for (the request wrapper adds fromCustomerId). A change of
 * who may act for the company invalidates `companyQueryKey`, so every list here reads again.
 */
import { queryOptions } from '@tanstack/react-query';
import { callMethodOrThrow } from '../../lib/request.ts';

export const companyQueryKey = ['company'] as const;

export const companyInfoQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...companyQueryKey, 'info', acting], queryFn: () => callMethodOrThrow('businessInfoGet', {}) });

export const accessRightsQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...companyQueryKey, 'accessRights', acting], queryFn: () => callMethodOrThrow('businessAccessRightsList', {}) });

export const potentialUsersQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...companyQueryKey, 'potentialUsers', acting], queryFn: () => callMethodOrThrow('businessPotentialUserList', {}) });

export const shareholdersQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...companyQueryKey, 'shareholders', acting], queryFn: () => callMethodOrThrow('businessShareholderList', {}) });

export const directorsQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...companyQueryKey, 'directors', acting], queryFn: () => callMethodOrThrow('businessDirectorList', {}) });

export const ownersQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...companyQueryKey, 'owners', acting], queryFn: () => callMethodOrThrow('businessUltimateBeneficiaryOwnerList', {}) });

export const usersQuery = (acting: number | null) => queryOptions({ queryKey: [...companyQueryKey, 'users', acting], queryFn: () => callMethodOrThrow('businessUserList', {}) });

/**
 * The company's FATCA/CRS self-certification state (issue 18): its tax residency self-certification's
 * state decides, as in the start page's business rule (validated or pending: nothing to do).
 */
export const companyTaxStateQuery = (acting: number | null) =>
  queryOptions({
    queryKey: [...companyQueryKey, 'taxCertification', acting],
    queryFn: () => callMethodOrThrow('businessFatcaCrsCertificationGet', {}),
    select: (a) => a.certification.taxResidencySelfCertificationDocumentStatus,
  });
