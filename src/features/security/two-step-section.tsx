/**
 * Settings: "Two-step verification" (document 2 "Security settings"). Shows the current mode and
 * changes it through the two-step machine: choose a mode, confirm it with the input that mode
 * needs (authenticator QR code, SMS code, the approval code again, or a phone's approval), then
 * the recovery codes once. Reads through two-step.select.ts; sends events only.
 */
import { useId, useMemo, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { Plural, useLingui } from '@lingui/react/macro';
import type { TwoStepModeCode } from '../../../api/security.ts';
import { twoStepMachine, type TwoStepErrorCode, type TwoStepMachine } from '../../../machines/two-step/two-step.machine.ts';
import { selectTwoStepView } from '../../../machines/two-step/two-step.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { QrCode } from '../../ui/qr-code.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { createTwoStepActors } from './actors.ts';
import { useModeNames, useTwoStepErrors } from './messages.ts';
import { RecoveryCodesView } from './recovery-codes-view.tsx';
import type { SessionAccess } from './rest.ts';

const MODES: readonly TwoStepModeCode[] = [1, 2, 3, 4];
/** Shown on the password field rather than above the form. */
const PASSWORD_ERRORS: readonly TwoStepErrorCode[] = ['passwordRequired', 'wrongPassword', 'tooManyPasswords'];

export interface TwoStepSectionProps {
  session: SessionAccess;
  /** the customer's two-step verification mode (getCustomerInfo), null when none was set */
  currentMode: number | null;
  /** AccessClaims.rst of the current session */
  restriction: 'setup2fa' | 'scp' | null;
  /** tests provide the machine with their own actors */
  logic?: TwoStepMachine;
}

const asMode = (m: number | null): TwoStepModeCode | null => (m === 1 || m === 2 || m === 3 || m === 4 ? m : null);

export function TwoStepSection({ session, currentMode, restriction, logic }: TwoStepSectionProps) {
  const { t } = useLingui();
  const id = useId();
  const machine = useMemo(() => logic ?? twoStepMachine.provide({ actors: createTwoStepActors(session) }), [logic, session]);
  const actor = useFlowActor(machine, { input: { currentMode: asMode(currentMode) } });
  const view = selectTwoStepView(useSelector(actor, (s) => s));
  const modeNames = useModeNames();
  const errors = useTwoStepErrors();
  const [choice, setChoice] = useState<TwoStepModeCode>(3);
  const [approvalCode, setApprovalCode] = useState('');
  // The current password (a change of the second factor re-authenticates); cleared once sent.
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const errorText = view.error ? errors[view.error] : null;
  // Named placeholders for the translators.
  const currentName = view.currentMode ? modeNames[view.currentMode] : '';
  const confirmedName = view.confirmedMode ? modeNames[view.confirmedMode] : '';
  const sentTo = view.request?.sentTo ?? '';
  const deviceCount = view.request?.deviceCount ?? 1;

  return (
    <section className="card settings-section" aria-labelledby={`${id}-title`} aria-busy={view.busy || undefined}>
      <h2 id={`${id}-title`}>{t`Two-step verification`}</h2>
      {restriction === 'setup2fa' ? (
        <Alert tone="warning" title={t`Set up two-step verification again`}>
          <p>{t`You signed in with a recovery code, so your linked phones and authenticator were switched off. Choose a new way to confirm your sign-ins to use your account again.`}</p>
        </Alert>
      ) : null}

      {view.step === 'idle' ? (
        <div>
          <p>
            {view.currentMode ? t`Current method: ${currentName}` : t`No method is set up.`}
          </p>
          {view.confirmedMode ? <Alert tone="success">{t`Two-step verification is now: ${confirmedName}.`}</Alert> : null}
          <Button
            onClick={() => {
              setApprovalCode('');
              actor.send({ type: 'CHANGE.START' });
            }}
          >
            {t`Change two-step verification`}
          </Button>
        </div>
      ) : null}

      {view.step === 'choosing' ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'MODE.CHOOSE', mode: choice, password, ...(choice === 4 ? { approvalCode } : {}) });
            setPassword('');
          }}
        >
          <StepHeading level={2}>{t`Choose how to confirm`}</StepHeading>
          {errorText && !PASSWORD_ERRORS.includes(view.error!) && view.error !== 'approvalCodeInvalid' ? <Alert tone="error">{errorText}</Alert> : null}
          <fieldset>
            <legend>{t`Method`}</legend>
            {MODES.map((m) => (
              <div key={m} className="field field-radio">
                <input
                  id={`${id}-mode-${m}`}
                  type="radio"
                  name="mode"
                  value={m}
                  checked={choice === m}
                  onChange={() => setChoice(m)}
                  disabled={view.busy}
                />
                <label htmlFor={`${id}-mode-${m}`}>{modeNames[m]}</label>
              </div>
            ))}
          </fieldset>
          {choice === 4 ? (
            <TextField
              label={t`Approval code (6 digits)`}
              name="approvalCode"
              type="password"
              inputMode="numeric"
              autoComplete="new-password"
              maxLength={6}
              value={approvalCode}
              onChange={setApprovalCode}
              error={view.error === 'approvalCodeInvalid' ? (errorText ?? undefined) : undefined}
              disabled={view.busy}
            />
          ) : null}
          <TextField
            label={t`Current password`}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            error={view.error && PASSWORD_ERRORS.includes(view.error) ? (errorText ?? undefined) : undefined}
            disabled={view.busy}
          />
          <div className="actions">
            <Button type="submit" busy={view.busy}>
              {t`Continue`}
            </Button>
            <Button variant="secondary" onClick={() => actor.send({ type: 'CHANGE.CANCEL' })} disabled={view.busy}>
              {t`Cancel`}
            </Button>
          </div>
        </form>
      ) : null}

      {view.step === 'code' && view.request ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'CODE.SUBMIT', code: code.trim() });
          }}
        >
          {view.request.mode === 3 ? (
            <>
              <StepHeading level={2}>{t`Scan the QR code with your authenticator app`}</StepHeading>
              {view.request.otpauthUri ? (
                <QrCode
                  value={view.request.otpauthUri}
                  label={t`QR code of your new authenticator key`}
                  text={view.request.secret ?? view.request.otpauthUri}
                />
              ) : null}
              <p>{t`Cannot scan? Type the key under the code into the app. Then enter the 6-digit code it shows.`}</p>
            </>
          ) : view.request.mode === 2 ? (
            <StepHeading level={2}>{t`Enter the code we sent to ${sentTo}`}</StepHeading>
          ) : (
            <StepHeading level={2}>{t`Enter your approval code again`}</StepHeading>
          )}
          {errorText && view.error !== 'wrongCode' ? <Alert tone="error">{errorText}</Alert> : null}
          <TextField
            label={view.request.mode === 4 ? t`Approval code` : t`Code`}
            name="code"
            type={view.request.mode === 4 ? 'password' : 'text'}
            inputMode="numeric"
            autoComplete={view.request.mode === 4 ? 'new-password' : 'one-time-code'}
            maxLength={6}
            value={code}
            onChange={setCode}
            error={view.error === 'wrongCode' ? (errorText ?? undefined) : undefined}
            disabled={view.busy}
          />
          <div className="actions">
            <Button type="submit" busy={view.busy}>
              {t`Confirm`}
            </Button>
            <Button variant="secondary" onClick={() => actor.send({ type: 'CHANGE.CANCEL' })} disabled={view.busy}>
              {t`Cancel`}
            </Button>
          </div>
        </form>
      ) : null}

      {view.step === 'awaitingPhone' ? (
        <div>
          <StepHeading level={2}>{t`Approve the change on your phone`}</StepHeading>
          <p>
            <Plural
              value={deviceCount}
              one="We asked your linked phone. Open the app there and approve."
              other="We asked your # linked phones. Open the app on one of them and approve."
            />
          </p>
          {errorText ? <Alert tone="error">{errorText}</Alert> : null}
          <Spinner label={t`Waiting for your phone`} />
          <Button variant="secondary" onClick={() => actor.send({ type: 'CHANGE.CANCEL' })} disabled={view.busy}>
            {t`Cancel`}
          </Button>
        </div>
      ) : null}

      {view.step === 'codes' && view.recoveryCodes ? (
        <RecoveryCodesView
          codes={view.recoveryCodes}
          saved={view.codesSaved}
          canContinue={view.canContinue}
          onSavedChange={(saved) => actor.send({ type: 'CODES.SAVED', saved })}
          onContinue={() => actor.send({ type: 'CODES.CONTINUE' })}
        />
      ) : null}
    </section>
  );
}
