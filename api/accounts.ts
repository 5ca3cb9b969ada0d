/**
 * Accounts (document 2 §3). The foundation reads them for the home screen's accounts area;
 * the money-core issue adds the ledger calls. Amounts are strings of decimal major units on the
 * wire (`balance: "12.50"`) computed from integer minor units on the platform.
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { defineMethod } from './method.ts';

/** 1001 payment, 1003 payment variant, 4001 prepayment, 4002 receiving; cards 2006-2135. */
export const AccountType = { payment: 1001, paymentVariant: 1003, prepayment: 4001, receiving: 4002 } as const;
export const ACCOUNT_STATUS_CLOSED = 11;

export const decimalString = v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?$/, VfCode.amountFormat));

export const AccountSchema = v.object({
  accountId: v.number(),
  type: v.number(),
  subType: v.nullable(v.picklist(['PREPAID', 'DEBIT'])),
  accountStatusId: v.number(),
  currency: v.string(),
  balance: decimalString,
  accountBalanceMin: decimalString,
  pendingAmount: decimalString,
  customerId: v.number(),
  settlementAccountId: v.nullable(v.number()),
  // The card fields of document 2 §3: null on an account that is not a card (every account today:
  // card products, types 2006-2135, come with the cards issue).
  /** a virtual card (editing name and details is allowed only for these) */
  cardIsVirtual: v.nullable(v.boolean()),
  cardAliasName: v.nullable(v.string()),
  cardExpiryMonth: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12))),
  cardExpiryYear: v.nullable(v.pipe(v.number(), v.integer())),
  /** the status id of the card's reissue, when one was asked for */
  cardReissuedStatusId: v.nullable(v.number()),
  /**
   * Not in document 2 §3's list, our addition: the card's last four digits, which the card's face
   * and every list show as "•••• 1234" (all the platform keeps of the number besides its BIN).
   * Absent or null on an account that is not a card.
   */
  cardLast4: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^\d{4}$/)))),
});
export type Account = v.InferOutput<typeof AccountSchema>;

/** Balance inquiry: the caller's accounts (or the company's with fromCustomerId). */
export const balanceInquiry = defineMethod({
  name: 'balanceInquiry',
  access: 'customer',
  mutation: false,
  request: {},
  response: { accounts: v.object({ account: v.array(AccountSchema) }) },
});

export const accountMethods = { balanceInquiry };
