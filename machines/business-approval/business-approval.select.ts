/** Snapshot -> view facts for /transfer/approved's decision (business-approval.machine.ts). */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { ApprovalMachine } from '../approval/approval.machine.ts';
import type { BusinessDecisionMachine } from './business-approval.machine.ts';

export type BusinessDecisionSnapshot = SnapshotFrom<BusinessDecisionMachine>;

export function selectBusinessDecisionView(s: BusinessDecisionSnapshot) {
  const c = s.context;
  const step = s.matches('approving') ? ('approving' as const) : s.matches('done') ? ('done' as const) : s.matches('failed') ? ('failed' as const) : ('choosing' as const);
  return {
    step,
    busy: s.hasTag('busy'),
    declined: c.declined,
    /** how many payments the decision took (done) */
    decidedCount: c.answer?.transactionIds.length ?? 0,
    failure: c.failure,
    networkError: c.error === 'network',
    outcome: c.outcome,
    notice: c.notice,
    /** the one approval chart while the checker approves */
    approval: s.matches('approving') ? ((s.children as { approval?: ActorRefFrom<ApprovalMachine> }).approval ?? null) : null,
  };
}

export type BusinessDecisionView = ReturnType<typeof selectBusinessDecisionView>;
