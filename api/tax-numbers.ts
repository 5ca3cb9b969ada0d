/**
 * The per-country tax-number table (document 3 §9 "Per-country tax-number table", §5 "Tax"):
 * for every ISO 3166-1 alpha-2 country (the 250 codes of the countries dictionary, XK included)
 * the personal and the business tax number's name and short name, whether each is required,
 * whether the country takes part in the OECD Common Reporting Standard, and a format check
 * (with its check digits) where the country publishes one. Pure: no I/O, shared by the web app
 * and the platform; the platform serves the rows (without the checks) as `dictionaryTaxNumbers`.
 *
 * Decisions (the spec shows no rows):
 * - Sources: the OECD "Tax Identification Numbers (TINs)" country sheets (names, structure and
 *   check-digit algorithms), the OECD list of CRS participating jurisdictions (the `crs` flag)
 *   and the national tax authorities named at each row. Names are English data like the
 *   countries dictionary's English names; the short name is the number's own acronym (SSN, NIF).
 * - `required`: the number is issued to every resident person (personal) or every registered
 *   entity (business) by the country, per its OECD sheet, so a resident always has one. Where
 *   numbers are issued only on request or to some taxpayers the entry is not required (§5: the
 *   tax id is optional then).
 * - A country with no row of its own gets the generic, not-required entry ("Tax identification
 *   number", "TIN") with no format check beyond the contract's 3 to 30 letters and digits; it
 *   keeps the country's own `crs` flag.
 * - `crs`: jurisdictions committed to automatic exchange under the CRS per the OECD list
 *   (status 2025: exchanges from 2017 to 2027). The United States is not a CRS jurisdiction (it
 *   exchanges under FATCA); neither are jurisdictions that have not committed.
 * - Normalising: trim, upper-case, then drop spaces, dots, dashes and slashes (every format here
 *   allows them as separators; Finland's "-" century sign goes with them, its other signs stay);
 *   a country's VAT prefix (RO, IT, PT, PL, HR, DK, BE, FI, ES) is dropped where the business
 *   check accepts the VAT number; Germany's USt-IdNr keeps its DE and the Swiss UID its CHE.
 *   The checked value is this compact form, and the platform stores it; a country without a
 *   check keeps the number as the contract gave it (trimmed, upper-case).
 * - A check answers `{ ok: true, value }` or `{ ok: false, code }` with code `format` (shape,
 *   length or a reserved range) or `checkDigit` (the shape is right, the check digits are not).
 * - Only published rules are checked: a reserved range (US SSN 000/666/9xx, EIN prefixes never
 *   assigned, Canada SIN starting 0 or 8) is a `format` refusal; numbers whose structure varies
 *   by region with no common check (Germany's Steuernummer, Canada's BN, India's PAN) are
 *   checked for shape only.
 * - Where a country has two personal numbers in use (UK UTR and NINO, US SSN and ITIN, Spain
 *   DNI and NIE, Poland PESEL and NIP) the personal check accepts either.
 */
import * as v from 'valibot';
import { VfCode, vf, type CodedValidationError } from './errors.ts';

export type TaxNumberCheckCode = 'format' | 'checkDigit';
export type TaxNumberCheck = { ok: true; value: string } | { ok: false; code: TaxNumberCheckCode };
type Check = (compact: string) => TaxNumberCheck;

interface TaxNumberKind {
  name: string;
  shortName: string;
  required: boolean;
  check?: Check;
}
interface CountrySpec {
  personal: TaxNumberKind;
  business: TaxNumberKind;
}

/** One row as the dictionary serves it. */
export const TaxNumberEntrySchema = v.object({
  /** ISO 3166-1 alpha-2; '' for the generic entry */
  countryCode: v.string(),
  personalName: v.string(),
  personalShortName: v.string(),
  businessName: v.string(),
  businessShortName: v.string(),
  personalRequired: v.boolean(),
  businessRequired: v.boolean(),
  crs: v.boolean(),
  /** the platform checks the personal number's format (and check digits) for this country */
  personalFormat: v.boolean(),
  businessFormat: v.boolean(),
});
export type TaxNumberEntry = v.InferOutput<typeof TaxNumberEntrySchema>;

// ---------------------------------------------------------------------------------------------------
// Helpers

const ok = (value: string): TaxNumberCheck => ({ ok: true, value });
const FORMAT: TaxNumberCheck = { ok: false, code: 'format' };
const CHECK_DIGIT: TaxNumberCheck = { ok: false, code: 'checkDigit' };
const digitsOf = (s: string) => [...s].map(Number);
const weighted = (s: string, weights: readonly number[]) => weights.reduce((sum, w, i) => sum + w * Number(s[i]), 0);
const verdict = (value: string, good: boolean) => (good ? ok(value) : CHECK_DIGIT);

/** trim, upper-case, drop spaces, dots, dashes and slashes */
export function normaliseTaxNumber(input: string): string {
  return input
    .trim()
    .toUpperCase()
    .replace(/[\s./-]/g, '');
}

/** Luhn (ISO/IEC 7812-1) over every digit, the last being the check digit. */
export function luhnValid(s: string): boolean {
  let sum = 0;
  digitsOf(s)
    .reverse()
    .forEach((d, i) => {
      const x = i % 2 === 1 ? d * 2 : d;
      sum += x > 9 ? x - 9 : x;
    });
  return sum % 10 === 0;
}

/** ISO 7064 MOD 11,10: the check digit of `s` (the digits before it). */
function mod11_10(s: string): number {
  let p = 10;
  for (const d of digitsOf(s)) {
    let x = (d + p) % 10;
    if (x === 0) x = 10;
    p = (2 * x) % 11;
  }
  return (11 - p) % 10;
}

/** Accept the first check that is not a format refusal. */
const either =
  (...checks: Check[]): Check =>
  (s) => {
    for (const c of checks) {
      const r = c(s);
      if (r.ok || r.code === 'checkDigit') return r;
    }
    return FORMAT;
  };
const stripPrefix =
  (prefix: string, check: Check): Check =>
  (s) =>
    check(s.startsWith(prefix) ? s.slice(prefix.length) : s);
const pattern =
  (re: RegExp): Check =>
  (s) =>
    re.test(s) ? ok(s) : FORMAT;

// ---------------------------------------------------------------------------------------------------
// The checks (exported for the table tests). Each takes the normalised number.

/** US SSN (SSA: area 001-665, 667-899; group 01-99; serial 0001-9999; two advertising numbers never issued). */
export const usSsn: Check = (s) => {
  if (!/^\d{9}$/.test(s)) return FORMAT;
  const area = s.slice(0, 3);
  if (area === '000' || area === '666' || area >= '900' || s.slice(3, 5) === '00' || s.slice(5) === '0000') return FORMAT;
  if (s === '078051120' || s === '219099999') return FORMAT;
  return ok(s);
};
/** US ITIN (IRS): 9XX-[50-65, 70-88, 90-92, 94-99]-XXXX. */
export const usItin: Check = (s) => {
  if (!/^9\d{8}$/.test(s)) return FORMAT;
  const g = Number(s.slice(3, 5));
  return (g >= 50 && g <= 65) || (g >= 70 && g <= 88) || (g >= 90 && g <= 92) || g >= 94 ? ok(s) : FORMAT;
};
/** US EIN (IRS): 9 digits whose two-digit prefix is one the IRS assigns. */
const EIN_PREFIXES = /^(0[1-6]|1[0-6]|2[0-7]|3\d|4[0-8]|5\d|6[0-8]|7[1-7]|8[0-8]|9[0-5]|98|99)/;
export const usEin: Check = (s) => (/^\d{9}$/.test(s) && EIN_PREFIXES.test(s) ? ok(s) : FORMAT);

/** UK UTR (HMRC): 10 digits; the first is the check digit over the other nine. */
export const gbUtr: Check = (s) => {
  const m = /^(\d{10})K?$/.exec(s);
  if (!m) return FORMAT;
  const n = m[1]!;
  return verdict(n, '21987654321'[weighted(n.slice(1), [6, 7, 8, 9, 10, 5, 4, 3, 2]) % 11] === n[0]);
};
/** UK NINO (HMRC NIM39110): two prefix letters (not D F I Q U V; second not O; not BG GB KN NK NT TN ZZ), six digits, suffix A-D. */
export const gbNino: Check = (s) =>
  /^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/.test(s) && !['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ'].includes(s.slice(0, 2)) ? ok(s) : FORMAT;

/**
 * Germany Steuer-ID (BZSt, § 139b AO): 11 digits, no leading zero; in the first ten exactly one
 * digit repeats (twice, or three times but not in three adjacent places); ISO 7064 MOD 11,10.
 */
export const deIdnr: Check = (s) => {
  if (!/^[1-9]\d{10}$/.test(s)) return FORMAT;
  const head = s.slice(0, 10);
  const counts = new Map<string, number>();
  for (const c of head) counts.set(c, (counts.get(c) ?? 0) + 1);
  const repeated = [...counts.values()].filter((n) => n > 1);
  if (repeated.length !== 1 || repeated[0]! > 3) return FORMAT;
  if (/(\d)\1\1/.test(head)) return FORMAT;
  return verdict(s, mod11_10(head) === Number(s[10]));
};
/** Germany USt-IdNr (BZSt): DE and 9 digits, ISO 7064 MOD 11,10. */
export const deVat: Check = (s) => {
  const m = /^DE(\d{9})$/.exec(s);
  if (!m) return FORMAT;
  return verdict(s, mod11_10(m[1]!.slice(0, 8)) === Number(m[1]![8]));
};
/** Germany Steuernummer: 10 or 11 digits (state format) or the 13-digit federal form; no published check digit across states. */
export const deStNr: Check = pattern(/^\d{10,11}$|^\d{13}$/);

/** Spain DNI and NIE (AEAT): 8 digits (NIE: X, Y or Z and 7 digits) and the mod-23 control letter. */
const ES_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
export const esNif: Check = (s) => {
  const m = /^([XYZ]\d{7}|\d{8})([A-Z])$/.exec(s);
  if (!m) return FORMAT;
  const n = Number(m[1]!.replace('X', '0').replace('Y', '1').replace('Z', '2'));
  return verdict(s, ES_LETTERS[n % 23] === m[2]);
};
/** Spain CIF, the NIF of entities (AEAT, Orden EHA/451/2008): entity letter, 7 digits, control digit or letter. */
export const esCif: Check = (s) => {
  const m = /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9A-J])$/.exec(s);
  if (!m) return FORMAT;
  const d = m[2]!;
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const x = Number(d[i]);
    sum += i % 2 === 0 ? Math.floor((2 * x) / 10) + ((2 * x) % 10) : x;
  }
  const c = (10 - (sum % 10)) % 10;
  return verdict(s, m[3] === String(c) || m[3] === 'JABCDEFGHI'[c]);
};

/** Romania CNP (Law 207/2015 annex; ANAF): 13 digits, sex/century 1-9, month 01-12, check digit weights 279146358279 mod 11 (10 is 1). */
export const roCnp: Check = (s) => {
  if (!/^[1-9]\d{12}$/.test(s)) return FORMAT;
  const month = Number(s.slice(3, 5));
  if (month < 1 || month > 12) return FORMAT;
  const r = weighted(s, [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]) % 11;
  return verdict(s, (r === 10 ? 1 : r) === Number(s[12]));
};
/** Romania CUI/CIF (ANAF): 2 to 10 digits (RO prefix for VAT), check key 753217532 right-aligned, (sum x 10) mod 11 (10 is 0). */
export const roCui: Check = stripPrefix('RO', (s) => {
  if (!/^[1-9]\d{1,9}$/.test(s)) return FORMAT;
  const body = s.slice(0, -1).padStart(9, '0');
  return verdict(s, ((weighted(body, [7, 5, 3, 2, 1, 7, 5, 3, 2]) * 10) % 11) % 10 === Number(s.slice(-1)));
});

/** Brazil CPF (Receita Federal): 11 digits, not all the same, two mod-11 check digits. */
export const brCpf: Check = (s) => {
  if (!/^\d{11}$/.test(s) || /^(\d)\1{10}$/.test(s)) return FORMAT;
  const dv = (n: number) =>
    ((weighted(
      s,
      Array.from({ length: n }, (_, i) => n + 1 - i),
    ) *
      10) %
      11) %
    10;
  return verdict(s, dv(9) === Number(s[9]) && dv(10) === Number(s[10]));
};
/** Brazil CNPJ (Receita Federal): 14 digits, not all the same, two mod-11 check digits. */
export const brCnpj: Check = (s) => {
  if (!/^\d{14}$/.test(s) || /^(\d)\1{13}$/.test(s)) return FORMAT;
  const dv = (w: number[]) => {
    const r = weighted(s, w) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const w1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  return verdict(s, dv(w1) === Number(s[12]) && dv([6, ...w1]) === Number(s[13]));
};

/** Canada SIN (ESDC): 9 digits, not starting 0 or 8, Luhn. */
export const caSin: Check = (s) => (/^[1-79]\d{8}$/.test(s) ? verdict(s, luhnValid(s)) : FORMAT);
/** Canada BN (CRA): 9 digits, optionally with a program account (two letters and four digits). */
export const caBn: Check = pattern(/^\d{9}([A-Z]{2}\d{4})?$/);

/** France numéro fiscal / SPI (DGFiP): 13 digits, first 0-3, the last three are the first ten mod 511. */
export const frSpi: Check = (s) => (/^[0-3]\d{12}$/.test(s) ? verdict(s, Number(s.slice(0, 10)) % 511 === Number(s.slice(10))) : FORMAT);
/** France SIREN (INSEE): 9 digits, Luhn; a SIRET (SIREN and 5 digits) is accepted, Luhn over its 14. */
export const frSiren: Check = (s) => (/^\d{9}$|^\d{14}$/.test(s) ? verdict(s, luhnValid(s) && luhnValid(s.slice(0, 9))) : FORMAT);

/** Italy codice fiscale of a person (Agenzia delle Entrate, DM 23/12/1976): 16 characters, check letter. */
const IT_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
const itValue = (c: string) => (c >= '0' && c <= '9' ? Number(c) : c.charCodeAt(0) - 65);
export const itCodiceFiscale: Check = (s) => {
  if (!/^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(s)) return FORMAT;
  let sum = 0;
  for (let i = 0; i < 15; i++) sum += i % 2 === 0 ? IT_ODD[itValue(s[i]!)]! : itValue(s[i]!);
  return verdict(s, String.fromCharCode(65 + (sum % 26)) === s[15]);
};
/** Italy partita IVA (11 digits, Luhn), also the codice fiscale of entities; IT prefix allowed. */
export const itPartitaIva: Check = stripPrefix('IT', (s) => (/^\d{11}$/.test(s) ? verdict(s, luhnValid(s)) : FORMAT));

/** Portugal NIF / NIPC (AT): 9 digits, weights 9..2, 11 - mod 11 (10 and 11 are 0). */
const ptCheck = (first: RegExp): Check =>
  stripPrefix('PT', (s) => {
    if (!/^\d{9}$/.test(s) || !first.test(s)) return FORMAT;
    const c = 11 - (weighted(s, [9, 8, 7, 6, 5, 4, 3, 2]) % 11);
    return verdict(s, (c >= 10 ? 0 : c) === Number(s[8]));
  });
export const ptNif = ptCheck(/^([1-3]|45|9)/);
export const ptNipc = ptCheck(/^[5-9]/);

/** Poland PESEL (MSWiA): 11 digits, weights 1379137913, (10 - mod 10) mod 10. */
export const plPesel: Check = (s) => (/^\d{11}$/.test(s) ? verdict(s, (10 - (weighted(s, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10)) % 10 === Number(s[10])) : FORMAT);
/** Poland NIP (Ministry of Finance): 10 digits, weights 657234567 mod 11 (10 never issued); PL prefix allowed. */
export const plNip: Check = stripPrefix('PL', (s) => (/^\d{10}$/.test(s) ? verdict(s, weighted(s, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11 === Number(s[9])) : FORMAT));

/** Netherlands BSN and RSIN (Belastingdienst): 9 digits, the 11-proef (weights 9..2 and -1). */
export const nlBsn: Check = (s) => (/^\d{9}$/.test(s) && s !== '000000000' ? verdict(s, weighted(s, [9, 8, 7, 6, 5, 4, 3, 2, -1]) % 11 === 0) : FORMAT);

/** Ukraine RNOKPP (DPS): 10 digits, weights -1 5 7 9 4 6 10 5 7, mod 11 mod 10. */
export const uaRnokpp: Check = (s) => {
  if (!/^\d{10}$/.test(s)) return FORMAT;
  const r = (((weighted(s, [-1, 5, 7, 9, 4, 6, 10, 5, 7]) % 11) + 11) % 11) % 10;
  return verdict(s, r === Number(s[9]));
};
/** Ukraine EDRPOU (Derzhstat): 8 digits, weights 1-7 (7 1-6 when it starts with 3, 4 or 5), +2 when the remainder is 10. */
export const uaEdrpou: Check = (s) => {
  if (!/^\d{8}$/.test(s)) return FORMAT;
  const base = '345'.includes(s[0]!) ? [7, 1, 2, 3, 4, 5, 6] : [1, 2, 3, 4, 5, 6, 7];
  let r = weighted(s, base) % 11;
  if (r === 10)
    r =
      weighted(
        s,
        base.map((w) => w + 2),
      ) % 11;
  return verdict(s, r % 10 === Number(s[7]));
};

/** Russia INN (FNS): 12 digits for a person, 10 for an organisation, mod 11 mod 10 check digits. */
const innDigit = (s: string, w: number[]) => (weighted(s, w) % 11) % 10;
export const ruInnPerson: Check = (s) =>
  /^\d{12}$/.test(s) ? verdict(s, innDigit(s, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === Number(s[10]) && innDigit(s, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === Number(s[11])) : FORMAT;
export const ruInnOrganisation: Check = (s) => (/^\d{10}$/.test(s) ? verdict(s, innDigit(s, [2, 4, 10, 3, 5, 9, 4, 6, 8]) === Number(s[9])) : FORMAT);

/** Sweden personnummer (Skatteverket): YYMMDD-NNNC (or with the century), Luhn over the ten digits. */
export const sePersonnummer: Check = (s) => {
  const m = /^(?:\d{2})?(\d{6})\+?(\d{4})$/.exec(s);
  if (!m) return FORMAT;
  const ten = m[1]! + m[2]!;
  return verdict(ten, luhnValid(ten));
};
/** Sweden organisationsnummer (Bolagsverket): 10 digits, third digit 2 or more, Luhn. */
export const seOrgnr: Check = (s) => (/^\d{2}[2-9]\d{7}$/.test(s) ? verdict(s, luhnValid(s)) : FORMAT);

/** Norway fødselsnummer (Skatteetaten): 11 digits, two mod-11 check digits. */
const mod11Digit = (s: string, w: number[]) => {
  const r = 11 - (weighted(s, w) % 11);
  return r === 11 ? 0 : r;
};
export const noFodselsnummer: Check = (s) =>
  /^\d{11}$/.test(s) ? verdict(s, mod11Digit(s, [3, 7, 6, 1, 8, 9, 4, 5, 2]) === Number(s[9]) && mod11Digit(s, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) === Number(s[10])) : FORMAT;
/** Norway organisasjonsnummer (Brønnøysund): 9 digits, weights 32765432 mod 11. */
export const noOrgnr: Check = (s) => (/^\d{9}$/.test(s) ? verdict(s, mod11Digit(s, [3, 2, 7, 6, 5, 4, 3, 2]) === Number(s[8])) : FORMAT);

/** Finland henkilötunnus (DVV): DDMMYY, century sign (the dash one is dropped by normalising), 3 digits, check character of the 9 digits mod 31. */
export const fiHetu: Check = (s) => {
  const m = /^(\d{6})[+A-FU-Y]?(\d{3})([0-9A-Y])$/.exec(s);
  if (!m) return FORMAT;
  return verdict(s, '0123456789ABCDEFHJKLMNPRSTUVWXY'[Number(m[1]! + m[2]!) % 31] === m[3]);
};
/** Finland Y-tunnus (PRH / Vero): 7 digits and a check digit, weights 7945842 mod 11 (remainder 1 never issued). */
export const fiYtunnus: Check = stripPrefix('FI', (s) => {
  if (!/^\d{8}$/.test(s)) return FORMAT;
  const r = weighted(s, [7, 9, 10, 5, 8, 4, 2]) % 11;
  if (r === 1) return CHECK_DIGIT;
  return verdict(s, (r === 0 ? 0 : 11 - r) === Number(s[7]));
});

/** Denmark CVR (Erhvervsstyrelsen): 8 digits, first not 0, weights 27654321 sum divisible by 11. */
export const dkCvr: Check = stripPrefix('DK', (s) => (/^[1-9]\d{7}$/.test(s) ? verdict(s, weighted(s, [2, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0) : FORMAT));

/** Belgium national register number (SPF Intérieur): 11 digits, 97 - (9 digits mod 97); born 2000 or later: a 2 before them. */
export const beNationalNumber: Check = (s) => {
  if (!/^\d{11}$/.test(s)) return FORMAT;
  const c = Number(s.slice(9));
  const ok1 = 97 - (Number(s.slice(0, 9)) % 97) === c;
  const ok2 = 97 - (Number('2' + s.slice(0, 9)) % 97) === c;
  return verdict(s, ok1 || ok2);
};
/** Belgium enterprise number (BCE/KBO): 10 digits starting 0 or 1 (a 9-digit one takes a leading 0), 97 - (8 digits mod 97). */
export const beEnterprise: Check = stripPrefix('BE', (s) => {
  const n = s.length === 9 ? '0' + s : s;
  if (!/^[01]\d{9}$/.test(n)) return FORMAT;
  return verdict(n, 97 - (Number(n.slice(0, 8)) % 97) === Number(n.slice(8)));
});

/** Estonia isikukood (Lithuania's asmens kodas has the same rule; not checked yet): 11 digits, two-pass mod 11. */
export const eeIsikukood: Check = (s) => {
  if (!/^[1-6]\d{10}$/.test(s)) return FORMAT;
  let r = weighted(s, [1, 2, 3, 4, 5, 6, 7, 8, 9, 1]) % 11;
  if (r === 10) r = weighted(s, [3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 11;
  return verdict(s, r % 10 === Number(s[10]));
};

/** Bulgaria EGN (GRAO): 10 digits, weights 2 4 8 5 10 9 7 3 6 mod 11 (10 is 0). */
export const bgEgn: Check = (s) => (/^\d{10}$/.test(s) ? verdict(s, (weighted(s, [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11) % 10 === Number(s[9])) : FORMAT);

/** Croatia OIB (Porezna uprava): 11 digits, ISO 7064 MOD 11,10. */
export const hrOib: Check = stripPrefix('HR', (s) => (/^\d{11}$/.test(s) ? verdict(s, mod11_10(s.slice(0, 10)) === Number(s[10])) : FORMAT));

/** China resident identity card number (GB 11643-1999): 17 digits and an ISO 7064 MOD 11-2 check character. */
export const cnRic: Check = (s) => {
  if (!/^\d{17}[\dX]$/.test(s)) return FORMAT;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(s[i]) * (2 ** (17 - i) % 11);
  return verdict(s, '10X98765432'[sum % 11] === s[17]);
};

/** India PAN (Income Tax Department): 5 letters (the fourth the holder's type), 4 digits, a letter; no published check. */
export const inPan: Check = pattern(/^[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z]$/);

/** Australia TFN (ATO): 9 digits (8 for old ones), weighted sum divisible by 11. */
export const auTfn: Check = (s) => {
  if (/^\d{9}$/.test(s)) return verdict(s, weighted(s, [1, 4, 3, 7, 5, 8, 6, 9, 10]) % 11 === 0);
  if (/^\d{8}$/.test(s)) return verdict(s, weighted(s, [10, 7, 8, 4, 6, 3, 5, 1]) % 11 === 0);
  return FORMAT;
};
/** Australia ABN (ABR): 11 digits; subtract 1 from the first, weights 10 1 3 ... 19, divisible by 89. */
export const auAbn: Check = (s) => {
  if (!/^[1-9]\d{10}$/.test(s)) return FORMAT;
  const d = String(Number(s[0]) - 1) + s.slice(1);
  return verdict(s, weighted(d, [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]) % 89 === 0);
};

/** Switzerland AHV/AVS number (ZAS): 756 and 10 digits, EAN-13 check digit. */
export const chAhv: Check = (s) => {
  if (!/^756\d{10}$/.test(s)) return FORMAT;
  const sum = weighted(s, [1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3]);
  return verdict(s, (10 - (sum % 10)) % 10 === Number(s[12]));
};
/** Switzerland UID (BFS): CHE and 9 digits, weights 54327654 mod 11 (10 never issued); MWST/TVA/IVA suffix allowed. */
export const chUid: Check = (s) => {
  const m = /^CHE(\d{9})(MWST|TVA|IVA)?$/.exec(s);
  if (!m) return FORMAT;
  const n = m[1]!;
  const r = 11 - (weighted(n, [5, 4, 3, 2, 7, 6, 5, 4]) % 11);
  return verdict('CHE' + n, (r === 11 ? 0 : r) === Number(n[8]));
};

// ---------------------------------------------------------------------------------------------------
// The rows

const kind = (name: string, shortName: string, required: boolean, check?: Check): TaxNumberKind => ({ name, shortName, required, ...(check ? { check } : {}) });

export const GENERIC_NAME = 'Tax identification number';
export const GENERIC_SHORT_NAME = 'TIN';
const generic = kind(GENERIC_NAME, GENERIC_SHORT_NAME, false);

const SPECS: Record<string, CountrySpec> = {
  // IRS: SSN/ITIN (Publication 1915), EIN prefixes (IRS "How EINs are assigned").
  US: {
    personal: kind('Social Security Number or Individual Taxpayer Identification Number', 'SSN/ITIN', true, either(usItin, usSsn)),
    business: kind('Employer Identification Number', 'EIN', true, usEin),
  },
  // HMRC: UTR (Self Assessment), NINO (National Insurance Manual NIM39110); OECD UK TIN sheet.
  GB: {
    personal: kind('Unique Taxpayer Reference or National Insurance number', 'UTR/NINO', true, either(gbUtr, gbNino)),
    business: kind('Unique Taxpayer Reference', 'UTR', true, gbUtr),
  },
  // BZSt: Steuerliche Identifikationsnummer (§ 139b AO), USt-IdNr (§ 27a UStG); OECD DE TIN sheet.
  DE: {
    personal: kind('Tax identification number (Steuer-ID)', 'IdNr', true, deIdnr),
    business: kind('Tax number or VAT identification number', 'St.-Nr./USt-IdNr.', true, either(deVat, deStNr)),
  },
  // AEAT: NIF of persons (DNI, NIE) and of entities (CIF); OECD ES TIN sheet.
  ES: {
    personal: kind('Tax identification number (DNI/NIE)', 'NIF', true, stripPrefix('ES', esNif)),
    business: kind('Tax identification number of the entity', 'NIF (CIF)', true, stripPrefix('ES', esCif)),
  },
  // ANAF: CNP (Law 207/2015), CUI/CIF; OECD RO TIN sheet.
  RO: { personal: kind('Personal numeric code', 'CNP', true, roCnp), business: kind('Fiscal identification code', 'CUI/CIF', true, roCui) },
  // Receita Federal: CPF (IN RFB 1548/2015), CNPJ (IN RFB 2119/2022).
  BR: { personal: kind('Natural persons register number', 'CPF', true, brCpf), business: kind('National register of legal entities number', 'CNPJ', true, brCnpj) },
  // CRA / ESDC: SIN, Business Number.
  CA: { personal: kind('Social Insurance Number', 'SIN', true, caSin), business: kind('Business Number', 'BN', true, caBn) },
  // DGFiP: numéro fiscal de référence (SPI); INSEE: SIREN; OECD FR TIN sheet.
  FR: { personal: kind('Tax identification number (numéro fiscal)', 'SPI', true, frSpi), business: kind('SIREN number', 'SIREN', true, frSiren) },
  // Agenzia delle Entrate: codice fiscale, partita IVA; OECD IT TIN sheet.
  IT: {
    personal: kind('Tax code (codice fiscale)', 'CF', true, itCodiceFiscale),
    business: kind('VAT number / tax code of the entity (partita IVA)', 'P.IVA', true, itPartitaIva),
  },
  // Autoridade Tributária: NIF / NIPC; OECD PT TIN sheet.
  PT: { personal: kind('Tax identification number', 'NIF', true, ptNif), business: kind('Legal person identification number', 'NIPC', true, ptNipc) },
  // Ministry of Finance / MSWiA: PESEL, NIP; OECD PL TIN sheet.
  PL: { personal: kind('PESEL number or tax identification number', 'PESEL/NIP', true, either(plPesel, plNip)), business: kind('Tax identification number', 'NIP', true, plNip) },
  // Belastingdienst: BSN, RSIN (11-proef); OECD NL TIN sheet.
  NL: { personal: kind('Citizen service number', 'BSN', true, nlBsn), business: kind('Legal entities and partnerships information number', 'RSIN', true, nlBsn) },
  // DPS of Ukraine: RNOKPP; EDRPOU register; OECD UA TIN sheet.
  UA: { personal: kind('Registration number of the taxpayer account card', 'RNOKPP', true, uaRnokpp), business: kind('EDRPOU code', 'EDRPOU', true, uaEdrpou) },
  // FNS of Russia: INN (issued to persons on registration, to every organisation).
  RU: { personal: kind('Taxpayer identification number', 'INN', false, ruInnPerson), business: kind('Taxpayer identification number', 'INN', true, ruInnOrganisation) },
  // OECD TIN sheets and the national authorities: Skatteverket (SE), Skatteetaten and Brønnøysund (NO), DVV and
  // PRH (FI), Erhvervsstyrelsen (DK CVR; the CPR has had no check digit since 2007), SPF Intérieur and BCE/KBO (BE),
  // GRAO (BG), Porezna uprava (HR), GB 11643-1999 (CN), Income Tax Department (IN), ATO and ABR (AU), ZAS and BFS
  // (CH), Maksu- ja Tolliamet (EE). The rows without a check have names only: no check implemented yet.
  AT: { personal: kind('Tax number', 'Steuernummer', false), business: kind('Tax number', 'Steuernummer', true) },
  AU: { personal: kind('Tax File Number', 'TFN', false, auTfn), business: kind('Australian Business Number', 'ABN', false, auAbn) },
  BE: { personal: kind('National register number', 'NN', true, beNationalNumber), business: kind('Enterprise number', 'BCE/KBO', true, beEnterprise) },
  BG: { personal: kind('Unified civil number', 'EGN', true, bgEgn), business: kind('Unified identification code', 'UIC', true) },
  CH: { personal: kind('Social insurance number', 'AHV/AVS', false, chAhv), business: kind('Business identification number', 'UID', true, chUid) },
  CN: { personal: kind('Resident identity card number', 'RIC', true, cnRic), business: kind('Unified social credit code', 'USCC', true) },
  CY: { personal: kind('Tax identification code', 'TIC', false), business: kind('Tax identification code', 'TIC', true) },
  CZ: { personal: kind('Birth number', 'RČ', true), business: kind('Tax identification number', 'DIČ', true) },
  DK: { personal: kind('Civil registration number', 'CPR', true), business: kind('Central business register number', 'CVR', true, dkCvr) },
  EE: { personal: kind('Personal identification code', 'Isikukood', true, eeIsikukood), business: kind('Registry code', 'Registrikood', true) },
  FI: { personal: kind('Personal identity code', 'HETU', true, fiHetu), business: kind('Business ID', 'Y-tunnus', true, fiYtunnus) },
  GR: { personal: kind('Tax registration number', 'AFM', false), business: kind('Tax registration number', 'AFM', true) },
  HR: { personal: kind('Personal identification number', 'OIB', true, hrOib), business: kind('Personal identification number', 'OIB', true, hrOib) },
  HU: { personal: kind('Tax identification number', 'Adóazonosító jel', true), business: kind('Tax number', 'Adószám', true) },
  IE: { personal: kind('Personal Public Service Number', 'PPSN', false), business: kind('Tax reference number', 'TRN', true) },
  IN: { personal: kind('Permanent Account Number', 'PAN', false, inPan), business: kind('Permanent Account Number', 'PAN', true, inPan) },
  LT: { personal: kind('Personal code', 'Asmens kodas', false), business: kind('Legal entity code', 'Juridinio asmens kodas', true) },
  LU: { personal: kind('National identification number', 'Matricule', true), business: kind('National identification number', 'Matricule', true) },
  LV: { personal: kind('Personal code', 'Personas kods', true), business: kind('Registration number', 'Reģistrācijas numurs', true) },
  MD: { personal: kind('State identification number', 'IDNP', true), business: kind('State identification number', 'IDNO', true) },
  MT: { personal: kind('Identity card number', 'ID', false), business: kind('Tax identification number', 'TIN', true) },
  MX: { personal: kind('Federal taxpayer registry', 'RFC', false), business: kind('Federal taxpayer registry', 'RFC', true) },
  NO: { personal: kind('National identity number', 'Fødselsnummer', true, noFodselsnummer), business: kind('Organisation number', 'Organisasjonsnummer', true, noOrgnr) },
  SE: { personal: kind('Personal identity number', 'Personnummer', true, sePersonnummer), business: kind('Organisation number', 'Organisationsnummer', true, seOrgnr) },
  SI: { personal: kind('Tax number', 'Davčna številka', true), business: kind('Tax number', 'Davčna številka', true) },
  SK: { personal: kind('Birth number', 'RČ', true), business: kind('Tax identification number', 'DIČ', true) },
};

/**
 * The countries (the countries dictionary's codes, i18n-iso-countries with XK; tests check the
 * two lists agree) and the CRS jurisdictions among them (OECD "CRS by jurisdiction" commitments).
 */
export const ISO_COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW ' +
  'CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO ' +
  'IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ ' +
  'NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY ' +
  'SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
).split(' ');

/** OECD, "Automatic exchange of information: commitments and implementation" (CRS jurisdictions, 2017-2027). */
const CRS = new Set(
  (
    'AD AE AG AI AL AM AR AT AU AW AZ BB BE BG BH BM BN BR BS BZ CA CH CK CL CM CN CO CR CW CY CZ DE DK DM EC EE ES FI FO FR GB GD GE GG GH GI GL GR HK HR HU ' +
    'ID IE IL IM IN IS IT JE JM JP KE KN KR KW KY KZ LB LC LI LT LU LV MA MC MD ME MO MS MT MU MV MX MY NG NL NO NR NU NZ OM PA PE PK PL PT QA RO RU SA SC SE SG ' +
    'SI SK SM SN SX TC TH TR TT UA UG UY VC VG VU WS ZA'
  ).split(' '),
);

function entryOf(countryCode: string, spec: CountrySpec, crs: boolean): TaxNumberEntry {
  return {
    countryCode,
    personalName: spec.personal.name,
    personalShortName: spec.personal.shortName,
    businessName: spec.business.name,
    businessShortName: spec.business.shortName,
    personalRequired: spec.personal.required,
    businessRequired: spec.business.required,
    crs,
    personalFormat: spec.personal.check !== undefined,
    businessFormat: spec.business.check !== undefined,
  };
}

const GENERIC_SPEC: CountrySpec = { personal: generic, business: generic };
/** The entry of a country not in the list (and of no country). */
export const GENERIC_TAX_NUMBER: TaxNumberEntry = entryOf('', GENERIC_SPEC, false);
/** A row for every country of the list; the ones without a spec of their own carry the generic names. */
export const TAX_NUMBERS: readonly TaxNumberEntry[] = ISO_COUNTRY_CODES.map((code) => entryOf(code, SPECS[code] ?? GENERIC_SPEC, CRS.has(code)));
const BY_CODE = new Map(TAX_NUMBERS.map((e) => [e.countryCode, e]));

/** The country's entry, or the generic one. */
export function taxNumberEntry(countryCode: string | null | undefined): TaxNumberEntry {
  return (countryCode && BY_CODE.get(countryCode.toUpperCase())) || GENERIC_TAX_NUMBER;
}

/**
 * Check a tax number against a country's personal or business format. Countries without a
 * format answer ok with the normalised number (the contract's generic check still applies).
 */
export function checkTaxNumber(countryCode: string | null | undefined, use: 'personal' | 'business', input: string): TaxNumberCheck {
  const compact = normaliseTaxNumber(input);
  const spec = countryCode ? SPECS[countryCode.toUpperCase()] : undefined;
  const check = spec?.[use].check;
  return check ? check(compact) : ok(compact);
}

/** A country has a format check of its own for that use. */
export const hasTaxNumberFormat = (countryCode: string | null | undefined, use: 'personal' | 'business') => taxNumberEntry(countryCode)[`${use}Format`];

/**
 * A tax number field checked against a country (registration, profile, self-certification):
 * the value to store (the compact form where the country has a format, else the input as the
 * contract gave it) or the VF error naming the field, with the number's short name.
 */
export function checkTaxNumberField(
  param: string,
  countryCode: string | null | undefined,
  use: 'personal' | 'business',
  input: string,
): { ok: true; value: string } | { ok: false; error: CodedValidationError } {
  if (!hasTaxNumberFormat(countryCode, use)) return { ok: true, value: input };
  const r = checkTaxNumber(countryCode, use, input);
  if (r.ok) return r;
  const entry = taxNumberEntry(countryCode);
  const name = use === 'personal' ? entry.personalShortName : entry.businessShortName;
  return { ok: false, error: vf(param, r.code === 'format' ? VfCode.taxIdCountryFormat : VfCode.taxIdCheckDigit, { name }) };
}
