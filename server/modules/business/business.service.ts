/**
 * A company's structure, people and access (api/business.ts): reading the representatives into
 * the wire's shapes (effective shares, ultimate owners, §5 action required), and the rules of the
 * changes: access rights (the owner keeps 2; the company keeps a user with 2), inviting a user,
 * removing a representative (unless the company needs it; an administrator may force it).
 *
 * Every function takes the call's database handle: a mutation's transaction (the endpoint opens one
 * per call and writes the audit entry), or the database for a read.
 */
import { newCustomerMoneyPermissions } from '../transfers/permissions.ts';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { PositionId, SHAREHOLDER_POSITIONS, representativeActionRequired, type AccessEntry, type Representative, type ShareholderNode } from '../../../api/business.ts';
import { AccessRight } from '../../../api/customer.ts';
import { VfCode } from '../../../api/errors.ts';
import type { Address } from '../../../api/profile.ts';
import type { Db, Tx } from '../../db/types.ts';
import { dummyPasswordHash } from '../auth/crypto.ts';
import { customerAccess, customers, phones, users } from '../customers/customers.tables.ts';
import type { UiLanguage } from '../dictionaries/dictionaries.tables.ts';
import { MethodFailure, vfFailure } from '../method-types.ts';
import { customerDocuments } from '../profile/profile.tables.ts';
import { documentColumns, documentsToWire, type DocumentRow } from '../profile/documents.service.ts';
import { formatPercent, isUboShare, percent as exact, type Percent } from '../../../api/ownership.ts';
import { businessRepresentativeAddresses, businessRepresentativeDocuments, businessRepresentatives } from './business.tables.ts';

type Handle = Db | Tx;
export type RepresentativeRow = typeof businessRepresentatives.$inferSelect;
type AddressRow = typeof businessRepresentativeAddresses.$inferSelect;

export const BusinessMessages = {
  notCompany: 'Not a company',
  noRepresentative: 'No such representative',
  noAddress: 'No such address',
  noAccessEntry: 'No such access entry',
} as const;

/** The company acted for: a business customer, or ENOA. */
export async function requireCompany(db: Handle, customerId: number) {
  const [company] = await db.select().from(customers).where(eq(customers.id, customerId));
  if (!company || company.customerType !== 'business') throw new MethodFailure('ENOA', BusinessMessages.notCompany);
  return company;
}

/** The company's owner: its own user of type 2 (users.customer_id is the company), or null. */
export async function companyOwner(db: Handle, companyId: number) {
  const [owner] = await db
    .select()
    .from(users)
    .where(and(eq(users.customerId, companyId), eq(users.userType, 2)))
    .orderBy(asc(users.id))
    .limit(1);
  return owner ?? null;
}

/** Percent with two decimals from hundredths. */
const percent = (hundredths: number) => hundredths / 100;

/** A representative's address in the profile's address shape (its documents are not linked yet). */
export function representativeAddressWire(row: AddressRow, kind: 'person' | 'company'): Address {
  return {
    addressId: row.id,
    addressType: kind === 'company' ? 'business' : 'home',
    address1: row.address1,
    address2: row.address2,
    city: row.city,
    postalCode: row.postalCode,
    countryCode: row.countryCode,
    stateCode: row.stateCode,
    stateName: row.stateName,
    addressStatus: 1,
    status: row.status,
    confirmed: row.status === 'confirmed',
    customerConfirmedAt: row.customerConfirmedAt?.toISOString() ?? null,
    uploadedDocuments: [],
    isDocumentOutOfDate: false,
    isCardDocumentRequired: false,
    isDocumentRequired: row.status !== 'confirmed',
  };
}

/** The company's structure as the wire shows it: every live representative, by id. */
export interface Structure {
  reps: Representative[];
  byId: Map<number, Representative>;
  rows: RepresentativeRow[];
}

/**
 * Reads a company's live representatives with their addresses, documents and user rights, and
 * derives effective shares (the product of the shares up to the company), ultimate owners and the
 * §5 action-required flag. Four queries whatever the size (at most MAX_REPRESENTATIVES rows).
 */
export async function loadStructure(db: Handle, companyId: number, lang: UiLanguage): Promise<Structure> {
  const rows = await db
    .select()
    .from(businessRepresentatives)
    .where(and(eq(businessRepresentatives.customerId, companyId), isNull(businessRepresentatives.deletedAt)))
    .orderBy(asc(businessRepresentatives.id));
  const ids = rows.map((r) => r.id);
  const addresses = ids.length
    ? await db
        .select()
        .from(businessRepresentativeAddresses)
        .where(and(inArray(businessRepresentativeAddresses.representativeId, ids), isNull(businessRepresentativeAddresses.deletedAt)))
        .orderBy(asc(businessRepresentativeAddresses.id))
    : [];
  const documentLinks = ids.length
    ? await db
        .select({ representativeId: businessRepresentativeDocuments.representativeId, document: documentColumns })
        .from(businessRepresentativeDocuments)
        .innerJoin(customerDocuments, eq(customerDocuments.id, businessRepresentativeDocuments.documentId))
        .where(inArray(businessRepresentativeDocuments.representativeId, ids))
        .orderBy(asc(customerDocuments.id))
    : [];
  const access = await db.select({ userId: customerAccess.userId, rights: customerAccess.accessRights }).from(customerAccess).where(eq(customerAccess.customerId, companyId));
  const rightsOf = new Map(access.map((a) => [a.userId, a.rights]));
  const owner = await companyOwner(db, companyId);

  const rowById = new Map(rows.map((r) => [r.id, r]));
  // Effective shares by the registration's own rules (issue 17: one module for the wizard and the platform).
  const effective = new Map<number, Percent | null>();
  /** The shares from the company down to a shareholder; null when a link of the path is missing. */
  const pathOf = (row: RepresentativeRow, seen: Set<number>): number[] | null => {
    if (row.shareHundredths === null) return null;
    if (row.parentId === null) return [row.shareHundredths];
    const parent = rowById.get(row.parentId);
    if (!parent || seen.has(parent.id)) return null;
    seen.add(parent.id);
    const up = pathOf(parent, seen);
    return up ? [...up, row.shareHundredths] : null;
  };
  for (const row of rows) {
    const path = row.positionIds.some((p) => SHAREHOLDER_POSITIONS.includes(p)) ? pathOf(row, new Set([row.id])) : null;
    effective.set(row.id, path ? path.map((h) => exact.from(h / 100)).reduce((acc, p) => exact.of(acc, p)) : null);
  }

  const reps: Representative[] = [];
  for (const row of rows) {
    const docs = documentLinks.filter((l) => l.representativeId === row.id).map((l) => l.document as DocumentRow);
    const documents = await documentsToWire(db, docs, lang);
    const eff = effective.get(row.id) ?? null;
    const rights = row.userId === null ? undefined : row.userId === owner?.id ? (rightsOf.get(row.userId) ?? AccessRight.full) : rightsOf.get(row.userId);
    const isUser = rights !== undefined && rights > AccessRight.none;
    const rep: Representative = {
      id: row.id,
      type: row.kind,
      positionIds: row.positionIds,
      firstName: row.firstName,
      lastName: row.lastName,
      birthDay: row.birthDay,
      companyName: row.companyName,
      registrationNumber: row.registrationNumber,
      countryCode: row.countryCode,
      email: row.email,
      phone: row.phone && row.phoneCountryCode ? { countryCode: row.phoneCountryCode, number: row.phone, confirmed: row.phoneConfirmed } : null,
      taxId: row.taxId,
      addresses: addresses.filter((a) => a.representativeId === row.id).map((a) => representativeAddressWire(a, row.kind)),
      documents,
      share: row.shareHundredths === null ? null : percent(row.shareHundredths),
      parentId: row.parentId,
      effectiveShare: eff === null ? null : Number(formatPercent(eff, 2)),
      isUltimateBeneficialOwner: row.kind === 'person' && (row.positionIds.includes(PositionId.owner) || (eff !== null && isUboShare(eff))),
      sourceOfFunds: row.sourceOfFunds,
      isUser,
      accessRights: isUser ? (rights as Representative['accessRights']) : null,
      identityVerificationStatus: row.identityStatus,
      actionRequired: false,
    };
    rep.actionRequired = representativeActionRequired(rep);
    reps.push(rep);
  }
  return { reps, byId: new Map(reps.map((r) => [r.id, r])), rows };
}

const isShareholder = (r: Representative) => r.positionIds.some((p) => SHAREHOLDER_POSITIONS.includes(p));

/** The shareholders of `parentId` (null: the company's own), each with its own, as a tree. */
export function shareholderTree(structure: Structure, parentId: number | null, depth = 0): ShareholderNode[] {
  // The tree is at most as deep as there are representatives; a cycle (never written) stops here.
  if (depth > structure.reps.length) return [];
  return structure.reps.filter((r) => r.parentId === parentId && isShareholder(r)).map((r) => ({ ...r, shareholders: shareholderTree(structure, r.id, depth + 1) }));
}

export const directorsOf = (s: Structure) => s.reps.filter((r) => r.parentId === null && r.positionIds.includes(PositionId.director));
export const usersOf = (s: Structure) => s.reps.filter((r) => r.isUser);
export const ultimateOwnersOf = (s: Structure) => s.reps.filter((r) => r.isUltimateBeneficialOwner);
/** Persons of the structure who are not users: directors, shareholders and owners to invite. */
export const potentialUsersOf = (s: Structure) =>
  s.reps.filter((r) => r.type === 'person' && !r.isUser && r.positionIds.some((p) => p === PositionId.director || p === PositionId.owner || SHAREHOLDER_POSITIONS.includes(p)));

/** A live representative of the company (locked in a mutation), or ENOA. */
export async function companyRepresentative(db: Handle, companyId: number, id: number, lock = false): Promise<RepresentativeRow> {
  const query = db
    .select()
    .from(businessRepresentatives)
    .where(and(eq(businessRepresentatives.id, id), eq(businessRepresentatives.customerId, companyId), isNull(businessRepresentatives.deletedAt)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new MethodFailure('ENOA', BusinessMessages.noRepresentative);
  return row;
}

/** The company's access entries (users with rights above 0), oldest first, with who they are. */
export async function accessEntries(db: Handle, companyId: number): Promise<AccessEntry[]> {
  const rows = await db
    .select({ access: customerAccess, user: users, person: customers })
    .from(customerAccess)
    .innerJoin(users, eq(users.id, customerAccess.userId))
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(and(eq(customerAccess.customerId, companyId), sql`${customerAccess.accessRights} > 0`))
    .orderBy(asc(customerAccess.id));
  const reps = rows.length
    ? await db
        .select({
          id: businessRepresentatives.id,
          userId: businessRepresentatives.userId,
          firstName: businessRepresentatives.firstName,
          lastName: businessRepresentatives.lastName,
        })
        .from(businessRepresentatives)
        .where(and(eq(businessRepresentatives.customerId, companyId), isNull(businessRepresentatives.deletedAt)))
    : [];
  return rows.map(({ access, user, person }) => {
    const rep = reps.find((r) => r.userId === user.id);
    return {
      id: access.id,
      userId: user.id,
      email: user.email,
      // The owner's own customer is the company: their name is the representative's, else the customer's.
      firstName: rep?.firstName || person.firstName,
      lastName: rep?.lastName || person.lastName,
      accessRights: access.accessRights as AccessEntry['accessRights'],
      positionIds: access.positionIds,
      isOwner: user.customerId === companyId && user.userType === 2,
      activated: user.activated,
      representativeId: rep?.id ?? null,
    };
  });
}

/**
 * Sets an access entry's rights. The owner's entry stays 2 (VF ownerRights); the company keeps at
 * least one entry with 2 (VF lastFullRights). The company's entries are locked first, so two
 * concurrent lowerings cannot each leave the other as the last full user and then both commit.
 */
export async function updateAccessRights(tx: Handle, companyId: number, entryId: number, rights: number) {
  const rows = await tx
    .select({ id: customerAccess.id, userId: customerAccess.userId, rights: customerAccess.accessRights, ownerCustomerId: users.customerId, userType: users.userType })
    .from(customerAccess)
    .innerJoin(users, eq(users.id, customerAccess.userId))
    .where(eq(customerAccess.customerId, companyId))
    .orderBy(asc(customerAccess.id))
    .for('update', { of: customerAccess });
  const target = rows.find((r) => r.id === entryId);
  if (!target || target.rights <= AccessRight.none) throw new MethodFailure('ENOA', BusinessMessages.noAccessEntry);
  const isOwner = target.ownerCustomerId === companyId && target.userType === 2;
  if (isOwner && rights !== AccessRight.full) throw vfFailure('accessRights', VfCode.ownerRights);
  const fullAfter = rows.filter((r) => (r.id === entryId ? rights : r.rights) === AccessRight.full).length;
  if (fullAfter === 0) throw vfFailure('accessRights', VfCode.lastFullRights);
  await tx.update(customerAccess).set({ accessRights: rights }).where(eq(customerAccess.id, entryId));
  return { from: target.rights, userId: target.userId };
}

export interface Invitation {
  email: string;
  firstName: string;
  lastName: string;
  accessRights: number;
  representativeId?: number | undefined;
}

/**
 * Gives an e-mail address access to the company (representativeAdd). A known user gets an entry (or
 * their entry of rights 0 back); a new address gets a person customer and a user of type 3, not
 * activated. Returns the entry's id, the user, and whether the user is new (the caller e-mails the
 * activation link when the company is active).
 */
export async function invite(tx: Handle, companyId: number, input: Invitation) {
  let rep: RepresentativeRow | null = null;
  if (input.representativeId !== undefined) {
    rep = await companyRepresentative(tx, companyId, input.representativeId, true);
    if (rep.kind !== 'person') throw vfFailure('representativeId', VfCode.notAllowed);
    if (rep.userId !== null) throw vfFailure('representativeId', VfCode.alreadyHasAccess);
  }
  const [existing] = await tx.select().from(users).where(eq(users.email, input.email)).limit(1);
  let user: { id: number; email: string; activated: boolean };
  let created = false;
  if (existing) {
    if (existing.customerId === companyId) throw vfFailure('email', VfCode.alreadyHasAccess);
    const [entry] = await tx
      .select()
      .from(customerAccess)
      .where(and(eq(customerAccess.userId, existing.id), eq(customerAccess.customerId, companyId)))
      .for('update');
    if (entry && entry.accessRights > AccessRight.none) throw vfFailure('email', VfCode.alreadyHasAccess);
    user = existing;
  } else {
    const [person] = await tx.insert(customers).values({ customerType: 'business', firstName: input.firstName, lastName: input.lastName }).returning({ id: customers.id });
    const [row] = await tx
      .insert(users)
      // The invited user chooses their password on activation (employeeAccountActivate): until then no one knows one.
      .values({ email: input.email, passwordHash: await dummyPasswordHash(), login2faMode: 'no', userType: 3, customerId: person!.id, activated: false })
      .returning({ id: users.id, email: users.email, activated: users.activated });
    user = row!;
    created = true;
  }
  const positionIds = rep ? rep.positionIds : [PositionId.authorisedUser];
  const [entry] = await tx
    .insert(customerAccess)
    .values({ userId: user.id, customerId: companyId, accessRights: input.accessRights, positionIds, moneyPermissions: newCustomerMoneyPermissions() })
    .onConflictDoUpdate({ target: [customerAccess.userId, customerAccess.customerId], set: { accessRights: input.accessRights, positionIds } })
    .returning({ id: customerAccess.id });
  let representativeId: number;
  if (rep) {
    await tx
      .update(businessRepresentatives)
      .set({ userId: user.id, email: rep.email ?? input.email })
      .where(eq(businessRepresentatives.id, rep.id));
    representativeId = rep.id;
  } else {
    const [row] = await tx
      .insert(businessRepresentatives)
      .values({ customerId: companyId, kind: 'person', positionIds, firstName: input.firstName, lastName: input.lastName, email: input.email, userId: user.id })
      .returning({ id: businessRepresentatives.id });
    representativeId = row!.id;
  }
  return { entryId: entry!.id, user, created, representativeId };
}

/**
 * Removes a representative (soft: deleted_at) unless the company needs it: its only director
 * (lastDirector), or a company with live shareholders or directors of its own
 * (representativeHasHolders). Forced, it goes with everything below it. Returns the removed ids.
 */
export async function removeRepresentative(tx: Handle, companyId: number, id: number, force: boolean, nowMs: number): Promise<number[]> {
  // Lock the company's structure: two removals at once cannot each see the other director.
  const rows = await tx
    .select()
    .from(businessRepresentatives)
    .where(and(eq(businessRepresentatives.customerId, companyId), isNull(businessRepresentatives.deletedAt)))
    .orderBy(asc(businessRepresentatives.id))
    .for('update');
  const target = rows.find((r) => r.id === id);
  if (!target) throw new MethodFailure('ENOA', BusinessMessages.noRepresentative);
  const below: number[] = [];
  const collect = (parentId: number) => {
    for (const r of rows) {
      if (r.parentId === parentId && !below.includes(r.id) && r.id !== id) {
        below.push(r.id);
        collect(r.id);
      }
    }
  };
  collect(id);
  if (!force) {
    const isTopDirector = target.parentId === null && target.positionIds.includes(PositionId.director);
    const directors = rows.filter((r) => r.parentId === null && r.positionIds.includes(PositionId.director));
    if (isTopDirector && directors.length <= 1) throw vfFailure('id', VfCode.lastDirector);
    if (below.length > 0) throw vfFailure('id', VfCode.representativeHasHolders);
  }
  const removed = [id, ...below];
  await tx
    .update(businessRepresentatives)
    .set({ deletedAt: new Date(nowMs) })
    .where(inArray(businessRepresentatives.id, removed));
  return removed;
}

/** The company's primary phone (document 3 §3 Company info phone), or null. */
export async function companyPhone(db: Handle, companyId: number) {
  const [phone] = await db
    .select()
    .from(phones)
    .where(eq(phones.customerId, companyId))
    .orderBy(sql`${phones.status} = 'primary' desc`, asc(phones.id))
    .limit(1);
  return phone ? { countryCode: phone.phoneCountryCode, number: phone.phone, confirmed: phone.confirmed } : null;
}
