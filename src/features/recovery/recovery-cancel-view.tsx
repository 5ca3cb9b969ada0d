/**
 * /account-recovery/cancel: the page of the link mailed to every current e-mail of an account when
 * someone asks to recover it with personal data (api/recovery.ts accountRecoveryCancel). The owner
 * confirms with one button (the code comes in the link, or is typed from the mail); no sign-in.
 * One call and its answer, so no statechart: the view keeps the call's state itself.
 */
import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ResponseCode } from '../../../api/envelope.ts';
import { RECOVERY_CANCEL_PATH, RecoveryCancelErrors } from '../../../api/recovery.ts';
import { callMethod, isFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import type { SignInLink } from './account-recovery-view.tsx';

/** For the route: a route file imports no contract module (README, /login's budget). */
export { RECOVERY_CANCEL_PATH };

type CancelState = { step: 'form' | 'sending' | 'done' } | { step: 'failed'; code: 'wrong' | 'expired' | 'completed' | 'rateLimited' | 'network' | 'unknown' };

export function RecoveryCancelView({ taskId, code: linkCode, signInLink }: { taskId: string | null; code: string | null; signInLink: SignInLink }) {
  const { t } = useLingui();
  const SignIn = signInLink;
  const [code, setCode] = useState(linkCode ?? '');
  const [state, setState] = useState<CancelState>({ step: 'form' });
  const messages = {
    wrong: t`The code is not correct. Check the e-mail and try again.`,
    expired: t`The 24 hours to cancel have passed. Contact support at once.`,
    completed: t`The recovery was completed already. Contact support at once.`,
    rateLimited: t`Too many attempts. Try again later or contact support.`,
    network: t`We could not reach the server. Check your connection and try again.`,
    unknown: t`Something went wrong. Please try again.`,
  };
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!taskId) return;
    setState({ step: 'sending' });
    const answer = await callMethod('accountRecoveryCancel', { taskId, cancelCode: code.trim() });
    if (!isFailure(answer)) return setState({ step: 'done' });
    const errorCode = answer.validationErrors?.find((v) => v.param === 'cancelCode')?.code;
    const failure =
      answer.responseCode === ResponseCode.network
        ? 'network'
        : answer.responseCode === ResponseCode.accessDenied
          ? 'rateLimited'
          : errorCode === RecoveryCancelErrors.expired
            ? 'expired'
            : errorCode === RecoveryCancelErrors.completed
              ? 'completed'
              : answer.responseCode === ResponseCode.validation
                ? 'wrong'
                : 'unknown';
    setState({ step: 'failed', code: failure });
  };
  // Keyed sections: the new heading mounts and takes focus when the answer arrives.
  if (state.step === 'done') {
    return (
      <section key="done" className="recovery-step" aria-labelledby="recovery-cancel-heading">
        <StepHeading id="recovery-cancel-heading">{t`The recovery request was canceled`}</StepHeading>
        <Alert tone="success">
          <Trans>Nobody can use this request any more. To be safe, change your password after you sign in.</Trans>
        </Alert>
        <SignIn className="btn btn-primary">{t`Sign in`}</SignIn>
      </section>
    );
  }
  return (
    <section key="form" className="recovery-step" aria-labelledby="recovery-cancel-heading">
      <StepHeading id="recovery-cancel-heading">{t`Cancel the recovery of your account`}</StepHeading>
      <p>
        <Trans>Someone asked to recover your account with personal data. If this was not you, cancel the request here.</Trans>
      </p>
      {!taskId ? <Alert tone="error">{t`This link is not complete. Open the link from the e-mail again.`}</Alert> : null}
      {state.step === 'failed' ? <Alert tone="error">{messages[state.code]}</Alert> : null}
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <TextField label={t`Cancel code from the e-mail`} name="cancelCode" autoComplete="one-time-code" value={code} onChange={setCode} required maxLength={16} />
        <Button type="submit" busy={state.step === 'sending'} disabled={!taskId}>
          {t`Cancel the request`}
        </Button>
      </form>
      <p>
        <SignIn>{t`Back to sign in`}</SignIn>
      </p>
    </section>
  );
}
