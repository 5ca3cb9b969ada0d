/**
 * Named methods of transfers (api/transfers.ts): fee, max amount and limits; the between-accounts
 * and person-to-person requests; approve, resend, cancel, status. Every one checks the permission
 * flags of its operation (permissions.ts) first, for the acting customer; accounts must be the
 * acting customer's (ENOA otherwise) and open (CA). The money-moving ones run in the endpoint's
 * transaction under an Idempotency-Key (method-endpoint.ts).
 */
import { eq } from 'drizzle-orm';
import type { PermissionFlag, transferMethods, TransferOperation } from '../../../api/transfers.ts';
import type { Tx } from '../../db/types.ts';
import { minorToDecimal } from '../accounts/money.ts';
import { MethodFailure, vfFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { limitsFor, usedToday, feeOperationOf, feeRuleFor } from './fees.ts';
import { GLOBAL_PAY_FLAGS, heldFlags, MASS_OPERATION_FLAGS, OPERATION_FLAGS, PermissionMessages, requireFlags } from './permissions.ts';
import { transfers } from './transfers.tables.ts';
import { transferBatches } from './mass.tables.ts';
import { globalPayBatches } from './global-pay.tables.ts';
import {
  createTransferService,
  maxSendable,
  ownAccount,
  quoteAmounts,
  TransferMessages,
  type OneStatementClaim,
  type ParamNames,
  type RequestSpec,
  type TransferActor,
  type TransferService,
} from './transfers.service.ts';
import type { OneStatement } from '../platform/method-endpoint.ts';
import type * as v from 'valibot';
import { VfCode } from '../../../api/errors.ts';

export type TransferHandlersMethods = Pick<
  typeof transferMethods,
  'transferFee' | 'transferMaxAmount' | 'customerLimits' | 'transferBetweenAccounts' | 'transferP2p' | 'approveTransfer' | 'resendApproval' | 'transferCancel' | 'transferStatus'
>;

const vf = vfFailure;

function actorOf(ctx: MethodContext): TransferActor {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
  return { userId: ctx.caller.userId, customerId: ctx.customerId, ip: ctx.ip, publish: ctx.publish, audit: ctx.audit, ownCustomerId: ctx.caller.customerId };
}

/** The endpoint hands a mutation its transaction as `db`. */
const txOf = (ctx: MethodContext): Tx => ctx.db as unknown as Tx;

const FEE_PARAMS: ParamNames = { from: 'fromAccountId', to: 'toAccountId', amount: 'amount', currency: 'currency' };
const BETWEEN_PARAMS: ParamNames = { from: 'fromAccount', to: 'toAccount', amount: 'toAmount', currency: 'currency' };
const P2P_PARAMS: ParamNames = { from: 'accountId', to: 'toEmail', amount: 'amount', currency: 'currency' };

/**
 * The flags of the operation a stored transfer is (approve, resend, cancel and status need them
 * too). For an unknown id or another customer's, the flags of either operation: the service then
 * answers TA1 / ENOA, and someone with no money rights learns nothing about transfer ids.
 */
async function requireFlagsOfTransfer(ctx: MethodContext, id: number): Promise<void> {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', PermissionMessages.signIn);
  const [t] = await ctx.db.select({ kind: transfers.kind, customerId: transfers.customerId }).from(transfers).where(eq(transfers.id, id));
  const held = await heldFlags(ctx);
  const holds = (needed: readonly PermissionFlag[]) => needed.every((flag) => held.has(flag));
  const own = t && t.customerId === ctx.customerId ? t : null;
  let allowed: boolean;
  if (own?.kind === 'mass') {
    // a mass batch's request: the flags of the batch's kind
    const [batch] = await ctx.db.select({ kind: transferBatches.kind }).from(transferBatches).where(eq(transferBatches.transferId, id));
    // or a global-pay batch's (global-pay.service.ts): mass.global for a file, others.global for one payment
    const [global] = batch ? [] : await ctx.db.select({ source: globalPayBatches.source }).from(globalPayBatches).where(eq(globalPayBatches.transferId, id));
    allowed = batch !== undefined ? holds(MASS_OPERATION_FLAGS[batch.kind]) : global !== undefined && holds(GLOBAL_PAY_FLAGS[global.source]);
  } else if (own?.kind === 'cardFee') {
    // a card's application fee (cards.service.ts) asks no permission flag: the applicant approves it
    allowed = true;
  } else allowed = own ? holds(OPERATION_FLAGS[own.kind]) : holds(OPERATION_FLAGS.betweenAccounts) || holds(OPERATION_FLAGS.p2p);
  if (!allowed) throw new MethodFailure('13', PermissionMessages.notAllowed);
}

type BetweenInput = v.InferOutput<(typeof transferMethods)['transferBetweenAccounts']['request']>;

function betweenSpec(input: BetweenInput): RequestSpec {
  return {
    kind: 'betweenAccounts',
    requiredFlags: OPERATION_FLAGS.betweenAccounts,
    fromAccountId: input.fromAccount,
    toAccountId: input.toAccount,
    amount: input.toAmount,
    currency: input.currency,
    subscription: input,
    params: BETWEEN_PARAMS,
  };
}

export function createTransferHandlers(service: TransferService): HandlerTable<TransferHandlersMethods> {
  return {
    async transferFee(input, ctx) {
      await requireFlags(ctx, ...OPERATION_FLAGS[input.operation]);
      const customerId = actorOf(ctx).customerId;
      const from = await ownAccount(ctx.db, customerId, input.fromAccountId);
      let toCurrency = from.currency;
      if (input.operation === 'betweenAccounts') {
        if (input.toAccountId === undefined) throw vf('toAccountId', VfCode.required);
        if (input.toAccountId === input.fromAccountId) throw vf('toAccountId', VfCode.sameAccount);
        toCurrency = (await ownAccount(ctx.db, customerId, input.toAccountId)).currency;
      } else if (input.currency !== undefined && input.currency !== from.currency) {
        throw vf('currency', VfCode.currencyOfAccount);
      }
      const quote = await quoteAmounts(ctx.db, {
        kind: input.operation,
        from,
        toCurrency,
        amount: input.amount,
        amountCurrency: input.currency ?? from.currency,
        params: FEE_PARAMS,
      });
      return {
        fee: minorToDecimal(quote.feeMinor, from.currency),
        feeCurrency: from.currency,
        amount: minorToDecimal(quote.amountMinor, from.currency),
        currency: from.currency,
        toAmount: minorToDecimal(quote.toAmountMinor, toCurrency),
        toCurrency,
        rate: quote.rate,
      };
    },

    async transferMaxAmount(input, ctx) {
      await requireFlags(ctx, ...OPERATION_FLAGS[input.operation]);
      const customerId = actorOf(ctx).customerId;
      const from = await ownAccount(ctx.db, customerId, input.fromAccountId);
      let toCurrency = from.currency;
      if (input.operation === 'betweenAccounts' && input.toAccountId !== undefined) {
        if (input.toAccountId === input.fromAccountId) throw vf('toAccountId', VfCode.sameAccount);
        toCurrency = (await ownAccount(ctx.db, customerId, input.toAccountId)).currency;
      }
      const rule = await feeRuleFor(ctx.db, feeOperationOf(input.operation, from.currency, toCurrency), from.currency);
      // What may leave: the balance less held money and the floor; then less the fee on it. Never negative.
      const available = from.balanceMinor - from.pendingMinor - from.balanceMinMinor;
      return { maxAmount: minorToDecimal(maxSendable(available, rule), from.currency), currency: from.currency };
    },

    async customerLimits(input, ctx) {
      await requireFlags(ctx, ...OPERATION_FLAGS[input.type]);
      const customerId = actorOf(ctx).customerId;
      if (input.fromAccountId !== undefined) await ownAccount(ctx.db, customerId, input.fromAccountId);
      const limits = await limitsFor(ctx.db, input.type, input.currencyCode);
      const used = await usedToday(ctx.db, customerId, input.type, input.currencyCode, service.now());
      const cur = input.currencyCode;
      return {
        limits: {
          currencyCode: cur,
          minAmount: minorToDecimal(limits.minMinor, cur),
          maxAmount: minorToDecimal(limits.maxMinor, cur),
          dailyLimit: minorToDecimal(limits.dailyMinor, cur),
          dailyRemaining: minorToDecimal(limits.dailyMinor > used ? limits.dailyMinor - used : 0n, cur),
        },
      };
    },

    // The transactional path, and (oneStatement) the one-statement path the endpoint tries first.
    transferBetweenAccounts: Object.assign(
      async (input: BetweenInput, ctx: MethodContext) => service.request(txOf(ctx), actorOf(ctx), betweenSpec(input)),
      { oneStatement: ((input, ctx, claim: OneStatementClaim) => service.requestNow(ctx.db, actorOf(ctx), betweenSpec(input), claim)) satisfies OneStatement<BetweenInput> },
    ),

    async transferP2p(input, ctx) {
      return service.request(txOf(ctx), actorOf(ctx), {
        kind: 'p2p',
        requiredFlags: OPERATION_FLAGS.p2p,
        fromAccountId: input.accountId,
        toEmail: input.toEmail,
        amount: input.amount,
        currency: input.currency,
        note: input.note || undefined,
        reference: input.reference || undefined,
        templateName: input.templateName || undefined,
        subscription: input,
        params: P2P_PARAMS,
      });
    },

    async approveTransfer(input, ctx) {
      await requireFlagsOfTransfer(ctx, input.trxid);
      return service.approve(txOf(ctx), actorOf(ctx), input.trxid, input.approvalCode);
    },

    async resendApproval(input, ctx) {
      await requireFlagsOfTransfer(ctx, input.trxid);
      return service.resend(txOf(ctx), actorOf(ctx), input.trxid);
    },

    async transferCancel(input, ctx) {
      await requireFlagsOfTransfer(ctx, input.trxid);
      return service.cancel(txOf(ctx), actorOf(ctx), input.trxid);
    },

    async transferStatus(input, ctx) {
      await requireFlagsOfTransfer(ctx, input.trxid);
      return service.status(ctx.db, actorOf(ctx), input.trxid);
    },
  };
}

/** The table's default (the app builds its own with its clock, push approvals and publisher). */
export const transferHandlers = createTransferHandlers(createTransferService({ now: Date.now, approvals: null, publisher: null }));
