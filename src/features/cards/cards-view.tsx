/**
 * /cards and its lists /cards/physical and /cards/virtual (document 2 §2, issue 16 item 3): the
 * customer's cards of one kind as card faces (name, kind, balance where the status allows it,
 * expiry, brand, status), the two kinds as tabs (src/ui/tabs.tsx: each tab is a page of its own,
 * so choosing one navigates), and "Add a card". /cards itself shows only when the customer has no
 * card (the routes send it to a list otherwise, card-routing.ts): an empty state that offers one.
 * Canceled cards stay listed, drawn muted with their status, so their history can still be read.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import type { Account } from '../../../api/accounts.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { CardIcon, PlusIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { cardsOfKind, type CardListKind } from './card-routing.ts';
import { CardFace, productOf } from './cards-parts.tsx';
import { accountsQuery, cardProductsQuery } from './queries.ts';
import './cards.css';

export interface CardsPageProps {
  actingCustomerId: number | null;
  /** the list shown; null on /cards (no card yet) */
  kind: CardListKind | null;
  /** the person chose the other tab */
  onKind(kind: CardListKind): void;
}

/** /add-card: the application pages (src/routes/_guarded/_main/add-card.tsx). */
export function AddCardLink({ primary = false }: { primary?: boolean }) {
  const { t } = useLingui();
  return (
    <Link to="/add-card" className={`btn ${primary ? 'btn-primary' : 'btn-secondary'}`}>
      <PlusIcon />
      {t`Add a card`}
    </Link>
  );
}

export function CardsPage({ actingCustomerId, kind, onKind }: CardsPageProps) {
  const { t } = useLingui();
  const accounts = useQuery(accountsQuery(actingCustomerId));
  const products = useQuery(cardProductsQuery(actingCustomerId));

  let body;
  if (accounts.isPending) body = <Spinner label={t`Loading your cards`} />;
  else if (accounts.isError)
    body = (
      <Alert tone="error" title={t`Your cards could not be loaded`}>
        <p>{accounts.error instanceof MethodCallError ? describeFailure(accounts.error.failure) : t`Unknown error`}</p>
        <Button variant="secondary" onClick={() => void accounts.refetch()}>
          {t`Try again`}
        </Button>
      </Alert>
    );
  else if (kind === null)
    body = (
      <EmptyState
        icon={CardIcon}
        title={t`You have no card yet`}
        text={t`Get a card to pay in shops and online: a plastic card sent to your address, or a virtual card you can use at once.`}
        action={
          <Link to="/add-card" className="btn btn-primary">
            <PlusIcon />
            {t`Get a card`}
          </Link>
        }
      />
    );
  else
    body = (
      <Tabs
        label={t`Kinds of card`}
        selected={kind}
        onSelect={(id) => onKind(id as CardListKind)}
        tabs={[
          { id: 'physical', label: t`Physical cards`, content: <CardList cards={cardsOfKind(accounts.data, 'physical')} kind="physical" products={products.data} /> },
          { id: 'virtual', label: t`Virtual cards`, content: <CardList cards={cardsOfKind(accounts.data, 'virtual')} kind="virtual" products={products.data} /> },
        ]}
      />
    );

  return (
    <div className="cards-page">
      <div className="cards-heading-row">
        <StepHeading>{t`Cards`}</StepHeading>
        {kind !== null ? <AddCardLink /> : null}
      </div>
      {body}
    </div>
  );
}

function CardList({ cards, kind, products }: { cards: readonly Account[]; kind: CardListKind; products: Parameters<typeof productOf>[1] }) {
  const { t } = useLingui();
  if (cards.length === 0) {
    return (
      <EmptyState
        icon={CardIcon}
        headingLevel={2}
        title={kind === 'physical' ? t`No physical card` : t`No virtual card`}
        text={kind === 'physical' ? t`A physical card is made and sent to your address.` : t`A virtual card can be used online at once.`}
        action={<AddCardLink primary />}
      />
    );
  }
  return (
    <ul className="payment-cards" aria-label={kind === 'physical' ? t`Your physical cards` : t`Your virtual cards`}>
      {cards.map((card) => (
        <li key={card.accountId}>
          {/* the link's name is the whole face: name, kind, balance, expiry and status */}
          <Link to="/cards/$accountId" params={{ accountId: String(card.accountId) }}>
            <CardFace card={card} product={productOf(card, products)} />
          </Link>
        </li>
      ))}
    </ul>
  );
}
