/**
 * Confirming a phone or an e-mail address with the code sent to it (machines/code-confirm): the
 * code is asked for when the panel opens, then entered; a wrong code shows the platform's words on
 * the field; a new code can be sent. Reads through code-confirm.select.ts; sends events only.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { fromPromise } from 'xstate';
import { useLingui } from '@lingui/react/macro';
import { codeConfirmMachine, type ConfirmCodeResult, type RequestCodeResult } from '../../../machines/code-confirm/code-confirm.machine.ts';
import { selectCodeConfirmView } from '../../../machines/code-confirm/code-confirm.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useCodeErrorText } from './messages.ts';

export interface CodeConfirmActors {
  requestCode(input: { targetId: number }): Promise<RequestCodeResult>;
  confirmCode(input: { targetId: number; code: string }): Promise<ConfirmCodeResult>;
}

export interface CodeConfirmPanelProps {
  targetId: number;
  /** what is confirmed, e.g. "+370 612 34578" */
  targetLabel: string;
  kind: 'phone' | 'email';
  actors: CodeConfirmActors;
  /** confirmed (true) or canceled (false): the panel closes */
  onFinished(confirmed: boolean): void;
}

export function CodeConfirmPanel({ targetId, targetLabel, kind, actors, onFinished }: CodeConfirmPanelProps) {
  const { t } = useLingui();
  // The actors are read once, when the actor starts.
  const machine = useMemo(
    () =>
      codeConfirmMachine.provide({
        actors: { requestCode: fromPromise(({ input }) => actors.requestCode(input)), confirmCode: fromPromise(({ input }) => actors.confirmCode(input)) },
      }),
    [], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const actor = useFlowActor(machine, { input: { targetId } });
  const view = useSelector(actor, selectCodeConfirmView);
  const errorText = useCodeErrorText();
  const [code, setCode] = useState('');
  const codeRef = useRef<HTMLInputElement>(null);
  const retryRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (view.step === 'confirmed') onFinished(true);
    else if (view.step === 'canceled') onFinished(false);
    else if (view.step === 'requestFailed') retryRef.current?.focus();
  }, [view.step]); // eslint-disable-line react-hooks/exhaustive-deps
  // A refused code: the field is cleared and takes focus for the next try.
  useEffect(() => {
    if (view.step === 'entering' && view.error) {
      setCode('');
      codeRef.current?.focus();
    }
  }, [view.step, view.error]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'CODE.SUBMIT', code });
  };
  const cancel = view.canCancel ? (
    <Button variant="secondary" onClick={() => actor.send({ type: 'CANCEL' })}>
      {t`Cancel`}
    </Button>
  ) : null;
  const title = t`Confirm ${targetLabel}`;

  if (view.step === 'requesting') {
    return (
      // Keyed per step: a new step's heading mounts and takes focus.
      <div key="requesting" className="profile-panel" aria-busy={view.busy || undefined}>
        <StepHeading level={2}>{title}</StepHeading>
        <p role="status">{t`Sending the code…`}</p>
        {cancel}
      </div>
    );
  }
  if (view.step === 'requestFailed') {
    return (
      <div key="requestFailed" className="profile-panel">
        <StepHeading level={2}>{title}</StepHeading>
        <Alert tone="error" title={t`The code was not sent`}>
          <p>{view.error ? errorText(view.error.code, view.error.detail) : null}</p>
        </Alert>
        <div className="actions">
          <Button ref={retryRef} onClick={() => actor.send({ type: 'RETRY' })}>
            {t`Try again`}
          </Button>
          {cancel}
        </div>
      </div>
    );
  }
  if (!view.showsCodeField) return null;
  // The code's own faults sit on the field; a refused or unanswered call (a new code asked for too soon) above it.
  const onField = view.error && (view.error.code === 'codeFormat' || view.error.code === 'wrongCode');
  const codeError = view.error && onField ? errorText(view.error.code, view.error.detail) : undefined;
  return (
    <form className="profile-panel" onSubmit={submit} noValidate aria-busy={view.busy || undefined}>
      <StepHeading level={2}>{title}</StepHeading>
      <p role="status">
        {view.resent
          ? t`A new code was sent. The code sent before no longer works.`
          : kind === 'phone'
            ? view.sentTo
              ? t`We sent a 6-digit code by SMS to ${view.sentTo}.`
              : t`We sent a 6-digit code by SMS.`
            : t`We sent a 6-digit code to ${targetLabel}.`}
      </p>
      {view.error && !onField ? (
        <Alert tone="error">
          <p>{errorText(view.error.code, view.error.detail)}</p>
        </Alert>
      ) : null}
      <TextField
        ref={codeRef}
        label={t`Code`}
        name="code"
        value={code}
        onChange={setCode}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        required
        error={codeError}
        disabled={view.busy}
      />
      <div className="actions">
        <Button type="submit" busy={view.step === 'verifying'}>
          {t`Confirm`}
        </Button>
        <Button variant="secondary" busy={view.step === 'resending'} disabled={!view.canResend} onClick={() => actor.send({ type: 'RESEND' })}>
          {t`Send a new code`}
        </Button>
        {cancel}
      </div>
    </form>
  );
}
