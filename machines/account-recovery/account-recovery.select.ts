/** Snapshot -> view facts for the /account-recovery steps. */
import type { SnapshotFrom } from 'xstate';
import type { AccountRecoveryMachine } from './account-recovery.machine.ts';

export type AccountRecoverySnapshot = SnapshotFrom<AccountRecoveryMachine>;
/** The child route of each step (document 1 §2). */
export type RecoveryStep = 'email' | 'status' | 'reset' | 'password' | 'success';
const STEPS: readonly RecoveryStep[] = ['email', 'status', 'reset', 'password', 'success'];

export function selectRecoveryStep(s: AccountRecoverySnapshot): RecoveryStep {
  return STEPS.find((step) => s.hasTag(`step:${step}`)) ?? 'email';
}

/** What the status step shows: the task's state in the chart. */
export type RecoveryStatusView = 'loading' | 'documents' | 'waiting' | 'approved' | 'rejected';
const STATUS_VIEWS = ['documents', 'waiting', 'approved', 'rejected'] as const;

export function selectRecoveryStatusView(s: AccountRecoverySnapshot): RecoveryStatusView {
  if (s.matches('uploading')) return 'documents';
  return STATUS_VIEWS.find((v) => s.matches(v)) ?? 'loading';
}

export function selectAccountRecoveryView(s: AccountRecoverySnapshot) {
  const task = s.context.task;
  return {
    step: selectRecoveryStep(s),
    /** the e-mail step shows the personal-data form instead */
    personalData: s.matches('personalData') || s.matches('submittingData'),
    busy: s.hasTag('busy'),
    loadingStatus: s.matches('loadingStatus'),
    status: selectRecoveryStatusView(s),
    uploading: s.matches('uploading'),
    email: s.context.email,
    /** the login e-mail is not known (reloaded on /status): the code step asks for it */
    needsEmail: s.context.email === '',
    sentTo: s.context.sentTo,
    personal: s.context.personal,
    task,
    canContinue: s.can({ type: 'CONTINUE' }),
    canRetry: s.can({ type: 'RETRY' }),
    canRefresh: s.can({ type: 'REFRESH' }),
    error: s.context.error,
    fieldError: s.context.fieldError,
  };
}
