/**
 * The sign-in screen: a thin view over the login machine. It reads through login.select.ts and
 * sends events; the machine validates, calls the token service (through actors) and decides.
 */
import { lazy, Suspense, useRef, useState, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { DEVICE_TYPE_NAMES } from '../../../api/auth.ts';
import { loginMachine, type LoginErrorCode, type LoginMachine, type LoginOutcome } from '../../../machines/login/login.machine.ts';
import { selectLoginView, type LoginView as LoginFacts } from '../../../machines/login/login.select.ts';
import { selectIsExpired } from '../../../machines/session/session.select.ts';
import type { StartErrorCode } from '../../../machines/start-page/start-page.machine.ts';
import { MAX_PASSWORD_LENGTH, MAX_RECOVERY_CODE_INPUT_LENGTH, MAX_USERNAME_LENGTH } from '../../../machines/login/login.rules.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { signalEmbeddingApp } from '../../lib/embedding.ts';
import { approvalChannelActor, exchangeCodeActor, resendApprovalActor, signInActor } from './actors.ts';
import { invalidSmsCodeMessage, loginErrorMessages, loginFieldMessages, startErrorMessages } from './messages.ts';
import type { SessionActor } from './session-actor.ts';

// Only the push step shows a QR code: its encoder loads with that step, not with the sign-in page.
const QrCode = lazy(() => import('../../ui/qr-code.tsx').then((m) => ({ default: m.QrCode })));

/** The product's login machine with its real actors. */
export const liveLoginMachine = loginMachine.provide({
  actors: {
    signIn: signInActor,
    exchangeCode: exchangeCodeActor,
    resendApproval: resendApprovalActor,
    approvalChannel: approvalChannelActor,
  },
});

export interface LoginViewProps {
  session: SessionActor;
  /** Document 1 §2: a code plus codeVerifier in the query signs the user in. */
  queryCode?: { code: string; codeVerifier: string } | null;
  /** why the user is back on login after sign-in (the start page sent them here) */
  notice?: StartErrorCode | null;
  /** the tokens are in the session; the outcome says what the sign-in still requires */
  onSignedIn?: (outcome: LoginOutcome) => void;
  /** the login machine; tests pass one with test-double actors */
  logic?: LoginMachine;
  /** the variant lets people register online (variant.registration.allowRegistration): link to it */
  allowRegistration?: boolean;
}

export function LoginView({ session, queryCode = null, notice = null, onSignedIn, logic = liveLoginMachine, allowRegistration = false }: LoginViewProps) {
  // The machine is created once; the latest callback is read when it fires.
  const onSignedInRef = useRef(onSignedIn);
  onSignedInRef.current = onSignedIn;
  const actor = useFlowActor(
    logic.provide({
      actions: {
        reportSignedIn: (_, outcome: LoginOutcome) => {
          session.send({ type: 'SESSION.SIGN_IN', tokens: outcome.tokens });
          signalEmbeddingApp('loginSuccess');
          onSignedInRef.current?.(outcome);
        },
        reportFailure: (_, code: LoginErrorCode) => {
          signalEmbeddingApp('loginFailure', code);
        },
      },
    }),
    { input: { queryCode } },
  );
  const view = selectLoginView(useSelector(actor, (s) => s));
  const expired = useSelector(session, selectIsExpired);
  const send = actor.send;

  return (
    <section className="login" aria-busy={view.busy || undefined}>
      {view.step === 'credentials' ? (
        <CredentialsStep view={view} send={send} expired={expired} notice={notice} allowRegistration={allowRegistration} />
      ) : view.step === 'otp' ? (
        <OtpStep view={view} send={send} />
      ) : view.step === 'sms' ? (
        <SmsStep view={view} send={send} />
      ) : view.step === 'push' || view.step === 'verifyDevice' ? (
        <ApprovalStep view={view} send={send} />
      ) : view.step === 'recovery' ? (
        <RecoveryStep view={view} send={send} />
      ) : (
        <VerifyingStep signedIn={view.step === 'signedIn'} />
      )}
    </section>
  );
}

type Send = ReturnType<typeof useFlowActor<LoginMachine>>['send'];

function ErrorAlert({ view }: { view: LoginFacts }) {
  const { i18n } = useLingui();
  if (!view.error) return null;
  const message = view.step === 'sms' && view.error === 'invalidOtp' ? invalidSmsCodeMessage : loginErrorMessages[view.error];
  return <Alert tone="error">{i18n._(message)}</Alert>;
}

/** Push 2FA migration (document 1 §3), announced on the second step; the app enforces it after sign-in. */
function MigrationNotice({ view }: { view: LoginFacts }) {
  const migration = view.migration;
  if (!migration || migration.requirement === 'none') return null;
  if (migration.requirement === 'strict') {
    return (
      <Alert tone="warning">
        <Trans>After you sign in, you need to turn on sign-in approval on your phone before you can continue.</Trans>
      </Alert>
    );
  }
  const daysLeft = migration.daysLeft ?? 0;
  return (
    <Alert tone="info">
      <Plural
        value={daysLeft}
        one="Sign-in approval on your phone becomes required in # day. You can set it up after you sign in."
        other="Sign-in approval on your phone becomes required in # days. You can set it up after you sign in."
      />
    </Alert>
  );
}

/** The way out of a second step when the phone is lost: a recovery code. */
function SecondStepLinks({ view, send, leaveWhileBusy = false }: { view: LoginFacts; send: Send; leaveWhileBusy?: boolean }) {
  const { t } = useLingui();
  // A code being checked cannot be abandoned half-way; a re-send can (nothing depends on it).
  const disabled = view.busy && !leaveWhileBusy;
  return (
    <div className="step-links">
      {view.canUseRecoveryCode ? (
        <Button variant="link" onClick={() => send({ type: 'RECOVERY.START' })} disabled={disabled}>
          {t`Use a recovery code`}
        </Button>
      ) : null}
      {view.canGoBack ? (
        <Button variant="link" onClick={() => send({ type: 'STEP.BACK' })} disabled={disabled}>
          {t`Back to sign-in`}
        </Button>
      ) : null}
    </div>
  );
}

function CredentialsStep({ view, send, expired, notice, allowRegistration }: { view: LoginFacts; send: Send; expired: boolean; notice: StartErrorCode | null; allowRegistration: boolean }) {
  const { t, i18n } = useLingui();
  const [username, setUsername] = useState(view.username);
  const [password, setPassword] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'CREDENTIALS.SUBMIT', username, password });
  };
  const fieldError = (code: LoginFacts['fieldErrors']['username']) => (code ? i18n._(loginFieldMessages[code]) : undefined);
  return (
    <form onSubmit={submit} noValidate aria-labelledby="login-heading">
      <StepHeading id="login-heading">{t`Sign in`}</StepHeading>
      {expired && !view.error ? <Alert tone="info">{t`You were signed out because your session expired.`}</Alert> : null}
      {notice && !view.error ? <Alert tone="error">{i18n._(startErrorMessages[notice])}</Alert> : null}
      <ErrorAlert view={view} />
      <TextField
        label={t`E-mail address`}
        name="username"
        type="email"
        value={username}
        onChange={setUsername}
        autoComplete="username"
        required
        maxLength={MAX_USERNAME_LENGTH}
        error={fieldError(view.fieldErrors.username)}
      />
      <TextField
        label={t`Password`}
        name="password"
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete="current-password"
        required
        maxLength={MAX_PASSWORD_LENGTH}
        error={fieldError(view.fieldErrors.password)}
      />
      <Button type="submit" busy={view.busy}>
        {t`Sign in`}
      </Button>
      {/* h5: account recovery (/account-recovery/email); a plain link: the view knows no router */}
      <p><a href="/account-recovery/email">{t`Forgot password?`}</a></p>
      {/* Registration (/register, document 1 §2) only where the variant allows it online. */}
      {allowRegistration ? (
        <p>
          {t`New here?`} <a href="/register">{t`Open an account`}</a>
        </p>
      ) : null}
    </form>
  );
}

function OtpStep({ view, send }: { view: LoginFacts; send: Send }) {
  const { t, i18n } = useLingui();
  const [otp, setOtp] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'OTP.SUBMIT', otp: otp.trim() });
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="otp-heading">
      <StepHeading id="otp-heading">{t`Enter your verification code`}</StepHeading>
      <MigrationNotice view={view} />
      <ErrorAlert view={view} />
      <TextField
        label={t`6-digit code`}
        hint={t`Open your authenticator app and enter the code it shows.`}
        name="otp"
        value={otp}
        onChange={setOtp}
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        required
        error={view.fieldErrors.otp ? i18n._(loginFieldMessages[view.fieldErrors.otp]) : undefined}
      />
      <Button type="submit" busy={view.busy}>
        {t`Verify`}
      </Button>
      <SecondStepLinks view={view} send={send} />
    </form>
  );
}

function SmsStep({ view, send }: { view: LoginFacts; send: Send }) {
  const { t, i18n } = useLingui();
  const [otp, setOtp] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'SMS.SUBMIT', otp: otp.trim() });
  };
  const phone = view.maskedPhone ?? '';
  const identifier = view.smsIdentifier ?? '';
  return (
    <form onSubmit={submit} noValidate aria-labelledby="sms-heading">
      <StepHeading id="sms-heading">{t`Enter the code from the text message`}</StepHeading>
      <MigrationNotice view={view} />
      <p>
        <Trans>
          We sent a text message to <strong>{phone}</strong>. Its code is marked <strong>{identifier}</strong>: use
          the message with this mark.
        </Trans>
      </p>
      <ErrorAlert view={view} />
      <TextField
        label={t`6-digit code`}
        hint={t`Enter the code from the text message marked ${identifier}.`}
        name="otp"
        value={otp}
        onChange={setOtp}
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        required
        error={view.fieldErrors.otp ? i18n._(loginFieldMessages[view.fieldErrors.otp]) : undefined}
      />
      <Button type="submit" busy={view.busy}>
        {t`Verify`}
      </Button>
      <SecondStepLinks view={view} send={send} />
    </form>
  );
}

/** push and verifyDevice: a linked phone approves the sign-in. */
function ApprovalStep({ view, send }: { view: LoginFacts; send: Send }) {
  const { t } = useLingui();
  const stage = view.approvalStage;
  const chosen = view.devices.find((d) => d.id === view.chosenDeviceId);
  const heading =
    stage === 'noDevice'
      ? t`No phone is linked for sign-in approval`
      : stage === 'choosingDevice'
        ? t`Choose the phone to confirm on`
        : stage === 'expired'
          ? t`The sign-in request was not answered`
          : t`Confirm the sign-in on your phone`;
  const names = (chosen ? [chosen] : view.devices).map((d) => d.name).join(', ');
  return (
    <div aria-labelledby="approval-heading" role="group">
      {/* keyed by stage: each stage is a new step, so its heading takes focus again */}
      <StepHeading key={stage ?? 'none'} id="approval-heading">
        {heading}
      </StepHeading>
      <ErrorAlert view={view} />
      {stage === 'noDevice' ? (
        <p>{t`Your account asks for approval on a linked phone, but no phone is linked. Sign in with one of your recovery codes instead.`}</p>
      ) : null}
      {stage === 'choosingDevice' ? (
        <>
          <p>{t`Several phones are linked to your account. Which one should we ask to approve this sign-in?`}</p>
          <ul className="device-choice">
            {view.devices.map((d) => {
              const name = d.name;
              const kind = DEVICE_TYPE_NAMES[d.type];
              return (
                <li key={d.id}>
                  <Button variant="secondary" onClick={() => send({ type: 'DEVICE.CHOOSE', deviceId: d.id })}>
                    {t`Ask ${name} (${kind})`}
                  </Button>
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
      {stage === 'resending' ? <Spinner label={t`Sending the request to your phone`} /> : null}
      {stage === 'waiting' ? (
        <>
          <p>{t`We sent a sign-in request to ${names}. Open the device app on that phone and approve it.`}</p>
          <Spinner label={t`Waiting for your phone`} />
          {view.qrLink ? (
            <>
              <p>{t`No request on the phone? Scan this code with the linked phone to open it.`}</p>
              <Suspense fallback={null}>
                <QrCode value={view.qrLink} label={t`QR code that opens this sign-in request on your linked phone`} asLink />
              </Suspense>
            </>
          ) : null}
        </>
      ) : null}
      {stage === 'expired' ? (
        <p>{t`The request expired or could not be delivered. Send it again to approve this sign-in.`}</p>
      ) : null}
      <div className="step-actions">
        {view.canResend ? (
          <Button variant={stage === 'expired' ? 'primary' : 'secondary'} onClick={() => send({ type: 'PUSH.RESEND' })}>
            {t`Send the request again`}
          </Button>
        ) : null}
        {view.canChangeDevice ? (
          <Button variant="link" onClick={() => send({ type: 'DEVICE.CHANGE' })}>
            {t`Choose another phone`}
          </Button>
        ) : null}
      </div>
      <SecondStepLinks view={view} send={send} leaveWhileBusy />
    </div>
  );
}

function RecoveryStep({ view, send }: { view: LoginFacts; send: Send }) {
  const { t, i18n } = useLingui();
  const [code, setCode] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'RECOVERY.SUBMIT', recoveryCode: code });
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="recovery-heading">
      <StepHeading id="recovery-heading">{t`Sign in with a recovery code`}</StepHeading>
      <p>{t`Each recovery code works once. After signing in you will need to set up two-step verification again.`}</p>
      <ErrorAlert view={view} />
      <TextField
        label={t`Recovery code`}
        hint={t`One of the codes you saved when you set up two-step verification, for example 7KQ4M-2XH9P.`}
        name="recoveryCode"
        value={code}
        onChange={setCode}
        autoComplete="off"
        maxLength={MAX_RECOVERY_CODE_INPUT_LENGTH}
        required
        error={view.fieldErrors.recoveryCode ? i18n._(loginFieldMessages[view.fieldErrors.recoveryCode]) : undefined}
      />
      <Button type="submit" busy={view.busy}>
        {t`Sign in`}
      </Button>
      <SecondStepLinks view={view} send={send} />
    </form>
  );
}

function VerifyingStep({ signedIn }: { signedIn: boolean }) {
  const { t } = useLingui();
  return (
    <div>
      <StepHeading>{signedIn ? t`Signed in` : t`Signing you in`}</StepHeading>
      <Spinner label={signedIn ? t`Loading your account` : t`Signing you in`} />
    </div>
  );
}

