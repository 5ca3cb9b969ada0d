/**
 * The verification status actor for the app shell: `loadStatus` is the real call (userStatusGet,
 * wired by the shell) and is read once, when the actor starts. The shell sends STATUS.REFRESH
 * after an upload, a push or a profile change (`refresh`).
 */
import { useMemo } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { fromPromise } from 'xstate';
import { verificationStatusMachine, type LoadStatusResult } from '../../../machines/verification-status/verification-status.machine.ts';
import { selectVerificationStatusView } from '../../../machines/verification-status/verification-status.select.ts';

export function useVerificationStatus(loadStatus: () => Promise<LoadStatusResult>) {
  // The machine takes the loader given on the first render (a new function each render would not restart it).
  const machine = useMemo(() => verificationStatusMachine.provide({ actors: { loadStatus: fromPromise(() => loadStatus()) } }), []); // eslint-disable-line react-hooks/exhaustive-deps
  const actor = useFlowActor(machine);
  const view = useSelector(actor, selectVerificationStatusView);
  return { actor, view, refresh: () => actor.send({ type: 'STATUS.REFRESH' }) };
}
