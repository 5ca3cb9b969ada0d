/**
 * A company's structure, people and access (document 3 §2 /company pages, §3 Company info,
 * Representative kinds, Access rights, §5 Action-required counting, §6, §7 business methods;
 * document 1 §3 customer access info, §4 access rights; document 2 §4 other rules).
 *
 * A company (a business customer) has representatives: persons and companies, each with its
 * position ids (2 director; 6 and 9 shareholder; 8 owner; any other id an authorised user). A
 * representative belongs to the company itself (parentId null) or to a company representative
 * (parentId that representative's id): a shareholder with a parent is a shareholder of that
 * corporate shareholder (position 9, "nested"), a director with a parent is that corporate
 * shareholder's director. Shares are percentages with two decimals; a person's effective share is
 * the product of the shares down the path (issue 17 item 2), and 25 or more makes them an
 * ultimate beneficial owner.
 *
 * The users of a company are its customer_access rows (who may act for it, with rights 0-5). A
 * person representative may be a user too (isUser); businessPotentialUserList lists the persons who
 * are not, to invite them with representativeAdd.
 *
 * Rights (api/rights.ts): the reads need 'read'; the representative's address calls 'change'; the
 * access-rights update, representativeAdd and representativeDelete need 'manage' (full rights 2,
 * or the owner acting for their own company). representativeDelete's `force` is honoured for an
 * administrator only (document 3 §6); anyone else is held to the rules.
 *
 * A representative's documents are the company's documents linked to it
 * (business_representative_documents), uploaded with businessJumioDocumentCreate as the profile's
 * customerJumioDocumentCreate uploads them (the same checks and files). Not offered yet:
 * identityVerificationRepresentative (the unauthorised representative's identity job, reached with
 * the fromEmail/authSecret link of document 1 §7, which no method implements yet).
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { accessRightSchema } from './customer.ts';
import { defineMethod, Id } from './method.ts';
import { AddressSchema } from './profile.ts';
import { DocumentMetaEntries, UploadedDocumentSchema } from './documents.ts';
import { LoginEmailSchema, PersonNameSchema } from './registration.ts';

/**
 * Document 3 §3 Representative kinds by position id. authorisedUser (1) is the id this platform gives
 * a user who holds no other position (§3: any id other than 2, 6, 8 and 9 is an authorised user).
 */
export const PositionId = { director: 2, shareholder: 6, owner: 8, nestedShareholder: 9, authorisedUser: 1 } as const;
/** Position ids that make a representative a shareholder. */
export const SHAREHOLDER_POSITIONS: readonly number[] = [PositionId.shareholder, PositionId.nestedShareholder];

export type RepresentativeKind = 'director' | 'shareholder' | 'owner' | 'authorisedUser';

/** The kinds a list of position ids gives (document 3 §3: other ids are authorised users). */
export function representativeKinds(positionIds: readonly number[]): RepresentativeKind[] {
  const kinds = new Set<RepresentativeKind>();
  for (const id of positionIds) {
    if (id === PositionId.director) kinds.add('director');
    else if (id === PositionId.shareholder || id === PositionId.nestedShareholder) kinds.add('shareholder');
    else if (id === PositionId.owner) kinds.add('owner');
    else kinds.add('authorisedUser');
  }
  return [...kinds];
}

/** An effective share at or above this percentage makes a person an ultimate beneficial owner (document 3 §5). */
export const UBO_THRESHOLD_PERCENT = 25;
/** Representatives of one company at most (a limit on everything). */
export const MAX_REPRESENTATIVES = 200;
/** Addresses of one representative at most. */
export const MAX_REPRESENTATIVE_ADDRESSES = 5;

/** Access rights a user may be given through the access page (document 3 §3: right 5 hidden from the choice). */
export const CHOOSABLE_ACCESS_RIGHTS = [0, 1, 2, 3, 4] as const;

export const RepresentativePhoneSchema = v.object({ countryCode: v.string(), number: v.string(), confirmed: v.boolean() });

/** Identity verification of a representative (document 1 §3 Identity status; none until a job ran). */
export const REPRESENTATIVE_IDENTITY_STATUSES = ['none', 'pending', 'validated', 'rejected'] as const;

export const RepresentativeSchema = v.object({
  id: v.number(),
  type: v.picklist(['person', 'company']),
  positionIds: v.array(v.number()),
  /** persons */
  firstName: v.string(),
  lastName: v.string(),
  birthDay: v.nullable(v.string()),
  /** companies */
  companyName: v.string(),
  registrationNumber: v.nullable(v.string()),
  countryCode: v.nullable(v.string()),
  email: v.nullable(v.string()),
  phone: v.nullable(RepresentativePhoneSchema),
  taxId: v.nullable(v.string()),
  addresses: v.array(AddressSchema),
  documents: v.array(UploadedDocumentSchema),
  /** a shareholder's share of its parent, in percent (two decimals); null when not a shareholder */
  share: v.nullable(v.number()),
  /** the corporate representative this one belongs to; null: the company itself */
  parentId: v.nullable(v.number()),
  /** the product of the shares down the path, in percent (two decimals); null when not a shareholder */
  effectiveShare: v.nullable(v.number()),
  /** a person holding UBO_THRESHOLD_PERCENT or more effectively, or named owner (position 8) */
  isUltimateBeneficialOwner: v.boolean(),
  /** source-of-funds details of an ultimate beneficial owner (document 3 §5), by source id */
  sourceOfFunds: v.record(v.string(), v.string()),
  isUser: v.boolean(),
  /** the user's rights to the company when isUser, else null */
  accessRights: v.nullable(accessRightSchema),
  identityVerificationStatus: v.picklist(REPRESENTATIVE_IDENTITY_STATUSES),
  /** representativeActionRequired of this representative */
  actionRequired: v.boolean(),
});
export type Representative = v.InferOutput<typeof RepresentativeSchema>;

/** A shareholder with its own shareholders (document 3 §3: a tree). */
export type ShareholderNode = Representative & { shareholders: ShareholderNode[] };
export const ShareholderNodeSchema: v.GenericSchema<ShareholderNode> = v.object({
  ...RepresentativeSchema.entries,
  shareholders: v.array(v.lazy(() => ShareholderNodeSchema)),
});

/** A representative's display name: the company's name, or the person's first and last names. */
export const representativeName = (r: Pick<Representative, 'type' | 'firstName' | 'lastName' | 'companyName'>) =>
  r.type === 'company' ? r.companyName : `${r.firstName} ${r.lastName}`.trim();

/** Every representative of the lists and the shareholder tree, each once (the first seen), in that order. */
export function distinctRepresentatives(lists: readonly (readonly Representative[])[], tree: readonly ShareholderNode[]): Representative[] {
  const flatten = (nodes: readonly ShareholderNode[]): Representative[] => nodes.flatMap((n) => [n, ...flatten(n.shareholders)]);
  const byId = new Map<number, Representative>();
  for (const r of [...lists.flat(), ...flatten(tree)]) if (!byId.has(r.id)) byId.set(r.id, r);
  return [...byId.values()];
}

/**
 * A company address as the counting of §5 reads it: the profile's address plus statusId, its
 * verification status as a document status id (pending or unconfirmed 0, confirmed 2, rejected 26,
 * name mismatch 64; api/verification.ts DocumentStatus), since §5 counts "a status other than 0 or 2".
 */
export const CompanyAddressSchema = v.object({ ...AddressSchema.entries, statusId: v.number() });

/** Document 3 §3 Company info. */
export const CompanyInfoSchema = v.object({
  customerId: v.number(),
  name: v.string(),
  registrationCountryCode: v.nullable(v.string()),
  tradingName: v.nullable(v.string()),
  email: v.nullable(v.string()),
  registrationNumber: v.nullable(v.string()),
  registrationDate: v.nullable(v.string()),
  businessTaxId: v.nullable(v.string()),
  website: v.nullable(v.string()),
  description: v.nullable(v.string()),
  verified: v.boolean(),
  limited: v.boolean(),
  phone: v.nullable(RepresentativePhoneSchema),
  addresses: v.array(CompanyAddressSchema),
  /** the company's documents of the corporate categories (4, 7, 8, 9, 10) */
  corporateDocuments: v.array(UploadedDocumentSchema),
  /** category 11 */
  sourceOfWealthDocuments: v.array(UploadedDocumentSchema),
  /** category 5 */
  additionalDocuments: v.array(UploadedDocumentSchema),
  /**
   * The documents the company was asked for at registration (business_document_requirements, for the
   * company itself) of which nothing is uploaded yet, with the category's name in the call's language.
   * Not in the spec's field list: without it a newly registered company, which has uploaded nothing,
   * would count no action at all (§5 counts only documents that exist).
   */
  missingDocuments: v.array(v.object({ categoryId: v.number(), name: v.string() })),
  dueDiligenceQuestionnaire: v.record(v.string(), v.unknown()),
  financialDetail: v.record(v.string(), v.unknown()),
  financialInstitution: v.nullable(v.string()),
  additionalQuestionAnswers: v.record(v.string(), v.string()),
  /** companyActionRequiredCount of this info */
  actionRequiredCount: v.number(),
});
export type CompanyInfo = v.InferOutput<typeof CompanyInfoSchema>;

/** The document categories shown as the company's corporate documents (document 3 §3). */
export const CORPORATE_DOCUMENT_CATEGORIES: readonly number[] = [4, 7, 8, 9, 10];

// ---------------------------------------------------------------------------------------------
// Document 3 §5 "Action-required counting", exactly as written; the platform sends the results
// (actionRequiredCount, actionRequired) and the web app's banner may recount from the same facts.
// ---------------------------------------------------------------------------------------------

/** The company facts §5 counts. */
export interface CompanyCountFacts {
  name: string | null;
  registrationCountryCode: string | null;
  tradingName: string | null;
  email: string | null;
  registrationNumber: string | null;
  registrationDate: string | null;
  businessTaxId: string | null;
  phone: { number: string } | null;
  website: string | null;
  corporateDocuments: readonly { id: number; statusId: number }[];
  addresses: readonly { addressId: number; statusId: number; uploadedDocuments: readonly unknown[] }[];
  /** required documents not uploaded yet (CompanyInfo.missingDocuments) */
  missingDocuments?: readonly { categoryId: number; name: string }[];
}

/** The company details §5 counts when missing, in its order. */
export const COMPANY_REQUIRED_DETAILS = [
  'name',
  'registrationCountryCode',
  'tradingName',
  'email',
  'registrationNumber',
  'registrationDate',
  'businessTaxId',
  'phone',
  'website',
] as const;
export type CompanyRequiredDetail = (typeof COMPANY_REQUIRED_DETAILS)[number];

/** One thing the company still has to provide (what the banner names). */
export type CompanyActionItem =
  | { kind: 'detail'; detail: CompanyRequiredDetail }
  | { kind: 'document'; documentId: number; statusId: number }
  | { kind: 'address'; addressId: number; hasDocument: boolean }
  | { kind: 'missingDocument'; categoryId: number; name: string };

const missing = (value: string | null | undefined) => value === null || value === undefined || value.trim() === '';

/**
 * Company: each missing item counts one (name, country, trading name, e-mail, registration number,
 * registration date, tax id, phone number, website); each document whose status is other than 1 or
 * 2 counts one; each address lacking documents, or with a status other than 0 or 2, counts one.
 * Beside §5: each document asked for at registration and not uploaded yet counts one (decided: a
 * new company has uploaded nothing, so §5 alone would ask it for nothing).
 */
export function companyActionItems(info: CompanyCountFacts): CompanyActionItem[] {
  const items: CompanyActionItem[] = [];
  for (const detail of COMPANY_REQUIRED_DETAILS) {
    const value = detail === 'phone' ? (info.phone?.number ?? null) : info[detail];
    if (missing(value)) items.push({ kind: 'detail', detail });
  }
  for (const doc of info.corporateDocuments) if (doc.statusId !== 1 && doc.statusId !== 2) items.push({ kind: 'document', documentId: doc.id, statusId: doc.statusId });
  for (const address of info.addresses) {
    if (address.uploadedDocuments.length === 0 || (address.statusId !== 0 && address.statusId !== 2)) {
      items.push({ kind: 'address', addressId: address.addressId, hasDocument: address.uploadedDocuments.length > 0 });
    }
  }
  for (const doc of info.missingDocuments ?? []) items.push({ kind: 'missingDocument', categoryId: doc.categoryId, name: doc.name });
  return items;
}

/** The number of companyActionItems (the platform's actionRequiredCount). */
export function companyActionRequiredCount(info: CompanyCountFacts): number {
  return companyActionItems(info).length;
}

/** Representative: action is required when any document's status is set and is not 1 or 2. */
export function representativeActionRequired(rep: { documents: readonly { statusId: number | null | undefined }[] }): boolean {
  return rep.documents.some((d) => d.statusId !== null && d.statusId !== undefined && d.statusId !== 1 && d.statusId !== 2);
}

// ---------------------------------------------------------------------------------------------
// The calls (document 3 §7; document 2 §7)
// ---------------------------------------------------------------------------------------------

const representativeList = { representatives: v.array(RepresentativeSchema) };

/** The signed-in user as an authorised user of the company acted for (document 1 §3 representative info). */
export const AuthorizedUserSchema = v.object({
  userId: v.number(),
  email: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  phone: v.nullable(RepresentativePhoneSchema),
  address: v.nullable(AddressSchema),
  accessRights: accessRightSchema,
  positionIds: v.array(v.number()),
  isOwner: v.boolean(),
  companyName: v.string(),
});

export const businessAuthorizedUserGet = defineMethod({
  name: 'businessAuthorizedUserGet',
  access: 'customer',
  mutation: false,
  request: {},
  response: { authorizedUser: AuthorizedUserSchema },
});

export const businessInfoGet = defineMethod({
  name: 'businessInfoGet',
  access: 'customer',
  mutation: false,
  request: {},
  response: { company: CompanyInfoSchema },
});

/** The shareholders as a tree (document 3 §3): the company's own shareholders, each with theirs. */
export const businessShareholderList = defineMethod({
  name: 'businessShareholderList',
  access: 'customer',
  mutation: false,
  request: {},
  response: { shareholders: v.array(ShareholderNodeSchema) },
});

/** The company's own directors (a corporate shareholder's directors are under that shareholder). */
export const businessDirectorList = defineMethod({
  name: 'businessDirectorList',
  access: 'customer',
  mutation: false,
  request: {},
  response: representativeList,
});

/** The representatives who are users of the company, with their rights. */
export const businessUserList = defineMethod({
  name: 'businessUserList',
  access: 'customer',
  mutation: false,
  request: {},
  response: representativeList,
});

export const businessUltimateBeneficiaryOwnerList = defineMethod({
  name: 'businessUltimateBeneficiaryOwnerList',
  access: 'customer',
  mutation: false,
  request: {},
  response: representativeList,
});

/** One user's access to the company (document 2 §4: list, update per entry). */
export const AccessEntrySchema = v.object({
  /** the access entry id (businessAccessRightsUpdate's id) */
  id: v.number(),
  userId: v.number(),
  email: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  accessRights: accessRightSchema,
  positionIds: v.array(v.number()),
  /** the company's owner: their rights stay 2 */
  isOwner: v.boolean(),
  /** false until the invited user activated (employeeAccountActivate) */
  activated: v.boolean(),
  /** the representative this user is, or null */
  representativeId: v.nullable(v.number()),
});
export type AccessEntry = v.InferOutput<typeof AccessEntrySchema>;

export const businessAccessRightsList = defineMethod({
  name: 'businessAccessRightsList',
  access: 'customer',
  mutation: false,
  request: {},
  response: { accessRights: v.array(AccessEntrySchema) },
});

/** Persons of the structure (directors, shareholders, owners) who are not users yet. */
export const businessPotentialUserList = defineMethod({
  name: 'businessPotentialUserList',
  access: 'customer',
  mutation: false,
  request: {},
  response: representativeList,
});

export const businessRepresentativeInfoGet = defineMethod({
  name: 'businessRepresentativeInfoGet',
  access: 'customer',
  mutation: false,
  request: { id: Id },
  response: { representative: RepresentativeSchema, shareholders: v.array(ShareholderNodeSchema) },
});

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max, VfCode.tooLong));
const requiredText = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1, VfCode.required), v.maxLength(max, VfCode.tooLong));
const countryCode = v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/, VfCode.countryCodeFormat));

/** Adds an address to a representative (its documents are uploaded apart). */
export const businessRepresentativeAddressCreate = defineMethod({
  name: 'businessRepresentativeAddressCreate',
  access: 'customer',
  mutation: true,
  request: {
    representativeId: Id,
    address1: requiredText(200),
    address2: v.optional(text(200), ''),
    city: requiredText(100),
    postalCode: requiredText(20),
    countryCode,
    stateCode: v.optional(v.nullable(text(10))),
    stateName: v.optional(v.nullable(text(100))),
  },
  response: { address: AddressSchema },
});

/** The representative's address is confirmed as still correct. */
export const businessRepresentativeAddressConfirm = defineMethod({
  name: 'businessRepresentativeAddressConfirm',
  access: 'customer',
  mutation: true,
  request: { representativeId: Id, addressId: Id },
  response: { address: AddressSchema },
});

/**
 * Sets one user's rights to the company (an access entry of businessAccessRightsList). 0 takes
 * the access away. The platform accepts 0-5 (right 5 is only hidden from the page's choice); it
 * refuses to lower the owner's rights (VF ownerRights) or to leave the company without a user with
 * full rights (VF lastFullRights).
 */
export const businessAccessRightsUpdate = defineMethod({
  name: 'businessAccessRightsUpdate',
  access: 'customer',
  mutation: true,
  request: { id: Id, accessRights: accessRightSchema },
  response: { accessRight: AccessEntrySchema },
});

/**
 * Invites an e-mail address as an authorised user with the rights given (1-5). A known user gets an
 * access entry (VF alreadyHasAccess when they have one); a new address gets a user, not activated,
 * whose activation link (activationEmployee) is e-mailed now if the company is active, else when
 * its owner activates. representativeId marks a person of the structure as this user.
 */
export const representativeAdd = defineMethod({
  name: 'representativeAdd',
  access: 'customer',
  mutation: true,
  request: {
    email: LoginEmailSchema,
    /** trimmed, inner whitespace collapsed (document 3 §5) */
    firstName: PersonNameSchema,
    lastName: PersonNameSchema,
    accessRights: v.picklist([1, 2, 3, 4, 5], VfCode.notAllowed),
    representativeId: v.optional(Id),
  },
  response: { accessRight: AccessEntrySchema },
});

/**
 * Removes a representative, unless the company needs it (VF lastDirector: its only director;
 * representativeHasHolders: a corporate shareholder with shareholders or directors of its own).
 * `force` (an administrator only, document 3 §6) removes it anyway, with what belongs to it.
 */
export const representativeDelete = defineMethod({
  name: 'representativeDelete',
  access: 'customer',
  mutation: true,
  request: { id: Id, force: v.optional(v.boolean(), false) },
  response: { removedIds: v.array(v.number()) },
});

/** Document categories a representative's document may have: identity, address, relationship, source of wealth, residence permit. */
export const REPRESENTATIVE_DOCUMENT_CATEGORIES = [1, 2, 6, 11, 12] as const;

/** Uploads a document of a representative (multipart: its pages as the files front, back, registrationStamp). */
export const businessJumioDocumentCreate = defineMethod({
  name: 'businessJumioDocumentCreate',
  access: 'customer',
  mutation: true,
  files: true,
  request: { representativeId: Id, categoryId: v.picklist(REPRESENTATIVE_DOCUMENT_CATEGORIES, VfCode.notAllowed), ...DocumentMetaEntries },
  response: { documents: v.array(UploadedDocumentSchema) },
});

export const businessMethods = {
  businessAuthorizedUserGet,
  businessInfoGet,
  businessShareholderList,
  businessDirectorList,
  businessUserList,
  businessUltimateBeneficiaryOwnerList,
  businessAccessRightsList,
  businessPotentialUserList,
  businessRepresentativeInfoGet,
  businessRepresentativeAddressCreate,
  businessRepresentativeAddressConfirm,
  businessAccessRightsUpdate,
  representativeAdd,
  representativeDelete,
  businessJumioDocumentCreate,
};
