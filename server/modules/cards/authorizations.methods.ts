/**
 * The two authorisation lists (api/cards.ts, document 2 §7 and §9: pages of 10, newest first).
 *
 * - debitcardAuthorizationListGet: the authorisations of the debit cards that draw on a settlement
 *   account (every status: authorized, cleared, reversed, declined). Document 2 §6: "only
 *   settlement accounts show debit card authorizations"; an own account no debit card draws on is
 *   not an error, it simply has none: the answer is an empty list (total 0), so a screen may ask
 *   for any of the customer's accounts without first working out which ones are settlement accounts.
 * - currentAccountAuthorizationListGet: the authorisations holding money of an account now (status
 *   authorized): its card payments not yet cleared nor reversed.
 *
 * The account must be the acting customer's own (purpose customer): ENOA otherwise, the same answer
 * for an unknown id as for another customer's, so ids teach nothing.
 */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { AUTHORIZATION_PAGE_SIZE, type Authorization, type cardMethods, type DeclineReason } from '../../../api/cards.ts';
import type { Db } from '../../db/types.ts';
import { accounts } from '../accounts/accounts.tables.ts';
import { minorToDecimal } from '../accounts/money.ts';
import { MethodFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { cardAuthorizations, cards } from './cards.tables.ts';

export const AuthorizationMessages = {
  noAccess: 'No such account',
  signIn: 'Sign-in required',
} as const;

type AuthorizationRow = typeof cardAuthorizations.$inferSelect & { last4: string | null };

/** A stored authorisation on the wire (api/cards.ts AuthorizationSchema). */
export function toWireAuthorization(row: AuthorizationRow): Authorization {
  return {
    id: row.id,
    cardAccountId: row.cardAccountId,
    accountId: row.accountId,
    cardLast4: row.last4 ?? '',
    merchantName: row.merchantName,
    merchantCategoryCode: row.merchantCategoryCode,
    merchantCountryCode: row.merchantCountryCode,
    amount: minorToDecimal(row.amountMinor, row.currency),
    currencyCode: row.currency,
    status: row.status,
    declineReason: row.declineReason as DeclineReason | null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The acting customer's own account, or ENOA. */
async function ownAccountId(ctx: MethodContext, accountId: number): Promise<number> {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', AuthorizationMessages.signIn);
  const [account] = await ctx.db.select({ customerId: accounts.customerId, purpose: accounts.purpose }).from(accounts).where(eq(accounts.accountId, accountId));
  if (!account || account.customerId !== ctx.customerId || account.purpose !== 'customer') throw new MethodFailure('ENOA', AuthorizationMessages.noAccess);
  return accountId;
}

/** One page of the authorisations matching `where`, newest first (id breaks ties: a total order), and how many match. */
async function pageOf(db: Db, where: SQL, page: { pageNumber?: number | undefined; pageSize?: number | undefined }) {
  const pageSize = page.pageSize ?? AUTHORIZATION_PAGE_SIZE;
  const pageNumber = page.pageNumber ?? 1;
  const [rows, [total]] = await Promise.all([
    db
      .select({ a: cardAuthorizations, last4: cards.last4 })
      .from(cardAuthorizations)
      .leftJoin(cards, eq(cards.accountId, cardAuthorizations.cardAccountId))
      .where(where)
      .orderBy(desc(cardAuthorizations.createdAt), desc(cardAuthorizations.id))
      .limit(pageSize)
      .offset((pageNumber - 1) * pageSize),
    db.select({ n: count() }).from(cardAuthorizations).where(where),
  ]);
  return { authorizations: rows.map((r) => toWireAuthorization({ ...r.a, last4: r.last4 })), total: Number(total?.n ?? 0) };
}

export const authorizationHandlers: HandlerTable<Pick<typeof cardMethods, 'debitcardAuthorizationListGet' | 'currentAccountAuthorizationListGet'>> = {
  async debitcardAuthorizationListGet(input, ctx) {
    const accountId = await ownAccountId(ctx, input.accountId);
    // The debit cards drawing on it (any status: a canceled card's past payments stay listed).
    const where = and(
      eq(cardAuthorizations.accountId, accountId),
      sql`${cardAuthorizations.cardAccountId} in (select account_id from accounts where sub_type = 'DEBIT' and settlement_account_id = ${accountId})`,
    )!;
    return pageOf(ctx.db, where, input);
  },

  async currentAccountAuthorizationListGet(input, ctx) {
    const accountId = await ownAccountId(ctx, input.accountId);
    return pageOf(ctx.db, and(eq(cardAuthorizations.accountId, accountId), eq(cardAuthorizations.status, 'authorized'))!, input);
  },
};
