/**
 * The real actors of the global-pay batch machine (machines/global-pay-batch): the accounts that
 * can pay, the upload (globalPayUpload, multipart: the JSON in `data`, the CSV as the part `file`;
 * '92' answered as "the same file before", not a failure) followed by the draft's read
 * (globalPayBatchGet), the draft edits (each one call answering the whole batch), the discard
 * (globalPayBatchReject), the submission with the machine's idempotency key (globalPayBatchSubmit),
 * the cancel (globalPayBatchCancel, its own key), and the one approval machine with the transfers'
 * approval actors (approveTransfer approves the batch's request, api/global-pay.ts).
 */
import { fromPromise } from 'xstate';
import { ACCOUNT_STATUS_CLOSED } from '../../../api/accounts.ts';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import { CONFIRM_RESPONSE_CODE } from '../../../api/global-pay.ts';
import { approvalMachine } from '../../../machines/approval/approval.machine.ts';
import { newIdempotencyKey } from '../../../machines/approval/idempotency-key.ts';
import {
  globalPayBatchMachine,
  type BatchResult,
  type DraftEdit,
  type GlobalBatch,
  type GlobalPayment,
  type LoadResult,
  type QuoteResult,
  type SubmitResult,
  type UploadRequest,
  type UploadResult,
} from '../../../machines/global-pay-batch/global-pay-batch.machine.ts';
import { sumDecimals } from '../../../machines/global-pay-batch/global-pay-batch.select.ts';
import { callMethod, isFailure, type MethodResult } from '../../lib/request.ts';
import { createApprovalActors, type TransferActorDeps } from '../transfers/actors.ts';

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
function refusal(f: Failure): Refusal {
  return f.responseCode === ResponseCode.network ? { ok: false, code: 'network' } : { ok: false, code: 'failed', failure: f };
}

/** A refusal with validation errors is the rows' (or the file's, or the payments') problem. */
function rowsOrRefusal(answer: Failure): { ok: false; code: 'rows'; errors: NonNullable<Failure['validationErrors']> } | Refusal {
  if (answer.responseCode === ResponseCode.validation && answer.validationErrors?.length) return { ok: false, code: 'rows', errors: answer.validationErrors };
  return refusal(answer);
}

function batchOf(answer: MethodResult<'globalPayBatchGet'>): BatchResult {
  return isFailure(answer) ? refusal(answer) : { ok: true, batch: answer.batch as GlobalBatch };
}

/** One draft edit as its call. */
function edit(batchId: number, change: DraftEdit): Promise<MethodResult<'globalPayBatchGet'>> {
  switch (change.kind) {
    case 'remove':
      return callMethod('globalPayBatchRemove', { batchId, id: change.id });
    case 'restore':
      return callMethod('globalPayBatchRestore', { batchId, id: change.id });
    case 'feeSide':
      return callMethod('globalPaySetFeeSide', { batchId, list: change.ids, feeShare: change.feeShare });
    case 'method':
      return callMethod('globalPaySetMethodForbidden', { batchId, list: change.ids, forbidden: change.forbidden, paymentMethod: change.method });
  }
}

export function createGlobalPayActors(deps: TransferActorDeps) {
  const refresh = () => {
    for (const queryKey of [['balanceInquiry'], ['transactionHistory'], ['batchTransferList']]) void deps.queryClient?.invalidateQueries({ queryKey });
  };
  return {
    loadAccounts: fromPromise<LoadResult>(async () => {
      const answer = await callMethod('balanceInquiry', {});
      if (isFailure(answer)) return refusal(answer);
      return { ok: true, accounts: answer.accounts.account.filter((a) => a.accountStatusId !== ACCOUNT_STATUS_CLOSED) };
    }),
    uploadBatch: fromPromise<UploadResult, UploadRequest>(async ({ input }) => {
      const file = new File([input.file.content], input.file.name, { type: 'text/csv' });
      const answer = await callMethod(
        'globalPayUpload',
        { accountId: input.accountId, batchName: input.batchName, ...(input.ignoreIdenticalBatch ? { ignoreIdenticalBatch: true } : {}) },
        { files: [['file', file]] },
      );
      // '92' is not a failure: the same file was uploaded before (that batch's id and date)
      const found = answer as unknown as { responseCode: string; batchId: number; date: string };
      if (found.responseCode === CONFIRM_RESPONSE_CODE) return { ok: false, code: 'identical', batchId: found.batchId, date: found.date };
      if (isFailure(answer)) return rowsOrRefusal(answer);
      return batchOf(await callMethod('globalPayBatchGet', { batchId: found.batchId }));
    }),
    editBatch: fromPromise<BatchResult, { batchId: number; edit: DraftEdit }>(async ({ input }) => batchOf(await edit(input.batchId, input.edit))),
    discardBatch: fromPromise<BatchResult, { batchId: number }>(async ({ input }) => batchOf(await callMethod('globalPayBatchReject', { batchId: input.batchId }))),
    submitBatch: fromPromise<SubmitResult, { batchId: number; idempotencyKey: string }>(async ({ input }) => {
      const answer = await callMethod('globalPayBatchSubmit', { batchId: input.batchId }, { idempotencyKey: input.idempotencyKey });
      // the payments' limits (payments.<id>.amount) go back to the draft's rows; any other check (the balance) is shown on the summary
      if (isFailure(answer)) return answer.validationErrors?.every((e) => e.param.startsWith('payments.')) ? rowsOrRefusal(answer) : refusal(answer);
      refresh();
      const { transactionId, status, approveType, approvalSentTo, amount, fee, currency, expiresAt } = answer;
      return { ok: true, submitted: { transactionId, status, approveType, approvalSentTo, amount, fee, currency, expiresAt } };
    }),
    cancelBatch: fromPromise<BatchResult, { batchId: number }>(async ({ input }) => {
      const result = batchOf(await callMethod('globalPayBatchCancel', { batchId: input.batchId }, { idempotencyKey: newIdempotencyKey() }));
      if (result.ok) refresh();
      return result;
    }),
    /**
     * The fees submitting will hold, worked out with globalPayP2pMeta (the same rule: the largest
     * fee of the methods still allowed for the country, when the sender pays it): one call per
     * distinct country, amount and forbidden methods, a few at a time.
     */
    quoteBatch: fromPromise<QuoteResult, { accountId: number; payments: GlobalPayment[] }>(async ({ input }) => {
      const groups = new Map<string, { payment: GlobalPayment; count: number }>();
      for (const p of input.payments) {
        if (p.feeShare !== 'sender') continue;
        const forbidden = p.paymentMethods.filter((m) => m.forbidden).map((m) => m.name);
        const key = [p.beneficiaryCountryCode, p.amount, ...forbidden.sort()].join('|');
        const group = groups.get(key) ?? { payment: p, count: 0 };
        group.count += 1;
        groups.set(key, group);
      }
      const fees: string[] = [];
      const entries = [...groups.values()];
      for (let i = 0; i < entries.length; i += 6) {
        const answers = await Promise.all(
          entries.slice(i, i + 6).map(({ payment }) =>
            callMethod('globalPayP2pMeta', {
              accountId: input.accountId,
              countryCode: payment.beneficiaryCountryCode,
              amount: payment.amount,
              feeShare: 'sender',
              forbiddenMethods: payment.paymentMethods.filter((m) => m.forbidden).map((m) => m.name),
            }),
          ),
        );
        for (const [j, answer] of answers.entries()) {
          if (isFailure(answer)) return refusal(answer);
          for (let n = 0; n < entries[i + j]!.count; n++) fees.push(answer.fee);
        }
      }
      const fee = sumDecimals(fees.length ? fees : ['0.00']);
      return { ok: true, quote: { fee, total: sumDecimals([...input.payments.map((p) => p.amount), fee]) } };
    }),
    approval: approvalMachine.provide({ actors: createApprovalActors(deps) }),
  };
}

/** The global-pay batch machine with the real actors. */
export function createGlobalPayLogic(deps: TransferActorDeps) {
  return globalPayBatchMachine.provide({ actors: createGlobalPayActors(deps) });
}
