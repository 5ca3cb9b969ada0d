/**
 * The per-country tax-number table on the platform (api/tax-numbers.ts; document 3 §9, §5 "Tax"):
 * dictionaryTaxNumbers answers the table; customerTaxNumberUpdate checks the number against the
 * customer's country (a person's residence, a company's registration country) and business
 * registration checks the company's and the persons' numbers; a refused number answers VF
 * naming the field with taxIdCountryFormat or taxIdCheckDigit and changes nothing.
 */
import { asc, count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISO_COUNTRY_CODES } from '../../api/tax-numbers.ts';
import { businessCompanies, businessRepresentatives } from '../../server/modules/business/business.tables.ts';
import { customerAccess, customers, users } from '../../server/modules/customers/customers.tables.ts';
import { auditLog } from '../../server/modules/platform/platform.tables.ts';
import { callMethod, createTestApp, signIn, type MethodAnswer, type SignedIn, type TestApp } from './harness.ts';

let t: TestApp;
let boris: SignedIn;
let owner: SignedIn;
let addressSerial = 0;
const freshAddress = () => `10.29.${Math.floor(addressSerial / 250)}.${(addressSerial++ % 250) + 1}`;

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false, globalRateLimitPerMinute: false });
  boris = await signIn(t.app, 'boris');
  owner = await signIn(t.app, 'owner');
});
afterAll(async () => {
  await t?.close();
});

const vfList = (res: MethodAnswer) => ((res.body.validationErrors ?? []) as { param: string; code: string }[]).map((e) => `${e.param}:${e.code}`);

async function snapshot(): Promise<string> {
  const n = async (table: PgTable) => (await t.db.select({ n: count() }).from(table))[0]!.n;
  return JSON.stringify({
    customers: await t.db.select().from(customers).orderBy(asc(customers.id)),
    users: await n(users),
    representatives: await n(businessRepresentatives),
    companies: await n(businessCompanies),
    audit: await n(auditLog),
  });
}
async function unchanged(run: () => Promise<void>): Promise<void> {
  const before = await snapshot();
  await run();
  expect(await snapshot()).toBe(before);
}

async function customerIdOf(email: string): Promise<number> {
  const [u] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, email));
  return u!.customerId;
}
async function northwindId(): Promise<number> {
  const [row] = await t.db
    .select({ customerId: customerAccess.customerId })
    .from(customerAccess)
    .innerJoin(users, eq(users.id, customerAccess.userId))
    .where(eq(users.email, 'owner@northwind.test'));
  return row!.customerId;
}
const taxIdOf = async (id: number) => (await t.db.select({ taxId: customers.taxId }).from(customers).where(eq(customers.id, id)))[0]!.taxId;

describe('dictionaryTaxNumbers', () => {
  it('answers a row for every country and the generic entry, without a token', async () => {
    const res = await callMethod(t.app, 'dictionaryTaxNumbers', {});
    expect(res.body.responseCode).toBe('00');
    const rows = res.body.taxNumbers as Record<string, unknown>[];
    expect(rows.map((r) => r.countryCode)).toEqual(ISO_COUNTRY_CODES);
    expect(rows.find((r) => r.countryCode === 'US')).toEqual({
      countryCode: 'US',
      personalName: 'Social Security Number or Individual Taxpayer Identification Number',
      personalShortName: 'SSN/ITIN',
      businessName: 'Employer Identification Number',
      businessShortName: 'EIN',
      personalRequired: true,
      businessRequired: true,
      crs: false,
      personalFormat: true,
      businessFormat: true,
    });
    expect(rows.find((r) => r.countryCode === 'AQ')).toMatchObject({ personalName: 'Tax identification number', personalShortName: 'TIN', personalRequired: false, crs: false });
    expect(res.body.generic).toMatchObject({ countryCode: '', personalShortName: 'TIN', businessShortName: 'TIN', personalRequired: false, businessRequired: false });
  });
});

describe('customerTaxNumberUpdate against the country', () => {
  it("a person's number in the residence country's format: a bad check digit or shape answers VF and nothing changes; a good one is stored compact", async () => {
    const borisId = await customerIdOf('boris@demo.test');
    await t.db.update(customers).set({ residenceCountryCode: 'RO' }).where(eq(customers.id, borisId));
    await unchanged(async () => {
      const bad = await callMethod(t.app, 'customerTaxNumberUpdate', { taxId: '1630615123458' }, { token: boris.accessToken });
      expect(bad.body.responseCode).toBe('VF');
      expect(vfList(bad)).toEqual(['taxId:taxIdCheckDigit']);
      expect((bad.body.validationErrors as { description: string }[])[0]!.description).toMatch(/CNP/);
      expect(vfList(await callMethod(t.app, 'customerTaxNumberUpdate', { taxId: '1631315123457' }, { token: boris.accessToken }))).toEqual(['taxId:taxIdCountryFormat']);
      // a company's CUI is not a person's CNP
      expect(vfList(await callMethod(t.app, 'customerTaxNumberUpdate', { taxId: '18547290' }, { token: boris.accessToken }))).toEqual(['taxId:taxIdCountryFormat']);
    });
    expect((await callMethod(t.app, 'customerTaxNumberUpdate', { taxId: ' 1630615 123457 ' }, { token: boris.accessToken })).body.responseCode).toBe('00');
    expect(await taxIdOf(borisId)).toBe('1630615123457');
  });

  it("a company's number in its registration country's business format, updated by a representative", async () => {
    const northwind = await northwindId();
    await t.db.update(customers).set({ residenceCountryCode: 'GB' }).where(eq(customers.id, northwind));
    await unchanged(async () => {
      const as = { positionId: 2, fromCustomerId: northwind };
      expect(vfList(await callMethod(t.app, 'customerTaxNumberUpdate', { taxId: '1123456788', ...as }, { token: owner.accessToken }))).toEqual(['taxId:taxIdCheckDigit']);
      // a NINO is a person's number, not a company's
      expect(vfList(await callMethod(t.app, 'customerTaxNumberUpdate', { taxId: 'AB123456C', ...as }, { token: owner.accessToken }))).toEqual(['taxId:taxIdCountryFormat']);
    });
    expect(
      (await callMethod(t.app, 'customerTaxNumberUpdate', { taxId: '11234 56789', positionId: 2, fromCustomerId: northwind }, { token: owner.accessToken })).body.responseCode,
    ).toBe('00');
    expect(await taxIdOf(northwind)).toBe('1123456789');
  });

  it('a country without a format keeps the generic check and the number as given', async () => {
    const borisId = await customerIdOf('boris@demo.test');
    await t.db.update(customers).set({ residenceCountryCode: 'LT' }).where(eq(customers.id, borisId));
    expect((await callMethod(t.app, 'customerTaxNumberUpdate', { taxId: 'lt-1234' }, { token: boris.accessToken })).body.responseCode).toBe('00');
    expect(await taxIdOf(borisId)).toBe('LT-1234');
  });
});

describe('business registration tax numbers', () => {
  /** A Romanian company: Ana (registrant, director, user, 100 %) living in Romania; Dan (director) with no address. */
  function payload(tag: string, companyTaxId: string, anaTaxId: string, danTaxId = '') {
    const address = { address1: 'Strada Lipscani 1', address2: '', city: 'Bucharest', postalCode: '030031', countryCode: 'RO', stateName: '' };
    return {
      password: 'Company-2026x',
      acceptTerms: true,
      company: {
        name: 'Carpat Trading SRL',
        tradingName: '',
        registrationCountryCode: 'RO',
        registrationNumber: 'J40/1234/2019',
        registrationDate: '2019-04-01',
        businessTaxId: companyTaxId,
        email: `hello-${tag}@carpat.test`,
        website: '',
        description: '',
        phoneCountryCode: '40',
        phone: '212345678',
        address,
      },
      financialDetail: { monthlyDepositAmount: '25000', monthlyWithdrawalAmount: '20000', currency: 'EUR', sourceIds: [1], purposeIds: [1], industry: 102, specifications: '' },
      dueDiligence: { government: false, lawsuits: false, details: '', taxPayers: false },
      authorizedCompanyRepresentative: { personId: 'ana' },
      legalInformation: { '1': true, '2': true, '3': true },
      directors: ['ana', 'dan'],
      ultimateBeneficiaryOwners: [],
      shareholders: [{ type: 1, share: 100, personId: 'ana' }],
      users: ['ana'],
      personList: [
        {
          id: 'ana',
          firstName: 'Ana',
          lastName: 'Popescu',
          birthday: '1980-01-02',
          email: `ana.${tag}@carpat.test`,
          isUser: true,
          accessRights: 2,
          address,
          taxId: anaTaxId,
          sourcesOfFunds: [{ sourceId: 1, details: 'Salary' }],
        },
        { id: 'dan', firstName: 'Dan', lastName: 'Ionescu', birthday: '1982-03-04', isUser: false, accessRights: null, taxId: danTaxId, sourcesOfFunds: [] },
      ],
      companyList: [],
      additionalQuestionAnswers: {},
    };
  }
  const create = (body: Record<string, unknown>) => callMethod(t.app, 'accountCreate', body, { remoteAddress: freshAddress() });

  it('refuses a bad CUI or CNP with VF naming the field, and stores nothing', async () => {
    await unchanged(async () => {
      const res = await create(payload('bad', 'RO 18547291', '1630615123458'));
      expect(res.body.responseCode).toBe('VF');
      expect(vfList(res).sort()).toEqual(['company.businessTaxId:taxIdCheckDigit', 'personList.0.taxId:taxIdCheckDigit']);
      expect(vfList(await create(payload('shape', '1', '12345')))).toEqual(
        expect.arrayContaining(['company.businessTaxId:taxIdCountryFormat', 'personList.0.taxId:taxIdCountryFormat']),
      );
    });
  });

  it('stores good numbers in their compact form; a person without an address keeps the generic check', async () => {
    const res = await create(payload('good', 'RO 185 472 90', '1630615-123457', 'X-1'));
    expect(res.body).toEqual({ responseCode: '00' });
    const [u] = await t.db.select().from(users).where(eq(users.email, 'ana.good@carpat.test'));
    expect(await taxIdOf(u!.customerId)).toBe('18547290');
    const reps = await t.db
      .select({ firstName: businessRepresentatives.firstName, taxId: businessRepresentatives.taxId })
      .from(businessRepresentatives)
      .where(eq(businessRepresentatives.customerId, u!.customerId));
    expect(reps).toEqual(
      expect.arrayContaining([
        { firstName: 'Ana', taxId: '1630615123457' },
        { firstName: 'Dan', taxId: 'X-1' },
      ]),
    );
  });
});
