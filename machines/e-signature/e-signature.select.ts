/** Snapshot -> view facts for the signing page (machines/e-signature). */
import type { SnapshotFrom } from 'xstate';
import type { ESignatureMachine } from './e-signature.machine.ts';

export type ESignatureSnapshot = SnapshotFrom<ESignatureMachine>;
export type ESignatureStep = 'loading' | 'failed' | 'reviewing' | 'signing' | 'signed' | 'alreadySigned' | 'expired' | 'done' | 'returning';

export function selectESignatureView(s: ESignatureSnapshot) {
  const c = s.context;
  const submitting = s.matches('submitting');
  // while the signature is sent, the form stays on the screen (its button busy)
  const step: ESignatureStep = submitting ? 'signing' : (s.value as ESignatureStep);
  const state = c.state;
  return {
    step,
    submitting,
    busy: s.hasTag('busy'),
    token: c.token,
    document: state?.document ?? null,
    envelope: state?.envelope ?? null,
    typedName: c.typedName,
    strokes: c.strokes,
    adopt: c.adopt,
    consent: c.consent,
    fieldErrors: c.fieldErrors,
    error: c.error,
    failure: c.failure,
    loadFailure: c.loadFailure,
    hasNext: c.next !== null,
    /** where the signed-in signer goes once everything is signed (an app path only) */
    returnPath: state && /^\/(?![/\\])/.test(state.envelope.returnPath) ? state.envelope.returnPath : '/',
  };
}

export type ESignatureView = ReturnType<typeof selectESignatureView>;
