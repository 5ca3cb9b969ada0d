/**
 * The tax forms' signing (api/tax-certification.ts; the e-signature port server/modules/esign):
 * rendering the forms a certification ends in and starting their envelope, and the purpose
 * 'taxForms' that files each signed form as a customer document in review (category 5, its tax
 * type; the administrator's existing queue decides it), linked to the representative when it is
 * theirs. Shared by the W-form upload methods (tax.methods.ts) and the demo seed (demo-tax.ts).
 *
 * Not shown in the spec: a form signed after the answers it was made from changed is not filed
 * (it no longer applies; the customer signs the new forms).
 */
import { eq } from 'drizzle-orm';
import { TAX_DOCUMENT_TYPES, type TaxFormKind } from '../../../api/tax-certification.ts';
import { DocumentCategory, DocumentStatus } from '../../../api/verification.ts';
import type { Tx } from '../../db/types.ts';
import { businessRepresentativeDocuments } from '../business/business.tables.ts';
import { onDocumentSigned, type SignatureAdapter, type SignatureStart } from '../esign/esign.ts';
import { customerDocuments } from '../profile/profile.tables.ts';
import type { FormAddress, TaxFormDocument, TaxFormInput, TaxFormSubject } from './forms/types.ts';
import type { CertificationOwner } from './tax.service.ts';
import { taxCertifications } from './tax.tables.ts';

export const TAX_FORMS_PURPOSE = 'taxForms';

/** Where the signing page returns to (the app's routes, document 3 §2). */
export const RETURN_PATHS = { personal: '/self-certification', business: '/self-certification-business', representative: '/self-certification-representative' } as const;

/** What the purpose's handler needs to file a signed form (esign_envelopes.context). */
interface TaxFormsContext {
  certificationId: number;
  /** the answers' date the forms were made from (ISO) */
  updatedAt: string;
  /** the login shown as the document's uploader */
  createdUsername: string;
}

/** Files a signed form (in the signing transaction); registered once, at module load. */
onDocumentSigned(TAX_FORMS_PURPOSE, async (tx, signed) => {
  const context = signed.context as Partial<TaxFormsContext>;
  const typeId = (TAX_DOCUMENT_TYPES as Record<string, number>)[signed.kind];
  if (typeId === undefined || typeof context.certificationId !== 'number') return null;
  const [cert] = await tx.select({ updatedAt: taxCertifications.updatedAt }).from(taxCertifications).where(eq(taxCertifications.id, context.certificationId));
  // The answers changed after the forms were made: this one no longer applies.
  if (!cert || cert.updatedAt.toISOString() !== context.updatedAt) return null;
  const content = Buffer.from(signed.signedPdf);
  const [doc] = await tx
    .insert(customerDocuments)
    .values({
      customerId: signed.customerId,
      categoryId: DocumentCategory.other,
      documentTypeId: typeId,
      statusId: DocumentStatus.submitted,
      createdUsername: context.createdUsername ?? signed.signerTypedName,
      createdByUserId: signed.createdByUserId,
      uploaded: signed.signedAt,
      fileName: signed.fileName,
      mimeType: 'application/pdf',
      sizeBytes: content.length,
      sha256: signed.signedSha256,
      content,
    })
    .returning({ id: customerDocuments.id });
  if (signed.representativeId !== null) await tx.insert(businessRepresentativeDocuments).values({ representativeId: signed.representativeId, documentId: doc!.id });
  return doc!.id;
});

export interface StartTaxFormsInput {
  owner: CertificationOwner;
  certification: { id: number; updatedAt: Date };
  forms: readonly TaxFormKind[];
  subject: TaxFormSubject;
  signer: { name: string; email: string | null };
  /** the login shown as the filed documents' uploader */
  createdUsername: string;
  createdByUserId: number | null;
  returnPath: string;
  lang: TaxFormInput['lang'];
  providerName: string;
  nowMs: number;
  adapter: SignatureAdapter;
  render: (input: TaxFormInput) => Promise<TaxFormDocument> | TaxFormDocument;
}

/** Renders the forms and starts their envelope in the caller's transaction; answers signData. */
export async function startTaxForms(tx: Tx, input: StartTaxFormsInput): Promise<SignatureStart> {
  const documents: TaxFormDocument[] = [];
  for (const kind of input.forms) documents.push(await input.render({ kind, subject: input.subject, lang: input.lang, providerName: input.providerName, nowMs: input.nowMs }));
  const context: TaxFormsContext = { certificationId: input.certification.id, updatedAt: input.certification.updatedAt.toISOString(), createdUsername: input.createdUsername };
  return input.adapter.start(tx, {
    purpose: TAX_FORMS_PURPOSE,
    customerId: input.owner.customerId,
    representativeId: input.owner.representativeId,
    createdByUserId: input.createdByUserId,
    signer: input.signer,
    documents,
    context: { ...context },
    returnPath: input.returnPath,
    nowMs: input.nowMs,
  });
}

/** A customer or representative address row as the forms print it. */
export const formAddress = (a: {
  address1: string;
  address2: string | null;
  city: string;
  postalCode: string | null;
  countryCode: string;
  stateName: string | null;
  stateCode: string | null;
}): FormAddress => ({
  address1: a.address1,
  address2: a.address2 || null,
  city: a.city,
  postalCode: a.postalCode || null,
  countryCode: a.countryCode,
  state: a.stateName ?? a.stateCode ?? null,
});
