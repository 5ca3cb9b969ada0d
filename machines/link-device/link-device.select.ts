/** Snapshot -> view facts for the link-a-phone dialog and /scp. */
import type { SnapshotFrom } from 'xstate';
import type { LinkDeviceMachine } from './link-device.machine.ts';

export type LinkDeviceSnapshot = SnapshotFrom<LinkDeviceMachine>;
export type LinkDeviceStep = 'requesting' | 'waiting' | 'expired' | 'failed' | 'linked';

export function selectLinkDeviceView(s: LinkDeviceSnapshot) {
  const step: LinkDeviceStep = s.matches('waiting')
    ? 'waiting'
    : s.matches('expired')
      ? 'expired'
      : s.matches('failed')
        ? 'failed'
        : s.matches('linked')
          ? 'linked'
          : 'requesting';
  return {
    step,
    busy: s.hasTag('busy'),
    sendingSms: s.matches({ waiting: 'sendingSms' }),
    link: s.context.link,
    error: s.context.error,
    phoneError: s.context.phoneError,
    smsSent: s.context.smsSent,
    linkedDeviceId: s.context.linkedDeviceId,
  };
}
