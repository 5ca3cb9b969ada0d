/**
 * Activating a physical card (document 2 §3, §7; issue 16 item 3): the last four digits printed on
 * the card, the activation fee and the account paying it (when there is a fee), then the card's
 * first PIN, shown once and hidden again after 30 seconds (or when the customer hides it). A thin
 * view of machines/card-activation: reads card-activation.select.ts, sends events. The card detail
 * page (card-detail-*.tsx) embeds it for a printed or shipped physical card; `onActivated` tells it
 * the card is active once the PIN is no longer shown.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import { ACTIVATION_PIN_VISIBLE_MS, type CardActivationMachine } from '../../../machines/card-activation/card-activation.machine.ts';
import { selectCardActivationView } from '../../../machines/card-activation/card-activation.select.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { SecretAnnouncer, SecretCountdown, SecretValue, useSecondsLeft, PinField } from '../../ui/secret-fields.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { useAccountLabel } from '../../lib/account-label.ts';
import { money } from '../transfers/fields.tsx';
import { createActivationLogic } from './activation-actors.ts';

/** The activation of one card, with the app's actors (the card detail page's entry point). */
export function CardActivation({
  accountId,
  onActivated,
  queryClient,
  heading = true,
}: {
  accountId: number;
  /** called once the card is active and its first PIN hidden (not before: the host may then stop showing this) */
  onActivated: () => void;
  /** the balances are refreshed with it once the PIN is hidden (the fee was charged) */
  queryClient?: QueryClient;
  /** false where the host titles the section itself */
  heading?: boolean;
}) {
  const logic = useMemo(() => createActivationLogic(), []);
  // Declared before the actor: React runs a component's effect cleanups in order, so leaving the
  // page hides the first PIN (the chart clears it) before the actor stops and keeps its last snapshot.
  const kept = useRef<{ send(e: { type: 'PIN.HIDE' }): void; getSnapshot(): { status: string } } | null>(null);
  useEffect(
    () => () => {
      // a finished chart holds nothing more (and takes no event)
      if (kept.current?.getSnapshot().status === 'active') kept.current.send({ type: 'PIN.HIDE' });
    },
    [],
  );
  const actor = useFlowActor(logic, { input: { accountId } });
  useEffect(() => {
    kept.current = actor;
  }, [actor]);
  const activated = useCallback(() => {
    void queryClient?.invalidateQueries({ queryKey: ['balanceInquiry'] });
    onActivated();
  }, [queryClient, onActivated]);
  return <CardActivationView actor={actor} onActivated={activated} heading={heading} />;
}

export function CardActivationView({ actor, onActivated, heading = true }: { actor: ActorRefFrom<CardActivationMachine>; onActivated: () => void; heading?: boolean }) {
  const { t } = useLingui();
  const view = useSelector(actor, selectCardActivationView);
  const accountLabel = useAccountLabel();
  const seconds = useSecondsLeft(view.step === 'showingPin', ACTIVATION_PIN_VISIBLE_MS);
  const [announcement, setAnnouncement] = useState<string | null>(null);
  const told = useRef(false);
  useEffect(() => {
    if (view.step !== 'done' || told.current) return;
    told.current = true;
    setAnnouncement(t`The PIN is hidden.`);
    onActivated();
  }, [view.step, onActivated, t]);

  const failureText = view.failure ? describeFailure(view.failure) : null;
  const feeCurrency = view.fee?.currency ?? '';
  const digitsError =
    view.error === 'digitsFormat'
      ? t`Enter the last four digits printed on the card.`
      : view.error === 'wrongDigits'
        ? (failureText ?? t`These digits do not match the card.`)
        : undefined;
  const generalError =
    view.error === 'network'
      ? t`The card was not activated: no answer came. Check your connection and try again.`
      : view.error === 'failed'
        ? (failureText ?? t`The card could not be activated.`)
        : null;

  let body;
  switch (view.step) {
    case 'loading':
      body = <Skeleton lines={2} label={t`Loading`} />;
      break;
    case 'loadFailed':
      body = (
        <>
          <Alert tone="error" title={t`We could not load the activation.`}>
            {view.loadFailure?.code === 'failed' ? <p>{describeFailure(view.loadFailure.failure)}</p> : <p>{t`No answer came. Check your connection and try again.`}</p>}
          </Alert>
          <div className="actions">
            <Button variant="secondary" onClick={() => actor.send({ type: 'LOAD.RETRY' })}>
              {t`Try again`}
            </Button>
          </div>
        </>
      );
      break;
    case 'entering':
      body = (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'CONTINUE' });
          }}
        >
          <p>{t`Has your card arrived? Activate it to start paying with it.`}</p>
          {generalError ? <Alert tone="error">{generalError}</Alert> : null}
          <PinField
            label={t`Last four digits printed on the card`}
            name="cardLast4"
            value={view.cardLast4}
            onChange={(cardLast4) => actor.send({ type: 'DIGITS.CHANGE', cardLast4 })}
            error={digitsError}
            disabled={view.busy}
          />
          <div className="actions">
            <Button type="submit" busy={view.activating} disabled={view.busy}>
              {view.fee && view.fee.amount > 0 ? t`Continue` : t`Activate the card`}
            </Button>
          </div>
        </form>
      );
      break;
    case 'reviewing':
      body = (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'ACTIVATE' });
          }}
        >
          {generalError ? <Alert tone="error">{generalError}</Alert> : null}
          <dl className="secret-facts">
            <dt>{t`Activation fee`}</dt>
            <dd>{view.fee ? money(String(view.fee.amount), view.fee.currency) : null}</dd>
          </dl>
          {view.feeAccounts.length === 0 ? (
            <Alert tone="warning">{t`You have no account in ${feeCurrency} to pay the fee from.`}</Alert>
          ) : (
            <SelectField
              label={t`Pay the fee from`}
              name="feeAccountId"
              value={view.feeAccountId === null ? '' : String(view.feeAccountId)}
              onChange={(value) => actor.send({ type: 'FEE_ACCOUNT.CHANGE', accountId: value === '' ? null : Number(value) })}
              options={view.feeAccounts.map((a) => ({ value: String(a.accountId), label: `${accountLabel(a)} · ${money(a.balance, a.currency)}` }))}
              placeholder={t`Choose an account`}
              error={view.error === 'feeAccountMissing' ? t`Choose the account the fee is paid from.` : undefined}
              disabled={view.busy}
            />
          )}
          <div className="actions">
            <Button type="submit" busy={view.activating} disabled={view.busy}>
              {t`Pay the fee and activate`}
            </Button>
            <Button variant="secondary" onClick={() => actor.send({ type: 'REVIEW.BACK' })} disabled={view.busy}>
              {t`Back`}
            </Button>
          </div>
        </form>
      );
      break;
    case 'showingPin':
      body = (
        <>
          <Alert tone="success">{t`Your card is active.`}</Alert>
          <p>{t`This is your card's PIN. Remember it: it is shown only this once.`}</p>
          {view.pinCode !== null ? <SecretValue label={t`PIN`} value={view.pinCode} /> : null}
          <SecretCountdown seconds={seconds} />
          <div className="actions">
            <Button variant="secondary" onClick={() => actor.send({ type: 'PIN.HIDE' })}>
              {t`Hide the PIN`}
            </Button>
          </div>
        </>
      );
      break;
    case 'done':
      body = <Alert tone="success">{t`Your card is active. You can change its PIN at any time.`}</Alert>;
      break;
  }

  return (
    <section className="card-activation" aria-busy={view.busy || undefined}>
      {heading ? <StepHeading level={2}>{t`Activate your card`}</StepHeading> : null}
      {body}
      <SecretAnnouncer message={announcement} />
    </section>
  );
}
