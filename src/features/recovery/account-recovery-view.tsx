/**
 * The /account-recovery steps: a thin view over the account-recovery machine. It shows the step
 * the machine is in (the route keeps the URL in step) and sends events; it never decides.
 */
import { createContext, use, useState, type FormEvent, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import { accountRecoveryMachine, type AccountRecoveryMachine } from '../../../machines/account-recovery/account-recovery.machine.ts';
import { selectAccountRecoveryView, selectRecoveryStep, type RecoveryStep } from '../../../machines/account-recovery/account-recovery.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Field, type ControlProps } from '../../ui/field.tsx';
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
  const actor = useFlowActor(logic, { input: { taskId: taskId ?? null } });
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
          Tell us who you are. Next you send a photo of your identity document and a selfie; our staff checks them, and only
          then we send a code to the new e-mail address. We let the account's e-mail addresses know at once.
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
          {t`Send the request`}
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
  if (view.status === 'loading' || !view.task) {
    return (
      <section key="loading" className="recovery-step" aria-labelledby="recovery-status-heading">
        <StepHeading id="recovery-status-heading">{t`Recovery request`}</StepHeading>
        <Spinner label={t`Loading your recovery request`} />
      </section>
    );
  }
  const task = view.task;
  const sentTo = view.sentTo ?? '';
  const startOver = (
    <Button variant="secondary" onClick={() => send({ type: 'START_OVER' })} disabled={view.busy}>
      {t`Start over`}
    </Button>
  );
  // Each state's section has its key: its heading mounts and takes focus when the state changes.
  switch (view.status) {
    case 'documents':
      return <DocumentsStep view={view} send={send} startOver={startOver} />;
    case 'waiting':
      return (
        <section key="waiting" className="recovery-step" aria-labelledby="recovery-status-heading">
          <StepHeading id="recovery-status-heading">{t`Your request is being checked`}</StepHeading>
          <Alert tone="info">
            <Trans>
              Our staff checks your documents, usually within two working days. We told the e-mail addresses of the account, so
              its owner can stop the request. Look again later on this page.
            </Trans>
          </Alert>
          <div className="actions">
            <Button onClick={() => send({ type: 'REFRESH' })}>{t`Check again`}</Button>
            {startOver}
          </div>
        </section>
      );
    case 'approved':
      return (
        <section key="approved" className="recovery-step" aria-labelledby="recovery-status-heading">
          <StepHeading id="recovery-status-heading">{t`Identity confirmed`}</StepHeading>
          <Alert tone="success">
            <Trans>We sent a code to {sentTo}. Enter it to confirm this address and choose a new password.</Trans>
          </Alert>
          <div className="actions">
            <Button onClick={() => send({ type: 'CONTINUE' })}>{t`Enter the code`}</Button>
            {startOver}
          </div>
        </section>
      );
    case 'rejected':
      return (
        <section key="rejected" className="recovery-step" aria-labelledby="recovery-status-heading">
          <StepHeading id="recovery-status-heading">{t`We could not confirm your identity`}</StepHeading>
          <Alert tone="warning">
            {task.rejectReason === 'canceled' ? (
              <Trans>The owner of the account canceled this request from its e-mail address.</Trans>
            ) : task.isRetryable ? (
              <Trans>Our staff could not confirm your identity from the documents. You can send a new request.</Trans>
            ) : (
              <Trans>Our staff could not confirm your identity. Please contact support.</Trans>
            )}
          </Alert>
          {task.rejectComment ? (
            <p>
              <Trans>Reason given: {task.rejectComment}</Trans>
            </p>
          ) : null}
          <div className="actions">
            {view.canRetry ? <Button onClick={() => send({ type: 'RETRY' })}>{t`Try again`}</Button> : null}
            {startOver}
          </div>
        </section>
      );
  }
}

/** The identity document and the selfie, chosen here and sent together. */
function DocumentsStep({ view, send, startOver }: { view: View; send: Send; startOver: ReactNode }) {
  const { t, i18n } = useLingui();
  const [files, setFiles] = useState<{ document: File | null; selfie: File | null }>({ document: null, selfie: null });
  const missing = view.fieldError === 'documentsRequired' ? i18n._(recoveryFieldMessages.documentsRequired) : undefined;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'DOCUMENTS.SUBMIT', document: files.document, selfie: files.selfie });
  };
  const fileInput = (name: 'document' | 'selfie') => (control: ControlProps) => (
    <input
      {...control}
      type="file"
      name={name}
      accept="image/jpeg,image/png,application/pdf"
      onChange={(e) => {
        const file = e.currentTarget.files?.[0] ?? null;
        setFiles((f) => ({ ...f, [name]: file }));
      }}
    />
  );
  return (
    <section key="documents" className="recovery-step" aria-labelledby="recovery-status-heading">
      <StepHeading id="recovery-status-heading">{t`Prove who you are`}</StepHeading>
      <p>
        <Trans>
          Our staff compares your identity document with a selfie before anything is sent to {view.task?.recoveryEmail ?? ''}. We
          also told the e-mail addresses of the account about this request.
        </Trans>
      </p>
      <ErrorAlert view={view} />
      <form onSubmit={onSubmit} noValidate>
        <Field label={t`Identity document (the page with your photo)`} hint={t`JPEG, PNG or PDF, up to 10 MB.`} error={!files.document ? missing : undefined}>
          {fileInput('document')}
        </Field>
        <Field label={t`Selfie holding the document`} hint={t`JPEG, PNG or PDF, up to 10 MB.`} error={!files.selfie ? missing : undefined}>
          {fileInput('selfie')}
        </Field>
        <div className="actions">
          <Button type="submit" busy={view.uploading}>
            {t`Send the documents`}
          </Button>
          {startOver}
        </div>
      </form>
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
        {view.task?.verificationStatus === 'verified' ? (
          <Trans>We sent an 8-character code to {sentTo}. Entering it confirms this address. It works for 24 hours.</Trans>
        ) : (
          <Trans>If an account uses this address, we sent an 8-character code to {sentTo}. It works for 30 minutes.</Trans>
        )}
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
