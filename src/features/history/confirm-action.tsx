/**
 * The thin view of machines/confirm-action: a confirmation Dialog (confirming, working, failed)
 * and, once done, a message that takes focus (the button that opened the dialog is usually gone
 * by then: a canceled transfer has no Cancel button, a stopped payment no Stop button). Used by
 * the transaction detail page (transferCancel) and the pre-approved payments page
 * (preapprovedCancel); each passes its call as `perform`.
 */
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { useLingui } from '@lingui/react/macro';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import { confirmActionMachine, type ConfirmActionResult, type PerformInput } from '../../../machines/confirm-action/confirm-action.machine.ts';
import { describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';

export type ConfirmActionActor = ActorRefFrom<typeof confirmActionMachine>;

/** A platform failure as the machine's result: the platform's words (in the UI language) as detail. */
export function refusalOf(f: Failure): ConfirmActionResult {
  return { ok: false, code: f.responseCode === ResponseCode.network ? 'network' : 'refused', detail: describeFailure(f) };
}

/** The running chart with `perform` as its call (the latest function given is the one called). */
export function useConfirmAction(perform: (input: PerformInput) => Promise<ConfirmActionResult>): ConfirmActionActor {
  const performRef = useRef(perform);
  performRef.current = perform;
  const machine = useMemo(
    () => confirmActionMachine.provide({ actors: { perform: fromPromise<ConfirmActionResult, PerformInput>(({ input }) => performRef.current(input)) } }),
    [],
  );
  return useFlowActor(machine);
}

export interface ConfirmActionDialogProps {
  actor: ConfirmActionActor;
  /** the dialog's title: a question ("Cancel this transfer?") */
  title: string;
  /** what will happen, plainly */
  children: ReactNode;
  /** the button that does it ("Cancel the transfer") */
  confirmLabel: string;
  /** the button that leaves things as they are ("Keep it") */
  keepLabel: string;
  /** the heading of a failure ("The transfer was not canceled") */
  failedTitle: string;
}

export function ConfirmActionDialog({ actor, title, children, confirmLabel, keepLabel, failedTitle }: ConfirmActionDialogProps) {
  const { t } = useLingui();
  const step = useSelector(actor, (s) => (s.matches('confirming') ? 'confirming' : s.matches('working') ? 'working' : s.matches('failed') ? 'failed' : null));
  const error = useSelector(actor, (s) => s.context.error);
  // the chart's busy tag (its working state): the request is out, the dialog waits for the answer
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  if (step === null) return null;
  return (
    <Dialog
      open
      title={title}
      // Escape and the Keep button alike; ignored while the call runs (the chart takes no DISMISS then).
      onClose={() => actor.send({ type: 'DISMISS' })}
      actions={
        <ButtonGroup align="end" stackOnMobile>
          <Button variant="secondary" disabled={busy} onClick={() => actor.send({ type: 'DISMISS' })}>
            {keepLabel}
          </Button>
          <Button variant="danger" busy={busy} onClick={() => actor.send({ type: 'CONFIRM' })}>
            {step === 'failed' ? t`Try again` : confirmLabel}
          </Button>
        </ButtonGroup>
      }
    >
      {children}
      {step === 'failed' && error ? (
        <Alert tone="error" title={failedTitle}>
          <p>{error.code === 'network' ? t`The connection failed. Try again.` : (error.detail ?? t`Unknown error`)}</p>
        </Alert>
      ) : null}
    </Dialog>
  );
}

/** Shown once the chart is done: a success message that takes focus, with a button to close it. */
export function ConfirmActionDone({ actor, children }: { actor: ConfirmActionActor; children: ReactNode }) {
  const { t } = useLingui();
  const done = useSelector(actor, (s) => s.matches('done'));
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (done) ref.current?.focus();
  }, [done]);
  if (!done) return null;
  return (
    <div ref={ref} tabIndex={-1} className="confirm-done">
      <Alert tone="success">
        <p>{children}</p>
        <Button variant="link" onClick={() => actor.send({ type: 'DISMISS' })}>
          {t`Close this message`}
        </Button>
      </Alert>
    </div>
  );
}
