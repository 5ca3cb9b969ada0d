/** Snapshot -> view facts for personal registration. */
import type { SnapshotFrom } from 'xstate';
import { EmailState } from '../../api/registration.ts';
import type { RegistrationMachine } from './registration.machine.ts';

export type RegistrationSnapshot = SnapshotFrom<RegistrationMachine>;

export function selectRegistrationView(s: RegistrationSnapshot) {
  const step = s.matches('sent') || s.matches('resending') ? ('sent' as const) : ('form' as const);
  return {
    step,
    busy: s.hasTag('busy'),
    /** document 1 §4: 2 while waiting for or running the check */
    emailState: s.matches({ editing: 'emailWaiting' }) || s.matches({ editing: 'emailChecking' }) ? EmailState.checking : s.context.emailState,
    fieldErrors: s.context.fieldErrors,
    error: s.context.error,
    sentTo: s.context.sentTo,
    resend: s.context.resend,
    resending: s.matches('resending'),
  };
}
