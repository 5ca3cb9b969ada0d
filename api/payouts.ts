/**
 * Payouts: money out of the platform over a rail (document 2 §7 "External transfers by oct, eft,
 * wire, crypto eft, instant, interac, each with fee variants"; issue 15 §4), under the names of
 * operations.tsv. Each call moves money (Idempotency-Key, api/idempotency.ts) and answers as a
 * transfer does (TransferResultEntries): status `processing` once the money is held and the
 * instruction queued for the rail, or `pending` while it awaits the customer's approval (the one
 * approval flow: approveTransfer, resendApproval, transferCancel). The rail's answer comes later:
 * `posted` when settled, `returned` (money back) or `rejected` (refused at submission).
 *
 * Not shown in the spec (designed here): the requests. `payee` holds the fields of the method's
 * form for the country and currency (extraParams; api/payees/methods.ts), each answered VF as
 * `payee.<field>` with its code when wrong. A payout is sent in the source account's currency.
 * The fee calls take the same amount, account, currency and country and answer the fee and the
 * total taken from the account.
 */
import * as v from 'valibot';
import { decimalString } from './accounts.ts';
import { VfCode } from './errors.ts';
import { defineMethod, Id } from './method.ts';
import type { PayoutMethod } from './payees/payout-methods.ts';
import { CurrencyCodeSchema, TransferResultEntries } from './transfers.ts';

const amount = v.pipe(v.string(), v.regex(/^\d{1,15}(\.\d{1,8})?$/, VfCode.amountFormat));
const countryCode = v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/, VfCode.countryCodeFormat));
/** a form's fields: at most 20, names as the method's fields are named, values as typed */
const payee = v.pipe(
  v.record(v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9]{0,39}$/, VfCode.badFormat)), v.pipe(v.string(), v.maxLength(200))),
  v.check((fields) => Object.keys(fields).length <= 20, 'at most 20 fields'),
);
const optionalText = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max)));

const PayoutRequestEntries = {
  fromAccountId: Id,
  amount,
  currency: CurrencyCodeSchema,
  countryCode,
  payee,
  /** what the beneficiary sees with the money */
  reference: optionalText(140),
  /** the customer's own note in history */
  note: optionalText(500),
};
const FeeRequestEntries = { fromAccountId: Id, amount, currency: CurrencyCodeSchema, countryCode };
const FeeResponseEntries = { fee: decimalString, feeCurrency: v.string(), amount: decimalString, total: decimalString };

const payout = <N extends string>(name: N) => defineMethod({ name, access: 'customer', mutation: true, request: PayoutRequestEntries, response: TransferResultEntries });
const fee = <N extends string>(name: N) => defineMethod({ name, access: 'customer', mutation: false, request: FeeRequestEntries, response: FeeResponseEntries });

export const wireTransfer = payout('wireTransfer');
export const eftTransfer = payout('eftTransfer');
export const octTransfer = payout('octTransfer');
export const cryptoTransfer = payout('cryptoTransfer');
export const instantTransfer = payout('instantTransfer');
export const interacTransfer = payout('interacTransfer');
export const wireFee = fee('wireFee');
export const eftFee = fee('eftFee');
export const octFee = fee('octFee');
export const cryptoFee = fee('cryptoFee');
export const instantFee = fee('instantFee');
export const interacFee = fee('interacFee');

/** Each call's payout method (api/payees/payout-methods.ts): crypto is the digital method. */
export const PAYOUT_CALLS = {
  wireTransfer: 'wire',
  eftTransfer: 'eft',
  octTransfer: 'oct',
  cryptoTransfer: 'digital',
  instantTransfer: 'instant',
  interacTransfer: 'interac',
} as const;
export const PAYOUT_FEE_CALLS = { wireFee: 'wire', eftFee: 'eft', octFee: 'oct', cryptoFee: 'digital', instantFee: 'instant', interacFee: 'interac' } as const;

const byMethod = <C extends string>(calls: Readonly<Record<C, PayoutMethod>>) =>
  Object.fromEntries(Object.entries(calls).map(([call, method]) => [method, call])) as Record<PayoutMethod, C>;
/** The other way round: each method's payout call and fee call (the screens send by method). */
export const PAYOUT_CALL_OF = byMethod<keyof typeof PAYOUT_CALLS>(PAYOUT_CALLS);
export const PAYOUT_FEE_CALL_OF = byMethod<keyof typeof PAYOUT_FEE_CALLS>(PAYOUT_FEE_CALLS);

export const payoutMethods = {
  wireTransfer,
  eftTransfer,
  octTransfer,
  cryptoTransfer,
  instantTransfer,
  interacTransfer,
  wireFee,
  eftFee,
  octFee,
  cryptoFee,
  instantFee,
  interacFee,
};
