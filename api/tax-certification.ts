/**
 * Tax self-certification (FATCA / CRS), document 3 §3, §5, §6, §7: the personal and the business
 * certification, the rules both the web app's statecharts and the platform apply, the forms each
 * certification ends in, and the six methods (personal / business certification get and update,
 * personal / business W-form upload).
 *
 * Decisions where the spec is silent (noted here once):
 * - A certification is stored as the answers the customer gave (the Update payload after its
 *   rules); the forms are generated from them as PDFs and signed online (W-form upload answers
 *   signData: clientId and one signUrl per form, server/modules/esign). Each signed form is a
 *   customer document (category 5, the types below) that the administrator reviews in the
 *   existing queue; its state is the latest form of that type signed since the answers last
 *   changed (changing the answers asks for the forms again).
 * - Which forms: a US person (US citizen or US tax resident) signs the W-9; a non-US person the
 *   W-8BEN; a company the W-9 when it is a US taxpayer, else the W-8BEN-E (the business answer's
 *   w8BenFormDocumentStatus carries the W-8BEN-E). Everyone signs the tax residency
 *   self-certification (CRS). The certificate of loss of nationality (the US State Department's
 *   CLN, DS-4083) is uploaded, not signed: it is asked of a person born in the US who renounced
 *   the citizenship.
 * - A person born in the US who is not a US citizen says why: RENOUNCED (then the CLN) or
 *   NOT_CITIZEN_AT_BIRTH (with an explanation, e.g. a diplomat's child).
 * - GIIN missing reasons (not listed in the spec): APPLIED_FOR, SPONSORED_ENTITY, NOT_REQUIRED
 *   (the W-8BEN-E's own choices for an FFI without a GIIN).
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { Id, defineMethod } from './method.ts';
import { DOCUMENT_STATES } from './verification.ts';

/** document 3 §3 TIN missing reasons */
export const TIN_MISSING_REASONS = ['COUNTRY_DOES_NOT_ISSUE', 'CANNOT_OBTAIN', 'NO_TIN_IS_REQUIRED'] as const;
export type TinMissingReason = (typeof TIN_MISSING_REASONS)[number];

/** document 3 §3 entity types */
export const ENTITY_TYPES = ['financial-institution', 'investment', 'general'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export const GIIN_MISSING_REASONS = ['APPLIED_FOR', 'SPONSORED_ENTITY', 'NOT_REQUIRED'] as const;
export type GiinMissingReason = (typeof GIIN_MISSING_REASONS)[number];

export const US_CITIZENSHIP_ABSENCE_REASONS = ['RENOUNCED', 'NOT_CITIZEN_AT_BIRTH'] as const;
export type UsCitizenshipAbsenceReason = (typeof US_CITIZENSHIP_ABSENCE_REASONS)[number];

/**
 * The IRS Global Intermediary Identification Number: XXXXXX.XXXXX.XX.XXX (6 alphanumerics, 5
 * alphanumerics, the category LE, SL, ME, BR or SP, 3 digits: the ISO numeric country code).
 */
export const GIIN_PATTERN = /^[0-9A-NP-Z]{6}\.[0-9A-NP-Z]{5}\.(LE|SL|ME|BR|SP)\.\d{3}$/;

/** The forms a certification ends in; the document type ids of category 5 ("other") they are stored as. */
export const TAX_FORM_KINDS = ['w9', 'w8Ben', 'w8BenE', 'taxResidencySelfCertification'] as const;
export type TaxFormKind = (typeof TAX_FORM_KINDS)[number];

export const TAX_DOCUMENT_TYPES = {
  w9: 100,
  w8Ben: 101,
  w8BenE: 102,
  taxResidencySelfCertification: 103,
  /** uploaded by the customer (documentUpload, category 5), not signed online */
  certificateOfLossOfNationality: 104,
} as const;

/** document 3 §3 certification status fields */
export const TaxCertificationStatusSchema = v.object({
  w9FormDocumentStatus: v.picklist(DOCUMENT_STATES),
  certificateOfLossOfNationalityDocumentStatus: v.picklist(DOCUMENT_STATES),
  taxResidencySelfCertificationDocumentStatus: v.picklist(DOCUMENT_STATES),
  w8BenFormDocumentStatus: v.picklist(DOCUMENT_STATES),
});
export type TaxCertificationStatus = v.InferOutput<typeof TaxCertificationStatusSchema>;

const countryCode = v.pipe(v.string(VfCode.required), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/, VfCode.countryCodeFormat));
const text = (max: number) => v.pipe(v.string(VfCode.wrongType), v.trim(), v.maxLength(max, VfCode.tooLong));
const requiredText = (max: number) => v.pipe(v.string(VfCode.required), v.trim(), v.minLength(1, VfCode.required), v.maxLength(max, VfCode.tooLong));
const optionalText = (max: number) => v.optional(v.nullable(text(max)), null);
const isoDate = v.pipe(v.string(VfCode.required), v.isoDate(VfCode.notDate));

/**
 * One tax residence: a country and its TIN, or why there is none (document 3 §3). The
 * explanation is kept only for CANNOT_OBTAIN (§5); the TIN is checked against the country's
 * format (api/tax-numbers.ts) by the platform; whether a TIN is needed follows the country's row.
 */
export const TaxIdEntrySchema = v.object({
  countryCode,
  taxId: optionalText(50),
  tinMissingReason: v.optional(v.nullable(v.picklist(TIN_MISSING_REASONS, VfCode.notAllowed)), null),
  tinMissingExplanation: optionalText(500),
});
export type TaxIdEntry = v.InferOutput<typeof TaxIdEntrySchema>;

const taxIds = v.pipe(v.array(TaxIdEntrySchema, VfCode.wrongType), v.minLength(1, VfCode.required), v.maxLength(10, VfCode.tooManyItems));

/** The personal certification as the customer answers it (personalFatcaCrsCertificationUpdate). */
export const personalCertificationEntries = {
  cityOfBirth: requiredText(100),
  countryOfBirth: countryCode,
  dateOfBirth: isoDate,
  citizenship: v.pipe(v.array(countryCode, VfCode.wrongType), v.minLength(1, VfCode.required), v.maxLength(5, VfCode.tooManyItems)),
  /** a US citizen or resident for US tax purposes (green card, substantial presence) */
  isUSTaxPayer: v.boolean(VfCode.required),
  /** born in the US but not a US citizen: why (asked only then) */
  usCitizenshipAbsenceReason: v.optional(v.nullable(v.picklist(US_CITIZENSHIP_ABSENCE_REASONS, VfCode.notAllowed)), null),
  usCitizenshipAbsenceExplanation: optionalText(500),
  taxIds,
};
export const PersonalCertificationSchema = v.object(personalCertificationEntries);
export type PersonalCertification = v.InferOutput<typeof PersonalCertificationSchema>;

export const ControllingPersonSchema = v.object({
  /** a shareholder or director of the company (businessShareholderList / businessDirectorList) */
  representativeId: Id,
  /** the person's tax residence country */
  taxResidenceCountryCode: countryCode,
});

const publicCompany = v.object({ market: requiredText(100), name: requiredText(200), ticket: requiredText(20) });

/** The business certification as the company answers it (businessFatcaCrsCertificationUpdate). */
export const businessCertificationEntries = {
  name: requiredText(200),
  entityType: v.picklist(ENTITY_TYPES, VfCode.notAllowed),
  registrationCountryCode: countryCode,
  giin: optionalText(19),
  giinMissingReason: v.optional(v.nullable(v.picklist(GIIN_MISSING_REASONS, VfCode.notAllowed)), null),
  /** financial institution: it holds financial assets for the account of others */
  isUsingClientFunds: v.optional(v.nullable(v.boolean()), null),
  /** investment entity: managed by a financial institution (then it is one itself) */
  isManagedByFinancialInstitution: v.optional(v.nullable(v.boolean()), null),
  /** general entity: its stock is regularly traded on an established securities market */
  isPubliclyTraded: v.optional(v.nullable(v.boolean()), null),
  companySecurityMarket: optionalText(100),
  companyTicket: optionalText(20),
  /** general entity, not traded itself: a related entity of a publicly traded company */
  isOwnPubliclyTradedCompany: v.optional(v.nullable(v.boolean()), null),
  companyOwnedByYou: v.optional(v.nullable(publicCompany), null),
  /** more than half of its income is passive (dividends, interest, rents...): a passive NFE */
  isEarnPassiveIncome: v.optional(v.nullable(v.boolean()), null),
  isUSTaxPayer: v.boolean(VfCode.required),
  isDisregardedEntity: v.boolean(VfCode.required),
  /** the company's addresses (businessInfoGet) */
  placeOfBusinessAddressId: Id,
  registeredAddressId: Id,
  taxIds,
  /** required for a passive entity (passiveEntity below), else empty */
  controllingPersons: v.optional(v.pipe(v.array(ControllingPersonSchema, VfCode.wrongType), v.maxLength(20, VfCode.tooManyItems)), []),
};
export const BusinessCertificationSchema = v.object(businessCertificationEntries);
export type BusinessCertification = v.InferOutput<typeof BusinessCertificationSchema>;

// ---------------------------------------------------------------------------------------------
// The rules (document 3 §5), shared by the statecharts and the platform.

/** A person is a US person for FATCA: a US citizen or a US taxpayer. */
export const isUsPerson = (c: Pick<PersonalCertification, 'citizenship' | 'isUSTaxPayer'>) => c.isUSTaxPayer || c.citizenship.includes('US');

/** US indicia: born in the US, a US citizen, or a US taxpayer (personal FATCA hasUSIndicia). */
export const hasUsIndicia = (c: Pick<PersonalCertification, 'citizenship' | 'isUSTaxPayer' | 'countryOfBirth'>) => isUsPerson(c) || c.countryOfBirth === 'US';

/** Born in the US and not a US citizen: the reason is asked. */
export const needsUsCitizenshipAbsenceReason = (c: Pick<PersonalCertification, 'citizenship' | 'countryOfBirth'>) =>
  c.countryOfBirth === 'US' && !c.citizenship.includes('US');

/** §5: a US taxpayer's tax record without a US entry gets one (the statecharts add it; the platform refuses the record without it). */
export function withUsEntry<T extends { taxIds: TaxIdEntry[] }>(record: T, usTaxPayer: boolean): T {
  if (!usTaxPayer || record.taxIds.some((t) => t.countryCode === 'US')) return record;
  return { ...record, taxIds: [...record.taxIds, { countryCode: 'US', taxId: null, tinMissingReason: null, tinMissingExplanation: null }] };
}

/** §5: the explanation is sent only for CANNOT_OBTAIN. */
export const normaliseTaxIdEntry = (t: TaxIdEntry): TaxIdEntry =>
  t.taxId
    ? { ...t, tinMissingReason: null, tinMissingExplanation: null }
    : { ...t, taxId: null, tinMissingExplanation: t.tinMissingReason === 'CANNOT_OBTAIN' ? t.tinMissingExplanation : null };

/** An entity is a financial institution for FATCA/CRS (needs a GIIN or its missing reason). */
export const isFinancialInstitution = (c: Pick<BusinessCertification, 'entityType' | 'isManagedByFinancialInstitution'>) =>
  c.entityType === 'financial-institution' || (c.entityType === 'investment' && c.isManagedByFinancialInstitution === true);

/** A passive entity: its controlling persons are required (drawn from the shareholders and directors). */
export function isPassiveEntity(c: Pick<BusinessCertification, 'entityType' | 'isManagedByFinancialInstitution' | 'isPubliclyTraded' | 'isOwnPubliclyTradedCompany' | 'isEarnPassiveIncome'>): boolean {
  if (c.entityType === 'investment') return c.isManagedByFinancialInstitution === false;
  if (c.entityType === 'general') return c.isPubliclyTraded !== true && c.isOwnPubliclyTradedCompany !== true && c.isEarnPassiveIncome === true;
  return false;
}

/** The forms a personal certification ends in. */
export const personalForms = (c: Pick<PersonalCertification, 'citizenship' | 'isUSTaxPayer'>): TaxFormKind[] => [isUsPerson(c) ? 'w9' : 'w8Ben', 'taxResidencySelfCertification'];

/** The forms a business certification ends in. */
export const businessForms = (c: Pick<BusinessCertification, 'isUSTaxPayer'>): TaxFormKind[] => [c.isUSTaxPayer ? 'w9' : 'w8BenE', 'taxResidencySelfCertification'];

/** The certificate of loss of nationality is asked of a person born in the US who renounced the citizenship. */
export const needsLossOfNationalityCertificate = (c: Pick<PersonalCertification, 'citizenship' | 'countryOfBirth' | 'usCitizenshipAbsenceReason'>) =>
  needsUsCitizenshipAbsenceReason(c) && c.usCitizenshipAbsenceReason === 'RENOUNCED';

// ---------------------------------------------------------------------------------------------
// Answers.

/** A signed form (or the uploaded CLN) on record: document 3 §3 "document ids, status and url". */
export const TaxDocumentSchema = v.object({
  kind: v.picklist([...TAX_FORM_KINDS, 'certificateOfLossOfNationality']),
  documentId: v.nullable(v.number()),
  status: v.picklist(DOCUMENT_STATES),
  /** the signed PDF (GET, with the caller's token), or null before it is signed */
  url: v.nullable(v.string()),
});

const certificationAnswer = {
  ...TaxCertificationStatusSchema.entries,
  /** the forms the current answers end in, in signing order */
  requiredForms: v.array(v.picklist(TAX_FORM_KINDS)),
  documents: v.array(TaxDocumentSchema),
  /** ISO 8601: the answers last saved, or null before the first save */
  updatedAt: v.nullable(v.string()),
};

export const PersonalCertificationAnswerSchema = v.object({
  ...certificationAnswer,
  /** the saved answers, or null before the first save */
  certification: v.nullable(PersonalCertificationSchema),
  hasUSIndicia: v.boolean(),
  /** the CLN is asked (needsLossOfNationalityCertificate) */
  certificateOfLossOfNationalityRequired: v.boolean(),
  /** prefilled from the profile before the first save */
  prefill: v.object({ dateOfBirth: v.nullable(v.string()), countryCode: v.nullable(v.string()), taxId: v.nullable(v.string()) }),
});

export const BusinessCertificationAnswerSchema = v.object({
  ...certificationAnswer,
  certification: v.nullable(BusinessCertificationSchema),
  /** prefilled from the company before the first save */
  prefill: v.object({ name: v.string(), registrationCountryCode: v.nullable(v.string()), taxId: v.nullable(v.string()) }),
});

/** W-form upload response (document 3 §3): the signing envelope's client id and one sign URL per form. */
export const SignDataSchema = v.object({
  clientId: v.string(),
  signUrls: v.array(v.string()),
});
export type SignData = v.InferOutput<typeof SignDataSchema>;

// ---------------------------------------------------------------------------------------------
// Methods (document 3 §7). The personal ones also serve the unauthorised representative with
// fromEmail + authSecret (api/method.ts REPRESENTATIVE_SECRET_METHODS): then the certification is
// the representative's own, kept for the company.

export const personalFatcaCrsCertificationGet = defineMethod({
  name: 'personalFatcaCrsCertificationGet',
  access: 'public',
  mutation: false,
  request: {},
  response: { certification: PersonalCertificationAnswerSchema },
});

export const personalFatcaCrsCertificationUpdate = defineMethod({
  name: 'personalFatcaCrsCertificationUpdate',
  access: 'public',
  mutation: true,
  request: personalCertificationEntries,
  response: { certification: PersonalCertificationAnswerSchema },
});

export const personalWFormUpload = defineMethod({
  name: 'personalWFormUpload',
  access: 'public',
  mutation: true,
  request: {},
  response: { signData: SignDataSchema },
});

export const businessFatcaCrsCertificationGet = defineMethod({
  name: 'businessFatcaCrsCertificationGet',
  access: 'customer',
  mutation: false,
  request: {},
  response: { certification: BusinessCertificationAnswerSchema },
});

export const businessFatcaCrsCertificationUpdate = defineMethod({
  name: 'businessFatcaCrsCertificationUpdate',
  access: 'customer',
  mutation: true,
  request: businessCertificationEntries,
  response: { certification: BusinessCertificationAnswerSchema },
});

export const businessWFormUpload = defineMethod({
  name: 'businessWFormUpload',
  access: 'customer',
  mutation: true,
  request: {},
  response: { signData: SignDataSchema },
});

/**
 * The certificate of loss of nationality (CLN) of a person born in the US who renounced the
 * citizenship: one PDF or image in the file part `front`. Not named in the spec (§6 lists the
 * loss-of-nationality action among the unauthorised representative's): a signed-in customer may
 * also upload it as any document (category 5, type 104), but the representative's link has no
 * token, so this method (public, with fromEmail + authSecret) takes it for both. Refused (VF
 * `front` notOffered) unless the saved answers ask for it (needsLossOfNationalityCertificate).
 */
export const personalLossOfNationalityCertificateUpload = defineMethod({
  name: 'personalLossOfNationalityCertificateUpload',
  access: 'public',
  mutation: true,
  files: true,
  request: {},
  response: { certification: PersonalCertificationAnswerSchema },
});

export const taxCertificationMethods = {
  personalFatcaCrsCertificationGet,
  personalFatcaCrsCertificationUpdate,
  personalWFormUpload,
  personalLossOfNationalityCertificateUpload,
  businessFatcaCrsCertificationGet,
  businessFatcaCrsCertificationUpdate,
  businessWFormUpload,
};
