/**
 * The /account-recovery steps: a thin view over the account-recovery machine. It shows the step
 * the machine is in (the route keeps the URL in step) and sends events; it never decides.
 */
import { createContext, use, useState, type FormEvent, type ReactNode } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import { accountRecoveryMachine, type AccountRecoveryMachine } from '../../../machines/account-recovery/account-recovery.machine.ts';
import { selectAccountRecoveryView, selectRecoveryStep, type RecoveryStep } from '../../../machines/account-recovery/account-recovery.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { accountRecoveryActors } from './actors.ts';
import { recoveryErrorMessages, recoveryFieldMessages } from './messages.ts';
import { NewPasswordFields, PasswordRules } from './new-password-fields.tsx';

export type AccountRecoveryActor = ActorRefFrom<AccountRecoveryMachine>;
type View = ReturnType<typeof selectAccountRecoveryView>;
type Send = AccountRecoveryActor['send'];

/** The product's machine with its real actors. */
export const liveAccountRecoveryMachine = accountRecoveryMachine.provide({ actors: accountRecoveryActors });

const RecoveryActorContext = createContext<AccountRecoveryActor | null>(null);

/** Creates the one recovery actor the child routes share. */
export function AccountRecoveryProvider({
  taskId,
  logic = liveAccountRecoveryMachine,
  children,
}: {
  taskId?: string | null;
  logic?: AccountRecoveryMachine;
  children: ReactNode;
}) {
  const actor = useActorRef(logic, { input: { taskId: taskId ?? null } });
  return <RecoveryActorContext value={actor}>{children}</RecoveryActorContext>;
}

export function useAccountRecoveryActor(): AccountRecoveryActor {
  const actor = use(RecoveryActorContext);
  if (!actor) throw new Error('useAccountRecoveryActor needs AccountRecoveryProvider');
  return actor;
}

/** The step and task id the route puts into the URL. */
export function useRecoveryLocation(actor: AccountRecoveryActor): { step: RecoveryStep; taskId: string | null } {
  const step = useSelector(actor, selectRecoveryStep);
  const taskId = useSelector(actor, (s) => s.context.taskId);
  return { step, taskId };
}

/** A link to /login: the route passes the router's Link; a plain anchor otherwise. */
export type SignInLink = (props: { children: ReactNode; className?: string }) => ReactNode;
const plainSignInLink: SignInLink = ({ children, className }) => (
  <a href="/login" className={className}>
    {children}
  </a>
);

/** What each child route renders: the machine's current step. */
export function AccountRecoveryStep({ signInLink }: { signInLink?: SignInLink }) {
  return <AccountRecoveryView actor={useAccountRecoveryActor()} signInLink={signInLink} />;
}

export function AccountRecoveryView({ actor, signInLink = plainSignInLink }: { actor: AccountRecoveryActor; signInLink?: SignInLink | undefined }) {
  const SignIn = signInLink;
  const view = selectAccountRecoveryView(useSelector(actor, (s) => s));
  const send = actor.send;
  switch (view.step) {
    case 'email':
      return view.personalData ? <PersonalDataStep view={view} send={send} /> : <EmailStep view={view} send={send} SignIn={SignIn} />;
    case 'status':
      return <StatusStep view={view} send={send} />;
    case 'reset':
      return <ResetStep view={view} send={send} />;
    case 'password':
      return <PasswordStep view={view} send={send} />;
    case 'success':
      return <SuccessStep SignIn={SignIn} />;
  }
}

function ErrorAlert({ view }: { view: View }) {
  const { i18n } = useLingui();
  return view.error ? <Alert tone="error">{i18n._(recoveryErrorMessages[view.error])}</Alert> : null;
}

function EmailStep({ view, send, SignIn }: { view: View; send: Send; SignIn: SignInLink }) {
  const { t, i18n } = useLingui();
  const [email, setEmail] = useState(view.email);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'EMAIL.SUBMIT', email });
  };
  return (
    <section className="recovery-step" aria-labelledby="recovery-email-heading">
      <StepHeading id="recovery-email-heading">{t`Reset your password`}</StepHeading>
      <p>
        <Trans>Enter the e-mail address you sign in with. If it belongs to an account, we send a code to it.</Trans>
      </p>
      <ErrorAlert view={view} />
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label={t`E-mail address`}
          name="email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={setEmail}
          required
          maxLength={254}
          error={view.fieldError === 'emailInvalid' ? i18n._(recoveryFieldMessages.emailInvalid) : undefined}
        />
        <Button type="submit" busy={view.busy}>
          {t`Send code`}
        </Button>
      </form>
      <p>
        <Button variant="link" onClick={() => send({ type: 'LOST_ACCESS' })} disabled={view.busy}>
          {t`I can no longer read this e-mail`}
        </Button>
      </p>
      <p>
        <SignIn>{t`Back to sign in`}</SignIn>
      </p>
    </section>
  );
}

function PersonalDataStep({ view, send }: { view: View; send: Send }) {
  const { t, i18n } = useLingui();
  const [data, setData] = useState({
    email: view.personal?.email ?? view.email,
    recoveryEmail: view.personal?.recoveryEmail ?? '',
    firstName: view.personal?.firstName ?? '',
    lastName: view.personal?.lastName ?? '',
    dob: view.personal?.dob ?? '',
  });
  const field = (key: keyof typeof data) => (value: string) => setData((d) => ({ ...d, [key]: value }));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'DATA.SUBMIT', data });
  };
  return (
    <section className="recovery-step" aria-labelledby="recovery-data-heading">
      <StepHeading id="recovery-data-heading">{t`Recover your account`}</StepHeading>
      <p>
        <Trans>
          Tell us who you are. When the details match our records, we send a code to a new e-mail address you can read, and
          let your old address know.
        </Trans>
      </p>
      <ErrorAlert view={view} />
      {view.fieldError === 'dataRequired' ? <Alert tone="error">{i18n._(recoveryFieldMessages.dataRequired)}</Alert> : null}
      <form onSubmit={onSubmit} noValidate>
        <TextField label={t`E-mail address you signed in with`} name="email" type="email" autoComplete="username" value={data.email} onChange={field('email')} required maxLength={254} />
        <TextField label={t`New e-mail address for the code`} name="recoveryEmail" type="email" autoComplete="email" value={data.recoveryEmail} onChange={field('recoveryEmail')} required maxLength={254} />
        <TextField label={t`First name`} name="firstName" autoComplete="given-name" value={data.firstName} onChange={field('firstName')} required maxLength={100} />
        <TextField label={t`Last name`} name="lastName" autoComplete="family-name" value={data.lastName} onChange={field('lastName')} required maxLength={100} />
        <TextField label={t`Date of birth`} name="dob" type="date" autoComplete="bday" value={data.dob} onChange={field('dob')} required hint={t`For example 1990-04-12`} />
        <Button type="submit" busy={view.busy}>
          {t`Check my details`}
        </Button>
      </form>
      <p>
        <Button variant="link" onClick={() => send({ type: 'BACK' })} disabled={view.busy}>
          {t`Back`}
        </Button>
      </p>
    </section>
  );
}

function StatusStep({ view, send }: { view: View; send: Send }) {
  const { t } = useLingui();
  if (view.loadingStatus || !view.task) {
    return (
      <section className="recovery-step" aria-labelledby="recovery-status-heading">
        <StepHeading id="recovery-status-heading">{t`Recovery request`}</StepHeading>
        <Spinner label={t`Loading your recovery request`} />
      </section>
    );
  }
  const task = view.task;
  const sentTo = view.sentTo ?? '';
  return (
    <section className="recovery-step" aria-labelledby="recovery-status-heading">
      {task.verificationStatus === 'verified' ? (
        <>
          <StepHeading id="recovery-status-heading">{t`Identity confirmed`}</StepHeading>
          <Alert tone="success">
            <Trans>We sent a code to {sentTo}. Use it to choose a new password.</Trans>
          </Alert>
        </>
      ) : task.verificationStatus === 'pending' ? (
        <>
          <StepHeading id="recovery-status-heading">{t`Your request is being checked`}</StepHeading>
          <Alert tone="info">
            <Trans>We are checking your details. Look again in a while.</Trans>
          </Alert>
        </>
      ) : (
        <>
          <StepHeading id="recovery-status-heading">{t`We could not confirm your identity`}</StepHeading>
          <Alert tone="warning">
            {task.rejectReason === 'tooManyAttempts' || !task.isRetryable ? (
              <Trans>No attempts are left for today. Try again tomorrow or contact support.</Trans>
            ) : (
              <Trans>The details do not match our records. Check them and try again.</Trans>
            )}
          </Alert>
        </>
      )}
      <div className="actions">
        {view.canContinue ? <Button onClick={() => send({ type: 'CONTINUE' })}>{t`Enter the code`}</Button> : null}
        {view.canRetry ? <Button onClick={() => send({ type: 'RETRY' })}>{t`Try again`}</Button> : null}
        {view.canRefresh ? <Button onClick={() => send({ type: 'REFRESH' })}>{t`Check again`}</Button> : null}
        <Button variant="secondary" onClick={() => send({ type: 'START_OVER' })}>
          {t`Start over`}
        </Button>
      </div>
    </section>
  );
}

function ResetStep({ view, send }: { view: View; send: Send }) {
  const { t, i18n } = useLingui();
  const [code, setCode] = useState('');
  // Kept for the whole step: after a reload the field stays even once an address was typed.
  const [askEmail] = useState(view.needsEmail);
  const [email, setEmail] = useState(view.email);
  const sentTo = view.sentTo ?? '';
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'CODE.SUBMIT', code, email });
  };
  return (
    <section className="recovery-step" aria-labelledby="recovery-reset-heading">
      <StepHeading id="recovery-reset-heading">{t`Enter the code`}</StepHeading>
      <p>
        <Trans>If an account uses this address, we sent an 8-character code to {sentTo}. It works for 30 minutes.</Trans>
      </p>
      <ErrorAlert view={view} />
      <form onSubmit={onSubmit} noValidate>
        {askEmail ? (
          <TextField
            label={t`E-mail address you signed in with`}
            name="email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={setEmail}
            required
            maxLength={254}
            error={view.fieldError === 'emailInvalid' ? i18n._(recoveryFieldMessages.emailInvalid) : undefined}
          />
        ) : null}
        <TextField
          label={t`Code from the e-mail`}
          name="code"
          autoComplete="one-time-code"
          value={code}
          onChange={setCode}
          required
          maxLength={16}
          error={view.fieldError === 'codeFormat' ? i18n._(recoveryFieldMessages.codeFormat) : undefined}
        />
        <Button type="submit" busy={view.busy}>
          {t`Check code`}
        </Button>
      </form>
      <p>
        <Button variant="link" onClick={() => send({ type: 'START_OVER' })} disabled={view.busy}>
          {t`Ask for a new code`}
        </Button>
      </p>
    </section>
  );
}

function PasswordStep({ view, send }: { view: View; send: Send }) {
  const { t, i18n } = useLingui();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'PASSWORD.SUBMIT', password, confirmation });
  };
  return (
    <section className="recovery-step" aria-labelledby="recovery-password-heading">
      <StepHeading id="recovery-password-heading">{t`Choose a new password`}</StepHeading>
      <PasswordRules id="recovery-password-rules" />
      <ErrorAlert view={view} />
      <form onSubmit={onSubmit} noValidate>
        <NewPasswordFields
          password={password}
          onPassword={setPassword}
          confirmation={confirmation}
          onConfirmation={setConfirmation}
          weakError={view.fieldError === 'passwordWeak' ? i18n._(recoveryFieldMessages.passwordWeak) : undefined}
          mismatchError={view.fieldError === 'passwordMismatch' ? i18n._(recoveryFieldMessages.passwordMismatch) : undefined}
        />
        <Button type="submit" busy={view.busy}>
          {t`Save the new password`}
        </Button>
      </form>
    </section>
  );
}

function SuccessStep({ SignIn }: { SignIn: SignInLink }) {
  const { t } = useLingui();
  return (
    <section className="recovery-step" aria-labelledby="recovery-success-heading">
      <StepHeading id="recovery-success-heading">{t`Your password was changed`}</StepHeading>
      <p>
        <Trans>For your safety, every session of your account was signed out. Sign in with your new password.</Trans>
      </p>
      <SignIn className="btn btn-primary">{t`Sign in`}</SignIn>
    </section>
  );
}
