/** Balance inquiry (document 2 §3): the accounts of the customer the call acts for. */
import { and, asc, eq } from 'drizzle-orm';
import type { accountMethods } from '../../../api/accounts.ts';
import { MethodFailure, type HandlerTable } from '../method-types.ts';
import { accounts } from './accounts.tables.ts';
import { toWireAccount } from './accounts.wire.ts';

export const accountHandlers: HandlerTable<typeof accountMethods> = {
  async balanceInquiry(_input, ctx) {
    if (ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
    // Only customer accounts: the provider's capital/fee/fx accounts are bookkeeping (ledger.ts).
    const rows = await ctx.db
      .select()
      .from(accounts)
      .where(and(eq(accounts.customerId, ctx.customerId), eq(accounts.purpose, 'customer')))
      .orderBy(asc(accounts.accountId));
    return {
      accounts: {
        account: rows.map(toWireAccount),
      },
    };
  },
};
