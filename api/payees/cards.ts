/**
 * Card numbers for card payouts (OCT) and card look-ups (document 2 §5 "Card bin lookup uses the
 * first 6 digits, with spaces removed", "Card numbers shorter than 16 characters are not masked",
 * §9 "Card number mask threshold 16 characters. Bin length 6", §7 blockedBinList and binInfo;
 * issue 15 item 3): the Luhn check, the brand from its BIN ranges with the brand's lengths, the
 * BIN, the blocked-BIN check and the mask.
 *
 * Answers are codes, never sentences.
 */

export const CARD_CODES = ['cardFormat', 'cardLength', 'cardChecksum', 'cardBinBlocked'] as const;
export type CardCode = (typeof CARD_CODES)[number];

export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'jcb', 'unionpay', 'maestro', 'diners'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** §9: the BIN is the first 6 digits. */
export const BIN_LENGTH = 6;
/** §9: numbers shorter than this are shown as they are. */
export const MASK_THRESHOLD = 16;
const MIN_LENGTH = 12;
const MAX_LENGTH = 19;

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * The brands' published prefix ranges (inclusive, compared on the number's first digits of the
 * same length) and the lengths each brand issues. The longest matching prefix wins, so Maestro's
 * 6759 is not read as Discover or UnionPay.
 */
const BRAND_RANGES: readonly { brand: CardBrand; prefixes: readonly number[]; lengths: readonly number[] }[] = [
  { brand: 'visa', prefixes: [4], lengths: [13, 16, 19] },
  { brand: 'mastercard', prefixes: [...range(51, 55), ...range(2221, 2720)], lengths: [16] },
  { brand: 'amex', prefixes: [34, 37], lengths: [15] },
  { brand: 'discover', prefixes: [6011, ...range(644, 649), 65], lengths: [16, 17, 18, 19] },
  { brand: 'jcb', prefixes: range(3528, 3589), lengths: [16, 17, 18, 19] },
  { brand: 'unionpay', prefixes: [62], lengths: [16, 17, 18, 19] },
  { brand: 'maestro', prefixes: [50, ...range(56, 58), 6304, 6759, 676770, 676774], lengths: range(12, 19) },
  { brand: 'diners', prefixes: [36, ...range(300, 305), 38, 39], lengths: [14, 15, 16, 17, 18, 19] },
];

export type CardCheck = { ok: true; number: string; brand: CardBrand | null; bin: string } | { ok: false; code: Exclude<CardCode, 'cardBinBlocked'> };

/** The number as typed with its spaces removed. */
export function normaliseCardNumber(text: string): string {
  return text.replace(/\s+/g, '');
}

/** §5: the first 6 digits, spaces removed. */
export function binOf(number: string): string {
  return normaliseCardNumber(number).slice(0, BIN_LENGTH);
}

/** The brand whose longest prefix starts the number, with the lengths it issues; null when none does. */
export function cardBrand(number: string): { brand: CardBrand; lengths: readonly number[] } | null {
  const digits = normaliseCardNumber(number);
  let best: { brand: CardBrand; lengths: readonly number[]; prefixLength: number } | null = null;
  for (const { brand, prefixes, lengths } of BRAND_RANGES) {
    for (const prefix of prefixes) {
      const text = String(prefix);
      if (digits.startsWith(text) && (!best || text.length > best.prefixLength)) best = { brand, lengths, prefixLength: text.length };
    }
  }
  return best && { brand: best.brand, lengths: best.lengths };
}

/** The Luhn (mod 10) check digit test: every second digit from the right doubled. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * A card number: digits only once spaces are removed, 12 to 19 of them, a length its brand issues
 * (when the brand is known: an Amex has 15), and the Luhn check digit.
 */
export function checkCardNumber(text: string): CardCheck {
  const number = normaliseCardNumber(text);
  if (!/^\d+$/.test(number)) return { ok: false, code: 'cardFormat' };
  if (number.length < MIN_LENGTH || number.length > MAX_LENGTH) return { ok: false, code: 'cardLength' };
  const brand = cardBrand(number);
  if (brand && !brand.lengths.includes(number.length)) return { ok: false, code: 'cardLength' };
  if (!luhnValid(number)) return { ok: false, code: 'cardChecksum' };
  return { ok: true, number, brand: brand?.brand ?? null, bin: binOf(number) };
}

/**
 * Is the card's BIN on the blocked list (kept by the platform; §5 keeps the list only if non-empty)?
 * An entry blocks every number it starts (a 6-digit BIN, or a longer 8-digit one).
 */
export function isBlockedBin(number: string, blockedBins: readonly string[]): boolean {
  const digits = normaliseCardNumber(number);
  return blockedBins.some((entry) => {
    const bin = normaliseCardNumber(entry);
    return bin.length > 0 && digits.startsWith(bin);
  });
}

/**
 * §5 and §9: a number (spaces removed) shorter than 16 characters is not masked; a longer one
 * shows its BIN (first 6) and last 4 digits, the rest as asterisks.
 */
export function maskCardNumber(number: string): string {
  const digits = normaliseCardNumber(number);
  if (digits.length < MASK_THRESHOLD) return digits;
  return digits.slice(0, BIN_LENGTH) + '*'.repeat(digits.length - BIN_LENGTH - 4) + digits.slice(-4);
}
