/** The administrator's review reads: the queue of documents waiting for a decision, one customer's documents. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { distinctRepresentatives } from '../../../api/business.ts';
import { callMethodOrThrow } from '../../lib/request.ts';

export const REVIEW_PAGE_SIZE = 10;

/** Prefix of every review read: a decision, a reassignment or a removal invalidates it. */
export const adminReviewKey = ['adminReview'] as const;

export const reviewQueueQuery = (page: number) =>
  queryOptions({
    queryKey: [...adminReviewKey, 'queue', page, REVIEW_PAGE_SIZE],
    queryFn: () => callMethodOrThrow('adminReviewQueue', { page, pageSize: REVIEW_PAGE_SIZE }),
    placeholderData: keepPreviousData,
    // Other administrators work the same queue.
    refetchOnWindowFocus: true,
  });

export const customerDocumentsQuery = (customerId: number) =>
  queryOptions({
    queryKey: [...adminReviewKey, 'customerDocuments', customerId],
    queryFn: () => callMethodOrThrow('adminReassignDocumentList', { customerId }),
  });

/** Personal-data account recoveries waiting for a decision (their documents arrived). */
export const recoveryQueueQuery = () =>
  queryOptions({
    queryKey: [...adminReviewKey, 'recoveryTasks'],
    queryFn: () => callMethodOrThrow('adminRecoveryTaskList', {}),
    refetchOnWindowFocus: true,
  });

/**
 * A company's representatives as the administrator sees them (the four business lists, read for
 * the company with fromCustomerId; each representative once). A removal invalidates it.
 */
export const companyRepresentativesQuery = (companyId: number) =>
  queryOptions({
    queryKey: [...adminReviewKey, 'companyRepresentatives', companyId],
    queryFn: async () => {
      const read = { fromCustomerId: companyId };
      const [directors, owners, users, tree] = [
        await callMethodOrThrow('businessDirectorList', read),
        await callMethodOrThrow('businessUltimateBeneficiaryOwnerList', read),
        await callMethodOrThrow('businessUserList', read),
        await callMethodOrThrow('businessShareholderList', read),
      ];
      return distinctRepresentatives([directors.representatives, owners.representatives, users.representatives], tree.shareholders);
    },
  });
