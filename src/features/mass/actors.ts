/**
 * The real actors of the mass transfer machine (machines/mass-transfer): the accounts that can
 * pay, the upload call (massP2pFile with the CSV as its `file` part, massP2pText with pasted
 * lines, massExternalFile with the payout method) as a preview and then for real with the
 * machine's idempotency key, the batch read every PROGRESS_POLL_MS while its rows are paid, and
 * the one approval machine with the transfers' approval actors.
 */
import { fromCallback, fromPromise } from 'xstate';
import { ACCOUNT_STATUS_CLOSED } from '../../../api/accounts.ts';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import type { MassKind } from '../../../api/mass.ts';
import { approvalMachine } from '../../../machines/approval/approval.machine.ts';
import {
  massTransferMachine,
  PROGRESS_POLL_MS,
  type MassCheckResult,
  type MassCreateResult,
  type MassEvent,
  type MassLoadResult,
  type MassUploadRequest,
} from '../../../machines/mass-transfer/mass-transfer.machine.ts';
import { callMethod, isFailure, type MethodResult } from '../../lib/request.ts';
import { createApprovalActors, type TransferActorDeps } from '../transfers/actors.ts';

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
function refusal(f: Failure): Refusal {
  return f.responseCode === ResponseCode.network ? { ok: false, code: 'network' } : { ok: false, code: 'failed', failure: f };
}

/** The upload call of the request (preview or not); the key: a fresh one for a preview, the machine's for the batch. */
function upload(request: MassUploadRequest, idempotencyKey: string): Promise<MethodResult<'massP2pFile'>> {
  const base = { accountId: request.accountId, ...(request.preview ? { preview: true } : {}) };
  const files = request.file ? ([['file', new File([request.file.content], request.file.name, { type: 'text/csv' })]] as const) : [];
  if (request.kind === 'p2p') {
    return request.source === 'text'
      ? callMethod('massP2pText', { ...base, text: request.text }, { idempotencyKey })
      : callMethod('massP2pFile', base, { idempotencyKey, files });
  }
  return callMethod('massExternalFile', { ...base, paymentMethod: request.kind as Exclude<MassKind, 'p2p'> }, { idempotencyKey, files }) as Promise<MethodResult<'massP2pFile'>>;
}

function previewKey(): string {
  return `preview-${crypto.randomUUID()}`;
}

/** A refusal with validation errors is the rows' (or the file's, or the account's) problem. */
function rowsOrRefusal(answer: Failure): { ok: false; code: 'rows'; errors: NonNullable<Failure['validationErrors']> } | Refusal {
  if (answer.responseCode === ResponseCode.validation && answer.validationErrors?.length) return { ok: false, code: 'rows', errors: answer.validationErrors };
  return refusal(answer);
}

export function createMassActors(deps: TransferActorDeps) {
  return {
    loadAccounts: fromPromise<MassLoadResult, { kind: MassKind }>(async () => {
      const answer = await callMethod('balanceInquiry', {});
      if (isFailure(answer)) return refusal(answer);
      return { ok: true, accounts: answer.accounts.account.filter((a) => a.accountStatusId !== ACCOUNT_STATUS_CLOSED) };
    }),
    checkBatch: fromPromise<MassCheckResult, MassUploadRequest>(async ({ input }) => {
      const answer = await upload(input, previewKey());
      if (isFailure(answer)) return rowsOrRefusal(answer);
      return { ok: true, preview: { rows: answer.rows, count: answer.count, currency: answer.currency, total: answer.total, fee: answer.fee, grandTotal: answer.grandTotal } };
    }),
    createBatch: fromPromise<MassCreateResult, MassUploadRequest & { idempotencyKey: string }>(async ({ input }) => {
      const answer = await upload(input, input.idempotencyKey);
      if (isFailure(answer)) return rowsOrRefusal(answer);
      for (const queryKey of [['balanceInquiry'], ['transactionHistory'], ['batchTransferList']]) void deps.queryClient?.invalidateQueries({ queryKey });
      return {
        ok: true,
        created: {
          rows: answer.rows,
          count: answer.count,
          currency: answer.currency,
          total: answer.total,
          fee: answer.fee,
          grandTotal: answer.grandTotal,
          batchId: answer.batchId!,
          transactionId: answer.transactionId!,
          status: answer.status!,
          approveType: answer.approveType!,
          approvalSentTo: answer.approvalSentTo,
          expiresAt: answer.expiresAt!,
        },
      };
    }),
    /** The batch read now and every PROGRESS_POLL_MS (a read that fails is tried again at the next tick). */
    watchBatch: fromCallback<MassEvent, { batchId: number }>(({ sendBack, input }) => {
      let stopped = false;
      const read = async () => {
        const answer = await callMethod('batchFileView', { id: input.batchId });
        if (stopped || isFailure(answer)) return;
        sendBack({ type: 'BATCH.PROGRESS', batch: answer.batch });
        if (answer.batch.status !== 'processing' && answer.batch.status !== 'awaitingApproval') {
          for (const queryKey of [['balanceInquiry'], ['transactionHistory'], ['batchTransferList']]) void deps.queryClient?.invalidateQueries({ queryKey });
        }
      };
      void read();
      const timer = setInterval(() => void read(), PROGRESS_POLL_MS);
      return () => {
        stopped = true;
        clearInterval(timer);
      };
    }),
    approval: approvalMachine.provide({ actors: createApprovalActors(deps) }),
  };
}

/** The mass transfer machine with the real actors. */
export function createMassLogic(deps: TransferActorDeps) {
  return massTransferMachine.provide({ actors: createMassActors(deps) });
}
