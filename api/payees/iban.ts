/**
 * IBAN and SWIFT/BIC checks for payee forms and the platform (document 2 §3 "Bank details by
 * SWIFT" and "Bank details by IBAN", §7 swiftLookup and ibanLookup; issue 15 item 3), on top of
 * `ibantools` (the IBAN registry's country lengths and BBAN formats, ISO 3166 countries for BIC).
 *
 * Answers are codes, never sentences: the views turn a code into the customer's language.
 */
import { extractIBAN, friendlyFormatIBAN, getCountrySpecifications, validateBIC, validateIBAN, ValidationErrorsIBAN } from 'ibantools';

export const IBAN_CODES = ['ibanFormat', 'ibanChecksum', 'ibanCountry', 'ibanLength'] as const;
export type IbanCode = (typeof IBAN_CODES)[number];
export const BIC_CODES = ['bicFormat', 'bicCountry'] as const;
export type BicCode = (typeof BIC_CODES)[number];

export type IbanCheck = { ok: true; iban: string; countryCode: string; bankCode?: string; branchCode?: string } | { ok: false; code: IbanCode };
export type BicCheck =
  { ok: true; bic: string; bankCode: string; countryCode: string; locationCode: string; branchCode?: string } | { ok: false; code: BicCode };

const COUNTRY_SPECS = getCountrySpecifications();

/**
 * Where the national bank code sits inside the BBAN, for IBAN countries whose bank code ibantools
 * does not extract (positions in the BBAN, end excluded). UA: the 6-digit MFO code.
 */
const BANK_CODE_IN_BBAN: Readonly<Record<string, readonly [number, number]>> = { UA: [0, 6] };

/** An IBAN as people read and type it: groups of four (ibantools' friendly format). */
export function printIban(iban: string): string {
  return friendlyFormatIBAN(iban) ?? iban;
}

/** The text as an IBAN or BIC is compared: white space removed, upper case (a pasted "de89 3704 ..." is fine). */
export function normaliseBankCode(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

/** Does the country issue IBANs (it is in the IBAN registry with a length)? */
export function isIbanCountry(countryCode: string): boolean {
  return Boolean(COUNTRY_SPECS[countryCode]?.chars);
}

/**
 * An IBAN: two letters, two check digits, then the country's BBAN; the country's length, its BBAN
 * format, the mod-97 check digits and, where a country has them, its national check digits
 * (answered as ibanChecksum too: a mistyped digit either way).
 */
export function checkIban(text: string): IbanCheck {
  const iban = normaliseBankCode(text);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(iban)) return { ok: false, code: 'ibanFormat' };
  const length = COUNTRY_SPECS[iban.slice(0, 2)]?.chars;
  if (!length) return { ok: false, code: 'ibanCountry' };
  if (iban.length !== length) return { ok: false, code: 'ibanLength' };
  const errors = validateIBAN(iban).errorCodes;
  // ibantools reports a wrong BBAN format as a wrong checksum as well: the format is the cause.
  if (errors.includes(ValidationErrorsIBAN.WrongBBANFormat)) return { ok: false, code: 'ibanFormat' };
  if (errors.length > 0) return { ok: false, code: 'ibanChecksum' };
  const parts = extractIBAN(iban);
  const countryCode = iban.slice(0, 2);
  const position = BANK_CODE_IN_BBAN[countryCode];
  const bankCode = parts.bankIdentifier ?? (position ? iban.slice(4 + position[0], 4 + position[1]) : undefined);
  return {
    ok: true,
    iban,
    countryCode,
    ...(bankCode ? { bankCode } : {}),
    ...(parts.branchIdentifier ? { branchCode: parts.branchIdentifier } : {}),
  };
}

/**
 * A SWIFT/BIC: 4 letters of the bank, an ISO 3166 country, 2 characters of the location and
 * optionally 3 of the branch (8 or 11 characters). "XXX" as the branch is the head office.
 */
export function checkBic(text: string): BicCheck {
  const bic = normaliseBankCode(text);
  if (!/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) return { ok: false, code: 'bicFormat' };
  if (!validateBIC(bic).valid) return { ok: false, code: 'bicCountry' };
  return {
    ok: true,
    bic,
    bankCode: bic.slice(0, 4),
    countryCode: bic.slice(4, 6),
    locationCode: bic.slice(6, 8),
    ...(bic.length === 11 ? { branchCode: bic.slice(8) } : {}),
  };
}

/** The 8-character form of a BIC (the head office's "XXX" dropped), to compare BICs given either way. */
export function bic8(bic: string): string {
  return normaliseBankCode(bic).slice(0, 8);
}
