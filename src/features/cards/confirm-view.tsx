/**
 * Confirming a card (/confirm-card/{cardId}, document 2 §2, §7 "Card confirm requirements"): a
 * physical or debit card waiting for the customer's confirmation (status 23) lists what it needs,
 * each met or not with the way to meet it (the fees paid: the history; the identity verified: the
 * verification page; the address confirmed: the profile's addresses), and is confirmed (cardConfirm)
 * once everything is met. One read and one call: no steps of its own, so no chart.
 */
import type { ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { CardStatus, type CONFIRM_REQUIREMENTS } from '../../../api/cards.ts';
import { MethodCallError, callMethod, describeFailure, isFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { AnchorLink, type ApplyLink, type ApplyTarget } from './apply-view.tsx';
import { confirmRequirementsQuery } from './apply-queries.ts';
import { CARD_QUERY_KEYS } from './queries.ts';
import '../transfers/transfers.css';

type Requirement = (typeof CONFIRM_REQUIREMENTS)[number];

function useRequirementTexts(): Record<Requirement, { met: string; unmet: string; action: string; target: ApplyTarget }> {
  const { t } = useLingui();
  return {
    FEE_PAID: { met: t`The card's fees are paid.`, unmet: t`The card's fees are not paid yet.`, action: t`See your payments in the history`, target: { page: 'history' } },
    IDENTITY_VERIFIED: { met: t`Your identity is verified.`, unmet: t`Your identity is not verified yet.`, action: t`Verify your identity`, target: { page: 'verification' } },
    ADDRESS_CONFIRMED: {
      met: t`Your address is confirmed.`,
      unmet: t`Your address is not confirmed yet.`,
      action: t`Confirm your address in your profile`,
      target: { page: 'addresses' },
    },
  };
}

const errorText = (error: unknown, unknown: string) => (error instanceof MethodCallError ? describeFailure(error.failure) : unknown);

export function ConfirmCardView({ actingCustomerId, cardId, link: PageLink = AnchorLink }: { actingCustomerId: number | null; cardId: number; link?: ApplyLink }) {
  const { t } = useLingui();
  const client = useQueryClient();
  const texts = useRequirementTexts();
  const query = useQuery(confirmRequirementsQuery(actingCustomerId, cardId));
  const confirm = useMutation({
    mutationFn: async () => {
      const answer = await callMethod('cardConfirm', { accountId: cardId });
      if (isFailure(answer)) throw new MethodCallError(answer);
      return answer;
    },
    onSuccess: async () => {
      await Promise.all([...CARD_QUERY_KEYS, ['cardConfirmRequirements']].map((queryKey) => client.invalidateQueries({ queryKey: [...queryKey] })));
    },
  });

  let body: ReactNode;
  let title = t`Confirm your card`;
  if (confirm.isSuccess) {
    title = t`Card confirmed`;
    body = (
      <>
        <Alert tone="success" title={t`Your card is confirmed.`}>
          <p>{t`We make it now and ship it to your address.`}</p>
        </Alert>
        <PageLink target={{ page: 'card', accountId: cardId }} className="btn btn-primary">
          {t`See your card`}
        </PageLink>
      </>
    );
  } else if (query.isPending) body = <Spinner label={t`Loading what your card needs`} />;
  else if (query.isError)
    body = (
      <>
        <Alert tone="error" title={t`We could not load what your card needs.`}>
          <p>{errorText(query.error, t`Unknown error`)}</p>
        </Alert>
        <Button onClick={() => void query.refetch()}>{t`Try again`}</Button>
      </>
    );
  else {
    const answer = query.data;
    const waiting = answer.accountStatusId === CardStatus.pendingConfirmation;
    body = (
      <>
        {waiting ? (
          <p>{t`Before we make your card and ship it, a few things must be in order. Once they are, confirm the card.`}</p>
        ) : (
          <Alert tone="info" title={t`This card does not wait for a confirmation.`}>
            <PageLink target={{ page: 'card', accountId: cardId }}>{t`See your card`}</PageLink>
          </Alert>
        )}
        {confirm.isError ? (
          <Alert tone="error" title={t`The card was not confirmed.`}>
            <p>{errorText(confirm.error, t`The connection failed. Try again.`)}</p>
          </Alert>
        ) : null}
        {waiting ? (
          <Card title={t`What your card needs`}>
            <ul>
              {answer.requirements.map((r) => {
                const text = texts[r.code];
                return (
                  <li key={r.code}>
                    <Badge tone={r.met ? 'success' : 'warning'}>{r.met ? t`Done` : t`To do`}</Badge> {r.met ? text.met : text.unmet}
                    {r.met ? null : (
                      <>
                        {' '}
                        <PageLink target={text.target}>{text.action}</PageLink>
                      </>
                    )}
                  </li>
                );
              })}
            </ul>
          </Card>
        ) : null}
        {waiting ? (
          <ButtonGroup stackOnMobile>
            <Button busy={confirm.isPending} disabled={!answer.canConfirm} onClick={() => confirm.mutate()}>
              {t`Confirm the card`}
            </Button>
          </ButtonGroup>
        ) : null}
        {waiting && !answer.canConfirm ? <p className="field-hint">{t`You can confirm the card once everything above is done.`}</p> : null}
      </>
    );
  }
  return (
    <div className="transfer-page card-confirm-page">
      <StepHeading key={title}>{title}</StepHeading>
      {body}
    </div>
  );
}
