/**
 * The tax self-certification's named methods (api/tax-certification.ts; document 3 §3, §5-§7):
 * the personal and the business certification (get, update), the W-form upload that renders the
 * forms the answers end in and starts their signing (signData), and the representative's
 * certificate of loss of nationality; and the e-signature purpose 'taxForms' that files each
 * signed form as a customer document in review (the administrator's existing queue decides it).
 *
 * Who: the personal methods are the caller's own certification, or, with a representative's link
 * (ctx.representative, REPRESENTATIVE_SECRET_METHODS), that representative's own kept for the
 * company; the business ones the company acted for (rights: api/rights.ts).
 *
 * Decisions (not shown in the spec):
 * - A W-form upload before any answers are saved is refused VF `certification` required.
 * - A signed form is filed only while the answers it was made from are still the saved ones: one
 *   signed after the answers changed is not filed (the customer signs the new forms).
 * - The representative's link reads no files (the file route needs a token): a representative's
 *   documents carry no url.
 * - The company's forms are signed by the user giving them, in the capacity of their position:
 *   the owner, a director, or an authorised signatory; an administrator signs for no company (13).
 */
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import {
  businessForms,
  hasUsIndicia,
  needsLossOfNationalityCertificate,
  personalForms,
  TAX_DOCUMENT_TYPES,
  type BusinessCertification,
  type PersonalCertification,
  type taxCertificationMethods,
  type TaxFormKind,
} from '../../../api/tax-certification.ts';
import { vf, VfCode, type CodedValidationError } from '../../../api/errors.ts';
import { DocumentCategory, DocumentStatus } from '../../../api/verification.ts';
import type { Db, Tx } from '../../db/types.ts';
import { businessCompanies, businessRepresentativeAddresses, businessRepresentativeDocuments, businessRepresentatives } from '../business/business.tables.ts';
import { requireCompany } from '../business/business.service.ts';
import { customerAccess, customers, users } from '../customers/customers.tables.ts';
import { defaultSignatureAdapter } from '../esign/builtin.ts';
import type { SignatureAdapter } from '../esign/esign.ts';
import { MethodFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { checkDocumentQuota, isoDay, prepareDocument } from '../profile/documents.service.ts';
import { ValidationFailure } from '../profile/profile.service.ts';
import { customerAddresses, customerDocuments } from '../profile/profile.tables.ts';
import { currentAddress } from '../profile/verification.service.ts';
import { DEFAULT_REGISTRATION_OPTIONS } from '../registration/registration.methods.ts';
import { activeVariant } from '../../../variants/index.ts';
import { renderTaxForm } from './forms/index.ts';
import type { FormAddress, TaxFormDocument, TaxFormInput, TaxFormSubject } from './forms/types.ts';
import { RETURN_PATHS, formAddress, startTaxForms } from './tax.signing.ts';
import { certificationStates, checkBusiness, checkPersonal, documentUrl, loadCertification, saveCertification, taxDocumentsOf, type CertificationOwner } from './tax.service.ts';

export interface TaxHandlerOptions {
  now: () => number;
  /** the provider's name on the forms (the withholding agent / financial institution) */
  providerName: string;
  /** the e-signature adapter the forms are signed through */
  signature: () => SignatureAdapter;
  /** fills one form (server/modules/tax/forms) */
  renderForm: (input: TaxFormInput) => Promise<TaxFormDocument> | TaxFormDocument;
}

/** The personal certification's owner: the representative of the link, or the signed-in caller. */
function personalOwner(ctx: MethodContext): CertificationOwner {
  if (ctx.representative) return { customerId: ctx.representative.companyId, representativeId: ctx.representative.representativeId, kind: 'personal' };
  if (!ctx.caller) throw new MethodFailure('AU', 'Sign-in required');
  return { customerId: ctx.caller.customerId, representativeId: null, kind: 'personal' };
}

function companyOwnerOf(ctx: MethodContext): CertificationOwner {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
  return { customerId: ctx.customerId, representativeId: null, kind: 'business' };
}

async function representativeRow(db: Db | Tx, owner: CertificationOwner) {
  const [rep] = await db
    .select()
    .from(businessRepresentatives)
    .where(and(eq(businessRepresentatives.id, owner.representativeId!), eq(businessRepresentatives.customerId, owner.customerId), isNull(businessRepresentatives.deletedAt)));
  if (!rep) throw new MethodFailure('AU', 'The representative link is not valid');
  return rep;
}

export function createTaxHandlers(options: TaxHandlerOptions): HandlerTable<typeof taxCertificationMethods> {
  const today = () => isoDay(options.now());

  async function answerOf(db: Db | Tx, owner: CertificationOwner) {
    const row = await loadCertification(db, owner);
    const docs = row ? await taxDocumentsOf(db, owner) : [];
    const st = certificationStates(owner.kind, row, docs, today());
    return {
      row,
      common: {
        ...st.states,
        requiredForms: st.requiredForms,
        documents: st.documents.map((d) => ({ ...d, url: d.documentId !== null && owner.representativeId === null ? documentUrl(d.documentId) : null })),
        updatedAt: row ? row.updatedAt.toISOString() : null,
      },
    };
  }

  async function personalAnswer(db: Db | Tx, owner: CertificationOwner) {
    const { row, common } = await answerOf(db, owner);
    const certification = (row?.answers as PersonalCertification | undefined) ?? null;
    let prefill: { dateOfBirth: string | null; countryCode: string | null; taxId: string | null };
    if (owner.representativeId !== null) {
      const rep = await representativeRow(db, owner);
      prefill = { dateOfBirth: rep.birthDay, countryCode: rep.countryCode, taxId: rep.taxId };
    } else {
      const [c] = await db.select().from(customers).where(eq(customers.id, owner.customerId));
      prefill = { dateOfBirth: c?.birthDay ?? null, countryCode: c?.residenceCountryCode ?? null, taxId: c?.taxId ?? null };
    }
    return {
      ...common,
      certification,
      hasUSIndicia: certification ? hasUsIndicia(certification) : false,
      certificateOfLossOfNationalityRequired: certification ? needsLossOfNationalityCertificate(certification) : false,
      prefill,
    };
  }

  async function businessAnswer(db: Db | Tx, owner: CertificationOwner) {
    const company = await requireCompany(db, owner.customerId);
    const { row, common } = await answerOf(db, owner);
    const [details] = await db.select({ businessTaxId: businessCompanies.businessTaxId }).from(businessCompanies).where(eq(businessCompanies.customerId, owner.customerId));
    return {
      ...common,
      certification: (row?.answers as BusinessCertification | undefined) ?? null,
      prefill: { name: company.businessName ?? '', registrationCountryCode: company.residenceCountryCode, taxId: details?.businessTaxId ?? company.taxId },
    };
  }

  /** The login shown as the uploader and the signer's e-mail: the user's, or the representative's link address. */
  async function loginOf(ctx: MethodContext): Promise<string> {
    if (ctx.representative) return ctx.representative.email;
    const [u] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, ctx.caller!.userId));
    return u?.email ?? '';
  }

  async function startSigning(
    ctx: MethodContext,
    owner: CertificationOwner,
    certification: { id: number; updatedAt: Date },
    forms: readonly TaxFormKind[],
    subject: TaxFormSubject,
    signerName: string,
    returnPath: string,
  ) {
    const login = await loginOf(ctx);
    const signData = await startTaxForms(ctx.db as Tx, {
      owner,
      certification,
      forms,
      subject,
      signer: { name: signerName, email: login || null },
      createdUsername: login,
      createdByUserId: ctx.representative ? null : (ctx.caller?.userId ?? null),
      returnPath,
      lang: ctx.lang,
      providerName: options.providerName,
      nowMs: options.now(),
      adapter: options.signature(),
      render: options.renderForm,
    });
    ctx.audit({ certificationId: certification.id, forms, clientId: signData.clientId, ...(owner.representativeId === null ? {} : { representativeId: owner.representativeId }) });
    return { signData: { clientId: signData.clientId, signUrls: signData.signUrls } };
  }

  const noAnswers = () => new MethodFailure('VF', 'Invalid request', [vf('certification', VfCode.required)]);

  return {
    async personalFatcaCrsCertificationGet(_input, ctx) {
      return { certification: await personalAnswer(ctx.db, personalOwner(ctx)) };
    },

    async personalFatcaCrsCertificationUpdate(input, ctx) {
      const owner = personalOwner(ctx);
      if (owner.representativeId !== null) await representativeRow(ctx.db, owner);
      const { method: _m, fromEmail: _e, authSecret: _s, lang: _l, fromCustomerId: _c, ...answers } = input;
      const checked = checkPersonal(answers, today());
      const { row, changed } = await saveCertification(ctx.db as Tx, owner, checked, ctx.representative ? null : (ctx.caller?.userId ?? null), options.now());
      ctx.audit({ certificationId: row.id, changed, ...(owner.representativeId === null ? {} : { representativeId: owner.representativeId }) });
      return { certification: await personalAnswer(ctx.db, owner) };
    },

    async personalWFormUpload(_input, ctx) {
      const owner = personalOwner(ctx);
      const row = await loadCertification(ctx.db, owner);
      if (!row) throw noAnswers();
      const certification = row.answers as PersonalCertification;
      let subject: TaxFormSubject;
      if (owner.representativeId !== null) {
        const rep = await representativeRow(ctx.db, owner);
        const [address] = await ctx.db
          .select()
          .from(businessRepresentativeAddresses)
          .where(and(eq(businessRepresentativeAddresses.representativeId, rep.id), isNull(businessRepresentativeAddresses.deletedAt)))
          .orderBy(desc(businessRepresentativeAddresses.createdAt), desc(businessRepresentativeAddresses.id))
          .limit(1);
        subject = { kind: 'personal', firstName: rep.firstName, lastName: rep.lastName, address: address ? formAddress(address) : null, certification };
      } else {
        const [c] = await ctx.db.select().from(customers).where(eq(customers.id, owner.customerId));
        const address = await currentAddress(ctx.db, owner.customerId);
        subject = { kind: 'personal', firstName: c?.firstName ?? '', lastName: c?.lastName ?? '', address: address ? formAddress(address) : null, certification };
      }
      const returnPath = owner.representativeId === null ? RETURN_PATHS.personal : RETURN_PATHS.representative;
      return startSigning(ctx, owner, row, personalForms(certification), subject, `${subject.firstName} ${subject.lastName}`.trim(), returnPath);
    },

    async personalLossOfNationalityCertificateUpload(_input, ctx) {
      const owner = personalOwner(ctx);
      const tx = ctx.db as Tx;
      const row = await loadCertification(tx, owner);
      if (!row || !needsLossOfNationalityCertificate(row.answers as PersonalCertification)) {
        throw new MethodFailure('VF', 'Invalid request', [vf('front', VfCode.notOffered)]);
      }
      const [customer] = await tx.select().from(customers).where(eq(customers.id, owner.customerId));
      const errors: CodedValidationError[] = [];
      const createdUsername = await loginOf(ctx);
      const createdByUserId = ctx.representative ? null : (ctx.caller?.userId ?? null);
      const meta = { categoryId: DocumentCategory.other, documentTypeId: TAX_DOCUMENT_TYPES.certificateOfLossOfNationality };
      // Checked as any upload (type, file); stored here since a representative's upload has no user.
      const doc = {
        customerId: owner.customerId,
        residenceCountryCode: customer?.residenceCountryCode ?? null,
        meta,
        addressId: null,
        createdUsername,
        createdByUserId: 0,
        frontField: 'front',
        secondFieldPrefix: '',
        paramPrefix: '',
      };
      const prepared = await prepareDocument(tx, doc, ctx.files, today(), errors);
      for (const f of ctx.files.filter((f) => f.fieldName !== 'front')) errors.push(vf(f.fieldName, VfCode.unknownFileField));
      if (!prepared || errors.length > 0) throw new ValidationFailure(errors);
      await checkDocumentQuota(tx, owner.customerId, [prepared.front], 'front');
      const [stored] = await tx
        .insert(customerDocuments)
        .values({
          customerId: owner.customerId,
          categoryId: meta.categoryId,
          documentTypeId: meta.documentTypeId,
          statusId: DocumentStatus.submitted,
          createdUsername,
          createdByUserId,
          uploaded: new Date(options.now()),
          fileName: prepared.front.fileName,
          mimeType: prepared.front.mimeType,
          sizeBytes: prepared.front.content.length,
          sha256: prepared.front.sha256,
          content: prepared.front.content,
        })
        .returning({ id: customerDocuments.id, sha256: customerDocuments.sha256 });
      if (owner.representativeId !== null) await tx.insert(businessRepresentativeDocuments).values({ representativeId: owner.representativeId, documentId: stored!.id });
      ctx.audit({ documentId: stored!.id, sha256: stored!.sha256, ...(owner.representativeId === null ? {} : { representativeId: owner.representativeId }) });
      return { certification: await personalAnswer(tx, owner) };
    },

    async businessFatcaCrsCertificationGet(_input, ctx) {
      return { certification: await businessAnswer(ctx.db, companyOwnerOf(ctx)) };
    },

    async businessFatcaCrsCertificationUpdate(input, ctx) {
      const owner = companyOwnerOf(ctx);
      await requireCompany(ctx.db, owner.customerId);
      const { method: _m, fromEmail: _e, authSecret: _s, lang: _l, fromCustomerId: _c, ...answers } = input;
      const checked = await checkBusiness(ctx.db, owner.customerId, answers);
      const { row, changed } = await saveCertification(ctx.db as Tx, owner, checked, ctx.caller!.userId, options.now());
      ctx.audit({ certificationId: row.id, changed });
      return { certification: await businessAnswer(ctx.db, owner) };
    },

    async businessWFormUpload(_input, ctx) {
      const owner = companyOwnerOf(ctx);
      const caller = ctx.caller!;
      await requireCompany(ctx.db, owner.customerId);
      const row = await loadCertification(ctx.db, owner);
      if (!row) throw noAnswers();
      const certification = row.answers as BusinessCertification;
      // The signer: the user giving the forms, in their capacity (owner, director, authorised signatory).
      const [me] = await ctx.db.select({ user: users, person: customers }).from(users).innerJoin(customers, eq(customers.id, users.customerId)).where(eq(users.id, caller.userId));
      const [access] = await ctx.db
        .select({ positionIds: customerAccess.positionIds })
        .from(customerAccess)
        .where(and(eq(customerAccess.userId, caller.userId), eq(customerAccess.customerId, owner.customerId)));
      const isOwner = me?.user.customerId === owner.customerId;
      if (!me || (!isOwner && !access)) throw new MethodFailure('13', 'Only the company’s own users sign its forms');
      const positions = access?.positionIds ?? [];
      const capacity = isOwner || positions.includes(8) ? 'Owner' : positions.includes(2) ? 'Director' : 'Authorised signatory';
      const addresses = await ctx.db
        .select()
        .from(customerAddresses)
        .where(and(eq(customerAddresses.customerId, owner.customerId), inArray(customerAddresses.id, [certification.placeOfBusinessAddressId, certification.registeredAddressId])));
      const addressOf = (id: number) => {
        const a = addresses.find((x) => x.id === id);
        return a ? formAddress(a) : null;
      };
      const [details] = await ctx.db
        .select({ registrationNumber: businessCompanies.registrationNumber })
        .from(businessCompanies)
        .where(eq(businessCompanies.customerId, owner.customerId));
      const personIds = certification.controllingPersons.map((p) => p.representativeId);
      const people = personIds.length === 0 ? [] : await ctx.db.select().from(businessRepresentatives).where(inArray(businessRepresentatives.id, personIds));
      const subject: TaxFormSubject = {
        kind: 'business',
        name: certification.name,
        registrationNumber: details?.registrationNumber ?? null,
        placeOfBusiness: addressOf(certification.placeOfBusinessAddressId),
        registeredAddress: addressOf(certification.registeredAddressId),
        controllingPersons: certification.controllingPersons.map((p) => {
          const person = people.find((x) => x.id === p.representativeId);
          return { name: person ? `${person.firstName} ${person.lastName}`.trim() : '', taxResidenceCountryCode: p.taxResidenceCountryCode };
        }),
        certification,
        signerName: `${me.person.firstName} ${me.person.lastName}`.trim(),
        signerCapacity: capacity,
      };
      return startSigning(ctx, owner, row, businessForms(certification), subject, subject.signerName, RETURN_PATHS.business);
    },
  };
}

/** The tax methods on the platform's clock, the built-in signing page and the variant's name (app.ts replaces them with ones on its clock and origin). */
export function defaultTaxHandlerOptions(overrides: { now?: () => number; publicUrl?: string } = {}): TaxHandlerOptions {
  const publicUrl = overrides.publicUrl ?? DEFAULT_REGISTRATION_OPTIONS.publicUrl;
  const adapter = defaultSignatureAdapter({ publicUrl });
  return { now: overrides.now ?? Date.now, providerName: activeVariant.projectName, signature: () => adapter, renderForm: renderTaxForm };
}

export const taxHandlers = createTaxHandlers(defaultTaxHandlerOptions());
