import type { ReactNode } from 'react';

export interface PaymentCardProps {
  /** the card's name: its alias, or what it is ("Virtual card") */
  title: ReactNode;
  /** the heading level of the title within the page; null: not a heading (the page's own heading names the card) */
  headingLevel?: 2 | 3 | null;
  /** the id of the title (a list item or link named by it) */
  titleId?: string;
  /** what kind of card, in words ("Virtual · EUR") */
  kind: ReactNode;
  /** the scheme printed on it (VISA, MASTERCARD), when known */
  brand?: string | null;
  /** "•••• 1234", when the last four are known */
  number?: string | null;
  /** the expiry as printed, MM/YY, with its label for screen readers inside */
  expiry?: ReactNode;
  /** the money on it, when it may be seen */
  balance?: ReactNode;
  /** the status badge */
  status?: ReactNode;
  /** a card that can no longer pay (canceled, fraud, expired) is drawn muted */
  muted?: boolean;
  /** a smaller face, its height set by its content (several cards in a summary) */
  compact?: boolean;
}

/**
 * A payment card drawn as a card: the brand's colours (theme tokens), its name, kind, number and
 * expiry, its balance and status. Presentational only: a feature wraps it in a link to open it.
 * The words carry the meaning; the look only adds to them.
 */
export function PaymentCard({ title, headingLevel = 3, titleId, kind, brand, number, expiry, balance, status, muted = false, compact = false }: PaymentCardProps) {
  const Heading = headingLevel === null ? 'p' : headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className={['payment-card', muted ? 'payment-card-muted' : null, compact ? 'payment-card-compact' : null].filter(Boolean).join(' ')}>
      <div className="payment-card-top">
        <Heading id={titleId} className="payment-card-title">
          {title}
        </Heading>
        {status ? <span className="payment-card-status">{status}</span> : null}
      </div>
      <p className="payment-card-kind">{kind}</p>
      {balance ? <p className="payment-card-balance">{balance}</p> : null}
      <div className="payment-card-bottom">
        {number ? <span className="payment-card-number">{number}</span> : null}
        {expiry ? <span className="payment-card-expiry">{expiry}</span> : null}
        {brand ? <span className="payment-card-brand">{brand}</span> : null}
      </div>
    </div>
  );
}
