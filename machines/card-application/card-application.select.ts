/** Snapshot -> view facts for the card application page (/add-card; machines/card-application). */
import type { SnapshotFrom } from 'xstate';
import { CardStatus, type CardKind, type CardProduct } from '../../api/cards.ts';
import type { ValidationError } from '../../api/envelope.ts';
import { sumDecimals } from '../global-pay-batch/global-pay-batch.select.ts';
import { accountsIn, productOf, ships, type CardApplicationMachine } from './card-application.machine.ts';

export type CardApplicationSnapshot = SnapshotFrom<CardApplicationMachine>;
export type ApplicationStep = 'loading' | 'loadFailed' | 'choosingProduct' | 'delivery' | 'naming' | 'feeAccount' | 'reviewing' | 'approving' | 'done' | 'failed';

export function selectApplicationStep(s: CardApplicationSnapshot): ApplicationStep {
  if (s.matches('loading')) return 'loading';
  if (s.matches('loadFailed')) return 'loadFailed';
  if (s.matches('choosingProduct')) return 'choosingProduct';
  if (s.matches('delivery')) return 'delivery';
  if (s.matches('naming')) return 'naming';
  if (s.matches('feeAccount')) return 'feeAccount';
  if (s.matches('reviewing') || s.matches('submitting')) return 'reviewing';
  if (s.matches('approving')) return 'approving';
  if (s.matches('checking') || s.matches('done')) return 'done';
  return 'failed';
}

/** The kinds in the order the page groups them. */
export const KIND_ORDER: readonly CardKind[] = ['physical', 'virtual', 'debit'];

export function productsByKind(products: readonly CardProduct[]): { kind: CardKind; products: CardProduct[] }[] {
  return KIND_ORDER.map((kind) => ({ kind, products: products.filter((p) => p.kind === kind) })).filter((g) => g.products.length > 0);
}

/** A fee of the platform (a number, document 2 §3) as a decimal string. */
export const feeAmount = (fee: number): string => String(fee);

/** What the review shows: charged now (issue and shipping, their total) and later (annual, monthly). */
export interface FeeSummary {
  currency: string;
  issue: string;
  /** null: a virtual card does not ship */
  shipping: string | null;
  shippingCurrency: string | null;
  /** issue + shipping when both are in the product's currency; else the issue fee alone with shipping apart */
  totalNow: string;
  annual: string;
  monthly: string;
}

export function feeSummaryOf(product: CardProduct, shippingOptionId: number | null): FeeSummary {
  const option = ships(product.kind) ? (product.shippingOptions.find((o) => o.id === shippingOptionId) ?? null) : null;
  const issue = feeAmount(product.fees.issue);
  const shipping = option ? feeAmount(option.fee) : null;
  const sameCurrency = option === null || option.currency === product.fees.currency;
  return {
    currency: product.fees.currency,
    issue,
    shipping,
    shippingCurrency: option?.currency ?? null,
    totalNow: shipping !== null && sameCurrency ? sumDecimals([issue, shipping]) : issue,
    annual: feeAmount(product.fees.annual),
    monthly: feeAmount(product.fees.monthly),
  };
}

/** The platform's errors on one param. */
export const errorsOn = (errors: readonly ValidationError[], param: string): ValidationError[] => errors.filter((e) => e.param === param);

export function selectApplicationView(s: CardApplicationSnapshot) {
  const c = s.context;
  const product = productOf(c.products, c.form.type);
  const own = product ? accountsIn(c.accounts, product.currencyCode) : [];
  const status = c.cardStatus;
  return {
    step: selectApplicationStep(s),
    busy: s.hasTag('busy'),
    submitting: s.matches('submitting'),
    checking: s.matches('checking'),
    groups: productsByKind(c.products),
    countryCode: c.countryCode,
    product,
    form: c.form,
    addresses: c.addresses,
    /** the accounts of the product's currency (fee and settlement accounts) */
    accounts: own,
    missing: c.missing,
    errors: c.errors,
    fees: product ? feeSummaryOf(product, c.form.shippingOptionId) : null,
    shippingOption: product?.shippingOptions.find((o) => o.id === c.form.shippingOptionId) ?? null,
    address: c.addresses.find((a) => a.addressId === c.form.addressId) ?? null,
    settlementAccount: own.find((a) => a.accountId === c.form.settlementAccountId) ?? null,
    feeAccount: own.find((a) => a.accountId === c.form.feeAccountId) ?? null,
    canSubmit: s.can({ type: 'SUBMIT' }),
    unanswered: c.unanswered,
    failure: c.failure,
    loadFailure: c.loadFailure,
    notice: c.notice,
    applied: c.applied,
    /** the new card's status at the end (null: not known) */
    cardStatus: status,
    active: status === CardStatus.active,
    awaitingConfirmation: status === CardStatus.pendingConfirmation,
    outcome: c.outcome,
    /** the approval machine's actor while approving */
    approval: s.children.approval ?? null,
  };
}
export type ApplicationView = ReturnType<typeof selectApplicationView>;
