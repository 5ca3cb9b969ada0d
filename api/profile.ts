/**
 * The customer's profile (document 1 §3, §7 named methods): phones, e-mail addresses and the
 * username-change request, addresses with their documents, the tax number, KYC, limit reasons,
 * due diligence, and the inputs of the verification status (userStatusGet), plus the
 * administrator's account actions (limit, due diligence, financial info).
 *
 * Every call acts for the caller's own customer or the company it acts for (fromCustomerId); an
 * id of another customer's phone, e-mail, address or request answers ENOA and changes nothing.
 *
 * REST (bearer token):
 * - POST /api/v1/verification/phones/{phoneId}/verify {type, captcha, codeChallenge}: sends the
 *   phone's code by SMS; confirmPhone then answers with verification {code, codeVerifier}.
 * - POST /api/v1/identity-verification and POST /api/v1/customers/{id}/identity-verification:
 *   start an identity-verification job ({ workflowRunId, token, provider, url }).
 * - GET /api/v1/identity-verification/{workflowRunId}/{token}: the job's state (no bearer: the token).
 * - GET /api/v1/video-identity-job/{id}: a video identity job's state (bearer, own jobs only).
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { defineMethod, Id, idSchema } from './method.ts';
import { LoginEmailSchema } from './registration.ts';
import { UploadedDocumentSchema, DocumentMetaEntries } from './documents.ts';
import { DOCUMENT_STATES, DUPLICATE_DOCUMENT_STATES, VIDEO_IDENTITY_STATUSES } from './verification.ts';

const id = Id;
const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max, `must be at most ${max} characters`));
const requiredText = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1, 'is required'), v.maxLength(max, `must be at most ${max} characters`));
const countryCode = v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/, VfCode.countryCodeFormat));

/** A one-time code of the profile (phone, e-mail, username change): 6 digits, 10 minutes, 5 tries. */
export const PROFILE_CODE_DIGITS = 6;
export const PROFILE_CODE_TTL_S = 10 * 60;
export const PROFILE_CODE_MAX_ATTEMPTS = 5;
/** A new code for the same phone or address at most once per this many seconds. */
export const PROFILE_CODE_RESEND_S = 30;
/** At most this many codes of one purpose (phone, e-mail, username) per customer in PROFILE_CODE_WINDOW_S. */
export const PROFILE_CODES_PER_WINDOW = 5;
export const PROFILE_CODE_WINDOW_S = 60 * 60;
export const MAX_PHONES = 5;
export const MAX_EMAILS = 5;

const code = v.pipe(v.string(), v.trim(), v.regex(/^\d{6}$/, VfCode.sixDigitCode));
/** PKCE verifier / challenge: 43 to 128 of letters, digits and - . _ ~ (document 1 §5). */
export const PkceSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9\-._~]{43,128}$/, 'must be 43 to 128 letters, digits or - . _ ~'));

// ---- phones ----

export const PhoneSchema = v.object({
  id: v.number(),
  /** Primary is the main one */
  status: v.picklist(['Primary', 'Secondary']),
  phoneCountryCode: v.string(),
  phone: v.string(),
  phoneType: v.number(),
  confirmed: v.boolean(),
});
export type Phone = v.InferOutput<typeof PhoneSchema>;

/** The country code with any plus signs removed (document 1 §5), 1 to 4 digits. */
const phoneCountryCode = v.pipe(
  v.union([v.string(), v.number()], 'must be a country code'),
  v.transform((x) => String(x).replace(/\+/g, '').trim()),
  v.regex(/^[1-9][0-9]{0,3}$/, VfCode.phoneCodeDigits),
);
/** The national number: spaces, dots, dashes and brackets dropped, 4 to 15 digits. */
const phoneNumber = v.pipe(
  v.union([v.string(), v.number()], 'must be a phone number'),
  v.transform((x) => String(x).replace(/[\s.()-]/g, '')),
  v.regex(/^[0-9]{4,15}$/, VfCode.phoneNumberDigits),
);
const phoneEntries = { phoneCountryCode, phone: phoneNumber, phoneType: v.optional(v.literal(2, 'must be 2'), 2) };

export const profileInquiry = defineMethod({
  name: 'profileInquiry',
  access: 'customer',
  mutation: false,
  request: {},
  response: { phones: v.array(PhoneSchema) },
});

/** Adds a phone (unconfirmed; the first one becomes primary). */
export const addPhone = defineMethod({
  name: 'addPhone',
  access: 'customer',
  mutation: true,
  request: phoneEntries,
  response: { phone: PhoneSchema },
});

/** Replaces a phone's number (unconfirmed again; its status kept). */
export const replacePhone = defineMethod({
  name: 'replacePhone',
  access: 'customer',
  mutation: true,
  request: { phoneId: id, ...phoneEntries },
  response: { phone: PhoneSchema },
});

/** Sends a confirmation code by SMS to the phone (the named-method way; REST verify is the PKCE way). */
export const phoneConfirmRequest = defineMethod({
  name: 'phoneConfirmRequest',
  access: 'customer',
  mutation: true,
  request: { phoneId: id },
  response: { sentTo: v.string(), expiresInSeconds: v.number() },
});

/** Confirms a phone: phoneId plus { code } or verification { code, codeVerifier } (document 1 §7). */
export const confirmPhone = defineMethod({
  name: 'confirmPhone',
  access: 'customer',
  mutation: true,
  request: {
    phoneId: id,
    code: v.optional(code),
    verification: v.optional(v.object({ code, codeVerifier: PkceSchema })),
  },
  response: { phone: PhoneSchema },
});

/** The body of POST verification/phones/{phoneId}/verify. */
export const PhoneVerifyBodySchema = v.object({
  /** the channel: sms */
  type: v.picklist(['sms'], 'must be sms'),
  /** a captcha answer (not checked by the built-in platform: the sign-in limits apply instead) */
  captcha: v.optional(v.string()),
  codeChallenge: PkceSchema,
});

/**
 * The body of POST verification/customer/{id}/verify (document 1 §7, 3 §7): starts the identity
 * verification of customer {id} by a channel of document 1 §3 (email, sms, camera). email and sms
 * send the job's link to the customer's login address or confirmed primary phone (the link carries
 * the job's secret, so it is not in the answer); camera answers the link to continue on this
 * device. The spec shows no more; captcha and codeChallenge as for the phone's verify.
 */
export const CustomerVerifyBodySchema = v.object({
  type: v.picklist(['email', 'sms', 'camera'], 'must be email, sms or camera'),
  /** a captcha answer (not checked by the built-in platform: the sign-in limits apply instead) */
  captcha: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  /** PKCE challenge of the device that asks (the built-in provider binds nothing to it) */
  codeChallenge: PkceSchema,
});

/** URLs one POST /service/check-urls checks at most. */
export const CHECK_URLS_MAX = 20;
export const URL_MAX_LENGTH = 2000;

/** The body of POST /service/check-urls (document 1 §7: urls). */
export const CheckUrlsBodySchema = v.object({
  urls: v.pipe(
    v.array(v.pipe(v.string(), v.maxLength(URL_MAX_LENGTH, `must be at most ${URL_MAX_LENGTH} characters`)), 'must be a list of URLs'),
    v.minLength(1, 'must name at least one URL'),
    v.maxLength(CHECK_URLS_MAX, `must be at most ${CHECK_URLS_MAX} URLs`),
  ),
});

export type UrlCheckReason = 'notUrl' | 'notHttp' | 'credentials' | 'notPublicHost';

/**
 * Is a URL one a customer may give as a public web address (a business website)? http(s), no
 * user:password part, a host name with a dot that is not localhost nor a literal IP address. The
 * spec does not show the checks; the platform never fetches the URL (it would be a way to make the
 * server call any address).
 */
export function checkUrl(raw: string): { url: string; valid: boolean; reason: UrlCheckReason | null } {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return { url: raw, valid: false, reason: 'notUrl' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { url: raw, valid: false, reason: 'notHttp' };
  if (u.username !== '' || u.password !== '') return { url: raw, valid: false, reason: 'credentials' };
  const host = u.hostname.toLowerCase();
  const isIp = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
  if (isIp || !host.includes('.') || host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) {
    return { url: raw, valid: false, reason: 'notPublicHost' };
  }
  return { url: raw, valid: true, reason: null };
}

// ---- e-mails and the username ----

export const EmailSchema = v.object({
  id: v.number(),
  emailAddress: v.string(),
  status: v.picklist(['Primary', 'Secondary']),
  confirmed: v.boolean(),
  /** ISO 8601 */
  lastModified: v.string(),
});

export const UsernameChangeRequestSchema = v.object({
  requestId: v.number(),
  desiredUsername: v.string(),
  status: v.picklist(['active', 'failed', 'pending']),
  logs: v.array(v.object({ event: v.string(), at: v.string() })),
});

export const emailInquiry = defineMethod({
  name: 'emailInquiry',
  access: 'customer',
  mutation: false,
  request: {},
  response: { login: v.string(), emails: v.array(EmailSchema), usernameChangeRequest: v.nullable(UsernameChangeRequestSchema) },
});

export const addEmail = defineMethod({
  name: 'addEmail',
  access: 'customer',
  mutation: true,
  request: { emailAddress: LoginEmailSchema },
  response: { email: EmailSchema },
});

export const deleteEmail = defineMethod({
  name: 'deleteEmail',
  access: 'customer',
  mutation: true,
  request: { emailId: id },
  response: {},
});

export const setPrimaryEmail = defineMethod({
  name: 'setPrimaryEmail',
  access: 'customer',
  mutation: true,
  request: { emailId: id },
  response: { email: EmailSchema },
});

export const confirmRequestEmail = defineMethod({
  name: 'confirmRequestEmail',
  access: 'customer',
  mutation: true,
  request: { emailId: id },
  response: { expiresInSeconds: v.number() },
});

export const confirmEmail = defineMethod({
  name: 'confirmEmail',
  access: 'customer',
  mutation: true,
  /** document 3 §7: confirm email (emailId, confirmationCode) */
  request: { emailId: id, confirmationCode: code },
  response: { email: EmailSchema },
});

export const usernameChangeRequestCreate = defineMethod({
  name: 'usernameChangeRequestCreate',
  access: 'customer',
  mutation: true,
  request: { desiredUsername: LoginEmailSchema },
  response: { usernameChangeRequest: UsernameChangeRequestSchema },
});

export const usernameChangeRequestDelete = defineMethod({
  name: 'usernameChangeRequestDelete',
  access: 'customer',
  mutation: true,
  request: { requestId: id },
  response: {},
});

/** The code e-mailed to the desired username: the change applies at once when the identity is validated, else it waits (pending). */
export const usernameChangeRequestEmailConfirm = defineMethod({
  name: 'usernameChangeRequestEmailConfirm',
  access: 'customer',
  mutation: true,
  request: { requestId: id, code },
  response: { usernameChangeRequest: v.nullable(UsernameChangeRequestSchema), login: v.string() },
});

/**
 * Username change request: identity job (document 1 §7). A request whose e-mail code is confirmed
 * waits (pending) for a validated identity; this starts the identity-verification job that
 * validates it, with the configured provider, as POST /identity-verification does. The spec shows
 * no payload: the request's id in, the job's page out.
 */
export const usernameChangeRequestIdentityJob = defineMethod({
  name: 'usernameChangeRequestIdentityJob',
  access: 'customer',
  mutation: true,
  request: { requestId: id },
  response: {
    usernameChangeRequest: UsernameChangeRequestSchema,
    workflowRunId: v.string(),
    /** the secret of the job's page, shown once */
    token: v.string(),
    provider: v.string(),
    /** where the customer continues the job */
    url: v.string(),
  },
});

/**
 * Username change request: completed (document 1 §7). The app asks after the identity job: the
 * change applies now when the identity is validated (login answered), a request already applied
 * answers completed again, one still waiting answers TA1 with what it waits for. Not shown by
 * the spec: this is what the app needs to leave the pending state.
 */
export const usernameChangeRequestCompleted = defineMethod({
  name: 'usernameChangeRequestCompleted',
  access: 'customer',
  mutation: true,
  request: { requestId: id },
  response: {
    completed: v.boolean(),
    /** the request when it did not complete (failed: the username was taken meanwhile) */
    usernameChangeRequest: v.nullable(UsernameChangeRequestSchema),
    login: v.string(),
  },
});

// ---- addresses ----

export const ADDRESS_TYPES = ['unspecified', 'home', 'residence', 'business', 'homeAndBusiness', 'office'] as const;
export const ADDRESS_STATUSES = ['unconfirmed', 'confirmed', 'pending', 'rejected', 'nameMismatch'] as const;

export const AddressSchema = v.object({
  addressId: v.number(),
  addressType: v.picklist(ADDRESS_TYPES),
  address1: v.string(),
  address2: v.string(),
  city: v.string(),
  postalCode: v.string(),
  countryCode: v.string(),
  stateCode: v.nullable(v.string()),
  stateName: v.nullable(v.string()),
  addressStatus: v.number(),
  status: v.picklist(ADDRESS_STATUSES),
  confirmed: v.boolean(),
  /** when the customer last confirmed the address is still current (confirmAddress), or null */
  customerConfirmedAt: v.nullable(v.string()),
  uploadedDocuments: v.array(UploadedDocumentSchema),
  isDocumentOutOfDate: v.boolean(),
  isCardDocumentRequired: v.boolean(),
  isDocumentRequired: v.boolean(),
});
export type Address = v.InferOutput<typeof AddressSchema>;

export const addressInquiry = defineMethod({
  name: 'addressInquiry',
  access: 'customer',
  mutation: false,
  request: {},
  response: { addresses: v.array(AddressSchema) },
});

/** The address documents of customerAddressCreateOrReplace: their files are multipart parts of the same name (`mainDocument`, `mainDocument.back`...). */
export const ADDRESS_DOCUMENT_KEYS = ['mainDocument', 'additionalDocument', 'relationshipDocument'] as const;
const addressDocument = v.optional(v.object(DocumentMetaEntries));

export const customerAddressCreateOrReplace = defineMethod({
  name: 'customerAddressCreateOrReplace',
  access: 'customer',
  mutation: true,
  files: true, // the address documents as file parts
  request: {
    /** the address replaced; a new one when absent */
    addressId: v.optional(id),
    addressType: v.optional(v.picklist(ADDRESS_TYPES, 'must be an address type'), 'home'),
    address1: requiredText(200),
    address2: v.optional(text(200), ''),
    city: requiredText(100),
    postalCode: requiredText(20),
    countryCode,
    stateCode: v.optional(v.nullable(text(10))),
    stateName: v.optional(v.nullable(text(100))),
    /** 1 on create or replace (document 1 §9) */
    addressStatus: v.optional(v.literal(1, 'must be 1'), 1),
    mainDocument: addressDocument,
    additionalDocument: addressDocument,
    relationshipDocument: addressDocument,
  },
  response: { address: AddressSchema },
});

export const customerAddressDelete = defineMethod({
  name: 'customerAddressDelete',
  access: 'customer',
  mutation: true,
  /** document 3 §7: customer address delete {id} */
  request: { id },
  response: {},
});

/** The customer confirms that the address is still correct. */
export const confirmAddress = defineMethod({
  name: 'confirmAddress',
  access: 'customer',
  mutation: true,
  request: { addressId: id },
  response: { address: AddressSchema },
});

// ---- tax number, KYC, limits, due diligence ----

export const customerTaxNumberUpdate = defineMethod({
  name: 'customerTaxNumberUpdate',
  access: 'customer',
  mutation: true,
  request: {
    /**
     * The generic shape here; the platform then checks the number against the country's format in
     * api/tax-numbers.ts (VF taxIdCountryFormat or taxIdCheckDigit) and stores its compact form.
     */
    taxId: v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z0-9][A-Z0-9 ./-]{2,29}$/, VfCode.taxIdFormat)),
    /** a representative's position (2 director; 6 and 9 shareholder; 8 owner) when updating for a company */
    positionId: v.optional(idSchema()),
  },
  response: {},
});

export const KycInfoSchema = v.object({
  occupationId: v.nullable(v.number()),
  sourceOfFundsIds: v.array(v.number()),
  purposeIds: v.array(v.number()),
  expectedMonthlyTurnover: v.nullable(v.string()),
  isPoliticallyExposed: v.nullable(v.boolean()),
  updatedAt: v.nullable(v.string()),
});

const idList = v.pipe(v.array(Id), v.minLength(1, 'choose at least one'), v.maxLength(20, 'at most 20'));

export const kycInfoUpdate = defineMethod({
  name: 'kycInfoUpdate',
  access: 'customer',
  mutation: true,
  request: {
    occupationId: idSchema(),
    sourceOfFundsIds: idList,
    purposeIds: idList,
    expectedMonthlyTurnover: requiredText(50),
    isPoliticallyExposed: v.boolean(),
  },
  response: { kycInfo: KycInfoSchema },
});

export const kycCustomerInfoGet = defineMethod({
  name: 'kycCustomerInfoGet',
  access: 'customer',
  mutation: false,
  request: {},
  response: { kycInfo: KycInfoSchema, isNeedKyc: v.boolean() },
});

export const kycRequestGet = defineMethod({
  name: 'kycRequestGet',
  access: 'customer',
  mutation: false,
  request: {},
  response: {
    kycRequest: v.nullable(v.object({ id: v.number(), status: v.picklist(['open', 'answered']), reason: v.string(), created: v.string() })),
  },
});

/** The personal info the provider asks to update (isNeedPersonalInfoUpdate): names, birth day, residence. */
export const kycCustomerPersonalInfoUpdate = defineMethod({
  name: 'kycCustomerPersonalInfoUpdate',
  access: 'customer',
  mutation: true,
  request: {
    firstName: requiredText(100),
    lastName: requiredText(100),
    birthDay: v.pipe(v.string(), v.isoDate('must be a date (YYYY-MM-DD)')),
    residenceCountryCode: countryCode,
  },
  response: {},
});

export const LIMIT_REASONS = ['expiredDocuments', 'unpaidInvoice', 'sanctions', 'adverseMedia', 'accountInvestigation'] as const;
/** actionTypeId of each account restriction reason (document 1 §4). */
export const LimitActionType = { expiredDocuments: 1, unpaidInvoice: 2, sanctions: 3, adverseMedia: 4, accountInvestigation: 5 } as const;

export const LimitReasonSchema = v.object({
  actionTypeId: v.number(),
  reason: v.picklist(LIMIT_REASONS),
  requirementDocuments: v.array(v.object({ documentTypeId: v.number(), uploadedDocuments: v.array(UploadedDocumentSchema) })),
});

export const customerLimitReasonGet = defineMethod({
  name: 'customerLimitReasonGet',
  access: 'customer',
  mutation: false,
  request: {},
  response: { limited: v.boolean(), reasons: v.array(LimitReasonSchema) },
});

export const DueDiligenceInfoSchema = v.object({
  dueDiligenceLevel: v.number(),
  address: v.object({ required: v.boolean(), status: v.picklist(DOCUMENT_STATES) }),
  document: v.object({ requiredDocumentTypeIds: v.array(v.number()), status: v.picklist(DOCUMENT_STATES) }),
  uploadedDocuments: v.array(UploadedDocumentSchema),
  financialInfo: v.object({
    annualIncome: v.nullable(v.string()),
    netWorth: v.nullable(v.string()),
    sourceOfWealth: v.nullable(v.string()),
    employerName: v.nullable(v.string()),
  }),
});

/** Due-diligence info (the web loads it for levels 1 and 4). */
export const dueDiligenceInfoGet = defineMethod({
  name: 'dueDiligenceInfoGet',
  access: 'customer',
  mutation: false,
  request: {},
  response: { dueDiligenceInfo: DueDiligenceInfoSchema },
});

/** Exactly api/verification.ts VerificationInputs, derived from the platform's tables. */
export const VerificationInputsSchema = v.object({
  customerType: v.picklist(['personal', 'business']),
  isRepresentative: v.boolean(),
  verified: v.boolean(),
  limited: v.boolean(),
  limitReasons: v.array(
    v.object({
      actionTypeId: v.number(),
      reason: v.picklist(LIMIT_REASONS),
      requirementDocuments: v.array(v.object({ documentTypeId: v.number(), uploadedDocuments: v.array(v.object({ statusId: v.number() })) })),
    }),
  ),
  duplicateDocuments: v.picklist(DUPLICATE_DOCUMENT_STATES),
  taxCertification: v.object({
    w9FormDocumentStatus: v.picklist(DOCUMENT_STATES),
    certificateOfLossOfNationalityDocumentStatus: v.picklist(DOCUMENT_STATES),
    taxResidencySelfCertificationDocumentStatus: v.picklist(DOCUMENT_STATES),
    w8BenFormDocumentStatus: v.picklist(DOCUMENT_STATES),
  }),
  address: v.picklist(['missing', 'incomplete', 'complete']),
  isCardDocumentRequired: v.boolean(),
  proofOfResidence: v.picklist(DOCUMENT_STATES),
  identity: v.picklist(DOCUMENT_STATES),
  phoneConfirmed: v.boolean(),
  videoIdentity: v.picklist(VIDEO_IDENTITY_STATUSES),
  documentsInReview: v.boolean(),
});

export const userStatusGet = defineMethod({
  name: 'userStatusGet',
  access: 'customer',
  mutation: false,
  request: {},
  response: {
    userStatus: VerificationInputsSchema,
    isNeedKyc: v.boolean(),
    isNeedPersonalInfoUpdate: v.boolean(),
    dueDiligenceLevel: v.number(),
  },
});

// ---- the administrator's account actions (document 1 §6) ----

export const adminCustomerLimit = defineMethod({
  name: 'adminCustomerLimit',
  access: 'admin',
  mutation: true,
  request: {
    customerId: id,
    reason: v.picklist(LIMIT_REASONS, 'must be a restriction reason'),
    /** the document types that lift it (uploaded by the customer, then confirmed) */
    requiredDocumentTypeIds: v.optional(v.pipe(v.array(idSchema()), v.maxLength(10, 'at most 10')), []),
    note: v.optional(text(500)),
  },
  response: { limited: v.boolean() },
});

export const adminCustomerUnlimit = defineMethod({
  name: 'adminCustomerUnlimit',
  access: 'admin',
  mutation: true,
  request: { customerId: id, note: v.optional(text(500)) },
  response: { limited: v.boolean() },
});

const money = v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.regex(/^\d{1,15}(\.\d{1,2})?$/, VfCode.amountFormat))));

export const financialDetailUpdate = defineMethod({
  name: 'financialDetailUpdate',
  access: 'admin',
  mutation: true,
  request: {
    customerId: id,
    annualIncome: money,
    netWorth: money,
    sourceOfWealth: v.optional(v.nullable(text(200))),
    employerName: v.optional(v.nullable(text(200))),
  },
  response: {},
});

export const dueDiligenceUpdate = defineMethod({
  name: 'dueDiligenceUpdate',
  access: 'admin',
  mutation: true,
  request: {
    customerId: id,
    dueDiligenceLevel: v.pipe(v.number(), v.integer(), v.minValue(0, 'must be 0 to 4'), v.maxValue(4, 'must be 0 to 4')),
    addressDocumentRequired: v.optional(v.boolean()),
    requiredDocumentTypeIds: v.optional(v.pipe(v.array(idSchema()), v.maxLength(10, 'at most 10'))),
  },
  response: {},
});

export const profileMethods = {
  profileInquiry,
  addPhone,
  replacePhone,
  phoneConfirmRequest,
  confirmPhone,
  emailInquiry,
  addEmail,
  deleteEmail,
  setPrimaryEmail,
  confirmRequestEmail,
  confirmEmail,
  usernameChangeRequestCreate,
  usernameChangeRequestDelete,
  usernameChangeRequestEmailConfirm,
  usernameChangeRequestIdentityJob,
  usernameChangeRequestCompleted,
  addressInquiry,
  customerAddressCreateOrReplace,
  customerAddressDelete,
  confirmAddress,
  customerTaxNumberUpdate,
  kycInfoUpdate,
  kycCustomerInfoGet,
  kycRequestGet,
  kycCustomerPersonalInfoUpdate,
  customerLimitReasonGet,
  dueDiligenceInfoGet,
  userStatusGet,
  adminCustomerLimit,
  adminCustomerUnlimit,
  financialDetailUpdate,
  dueDiligenceUpdate,
};
