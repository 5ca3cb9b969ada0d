/**
 * The card detail's actions (document 2 §4, issue 16 item 3), each shown exactly when
 * api/cards.ts cardActionAllowed allows it (the rule is never computed again here):
 * - one-click actions behind a confirmation, all on the one confirm-and-call chart
 *   (machines/confirm-action, one running chart for the page): Pause, Unpause, Block (final: the
 *   dialog says it cannot be undone and where a prepaid balance goes), Reissue (with the shipping
 *   choice and its fee), Upgrade shipping (the difference charged), Rename (virtual cards);
 * - links to other pages: Load and Unload (a transfer between own accounts with the card preset,
 *   prepaid cards only: a debit card holds no money of its own), Show PIN or card details (reveal)
 *   and Change PIN (pin), both on the PIN page /card/{accountId}/pin.
 * The chart's dialog keeps focus while open (src/ui/dialog.tsx) and gives it back; once done, a
 * message takes focus, since the button that opened the dialog is often gone (a paused card has no
 * Pause button).
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { fromPromise } from 'xstate';
import type { Account } from '../../../api/accounts.ts';
import { cardActionAllowed, type CardProduct, type ShippingOption } from '../../../api/cards.ts';
import { confirmActionMachine, type ConfirmActionResult, type PerformInput } from '../../../machines/confirm-action/confirm-action.machine.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { formatMoney } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { RadioGroup } from '../../ui/choice-fields.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { performCardAction, type CardActionName, type CardActionOutcome, type CardActionRequest } from './actors.ts';
import { cardKindOf } from './card-routing.ts';
import { useCardTitle } from './cards-parts.tsx';

const money = (amount: string | number, currency: string) => formatMoney(String(amount), currency, getUiLanguage());

/** The product's shipping option of a type, when offered and not disabled. */
const shippingOf = (product: CardProduct | null, type: ShippingOption['type']) => product?.shippingOptions.find((o) => o.type === type && o.disabledReasons.length === 0) ?? null;

/** "€5.00 · at most 3 business days" */
function useShippingText(): (option: ShippingOption) => string {
  const { t } = useLingui();
  return (option) => {
    const fee = money(option.fee, option.currency);
    const deliveryTime = option.deliveryTime;
    const days = plural(deliveryTime, { one: 'at most # business day', other: 'at most # business days' });
    return t`${fee} · ${days}`;
  };
}

export function CardActions({ card, product }: { card: Account; product: CardProduct | null }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const title = useCardTitle()(card);
  const [action, setAction] = useState<CardActionName | null>(null);
  const [express, setExpress] = useState(false);
  const [alias, setAlias] = useState('');
  const [outcome, setOutcome] = useState<CardActionOutcome | null>(null);
  const words = useActionWords();
  // what CONFIRM sends: the dialog's latest choices, read when the call starts
  const request = useRef<CardActionRequest | null>(null);
  const current: CardActionRequest | null =
    action === null ? null : action === 'reissue' ? { action, express } : action === 'rename' ? { action, alias } : ({ action } as CardActionRequest);
  request.current = current;

  const machine = useMemo(
    () =>
      confirmActionMachine.provide({
        actors: {
          perform: fromPromise<ConfirmActionResult, PerformInput>(async ({ input }) => {
            const asked = request.current;
            if (!asked) return { ok: false, code: 'refused', detail: null };
            const answer = await performCardAction(queryClient, asked, input);
            if (answer.outcome) setOutcome(answer.outcome);
            return answer.result;
          }),
        },
      }),
    [queryClient],
  );
  const actor = useFlowActor(machine);
  const step = useSelector(actor, (s) =>
    s.matches('confirming') ? 'confirming' : s.matches('working') ? 'working' : s.matches('failed') ? 'failed' : s.matches('done') ? 'done' : 'idle',
  );
  const error = useSelector(actor, (s) => s.context.error);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));

  const ask = (name: CardActionName) => {
    setAction(name);
    setOutcome(null);
    setExpress(false);
    setAlias(card.cardAliasName ?? '');
    actor.send({ type: 'ASK', targetId: card.accountId });
  };

  const allowed = (a: Parameters<typeof cardActionAllowed>[0]) => cardActionAllowed(a, card);
  const prepaid = card.subType === 'PREPAID';
  const accountId = String(card.accountId);
  const links: ReactNode[] = [];
  if (prepaid && allowed('load'))
    links.push(
      <Link key="load" to="/transfer/account" search={{ toAccountId: card.accountId }} className="btn btn-secondary">
        {t`Add money to the card`}
      </Link>,
    );
  if (prepaid && allowed('unload'))
    links.push(
      <Link key="unload" to="/transfer/account" search={{ fromAccountId: card.accountId }} className="btn btn-secondary">
        {t`Move money off the card`}
      </Link>,
    );
  if (allowed('reveal'))
    links.push(
      <Link key="reveal" to="/card/$accountId/pin" params={{ accountId }} className="btn btn-secondary">
        {t`Show PIN or card details`}
      </Link>,
    );
  if (allowed('pin'))
    links.push(
      <Link key="pin" to="/card/$accountId/pin" params={{ accountId }} className="btn btn-secondary">
        {t`Change PIN`}
      </Link>,
    );

  const buttons: ReactNode[] = [];
  const button = (name: CardActionName, label: string, variant: 'secondary' | 'danger' = 'secondary') =>
    buttons.push(
      <Button key={name} variant={variant} onClick={() => ask(name)}>
        {label}
      </Button>,
    );
  if (allowed('pause')) button('pause', t`Pause`);
  if (allowed('unpause')) button('unpause', t`Unpause`);
  if (allowed('editName')) button('rename', t`Rename`);
  if (allowed('upgradeShipping')) button('upgradeShipping', t`Send by express`);
  if (allowed('reissue')) button('reissue', t`Order a new card`);
  if (allowed('block')) button('block', t`Block the card`, 'danger');

  const dialog = action ? <ActionText action={action} card={card} product={product} express={express} onExpress={setExpress} alias={alias} onAlias={setAlias} /> : null;
  const open = step === 'confirming' || step === 'working' || step === 'failed';

  return (
    <section className="card card-actions-section" aria-labelledby="card-actions-title">
      <h2 id="card-actions-title" className="card-title">
        {t`Manage the card`}
      </h2>
      {step === 'done' && outcome ? <DoneMessage outcome={outcome} card={card} onClose={() => actor.send({ type: 'DISMISS' })} /> : null}
      {links.length === 0 && buttons.length === 0 ? (
        <p className="cards-note">{t`Nothing can be done with this card in its present state.`}</p>
      ) : (
        <>
          {links.length > 0 ? <ButtonGroup label={t`Money and secrets of ${title}`}>{links}</ButtonGroup> : null}
          {buttons.length > 0 ? <ButtonGroup label={t`Actions on ${title}`}>{buttons}</ButtonGroup> : null}
        </>
      )}
      {open && action ? (
        <Dialog
          open
          title={words.titles[action]}
          // Escape and the keep button alike; ignored while the call runs (the chart takes no DISMISS then)
          onClose={() => actor.send({ type: 'DISMISS' })}
          actions={
            <ButtonGroup align="end" stackOnMobile>
              <Button variant="secondary" disabled={busy} onClick={() => actor.send({ type: 'DISMISS' })}>
                {action === 'block' ? t`Keep the card` : t`Cancel`}
              </Button>
              <Button variant={action === 'block' ? 'danger' : 'primary'} busy={busy} onClick={() => actor.send({ type: 'CONFIRM' })}>
                {step === 'failed' ? t`Try again` : words.confirms[action]}
              </Button>
            </ButtonGroup>
          }
        >
          {dialog}
          {step === 'failed' && error ? (
            <Alert tone="error" title={t`It was not done`}>
              <p>{error.code === 'network' ? t`The connection failed. Try again.` : (error.detail ?? t`Unknown error`)}</p>
            </Alert>
          ) : null}
        </Dialog>
      ) : null}
    </section>
  );
}

/** Each action's dialog title and confirm button (the macro's `t` works only where useLingui gave it). */
function useActionWords(): { titles: Record<CardActionName, string>; confirms: Record<CardActionName, string> } {
  const { t } = useLingui();
  const titles = {
    pause: t`Pause this card?`,
    unpause: t`Unpause this card?`,
    block: t`Block this card for good?`,
    reissue: t`Order a new card?`,
    upgradeShipping: t`Send the card by express?`,
    rename: t`Rename the card`,
  };
  const confirms = {
    pause: t`Pause the card`,
    unpause: t`Unpause the card`,
    block: t`Block the card`,
    reissue: t`Order the new card`,
    upgradeShipping: t`Send by express`,
    rename: t`Save the name`,
  };
  return { titles, confirms };
}

interface ActionTextProps {
  action: CardActionName;
  card: Account;
  product: CardProduct | null;
  express: boolean;
  onExpress(express: boolean): void;
  alias: string;
  onAlias(alias: string): void;
}

/** What the action will do, plainly, and the dialog's choices (shipping, name). */
function ActionText({ action, card, product, express, onExpress, alias, onAlias }: ActionTextProps) {
  const { t } = useLingui();
  const shippingText = useShippingText();
  switch (action) {
    case 'pause':
      return <p>{t`Payments with this card are declined while it is paused. You can unpause it at any time.`}</p>;
    case 'unpause':
      return <p>{t`The card can be used for payments again.`}</p>;
    case 'block': {
      const balance = money(card.balance, card.currency);
      const currency = card.currency;
      return (
        <>
          <p>
            <strong>{t`This cannot be undone: a blocked card can never be used again.`}</strong>
          </p>
          {card.subType === 'PREPAID' ? <p>{t`The money left on the card (${balance}) goes back to your ${currency} account.`}</p> : null}
          <p>{t`If you only want to stop payments for a while, pause the card instead.`}</p>
        </>
      );
    }
    case 'reissue': {
      const standard = shippingOf(product, 'standard');
      const expressOption = shippingOf(product, 'express');
      const issueFee = product && product.fees.issue > 0 ? money(product.fees.issue, product.fees.currency) : null;
      return (
        <>
          <p>{t`A new card takes the place of this one: this card is canceled, and its balance moves to the new card.`}</p>
          {issueFee ? <p>{t`The issue fee of ${issueFee} is charged.`}</p> : null}
          {cardKindOf(card) === 'physical' ? (
            <RadioGroup
              legend={t`Delivery`}
              name="reissue-shipping"
              value={express ? 'express' : 'standard'}
              onChange={(value) => onExpress(value === 'express')}
              options={[
                { value: 'standard', label: t`Standard delivery`, hint: standard ? shippingText(standard) : undefined },
                {
                  value: 'express',
                  label: t`Express delivery`,
                  hint: expressOption ? shippingText(expressOption) : undefined,
                  disabled: product !== null && expressOption === null,
                },
              ]}
              hint={t`The delivery fee is charged with the issue fee, from the account that pays the card's fees.`}
            />
          ) : null}
        </>
      );
    }
    case 'upgradeShipping': {
      const standard = shippingOf(product, 'standard');
      const expressOption = shippingOf(product, 'express');
      const difference = standard && expressOption && expressOption.fee >= standard.fee ? money((expressOption.fee - standard.fee).toFixed(2), expressOption.currency) : null;
      return (
        <>
          <p>{t`Your card is sent by express delivery instead: it reaches you sooner.`}</p>
          {expressOption ? <p>{shippingText(expressOption)}</p> : null}
          <p>
            {difference
              ? t`The difference of ${difference} is charged from the account that pays the card's fees.`
              : t`The difference in delivery fees is charged from the account that pays the card's fees.`}
          </p>
        </>
      );
    }
    case 'rename':
      return (
        <TextField
          label={t`Card name`}
          name="cardAliasName"
          value={alias}
          onChange={onAlias}
          maxLength={40}
          hint={t`Up to 40 characters, for you to tell your cards apart.`}
          autoComplete="off"
        />
      );
  }
}

/** The result, in a message that takes focus. */
function DoneMessage({ outcome, card, onClose }: { outcome: CardActionOutcome; card: Account; onClose(): void }) {
  const { t } = useLingui();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [outcome]);
  let text: ReactNode;
  switch (outcome.action) {
    case 'pause':
      text = t`The card is paused. Payments with it are declined until you unpause it.`;
      break;
    case 'unpause':
      text = t`The card can be used again.`;
      break;
    case 'block': {
      const refunded = money(outcome.refundedAmount, card.currency);
      const accountId = outcome.refundedToAccountId;
      const currency = card.currency;
      text = (
        <>
          {t`The card is blocked.`} {accountId !== null && !/^0(\.0+)?$/.test(outcome.refundedAmount) ? t`${refunded} went back to your ${currency} account ${accountId}.` : null}
        </>
      );
      break;
    }
    case 'reissue': {
      const fee = money(outcome.fee, outcome.feeCurrency);
      text = (
        <>
          {t`Your new card is ordered; ${fee} was charged.`}{' '}
          <Link to="/cards/$accountId" params={{ accountId: String(outcome.accountId) }}>
            {t`Open the new card`}
          </Link>
        </>
      );
      break;
    }
    case 'upgradeShipping': {
      const fee = money(outcome.fee, outcome.feeCurrency);
      const deliveryTime = outcome.deliveryTime;
      const days = plural(deliveryTime, { one: 'at most # business day', other: 'at most # business days' });
      text = t`Your card is sent by express; ${fee} was charged. Delivery: ${days}.`;
      break;
    }
    case 'rename': {
      const name = outcome.cardAliasName;
      text = t`The card is now called ${name}.`;
      break;
    }
  }
  return (
    <div ref={ref} tabIndex={-1} className="confirm-done">
      <Alert tone="success">
        <p>{text}</p>
        <Button variant="link" onClick={onClose}>
          {t`Close this message`}
        </Button>
      </Alert>
    </div>
  );
}
