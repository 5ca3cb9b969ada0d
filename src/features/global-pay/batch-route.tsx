/**
 * The global-pay batch routes (document 2 §2): /transfer/mass/global (the form, "the same file
 * before", the draft) and /transfer/external/global-summary (the summary, the approval, the batch
 * submitted, canceled or not approved).
 *
 * One batch's flow spans its two routes: the machine's actor is kept while the app runs (and
 * stopped at sign-out), so going to the summary keeps the draft, and coming back finds the batch
 * as it was. The route follows the machine: the form's and the draft's steps on the first page,
 * the others on the summary page; a summary page opened with no batch under way goes back to the
 * form, and the browser's Back from the summary goes back to the draft (not forward again).
 */
import { useEffect, useMemo, useRef } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { RouterPageLink } from '../transfers/page-link.tsx';
import type { QueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { Actor } from 'xstate';
import { selectGlobalPayStep, SUMMARY_STEPS, type GlobalPayStep } from '../../../machines/global-pay-batch/global-pay-batch.select.ts';
import { startActor } from '../../lib/actors.ts';
import { onSignOut } from '../../lib/sign-out-hooks.ts';
import type { TransferActorDeps } from '../transfers/actors.ts';
import { createGlobalPayLogic } from './batch-actors.ts';
import { GlobalPayBatchView } from './batch-view.tsx';

type GlobalPayActor = Actor<ReturnType<typeof createGlobalPayLogic>>;
let flow: GlobalPayActor | null = null;

/** The flow, started on first use and kept while the app runs. */
function flowOf(deps: TransferActorDeps): GlobalPayActor {
  if (!flow) {
    onSignOut(stopGlobalPayFlow);
    flow = startActor(createGlobalPayLogic(deps));
    flow.start();
  }
  return flow;
}

/** Stops the kept flow (sign-out: nothing of a batch outlives the session). */
export function stopGlobalPayFlow(): void {
  flow?.stop();
  flow = null;
}

export function GlobalPayRoute({ summary, getAccessToken, queryClient }: { summary: boolean; getAccessToken: () => string | null; queryClient: QueryClient }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const deps = useMemo(() => ({ getAccessToken, queryClient }), [getAccessToken, queryClient]);
  const actor = flowOf(deps);
  const step = useSelector(actor, selectGlobalPayStep);
  const onSummaryStep = SUMMARY_STEPS.includes(step);
  // the step this page last saw (null: the page just opened)
  const seen = useRef<GlobalPayStep | null>(null);
  useEffect(() => {
    const before = seen.current;
    seen.current = step;
    if (onSummaryStep === summary) return;
    const toSummary = (replace: boolean) => void navigate({ to: '/transfer/external/global-summary', replace });
    if (!onSummaryStep) {
      void navigate({ to: '/transfer/mass/global', replace: true });
      return;
    }
    // the draft's page: forward to the summary when continued here ...
    if (before !== null && !SUMMARY_STEPS.includes(before)) toSummary(false);
    // ... and when come back to it (the browser's Back): a summary goes back to its draft, an
    // ended batch makes way for a new one, a batch being approved or submitted stays on its page
    else if (step === 'summary') actor.send({ type: 'SUMMARY.BACK' });
    else if (step === 'canceled' || step === 'failed') actor.send({ type: 'BATCH.NEW' });
    else toSummary(true);
  }, [step, onSummaryStep, summary, navigate, actor]);
  // the ended pages link to the batches: global-pay batches are listed there with the mass ones
  return (
    <GlobalPayBatchView
      actor={actor}
      pendingLink={RouterPageLink}
      batchesLink={
        <Link to="/history/batch-transfers" className="btn btn-secondary">
          {t`See your batches`}
        </Link>
      }
    />
  );
}
