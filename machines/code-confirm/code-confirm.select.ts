/** Snapshot -> view facts for confirming a phone or an e-mail address with a code. */
import type { SnapshotFrom } from 'xstate';
import type { CodeConfirmMachine } from './code-confirm.machine.ts';

export type CodeConfirmSnapshot = SnapshotFrom<CodeConfirmMachine>;
export type CodeConfirmStep = 'requesting' | 'requestFailed' | 'entering' | 'resending' | 'verifying' | 'confirmed' | 'canceled';

export function selectCodeConfirmStep(s: CodeConfirmSnapshot): CodeConfirmStep {
  if (s.matches('requesting')) return 'requesting';
  if (s.matches('requestFailed')) return 'requestFailed';
  if (s.matches('entering')) return 'entering';
  if (s.matches('resending')) return 'resending';
  if (s.matches('verifying')) return 'verifying';
  if (s.matches('confirmed')) return 'confirmed';
  return 'canceled';
}

export function selectCodeConfirmView(s: CodeConfirmSnapshot) {
  return {
    step: selectCodeConfirmStep(s),
    busy: s.hasTag('busy'),
    sentTo: s.context.sentTo,
    /** a second code or later was sent */
    resent: s.context.codesSent > 1,
    error: s.context.error,
    /** the code field: entering it, or waiting for its answer */
    showsCodeField: s.matches('entering') || s.matches('verifying') || s.matches('resending'),
    canResend: s.can({ type: 'RESEND' }),
    canRetry: s.can({ type: 'RETRY' }),
    canCancel: s.can({ type: 'CANCEL' }),
  };
}
