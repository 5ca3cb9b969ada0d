/**
 * The cards on the home page (issue 16 item 3): each non-closed card as its face, opening its page,
 * and a way to all cards, or to get one when there is none. The home route composes it beside the
 * home feature's accounts (features never import each other), which leave the card accounts out.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { cardsOfKind } from './card-routing.ts';
import { CardFace, productOf } from './cards-parts.tsx';
import { AddCardLink } from './cards-view.tsx';
import { accountsQuery, cardProductsQuery } from './queries.ts';
import './cards.css';

export function CardsSummary({ actingCustomerId }: { actingCustomerId: number | null }) {
  const { t } = useLingui();
  const accounts = useQuery(accountsQuery(actingCustomerId));
  const cards = accounts.data ? [...cardsOfKind(accounts.data, 'physical'), ...cardsOfKind(accounts.data, 'virtual')] : [];
  // the products give the cards' brands: not asked for when there is no card to draw
  const products = useQuery({ ...cardProductsQuery(actingCustomerId), enabled: cards.length > 0 });
  // the accounts section above says when the accounts could not be loaded
  if (!accounts.data) return null;
  return (
    <section aria-labelledby="cards-summary-heading" className="card home-cards">
      <div className="card-header">
        <h2 id="cards-summary-heading" className="card-title">
          {t`Cards`}
        </h2>
        {cards.length > 0 ? <Link to="/cards">{t`All cards`}</Link> : null}
      </div>
      {cards.length === 0 ? (
        <>
          <p className="cards-note">{t`Pay in shops and online with a card of your own.`}</p>
          <AddCardLink primary />
        </>
      ) : (
        <ul className="payment-cards" aria-label={t`Your cards`}>
          {cards.map((card) => (
            <li key={card.accountId}>
              <Link to="/cards/$accountId" params={{ accountId: String(card.accountId) }}>
                <CardFace card={card} product={productOf(card, products.data)} compact />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
