/**
 * The catalog of validation error codes: every entry of a `validationErrors` list the platform
 * sends (VF answers, and the TA1 answers that name a field) carries one of these codes with its
 * parameters, besides the spec's `param` and `description` (document 1 §5, kept for other
 * clients). The web app never shows `description`: it turns the code and its parameters into a
 * sentence in the customer's language (src/lib/validation-messages.ts).
 *
 * Each code names its parameters and the English template its `description` is rendered from
 * (`{name}` is replaced by the parameter's value).
 *
 * To add a code:
 *   1. add it here with its parameter names and English template;
 *   2. build the error with `vf(param, VfCode.yourCode, { ...params })` (or put the code as the
 *      message of a valibot action in api/*.ts: issuesToValidationErrors reads it);
 *   3. `npx tsc` then fails until src/lib/validation-messages.ts has its sentence; add it, run
 *      `npx lingui extract` and translate it in locales/{es,pt,ro,ru,uk}/messages.po
 *      (tests/unit/validation-codes.test.ts checks every catalog).
 */

interface CodeDef {
  readonly params: readonly string[];
  readonly en: string;
}

export const VF_CODES = {
  // --- any field (valibot's checks, api/envelope.ts issuesToValidationErrors) ---
  required: { params: [], en: 'is required' },
  wrongType: { params: [], en: 'has the wrong type' },
  notAllowed: { params: [], en: 'is not one of the allowed values' },
  invalid: { params: [], en: 'is not valid' },
  badFormat: { params: [], en: 'has the wrong format' },
  tooShort: { params: ['min'], en: 'must be at least {min} characters' },
  tooLong: { params: ['max'], en: 'must be at most {max} characters' },
  tooFewItems: { params: ['min'], en: 'must have at least {min} items' },
  tooManyItems: { params: ['max'], en: 'must have at most {max} items' },
  tooSmall: { params: ['min'], en: 'must be {min} or more' },
  tooLarge: { params: ['max'], en: 'must be {max} or less' },
  notInteger: { params: [], en: 'must be a whole number' },
  notEmail: { params: [], en: 'must be an e-mail address' },
  notDate: { params: [], en: 'must be a date (YYYY-MM-DD)' },
  needsLetter: { params: [], en: 'must contain a letter' },
  needsDigit: { params: [], en: 'must contain a digit' },
  notCountry: { params: [], en: 'must be a country' },
  countryCodeFormat: { params: [], en: 'must be a two-letter country code' },
  sixDigitCode: { params: [], en: 'must be the 6-digit code' },
  phoneCodeDigits: { params: [], en: 'must be 1 to 4 digits' },
  phoneNumberDigits: { params: [], en: 'must be 4 to 15 digits' },
  phoneFormat: { params: [], en: 'must be a phone number' },
  amountFormat: { params: [], en: 'must be an amount' },
  taxIdFormat: { params: [], en: 'must be 3 to 30 letters and digits' },
  recoveryCodeFormat: { params: [], en: 'must be a recovery code like 7KQ4M-2XH9P' },
  // --- dates and ordering ---
  notInFuture: { params: [], en: 'must not be in the future' },
  notInPast: { params: [], en: 'must not be in the past' },
  notBefore: { params: ['other'], en: 'must not be before {other}' },
  notLessThan: { params: ['other'], en: 'must not be less than {other}' },
  afterIssueDate: { params: [], en: 'must be after the issue date' },
  laterThanToday: { params: [], en: 'must be a later day than today' },
  tooOld: { params: ['days'], en: 'must be at most {days} days old' },
  // --- the request itself (server/modules/platform) ---
  notJson: { params: [], en: 'must be JSON' },
  notJsonBody: { params: [], en: 'must be application/json for this method' },
  notCustomerId: { params: [], en: 'must be a customer id' },
  tooManyFiles: { params: ['max'], en: 'must be at most {max} files' },
  idempotencyKeyRequired: { params: [], en: 'is required for this method' },
  idempotencyKeyMalformed: { params: [], en: 'must be 8 to 100 characters of letters, digits, - and _' },
  idempotencyKeyReused: { params: [], en: 'was used for another request' },
  notId: { params: [], en: 'must be an id' },
  controlCharacters: { params: [], en: 'must not contain control characters' },
  methodMismatch: { params: [], en: 'must be the method named in the path' },
  fieldNotTaken: { params: [], en: 'is not taken by this method' },
  requestTooLarge: { params: ['maxMb'], en: 'must total at most {maxMb} MB in one call' },
  // --- files and documents ---
  fileTooLarge: { params: ['maxMb'], en: 'must be at most {maxMb} MB' },
  fileEmpty: { params: [], en: 'is empty' },
  fileWrongType: { params: [], en: 'must be a PDF, JPEG or PNG file' },
  fileUnexpected: { params: [], en: 'is not expected for this document type' },
  fileDuplicate: { params: [], en: 'must be sent once' },
  fileActivePdf: { params: [], en: 'must be a PDF without scripts, automatic actions or attached files' },
  filePolyglot: { params: [], en: 'must be only a PDF, JPEG or PNG file (this one holds another format too)' },
  documentQuota: { params: ['files', 'maxMb'], en: 'would exceed your document storage ({files} files, {maxMb} MB): delete documents you no longer need' },
  unknownFileField: { params: [], en: 'is not a file field of this call' },
  requiredWithFile: { params: [], en: 'is required with its file' },
  notDocument: { params: [], en: 'is not a document' },
  notDocumentType: { params: [], en: 'is not a document type of this category' },
  residentsOnly: { params: ['countries'], en: 'is only accepted from residents of {countries}' },
  subDocument: { params: [], en: 'is a sub-document: decide on its main document' },
  pageOfOther: { params: [], en: 'is a page of another document: delete that one' },
  documentConfirmed: { params: [], en: 'is confirmed and cannot be deleted' },
  statusAlready: { params: [], en: 'is the document status already' },
  ownerAlready: { params: [], en: 'is the document owner already' },
  notJob: { params: [], en: 'is not a job' },
  jobByProvider: { params: ['provider'], en: 'is decided by its provider ({provider})' },
  jobDecided: { params: ['status'], en: 'is {status} already' },
  jobExpired: { params: [], en: 'has expired: the customer starts a new one' },
  // --- customers and profile ---
  notCustomer: { params: [], en: 'is not a customer' },
  notLimited: { params: [], en: 'is not limited' },
  notYourPosition: { params: [], en: 'is not a position you hold for this customer' },
  phoneAlreadyYours: { params: [], en: 'is one of your phones already' },
  emailAlreadyYours: { params: [], en: 'is one of your addresses already' },
  confirmedAlready: { params: [], en: 'is confirmed already' },
  notConfirmed: { params: [], en: 'is not confirmed' },
  primaryEmail: { params: [], en: 'is the primary address: make another primary first' },
  usernameYours: { params: [], en: 'is your username already' },
  usernameTaken: { params: [], en: 'is taken' },
  requestNotActive: { params: ['status'], en: 'is {status}' },
  codeOrVerification: { params: [], en: 'give either code or verification { code, codeVerifier }' },
  termNotCurrent: { params: [], en: 'is not a current term version' },
  alreadyRegistered: { params: [], en: 'is already registered' },
  notOffered: { params: [], en: 'is not offered' },
  requiredWithPhone: { params: [], en: 'is required with the phone number' },
  waitsForIdentity: { params: ['identity'], en: 'waits for the identity ({identity})' },
  needsConfirmedPhone: { params: [], en: 'needs a confirmed primary phone' },
  // --- account recovery (issue 11: reviewed by a person, cancelable by the owner) ---
  notRecoveryTask: { params: [], en: 'is not a recovery task' },
  notWaitingForDocuments: { params: [], en: 'is not waiting for documents' },
  requiredToReject: { params: [], en: 'is required to reject' },
  recoveryCanceled: { params: [], en: 'was canceled by the account owner' },
  decidedAlready: { params: [], en: 'is decided already' },
  noDocumentsYet: { params: [], en: 'has no documents yet' },
  matchesNoAccount: { params: [], en: 'matches no account: reject it' },
  accountClosed: { params: [], en: 'belongs to a closed account: reject it' },
  cancelTooLate: { params: [], en: 'is too late: the recovery was completed; contact support' },
  cancelExpired: { params: [], en: 'has expired: the 24 hours to cancel have passed; contact support' },
  // --- one-time codes (e-mail, SMS, activation, password) ---
  codeWrong: { params: [], en: 'is wrong' },
  codeExpired: { params: [], en: 'has expired: ask for a new one' },
  codeUsed: { params: [], en: 'has already been used: sign in' },
  codeNotSent: { params: [], en: 'was not sent: ask for a code first' },
  codeTooManyWrong: { params: [], en: 'was entered wrong too many times: ask for a new one' },
  verifierMismatch: { params: [], en: 'does not match the code challenge' },
  passwordWrong: { params: [], en: 'is wrong' },
  samePassword: { params: [], en: 'must differ from the current password' },
  notPendingChange: { params: [], en: 'is not a pending password change' },
  ownEmailOnly: { params: [], en: 'must be the e-mail address you sign in with' },
  // --- money ---
  wholeAmount: { params: ['currency'], en: 'must be a whole amount of {currency}' },
  maxDecimals: { params: ['decimals', 'currency'], en: 'must have at most {decimals} decimals in {currency}' },
  positive: { params: [], en: 'must be more than 0' },
  tooSmallToConvert: { params: [], en: 'is too small to convert' },
  belowMinimum: { params: ['amount', 'currency'], en: 'must be at least {amount} {currency}' },
  aboveMaximum: { params: ['amount', 'currency'], en: 'must be at most {amount} {currency} per transfer' },
  dailyLimit: { params: ['left', 'currency'], en: "exceeds today's limit ({left} {currency} left)" },
  balanceExceeded: { params: [], en: 'exceeds the available balance' },
  sameAccount: { params: [], en: 'must be another account than the source' },
  currencyOfAccounts: { params: [], en: 'must be the currency of the source or the destination account' },
  currencyOfAccount: { params: [], en: 'must be the currency of the account' },
  hasCurrency: { params: [], en: 'You already have an account in this currency' },
  notCurrencyAccount: { params: ['currency'], en: 'is not a {currency} account' },
  payeeUnknown: { params: [], en: 'No customer can receive money at this e-mail' },
  payeeSelf: { params: [], en: 'You cannot send money to yourself' },
  payeeRefuses: { params: [], en: 'The payee does not accept money from you' },
  payeeNoAccount: { params: ['currency'], en: 'The payee has no account in {currency}' },
  frequencyRequired: { params: [], en: 'is required for a recurring transfer' },
  approvalCodeWrong: { params: ['triesLeft'], en: 'The code is wrong ({triesLeft} tries left)' },
  approvalCodeUsed: { params: ['triesLeft'], en: 'This code was already used; wait for the next one ({triesLeft} tries left)' },
  approvalTooManyWrong: { params: [], en: 'Too many wrong codes: the transfer was rejected' },
} as const satisfies Record<string, CodeDef>;

export type VfCode = keyof typeof VF_CODES;
/** Every code by name: `VfCode.tooLong === 'tooLong'`. */
export const VfCode = Object.fromEntries(Object.keys(VF_CODES).map((k) => [k, k])) as { readonly [K in VfCode]: K };
export const vfCodes = Object.keys(VF_CODES) as VfCode[];

export type VfParamValue = string | number;
/** The parameters a code takes, by name. */
export type VfParams<C extends VfCode> = { readonly [P in (typeof VF_CODES)[C]['params'][number]]: VfParamValue };

export function isVfCode(value: unknown): value is VfCode {
  return typeof value === 'string' && Object.hasOwn(VF_CODES, value);
}

/** The English description of a code (the envelope's `description`). */
export function describeVf(code: VfCode, params: Readonly<Record<string, VfParamValue>> = {}): string {
  return VF_CODES[code].en.replace(/\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
}

export interface CodedValidationError {
  param: string;
  description: string;
  code: VfCode;
  params: Record<string, VfParamValue>;
}

/** One validation error: the field, its code and parameters, and the English description. */
export function vf<C extends VfCode>(param: string, code: C, ...rest: keyof VfParams<C> extends never ? [] : [VfParams<C>]): CodedValidationError {
  const params: Record<string, VfParamValue> = { ...(rest[0] ?? {}) };
  return { param, description: describeVf(code, params), code, params };
}
