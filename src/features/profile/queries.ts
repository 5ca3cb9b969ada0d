/**
 * Reads of the profile screens (/profile, /profile-update, /kyc). The acting-for customer id is
 * part of every key: the same call answers for the user or for the company the user acts for.
 * Every mutation here invalidates `profileQueryKey` (its own reads) and the verification reads
 * (verificationQueryKey: the status banner and the verification pages).
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { callMethodOrThrow } from '../../lib/request.ts';
import { verificationQueryKey } from '../verification/queries.ts';

export const profileQueryKey = ['profile'] as const;
/** A dictionary changes with a release at most: kept for an hour. */
const DICTIONARY_STALE_MS = 60 * 60 * 1000;

export const customerInfoQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...profileQueryKey, 'customer', acting], queryFn: () => callMethodOrThrow('getCustomerInfo', {}), select: (a) => a.customer });
export const phonesQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...profileQueryKey, 'phones', acting], queryFn: () => callMethodOrThrow('profileInquiry', {}), select: (a) => a.phones });
export const emailsQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...profileQueryKey, 'emails', acting], queryFn: () => callMethodOrThrow('emailInquiry', {}) });
export const addressesQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...profileQueryKey, 'addresses', acting], queryFn: () => callMethodOrThrow('addressInquiry', {}), select: (a) => a.addresses });
export const identityQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...profileQueryKey, 'identity', acting], queryFn: () => callMethodOrThrow('identityGet', {}), select: (a) => a.identity });
/** Identity (1) and proof-of-residence (2) documents with every status, newest first as the platform lists them. */
export const documentsQuery = (acting: number | null, categoryId: 1 | 2) =>
  queryOptions({ queryKey: [...profileQueryKey, 'documents', acting, categoryId], queryFn: () => callMethodOrThrow('documentsInquiry', { categoryId }), select: (a) => a.documents });
export const kycInfoQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...profileQueryKey, 'kycInfo', acting], queryFn: () => callMethodOrThrow('kycCustomerInfoGet', {}) });
export const kycRequestQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...profileQueryKey, 'kycRequest', acting], queryFn: () => callMethodOrThrow('kycRequestGet', {}), select: (a) => a.kycRequest });

/** Due-diligence info: read only for levels 1 and 4 (document 1 §4; due-diligence-section.tsx). */
export const dueDiligenceInfoQuery = (acting: number | null) =>
  queryOptions({ queryKey: [...profileQueryKey, 'dueDiligence', acting], queryFn: () => callMethodOrThrow('dueDiligenceInfoGet', {}), select: (a) => a.dueDiligenceInfo });

export const countriesQuery = (lang: string) =>
  queryOptions({
    queryKey: ['dictionaries', lang],
    queryFn: () => callMethodOrThrow('dictionaries', {}),
    select: (a) => a.dictionaries.dictionaryCountries.dictionary.country,
    staleTime: DICTIONARY_STALE_MS,
  });
export const documentTypesQuery = (lang: string) =>
  queryOptions({ queryKey: ['dictionaryDocumentTypes', lang], queryFn: () => callMethodOrThrow('dictionaryDocumentTypes', {}), staleTime: DICTIONARY_STALE_MS });
/** The address document types a country accepts (signed in only). */
export const addressDocumentTypesQuery = (lang: string, countryCode: string) =>
  queryOptions({
    queryKey: ['dictionaryCustomerAddressDocumentTypes', lang, countryCode],
    queryFn: () => callMethodOrThrow('dictionaryCustomerAddressDocumentTypes', { countryCode }),
    staleTime: DICTIONARY_STALE_MS,
  });
export const occupationsQuery = (lang: string) =>
  queryOptions({ queryKey: ['dictionaryOccupation', lang], queryFn: () => callMethodOrThrow('dictionaryOccupation', {}), select: (a) => a.occupation, staleTime: DICTIONARY_STALE_MS });
export const sourcesOfFundsQuery = (lang: string) =>
  queryOptions({
    queryKey: ['dictionaryPersonalSourceOfFunds', lang],
    queryFn: () => callMethodOrThrow('dictionaryPersonalSourceOfFunds', {}),
    select: (a) => a.sourceOfFunds,
    staleTime: DICTIONARY_STALE_MS,
  });
export const purposesQuery = (lang: string) =>
  queryOptions({
    queryKey: ['dictionaryPersonalPurposeOfAccount', lang],
    queryFn: () => callMethodOrThrow('dictionaryPersonalPurposeOfAccount', {}),
    select: (a) => a.purposeOfAccounts,
    staleTime: DICTIONARY_STALE_MS,
  });

/** After any change: the profile's reads and the verification status (banner) are read again. */
export async function invalidateAfterChange(client: QueryClient): Promise<void> {
  await Promise.all([client.invalidateQueries({ queryKey: profileQueryKey }), client.invalidateQueries({ queryKey: verificationQueryKey })]);
}
