/** Snapshot -> view facts for a card's PIN change (machines/card-pin-change). */
import type { SnapshotFrom } from 'xstate';
import type { CardPinChangeMachine } from './card-pin-change.machine.ts';

export type CardPinChangeSnapshot = SnapshotFrom<CardPinChangeMachine>;

export function selectPinChangeView(s: CardPinChangeSnapshot) {
  return {
    step: s.matches('done') ? ('done' as const) : ('entering' as const),
    submitting: s.matches('submitting'),
    error: s.context.error,
    failure: s.context.failure,
  };
}

export type PinChangeView = ReturnType<typeof selectPinChangeView>;
