/**
 * Named methods of maker-checker approvals (api/business-approvals.ts): the list of a company's
 * waiting payments and batches, the decisions on payments and on a mass batch, and the checker's
 * own approval's confirmation. The rights table (api/rights.ts: 'money') runs first; the service
 * then allows only the company's owner or a user with right 2. The decisions run in the endpoint's
 * one transaction under an Idempotency-Key (api/idempotency.ts).
 */
import type { businessApprovalMethods } from '../../../api/business-approvals.ts';
import type { Tx } from '../../db/types.ts';
import { MethodFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { createBusinessApprovalService, type BusinessApprovalService } from './business-approvals.service.ts';
import { createTransferService, type TransferActor } from './transfers.service.ts';

function actorOf(ctx: MethodContext): TransferActor {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', 'Sign-in required');
  return { userId: ctx.caller.userId, customerId: ctx.customerId, ip: ctx.ip, publish: ctx.publish, audit: ctx.audit, ownCustomerId: ctx.caller.customerId };
}

/** The endpoint hands a mutation its transaction as `db`. */
const txOf = (ctx: MethodContext): Tx => ctx.db as unknown as Tx;

export function createBusinessApprovalHandlers(service: BusinessApprovalService): HandlerTable<typeof businessApprovalMethods> {
  return {
    async businessTransactionRequestList(input, ctx) {
      return service.list(ctx.db, actorOf(ctx), input.pageNumber ?? 1);
    },
    async businessTransactionRequestApprove(input, ctx) {
      return service.decide(txOf(ctx), actorOf(ctx), { transactionIds: input.transactionIds }, input.declined);
    },
    async businessMassApprove(input, ctx) {
      return service.decide(txOf(ctx), actorOf(ctx), { batchId: input.batchId }, input.declined);
    },
    async businessApprovalConfirm(input, ctx) {
      return service.confirm(txOf(ctx), actorOf(ctx), input.approvalId, input.approvalCode);
    },
  };
}

/** The table's default (the app builds its own on its transfer service and clock). */
export const businessApprovalHandlers = createBusinessApprovalHandlers(
  createBusinessApprovalService({ now: Date.now, transfers: createTransferService({ now: Date.now, approvals: null, publisher: null }) }),
);
