/**
 * The tax self-certification's rules and states (api/tax-certification.ts; document 3 §3, §5):
 * checking and normalising the answers a person, a company or a representative gives, and deriving
 * the four certificate states from the signed forms on record.
 *
 * Decisions (not shown in the spec):
 * - Every refusal is one VF answer listing every problem (a duplicate: duplicateEntry; an address
 *   or a controlling person not among the offered ones: notAllowed), each naming its field by the dotted path
 *   the platform uses for nested fields (`taxIds.1.taxId`, `controllingPersons.0.representativeId`,
 *   as api/envelope.ts issuesToValidationErrors names valibot's issues).
 * - A US person (US citizen or US taxpayer) without a US tax residence is refused on `taxIds`
 *   (VfCode.required: a US entry is required); the web app adds the entry first (withUsEntry).
 * - Questions that do not apply to the branch the answers took are stored as null (a TIN given:
 *   no missing reason; the explanation only for CANNOT_OBTAIN; the GIIN only for a financial
 *   institution; controlling persons only for a passive entity), so two answers that mean the same
 *   compare equal and saving them again keeps the date the forms are counted from.
 * - A TIN is stored in the compact form the country's check answers (api/tax-numbers.ts).
 * - The certificate of loss of nationality (CLN) does not depend on the other answers: a CLN on
 *   record counts whenever the answers were saved; the signed forms count only when signed since.
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { vf, VfCode, type CodedValidationError } from '../../../api/errors.ts';
import { documentFileRoute } from '../../../api/documents.ts';
import { checkTaxNumberField, taxNumberEntry } from '../../../api/tax-numbers.ts';
import {
  businessForms,
  GIIN_PATTERN,
  isFinancialInstitution,
  isPassiveEntity,
  isUsPerson,
  needsLossOfNationalityCertificate,
  needsUsCitizenshipAbsenceReason,
  normaliseTaxIdEntry,
  personalForms,
  TAX_DOCUMENT_TYPES,
  type BusinessCertification,
  type PersonalCertification,
  type TaxCertificationStatus,
  type TaxFormKind,
  type TaxIdEntry,
} from '../../../api/tax-certification.ts';
import { DocumentCategory, documentState, type DocumentState } from '../../../api/verification.ts';
import type { Db, Tx } from '../../db/types.ts';
import { businessRepresentativeDocuments, businessRepresentatives } from '../business/business.tables.ts';
import { MethodFailure } from '../method-types.ts';
import { customerAddresses, customerDocuments } from '../profile/profile.tables.ts';
import { taxCertifications } from './tax.tables.ts';

export type CertificationKind = 'personal' | 'business';

/** Whose certification: a person's or company's own (representativeId null) or a representative's kept for the company. */
export interface CertificationOwner {
  customerId: number;
  representativeId: number | null;
  kind: CertificationKind;
}

export type CertificationRow = typeof taxCertifications.$inferSelect;

export async function loadCertification(db: Db | Tx, owner: CertificationOwner): Promise<CertificationRow | null> {
  const [row] = await db
    .select()
    .from(taxCertifications)
    .where(
      owner.representativeId === null
        ? and(eq(taxCertifications.customerId, owner.customerId), eq(taxCertifications.kind, owner.kind), isNull(taxCertifications.representativeId))
        : eq(taxCertifications.representativeId, owner.representativeId),
    );
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------
// Checking and normalising (document 3 §5).

const failIf = (errors: CodedValidationError[]) => {
  if (errors.length > 0) throw new MethodFailure('VF', 'Invalid request', errors);
};

/** The tax residences: one per country, a TIN in the country's format or why there is none. */
function checkTaxIds(entries: readonly TaxIdEntry[], use: 'personal' | 'business', usPerson: boolean, errors: CodedValidationError[]): TaxIdEntry[] {
  const seen = new Set<string>();
  const out = entries.map((raw, i) => {
    const t = normaliseTaxIdEntry(raw);
    if (seen.has(t.countryCode)) errors.push(vf(`taxIds.${i}.countryCode`, VfCode.duplicateEntry));
    seen.add(t.countryCode);
    if (t.taxId) {
      const checked = checkTaxNumberField(`taxIds.${i}.taxId`, t.countryCode, use, t.taxId);
      if (!checked.ok) errors.push(checked.error);
      return checked.ok ? { ...t, taxId: checked.value } : t;
    }
    const entry = taxNumberEntry(t.countryCode);
    const required = use === 'personal' ? entry.personalRequired : entry.businessRequired;
    if (required && !t.tinMissingReason) errors.push(vf(`taxIds.${i}.taxId`, VfCode.required));
    if (t.tinMissingReason === 'CANNOT_OBTAIN' && !t.tinMissingExplanation) errors.push(vf(`taxIds.${i}.tinMissingExplanation`, VfCode.required));
    return t;
  });
  // §5: a US taxpayer's record has a US entry (the web app adds it; a record without one is refused).
  if (usPerson && !seen.has('US')) errors.push(vf('taxIds', VfCode.required));
  return out;
}

/** A person's answers as stored, or VF. */
export function checkPersonal(input: PersonalCertification, todayIso: string): PersonalCertification {
  const errors: CodedValidationError[] = [];
  const citizenship = [...new Set(input.citizenship)];
  if (input.dateOfBirth > todayIso) errors.push(vf('dateOfBirth', VfCode.notInFuture));
  const base = { ...input, citizenship };
  const taxIds = checkTaxIds(input.taxIds, 'personal', isUsPerson(base), errors);
  let reason: PersonalCertification['usCitizenshipAbsenceReason'] = null;
  let explanation: string | null = null;
  if (needsUsCitizenshipAbsenceReason(base)) {
    reason = input.usCitizenshipAbsenceReason;
    if (!reason) errors.push(vf('usCitizenshipAbsenceReason', VfCode.required));
    if (reason === 'NOT_CITIZEN_AT_BIRTH') {
      explanation = input.usCitizenshipAbsenceExplanation || null;
      if (!explanation) errors.push(vf('usCitizenshipAbsenceExplanation', VfCode.required));
    }
  }
  failIf(errors);
  return {
    cityOfBirth: input.cityOfBirth,
    countryOfBirth: input.countryOfBirth,
    dateOfBirth: input.dateOfBirth,
    citizenship,
    isUSTaxPayer: input.isUSTaxPayer,
    usCitizenshipAbsenceReason: reason,
    usCitizenshipAbsenceExplanation: explanation,
    taxIds,
  };
}

/** Positions of a shareholder or a director (api/customer.ts): 2 director; 6 and 9 shareholder. */
const CONTROLLING_POSITIONS = [2, 6, 9];

/** A company's answers as stored, or VF (the addresses and controlling persons checked against its records). */
export async function checkBusiness(db: Db | Tx, companyId: number, input: BusinessCertification): Promise<BusinessCertification> {
  const errors: CodedValidationError[] = [];
  const required = (field: string, value: unknown) => {
    if (value === null || value === undefined || value === '') errors.push(vf(field, VfCode.required));
  };
  // The branch questions (document 3 §3), each asked only where the branch reaches it.
  const type = input.entityType;
  const isUsingClientFunds = type === 'financial-institution' ? input.isUsingClientFunds : null;
  if (type === 'financial-institution') required('isUsingClientFunds', isUsingClientFunds);
  const isManagedByFinancialInstitution = type === 'investment' ? input.isManagedByFinancialInstitution : null;
  if (type === 'investment') required('isManagedByFinancialInstitution', isManagedByFinancialInstitution);
  const general = type === 'general';
  const isPubliclyTraded = general ? input.isPubliclyTraded : null;
  if (general) required('isPubliclyTraded', isPubliclyTraded);
  const traded = isPubliclyTraded === true;
  const companySecurityMarket = traded ? input.companySecurityMarket || null : null;
  const companyTicket = traded ? input.companyTicket || null : null;
  if (traded) {
    required('companySecurityMarket', companySecurityMarket);
    required('companyTicket', companyTicket);
  }
  const isOwnPubliclyTradedCompany = general && isPubliclyTraded === false ? input.isOwnPubliclyTradedCompany : null;
  if (general && isPubliclyTraded === false) required('isOwnPubliclyTradedCompany', isOwnPubliclyTradedCompany);
  const companyOwnedByYou = isOwnPubliclyTradedCompany === true ? input.companyOwnedByYou : null;
  if (isOwnPubliclyTradedCompany === true) required('companyOwnedByYou', companyOwnedByYou);
  const isEarnPassiveIncome = general && isPubliclyTraded === false && isOwnPubliclyTradedCompany === false ? input.isEarnPassiveIncome : null;
  if (general && isPubliclyTraded === false && isOwnPubliclyTradedCompany === false) required('isEarnPassiveIncome', isEarnPassiveIncome);
  const branch = { entityType: type, isManagedByFinancialInstitution, isPubliclyTraded, isOwnPubliclyTradedCompany, isEarnPassiveIncome };

  // A financial institution: its GIIN in the IRS format, or why it has none.
  let giin: string | null = null;
  let giinMissingReason: BusinessCertification['giinMissingReason'] = null;
  if (isFinancialInstitution(branch)) {
    giin = input.giin ? input.giin.toUpperCase() : null;
    if (giin && !GIIN_PATTERN.test(giin)) errors.push(vf('giin', VfCode.badFormat));
    if (!giin) {
      giinMissingReason = input.giinMissingReason;
      if (!giinMissingReason) errors.push(vf('giin', VfCode.required));
    }
  }

  const taxIds = checkTaxIds(input.taxIds, 'business', input.isUSTaxPayer, errors);

  // The addresses: the company's own, not deleted.
  const addressIds = [...new Set([input.placeOfBusinessAddressId, input.registeredAddressId])];
  const addresses = await db
    .select({ id: customerAddresses.id })
    .from(customerAddresses)
    .where(and(inArray(customerAddresses.id, addressIds), eq(customerAddresses.customerId, companyId), isNull(customerAddresses.deletedAt)));
  const known = new Set(addresses.map((a) => a.id));
  if (!known.has(input.placeOfBusinessAddressId)) errors.push(vf('placeOfBusinessAddressId', VfCode.notAllowed));
  if (!known.has(input.registeredAddressId)) errors.push(vf('registeredAddressId', VfCode.notAllowed));

  // A passive entity names its controlling persons: persons among the company's shareholders and directors.
  let controllingPersons: BusinessCertification['controllingPersons'] = [];
  if (isPassiveEntity(branch)) {
    controllingPersons = input.controllingPersons;
    if (controllingPersons.length === 0) errors.push(vf('controllingPersons', VfCode.required));
    const ids = [...new Set(controllingPersons.map((p) => p.representativeId))];
    const people =
      ids.length === 0
        ? []
        : await db
            .select({ id: businessRepresentatives.id, positionIds: businessRepresentatives.positionIds })
            .from(businessRepresentatives)
            .where(
              and(
                inArray(businessRepresentatives.id, ids),
                eq(businessRepresentatives.customerId, companyId),
                eq(businessRepresentatives.kind, 'person'),
                isNull(businessRepresentatives.deletedAt),
              ),
            );
    const eligible = new Set(people.filter((p) => p.positionIds.some((id) => CONTROLLING_POSITIONS.includes(id))).map((p) => p.id));
    const seen = new Set<number>();
    controllingPersons.forEach((p, i) => {
      if (!eligible.has(p.representativeId)) errors.push(vf(`controllingPersons.${i}.representativeId`, VfCode.notAllowed));
      else if (seen.has(p.representativeId)) errors.push(vf(`controllingPersons.${i}.representativeId`, VfCode.duplicateEntry));
      seen.add(p.representativeId);
    });
  }
  failIf(errors);
  return {
    name: input.name,
    entityType: type,
    registrationCountryCode: input.registrationCountryCode,
    giin,
    giinMissingReason,
    isUsingClientFunds,
    isManagedByFinancialInstitution,
    isPubliclyTraded,
    companySecurityMarket,
    companyTicket,
    isOwnPubliclyTradedCompany,
    companyOwnedByYou,
    isEarnPassiveIncome,
    isUSTaxPayer: input.isUSTaxPayer,
    isDisregardedEntity: input.isDisregardedEntity,
    placeOfBusinessAddressId: input.placeOfBusinessAddressId,
    registeredAddressId: input.registeredAddressId,
    taxIds,
    controllingPersons,
  };
}

/** Key-order-independent JSON: two answers that mean the same compare equal. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Saves the answers; the date the forms are counted from moves only when they differ from the
 * saved ones (forms signed before no longer count). Returns the row as saved.
 */
export async function saveCertification(
  tx: Tx,
  owner: CertificationOwner,
  answers: PersonalCertification | BusinessCertification,
  userId: number | null,
  nowMs: number,
): Promise<{ row: CertificationRow; changed: boolean }> {
  const existing = await loadCertification(tx, owner);
  const now = new Date(nowMs);
  if (!existing) {
    const [row] = await tx
      .insert(taxCertifications)
      .values({ customerId: owner.customerId, representativeId: owner.representativeId, kind: owner.kind, answers, updatedAt: now, updatedByUserId: userId, createdAt: now })
      .returning();
    return { row: row!, changed: true };
  }
  if (canonical(existing.answers) === canonical(answers)) return { row: existing, changed: false };
  const [row] = await tx.update(taxCertifications).set({ answers, updatedAt: now, updatedByUserId: userId }).where(eq(taxCertifications.id, existing.id)).returning();
  return { row: row!, changed: true };
}

// ---------------------------------------------------------------------------------------------
// States.

/** What the states read of a tax document (a signed form or the uploaded CLN). */
export interface TaxDocumentFact {
  id: number;
  documentTypeId: number;
  statusId: number;
  uploaded: Date;
}

/** The tax documents of a certification's owner: a person's own, a company's own (no representative's), or a representative's. */
export async function taxDocumentsOf(db: Db | Tx, owner: Pick<CertificationOwner, 'customerId' | 'representativeId'>): Promise<TaxDocumentFact[]> {
  const linked = sql`exists (select 1 from ${businessRepresentativeDocuments} where ${businessRepresentativeDocuments.documentId} = ${customerDocuments.id}${
    owner.representativeId === null ? sql`` : sql` and ${businessRepresentativeDocuments.representativeId} = ${owner.representativeId}`
  })`;
  return db
    .select({ id: customerDocuments.id, documentTypeId: customerDocuments.documentTypeId, statusId: customerDocuments.statusId, uploaded: customerDocuments.uploaded })
    .from(customerDocuments)
    .where(
      and(
        eq(customerDocuments.customerId, owner.customerId),
        eq(customerDocuments.categoryId, DocumentCategory.other),
        inArray(customerDocuments.documentTypeId, Object.values(TAX_DOCUMENT_TYPES)),
        isNull(customerDocuments.parentId),
        owner.representativeId === null ? sql`not ${linked}` : linked,
      ),
    )
    .orderBy(asc(customerDocuments.uploaded), asc(customerDocuments.id));
}

export type TaxDocumentKind = TaxFormKind | 'certificateOfLossOfNationality';

export interface CertificationStates {
  states: TaxCertificationStatus;
  requiredForms: TaxFormKind[];
  /** one per form required (and the CLN when asked): the latest counted document of its type */
  documents: { kind: TaxDocumentKind; documentId: number | null; status: DocumentState }[];
}

const NOT_CERTIFIED: TaxCertificationStatus = {
  w9FormDocumentStatus: 'notRequired',
  certificateOfLossOfNationalityDocumentStatus: 'notRequired',
  taxResidencySelfCertificationDocumentStatus: 'none',
  w8BenFormDocumentStatus: 'notRequired',
};

/**
 * The four states of a certification (document 3 §3): a form not required reads notRequired; a
 * required one the state of the latest of its type signed since the answers were saved (none,
 * pending in review, validated confirmed, rejected). Before any answers: the tax residency
 * self-certification none, the others notRequired.
 */
export function certificationStates(
  kind: CertificationKind,
  saved: { answers: PersonalCertification | BusinessCertification; updatedAt: Date } | null,
  docs: readonly TaxDocumentFact[],
  todayIso: string,
): CertificationStates {
  if (!saved) return { states: NOT_CERTIFIED, requiredForms: [], documents: [{ kind: 'taxResidencySelfCertification', documentId: null, status: 'none' }] };
  const requiredForms = kind === 'personal' ? personalForms(saved.answers as PersonalCertification) : businessForms(saved.answers as BusinessCertification);
  const cln = kind === 'personal' && needsLossOfNationalityCertificate(saved.answers as PersonalCertification);
  const since = saved.updatedAt.getTime();
  const documents: CertificationStates['documents'] = [];
  const stateOf = (docKind: TaxDocumentKind, required: boolean): DocumentState => {
    if (!required) return 'notRequired';
    const typeId = TAX_DOCUMENT_TYPES[docKind];
    const counted = docs.filter((d) => d.documentTypeId === typeId && (docKind === 'certificateOfLossOfNationality' || d.uploaded.getTime() >= since));
    const status = documentState(
      counted.map((d) => ({ statusId: d.statusId, uploaded: d.uploaded.toISOString(), expiresDate: null })),
      todayIso,
      true,
    );
    const latest = counted.filter((d) => d.statusId !== 5).at(-1);
    documents.push({ kind: docKind, documentId: latest?.id ?? null, status });
    return status;
  };
  const w8Kind: TaxFormKind = kind === 'personal' ? 'w8Ben' : 'w8BenE';
  const states: TaxCertificationStatus = {
    w9FormDocumentStatus: stateOf('w9', requiredForms.includes('w9')),
    w8BenFormDocumentStatus: stateOf(w8Kind, requiredForms.includes(w8Kind)),
    taxResidencySelfCertificationDocumentStatus: stateOf('taxResidencySelfCertification', true),
    certificateOfLossOfNationalityDocumentStatus: stateOf('certificateOfLossOfNationality', cln),
  };
  return { states, requiredForms, documents };
}

/** The states of an owner's certification, read from the database. */
export async function statesOf(db: Db | Tx, owner: CertificationOwner, todayIso: string): Promise<CertificationStates & { row: CertificationRow | null }> {
  const row = await loadCertification(db, owner);
  const docs = row ? await taxDocumentsOf(db, owner) : [];
  return { row, ...certificationStates(owner.kind, row, docs, todayIso) };
}

/** The tax section needs the customer (document 1 §4): some certificate none or rejected. */
export function hasGap(states: TaxCertificationStatus): boolean {
  return Object.values(states).some((s) => s === 'none' || s === 'rejected');
}

/** The URL the web app reads a customer document's file at (api/documents.ts documentFileRoute, with the caller's token). */
export const documentUrl = (documentId: number) => documentFileRoute.replace(':documentId', String(documentId));
