/** Snapshot -> view facts for the session. Views and route guards read only through this. */
import type { SnapshotFrom } from 'xstate';
import type { SessionMachine } from './session.machine.ts';

export type SessionSnapshot = SnapshotFrom<SessionMachine>;
export type SessionStatus = 'signedIn' | 'signingOut' | 'expired' | 'signedOut';

export function selectStatus(s: SessionSnapshot): SessionStatus {
  if (s.matches('signedIn')) return 'signedIn';
  if (s.matches('signingOut')) return 'signingOut';
  if (s.matches('expired')) return 'expired';
  return 'signedOut';
}

export const selectIsSignedIn = (s: SessionSnapshot): boolean => s.matches('signedIn');
export const selectIsRefreshing = (s: SessionSnapshot): boolean => s.matches({ signedIn: { token: 'refreshing' } });
export const selectShowIdleWarning = (s: SessionSnapshot): boolean =>
  s.matches({ signedIn: { activity: 'idleWarning' } });
export const selectCanStay = (s: SessionSnapshot): boolean => s.can({ type: 'SESSION.STAY' });
export const selectIsExpired = (s: SessionSnapshot): boolean => s.matches('expired');
export const selectAccessToken = (s: SessionSnapshot): string | null =>
  s.matches('signedIn') ? (s.context.tokens?.accessToken ?? null) : null;
export const selectCustomer = (s: SessionSnapshot) => s.context.customer;
export const selectActingCustomerId = (s: SessionSnapshot): number | null => s.context.actingCustomerId;
export const selectRememberedPath = (s: SessionSnapshot): string | null => s.context.rememberedPath;

/** KYC is needed for the company acted for (access info) or, otherwise, for the user. */
export function selectNeedsKyc(s: SessionSnapshot): boolean {
  if (!s.matches('signedIn')) return false;
  if (s.context.actingCustomerId !== null && s.context.accessInfo) return s.context.accessInfo.isNeedKyc;
  return s.context.customer?.isNeedKyc ?? false;
}

/** The company's name while acting for one (from its access info), else null. */
export const selectActingForName = (s: SessionSnapshot): string | null =>
  s.context.actingCustomerId !== null ? (s.context.accessInfo?.customerName ?? null) : null;
