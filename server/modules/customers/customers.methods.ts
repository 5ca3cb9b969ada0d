/** Named methods of customer info, access info, terms and settings (document 1 §3, §6). */
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { customerMethods } from '../../../api/customer.ts';
import type { Customer, CustomerAccess } from '../../../api/customer.ts';
import type { Db } from '../../db/types.ts';
import { prepared } from '../../db/prepared.ts';
import { MethodFailure, type Caller, type HandlerTable, type MethodContext } from '../method-types.ts';
import { customerAccess, customers, termsAcceptances, users } from './customers.tables.ts';
import { currentTerms, pendingRequiredTermsQuery, pendingTerms } from './terms.service.ts';
import { VfCode, vf } from '../../../api/errors.ts';

function requireCaller(ctx: MethodContext): Caller {
  // The endpoint answers AU before a customer method runs without a caller; this is a guard.
  if (!ctx.caller) throw new MethodFailure('AU', 'Sign-in required');
  return ctx.caller;
}

type CustomerRow = typeof customers.$inferSelect;

export function displayName(c: Pick<CustomerRow, 'customerType' | 'businessName' | 'firstName' | 'lastName'>): string {
  if (c.customerType === 'business' && c.businessName) return c.businessName;
  return `${c.firstName} ${c.lastName}`.trim();
}

async function loadUser(db: Db, userId: number) {
  const [row] = await db
    .select({ user: users, customer: customers })
    .from(users)
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(eq(users.id, userId));
  if (!row) throw new MethodFailure('AU', 'Unknown user');
  return row;
}

/** The login of a company: the e-mail of the user whose own customer it is (its owner). */
async function usernamesOf(db: Db, customerIds: number[]): Promise<Map<number, string>> {
  if (customerIds.length === 0) return new Map();
  const rows = await db
    .select({ customerId: users.customerId, email: users.email })
    .from(users)
    .where(inArray(users.customerId, customerIds))
    .orderBy(users.id);
  const map = new Map<number, string>();
  for (const r of rows) if (!map.has(r.customerId)) map.set(r.customerId, r.email);
  return map;
}

export const customerHandlers: HandlerTable<typeof customerMethods> = {
  async getCustomerInfo(_input, ctx) {
    const caller = requireCaller(ctx);
    // The hottest read of the app (every screen after sign-in): one statement answers the user,
    // the customer, whether related accounts exist and whether a required term is pending.
    const [row] = await prepared(ctx.db, 'get_customer_info', (db) =>
      db
        .select({
          user: users,
          customer: customers,
          hasRelated: sql<boolean>`exists (select 1 from ${customerAccess} where ${customerAccess.userId} = ${users.id} and ${customerAccess.accessRights} > 0)`,
          termsPending: sql<boolean>`exists (${pendingRequiredTermsQuery(sql`${customers.id}`)})`,
        })
        .from(users)
        .innerJoin(customers, eq(customers.id, users.customerId))
        .where(eq(users.id, sql.placeholder('userId')))
        .prepare('get_customer_info'),
    ).execute({ userId: caller.userId });
    if (!row) throw new MethodFailure('AU', 'Unknown user');
    const { user, customer } = row;
    if (row.termsPending) {
      throw new MethodFailure('TE', 'Terms must be accepted', undefined, await pendingTerms(ctx.db, customer.id, true));
    }
    const info: Customer = {
      customerType: customer.customerType,
      userId: user.id,
      customerId: customer.id,
      login: user.email,
      firstName: customer.firstName,
      lastName: customer.lastName,
      businessName: customer.businessName,
      transactionApproveMode: customer.transactionApproveMode,
      login2faMode: user.login2faMode,
      isAdmin: user.isAdmin,
      isHaveRelatedAccounts: row.hasRelated,
      useOldWeb: false,
      oldWebUrl: null,
      birthDay: customer.birthDay,
      customerCreationDate: customer.createdAt.toISOString(),
      residenceCountryCode: customer.residenceCountryCode,
      taxId: customer.taxId,
      permissions: user.permissions,
      verified: customer.verified,
      limited: customer.limited,
      dueDiligenceLevel: customer.dueDiligenceLevel,
      isNeedPersonalInfoUpdate: customer.isNeedPersonalInfoUpdate,
      isNeedKyc: customer.isNeedKyc,
      isTaxSectionActionRequired: customer.isTaxSectionActionRequired,
      twoStepVerificationMode: customer.twoStepVerificationMode,
      language: customer.language,
      userType: user.userType as 1 | 2 | 3 | 4,
    };
    return { customer: info };
  },

  async userAccessList(_input, ctx) {
    const caller = requireCaller(ctx);
    const { customer: own } = await loadUser(ctx.db, caller.userId);
    const rows = await ctx.db
      .select({ access: customerAccess, company: customers })
      .from(customerAccess)
      .innerJoin(customers, eq(customers.id, customerAccess.customerId))
      .where(and(eq(customerAccess.userId, caller.userId), gt(customerAccess.accessRights, 0)))
      .orderBy(customerAccess.id);
    const usernames = await usernamesOf(
      ctx.db,
      rows.map((r) => r.company.id),
    );
    const customerAccesses: CustomerAccess[] = rows.map(({ access, company }) => ({
      id: access.id,
      customerId: company.id,
      customerName: displayName(company),
      customerUsername: usernames.get(company.id) ?? '',
      employeeFirstName: own.firstName,
      employeeLastName: own.lastName,
      accessRights: access.accessRights as CustomerAccess['accessRights'],
    }));
    return { customerAccesses };
  },

  async userAccessInfoGet(input, ctx) {
    const caller = requireCaller(ctx);
    const { customer: own } = await loadUser(ctx.db, caller.userId);
    const [row] = await ctx.db
      .select({ access: customerAccess, company: customers })
      .from(customerAccess)
      .innerJoin(customers, eq(customers.id, customerAccess.customerId))
      .where(and(eq(customerAccess.userId, caller.userId), eq(customerAccess.customerId, input.customerId), gt(customerAccess.accessRights, 0)));
    if (!row) throw new MethodFailure('ENOA', 'No access to this customer');
    const usernames = await usernamesOf(ctx.db, [row.company.id]);
    return {
      accessInfo: {
        id: row.access.id,
        permissions: row.access.permissions,
        accessRights: row.access.accessRights as CustomerAccess['accessRights'],
        businessRepresentativePositionIds: row.access.positionIds,
        accessList: { balanceInfo: row.access.balanceInfo },
        isNeedKyc: row.company.isNeedKyc,
        taxResidencySelfCertificationDocumentStatus: row.access.taxSelfCertificationStatus,
        employeeFirstName: own.firstName,
        employeeLastName: own.lastName,
        customerUsername: usernames.get(row.company.id) ?? '',
        customerName: displayName(row.company),
      },
    };
  },

  /** The current terms the caller's own customer has not accepted yet (what the terms screen shows). */
  async termsList(_input, ctx) {
    const caller = requireCaller(ctx);
    return { terms: await pendingTerms(ctx.db, caller.customerId, false) };
  },

  async termsAccept(input, ctx) {
    const caller = requireCaller(ctx);
    const current = new Map((await currentTerms(ctx.db)).map((t) => [t.id, t.version]));
    const errors = input.terms.flatMap((t, i) =>
      current.get(t.id) === t.version ? [] : [vf(`terms.${i}`, VfCode.termNotCurrent)],
    );
    if (errors.length > 0) throw new MethodFailure('TA1', 'Unknown term or outdated version', errors);
    await ctx.db
      .insert(termsAcceptances)
      .values(input.terms.map((t) => ({ customerId: caller.customerId, termId: t.id, version: t.version, userId: caller.userId })))
      .onConflictDoNothing();
    ctx.audit({ terms: input.terms.map((t) => ({ id: t.id, version: t.version })) });
    return {};
  },

  async customerLanguageUpdate(input, ctx) {
    const caller = requireCaller(ctx);
    await ctx.db.update(customers).set({ language: input.language }).where(eq(customers.id, caller.customerId));
    ctx.audit({ language: input.language });
    return {};
  },
};
