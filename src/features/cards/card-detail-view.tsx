/**
 * /cards/{accountId} (document 2 §2, §4; issue 16 item 3): one card. Its face; what its status
 * means for the customer (waiting for approval, to confirm, being made and shipped with the
 * production steps, paused, ended); its balance and the amount on hold where the status allows
 * the balance to be seen (cardActionAllowed('balance')); its activation when a physical card has
 * arrived (CardActivation, activation-view.tsx); its actions (card-detail-actions.tsx); its card
 * payments (card-detail-authorizations.tsx); and its transactions, where history is allowed, as a
 * link to /history filtered by the card (the history list cannot be embedded: features do not
 * import each other, and its page owns the filter and the URL).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import type { Account } from '../../../api/accounts.ts';
import { CardStatus, cardActionAllowed } from '../../../api/cards.ts';
import { formatMoney } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { ArrowLeftIcon, HistoryIcon } from '../../ui/icons.tsx';
import { ProgressSteps } from '../../ui/progress-steps.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { CardActivation } from './activation-view.tsx';
import { CardActions } from './card-detail-actions.tsx';
import { AuthorizationsSection } from './card-detail-authorizations.tsx';
import { cardKindOf, isListedCard } from './card-routing.ts';
import { CardFace, productOf, useCardTitle } from './cards-parts.tsx';
import { CARD_QUERY_KEYS, accountsQuery, cardProductsQuery } from './queries.ts';
import './cards.css';

/** A physical card on its way, step by step (the issuer's order). */
const PRODUCTION = [CardStatus.submitted, CardStatus.processing, CardStatus.printing, CardStatus.printed, CardStatus.shipped] as const;

export function CardDetailPage({ actingCustomerId, accountId }: { actingCustomerId: number | null; accountId: number }) {
  const { t } = useLingui();
  const accounts = useQuery(accountsQuery(actingCustomerId));
  const products = useQuery(cardProductsQuery(actingCustomerId));
  const title = useCardTitle();

  if (accounts.isPending) return <Spinner label={t`Loading the card`} />;
  if (accounts.isError)
    return (
      <div className="cards-page">
        <StepHeading>{t`Card`}</StepHeading>
        <Alert tone="error" title={t`The card could not be loaded`}>
          <p>{accounts.error instanceof MethodCallError ? describeFailure(accounts.error.failure) : t`Unknown error`}</p>
          <Button variant="secondary" onClick={() => void accounts.refetch()}>
            {t`Try again`}
          </Button>
        </Alert>
      </div>
    );
  const card = accounts.data.find((a) => a.accountId === accountId && isListedCard(a));
  const listed = accounts.data.filter(isListedCard).length;
  if (!card)
    return (
      <div className="cards-page">
        <StepHeading>{t`Card`}</StepHeading>
        <Alert tone="warning" title={t`This card is not among your cards`}>
          <Link to="/cards">{t`Your cards`}</Link>
        </Alert>
      </div>
    );
  const product = productOf(card, products.data);
  return (
    <div className="cards-page">
      {listed > 1 ? (
        <Link to={cardKindOf(card) === 'virtual' ? '/cards/virtual' : '/cards/physical'} className="cards-back">
          <ArrowLeftIcon />
          {t`All cards`}
        </Link>
      ) : null}
      <StepHeading>{title(card)}</StepHeading>
      <div className="card-detail-top">
        <CardFace card={card} product={product} headingLevel={null} showBalance={false} />
        <div className="card-detail-facts">
          <StatusNote card={card} />
          <BalanceFacts card={card} settlement={accounts.data.find((a) => a.accountId === card.settlementAccountId) ?? null} />
        </div>
      </div>
      {cardActionAllowed('activate', card) ? <Activation card={card} /> : null}
      <CardActions card={card} product={product} />
      <Payments card={card} actingCustomerId={actingCustomerId} />
      {cardActionAllowed('history', card) ? (
        <p>
          <Link to="/history" search={{ accountId: card.accountId }} className="btn btn-secondary">
            <HistoryIcon />
            {t`Transactions of this card`}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

/** The balance and what is on hold, where the status allows them to be seen; a debit card's account it pays from. */
function BalanceFacts({ card, settlement }: { card: Account; settlement: Account | null }) {
  const { t } = useLingui();
  const lang = getUiLanguage();
  const accountId = card.settlementAccountId;
  const currency = card.currency;
  const debit = card.subType === 'DEBIT' && accountId !== null;
  // nothing to state (a card being made): no empty list, nor the gap the column would keep for it
  if (!cardActionAllowed('balance', card) && !debit) return null;
  return (
    <dl className="card-facts">
      {cardActionAllowed('balance', card) ? (
        <>
          <div>
            <dt>{t`Balance`}</dt>
            <dd className="card-facts-amount">{formatMoney(card.balance, card.currency, lang)}</dd>
          </div>
          <div>
            <dt>{t`On hold`}</dt>
            <dd>{formatMoney(card.pendingAmount, card.currency, lang)}</dd>
          </div>
        </>
      ) : null}
      {debit ? (
        <div>
          <dt>{t`Pays from`}</dt>
          <dd>
            {t`${currency} account ${accountId}`}
            {settlement && cardActionAllowed('balance', card) ? ` · ${formatMoney(settlement.balance, settlement.currency, lang)}` : null}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

/** What the status means for the customer, and the next step where there is one. */
function StatusNote({ card }: { card: Account }) {
  const { t } = useLingui();
  const accountId = String(card.accountId);
  const step = (PRODUCTION as readonly number[]).indexOf(card.accountStatusId);
  if (cardKindOf(card) === 'physical' && step >= 0) {
    return (
      <div className="card-production">
        <p className="cards-note">{card.accountStatusId === CardStatus.shipped ? t`Your card is on its way to you.` : t`Your card is being made.`}</p>
        <ProgressSteps
          label={t`Your card's production`}
          current={String(card.accountStatusId)}
          doneText={t`done`}
          steps={[
            { id: String(CardStatus.submitted), label: t`Submitted` },
            { id: String(CardStatus.processing), label: t`Processing` },
            { id: String(CardStatus.printing), label: t`Printing` },
            { id: String(CardStatus.printed), label: t`Printed` },
            { id: String(CardStatus.shipped), label: t`Shipped` },
          ]}
        />
      </div>
    );
  }
  switch (card.accountStatusId) {
    case CardStatus.pendingApproval:
      return <Alert tone="info" title={t`Your application is waiting for approval`}>{t`The card is made once the fee payment is approved.`}</Alert>;
    case CardStatus.pendingConfirmation:
      return (
        <Alert tone="warning" title={t`Confirm your card`}>
          <p>{t`A few things are needed before the card can be made.`}</p>
          <Link to="/confirm-card/$cardId" params={{ cardId: accountId }} className="btn btn-primary">
            {t`See what is needed`}
          </Link>
        </Alert>
      );
    case CardStatus.paused:
      return <Alert tone="warning" title={t`The card is paused`}>{t`Payments with it are declined until you unpause it.`}</Alert>;
    case CardStatus.canceled:
      return <Alert tone="info" title={t`The card is canceled`}>{t`It can no longer be used. Its past payments are kept here.`}</Alert>;
    case CardStatus.fraud:
      return <Alert tone="error" title={t`The card is blocked for suspected fraud`}>{t`It cannot be used. Order a new card in its place.`}</Alert>;
    case CardStatus.expired:
      return <Alert tone="warning" title={t`The card has expired`}>{t`It cannot pay any more. Order a new card, or move its money to your account.`}</Alert>;
    case CardStatus.limited:
      return <Alert tone="warning" title={t`The card is limited`}>{t`Its use is restricted for now. Contact support to learn more.`}</Alert>;
    default:
      return null;
  }
}

/** A physical card that has arrived: activate it here (H5's activation flow). */
function Activation({ card }: { card: Account }) {
  const queryClient = useQueryClient();
  return (
    // the activation view brings its own heading ("Activate your card")
    <div className="card card-activation">
      <CardActivation
        accountId={card.accountId}
        queryClient={queryClient}
        onActivated={() => void Promise.all(CARD_QUERY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })))}
      />
    </div>
  );
}

/** The card payments lists: a prepaid card's holds; a debit card's settlement account's payments and holds. */
function Payments({ card, actingCustomerId }: { card: Account; actingCustomerId: number | null }) {
  const { t } = useLingui();
  const settlementId = card.settlementAccountId;
  if (card.subType === 'DEBIT' && settlementId !== null) {
    const currency = card.currency;
    const accountId = settlementId;
    const account = t`${currency} account ${accountId}`;
    return (
      <>
        <AuthorizationsSection
          actingCustomerId={actingCustomerId}
          list="debitcard"
          accountId={settlementId}
          title={t`Card payments`}
          intro={t`Payments with your debit cards from ${account}.`}
          emptyText={t`No card payments yet.`}
        />
        <AuthorizationsSection
          actingCustomerId={actingCustomerId}
          list="current"
          accountId={settlementId}
          title={t`Card payments on hold`}
          intro={t`Money of ${account} held for card payments not yet settled.`}
          emptyText={t`No money is on hold.`}
        />
      </>
    );
  }
  if (!cardActionAllowed('balance', card)) return null;
  return (
    <AuthorizationsSection
      actingCustomerId={actingCustomerId}
      list="current"
      accountId={card.accountId}
      title={t`Card payments on hold`}
      intro={t`Money held for card payments not yet settled.`}
      emptyText={t`No money is on hold.`}
    />
  );
}
