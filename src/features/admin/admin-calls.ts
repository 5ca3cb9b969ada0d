/**
 * The administrator's changes as the views and the admin-review machine call them: expected
 * failures are values (VF as field errors, no answer as network, the rest refused with the
 * platform's words), never thrown.
 */
import { ResponseCode, type Failure, type ValidationError } from '../../../api/envelope.ts';
import type { ReviewDecision } from '../../../api/documents.ts';
import type { DecideRequest, DecideResult, IdentityJobDecision } from '../../../machines/admin-review/admin-review.machine.ts';
import { callMethod, describeFailure, isFailure } from '../../lib/request.ts';

export type CallOutcome = { ok: true } | { ok: false; code: 'fields'; errors: ValidationError[]; text: string } | { ok: false; code: 'network' | 'refused'; text: string };

function outcomeOf(answer: { responseCode: string }): CallOutcome {
  if (!isFailure(answer)) return { ok: true };
  const text = describeFailure(answer);
  if (answer.responseCode === ResponseCode.validation && answer.validationErrors?.length) return { ok: false, code: 'fields', errors: answer.validationErrors, text };
  return { ok: false, code: answer.responseCode === ResponseCode.network ? 'network' : 'refused', text };
}

/** The decision on a queue item: a document (adminDocumentDecide) or an identity job (adminIdentityJobDecide). */
export async function decideReviewItem(request: DecideRequest): Promise<DecideResult> {
  const reason = request.reason !== null ? { reason: request.reason } : {};
  const { target, decision } = request;
  if (target.kind === 'recoveryTask') {
    // 'reject' lets the caller ask again, 'rejectFinal' does not (isRetryable).
    const answer = await callMethod('adminRecoveryTaskDecide', {
      taskId: target.taskId,
      decision: decision === 'approve' ? 'approve' : 'reject',
      ...reason,
      ...(decision === 'approve' ? {} : { isRetryable: decision === 'reject' }),
    });
    return isFailure(answer) ? failureOf(answer) : { ok: true, customerVerified: false };
  }
  const answer =
    target.kind === 'document'
      ? await callMethod('adminDocumentDecide', { documentId: target.documentId, decision: decision as ReviewDecision, ...reason })
      : await callMethod('adminIdentityJobDecide', { workflowRunId: target.workflowRunId, decision: decision as IdentityJobDecision, ...reason });
  if (!isFailure(answer)) return { ok: true, customerVerified: answer.customerVerified };
  return failureOf(answer);
}

function failureOf(answer: { responseCode: string } & Failure): DecideResult {
  if (answer.responseCode === ResponseCode.validation && answer.validationErrors?.length) return { ok: false, code: 'fields', errors: answer.validationErrors };
  if (answer.responseCode === ResponseCode.network) return { ok: false, code: 'network' };
  return { ok: false, code: 'refused', detail: describeFailure(answer) };
}

export const reassignDocument = async (documentId: number, toCustomerId: number) => outcomeOf(await callMethod('adminDocumentAssign', { documentId, toCustomerId }));
export const removeDocument = async (documentId: number) => outcomeOf(await callMethod('adminDocumentRemove', { documentId }));
export const limitCustomer = async (customerId: number, reason: 'expiredDocuments' | 'unpaidInvoice' | 'sanctions' | 'adverseMedia' | 'accountInvestigation', note: string, requiredDocumentTypeIds: number[]) =>
  outcomeOf(await callMethod('adminCustomerLimit', { customerId, reason, requiredDocumentTypeIds, ...(note ? { note } : {}) }));
export const unlimitCustomer = async (customerId: number, note: string) => outcomeOf(await callMethod('adminCustomerUnlimit', { customerId, ...(note ? { note } : {}) }));
export const updateFinancialInfo = async (customerId: number, info: { annualIncome: string; netWorth: string; sourceOfWealth: string; employerName: string }) =>
  outcomeOf(
    await callMethod('financialDetailUpdate', {
      customerId,
      annualIncome: info.annualIncome.trim() || null,
      netWorth: info.netWorth.trim() || null,
      sourceOfWealth: info.sourceOfWealth.trim() || null,
      employerName: info.employerName.trim() || null,
    }),
  );
export const updateDueDiligence = async (customerId: number, dueDiligenceLevel: number, addressDocumentRequired: boolean) =>
  outcomeOf(await callMethod('dueDiligenceUpdate', { customerId, dueDiligenceLevel, addressDocumentRequired }));

/** Removes a company's representative (representativeDelete for the company); `force` removes one the company needs, with what belongs to it (document 3 §6: administrators only). */
export const removeRepresentative = async (companyId: number, id: number, force: boolean) =>
  outcomeOf(await callMethod('representativeDelete', { id, force, fromCustomerId: companyId }));
