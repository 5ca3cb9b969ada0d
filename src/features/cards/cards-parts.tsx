/**
 * What the cards pages share: a card's status in words (every id of api/cards.ts CardStatus), its
 * name and kind, its expiry as printed (MM/YY) and its face (src/ui/payment-card.tsx), with the
 * balance only where the status allows it to be seen (cardActionAllowed('balance'), document 2 §4).
 */
import { useLingui } from '@lingui/react/macro';
import type { Account } from '../../../api/accounts.ts';
import { CardStatus, cardActionAllowed, type CardProduct, type CardStatusId } from '../../../api/cards.ts';
import { formatMoney } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { Badge, type BadgeTone } from '../../ui/badge.tsx';
import { PaymentCard } from '../../ui/payment-card.tsx';
import { cardKindOf } from './card-routing.ts';

/** Cards that can no longer pay are drawn muted. */
const ENDED: readonly number[] = [CardStatus.canceled, CardStatus.fraud, CardStatus.expired];

const TONES: Record<CardStatusId, BadgeTone> = {
  [CardStatus.submitted]: 'info',
  [CardStatus.processing]: 'info',
  [CardStatus.printing]: 'info',
  [CardStatus.printed]: 'info',
  [CardStatus.shipped]: 'info',
  [CardStatus.pendingApproval]: 'warning',
  [CardStatus.pendingConfirmation]: 'warning',
  [CardStatus.active]: 'success',
  [CardStatus.paused]: 'warning',
  [CardStatus.limited]: 'warning',
  [CardStatus.expired]: 'neutral',
  [CardStatus.canceled]: 'danger',
  [CardStatus.fraud]: 'danger',
};

/** The spec's label of every card status id (document 2 §4: 23 and 65 are both "Pending"). */
export function useCardStatusNames(): Record<CardStatusId, string> {
  const { t } = useLingui();
  return {
    [CardStatus.submitted]: t`Submitted`,
    [CardStatus.active]: t`Active`,
    [CardStatus.canceled]: t`Canceled`,
    [CardStatus.fraud]: t`Blocked for fraud`,
    [CardStatus.printing]: t`Printing`,
    [CardStatus.printed]: t`Printed`,
    [CardStatus.shipped]: t`Shipped`,
    [CardStatus.pendingConfirmation]: t`Pending`,
    [CardStatus.limited]: t`Limited`,
    [CardStatus.expired]: t`Expired`,
    [CardStatus.processing]: t`Processing`,
    [CardStatus.pendingApproval]: t`Pending`,
    [CardStatus.paused]: t`Paused`,
  };
}

const isCardStatus = (id: number): id is CardStatusId => id in TONES;

export function CardStatusBadge({ statusId }: { statusId: number }) {
  const { t } = useLingui();
  const names = useCardStatusNames();
  if (!isCardStatus(statusId)) return <Badge tone="neutral">{t`Status ${statusId}`}</Badge>;
  return <Badge tone={TONES[statusId]}>{names[statusId]}</Badge>;
}

/** The card's name: the alias the customer gave it, else what it is. */
export function useCardTitle(): (card: Account) => string {
  const { t } = useLingui();
  return (card) => {
    if (card.cardAliasName) return card.cardAliasName;
    if (card.subType === 'DEBIT') return t`Debit card`;
    return cardKindOf(card) === 'virtual' ? t`Virtual card` : t`Prepaid card`;
  };
}

/** The kind in words, with the currency: "Virtual · EUR". */
export function useCardKind(): (card: Account) => string {
  const { t } = useLingui();
  return (card) => {
    const currency = card.currency;
    if (card.subType === 'DEBIT') return t`Debit · ${currency}`;
    return cardKindOf(card) === 'virtual' ? t`Virtual · ${currency}` : t`Physical · ${currency}`;
  };
}

/** MM/YY as printed on the card; null when the platform has no expiry yet (a card not yet made). */
export function expiryOf(card: Pick<Account, 'cardExpiryMonth' | 'cardExpiryYear'>): string | null {
  if (card.cardExpiryMonth === null || card.cardExpiryYear === null) return null;
  return `${String(card.cardExpiryMonth).padStart(2, '0')}/${String(card.cardExpiryYear % 100).padStart(2, '0')}`;
}

/** The product of the card's type among those offered, for its brand and shipping fees (null when not offered in the customer's country now). */
export const productOf = (card: Pick<Account, 'type'>, products: readonly CardProduct[] | undefined): CardProduct | null => products?.find((p) => p.type === card.type) ?? null;

/** The card's face: name, kind, balance where it may be seen, expiry, brand and status. */
export function CardFace({
  card,
  product,
  headingLevel = 3,
  titleId,
  showBalance = true,
  compact = false,
}: {
  card: Account;
  product: CardProduct | null;
  headingLevel?: 2 | 3 | null;
  titleId?: string;
  /** false where the page shows the balance beside the face */
  showBalance?: boolean;
  compact?: boolean;
}) {
  const { t } = useLingui();
  const title = useCardTitle();
  const kind = useCardKind();
  const expiry = expiryOf(card);
  return (
    <PaymentCard
      title={title(card)}
      titleId={titleId}
      headingLevel={headingLevel}
      kind={kind(card)}
      brand={product?.cardBrand ?? null}
      number={card.cardLast4 ? `•••• ${card.cardLast4}` : null}
      compact={compact}
      balance={showBalance && cardActionAllowed('balance', card) ? formatMoney(card.balance, card.currency, getUiLanguage()) : null}
      expiry={
        expiry ? (
          <>
            <span className="visually-hidden">{t`Expires`} </span>
            {expiry}
          </>
        ) : null
      }
      status={<CardStatusBadge statusId={card.accountStatusId} />}
      muted={ENDED.includes(card.accountStatusId)}
    />
  );
}
