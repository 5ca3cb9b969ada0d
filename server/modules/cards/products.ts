/**
 * The card product catalogue (issue 16; document 2 §3: "card products 2006-2135, prepaid and
 * virtual variants per country (EU countries) in USD, EUR and RON"; the issue adds debit cards).
 *
 * The design, as data (every product is an account type; the types are assigned here, in this
 * order, from 2006 upward, so a product keeps its type as long as this list keeps its order — new
 * products go at the END):
 * - for each of the 27 EU countries (alphabetical by code): a physical prepaid card in EUR, a
 *   virtual prepaid card in EUR, a physical prepaid card in USD, a virtual prepaid card in USD;
 * - Romania also has a physical and a virtual prepaid card in RON;
 * - debit cards in EUR, USD and RON (subType DEBIT, physical, offered in every EU country): the
 *   card holds no money of its own and draws on its settlement account, a payment account of the
 *   customer in the card's currency.
 * 27 × 4 + 2 + 3 = 113 products: types 2006-2118 (a test asserts they are unique and in range).
 *
 * Every product has an issue fee above zero, so every application is charged by a transfer and
 * approved by the customer's approval mode exactly like a payment (cards.service.ts).
 * Amounts are minor units of the product's currency (every currency here has 2 decimals).
 *
 * H2's decline rules (authorizations) read limits, blocked merchant categories and blocked
 * countries through cardProduct(): keep that export stable.
 */
import type { CardKind } from './issuer.ts';

export type CardBrand = 'VISA' | 'MASTERCARD';
export type ShippingType = 'standard' | 'express';

export interface ShippingDef {
  /** the shipping option's id on the wire (1 standard, 2 express) */
  id: number;
  type: ShippingType;
  feeMinor: bigint;
  /** business days at most from printing to the door */
  deliveryTimeDays: number;
  /** countries this option does not reach (disabledReasons NOT_AVAILABLE_IN_COUNTRY) */
  notAvailableIn: readonly string[];
}

export interface CardProductDef {
  type: number;
  kind: CardKind;
  subType: 'PREPAID' | 'DEBIT';
  isVirtual: boolean;
  currency: string;
  /** the country the product is offered in; null: every EU country (debit cards) */
  countryCode: string | null;
  cardBrand: CardBrand;
  /** the BIN (first 6 digits) the issuer numbers this product's cards on */
  bin: string;
  fees: { annualMinor: bigint; issueMinor: bigint; monthlyMinor: bigint; activationMinor: bigint };
  /** empty for a virtual card */
  shipping: readonly ShippingDef[];
  limits: { perPaymentMinor: bigint; perDayMinor: bigint };
  /** ISO 18245 merchant category codes the card refuses */
  blockedMerchantCategories: readonly string[];
  /** ISO 3166 alpha-2 merchant countries the card refuses */
  blockedCountries: readonly string[];
}

/** The 27 member states of the EU, by code. */
export const EU_COUNTRIES = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
] as const;

/** How many cards of one kind a customer may hold (not canceled); debit: per currency. */
export const maxCardsPerKind: Readonly<Record<CardKind, number>> = { virtual: 5, physical: 2, debit: 1 };

/** Sanctioned countries: no card pays there. */
export const SANCTIONED_COUNTRIES: readonly string[] = ['KP', 'IR', 'SY', 'CU'];
/** 7995 betting and gambling: refused by every prepaid card. */
export const PREPAID_BLOCKED_MCC: readonly string[] = ['7995'];

/** Couriers' express service does not reach these (islands and outermost regions). */
const EXPRESS_NOT_AVAILABLE: readonly string[] = ['CY', 'MT'];

/** The issuer's BINs per kind and currency (test ranges of the schemes: VISA 4…, MASTERCARD 5…). */
export const PLATFORM_BINS: Readonly<Record<CardKind, Readonly<Record<string, string>>>> = {
  physical: { EUR: '489537', USD: '489538', RON: '489539' },
  virtual: { EUR: '531993', USD: '531994', RON: '531995' },
  debit: { EUR: '427101', USD: '427102', RON: '427103' },
};
export const BRAND_OF_KIND: Readonly<Record<CardKind, CardBrand>> = { physical: 'VISA', virtual: 'MASTERCARD', debit: 'VISA' };

/** Major units -> minor (2 decimals), for the literals below. */
const m = (major: number): bigint => BigInt(Math.round(major * 100));
/** RON amounts are about five times the EUR/USD ones. */
const scale = (currency: string, major: number): bigint => m(currency === 'RON' ? major * 5 : major);

function shippingFor(kind: CardKind, currency: string): ShippingDef[] {
  if (kind === 'virtual') return [];
  return [
    { id: 1, type: 'standard', feeMinor: 0n, deliveryTimeDays: 10, notAvailableIn: [] },
    { id: 2, type: 'express', feeMinor: scale(currency, 19.9), deliveryTimeDays: 3, notAvailableIn: EXPRESS_NOT_AVAILABLE },
  ];
}

function define(type: number, kind: CardKind, currency: string, countryCode: string | null): CardProductDef {
  const fees = {
    physical: { annualMinor: 0n, issueMinor: scale(currency, 9.9), monthlyMinor: scale(currency, 1.5), activationMinor: 0n },
    virtual: { annualMinor: 0n, issueMinor: scale(currency, 2), monthlyMinor: 0n, activationMinor: 0n },
    debit: { annualMinor: scale(currency, 12), issueMinor: scale(currency, 5), monthlyMinor: 0n, activationMinor: 0n },
  }[kind];
  const limits = {
    physical: { perPaymentMinor: scale(currency, 2_000), perDayMinor: scale(currency, 5_000) },
    virtual: { perPaymentMinor: scale(currency, 1_000), perDayMinor: scale(currency, 2_000) },
    debit: { perPaymentMinor: scale(currency, 5_000), perDayMinor: scale(currency, 10_000) },
  }[kind];
  const bin = PLATFORM_BINS[kind][currency];
  if (!bin) throw new Error(`no BIN for ${kind} ${currency}`);
  return {
    type,
    kind,
    subType: kind === 'debit' ? 'DEBIT' : 'PREPAID',
    isVirtual: kind === 'virtual',
    currency,
    countryCode,
    cardBrand: BRAND_OF_KIND[kind],
    bin,
    fees,
    shipping: shippingFor(kind, currency),
    limits,
    blockedMerchantCategories: kind === 'debit' ? [] : PREPAID_BLOCKED_MCC,
    blockedCountries: SANCTIONED_COUNTRIES,
  };
}

function buildCatalogue(): CardProductDef[] {
  const out: CardProductDef[] = [];
  let next = 2006;
  for (const country of EU_COUNTRIES) {
    for (const currency of ['EUR', 'USD']) {
      out.push(define(next++, 'physical', currency, country));
      out.push(define(next++, 'virtual', currency, country));
    }
  }
  out.push(define(next++, 'physical', 'RON', 'RO'));
  out.push(define(next++, 'virtual', 'RON', 'RO'));
  for (const currency of ['EUR', 'USD', 'RON']) out.push(define(next++, 'debit', currency, null));
  return out;
}

/** Every product, in type order. */
export const CARD_PRODUCTS: readonly CardProductDef[] = buildCatalogue();
const BY_TYPE = new Map(CARD_PRODUCTS.map((p) => [p.type, p]));

/** The product of an account type, or null when the type is no card product. */
export function cardProduct(type: number): CardProductDef | null {
  return BY_TYPE.get(type) ?? null;
}

/** The products offered to a customer in this country: its own prepaid cards and (in the EU) the debit cards. */
export function productsFor(countryCode: string): CardProductDef[] {
  const inEu = (EU_COUNTRIES as readonly string[]).includes(countryCode);
  return CARD_PRODUCTS.filter((p) => p.countryCode === countryCode || (p.countryCode === null && inEu));
}

/** Whether the product is offered in the country (an application, an address in another country). */
export function offeredIn(product: CardProductDef, countryCode: string): boolean {
  return product.countryCode === null ? (EU_COUNTRIES as readonly string[]).includes(countryCode) : product.countryCode === countryCode;
}

/** Shipping options of a product to an address in `countryCode`, with why each is not available there. */
export function shippingOptionsTo(product: CardProductDef, countryCode: string): { def: ShippingDef; disabled: boolean }[] {
  return product.shipping.map((def) => ({ def, disabled: def.notAvailableIn.includes(countryCode) }));
}
