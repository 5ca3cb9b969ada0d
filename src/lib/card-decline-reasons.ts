/**
 * Why the issuer declined a card payment, in words (api/cards.ts DECLINE_REASONS). The platform
 * sends the reason as a code (a card payment's row in history carries it as its note, a card's
 * payment list as declineReason); the app says it in the customer's language. Shared by history
 * and the cards area.
 */
import { useLingui } from '@lingui/react/macro';
import { DECLINE_REASONS, type DeclineReason } from '../../api/cards.ts';

export function useDeclineReasons(): Record<DeclineReason, string> {
  const { t } = useLingui();
  return {
    CARD_NOT_ACTIVE: t`The card is not active`,
    CARD_PAUSED: t`The card is paused`,
    CARD_EXPIRED: t`The card has expired`,
    INSUFFICIENT_FUNDS: t`Not enough money`,
    PAYMENT_LIMIT: t`Over the limit for one payment`,
    DAILY_LIMIT: t`Over the daily limit`,
    COUNTRY_BLOCKED: t`Payments in this country are blocked`,
    MERCHANT_CATEGORY_BLOCKED: t`Payments to this kind of shop are blocked`,
    CURRENCY_NOT_SUPPORTED: t`The currency is not supported`,
    WRONG_CARD_DATA: t`Wrong card details`,
  };
}

const isDeclineReason = (text: string): text is DeclineReason => (DECLINE_REASONS as readonly string[]).includes(text);

/**
 * A history row's note as shown: a declined card payment's reason in words, a revenue split's row
 * (api/history.ts contractId) named with its contract, any other note as written.
 */
export function useHistoryNote(): (row: { kind: string; note: string | null; direction?: 'in' | 'out' | null; counterparty?: string | null; contractId?: number | undefined }) => string | null {
  const { t } = useLingui();
  const reasons = useDeclineReasons();
  return (row) => {
    if (row.contractId !== undefined) {
      const counterparty = row.counterparty ?? '';
      const contractId = row.contractId;
      return row.direction === 'out' ? t`Revenue split to ${counterparty} — contract #${contractId}` : t`Revenue split from ${counterparty} — contract #${contractId}`;
    }
    return row.kind === 'authorization' && row.note && isDeclineReason(row.note) ? reasons[row.note] : row.note;
  };
}
