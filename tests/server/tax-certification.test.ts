/**
 * The tax self-certification on the platform (api/tax-certification.ts; document 3 §3, §5-§7),
 * through HTTP on the seeded demo database: the §5 rules each refused with the field's path and
 * nothing saved (a US person without a US entry, the CANNOT_OBTAIN explanation, the TIN a
 * country requires and its format, one residence per country, the US birthplace's reason, the
 * GIIN, the publicly traded company's market, the controlling persons, the company's addresses);
 * the four states moving through signing (the built-in signing page's REST route), the
 * administrator's existing queue and decision; new answers voiding the forms signed before; the
 * W-form upload before any answers; the start page's and the access info's derived flags; the
 * unauthorised representative's own certification through their link, and every other method
 * refusing the link's pair; and the demo people and Northwind certified by the seed.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_ID_HEADER } from '../../api/http.ts';
import { methods } from '../../api/registry.ts';
import { REPRESENTATIVE_SECRET_METHODS } from '../../api/method.ts';
import { TAX_DOCUMENT_TYPES } from '../../api/tax-certification.ts';
import { NORTHWIND_NAME, demoUserByKey } from '../../server/db/demo-users.ts';
import { SEED_TERMS } from '../../server/db/seed.ts';
import { businessRepresentativeDocuments, businessRepresentatives } from '../../server/modules/business/business.tables.ts';
import { issueRepresentativeLink } from '../../server/modules/business/representative-link.ts';
import { customers, termsAcceptances, users } from '../../server/modules/customers/customers.tables.ts';
import { customerAddresses, customerDocuments } from '../../server/modules/profile/profile.tables.ts';
import { taxCertifications } from '../../server/modules/tax/tax.tables.ts';
import { callMethod, callMultipart, createTestApp, postJson, signIn, type TestApp } from './harness.ts';

let t: TestApp;
let northwindId: number;
let owner: string;
let viewer: string;
let admin: string;
let officeId: number;
const rep = { daniel: 0, carl: 0, harbour: 0, marta: 0 };

type Body = Record<string, unknown> & { responseCode: string };
type Answer = Record<string, unknown> & {
  w9FormDocumentStatus: string;
  w8BenFormDocumentStatus: string;
  taxResidencySelfCertificationDocumentStatus: string;
  certificateOfLossOfNationalityDocumentStatus: string;
  requiredForms: string[];
  documents: { kind: string; documentId: number | null; status: string; url: string | null }[];
  updatedAt: string | null;
  certification: Record<string, unknown> | null;
};

let counter = 0;
/** A fresh personal customer who signs in without a second step (terms accepted). */
async function newPerson(values: Partial<typeof customers.$inferInsert> = {}): Promise<{ token: string; customerId: number; userId: number }> {
  const [boris] = await t.db.select().from(users).where(eq(users.email, demoUserByKey.boris.email));
  const [customer] = await t.db
    .insert(customers)
    .values({ customerType: 'personal', firstName: 'Tess', lastName: `Tax${++counter}`, verified: true, residenceCountryCode: 'RO', birthDay: '1990-01-02', ...values })
    .returning({ id: customers.id });
  await t.db.insert(termsAcceptances).values(SEED_TERMS.map((term) => ({ customerId: customer!.id, termId: term.termId, version: term.version })));
  const email = `tax${counter}-${randomBytes(3).toString('hex')}@demo.test`;
  const [user] = await t.db.insert(users).values({ email, passwordHash: boris!.passwordHash, login2faMode: 'no', userType: 1, customerId: customer!.id }).returning();
  const { accessToken } = await signIn(t.app, { ...demoUserByKey.boris, email });
  return { token: accessToken, customerId: customer!.id, userId: user!.id };
}

const call = async (name: string, token: string | null, body: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Body> =>
  (await callMethod(t.app, name, body, { ...(token ? { token } : {}), headers })).body;
const nw = (name: string, token: string, body: Record<string, unknown> = {}) => call(name, token, body, { [CUSTOMER_ID_HEADER]: String(northwindId) });
const vfs = (body: Body) => ((body.validationErrors as { param: string; code: string }[] | undefined) ?? []).map((e) => `${e.param}:${e.code}`);
const certOf = (body: Body) => body.certification as Answer;
const states = (a: Answer) => [a.w9FormDocumentStatus, a.w8BenFormDocumentStatus, a.taxResidencySelfCertificationDocumentStatus, a.certificateOfLossOfNationalityDocumentStatus];

const tin = (countryCode: string, taxId: string | null, tinMissingReason: string | null = null, tinMissingExplanation: string | null = null) => ({
  countryCode,
  taxId,
  tinMissingReason,
  tinMissingExplanation,
});
/** A Romanian resident and citizen born in Cluj with a valid CNP. */
const personal = (over: Record<string, unknown> = {}) => ({
  cityOfBirth: 'Cluj-Napoca',
  countryOfBirth: 'RO',
  dateOfBirth: '1992-06-21',
  citizenship: ['RO'],
  isUSTaxPayer: false,
  taxIds: [tin('RO', '2920621400028')],
  ...over,
});
/** Northwind as an active trading company, its office as both addresses. */
const business = (over: Record<string, unknown> = {}) => ({
  name: NORTHWIND_NAME,
  entityType: 'general',
  registrationCountryCode: 'GB',
  isPubliclyTraded: false,
  isOwnPubliclyTradedCompany: false,
  isEarnPassiveIncome: false,
  isUSTaxPayer: false,
  isDisregardedEntity: false,
  placeOfBusinessAddressId: officeId,
  registeredAddressId: officeId,
  taxIds: [tin('GB', '1234567895')],
  ...over,
});

/** Signs every document of a signData on the built-in signing page's REST route. */
async function signAll(signUrls: string[], typedName = 'Tess Tax'): Promise<void> {
  for (const url of signUrls) {
    const token = url.slice(url.lastIndexOf('/') + 1);
    const res = await postJson(t.app, `/api/v1/e-signature/${token}/sign`, { typedName, strokes: [], consent: true });
    expect(res.statusCode, res.body).toBe(200);
  }
}
async function decide(documentId: number, decision: 'confirm' | 'reject') {
  const res = await call('adminDocumentDecide', admin, { documentId, decision, ...(decision === 'reject' ? { reason: 'The signature is not legible' } : {}) });
  expect(res.responseCode, JSON.stringify(res)).toBe('00');
}
const certificationCount = async () => (await t.db.select({ id: taxCertifications.id }).from(taxCertifications)).length;

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false, globalRateLimitPerMinute: false });
  const [company] = await t.db.select().from(customers).where(eq(customers.businessName, NORTHWIND_NAME));
  northwindId = company!.id;
  [owner, viewer, admin] = (await Promise.all((['owner', 'viewer', 'admin'] as const).map((k) => signIn(t.app, k)))).map((s) => s.accessToken) as [string, string, string];
  const [office] = await t.db.select().from(customerAddresses).where(eq(customerAddresses.customerId, northwindId));
  officeId = office!.id;
  const rows = await t.db.select().from(businessRepresentatives).where(eq(businessRepresentatives.customerId, northwindId));
  const find = (name: string) => rows.find((r) => r.firstName === name || r.companyName === name)!.id;
  Object.assign(rep, { daniel: find('Daniel'), carl: find('Carl'), harbour: find('Harbour Holdings Ltd'), marta: find('Marta') });
});
afterAll(async () => {
  await t?.close();
});

describe('the demo people and Northwind (seeded)', () => {
  it('are certified and validated: the start page and the access info send them home', async () => {
    const [anna, uma] = await Promise.all([signIn(t.app, 'anna'), signIn(t.app, 'uma')]);
    for (const token of [anna.accessToken, uma.accessToken]) {
      const info = await call('getCustomerInfo', token);
      expect((info.customer as { isTaxSectionActionRequired: boolean }).isTaxSectionActionRequired).toBe(false);
      const cert = certOf(await call('personalFatcaCrsCertificationGet', token));
      expect(states(cert)).toEqual(['notRequired', 'validated', 'validated', 'notRequired']);
      expect(cert.documents.map((d) => d.kind)).toEqual(['w8Ben', 'taxResidencySelfCertification']);
    }
    const access = await call('userAccessInfoGet', viewer, { customerId: northwindId });
    expect((access.accessInfo as { taxResidencySelfCertificationDocumentStatus: string }).taxResidencySelfCertificationDocumentStatus).toBe('validated');
    const company = certOf(await nw('businessFatcaCrsCertificationGet', viewer));
    expect(states(company)).toEqual(['notRequired', 'validated', 'validated', 'notRequired']);
    expect(company.requiredForms).toEqual(['w8BenE', 'taxResidencySelfCertification']);
  });
});

describe('a person before any answers', () => {
  it('reads the self-certification none and the rest not required; the start page asks for the tax section; no forms to sign', async () => {
    const p = await newPerson();
    const cert = certOf(await call('personalFatcaCrsCertificationGet', p.token));
    expect(cert).toMatchObject({
      certification: null,
      updatedAt: null,
      requiredForms: [],
      hasUSIndicia: false,
      prefill: { dateOfBirth: '1990-01-02', countryCode: 'RO', taxId: null },
    });
    expect(states(cert)).toEqual(['notRequired', 'notRequired', 'none', 'notRequired']);
    expect((await call('getCustomerInfo', p.token)).customer).toMatchObject({ isTaxSectionActionRequired: true });
    const upload = await call('personalWFormUpload', p.token);
    expect(upload.responseCode).toBe('VF');
    expect(vfs(upload)).toEqual(['certification:required']);
  });
});

describe('the §5 rules of a personal certification (each refused with its field, nothing saved)', () => {
  let p: Awaited<ReturnType<typeof newPerson>>;
  beforeAll(async () => {
    p = await newPerson();
  });
  const refused = async (answers: Record<string, unknown>, expected: string[]) => {
    const before = await certificationCount();
    const res = await call('personalFatcaCrsCertificationUpdate', p.token, answers);
    expect(res.responseCode, JSON.stringify(res)).toBe('VF');
    expect(vfs(res)).toEqual(expected);
    expect(await certificationCount()).toBe(before);
  };

  it('a US taxpayer, or a US citizen, without a US entry', async () => {
    await refused(personal({ isUSTaxPayer: true }), ['taxIds:required']);
    await refused(personal({ citizenship: ['RO', 'US'] }), ['taxIds:required']);
  });
  it('CANNOT_OBTAIN without its explanation', async () => {
    await refused(personal({ taxIds: [tin('RO', null, 'CANNOT_OBTAIN')] }), ['taxIds.0.tinMissingExplanation:required']);
  });
  it('a TIN the country requires (Romania), missing without a reason, or in the wrong format', async () => {
    await refused(personal({ taxIds: [tin('RO', null)] }), ['taxIds.0.taxId:required']);
    await refused(personal({ taxIds: [tin('LT', null), tin('RO', '123')] }), ['taxIds.1.taxId:taxIdCountryFormat']);
  });
  it('one tax residence per country', async () => {
    await refused(personal({ taxIds: [tin('RO', '2920621400028'), tin('RO', null, 'NO_TIN_IS_REQUIRED')] }), ['taxIds.1.countryCode:duplicateEntry']);
  });
  it('born in the US and not a US citizen: the reason, and the explanation of NOT_CITIZEN_AT_BIRTH', async () => {
    await refused(personal({ countryOfBirth: 'US', cityOfBirth: 'Boston' }), ['usCitizenshipAbsenceReason:required']);
    await refused(personal({ countryOfBirth: 'US', cityOfBirth: 'Boston', usCitizenshipAbsenceReason: 'NOT_CITIZEN_AT_BIRTH' }), ['usCitizenshipAbsenceExplanation:required']);
  });
  it('answers that pass: what does not apply is stored as null, the TIN in its compact form', async () => {
    const res = await call(
      'personalFatcaCrsCertificationUpdate',
      p.token,
      personal({
        usCitizenshipAbsenceReason: 'RENOUNCED',
        usCitizenshipAbsenceExplanation: 'not asked',
        // a TIN not required in Lithuania: none and no reason is fine; the explanation is dropped but for CANNOT_OBTAIN
        taxIds: [tin('RO', '2920621 400028', 'CANNOT_OBTAIN', 'x'), tin('LT', null, 'COUNTRY_DOES_NOT_ISSUE', 'dropped'), tin('DE', null, 'CANNOT_OBTAIN', 'Not issued yet')],
      }),
    );
    expect(res.responseCode, JSON.stringify(res)).toBe('00');
    const cert = certOf(res);
    expect(cert.certification).toMatchObject({
      usCitizenshipAbsenceReason: null,
      usCitizenshipAbsenceExplanation: null,
      taxIds: [tin('RO', '2920621400028'), tin('LT', null, 'COUNTRY_DOES_NOT_ISSUE'), tin('DE', null, 'CANNOT_OBTAIN', 'Not issued yet')],
    });
    expect(cert.requiredForms).toEqual(['w8Ben', 'taxResidencySelfCertification']);
    expect(states(cert)).toEqual(['notRequired', 'none', 'none', 'notRequired']);
  });
});

describe('signing the forms, the review, and new answers', () => {
  let p: Awaited<ReturnType<typeof newPerson>>;
  let first: Answer;
  beforeAll(async () => {
    p = await newPerson();
    first = certOf(await call('personalFatcaCrsCertificationUpdate', p.token, personal()));
  });

  it('saving the same answers again keeps their date; the forms are signed and enter the review queue', async () => {
    const again = certOf(await call('personalFatcaCrsCertificationUpdate', p.token, personal({ citizenship: ['RO', 'RO'] })));
    expect(again.updatedAt).toBe(first.updatedAt);
    const upload = await call('personalWFormUpload', p.token);
    expect(upload.responseCode, JSON.stringify(upload)).toBe('00');
    const { signUrls } = upload.signData as { clientId: string; signUrls: string[] };
    expect(signUrls).toHaveLength(2);
    await signAll(signUrls);
    const cert = certOf(await call('personalFatcaCrsCertificationGet', p.token));
    expect(states(cert)).toEqual(['notRequired', 'pending', 'pending', 'notRequired']);
    // pending is no gap: the start page lets the person in
    expect((await call('getCustomerInfo', p.token)).customer).toMatchObject({ isTaxSectionActionRequired: false });
    const queue = await call('adminReviewQueue', admin, { customerId: p.customerId, page: 1, pageSize: 20 });
    const items = queue.items as { document: { id: number; documentTypeId: number; categoryId: number; documentType: string } }[];
    expect(items.map((i) => [i.document.categoryId, i.document.documentTypeId, i.document.documentType])).toEqual([
      [5, TAX_DOCUMENT_TYPES.w8Ben, 'Form W-8BEN (foreign status of an individual)'],
      [5, TAX_DOCUMENT_TYPES.taxResidencySelfCertification, 'Tax residency self-certification (CRS)'],
    ]);
    // the signed PDF reads at the document's url with the person's token
    const w8 = cert.documents.find((d) => d.kind === 'w8Ben')!;
    expect(w8.url).toBe(`/api/v1/documents/${w8.documentId}/file`);
    const file = await t.app.inject({ method: 'GET', url: w8.url!, headers: { authorization: `Bearer ${p.token}` } });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('the administrator confirms one and rejects the other: validated and rejected, and the tax section asks again', async () => {
    const cert = certOf(await call('personalFatcaCrsCertificationGet', p.token));
    await decide(cert.documents.find((d) => d.kind === 'w8Ben')!.documentId!, 'confirm');
    await decide(cert.documents.find((d) => d.kind === 'taxResidencySelfCertification')!.documentId!, 'reject');
    expect(states(certOf(await call('personalFatcaCrsCertificationGet', p.token)))).toEqual(['notRequired', 'validated', 'rejected', 'notRequired']);
    expect((await call('getCustomerInfo', p.token)).customer).toMatchObject({ isTaxSectionActionRequired: true });
    const status = (await call('userStatusGet', p.token)).userStatus as { taxCertification: Record<string, string> };
    expect(status.taxCertification).toEqual({
      w9FormDocumentStatus: 'notRequired',
      certificateOfLossOfNationalityDocumentStatus: 'notRequired',
      taxResidencySelfCertificationDocumentStatus: 'rejected',
      w8BenFormDocumentStatus: 'validated',
    });
  });

  it('new answers void the forms signed before (a US taxpayer now signs the W-9), and a form of the old answers is not filed', async () => {
    const old = await call('personalWFormUpload', p.token);
    const oldUrls = (old.signData as { signUrls: string[] }).signUrls;
    const changed = certOf(
      await call('personalFatcaCrsCertificationUpdate', p.token, personal({ isUSTaxPayer: true, taxIds: [tin('RO', '2920621400028'), tin('US', '123-45-6789')] })),
    );
    expect(changed.updatedAt).not.toBe(first.updatedAt);
    expect(changed.requiredForms).toEqual(['w9', 'taxResidencySelfCertification']);
    expect(changed.hasUSIndicia).toBe(true);
    expect(states(changed)).toEqual(['none', 'notRequired', 'none', 'notRequired']);
    const before = (await t.db.select().from(customerDocuments).where(eq(customerDocuments.customerId, p.customerId))).length;
    await signAll(oldUrls);
    expect((await t.db.select().from(customerDocuments).where(eq(customerDocuments.customerId, p.customerId))).length).toBe(before);
    expect(states(certOf(await call('personalFatcaCrsCertificationGet', p.token)))).toEqual(['none', 'notRequired', 'none', 'notRequired']);
  });
});

describe('a person born in the US who renounced the citizenship', () => {
  it('is asked for the certificate of loss of nationality, uploads it, and the administrator confirms it', async () => {
    const p = await newPerson();
    const answers = personal({ countryOfBirth: 'US', cityOfBirth: 'Boston', usCitizenshipAbsenceReason: 'RENOUNCED' });
    const refusedEarly = await callMultipart(t.app, 'personalLossOfNationalityCertificateUpload', {}, [{ field: 'front', fileName: 'cln.pdf', content: '%PDF-1.4\n%%EOF\n' }], {
      token: p.token,
    });
    expect(vfs(refusedEarly.body)).toEqual(['front:notOffered']);
    const cert = certOf(await call('personalFatcaCrsCertificationUpdate', p.token, answers));
    expect(cert).toMatchObject({ hasUSIndicia: true, certificateOfLossOfNationalityRequired: true, certificateOfLossOfNationalityDocumentStatus: 'none' });
    const up = await callMultipart(t.app, 'personalLossOfNationalityCertificateUpload', {}, [{ field: 'front', fileName: 'cln.pdf', content: '%PDF-1.4\n%%EOF\n' }], {
      token: p.token,
    });
    expect(up.body.responseCode, JSON.stringify(up.body)).toBe('00');
    const after = certOf(up.body);
    expect(after.certificateOfLossOfNationalityDocumentStatus).toBe('pending');
    await decide(after.documents.find((d) => d.kind === 'certificateOfLossOfNationality')!.documentId!, 'confirm');
    expect(certOf(await call('personalFatcaCrsCertificationGet', p.token)).certificateOfLossOfNationalityDocumentStatus).toBe('validated');
  });
});

describe('the business certification', () => {
  const refused = async (answers: Record<string, unknown>, expected: string[]) => {
    const before = await t.db
      .select()
      .from(taxCertifications)
      .where(and(eq(taxCertifications.customerId, northwindId), eq(taxCertifications.kind, 'business')));
    const res = await nw('businessFatcaCrsCertificationUpdate', owner, answers);
    expect(res.responseCode, JSON.stringify(res)).toBe('VF');
    expect(vfs(res)).toEqual(expected);
    expect(
      await t.db
        .select()
        .from(taxCertifications)
        .where(and(eq(taxCertifications.customerId, northwindId), eq(taxCertifications.kind, 'business'))),
    ).toEqual(before);
  };

  it('a financial institution: its GIIN in the IRS format, or why it has none', async () => {
    await refused(business({ entityType: 'financial-institution', isUsingClientFunds: true }), ['giin:required']);
    await refused(business({ entityType: 'financial-institution', isUsingClientFunds: true, giin: '98Q96B.00000.LE.25' }), ['giin:badFormat']);
    await refused(business({ entityType: 'investment', isManagedByFinancialInstitution: true }), ['giin:required']);
  });
  it('a publicly traded company: its market and ticker; a related entity: the traded company', async () => {
    await refused(business({ isPubliclyTraded: true }), ['companySecurityMarket:required', 'companyTicket:required']);
    await refused(business({ isOwnPubliclyTradedCompany: true }), ['companyOwnedByYou:required']);
  });
  it('a passive entity: its controlling persons, each a person among its shareholders and directors', async () => {
    await refused(business({ isEarnPassiveIncome: true }), ['controllingPersons:required']);
    await refused(
      business({
        isEarnPassiveIncome: true,
        controllingPersons: [
          { representativeId: rep.daniel, taxResidenceCountryCode: 'GB' },
          { representativeId: rep.carl, taxResidenceCountryCode: 'GB' }, // an authorised user
          { representativeId: rep.harbour, taxResidenceCountryCode: 'GB' }, // a company
          { representativeId: rep.daniel, taxResidenceCountryCode: 'GB' },
        ],
      }),
      ['controllingPersons.1.representativeId:notAllowed', 'controllingPersons.2.representativeId:notAllowed', 'controllingPersons.3.representativeId:duplicateEntry'],
    );
  });
  it("the company's own addresses; the business TIN its country requires; a US taxpayer's US entry", async () => {
    const [boris] = await t.db.select().from(customers).where(eq(customers.firstName, 'Boris'));
    const [elsewhere] = await t.db
      .insert(customerAddresses)
      .values({ customerId: boris!.id, address1: 'Str. Lunga 1', city: 'Brasov', postalCode: '500001', countryCode: 'RO' })
      .returning();
    await refused(business({ placeOfBusinessAddressId: elsewhere!.id }), ['placeOfBusinessAddressId:notAllowed']);
    await refused(business({ taxIds: [tin('GB', null)] }), ['taxIds.0.taxId:required']);
    await refused(business({ isUSTaxPayer: true }), ['taxIds:required']);
  });
  it('read with any access, given by full rights only', async () => {
    expect((await nw('businessFatcaCrsCertificationGet', viewer)).responseCode).toBe('00');
    expect((await nw('businessFatcaCrsCertificationUpdate', viewer, business())).responseCode).toBe('13');
    expect((await nw('businessWFormUpload', viewer)).responseCode).toBe('13');
  });
  it('new answers: a passive entity with its controlling persons; the owner signs the W-8BEN-E and the self-certification; the access info follows', async () => {
    const res = await nw(
      'businessFatcaCrsCertificationUpdate',
      owner,
      business({
        isEarnPassiveIncome: true,
        giin: 'ignored',
        controllingPersons: [
          { representativeId: rep.daniel, taxResidenceCountryCode: 'gb' },
          { representativeId: rep.marta, taxResidenceCountryCode: 'SE' },
        ],
      }),
    );
    expect(res.responseCode, JSON.stringify(res)).toBe('00');
    const cert = certOf(res);
    expect(cert.certification).toMatchObject({
      giin: null,
      isEarnPassiveIncome: true,
      controllingPersons: [
        { representativeId: rep.daniel, taxResidenceCountryCode: 'GB' },
        { representativeId: rep.marta, taxResidenceCountryCode: 'SE' },
      ],
    });
    expect(states(cert)).toEqual(['notRequired', 'none', 'none', 'notRequired']);
    const access = async () =>
      ((await call('userAccessInfoGet', viewer, { customerId: northwindId })).accessInfo as { taxResidencySelfCertificationDocumentStatus: string })
        .taxResidencySelfCertificationDocumentStatus;
    expect(await access()).toBe('none');
    const upload = await nw('businessWFormUpload', owner);
    expect(upload.responseCode, JSON.stringify(upload)).toBe('00');
    await signAll((upload.signData as { signUrls: string[] }).signUrls, 'Olivia Owens');
    expect(await access()).toBe('pending');
    const signed = certOf(await nw('businessFatcaCrsCertificationGet', viewer));
    for (const d of signed.documents) await decide(d.documentId!, 'confirm');
    expect(await access()).toBe('validated');
    const status = (await nw('userStatusGet', owner)).userStatus as { taxCertification: Record<string, string> };
    expect(status.taxCertification).toMatchObject({ w8BenFormDocumentStatus: 'validated', taxResidencySelfCertificationDocumentStatus: 'validated' });
  });
});

describe('the unauthorised representative (their link)', () => {
  let pair: { fromEmail: string; authSecret: string };
  beforeAll(async () => {
    const { secret } = await issueRepresentativeLink(t.db, { representativeId: rep.daniel, email: 'daniel.reed@northwind.test', createdByUserId: null, nowMs: Date.now() });
    pair = { fromEmail: 'daniel.reed@northwind.test', authSecret: secret };
  });

  it('certifies for the company as themselves: their own certification, forms and certificate, linked to them', async () => {
    const got = certOf(await call('personalFatcaCrsCertificationGet', null, pair));
    expect(got).toMatchObject({ certification: null, prefill: { dateOfBirth: '1983-01-09' } });
    const saved = await call('personalFatcaCrsCertificationUpdate', null, {
      ...pair,
      ...personal({ countryOfBirth: 'US', cityOfBirth: 'Denver', citizenship: ['GB'], usCitizenshipAbsenceReason: 'RENOUNCED', taxIds: [tin('GB', 'AB123456C')] }),
    });
    expect(saved.responseCode, JSON.stringify(saved)).toBe('00');
    const [row] = await t.db.select().from(taxCertifications).where(eq(taxCertifications.representativeId, rep.daniel));
    expect(row).toMatchObject({ customerId: northwindId, kind: 'personal', updatedByUserId: null });
    const upload = await call('personalWFormUpload', null, pair);
    expect(upload.responseCode, JSON.stringify(upload)).toBe('00');
    await signAll((upload.signData as { signUrls: string[] }).signUrls, 'Daniel Reed');
    const cln = await callMultipart(t.app, 'personalLossOfNationalityCertificateUpload', pair, [{ field: 'front', fileName: 'cln.pdf', content: '%PDF-1.4\n%%EOF\n' }]);
    expect(cln.body.responseCode, JSON.stringify(cln.body)).toBe('00');
    const cert = certOf(cln.body);
    expect(states(cert)).toEqual(['notRequired', 'pending', 'pending', 'pending']);
    // their documents are the company's, linked to them, and carry no url (the link reads no files)
    expect(cert.documents.every((d) => d.url === null && d.documentId !== null)).toBe(true);
    const links = await t.db.select().from(businessRepresentativeDocuments).where(eq(businessRepresentativeDocuments.representativeId, rep.daniel));
    expect(links.map((l) => l.documentId).sort()).toEqual(cert.documents.map((d) => d.documentId).sort());
    // the company's own certification does not count them
    expect(certOf(await nw('businessFatcaCrsCertificationGet', viewer)).taxResidencySelfCertificationDocumentStatus).toBe('validated');
  });

  it('every other method refuses the pair: without a token, 401; a public one, VF naming both fields', async () => {
    const others = Object.values(methods).filter((m) => !REPRESENTATIVE_SECRET_METHODS.has(m.name));
    expect(others.length).toBeGreaterThan(100);
    for (const m of others) {
      const res = await callMethod(t.app, m.name, pair);
      expect(res.body.responseCode, m.name).not.toBe('00');
      if (m.access === 'public') {
        expect(res.body.responseCode, m.name).toBe('VF');
        expect(vfs(res.body as Body), m.name).toEqual(expect.arrayContaining(['fromEmail:fieldNotTaken', 'authSecret:fieldNotTaken']));
      } else {
        expect([res.status, res.body.responseCode], m.name).toEqual([401, 'AU']);
      }
    }
  });
});
