/** Snapshot -> view facts for the recovery codes section. */
import type { SnapshotFrom } from 'xstate';
import type { RecoveryCodesErrorCode, RecoveryCodesMachine } from './recovery-codes.machine.ts';

export type RecoveryCodesSnapshot = SnapshotFrom<RecoveryCodesMachine>;
export type RecoveryCodesStep = 'idle' | 'password' | 'codes';

/** Errors about the password itself: the view shows them on the field. */
const PASSWORD_ERRORS: readonly RecoveryCodesErrorCode[] = ['passwordRequired', 'wrongPassword', 'tooManyPasswords'];

export function selectRecoveryCodesView(s: RecoveryCodesSnapshot) {
  const step: RecoveryCodesStep = s.matches('showingCodes') ? 'codes' : s.matches('idle') ? 'idle' : 'password';
  const error = s.context.error;
  return {
    step,
    busy: s.hasTag('busy'),
    renewed: s.context.renewed,
    recoveryCodes: s.context.recoveryCodes,
    codesSaved: s.context.codesSaved,
    canContinue: s.can({ type: 'CODES.CONTINUE' }),
    error,
    /** the error belongs on the password field (the others go above the form) */
    errorOnField: error !== null && PASSWORD_ERRORS.includes(error),
  };
}
