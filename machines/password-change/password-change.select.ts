/** Snapshot -> view facts for the settings section "Change password". */
import type { SnapshotFrom } from 'xstate';
import type { PasswordChangeMachine } from './password-change.machine.ts';

export type PasswordChangeSnapshot = SnapshotFrom<PasswordChangeMachine>;
export type PasswordChangeStep = 'editing' | 'confirming' | 'changed' | 'canceled';

export function selectPasswordChangeView(s: PasswordChangeSnapshot) {
  const step: PasswordChangeStep =
    s.matches('confirming') || s.matches('confirmingCode') || s.matches('canceling')
      ? 'confirming'
      : s.matches('changed')
        ? 'changed'
        : s.matches('canceled')
          ? 'canceled'
          : 'editing';
  return {
    step,
    busy: s.hasTag('busy'),
    submitting: s.matches('requesting'),
    confirmingCode: s.matches('confirmingCode'),
    canceling: s.matches('canceling'),
    sentTo: s.context.sentTo,
    error: s.context.error,
    fieldError: s.context.fieldError,
  };
}
