/**
 * A card's secrets on /card/{accountId}/pin/ (document 2 §7 show PIN, get PIN; issue 16 items 3
 * and 4): "Show PIN" or "Show card details" starts a fresh approval (the customer's code, or their
 * password where the mode is none or push); the secret is then shown with a countdown and hidden
 * again after 30 seconds (or when the customer hides it), which a live region says. A thin view of
 * machines/card-secret: the secret is read from the chart's snapshot while it is visible and is
 * never copied into state, storage or a log here; only the card number has a copy button.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import type { CardSecret, CardSecretMachine } from '../../../machines/card-secret/card-secret.machine.ts';
import { selectCardSecretView } from '../../../machines/card-secret/card-secret.select.ts';
import { cardActionAllowed, type RevealApproveType } from '../../../api/cards.ts';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import { VfCode } from '../../../api/errors.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { SecretAnnouncer, SecretCountdown, SecretValue, useSecondsLeft } from '../../ui/secret-fields.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { ArrowLeftIcon } from '../../ui/icons.tsx';
import { isListedCard } from './card-routing.ts';
import { useCardTitle } from './cards-parts.tsx';
import { PinChangePanel } from './pin-change-view.tsx';
import { accountsQuery } from './queries.ts';
import { createSecretLogic } from './secret-actors.ts';
import './cards.css';

/**
 * The page /card/{accountId}/pin/: the card's name, then its secrets (where its status allows the
 * reveal) and the PIN change (where it allows the PIN action, document 2 §4). The route has
 * already sent an id that is not one of the customer's cards to /cards.
 */
export function CardPinPage({ actingCustomerId, accountId }: { actingCustomerId: number | null; accountId: number }) {
  const { t } = useLingui();
  const accounts = useQuery(accountsQuery(actingCustomerId));
  const title = useCardTitle();
  if (accounts.isPending) return <Spinner label={t`Loading the card`} />;
  if (accounts.isError)
    return (
      <div className="cards-page">
        <StepHeading>{t`PIN and card details`}</StepHeading>
        <Alert tone="error" title={t`The card could not be loaded`}>
          <p>{accounts.error instanceof MethodCallError ? describeFailure(accounts.error.failure) : t`Unknown error`}</p>
          <Button variant="secondary" onClick={() => void accounts.refetch()}>
            {t`Try again`}
          </Button>
        </Alert>
      </div>
    );
  const card = accounts.data.find((a) => a.accountId === accountId && isListedCard(a));
  if (!card)
    return (
      <div className="cards-page">
        <StepHeading>{t`PIN and card details`}</StepHeading>
        <Alert tone="warning" title={t`This card is not among your cards`}>
          <Link to="/cards">{t`Your cards`}</Link>
        </Alert>
      </div>
    );
  const canReveal = cardActionAllowed('reveal', card);
  const canChange = cardActionAllowed('pin', card);
  return (
    <div className="cards-page">
      <Link to="/cards/$accountId" params={{ accountId: String(card.accountId) }} className="cards-back">
        <ArrowLeftIcon />
        {t`Back to the card`}
      </Link>
      <StepHeading>{title(card)}</StepHeading>
      {canReveal ? <CardSecretPanel accountId={card.accountId} /> : null}
      {canChange ? <PinChangePanel accountId={card.accountId} /> : null}
      {!canReveal && !canChange ? <Alert tone="info">{t`The PIN of this card can be seen and changed once the card is active.`}</Alert> : null}
    </div>
  );
}

/** The card's secrets with the app's actors (the /card/{accountId}/pin/ page). */
export function CardSecretPanel({ accountId, logic: given }: { accountId: number; /** tests: the chart with their own actors */ logic?: CardSecretLogic }) {
  const logic = useMemo(() => given ?? createSecretLogic(), [given]);
  // Declared before the actor: React runs a component's effect cleanups in order, so leaving the
  // page hides the secret (the chart clears it) before the actor stops and keeps its last snapshot.
  const kept = useRef<{ send(e: { type: 'SECRET.HIDE' }): void; getSnapshot(): { status: string } } | null>(null);
  useEffect(
    () => () => {
      // a finished chart holds nothing more (and takes no event)
      if (kept.current?.getSnapshot().status === 'active') kept.current.send({ type: 'SECRET.HIDE' });
    },
    [],
  );
  const actor = useFlowActor(logic, { input: { accountId } });
  useEffect(() => {
    kept.current = actor;
  }, [actor]);
  return <CardSecretView actor={actor} />;
}

type CardSecretLogic = ReturnType<typeof createSecretLogic>;

/** Whether the answer holds anything secret to show (a virtual card may have no PIN): no countdown for a message. */
const shownSomething = (reveal: 'pin' | 'card', s: CardSecret) => (reveal === 'pin' ? s.pinCode !== null : s.cardNumber !== null || s.cvv !== null);
/** `4111111111111111` -> `4111 1111 1111 1111` (display only; the copy button copies the digits). */
const grouped = (digits: string) => digits.replace(/\s+/g, '').replace(/(\d{4})(?=\d)/g, '$1 ');
const expiryOf = (s: CardSecret) =>
  s.cardExpiryMonth !== null && s.cardExpiryYear !== null ? `${String(s.cardExpiryMonth).padStart(2, '0')}/${String(s.cardExpiryYear).slice(-2)}` : null;

function CodeEntry({ actor }: { actor: ActorRefFrom<CardSecretMachine> }) {
  const { t } = useLingui();
  const view = useSelector(actor, selectCardSecretView);
  const [code, setCode] = useState('');
  const mode: RevealApproveType = view.mode ?? 'sms';
  const to = view.sentTo ?? '';
  const heading = {
    sms: view.sentTo ? t`Enter the code we sent to ${to}` : t`Enter the code we sent you by SMS`,
    otp: t`Enter the code from your authenticator app`,
    approvalCode: t`Enter your approval code`,
    password: t`Enter your password`,
  }[mode];
  const formatError = {
    sms: t`Enter the 6-digit code.`,
    otp: t`Enter the 6-digit code.`,
    approvalCode: t`Enter your approval code (4 to 32 letters and digits).`,
    password: t`Enter your password.`,
  }[mode];
  const fieldError =
    view.error === 'codeFormat'
      ? formatError
      : view.error === 'wrongCode'
        ? mode === 'password'
          ? t`That password is not right.`
          : view.failure
            ? describeFailure(view.failure)
            : t`That code is not right. Check it and try again.`
        : undefined;
  const digits = mode === 'sms' || mode === 'otp';
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const typed = mode === 'password' ? code : code.trim();
        // the typed code or password is not kept once sent
        setCode('');
        actor.send({ type: 'CODE.SUBMIT', code: typed });
      }}
    >
      <StepHeading level={2}>{heading}</StepHeading>
      <p>{view.reveal === 'card' ? t`To see the card's number and CVV, confirm it is you.` : t`To see the PIN, confirm it is you.`}</p>
      {view.error === 'network' ? <Alert tone="error">{t`No answer from the server. Try again.`}</Alert> : null}
      <TextField
        label={mode === 'password' ? t`Password` : mode === 'approvalCode' ? t`Approval code` : t`Code`}
        name={mode === 'password' ? 'password' : 'approvalCode'}
        type={digits ? 'text' : 'password'}
        inputMode={digits ? 'numeric' : undefined}
        autoComplete={digits ? 'one-time-code' : mode === 'password' ? 'current-password' : 'off'}
        maxLength={digits ? 6 : mode === 'approvalCode' ? 32 : 200}
        value={code}
        onChange={setCode}
        error={fieldError}
        disabled={view.busy}
        autoFocus
        required
      />
      <div className="actions">
        <Button type="submit" busy={view.verifying} disabled={view.busy}>
          {t`Confirm`}
        </Button>
        <Button variant="secondary" onClick={() => actor.send({ type: 'APPROVAL.CANCEL' })} disabled={view.busy}>
          {t`Cancel`}
        </Button>
      </div>
    </form>
  );
}

export function CardSecretView({ actor }: { actor: ActorRefFrom<CardSecretMachine> }) {
  const { t } = useLingui();
  const view = useSelector(actor, selectCardSecretView);
  const seconds = useSecondsLeft(view.step === 'visible', view.visibleMs);
  const secret = view.secret;
  const hiddenMessage = view.hiddenAgain ? (view.reveal === 'card' ? t`The card details are hidden again.` : t`The PIN is hidden again.`) : null;

  // the approval's own refusals are said for a card (their general sentences speak of a transfer)
  const failedText = (failure: Failure | null) => {
    const codes = failure?.validationErrors?.map((e) => e.code) ?? [];
    if (codes.includes(VfCode.approvalTooManyWrong)) return t`Too many wrong tries: start again.`;
    if (codes.includes(VfCode.codeExpired)) return t`The time to confirm ran out. Start again.`;
    return failure && failure.responseCode !== ResponseCode.validation ? describeFailure(failure) : t`The check failed. Start again.`;
  };
  const errorText =
    view.error === 'showFailed'
      ? view.failure
        ? describeFailure(view.failure)
        : t`We could not start the check. Check your connection and try again.`
      : view.error === 'failed'
        ? failedText(view.failure)
        : view.error === 'expired'
          ? t`The time to confirm ran out. Start again.`
          : null;

  let body;
  switch (view.step) {
    case 'hidden':
    case 'requesting':
      body = (
        <>
          {errorText ? <Alert tone="error">{errorText}</Alert> : null}
          <p>{t`Your PIN and card details are shown only after you confirm it is you, and only for 30 seconds.`}</p>
          <div className="actions">
            <Button onClick={() => actor.send({ type: 'REVEAL', reveal: 'pin' })} disabled={view.busy} busy={view.requesting && view.reveal === 'pin'}>
              {t`Show PIN`}
            </Button>
            <Button variant="secondary" onClick={() => actor.send({ type: 'REVEAL', reveal: 'card' })} disabled={view.busy} busy={view.requesting && view.reveal === 'card'}>
              {t`Show card details`}
            </Button>
          </div>
        </>
      );
      break;
    case 'approving':
      body = <CodeEntry actor={actor} />;
      break;
    case 'visible':
      body = secret ? (
        <>
          {view.reveal === 'pin' ? (
            secret.pinCode !== null ? (
              <SecretValue label={t`PIN`} value={secret.pinCode} />
            ) : (
              <Alert tone="info">{t`This card has no PIN yet.`}</Alert>
            )
          ) : (
            <>
              {secret.cardNumber !== null ? <SecretValue label={t`Card number`} value={secret.cardNumber.replace(/\s+/g, '')} shown={grouped(secret.cardNumber)} copyable /> : null}
              {expiryOf(secret) !== null ? <SecretValue label={t`Valid until`} value={expiryOf(secret)!} /> : null}
              {secret.cvv !== null ? <SecretValue label={t`CVV`} value={secret.cvv} /> : null}
            </>
          )}
          {shownSomething(view.reveal, secret) ? <SecretCountdown seconds={seconds} /> : null}
          <div className="actions">
            <Button variant="secondary" onClick={() => actor.send({ type: 'SECRET.HIDE' })}>
              {t`Hide now`}
            </Button>
          </div>
        </>
      ) : (
        <Spinner label={t`Loading`} />
      );
      break;
  }

  return (
    <section className="card-secret" aria-busy={view.busy || undefined}>
      {view.step === 'approving' ? null : <StepHeading level={2}>{t`PIN and card details`}</StepHeading>}
      {body}
      <SecretAnnouncer message={hiddenMessage} />
    </section>
  );
}
