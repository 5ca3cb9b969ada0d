/** Snapshot -> view facts for the start page (terms, account chooser, the final target). */
import type { SnapshotFrom } from 'xstate';
import type { StartPageMachine, StartTarget } from './start-page.machine.ts';

export type StartPageSnapshot = SnapshotFrom<StartPageMachine>;
export type StartPageStep = 'loading' | 'terms' | 'chooseAccount' | 'done';

export function selectStartPageView(s: StartPageSnapshot) {
  const step: StartPageStep = s.matches('terms') || s.matches('acceptingTerms')
    ? 'terms'
    : s.matches('choosingAccount') || (s.matches('loadingAccessInfo') && s.context.chosenCustomerId !== null)
      ? 'chooseAccount'
      : s.matches('done')
        ? 'done'
        : 'loading';
  return {
    step,
    busy: s.hasTag('busy'),
    terms: s.context.terms,
    accesses: s.context.accesses,
    chosenCustomerId: s.context.chosenCustomerId,
    error: s.context.error,
    target: s.status === 'done' ? (s.output as StartTarget) : null,
  };
}
