/**
 * Registration and activation over HTTP (api/registration.ts): checkEmail, accountCreate,
 * activateAccount, businessAccountActivate, employeeAccountActivate, activationCodeResend, with
 * wrong, expired, reused and dead codes, unknown e-mails and registration switched off.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { ACTIVATION_CODE_TTL_S } from '../../api/registration.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { oneTimeCodes } from '../../server/modules/auth/auth.tables.ts';
import { sha256Hex } from '../../server/modules/auth/crypto.ts';
import { customerAccess, customers, phones, termsAcceptances, users } from '../../server/modules/customers/customers.tables.ts';
import { auditLog, outbox } from '../../server/modules/platform/platform.tables.ts';
import { callMethod, createTestApp, pkcePair, postJson, type TestApp } from './harness.ts';

let clockMs = Date.now();
let t: TestApp;
let closed: TestApp;
let addressSerial = 0;
const freshAddress = () => `10.9.${Math.floor(addressSerial / 250)}.${(addressSerial++ % 250) + 1}`;
const PASSWORD = 'Joined-2026x';

beforeAll(async () => {
  t = await createTestApp({ now: () => clockMs, publicUrl: 'https://bank.example.test/' });
  closed = await createTestApp({ allowRegistration: false });
});
afterAll(async () => {
  await t?.close();
  await closed?.close();
});

function personal(email: string, over: Record<string, unknown> = {}) {
  return {
    personalType: 'individual',
    firstName: '  Ana   Maria ',
    lastName: ' Pop ',
    email,
    password: PASSWORD,
    residenceCountryCode: 'LT',
    phoneCountryCode: '+370',
    phone: '612 34567',
    acceptTerms: true,
    ...over,
  };
}

async function lastMailTo(email: string) {
  const [row] = await t.db.select().from(outbox).where(eq(outbox.recipient, email)).orderBy(desc(outbox.id)).limit(1);
  return row;
}
async function mailCount(email: string) {
  return (await t.db.select().from(outbox).where(eq(outbox.recipient, email))).length;
}
function codeIn(body: string): string {
  const match = /activation page: ([A-Z0-9]{8})/.exec(body);
  if (!match) throw new Error('no code in the mail');
  return match[1]!;
}
async function register(email: string) {
  const res = await callMethod(t.app, 'accountCreate', personal(email), { remoteAddress: freshAddress() });
  expect(res.body).toEqual({ responseCode: '00' });
  const mail = await lastMailTo(email.trim().toLowerCase());
  return codeIn(mail!.body);
}
async function userOf(email: string) {
  const [u] = await t.db.select().from(users).where(eq(users.email, email));
  return u!;
}
function vfParam(body: Record<string, unknown>) {
  return (body.validationErrors as { param: string; description: string }[] | undefined)?.[0];
}

describe('checkEmail', () => {
  it('answers 0 free, 1 exists, 3 exists as an authorised user', async () => {
    const ip = { remoteAddress: freshAddress() };
    expect((await callMethod(t.app, 'checkEmail', { email: 'nobody-yet@demo.test' }, ip)).body).toEqual({ responseCode: '00', exist: false, exists: false, isEmployee: false, outBlacklist: false });
    expect((await callMethod(t.app, 'checkEmail', { email: ' Anna@Demo.test ' }, ip)).body).toEqual({ responseCode: '00', exist: true, exists: true, isEmployee: false, outBlacklist: false });
    expect((await callMethod(t.app, 'checkEmail', { email: 'clerk@northwind.test' }, ip)).body).toEqual({ responseCode: '00', exist: true, exists: true, isEmployee: true, outBlacklist: false });
  });

  it('refuses what is not an e-mail (VF)', async () => {
    const res = await callMethod(t.app, 'checkEmail', { email: 'not-an-email' }, { remoteAddress: freshAddress() });
    expect(res.body.responseCode).toBe('VF');
    expect(vfParam(res.body)?.param).toBe('email');
  });

  it('is capped at 30 a minute per client address (it reveals whether an account exists)', async () => {
    const ip = { remoteAddress: freshAddress() };
    for (let i = 0; i < 30; i++) expect((await callMethod(t.app, 'checkEmail', { email: `probe${i}@demo.test` }, ip)).body.responseCode).toBe('00');
    const capped = await callMethod(t.app, 'checkEmail', { email: 'probe-last@demo.test' }, ip);
    expect(capped.body.responseCode).toBe('UE');
    // another address is not affected
    expect((await callMethod(t.app, 'checkEmail', { email: 'probe-last@demo.test' }, { remoteAddress: freshAddress() })).body.responseCode).toBe('00');
    clockMs += 61_000;
    expect((await callMethod(t.app, 'checkEmail', { email: 'probe-last@demo.test' }, ip)).body.responseCode).toBe('00');
  });
});

describe('accountCreate', () => {
  it('creates the customer, a user waiting for activation, phone, terms, a EUR account and mails a code', async () => {
    const code = await register('  New.Person@Example.test ');
    const user = await userOf('new.person@example.test');
    expect(user).toMatchObject({ activated: false, login2faMode: 'no', userType: 1 });
    const [customer] = await t.db.select().from(customers).where(eq(customers.id, user.customerId));
    // names trimmed with whitespace collapsed (document 1 §5)
    expect(customer).toMatchObject({ customerType: 'personal', firstName: 'Ana Maria', lastName: 'Pop', residenceCountryCode: 'LT' });
    expect(await t.db.select().from(phones).where(eq(phones.customerId, user.customerId))).toEqual([
      expect.objectContaining({ phoneCountryCode: '370', phone: '61234567', status: 'primary', confirmed: false }),
    ]);
    expect((await t.db.select().from(termsAcceptances).where(eq(termsAcceptances.customerId, user.customerId))).length).toBeGreaterThan(0);
    expect(await t.db.select().from(accounts).where(eq(accounts.customerId, user.customerId))).toEqual([
      expect.objectContaining({ currency: 'EUR', type: 1001, balanceMinor: 0n }),
    ]);
    const mail = await lastMailTo('new.person@example.test');
    expect(mail!.body).toContain(`https://bank.example.test/login?action=activation&user=new.person%40example.test&code=${code}`);
    // only the hash is stored
    const [stored] = await t.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id));
    expect(stored!.codeHash).toBe(sha256Hex(code));
    expect(JSON.stringify(stored)).not.toContain(code);
    // the audit entry holds no password
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.method, 'accountCreate')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit!.details).toMatchObject({ registered: 'personal', userId: user.id });
    expect(JSON.stringify(audit)).not.toContain(PASSWORD);
  });

  it('cannot sign in before activation', async () => {
    await register('early@example.test');
    const { challenge } = pkcePair();
    const login = await postJson(t.app, '/auth/login', { client: 'spa', username: 'early@example.test', password: PASSWORD, codeChallenge: challenge }, { remoteAddress: freshAddress() });
    expect(login.statusCode).toBe(403);
  });

  it('refuses an e-mail that is already registered, in any case', async () => {
    const res = await callMethod(t.app, 'accountCreate', personal('ANNA@demo.test'), { remoteAddress: freshAddress() });
    expect(res.body.responseCode).toBe('VF');
    expect(vfParam(res.body)).toEqual({ param: 'email', description: 'is already registered', code: 'alreadyRegistered', params: {} });
  });

  it('names every bad field: weak password, unknown country, type not offered, terms not accepted, phone without code', async () => {
    const weak = await callMethod(t.app, 'accountCreate', personal('weak@example.test', { password: 'short', acceptTerms: false, personalType: 'pirate' }));
    expect(weak.body.responseCode).toBe('VF');
    const params = (weak.body.validationErrors as { param: string }[]).map((e) => e.param).sort();
    expect(params).toEqual(['acceptTerms', 'password', 'personalType']);
    const country = await callMethod(t.app, 'accountCreate', personal('country@example.test', { residenceCountryCode: 'QQ' }));
    expect(vfParam(country.body)?.param).toBe('residenceCountryCode');
    const phone = await callMethod(t.app, 'accountCreate', personal('phone@example.test', { phoneCountryCode: undefined }));
    expect(vfParam(phone.body)?.param).toBe('phoneCountryCode');
    // a type the variant (wallet: individual only) does not offer
    const sole = await callMethod(t.app, 'accountCreate', personal('sole@example.test', { personalType: 'soleTrader' }));
    expect(vfParam(sole.body)).toEqual({ param: 'personalType', description: 'is not offered', code: 'notOffered', params: {} });
    expect(await t.db.select().from(users).where(eq(users.email, 'country@example.test'))).toEqual([]);
    // nothing was written for any refused call
    expect(await mailCount('phone@example.test')).toBe(0);
  });

  it('answers 13 on every registration call when registration is off', async () => {
    const create = await callMethod(closed.app, 'accountCreate', personal('closed@example.test'));
    expect(create.body.responseCode).toBe('13');
    const check = await callMethod(closed.app, 'checkEmail', { email: 'closed@example.test' });
    expect(check.body.responseCode).toBe('13');
    expect(await closed.db.select().from(users).where(eq(users.email, 'closed@example.test'))).toEqual([]);
  });
});

describe('activateAccount', () => {
  it('activates with the mailed code (any case), after which the user signs in; the code is single-use', async () => {
    const code = await register('activate.me@example.test');
    const ok = await callMethod(t.app, 'activateAccount', { username: 'Activate.Me@example.test', activationCode: code.toLowerCase() });
    expect(ok.body).toEqual({ responseCode: '00' });
    expect((await userOf('activate.me@example.test')).activated).toBe(true);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.method, 'activateAccount')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit!.details).toMatchObject({ activated: true });

    const { challenge } = pkcePair();
    const login = await postJson(t.app, '/auth/login', { client: 'spa', username: 'activate.me@example.test', password: PASSWORD, codeChallenge: challenge }, { remoteAddress: freshAddress() });
    expect(login.statusCode).toBe(200);
    expect(login.json().authFlow).toBe('simple');

    const again = await callMethod(t.app, 'activateAccount', { username: 'activate.me@example.test', activationCode: code });
    expect(vfParam(again.body)).toEqual({ param: 'activationCode', description: 'has already been used: sign in', code: 'codeUsed', params: {} });
  });

  it('answers the same for a wrong code and an unknown e-mail', async () => {
    await register('wrong.code@example.test');
    const wrong = await callMethod(t.app, 'activateAccount', { username: 'wrong.code@example.test', activationCode: 'AAAA2222' });
    const unknown = await callMethod(t.app, 'activateAccount', { username: 'no.such@example.test', activationCode: 'AAAA2222' });
    expect(wrong.body).toEqual(unknown.body);
    expect(vfParam(wrong.body)).toEqual({ param: 'activationCode', description: 'is wrong', code: 'codeWrong', params: {} });
    expect((await userOf('wrong.code@example.test')).activated).toBe(false);
  });

  it('kills a code after 5 wrong tries, even the right one after that', async () => {
    const code = await register('five.wrong@example.test');
    for (let i = 0; i < 5; i++) {
      const res = await callMethod(t.app, 'activateAccount', { username: 'five.wrong@example.test', activationCode: 'BBBB3333' });
      expect(vfParam(res.body)).toMatchObject({ description: 'is wrong', code: 'codeWrong' });
    }
    const right = await callMethod(t.app, 'activateAccount', { username: 'five.wrong@example.test', activationCode: code });
    expect(vfParam(right.body)).toEqual({ param: 'activationCode', description: 'has expired: ask for a new one', code: 'codeExpired', params: {} });
    expect((await userOf('five.wrong@example.test')).activated).toBe(false);
  });

  it('refuses an expired code (after 24 h)', async () => {
    const code = await register('late@example.test');
    clockMs += ACTIVATION_CODE_TTL_S * 1000 + 1000;
    const res = await callMethod(t.app, 'activateAccount', { username: 'late@example.test', activationCode: code });
    expect(vfParam(res.body)).toEqual({ param: 'activationCode', description: 'has expired: ask for a new one', code: 'codeExpired', params: {} });
  });

  it('refuses a malformed code before looking anything up', async () => {
    const res = await callMethod(t.app, 'activateAccount', { username: 'late@example.test', activationCode: '12' });
    expect(vfParam(res.body)).toEqual({ param: 'activationCode', description: 'is wrong', code: 'codeWrong', params: {} });
  });
});

describe('activationCodeResend', () => {
  it('sends a new code, the old one dies; the same answer for unknown and active e-mails; at most 3 an hour', async () => {
    const first = await register('resend@example.test');
    const res = await callMethod(t.app, 'activationCodeResend', { email: 'resend@example.test' });
    expect(res.body).toEqual({ responseCode: '00' });
    const second = codeIn((await lastMailTo('resend@example.test'))!.body);
    expect(second).not.toBe(first);
    const old = await callMethod(t.app, 'activateAccount', { username: 'resend@example.test', activationCode: first });
    expect(vfParam(old.body)?.param).toBe('activationCode');

    expect((await callMethod(t.app, 'activationCodeResend', { email: 'no.such@example.test' })).body).toEqual({ responseCode: '00' });
    expect((await callMethod(t.app, 'activationCodeResend', { email: 'anna@demo.test' })).body).toEqual({ responseCode: '00' });
    expect(await mailCount('anna@demo.test')).toBe(0);

    await callMethod(t.app, 'activationCodeResend', { email: 'resend@example.test' });
    await callMethod(t.app, 'activationCodeResend', { email: 'resend@example.test' });
    expect(await mailCount('resend@example.test')).toBe(4); // registration + 3 resends
    const capped = await callMethod(t.app, 'activationCodeResend', { email: 'resend@example.test' });
    expect(capped.body).toEqual({ responseCode: '00' });
    expect(await mailCount('resend@example.test')).toBe(4);
    clockMs += 61 * 60 * 1000;
    await callMethod(t.app, 'activationCodeResend', { email: 'resend@example.test' });
    expect(await mailCount('resend@example.test')).toBe(5);
    const latest = codeIn((await lastMailTo('resend@example.test'))!.body);
    expect((await callMethod(t.app, 'activateAccount', { username: 'resend@example.test', activationCode: latest })).body).toEqual({ responseCode: '00' });
  });
});

describe('business and employee activation', () => {
  async function company(tag: string) {
    const [c] = await t.db.insert(customers).values({ customerType: 'business', businessName: `Co ${tag}` }).returning({ id: customers.id });
    const [owner] = await t.db
      .insert(users)
      .values({ email: `owner.${tag}@example.test`, passwordHash: 'x', userType: 2, customerId: c!.id, activated: false, login2faMode: 'no' })
      .returning({ id: users.id });
    const [own] = await t.db.insert(customers).values({ customerType: 'personal', firstName: 'E', lastName: tag }).returning({ id: customers.id });
    const [employee] = await t.db
      .insert(users)
      .values({ email: `staff.${tag}@example.test`, passwordHash: 'x', userType: 3, customerId: own!.id, activated: false, login2faMode: 'no' })
      .returning({ id: users.id });
    await t.db.insert(customerAccess).values({ userId: employee!.id, customerId: c!.id, accessRights: 2 });
    const code = 'CDEF4567';
    await t.db.insert(oneTimeCodes).values({
      id: randomUUID(),
      userId: owner!.id,
      purpose: 'businessActivation',
      codeHash: sha256Hex(code),
      sentTo: `owner.${tag}@example.test`,
      expiresAt: new Date(clockMs + 3_600_000),
      createdAt: new Date(clockMs),
    });
    return { code, ownerEmail: `owner.${tag}@example.test`, staffEmail: `staff.${tag}@example.test` };
  }

  it('the owner activates the business; its authorised users get activation links; one sets a password and signs in', async () => {
    const co = await company('a');
    // before the owner activates, an authorised user gets nothing on resend
    await callMethod(t.app, 'activationCodeResend', { email: co.staffEmail });
    expect(await mailCount(co.staffEmail)).toBe(0);

    const wrong = await callMethod(t.app, 'businessAccountActivate', { email: co.ownerEmail, activationCode: 'WXYZ2345' });
    expect(vfParam(wrong.body)).toMatchObject({ description: 'is wrong', code: 'codeWrong' });
    const ok = await callMethod(t.app, 'businessAccountActivate', { email: co.ownerEmail, activationCode: co.code });
    expect(ok.body).toEqual({ responseCode: '00' });
    expect((await userOf(co.ownerEmail)).activated).toBe(true);
    const mail = await lastMailTo(co.staffEmail);
    expect(mail!.body).toContain('action=activationEmployee&email=staff.a%40example.test&code=');
    const staffCode = codeIn(mail!.body);
    // a personal activation code is no business code, nor an employee's
    expect((await callMethod(t.app, 'activateAccount', { username: co.staffEmail, activationCode: staffCode })).body.responseCode).toBe('VF');

    const weak = await callMethod(t.app, 'employeeAccountActivate', { email: co.staffEmail, activationCode: staffCode, password: 'short' });
    expect(vfParam(weak.body)?.param).toBe('password');
    const set = await callMethod(t.app, 'employeeAccountActivate', { email: co.staffEmail, activationCode: staffCode, password: PASSWORD });
    expect(set.body).toEqual({ responseCode: '00' });
    const { challenge } = pkcePair();
    const login = await postJson(t.app, '/auth/login', { client: 'spa', username: co.staffEmail, password: PASSWORD, codeChallenge: challenge }, { remoteAddress: freshAddress() });
    expect(login.statusCode).toBe(200);
    const reused = await callMethod(t.app, 'employeeAccountActivate', { email: co.staffEmail, activationCode: staffCode, password: 'Another-2026' });
    expect(vfParam(reused.body)).toMatchObject({ description: 'has already been used: sign in', code: 'codeUsed' });
  });

  it('an unknown e-mail answers like a wrong code', async () => {
    const a = await callMethod(t.app, 'businessAccountActivate', { email: 'no.owner@example.test', activationCode: 'CDEF4567' });
    const b = await callMethod(t.app, 'employeeAccountActivate', { email: 'no.staff@example.test', activationCode: 'CDEF4567', password: PASSWORD });
    expect(vfParam(a.body)).toEqual({ param: 'activationCode', description: 'is wrong', code: 'codeWrong', params: {} });
    expect(vfParam(b.body)).toEqual({ param: 'activationCode', description: 'is wrong', code: 'codeWrong', params: {} });
    const rows = await t.db.select().from(oneTimeCodes).where(and(eq(oneTimeCodes.sentTo, 'no.owner@example.test')));
    expect(rows).toEqual([]);
  });
});
