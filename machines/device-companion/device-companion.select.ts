/** Snapshot -> view facts for the device companion. */
import type { SnapshotFrom } from 'xstate';
import type { ApprovalRequest } from '../../api/devices.ts';
import type { DeviceCompanionMachine } from './device-companion.machine.ts';

export type CompanionSnapshot = SnapshotFrom<DeviceCompanionMachine>;
export type CompanionScreen = 'link' | 'connecting' | 'offline' | 'requests' | 'confirmUnlink';

export function selectCompanionView(s: CompanionSnapshot) {
  const screen: CompanionScreen = s.hasTag('unlinked')
    ? 'link'
    : s.matches('offline')
      ? 'offline'
      : s.matches({ ready: 'confirmingUnlink' }) || s.matches({ ready: 'unlinking' })
        ? 'confirmUnlink'
        : s.matches('ready')
          ? 'requests'
          : 'connecting';
  const { requests, focusKey } = s.context;
  // The request the sign-in page's QR code named comes first; then the newest.
  const ordered: ApprovalRequest[] = [...requests].reverse().sort((a, b) => Number(b.key === focusKey) - Number(a.key === focusKey));
  return {
    screen,
    busy: s.hasTag('busy'),
    linking: s.matches('linking'),
    unlinking: s.matches({ ready: 'unlinking' }),
    linkCodeText: s.context.linkCodeText,
    deviceType: s.context.deviceType,
    login: s.context.login,
    deviceName: s.context.device?.name ?? null,
    requests: ordered,
    answering: s.context.answering,
    error: s.context.error,
    notice: s.context.notice,
    canAnswer: s.matches({ ready: 'idle' }),
  };
}
