/**
 * The verification status banner as the main layout mounts it: the verification-status statechart
 * (StatusBanner) fed by the TanStack Query of userStatusGet (queries.ts verificationStatusQuery).
 *
 * The query is the one source of the answer: it refetches when the window regains focus and when
 * a screen invalidates `verificationQueryKey` (an upload, a phone confirmed, an address saved).
 * The machine's `loadStatus` reads the query (fetching only when it holds no answer, so the first
 * load is one call), and each newer answer of the query sends STATUS.REFRESH, which the machine
 * evaluates with the §4 rules. A failed refetch leaves the last banner up (the machine's refresh
 * semantics: the banner is a hint).
 *
 * This module is imported by the main layout's component only, which the router splits out of the
 * entry chunk (autoCodeSplitting): /login does not load it.
 */
import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ResponseCode } from '../../../api/envelope.ts';
import type { LoadStatusResult } from '../../../machines/verification-status/verification-status.machine.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { verificationStatusQuery } from './queries.ts';
import { StatusBanner } from './status-banner.tsx';
import { useVerificationStatus } from './use-verification-status.ts';

export interface AppStatusBannerProps {
  /** the current route's path (the banner is hidden on login-type routes and /scp) */
  pathname: string;
  /** the company the user acts for, or null */
  actingCustomerId: number | null;
}

/** A thrown query error as the machine's expected failure. */
function failureOf(error: unknown): LoadStatusResult {
  if (error instanceof MethodCallError) {
    return error.failure.responseCode === ResponseCode.network ? { ok: false, code: 'network' } : { ok: false, code: 'refused', detail: describeFailure(error.failure) };
  }
  return { ok: false, code: 'network' };
}

export function AppStatusBanner({ pathname, actingCustomerId }: AppStatusBannerProps) {
  const queryClient = useQueryClient();
  // Focus refetch on for this query only (the app's default is off), even within the app's
  // 5-second freshness: the customer may have uploaded in another tab or the administrator may
  // have decided meanwhile.
  const query = useQuery({ ...verificationStatusQuery(actingCustomerId), refetchOnWindowFocus: 'always' });
  const acting = useRef(actingCustomerId);
  acting.current = actingCustomerId;
  /** the answer the machine has read last (its dataUpdatedAt) */
  const seen = useRef(0);

  const { actor } = useVerificationStatus(async () => {
    const options = verificationStatusQuery(acting.current);
    try {
      // The query's answer when it holds one (a refresh after a refetch), else one call.
      const answer = await queryClient.fetchQuery({ ...options, staleTime: Infinity });
      seen.current = queryClient.getQueryState(options.queryKey)?.dataUpdatedAt ?? 0;
      return { ok: true, inputs: answer.userStatus };
    } catch (error) {
      return failureOf(error);
    }
  });

  const updatedAt = query.dataUpdatedAt;
  useEffect(() => {
    // A newer answer than the machine read (window focus, an invalidation, another acting customer).
    if (updatedAt <= seen.current) return;
    const snapshot = actor.getSnapshot();
    if (snapshot.matches('known')) actor.send({ type: 'STATUS.REFRESH' });
    // The first load failed and an answer came since (the window regained focus): show it.
    else if (snapshot.matches('loadFailed')) actor.send({ type: 'STATUS.RETRY' });
  }, [updatedAt, actor]);

  return <StatusBanner actor={actor} pathname={pathname} />;
}
