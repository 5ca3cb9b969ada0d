/**
 * The demo's tax self-certifications (demo mode only, server/db/seed.ts): every demo person and
 * Northwind certified, their forms signed and confirmed, so the start page's tax rule (document 1
 * §3 rule 7) and the business rule after the access info send them home as before.
 *
 * Through the real functions: the answers are checked and saved as the update methods do
 * (checkPersonal / checkBusiness, saveCertification); the forms are rendered, an envelope started
 * on the built-in adapter and each form signed there (signDocument), which files it for review;
 * then each is confirmed as an administrator would (status confirmed, decided by the demo admin).
 *
 * Every person signs their own forms (each PDF names its signer: a copy of another person's
 * would be a false document). Speed: rendering and stamping a form costs 100-300 ms (over a second
 * for the first, loading the fonts); the seed runs once per test template, and within one process
 * each person's signed files are kept, so a second seed (another test database) files copies of
 * that same person's files.
 */
import { eq, inArray } from 'drizzle-orm';
import { TAX_DOCUMENT_TYPES, type BusinessCertification, type PersonalCertification, type TaxFormKind } from '../../../api/tax-certification.ts';
import { DocumentCategory, DocumentStatus } from '../../../api/verification.ts';
import type { Tx } from '../../db/types.ts';
import { businessCompanies } from '../business/business.tables.ts';
import { builtinSignatureAdapter, signDocument } from '../esign/builtin.ts';
import { customerAddresses, customerDocuments } from '../profile/profile.tables.ts';
import { renderTaxForm } from './forms/index.ts';
import { checkBusiness, checkPersonal, saveCertification, type CertificationOwner } from './tax.service.ts';
import { currentAddress } from '../profile/verification.service.ts';
import { RETURN_PATHS, formAddress, startTaxForms } from './tax.signing.ts';

export interface DemoTaxPerson {
  customerId: number;
  userId: number;
  email: string;
  firstName: string;
  lastName: string;
  answers: PersonalCertification;
}

export interface DemoTaxInput {
  persons: readonly DemoTaxPerson[];
  northwind: {
    customerId: number;
    ownerUserId: number;
    ownerEmail: string;
    ownerName: string;
    answers: Omit<BusinessCertification, 'placeOfBusinessAddressId' | 'registeredAddressId'>;
  };
  /** who confirms the forms */
  adminUserId: number;
  providerName: string;
  nowMs: number;
}

interface SignedFile {
  fileName: string;
  content: Buffer;
  sha256: string;
}
/** Signed files by owner (e-mail) and form (see the header: kept within the process). */
const signedFiles = new Map<string, SignedFile>();

/** A demo person's answers: born and resident in one country, its citizen, not a US person, the country's TIN. */
export function demoPersonAnswers(city: string, countryCode: string, dateOfBirth: string, taxId: string): PersonalCertification {
  return {
    cityOfBirth: city,
    countryOfBirth: countryCode,
    dateOfBirth,
    citizenship: [countryCode],
    isUSTaxPayer: false,
    usCitizenshipAbsenceReason: null,
    usCitizenshipAbsenceExplanation: null,
    taxIds: [{ countryCode, taxId, tinMissingReason: null, tinMissingExplanation: null }],
  };
}

async function confirm(tx: Tx, documentIds: number[], adminUserId: number, nowMs: number): Promise<void> {
  if (documentIds.length === 0) return;
  await tx
    .update(customerDocuments)
    .set({ statusId: DocumentStatus.confirmed, decidedByUserId: adminUserId, decidedAt: new Date(nowMs) })
    .where(inArray(customerDocuments.id, documentIds));
}

/** Signs the forms through the built-in adapter (each filed for review by the purpose's handler) and confirms them; keeps the signed files. */
async function signThroughAdapter(tx: Tx, input: Parameters<typeof startTaxForms>[1], signerName: string, adminUserId: number, cacheKey: string): Promise<void> {
  const { signUrls } = await startTaxForms(tx, input);
  const filed: number[] = [];
  for (const url of signUrls) {
    const token = url.slice(url.lastIndexOf('/') + 1);
    await signDocument(tx, { token, typedName: signerName, strokes: [], consent: true, ip: '127.0.0.1', userAgent: 'demo seed', nowMs: input.nowMs });
  }
  const rows = await tx
    .select({
      id: customerDocuments.id,
      documentTypeId: customerDocuments.documentTypeId,
      fileName: customerDocuments.fileName,
      content: customerDocuments.content,
      sha256: customerDocuments.sha256,
    })
    .from(customerDocuments)
    .where(eq(customerDocuments.customerId, input.owner.customerId));
  for (const kind of input.forms) {
    const row = rows.find((r) => r.documentTypeId === TAX_DOCUMENT_TYPES[kind]);
    if (!row) throw new Error(`demo tax: the ${kind} form was not filed`);
    filed.push(row.id);
    signedFiles.set(`${cacheKey}:${kind}`, { fileName: row.fileName, content: Buffer.from(row.content), sha256: row.sha256 });
  }
  await confirm(tx, filed, adminUserId, input.nowMs);
}

/** Files kept signed files as the owner's confirmed documents. */
async function fileCopies(
  tx: Tx,
  owner: CertificationOwner,
  forms: readonly TaxFormKind[],
  cacheKey: string,
  login: string,
  userId: number,
  adminUserId: number,
  nowMs: number,
): Promise<void> {
  await tx.insert(customerDocuments).values(
    forms.map((kind) => {
      const file = signedFiles.get(`${cacheKey}:${kind}`)!;
      return {
        customerId: owner.customerId,
        categoryId: DocumentCategory.other,
        documentTypeId: TAX_DOCUMENT_TYPES[kind],
        statusId: DocumentStatus.confirmed,
        createdUsername: login,
        createdByUserId: userId,
        uploaded: new Date(nowMs),
        fileName: file.fileName,
        mimeType: 'application/pdf',
        sizeBytes: file.content.length,
        sha256: file.sha256,
        content: file.content,
        decidedByUserId: adminUserId,
        decidedAt: new Date(nowMs),
      };
    }),
  );
}

export async function seedDemoTax(tx: Tx, input: DemoTaxInput): Promise<void> {
  const adapter = builtinSignatureAdapter({ publicUrl: 'http://127.0.0.1:3000' });
  const today = new Date(input.nowMs).toISOString().slice(0, 10);
  const personalForms: TaxFormKind[] = ['w8Ben', 'taxResidencySelfCertification'];
  for (const person of input.persons) {
    const owner: CertificationOwner = { customerId: person.customerId, representativeId: null, kind: 'personal' };
    const { row } = await saveCertification(tx, owner, checkPersonal(person.answers, today), person.userId, input.nowMs);
    if (person.answers.isUSTaxPayer || person.answers.citizenship.includes('US')) throw new Error('demo tax: the demo persons are not US persons');
    if (signedFiles.has(`${person.email}:w8Ben`)) {
      await fileCopies(tx, owner, personalForms, person.email, person.email, person.userId, input.adminUserId, input.nowMs);
      continue;
    }
    const name = `${person.firstName} ${person.lastName}`;
    const home = await currentAddress(tx, person.customerId);
    await signThroughAdapter(
      tx,
      {
        owner,
        certification: row,
        forms: personalForms,
        subject: { kind: 'personal', firstName: person.firstName, lastName: person.lastName, address: home ? formAddress(home) : null, certification: row.answers as PersonalCertification },
        signer: { name, email: person.email },
        createdUsername: person.email,
        createdByUserId: person.userId,
        returnPath: RETURN_PATHS.personal,
        lang: 'en',
        providerName: input.providerName,
        nowMs: input.nowMs,
        adapter,
        render: renderTaxForm,
      },
      name,
      input.adminUserId,
      person.email,
    );
  }

  // Northwind: its registered office (also its place of business), then its certification.
  const nw = input.northwind;
  const [office] = await tx
    .insert(customerAddresses)
    .values({ customerId: nw.customerId, addressType: 'business', address1: '14 Harbour Street', city: 'London', postalCode: 'EC1A 1BB', countryCode: 'GB', status: 'confirmed' })
    .returning({ id: customerAddresses.id });
  const owner: CertificationOwner = { customerId: nw.customerId, representativeId: null, kind: 'business' };
  const answers = await checkBusiness(tx, nw.customerId, { ...nw.answers, placeOfBusinessAddressId: office!.id, registeredAddressId: office!.id });
  const { row } = await saveCertification(tx, owner, answers, nw.ownerUserId, input.nowMs);
  const businessForms: TaxFormKind[] = ['w8BenE', 'taxResidencySelfCertification'];
  if (signedFiles.has(`${nw.ownerEmail}:w8BenE`)) {
    await fileCopies(tx, owner, businessForms, nw.ownerEmail, nw.ownerEmail, nw.ownerUserId, input.adminUserId, input.nowMs);
    return;
  }
  const [company] = await tx.select({ registrationNumber: businessCompanies.registrationNumber }).from(businessCompanies).where(eq(businessCompanies.customerId, nw.customerId));
  const address = { address1: '14 Harbour Street', address2: null, city: 'London', postalCode: 'EC1A 1BB', countryCode: 'GB' };
  await signThroughAdapter(
    tx,
    {
      owner,
      certification: row,
      forms: businessForms,
      subject: {
        kind: 'business',
        name: answers.name,
        registrationNumber: company?.registrationNumber ?? null,
        placeOfBusiness: address,
        registeredAddress: address,
        controllingPersons: [],
        certification: answers,
        signerName: nw.ownerName,
        signerCapacity: 'Owner',
      },
      signer: { name: nw.ownerName, email: nw.ownerEmail },
      createdUsername: nw.ownerEmail,
      createdByUserId: nw.ownerUserId,
      returnPath: RETURN_PATHS.business,
      lang: 'en',
      providerName: input.providerName,
      nowMs: input.nowMs,
      adapter,
      render: renderTaxForm,
    },
    nw.ownerName,
    input.adminUserId,
    nw.ownerEmail,
  );
}
