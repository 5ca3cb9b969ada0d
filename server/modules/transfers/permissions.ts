/**
 * The money-movement permission flags of document 2 §6, enforced on every money call.
 *
 * A user acting for their own customer has users.money_permissions; acting for a company, the
 * customer_access row's money_permissions, and only with access rights that may move money
 * (2 full, 3 initiate, 4 confirmed: 1 read and 5 uploading may not). Every flag is false unless
 * stored true. Administrators acting for a customer get no money rights from being admins.
 */
import { and, eq } from 'drizzle-orm';
import { ALL_PERMISSION_FLAGS, PERMISSION_FLAGS, type MoneyPermissions, type PermissionFlag } from '../../../api/transfers.ts';
import { customerAccess, users } from '../customers/customers.tables.ts';
import { MethodFailure, type MethodContext } from '../method-types.ts';

/** Access rights that may move a company's money. */
const MONEY_RIGHTS: ReadonlySet<number> = new Set([2, 3, 4]);

export const PermissionMessages = {
  signIn: 'Sign-in required',
  notAllowed: 'You are not allowed to make this kind of transfer',
} as const;

/** The flat flags (`own.betweenAccounts`...) the caller holds for the acting customer. */
export async function heldFlags(ctx: MethodContext): Promise<ReadonlySet<PermissionFlag>> {
  const caller = ctx.caller;
  if (!caller || ctx.customerId === null) return new Set();
  let stored: Record<string, boolean>;
  if (ctx.customerId === caller.customerId) {
    const [row] = await ctx.db.select({ flags: users.moneyPermissions }).from(users).where(eq(users.id, caller.userId));
    stored = row?.flags ?? {};
  } else {
    const [row] = await ctx.db
      .select({ flags: customerAccess.moneyPermissions, rights: customerAccess.accessRights })
      .from(customerAccess)
      .where(and(eq(customerAccess.userId, caller.userId), eq(customerAccess.customerId, ctx.customerId)));
    stored = row && MONEY_RIGHTS.has(row.rights) ? row.flags : {};
  }
  return new Set(ALL_PERMISSION_FLAGS.filter((flag) => stored[flag] === true));
}

/** The nested shape of the wire (moneyPermissions): every flag present, false unless held. */
export function nestFlags(held: ReadonlySet<PermissionFlag>): MoneyPermissions {
  const out: Record<string, Record<string, boolean>> = {};
  for (const [group, names] of Object.entries(PERMISSION_FLAGS)) {
    out[group] = Object.fromEntries(names.map((name) => [name, held.has(`${group}.${name}` as PermissionFlag)]));
  }
  return out as MoneyPermissions;
}

/** Refuses (13) unless the caller holds every flag named. */
export async function requireFlags(ctx: MethodContext, ...needed: PermissionFlag[]): Promise<void> {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', PermissionMessages.signIn);
  const held = await heldFlags(ctx);
  if (!needed.every((flag) => held.has(flag))) throw new MethodFailure('13', PermissionMessages.notAllowed);
}

/** The flags each operation needs (p2p: the top-level send flag and the p2p transfer flag). */
export const OPERATION_FLAGS = {
  betweenAccounts: ['own.betweenAccounts'],
  p2p: ['topLevel.sendMoneyUser', 'others.p2p'],
  wallet: ['funding.digital'],
} as const satisfies Record<string, readonly PermissionFlag[]>;
