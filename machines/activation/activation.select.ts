/** Snapshot -> view facts for activation (the /activate form, the query actions, the popup). */
import type { SnapshotFrom } from 'xstate';
import type { ActivationMachine } from './activation.machine.ts';

export type ActivationSnapshot = SnapshotFrom<ActivationMachine>;
export type ActivationStep = 'form' | 'password' | 'activated' | 'cancelled';

export function selectActivationView(s: ActivationSnapshot) {
  // While a call runs the form (or the popup) stays, busy, with the values it sends.
  const step: ActivationStep = s.matches('activated')
    ? 'activated'
    : s.matches('cancelled')
      ? 'cancelled'
      : s.context.kind === 'employee'
        ? 'password'
        : 'form';
  return {
    step,
    kind: s.context.kind,
    busy: s.hasTag('busy'),
    resending: s.matches('resending'),
    email: s.context.email,
    code: s.context.code,
    fieldErrors: s.context.fieldErrors,
    error: s.context.error,
    notice: s.context.notice,
  };
}
