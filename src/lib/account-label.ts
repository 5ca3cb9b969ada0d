/** How an account is named wherever one is listed or chosen (transfer pickers, history, statements, cards, the address change's card warning). */
import { useLingui } from '@lingui/react/macro';
import { ACCOUNT_STATUS_CLOSED, type Account } from '../../api/accounts.ts';
import { isCardType } from '../../api/cards.ts';

/** "EUR account 1001" for selects (the account's number is what tells two EUR accounts apart). */
export function useAccountLabel(): (account: Pick<Account, 'accountId' | 'currency' | 'accountStatusId'> & Partial<Pick<Account, 'type' | 'cardAliasName' | 'cardLast4'>>) => string {
  const { t } = useLingui();
  return (account) => {
    const { currency, accountId } = account;
    // a card (issue 16) is named as a card: its name when it has one, and its last four digits
    if (account.type !== undefined && isCardType(account.type)) {
      const last4 = account.cardLast4 ?? null;
      const name = account.cardAliasName ?? null;
      if (last4 === null) return t`${currency} card ${accountId}`;
      return name ? t`${name} · ${currency} card •••• ${last4}` : t`${currency} card •••• ${last4}`;
    }
    return account.accountStatusId === ACCOUNT_STATUS_CLOSED ? t`${currency} account ${accountId} (closed)` : t`${currency} account ${accountId}`;
  };
}
