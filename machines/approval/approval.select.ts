/** Snapshot -> view facts for the transfer approval step. */
import type { SnapshotFrom } from 'xstate';
import type { ApprovalMachine } from './approval.machine.ts';

export type ApprovalSnapshot = SnapshotFrom<ApprovalMachine>;

export function selectApprovalView(s: ApprovalSnapshot) {
  const c = s.context;
  const over = s.status === 'done' || s.matches('ending');
  return {
    mode: c.approveType,
    /** code: a code is typed; phone: waiting for the linked phone; over: the child has finished */
    step: over ? ('over' as const) : c.approveType === 'push' ? ('phone' as const) : ('code' as const),
    sentTo: c.approvalSentTo,
    verifying: s.matches({ active: { step: 'verifying' } }),
    canceling: s.matches({ active: { step: 'canceling' } }),
    busy: s.hasTag('busy'),
    /** resending is offered at all (sms, push) */
    resendOffered: c.approveType === 'sms' || c.approveType === 'push',
    resending: s.hasTag('resending'),
    /** held back after a send: the view counts down */
    resendCooling: s.matches({ active: { resend: 'cooling' } }),
    canResend: s.can({ type: 'APPROVAL.RESEND' }),
    canCancel: s.can({ type: 'APPROVAL.CANCEL' }),
    sends: c.sends,
    error: c.error,
    errorText: c.errorText,
  };
}

export type ApprovalView = ReturnType<typeof selectApprovalView>;
