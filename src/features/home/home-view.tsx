/**
 * Home: the greeting with the customer's name (getCustomerInfo), the primary actions as buttons
 * (send, convert between one's accounts, the history; opening an account and adding money join as
 * their screens come), the balances in one place (accounts.account: each account once; a total
 * per currency only where a currency has several open accounts, since a lone account's total would
 * repeat its balance), in the UI language's number format; the balance over time
 * (balanceHistory); and the recent activity, which the route passes in (a view of the history
 * feature: features never import each other). Each part is a card of the design system.
 * Card accounts (types 2006-2135, api/cards.ts isCardType) are not listed among the accounts nor
 * in their totals: the route passes the cards' own summary (the cards feature); an account a debit
 * card draws on links to that card's page, where its card payments are listed.
 */
import { useEffect, useId, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Plural, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { ACCOUNT_STATUS_CLOSED, AccountType, type Account } from '../../../api/accounts.ts';
import { isCardType } from '../../../api/cards.ts';
import { formatMoney } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { rememberFirstHeading } from '../../lib/early-read-plan.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { HistoryIcon, ExchangeIcon, PlusIcon, SendIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { BalanceChartSection } from './balance-chart.tsx';
import { customerDisplayName } from './display-name.ts';
import { accountsQuery, customerInfoQuery } from './queries.ts';
import { balancesByCurrency } from './totals.ts';
import './home.css';

function errorText(error: unknown, fallback: string): string {
  return error instanceof MethodCallError ? describeFailure(error.failure) : fallback;
}

export interface HomeViewProps {
  actingCustomerId: number | null;
  /** the recent activity section (the route composes it) */
  activity?: ReactNode;
  /** the cards' summary (the route composes it), shown after the accounts */
  cards?: ReactNode;
}

export function HomeView({ actingCustomerId, activity, cards }: HomeViewProps) {
  const { t } = useLingui();
  const customer = useQuery(customerInfoQuery(actingCustomerId));
  const accounts = useQuery(accountsQuery(actingCustomerId));

  return (
    <>
      {customer.isPending ? (
        <Spinner label={t`Loading your details`} />
      ) : customer.isError ? (
        <>
          <StepHeading>{t`Home`}</StepHeading>
          <Alert tone="error" title={t`Your details could not be loaded`}>
            <p>{errorText(customer.error, t`Unknown error`)}</p>
          </Alert>
        </>
      ) : (
        <Greeting name={customerDisplayName(customer.data)} actingCustomerId={actingCustomerId} />
      )}

      <nav aria-label={t`Move money`} className="btn-group home-actions">
        <Link to="/transfer/p2p" className="btn btn-primary">
          <SendIcon />
          {t`Send to a person`}
        </Link>
        <Link to="/transfer/account" className="btn btn-secondary">
          <ExchangeIcon />
          {t`Between your accounts`}
        </Link>
        <Link to="/accounts/open" className="btn btn-secondary"><PlusIcon />{t`Open an account`}</Link>
        <Link to="/history" className="btn btn-secondary">
          <HistoryIcon />
          {t`Transaction history`}
        </Link>
      </nav>

      <section aria-labelledby="accounts-heading" className="card home-card">
        <h2 id="accounts-heading" className="card-title">{t`Accounts`}</h2>
        {accounts.isPending ? (
          <Spinner label={t`Loading your accounts`} />
        ) : accounts.isError ? (
          <Alert tone="error" title={t`Your accounts could not be loaded`}>
            <p>{errorText(accounts.error, t`Unknown error`)}</p>
            <button type="button" className="btn btn-secondary" onClick={() => void accounts.refetch()}>
              {t`Try again`}
            </button>
          </Alert>
        ) : (
          <>
            <AccountList accounts={accounts.data.filter((a) => !isCardType(a.type))} cards={accounts.data.filter((a) => isCardType(a.type))} />
            <CurrencyTotals accounts={accounts.data.filter((a) => !isCardType(a.type))} />
          </>
        )}
      </section>

      {cards}

      <BalanceChartSection actingCustomerId={actingCustomerId} />
      {activity}
    </>
  );
}

function Greeting({ name, actingCustomerId }: { name: string; actingCustomerId: number | null }) {
  const { t } = useLingui();
  const text = t`Welcome, ${name}`;
  const id = useId();
  useEffect(() => {
    // The next load of /home in this tab draws this heading before the app has arrived
    // (src/early-start.ts, in the boot shell's main area): only where the app then draws it too,
    // first in the page's main area (the status banner, when shown, stands above it).
    const drawnFirst = document.getElementById(id)?.previousElementSibling === null;
    rememberFirstHeading('/home', actingCustomerId, drawnFirst ? text : null);
  }, [id, text, actingCustomerId]);
  return <StepHeading id={id}>{text}</StepHeading>;
}

/**
 * The total of the open accounts of each currency that has several (document 2 §3: status 11 is
 * closed); a currency with one open account has its balance on that account's card only.
 */
function CurrencyTotals({ accounts }: { accounts: readonly Account[] }) {
  const { t } = useLingui();
  const totals = balancesByCurrency(accounts).filter((total) => total.accounts > 1);
  if (totals.length === 0) return null;
  const lang = getUiLanguage();
  return (
    <ul className="totals" aria-label={t`Total per currency`}>
      {totals.map(({ currency, balance }) => {
        const amount = formatMoney(balance, currency, lang);
        return (
          <li key={currency} className="total-card">
            {t`${currency} total: ${amount}`}
          </li>
        );
      })}
    </ul>
  );
}

/** The account's debit card, when one draws on it (its card payments are on the card's page). */
const debitCardOf = (account: Account, cards: readonly Account[]) =>
  cards.find((c) => c.subType === 'DEBIT' && c.settlementAccountId === account.accountId && c.accountStatusId !== ACCOUNT_STATUS_CLOSED) ?? null;

function AccountList({ accounts, cards }: { accounts: readonly Account[]; cards: readonly Account[] }) {
  const { t, i18n } = useLingui();
  if (accounts.length === 0) return <p>{t`You have no accounts yet.`}</p>;
  const count = accounts.length;
  return (
    <>
      <p className="home-card-note">
        <Plural value={count} one="You have # account." other="You have # accounts." />
      </p>
      <ul className="accounts">
        {accounts.map((account) => (
          <li key={account.accountId} className="account-card" aria-labelledby={`account-${account.accountId}`}>
            <span className="account-currency" aria-hidden="true">
              {account.currency}
            </span>
            <h3 id={`account-${account.accountId}`} className="account-meta">
              {i18n._(accountTypeLabel(account))} · {account.currency}
            </h3>
            <p className="account-balance">{formatMoney(account.balance, account.currency, getUiLanguage())}</p>
            {account.pendingAmount !== '0' && !/^0(\.0+)?$/.test(account.pendingAmount) ? (
              <p className="account-meta">
                {t`Pending`}: {formatMoney(account.pendingAmount, account.currency, getUiLanguage())}
              </p>
            ) : null}
            {account.accountStatusId === ACCOUNT_STATUS_CLOSED ? <p className="account-meta">{t`Closed`}</p> : null}
            <DebitCardLink card={debitCardOf(account, cards)} />
          </li>
        ))}
      </ul>
    </>
  );
}

function DebitCardLink({ card }: { card: Account | null }) {
  const { t } = useLingui();
  if (!card) return null;
  return (
    <p className="account-meta">
      <Link to="/cards/$accountId" params={{ accountId: String(card.accountId) }}>
        {t`Debit card and card payments`}
      </Link>
    </p>
  );
}

function accountTypeLabel(account: Account): MessageDescriptor {
  switch (account.type) {
    case AccountType.payment:
    case AccountType.paymentVariant:
      return msg`Payment account`;
    case AccountType.prepayment:
      return msg`Prepayment account`;
    case AccountType.receiving:
      return msg`Receiving account`;
    default:
      return account.subType ? msg`Card account` : msg`Account`;
  }
}
