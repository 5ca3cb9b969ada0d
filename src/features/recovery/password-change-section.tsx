/**
 * Settings section "Change password" (document 2 "Security settings"): current and new password
 * twice -> a code is e-mailed -> the code (or cancel) -> done. A thin view over the
 * password-change machine; the PasswordChange push event's toast comes from the push handler.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import { passwordChangeMachine, type PasswordChangeMachine } from '../../../machines/password-change/password-change.machine.ts';
import { selectPasswordChangeView } from '../../../machines/password-change/password-change.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { NewPasswordFields, PasswordRules } from './new-password-fields.tsx';
import { passwordChangeActors } from './actors.ts';
import { passwordChangeErrorMessages, passwordChangeFieldMessages } from './messages.ts';

export const livePasswordChangeMachine = passwordChangeMachine.provide({ actors: passwordChangeActors });

type View = ReturnType<typeof selectPasswordChangeView>;

export function PasswordChangeSection({ logic = livePasswordChangeMachine }: { logic?: PasswordChangeMachine }) {
  const { t, i18n } = useLingui();
  const actor = useFlowActor(logic);
  const view = selectPasswordChangeView(useSelector(actor, (s) => s));
  const error = view.error ? <Alert tone="error">{i18n._(passwordChangeErrorMessages[view.error])}</Alert> : null;
  return (
    <section className="card settings-section" aria-labelledby="password-change-heading" aria-busy={view.busy || undefined}>
      {view.step === 'editing' ? (
        <EditingStep view={view} error={error} send={actor.send} />
      ) : view.step === 'confirming' ? (
        <ConfirmingStep view={view} error={error} send={actor.send} />
      ) : (
        <>
          <StepHeading level={2} id="password-change-heading">
            {view.step === 'changed' ? t`Password changed` : t`Password change canceled`}
          </StepHeading>
          <Alert tone={view.step === 'changed' ? 'success' : 'info'}>
            {view.step === 'changed' ? (
              <Trans>Your password has been changed. Your other sessions were signed out.</Trans>
            ) : (
              <Trans>Your password stays as it was.</Trans>
            )}
          </Alert>
          <Button variant="secondary" onClick={() => actor.send({ type: 'RESTART' })}>
            {t`Change password again`}
          </Button>
        </>
      )}
    </section>
  );
}

type Send = ReturnType<typeof useFlowActor<PasswordChangeMachine>>['send'];

function EditingStep({ view, error, send }: { view: View; error: ReactNode; send: Send }) {
  const { t, i18n } = useLingui();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'PASSWORD.SUBMIT', currentPassword, newPassword, confirmation });
  };
  const fieldError = (key: NonNullable<View['fieldError']>) => (view.fieldError === key ? i18n._(passwordChangeFieldMessages[key]) : undefined);
  return (
    <>
      {/* A plain heading: the settings page loads with this step, and must not steal the page heading's focus. */}
      <h2 id="password-change-heading">{t`Change password`}</h2>
      <PasswordRules id="password-change-rules" />
      {error}
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label={t`Current password`}
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={setCurrent}
          required
          maxLength={256}
          error={fieldError('currentRequired')}
        />
        <NewPasswordFields
          password={newPassword}
          onPassword={setNew}
          confirmation={confirmation}
          onConfirmation={setConfirmation}
          weakError={fieldError('passwordWeak')}
          mismatchError={fieldError('passwordMismatch')}
        />
        <Button type="submit" busy={view.submitting}>
          {t`Change password`}
        </Button>
      </form>
    </>
  );
}

function ConfirmingStep({ view, error, send }: { view: View; error: ReactNode; send: Send }) {
  const { t, i18n } = useLingui();
  const [code, setCode] = useState('');
  const sentTo = view.sentTo ?? '';
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'CODE.SUBMIT', code });
  };
  return (
    <>
      <StepHeading level={2} id="password-change-heading">
        {t`Confirm the new password`}
      </StepHeading>
      <p>
        <Trans>We sent an 8-character code to {sentTo}. It works for 10 minutes.</Trans>
      </p>
      {error}
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label={t`Confirmation code`}
          name="code"
          autoComplete="one-time-code"
          value={code}
          onChange={setCode}
          required
          maxLength={16}
          error={view.fieldError === 'codeFormat' ? i18n._(passwordChangeFieldMessages.codeFormat) : undefined}
        />
        <div className="actions">
          <Button type="submit" busy={view.confirmingCode} disabled={view.canceling}>
            {t`Confirm`}
          </Button>
          <Button variant="secondary" busy={view.canceling} disabled={view.confirmingCode} onClick={() => send({ type: 'CANCEL' })}>
            {t`Cancel the change`}
          </Button>
        </div>
      </form>
    </>
  );
}
