/**
 * Approving a transfer (document 2 §4): the code entry for sms, otp and approvalCode, or the wait
 * for the linked phone (push); resend held back with a countdown, cancel. A thin view of the
 * approval machine's actor (the transfer machine's child): reads approval.select.ts, sends events.
 */
import { useEffect, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import { RESEND_COOLDOWN_MS, type ApprovalMachine } from '../../../machines/approval/approval.machine.ts';
import { selectApprovalView } from '../../../machines/approval/approval.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useApprovalErrors, useApprovalHeadings } from './messages.ts';

/** Seconds left of the resend hold; restarts whenever `sends` changes while holding. Display only. */
function useCountdown(holding: boolean, sends: number): number {
  const full = Math.round(RESEND_COOLDOWN_MS / 1000);
  const [left, setLeft] = useState(full);
  useEffect(() => {
    if (!holding) return;
    setLeft(full);
    const started = Date.now();
    const timer = setInterval(() => setLeft(Math.max(0, full - Math.floor((Date.now() - started) / 1000))), 1000);
    return () => clearInterval(timer);
  }, [holding, sends, full]);
  return left;
}

export function ApprovalView({ actor }: { actor: ActorRefFrom<ApprovalMachine> }) {
  const { t } = useLingui();
  const view = useSelector(actor, selectApprovalView);
  const headings = useApprovalHeadings(view.sentTo);
  const errors = useApprovalErrors(view.mode);
  const [code, setCode] = useState('');
  const seconds = useCountdown(view.resendCooling, view.sends);
  if (view.step === 'over') return <Spinner label={t`Finishing`} />;

  // Wrong or malformed codes belong to the field; the others above it.
  const fieldError =
    view.error === 'codeFormat' ? errors.codeFormat : view.error === 'wrongCode' ? (view.errorText ?? errors.wrongCode) : undefined;
  const generalError =
    view.error === 'network'
      ? errors.network
      : view.error === 'resendFailed' || view.error === 'cancelFailed'
        ? `${errors[view.error]}${view.errorText ? ` ${view.errorText}` : ''}`
        : null;

  const resend = view.resendOffered ? (
    <div className="approval-resend">
      <Button variant="secondary" onClick={() => actor.send({ type: 'APPROVAL.RESEND' })} disabled={!view.canResend} busy={view.resending}>
        {view.mode === 'push' ? t`Ask my phone again` : t`Send a new code`}
      </Button>
      {view.resendCooling ? <p className="field-hint">{t`You can ask again in ${seconds} s.`}</p> : null}
      {view.sends > 1 && !view.resending && !view.error ? (
        <p role="status">{view.mode === 'push' ? t`We asked your phone again.` : t`We sent a new code.`}</p>
      ) : null}
    </div>
  ) : null;

  const cancel = (
    <Button variant="secondary" onClick={() => actor.send({ type: 'APPROVAL.CANCEL' })} disabled={!view.canCancel} busy={view.canceling}>
      {t`Cancel the transfer`}
    </Button>
  );

  if (view.step === 'phone') {
    return (
      <section className="approval" aria-busy={view.busy || undefined}>
        <StepHeading level={2}>{headings.push}</StepHeading>
        <p>{t`We asked your linked phone. Open the app there and approve the transfer.`}</p>
        {generalError ? <Alert tone="error">{generalError}</Alert> : null}
        <Spinner label={t`Waiting for your phone`} />
        {resend}
        <div className="actions">{cancel}</div>
      </section>
    );
  }

  const isDigits = view.mode !== 'approvalCode';
  return (
    <section className="approval">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'CODE.SUBMIT', code: code.trim() });
        }}
      >
        <StepHeading level={2}>{headings[view.mode]}</StepHeading>
        {generalError ? <Alert tone="error">{generalError}</Alert> : null}
        <TextField
          label={isDigits ? t`Code` : t`Approval code`}
          name="approvalCode"
          type={isDigits ? 'text' : 'password'}
          inputMode={isDigits ? 'numeric' : undefined}
          autoComplete={isDigits ? 'one-time-code' : 'off'}
          maxLength={isDigits ? 6 : 32}
          value={code}
          onChange={setCode}
          error={fieldError}
          disabled={view.busy}
          required
        />
        <div className="actions">
          <Button type="submit" busy={view.verifying} disabled={view.busy}>
            {t`Confirm`}
          </Button>
          {cancel}
        </div>
      </form>
      {resend}
    </section>
  );
}
