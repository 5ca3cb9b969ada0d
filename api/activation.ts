/**
 * The activation query actions (document 1 §2, document 3 §2 "Account activation by action") and
 * the e-mailed link that carries one; apart from api/registration.ts so that every external page,
 * which checks its query for an action, does not load the registration schemas.
 */
export const ACTIVATION_ACTIONS = ['activation', 'activationBusiness', 'activationEmployee'] as const;
export type ActivationAction = (typeof ACTIVATION_ACTIONS)[number];

/**
 * The link e-mailed with a code, for the web app at `origin`. It opens /login (an external page)
 * rather than the root: the root redirects through the guarded layout, which would drop the query.
 */
export function activationLink(origin: string, action: ActivationAction, email: string, code: string): string {
  const who = action === 'activation' ? 'user' : 'email';
  return `${origin}/login?action=${action}&${who}=${encodeURIComponent(email)}&code=${encodeURIComponent(code)}`;
}
