/**
 * /auth/sei: a partner asks to sign the user in (single sign-on, document 1 §2, §7). Shows who
 * asks and for what, then approve or deny; the sso machine signs out and leaves for the partner.
 * A 404 (unknown partner or redirect) hands over to `onNotFound` (the route goes to the root).
 * The page is marked busy (aria-busy) while the chart's state is tagged `busy`: checking the
 * request, sending the answer, leaving.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { useLingui } from '@lingui/react/macro';
import { ssoMachine, type SsoMachine } from '../../../machines/sso/sso.machine.ts';
import { selectSsoView } from '../../../machines/sso/sso.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { createSsoActors } from './actors.ts';
import { useSsoErrors } from './messages.ts';
import type { SessionAccess } from './rest.ts';

export interface SeiViewProps {
  /** the partner's authorisation URL as the browser reached /auth/sei */
  authorizeUrl: string;
  session: SessionAccess & { logout(): Promise<void> };
  onNotFound(): void;
  /** tests provide the machine with their own actors */
  logic?: SsoMachine;
}

export function SeiView({ authorizeUrl, session, onNotFound, logic }: SeiViewProps) {
  const { t } = useLingui();
  const machine = useMemo(
    () => logic ?? ssoMachine.provide({ actors: createSsoActors({ ...session, assign: (url) => window.location.assign(url) }) }),
    [logic, session],
  );
  const actor = useFlowActor(machine, { input: { authorizeUrl } });
  const view = selectSsoView(useSelector(actor, (s) => s));
  const errors = useSsoErrors();
  const onNotFoundRef = useRef(onNotFound);
  onNotFoundRef.current = onNotFound;
  useEffect(() => {
    if (view.step === 'notFound') onNotFoundRef.current();
  }, [view.step]);

  if (view.step === 'authorizing' || view.step === 'notFound') {
    return (
      <div aria-busy={view.busy || undefined}>
        <StepHeading>{t`Single sign-on`}</StepHeading>
        <Spinner label={t`Checking the sign-in request`} />
      </div>
    );
  }
  if (view.step === 'failed') {
    return (
      <div aria-busy={view.busy || undefined}>
        <StepHeading>{t`Single sign-on`}</StepHeading>
        <Alert tone="error">{view.error ? errors[view.error] : null}</Alert>
        <Button onClick={() => actor.send({ type: 'RETRY' })}>{t`Try again`}</Button>
      </div>
    );
  }
  if (view.step === 'leaving') {
    return (
      <div aria-busy={view.busy || undefined}>
        <StepHeading>{t`Single sign-on`}</StepHeading>
        <Spinner label={t`Signing you out and returning to the partner`} />
      </div>
    );
  }
  const client = view.clientName ?? '';
  const scope = view.scope ?? '';
  return (
    <div aria-busy={view.busy || undefined}>
      <StepHeading>{t`Sign in to ${client}`}</StepHeading>
      <p>{t`${client} asks to confirm who you are. It will receive your name and e-mail address.`}</p>
      {scope ? <p>{t`Requested access: ${scope}`}</p> : null}
      <p>{t`You will be signed out here and sent back to ${client}.`}</p>
      {view.error ? <Alert tone="error">{errors[view.error]}</Alert> : null}
      <div className="actions">
        <Button onClick={() => actor.send({ type: 'CONSENT.APPROVE' })} busy={view.deciding === true} disabled={view.busy}>
          {t`Allow`}
        </Button>
        <Button variant="secondary" onClick={() => actor.send({ type: 'CONSENT.DENY' })} busy={view.deciding === false} disabled={view.busy}>
          {t`Deny`}
        </Button>
      </div>
    </div>
  );
}
