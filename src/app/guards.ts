/**
 * Route guards (document 1 §2): used in beforeLoad, so they run before any view or loader.
 * They only read the session through its functions and throw TanStack redirects.
 */
import { redirect } from '@tanstack/react-router';
import { isSignedIn, needsKyc, rememberPath, type SessionActor } from '../features/auth/session-actor.ts';
import { selectCustomer } from '../../machines/session/session.select.ts';

/** The KYC routes stay reachable when KYC is needed; every other guarded route goes there. */
export const KYC_PATHS = ['/kyc', '/kyc/business'] as const;

/** Not signed in -> remember where the user was going, then login. */
export function requireSignedIn(session: SessionActor, href: string): void {
  if (!isSignedIn(session)) {
    rememberPath(session, href);
    throw redirect({ to: '/login' });
  }
}

/** KYC needed -> /kyc, except on the KYC routes themselves. */
export function requireKycDone(session: SessionActor, pathname: string): void {
  if (needsKyc(session) && !KYC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`))) {
    // The KYC screens arrive with the verification issue; until then this lands on the 404 page,
    // which is still the honest answer: the account cannot be used before KYC.
    throw redirect({ href: '/kyc' });
  }
}

/** Administrators only; anyone else signed in goes home. */
export function requireAdmin(session: SessionActor): void {
  const customer = selectCustomer(session.getSnapshot());
  if (!customer?.isAdmin) throw redirect({ to: '/home' });
}
