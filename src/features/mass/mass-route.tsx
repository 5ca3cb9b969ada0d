/**
 * The mass transfer routes (document 2 §2): /transfer/mass (the kinds), /transfer/mass/p2p and
 * /transfer/mass/{wire,eft,oct,digital} (the file), /transfer/mass/p2p/confirm and
 * /transfer/external/mass/confirm (the preview, the approval, the progress).
 *
 * One batch's flow spans its two routes: the machine's actor is kept per kind while the app runs
 * (flowOf), so going to the confirm page keeps the file and the preview, and coming back to a
 * kind's page finds a batch still being paid. The route follows the machine: the form's steps on
 * the kind's page, the others on its confirm page; a confirm page opened with no batch under way
 * goes back to the form, and the browser's Back from a preview goes back to its form (not forward
 * again to the confirm page).
 */
import { useEffect, useMemo, useRef } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { RouterPageLink } from '../transfers/page-link.tsx';
import type { QueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { Actor } from 'xstate';
import type { MassKind } from '../../../api/mass.ts';
import { CONFIRM_STEPS, selectMassStep, type MassStep } from '../../../machines/mass-transfer/mass-transfer.select.ts';
import { startActor } from '../../lib/actors.ts';
import { onSignOut } from '../../lib/sign-out-hooks.ts';
import { callMethod, isFailure } from '../../lib/request.ts';
import { saveBlob } from '../history/download.ts';
import type { TransferActorDeps } from '../transfers/actors.ts';
import { createMassLogic } from './actors.ts';
import { MassTransferView } from './mass-view.tsx';

type MassActor = Actor<ReturnType<typeof createMassLogic>>;
const flows = new Map<MassKind, MassActor>();

/** The kind's flow, started on first use and kept while the app runs. */
function flowOf(kind: MassKind, deps: TransferActorDeps): MassActor {
  let actor = flows.get(kind);
  if (!actor) {
    onSignOut(stopMassFlows);
    actor = startActor(createMassLogic(deps), { input: { kind } });
    actor.start();
    flows.set(kind, actor);
  }
  return actor;
}

/** Stops every kept flow (sign-out: nothing of a batch outlives the session). */
export function stopMassFlows(): void {
  for (const actor of flows.values()) actor.stop();
  flows.clear();
}

export const MASS_PAGE: Record<MassKind, '/transfer/mass/p2p' | '/transfer/mass/wire' | '/transfer/mass/eft' | '/transfer/mass/oct' | '/transfer/mass/digital'> = {
  p2p: '/transfer/mass/p2p',
  wire: '/transfer/mass/wire',
  eft: '/transfer/mass/eft',
  oct: '/transfer/mass/oct',
  digital: '/transfer/mass/digital',
};

async function downloadSample(kind: MassKind): Promise<void> {
  const answer = await callMethod('massSampleLinkList', {});
  if (isFailure(answer)) return;
  const sample = answer.samples.find((s) => s.kind === kind);
  if (sample) saveBlob(new Blob([sample.content], { type: 'text/csv' }), sample.fileName);
}

export function MassRoute({ kind, confirm, getAccessToken, queryClient }: { kind: MassKind; confirm: boolean; getAccessToken: () => string | null; queryClient: QueryClient }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const deps = useMemo(() => ({ getAccessToken, queryClient }), [getAccessToken, queryClient]);
  const actor = flowOf(kind, deps);
  const step = useSelector(actor, selectMassStep);
  const onConfirmStep = CONFIRM_STEPS.includes(step);
  // the step this page last saw (null: the page just opened)
  const seen = useRef<MassStep | null>(null);
  useEffect(() => {
    const before = seen.current;
    seen.current = step;
    if (onConfirmStep === confirm) return;
    const toConfirm = (replace: boolean) =>
      void (kind === 'p2p' ? navigate({ to: '/transfer/mass/p2p/confirm', replace }) : navigate({ to: '/transfer/external/mass/confirm', search: { method: kind }, replace }));
    if (!onConfirmStep) {
      void navigate({ to: MASS_PAGE[kind], replace: true });
      return;
    }
    // the form's page: forward to the confirm page when the batch was checked here ...
    if (before !== null && !CONFIRM_STEPS.includes(before)) toConfirm(false);
    // ... and when come back to it (the browser's Back): a preview goes back to its form, an
    // ended batch makes way for a new one, a batch being approved or paid stays on its page
    else if (step === 'previewing') actor.send({ type: 'BATCH.EDIT' });
    else if (step === 'done' || step === 'failed') actor.send({ type: 'BATCH.NEW' });
    else toConfirm(true);
  }, [step, onConfirmStep, confirm, kind, navigate, actor]);
  return (
    <MassTransferView
      actor={actor}
      onSample={() => void downloadSample(kind)}
      pendingLink={RouterPageLink}
      batchesLink={
        <Link to="/history/batch-transfers" className="btn btn-secondary">
          {t`See your batches`}
        </Link>
      }
    />
  );
}
