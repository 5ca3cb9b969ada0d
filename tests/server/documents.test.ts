/**
 * Documents, the verification inputs and the administrator's review over HTTP on the real
 * platform: uploads as multipart with the type read from the content, size and empty-file checks,
 * the back side of types 4 and 5, type 88's stamp page and residence rule, dates, another
 * customer's ids (ENOA), downloads, admin-only calls (13), the review decisions moving userStatusGet
 * and setting verified, audit rows, and refused calls changing nothing.
 */
import { and, count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION_PATH } from '../../api/http.ts';
import { DOCUMENT_MAX_BYTES } from '../../api/documents.ts';
import { customers, phones, users } from '../../server/modules/customers/customers.tables.ts';
import { auditLog, outbox } from '../../server/modules/platform/platform.tables.ts';
import { customerDocuments } from '../../server/modules/profile/profile.tables.ts';
import { callMethod, createTestApp, pkcePair, signIn, type MethodAnswer, type SignedIn, type TestApp } from './harness.ts';

let t: TestApp;
let app: FastifyInstance;
let uma: SignedIn;
let rita: SignedIn;
let admin: SignedIn;
let boris: SignedIn;

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200, 0x20)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 2)]);

interface Part {
  field: string;
  fileName: string;
  content: Buffer;
  mime?: string;
}

/** A named method called as multipart: the JSON in `data`, the files as parts. */
async function upload(name: string, data: Record<string, unknown>, parts: Part[], token: string): Promise<MethodAnswer> {
  const boundary = `----wlb${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="data"\r\n\r\n${JSON.stringify(data)}\r\n`)];
  for (const p of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.field}"; filename="${p.fileName}"\r\nContent-Type: ${p.mime ?? 'application/pdf'}\r\n\r\n`),
      p.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await app.inject({
    method: 'POST',
    url: `${API_VERSION_PATH}/?${name}`,
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

function expectVf(res: MethodAnswer, param: string, description?: string | RegExp): void {
  expect(res.body.responseCode, JSON.stringify(res.body)).toBe('VF');
  const errors = res.body.validationErrors as { param: string; description: string }[];
  const match = errors.find((e) => e.param === param);
  expect(match, JSON.stringify(errors)).toBeDefined();
  if (description !== undefined) expect(match!.description).toMatch(description);
}

const passport = { categoryId: 1, documentTypeId: 1, number: 'LT1234567', issuedDate: '2022-03-01', expiresDate: '2032-03-01' };
const recent = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

async function documentCount(): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(customerDocuments);
  return row!.n;
}

async function status(token: string) {
  const res = await callMethod(app, 'userStatusGet', {}, { token });
  expect(res.body.responseCode, JSON.stringify(res.body)).toBe('00');
  return res.body.userStatus as Record<string, unknown>;
}

async function customerIdOf(email: string): Promise<number> {
  const [u] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, email));
  return u!.customerId;
}

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false });
  app = t.app;
  uma = await signIn(app, 'uma');
  rita = await signIn(app, 'rita');
  boris = await signIn(app, 'boris');
  admin = await signIn(app, 'admin');
});

afterAll(async () => {
  await t?.close();
});

describe('the unverified demo customer', () => {
  it('uma starts with three required actions: phone, identity and proof of residence', async () => {
    expect(await status(uma.accessToken)).toMatchObject({
      customerType: 'personal',
      verified: false,
      limited: false,
      address: 'complete',
      identity: 'none',
      proofOfResidence: 'none',
      phoneConfirmed: false,
      documentsInReview: false,
      duplicateDocuments: 'none',
      videoIdentity: 'none',
      taxCertification: { w9FormDocumentStatus: 'notRequired' },
    });
  });

  it('a verified customer with nothing uploaded has nothing outstanding', async () => {
    expect(await status(rita.accessToken)).toMatchObject({ verified: true, identity: 'notRequired', proofOfResidence: 'notRequired', phoneConfirmed: true, address: 'complete' });
  });
});

describe('uploads', () => {
  it('refuses a file whose content is no PDF, JPEG or PNG whatever its name, and stores nothing', async () => {
    const before = await documentCount();
    const res = await upload('customerDocumentCreate', passport, [{ field: 'front', fileName: 'passport.pdf', content: Buffer.from('not really a pdf at all') }], uma.accessToken);
    expectVf(res, 'front', /PDF, JPEG or PNG/);
    // The code the app words in the customer's language (api/errors.ts), and the spec's description.
    expect(res.body.validationErrors).toEqual([{ param: 'front', description: 'must be a PDF, JPEG or PNG file', code: 'fileWrongType', params: {} }]);
    expect(await documentCount()).toBe(before);
  });

  it('refuses an empty file and one over the size cap', async () => {
    expectVf(await upload('customerDocumentCreate', passport, [{ field: 'front', fileName: 'a.pdf', content: Buffer.alloc(0) }], uma.accessToken), 'front', /empty/);
    const big = Buffer.concat([PDF, Buffer.alloc(DOCUMENT_MAX_BYTES, 0x20)]);
    const res = await upload('customerDocumentCreate', passport, [{ field: 'front', fileName: 'big.pdf', content: big }], uma.accessToken);
    expectVf(res, 'front', /at most 10 MB/);
  });

  it('needs the back of a national ID card (type 4) and refuses a back for a passport', async () => {
    const card = { ...passport, documentTypeId: 4 };
    expectVf(await upload('customerDocumentCreate', card, [{ field: 'front', fileName: 'id.png', content: PNG, mime: 'image/png' }], uma.accessToken), 'back', /required/);
    expectVf(
      await upload('customerDocumentCreate', passport, [
        { field: 'front', fileName: 'p.pdf', content: PDF },
        { field: 'back', fileName: 'b.pdf', content: PDF },
      ], uma.accessToken),
      'back',
      /not expected/,
    );
  });

  it('type 88 is for residents of RU and UA only, and needs the registration-stamp page', async () => {
    const internal = { ...passport, documentTypeId: 88 };
    expectVf(await upload('customerDocumentCreate', internal, [{ field: 'front', fileName: 'p.pdf', content: PDF }], uma.accessToken), 'documentTypeId', /RU, UA/);
    const borisId = await customerIdOf('boris@demo.test');
    await t.db.update(customers).set({ residenceCountryCode: 'UA' }).where(eq(customers.id, borisId));
    try {
      expectVf(await upload('customerDocumentCreate', internal, [{ field: 'front', fileName: 'p.pdf', content: PDF }], boris.accessToken), 'registrationStamp', /required/);
      const ok = await upload('customerDocumentCreate', internal, [
        { field: 'front', fileName: 'p.pdf', content: PDF },
        { field: 'registrationStamp', fileName: 's.jpg', content: JPEG, mime: 'image/jpeg' },
      ], boris.accessToken);
      expect(ok.body.responseCode, JSON.stringify(ok.body)).toBe('00');
      const docs = ok.body.documents as { side: string; isSubDocument: boolean; mimeType: string }[];
      expect(docs.map((d) => [d.side, d.isSubDocument, d.mimeType])).toEqual([
        ['front', false, 'application/pdf'],
        ['registrationStamp', true, 'image/jpeg'],
      ]);
    } finally {
      await t.db.update(customers).set({ residenceCountryCode: 'RO' }).where(eq(customers.id, borisId));
    }
  });

  it('checks the dates: expiry after issue and not past, issue not in the future', async () => {
    expectVf(await upload('customerDocumentCreate', { ...passport, expiresDate: '2021-01-01' }, [{ field: 'front', fileName: 'p.pdf', content: PDF }], uma.accessToken), 'expiresDate', /after the issue/);
    expectVf(await upload('customerDocumentCreate', { ...passport, issuedDate: '2010-01-01', expiresDate: '2020-01-01' }, [{ field: 'front', fileName: 'p.pdf', content: PDF }], uma.accessToken), 'expiresDate', /past/);
    expectVf(await upload('customerDocumentCreate', { ...passport, issuedDate: '2999-01-01', expiresDate: '2999-06-01' }, [{ field: 'front', fileName: 'p.pdf', content: PDF }], uma.accessToken), 'issuedDate', /future/);
  });
});

describe('the verification journey', () => {
  let identityId = 0;
  let addressDocId = 0;

  it('uma uploads her passport: identity pending and documents in review', async () => {
    const res = await upload('customerDocumentCreate', passport, [{ field: 'front', fileName: 'passport.pdf', content: PDF }], uma.accessToken);
    expect(res.body.responseCode, JSON.stringify(res.body)).toBe('00');
    identityId = (res.body.documents as { id: number }[])[0]!.id;
    expect(await status(uma.accessToken)).toMatchObject({ identity: 'pending', documentsInReview: true });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.method, 'customerDocumentCreate')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit!.details).toMatchObject({ documentIds: [identityId], categoryId: 1, documentTypeId: 1 });
    expect(JSON.stringify(audit!.details)).not.toContain('LT1234567');
  });

  it('her document downloads for her with its content, and for nobody else', async () => {
    const own = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/documents/${identityId}/file`, headers: { authorization: `Bearer ${uma.accessToken}` } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(own.rawPayload, PDF)).toBe(0);
    const other = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/documents/${identityId}/file`, headers: { authorization: `Bearer ${rita.accessToken}` } });
    expect(other.statusCode).toBe(404);
    const anonymous = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/documents/${identityId}/file` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("another customer cannot see or delete her document (ENOA), and nothing changes", async () => {
    const del = await callMethod(app, 'customerDocumentDelete', { documentId: identityId }, { token: rita.accessToken });
    expect(del.body.responseCode).toBe('ENOA');
    const list = await callMethod(app, 'documentsInquiry', {}, { token: rita.accessToken });
    expect((list.body.documents as unknown[]).length).toBe(0);
    const [row] = await t.db.select({ statusId: customerDocuments.statusId }).from(customerDocuments).where(eq(customerDocuments.id, identityId));
    expect(row!.statusId).toBe(0);
  });

  it('uma uploads a proof of address with her address', async () => {
    const addresses = await callMethod(app, 'addressInquiry', {}, { token: uma.accessToken });
    const address = (addresses.body.addresses as { addressId: number; address1: string; city: string; postalCode: string; countryCode: string }[])[0]!;
    const res = await upload(
      'customerAddressCreateOrReplace',
      { addressId: address.addressId, address1: address.address1, city: address.city, postalCode: address.postalCode, countryCode: address.countryCode, addressStatus: 1, mainDocument: { documentTypeId: 10, issuedDate: recent(20) } },
      [{ field: 'mainDocument', fileName: 'bill.png', content: PNG, mime: 'image/png' }],
      uma.accessToken,
    );
    expect(res.body.responseCode, JSON.stringify(res.body)).toBe('00');
    const saved = res.body.address as { status: string; uploadedDocuments: { id: number; categoryId: number }[] };
    expect(saved.status).toBe('pending');
    addressDocId = saved.uploadedDocuments[0]!.id;
    expect(saved.uploadedDocuments[0]!.categoryId).toBe(2);
    expect(await status(uma.accessToken)).toMatchObject({ proofOfResidence: 'pending' });
  });

  it('the review queue is for administrators only (13)', async () => {
    const res = await callMethod(app, 'adminReviewQueue', {}, { token: uma.accessToken });
    expect(res.body.responseCode).toBe('13');
    const decide = await callMethod(app, 'adminDocumentDecide', { documentId: identityId, decision: 'confirm' }, { token: uma.accessToken });
    expect(decide.body.responseCode).toBe('13');
  });

  it('the administrator sees both in the queue, oldest first, with her name', async () => {
    const res = await callMethod(app, 'adminReviewQueue', { customerId: await customerIdOf('uma@demo.test') }, { token: admin.accessToken });
    expect(res.body.responseCode).toBe('00');
    const items = res.body.items as { document: { id: number }; customerName: string }[];
    expect(items.map((i) => i.document.id)).toEqual([identityId, addressDocId]);
    expect(items[0]!.customerName).toBe('Uma Urbonaite');
  });

  it('rejecting needs a reason; a rejection moves identity to rejected', async () => {
    expectVf(await callMethod(app, 'adminDocumentDecide', { documentId: identityId, decision: 'reject' }, { token: admin.accessToken }), 'reason');
    const res = await callMethod(app, 'adminDocumentDecide', { documentId: identityId, decision: 'reject', reason: 'The photo is blurred' }, { token: admin.accessToken });
    expect(res.body.responseCode, JSON.stringify(res.body)).toBe('00');
    expect(await status(uma.accessToken)).toMatchObject({ identity: 'rejected' });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.method, 'adminDocumentDecide')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit!.details).toMatchObject({ documentId: identityId, decision: 'reject', reason: 'The photo is blurred', toStatusId: 26 });
  });

  it('she uploads again, confirms her phone, the administrator confirms both: she is verified', async () => {
    const again = await upload('customerDocumentCreate', passport, [{ field: 'front', fileName: 'passport2.pdf', content: PDF }], uma.accessToken);
    expect(again.body.responseCode).toBe('00');
    identityId = (again.body.documents as { id: number }[])[0]!.id;

    // The phone: REST verify with a PKCE challenge, the SMS code from the outbox, confirm with the verifier.
    const phoneList = await callMethod(app, 'profileInquiry', {}, { token: uma.accessToken });
    const phone = (phoneList.body.phones as { id: number; confirmed: boolean }[])[0]!;
    const { verifier, challenge } = pkcePair();
    const verify = await app.inject({
      method: 'POST',
      url: `${API_VERSION_PATH}/verification/phones/${phone.id}/verify`,
      payload: { type: 'sms', captcha: 'x', codeChallenge: challenge },
      headers: { authorization: `Bearer ${uma.accessToken}` },
    });
    expect(verify.statusCode, verify.body).toBe(200);
    const [sms] = await t.db.select().from(outbox).where(and(eq(outbox.channel, 'sms'), eq(outbox.recipient, '+37061234578'))).orderBy(desc(outbox.id)).limit(1);
    const code = /(\d{6}) is your code to confirm this phone/.exec(sms!.body)![1]!;
    const wrongVerifier = await callMethod(app, 'phoneConfirm', { phoneId: phone.id, verification: { code, codeVerifier: pkcePair().verifier } }, { token: uma.accessToken });
    expectVf(wrongVerifier, 'verification.codeVerifier');
    const ritaTry = await callMethod(app, 'phoneConfirm', { phoneId: phone.id, verification: { code, codeVerifier: verifier } }, { token: rita.accessToken });
    expect(ritaTry.body.responseCode).toBe('ENOA');
    const confirmed = await callMethod(app, 'phoneConfirm', { phoneId: phone.id, verification: { code, codeVerifier: verifier } }, { token: uma.accessToken });
    expect(confirmed.body.responseCode, JSON.stringify(confirmed.body)).toBe('00');
    expect(await status(uma.accessToken)).toMatchObject({ phoneConfirmed: true, verified: false });

    const first = await callMethod(app, 'adminDocumentDecide', { documentId: identityId, decision: 'confirm' }, { token: admin.accessToken });
    expect(first.body).toMatchObject({ responseCode: '00', customerVerified: false });
    const second = await callMethod(app, 'adminDocumentDecide', { documentId: addressDocId, decision: 'confirm' }, { token: admin.accessToken });
    expect(second.body).toMatchObject({ responseCode: '00', customerVerified: true });
    expect(await status(uma.accessToken)).toMatchObject({ verified: true, identity: 'validated', proofOfResidence: 'validated', documentsInReview: false });
    const addresses = await callMethod(app, 'addressInquiry', {}, { token: uma.accessToken });
    expect((addresses.body.addresses as { status: string }[])[0]!.status).toBe('confirmed');
  });

  it('a confirmed document cannot be deleted by the customer; the administrator can remove it', async () => {
    const del = await callMethod(app, 'customerDocumentDelete', { documentId: identityId }, { token: uma.accessToken });
    expect(del.body.responseCode).toBe('TA1');
    const removed = await callMethod(app, 'adminDocumentRemove', { documentId: identityId }, { token: admin.accessToken });
    expect(removed.body.responseCode).toBe('00');
    const list = await callMethod(app, 'documentsInquiry', { categoryId: 1 }, { token: uma.accessToken });
    expect((list.body.documents as { id: number }[]).map((d) => d.id)).not.toContain(identityId);
  });
});

describe('limits', () => {
  it('the administrator limits an account with a reason and lifts it', async () => {
    const ritaId = await customerIdOf('rita@demo.test');
    const limit = await callMethod(app, 'adminCustomerLimit', { customerId: ritaId, reason: 'expiredDocuments', requiredDocumentTypeIds: [1] }, { token: admin.accessToken });
    expect(limit.body.responseCode, JSON.stringify(limit.body)).toBe('00');
    expect(await status(rita.accessToken)).toMatchObject({
      limited: true,
      limitReasons: [{ actionTypeId: 1, reason: 'expiredDocuments', requirementDocuments: [{ documentTypeId: 1, uploadedDocuments: [] }] }],
    });
    const reasons = await callMethod(app, 'customerLimitReasonGet', {}, { token: rita.accessToken });
    expect(reasons.body).toMatchObject({ limited: true, reasons: [{ reason: 'expiredDocuments' }] });
    const denied = await callMethod(app, 'adminCustomerUnlimit', { customerId: ritaId }, { token: rita.accessToken });
    expect(denied.body.responseCode).toBe('13');
    const lift = await callMethod(app, 'adminCustomerUnlimit', { customerId: ritaId, note: 'documents renewed' }, { token: admin.accessToken });
    expect(lift.body.responseCode).toBe('00');
    expect(await status(rita.accessToken)).toMatchObject({ limited: false, limitReasons: [] });
  });
});

describe('phones', () => {
  it('adds a phone with the plus signs removed, confirms it with the SMS code; wrong codes count', async () => {
    const add = await callMethod(app, 'phoneAdd', { phoneCountryCode: '+44', phone: '7700 900123', phoneType: 2 }, { token: boris.accessToken });
    expect(add.body.responseCode, JSON.stringify(add.body)).toBe('00');
    const phone = add.body.phone as { id: number; phoneCountryCode: string; phone: string; status: string; confirmed: boolean };
    expect(phone).toMatchObject({ phoneCountryCode: '44', phone: '7700900123', status: 'Primary', confirmed: false });
    const sent = await callMethod(app, 'phoneConfirmRequest', { phoneId: phone.id }, { token: boris.accessToken });
    expect(sent.body.responseCode).toBe('00');
    const [sms] = await t.db.select().from(outbox).where(eq(outbox.recipient, '+447700900123')).orderBy(desc(outbox.id)).limit(1);
    const code = /(\d{6}) is your code/.exec(sms!.body)![1]!;
    const wrong = await callMethod(app, 'phoneConfirm', { phoneId: phone.id, code: code === '000000' ? '111111' : '000000' }, { token: boris.accessToken });
    expectVf(wrong, 'code', /wrong/);
    const ok = await callMethod(app, 'phoneConfirm', { phoneId: phone.id, code }, { token: boris.accessToken });
    expect(ok.body.responseCode).toBe('00');
    const [row] = await t.db.select().from(phones).where(eq(phones.id, phone.id));
    expect(row!.confirmed).toBe(true);
  });

  it("refuses another customer's phone id (ENOA) and a bad number (VF)", async () => {
    const [umaPhone] = await t.db.select().from(phones).where(eq(phones.phone, '61234578'));
    const res = await callMethod(app, 'phoneReplace', { phoneId: umaPhone!.id, phoneCountryCode: '370', phone: '61111111' }, { token: boris.accessToken });
    expect(res.body.responseCode).toBe('ENOA');
    expectVf(await callMethod(app, 'phoneAdd', { phoneCountryCode: '+0', phone: '12' }, { token: boris.accessToken }), 'phone');
  });
});

describe('downloads', () => {
  it('a file named in Cyrillic downloads under its own name (RFC 5987) with an ASCII fallback', async () => {
    const res = await upload('customerDocumentCreate', { ...passport, number: 'LT7654321' }, [{ field: 'front', fileName: 'паспорт Риты (1).pdf', content: PDF }], rita.accessToken);
    expect(res.body.responseCode, JSON.stringify(res.body)).toBe('00');
    const id = (res.body.documents as { id: number }[])[0]!.id;
    const file = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/documents/${id}/file`, headers: { authorization: `Bearer ${rita.accessToken}` } });
    expect(file.statusCode).toBe(200);
    const disposition = String(file.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe('паспорт Риты (1).pdf');
  });
});
