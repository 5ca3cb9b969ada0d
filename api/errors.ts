/**
 * The catalog of validation error codes: every entry of a `validationErrors` list the platform
 * sends (VF answers, and the TA1 answers that name a field) carries one of these codes with its
 * parameters, besides the spec's `param` and `description` (document 1 §5, kept for other
 * clients). The web app never shows `description`: it turns the code and its parameters into a
 * sentence in the customer's language (src/lib/validation-messages.ts).
 *
 * Each code names its parameters here; the English template its `description` is rendered from
 * (`{name}` is replaced by the parameter's value) is in api/error-descriptions.ts, which only the
 * platform needs: the web app's bundle leaves it out (issue 12: /login's JavaScript).
 *
 * To add a code:
 *   1. add it here with its parameter names, and its English template in api/error-descriptions.ts;
 *   2. build the error with `vf(param, VfCode.yourCode, { ...params })` (or put the code as the
 *      message of a valibot action in api/*.ts: issuesToValidationErrors reads it);
 *   3. `npx tsc` then fails until src/lib/validation-messages.ts has its sentence; add it, run
 *      `npx lingui extract` and translate it in locales/{es,pt,ro,ru,uk}/messages.po
 *      (tests/unit/validation-codes.test.ts checks every catalog).
 */

import { VF_DESCRIPTIONS } from './error-descriptions.ts';

interface CodeDef {
  readonly params: readonly string[];
}

export const VF_CODES = {
  // --- any field (valibot's checks, api/envelope.ts issuesToValidationErrors) ---
  required: { params: [] },
  wrongType: { params: [] },
  notAllowed: { params: [] },
  invalid: { params: [] },
  badFormat: { params: [] },
  tooShort: { params: ['min'] },
  tooLong: { params: ['max'] },
  tooFewItems: { params: ['min'] },
  tooManyItems: { params: ['max'] },
  tooSmall: { params: ['min'] },
  tooLarge: { params: ['max'] },
  notInteger: { params: [] },
  notEmail: { params: [] },
  notDate: { params: [] },
  needsLetter: { params: [] },
  needsDigit: { params: [] },
  notCountry: { params: [] },
  countryCodeFormat: { params: [] },
  sixDigitCode: { params: [] },
  phoneCodeDigits: { params: [] },
  phoneNumberDigits: { params: [] },
  phoneFormat: { params: [] },
  amountFormat: { params: [] },
  taxIdFormat: { params: [] },
  /** the tax number is not in its country's format (api/tax-numbers.ts); name: the number's short name, e.g. SSN/ITIN */
  taxIdCountryFormat: { params: ['name'] },
  /** the tax number has its country's shape but its check digits do not match */
  taxIdCheckDigit: { params: ['name'] },
  recoveryCodeFormat: { params: [] },
  // --- dates and ordering ---
  notInFuture: { params: [] },
  notInPast: { params: [] },
  notBefore: { params: ['other'] },
  notLessThan: { params: ['other'] },
  afterIssueDate: { params: [] },
  laterThanToday: { params: [] },
  tooOld: { params: ['days'] },
  // --- the request itself (server/modules/platform) ---
  notJson: { params: [] },
  notJsonBody: { params: [] },
  notCustomerId: { params: [] },
  tooManyFiles: { params: ['max'] },
  idempotencyKeyRequired: { params: [] },
  idempotencyKeyMalformed: { params: [] },
  idempotencyKeyReused: { params: [] },
  notId: { params: [] },
  controlCharacters: { params: [] },
  methodMismatch: { params: [] },
  fieldNotTaken: { params: [] },
  requestTooLarge: { params: ['maxMb'] },
  // --- files and documents ---
  fileTooLarge: { params: ['maxMb'] },
  fileEmpty: { params: [] },
  fileWrongType: { params: [] },
  fileUnexpected: { params: [] },
  fileDuplicate: { params: [] },
  // --- CSV files of mass transfers (api/mass.ts) ---
  csvNotText: { params: [] },
  csvNoRows: { params: [] },
  csvTooManyRows: { params: ['max'] },
  csvMissingColumn: { params: ['column'] },
  csvUnknownColumn: { params: ['column'] },
  csvCellCount: { params: ['expected'] },
  csvQuotes: { params: [] },
  csvFormula: { params: [] },
  fileActivePdf: { params: [] },
  filePolyglot: { params: [] },
  documentQuota: { params: ['files', 'maxMb'] },
  unknownFileField: { params: [] },
  requiredWithFile: { params: [] },
  notDocument: { params: [] },
  notDocumentType: { params: [] },
  residentsOnly: { params: ['countries'] },
  subDocument: { params: [] },
  pageOfOther: { params: [] },
  documentConfirmed: { params: [] },
  statusAlready: { params: [] },
  ownerAlready: { params: [] },
  notJob: { params: [] },
  jobByProvider: { params: ['provider'] },
  jobDecided: { params: ['status'] },
  jobExpired: { params: [] },
  // --- customers and profile ---
  notCustomer: { params: [] },
  notLimited: { params: [] },
  notYourPosition: { params: [] },
  phoneAlreadyYours: { params: [] },
  emailAlreadyYours: { params: [] },
  confirmedAlready: { params: [] },
  notConfirmed: { params: [] },
  primaryEmail: { params: [] },
  usernameYours: { params: [] },
  usernameTaken: { params: [] },
  requestNotActive: { params: ['status'] },
  codeOrVerification: { params: [] },
  termNotCurrent: { params: [] },
  alreadyRegistered: { params: [] },
  notOffered: { params: [] },
  requiredWithPhone: { params: [] },
  waitsForIdentity: { params: ['identity'] },
  needsConfirmedPhone: { params: [] },
  // --- account recovery (issue 11: reviewed by a person, cancelable by the owner) ---
  notRecoveryTask: { params: [] },
  notWaitingForDocuments: { params: [] },
  requiredToReject: { params: [] },
  recoveryCanceled: { params: [] },
  decidedAlready: { params: [] },
  noDocumentsYet: { params: [] },
  matchesNoAccount: { params: [] },
  accountClosed: { params: [] },
  cancelTooLate: { params: [] },
  cancelExpired: { params: [] },
  // --- one-time codes (e-mail, SMS, activation, password) ---
  codeWrong: { params: [] },
  codeExpired: { params: [] },
  codeUsed: { params: [] },
  codeNotSent: { params: [] },
  codeTooManyWrong: { params: [] },
  verifierMismatch: { params: [] },
  passwordWrong: { params: [] },
  samePassword: { params: [] },
  notPendingChange: { params: [] },
  ownEmailOnly: { params: [] },
  // --- money ---
  wholeAmount: { params: ['currency'] },
  maxDecimals: { params: ['decimals', 'currency'] },
  positive: { params: [] },
  tooSmallToConvert: { params: [] },
  belowMinimum: { params: ['amount', 'currency'] },
  aboveMaximum: { params: ['amount', 'currency'] },
  dailyLimit: { params: ['left', 'currency'] },
  balanceExceeded: { params: [] },
  sameAccount: { params: [] },
  currencyOfAccounts: { params: [] },
  currencyOfAccount: { params: [] },
  hasCurrency: { params: [] },
  notCurrencyAccount: { params: ['currency'] },
  payeeUnknown: { params: [] },
  payeeSelf: { params: [] },
  payeeRefuses: { params: [] },
  payeeNoAccount: { params: ['currency'] },
  frequencyRequired: { params: [] },
  approvalCodeWrong: { params: ['triesLeft'] },
  approvalCodeUsed: { params: ['triesLeft'] },
  approvalTooManyWrong: { params: [] },
  // --- maker-checker business approvals (api/business-approvals.ts) ---
  selfApproval: { params: [] },
  businessRequestUnknown: { params: [] },
  businessRequestDecided: { params: [] },
  businessRequestExpired: { params: [] },
  // --- payees (api/payees/): IBAN, BIC, cards, crypto addresses, instant keys ---
  digitCount: { params: [] },
  routingChecksum: { params: [] },
  oneRequired: { params: [] },
  ibanFormat: { params: [] },
  ibanChecksum: { params: [] },
  ibanCountry: { params: [] },
  ibanLength: { params: [] },
  bicFormat: { params: [] },
  bicCountry: { params: [] },
  cardFormat: { params: [] },
  cardLength: { params: [] },
  cardChecksum: { params: [] },
  cardBrandUnsupported: { params: [] },
  cardBinBlocked: { params: [] },
  cryptoFormat: { params: [] },
  cryptoChecksum: { params: [] },
  cryptoNetwork: { params: [] },
  cryptoCurrencyUnsupported: { params: [] },
  taxIdChecksum: { params: [] },
  // --- cards (api/cards.ts; document 2 §4 card actions allowed by status, §5) ---
  cardStatus: { params: [] },
  cardVirtualOnly: { params: [] },
  cardPhysicalOnly: { params: [] },
  pinWeak: { params: [] },
  pinMismatch: { params: [] },
  cardDataWrong: { params: [] },
  shippingUnavailable: { params: [] },
  cardLimitReached: { params: ['max'] },
  cardPaymentsPending: { params: [] },
  // --- a company's people and access (api/business.ts) ---
  lastFullRights: { params: [] },
  ownerRights: { params: [] },
  lastDirector: { params: [] },
  representativeHasHolders: { params: [] },
  alreadyHasAccess: { params: [] },
  // --- a company's statements, resolution and representatives' links (api/business-declarations.ts) ---
  declarationNotRequired: { params: [] },
  alreadyAccepted: { params: [] },
  textNotCurrent: { params: [] },
  notYourRepresentative: { params: [] },
  notDirector: { params: [] },
  duplicateEntry: { params: [] },
  noEmailAddress: { params: [] },
  representativeIsUser: { params: [] },
  // --- business registration (api/business-registration.ts; the ownership rules' codes) ---
  shareOutOfRange: { params: [] },
  shareTooPrecise: { params: [] },
  levelTotalOutOfRange: { params: ['total'] },
  companyWithoutDirector: { params: [] },
  personWithShareholders: { params: [] },
  unknownReference: { params: [] },
  uboSourceOfFundsMissing: { params: [] },
  uboSourceOfFundsDetailsMissing: { params: [] },
  noDirector: { params: [] },
  noFullRightsUser: { params: [] },
  userWithoutRights: { params: [] },
  treeTooDeep: { params: ['max'] },
  repeated: { params: [] },
  mustAccept: { params: [] },
  draftTooLarge: { params: ['maxKb'] },
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
  return VF_DESCRIPTIONS[code].replace(/\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
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
