/** Snapshot -> view facts for the single sign-on consent page. */
import type { SnapshotFrom } from 'xstate';
import type { SsoMachine } from './sso.machine.ts';

export type SsoSnapshot = SnapshotFrom<SsoMachine>;
export type SsoStep = 'authorizing' | 'failed' | 'consent' | 'leaving' | 'notFound';

export function selectSsoView(s: SsoSnapshot) {
  const step: SsoStep = s.matches('authorizing')
    ? 'authorizing'
    : s.matches('failed')
      ? 'failed'
      : s.matches('consent') || s.matches('deciding')
        ? 'consent'
        : s.matches('notFound')
          ? 'notFound'
          : 'leaving';
  return {
    step,
    busy: s.hasTag('busy'),
    deciding: s.matches('deciding') ? s.context.approve : null,
    clientName: s.context.authorization?.clientName ?? null,
    scope: s.context.authorization?.scope ?? null,
    error: s.context.error,
  };
}
