/**
 * The real I/O of /transfer/approved (machines/business-approval): the decision calls
 * (businessTransactionRequestApprove, businessMassApprove) and, for the one approval chart run as
 * its child, the checker's confirmation (businessApprovalConfirm). The approval chart's other calls
 * mean something else here: giving up the approval calls nothing (the payments keep waiting), a
 * resend is not offered by the platform for these decisions. With push the checker answers on their
 * phone: the chart waits for the decided payments to settle (transferStatus of the first, polled:
 * all of a decision's payments settle together), posted or processing when approved there,
 * rejected when declined there.
 */
import type { QueryClient } from '@tanstack/react-query';
import { fromCallback, fromPromise } from 'xstate';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import { approvalMachine, type ApprovalEvent, type ApproveResult, type CancelResult, type ResendResult } from '../../../machines/approval/approval.machine.ts';
import { businessDecisionMachine, type DecideResult, type DecisionTarget } from '../../../machines/business-approval/business-approval.machine.ts';
import { callMethod, isEnglish, isFailure } from '../../lib/request.ts';
import { TRANSFER_STATUS_POLL_MS } from '../transfers/actors.ts';
import { validationMessage, validationMessages } from '../../lib/validation-messages.ts';

/** Queries a decision changes: the list, balances, history. */
const CHANGED_QUERIES = [['businessTransactionRequestList'], ['balanceInquiry'], ['transactionHistory'], ['recentTransfers']] as const;

function refreshAfterDecision(queryClient: QueryClient | undefined): void {
  for (const queryKey of CHANGED_QUERIES) void queryClient?.invalidateQueries({ queryKey: [...queryKey] });
}

/** A refusal in the customer's language (the platform's VF codes worded here). */
function refusalOf(f: Failure): { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure } {
  if (f.responseCode === ResponseCode.network) return { ok: false, code: 'network' };
  const text = f.validationErrors?.length ? validationMessages(f.validationErrors) : isEnglish() ? f.responseDescription : undefined;
  const { responseDescription: _english, ...rest } = f;
  return { ok: false, code: 'failed', failure: text === undefined ? rest : { ...rest, responseDescription: text } };
}

async function decide(target: DecisionTarget, declined: boolean, idempotencyKey: string) {
  return 'batchId' in target
    ? callMethod('businessMassApprove', { batchId: target.batchId, declined }, { idempotencyKey })
    : callMethod('businessTransactionRequestApprove', { transactionIds: [...target.transactionIds], declined }, { idempotencyKey });
}

export function createBusinessDecisionLogic(deps: { queryClient?: QueryClient; pollMs?: number }) {
  /** the payments of each checker's approval started (approvalId -> transfer ids): what a push approval waits on */
  const paymentsOf = new Map<number, readonly number[]>();
  const approval = approvalMachine.provide({
    actors: {
      // the approval chart's transactionId is the checker's approval id here
      approveTransfer: fromPromise<ApproveResult, { transactionId: number; code: string; idempotencyKey: string }>(async ({ input }) => {
        const answer = await callMethod('businessApprovalConfirm', { approvalId: input.transactionId, approvalCode: input.code }, { idempotencyKey: input.idempotencyKey });
        if (!isFailure(answer)) {
          refreshAfterDecision(deps.queryClient);
          return { ok: true, status: 'posted' };
        }
        const wrong = answer.responseCode === ResponseCode.validation ? answer.validationErrors?.find((e) => e.param === 'approvalCode') : undefined;
        if (wrong) return { ok: false, code: 'wrongCode', description: validationMessage(wrong) };
        return refusalOf(answer);
      }),
      resendApproval: fromPromise<ResendResult, { transactionId: number }>(async () => ({ ok: false, code: 'failed', failure: { responseCode: ResponseCode.validation } })),
      // giving up the checker's approval: nothing to call, the payments keep waiting
      cancelTransfer: fromPromise<CancelResult, { transactionId: number; idempotencyKey: string }>(async () => ({ ok: true, status: 'canceled' })),
      // push: the checker answers on their phone; the decided payments' status tells how (the chart's transactionId is the approval id)
      watchTransfer: fromCallback<ApprovalEvent, { transactionId: number }>(({ sendBack, input }) => {
        const first = paymentsOf.get(input.transactionId)?.[0];
        if (first === undefined) return () => undefined;
        let stopped = false;
        const check = async () => {
          const answer = await callMethod('transferStatus', { trxid: first });
          if (stopped || isFailure(answer) || answer.status === 'pending') return;
          stopped = true;
          refreshAfterDecision(deps.queryClient);
          sendBack({ type: 'TRANSFER.SETTLED', status: answer.status });
        };
        void check();
        const timer = setInterval(() => void check(), deps.pollMs ?? TRANSFER_STATUS_POLL_MS);
        return () => {
          stopped = true;
          clearInterval(timer);
        };
      }),
    },
  });
  return businessDecisionMachine.provide({
    actors: {
      decide: fromPromise<DecideResult, { target: DecisionTarget; declined: boolean; idempotencyKey: string }>(async ({ input }) => {
        const answer = await decide(input.target, input.declined, input.idempotencyKey);
        if (isFailure(answer)) return refusalOf(answer);
        refreshAfterDecision(deps.queryClient);
        const { responseCode: _code, ...rest } = answer;
        if (rest.status === 'approvalNeeded' && rest.approvalId !== null) paymentsOf.set(rest.approvalId, rest.transactionIds);
        return { ok: true, answer: rest };
      }),
      approval,
    },
  });
}
