/**
 * Where the verification status banner is not shown (document 1 §2: "hidden on login-type routes
 * and on the SCP enable route"): every route of the external layout (sign-in, registration,
 * activation, recovery, the pages reached from a link without signing in) and /scp.
 */
const HIDDEN_ROOTS = [
  '/login',
  '/register',
  '/activate',
  '/account-recovery',
  '/receive',
  '/video-identity-job',
  '/identity-verification',
  '/scp-mobile',
  '/self-certification-representative',
  '/e-sign',
  // the SCP enable route (restricted layout)
  '/scp',
] as const;

/** True on a login-type route or the SCP enable route (a path and any path below it). */
export function bannerHiddenOn(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return HIDDEN_ROOTS.some((root) => path === root || path.startsWith(`${root}/`));
}
