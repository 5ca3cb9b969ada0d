/**
 * The real actors of the transfer and approval machines (machines/transfer, machines/approval):
 * named methods of api/transfers.ts through the request wrapper, the money-moving ones with the
 * machine's idempotency key, and the push wait (the customer's live channel plus a slow
 * transferStatus poll, since a socket can drop). Expected failures come back as values; nothing
 * here logs a code or a token.
 */
import type { QueryClient } from '@tanstack/react-query';
import { fromCallback, fromPromise } from 'xstate';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import type { TransferStatus } from '../../../api/transfers.ts';
import { PAYOUT_FEE_CALL_OF } from '../../../api/payouts.ts';
import { PAYOUT_METHODS } from '../../../api/payees/payout-methods.ts';
import {
  approvalMachine,
  type ApprovalEvent,
  type ApproveResult,
  type CancelResult,
  type ResendResult,
} from '../../../machines/approval/approval.machine.ts';
import {
  transferMachine,
  type FeeResult,
  type LimitsResult,
  type LoadResult,
  type MaxAmountResult,
  type MethodsResult,
  type PayeeFormResult,
  type PayeeResult,
  type SubmitResult,
  type TransferResult,
} from '../../../machines/transfer/transfer.machine.ts';
import {
  fieldErrorsOf,
  type FeeRequest,
  type LimitsRequest,
  type MaxAmountRequest,
  type MethodsRequest,
  type PayeeFormRequest,
  type TransferKind,
  type TransferRequest,
} from '../../../machines/transfer/transfer.rules.ts';
import { getPushUrl } from '../../lib/api-base.ts';
import { connectPush, type PushOptions } from '../../lib/push-client.ts';
import { callMethod, isEnglish, isFailure, type MethodResult } from '../../lib/request.ts';
import { validationMessage, validationMessages } from '../../lib/validation-messages.ts';

/** The push wait also asks the transfer's status this often (a dropped socket loses events). */
export const TRANSFER_STATUS_POLL_MS = 5_000;

export interface TransferActorDeps {
  /** the session's access token, for the live channel */
  getAccessToken(): string | null;
  /** balances and history change after a transfer: their queries are refreshed */
  queryClient?: QueryClient;
  /** the live channel (src/lib/push-client.ts connectPush); tests pass their own */
  connect?: (opts: PushOptions) => () => void;
}

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };

function refusal(f: Failure): Refusal {
  return f.responseCode === ResponseCode.network ? { ok: false, code: 'network' } : { ok: false, code: 'failed', failure: f };
}

function withoutCode<T extends { responseCode: string }>(answer: T): Omit<T, 'responseCode'> {
  const { responseCode: _code, ...rest } = answer;
  return rest;
}

/** Queries a posted (or held) transfer changes: balances, history, recent transfers. */
const CHANGED_QUERIES = [['balanceInquiry'], ['transactionHistory'], ['recentTransfers']] as const;

function refreshAfterTransfer(deps: TransferActorDeps): void {
  for (const queryKey of CHANGED_QUERIES) void deps.queryClient?.invalidateQueries({ queryKey: [...queryKey] });
}

async function sendTransfer(request: TransferRequest, idempotencyKey: string): Promise<MethodResult<'transferBetweenAccounts'>> {
  switch (request.method) {
    case 'transferBetweenAccounts':
      return callMethod('transferBetweenAccounts', request.payload, { idempotencyKey });
    case 'transferP2p':
      return callMethod('transferP2p', request.payload, { idempotencyKey });
    default:
      // a payout: every rail's call takes the same request and answers as a transfer does
      return callMethod(request.method, request.payload, { idempotencyKey });
  }
}

/** A payout's fee, as the form's quote: sent in the source's currency, so it arrives as it leaves (rate 1). */
async function quotePayout(input: FeeRequest): Promise<FeeResult> {
  const answer = await callMethod(PAYOUT_FEE_CALL_OF[input.method!], {
    fromAccountId: input.fromAccountId,
    amount: input.amount,
    currency: input.currency!,
    countryCode: input.countryCode!,
  });
  if (isFailure(answer)) return refusal(answer);
  const currency = answer.feeCurrency;
  return { ok: true, quote: { fee: answer.fee, feeCurrency: currency, amount: answer.amount, currency, toAmount: answer.amount, toCurrency: currency, rate: '1' } };
}

/**
 * The approval machine shows a refusal's responseDescription as its text: give it the customer's
 * words (the VF errors by code), the platform's English only to English readers, else none (the
 * view's own message for the error then stands alone).
 */
function approvalRefusal(f: Failure): Refusal {
  const text = f.validationErrors?.length ? validationMessages(f.validationErrors) : isEnglish() ? f.responseDescription : undefined;
  const { responseDescription: _english, ...rest } = f;
  return refusal(text === undefined ? rest : { ...rest, responseDescription: text });
}

export function createApprovalActors(deps: TransferActorDeps) {
  return {
    approveTransfer: fromPromise<ApproveResult, { transactionId: number; code: string; idempotencyKey: string }>(async ({ input }) => {
      const answer = await callMethod('approveTransfer', { trxid: input.transactionId, approvalCode: input.code }, { idempotencyKey: input.idempotencyKey });
      if (!isFailure(answer)) {
        refreshAfterTransfer(deps);
        return { ok: true, status: answer.status };
      }
      const wrong = answer.responseCode === ResponseCode.validation ? answer.validationErrors?.find((e) => e.param === 'approvalCode') : undefined;
      if (!wrong) return approvalRefusal(answer);
      // The last wrong code rejects the transfer (said on the same field): then the approval is over.
      const now = await callMethod('transferStatus', { trxid: input.transactionId });
      // The approval machine keeps the platform's error as text: word it in the customer's language here.
      const text = validationMessage(wrong);
      if (!isFailure(now) && now.status !== 'pending') return { ok: false, code: 'failed', failure: { responseCode: ResponseCode.validation, responseDescription: text } };
      return { ok: false, code: 'wrongCode', description: text };
    }),
    resendApproval: fromPromise<ResendResult, { transactionId: number }>(async ({ input }) => {
      const answer = await callMethod('resendApproval', { trxid: input.transactionId });
      return isFailure(answer) ? approvalRefusal(answer) : { ok: true, approvalSentTo: answer.approvalSentTo };
    }),
    cancelTransfer: fromPromise<CancelResult, { transactionId: number; idempotencyKey: string }>(async ({ input }) => {
      const answer = await callMethod('transferCancel', { trxid: input.transactionId }, { idempotencyKey: input.idempotencyKey });
      if (isFailure(answer)) return approvalRefusal(answer);
      refreshAfterTransfer(deps);
      return { ok: true, status: answer.status };
    }),
    /**
     * Waiting for the phone: the TransactionConfirmation push event of this transfer, and a slow
     * transferStatus poll in case the socket dropped. Either way the platform's status decides.
     */
    watchTransfer: fromCallback<ApprovalEvent, { transactionId: number }>(({ sendBack, input }) => {
      let stopped = false;
      let reported = false;
      const report = (status: TransferStatus) => {
        if (stopped || reported || status === 'pending') return;
        reported = true;
        sendBack({ type: 'TRANSFER.SETTLED', status });
      };
      const check = async (fromEvent: TransferStatus | null) => {
        const answer = await callMethod('transferStatus', { trxid: input.transactionId });
        if (!isFailure(answer)) report(answer.status);
        // The status could not be read: the event itself is the best answer there is.
        else if (fromEvent) report(fromEvent);
      };
      const disconnect = (deps.connect ?? connectPush)({
        url: getPushUrl(),
        getToken: deps.getAccessToken,
        onEvent: (event) => {
          if (event.type === 'TransferApproval' && event.transactionId === input.transactionId) void check(event.status);
          // The older confirmation event says the same in two words.
          if (event.type === 'TransactionConfirmation' && event.transactionId === input.transactionId) void check(event.status === 'approved' ? 'posted' : 'rejected');
        },
      });
      const timer = setInterval(() => void check(null), TRANSFER_STATUS_POLL_MS);
      return () => {
        stopped = true;
        clearInterval(timer);
        disconnect();
      };
    }),
  };
}

export function createTransferActors(deps: TransferActorDeps) {
  return {
    loadSetup: fromPromise<LoadResult, { kind: TransferKind; recentLimit: number }>(async ({ input }) => {
      const kind = input.kind;
      const [accounts, permissions, recent] = await Promise.all([
        callMethod('balanceInquiry', {}),
        callMethod('moneyPermissions', {}),
        input.recentLimit > 0 ? callMethod('recentTransfers', { types: kind === 'external' ? [...PAYOUT_METHODS] : [kind], permission: '3d', limit: input.recentLimit }) : null,
      ]);
      if (isFailure(accounts)) return refusal(accounts);
      if (isFailure(permissions)) return refusal(permissions);
      // Recent transfers are a convenience: without them the form still works.
      const list = recent && !isFailure(recent) ? recent.transfers.filter((r) => !r.isDisabled) : [];
      return { ok: true, accounts: accounts.accounts.account, permissions: permissions.permissions, recent: list };
    }),
    quoteFee: fromPromise<FeeResult, FeeRequest>(async ({ input }) => {
      if (input.operation === 'external') return quotePayout(input);
      const { operation, method: _method, countryCode: _country, ...rest } = input;
      const answer = await callMethod('transferFee', { ...rest, operation });
      return isFailure(answer) ? refusal(answer) : { ok: true, quote: withoutCode(answer) };
    }),
    fetchLimits: fromPromise<LimitsResult, LimitsRequest>(async ({ input }) => {
      const answer = await callMethod('customerLimits', input);
      return isFailure(answer) ? refusal(answer) : { ok: true, limits: answer.limits };
    }),
    checkPayee: fromPromise<PayeeResult, { email: string }>(async ({ input }) => {
      const answer = await callMethod('checkPayee', { email: input.email });
      return isFailure(answer) ? refusal(answer) : { ok: true, payee: withoutCode(answer) };
    }),
    fetchMaxAmount: fromPromise<MaxAmountResult, MaxAmountRequest>(async ({ input }) => {
      const answer = await callMethod('transferMaxAmount', input);
      return isFailure(answer) ? refusal(answer) : { ok: true, maxAmount: answer.maxAmount, currency: answer.currency };
    }),
    fetchMethods: fromPromise<MethodsResult, MethodsRequest>(async ({ input }) => {
      const answer = await callMethod('transferMethods', input);
      return isFailure(answer) ? refusal(answer) : { ok: true, methods: answer.methods };
    }),
    fetchPayeeForm: fromPromise<PayeeFormResult, PayeeFormRequest>(async ({ input }) => {
      // a card payout also needs the BINs the provider refuses (§5: kept only when not empty)
      const [form, bins] = await Promise.all([callMethod('extraParams', input), input.paymentMethod === 'oct' ? callMethod('blockedBinList', {}) : null]);
      if (isFailure(form)) return refusal(form);
      if (bins && isFailure(bins)) return refusal(bins);
      return { ok: true, form: { fields: form.params, oneOf: form.oneOf ?? [], blockedBins: bins?.bins ?? [] } };
    }),
    submitTransfer: fromPromise<SubmitResult, { request: TransferRequest; idempotencyKey: string }>(async ({ input }) => {
      const answer = await sendTransfer(input.request, input.idempotencyKey);
      if (!isFailure(answer)) {
        refreshAfterTransfer(deps);
        return { ok: true, result: withoutCode(answer) as TransferResult };
      }
      if (answer.responseCode === ResponseCode.validation && answer.validationErrors) {
        const fieldErrors = fieldErrorsOf(answer.validationErrors);
        if (fieldErrors) return { ok: false, code: 'fields', fieldErrors };
      }
      return refusal(answer);
    }),
    approval: approvalMachine.provide({ actors: createApprovalActors(deps) }),
  };
}

/** The transfer machine with the real actors. */
export function createTransferLogic(deps: TransferActorDeps) {
  return transferMachine.provide({ actors: createTransferActors(deps) });
}
