/**
 * The payout calls (api/payouts.ts; document 2 §7; issue 15 §4): each checks the payee's fields
 * against its method's form for the country and currency (api/payees/methods.ts, the same checks
 * the screens run), then asks the one transfer request (transfers.service.ts) with the payout's
 * kind: the same permission flags table, limits, fee rules (operation = the rail), approval modes
 * and daily counters as every other transfer; the rails' side (payouts.service.ts) takes the
 * instruction in the same transaction.
 *
 * Card data: a card payout's number is checked and then kept only as its BIN and last four digits
 * (what the rail's simulator and the history need); the full number is never stored or logged.
 */
import { isVfCode, VfCode, vf, type CodedValidationError } from '../../../api/errors.ts';
import { PAYOUT_CALLS, PAYOUT_FEE_CALLS, type payoutMethods } from '../../../api/payouts.ts';
import { binOf, normaliseCardNumber } from '../../../api/payees/cards.ts';
import { validatePayeeFields } from '../../../api/payees/methods.ts';
import type { PayoutMethod } from '../../../api/payees/payout-methods.ts';
import type { Tx } from '../../db/types.ts';
import { minorToDecimal } from '../accounts/money.ts';
import { MethodFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { OPERATION_FLAGS, requireFlags } from '../transfers/permissions.ts';
import { computeQuote, createTransferService, ownAccount, type ParamNames, type TransferService } from '../transfers/transfers.service.ts';
import { feeRuleFor } from '../transfers/fees.ts';
import { readBlockedBins } from '../external/external.methods.ts';

const PARAMS: ParamNames = { from: 'fromAccountId', to: 'payee', amount: 'amount', currency: 'currency' };

/** Who the money goes to, as history and the approval message name them. */
export function beneficiaryNameOf(payee: Readonly<Record<string, string>>): string {
  return (payee.beneficiaryName ?? payee.cardHolderName ?? payee.name ?? payee.email ?? payee.phone ?? payee.instantKey ?? payee.address ?? '').trim().slice(0, 140);
}

/** What the rail is told: the form's values, trimmed; a card number only as its BIN and last four. */
export function beneficiaryOf(payee: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(payee)) {
    if (name === 'cardNumber') {
      const number = normaliseCardNumber(value);
      out.cardBin = binOf(number);
      out.cardLast4 = number.slice(-4);
    } else out[name] = value.trim();
  }
  return out;
}

function payeeIssues(method: PayoutMethod, countryCode: string, currencyCode: string, payee: Readonly<Record<string, string>>, blockedBins: readonly string[]): CodedValidationError[] {
  return validatePayeeFields({ method, countryCode, currencyCode }, payee, { blockedBins }).map((issue) =>
    // every payee code is a VF code without parameters (api/errors.ts "payees")
    issue.field === 'countryCode' ? vf('countryCode', VfCode.notAllowed) : vf(`payee.${issue.field}`, isVfCode(issue.code) ? (issue.code as typeof VfCode.badFormat) : VfCode.badFormat),
  );
}

const txOf = (ctx: MethodContext): Tx => ctx.db as unknown as Tx;

export function createPayoutHandlers(service: TransferService): HandlerTable<typeof payoutMethods> {
  const payout = (name: keyof typeof PAYOUT_CALLS) => async (input: { fromAccountId: number; amount: string; currency: string; countryCode: string; payee: Record<string, string>; reference?: string | undefined; note?: string | undefined }, ctx: MethodContext) => {
    if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
    const rail = PAYOUT_CALLS[name];
    const issues = payeeIssues(rail, input.countryCode, input.currency, input.payee, rail === 'oct' ? await readBlockedBins(ctx.db) : []);
    if (issues.length > 0) throw new MethodFailure('VF', 'Invalid request', issues);
    return service.request(txOf(ctx), { userId: ctx.caller.userId, customerId: ctx.customerId, ip: ctx.ip, publish: ctx.publish, audit: ctx.audit }, {
      kind: rail,
      requiredFlags: OPERATION_FLAGS[rail],
      fromAccountId: input.fromAccountId,
      amount: input.amount,
      currency: input.currency,
      reference: input.reference,
      note: input.note,
      params: PARAMS,
      // the payee's country goes with the details (the rail's instruction names it; recent payouts refill the form from it)
      beneficiary: { ...beneficiaryOf(input.payee), countryCode: input.countryCode },
      beneficiaryName: beneficiaryNameOf(input.payee),
    });
  };
  const fee = (name: keyof typeof PAYOUT_FEE_CALLS) => async (input: { fromAccountId: number; amount: string; currency: string; countryCode: string }, ctx: MethodContext) => {
    const rail = PAYOUT_FEE_CALLS[name];
    await requireFlags(ctx, ...OPERATION_FLAGS[rail]);
    const from = await ownAccount(ctx.db, ctx.customerId!, input.fromAccountId);
    if (input.currency !== from.currency) throw new MethodFailure('VF', 'Invalid request', [vf('currency', VfCode.currencyOfAccount)]);
    const quote = computeQuote({ from, toCurrency: from.currency, amount: input.amount, amountCurrency: input.currency, params: PARAMS }, '1', await feeRuleFor(ctx.db, rail, from.currency));
    return {
      fee: minorToDecimal(quote.feeMinor, from.currency),
      feeCurrency: from.currency,
      amount: minorToDecimal(quote.amountMinor, from.currency),
      total: minorToDecimal(quote.amountMinor + quote.feeMinor, from.currency),
    };
  };
  return {
    wireTransfer: payout('wireTransfer'),
    eftTransfer: payout('eftTransfer'),
    octTransfer: payout('octTransfer'),
    cryptoTransfer: payout('cryptoTransfer'),
    instantTransfer: payout('instantTransfer'),
    interacTransfer: payout('interacTransfer'),
    wireFee: fee('wireFee'),
    eftFee: fee('eftFee'),
    octFee: fee('octFee'),
    cryptoFee: fee('cryptoFee'),
    instantFee: fee('instantFee'),
    interacFee: fee('interacFee'),
  };
}

/** Without the app's job queue (the method table's defaults): a payout answers UE; the fee calls work. */
export const payoutHandlers = createPayoutHandlers(createTransferService({ now: Date.now, approvals: null, publisher: null }));
