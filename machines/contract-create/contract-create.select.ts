/** Snapshot -> view facts for the create form (machines/contract-create). */
import type { SnapshotFrom } from 'xstate';
import type { ContractCreateMachine } from './contract-create.machine.ts';

export type ContractCreateSnapshot = SnapshotFrom<ContractCreateMachine>;
export type ContractCreateStep = 'editing' | 'review' | 'created';

export function selectContractCreateView(s: ContractCreateSnapshot) {
  const c = s.context;
  // the form stays on the screen while the counterparty is looked up or checked; the review while its calls run
  const step: ContractCreateStep = s.matches('created') ? 'created' : s.matches('review') || s.matches('previewing') || s.matches('creating') ? 'review' : 'editing';
  return {
    step,
    draft: c.draft,
    today: c.today,
    email: c.email,
    counterparty: c.counterparty,
    lookupError: c.lookupError,
    verdict: c.verdict,
    lookingUp: s.matches('lookingUp'),
    verifying: s.matches('verifying'),
    previewing: s.matches('previewing'),
    creating: s.matches('creating'),
    busy: s.hasTag('busy'),
    fieldErrors: c.fieldErrors,
    failure: c.failure,
    previewUrl: c.previewUrl,
    createdId: c.createdId,
  };
}

export type ContractCreateView = ReturnType<typeof selectContractCreateView>;
