/**
 * Route guards (document 1 §2): used in beforeLoad, so they run before any view or loader.
 * They only read the session through its functions and throw TanStack redirects.
 */
import { redirect } from '@tanstack/react-router';
import { isSignedIn, needsKyc, rememberPath, type SessionActor } from '../features/auth/session-actor.ts';
import { selectAccessToken, selectCustomer } from '../../machines/session/session.select.ts';
import { readRestriction } from '../features/security/restriction.ts';

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

/**
 * A restricted session (the token's rst claim; the platform refuses everything else with 13) is
 * kept on the one screen that lifts it, after a reload or a typed address too, not only right
 * after sign-in: 'scp' (strict push migration) on /scp, 'setup2fa' (signed in with a recovery
 * code) on the settings page where two-step verification is set up again.
 */
const RESTRICTED_TO = { scp: '/scp', setup2fa: '/setting' } as const;
export function requireUnrestricted(session: SessionActor, pathname: string): void {
  const restriction = readRestriction(selectAccessToken(session.getSnapshot()));
  if (restriction && pathname !== RESTRICTED_TO[restriction]) throw redirect({ href: RESTRICTED_TO[restriction] });
}

/** Administrators only; anyone else signed in goes home. */
export function requireAdmin(session: SessionActor): void {
  const customer = selectCustomer(session.getSnapshot());
  if (!customer?.isAdmin) throw redirect({ to: '/home' });
}

/* ------------------------------------------------------------ single sign-on (seiPath) */

/** Document 1 §2: /auth/sei "stores the path, goes to login if unsigned". */
export const SEI_PATH = '/auth/sei';
const SEI_PATH_KEY = 'wlb.seiPath';
/** A partner's authorisation URL is short; anything longer is not kept. */
const SEI_PATH_MAX_LENGTH = 2_048;

function seiStorage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Unsigned on /auth/sei: keep the whole path (with the partner's query) for after sign-in. */
export function rememberSeiPath(session: SessionActor, pathname: string, href: string): void {
  if (pathname === SEI_PATH && !isSignedIn(session) && href.length <= SEI_PATH_MAX_LENGTH) seiStorage()?.setItem(SEI_PATH_KEY, href);
}

/** Signed in with a pending seiPath: go there once (the start page may have sent the user elsewhere). */
export function redirectToPendingSei(session: SessionActor, pathname: string): void {
  if (!isSignedIn(session)) return;
  const pending = seiStorage()?.getItem(SEI_PATH_KEY);
  if (!pending) return;
  seiStorage()?.removeItem(SEI_PATH_KEY);
  // Only our own /auth/sei path: a stored value is never a way to leave the app.
  if (pathname !== SEI_PATH && pending.startsWith(`${SEI_PATH}?`)) throw redirect({ href: pending });
}

