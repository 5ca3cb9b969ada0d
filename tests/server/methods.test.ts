/** The named-method endpoint and the foundation's methods (document 1 §6-§8). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { and, eq } from 'drizzle-orm';
import { auditLog, customers, platformSecrets, terms, users } from '../../server/db/schema.ts';
import { demoUserByKey, NORTHWIND_NAME } from '../../server/db/demo-users.ts';
import { MethodFailure, type MethodContext } from '../../server/modules/method-types.ts';
import { customerHandlers } from '../../server/modules/customers/customers.methods.ts';
import { callMethod, createTestApp, signIn, type SignedIn, type TestApp } from './harness.ts';
import { FAMILY_CHECK_TTL_MS } from '../../server/modules/auth/tokens.service.ts';

let t: TestApp;
let anna: SignedIn;
let boris: SignedIn;
let clerk: SignedIn;
let viewer: SignedIn;
let admin: SignedIn;
let northwindId: number;
let annaCustomerId: number;

beforeAll(async () => {
  t = await createTestApp({
    handlerOverrides: {
      // Writes like the real handler, then fails: the write and its audit entry must roll back.
      async customerLanguageUpdate(input: unknown, ctx: MethodContext) {
        const body = input as Parameters<typeof customerHandlers.customerLanguageUpdate>[0];
        await customerHandlers.customerLanguageUpdate(body, ctx);
        if (body.language === 'ru') throw new MethodFailure('TA1', 'refused after writing');
        return {};
      },
    },
  });
  [anna, boris, clerk, viewer, admin] = await Promise.all([
    signIn(t.app, 'anna'),
    signIn(t.app, 'boris'),
    signIn(t.app, 'clerk'),
    signIn(t.app, 'viewer'),
    signIn(t.app, 'admin'),
  ]);
  const [nw] = await t.db.select().from(customers).where(eq(customers.businessName, NORTHWIND_NAME));
  northwindId = nw!.id;
  annaCustomerId = decodeJwt(anna.accessToken).cid as number;
});
afterAll(async () => {
  await t?.close();
});

describe('the envelope', () => {
  it('answers IM for an unknown method', async () => {
    const res = await callMethod(t.app, 'noSuchMethod', {}, { token: anna.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.responseCode).toBe('IM');
  });

  it('answers VF naming every bad field at once', async () => {
    const res = await callMethod(t.app, 'userAccessInfoGet', { customerId: 'x', lang: 'de', fromCustomerId: -3 }, { token: anna.accessToken });
    expect(res.body.responseCode).toBe('VF');
    const params = (res.body.validationErrors as { param: string }[]).map((e) => e.param).sort();
    expect(params).toEqual(['customerId', 'fromCustomerId', 'lang']);
  });

  it('takes the method name in the body (document 1 §7) when it is the one in the path, else VF', async () => {
    const same = await callMethod(t.app, 'getCustomerInfo', { method: 'getCustomerInfo' }, { token: anna.accessToken });
    expect(same.body.responseCode).toBe('00');
    const other = await callMethod(t.app, 'getCustomerInfo', { method: 'userAccessList' }, { token: anna.accessToken });
    expect(other.body).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'method', description: 'must be the method named in the path' }] });
    // An old name in the body is refused as well: the wire has no aliases.
    const old = await callMethod(t.app, 'balanceInquiry', { method: 'accounts.account' }, { token: anna.accessToken }); // rename-codemod: keep
    expect(old.body).toMatchObject({ responseCode: 'VF', validationErrors: [{ param: 'method' }] });
    expect((await callMethod(t.app, 'accounts.account', {}, { token: anna.accessToken })).body.responseCode).toBe('IM'); // rename-codemod: keep
  });

  it('refuses the representative\'s fromEmail and authSecret on methods not listed for them', async () => {
    const res = await callMethod(t.app, 'getCustomerInfo', { fromEmail: 'rep@example.test', authSecret: 's'.repeat(32) }, { token: anna.accessToken });
    expect(res.body.responseCode).toBe('VF');
    expect((res.body.validationErrors as { param: string }[]).map((e) => e.param).sort()).toEqual(['authSecret', 'fromEmail']);
  });

  it('answers 401 AU without a token, with a garbage token, a badly signed token and an expired token', async () => {
    const none = await callMethod(t.app, 'getCustomerInfo');
    expect(none.status).toBe(401);
    expect(none.body.responseCode).toBe('AU');
    const garbage = await callMethod(t.app, 'getCustomerInfo', {}, { token: 'not.a.jwt' });
    expect(garbage.status).toBe(401);
    const claims = decodeJwt(anna.accessToken);
    const forged = await new SignJWT({ cid: claims.cid, fam: claims.fam })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.sub))
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('x'.repeat(32)));
    expect((await callMethod(t.app, 'getCustomerInfo', {}, { token: forged })).status).toBe(401);
    // Rightly signed (with the stored key) and of a live family, but expired.
    const [key] = await t.db.select().from(platformSecrets).where(eq(platformSecrets.name, 'jwt_hs256'));
    const nowS = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ cid: claims.cid, fam: claims.fam })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.sub))
      .setIssuedAt(nowS - 400)
      .setExpirationTime(nowS - 100)
      .sign(Buffer.from(key!.value, 'base64url'));
    const late = await callMethod(t.app, 'getCustomerInfo', {}, { token: expired });
    expect(late.status).toBe(401);
    expect(late.body.responseCode).toBe('AU');
    // The same key with a live expiry is accepted: the refusal above is the expiry's doing.
    const live = await new SignJWT({ cid: claims.cid, fam: claims.fam })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.sub))
      .setIssuedAt(nowS)
      .setExpirationTime(nowS + 60)
      .sign(Buffer.from(key!.value, 'base64url'));
    expect((await callMethod(t.app, 'getCustomerInfo', {}, { token: live })).body.responseCode).toBe('00');
  });

  it('answers 13 for an admin method called by a customer, 00 for an administrator', async () => {
    const res = await callMethod(t.app, 'adminCustomerList', {}, { token: anna.accessToken });
    expect(res.body.responseCode).toBe('13');
    const ok = await callMethod(t.app, 'adminCustomerList', { page: 1, pageSize: 3 }, { token: admin.accessToken });
    expect(ok.body.responseCode).toBe('00');
    expect((ok.body.customers as unknown[]).length).toBe(3);
    // every seeded customer but the provider (the demo data grows with the issues)
    const seeded = await t.db.select({ id: customers.id }).from(customers).where(eq(customers.isProvider, false));
    expect(ok.body.total).toBe(seeded.length);
    expect(seeded.length).toBeGreaterThanOrEqual(6);
    const tooBig = await callMethod(t.app, 'adminCustomerList', { pageSize: 51 }, { token: admin.accessToken });
    expect(tooBig.body.responseCode).toBe('VF');
  });

  it('public methods need no token', async () => {
    const res = await callMethod(t.app, 'dictionaryCurrencies');
    expect(res.body.responseCode).toBe('00');
  });
});

describe('acting for a customer', () => {
  it('answers ENOA for another customer in fromCustomerId or the Customer-Id header', async () => {
    const body = await callMethod(t.app, 'balanceInquiry', { fromCustomerId: northwindId }, { token: anna.accessToken });
    expect(body.body.responseCode).toBe('ENOA');
    const header = await callMethod(t.app, 'balanceInquiry', {}, { token: anna.accessToken, headers: { 'Customer-Id': String(northwindId) } });
    expect(header.body.responseCode).toBe('ENOA');
    const bad = await callMethod(t.app, 'balanceInquiry', {}, { token: anna.accessToken, headers: { 'Customer-Id': 'abc' } });
    expect(bad.body.responseCode).toBe('VF');
  });

  it("lets an authorised user read the company's accounts", async () => {
    for (const who of [clerk, viewer]) {
      const res = await callMethod(t.app, 'balanceInquiry', {}, { token: who.accessToken, headers: { 'Customer-Id': String(northwindId) } });
      expect(res.body.responseCode).toBe('00');
      const list = (res.body.accounts as { account: { currency: string; balance: string; customerId: number }[] }).account;
      expect(list.map((a) => `${a.currency} ${a.balance}`)).toEqual(['EUR 48200.00', 'GBP 12875.40']);
      expect(list.every((a) => a.customerId === northwindId)).toBe(true);
    }
  });

  it('answers ENOA once the access right is 0', async () => {
    const { customerAccess } = await import('../../server/db/schema.ts');
    const viewerId = Number(decodeJwt(viewer.accessToken).sub);
    await t.db.update(customerAccess).set({ accessRights: 0 }).where(eq(customerAccess.userId, viewerId));
    try {
      const res = await callMethod(t.app, 'balanceInquiry', { fromCustomerId: northwindId }, { token: viewer.accessToken });
      expect(res.body.responseCode).toBe('ENOA');
    } finally {
      await t.db.update(customerAccess).set({ accessRights: 1 }).where(eq(customerAccess.userId, viewerId));
    }
  });
});

describe('customer methods', () => {
  it('getCustomerInfo describes the caller', async () => {
    const res = await callMethod(t.app, 'getCustomerInfo', {}, { token: anna.accessToken });
    expect(res.body.responseCode).toBe('00');
    const c = res.body.customer as Record<string, unknown>;
    expect(c).toMatchObject({ login: demoUserByKey.anna.email, customerType: 'personal', verified: true, isAdmin: false, userType: 1, isHaveRelatedAccounts: false });
    const cl = (await callMethod(t.app, 'getCustomerInfo', {}, { token: clerk.accessToken })).body.customer as Record<string, unknown>;
    expect(cl).toMatchObject({ customerType: 'business', userType: 3, isHaveRelatedAccounts: true });
    const ad = (await callMethod(t.app, 'getCustomerInfo', {}, { token: admin.accessToken })).body.customer as Record<string, unknown>;
    expect(ad).toMatchObject({ isAdmin: true, userType: 4 });
    const bo = (await callMethod(t.app, 'getCustomerInfo', {}, { token: boris.accessToken })).body.customer as Record<string, unknown>;
    expect(bo).toMatchObject({ verified: false, login2faMode: 'no' });
  });

  // Settings names the method from the customer; sign-in uses the user's step: the demo data agrees.
  it('every demo user with a second step has that method as their two-step verification mode', async () => {
    const rows = await t.db
      .select({ email: users.email, login2faMode: users.login2faMode, mode: customers.twoStepVerificationMode })
      .from(users)
      .innerJoin(customers, eq(customers.id, users.customerId));
    const expected = { otp: 3, sms: 2, push: 1 } as const;
    for (const user of Object.values(demoUserByKey)) {
      const row = rows.find((r) => r.email === user.email);
      expect(row, user.email).toBeDefined();
      if (user.login2faMode === 'no') continue;
      expect({ email: user.email, mode: row!.mode }).toEqual({ email: user.email, mode: expected[user.login2faMode] });
    }
  });

  it('userAccessList and userAccessInfoGet describe the companies a user acts for', async () => {
    const list = await callMethod(t.app, 'userAccessList', {}, { token: viewer.accessToken });
    expect(list.body.customerAccesses).toEqual([
      expect.objectContaining({ customerId: northwindId, customerName: NORTHWIND_NAME, accessRights: 1, customerUsername: demoUserByKey.owner.email }),
    ]);
    const info = await callMethod(t.app, 'userAccessInfoGet', { customerId: northwindId }, { token: clerk.accessToken });
    expect(info.body.responseCode).toBe('00');
    expect(info.body.accessInfo).toMatchObject({ accessRights: 2, customerName: NORTHWIND_NAME, accessList: { balanceInfo: true } });
    const none = await callMethod(t.app, 'userAccessInfoGet', { customerId: northwindId }, { token: anna.accessToken });
    expect(none.body.responseCode).toBe('ENOA');
  });

  it('accounts.account gives decimal balances of the caller', async () => {
    const res = await callMethod(t.app, 'balanceInquiry', {}, { token: anna.accessToken });
    const list = (res.body.accounts as { account: { currency: string; balance: string; accountBalanceMin: string }[] }).account;
    expect(list.map((a) => `${a.currency} ${a.balance}`)).toEqual(['EUR 2450.75', 'USD 310.00']);
    expect(list[0]!.accountBalanceMin).toBe('0.00');
  });

  it('answers TE with the terms until the current version is accepted, then termsAccept clears it', async () => {
    await t.db.insert(terms).values({ termId: 1, version: 2, title: 'General terms and conditions (2027)', url: '/legal' });
    try {
      const te = await callMethod(t.app, 'getCustomerInfo', {}, { token: anna.accessToken });
      expect(te.body.responseCode).toBe('TE');
      expect(te.body.terms).toEqual([{ id: 1, version: 2, title: 'General terms and conditions (2027)', url: '/legal' }]);
      const listed = await callMethod(t.app, 'termsList', {}, { token: anna.accessToken });
      expect(listed.body.terms).toEqual(te.body.terms);

      const outdated = await callMethod(t.app, 'termsAccept', { terms: [{ id: 1, version: 1 }, { id: 9, version: 1 }] }, { token: anna.accessToken });
      expect(outdated.body.responseCode).toBe('TA1');
      expect((outdated.body.validationErrors as { param: string }[]).map((e) => e.param)).toEqual(['terms.0', 'terms.1']);

      const accepted = await callMethod(t.app, 'termsAccept', { terms: [{ id: 1, version: 2 }] }, { token: anna.accessToken });
      expect(accepted.body.responseCode).toBe('00');
      expect((await callMethod(t.app, 'getCustomerInfo', {}, { token: anna.accessToken })).body.responseCode).toBe('00');
      const [entry] = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.method, 'termsAccept'), eq(auditLog.customerId, annaCustomerId)));
      expect(entry?.details).toEqual({ terms: [{ id: 1, version: 2 }] });
    } finally {
      // Other customers now owe version 2; leave them owing nothing.
      await t.db.delete(terms).where(and(eq(terms.termId, 1), eq(terms.version, 2)));
    }
  });
});

describe('mutations and the audit log', () => {
  it('writes the change and its audit entry in one transaction', async () => {
    const res = await callMethod(t.app, 'customerLanguageUpdate', { language: 'ua' }, { token: boris.accessToken });
    expect(res.body.responseCode).toBe('00');
    const borisCustomerId = decodeJwt(boris.accessToken).cid as number;
    const [c] = await t.db.select().from(customers).where(eq(customers.id, borisCustomerId));
    expect(c?.language).toBe('ua');
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.method, 'customerLanguageUpdate'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ customerId: borisCustomerId, userId: Number(decodeJwt(boris.accessToken).sub), details: { language: 'ua' } });
  });

  it('rolls back the change and the audit entry when the handler fails', async () => {
    const before = await t.db.select().from(auditLog);
    const res = await callMethod(t.app, 'customerLanguageUpdate', { language: 'ru' }, { token: anna.accessToken });
    expect(res.body.responseCode).toBe('TA1');
    const [c] = await t.db.select().from(customers).where(eq(customers.id, annaCustomerId));
    expect(c?.language).toBe('en');
    expect(await t.db.select().from(auditLog)).toHaveLength(before.length);
  });

  it('answers UE (and writes nothing) when a handler answer breaks the response schema', async () => {
    const broken = await createTestApp({
      handlerOverrides: { termsList: async () => ({ terms: [{ id: 'one' }] }) as never },
    });
    try {
      const s = await signIn(broken.app, 'boris');
      const res = await callMethod(broken.app, 'termsList', {}, { token: s.accessToken });
      expect(res.body.responseCode).toBe('UE');
    } finally {
      await broken.close();
    }
  });

  it('a disabled user is refused once the last look at the session is FAMILY_CHECK_TTL_MS old', async () => {
    const viewerId = Number(decodeJwt(viewer.accessToken).sub);
    expect((await callMethod(t.app, 'getCustomerInfo', {}, { token: viewer.accessToken })).status).toBe(200);
    await t.db.update(users).set({ disabled: true }).where(eq(users.id, viewerId));
    try {
      await new Promise((resolve) => setTimeout(resolve, FAMILY_CHECK_TTL_MS + 50));
      expect((await callMethod(t.app, 'getCustomerInfo', {}, { token: viewer.accessToken })).status).toBe(401);
    } finally {
      await t.db.update(users).set({ disabled: false }).where(eq(users.id, viewerId));
    }
  });
});
