/** Snapshot -> view facts for a physical card's activation (machines/card-activation). */
import type { SnapshotFrom } from 'xstate';
import type { CardActivationMachine } from './card-activation.machine.ts';

export type CardActivationSnapshot = SnapshotFrom<CardActivationMachine>;
export type CardActivationStep = 'loading' | 'loadFailed' | 'entering' | 'reviewing' | 'showingPin' | 'done';

export function selectCardActivationView(s: CardActivationSnapshot) {
  const c = s.context;
  const activating = s.matches('activating');
  // while the call runs, the step it was sent from stays on the screen (reviewing when there is a fee)
  const step: CardActivationStep = activating ? ((c.data?.fees ?? 0) > 0 ? 'reviewing' : 'entering') : (s.value as CardActivationStep);
  return {
    step,
    activating,
    busy: s.hasTag('busy'),
    fee: c.data ? { amount: c.data.fees, currency: c.data.feeCurrency } : null,
    feeAccounts: c.data?.feeAccounts ?? [],
    feeAccountId: c.feeAccountId,
    cardLast4: c.cardLast4,
    error: c.error,
    failure: c.failure,
    loadFailure: c.loadFailure,
    pinCode: c.pinCode,
  };
}

export type CardActivationView = ReturnType<typeof selectCardActivationView>;
