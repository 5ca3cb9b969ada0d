/**
 * The rights matrix of the company's people and access calls (api/business.ts, api/rights.ts),
 * written out here rather than derived from the table: a user with each access right 0-5 to
 * Northwind calls every method acting for it and is allowed, refused with 13 (rights too low) or
 * ENOA (no access) exactly as below; the owner (their own company) and an administrator are
 * allowed. Mutations name ids nobody has, so an allowed call reaches its handler (which answers
 * its own ENOA, with its own description) and changes nothing.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessMethods } from '../../api/business.ts';
import { CUSTOMER_ID_HEADER } from '../../api/http.ts';
import { RightsMessages } from '../../api/rights.ts';
import { NORTHWIND_NAME } from '../../server/db/demo-users.ts';
import { customerAccess, customers } from '../../server/modules/customers/customers.tables.ts';
import { callMethod, createTestApp, signIn, type TestApp } from './harness.ts';

type Verdict = 'ok' | '13' | 'ENOA';
const NONE = 2_000_000;

/** method -> [body, verdicts for rights 0, 1, 2, 3, 4, 5] */
const MATRIX: Record<keyof typeof businessMethods, [Record<string, unknown>, Verdict[]]> = {
  businessAuthorizedUserGet: [{}, ['ENOA', 'ok', 'ok', 'ok', 'ok', 'ok']],
  businessInfoGet: [{}, ['ENOA', 'ok', 'ok', 'ok', 'ok', 'ok']],
  businessShareholderList: [{}, ['ENOA', 'ok', 'ok', 'ok', 'ok', 'ok']],
  businessDirectorList: [{}, ['ENOA', 'ok', 'ok', 'ok', 'ok', 'ok']],
  businessUserList: [{}, ['ENOA', 'ok', 'ok', 'ok', 'ok', 'ok']],
  businessUltimateBeneficiaryOwnerList: [{}, ['ENOA', 'ok', 'ok', 'ok', 'ok', 'ok']],
  businessAccessRightsList: [{}, ['ENOA', 'ok', 'ok', 'ok', 'ok', 'ok']],
  businessPotentialUserList: [{}, ['ENOA', 'ok', 'ok', 'ok', 'ok', 'ok']],
  businessRepresentativeInfoGet: [{ id: NONE }, ['ENOA', 'ok', 'ok', 'ok', 'ok', 'ok']],
  businessRepresentativeAddressCreate: [
    { representativeId: NONE, address1: '1 Test Street', city: 'London', postalCode: 'E1 1AA', countryCode: 'GB' },
    ['ENOA', '13', 'ok', 'ok', 'ok', 'ok'],
  ],
  businessRepresentativeAddressConfirm: [{ representativeId: NONE, addressId: NONE }, ['ENOA', '13', 'ok', 'ok', 'ok', 'ok']],
  businessAccessRightsUpdate: [{ id: NONE, accessRights: 1 }, ['ENOA', '13', 'ok', '13', '13', '13']],
  representativeAdd: [{ email: 'nobody.new@northwind.test', firstName: 'No', lastName: 'Body', accessRights: 1, representativeId: NONE }, ['ENOA', '13', 'ok', '13', '13', '13']],
  representativeDelete: [{ id: NONE, force: true }, ['ENOA', '13', 'ok', '13', '13', '13']],
  businessJumioDocumentCreate: [{ representativeId: NONE, categoryId: 1, documentTypeId: 1 }, ['ENOA', '13', 'ok', 'ok', 'ok', 'ok']],
};

let t: TestApp;
let northwindId: number;
let boris: { token: string; userId: number };
let owner: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false, globalRateLimitPerMinute: false });
  const [nw] = await t.db.select().from(customers).where(eq(customers.businessName, NORTHWIND_NAME));
  northwindId = nw!.id;
  const [b, o, a] = await Promise.all([signIn(t.app, 'boris'), signIn(t.app, 'owner'), signIn(t.app, 'admin')]);
  const claims = JSON.parse(Buffer.from(b.accessToken.split('.')[1]!, 'base64url').toString()) as { sub: string };
  boris = { token: b.accessToken, userId: Number(claims.sub) };
  owner = o.accessToken;
  admin = a.accessToken;
});
afterAll(async () => {
  await t?.close();
});

async function verdict(name: string, body: Record<string, unknown>, token: string): Promise<Verdict | string> {
  const res = await callMethod(t.app, name, body, { token, headers: { [CUSTOMER_ID_HEADER]: String(northwindId) } });
  const { responseCode, responseDescription } = res.body as { responseCode: string; responseDescription?: string };
  const byRights = (Object.values(RightsMessages) as string[]).includes(responseDescription ?? '');
  if (byRights) return responseCode;
  // reached the handler: 00, or the handler's own answer about the ids nobody has
  return responseCode === '00' || responseCode === 'ENOA' ? 'ok' : `${responseCode} ${responseDescription}`;
}

describe('the rights matrix of the business calls', () => {
  for (const rights of [0, 1, 2, 3, 4, 5] as const) {
    it(`a user with right ${rights} to the company`, async () => {
      await t.db.delete(customerAccess).where(and(eq(customerAccess.userId, boris.userId), eq(customerAccess.customerId, northwindId)));
      await t.db.insert(customerAccess).values({ userId: boris.userId, customerId: northwindId, accessRights: rights, positionIds: [] });
      const got: Record<string, Verdict | string> = {};
      const want: Record<string, Verdict> = {};
      for (const [name, [body, verdicts]] of Object.entries(MATRIX)) {
        got[name] = await verdict(name, body, boris.token);
        want[name] = verdicts[rights]!;
      }
      expect(got).toEqual(want);
    });
  }

  it('the owner (their own company) and an administrator: every call allowed', async () => {
    for (const [name, [body]] of Object.entries(MATRIX)) {
      expect(await verdict(name, body, owner), `owner ${name}`).toBe('ok');
      expect(await verdict(name, body, admin), `admin ${name}`).toBe('ok');
    }
  });

  it('the matrix covers every business method', () => {
    expect(Object.keys(MATRIX).sort()).toEqual(Object.keys(businessMethods).sort());
  });
});
