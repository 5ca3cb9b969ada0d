/** Snapshot -> view facts for the administrator's decision on one document or identity job. */
import type { SnapshotFrom } from 'xstate';
import type { AdminReviewMachine } from './admin-review.machine.ts';

export type AdminReviewSnapshot = SnapshotFrom<AdminReviewMachine>;
export type AdminReviewStep = 'choosing' | 'reasoning' | 'confirming' | 'deciding' | 'failed' | 'done' | 'canceled';

export function selectAdminReviewStep(s: AdminReviewSnapshot): AdminReviewStep {
  if (s.matches('reasoning')) return 'reasoning';
  if (s.matches('confirming')) return 'confirming';
  if (s.matches('deciding')) return 'deciding';
  if (s.matches('failed')) return 'failed';
  if (s.matches('done')) return 'done';
  if (s.matches('canceled')) return 'canceled';
  return 'choosing';
}

export function selectAdminReviewView(s: AdminReviewSnapshot) {
  return {
    step: selectAdminReviewStep(s),
    target: s.context.target,
    decision: s.context.decision,
    reason: s.context.reason,
    reasonError: s.context.reasonError,
    failure: s.context.failure,
    customerVerified: s.context.customerVerified,
    busy: s.hasTag('busy'),
    canBack: s.can({ type: 'BACK' }),
    canCancel: s.can({ type: 'CANCEL' }),
    canRetry: s.can({ type: 'RETRY' }),
  };
}
