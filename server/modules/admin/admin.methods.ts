/** Administrator reads: the customer overview. */
import { count, desc, eq } from 'drizzle-orm';
import type { adminMethods } from '../../../api/admin.ts';
import { customers } from '../customers/customers.tables.ts';
import { displayName } from '../customers/customers.methods.ts';
import type { HandlerTable } from '../method-types.ts';
import { recoveryAdminHandlers } from '../recovery/recovery.admin.ts';

export const adminHandlers: HandlerTable<typeof adminMethods> = {
  async adminCustomerList(input, ctx) {
    const { page, pageSize } = input;
    // The provider's own capital customer is bookkeeping, not a customer to administer.
    const notProvider = eq(customers.isProvider, false);
    const [total] = await ctx.db.select({ n: count() }).from(customers).where(notProvider);
    const rows = await ctx.db
      .select()
      .from(customers)
      .where(notProvider)
      .orderBy(desc(customers.createdAt), desc(customers.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    return {
      customers: rows.map((c) => ({
        customerId: c.id,
        name: displayName(c),
        customerType: c.customerType,
        verified: c.verified,
        limited: c.limited,
        customerCreationDate: c.createdAt.toISOString(),
      })),
      total: total?.n ?? 0,
      page,
      pageSize,
    };
  },
  ...recoveryAdminHandlers,
};
