/**
 * Named methods of a company's structure, people and access (api/business.ts). The endpoint has
 * already checked the rights table (api/rights.ts: reads 'read', addresses 'change', the rest
 * 'manage') for the company acted for; the handlers keep to that company's rows and write the
 * details of every change into the call's audit entry (ids and rights only, never an address).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { CORPORATE_DOCUMENT_CATEGORIES, MAX_REPRESENTATIVE_ADDRESSES, companyActionRequiredCount, type businessMethods, type CompanyInfo } from '../../../api/business.ts';
import { AccessRight } from '../../../api/customer.ts';
import { VfCode } from '../../../api/errors.ts';
import type { Address } from '../../../api/profile.ts';
import { DocumentCategory, DocumentStatus } from '../../../api/verification.ts';
import type { Db } from '../../db/types.ts';
import { customerAccess, customers, users } from '../customers/customers.tables.ts';
import { MethodFailure, vfFailure, type Caller, type HandlerTable, type MethodContext } from '../method-types.ts';
import { customerDocumentRows, documentsToWire } from '../profile/documents.service.ts';
import { createProfileHandlers } from '../profile/profile.methods.ts';
import { createDocumentHandlers } from '../profile/documents.methods.ts';
import { createRegistrationService, type RegistrationOptions } from '../registration/registration.service.ts';
import { DEFAULT_REGISTRATION_OPTIONS } from '../registration/registration.methods.ts';
import { businessDocumentRequirements } from '../registration/business-registration.tables.ts';
import { readDocumentCategories } from '../dictionaries/dictionaries.service.ts';
import {
  BusinessMessages,
  accessEntries,
  companyOwner,
  companyPhone,
  companyRepresentative,
  directorsOf,
  invite,
  loadStructure,
  potentialUsersOf,
  removeRepresentative,
  representativeAddressWire,
  requireCompany,
  shareholderTree,
  ultimateOwnersOf,
  updateAccessRights,
  usersOf,
} from './business.service.ts';
import { businessCompanies, businessRepresentativeAddresses, businessRepresentativeDocuments, businessRepresentatives } from './business.tables.ts';
import type { businessDeclarationMethods } from '../../../api/business-declarations.ts';
import { createBusinessDeclarationHandlers } from './declarations.methods.ts';

/** Document statuses that leave a category without a document (the customer removed it or it was withdrawn). */
const GONE_STATUSES: ReadonlySet<number> = new Set([DocumentStatus.canceled, DocumentStatus.deleted]);

/**
 * The company's own required documents (business_document_requirements with no representative) of
 * whose category nothing is uploaded: no document, or only canceled or deleted ones. A rejected
 * document is counted by §5's document rule instead. Named in the call's language.
 */
async function missingDocumentsOf(ctx: MethodContext, companyId: number, documents: readonly { categoryId: number; statusId: number }[]) {
  const required = await ctx.db
    .select({ categoryId: businessDocumentRequirements.categoryId })
    .from(businessDocumentRequirements)
    .where(and(eq(businessDocumentRequirements.customerId, companyId), isNull(businessDocumentRequirements.representativeId)))
    .orderBy(businessDocumentRequirements.categoryId);
  const uploaded = new Set(documents.filter((d) => !GONE_STATUSES.has(d.statusId)).map((d) => d.categoryId));
  const open = required.filter((r) => !uploaded.has(r.categoryId));
  if (open.length === 0) return [];
  const names = new Map((await readDocumentCategories(ctx.db, ctx.lang, 'documentTypes')).map((c) => [c.id, c.name]));
  return open.map((r) => ({ categoryId: r.categoryId, name: names.get(r.categoryId) ?? String(r.categoryId) }));
}

export interface BusinessHandlerOptions {
  now: () => number;
  /** how invitation e-mails are sent (the registration's activation links) */
  registration: RegistrationOptions;
}

function acting(ctx: MethodContext): { caller: Caller; companyId: number } {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
  return { caller: ctx.caller, companyId: ctx.customerId };
}

/** §5 counts an address "with a status other than 0 or 2": its verification status as a document status id. */
const ADDRESS_STATUS_IDS: Record<Address['status'], number> = {
  unconfirmed: DocumentStatus.submitted,
  pending: DocumentStatus.submitted,
  confirmed: DocumentStatus.confirmed,
  rejected: DocumentStatus.rejected,
  nameMismatch: DocumentStatus.nameMismatch,
};

export function createBusinessHandlers(options: BusinessHandlerOptions): HandlerTable<typeof businessMethods & typeof businessDeclarationMethods> {
  const registration = createRegistrationService(options.registration);
  // The company's addresses are the profile's (addressInquiry acting for the company): one reading of them.
  const profile = createProfileHandlers({ now: options.now, providerName: options.registration.projectName });
  // A representative's document is stored and checked as the company's own upload (customerJumioDocumentCreate).
  const documents = createDocumentHandlers({ now: options.now });

  async function structureOf(ctx: MethodContext) {
    const { companyId } = acting(ctx);
    await requireCompany(ctx.db, companyId);
    return loadStructure(ctx.db, companyId, ctx.lang);
  }

  async function addressesOfCompany(ctx: MethodContext) {
    const { addresses } = await profile.addressInquiry({}, ctx);
    return addresses.map((a) => ({ ...(a as Address), statusId: ADDRESS_STATUS_IDS[(a as Address).status] }));
  }

  return {
    // The company's statements, resolution and representatives' links (declarations.methods.ts), on the same clock and origin.
    ...createBusinessDeclarationHandlers({ now: options.now, publicUrl: options.registration.publicUrl, projectName: options.registration.projectName }),
    async businessAuthorizedUserGet(_input, ctx) {
      const { caller, companyId } = acting(ctx);
      const company = await requireCompany(ctx.db, companyId);
      const [user] = await ctx.db
        .select({ user: users, person: customers })
        .from(users)
        .innerJoin(customers, eq(customers.id, users.customerId))
        .where(eq(users.id, caller.userId));
      if (!user) throw new MethodFailure('AU', 'Unknown user');
      const [entry] = await ctx.db
        .select()
        .from(customerAccess)
        .where(and(eq(customerAccess.userId, caller.userId), eq(customerAccess.customerId, companyId)));
      const isOwner = user.user.customerId === companyId && user.user.userType === 2;
      const structure = await loadStructure(ctx.db, companyId, ctx.lang);
      const rep = structure.reps.find((r) => r.isUser && structure.rows.find((row) => row.id === r.id)?.userId === caller.userId);
      return {
        authorizedUser: {
          userId: caller.userId,
          email: user.user.email,
          firstName: rep?.firstName || user.person.firstName,
          lastName: rep?.lastName || user.person.lastName,
          phone: rep?.phone ?? null,
          address: rep?.addresses[0] ?? null,
          accessRights: (entry?.accessRights ?? (isOwner ? AccessRight.full : AccessRight.none)) as 0 | 1 | 2 | 3 | 4 | 5,
          positionIds: rep?.positionIds ?? entry?.positionIds ?? [],
          isOwner,
          companyName: company.businessName ?? '',
        },
      };
    },

    async businessInfoGet(_input, ctx) {
      const { companyId } = acting(ctx);
      const company = await requireCompany(ctx.db, companyId);
      const [details] = await ctx.db.select().from(businessCompanies).where(eq(businessCompanies.customerId, companyId));
      // The company's own documents: those of its representatives are theirs (businessRepresentativeInfoGet).
      const linked = await ctx.db
        .select({ id: businessRepresentativeDocuments.documentId })
        .from(businessRepresentativeDocuments)
        .innerJoin(businessRepresentatives, eq(businessRepresentatives.id, businessRepresentativeDocuments.representativeId))
        .where(eq(businessRepresentatives.customerId, companyId));
      const linkedIds = new Set(linked.map((l) => l.id));
      const docs = await customerDocumentRows(ctx.db, companyId);
      const main = docs.filter((d) => d.parentId === null && !linkedIds.has(d.id));
      const of = (categories: readonly number[]) =>
        documentsToWire(
          ctx.db,
          main.filter((d) => categories.includes(d.categoryId)),
          ctx.lang,
        );
      const info: Omit<CompanyInfo, 'actionRequiredCount'> = {
        customerId: company.id,
        name: company.businessName ?? '',
        registrationCountryCode: company.residenceCountryCode,
        tradingName: details?.tradingName ?? null,
        email: details?.email ?? null,
        registrationNumber: details?.registrationNumber ?? null,
        registrationDate: details?.registrationDate ?? null,
        businessTaxId: details?.businessTaxId ?? company.taxId,
        website: details?.website ?? null,
        description: details?.description ?? null,
        verified: company.verified,
        limited: company.limited,
        phone: await companyPhone(ctx.db, companyId),
        addresses: await addressesOfCompany(ctx),
        corporateDocuments: await of(CORPORATE_DOCUMENT_CATEGORIES),
        sourceOfWealthDocuments: await of([DocumentCategory.sourceOfWealth]),
        additionalDocuments: await of([DocumentCategory.other]),
        dueDiligenceQuestionnaire: details?.dueDiligence ?? {},
        financialDetail: details?.financialDetail ?? {},
        financialInstitution: details?.financialInstitution ?? null,
        additionalQuestionAnswers: details?.additionalQuestionAnswers ?? {},
        missingDocuments: await missingDocumentsOf(ctx, companyId, main),
      };
      return { company: { ...info, actionRequiredCount: companyActionRequiredCount(info) } };
    },

    async businessShareholderList(_input, ctx) {
      return { shareholders: shareholderTree(await structureOf(ctx), null) };
    },

    async businessDirectorList(_input, ctx) {
      return { representatives: directorsOf(await structureOf(ctx)) };
    },

    async businessUserList(_input, ctx) {
      return { representatives: usersOf(await structureOf(ctx)) };
    },

    async businessUltimateBeneficiaryOwnerList(_input, ctx) {
      return { representatives: ultimateOwnersOf(await structureOf(ctx)) };
    },

    async businessAccessRightsList(_input, ctx) {
      const { companyId } = acting(ctx);
      await requireCompany(ctx.db, companyId);
      return { accessRights: await accessEntries(ctx.db, companyId) };
    },

    async businessPotentialUserList(_input, ctx) {
      return { representatives: potentialUsersOf(await structureOf(ctx)) };
    },

    async businessRepresentativeInfoGet(input, ctx) {
      const structure = await structureOf(ctx);
      const representative = structure.byId.get(input.id);
      if (!representative) throw new MethodFailure('ENOA', BusinessMessages.noRepresentative);
      return { representative, shareholders: shareholderTree(structure, representative.id) };
    },

    async businessRepresentativeAddressCreate(input, ctx) {
      const { companyId } = acting(ctx);
      await requireCompany(ctx.db, companyId);
      const rep = await companyRepresentative(ctx.db, companyId, input.representativeId, true);
      const live = await ctx.db
        .select({ id: businessRepresentativeAddresses.id })
        .from(businessRepresentativeAddresses)
        .where(and(eq(businessRepresentativeAddresses.representativeId, rep.id), isNull(businessRepresentativeAddresses.deletedAt)));
      if (live.length >= MAX_REPRESENTATIVE_ADDRESSES) throw vfFailure('representativeId', VfCode.tooManyItems, { max: MAX_REPRESENTATIVE_ADDRESSES });
      const [row] = await ctx.db
        .insert(businessRepresentativeAddresses)
        .values({
          representativeId: rep.id,
          address1: input.address1,
          address2: input.address2,
          city: input.city,
          postalCode: input.postalCode,
          countryCode: input.countryCode,
          stateCode: input.stateCode ?? null,
          stateName: input.stateName ?? null,
        })
        .returning();
      ctx.audit({ representativeId: rep.id, addressId: row!.id, created: true });
      return { address: representativeAddressWire(row!, rep.kind) };
    },

    async businessRepresentativeAddressConfirm(input, ctx) {
      const { companyId } = acting(ctx);
      await requireCompany(ctx.db, companyId);
      const rep = await companyRepresentative(ctx.db, companyId, input.representativeId);
      const [row] = await ctx.db
        .update(businessRepresentativeAddresses)
        .set({ customerConfirmedAt: new Date(options.now()) })
        .where(
          and(
            eq(businessRepresentativeAddresses.id, input.addressId),
            eq(businessRepresentativeAddresses.representativeId, rep.id),
            isNull(businessRepresentativeAddresses.deletedAt),
          ),
        )
        .returning();
      if (!row) throw new MethodFailure('ENOA', BusinessMessages.noAddress);
      ctx.audit({ representativeId: rep.id, addressId: row.id, confirmed: true });
      return { address: representativeAddressWire(row, rep.kind) };
    },

    async businessAccessRightsUpdate(input, ctx) {
      const { companyId } = acting(ctx);
      await requireCompany(ctx.db, companyId);
      const { from, userId } = await updateAccessRights(ctx.db, companyId, input.id, input.accessRights);
      ctx.audit({ accessEntryId: input.id, userId, from, to: input.accessRights });
      const entry = (await accessEntries(ctx.db, companyId)).find((e) => e.id === input.id);
      // Rights 0 take the entry out of the list: answer it as it now stands.
      return {
        accessRight: entry ?? {
          ...(await removedEntry(ctx.db, input.id)),
          accessRights: 0,
        },
      };
    },

    async representativeAdd(input, ctx) {
      const { companyId } = acting(ctx);
      await requireCompany(ctx.db, companyId);
      const invited = await invite(ctx.db, companyId, input);
      // A new user's activation link goes out now when the company is active; otherwise its owner's
      // activation sends it (registration.service.ts sendEmployeeLinks), as after registration.
      const owner = await companyOwner(ctx.db, companyId);
      const mailed = invited.created && (owner === null || owner.activated);
      if (mailed) await registration.sendEmployeeActivation(ctx.db, invited.user);
      ctx.audit({
        accessEntryId: invited.entryId,
        userId: invited.user.id,
        accessRights: input.accessRights,
        newUser: invited.created,
        activationMailed: mailed,
        representativeId: invited.representativeId,
      });
      const entry = (await accessEntries(ctx.db, companyId)).find((e) => e.id === invited.entryId);
      return { accessRight: entry! };
    },

    async businessJumioDocumentCreate(input, ctx) {
      const { companyId } = acting(ctx);
      await requireCompany(ctx.db, companyId);
      const rep = await companyRepresentative(ctx.db, companyId, input.representativeId, true);
      const { representativeId: _rep, ...upload } = input;
      const stored = await documents.customerJumioDocumentCreate(upload, ctx);
      const ids = stored.documents.map((d) => d.id);
      await ctx.db.insert(businessRepresentativeDocuments).values(ids.map((documentId) => ({ representativeId: rep.id, documentId })));
      ctx.audit({ representativeId: rep.id });
      return stored;
    },

    async representativeDelete(input, ctx) {
      const { caller, companyId } = acting(ctx);
      await requireCompany(ctx.db, companyId);
      // document 3 §6: only an administrator's removal can be forced; anyone else is held to the rules.
      const forced = input.force === true && caller.isAdmin;
      const removedIds = await removeRepresentative(ctx.db, companyId, input.id, forced, options.now());
      ctx.audit({ representativeId: input.id, removedIds, forced });
      return { removedIds };
    },
  };
}

/** An access entry taken to rights 0 (out of the list), as the answer of its update. */
async function removedEntry(db: Db, entryId: number) {
  const [row] = await db
    .select({ access: customerAccess, user: users, person: customers })
    .from(customerAccess)
    .innerJoin(users, eq(users.id, customerAccess.userId))
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(eq(customerAccess.id, entryId));
  if (!row) throw new MethodFailure('ENOA', BusinessMessages.noAccessEntry);
  return {
    id: row.access.id,
    userId: row.user.id,
    email: row.user.email,
    firstName: row.person.firstName,
    lastName: row.person.lastName,
    positionIds: row.access.positionIds,
    isOwner: false,
    activated: row.user.activated,
    representativeId: null,
  };
}

/** The table entry (server/modules/platform/method-table.ts); app.ts replaces it with its clock and origin. */
export const businessHandlers = createBusinessHandlers({ now: Date.now, registration: DEFAULT_REGISTRATION_OPTIONS });
