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

export const externalMethods = {
  transferMethods,
  extraParams,
  banksList,
  swiftLookup,
  ibanLookup,
  blockedBinList,
};
