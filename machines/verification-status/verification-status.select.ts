/** Snapshot -> view facts for the verification status banner. */
import type { SnapshotFrom } from 'xstate';
import type { BannerAction, StatusBanner, VerificationStatus } from '../../api/verification.ts';
import type { VerificationStatusMachine } from './verification-status.machine.ts';

export type VerificationStatusSnapshot = SnapshotFrom<VerificationStatusMachine>;

export interface VerificationStatusView {
  /** the first answer has not come yet: the banner is hidden ("before documents have loaded") */
  loading: boolean;
  /** the first load failed: the view offers a retry */
  loadFailed: boolean;
  /** the status shown (the last evaluated one while a refresh runs); null before the first answer */
  status: VerificationStatus | null;
  banner: StatusBanner;
  /** what the banner counts, each listed by name with a link to its place */
  actions: readonly BannerAction[];
  refreshing: boolean;
  canRetry: boolean;
}

export function selectVerificationStatusView(s: VerificationStatusSnapshot): VerificationStatusView {
  const known = s.matches('known');
  return {
    loading: s.hasTag('loading'),
    loadFailed: s.matches('loadFailed'),
    status: known ? s.context.status : null,
    banner: known ? s.context.banner : { visible: false },
    actions: known ? s.context.actions : [],
    refreshing: s.hasTag('refreshing'),
    canRetry: s.can({ type: 'STATUS.RETRY' }),
  };
}
