/**
 * The verification reads (TanStack Query): the inputs of the verification status (userStatusGet)
 * that the app shell's banner shows, the account restriction reasons (customerLimitReasonGet), the
 * identity summary and the document type dictionary the verification pages use.
 *
 * `verificationQueryKey` is the prefix of the banner's query: a screen that changes what the status
 * is derived from (an upload, a phone confirmed, an address saved) invalidates it
 * (`queryClient.invalidateQueries({ queryKey: verificationQueryKey })`) and the banner refreshes.
 * The limit reasons and identity share the prefix, so one invalidation refreshes every page here.
 */
import { queryOptions } from '@tanstack/react-query';
import { callMethodOrThrow } from '../../lib/request.ts';

export const verificationQueryKey = ['verification'] as const;

/** userStatusGet for the acting customer (the request wrapper adds fromCustomerId). */
export const verificationStatusQuery = (actingCustomerId: number | null) =>
  queryOptions({
    queryKey: [...verificationQueryKey, 'userStatus', actingCustomerId],
    queryFn: () => callMethodOrThrow('userStatusGet', {}),
  });

/** The account restriction reasons with their requirement documents and what was uploaded for them. */
export const limitReasonsQuery = (actingCustomerId: number | null) =>
  queryOptions({
    queryKey: [...verificationQueryKey, 'limitReasons', actingCustomerId],
    queryFn: () => callMethodOrThrow('customerLimitReasonGet', {}),
  });

/** The identity summary (documents, video identity, proof of residence). */
export const identityQuery = (actingCustomerId: number | null) =>
  queryOptions({
    queryKey: [...verificationQueryKey, 'identity', actingCustomerId],
    queryFn: () => callMethodOrThrow('identityGet', {}),
  });

/** The document categories with their types, in the UI language (names for the upload form). */
export const documentTypesQuery = (lang: string) =>
  queryOptions({
    queryKey: ['dictionaryDocumentTypes', lang],
    queryFn: () => callMethodOrThrow('dictionaryDocumentTypes', {}),
    staleTime: 60 * 60 * 1000,
  });

/** The acting customer's uploaded documents (all categories, sub-documents included). */
export const documentsQuery = (actingCustomerId: number | null) =>
  queryOptions({
    queryKey: [...verificationQueryKey, 'documents', actingCustomerId],
    queryFn: () => callMethodOrThrow('documentsInquiry', {}),
  });
