/**
 * The sign-in screen: a thin view over the login machine. It reads through login.select.ts and
 * sends events; the machine validates, calls the token service (through actors) and decides.
 */
import { useRef, useState, type FormEvent } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { Tokens } from '../../../api/auth.ts';
import { loginMachine, type LoginMachine } from '../../../machines/login/login.machine.ts';
import { selectLoginView, type LoginView as LoginFacts } from '../../../machines/login/login.select.ts';
import { selectIsExpired } from '../../../machines/session/session.select.ts';
import type { StartErrorCode } from '../../../machines/start-page/start-page.machine.ts';
import { MAX_PASSWORD_LENGTH, MAX_USERNAME_LENGTH } from '../../../machines/login/login.rules.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { exchangeCodeActor, signalEmbeddingApp, signInActor } from './actors.ts';
import { loginErrorMessages, loginFieldMessages, startErrorMessages } from './messages.ts';
import type { SessionActor } from './session-actor.ts';

/** The product's login machine with its real actors. */
export const liveLoginMachine = loginMachine.provide({
  actors: { signIn: signInActor, exchangeCode: exchangeCodeActor },
});

export interface LoginViewProps {
  session: SessionActor;
  /** Document 1 §2: a code plus codeVerifier in the query signs the user in. */
  queryCode?: { code: string; codeVerifier: string } | null;
  /** why the user is back on login after sign-in (the start page sent them here) */
  notice?: StartErrorCode | null;
  /** the tokens are in the session; the start page takes over */
  onSignedIn?: () => void;
  /** the login machine; tests pass one with test-double actors */
  logic?: LoginMachine;
}

export function LoginView({ session, queryCode = null, notice = null, onSignedIn, logic = liveLoginMachine }: LoginViewProps) {
  // The machine is created once; the latest callback is read when it fires.
  const onSignedInRef = useRef(onSignedIn);
  onSignedInRef.current = onSignedIn;
  const actor = useActorRef(
    logic.provide({
      actions: {
        reportSignedIn: (_, tokens: Tokens) => {
          session.send({ type: 'SESSION.SIGN_IN', tokens });
          signalEmbeddingApp('loginSuccess');
          onSignedInRef.current?.();
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
        <CredentialsStep view={view} send={send} expired={expired} notice={notice} />
      ) : view.step === 'otp' ? (
        <OtpStep view={view} send={send} />
      ) : view.step === 'verifying' || view.step === 'signedIn' ? (
        <VerifyingStep signedIn={view.step === 'signedIn'} />
      ) : (
        <UnavailableStep view={view} send={send} />
      )}
    </section>
  );
}

type Send = ReturnType<typeof useActorRef<LoginMachine>>['send'];

function ErrorAlert({ view }: { view: LoginFacts }) {
  const { i18n } = useLingui();
  return view.error ? <Alert tone="error">{i18n._(loginErrorMessages[view.error])}</Alert> : null;
}

function CredentialsStep({ view, send, expired, notice }: { view: LoginFacts; send: Send; expired: boolean; notice: StartErrorCode | null }) {
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
      <Button variant="link" onClick={() => send({ type: 'STEP.BACK' })} disabled={view.busy}>
        {t`Back to sign-in`}
      </Button>
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

/** sms, push, verifyDevice and direct: charted, finished by the next issue. */
function UnavailableStep({ view, send }: { view: LoginFacts; send: Send }) {
  const { t } = useLingui();
  const heading =
    view.step === 'sms'
      ? t`Confirm with a text message`
      : view.step === 'push'
        ? t`Confirm on your phone`
        : view.step === 'verifyDevice'
          ? t`Verify this device`
          : t`Continue signing in`;
  return (
    <div>
      <StepHeading>{heading}</StepHeading>
      <Alert tone="info">{t`This sign-in method is not available yet on this platform. Please contact support.`}</Alert>
      {view.canGoBack ? (
        <Button variant="link" onClick={() => send({ type: 'STEP.BACK' })}>
          {t`Back to sign-in`}
        </Button>
      ) : null}
    </div>
  );
}
