/**
 * Registration and activation (document 1 §1, §2, §4 "Email existence check states", §5, §7
 * account calls; document 3 §2 "Account activation by action"). Every method here is public:
 * the caller has no account yet, or one that is not activated.
 *
 * Names and the login are trimmed with inner whitespace collapsed (document 1 §5) by the schemas
 * themselves, so the platform stores, and the web app sends, the same text.
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { PasswordSchema } from './auth.ts';
import { defineMethod } from './method.ts';
import { businessRegistrationEntries } from './business-registration.ts';

/**
 * Document 1 §4: 0 free, 1 exists, 2 checking, 3 exists as employee (an authorised user of a
 * company), -1 failed. The platform answers only 0, 1 or 3; 2 and -1 are states of the web app.
 */
export const EmailState = { free: 0, exists: 1, checking: 2, employee: 3, failed: -1 } as const;
export type EmailStateCode = (typeof EmailState)[keyof typeof EmailState];

/** Personal types a variant may offer (variants/schema.ts registration.personalTypes). */
export const PERSONAL_TYPES = ['individual', 'soleTrader'] as const;
export type PersonalType = (typeof PERSONAL_TYPES)[number];

/** An activation code: 8 characters of ACTIVATION_CODE_ALPHABET, typed in any case. */
export const ACTIVATION_CODE_LENGTH = 8;
/** No 0/O, 1/I/L: a code is read from an e-mail and typed by hand. */
export const ACTIVATION_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** An activation code lives 24 hours. */
export const ACTIVATION_CODE_TTL_S = 24 * 60 * 60;
/** Wrong codes a code survives: the fifth wrong one kills it. */
export const ACTIVATION_MAX_ATTEMPTS = 5;
/** Resent codes per user per hour (each is an e-mail to someone who may not want it). */
export const ACTIVATION_RESENDS_PER_HOUR = 3;
/** checkEmail answers per client address per minute (it reveals whether an address has an account). */
export const CHECK_EMAIL_PER_MINUTE = 30;

export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;

/** Document 1 §5: trimmed, inner whitespace collapsed to one space. */
export function collapseWhitespace(value: string): string {
  return value.trim().replace(/\s+/gu, ' ');
}

/** The login: collapsed (so pasted text with spaces around it still works), lower-cased, an e-mail. */
export const LoginEmailSchema = v.pipe(
  v.string(),
  v.maxLength(EMAIL_MAX_LENGTH * 2, `must be at most ${EMAIL_MAX_LENGTH} characters`),
  v.transform(collapseWhitespace),
  v.minLength(1, 'is required'),
  v.maxLength(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`),
  v.email('must be an e-mail address'),
  v.transform((s) => s.toLowerCase()),
);

export const PersonNameSchema = v.pipe(
  v.string(),
  v.maxLength(NAME_MAX_LENGTH * 2, `must be at most ${NAME_MAX_LENGTH} characters`),
  v.transform(collapseWhitespace),
  v.minLength(1, 'is required'),
  v.maxLength(NAME_MAX_LENGTH, `must be at most ${NAME_MAX_LENGTH} characters`),
);

/** Trimmed, upper-cased, spaces and dashes dropped (a code may be pasted as "ABCD-EFGH"). */
export const ActivationCodeSchema = v.pipe(
  v.string(),
  v.maxLength(64, VfCode.codeWrong),
  v.transform((s) => s.replace(/[\s-]/g, '').toUpperCase()),
  v.minLength(1, 'is required'),
  v.regex(new RegExp(`^[${ACTIVATION_CODE_ALPHABET}]{${ACTIVATION_CODE_LENGTH}}$`), VfCode.codeWrong),
);

/** Document 1 §5: the phone country code has its plus signs removed before sending. */
const PhoneCountryCodeSchema = v.pipe(
  v.string(),
  v.maxLength(8),
  v.transform((s) => s.replace(/[+\s]/g, '')),
  v.regex(/^[0-9]{1,4}$/, VfCode.phoneCodeDigits),
);
const PhoneSchema = v.pipe(
  v.string(),
  v.maxLength(32),
  v.transform((s) => s.replace(/[\s().-]/g, '')),
  v.regex(/^[0-9]{4,15}$/, VfCode.phoneNumberDigits),
);

export const checkEmail = defineMethod({
  name: 'checkEmail',
  access: 'public',
  mutation: false,
  request: { email: LoginEmailSchema },
  /** The spec's fields (document 2 §7, shared with checkPayee); emailCheckState reads them as 0, 1 or 3. */
  response: {
    /** a user signs in with this e-mail address */
    exist: v.boolean(),
    /** the address is taken: it cannot register (the same as exist here) */
    exists: v.boolean(),
    /** that user is an authorised user (employee) of a company */
    isEmployee: v.boolean(),
    /** no sender to refuse money from on a public check: always false here (see checkPayee) */
    outBlacklist: v.boolean(),
  },
});

/** Document 1 §4's check state of a checkEmail answer: 0 free, 1 exists, 3 exists as an employee. */
export function emailCheckState(answer: { exist: boolean; exists: boolean; isEmployee: boolean }): 0 | 1 | 3 {
  if (answer.isEmployee) return EmailState.employee;
  return answer.exist || answer.exists ? EmailState.exists : EmailState.free;
}

/**
 * Personal or business registration under the spec's one name (document 3 §7 "account create
 * (business registration)"): a request with `company` registers a company and takes the business
 * entries (api/business-registration.ts), whose registrant gives `password`; without it the
 * personal fields are required. Each kind's required fields are checked by the platform, which
 * answers VF required for a missing one (the schema leaves both kinds' fields optional).
 */
export const accountCreate = defineMethod({
  name: 'accountCreate',
  access: 'public',
  mutation: true,
  request: {
    personalType: v.optional(v.picklist(PERSONAL_TYPES, 'is not offered')),
    firstName: v.optional(PersonNameSchema),
    lastName: v.optional(PersonNameSchema),
    email: v.optional(LoginEmailSchema),
    password: PasswordSchema,
    /** ISO 3166-1 alpha-2 of the countries dictionary */
    residenceCountryCode: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, VfCode.notCountry))),
    /** both or neither: the phone becomes the customer's primary, unconfirmed phone */
    phoneCountryCode: v.optional(PhoneCountryCodeSchema),
    phone: v.optional(PhoneSchema),
    acceptTerms: v.literal(true, 'must be accepted'),
    ...partialEntries(businessRegistrationEntries),
  },
  response: {},
});

function partialEntries<T extends v.ObjectEntries>(entries: T): { [K in keyof T]: v.OptionalSchema<T[K], undefined> } {
  return Object.fromEntries(Object.entries(entries).map(([k, schema]) => [k, v.optional(schema)])) as never;
}

/**
 * The activation calls are `mutation: false` on purpose: a wrong code must be counted although the
 * call fails, and the endpoint rolls a failed mutation back. Their service opens its own
 * transaction for the change and writes the audit entry itself.
 */
export const activateAccount = defineMethod({
  name: 'activateAccount',
  access: 'public',
  mutation: false,
  request: { username: LoginEmailSchema, activationCode: ActivationCodeSchema },
  response: {},
});

/** The owner of a business activates it; its authorised users then get activation links. */
export const businessAccountActivate = defineMethod({
  name: 'businessAccountActivate',
  access: 'public',
  mutation: false,
  request: { email: LoginEmailSchema, activationCode: ActivationCodeSchema },
  response: {},
});

/** An authorised user of a company activates with the e-mailed code and chooses a password. */
export const employeeAccountActivate = defineMethod({
  name: 'employeeAccountActivate',
  access: 'public',
  mutation: false,
  request: { email: LoginEmailSchema, activationCode: ActivationCodeSchema, password: PasswordSchema },
  response: {},
});

/**
 * The same answer whether or not the e-mail has an account waiting for activation. `mutation:
 * false` on purpose, like the activation calls: the endpoint audits every mutation, and a public
 * call with an unknown address must write nothing (anyone could fill the audit log with made-up
 * addresses). The service opens its own transaction for a resend and writes its audit entry.
 */
export const activationCodeResend = defineMethod({
  name: 'activationCodeResend',
  access: 'public',
  mutation: false,
  request: { email: LoginEmailSchema },
  response: {},
});

export const registrationMethods = {
  checkEmail,
  accountCreate,
  activateAccount,
  businessAccountActivate,
  employeeAccountActivate,
  activationCodeResend,
};

// The activation query actions and links live apart (api/activation.ts): every external page
// reads them, and none of them needs these schemas.
export { ACTIVATION_ACTIONS, activationLink, type ActivationAction } from './activation.ts';
