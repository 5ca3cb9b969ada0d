/**
 * Brazil's instant payments (PIX) for "instant" transfers (document 2 §6 and §7 instant, instantKeyInfo
 * "Instant details: taxId, instantKey, instantKeyType"; issue 15 item 3): the key types and their
 * formats, and the Brazilian tax ids (CPF, CNPJ) with their check digits, which a PIX payout also
 * asks for as the receiver's taxId.
 *
 * The spec names the fields only; the key types and formats are the Central Bank's (DICT): CPF,
 * CNPJ, e-mail (at most 77 characters), mobile phone (+55, area code, 9 digits) and the random key
 * (EVP, a UUID). Answers are codes.
 */

export const INSTANT_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'] as const;
export type InstantKeyType = (typeof INSTANT_KEY_TYPES)[number];
export const INSTANT_CODES = ['badFormat', 'taxIdChecksum', 'notEmail', 'phoneFormat', 'tooLong'] as const;
export type InstantCode = (typeof INSTANT_CODES)[number];
export type InstantCheck = { ok: true; value: string } | { ok: false; code: InstantCode };

/** DICT's longest e-mail key. */
export const EMAIL_KEY_MAX = 77;
/** A pragmatic address check: something, an @, a domain with a dot (document 1 §4's rule for e-mail). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Mod-11 check digit of Brazil's tax ids: 11 minus the remainder, 0 when the remainder is under 2. */
function mod11Digit(values: readonly number[], weights: readonly number[]): number {
  const rest = values.reduce((sum, value, i) => sum + value * (weights[i] ?? 0), 0) % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** A CPF (individuals): 11 digits, dots and dash allowed when typed, two check digits; one digit repeated is refused. */
export function checkCpf(text: string): InstantCheck {
  const cpf = text.trim().replace(/[.\-\s]/g, '');
  if (!/^\d{11}$/.test(cpf)) return { ok: false, code: 'badFormat' };
  const digits = [...cpf].map(Number);
  const first = mod11Digit(digits.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11Digit(digits.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const valid = !/^(\d)\1{10}$/.test(cpf) && digits[9] === first && digits[10] === second;
  return valid ? { ok: true, value: cpf } : { ok: false, code: 'taxIdChecksum' };
}

/**
 * A CNPJ (companies): 14 characters, dots, slash and dash allowed when typed, two check digits.
 * Since July 2026 the first 12 may be letters too (Receita Federal's alphanumeric CNPJ): each
 * character counts as its ASCII code minus 48, so a numeric CNPJ is checked exactly as before.
 */
export function checkCnpj(text: string): InstantCheck {
  const cnpj = text
    .trim()
    .replace(/[.\-/\s]/g, '')
    .toUpperCase();
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj)) return { ok: false, code: 'badFormat' };
  const values = [...cnpj].map((char) => char.charCodeAt(0) - 48);
  const first = mod11Digit(values.slice(0, 12), [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11Digit(values.slice(0, 13), [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const valid = !/^(\d)\1{13}$/.test(cnpj) && values[12] === first && values[13] === second;
  return valid ? { ok: true, value: cnpj } : { ok: false, code: 'taxIdChecksum' };
}

/** A receiver's tax id: a CPF when it has 11 digits, else a CNPJ. */
export function checkBrazilTaxId(text: string): InstantCheck {
  return /^\d{11}$/.test(text.trim().replace(/[.\-\s]/g, '')) ? checkCpf(text) : checkCnpj(text);
}

const KEY_CHECKS: Readonly<Record<InstantKeyType, (text: string) => InstantCheck>> = {
  CPF: checkCpf,
  CNPJ: checkCnpj,
  EMAIL: (text) => {
    const email = text.trim().toLowerCase();
    if (email.length > EMAIL_KEY_MAX) return { ok: false, code: 'tooLong' };
    return EMAIL_PATTERN.test(email) ? { ok: true, value: email } : { ok: false, code: 'notEmail' };
  },
  // a mobile number: +55, a two-digit area code (no zeros), 9 and 8 digits; typed without +55 it is added
  PHONE: (text) => {
    const phone = text.trim().replace(/[\s().-]/g, '');
    const full = /^[1-9]{2}9\d{8}$/.test(phone) ? `+55${phone}` : phone;
    return /^\+55[1-9]{2}9\d{8}$/.test(full) ? { ok: true, value: full } : { ok: false, code: 'phoneFormat' };
  },
  EVP: (text) => {
    const key = text.trim().toLowerCase();
    return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(key) ? { ok: true, value: key } : { ok: false, code: 'badFormat' };
  },
};

/** A PIX key of the given type, answered in the form the key directory holds it (digits only, lower case, +55…). */
export function checkInstantKey(type: InstantKeyType, text: string): InstantCheck {
  return KEY_CHECKS[type](text);
}
