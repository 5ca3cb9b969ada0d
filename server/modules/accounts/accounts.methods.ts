/** Balance inquiry (document 2 §3): the accounts of the customer the call acts for, a card's fields from its card row. */
import { and, asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { accountMethods } from '../../../api/accounts.ts';
import { MethodFailure, type HandlerTable } from '../method-types.ts';
import { cards } from '../cards/cards.tables.ts';
import { accounts } from './accounts.tables.ts';
import { toWireAccount } from './accounts.wire.ts';

/** The card that replaced a reissued one (its status is the wire's cardReissuedStatusId). */
const reissued = alias(accounts, 'reissued');

export const accountHandlers: HandlerTable<typeof accountMethods> = {
  async balanceInquiry(_input, ctx) {
    if (ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
    // Only customer accounts: the provider's capital/fee/fx accounts are bookkeeping (ledger.ts).
    const rows = await ctx.db
      .select({ account: accounts, card: cards, reissuedStatus: reissued.status })
      .from(accounts)
      .leftJoin(cards, eq(cards.accountId, accounts.accountId))
      .leftJoin(reissued, eq(reissued.accountId, cards.reissuedToAccountId))
      .where(and(eq(accounts.customerId, ctx.customerId), eq(accounts.purpose, 'customer')))
      .orderBy(asc(accounts.accountId));
    return {
      accounts: {
        account: rows.map((r) =>
          toWireAccount(
            r.account,
            r.card
              ? { isVirtual: r.card.isVirtual, aliasName: r.card.aliasName, expiryMonth: r.card.expiryMonth, expiryYear: r.card.expiryYear, reissuedStatusId: r.reissuedStatus ?? null, last4: r.card.last4 }
              : null,
          ),
        ),
      },
    };
  },
};
