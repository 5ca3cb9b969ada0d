/**
 * The inputs of the account verification status (api/verification.ts VerificationInputs),
 * derived from the platform's tables, and where `customers.verified` is set.
 *
 * What is required of whom (not shown in the spec; decided here):
 * - A customer who is not verified must prove identity (category 1), residence (category 2 for a
 *   person, 7 for a company), give a complete address and confirm a phone.
 * - A verified customer was verified by the provider (possibly before this platform held its
 *   documents): nothing is asked again that it never uploaded here, so with no document the
 *   identity and proof of residence are notRequired, a customer with no address on file reads
 *   'complete' and one with no phone reads phoneConfirmed (nothing outstanding). What it did
 *   upload counts as for everyone (an expiring, expired or rejected document is an action), and an
 *   unconfirmed phone it added is outstanding.
 * - Due diligence (due_diligence_info.address_document_required) makes proof of residence required.
 *
 * `verified` is set by recomputeVerified after every change that can complete verification (an
 * administrator's decision on a document, a phone confirmed, an address saved): a customer who is
 * not verified becomes verified when nothing is required of it (no required action of §4 counted)
 * and nothing is in review and it is not limited. It is never cleared automatically: withdrawing
 * service is the administrator's limit action.
 */
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { VerificationInputs, DocumentState } from '../../../api/verification.ts';
import { DocumentCategory, documentState, DocumentStatus, IN_REVIEW_STATUSES } from '../../../api/verification.ts';
import type { Db, Tx } from '../../db/types.ts';
import { customerAccess, customers, phones } from '../customers/customers.tables.ts';
import { customerDocumentRows, type DocumentRow } from './documents.service.ts';
import { statesOf as taxStatesOf } from '../tax/tax.service.ts';
import { customerAddresses, customerDocuments, dueDiligenceInfo, identityJobs, limitReasons } from './profile.tables.ts';

/** Positions of a business representative (api/customer.ts): 2 director; 6 and 9 shareholder; 8 owner. */
const REPRESENTATIVE_POSITIONS: ReadonlySet<number> = new Set([2, 6, 8, 9]);

type AddressRow = typeof customerAddresses.$inferSelect;

/** The current address of a customer: the latest not deleted with addressStatus 1. */
export async function currentAddress(db: Db | Tx, customerId: number): Promise<AddressRow | null> {
  const rows = await db
    .select()
    .from(customerAddresses)
    .where(and(eq(customerAddresses.customerId, customerId), isNull(customerAddresses.deletedAt), eq(customerAddresses.addressStatus, 1)))
    .orderBy(sql`${customerAddresses.updatedAt} desc, ${customerAddresses.id} desc`)
    .limit(1);
  return rows[0] ?? null;
}

export function addressCompleteness(a: AddressRow | null): 'missing' | 'incomplete' | 'complete' {
  if (!a) return 'missing';
  return a.address1.trim() && a.city.trim() && a.postalCode.trim() && /^[A-Z]{2}$/.test(a.countryCode) ? 'complete' : 'incomplete';
}

/** Main documents (not sub-documents) of the given categories, as documentState reads them. */
function facts(rows: readonly DocumentRow[], categoryIds: readonly number[]) {
  return rows
    .filter((r) => r.parentId === null && categoryIds.includes(r.categoryId))
    .map((r) => ({ statusId: r.statusId, uploaded: r.uploaded.toISOString(), expiresDate: r.expiresDate }));
}

export interface VerificationContext {
  /** the user calling (a representative acting for a company is checked) */
  userId: number | null;
  customerId: number;
  today: string;
  /** the clock reading: a pending video job whose link expired reads none (as identityGet and its page say) */
  nowMs?: number;
}

export async function verificationInputs(db: Db | Tx, ctx: VerificationContext): Promise<VerificationInputs & { isNeedKyc: boolean; isNeedPersonalInfoUpdate: boolean; dueDiligenceLevel: number }> {
  const [customer] = await db.select().from(customers).where(eq(customers.id, ctx.customerId));
  if (!customer) throw new Error('verificationInputs: no such customer');
  const required = !customer.verified;
  const docs = await customerDocumentRows(db, ctx.customerId);

  let isRepresentative = false;
  if (ctx.userId !== null) {
    const [access] = await db
      .select({ positionIds: customerAccess.positionIds, userCustomer: sql<number>`(select customer_id from users where id = ${ctx.userId})` })
      .from(customerAccess)
      .where(and(eq(customerAccess.userId, ctx.userId), eq(customerAccess.customerId, ctx.customerId)));
    isRepresentative = !!access && access.userCustomer !== ctx.customerId && access.positionIds.some((p) => REPRESENTATIVE_POSITIONS.has(p));
  }

  const [dd] = await db.select().from(dueDiligenceInfo).where(eq(dueDiligenceInfo.customerId, ctx.customerId));
  const residenceCategory = customer.customerType === 'business' ? DocumentCategory.businessAddress : DocumentCategory.address;
  const identity = documentState(facts(docs, [DocumentCategory.identity]), ctx.today, required);
  const proofOfResidence = documentState(facts(docs, [residenceCategory]), ctx.today, required || (dd?.addressDocumentRequired ?? false));

  const address = await currentAddress(db, ctx.customerId);
  const addressState = !address && !required ? 'complete' : addressCompleteness(address);

  const phoneRows = await db.select().from(phones).where(eq(phones.customerId, ctx.customerId));
  const primary = phoneRows.find((p) => p.status === 'primary');
  const phoneConfirmed = phoneRows.length === 0 ? !required : (primary?.confirmed ?? false) && phoneRows.every((p) => p.confirmed || p.status !== 'primary');

  const [video] = await db
    .select({ status: identityJobs.status, expiresAt: identityJobs.expiresAt })
    .from(identityJobs)
    .where(and(eq(identityJobs.customerId, ctx.customerId), eq(identityJobs.kind, 'video')))
    .orderBy(sql`${identityJobs.createdAt} desc, ${identityJobs.id} desc`)
    .limit(1);
  const lapsed = video?.status === 'pending' && ctx.nowMs !== undefined && video.expiresAt.getTime() <= ctx.nowMs;
  const videoIdentity = !video || lapsed ? 'none' : video.status === 'approved' ? 'approved' : video.status === 'rejected' ? 'rejected' : video.status === 'pending' ? 'pending' : 'none';

  const reasons = await db
    .select()
    .from(limitReasons)
    .where(and(eq(limitReasons.customerId, ctx.customerId), isNull(limitReasons.liftedAt)))
    .orderBy(limitReasons.id);
  const limitReasonsOut = reasons.map((r) => ({
    actionTypeId: r.actionTypeId,
    reason: r.reason,
    requirementDocuments: r.requiredDocumentTypeIds.map((typeId) => ({
      documentTypeId: typeId,
      // Documents uploaded since the limit for that type answer the requirement.
      uploadedDocuments: docs.filter((d) => d.parentId === null && d.documentTypeId === typeId && d.uploaded >= r.createdAt).map((d) => ({ statusId: d.statusId })),
    })),
  }));

  const duplicateDocuments = await duplicateState(db, ctx.customerId, docs);
  // The FATCA / CRS certificates (server/modules/tax): a person's own certification, a company's business one.
  const taxOwner = { customerId: ctx.customerId, representativeId: null, kind: customer.customerType === 'business' ? 'business' : 'personal' } as const;
  const { states: taxCertification } = await taxStatesOf(db, taxOwner, ctx.today);

  return {
    customerType: customer.customerType,
    isRepresentative,
    verified: customer.verified,
    limited: customer.limited,
    limitReasons: limitReasonsOut,
    duplicateDocuments,
    taxCertification,
    address: addressState,
    isCardDocumentRequired: address?.isCardDocumentRequired ?? false,
    proofOfResidence,
    identity,
    phoneConfirmed,
    videoIdentity,
    documentsInReview: docs.some((d) => d.parentId === null && IN_REVIEW_STATUSES.has(d.statusId)),
    isNeedKyc: customer.isNeedKyc,
    isNeedPersonalInfoUpdate: customer.isNeedPersonalInfoUpdate,
    dueDiligenceLevel: customer.dueDiligenceLevel,
  };
}

/**
 * Duplicate documents (§4 rule 3): the number of the customer's latest identity document equals
 * the number of another customer's confirmed identity document -> required; once the customer has
 * uploaded a newer identity document than the duplicate one -> uploaded (until it is decided).
 */
async function duplicateState(db: Db | Tx, customerId: number, docs: readonly DocumentRow[]): Promise<'none' | 'required' | 'uploaded'> {
  const identityDocs = docs.filter((d) => d.parentId === null && d.categoryId === DocumentCategory.identity && d.number);
  if (identityDocs.length === 0) return 'none';
  const numbers = [...new Set(identityDocs.map((d) => d.number!.toUpperCase()))];
  const clashes = await db
    .select({ number: customerDocuments.number })
    .from(customerDocuments)
    .where(
      and(
        ne(customerDocuments.customerId, customerId),
        eq(customerDocuments.categoryId, DocumentCategory.identity),
        eq(customerDocuments.statusId, DocumentStatus.confirmed),
        sql`upper(${customerDocuments.number}) in (${sql.join(numbers.map((n) => sql`${n}`), sql`, `)})`,
      ),
    );
  if (clashes.length === 0) return 'none';
  const clashing = new Set(clashes.map((c) => c.number!.toUpperCase()));
  const latestClash = identityDocs.filter((d) => clashing.has(d.number!.toUpperCase())).at(-1)!;
  const newer = identityDocs.some((d) => d.uploaded > latestClash.uploaded && !clashing.has(d.number!.toUpperCase()));
  return newer ? 'uploaded' : 'required';
}

/** The required actions of §4 counted from the inputs (the same list the web app's banner counts). */
export function requiredActionCount(i: VerificationInputs): number {
  const gap = (s: DocumentState) => s === 'none' || s === 'rejected';
  let n = 0;
  const t = i.taxCertification;
  if (i.customerType === 'personal' && [t.w9FormDocumentStatus, t.certificateOfLossOfNationalityDocumentStatus, t.taxResidencySelfCertificationDocumentStatus, t.w8BenFormDocumentStatus].some(gap)) n++;
  if (i.address !== 'complete') n++;
  if (i.proofOfResidence === 'expiredSoon' || gap(i.proofOfResidence)) n++;
  if (gap(i.identity)) n++;
  if (!i.phoneConfirmed) n++;
  if (i.videoIdentity === 'rejected') n++;
  return n;
}

/**
 * Sets verified when a customer who is not verified has nothing required and nothing in review
 * and is not limited; returns the customer's verified flag afterwards. Runs in the caller's transaction.
 */
export async function recomputeVerified(tx: Tx, customerId: number, today: string): Promise<boolean> {
  const inputs = await verificationInputs(tx, { userId: null, customerId, today });
  if (inputs.verified) return true;
  const ok =
    !inputs.limited &&
    !inputs.documentsInReview &&
    inputs.duplicateDocuments === 'none' &&
    requiredActionCount(inputs) === 0 &&
    (inputs.identity === 'validated' || inputs.identity === 'expiredSoon') &&
    (inputs.proofOfResidence === 'validated' || inputs.proofOfResidence === 'expiredSoon' || inputs.proofOfResidence === 'notRequired');
  if (!ok) return false;
  await tx.update(customers).set({ verified: true }).where(eq(customers.id, customerId));
  return true;
}
