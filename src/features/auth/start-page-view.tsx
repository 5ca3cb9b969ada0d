/**
 * After sign-in: pending terms, the account chooser, then the start-page machine's target, which
 * this view hands to `onTarget` (the route navigates). Reads through start-page.select.ts.
 */
import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { useLingui } from '@lingui/react/macro';
import type { AccessInfo } from '../../../machines/session/session.machine.ts';
import { selectActingCustomerId, selectRememberedPath } from '../../../machines/session/session.select.ts';
import { startPageMachine, type StartPageMachine, type StartTarget } from '../../../machines/start-page/start-page.machine.ts';
import { selectStartPageView } from '../../../machines/start-page/start-page.select.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { acceptTermsActor, loadAccessInfoActor, loadAccessListActor, loadCustomerActor } from './actors.ts';
import { startErrorMessages } from './messages.ts';
import type { SessionActor } from './session-actor.ts';

export const liveStartPageMachine = startPageMachine.provide({
  actors: {
    loadCustomer: loadCustomerActor,
    loadAccessList: loadAccessListActor,
    loadAccessInfo: loadAccessInfoActor,
    acceptTerms: acceptTermsActor,
  },
});

export interface StartPageViewProps {
  session: SessionActor;
  onTarget(target: StartTarget): void;
  logic?: StartPageMachine;
}

export function StartPageView({ session, onTarget, logic = liveStartPageMachine }: StartPageViewProps) {
  const { t, i18n } = useLingui();
  const onTargetRef = useRef(onTarget);
  onTargetRef.current = onTarget;
  const actor = useFlowActor(
    logic.provide({
      actions: {
        reportCustomer: (_, customer) => session.send({ type: 'CUSTOMER.LOADED', customer }),
        reportAccessInfo: (_, p: { accessInfo: AccessInfo; actingCustomerId: number | null }) => {
          session.send({ type: 'ACCESS.LOADED', accessInfo: p.accessInfo });
          if (p.actingCustomerId !== null) session.send({ type: 'ACTING_FOR.SET', customerId: p.actingCustomerId });
        },
        consumeRememberedPath: () => session.send({ type: 'PATH.CONSUME' }),
      },
    }),
    {
      input: {
        rememberedPath: selectRememberedPath(session.getSnapshot()),
        hasCustomCustomerId: selectActingCustomerId(session.getSnapshot()) !== null,
      },
    },
  );
  const view = selectStartPageView(useSelector(actor, (s) => s));

  useEffect(() => {
    if (view.target) onTargetRef.current(view.target);
  }, [view.target]);

  const error = view.error ? <Alert tone="error">{i18n._(startErrorMessages[view.error])}</Alert> : null;

  if (view.step === 'terms') {
    return (
      <section aria-labelledby="terms-heading">
        <StepHeading id="terms-heading">{t`Updated terms`}</StepHeading>
        {error}
        <p>{t`Please read and accept the updated terms to continue.`}</p>
        <ul>
          {view.terms.map((term) => (
            <li key={`${term.id}-${term.version}`}>
              <a href={term.url} target="_blank" rel="noreferrer noopener">
                {term.title}
              </a>
            </li>
          ))}
        </ul>
        <Button onClick={() => actor.send({ type: 'TERMS.ACCEPT' })} busy={view.busy}>
          {t`Accept and continue`}
        </Button>
        <Button variant="secondary" onClick={() => actor.send({ type: 'TERMS.DECLINE' })} disabled={view.busy}>
          {t`Decline and sign out`}
        </Button>
      </section>
    );
  }

  if (view.step === 'chooseAccount') {
    return (
      <section aria-labelledby="choose-heading">
        <StepHeading id="choose-heading">{t`Choose an account`}</StepHeading>
        {error}
        <p>{t`Choose the company you want to work for.`}</p>
        <ul className="account-chooser">
          {view.accesses.map((access) => (
            <li key={access.id}>
              <Button
                variant="secondary"
                onClick={() => actor.send({ type: 'ACCOUNT.CHOOSE', customerId: access.customerId })}
                busy={view.busy && view.chosenCustomerId === access.customerId}
                disabled={view.busy}
              >
                {access.customerName}
              </Button>
            </li>
          ))}
        </ul>
      </section>
    );
  }

  return (
    <section aria-labelledby="start-heading">
      <StepHeading id="start-heading">{t`Signed in`}</StepHeading>
      <Spinner label={t`Loading your account`} />
    </section>
  );
}
