/** Snapshot -> view facts for a card's secret (machines/card-secret). */
import type { SnapshotFrom } from 'xstate';
import type { CardSecretMachine } from './card-secret.machine.ts';
import { SECRET_VISIBLE_MAX_MS } from './card-secret.machine.ts';

export type CardSecretSnapshot = SnapshotFrom<CardSecretMachine>;
export type CardSecretStep = 'hidden' | 'requesting' | 'approving' | 'visible';

export function selectCardSecretView(s: CardSecretSnapshot) {
  const c = s.context;
  const verifying = s.matches('verifying');
  const step: CardSecretStep = verifying ? 'approving' : (s.value as CardSecretStep);
  return {
    step,
    reveal: c.reveal,
    requesting: s.matches('requesting'),
    verifying,
    busy: s.hasTag('busy'),
    mode: c.operation?.approveType ?? null,
    sentTo: c.operation?.approvalSentTo ?? null,
    secret: step === 'visible' ? c.secret : null,
    /** how long this secret stays (the countdown's start) */
    visibleMs: c.visibleForMs > 0 ? Math.min(c.visibleForMs, SECRET_VISIBLE_MAX_MS) : SECRET_VISIBLE_MAX_MS,
    error: c.error,
    failure: c.failure,
    hiddenAgain: c.hiddenAgain,
  };
}

export type CardSecretView = ReturnType<typeof selectCardSecretView>;
