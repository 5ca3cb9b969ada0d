/**
 * What every step of a guided flow's view shares: its form's submit, the Back and Cancel buttons
 * when the statechart allows them, and the failure of the last step with "Try again" (which takes
 * focus when it appears, so a keyboard user lands on the way out).
 */
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';

/** A flow's actor as its step controls use it (the statechart answers BACK, CANCEL and RETRY). */
interface StepActor {
  send(event: { type: 'BACK' } | { type: 'CANCEL' } | { type: 'RETRY' }): void;
}

export function useStepControls(actor: StepActor, view: { canBack: boolean; canCancel: boolean }) {
  const { t } = useLingui();
  const submit = (send: () => void) => (e: FormEvent) => {
    e.preventDefault();
    send();
  };
  const back = view.canBack ? (
    <Button variant="secondary" onClick={() => actor.send({ type: 'BACK' })}>
      {t`Back`}
    </Button>
  ) : null;
  const cancel = view.canCancel ? (
    <Button variant="secondary" onClick={() => actor.send({ type: 'CANCEL' })}>
      {t`Cancel`}
    </Button>
  ) : null;
  return { submit, back, cancel };
}

/** The last step's failure: what went wrong and "Try again" (RETRY), focused when it appears. */
export function RetryAlert({ actor, title, children }: { actor: StepActor; title: string; children: ReactNode }) {
  const { t } = useLingui();
  const retry = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    retry.current?.focus();
  }, []);
  return (
    <Alert tone="error" title={title}>
      {children}
      <div className="actions">
        <Button ref={retry} onClick={() => actor.send({ type: 'RETRY' })}>
          {t`Try again`}
        </Button>
      </div>
    </Alert>
  );
}
