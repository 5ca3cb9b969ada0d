/**
 * Card payments through the ledger (issue 16 §2; api/cards.ts DECLINE_REASONS, AuthorizationSchema):
 * what the card scheme sends the issuer about a card — an authorisation, then its clearing or its
 * reversal — applied to the accounts. The issuer simulator's terminal (terminal.routes.ts) calls
 * these; a provider's issuer webhook would call the same.
 *
 * - authorize: the card is found by what the terminal sent (the issuer's findCard: the platform never
 *   sees the full number otherwise), then its cards row and account. The money is that of the paying
 *   account: the card itself (PREPAID) or its settlement account (DEBIT). Declined, in this order,
 *   with the first reason that applies (a row 'declined' with its reason, nothing held):
 *     WRONG_CARD_DATA (expiry or CVV do not match the issuer's), CARD_PAUSED, CARD_EXPIRED (status
 *     expired, or the card's expiry month is over), CARD_NOT_ACTIVE (any other status than active,
 *     or a debit card whose settlement account is gone or closed), CURRENCY_NOT_SUPPORTED (not the
 *     paying account's currency: there is no conversion of card payments in this version),
 *     COUNTRY_BLOCKED, MERCHANT_CATEGORY_BLOCKED (the product's lists), PAYMENT_LIMIT (above the
 *     product's per-payment limit), DAILY_LIMIT (today's, UTC, authorised and cleared payments of the
 *     card with this one above the per-day limit), INSUFFICIENT_FUNDS (more than the available
 *     balance: balance - held - floor).
 *   Approved: the amount is held on the paying account (ledger.ts placeHold) and the row is 'authorized'.
 *   A number that is no card of ours has no account to attach a row to: it is answered declined
 *   WRONG_CARD_DATA and nothing is written. The same networkRef again answers the first answer
 *   (whatever the repeat carries) and changes nothing.
 * - clear: an authorised payment is posted: one journal entry (kind card_clearing) from the paying
 *   account to the card scheme's settlement account of the currency (a provider account, purpose
 *   clearing, created on first use: card_scheme_accounts), releasing the whole hold. A clearing may
 *   be for less than was authorised (a partial shipment, a hotel's final bill): the rest is simply
 *   released and the row's amount becomes what was posted. Never for more (a tip above the
 *   authorisation would need a new authorisation). A second clearing changes nothing.
 * - reverse: an authorised payment is released (status reversed). A cleared or declined one is
 *   refused and nothing changes; a reversed one again answers as it is.
 *
 * Locks: the card's account and the paying account, in ascending id order (ledger.ts lockAccounts),
 * before anything is read that a decision depends on; every authorisation of one card takes the
 * paying account's lock, so the daily total and the available balance are never read stale.
 *
 * Dates come from the injected clock (createdAt, updatedAt, the daily limit, the expiry), so tests
 * and the demo clock agree.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { CardStatus, type DeclineReason } from '../../../api/cards.ts';
import { ACCOUNT_STATUS_CLOSED } from '../../../api/accounts.ts';
import type { Db, Tx } from '../../db/types.ts';
import { accounts } from '../accounts/accounts.tables.ts';
import { bookEntry, lockAccounts, LedgerError, placeHold, providerCustomerId, releaseHold, type LockedAccount } from '../accounts/ledger.ts';
import { decimalToMinor } from '../accounts/money.ts';
import { cardAuthorizations, cards, cardSchemeAccounts } from './cards.tables.ts';
import type { CardIssuer } from './issuer.ts';
import { cardProduct } from './products.ts';

export type AuthorizationRow = typeof cardAuthorizations.$inferSelect;
export type AuthorizationStatus = AuthorizationRow['status'];

export interface AuthorizeRequest {
  /** the scheme's id of this authorisation: a repeat answers the first answer */
  networkRef: string;
  cardNumber: string;
  expiryMonth: number;
  expiryYear: number;
  cvv?: string | undefined;
  /** decimal string of major units, in `currency` */
  amount: string;
  currency: string;
  merchantName: string;
  merchantCategoryCode: string;
  merchantCountryCode: string;
}

export interface AuthorizationAnswer {
  /** null only for a number that is no card of ours (nothing was written) */
  authorizationId: number | null;
  status: AuthorizationStatus;
  approved: boolean;
  declineReason: DeclineReason | null;
}

/** Why a clearing or reversal was not done (the answer then carries the authorisation as it is). */
export type RefusalReason = 'NOT_FOUND' | 'NOT_AUTHORIZED' | 'AMOUNT_ABOVE_AUTHORIZED' | 'AMOUNT_INVALID';

export type ChangeAnswer = { ok: true; authorization: AuthorizationRow } | { ok: false; reason: RefusalReason; authorization: AuthorizationRow | null };

export interface CardPayments {
  authorize(tx: Tx, request: AuthorizeRequest): Promise<AuthorizationAnswer>;
  clear(tx: Tx, request: { authorizationId?: number; networkRef?: string; amount?: string | undefined }): Promise<ChangeAnswer>;
  reverse(tx: Tx, request: { authorizationId?: number; networkRef?: string }): Promise<ChangeAnswer>;
}

/** The journal entry kind of a clearing, and its idempotency key (one clearing per authorisation). */
export const CARD_CLEARING_KIND = 'card_clearing';
export const clearingKeyOf = (authorizationId: number) => `card-clearing:${authorizationId}`;

/** The card scheme's settlement account of a currency, created on first use (concurrent first uses agree on one; rails/clearing.ts does the same for rails). */
export async function cardSchemeAccountId(db: Db | Tx, currency: string): Promise<number> {
  const find = async () => (await db.select({ id: cardSchemeAccounts.accountId }).from(cardSchemeAccounts).where(eq(cardSchemeAccounts.currency, currency)))[0]?.id;
  const existing = await find();
  if (existing !== undefined) return existing;
  const provider = await providerCustomerId(db);
  if (provider === null) throw new LedgerError('no provider customer: the platform is not seeded');
  const [account] = await db.insert(accounts).values({ type: 1001, currency, customerId: provider, purpose: 'clearing' }).returning({ id: accounts.accountId });
  const [mapped] = await db.insert(cardSchemeAccounts).values({ currency, accountId: account!.id }).onConflictDoNothing().returning({ id: cardSchemeAccounts.accountId });
  // another transaction mapped one first: ours stays an unused, empty provider account
  return mapped?.id ?? (await find())!;
}

const DAY_MS = 86_400_000;

/** A card is usable through the last day of its expiry month (UTC). */
export function cardExpired(expiry: { expiryMonth: number; expiryYear: number }, nowMs: number): boolean {
  return nowMs >= Date.UTC(expiry.expiryYear, expiry.expiryMonth, 1);
}

const answerOf = (row: AuthorizationRow): AuthorizationAnswer => ({
  authorizationId: row.id,
  status: row.status,
  approved: row.status !== 'declined',
  declineReason: row.declineReason as DeclineReason | null,
});

export function createCardPayments(options: { issuer: CardIssuer; now: () => number }): CardPayments {
  const { issuer, now } = options;

  async function byNetworkRef(tx: Tx, networkRef: string): Promise<AuthorizationRow | undefined> {
    return (await tx.select().from(cardAuthorizations).where(eq(cardAuthorizations.networkRef, networkRef)))[0];
  }

  /** The authorisation named by id or networkRef, locked after its paying account (the same order authorize locks in). */
  async function lockedAuthorization(tx: Tx, request: { authorizationId?: number | undefined; networkRef?: string | undefined }) {
    const where =
      request.authorizationId !== undefined
        ? eq(cardAuthorizations.id, request.authorizationId)
        : request.networkRef !== undefined
          ? eq(cardAuthorizations.networkRef, request.networkRef)
          : null;
    if (where === null) return null;
    const [found] = await tx.select({ accountId: cardAuthorizations.accountId }).from(cardAuthorizations).where(where);
    if (!found) return null;
    const locked = await lockAccounts(tx, [found.accountId]);
    const [row] = await tx.select().from(cardAuthorizations).where(where).for('update');
    return row ? { row, locked, paying: locked.get(row.accountId)! } : null;
  }

  return {
    async authorize(tx, request) {
      const repeat = await byNetworkRef(tx, request.networkRef);
      if (repeat) return answerOf(repeat);

      const found = await issuer.findCard(tx, { cardNumber: request.cardNumber, expiryMonth: request.expiryMonth, expiryYear: request.expiryYear, cvv: request.cvv });
      const [card] = found ? await tx.select().from(cards).where(eq(cards.issuerRef, found.issuerRef)) : [];
      if (!found || !card) return { authorizationId: null, status: 'declined', approved: false, declineReason: 'WRONG_CARD_DATA' };

      const [cardAccount] = await tx
        .select({ subType: accounts.subType, settlementAccountId: accounts.settlementAccountId })
        .from(accounts)
        .where(eq(accounts.accountId, card.accountId));
      const payingId = cardAccount?.subType === 'DEBIT' ? cardAccount.settlementAccountId : card.accountId;
      const locked = await lockAccounts(tx, payingId === null || payingId === undefined ? [card.accountId] : [card.accountId, payingId]);
      const cardRow = locked.get(card.accountId)!;
      const paying: LockedAccount | undefined = payingId === null || payingId === undefined ? undefined : locked.get(payingId);

      // A concurrent repeat of this networkRef waited for the same lock: answer what it did.
      const raced = await byNetworkRef(tx, request.networkRef);
      if (raced) return answerOf(raced);

      const nowMs = now();
      const product = cardProduct(cardRow.type);
      let amountMinor: bigint;
      try {
        amountMinor = decimalToMinor(request.amount, request.currency);
      } catch {
        throw new LedgerError('the amount is not one of its currency');
      }
      if (amountMinor <= 0n) throw new LedgerError('an authorisation is for a positive amount');

      const declineReason = await (async (): Promise<DeclineReason | null> => {
        if (!found.dataMatches) return 'WRONG_CARD_DATA';
        if (cardRow.status === CardStatus.paused) return 'CARD_PAUSED';
        if (cardRow.status === CardStatus.expired || cardExpired(card, nowMs)) return 'CARD_EXPIRED';
        if (cardRow.status !== CardStatus.active || !product || !paying || paying.status === ACCOUNT_STATUS_CLOSED) return 'CARD_NOT_ACTIVE';
        if (request.currency !== paying.currency) return 'CURRENCY_NOT_SUPPORTED';
        if (product.blockedCountries.includes(request.merchantCountryCode)) return 'COUNTRY_BLOCKED';
        if (product.blockedMerchantCategories.includes(request.merchantCategoryCode)) return 'MERCHANT_CATEGORY_BLOCKED';
        if (amountMinor > product.limits.perPaymentMinor) return 'PAYMENT_LIMIT';
        const dayStart = new Date(Math.floor(nowMs / DAY_MS) * DAY_MS);
        const [today] = await tx
          .select({ total: sql<string>`coalesce(sum(${cardAuthorizations.amountMinor}), 0)::text` })
          .from(cardAuthorizations)
          .where(
            and(
              eq(cardAuthorizations.cardAccountId, card.accountId),
              inArray(cardAuthorizations.status, ['authorized', 'cleared']),
              sql`${cardAuthorizations.createdAt} >= ${dayStart.toISOString()}::timestamptz`,
            ),
          );
        if (BigInt(today?.total ?? '0') + amountMinor > product.limits.perDayMinor) return 'DAILY_LIMIT';
        if (paying.balanceMinor - paying.pendingMinor - amountMinor < paying.balanceMinMinor) return 'INSUFFICIENT_FUNDS';
        return null;
      })();

      if (declineReason === null) await placeHold(tx, paying!, amountMinor);
      const at = new Date(nowMs);
      const [row] = await tx
        .insert(cardAuthorizations)
        .values({
          cardAccountId: card.accountId,
          accountId: paying?.accountId ?? card.accountId,
          currency: request.currency,
          amountMinor,
          merchantName: request.merchantName,
          merchantCategoryCode: request.merchantCategoryCode,
          merchantCountryCode: request.merchantCountryCode,
          status: declineReason === null ? 'authorized' : 'declined',
          declineReason,
          networkRef: request.networkRef,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      return answerOf(row!);
    },

    async clear(tx, request) {
      const found = await lockedAuthorization(tx, request);
      if (!found) return { ok: false, reason: 'NOT_FOUND', authorization: null };
      const { row, locked, paying } = found;
      if (row.status === 'cleared') return { ok: true, authorization: row };
      if (row.status !== 'authorized') return { ok: false, reason: 'NOT_AUTHORIZED', authorization: row };
      let amountMinor = row.amountMinor;
      if (request.amount !== undefined) {
        try {
          amountMinor = decimalToMinor(request.amount, row.currency);
        } catch {
          return { ok: false, reason: 'AMOUNT_INVALID', authorization: row };
        }
        if (amountMinor <= 0n) return { ok: false, reason: 'AMOUNT_INVALID', authorization: row };
        if (amountMinor > row.amountMinor) return { ok: false, reason: 'AMOUNT_ABOVE_AUTHORIZED', authorization: row };
      }
      const schemeId = await cardSchemeAccountId(tx, row.currency);
      const [last4] = await tx.select({ last4: cards.last4 }).from(cards).where(eq(cards.accountId, row.cardAccountId));
      const booked = await bookEntry(tx, {
        kind: CARD_CLEARING_KIND,
        idempotencyKey: clearingKeyOf(row.id),
        description: { authorizationId: row.id, cardAccountId: row.cardAccountId, cardLast4: last4?.last4 ?? null, merchantName: row.merchantName },
        legs: [
          { accountId: paying.accountId, amountMinor: -amountMinor },
          { accountId: schemeId, amountMinor },
        ],
        // the whole authorisation was held: a partial clearing releases the rest with it
        releaseHolds: [{ accountId: paying.accountId, amountMinor: row.amountMinor }],
        locked,
      });
      const [updated] = await tx
        .update(cardAuthorizations)
        .set({ status: 'cleared', entryId: booked.entryId, amountMinor, updatedAt: new Date(now()) })
        .where(eq(cardAuthorizations.id, row.id))
        .returning();
      return { ok: true, authorization: updated! };
    },

    async reverse(tx, request) {
      const found = await lockedAuthorization(tx, request);
      if (!found) return { ok: false, reason: 'NOT_FOUND', authorization: null };
      const { row, paying } = found;
      if (row.status === 'reversed') return { ok: true, authorization: row };
      if (row.status !== 'authorized') return { ok: false, reason: 'NOT_AUTHORIZED', authorization: row };
      await releaseHold(tx, paying, row.amountMinor);
      const [updated] = await tx
        .update(cardAuthorizations)
        .set({ status: 'reversed', updatedAt: new Date(now()) })
        .where(eq(cardAuthorizations.id, row.id))
        .returning();
      return { ok: true, authorization: updated! };
    },
  };
}
