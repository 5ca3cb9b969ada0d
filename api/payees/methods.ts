/**
 * Payout methods as data (document 2 §3 payee flow, §6 the transfer kinds wire, eft (bank), oct
 * (card), digital (crypto), instant, interac, §7 transferMethods "available transfer methods per
 * country" and extraParams {paymentMethod, currencyCode, countryCode}; §5 "Bank branch number (bank
 * code and branch code fields) is required for EFT to BR, JP, HK, LK"; issue 15 item 3).
 *
 * Each method has routes: the countries and currencies it pays out to and the fields its form
 * renders there. The first route listing the country and the currency is the one used, so a
 * country may have a route per currency (EFT to GB: SEPA in EUR, Faster Payments in GBP). A screen
 * renders the fields as they are; validatePayeeFields checks a filled form against the same data,
 * with the checks of iban.ts, cards.ts, crypto.ts and instant.ts, and answers codes per field.
 *
 * Not shown in the spec (designed here, as a bank's app would offer it): which countries and
 * currencies each method reaches, the rails behind EFT (SEPA, Faster Payments, ACH, Canadian EFT,
 * BECS, TED, Zengin, Hong Kong's local clearing, SLIPS), every field list, length and format
 * beyond the branch-code rule, the card brands a card payout reaches (Visa Direct and Mastercard
 * Send: Visa, Mastercard, Maestro) and Interac's e-mail or phone contact.
 */
import { getCountrySpecifications } from 'ibantools';
import { BIC_CODES, checkBic, checkIban, IBAN_CODES } from './iban.ts';
import { CARD_CODES, checkCardNumber, isBlockedBin, type CardBrand } from './cards.ts';
import { checkCryptoAddress, CRYPTO_CODES, CURRENCY_NETWORKS } from './crypto.ts';
import { checkBrazilTaxId, checkInstantKey, EMAIL_KEY_MAX, EMAIL_PATTERN, INSTANT_CODES, INSTANT_KEY_TYPES, type InstantKeyType } from './instant.ts';
import { PAYOUT_METHODS, type PayoutMethod } from './payout-methods.ts';

export { PAYOUT_METHODS, type PayoutMethod };

export type FieldKind = 'text' | 'select' | 'email' | 'phone';
/** The check a field's value gets (the form may use it for its input mode and hints). */
export type PatternCode =
  | 'name'
  | 'address'
  | 'iban'
  | 'bic'
  | 'digits'
  | 'abaRouting'
  | 'accountNumber'
  | 'brazilTaxId'
  | 'cardNumber'
  | 'cryptoAddress'
  | 'instantKey'
  | 'email'
  | 'nanpPhone';

export interface PayeeField {
  name: string;
  kind: FieldKind;
  required: boolean;
  /** absent for a select: its options are the check */
  pattern?: PatternCode;
  /** the longest text the input takes */
  maxLength: number;
  /** pattern 'digits': how many digits (spaces and hyphens typed between them do not count) */
  digits?: readonly [min: number, max: number];
  /** kind 'select': the values offered (codes; the view names them) */
  options?: readonly string[];
}

export interface MethodRoute {
  /** ISO 3166 alpha-2 codes, or 'any' */
  countries: readonly string[] | 'any';
  currencies: readonly string[];
  fields: readonly PayeeField[];
  /** groups of optional fields of which at least one must be filled */
  oneOf?: readonly (readonly string[])[];
}

/** Every code a field can answer: the generic ones and those of the checks used. */
export const PAYEE_FIELD_CODES = [
  ...new Set([
    'required',
    'tooLong',
    'badFormat',
    'digitCount',
    'notAllowed',
    'fieldNotTaken',
    'routingChecksum',
    'phoneFormat',
    'notEmail',
    'cardBrandUnsupported',
    'oneRequired',
    ...IBAN_CODES,
    ...BIC_CODES,
    ...CARD_CODES,
    ...CRYPTO_CODES,
    ...INSTANT_CODES,
  ] as const),
];
export type PayeeFieldCode = (typeof PAYEE_FIELD_CODES)[number];
export interface PayeeFieldIssue {
  field: string;
  code: PayeeFieldCode;
}

const COUNTRY_SPECS = getCountrySpecifications();
/** Countries that issue IBANs (the IBAN registry, as ibantools has it). */
const IBAN_COUNTRIES = Object.keys(COUNTRY_SPECS).filter((code) => COUNTRY_SPECS[code]?.chars);
/** The SEPA scheme's countries (ibantools), reached in EUR by SEPA credit transfer. */
const SEPA_COUNTRIES = Object.keys(COUNTRY_SPECS).filter((code) => COUNTRY_SPECS[code]?.SEPA);
/** The platform's fiat currencies (api/transfers.ts FIAT_CURRENCIES): what a card payout is sent in. */
const CARD_CURRENCIES = ['EUR', 'USD', 'AUD', 'CAD', 'GBP', 'RON'] as const;
/** What a wire is sent in: the platform's fiat currencies and the other majors banks take by SWIFT. */
const WIRE_CURRENCIES = [...CARD_CURRENCIES, 'CHF', 'JPY'] as const;
/** The card brands a card payout (OCT) reaches: Visa Direct (Visa) and Mastercard Send (Mastercard, Maestro). */
export const OCT_CARD_BRANDS: readonly CardBrand[] = ['visa', 'mastercard', 'maestro'];
export const ACCOUNT_TYPES = ['checking', 'savings'] as const;
/** Japan's deposit types: ordinary (futsu) and current (toza). */
export const JP_ACCOUNT_TYPES = ['ordinary', 'current'] as const;

const text = (name: string, pattern: PatternCode, maxLength: number, required = true): PayeeField => ({ name, kind: 'text', required, pattern, maxLength });
const digits = (name: string, min: number, max: number): PayeeField => ({
  name,
  kind: 'text',
  required: true,
  pattern: 'digits',
  maxLength: max + 4,
  digits: [min, max],
});
const select = (name: string, options: readonly string[]): PayeeField => ({
  name,
  kind: 'select',
  required: true,
  maxLength: Math.max(...options.map((o) => o.length)),
  options,
});

const beneficiaryName = text('beneficiaryName', 'name', 140);
const beneficiaryAddress = text('beneficiaryAddress', 'address', 140);
const iban = text('iban', 'iban', 42);
const swiftCode = text('swiftCode', 'bic', 11);
/** §5: EFT to BR, JP, HK and LK needs the bank code and the branch code. */
const bankAndBranch = (bankDigits: number, branchDigits: number): PayeeField[] => [
  digits('bankCode', bankDigits, bankDigits),
  digits('branchCode', branchDigits, branchDigits),
];

export const PAYOUT_ROUTES: Readonly<Record<PayoutMethod, readonly MethodRoute[]>> = {
  // SWIFT wire to any country: an IBAN where the country issues them, else an account number
  wire: [
    { countries: IBAN_COUNTRIES, currencies: WIRE_CURRENCIES, fields: [beneficiaryName, beneficiaryAddress, iban, swiftCode] },
    {
      countries: 'any',
      currencies: WIRE_CURRENCIES,
      fields: [beneficiaryName, beneficiaryAddress, text('accountNumber', 'accountNumber', 34), swiftCode, text('bankName', 'name', 140, false)],
    },
  ],
  // local bank transfer on each country's own rail
  eft: [
    { countries: SEPA_COUNTRIES, currencies: ['EUR'], fields: [beneficiaryName, iban, { ...swiftCode, required: false }] },
    { countries: ['RO'], currencies: ['RON'], fields: [beneficiaryName, iban] },
    { countries: ['GB'], currencies: ['GBP'], fields: [beneficiaryName, digits('sortCode', 6, 6), digits('accountNumber', 8, 8)] },
    {
      countries: ['US'],
      currencies: ['USD'],
      fields: [beneficiaryName, text('routingNumber', 'abaRouting', 11), digits('accountNumber', 4, 17), select('accountType', ACCOUNT_TYPES)],
    },
    {
      countries: ['CA'],
      currencies: ['CAD'],
      fields: [beneficiaryName, digits('institutionNumber', 3, 3), digits('transitNumber', 5, 5), digits('accountNumber', 7, 12)],
    },
    { countries: ['AU'], currencies: ['AUD'], fields: [beneficiaryName, digits('bsb', 6, 6), digits('accountNumber', 6, 9)] },
    {
      countries: ['BR'],
      currencies: ['BRL'],
      fields: [
        beneficiaryName,
        text('taxId', 'brazilTaxId', 18),
        ...bankAndBranch(3, 4),
        text('accountNumber', 'accountNumber', 14),
        select('accountType', ACCOUNT_TYPES),
      ],
    },
    {
      countries: ['JP'],
      currencies: ['JPY'],
      fields: [beneficiaryName, ...bankAndBranch(4, 3), select('accountType', JP_ACCOUNT_TYPES), digits('accountNumber', 7, 7)],
    },
    { countries: ['HK'], currencies: ['HKD'], fields: [beneficiaryName, ...bankAndBranch(3, 3), digits('accountNumber', 6, 12)] },
    { countries: ['LK'], currencies: ['LKR'], fields: [beneficiaryName, ...bankAndBranch(4, 3), digits('accountNumber', 6, 16)] },
  ],
  // push to a card (original credit transaction)
  oct: [{ countries: 'any', currencies: CARD_CURRENCIES, fields: [text('cardHolderName', 'name', 100), text('cardNumber', 'cardNumber', 23)] }],
  // crypto withdrawal: a token on several networks asks which one first
  digital: Object.entries(CURRENCY_NETWORKS).map(([currency, networks]) => ({
    countries: 'any' as const,
    currencies: [currency],
    fields: [...(networks.length > 1 ? [select('network', networks)] : []), text('walletAddress', 'cryptoAddress', 100)],
  })),
  // Brazil's PIX
  instant: [
    {
      countries: ['BR'],
      currencies: ['BRL'],
      fields: [select('instantKeyType', INSTANT_KEY_TYPES), text('instantKey', 'instantKey', EMAIL_KEY_MAX), text('taxId', 'brazilTaxId', 18)],
    },
  ],
  // Interac e-Transfer, to an e-mail address or a Canadian mobile number
  interac: [
    {
      countries: ['CA'],
      currencies: ['CAD'],
      fields: [
        beneficiaryName,
        { name: 'email', kind: 'email', required: false, pattern: 'email', maxLength: 254 },
        { name: 'phone', kind: 'phone', required: false, pattern: 'nanpPhone', maxLength: 20 },
      ],
      oneOf: [['email', 'phone']],
    },
  ],
};

/** The route a method takes to a country in a currency, or null where it does not go. */
export function payoutRoute(method: PayoutMethod, countryCode: string, currencyCode: string): MethodRoute | null {
  const country = countryCode.toUpperCase();
  const currency = currencyCode.toUpperCase();
  // only ISO 3166 countries (ibantools lists them all, IBAN or not)
  if (!COUNTRY_SPECS[country]) return null;
  return PAYOUT_ROUTES[method].find((route) => (route.countries === 'any' || route.countries.includes(country)) && route.currencies.includes(currency)) ?? null;
}

/** §7 transferMethods: the methods that pay out to the country in the currency, in PAYOUT_METHODS order. */
export function availableMethods(countryCode: string, currencyCode: string): PayoutMethod[] {
  return PAYOUT_METHODS.filter((method) => payoutRoute(method, countryCode, currencyCode));
}

/** §7 extraParams: the fields the form renders for the method, country and currency (none where the method does not go). */
export function payeeFields(method: PayoutMethod, countryCode: string, currencyCode: string): readonly PayeeField[] {
  return payoutRoute(method, countryCode, currencyCode)?.fields ?? [];
}

/** ABA routing number: 9 digits whose weighted sum (3, 7, 1 repeated) is a multiple of 10. */
export function abaRoutingValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return [...routing].reduce((sum, digit, i) => sum + Number(digit) * (weights[i] ?? 0), 0) % 10 === 0;
}

interface CheckContext {
  /** the countries the route reaches ('any' where the fields came without them: the platform checks) */
  countries: MethodRoute['countries'];
  currencyCode: string;
  values: Readonly<Record<string, string>>;
  blockedBins: readonly string[];
}
type FieldCheck = (value: string, field: PayeeField, context: CheckContext) => PayeeFieldCode | null;

const stripSeparators = (value: string): string => value.replace(/[\s-]/g, '');

const PATTERN_CHECKS: Readonly<Record<PatternCode, FieldCheck>> = {
  name: (value) => (/\p{L}/u.test(value) && /^[\p{L}\p{M}\p{N} '.,&()/-]+$/u.test(value) ? null : 'badFormat'),
  address: (value) => (/[\p{L}\p{N}]/u.test(value) ? null : 'badFormat'),
  iban: (value, _field, { countries }) => {
    const check = checkIban(value);
    if (!check.ok) return check.code;
    // the route's rail reaches only its countries' accounts (SEPA: a SEPA country's IBAN)
    return countries === 'any' || countries.includes(check.countryCode) ? null : 'ibanCountry';
  },
  bic: (value) => {
    const check = checkBic(value);
    return check.ok ? null : check.code;
  },
  digits: (value, field) => {
    const number = stripSeparators(value);
    if (!/^\d+$/.test(number)) return 'badFormat';
    const [min, max] = field.digits ?? [1, field.maxLength];
    return number.length < min || number.length > max ? 'digitCount' : null;
  },
  abaRouting: (value) => {
    const routing = stripSeparators(value);
    if (!/^\d{9}$/.test(routing)) return 'badFormat';
    return abaRoutingValid(routing) ? null : 'routingChecksum';
  },
  // letters and digits, hyphens between them (a Brazilian account's check digit: 12345-6)
  accountNumber: (value) => (/^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/.test(value.replace(/\s/g, '')) ? null : 'badFormat'),
  brazilTaxId: (value) => {
    const check = checkBrazilTaxId(value);
    return check.ok ? null : check.code;
  },
  cardNumber: (value, _field, { blockedBins }) => {
    const check = checkCardNumber(value);
    if (!check.ok) return check.code;
    if (!check.brand || !OCT_CARD_BRANDS.includes(check.brand)) return 'cardBrandUnsupported';
    return isBlockedBin(check.number, blockedBins) ? 'cardBinBlocked' : null;
  },
  cryptoAddress: (value, _field, { currencyCode, values }) => {
    const networks = CURRENCY_NETWORKS[currencyCode] ?? [];
    const network = networks.find((candidate) => candidate === values.network);
    // a currency on several networks is checked on the one chosen; without one the select answers
    if (networks.length > 1 && !network) return null;
    const check = checkCryptoAddress(currencyCode, value, network);
    return check.ok ? null : check.code;
  },
  instantKey: (value, _field, { values }) => {
    const type = values.instantKeyType;
    // without a valid key type the select answers; the key cannot be judged
    if (!type || !(INSTANT_KEY_TYPES as readonly string[]).includes(type)) return null;
    const check = checkInstantKey(type as InstantKeyType, value);
    return check.ok ? null : check.code;
  },
  email: (value) => (EMAIL_PATTERN.test(value) ? null : 'notEmail'),
  // a North American number: area code and exchange not starting with 0 or 1, +1 optional
  nanpPhone: (value) => (/^(\+?1)?[2-9]\d{2}[2-9]\d{6}$/.test(value.replace(/[\s().-]/g, '')) ? null : 'phoneFormat'),
};

/** A field as a screen received it: a pattern this code does not know gets no check here (the platform checks). */
export type ReceivedPayeeField = Omit<PayeeField, 'pattern' | 'digits' | 'options'> & {
  pattern?: string | undefined;
  digits?: readonly [number, number] | undefined;
  options?: readonly string[] | undefined;
};

function fieldCode(field: ReceivedPayeeField, value: string, context: CheckContext): PayeeFieldCode | null {
  if (!value) return field.required ? 'required' : null;
  if (field.options) return field.options.includes(value) ? null : 'notAllowed';
  if (value.length > field.maxLength) return 'tooLong';
  const check = field.pattern && Object.hasOwn(PATTERN_CHECKS, field.pattern) ? PATTERN_CHECKS[field.pattern as PatternCode] : null;
  return check ? check(value, field as PayeeField, context) : null;
}

/**
 * A payee form's values checked against the method's fields for the country and currency: every
 * field with its code, empty when all is well. Each field of a oneOf group left all empty answers
 * oneRequired; a value for a field the route does not have is refused (fieldNotTaken).
 * `blockedBins` is the platform's blocked card BIN list (§7 blockedBinList). Where the method does
 * not go, the answer names countryCode (notAllowed).
 */
export function validatePayeeFields(
  target: { method: PayoutMethod; countryCode: string; currencyCode: string },
  values: Readonly<Record<string, string>>,
  options: { blockedBins?: readonly string[] } = {},
): PayeeFieldIssue[] {
  const route = payoutRoute(target.method, target.countryCode, target.currencyCode);
  if (!route) return [{ field: 'countryCode', code: 'notAllowed' }];
  return checkPayeeValues(route, values, { currencyCode: target.currencyCode, blockedBins: options.blockedBins });
}

/**
 * The same checks on a form as a screen received it (extraParams: its fields and oneOf groups,
 * without the countries of the route, so an IBAN's country is left to the platform).
 */
export function checkPayeeValues(
  form: { fields: readonly ReceivedPayeeField[]; oneOf?: MethodRoute['oneOf']; countries?: MethodRoute['countries'] },
  values: Readonly<Record<string, string>>,
  options: { currencyCode: string; blockedBins?: readonly string[] | undefined },
): PayeeFieldIssue[] {
  const trimmed = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, value.trim()]));
  const context: CheckContext = { countries: form.countries ?? 'any', currencyCode: options.currencyCode.toUpperCase(), values: trimmed, blockedBins: options.blockedBins ?? [] };
  const unknown = Object.keys(values).filter((name) => !form.fields.some((field) => field.name === name));
  const issues: PayeeFieldIssue[] = unknown.map((field) => ({ field, code: 'fieldNotTaken' }));
  for (const field of form.fields) {
    const code = fieldCode(field, trimmed[field.name] ?? '', context);
    if (code) issues.push({ field: field.name, code });
  }
  for (const group of form.oneOf ?? []) {
    if (group.every((name) => !trimmed[name])) issues.push(...group.map((field) => ({ field, code: 'oneRequired' as const })));
  }
  return issues;
}
