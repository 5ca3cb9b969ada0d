/**
 * Cards (document 2 §2 card routes, §3 account card fields, card products 2006-2135, activation,
 * BIN info, application fees and shipping options, §4 card status ids and the actions allowed by
 * status, §5, §7 accounts and cards calls, debit and current-account authorization lists, §9).
 *
 * A card is an account of the ledger (api/accounts.ts AccountSchema, its card fields filled): its
 * `type` is the card product (2006-2135), `subType` PREPAID (the card holds its own money) or
 * DEBIT (it draws on `settlementAccountId`, a payment account of the customer), and its
 * `accountStatusId` is one of CardStatus below. The full card number, the CVV and the PIN exist
 * only in the card issuer's adapter (server/modules/cards/issuer*.ts); everything else sees the
 * BIN (6 digits) and the last four.
 *
 * Names the spec gives are used as given. Where the spec names no call, these are our design
 * (noted on each): `cardApply` (the application itself; the spec names only its info call) and
 * `cardConfirm` (the confirmation /confirm-card/{cardId} ends in).
 */
import * as v from 'valibot';
import { decimalString } from './accounts.ts';
import { VfCode } from './errors.ts';
import { defineMethod, idSchema } from './method.ts';
import { TransferResultEntries } from './transfers.ts';

const id = idSchema();

/** Card products are numeric account types in this range (document 2 §3). */
export const CARD_TYPE_MIN = 2006;
export const CARD_TYPE_MAX = 2135;
export const isCardType = (type: number): boolean => type >= CARD_TYPE_MIN && type <= CARD_TYPE_MAX;

/** Card account status ids (document 2 §4). 23 and 65 are both "Pending" in the spec: 65 waits for the application's approval, 23 for the customer's confirmation (/confirm-card). */
export const CardStatus = {
  submitted: 0,
  active: 2,
  canceled: 4,
  fraud: 18,
  printing: 19,
  printed: 20,
  shipped: 21,
  pendingConfirmation: 23,
  limited: 27,
  expired: 38,
  processing: 41,
  pendingApproval: 65,
  paused: 71,
} as const;
export type CardStatusId = (typeof CardStatus)[keyof typeof CardStatus];
export const CARD_STATUS_IDS = Object.values(CardStatus) as CardStatusId[];

/** Every action on a card the platform checks against the status table (document 2 §4). */
export const CARD_ACTIONS = ['balance', 'history', 'block', 'pin', 'load', 'enrollment', 'pause', 'unpause', 'editName', 'unload', 'activate', 'reissue', 'upgradeShipping', 'reveal'] as const;
export type CardAction = (typeof CARD_ACTIONS)[number];

/**
 * Which statuses allow each action (document 2 §4, "Card actions allowed by status"). The spec's rules:
 * - balance, history, block and PIN for active, paused or expired cards; history also for limited;
 * - load funds and enrollment only when active (and so never fraud);
 * - pause when active or expired; unpause only when paused;
 * - editing the name and details only for virtual cards (a rule on the card, not the status: see cardActionAllowed).
 * Not shown in the spec, our design: unload (money back to the customer's account) wherever the
 * balance may be seen, so money is never stuck on a paused or expired card; reveal (the number and
 * CVV) as the PIN; activation of a physical card once it is shipped (or printed: it may arrive
 * before the courier's scan); reissue of an active, paused, expired or fraud-blocked card;
 * upgrade shipping while the card is not yet shipped.
 */
export const CARD_ACTION_STATUSES: Readonly<Record<CardAction, readonly CardStatusId[]>> = {
  balance: [CardStatus.active, CardStatus.paused, CardStatus.expired],
  history: [CardStatus.active, CardStatus.paused, CardStatus.expired, CardStatus.limited],
  block: [CardStatus.active, CardStatus.paused, CardStatus.expired],
  pin: [CardStatus.active, CardStatus.paused, CardStatus.expired],
  load: [CardStatus.active],
  enrollment: [CardStatus.active],
  pause: [CardStatus.active, CardStatus.expired],
  unpause: [CardStatus.paused],
  editName: [CardStatus.active, CardStatus.paused, CardStatus.expired, CardStatus.submitted, CardStatus.processing],
  unload: [CardStatus.active, CardStatus.paused, CardStatus.expired],
  activate: [CardStatus.printed, CardStatus.shipped],
  reissue: [CardStatus.active, CardStatus.paused, CardStatus.expired, CardStatus.fraud],
  upgradeShipping: [CardStatus.submitted, CardStatus.processing, CardStatus.printing, CardStatus.printed],
  reveal: [CardStatus.active, CardStatus.paused, CardStatus.expired],
};

/** The one rule of what a card allows (the platform's checks and the screens' buttons both use it). */
export function cardActionAllowed(action: CardAction, card: { accountStatusId: number; cardIsVirtual: boolean | null }): boolean {
  if (action === 'editName' && card.cardIsVirtual !== true) return false;
  if ((action === 'activate' || action === 'upgradeShipping') && card.cardIsVirtual === true) return false;
  return (CARD_ACTION_STATUSES[action] as readonly number[]).includes(card.accountStatusId);
}

/** Card numbers of at least this many characters are masked; shorter ones are shown as given (document 2 §5, §9). */
export const CARD_MASK_THRESHOLD = 16;
export const BIN_LENGTH = 6;

/** `4111 1111 1111 1111` -> `411111******1111`; shorter than 16 characters: unchanged. */
export function maskCardNumber(number: string): string {
  const digits = number.replace(/\s+/g, '');
  if (digits.length < CARD_MASK_THRESHOLD) return number;
  return `${digits.slice(0, BIN_LENGTH)}${'*'.repeat(digits.length - BIN_LENGTH - 4)}${digits.slice(-4)}`;
}

/** The BIN a look-up sends: spaces removed, the first 6 digits (document 2 §5). */
export const binNumberOf = (text: string): string => text.replace(/\s+/g, '').slice(0, BIN_LENGTH);

// ---- products, fees and shipping (applyForCardInfo) -------------------------------------------

export const CardKind = v.picklist(['physical', 'virtual', 'debit']);
export type CardKind = v.InferOutput<typeof CardKind>;

export const SHIPPING_DISABLED_REASONS = ['NOT_AVAILABLE_IN_COUNTRY', 'ADDRESS_NOT_CONFIRMED'] as const;
export const PRODUCT_DISABLED_REASONS = ['NO_ACCOUNT_IN_CURRENCY', 'LIMIT_REACHED', 'NOT_VERIFIED'] as const;

export const ShippingOptionSchema = v.object({
  id: v.number(),
  type: v.picklist(['standard', 'express']),
  /** document 2 §3: fees are numbers */
  fee: v.number(),
  currency: v.string(),
  /** business days at most from printing to the door */
  deliveryTime: v.number(),
  /** empty when the option can be chosen */
  disabledReasons: v.array(v.picklist(SHIPPING_DISABLED_REASONS)),
});
export type ShippingOption = v.InferOutput<typeof ShippingOptionSchema>;

export const CardFeesSchema = v.object({ annual: v.number(), issue: v.number(), monthly: v.number(), currency: v.string() });
export type CardFees = v.InferOutput<typeof CardFeesSchema>;

export const CardProductSchema = v.object({
  /** the account type the card will have (2006-2135) */
  type: v.number(),
  kind: CardKind,
  subType: v.picklist(['PREPAID', 'DEBIT']),
  isVirtual: v.boolean(),
  currencyCode: v.string(),
  /** the card scheme printed on it */
  cardBrand: v.picklist(['VISA', 'MASTERCARD']),
  fees: CardFeesSchema,
  /** empty for a virtual card */
  shippingOptions: v.array(ShippingOptionSchema),
  /** per-payment and per-day spending limits of the product, in its currency */
  limits: v.object({ perPayment: decimalString, perDay: decimalString }),
  /** empty when the customer may apply */
  disabledReasons: v.array(v.picklist(PRODUCT_DISABLED_REASONS)),
});
export type CardProduct = v.InferOutput<typeof CardProductSchema>;

/** Apply-for-card info (document 2 §7, optional countryCode: the customer's country when absent). */
export const applyForCardInfo = defineMethod({
  name: 'applyForCardInfo',
  access: 'customer',
  mutation: false,
  request: { countryCode: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, VfCode.countryCodeFormat))) },
  response: { countryCode: v.string(), products: v.array(CardProductSchema) },
});

/**
 * The application (our design: the spec names only its info call). It creates the card account at
 * once (status 65, pending approval) and charges the issue fee plus the shipping fee from
 * feeAccountId as a transfer approved by the customer's approval mode, exactly like a payment (the
 * one approval chart serves it); once approved the card is Submitted (physical and debit: the
 * issuer prints and ships it), Active (virtual), or waits for the confirm requirements (23).
 * A card ordered for a company by a user with right 3 (initiate) is a payment that waits for the
 * company's checker (api/business-approvals.ts): answered status pending with the card at 65 until
 * a checker approves its fee (or declines it: the card is canceled).
 */
export const cardApply = defineMethod({
  name: 'cardApply',
  access: 'customer',
  mutation: true,
  request: {
    type: v.pipe(v.number(), v.integer(), v.minValue(CARD_TYPE_MIN, VfCode.notOffered), v.maxValue(CARD_TYPE_MAX, VfCode.notOffered)),
    feeAccountId: id,
    /** physical and debit cards: where it ships (one of the customer's addresses) and how */
    addressId: v.optional(id),
    shippingOptionId: v.optional(id),
    /** debit cards: the payment account it draws on (of the product's currency) */
    settlementAccountId: v.optional(id),
    /** virtual cards: an optional name */
    cardAliasName: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, VfCode.required), v.maxLength(40, VfCode.tooLong))),
  },
  response: { accountId: v.number(), accountStatusId: v.number(), ...TransferResultEntries },
});

export const CONFIRM_REQUIREMENTS = ['FEE_PAID', 'IDENTITY_VERIFIED', 'ADDRESS_CONFIRMED'] as const;

/** Card confirm requirements (document 2 §7): what /confirm-card/{cardId} checks. */
export const cardConfirmRequirements = defineMethod({
  name: 'cardConfirmRequirements',
  access: 'customer',
  mutation: false,
  request: { accountId: id },
  response: {
    accountId: v.number(),
    accountStatusId: v.number(),
    requirements: v.array(v.object({ code: v.picklist(CONFIRM_REQUIREMENTS), met: v.boolean() })),
    /** every requirement met and the card waiting for its confirmation (23) */
    canConfirm: v.boolean(),
  },
});

/** The confirmation (our design: the spec names only the requirements call): 23 -> Submitted. */
export const cardConfirm = defineMethod({
  name: 'cardConfirm',
  access: 'customer',
  mutation: true,
  request: { accountId: id },
  response: { accountStatusId: v.number() },
});

// ---- managing a card ---------------------------------------------------------------------------

const statusAnswer = { accountStatusId: v.number() };

export const cardPause = defineMethod({ name: 'cardPause', access: 'customer', mutation: true, request: { accountId: id }, response: statusAnswer });
export const cardUnpause = defineMethod({ name: 'cardUnpause', access: 'customer', mutation: true, request: { accountId: id }, response: statusAnswer });
/**
 * Final: the card is Canceled (4). A prepaid card's remaining balance goes back to the customer's
 * payment account of its currency (opened when there is none) in the same transaction.
 */
export const cardBlock = defineMethod({
  name: 'cardBlock',
  access: 'customer',
  mutation: true,
  request: { accountId: id },
  response: { accountStatusId: v.number(), refundedAmount: decimalString, refundedToAccountId: v.nullable(v.number()) },
});

/**
 * A new card in place of this one (document 2 §7: accountId, isExpressShipping): a new card account
 * of the same product, shipped to the same address; the old one is canceled and its balance moves
 * to the new card. The shipping fee (and the issue fee) is charged from the card's fee account.
 */
export const cardReissue = defineMethod({
  name: 'cardReissue',
  access: 'customer',
  mutation: true,
  request: { accountId: id, isExpressShipping: v.boolean() },
  response: { accountId: v.number(), accountStatusId: v.number(), fee: decimalString, feeCurrency: v.string() },
});

/** Upgrade shipping (document 2 §7): a card not yet shipped goes by express; the difference is charged. */
export const upgradeShipping = defineMethod({
  name: 'upgradeShipping',
  access: 'customer',
  mutation: true,
  request: { accountId: id },
  response: { fee: decimalString, feeCurrency: v.string(), deliveryTime: v.number() },
});

/** Set alias (document 2 §7): virtual cards only. */
export const setAlias = defineMethod({
  name: 'setAlias',
  access: 'customer',
  mutation: true,
  request: { accountId: id, cardAliasName: v.pipe(v.string(), v.trim(), v.minLength(1, VfCode.required), v.maxLength(40, VfCode.tooLong)) },
  response: { cardAliasName: v.string() },
});

export const ActivationParamSchema = v.object({
  /** the key in cardActivate's extraParams */
  name: v.picklist(['cardLast4']),
  /** the format the value must have */
  pattern: v.string(),
  required: v.boolean(),
});

/** Card activation data (document 2 §3 "fees, feeCurrency, extraParams"). */
export const cardActivationData = defineMethod({
  name: 'cardActivationData',
  access: 'customer',
  mutation: false,
  request: { accountId: id },
  response: { fees: v.number(), feeCurrency: v.string(), extraParams: v.array(ActivationParamSchema) },
});

/** Card activate (document 2 §7: accountId, extraParams, feeAccountId; returns pinCode, shown once). */
export const cardActivate = defineMethod({
  name: 'cardActivate',
  access: 'customer',
  mutation: true,
  request: {
    accountId: id,
    extraParams: v.record(v.pipe(v.string(), v.maxLength(40)), v.pipe(v.string(), v.maxLength(100))),
    feeAccountId: v.optional(id),
  },
  response: { accountStatusId: v.number(), pinCode: v.string() },
});

/** A PIN: exactly 4 digits. */
export const PinSchema = v.pipe(v.string(), v.regex(/^\d{4}$/, VfCode.badFormat));

/**
 * A PIN too easy to guess (issue 16: "refusing weak PINs such as 0000 or 1234"): one digit
 * repeated (0000, 7777), a run up or down by one (1234, 4321, 6789), or one of the commonest
 * choices people make (COMMON_PINS: patterns on the keypad, years, pairs). The one rule: the
 * platform refuses such a PIN (VF pinWeak) and the PIN screens refuse it before calling. Digits
 * only; a value that is not all digits is not judged here (PinSchema refuses its format).
 */
export const COMMON_PINS: ReadonlySet<string> = new Set(['1212', '1004', '2000', '6969', '2580', '1122', '1313', '2001', '1010', '1230', '0852', '1984', '2468', '1357', '0007', '1369']);
export function isWeakPin(pin: string): boolean {
  if (!/^\d{2,}$/.test(pin)) return false;
  if (COMMON_PINS.has(pin)) return true;
  const steps = new Set<number>();
  for (let i = 1; i < pin.length; i++) steps.add(pin.charCodeAt(i) - pin.charCodeAt(i - 1));
  return steps.size === 1 && [0, 1, -1].includes([...steps][0]!);
}

/** Change PIN (document 2 §5: a confirm flag, the PIN and its repeat). Weak PINs are refused (VF pinWeak). */
export const changePin = defineMethod({
  name: 'changePin',
  access: 'customer',
  mutation: true,
  request: { accountId: id, confirm: v.literal(true), pinCode: PinSchema, pinCodeRepeat: PinSchema },
  response: {},
});

/**
 * Revealing a secret needs a fresh approval: the user's approval mode (sms, otp, approvalCode), or
 * the sign-in password where the mode is none or push.
 */
export const RevealApproveType = v.picklist(['sms', 'otp', 'approvalCode', 'password']);
export type RevealApproveType = v.InferOutput<typeof RevealApproveType>;

/**
 * Show PIN (document 2 §7): starts the re-approval of a reveal. `reveal` is what getPin will answer
 * with: the PIN (default) or the card's number, CVV and expiry (the spec names no call of its own
 * for the number: our design).
 */
export const showPin = defineMethod({
  name: 'showPin',
  access: 'customer',
  mutation: true,
  request: { accountId: id, reveal: v.optional(v.picklist(['pin', 'card'])) },
  response: { operationId: v.number(), approveType: RevealApproveType, approvalSentTo: v.nullable(v.string()), expiresAt: v.string() },
});

/** Get PIN (document 2 §7): the approval's code (or password) -> the secret, once. Never logged. */
export const getPin = defineMethod({
  name: 'getPin',
  access: 'customer',
  mutation: true,
  request: { accountId: id, operationId: id, approvalCode: v.pipe(v.string(), v.minLength(1, VfCode.required), v.maxLength(200, VfCode.tooLong)) },
  response: {
    pinCode: v.nullable(v.string()),
    cardNumber: v.nullable(v.string()),
    cvv: v.nullable(v.string()),
    cardExpiryMonth: v.nullable(v.number()),
    cardExpiryYear: v.nullable(v.number()),
    /** how long the screen may show it (the app hides it after this) */
    visibleForMs: v.number(),
  },
});

/** BIN info (document 2 §3, §5: spaces removed, first 6 digits). */
export const binInfo = defineMethod({
  name: 'binInfo',
  access: 'customer',
  mutation: false,
  request: { binNumber: v.pipe(v.string(), v.transform((s) => s.replace(/\s+/g, '')), v.regex(/^\d{6,19}$/, VfCode.cardFormat), v.transform((s) => s.slice(0, 6))) },
  response: {
    binNumber: v.string(),
    issuer: v.nullable(v.string()),
    cardBrand: v.nullable(v.string()),
    cardCategory: v.nullable(v.string()),
    cardType: v.nullable(v.picklist(['DEBIT', 'CREDIT', 'PREPAID'])),
    countryCode: v.nullable(v.string()),
    currencyCode: v.nullable(v.string()),
    isCommercial: v.boolean(),
    isPrepaid: v.boolean(),
    valid: v.boolean(),
  },
});

/** Address replacement compatibility (document 2 §7): what moving away from an address does to the cards. */
export const addressReplacementCompatibility = defineMethod({
  name: 'addressReplacementCompatibility',
  access: 'customer',
  mutation: false,
  request: { countryCode: v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, VfCode.countryCodeFormat)), oldAddressId: id },
  response: { cardAccountsToBeCanceled: v.array(v.number()), cardAccountsToBeShippedToOldAddress: v.array(v.number()) },
});

// ---- authorisations --------------------------------------------------------------------------

export const DECLINE_REASONS = [
  'CARD_NOT_ACTIVE',
  'CARD_PAUSED',
  'CARD_EXPIRED',
  'INSUFFICIENT_FUNDS',
  'PAYMENT_LIMIT',
  'DAILY_LIMIT',
  'COUNTRY_BLOCKED',
  'MERCHANT_CATEGORY_BLOCKED',
  'CURRENCY_NOT_SUPPORTED',
  'WRONG_CARD_DATA',
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** authorized: the money is held; cleared: posted; reversed: released; declined: never held. */
export const AuthorizationStatus = v.picklist(['authorized', 'cleared', 'reversed', 'declined']);

export const AuthorizationSchema = v.object({
  id: v.number(),
  /** the card account that paid */
  cardAccountId: v.number(),
  /** the account whose money it is (the card itself, or a debit card's settlement account) */
  accountId: v.number(),
  cardLast4: v.string(),
  merchantName: v.string(),
  /** ISO 18245 merchant category code */
  merchantCategoryCode: v.string(),
  merchantCountryCode: v.string(),
  amount: decimalString,
  currencyCode: v.string(),
  status: AuthorizationStatus,
  declineReason: v.nullable(v.picklist(DECLINE_REASONS)),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Authorization = v.InferOutput<typeof AuthorizationSchema>;

/** Authorisation history pages hold 10 (document 2 §9 "debit history 10, authorization history 10"). */
export const AUTHORIZATION_PAGE_SIZE = 10;

const authorizationList = {
  request: { accountId: id, pageNumber: v.optional(id), pageSize: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50))) },
  response: { authorizations: v.array(AuthorizationSchema), total: v.number() },
};

/** The debit cards' authorisations on a settlement account (document 3 §7; only settlement accounts show them). */
export const debitcardAuthorizationListGet = defineMethod({ name: 'debitcardAuthorizationListGet', access: 'customer', mutation: false, ...authorizationList });
/** The authorisations holding money of a current (payment) account now. */
export const currentAccountAuthorizationListGet = defineMethod({ name: 'currentAccountAuthorizationListGet', access: 'customer', mutation: false, ...authorizationList });

export const cardMethods = {
  applyForCardInfo,
  cardApply,
  cardConfirmRequirements,
  cardConfirm,
  cardPause,
  cardUnpause,
  cardBlock,
  cardReissue,
  upgradeShipping,
  setAlias,
  cardActivationData,
  cardActivate,
  changePin,
  showPin,
  getPin,
  binInfo,
  addressReplacementCompatibility,
  debitcardAuthorizationListGet,
  currentAccountAuthorizationListGet,
};
