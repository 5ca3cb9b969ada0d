/**
 * Activation (/activate and the query actions of any external page): the e-mail and code form,
 * the popup an authorised user chooses a password in, and the success states. Reads the
 * activation machine through activation.select.ts and sends its events.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import { activationMachine, type ActivationInput, type ActivationMachine } from '../../../machines/activation/activation.machine.ts';
import { selectActivationView } from '../../../machines/activation/activation.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { activateActor, resendCodeActor } from './actors.ts';
import { activationErrorMessages, activationFieldMessages } from './messages.ts';

export const liveActivationMachine = activationMachine.provide({
  actors: { activate: activateActor, resendCode: resendCodeActor },
});

export type ActivationActor = ActorRefFrom<ActivationMachine>;

export interface ActivationViewProps {
  actor: ActivationActor;
  /** the user is done here (activated: sign in next; or the popup closed): the route goes to login */
  onFinished(outcome: 'activated' | 'cancelled'): void;
}

/** Owns the live actor: what the routes render. */
export function ActivationPage({ input, onFinished }: { input: ActivationInput; onFinished(outcome: 'activated' | 'cancelled'): void }) {
  const actor = useFlowActor(liveActivationMachine, { input });
  return <ActivationView actor={actor} onFinished={onFinished} />;
}

/** The notice /login shows after an activation (the routes push it as a toast). */

export function ActivationView({ actor, onFinished }: ActivationViewProps) {
  const { t, i18n } = useLingui();
  const view = selectActivationView(useSelector(actor, (s) => s));
  const [email, setEmail] = useState(view.email);
  const [code, setCode] = useState(view.code);
  const [password, setPassword] = useState('');
  const onFinishedRef = useRef(onFinished);
  onFinishedRef.current = onFinished;

  useEffect(() => {
    if (view.step === 'cancelled') onFinishedRef.current('cancelled');
  }, [view.step]);

  const fieldError = (field: 'email' | 'code' | 'password') => {
    const c = view.fieldErrors[field];
    return c ? i18n._(activationFieldMessages[c]) : undefined;
  };
  const error = view.error ? <Alert tone="error">{i18n._(activationErrorMessages[view.error])}</Alert> : null;

  if (view.step === 'activated') {
    // keyed: a new step mounts anew, so its heading takes focus (StepHeading focuses on mount)
    return (
      <section key="activated" aria-labelledby="activated-heading" className="activation">
        <StepHeading id="activated-heading">
          {view.kind === 'business' ? t`Your business account is activated` : view.kind === 'employee' ? t`Your user is activated` : t`Your account is activated`}
        </StepHeading>
        {view.kind === 'business' ? <p>{t`Authorised users of your company will now receive activation links by e-mail.`}</p> : null}
        <p>{t`You can now sign in.`}</p>
        <Button onClick={() => onFinishedRef.current('activated')}>{t`Sign in`}</Button>
      </section>
    );
  }

  if (view.step === 'password' || view.step === 'cancelled') {
    const accountEmail = view.email;
    const submit = (e: FormEvent) => {
      e.preventDefault();
      actor.send({ type: 'PASSWORD.SUBMIT', password });
    };
    return (
      <Dialog
        open={view.step === 'password'}
        title={t`Activate your user`}
        onClose={() => actor.send({ type: 'DIALOG.CLOSE' })}
        actions={
          <>
            <Button type="submit" form="employee-activation-form" busy={view.busy}>
              {t`Activate`}
            </Button>
            <Button variant="secondary" disabled={view.busy} onClick={() => actor.send({ type: 'DIALOG.CLOSE' })}>
              {t`Cancel`}
            </Button>
          </>
        }
      >
        {error}
        <p>{t`Choose a password for ${accountEmail}.`}</p>
        <form id="employee-activation-form" noValidate onSubmit={submit}>
          <TextField
            label={t`New password`}
            name="password"
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete="new-password"
            required
            maxLength={128}
            hint={t`8 to 128 characters with at least one letter and one digit.`}
            error={fieldError('password')}
          />
        </form>
      </Dialog>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'CODE.SUBMIT', email, code });
  };
  return (
    <section key="form" aria-labelledby="activation-heading" className="activation" aria-busy={view.busy || undefined}>
      <StepHeading id="activation-heading">{view.kind === 'business' ? t`Activate your business account` : t`Activate your account`}</StepHeading>
      {error}
      {view.notice === 'codeSent' ? <Alert tone="success">{t`If this e-mail address is waiting for activation, we sent a new code to it.`}</Alert> : null}
      <form noValidate onSubmit={submit}>
        <TextField label={t`E-mail address`} name="email" type="email" value={email} onChange={setEmail} autoComplete="email" required maxLength={254} error={fieldError('email')} />
        <TextField
          label={t`Activation code`}
          name="activationCode"
          value={code}
          onChange={setCode}
          autoComplete="one-time-code"
          required
          maxLength={64}
          hint={t`The 8 characters from the e-mail we sent you.`}
          error={fieldError('code')}
        />
        <Button type="submit" busy={view.busy && !view.resending} disabled={view.busy}>
          {t`Activate`}
        </Button>
        <Button variant="secondary" busy={view.resending} disabled={view.busy} onClick={() => actor.send({ type: 'CODE.RESEND', email })}>
          {t`Send a new code`}
        </Button>
      </form>
    </section>
  );
}
