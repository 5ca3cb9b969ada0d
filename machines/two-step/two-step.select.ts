/** Snapshot -> view facts for the two-step verification section. */
import type { SnapshotFrom } from 'xstate';
import type { TwoStepMachine } from './two-step.machine.ts';

export type TwoStepSnapshot = SnapshotFrom<TwoStepMachine>;
export type TwoStepStep = 'idle' | 'choosing' | 'code' | 'awaitingPhone' | 'codes';

export function selectTwoStepView(s: TwoStepSnapshot) {
  const step: TwoStepStep = s.matches('idle')
    ? 'idle'
    : s.matches('choosing') || s.matches('requesting')
      ? 'choosing'
      : s.matches({ confirming: 'awaitingPhone' }) || (s.matches('verifying') && s.context.chosenMode === 1)
        ? 'awaitingPhone'
        : s.matches('showingCodes')
          ? 'codes'
          : s.matches('refreshing')
            ? s.context.recoveryCodes
              ? 'codes'
              : 'code'
            : 'code';
  return {
    step,
    busy: s.hasTag('busy'),
    currentMode: s.context.currentMode,
    chosenMode: s.context.chosenMode,
    confirmedMode: s.context.confirmedMode,
    request: s.context.request,
    recoveryCodes: s.context.recoveryCodes,
    codesSaved: s.context.codesSaved,
    canContinue: s.can({ type: 'CODES.CONTINUE' }),
    error: s.context.error,
  };
}
