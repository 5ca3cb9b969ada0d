/**
 * Business registration on the platform (accountCreate with `company`, api/business-registration.ts;
 * issue 17 items 1-3) over HTTP on PGlite: a full registration (two directors, a corporate shareholder
 * holding 60 % whose person shareholder holds 50 % of it, so a 30 % ultimate beneficial owner with
 * source of funds, and an authorised user with right 3) stores the company, its representatives
 * (tree, shares, positions, owners), users and access rows, nothing activated; the owner activates
 * (businessAccountActivate), the user then gets the activationEmployee link and activates with a
 * password. Every refusal (one row per rule) changes nothing. The draft calls: save, get, a wrong
 * device secret, version, too large, expiry and its sweep, the per-e-mail cap, deletion.
 */
import { randomBytes } from 'node:crypto';
import { asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSINESS_DRAFT_MAX_BYTES, type BusinessRegistration } from '../../api/business-registration.ts';
import { companyActionRequiredCount, type CompanyInfo, type Representative, type ShareholderNode } from '../../api/business.ts';
import { CUSTOMER_ID_HEADER } from '../../api/http.ts';
import { issuesToValidationErrors } from '../../api/envelope.ts';
import { accountCreate } from '../../api/registration.ts';
import type { DemoUser } from '../../server/db/demo-users.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { verifyPassword } from '../../server/modules/auth/crypto.ts';
import { businessCompanies, businessRepresentativeAddresses, businessRepresentatives } from '../../server/modules/business/business.tables.ts';
import { customerAccess, customers, phones, termsAcceptances, users } from '../../server/modules/customers/customers.tables.ts';
import { auditLog, outbox } from '../../server/modules/platform/platform.tables.ts';
import { customerAddresses } from '../../server/modules/profile/profile.tables.ts';
import { deleteExpiredDrafts, MAX_DRAFTS_PER_EMAIL } from '../../server/modules/registration/business-drafts.ts';
import { checkBusinessRegistration } from '../../server/modules/registration/business-registration.service.ts';
import { businessDocumentRequirements, businessRegistrationDrafts } from '../../server/modules/registration/business-registration.tables.ts';
import { callMethod, createTestApp, signIn, type TestApp } from './harness.ts';

let clockMs = Date.now();
let t: TestApp;
let addressSerial = 0;
const freshAddress = () => `10.17.${Math.floor(addressSerial / 250)}.${(addressSerial++ % 250) + 1}`;
const PASSWORD = 'Company-2026x';
const CLERK_PASSWORD = 'Clerk-Pass-2026';

beforeAll(async () => {
  t = await createTestApp({ now: () => clockMs, publicUrl: 'https://bank.example.test', transferWorkers: false, globalRateLimitPerMinute: false });
});
afterAll(async () => {
  await t?.close();
});

type Payload = Omit<BusinessRegistration, 'captcha' | 'device'> & { password: string; acceptTerms: true; email?: string } & Record<string, unknown>;

/**
 * Acme Trading Ltd: Ana (registrant, director, user with 2), Dan (director, holds 20 %), Holdco Ltd
 * (holds 60 %; its director Hugo, its shareholder Marta with 50 % of it: 30 % effectively, an
 * ultimate beneficial owner with source of funds), Cleo (authorised user with right 3).
 * personList indices: 0 Ana, 1 Dan, 2 Marta, 3 Hugo, 4 Cleo.
 */
function acme(tag: string): Payload {
  const address = { address1: ' 1  Quay   Street ', address2: '', city: 'Dublin', postalCode: 'D02 X285', countryCode: 'IE', stateName: '' };
  return {
    password: PASSWORD,
    acceptTerms: true,
    company: {
      name: '  Acme   Trading Ltd ',
      tradingName: 'Acme',
      registrationCountryCode: 'IE',
      registrationNumber: '654321',
      registrationDate: '2019-04-01',
      businessTaxId: 'IE1234567T',
      email: `hello-${tag}@acme.test`,
      website: 'https://acme.example',
      description: 'Wholesale',
      phoneCountryCode: '+353',
      phone: '1 234 5678',
      address,
    },
    financialDetail: { monthlyDepositAmount: '25000', monthlyWithdrawalAmount: '20000.50', currency: 'EUR', sourceIds: [1, 2], purposeIds: [1], industry: 102, specifications: '' },
    dueDiligence: { government: false, lawsuits: false, details: '', taxPayers: false },
    authorizedCompanyRepresentative: { personId: 'ana' },
    legalInformation: { '1': true, '2': true, '3': true },
    directors: ['ana', 'dan'],
    ultimateBeneficiaryOwners: [],
    shareholders: [
      { type: 2, share: 60, companyId: 'holdco', shareholders: [{ type: 1, share: 50, personId: 'marta' }] },
      { type: 1, share: 20, personId: 'dan' },
    ],
    users: ['ana', 'cleo'],
    personList: [
      {
        id: 'ana',
        firstName: '  Ana  ',
        lastName: 'Owner',
        birthday: '1980-01-02',
        email: `Ana.${tag}@Acme.test`,
        isUser: true,
        accessRights: 2,
        address,
        taxId: '',
        sourcesOfFunds: [],
      },
      { id: 'dan', firstName: 'Dan', lastName: 'Second', birthday: '1982-03-04', isUser: false, accessRights: null, taxId: '', sourcesOfFunds: [] },
      {
        id: 'marta',
        firstName: 'Marta',
        lastName: 'Holder',
        birthday: '1975-11-30',
        taxId: '',
        isUser: false,
        accessRights: null,
        sourcesOfFunds: [{ sourceId: 1, details: 'Salary as a managing director' }],
      },
      { id: 'hugo', firstName: 'Hugo', lastName: 'Director', birthday: '1970-05-06', taxId: '', isUser: false, accessRights: null, sourcesOfFunds: [] },
      { id: 'cleo', firstName: 'Cleo', lastName: '  Clerk ', birthday: '1990-07-08', email: `cleo.${tag}@acme.test`, isUser: true, accessRights: 3, taxId: '', sourcesOfFunds: [] },
    ],
    companyList: [{ id: 'holdco', name: 'Holdco Ltd', registrationNumber: '11223344', registrationCountryCode: 'GB', directors: ['hugo'] }],
    additionalQuestionAnswers: {},
  } as Payload;
}

const create = (payload: Record<string, unknown>, remoteAddress = freshAddress()) => callMethod(t.app, 'accountCreate', payload, { remoteAddress });
const vfList = (body: Record<string, unknown>) => ((body.validationErrors ?? []) as { param: string; code: string }[]).map((e) => `${e.param}:${e.code}`);

async function lastMailTo(email: string) {
  const [row] = await t.db.select().from(outbox).where(eq(outbox.recipient, email)).orderBy(desc(outbox.id)).limit(1);
  return row;
}
function codeIn(body: string): string {
  const match = /activation page: ([A-Z0-9]{8})/.exec(body);
  if (!match) throw new Error('no code in the mail');
  return match[1]!;
}

/** Row counts of every table a registration writes. */
async function counts() {
  const n = async (table: PgTable) => (await t.db.select({ n: count() }).from(table))[0]!.n;
  return {
    customers: await n(customers),
    users: await n(users),
    access: await n(customerAccess),
    representatives: await n(businessRepresentatives),
    repAddresses: await n(businessRepresentativeAddresses),
    companies: await n(businessCompanies),
    requirements: await n(businessDocumentRequirements),
    accounts: await n(accounts),
    phones: await n(phones),
    addresses: await n(customerAddresses),
    terms: await n(termsAcceptances),
    outbox: await n(outbox),
    audit: await n(auditLog),
    drafts: await n(businessRegistrationDrafts),
  };
}

const secret = () => randomBytes(16).toString('base64url');

describe('a full registration', () => {
  it('stores the company, its representatives, tree, owners, users and access, nothing activated; the owner activates, then the user', async () => {
    // A draft kept for the registrant's e-mail goes with the registration.
    const draftSecret = secret();
    expect(
      (
        await callMethod(
          t.app,
          'businessRegistrationDraftSave',
          { email: 'ana.full@acme.test', deviceSecret: draftSecret, draft: { version: '3.54', data: { step: 'users' } } },
          { remoteAddress: freshAddress() },
        )
      ).body.responseCode,
    ).toBe('00');

    const res = await create(acme('full'));
    expect(res.body).toEqual({ responseCode: '00' });

    const [owner] = await t.db.select().from(users).where(eq(users.email, 'ana.full@acme.test'));
    expect(owner).toMatchObject({ userType: 2, activated: false, login2faMode: 'no' });
    expect(await verifyPassword(owner!.passwordHash, PASSWORD)).toBe(true);
    const companyId = owner!.customerId;
    const [company] = await t.db.select().from(customers).where(eq(customers.id, companyId));
    // names trimmed, whitespace collapsed (document 1 §5)
    expect(company).toMatchObject({
      customerType: 'business',
      businessName: 'Acme Trading Ltd',
      firstName: 'Ana',
      lastName: 'Owner',
      residenceCountryCode: 'IE',
      taxId: 'IE1234567T',
    });
    const [details] = await t.db.select().from(businessCompanies).where(eq(businessCompanies.customerId, companyId));
    expect(details).toMatchObject({
      tradingName: 'Acme',
      registrationNumber: '654321',
      registrationDate: '2019-04-01',
      email: 'hello-full@acme.test',
      website: 'https://acme.example',
    });
    expect(details!.financialDetail).toMatchObject({ monthlyDepositAmount: '25000', currency: 'EUR', sourceIds: [1, 2], purposeIds: [1], industry: 102 });
    expect(details!.dueDiligence).toMatchObject({ government: false, lawsuits: false, taxPayers: false });
    expect(await t.db.select().from(phones).where(eq(phones.customerId, companyId))).toEqual([
      expect.objectContaining({ phoneCountryCode: '353', phone: '12345678', status: 'primary', confirmed: false }),
    ]);
    expect(await t.db.select().from(customerAddresses).where(eq(customerAddresses.customerId, companyId))).toEqual([
      expect.objectContaining({ addressType: 'business', address1: '1 Quay Street', city: 'Dublin', countryCode: 'IE' }),
    ]);
    expect(await t.db.select().from(accounts).where(eq(accounts.customerId, companyId))).toEqual([expect.objectContaining({ currency: 'EUR', type: 1001, balanceMinor: 0n })]);
    expect((await t.db.select().from(termsAcceptances).where(eq(termsAcceptances.customerId, companyId))).length).toBeGreaterThan(0);

    // The representatives follow the tree: parents, exact shares, positions (2 director, 6/9 shareholder, 8 owner, 1 authorised user).
    const reps = await t.db.select().from(businessRepresentatives).where(eq(businessRepresentatives.customerId, companyId)).orderBy(asc(businessRepresentatives.id));
    const by = (name: string) => reps.find((r) => r.firstName === name || r.companyName === name)!;
    expect(reps).toHaveLength(6);
    expect(by('Holdco Ltd')).toMatchObject({ kind: 'company', parentId: null, positionIds: [6], shareHundredths: 6000, registrationNumber: '11223344', countryCode: 'GB' });
    expect(by('Marta')).toMatchObject({
      kind: 'person',
      parentId: by('Holdco Ltd').id,
      positionIds: [9, 8],
      shareHundredths: 5000,
      sourceOfFunds: { '1': 'Salary as a managing director' },
    });
    expect(by('Hugo')).toMatchObject({ parentId: by('Holdco Ltd').id, positionIds: [2], shareHundredths: null, sourceOfFunds: {} });
    expect(by('Dan')).toMatchObject({ parentId: null, positionIds: [2, 6], shareHundredths: 2000 });
    expect(by('Ana')).toMatchObject({ parentId: null, positionIds: [2], userId: owner!.id, email: 'ana.full@acme.test' });
    expect(by('Cleo')).toMatchObject({ parentId: null, positionIds: [1], lastName: 'Clerk' });
    expect(
      await t.db
        .select()
        .from(businessRepresentativeAddresses)
        .where(eq(businessRepresentativeAddresses.representativeId, by('Ana').id)),
    ).toEqual([expect.objectContaining({ address1: '1 Quay Street', countryCode: 'IE', status: 'unconfirmed' })]);

    // The users and their access: the owner 2, the authorised user 3 with their own customer; nobody activated.
    const [clerk] = await t.db.select().from(users).where(eq(users.email, 'cleo.full@acme.test'));
    expect(clerk).toMatchObject({ userType: 3, activated: false });
    expect(clerk!.customerId).not.toBe(companyId);
    expect(by('Cleo').userId).toBe(clerk!.id);
    const access = await t.db.select().from(customerAccess).where(eq(customerAccess.customerId, companyId)).orderBy(asc(customerAccess.id));
    expect(access.map((a) => [a.userId, a.accessRights, a.positionIds])).toEqual([
      [owner!.id, 2, [2]],
      [clerk!.id, 3, [1]],
    ]);

    // The documents to upload: the company's (4, 7, 9), each director's identity, the owner's identity, address and wealth, Holdco's registration.
    const requirements = await t.db.select().from(businessDocumentRequirements).where(eq(businessDocumentRequirements.customerId, companyId));
    const required = requirements
      .map((r) => `${r.representativeId === null ? 'company' : reps.find((x) => x.id === r.representativeId)!.firstName || 'Holdco'}:${r.categoryId}`)
      .sort();
    expect(required).toEqual(['Ana:1', 'Dan:1', 'Holdco:4', 'Marta:1', 'Marta:11', 'Marta:2', 'company:4', 'company:7', 'company:9']);

    // Only the owner is mailed now (activationBusiness); the draft of that e-mail is gone; the audit holds ids only.
    const mail = await lastMailTo('ana.full@acme.test');
    const code = codeIn(mail!.body);
    expect(mail!.body).toContain(`https://bank.example.test/login?action=activationBusiness&email=ana.full%40acme.test&code=${code}`);
    expect(await lastMailTo('cleo.full@acme.test')).toBeUndefined();
    expect(await t.db.select().from(businessRegistrationDrafts).where(eq(businessRegistrationDrafts.email, 'ana.full@acme.test'))).toEqual([]);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.method, 'accountCreate')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit!.details).toMatchObject({ registered: 'business', customerId: companyId, userId: owner!.id, userIds: [owner!.id, clerk!.id] });
    const audited = JSON.stringify(audit);
    for (const secretText of ['acme.test', 'Ana', 'Marta', 'Quay', PASSWORD, 'Salary']) expect(audited).not.toContain(secretText);

    // The owner activates: the authorised user now gets the activationEmployee link, and activates with a password.
    expect((await callMethod(t.app, 'businessAccountActivate', { email: 'ana.full@acme.test', activationCode: code })).body).toEqual({ responseCode: '00' });
    expect((await t.db.select().from(users).where(eq(users.id, owner!.id)))[0]!.activated).toBe(true);
    const link = await lastMailTo('cleo.full@acme.test');
    const clerkCode = codeIn(link!.body);
    expect(link!.body).toContain(`action=activationEmployee&email=cleo.full%40acme.test&code=${clerkCode}`);
    expect((await callMethod(t.app, 'employeeAccountActivate', { email: 'cleo.full@acme.test', activationCode: clerkCode, password: CLERK_PASSWORD })).body).toEqual({
      responseCode: '00',
    });
    const [activeClerk] = await t.db.select().from(users).where(eq(users.id, clerk!.id));
    expect(activeClerk!.activated).toBe(true);
    expect(await verifyPassword(activeClerk!.passwordHash, CLERK_PASSWORD)).toBe(true);

    // The company as its owner reads it: Marta 30 % effectively, an ultimate beneficial owner.
    const session = await signIn(t.app, { email: 'ana.full@acme.test', password: PASSWORD, totpSecret: null } as DemoUser);
    const read = async (name: string) => (await callMethod(t.app, name, {}, { token: session.accessToken, headers: { [CUSTOMER_ID_HEADER]: String(companyId) } })).body;
    const tree = (await read('businessShareholderList')).shareholders as ShareholderNode[];
    expect(
      tree.map((n) => [n.companyName || n.firstName, n.share, n.effectiveShare, n.shareholders.map((s) => [s.firstName, s.share, s.effectiveShare, s.isUltimateBeneficialOwner])]),
    ).toEqual([
      ['Holdco Ltd', 60, 60, [['Marta', 50, 30, true]]],
      ['Dan', 20, 20, []],
    ]);
    const owners = (await read('businessUltimateBeneficiaryOwnerList')).representatives as Representative[];
    expect(owners.map((o) => o.firstName)).toEqual(['Marta']);
    // Nothing uploaded yet: the company's three required documents are each an action item, named.
    const info = (await read('businessInfoGet')).company as CompanyInfo;
    expect(info.missingDocuments).toEqual([
      { categoryId: 4, name: expect.any(String) },
      { categoryId: 7, name: expect.any(String) },
      { categoryId: 9, name: expect.any(String) },
    ]);
    expect(info.actionRequiredCount).toBe(companyActionRequiredCount({ ...info, missingDocuments: [] }) + 3);
    const clerkSession = await signIn(t.app, { email: 'cleo.full@acme.test', password: CLERK_PASSWORD, totpSecret: null } as DemoUser);
    expect(clerkSession.accessToken).toBeTruthy();
    // Both may pay other users and between the company's accounts from the start; payouts wait for the provider's grant.
    for (const token of [session.accessToken, clerkSession.accessToken]) {
      const { permissions } = (await callMethod(t.app, 'moneyPermissions', {}, { token, headers: { [CUSTOMER_ID_HEADER]: String(companyId) } })).body as unknown as {
        permissions: { own: Record<string, boolean>; others: Record<string, boolean> };
      };
      expect([permissions.own.betweenAccounts, permissions.others.p2p, permissions.others.wire]).toEqual([true, true, false]);
    }
  });

  it('takes the registrant as a declared owner and a user outside the tree (rows of their own)', async () => {
    const payload = acme('declared');
    payload.ultimateBeneficiaryOwners = ['ana'];
    expect((await create(payload)).body).toEqual({ responseCode: '00' });
    const [owner] = await t.db.select().from(users).where(eq(users.email, 'ana.declared@acme.test'));
    const reps = await t.db.select().from(businessRepresentatives).where(eq(businessRepresentatives.customerId, owner!.customerId));
    expect(reps.find((r) => r.firstName === 'Ana')!.positionIds).toEqual([2, 8]);
    expect((await t.db.select().from(customerAccess).where(eq(customerAccess.userId, owner!.id)))[0]!.positionIds).toEqual([2, 8]);
  });

  it('checks source of funds only when the variant enables source-of-wealth', async () => {
    const payload = acme('sow') as unknown as BusinessRegistration;
    payload.personList[2]!.sourcesOfFunds = [];
    const options = { hideAdultIndustries: false, now: () => clockMs };
    const lower = (p: BusinessRegistration) => ({ ...p, personList: p.personList.map((x) => ({ ...x, email: x.email?.toLowerCase() })), company: { ...p.company, name: 'Acme' } });
    await expect(checkBusinessRegistration(t.db, lower(payload), { ...options, sourceOfWealth: true })).rejects.toMatchObject({ responseCode: 'VF' });
    await expect(checkBusinessRegistration(t.db, lower(payload), { ...options, sourceOfWealth: false })).resolves.toMatchObject({ ownerIds: new Set(['marta']) });
  });
});

/** One row per rule: the change to the valid payload, and the refusal it must bring (param:code). */
const REFUSALS: [string, (p: Payload) => void, string][] = [
  ['a required part missing', (p) => delete (p as Record<string, unknown>).users, 'users:required'],
  ['the financial form missing', (p) => delete (p as Record<string, unknown>).financialDetail, 'financialDetail:required'],
  ['a personal field beside the company', (p) => (p.firstName = 'Ana'), 'firstName:fieldNotTaken'],
  ['no director', (p) => (p.directors = []), 'directors:noDirector'],
  ['a director not in the list', (p) => (p.directors = ['ana', 'nobody']), 'directors.1:unknownReference'],
  ['a share with three decimals', (p) => (p.shareholders[0]!.shareholders![0]!.share = 50.005), 'shareholders.0.shareholders.0.share:shareTooPrecise'],
  ['a level above 100', (p) => (p.shareholders[1]!.share = 50), 'shareholders:levelTotalOutOfRange'],
  ['a nested level below 10', (p) => (p.shareholders[0]!.shareholders![0]!.share = 5), 'shareholders.0.shareholders:levelTotalOutOfRange'],
  ['a company shareholder without a director', (p) => (p.companyList[0]!.directors = []), 'shareholders.0:companyWithoutDirector'],
  ['a person with shareholders', (p) => (p.shareholders[1]!.shareholders = [{ type: 1, share: 50, personId: 'hugo' }]), 'shareholders.1.shareholders:personWithShareholders'],
  ['a shareholder naming no company', (p) => (p.shareholders[0]!.companyId = 'ghost'), 'shareholders.0.companyId:unknownReference'],
  ['the tree too deep', (p) => (p.shareholders[0]!.shareholders = chain(6)), `${Array(7).fill('shareholders.0').join('.')}:treeTooDeep`],
  ['a UBO without source of funds', (p) => (p.personList[2]!.sourcesOfFunds = []), 'personList.2.sourcesOfFunds:uboSourceOfFundsMissing'],
  [
    'a UBO source without details',
    (p) => (p.personList[2]!.sourcesOfFunds = [{ sourceId: 1, details: ' ' }]),
    'personList.2.sourcesOfFunds.0.details:uboSourceOfFundsDetailsMissing',
  ],
  ['a user without rights', (p) => (p.personList[4]!.accessRights = null), 'personList.4.accessRights:userWithoutRights'],
  ['no user with full rights', (p) => (p.personList[0]!.accessRights = 3), 'users:noFullRightsUser'],
  ['a registrant who is not a user with 2', (p) => (p.authorizedCompanyRepresentative = { personId: 'cleo' }), 'authorizedCompanyRepresentative.personId:ownerRights'],
  ['a registrant outside the list', (p) => (p.authorizedCompanyRepresentative = { personId: 'ghost' }), 'authorizedCompanyRepresentative.personId:unknownReference'],
  ['a registrant without an e-mail', (p) => delete p.personList[0]!.email, 'personList.0.email:required'],
  ["a user's e-mail registered already (state 1)", (p) => (p.personList[4]!.email = 'anna@demo.test'), 'personList.4.email:alreadyRegistered'],
  ["a user's e-mail an authorised user's (state 3)", (p) => (p.personList[4]!.email = 'clerk@northwind.test'), 'personList.4.email:alreadyRegistered'],
  ["the registrant's e-mail registered already", (p) => (p.personList[0]!.email = 'Boris@Demo.test'), 'personList.0.email:alreadyRegistered'],
  ['two users with one e-mail', (p) => (p.personList[4]!.email = p.personList[0]!.email), 'personList.4.email:repeated'],
  ['a person id given twice', (p) => (p.personList[3]!.id = 'dan'), 'personList.3.id:repeated'],
  ['a term not accepted', (p) => (p.legalInformation = { '1': true, '2': true, '3': false }), 'legalInformation.3:mustAccept'],
  ['a term left out', (p) => (p.legalInformation = { '1': true, '3': true }), 'legalInformation.2:mustAccept'],
  ['an unknown industry', (p) => (p.financialDetail.industry = 9999), 'financialDetail.industry:notAllowed'],
  ['an unknown source of funds', (p) => (p.personList[2]!.sourcesOfFunds = [{ sourceId: 999, details: 'x' }]), 'personList.2.sourcesOfFunds.0.sourceId:notAllowed'],
  ['an unknown country', (p) => (p.company.address = { ...p.company.address, countryCode: 'QQ' }), 'company.address.countryCode:notCountry'],
  ['a yes without due-diligence details', (p) => (p.dueDiligence = { ...p.dueDiligence, lawsuits: true, details: '' }), 'dueDiligence.details:required'],
  ['a registration date in the future', (p) => (p.company.registrationDate = '2999-01-01'), 'company.registrationDate:notInFuture'],
  ["a login e-mail other than the registrant's", (p) => (p.email = 'someone.else@acme.test'), 'email:notAllowed'],
];

/** A chain of Holdco under Holdco, `levels` deep, Marta holding the last one. */
function chain(levels: number): NonNullable<Payload['shareholders'][number]['shareholders']> {
  let nodes: NonNullable<Payload['shareholders'][number]['shareholders']> = [{ type: 1, share: 100, personId: 'marta' }];
  for (let i = 0; i < levels; i++) nodes = [{ type: 2, share: 100, companyId: 'holdco', shareholders: nodes }];
  return nodes;
}

describe('refusals change nothing', () => {
  it.each(REFUSALS)('%s', async (_name, change, expected) => {
    const payload = acme(`refused-${addressSerial}`);
    change(payload);
    const before = await counts();
    const res = await create(payload);
    expect(res.body.responseCode).toBe('VF');
    expect(vfList(res.body)).toContain(expected);
    expect(await counts()).toEqual(before);
  });

  it('refuses a tree nested thousands of levels deep before parsing it (the recursive schema would run out of stack)', () => {
    const deep = '{"type":2,"share":100,"companyId":"holdco","shareholders":['.repeat(3000) + '{"type":1,"share":100,"personId":"marta"}' + ']}'.repeat(3000);
    const parsed = v.safeParse(accountCreate.request, { ...acme('deep'), shareholders: [JSON.parse(deep)] }, { abortEarly: false });
    expect(parsed.success).toBe(false);
    expect(issuesToValidationErrors(parsed.issues ?? []).map((e) => `${e.param}:${e.code}`)).toEqual(['shareholders:invalid']);
    // (Through the endpoint the walk of api/input-checks.ts refuses such a body as well: tests/server/inputs.test.ts.)
  });

  it('caps business registrations per client address (10 a minute)', async () => {
    const address = freshAddress();
    const broken = acme('capped');
    broken.directors = [];
    for (let i = 0; i < 10; i++) expect((await create(broken, address)).body.responseCode).toBe('VF');
    expect((await create(acme('capped'), address)).body.responseCode).toBe('UE');
    clockMs += 61_000;
    expect((await create(broken, address)).body.responseCode).toBe('VF');
  });
});

describe('the registration draft', () => {
  const email = 'drafting@acme.test';
  const device = secret();
  const draft = { version: '3.54', data: { step: 'shareholders', company: { name: 'Acme' } } };
  const call = (name: string, body: Record<string, unknown>) => callMethod(t.app, name, body, { remoteAddress: freshAddress() }).then((r) => r.body);

  it('is saved and read per e-mail and device; a wrong device secret reads none', async () => {
    expect(await call('businessRegistrationDraftGet', { email, deviceSecret: device })).toEqual({ responseCode: '00', draft: null, savedAt: null });
    const saved = await call('businessRegistrationDraftSave', { email: ' Drafting@Acme.test ', deviceSecret: device, draft });
    expect(saved).toEqual({ responseCode: '00', savedAt: new Date(clockMs).toISOString() });
    expect(await call('businessRegistrationDraftGet', { email, deviceSecret: device })).toEqual({ responseCode: '00', draft, savedAt: saved.savedAt });
    expect(await call('businessRegistrationDraftGet', { email, deviceSecret: secret() })).toEqual({ responseCode: '00', draft: null, savedAt: null });
    // Only the secret's hash is stored.
    const [row] = await t.db.select().from(businessRegistrationDrafts).where(eq(businessRegistrationDrafts.email, email));
    expect(JSON.stringify(row)).not.toContain(device);
    // The version is kept as saved (the wizard discards a draft of another version itself).
    await call('businessRegistrationDraftSave', { email, deviceSecret: device, draft: { version: '3.53', data: { old: true } } });
    expect(((await call('businessRegistrationDraftGet', { email, deviceSecret: device })).draft as { version: string }).version).toBe('3.53');
  });

  it('refuses a draft larger than the limit', async () => {
    const big = { version: '3.54', data: { blob: 'x'.repeat(BUSINESS_DRAFT_MAX_BYTES) } };
    const before = await counts();
    const res = await call('businessRegistrationDraftSave', { email: 'big@acme.test', deviceSecret: secret(), draft: big });
    expect(res.responseCode).toBe('VF');
    expect(vfList(res)).toEqual(['draft:draftTooLarge']);
    expect((await counts()).drafts).toBe(before.drafts);
  });

  it('keeps drafts on at most five devices per e-mail', async () => {
    const many = 'many@acme.test';
    const devices = Array.from({ length: MAX_DRAFTS_PER_EMAIL + 1 }, secret);
    for (const d of devices) {
      clockMs += 1000;
      await call('businessRegistrationDraftSave', { email: many, deviceSecret: d, draft });
    }
    expect((await t.db.select().from(businessRegistrationDrafts).where(eq(businessRegistrationDrafts.email, many))).length).toBe(MAX_DRAFTS_PER_EMAIL);
    expect((await call('businessRegistrationDraftGet', { email: many, deviceSecret: devices[0]! })).draft).toBeNull();
    expect((await call('businessRegistrationDraftGet', { email: many, deviceSecret: devices.at(-1)! })).draft).toEqual(draft);
  });

  it('is deleted on request', async () => {
    const d = secret();
    await call('businessRegistrationDraftSave', { email: 'gone@acme.test', deviceSecret: d, draft });
    expect(await call('businessRegistrationDraftDelete', { email: 'gone@acme.test', deviceSecret: d })).toEqual({ responseCode: '00' });
    expect((await call('businessRegistrationDraftGet', { email: 'gone@acme.test', deviceSecret: d })).draft).toBeNull();
  });

  it('expires 30 days after its last save: read as none, then swept', async () => {
    const d = secret();
    await call('businessRegistrationDraftSave', { email: 'old@acme.test', deviceSecret: d, draft });
    clockMs += 29 * 24 * 60 * 60 * 1000;
    expect((await call('businessRegistrationDraftGet', { email: 'old@acme.test', deviceSecret: d })).draft).toEqual(draft);
    clockMs += 1 * 24 * 60 * 60 * 1000;
    expect((await call('businessRegistrationDraftGet', { email: 'old@acme.test', deviceSecret: d })).draft).toBeNull();
    expect(await deleteExpiredDrafts(t.db, clockMs)).toBeGreaterThanOrEqual(1);
    expect(
      await t.db
        .select()
        .from(businessRegistrationDrafts)
        .where(inArray(businessRegistrationDrafts.email, ['old@acme.test', email])),
    ).toEqual([]);
  });
});
