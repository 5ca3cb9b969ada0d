/**
 * A company's people and access (api/business.ts) on the platform, through HTTP on the seeded demo
 * database: Northwind's structure as every read shows it (directors, the shareholder tree with
 * effective shares, ultimate owners, users, potential users, the company's info with §5's count),
 * a representative's addresses, the access-rights rules (the owner keeps 2, the company keeps a
 * user with 2), inviting a user (new and known e-mails; the activation link works), removing
 * representatives (the last director and a company with holders refused, an administrator's
 * force), and the audit entry of every change.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessEntry, CompanyInfo, Representative, ShareholderNode } from '../../api/business.ts';
import { CUSTOMER_ID_HEADER } from '../../api/http.ts';
import { NORTHWIND_NAME } from '../../server/db/demo-users.ts';
import { businessRepresentatives } from '../../server/modules/business/business.tables.ts';
import { customerAccess, customers, users } from '../../server/modules/customers/customers.tables.ts';
import { auditLog, outbox } from '../../server/modules/platform/platform.tables.ts';
import { callMethod, callMultipart, createTestApp, signIn, type TestApp } from './harness.ts';

let t: TestApp;
let northwindId: number;
let owner: string;
let clerk: string;
let viewer: string;
let admin: string;
let boris: string;

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false, globalRateLimitPerMinute: false });
  const [nw] = await t.db.select().from(customers).where(eq(customers.businessName, NORTHWIND_NAME));
  northwindId = nw!.id;
  const tokens = await Promise.all((['owner', 'clerk', 'viewer', 'admin', 'boris'] as const).map((k) => signIn(t.app, k)));
  [owner, clerk, viewer, admin, boris] = tokens.map((s) => s.accessToken) as [string, string, string, string, string];
});
afterAll(async () => {
  await t?.close();
});

/** A call acting for Northwind. */
async function nw(name: string, token: string, body: Record<string, unknown> = {}) {
  const res = await callMethod(t.app, name, body, { token, headers: { [CUSTOMER_ID_HEADER]: String(northwindId) } });
  return res.body as Record<string, unknown> & { responseCode: string };
}
const vfCodes = (body: Record<string, unknown>) => (body.validationErrors as { param: string; code: string }[]).map((e) => `${e.param}:${e.code}`);
const names = (reps: readonly Representative[]) => reps.map((r) => `${r.firstName}${r.companyName}`.trim() || r.lastName).sort();
async function lastAudit(method: string) {
  const [row] = await t.db.select().from(auditLog).where(eq(auditLog.method, method)).orderBy(desc(auditLog.id)).limit(1);
  return row;
}
async function repId(name: string): Promise<number> {
  const rows = await t.db.select().from(businessRepresentatives).where(eq(businessRepresentatives.customerId, northwindId));
  const row = rows.find((r) => r.firstName === name || r.companyName === name);
  return row!.id;
}

describe("Northwind's structure", () => {
  it('businessInfoGet: the company info, with §5 counting the missing phone and the office address without its document', async () => {
    const res = await nw('businessInfoGet', viewer);
    expect(res.responseCode).toBe('00');
    const company = res.company as CompanyInfo;
    expect(company).toMatchObject({ name: NORTHWIND_NAME, tradingName: 'Northwind', registrationNumber: '09876543', registrationCountryCode: 'GB', phone: null });
    // its registered office, seeded for its tax self-certification (server/modules/tax/demo-tax.ts)
    expect(company.addresses.map((a) => [a.address1, a.city, a.countryCode])).toEqual([['14 Harbour Street', 'London', 'GB']]);
    // the missing phone, and the office's address without its proof document (§5: an address lacking documents counts)
    expect(company.actionRequiredCount).toBe(2);
  });

  it('businessDirectorList: its two directors (not the corporate shareholder’s)', async () => {
    const res = await nw('businessDirectorList', viewer);
    expect(names(res.representatives as Representative[])).toEqual(['Daniel', 'Olivia']);
  });

  it('businessShareholderList: the tree with each effective share (60 % × 50 % = 30 %)', async () => {
    const res = await nw('businessShareholderList', viewer);
    const tree = res.shareholders as ShareholderNode[];
    const shape = (nodes: ShareholderNode[]): unknown =>
      nodes.map((n) => ({ n: n.companyName || n.firstName, share: n.share, eff: n.effectiveShare, below: shape(n.shareholders) }));
    expect(shape(tree)).toEqual([
      { n: 'Olivia', share: 40, eff: 40, below: [] },
      { n: 'Harbour Holdings Ltd', share: 60, eff: 60, below: [{ n: 'Marta', share: 50, eff: 30, below: [] }] },
    ]);
  });

  it('businessUltimateBeneficiaryOwnerList: persons at 25 % or more effectively (not the company)', async () => {
    const res = await nw('businessUltimateBeneficiaryOwnerList', viewer);
    const reps = res.representatives as Representative[];
    expect(names(reps)).toEqual(['Marta', 'Olivia']);
    expect(reps.find((r) => r.firstName === 'Marta')!.sourceOfFunds).toHaveProperty('1');
  });

  it('businessUserList and businessAccessRightsList: the users with their rights, the owner marked', async () => {
    const usersRes = await nw('businessUserList', viewer);
    expect((usersRes.representatives as Representative[]).map((r) => [r.firstName, r.accessRights])).toEqual([
      ['Olivia', 2],
      ['Carl', 2],
      ['Vera', 1],
    ]);
    const list = (await nw('businessAccessRightsList', viewer)).accessRights as AccessEntry[];
    expect(list.map((e) => [e.firstName, e.accessRights, e.isOwner])).toEqual([
      ['Olivia', 2, true],
      ['Carl', 2, false],
      ['Vera', 1, false],
    ]);
  });

  it('businessPotentialUserList: the persons of the structure who are not users', async () => {
    const res = await nw('businessPotentialUserList', viewer);
    expect(names(res.representatives as Representative[])).toEqual(['Daniel', 'Marta']);
  });

  it('businessRepresentativeInfoGet: one representative with its own shareholders; another company’s id is ENOA', async () => {
    const harbour = await repId('Harbour Holdings Ltd');
    const res = await nw('businessRepresentativeInfoGet', viewer, { id: harbour });
    expect((res.representative as Representative).type).toBe('company');
    expect((res.shareholders as ShareholderNode[]).map((s) => s.firstName)).toEqual(['Marta']);
    // boris acting for himself: Harbour is not his company's
    const own = await callMethod(t.app, 'businessRepresentativeInfoGet', { id: harbour }, { token: boris });
    expect(own.body.responseCode).toBe('ENOA');
  });

  it('businessAuthorizedUserGet: the caller as a user of the company', async () => {
    const res = await nw('businessAuthorizedUserGet', viewer);
    expect(res.authorizedUser).toMatchObject({ firstName: 'Vera', lastName: 'Vance', accessRights: 1, isOwner: false, companyName: NORTHWIND_NAME });
    const own = await callMethod(t.app, 'businessAuthorizedUserGet', {}, { token: owner });
    expect(own.body.authorizedUser).toMatchObject({ firstName: 'Olivia', accessRights: 2, isOwner: true });
  });
});

describe("a representative's addresses", () => {
  it('businessRepresentativeAddressCreate and Confirm, audited; another representative’s address is ENOA', async () => {
    const daniel = await repId('Daniel');
    const created = await nw('businessRepresentativeAddressCreate', clerk, {
      representativeId: daniel,
      address1: ' 5  Dock Road ',
      city: 'London',
      postalCode: 'E16 1AH',
      countryCode: 'gb',
    });
    expect(created.responseCode).toBe('00');
    const address = created.address as { addressId: number; address1: string; countryCode: string; customerConfirmedAt: string | null };
    expect([address.address1, address.countryCode, address.customerConfirmedAt]).toEqual(['5  Dock Road', 'GB', null]);
    expect((await lastAudit('businessRepresentativeAddressCreate'))?.details).toMatchObject({ representativeId: daniel, addressId: address.addressId });
    const confirmed = await nw('businessRepresentativeAddressConfirm', clerk, { representativeId: daniel, addressId: address.addressId });
    expect((confirmed.address as { customerConfirmedAt: string | null }).customerConfirmedAt).not.toBeNull();
    expect((await lastAudit('businessRepresentativeAddressConfirm'))?.details).toMatchObject({ confirmed: true });
    const wrong = await nw('businessRepresentativeAddressConfirm', clerk, { representativeId: await repId('Olivia'), addressId: address.addressId });
    expect(wrong.responseCode).toBe('ENOA');
  });
});

describe("a representative's documents", () => {
  it('businessJumioDocumentCreate: stored as the company’s upload, linked to the representative, §5 flags it until decided', async () => {
    const marta = await repId('Marta');
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200, 0x20)]);
    // a payslip: the source of wealth of an ultimate owner (category 11, which the company's info also lists for itself)
    const passport = { categoryId: 11, documentTypeId: 80, issuedDate: '2026-09-30' };
    const res = await callMultipart(
      t.app,
      'businessJumioDocumentCreate',
      { ...passport, representativeId: marta, fromCustomerId: northwindId },
      [{ field: 'front', fileName: 'payslip.pdf', content: pdf }],
      {
        token: clerk,
      },
    );
    expect(res.body.responseCode).toBe('00');
    const [uploaded] = res.body.documents as { id: number; statusId: number }[];
    const info = await nw('businessRepresentativeInfoGet', viewer, { id: marta });
    const rep = info.representative as Representative;
    expect(rep.documents.map((d) => [d.id, d.statusId])).toEqual([[uploaded!.id, 0]]);
    // §5: a document of status 0 is "set and not 1 or 2"
    expect(rep.actionRequired).toBe(true);
    expect((await lastAudit('businessJumioDocumentCreate'))?.details).toMatchObject({ representativeId: marta, documentIds: [uploaded!.id], categoryId: 11 });
    // the company's own lists leave it out
    const company = (await nw('businessInfoGet', viewer)).company as CompanyInfo;
    expect([...company.corporateDocuments, ...company.additionalDocuments, ...company.sourceOfWealthDocuments].map((d) => d.id)).not.toContain(uploaded!.id);
    // a read-only user may not upload
    const refused = await callMultipart(
      t.app,
      'businessJumioDocumentCreate',
      { ...passport, representativeId: marta, fromCustomerId: northwindId },
      [{ field: 'front', fileName: 'p.pdf', content: pdf }],
      { token: viewer },
    );
    expect(refused.body.responseCode).toBe('13');
  });
});

describe('access rights', () => {
  const entryOf = async (first: string) => ((await nw('businessAccessRightsList', owner)).accessRights as AccessEntry[]).find((e) => e.firstName === first)!;

  it("changes a user's rights, audited with before and after", async () => {
    const carl = await entryOf('Carl');
    const res = await nw('businessAccessRightsUpdate', owner, { id: carl.id, accessRights: 3 });
    expect(res.responseCode).toBe('00');
    expect((res.accessRight as AccessEntry).accessRights).toBe(3);
    expect((await lastAudit('businessAccessRightsUpdate'))?.details).toMatchObject({ accessEntryId: carl.id, from: 2, to: 3 });
    await nw('businessAccessRightsUpdate', owner, { id: carl.id, accessRights: 2 });
  });

  it("never lowers the owner's rights (VF ownerRights), even by a user with full rights", async () => {
    const olivia = await entryOf('Olivia');
    const res = await nw('businessAccessRightsUpdate', clerk, { id: olivia.id, accessRights: 1 });
    expect(vfCodes(res)).toEqual(['accessRights:ownerRights']);
    expect((await entryOf('Olivia')).accessRights).toBe(2);
  });

  it('never leaves the company without a user with full rights (VF lastFullRights), nothing changed', async () => {
    // A company whose owner holds no access row of 2: Carl is its only user with full rights.
    const [ownerUser] = await t.db
      .select()
      .from(users)
      .where(and(eq(users.customerId, northwindId), eq(users.userType, 2)));
    const [ownerRow] = await t.db
      .select()
      .from(customerAccess)
      .where(and(eq(customerAccess.userId, ownerUser!.id), eq(customerAccess.customerId, northwindId)));
    await t.db.delete(customerAccess).where(eq(customerAccess.id, ownerRow!.id));
    try {
      const carl = await entryOf('Carl');
      const res = await nw('businessAccessRightsUpdate', admin, { id: carl.id, accessRights: 1 });
      expect(vfCodes(res)).toEqual(['accessRights:lastFullRights']);
      expect((await entryOf('Carl')).accessRights).toBe(2);
      // his own rights too
      const self = await nw('businessAccessRightsUpdate', clerk, { id: carl.id, accessRights: 4 });
      expect(vfCodes(self)).toEqual(['accessRights:lastFullRights']);
    } finally {
      await t.db.insert(customerAccess).values(ownerRow!);
    }
  });

  it('an entry of another company is ENOA', async () => {
    const res = await nw('businessAccessRightsUpdate', owner, { id: 2_000_000, accessRights: 1 });
    expect(res.responseCode).toBe('ENOA');
  });
});

describe('representativeAdd', () => {
  it('invites a new e-mail: a user not activated, the activation link mailed, the link activates them', async () => {
    const email = 'new.colleague@northwind.test';
    const res = await nw('representativeAdd', owner, { email: ' New.Colleague@Northwind.test ', firstName: '  Nora  ', lastName: 'Nash', accessRights: 3 });
    expect(res.responseCode).toBe('00');
    expect(res.accessRight).toMatchObject({ email, firstName: 'Nora', accessRights: 3, activated: false, isOwner: false });
    const [user] = await t.db.select().from(users).where(eq(users.email, email));
    expect([user!.userType, user!.activated]).toEqual([3, false]);
    const [mail] = await t.db.select().from(outbox).where(eq(outbox.recipient, email));
    expect(mail!.body).toContain('activationEmployee');
    const code = /activation page: ([A-Z0-9]{8})/.exec(mail!.body)![1];
    const activated = await callMethod(t.app, 'employeeAccountActivate', { email, activationCode: code, password: 'Nora-Pass-2026' });
    expect(activated.body.responseCode).toBe('00');
    expect((await lastAudit('representativeAdd'))?.details).toMatchObject({ newUser: true, activationMailed: true, accessRights: 3 });
    // the same address again
    const again = await nw('representativeAdd', owner, { email, firstName: 'Nora', lastName: 'Nash', accessRights: 1 });
    expect(vfCodes(again)).toEqual(['email:alreadyHasAccess']);
  });

  it('gives a known user access, and marks a person of the structure as that user', async () => {
    const daniel = await repId('Daniel');
    const res = await nw('representativeAdd', clerk, { email: 'boris@demo.test', firstName: 'Daniel', lastName: 'Reed', accessRights: 1, representativeId: daniel });
    expect(res.responseCode).toBe('00');
    expect(res.accessRight).toMatchObject({ email: 'boris@demo.test', accessRights: 1, representativeId: daniel, activated: true });
    const potential = await nw('businessPotentialUserList', owner);
    expect(names(potential.representatives as Representative[])).toEqual(['Marta']);
    // boris now reads Northwind
    const read = await nw('businessDirectorList', boris);
    expect(read.responseCode).toBe('00');
    await t.db.delete(customerAccess).where(eq(customerAccess.id, (res.accessRight as AccessEntry).id));
    await t.db.update(businessRepresentatives).set({ userId: null }).where(eq(businessRepresentatives.id, daniel));
  });

  it("the owner's own address is refused (VF alreadyHasAccess)", async () => {
    const res = await nw('representativeAdd', clerk, { email: 'owner@northwind.test', firstName: 'Olivia', lastName: 'Owens', accessRights: 1 });
    expect(vfCodes(res)).toEqual(['email:alreadyHasAccess']);
  });
});

describe('representativeDelete', () => {
  it('refuses the only director and a company with holders; force is ignored for a user; an administrator forces it', async () => {
    const daniel = await repId('Daniel');
    const olivia = await repId('Olivia');
    const harbour = await repId('Harbour Holdings Ltd');
    const marta = await repId('Marta');
    const removed = await nw('representativeDelete', clerk, { id: daniel });
    expect(removed).toMatchObject({ responseCode: '00', removedIds: [daniel] });
    expect((await lastAudit('representativeDelete'))?.details).toMatchObject({ representativeId: daniel, forced: false });

    const last = await nw('representativeDelete', clerk, { id: olivia });
    expect(vfCodes(last)).toEqual(['id:lastDirector']);
    const holders = await nw('representativeDelete', clerk, { id: harbour, force: true });
    expect(vfCodes(holders)).toEqual(['id:representativeHasHolders']);
    // a read-only user may not try at all
    expect((await nw('representativeDelete', viewer, { id: harbour })).responseCode).toBe('13');

    const forced = await nw('representativeDelete', admin, { id: harbour, force: true });
    expect(forced).toMatchObject({ responseCode: '00', removedIds: [harbour, marta] });
    expect((await lastAudit('representativeDelete'))?.details).toMatchObject({ representativeId: harbour, removedIds: [harbour, marta], forced: true });
    const tree = (await nw('businessShareholderList', owner)).shareholders as ShareholderNode[];
    expect(tree.map((n) => n.firstName)).toEqual(['Olivia']);
    const gone = await nw('businessRepresentativeInfoGet', owner, { id: marta });
    expect(gone.responseCode).toBe('ENOA');
  });
});
