/**
 * The money-movement permission flags of document 2 §6, enforced on every money call.
 *
 * A user acting for their own customer has users.money_permissions; acting for a company, the
 * customer_access row's money_permissions, and only with access rights that may move money
 * (2 full, 3 initiate, 4 confirmed: 1 read and 5 uploading may not). Every flag is false unless
 * stored true. Administrators acting for a customer get no money rights from being admins.
 */
import { sql, type SQL } from 'drizzle-orm';
import { ALL_PERMISSION_FLAGS, PERMISSION_FLAGS, type MoneyPermissions, type PermissionFlag } from '../../../api/transfers.ts';
import { executeNamed } from '../../db/prepared.ts';
import { MethodFailure, type MethodContext } from '../method-types.ts';

/**
 * The money flags a new customer holds from registration (a personal customer's user; a company's
 * owner; every user of a company, on their access row, which only rights 2, 3 and 4 can use).
 * Not shown in the spec: the provider grants the rest (payouts to banks and cards, mass and global
 * payments). Decided: moving money between one's own accounts, paying another user of the platform
 * and receiving money from outside are what a newly registered customer can do at once; the
 * verification rules and limits still apply to each payment.
 */
export const NEW_CUSTOMER_MONEY_FLAGS: readonly PermissionFlag[] = ['topLevel.sendMoneyUser', 'own.betweenAccounts', 'others.p2p', 'funding.digital'];

/** NEW_CUSTOMER_MONEY_FLAGS as stored (users.money_permissions, customer_access.money_permissions). */
export function newCustomerMoneyPermissions(): Record<string, boolean> {
  return Object.fromEntries(NEW_CUSTOMER_MONEY_FLAGS.map((flag) => [flag, true]));
}

/** Access rights that may move a company's money. */
const MONEY_RIGHTS: readonly number[] = [2, 3, 4];

export const PermissionMessages = {
  signIn: 'Sign-in required',
  notAllowed: 'You are not allowed to make this kind of transfer',
} as const;

/**
 * The stored flags (jsonb, null when none) the user holds for the acting customer, as one scalar
 * subquery: heldFlags runs it alone, a transfer request reads it with the rest of its context.
 */
export function storedFlagsSql(userId: number, customerId: number): SQL {
  return sql`(select case when u.customer_id = ${customerId}::integer then u.money_permissions
      else (select ca.money_permissions from customer_access ca
            where ca.user_id = u.id and ca.customer_id = ${customerId}::integer
              and ca.access_rights in (${sql.join(MONEY_RIGHTS.map((r) => sql.raw(String(r))), sql`, `)})
            limit 1) end
    from users u where u.id = ${userId}::integer)`;
}

/** The flat flags set in a stored flags object. */
export function flagsFrom(stored: Record<string, boolean> | null | undefined): ReadonlySet<PermissionFlag> {
  return new Set(ALL_PERMISSION_FLAGS.filter((flag) => stored?.[flag] === true));
}

/** The flat flags (`own.betweenAccounts`...) the caller holds for the acting customer. */
export async function heldFlags(ctx: MethodContext): Promise<ReadonlySet<PermissionFlag>> {
  const caller = ctx.caller;
  if (!caller || ctx.customerId === null) return new Set();
  const result = (await executeNamed(ctx.db, sql`select ${storedFlagsSql(caller.userId, ctx.customerId)} as flags`)) as { rows: { flags: Record<string, boolean> | null }[] };
  return flagsFrom(result.rows[0]?.flags);
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
  checkFlags(await heldFlags(ctx), needed);
}

/** Refuses (13) unless every flag needed is held. */
export function checkFlags(held: ReadonlySet<PermissionFlag>, needed: readonly PermissionFlag[]): void {
  if (!needed.every((flag) => held.has(flag))) throw new MethodFailure('13', PermissionMessages.notAllowed);
}

/**
 * The flags each operation needs (p2p: the top-level send flag and the p2p transfer flag; a payout
 * over a rail: its "to others" flag, a card payout's being `card`).
 */
export const OPERATION_FLAGS = {
  betweenAccounts: ['own.betweenAccounts'],
  p2p: ['topLevel.sendMoneyUser', 'others.p2p'],
  wallet: ['funding.digital'],
  wire: ['others.wire'],
  eft: ['others.eft'],
  oct: ['others.card'],
  digital: ['others.digital'],
  instant: ['others.instant'],
  interac: ['others.interac'],
} as const satisfies Record<string, readonly PermissionFlag[]>;

/** The flags of each kind of mass batch (document 2 §6 "Mass transfers"; p2p also the top-level send flag). */
export const MASS_OPERATION_FLAGS = {
  p2p: ['topLevel.sendMoneyUser', 'mass.p2p'],
  wire: ['mass.wire'],
  eft: ['mass.eft'],
  oct: ['mass.card'],
  digital: ['mass.digital'],
} as const satisfies Record<string, readonly PermissionFlag[]>;

/** The flags of a global-pay batch (document 2 §6): from a file (mass.global) or of one payment (others.global). */
export const GLOBAL_PAY_FLAGS = { file: ['mass.global'], p2p: ['others.global'] } as const satisfies Record<string, readonly PermissionFlag[]>;
