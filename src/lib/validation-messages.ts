/**
 * The platform's validation errors in the customer's language. Every entry of a `validationErrors`
 * list carries a code from api/errors.ts with its parameters; this module holds one sentence per
 * code. The record is typed over every code, so `npx tsc` fails when a code has no sentence, and
 * tests/unit/validation-codes.test.ts fails when a catalog lacks its translation.
 *
 * The platform's English `description` is shown only for an error without a known code (another
 * platform's answer): ours always carry one.
 */
import { plural, t } from '@lingui/core/macro';
import type { ValidationError } from '../../api/envelope.ts';
import { isVfCode, type VfCode, type VfParamValue, type VfParams } from '../../api/errors.ts';
import { payeeSentences } from '../features/payees/validation-messages.ts';

type Sentences = { readonly [C in VfCode]: (p: VfParams<C>) => string };

const num = (value: VfParamValue): number => (typeof value === 'number' ? value : Number(value));

/** One sentence per code; the views show it next to the field or in the failure's text. */
const sentences: Sentences = {
  required: () => t`This field is required.`,
  wrongType: () => t`This value has the wrong type.`,
  notAllowed: () => t`Choose one of the offered values.`,
  invalid: () => t`This value is not valid.`,
  badFormat: () => t`This value is not in the expected format.`,
  tooShort: ({ min }) => plural(num(min), { one: 'Enter at least # character.', other: 'Enter at least # characters.' }),
  tooLong: ({ max }) => plural(num(max), { one: 'Enter at most # character.', other: 'Enter at most # characters.' }),
  tooFewItems: ({ min }) => plural(num(min), { one: 'Choose at least # item.', other: 'Choose at least # items.' }),
  tooManyItems: ({ max }) => plural(num(max), { one: 'Choose at most # item.', other: 'Choose at most # items.' }),
  tooSmall: ({ min }) => t`Enter ${min} or more.`,
  tooLarge: ({ max }) => t`Enter ${max} or less.`,
  notInteger: () => t`Enter a whole number.`,
  notEmail: () => t`Enter an e-mail address.`,
  notDate: () => t`Enter a date.`,
  needsLetter: () => t`The password must contain a letter.`,
  needsDigit: () => t`The password must contain a digit.`,
  notCountry: () => t`Choose a country from the list.`,
  countryCodeFormat: () => t`Enter a two-letter country code.`,
  sixDigitCode: () => t`Enter the 6-digit code.`,
  phoneCodeDigits: () => t`Enter a country calling code of 1 to 4 digits.`,
  phoneNumberDigits: () => t`Enter a phone number of 4 to 15 digits.`,
  phoneFormat: () => t`Enter a phone number.`,
  amountFormat: () => t`Enter an amount, such as 12.50.`,
  taxIdFormat: () => t`Enter a tax number of 3 to 30 letters and digits.`,
  recoveryCodeFormat: () => t`Enter a recovery code such as 7KQ4M-2XH9P.`,
  notInFuture: () => t`The date must not be in the future.`,
  notInPast: () => t`The date must not be in the past.`,
  notBefore: () => t`The end date must not be before the start date.`,
  notLessThan: () => t`The largest amount must not be less than the smallest.`,
  afterIssueDate: () => t`The expiry date must be after the issue date.`,
  laterThanToday: () => t`Choose a day after today.`,
  tooOld: ({ days }) => plural(num(days), { one: 'The document must be at most # day old.', other: 'The document must be at most # days old.' }),
  notJson: () => t`The request could not be read.`,
  notCustomerId: () => t`The request could not be read.`,
  tooManyFiles: ({ max }) => plural(num(max), { one: 'Send at most # file at once.', other: 'Send at most # files at once.' }),
  idempotencyKeyRequired: () => t`The request could not be read.`,
  idempotencyKeyMalformed: () => t`The request could not be read.`,
  idempotencyKeyReused: () => t`This request was already sent with other details. Start again.`,
  notId: () => t`This reference is not valid.`,
  controlCharacters: () => t`Remove the invisible control characters from this field.`,
  methodMismatch: () => t`The request could not be read.`,
  notJsonBody: () => t`The request could not be read.`,
  fieldNotTaken: () => t`The request could not be read.`,
  requestTooLarge: ({ maxMb }) => t`The files together must be at most ${maxMb} MB.`,
  fileTooLarge: ({ maxMb }) => t`The file must be at most ${maxMb} MB.`,
  fileEmpty: () => t`The file is empty.`,
  fileWrongType: () => t`The file must be a PDF, JPEG or PNG file.`,
  fileUnexpected: () => t`This page is not needed for this document type.`,
  fileDuplicate: () => t`Send each file once.`,
  csvNotText: () => t`The file must be a CSV text file (UTF-8). Save it again as CSV.`,
  csvNoRows: () => t`The file has no payments in it.`,
  csvTooManyRows: ({ max }) => t`A batch can have at most ${max} payments. Split the file.`,
  csvMissingColumn: ({ column }) => t`The file needs a column named ${column}.`,
  csvUnknownColumn: ({ column }) => t`The file has a column this batch does not take: ${column}.`,
  csvCellCount: ({ expected }) => t`This line must have ${expected} values, as the header has.`,
  csvQuotes: () => t`This line has a quote that is not closed.`,
  csvFormula: () => t`A value cannot start with = + - or @ (a spreadsheet formula).`,
  fileActivePdf: () => t`This PDF contains scripts, automatic actions or attached files. Save it again as a plain PDF or send a photo.`,
  filePolyglot: () => t`This file is not a plain PDF, JPEG or PNG file. Save it again or send a photo.`,
  documentQuota: ({ files, maxMb }) => t`Your document storage is full (${files} files, ${maxMb} MB). Delete documents you no longer need.`,
  unknownFileField: () => t`A file was sent that this form does not take.`,
  requiredWithFile: () => t`This field is required with its file.`,
  notDocument: () => t`This document does not exist.`,
  notDocumentType: () => t`Choose a document type of this kind.`,
  residentsOnly: ({ countries }) => t`This document type is accepted only from residents of ${countries}.`,
  subDocument: () => t`This is a page of another document: decide on the main document.`,
  pageOfOther: () => t`This is a page of another document: delete that document.`,
  documentConfirmed: () => t`A confirmed document cannot be deleted.`,
  statusAlready: () => t`The document already has this status.`,
  ownerAlready: () => t`The document already belongs to this customer.`,
  notJob: () => t`This verification job does not exist.`,
  jobByProvider: ({ provider }) => t`This job is decided by its provider (${provider}).`,
  jobDecided: () => t`This job was already decided.`,
  jobExpired: () => t`This job has expired: the customer starts a new one.`,
  notCustomer: () => t`This customer does not exist.`,
  notLimited: () => t`This account is not limited.`,
  notYourPosition: () => t`You do not hold this position for this customer.`,
  phoneAlreadyYours: () => t`This phone number is already one of yours.`,
  emailAlreadyYours: () => t`This e-mail address is already one of yours.`,
  confirmedAlready: () => t`This is confirmed already.`,
  notConfirmed: () => t`Confirm this e-mail address first.`,
  primaryEmail: () => t`This is your primary address: make another one primary first.`,
  usernameYours: () => t`This is your username already.`,
  usernameTaken: () => t`This username is taken.`,
  requestNotActive: () => t`This request is no longer waiting for its code.`,
  codeOrVerification: () => t`Enter the code.`,
  termNotCurrent: () => t`These terms have changed: read the current version.`,
  alreadyRegistered: () => t`This e-mail address is already registered.`,
  notOffered: () => t`This option is not offered.`,
  requiredWithPhone: () => t`Enter the phone number together with its country code.`,
  waitsForIdentity: () => t`This request is waiting for your identity check.`,
  needsConfirmedPhone: () => t`Confirm a primary phone number first.`,
  notRecoveryTask: () => t`This recovery request was not found.`,
  notWaitingForDocuments: () => t`This recovery request is not waiting for documents.`,
  requiredToReject: () => t`Give a reason to reject.`,
  recoveryCanceled: () => t`The account owner canceled this recovery request.`,
  decidedAlready: () => t`This request has been decided already.`,
  noDocumentsYet: () => t`No documents have been uploaded for this request yet.`,
  matchesNoAccount: () => t`This request matches no account: reject it.`,
  accountClosed: () => t`This account is closed: reject the request.`,
  cancelTooLate: () => t`It is too late to cancel: the recovery was completed. Contact support.`,
  cancelExpired: () => t`The 24 hours to cancel have passed. Contact support.`,
  codeWrong: () => t`The code is wrong.`,
  codeExpired: () => t`The code has expired: ask for a new one.`,
  codeUsed: () => t`The code has already been used: sign in.`,
  codeNotSent: () => t`No code was sent: ask for a code first.`,
  codeTooManyWrong: () => t`The code was entered wrong too many times: ask for a new one.`,
  verifierMismatch: () => t`The code was not asked for on this device.`,
  passwordWrong: () => t`The password is wrong.`,
  samePassword: () => t`The new password must differ from the current one.`,
  notPendingChange: () => t`This password change is no longer waiting.`,
  ownEmailOnly: () => t`Use the e-mail address you sign in with.`,
  wholeAmount: ({ currency }) => t`Enter a whole amount of ${currency}.`,
  maxDecimals: ({ decimals, currency }) => plural(num(decimals), { one: `Enter at most # decimal in ${currency}.`, other: `Enter at most # decimals in ${currency}.` }),
  positive: () => t`The amount must be more than 0.`,
  tooSmallToConvert: () => t`The amount is too small to convert.`,
  belowMinimum: ({ amount, currency }) => t`The amount must be at least ${amount} ${currency}.`,
  aboveMaximum: ({ amount, currency }) => t`The amount must be at most ${amount} ${currency} per transfer.`,
  dailyLimit: ({ left, currency }) => t`The amount exceeds today's limit (${left} ${currency} left).`,
  balanceExceeded: () => t`The amount exceeds the available balance.`,
  sameAccount: () => t`Choose an account other than the source.`,
  currencyOfAccounts: () => t`Choose the currency of the source or the destination account.`,
  currencyOfAccount: () => t`Choose the currency of the account.`,
  hasCurrency: () => t`You already have an account in this currency.`,
  notCurrencyAccount: ({ currency }) => t`This is not a ${currency} account.`,
  payeeUnknown: () => t`No customer can receive money at this e-mail address.`,
  payeeSelf: () => t`You cannot send money to yourself.`,
  payeeRefuses: () => t`The payee does not accept money from you.`,
  payeeNoAccount: ({ currency }) => t`The payee has no account in ${currency}.`,
  frequencyRequired: () => t`Choose how often the transfer repeats.`,
  approvalCodeWrong: ({ triesLeft }) => plural(num(triesLeft), { one: 'The code is wrong (# try left).', other: 'The code is wrong (# tries left).' }),
  approvalCodeUsed: ({ triesLeft }) =>
    plural(num(triesLeft), { one: 'This code was already used; wait for the next one (# try left).', other: 'This code was already used; wait for the next one (# tries left).' }),
  approvalTooManyWrong: () => t`Too many wrong codes: the transfer was rejected.`,
  selfApproval: () => t`You initiated this payment: another user of the company must approve or decline it.`,
  businessRequestUnknown: () => t`This payment is not waiting for the company's approval.`,
  businessRequestDecided: () => t`This payment was already approved or declined.`,
  businessRequestExpired: () => t`The time to decide on this has run out.`,
  ...payeeSentences,
  cardStatus: () => t`This card's status does not allow this.`,
  cardVirtualOnly: () => t`Only a virtual card can be renamed.`,
  cardPhysicalOnly: () => t`A virtual card is never printed or shipped.`,
  pinWeak: () => t`Choose a PIN that is harder to guess: not one digit repeated and not a run such as 1234.`,
  pinMismatch: () => t`The two PINs do not match.`,
  cardDataWrong: () => t`This does not match the card. Check the digits printed on it.`,
  shippingUnavailable: () => t`This delivery option is not available for this card and address.`,
  cardLimitReached: ({ max }) => plural(num(max), { one: 'You already hold # card of this kind.', other: 'You already hold # cards of this kind.' }),
  cardPaymentsPending: () => t`A card this change would cancel still has card payments pending. Try again once they have posted.`,
  lastFullRights: () => t`The company must keep at least one user with full access.`,
  ownerRights: () => t`The company's owner always keeps full access.`,
  lastDirector: () => t`The company's only director cannot be removed.`,
  representativeHasHolders: () => t`Remove its own shareholders and directors first.`,
  alreadyHasAccess: () => t`This person already has access to the company.`,
};

/** The sentence of a code with its parameters (missing ones read as empty). */
export function vfSentence(code: VfCode, params: Readonly<Record<string, VfParamValue>> = {}): string {
  const translate = sentences[code] as (p: Readonly<Record<string, VfParamValue>>) => string;
  return translate(new Proxy(params, { get: (target, name: string) => target[name] ?? '' }));
}

/** One validation error in the customer's language. */
export function validationMessage(error: ValidationError): string {
  return isVfCode(error.code) ? vfSentence(error.code, error.params ?? {}) : error.description;
}

/** A VF list in the customer's language, one sentence after another. */
export function validationMessages(errors: readonly ValidationError[]): string {
  return errors.map(validationMessage).join(' ');
}
