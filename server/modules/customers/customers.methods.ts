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
import { TAX_DOCUMENT_TYPES, type PersonalCertification } from '../../../api/tax-certification.ts';
import { DocumentCategory } from '../../../api/verification.ts';
import { certificationStates, hasGap, statesOf as taxStatesOf } from '../tax/tax.service.ts';

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

/**
 * Start-page rule 7 (document 1 §3): a person's own certification has a certificate none or
 * rejected (before any answers: the tax residency self-certification is none). A company's own
 * login is decided by the business rule after the access info (its certification's tax residency
 * self-certification, userAccessInfoGet), so it reads false here.
 */
function taxSectionActionRequired(
  customerType: CustomerRow['customerType'],
  saved: { answers: PersonalCertification; updatedMs: number } | null,
  documents: readonly { id: number; documentTypeId: number; statusId: number; uploadedMs: number }[],
): boolean {
  if (customerType !== 'personal') return false;
  const docs = documents.map((d) => ({ id: d.id, documentTypeId: d.documentTypeId, statusId: d.statusId, uploaded: new Date(Number(d.uploadedMs)) }));
  const states = certificationStates('personal', saved ? { answers: saved.answers, updatedAt: new Date(Number(saved.updatedMs)) } : null, docs, new Date().toISOString().slice(0, 10));
  return hasGap(states.states);
}

/**
 * The access info's taxResidencySelfCertificationDocumentStatus (document 1 §3): the company's
 * certification's tax residency self-certification state (a person's own for a personal customer).
 * It is always required, so notRequired never occurs; a confirmed form has no expiry, so neither
 * do expiredSoon and expired: should they, they read validated and none.
 */
async function accessTaxStatus(db: Db, company: CustomerRow): Promise<'none' | 'pending' | 'validated' | 'rejected'> {
  const kind = company.customerType === 'business' ? 'business' : 'personal';
  const { states } = await taxStatesOf(db, { customerId: company.id, representativeId: null, kind }, new Date().toISOString().slice(0, 10));
  const s = states.taxResidencySelfCertificationDocumentStatus;
  return s === 'pending' || s === 'rejected' || s === 'none' ? s : s === 'expired' ? 'none' : 'validated';
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
          // The customer's own tax certification and its tax documents (server/modules/tax), in the same statement.
          taxSaved: sql<{ answers: PersonalCertification; updatedMs: number } | null>`(select json_build_object('answers', tc.answers, 'updatedMs', round(extract(epoch from tc.updated_at) * 1000)) from tax_certifications tc where tc.customer_id = ${customers.id} and tc.kind = 'personal' and tc.representative_id is null)`,
          taxDocuments: sql<{ id: number; documentTypeId: number; statusId: number; uploadedMs: number }[]>`(select coalesce(json_agg(json_build_object('id', d.id, 'documentTypeId', d.document_type_id, 'statusId', d.status_id, 'uploadedMs', round(extract(epoch from d.uploaded) * 1000)) order by d.uploaded, d.id), '[]'::json) from customer_documents d where d.customer_id = ${customers.id} and d.category_id = ${DocumentCategory.other} and d.document_type_id in (${sql.raw(Object.values(TAX_DOCUMENT_TYPES).join(', '))}) and d.parent_id is null and not exists (select 1 from business_representative_documents r where r.document_id = d.id))`,
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
      isTaxSectionActionRequired: taxSectionActionRequired(customer.customerType, row.taxSaved, row.taxDocuments),
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
        taxResidencySelfCertificationDocumentStatus: await accessTaxStatus(ctx.db, row.company),
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
