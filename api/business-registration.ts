/**
 * Business registration (document 3 §2 /register/business and its wizard's forms, §3 "Registration
 * payload", §4 "Registration", §5 "Shareholders" and "Registration", §9 "Registration draft version
 * 3.54"; issue 17 items 1-3). The payload of accountCreate for a company, and the saved draft.
 *
 * accountCreate (api/registration.ts) serves both registrations under its one spec name: a request
 * with `company` is a business registration and takes these entries, one without it is personal.
 *
 * Decisions where the spec is silent (each noted where it applies):
 * - The registrant is `authorizedCompanyRepresentative`: a person of `personList` who signs in
 *   with their e-mail and the password chosen here. They become the company's owner user with full
 *   rights (2) ("the first registration user gets full rights (2)"), activated by
 *   businessAccountActivate; every other user gets an activationEmployee link once the company is
 *   activated.
 * - Ids inside the payload (persons, companies) are the wizard's own strings; the platform gives
 *   every person and company its own id when it stores them.
 * - Shares are percentages with at most two decimals (the ownership rules read them exactly).
 * - The draft is kept on the platform per e-mail address and device: `deviceSecret` is a random
 *   128-bit value the browser makes once and keeps; it is a capability (the platform stores only
 *   its hash), so nobody who merely knows an e-mail address can read a draft full of personal data.
 *   A draft lives 30 days from its last save.
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { defineMethod, idSchema } from './method.ts';

/** §9: a local draft of another version is discarded. */
export const BUSINESS_DRAFT_VERSION = '3.54';
/** A saved draft lives this long after its last save. */
export const BUSINESS_DRAFT_TTL_DAYS = 30;
/** The largest draft the platform keeps (its JSON, in bytes). */
export const BUSINESS_DRAFT_MAX_BYTES = 256 * 1024;
/** People and companies one registration may name. */
export const MAX_PERSONS = 50;
export const MAX_COMPANIES = 20;
/** The shareholder tree's depth (a company's shareholder's shareholder's …). */
export const MAX_TREE_DEPTH = 6;

/** Document 1 §5: trimmed, inner whitespace collapsed. (api/registration.ts has the same rule for the personal form.) */
const collapse = (s: string) => s.trim().replace(/\s+/gu, ' ');
const text = (max: number) => v.pipe(v.string(), v.maxLength(max * 2, `must be at most ${max} characters`), v.transform(collapse), v.maxLength(max, `must be at most ${max} characters`));
const requiredText = (max: number) => v.pipe(text(max), v.minLength(1, 'is required'));
const optionalText = (max: number) => v.optional(text(max), '');
const email = v.pipe(v.string(), v.transform(collapse), v.maxLength(254), v.email('must be an e-mail address'), v.transform((s) => s.toLowerCase()));
const country = v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, VfCode.notCountry));
const isoDate = v.pipe(v.string(), v.isoDate('must be a date (YYYY-MM-DD)'));
const localId = v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(40), v.regex(/^[A-Za-z0-9_-]+$/, VfCode.badFormat));
const amount = v.pipe(v.string(), v.regex(/^\d{1,13}(\.\d{1,2})?$/, VfCode.amountFormat));
/** a dictionary's id: 1 to MAX_ID like every id */
const dictionaryId = idSchema();
const phoneCountryCode = v.pipe(v.string(), v.maxLength(8), v.transform((s) => s.replace(/[+\s]/g, '')), v.regex(/^[0-9]{1,4}$/, VfCode.phoneCodeDigits));
const phone = v.pipe(v.string(), v.maxLength(32), v.transform((s) => s.replace(/[\s().-]/g, '')), v.regex(/^[0-9]{4,15}$/, VfCode.phoneNumberDigits));

export const RegistrationAddressSchema = v.object({
  address1: requiredText(200),
  address2: optionalText(200),
  city: requiredText(100),
  postalCode: requiredText(20),
  countryCode: country,
  stateName: optionalText(100),
});
export type RegistrationAddress = v.InferOutput<typeof RegistrationAddressSchema>;

/** The general form: the company itself (§3 Company info, the fields a registration gives). */
export const RegistrationCompanySchema = v.object({
  name: requiredText(200),
  tradingName: optionalText(200),
  registrationCountryCode: country,
  registrationNumber: requiredText(50),
  registrationDate: isoDate,
  businessTaxId: optionalText(50),
  email,
  website: optionalText(200),
  description: optionalText(1000),
  phoneCountryCode,
  phone,
  address: RegistrationAddressSchema,
});
export type RegistrationCompany = v.InferOutput<typeof RegistrationCompanySchema>;

/** The financial-info form (§3 financialDetail). */
export const FinancialDetailSchema = v.object({
  monthlyDepositAmount: amount,
  monthlyWithdrawalAmount: amount,
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, VfCode.badFormat)),
  /** ids of dictionaryBusinessSourceOfFunds */
  sourceIds: v.pipe(v.array(dictionaryId), v.minLength(1, 'is required'), v.maxLength(20)),
  /** ids of dictionaryBusinessPurposeOfAccount */
  purposeIds: v.pipe(v.array(dictionaryId), v.minLength(1, 'is required'), v.maxLength(20)),
  /** an id of dictionaryIndustry */
  industry: dictionaryId,
  specifications: optionalText(1000),
});
export type FinancialDetail = v.InferOutput<typeof FinancialDetailSchema>;

/** The due-diligence form (§3 dueDiligence): details are required when either answer is yes. */
export const DueDiligenceSchema = v.object({
  /** a person of the structure holds or held a public (government) office */
  government: v.boolean(),
  /** the company or a person of it is party to lawsuits */
  lawsuits: v.boolean(),
  details: optionalText(2000),
  /** the company has US tax payers among its owners */
  taxPayers: v.boolean(),
});
export type DueDiligence = v.InferOutput<typeof DueDiligenceSchema>;

/** One chosen source of a person's funds, with its details (§5: asked of ultimate beneficial owners). */
export const SourceOfFundsSchema = v.object({ sourceId: dictionaryId, details: v.optional(v.nullable(text(1000))) });

/** §3 personList: one person of the structure (director, shareholder, owner, user). */
export const RegistrationPersonSchema = v.object({
  id: localId,
  firstName: requiredText(100),
  lastName: requiredText(100),
  birthday: isoDate,
  /** required for users (their login) and for the registrant */
  email: v.optional(email),
  phoneCountryCode: v.optional(phoneCountryCode),
  phone: v.optional(phone),
  address: v.optional(RegistrationAddressSchema),
  taxId: optionalText(50),
  /** ids of dictionaryEmployeeSourceOfFunds with details: required of a UBO when source-of-wealth is on */
  sourcesOfFunds: v.optional(v.pipe(v.array(SourceOfFundsSchema), v.maxLength(20)), []),
  /** the person signs in for the company */
  isUser: v.optional(v.boolean(), false),
  /** the user's rights (document 3 §3): 1 read, 2 full, 3 initiate, 4 confirmed */
  accessRights: v.optional(v.nullable(v.picklist([1, 2, 3, 4], VfCode.notAllowed))),
});
export type RegistrationPerson = v.InferOutput<typeof RegistrationPersonSchema>;

/** §3 companyList: a company of the structure (a corporate shareholder). */
export const RegistrationCompanyNodeSchema = v.object({
  id: localId,
  name: requiredText(200),
  registrationNumber: optionalText(50),
  registrationCountryCode: country,
  /** its directors: ids in personList (at least one, §5) */
  directors: v.pipe(v.array(localId), v.maxLength(20)),
});
export type RegistrationCompanyNode = v.InferOutput<typeof RegistrationCompanyNodeSchema>;

/** §3 shareholders: a tree; type 1 a person (personId), 2 a company (companyId) with its own shareholders. */
export interface ShareholderNodeInput {
  type: 1 | 2;
  share: number;
  personId?: string | null | undefined;
  companyId?: string | null | undefined;
  shareholders?: ShareholderNodeInput[] | undefined;
}
export const ShareholderNodeSchema: v.GenericSchema<ShareholderNodeInput> = v.object({
  type: v.picklist([1, 2], VfCode.notAllowed),
  share: v.pipe(v.number(), v.minValue(0.01, 'must be above 0'), v.maxValue(100, 'must be at most 100')),
  personId: v.optional(v.nullable(localId)),
  companyId: v.optional(v.nullable(localId)),
  shareholders: v.optional(v.pipe(v.array(v.lazy(() => ShareholderNodeSchema)), v.maxLength(50))),
});

/**
 * Nesting the platform parses at all. ShareholderNodeSchema is recursive: a tree a few thousand levels
 * deep (about 160 KB of JSON) runs valibot out of stack, so the raw input's depth is counted first,
 * without recursion, and a deeper tree is refused (VF invalid) before it is parsed. Trees deeper than
 * MAX_TREE_DEPTH but within this are refused by the platform with the path (treeTooDeep).
 */
export const MAX_TREE_PARSE_DEPTH = 32;
/** At most this many nodes are looked at while counting (the JSON body limit bounds them anyway). */
const MAX_TREE_PARSE_NODES = 100_000;

function nestedAtMost(max: number) {
  return (input: unknown): boolean => {
    if (!Array.isArray(input)) return true; // the array schema reports it
    const stack: [unknown, number][] = input.map((node) => [node, 1]);
    for (let seen = 0; stack.length > 0; seen++) {
      const [node, depth] = stack.pop()!;
      if (depth > max || seen > MAX_TREE_PARSE_NODES) return false;
      const children = (node as { shareholders?: unknown } | null)?.shareholders;
      if (Array.isArray(children)) for (const child of children) stack.push([child, depth + 1]);
    }
    return true;
  };
}

/** The business entries of accountCreate (§3 Registration payload). */
export const businessRegistrationEntries = {
  company: RegistrationCompanySchema,
  financialDetail: FinancialDetailSchema,
  dueDiligence: DueDiligenceSchema,
  /** the registrant: a person of personList, who signs in with their e-mail and this password */
  authorizedCompanyRepresentative: v.object({ personId: localId }),
  /** the legal form: each term (dictionaryPersonalAgreements ids, the business ones) accepted, keyed by term id */
  legalInformation: v.record(v.pipe(v.string(), v.maxLength(40)), v.boolean()),
  /** the company's directors: ids in personList */
  directors: v.pipe(v.array(localId), v.maxLength(20)),
  /** the declared ultimate beneficial owners: ids in personList (the platform adds those the tree makes) */
  ultimateBeneficiaryOwners: v.pipe(v.array(localId), v.maxLength(MAX_PERSONS)),
  shareholders: v.pipe(v.unknown(), v.check(nestedAtMost(MAX_TREE_PARSE_DEPTH), VfCode.invalid), v.array(ShareholderNodeSchema), v.maxLength(50)),
  /** the company's users: ids in personList (each with accessRights, one at least with 2) */
  users: v.pipe(v.array(localId), v.maxLength(MAX_PERSONS)),
  personList: v.pipe(v.array(RegistrationPersonSchema), v.minLength(1, 'is required'), v.maxLength(MAX_PERSONS)),
  companyList: v.pipe(v.array(RegistrationCompanyNodeSchema), v.maxLength(MAX_COMPANIES)),
  /** answers to dictionaryBusinessAdditionalQuestion, keyed by question id */
  additionalQuestionAnswers: v.optional(v.record(v.pipe(v.string(), v.maxLength(60)), v.union([v.string(), v.number(), v.boolean()])), {}),
  /** a captcha token where the variant asks one (none in this product: the sign-up is rate-limited per address) */
  captcha: v.optional(v.pipe(v.string(), v.maxLength(4000))),
  /** the browser's device (the same as sign-in's) */
  device: v.optional(v.object({ deviceId: v.pipe(v.string(), v.maxLength(100)), name: v.optional(v.pipe(v.string(), v.maxLength(200))) })),
};
export type BusinessRegistration = v.InferOutput<v.ObjectSchema<typeof businessRegistrationEntries, undefined>>;

// --- the saved draft (our names: the spec keeps it but names no call) ---

const deviceSecret = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{22,64}$/, VfCode.badFormat));
const draftKey = { email, deviceSecret };

/** The wizard's draft as saved: opaque to the platform (the wizard owns its shape), at most BUSINESS_DRAFT_MAX_BYTES. */
export const DraftSchema = v.object({
  version: v.pipe(v.string(), v.maxLength(20)),
  data: v.record(v.string(), v.unknown()),
});

export const businessRegistrationDraftGet = defineMethod({
  name: 'businessRegistrationDraftGet',
  access: 'public',
  mutation: false,
  request: draftKey,
  /** draft null: none kept for this e-mail and device (or it expired) */
  response: { draft: v.nullable(DraftSchema), savedAt: v.nullable(v.string()) },
});

export const businessRegistrationDraftSave = defineMethod({
  name: 'businessRegistrationDraftSave',
  access: 'public',
  mutation: true,
  request: { ...draftKey, draft: DraftSchema },
  response: { savedAt: v.string() },
});

/** Clearing the draft (the wizard asks for confirmation first, §4). */
export const businessRegistrationDraftDelete = defineMethod({
  name: 'businessRegistrationDraftDelete',
  access: 'public',
  mutation: true,
  request: draftKey,
  response: {},
});

export const businessRegistrationMethods = {
  businessRegistrationDraftGet,
  businessRegistrationDraftSave,
  businessRegistrationDraftDelete,
};
