/**
 * What the request wrapper (request.ts) asks the session for: the token, a refresh, the acting
 * company. Held here, apart from the wrapper, so the app configures it at start (main.tsx) while
 * the wrapper itself loads with the first call (request-later.ts; issue 12: the sign-in page
 * makes none before it is interactive).
 */
export interface RequestHooks {
  getAccessToken(): string | null;
  /** Refreshes the tokens; resolves true when a new access token is available. */
  refresh(): Promise<boolean>;
  /** The company the user acts for, or null. */
  getActingCustomerId(): number | null;
  /** Called on every call the user makes (the idle timer counts from the last one). */
  onActivity?(): void;
  /**
   * The unauthorised representative's e-mail and secret (the /self-certification-representative
   * link), sent in the body of REPRESENTATIVE_SECRET_METHODS only (document 1 §7).
   */
  getRepresentativeSecret?(): { fromEmail?: string; authSecret: string } | null;
}

const signedOutHooks: RequestHooks = {
  getAccessToken: () => null,
  refresh: async () => false,
  getActingCustomerId: () => null,
};

let hooks: RequestHooks = signedOutHooks;

export function configureRequest(next: RequestHooks): void {
  hooks = next;
}

/** The hooks in force (the signed-out ones until the app configures its session's). */
export function requestHooks(): RequestHooks {
  return hooks;
}
