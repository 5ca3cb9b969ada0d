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
import { deflateSync } from 'node:zlib';
import { DOCUMENT_MAX_BYTES, DOCUMENT_QUOTA_BYTES, DOCUMENT_QUOTA_FILES } from '../../api/documents.ts';
import { FileMessages } from '../../server/modules/profile/documents.service.ts';
import { customers, phones, users } from '../../server/modules/customers/customers.tables.ts';
import { auditLog, outbox } from '../../server/modules/platform/platform.tables.ts';
import { customerDocuments } from '../../server/modules/profile/profile.tables.ts';
import { callMethod, callMultipart, createTestApp, pkcePair, signIn, type MethodAnswer, type SignedIn, type TestApp } from './harness.ts';

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
function upload(name: string, data: Record<string, unknown>, parts: Part[], token: string): Promise<MethodAnswer> {
  return callMultipart(app, name, data, parts, { token });
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
    const res = await upload('customerJumioDocumentCreate', passport, [{ field: 'front', fileName: 'passport.pdf', content: Buffer.from('not really a pdf at all') }], uma.accessToken);
    expectVf(res, 'front', /PDF, JPEG or PNG/);
    // The code the app words in the customer's language (api/errors.ts), and the spec's description.
    expect(res.body.validationErrors).toEqual([{ param: 'front', description: 'must be a PDF, JPEG or PNG file', code: 'fileWrongType', params: {} }]);
    expect(await documentCount()).toBe(before);
  });

  it('refuses an empty file and one over the size cap', async () => {
    expectVf(await upload('customerJumioDocumentCreate', passport, [{ field: 'front', fileName: 'a.pdf', content: Buffer.alloc(0) }], uma.accessToken), 'front', /empty/);
    const big = Buffer.concat([PDF, Buffer.alloc(DOCUMENT_MAX_BYTES, 0x20)]);
    const res = await upload('customerJumioDocumentCreate', passport, [{ field: 'front', fileName: 'big.pdf', content: big }], uma.accessToken);
    expectVf(res, 'front', /at most 10 MB/);
  });

  it('needs the back of a national ID card (type 4) and refuses a back for a passport', async () => {
    const card = { ...passport, documentTypeId: 4 };
    expectVf(await upload('customerJumioDocumentCreate', card, [{ field: 'front', fileName: 'id.png', content: PNG, mime: 'image/png' }], uma.accessToken), 'back', /required/);
    expectVf(
      await upload('customerJumioDocumentCreate', passport, [
        { field: 'front', fileName: 'p.pdf', content: PDF },
        { field: 'back', fileName: 'b.pdf', content: PDF },
      ], uma.accessToken),
      'back',
      /not expected/,
    );
  });

  it('a tax form signed online (W-9, W-8BEN, W-8BEN-E, CRS self-certification) cannot be uploaded by hand; the CLN can', async () => {
    const before = await documentCount();
    for (const documentTypeId of [100, 101, 102, 103]) {
      expectVf(await upload('customerJumioDocumentCreate', { categoryId: 5, documentTypeId }, [{ field: 'front', fileName: 'w.pdf', content: PDF }], uma.accessToken), 'documentTypeId');
    }
    expect(await documentCount()).toBe(before);
    const cln = await upload('customerJumioDocumentCreate', { categoryId: 5, documentTypeId: 104 }, [{ field: 'front', fileName: 'cln.pdf', content: PDF }], uma.accessToken);
    expect(cln.body.responseCode, JSON.stringify(cln.body)).toBe('00');
    expect(await documentCount()).toBe(before + 1);
    // the journey below counts uma's documents: this one goes again
    await t.db.delete(customerDocuments).where(eq(customerDocuments.documentTypeId, 104));
  });

  it('type 88 is for residents of RU and UA only, and needs the registration-stamp page', async () => {
    const internal = { ...passport, documentTypeId: 88 };
    expectVf(await upload('customerJumioDocumentCreate', internal, [{ field: 'front', fileName: 'p.pdf', content: PDF }], uma.accessToken), 'documentTypeId', /RU, UA/);
    const borisId = await customerIdOf('boris@demo.test');
    await t.db.update(customers).set({ residenceCountryCode: 'UA' }).where(eq(customers.id, borisId));
    try {
      expectVf(await upload('customerJumioDocumentCreate', internal, [{ field: 'front', fileName: 'p.pdf', content: PDF }], boris.accessToken), 'registrationStamp', /required/);
      const ok = await upload('customerJumioDocumentCreate', internal, [
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
    expectVf(await upload('customerJumioDocumentCreate', { ...passport, expiresDate: '2021-01-01' }, [{ field: 'front', fileName: 'p.pdf', content: PDF }], uma.accessToken), 'expiresDate', /after the issue/);
    expectVf(await upload('customerJumioDocumentCreate', { ...passport, issuedDate: '2010-01-01', expiresDate: '2020-01-01' }, [{ field: 'front', fileName: 'p.pdf', content: PDF }], uma.accessToken), 'expiresDate', /past/);
    expectVf(await upload('customerJumioDocumentCreate', { ...passport, issuedDate: '2999-01-01', expiresDate: '2999-06-01' }, [{ field: 'front', fileName: 'p.pdf', content: PDF }], uma.accessToken), 'issuedDate', /future/);
  });
});

describe('the verification journey', () => {
  let identityId = 0;
  let addressDocId = 0;

  it('uma uploads her passport: identity pending and documents in review', async () => {
    const res = await upload('customerJumioDocumentCreate', passport, [{ field: 'front', fileName: 'passport.pdf', content: PDF }], uma.accessToken);
    expect(res.body.responseCode, JSON.stringify(res.body)).toBe('00');
    identityId = (res.body.documents as { id: number }[])[0]!.id;
    expect(await status(uma.accessToken)).toMatchObject({ identity: 'pending', documentsInReview: true });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.method, 'customerJumioDocumentCreate')).orderBy(desc(auditLog.id)).limit(1);
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
    // only her own documents: the tax forms the demo seed signed for her (W-8BEN 101, self-certification 103)
    expect((list.body.documents as { id: number; documentTypeId: number }[]).map((d) => d.documentTypeId)).toEqual([101, 103]);
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
    const again = await upload('customerJumioDocumentCreate', passport, [{ field: 'front', fileName: 'passport2.pdf', content: PDF }], uma.accessToken);
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
    const wrongVerifier = await callMethod(app, 'confirmPhone', { phoneId: phone.id, verification: { code, codeVerifier: pkcePair().verifier } }, { token: uma.accessToken });
    expectVf(wrongVerifier, 'verification.codeVerifier');
    const ritaTry = await callMethod(app, 'confirmPhone', { phoneId: phone.id, verification: { code, codeVerifier: verifier } }, { token: rita.accessToken });
    expect(ritaTry.body.responseCode).toBe('ENOA');
    const confirmed = await callMethod(app, 'confirmPhone', { phoneId: phone.id, verification: { code, codeVerifier: verifier } }, { token: uma.accessToken });
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
    const add = await callMethod(app, 'addPhone', { phoneCountryCode: '+44', phone: '7700 900123', phoneType: 2 }, { token: boris.accessToken });
    expect(add.body.responseCode, JSON.stringify(add.body)).toBe('00');
    const phone = add.body.phone as { id: number; phoneCountryCode: string; phone: string; status: string; confirmed: boolean };
    expect(phone).toMatchObject({ phoneCountryCode: '44', phone: '7700900123', status: 'Primary', confirmed: false });
    const sent = await callMethod(app, 'phoneConfirmRequest', { phoneId: phone.id }, { token: boris.accessToken });
    expect(sent.body.responseCode).toBe('00');
    const [sms] = await t.db.select().from(outbox).where(eq(outbox.recipient, '+447700900123')).orderBy(desc(outbox.id)).limit(1);
    const code = /(\d{6}) is your code/.exec(sms!.body)![1]!;
    const wrong = await callMethod(app, 'confirmPhone', { phoneId: phone.id, code: code === '000000' ? '111111' : '000000' }, { token: boris.accessToken });
    expectVf(wrong, 'code', /wrong/);
    const ok = await callMethod(app, 'confirmPhone', { phoneId: phone.id, code }, { token: boris.accessToken });
    expect(ok.body.responseCode).toBe('00');
    const [row] = await t.db.select().from(phones).where(eq(phones.id, phone.id));
    expect(row!.confirmed).toBe(true);
  });

  it("refuses another customer's phone id (ENOA) and a bad number (VF)", async () => {
    const [umaPhone] = await t.db.select().from(phones).where(eq(phones.phone, '61234578'));
    const res = await callMethod(app, 'replacePhone', { phoneId: umaPhone!.id, phoneCountryCode: '370', phone: '61111111' }, { token: boris.accessToken });
    expect(res.body.responseCode).toBe('ENOA');
    expectVf(await callMethod(app, 'addPhone', { phoneCountryCode: '+0', phone: '12' }, { token: boris.accessToken }), 'phone');
  });
});

describe('downloads', () => {
  it('a file downloads under a name generated from the document and its detected type; the uploaded name is display metadata only', async () => {
    const res = await upload('customerJumioDocumentCreate', { ...passport, number: 'LT7654321' }, [{ field: 'front', fileName: 'паспорт Риты (1).html', content: PDF }], rita.accessToken);
    expect(res.body.responseCode, JSON.stringify(res.body)).toBe('00');
    const doc = (res.body.documents as { id: number; fileName: string }[])[0]!;
    expect(doc.fileName).toBe('паспорт Риты (1).html');
    const file = await app.inject({ method: 'GET', url: `${API_VERSION_PATH}/documents/${doc.id}/file`, headers: { authorization: `Bearer ${rita.accessToken}` } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(String(file.headers['content-disposition'])).toBe(`attachment; filename="document-${doc.id}-front.pdf"; filename*=UTF-8''document-${doc.id}-front.pdf`);
  });
});

/** A PNG walked by its chunks: signature, IHDR, IDAT, IEND (CRCs are not checked by the platform). */
function png(after: Buffer = Buffer.alloc(0)): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x63, 0xff, 0xff, 0xff, 0xff, 0x00, 0x05, 0xfe, 0x02, 0xfe])),
    chunk('IEND', Buffer.alloc(0)),
    after,
  ]);
}

/** A JPEG walked by its segments: SOI, APP0, a comment, SOS with entropy data (a stuffed FF00 and a restart), EOI. */
function jpeg(comment = 'plain', after: Buffer = Buffer.alloc(0)): Buffer {
  const segment = (marker: number, data: Buffer) => {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(data.length + 2, 2);
    return Buffer.concat([head, data]);
  };
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    segment(0xfe, Buffer.from(comment, 'latin1')),
    segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
    Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56]),
    Buffer.from([0xff, 0xd9]),
    after,
  ]);
}

const pdf = (body: string) => Buffer.from(`%PDF-1.7\n${body}\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');
/** A PDF whose catalog sits in a Flate-compressed object stream. */
function pdfWithObjectStream(objects: string): Buffer {
  const packed = deflateSync(Buffer.from(objects, 'latin1'));
  return Buffer.concat([
    Buffer.from(`%PDF-1.7\n2 0 obj << /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`, 'latin1'),
    packed,
    Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1'),
  ]);
}
/** The smallest ZIP archive holding one empty stored file: local header, central directory, end record. */
const ZIP = Buffer.concat([
  Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(22), Buffer.from([1, 0, 0, 0]), Buffer.from('a'),
  Buffer.from('PK\x01\x02', 'latin1'), Buffer.alloc(24), Buffer.from([1, 0]), Buffer.alloc(16), Buffer.from('a'),
  Buffer.from('PK\x05\x06', 'latin1'), Buffer.from([0, 0, 0, 0, 1, 0, 1, 0, 47, 0, 0, 0, 27, 0, 0, 0, 0, 0]),
]);

describe('content beyond the first bytes', () => {
  const send = (content: Buffer, mime: string, number: string) =>
    upload('customerJumioDocumentCreate', { ...passport, number }, [{ field: 'front', fileName: 'file', content, mime }], rita.accessToken);

  it.each([
    ['a PNG walked to its end', png(), 'image/png'],
    ['a PNG with a few padding bytes after IEND', png(Buffer.alloc(8)), 'image/png'],
    ['a JPEG walked to its end', jpeg(), 'image/jpeg'],
    ['a PDF opening at a page (a destination, not an action)', pdf('1 0 obj << /Type /Catalog /OpenAction [3 0 R /Fit] >> endobj\n3 0 obj << /Type /Page >> endobj'), 'application/pdf'],
    ['a PDF whose OpenAction refers to a destination array', pdf('1 0 obj << /Type /Catalog /OpenAction 4 0 R >> endobj\n4 0 obj [3 0 R /XYZ 0 0 0] endobj'), 'application/pdf'],
    ['a PDF with a compressed object stream of plain objects', pdfWithObjectStream('1 0 << /Type /Catalog /Pages 3 0 R >>'), 'application/pdf'],
    ['a PDF whose binary stream happens to hold the bytes "/JS "', pdf('4 0 obj << /Length 12 /Filter /DCTDecode >>\nstream\n\xff\xd8/JS \x00\x01\xff\xd9\nendstream\nendobj'), 'application/pdf'],
  ])('keeps %s', async (_label, content, mime) => {
    const res = await send(content, mime, `LTOK${Math.floor(Math.random() * 1e6)}`);
    expect(res.body.responseCode, JSON.stringify(res.body)).toBe('00');
  });

  it.each([
    ['JavaScript opened with the document', pdf('1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj')],
    ['a /JS entry alone', pdf('1 0 obj << /Type /Annot /A << /JS 5 0 R >> >> endobj')],
    ['an escaped name (/J#61vaScript)', pdf('1 0 obj << /Names << /J#61vaScript 5 0 R >> >> endobj')],
    ['an OpenAction that is an action by reference', pdf('1 0 obj << /Type /Catalog /OpenAction 4 0 R >> endobj\n4 0 obj << /S /GoTo /D [3 0 R /Fit] >> endobj')],
    ['a launch action', pdf('1 0 obj << /A << /S /Launch /F (calc.exe) >> >> endobj')],
    ['an embedded file', pdf('1 0 obj << /Names << /EmbeddedFiles 6 0 R >> >> endobj')],
    ['rich media', pdf('1 0 obj << /Subtype /RichMedia >> endobj')],
    ['an XFA form', pdf('1 0 obj << /AcroForm << /XFA 7 0 R >> >> endobj')],
    ['JavaScript hidden in a compressed object stream', pdfWithObjectStream('1 0 << /Type /Catalog /OpenAction << /S /JavaScript /JS (x) >> >>')],
    [
      'a /JS action between two streams',
      pdf('4 0 obj << /Length 3 >>\nstream\nabc\nendstream\nendobj\n1 0 obj << /A << /JS 6 0 R >> >> endobj\n5 0 obj << /Length 3 >>\nstream\ndef\nendstream\nendobj'),
    ],
  ])('refuses a PDF with %s (VF on the file, nothing stored)', async (_label, content) => {
    const before = await documentCount();
    expectVf(await send(content, 'application/pdf', 'LTBAD1'), 'front', FileMessages.activePdf('front').description);
    expect(await documentCount()).toBe(before);
  });

  it.each([
    ['a PNG with data after IEND', png(Buffer.from('x'.repeat(64))), 'image/png'],
    ['a PNG followed by a ZIP archive', png(ZIP), 'image/png'],
    ['a PNG holding a script', png(Buffer.from('<script>alert(1)</script>')), 'image/png'],
    ['a JPEG with data after EOI', jpeg('plain', Buffer.from('y'.repeat(64))), 'image/jpeg'],
    ['a JPEG holding a PDF in a comment', jpeg('%PDF-1.4 1 0 obj'), 'image/jpeg'],
    ['a JPEG holding HTML in a comment', jpeg('<html><body>hi</body></html>'), 'image/jpeg'],
    ['a PDF that is also a ZIP archive', Buffer.concat([pdf('1 0 obj << >> endobj'), ZIP]), 'application/pdf'],
  ])('refuses %s as a polyglot', async (_label, content, mime) => {
    const before = await documentCount();
    expectVf(await send(content, mime, 'LTBAD2'), 'front', FileMessages.polyglot('front').description);
    expect(await documentCount()).toBe(before);
  });
});

describe('the per-customer quota', () => {
  const filler = (customerId: number, sizeBytes: number) => ({
    customerId, categoryId: 1, documentTypeId: 1, statusId: 0, createdUsername: 'quota test', uploaded: new Date(),
    fileName: 'filler.pdf', mimeType: 'application/pdf', sizeBytes, sha256: '0'.repeat(64), content: Buffer.from('%PDF-1.7'),
  });

  it(`refuses a file past ${DOCUMENT_QUOTA_FILES} files or ${DOCUMENT_QUOTA_BYTES / 1_000_000} MB kept, and takes it once documents are deleted`, async () => {
    const ritaId = await customerIdOf('rita@demo.test');
    await t.db.update(customerDocuments).set({ statusId: 5 }).where(eq(customerDocuments.customerId, ritaId));
    const send = () => upload('customerJumioDocumentCreate', { ...passport, number: 'LTQUOTA1' }, [{ field: 'front', fileName: 'q.pdf', content: PDF }], rita.accessToken);

    // Bytes: one kept file of nearly the whole quota leaves no room for another PDF.
    const [big] = await t.db.insert(customerDocuments).values(filler(ritaId, DOCUMENT_QUOTA_BYTES - PDF.length + 1)).returning({ id: customerDocuments.id });
    const before = await documentCount();
    expectVf(await send(), 'front', FileMessages.quota('front').description);
    expect(await documentCount()).toBe(before);
    await t.db.update(customerDocuments).set({ statusId: 5 }).where(eq(customerDocuments.id, big!.id));

    // Files: as many kept files as the quota allows.
    const fillers = await t.db.insert(customerDocuments).values(Array.from({ length: DOCUMENT_QUOTA_FILES }, () => filler(ritaId, 10))).returning({ id: customerDocuments.id });
    expectVf(await send(), 'front', FileMessages.quota('front').description);
    await t.db.update(customerDocuments).set({ statusId: 5 }).where(eq(customerDocuments.id, fillers[0]!.id));
    const res = await send();
    expect(res.body.responseCode, JSON.stringify(res.body)).toBe('00');
    await t.db.delete(customerDocuments).where(and(eq(customerDocuments.customerId, ritaId), eq(customerDocuments.createdUsername, 'quota test')));
  });
});
