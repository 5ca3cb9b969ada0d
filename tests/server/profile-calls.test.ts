/**
 * The profile calls not covered by profile.test.ts and documents.test.ts, over HTTP on the real
 * platform: addresses (create and replace with their documents, delete, confirm), the tax number,
 * the personal info update, due diligence (levels, financial info), the administrator's reassign,
 * identityGet through every derived state, the code-request limits, and the multipart file limit.
 * Each with another customer's ids (ENOA), bad fields (VF naming the field), non-administrators on
 * administrator calls (13), and a refused call changing nothing (every profile table compared
 * before and after).
 */
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION_PATH } from '../../api/http.ts';
import { DOCUMENT_MAX_BYTES } from '../../api/documents.ts';
import { PROFILE_CODES_PER_WINDOW } from '../../api/profile.ts';
import { customerAccess, customers, phones, users } from '../../server/modules/customers/customers.tables.ts';
import { auditLog } from '../../server/modules/platform/platform.tables.ts';
import { documentColumns } from '../../server/modules/profile/documents.service.ts';
import {
  customerAddresses,
  customerDocuments,
  customerEmails,
  dueDiligenceInfo,
  identityJobs,
  kycInfo,
  limitReasons,
  profileCodes,
  usernameChangeRequests,
} from '../../server/modules/profile/profile.tables.ts';
import { callMethod, callMultipart, createTestApp, signIn, type MethodAnswer, type SignedIn, type TestApp } from './harness.ts';

let t: TestApp;
let app: FastifyInstance;
let uma: SignedIn;
let rita: SignedIn;
let boris: SignedIn;
let owner: SignedIn;
let admin: SignedIn;
let viewer: SignedIn;
let clerk: SignedIn;

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200, 0x20)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)]);

interface Part {
  field: string;
  fileName: string;
  content: Buffer;
}

/** A named method called as multipart: the JSON in `data`, the files as parts. */
function upload(name: string, data: Record<string, unknown>, parts: Part[], token: string): Promise<MethodAnswer> {
  return callMultipart(app, name, data, parts, { token });
}

function expectCode(res: MethodAnswer, code: string): void {
  expect(res.body.responseCode, JSON.stringify(res.body)).toBe(code);
}

function expectVf(res: MethodAnswer, param: string, description?: string | RegExp): void {
  expectCode(res, 'VF');
  const errors = res.body.validationErrors as { param: string; description: string }[];
  const match = errors.find((e) => e.param === param);
  expect(match, JSON.stringify(errors)).toBeDefined();
  if (description !== undefined) expect(match!.description).toMatch(description);
}

/** Every row a profile call may write (file contents left out), and the audit count. */
async function snapshot(): Promise<string> {
  const rows = {
    customers: await t.db.select().from(customers).orderBy(asc(customers.id)),
    users: await t.db.select({ id: users.id, email: users.email }).from(users).orderBy(asc(users.id)),
    phones: await t.db.select().from(phones).orderBy(asc(phones.id)),
    addresses: await t.db.select().from(customerAddresses).orderBy(asc(customerAddresses.id)),
    documents: await t.db.select(documentColumns).from(customerDocuments).orderBy(asc(customerDocuments.id)),
    emails: await t.db.select().from(customerEmails).orderBy(asc(customerEmails.id)),
    kyc: await t.db.select().from(kycInfo).orderBy(asc(kycInfo.customerId)),
    dueDiligence: await t.db.select().from(dueDiligenceInfo).orderBy(asc(dueDiligenceInfo.customerId)),
    jobs: await t.db.select().from(identityJobs).orderBy(asc(identityJobs.id)),
    limits: await t.db.select().from(limitReasons).orderBy(asc(limitReasons.id)),
    codes: await t.db.select().from(profileCodes).orderBy(asc(profileCodes.id)),
    usernames: await t.db.select().from(usernameChangeRequests).orderBy(asc(usernameChangeRequests.id)),
    audit: (await t.db.select({ n: count() }).from(auditLog))[0]!.n,
  };
  return JSON.stringify(rows);
}

/** Runs refused calls and checks that nothing changed. */
async function unchanged(run: () => Promise<void>): Promise<void> {
  const before = await snapshot();
  await run();
  expect(await snapshot()).toBe(before);
}

async function customerIdOf(email: string): Promise<number> {
  const [u] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, email));
  return u!.customerId;
}

/** The company the owner acts for (its customer_access row). */
async function northwindId(): Promise<number> {
  const [row] = await t.db
    .select({ customerId: customerAccess.customerId })
    .from(customerAccess)
    .innerJoin(users, eq(users.id, customerAccess.userId))
    .where(eq(users.email, 'owner@northwind.test'));
  return row!.customerId;
}

async function lastAudit(method: string) {
  const [row] = await t.db.select().from(auditLog).where(eq(auditLog.method, method)).orderBy(desc(auditLog.id)).limit(1);
  return row!;
}

const recent = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const passport = { categoryId: 1, documentTypeId: 1, number: 'LT7654321', issuedDate: '2022-03-01', expiresDate: '2032-03-01' };
const address = { address1: 'Laisvės al. 10', city: 'Kaunas', postalCode: 'LT-44240', countryCode: 'lt' };

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false });
  app = t.app;
  uma = await signIn(app, 'uma');
  rita = await signIn(app, 'rita');
  boris = await signIn(app, 'boris');
  owner = await signIn(app, 'owner');
  admin = await signIn(app, 'admin');
  viewer = await signIn(app, 'viewer');
  clerk = await signIn(app, 'clerk');
});

afterAll(async () => {
  await t?.close();
});

describe('addresses', () => {
  let borisAddressId = 0;

  it('creates an address with its main and additional documents: pending, both stored, audited without content', async () => {
    const res = await upload(
      'customerAddressCreateOrReplace',
      { ...address, addressType: 'home', addressStatus: 1, mainDocument: { documentTypeId: 10, issuedDate: recent(10) }, additionalDocument: { documentTypeId: 11, issuedDate: recent(5) } },
      [
        { field: 'mainDocument', fileName: 'bill.pdf', content: PDF },
        { field: 'additionalDocument', fileName: 'statement.png', content: PNG },
      ],
      boris.accessToken,
    );
    expectCode(res, '00');
    const saved = res.body.address as { addressId: number; countryCode: string; addressStatus: number; status: string; confirmed: boolean; uploadedDocuments: { id: number; categoryId: number; documentTypeId: number; addressId: number; mimeType: string }[] };
    borisAddressId = saved.addressId;
    expect(saved).toMatchObject({ countryCode: 'LT', addressStatus: 1, status: 'pending', confirmed: false });
    expect(saved.uploadedDocuments.map((d) => [d.categoryId, d.documentTypeId, d.addressId, d.mimeType])).toEqual([
      [2, 10, borisAddressId, 'application/pdf'],
      [2, 11, borisAddressId, 'image/png'],
    ]);
    const audit = await lastAudit('customerAddressCreateOrReplace');
    expect(audit.details).toMatchObject({ addressId: borisAddressId, replaced: false, documentIds: saved.uploadedDocuments.map((d) => d.id) });
    expect(JSON.stringify(audit.details)).not.toMatch(/Laisv|Kaunas|%PDF/);
    const list = await callMethod(app, 'addressInquiry', {}, { token: boris.accessToken });
    expect((list.body.addresses as { addressId: number }[]).map((a) => a.addressId)).toEqual([borisAddressId]);
  });

  it('a new address of the same type replaces the current one; the replaced one is no longer listed', async () => {
    const res = await callMethod(app, 'customerAddressCreateOrReplace', { ...address, city: 'Klaipėda', postalCode: 'LT-91001' }, { token: boris.accessToken });
    expectCode(res, '00');
    const id = (res.body.address as { addressId: number }).addressId;
    expect(id).not.toBe(borisAddressId);
    const list = await callMethod(app, 'addressInquiry', {}, { token: boris.accessToken });
    expect((list.body.addresses as { addressId: number; city: string }[]).map((a) => [a.addressId, a.city])).toEqual([[id, 'Klaipėda']]);
    borisAddressId = id;
  });

  it('replaces an address by id with a proof: the same id, the new place, pending with its document', async () => {
    const res = await upload(
      'customerAddressCreateOrReplace',
      { addressId: borisAddressId, ...address, address1: 'Vilniaus g. 1', mainDocument: { documentTypeId: 13, issuedDate: recent(30) } },
      [{ field: 'mainDocument', fileName: 'lease.pdf', content: PDF }],
      boris.accessToken,
    );
    expectCode(res, '00');
    expect(res.body.address).toMatchObject({ addressId: borisAddressId, address1: 'Vilniaus g. 1', city: 'Kaunas', status: 'pending' });
    expect((await lastAudit('customerAddressCreateOrReplace')).details).toMatchObject({ addressId: borisAddressId, replaced: true });
  });

  it('bad fields answer VF naming each, and nothing is written', async () => {
    await unchanged(async () => {
      const res = await callMethod(app, 'customerAddressCreateOrReplace', { address1: ' ', city: '', postalCode: 'x'.repeat(21), countryCode: 'LTU', addressStatus: 2, addressType: 'castle' }, { token: boris.accessToken });
      expectCode(res, 'VF');
      const params = (res.body.validationErrors as { param: string }[]).map((e) => e.param).sort();
      expect(params).toEqual(['address1', 'addressStatus', 'addressType', 'city', 'countryCode', 'postalCode']);
      // Each with the code the app words in the customer's language (api/errors.ts) and its parameters.
      expect(res.body.validationErrors).toContainEqual({ param: 'postalCode', description: 'must be at most 20 characters', code: 'tooLong', params: { max: 20 } });
      expect(res.body.validationErrors).toContainEqual({ param: 'address1', description: 'is required', code: 'required', params: {} });
      expect(res.body.validationErrors).toContainEqual({ param: 'addressType', description: 'is not one of the allowed values', code: 'notAllowed', params: {} });
      // A file without its document's details, a file in an unknown field, a file whose content is no document.
      expectVf(await upload('customerAddressCreateOrReplace', address, [{ field: 'mainDocument', fileName: 'a.pdf', content: PDF }], boris.accessToken), 'mainDocument', /required with its file/);
      expectVf(
        await upload('customerAddressCreateOrReplace', { ...address, mainDocument: { documentTypeId: 10, issuedDate: recent(3) } }, [
          { field: 'mainDocument', fileName: 'a.pdf', content: PDF },
          { field: 'proof', fileName: 'b.pdf', content: PDF },
        ], boris.accessToken),
        'proof',
        /not a file field of this call/,
      );
      expectVf(
        await upload('customerAddressCreateOrReplace', { ...address, mainDocument: { documentTypeId: 10, issuedDate: recent(3) } }, [{ field: 'mainDocument', fileName: 'a.pdf', content: Buffer.from('plain text') }], boris.accessToken),
        'mainDocument',
        /PDF, JPEG or PNG/,
      );
      // A passport is no proof of address; a bill older than 180 days is too old.
      expectVf(
        await upload('customerAddressCreateOrReplace', { ...address, mainDocument: { documentTypeId: 1, issuedDate: recent(3) } }, [{ field: 'mainDocument', fileName: 'a.pdf', content: PDF }], boris.accessToken),
        'mainDocument.documentTypeId',
      );
      expectVf(
        await upload('customerAddressCreateOrReplace', { ...address, mainDocument: { documentTypeId: 10, issuedDate: recent(400) } }, [{ field: 'mainDocument', fileName: 'a.pdf', content: PDF }], boris.accessToken),
        'mainDocument.issuedDate',
        /180 days/,
      );
    });
  });

  it("another customer's address id answers ENOA to replace, delete and confirm, and nothing changes", async () => {
    const [umaAddress] = await t.db.select().from(customerAddresses).where(eq(customerAddresses.customerId, await customerIdOf('uma@demo.test')));
    await unchanged(async () => {
      expectCode(await callMethod(app, 'customerAddressCreateOrReplace', { addressId: umaAddress!.id, ...address }, { token: boris.accessToken }), 'ENOA');
      expectCode(await callMethod(app, 'customerAddressDelete', { id: umaAddress!.id }, { token: boris.accessToken }), 'ENOA');
      expectCode(await callMethod(app, 'confirmAddress', { addressId: umaAddress!.id }, { token: boris.accessToken }), 'ENOA');
      expectVf(await callMethod(app, 'customerAddressDelete', { id: 0 }, { token: boris.accessToken }), 'id');
      const anonymous = await callMethod(app, 'customerAddressDelete', { id: umaAddress!.id });
      expect(anonymous.status).toBe(401);
      expectCode(anonymous, 'AU');
    });
  });

  it('the customer confirms the address is still correct, then deletes it', async () => {
    const confirm = await callMethod(app, 'confirmAddress', { addressId: borisAddressId }, { token: boris.accessToken });
    expectCode(confirm, '00');
    const [row] = await t.db.select().from(customerAddresses).where(eq(customerAddresses.id, borisAddressId));
    expect(row!.customerConfirmedAt).not.toBeNull();
    expectCode(await callMethod(app, 'customerAddressDelete', { id: borisAddressId }, { token: boris.accessToken }), '00');
    const list = await callMethod(app, 'addressInquiry', {}, { token: boris.accessToken });
    expect(list.body.addresses).toEqual([]);
    await unchanged(async () => {
      expectCode(await callMethod(app, 'customerAddressDelete', { id: borisAddressId }, { token: boris.accessToken }), 'ENOA');
      expectCode(await callMethod(app, 'confirmAddress', { addressId: borisAddressId }, { token: boris.accessToken }), 'ENOA');
    });
  });
});

describe('tax number', () => {
  it('bad tax numbers and positions answer VF naming the field, and nothing changes', async () => {
    await unchanged(async () => {
      expectVf(await callMethod(app, 'customerTaxNumberUpdate', { taxId: 'ab' }, { token: boris.accessToken }), 'taxId', /3 to 30/);
      expectVf(await callMethod(app, 'customerTaxNumberUpdate', { taxId: 'LT#123' }, { token: boris.accessToken }), 'taxId');
      expectVf(await callMethod(app, 'customerTaxNumberUpdate', {}, { token: boris.accessToken }), 'taxId');
      expectVf(await callMethod(app, 'customerTaxNumberUpdate', { taxId: 'LT123456', positionId: 0 }, { token: boris.accessToken }), 'positionId');
      // Boris holds no position for himself; the owner holds 8 and 2 at Northwind, not 6.
      expectVf(await callMethod(app, 'customerTaxNumberUpdate', { taxId: 'LT123456', positionId: 2 }, { token: boris.accessToken }), 'positionId', /not a position you hold/);
      const northwind = [{ id: await northwindId() }];
      expectVf(await callMethod(app, 'customerTaxNumberUpdate', { taxId: 'GB123456', positionId: 6, fromCustomerId: northwind[0]!.id }, { token: owner.accessToken }), 'positionId');
      // Another customer's company: ENOA.
      expectCode(await callMethod(app, 'customerTaxNumberUpdate', { taxId: 'GB123456', fromCustomerId: northwind[0]!.id }, { token: boris.accessToken }), 'ENOA');
    });
  });

  it('stores the number in its compact form (Boris lives in Romania: a CNP); the audit says it changed, not what it is', async () => {
    expectCode(await callMethod(app, 'customerTaxNumberUpdate', { taxId: ' 2850129-123 456 ' }, { token: boris.accessToken }), '00');
    const [c] = await t.db.select({ taxId: customers.taxId }).from(customers).where(eq(customers.id, await customerIdOf('boris@demo.test')));
    expect(c!.taxId).toBe('2850129123456');
    const audit = await lastAudit('customerTaxNumberUpdate');
    expect(audit.details).toEqual({ taxIdUpdated: true });
  });

  it('a representative updates the company number with a position held there', async () => {
    const northwind = { id: await northwindId() };
    // Northwind is registered in the UK: a UTR.
    expectCode(await callMethod(app, 'customerTaxNumberUpdate', { taxId: '1123456789', positionId: 2, fromCustomerId: northwind.id }, { token: owner.accessToken }), '00');
    const [c] = await t.db.select({ taxId: customers.taxId }).from(customers).where(eq(customers.id, northwind.id));
    expect(c!.taxId).toBe('1123456789');
  });
});

describe('personal info update', () => {
  it('bad fields answer VF; a company cannot update personal info (TA1); nothing changes', async () => {
    const northwind = { id: await northwindId() };
    await unchanged(async () => {
      const res = await callMethod(app, 'kycCustomerPersonalInfoUpdate', { firstName: ' ', lastName: 'x'.repeat(101), birthDay: '17/02/1994', residenceCountryCode: 'LTU' }, { token: uma.accessToken });
      expectCode(res, 'VF');
      expect((res.body.validationErrors as { param: string }[]).map((e) => e.param).sort()).toEqual(['birthDay', 'firstName', 'lastName', 'residenceCountryCode']);
      expectVf(await callMethod(app, 'kycCustomerPersonalInfoUpdate', { firstName: 'Uma', lastName: 'U', birthDay: inDays(2), residenceCountryCode: 'LT' }, { token: uma.accessToken }), 'birthDay', /future/);
      expectCode(await callMethod(app, 'kycCustomerPersonalInfoUpdate', { firstName: 'N', lastName: 'W', birthDay: '1990-01-01', residenceCountryCode: 'GB', fromCustomerId: northwind.id }, { token: owner.accessToken }), 'TA1');
    });
  });

  it('updates the names, birth day and residence and clears isNeedPersonalInfoUpdate; the audit holds no names', async () => {
    const umaId = await customerIdOf('uma@demo.test');
    await t.db.update(customers).set({ isNeedPersonalInfoUpdate: true }).where(eq(customers.id, umaId));
    const before = await callMethod(app, 'userStatusGet', {}, { token: uma.accessToken });
    expect(before.body.isNeedPersonalInfoUpdate).toBe(true);
    expectCode(await callMethod(app, 'kycCustomerPersonalInfoUpdate', { firstName: ' Uma  ', lastName: 'Urbonaitė', birthDay: '1994-02-17', residenceCountryCode: 'lt' }, { token: uma.accessToken }), '00');
    const [c] = await t.db.select().from(customers).where(eq(customers.id, umaId));
    expect(c).toMatchObject({ firstName: 'Uma', lastName: 'Urbonaitė', birthDay: '1994-02-17', residenceCountryCode: 'LT', isNeedPersonalInfoUpdate: false });
    const audit = await lastAudit('kycCustomerPersonalInfoUpdate');
    expect(audit.details).toEqual({ personalInfoUpdated: true, nameChanged: true });
    const after = await callMethod(app, 'userStatusGet', {}, { token: uma.accessToken });
    expect(after.body.isNeedPersonalInfoUpdate).toBe(false);
  });
});

describe('due diligence', () => {
  it('administrator calls refuse other users (13), bad fields (VF) and unknown customers (TA1), changing nothing', async () => {
    const ritaId = await customerIdOf('rita@demo.test');
    await unchanged(async () => {
      expectCode(await callMethod(app, 'dueDiligenceUpdate', { customerId: ritaId, dueDiligenceLevel: 1 }, { token: rita.accessToken }), '13');
      expectCode(await callMethod(app, 'financialDetailUpdate', { customerId: ritaId, annualIncome: '1' }, { token: boris.accessToken }), '13');
      const bad = await callMethod(app, 'dueDiligenceUpdate', { customerId: 0, dueDiligenceLevel: 5, requiredDocumentTypeIds: [0] }, { token: admin.accessToken });
      expectCode(bad, 'VF');
      expect((bad.body.validationErrors as { param: string }[]).map((e) => e.param).sort()).toEqual(['customerId', 'dueDiligenceLevel', 'requiredDocumentTypeIds.0']);
      expectVf(await callMethod(app, 'financialDetailUpdate', { customerId: ritaId, annualIncome: 'lots', netWorth: '1.234' }, { token: admin.accessToken }), 'annualIncome', /amount/);
      const unknown = await callMethod(app, 'dueDiligenceUpdate', { customerId: 999_999, dueDiligenceLevel: 1 }, { token: admin.accessToken });
      expectCode(unknown, 'TA1');
      expect(unknown.body.validationErrors).toEqual([{ param: 'customerId', description: 'is not a customer', code: 'notCustomer', params: {} }]);
      expectCode(await callMethod(app, 'financialDetailUpdate', { customerId: 999_999, annualIncome: '1' }, { token: admin.accessToken }), 'TA1');
    });
  });

  it('level 0: the status says 0 and nothing is asked', async () => {
    const res = await callMethod(app, 'userStatusGet', {}, { token: rita.accessToken });
    expect(res.body).toMatchObject({ dueDiligenceLevel: 0, userStatus: { proofOfResidence: 'notRequired' } });
    const info = await callMethod(app, 'dueDiligenceInfoGet', {}, { token: rita.accessToken });
    expect(info.body).toMatchObject({ responseCode: '00', dueDiligenceInfo: { dueDiligenceLevel: 0, address: { required: false, status: 'notRequired' }, document: { requiredDocumentTypeIds: [], status: 'notRequired' }, uploadedDocuments: [] } });
  });

  it('level 1 with a proof of address and a source of wealth asked: the status and the info follow, audited', async () => {
    const ritaId = await customerIdOf('rita@demo.test');
    const res = await callMethod(app, 'dueDiligenceUpdate', { customerId: ritaId, dueDiligenceLevel: 1, addressDocumentRequired: true, requiredDocumentTypeIds: [80] }, { token: admin.accessToken });
    expectCode(res, '00');
    expect((await lastAudit('dueDiligenceUpdate')).details).toEqual({ customerId: ritaId, fromLevel: 0, toLevel: 1, addressDocumentRequired: true, requiredDocumentTypeIds: [80] });
    const status = await callMethod(app, 'userStatusGet', {}, { token: rita.accessToken });
    expect(status.body).toMatchObject({ dueDiligenceLevel: 1, userStatus: { proofOfResidence: 'none' } });
    const info = await callMethod(app, 'dueDiligenceInfoGet', {}, { token: rita.accessToken });
    expect(info.body).toMatchObject({ dueDiligenceInfo: { dueDiligenceLevel: 1, address: { required: true, status: 'none' }, document: { requiredDocumentTypeIds: [80], status: 'none' } } });

    // She uploads a payslip for due diligence: the info lists it, pending.
    const up = await upload('customerJumioDocumentCreate', { categoryId: 11, documentTypeId: 80, issuedDate: recent(20), isDueDiligence: 1 }, [{ field: 'front', fileName: 'payslip.pdf', content: PDF }], rita.accessToken);
    expectCode(up, '00');
    const after = await callMethod(app, 'dueDiligenceInfoGet', {}, { token: rita.accessToken });
    const dd = after.body.dueDiligenceInfo as { document: { status: string }; uploadedDocuments: { documentTypeId: number; statusId: number }[] };
    expect(dd.document.status).toBe('pending');
    expect(dd.uploadedDocuments.map((d) => [d.documentTypeId, d.statusId])).toEqual([[80, 0]]);
  });

  it('the financial info the administrator records is in the info; the audit names the fields, not the amounts', async () => {
    const ritaId = await customerIdOf('rita@demo.test');
    expectCode(await callMethod(app, 'financialDetailUpdate', { customerId: ritaId, annualIncome: '85000.50', netWorth: '420000', sourceOfWealth: 'Salary and savings', employerName: 'Acme UAB' }, { token: admin.accessToken }), '00');
    const audit = await lastAudit('financialDetailUpdate');
    expect(audit.details).toEqual({ customerId: ritaId, fields: ['annualIncome', 'netWorth', 'sourceOfWealth', 'employerName'] });
    // Only the fields sent change.
    expectCode(await callMethod(app, 'financialDetailUpdate', { customerId: ritaId, employerName: null }, { token: admin.accessToken }), '00');
    const info = await callMethod(app, 'dueDiligenceInfoGet', {}, { token: rita.accessToken });
    expect((info.body.dueDiligenceInfo as { financialInfo: unknown }).financialInfo).toEqual({ annualIncome: '85000.50', netWorth: '420000', sourceOfWealth: 'Salary and savings', employerName: null });
  });

  it('level 4 keeps what level 1 asked; level 2 is reported to the web as is', async () => {
    const ritaId = await customerIdOf('rita@demo.test');
    expectCode(await callMethod(app, 'dueDiligenceUpdate', { customerId: ritaId, dueDiligenceLevel: 4 }, { token: admin.accessToken }), '00');
    const info = await callMethod(app, 'dueDiligenceInfoGet', {}, { token: rita.accessToken });
    expect(info.body).toMatchObject({ dueDiligenceInfo: { dueDiligenceLevel: 4, address: { required: true }, document: { requiredDocumentTypeIds: [80] } } });
    expectCode(await callMethod(app, 'dueDiligenceUpdate', { customerId: ritaId, dueDiligenceLevel: 2, addressDocumentRequired: false, requiredDocumentTypeIds: [] }, { token: admin.accessToken }), '00');
    const status = await callMethod(app, 'userStatusGet', {}, { token: rita.accessToken });
    expect(status.body).toMatchObject({ dueDiligenceLevel: 2, userStatus: { proofOfResidence: 'notRequired' } });
  });
});

describe('the administrator reassigns a document', () => {
  let cardId = 0;
  let backId = 0;

  it('refusals: not an administrator (13), unknown or provider customer, same owner, a sub-document (TA1), bad ids (VF); nothing changes', async () => {
    const up = await upload(
      'customerJumioDocumentCreate',
      { ...passport, documentTypeId: 4, number: 'ID-0042' },
      [
        { field: 'front', fileName: 'front.pdf', content: PDF },
        { field: 'back', fileName: 'back.pdf', content: PDF },
      ],
      uma.accessToken,
    );
    expectCode(up, '00');
    [cardId, backId] = (up.body.documents as { id: number }[]).map((d) => d.id) as [number, number];
    const umaId = await customerIdOf('uma@demo.test');
    const [provider] = await t.db.select({ id: customers.id }).from(customers).where(eq(customers.isProvider, true));
    await unchanged(async () => {
      expectCode(await callMethod(app, 'adminDocumentAssign', { documentId: cardId, toCustomerId: await customerIdOf('boris@demo.test') }, { token: boris.accessToken }), '13');
      expectVf(await callMethod(app, 'adminDocumentAssign', { documentId: 'x', toCustomerId: 0 }, { token: admin.accessToken }), 'toCustomerId');
      expectVf(await callMethod(app, 'adminDocumentAssign', { documentId: 'x', toCustomerId: 1 }, { token: admin.accessToken }), 'documentId');
      expectCode(await callMethod(app, 'adminDocumentAssign', { documentId: cardId, toCustomerId: umaId }, { token: admin.accessToken }), 'TA1');
      expectCode(await callMethod(app, 'adminDocumentAssign', { documentId: cardId, toCustomerId: 999_999 }, { token: admin.accessToken }), 'TA1');
      expectCode(await callMethod(app, 'adminDocumentAssign', { documentId: cardId, toCustomerId: provider!.id }, { token: admin.accessToken }), 'TA1');
      expectCode(await callMethod(app, 'adminDocumentAssign', { documentId: backId, toCustomerId: await customerIdOf('boris@demo.test') }, { token: admin.accessToken }), 'TA1');
      expectCode(await callMethod(app, 'adminDocumentAssign', { documentId: 999_999, toCustomerId: await customerIdOf('boris@demo.test') }, { token: admin.accessToken }), 'TA1');
    });
  });

  it('moves the document with its back side to the other customer, audited', async () => {
    const umaId = await customerIdOf('uma@demo.test');
    const borisId = await customerIdOf('boris@demo.test');
    const res = await callMethod(app, 'adminDocumentAssign', { documentId: cardId, toCustomerId: borisId }, { token: admin.accessToken });
    expectCode(res, '00');
    expect(res.body.document).toMatchObject({ id: cardId, addressId: null });
    const rows = await t.db.select({ id: customerDocuments.id, customerId: customerDocuments.customerId }).from(customerDocuments).where(sql`${customerDocuments.id} in (${cardId}, ${backId})`);
    expect(rows.map((r) => r.customerId)).toEqual([borisId, borisId]);
    expect((await lastAudit('adminDocumentAssign')).details).toEqual({ documentId: cardId, fromCustomerId: umaId, toCustomerId: borisId });
    const umaDocs = await callMethod(app, 'documentsInquiry', {}, { token: uma.accessToken });
    expect((umaDocs.body.documents as { id: number }[]).map((d) => d.id)).not.toContain(cardId);
    const borisDocs = await callMethod(app, 'documentsInquiry', { categoryId: 1 }, { token: boris.accessToken });
    expect((borisDocs.body.documents as { id: number }[]).map((d) => d.id)).toEqual([cardId, backId]);
    // Uma can no longer reach it; Boris can.
    expectCode(await callMethod(app, 'customerDocumentDelete', { documentId: cardId }, { token: uma.accessToken }), 'ENOA');
    expectCode(await callMethod(app, 'customerDocumentDelete', { documentId: cardId }, { token: boris.accessToken }), '00');
  });
});

describe('identityGet through every state', () => {
  let docId = 0;
  const identityOf = async (token: string) => {
    const res = await callMethod(app, 'identityGet', {}, { token });
    expectCode(res, '00');
    return res.body.identity as { identity: { status: string }; proofOfResidence: { status: string }; videoIdentity: { status: string }; documents: { id: number; typeId: number; number: string | null; status: number; rejectReason: string | null }[] };
  };
  const userIdentity = async (token: string) => ((await callMethod(app, 'userStatusGet', {}, { token })).body.userStatus as { identity: string }).identity;
  const setExpiry = (date: string) => t.db.update(customerDocuments).set({ expiresDate: date }).where(eq(customerDocuments.id, docId));

  it('notRequired for a verified customer who uploaded none; none for one who must', async () => {
    expect((await identityOf(rita.accessToken)).identity.status).toBe('notRequired');
    const umaIdentity = await identityOf(uma.accessToken);
    expect(umaIdentity).toMatchObject({ identity: { status: 'none' }, proofOfResidence: { status: 'none' }, videoIdentity: { status: 'none' } });
  });

  it('pending after an upload, rejected with the reason after the decision', async () => {
    const up = await upload('customerJumioDocumentCreate', passport, [{ field: 'front', fileName: 'p.pdf', content: PDF }], uma.accessToken);
    expectCode(up, '00');
    docId = (up.body.documents as { id: number }[])[0]!.id;
    const pending = await identityOf(uma.accessToken);
    expect(pending.identity.status).toBe('pending');
    expect(pending.documents.find((d) => d.id === docId)).toMatchObject({ typeId: 1, number: 'LT7654321', status: 0, rejectReason: null });
    expectCode(await callMethod(app, 'adminDocumentDecide', { documentId: docId, decision: 'reject', reason: 'Glare on the photo page' }, { token: admin.accessToken }), '00');
    const rejected = await identityOf(uma.accessToken);
    expect(rejected.identity.status).toBe('rejected');
    expect(rejected.documents.find((d) => d.id === docId)).toMatchObject({ status: 26, rejectReason: 'Glare on the photo page' });
    expect(await userIdentity(uma.accessToken)).toBe('rejected');
  });

  it('validated, expiredSoon and expired as the confirmed document ages; expired by the decision too', async () => {
    const up = await upload('customerJumioDocumentCreate', passport, [{ field: 'front', fileName: 'p2.pdf', content: PDF }], uma.accessToken);
    docId = (up.body.documents as { id: number }[])[0]!.id;
    expectCode(await callMethod(app, 'adminDocumentDecide', { documentId: docId, decision: 'confirm' }, { token: admin.accessToken }), '00');
    expect((await identityOf(uma.accessToken)).identity.status).toBe('validated');
    await setExpiry(inDays(10));
    expect((await identityOf(uma.accessToken)).identity.status).toBe('expiredSoon');
    expect(await userIdentity(uma.accessToken)).toBe('expiredSoon');
    await setExpiry(recent(1));
    expect((await identityOf(uma.accessToken)).identity.status).toBe('expired');
    expect(await userIdentity(uma.accessToken)).toBe('expired');
    await setExpiry('2032-03-01');
    expectCode(await callMethod(app, 'adminDocumentDecide', { documentId: docId, decision: 'expire' }, { token: admin.accessToken }), '00');
    expect((await identityOf(uma.accessToken)).identity.status).toBe('expired');
  });

  it("identityGet shows only the caller's own documents", async () => {
    const own = await identityOf(rita.accessToken);
    expect(own.documents.map((d) => d.id)).not.toContain(docId);
  });
});

describe('code requests are limited', () => {
  /** Moves the customer's codes back in time, as if they were sent that long ago. */
  const age = (customerId: number, seconds: number) =>
    t.db.update(profileCodes).set({ createdAt: sql`${profileCodes.createdAt} - make_interval(secs => ${seconds})` }).where(eq(profileCodes.customerId, customerId));

  it(`one code per 30 s per phone, at most ${PROFILE_CODES_PER_WINDOW} an hour per customer whatever the phone, over both ways of asking`, async () => {
    const ritaId = await customerIdOf('rita@demo.test');
    const first = await callMethod(app, 'addPhone', { phoneCountryCode: '370', phone: '60000001' }, { token: rita.accessToken });
    const second = await callMethod(app, 'addPhone', { phoneCountryCode: '370', phone: '60000002' }, { token: rita.accessToken });
    const [a, b] = [(first.body.phone as { id: number }).id, (second.body.phone as { id: number }).id];
    expectCode(await callMethod(app, 'phoneConfirmRequest', { phoneId: a }, { token: rita.accessToken }), '00');
    await unchanged(async () => {
      const again = await callMethod(app, 'phoneConfirmRequest', { phoneId: a }, { token: rita.accessToken });
      expectCode(again, 'TA1');
      expect(again.body.responseDescription).toMatch(/30 seconds/);
    });
    for (let i = 1; i < PROFILE_CODES_PER_WINDOW; i++) {
      await age(ritaId, 31);
      expectCode(await callMethod(app, 'phoneConfirmRequest', { phoneId: i % 2 === 0 ? a : b }, { token: rita.accessToken }), '00');
    }
    await age(ritaId, 31);
    await unchanged(async () => {
      const over = await callMethod(app, 'phoneConfirmRequest', { phoneId: b }, { token: rita.accessToken });
      expectCode(over, 'TA1');
      expect(over.body.responseDescription).toMatch(/an hour/);
      const rest = await app.inject({
        method: 'POST',
        url: `${API_VERSION_PATH}/verification/phones/${a}/verify`,
        payload: { type: 'sms', codeChallenge: 'c'.repeat(43) },
        headers: { authorization: `Bearer ${rita.accessToken}` },
      });
      expect(rest.statusCode).toBe(429);
    });
    // E-mail codes are counted apart from phone codes.
    const email = await callMethod(app, 'addEmail', { emailAddress: 'rita.other@example.com' }, { token: rita.accessToken });
    expectCode(await callMethod(app, 'confirmRequestEmail', { emailId: (email.body.email as { id: number }).id }, { token: rita.accessToken }), '00');
    // An hour later the phone may have a code again.
    await age(ritaId, 3600);
    expectCode(await callMethod(app, 'phoneConfirmRequest', { phoneId: b }, { token: rita.accessToken }), '00');
    // Only hashes are kept.
    const codes = await t.db.select({ codeHash: profileCodes.codeHash }).from(profileCodes).where(and(eq(profileCodes.customerId, ritaId), eq(profileCodes.purpose, 'phone')));
    expect(codes.every((c) => /^[0-9a-f]{64}$/.test(c.codeHash))).toBe(true);
  });
});

describe('the multipart file limit', () => {
  it('a file over the limit answers VF naming its field (not an unknown error), and nothing is stored', async () => {
    const huge = Buffer.concat([PDF, Buffer.alloc(DOCUMENT_MAX_BYTES + 2_000_000, 0x20)]);
    await unchanged(async () => {
      const res = await upload('customerJumioDocumentCreate', passport, [{ field: 'front', fileName: 'huge.pdf', content: huge }], uma.accessToken);
      expect(res.status).toBe(200);
      expect(res.body.validationErrors).toEqual([{ param: 'front', description: 'must be at most 10 MB', code: 'fileTooLarge', params: { maxMb: 10 } }]);
      const addr = await upload('customerAddressCreateOrReplace', { ...address, mainDocument: { documentTypeId: 10, issuedDate: recent(3) } }, [{ field: 'mainDocument', fileName: 'huge.pdf', content: huge }], boris.accessToken);
      expectVf(addr, 'mainDocument', 'must be at most 10 MB');
      // One byte over the document cap: the endpoint and the document check agree.
      const justOver = Buffer.concat([PDF, Buffer.alloc(DOCUMENT_MAX_BYTES - PDF.length + 1, 0x20)]);
      expectVf(await upload('customerJumioDocumentCreate', passport, [{ field: 'front', fileName: 'over.pdf', content: justOver }], uma.accessToken), 'front', 'must be at most 10 MB');
      const many = Array.from({ length: 11 }, (_, i) => ({ field: `f${i}`, fileName: `${i}.pdf`, content: PDF }));
      expectVf(await upload('customerJumioDocumentCreate', passport, many, uma.accessToken), 'files', /at most 10 files/);
    });
  });

  it('a file of exactly the limit is accepted', async () => {
    const exact = Buffer.concat([PDF, Buffer.alloc(DOCUMENT_MAX_BYTES - PDF.length, 0x20)]);
    const res = await upload('customerJumioDocumentCreate', { ...passport, number: 'LT0000009' }, [{ field: 'front', fileName: 'exact.pdf', content: exact }], uma.accessToken);
    expectCode(res, '00');
    expect((res.body.documents as { sizeBytes: number }[])[0]!.sizeBytes).toBe(DOCUMENT_MAX_BYTES);
  });
});

describe('acting for a company', () => {
  it('a read-only employee (access rights 1) reads the company profile but changes nothing (13)', async () => {
    const northwind = await northwindId();
    const as = (extra: Record<string, unknown> = {}) => ({ fromCustomerId: northwind, ...extra });
    expectCode(await callMethod(app, 'addressInquiry', as(), { token: viewer.accessToken }), '00');
    expectCode(await callMethod(app, 'documentsInquiry', as(), { token: viewer.accessToken }), '00');
    await unchanged(async () => {
      expectCode(await callMethod(app, 'customerTaxNumberUpdate', as({ taxId: 'GB111222333' }), { token: viewer.accessToken }), '13');
      expectCode(await callMethod(app, 'customerAddressCreateOrReplace', as({ ...address, addressType: 'business' }), { token: viewer.accessToken }), '13');
      expectCode(await callMethod(app, 'addPhone', as({ phoneCountryCode: '44', phone: '7700900999' }), { token: viewer.accessToken }), '13');
      expectCode(await callMethod(app, 'addEmail', as({ emailAddress: 'billing@northwind.test' }), { token: viewer.accessToken }), '13');
      expectCode(await upload('customerJumioDocumentCreate', as({ categoryId: 4, documentTypeId: 30 }), [{ field: 'front', fileName: 'c.pdf', content: PDF }], viewer.accessToken), '13');
      // The REST changes alike: an identity-verification job for the company.
      const job = await app.inject({ method: 'POST', url: `${API_VERSION_PATH}/customers/${northwind}/identity-verification`, payload: {}, headers: { authorization: `Bearer ${viewer.accessToken}` } });
      expect(job.statusCode).toBe(403);
      expect(job.json()).toMatchObject({ responseCode: '13' });
    });
  });

  it('an employee with full access changes the company profile', async () => {
    const northwind = await northwindId();
    const res = await callMethod(app, 'customerAddressCreateOrReplace', { fromCustomerId: northwind, ...address, addressType: 'business' }, { token: clerk.accessToken });
    expectCode(res, '00');
    const [row] = await t.db.select({ customerId: customerAddresses.customerId }).from(customerAddresses).where(eq(customerAddresses.id, (res.body.address as { addressId: number }).addressId));
    expect(row!.customerId).toBe(northwind);
  });
});
