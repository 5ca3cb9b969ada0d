/**
 * The reference calls of transfers to the outside world (document 2 §7 "Available transfer methods
 * per country. Banks list. Extra params. ... SWIFT and IBAN lookups."; §3 "Bank details by SWIFT",
 * "Bank details by IBAN"; issue 15 item 3). The data and the checks are api/payees/ (shared with the
 * web app's forms); these are their wire shapes, under the names of operations.tsv.
 *
 * Not shown in the spec (designed here): the requests' field names beyond extraParams's
 * {paymentMethod, currencyCode, countryCode}, and the answers' wrappers. A look-up of a malformed
 * code answers VF with the check's code on the field; a well-formed code of a bank outside the
 * directory answers `bankDetails: null` (the form then asks for the bank's details by hand).
 * Reference data for any signed-in customer (api/rights.ts: self).
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { defineMethod } from './method.ts';
import { PAYOUT_METHODS } from './payees/payout-methods.ts';
import { INSTANT_KEY_TYPES } from './payees/instant.ts';

const CountryCodeSchema = v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/, VfCode.countryCodeFormat));
const PaymentMethodSchema = v.picklist(PAYOUT_METHODS, VfCode.notAllowed);
/** The currency the payee receives: any ISO 4217 code (BRL, JPY...), not only the currencies of the platform's accounts. */
const PayoutCurrencySchema = v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{3}$/, VfCode.badFormat));

/** A field of a payee form (api/payees/methods.ts PayeeField): the screen renders it as it is. */
export const PayeeFieldSchema = v.object({
  name: v.string(),
  kind: v.picklist(['text', 'select', 'email', 'phone']),
  required: v.boolean(),
  /** the check the value gets (api/payees/methods.ts PatternCode); absent for a select */
  pattern: v.optional(v.string()),
  maxLength: v.number(),
  /** pattern 'digits': how many digits, [min, max] */
  digits: v.optional(v.tuple([v.number(), v.number()])),
  /** kind 'select': the values offered (codes the view names) */
  options: v.optional(v.array(v.string())),
});

/** §3 "Bank details by SWIFT". */
export const SwiftBankSchema = v.object({
  address: v.string(),
  city: v.string(),
  zipCode: v.string(),
  countryIsoCode: v.string(),
  bankName: v.string(),
  code: v.string(),
});

/** §3 "Bank details by IBAN". */
export const IbanBankSchema = v.object({
  address: v.string(),
  branch: v.string(),
  city: v.string(),
  zipCode: v.string(),
  countryIsoCode: v.string(),
  country: v.string(),
  bankName: v.string(),
  SWIFT: v.string(),
});

export const BankSchema = v.object({
  bankName: v.string(),
  /** SWIFT/BIC */
  swift: v.string(),
  city: v.string(),
  /** the domestic clearing code a local transfer form asks for, when the country has one */
  clearingCode: v.optional(v.string()),
});

/**
 * The payout methods that reach a country in a currency (an empty list: none does). Named as the
 * spec names it; api/transfers.ts's `transferMethods` is another thing (that module's group of methods).
 */
export const transferMethods = defineMethod({
  name: 'transferMethods',
  access: 'customer',
  mutation: false,
  request: { countryCode: CountryCodeSchema, currencyCode: PayoutCurrencySchema },
  response: { methods: v.array(v.picklist(PAYOUT_METHODS)) },
});

/** The fields of a method's payee form for a country and currency (none where the method does not go there). */
export const extraParams = defineMethod({
  name: 'extraParams',
  access: 'customer',
  mutation: false,
  request: { paymentMethod: PaymentMethodSchema, currencyCode: PayoutCurrencySchema, countryCode: CountryCodeSchema },
  /** oneOf: groups of optional fields of which at least one must be filled (Interac: e-mail or phone) */
  response: { params: v.array(PayeeFieldSchema), oneOf: v.optional(v.array(v.array(v.string()))) },
});

export const banksList = defineMethod({
  name: 'banksList',
  access: 'customer',
  mutation: false,
  request: { countryCode: CountryCodeSchema },
  response: { banks: v.array(BankSchema) },
});

export const swiftLookup = defineMethod({
  name: 'swiftLookup',
  access: 'customer',
  mutation: false,
  request: { swift: v.pipe(v.string(), v.maxLength(20, VfCode.bicFormat)) },
  response: { bankDetails: v.nullable(SwiftBankSchema) },
});

export const ibanLookup = defineMethod({
  name: 'ibanLookup',
  access: 'customer',
  mutation: false,
  request: { iban: v.pipe(v.string(), v.maxLength(50, VfCode.ibanFormat)) },
  response: { bankDetails: v.nullable(IbanBankSchema) },
});

/** The card BINs the provider does not pay out to (§7; §5: the app keeps the list only if non-empty). */
export const blockedBinList = defineMethod({
  name: 'blockedBinList',
  access: 'customer',
  mutation: false,
  request: {},
  response: { bins: v.array(v.string()) },
});

/** A field of the bank and branch pair (api/payees/methods.ts bankAndBranch): how many digits it takes. */
const CodeFormatSchema = v.object({ digits: v.number() });

/**
 * branchCodeOptions {countryCode}: whether a local bank transfer (eft) to the country needs the bank
 * code and the branch code (§5: BR, JP, HK and LK), and their lengths. Not shown in the spec
 * (designed here): the answer's shape; null formats where the country's form has no such field.
 */
export const branchCodeOptions = defineMethod({
  name: 'branchCodeOptions',
  access: 'customer',
  mutation: false,
  request: { countryCode: CountryCodeSchema },
  response: { required: v.boolean(), bankCode: v.nullable(CodeFormatSchema), branchCode: v.nullable(CodeFormatSchema) },
});

/**
 * instantKeyInfo {instantKey, instantKeyType, taxId} (§7 "Instant key info"; §3 "Instant details:
 * instantInfo"): the key checked by its type's format (and the receiver's CPF/CNPJ by its check
 * digits when given), answered as the rail will take it (normalised). VF names the field.
 */
export const InstantInfoSchema = v.object({ instantKey: v.string(), instantKeyType: v.picklist(INSTANT_KEY_TYPES), taxId: v.nullable(v.string()) });
export const InstantKeyRequestEntries = {
  taxId: v.optional(v.pipe(v.string(), v.maxLength(30, VfCode.tooLong))),
  instantKey: v.pipe(v.string(), v.maxLength(100, VfCode.tooLong)),
  instantKeyType: v.picklist(INSTANT_KEY_TYPES, VfCode.notAllowed),
};
export const instantKeyInfo = defineMethod({
  name: 'instantKeyInfo',
  access: 'customer',
  mutation: false,
  request: InstantKeyRequestEntries,
  response: { instantInfo: InstantInfoSchema },
});

/** instantBankList {countryCode} (§7 "Instant bank list"): the banks an instant payout reaches there (none where instant does not go). */
export const instantBankList = defineMethod({
  name: 'instantBankList',
  access: 'customer',
  mutation: false,
  request: { countryCode: CountryCodeSchema },
  response: { banks: v.array(BankSchema) },
});

export const externalMethods = {
  branchCodeOptions,
  instantKeyInfo,
  instantBankList,
  transferMethods,
  extraParams,
  banksList,
  swiftLookup,
  ibanLookup,
  blockedBinList,
};
