/**
 * The session: who is signed in, with which tokens, for how long, acting for whom.
 *
 * ```
 * restoring ──(tokens in the restored state)──▶ signedIn ◀──SESSION.SIGN_IN── signedOut
 *     └──────────(nothing restored)───────────▶ signedOut ◀──── signingOut ◀──SESSION.LOGOUT─┘
 *
 * signedIn (parallel, invokes the push connection)
 *   token:    fresh ──(refreshDelay: exp - 10 s)──▶ refreshing ──ok──▶ fresh
 *             fresh ──TOKEN.REFRESH (a 401)───────▶ refreshing ──failed──▶ #session.expired
 *   activity: active ──(14 min idle)──▶ idleWarning ──(1 more min)──▶ #session.expired
 *             active ──USER.ACTIVITY──▶ active (timer restarts)    idleWarning ──SESSION.STAY──▶ active
 *
 * expired ──SESSION.SIGN_IN──▶ signedIn
 * ```
 *
 * Document 1 §4: expiry after 15 minutes idle, a refresh when 10 s or less remain, one refresh and
 * replay on a 401 (the request hooks in src/features/auth/session-actor.ts share one refresh among
 * concurrent 401s by waiting on this machine's `refreshing` state), a failed refresh expires the
 * session, logout revokes the refresh token (a failure is only logged) and clears storage, caches
 * and the push connection.
 *
 * Pure: no fetch, no storage, no React. The I/O lives in actors and actions the app provides with
 * `sessionMachine.provide(...)` (src/features/auth/actors.ts); the defaults below are the no-op or
 * failing shapes tests replace.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { Tokens } from '../../api/auth.ts';
import type { Customer, userAccessInfoGet } from '../../api/customer.ts';
import type { ResponseOf } from '../../api/method.ts';
import type { PushEvent } from '../../api/push.ts';
import { readAccessExpiryMs, refreshDelayMs } from './access-token.ts';

export type AccessInfo = ResponseOf<typeof userAccessInfoGet>['accessInfo'];
export type CustomerNotification = Extract<PushEvent, { type: 'CustomerNotification' }>;

/** Idle time before the warning shows (document 1 §4: expiry at 15 minutes idle). */
export const IDLE_WARNING_AFTER_MS = 14 * 60_000;
/** Time the warning stays before the session expires: 14 + 1 = 15 minutes. */
export const IDLE_GRACE_MS = 60_000;
/** A logout call that hangs must not keep the user signed in. */
export const LOGOUT_TIMEOUT_MS = 10_000;
/** A remembered path longer than this is not one of ours. */
export const MAX_REMEMBERED_PATH_LENGTH = 2048;

/** What survives a reload (sessionStorage) besides the machine's state. */
export interface PersistedSession {
  tokens: Tokens | null;
  customer: Customer | null;
  accessInfo: AccessInfo | null;
  actingCustomerId: number | null;
  rememberedPath: string | null;
}

export interface SessionContext extends PersistedSession {
  /** epoch ms from the access token's exp claim; null when signed out */
  expiresAtMs: number | null;
}

export interface SessionInput {
  restored?: Partial<PersistedSession> | null;
}

export type RefreshResult =
  | { ok: true; tokens: Tokens }
  | { ok: false; code: 'rejected' | 'network' | 'unreadableToken' | 'unknown' };

export type SessionEvent =
  | { type: 'SESSION.SIGN_IN'; tokens: Tokens }
  | { type: 'SESSION.LOGOUT' }
  | { type: 'SESSION.STAY' }
  | { type: 'USER.ACTIVITY' }
  | { type: 'TOKEN.REFRESH' }
  | { type: 'CUSTOMER.LOADED'; customer: Customer }
  | { type: 'ACCESS.LOADED'; accessInfo: AccessInfo | null }
  | { type: 'ACTING_FOR.SET'; customerId: number | null }
  | { type: 'PATH.REMEMBER'; path: string }
  | { type: 'PATH.CONSUME' }
  | { type: 'PUSH.RECEIVED'; event: PushEvent };

function isPositiveInteger(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n > 0;
}

function readableTokens(tokens: Tokens | null | undefined): tokens is Tokens {
  return !!tokens && tokens.refreshToken.length > 0 && readAccessExpiryMs(tokens.accessToken) !== null;
}

const signedOutContext = {
  tokens: null,
  expiresAtMs: null,
  customer: null,
  accessInfo: null,
  actingCustomerId: null,
} as const;

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    /** POST /auth/refresh with the refresh token; expected failures come back as { ok: false }. */
    refreshTokens: fromPromise<RefreshResult, { refreshToken: string }>(async () => {
      throw new Error('refreshTokens is provided by the app');
    }),
    /** POST /auth/logout; resolves either way (a failure is only logged by the actor). */
    revokeSession: fromPromise<void, { refreshToken: string | null }>(async () => {
      throw new Error('revokeSession is provided by the app');
    }),
    /** The push connection while signed in; sends PUSH.RECEIVED back. */
    pushConnection: fromCallback<SessionEvent>(() => () => undefined),
  },
  actions: {
    storeTokens: assign((_, tokens: Tokens) => ({ tokens, expiresAtMs: readAccessExpiryMs(tokens.accessToken) })),
    forgetSignedInState: assign(() => ({ ...signedOutContext })),
    storeCustomer: assign((_, customer: Customer) => ({ customer })),
    storeAccessInfo: assign((_, accessInfo: AccessInfo | null) => ({ accessInfo })),
    setActingFor: assign((_, customerId: number | null) => ({ actingCustomerId: customerId })),
    rememberPath: assign((_, path: string) => ({ rememberedPath: path })),
    forgetRememberedPath: assign({ rememberedPath: null }),
    /** The app clears sessionStorage (document 1 §4). */
    clearStorage: () => undefined,
    /** The app clears every query cache and store (document 1 §4: "clears all stores"). */
    clearCaches: () => undefined,
    /** The app shows a CustomerNotification as a toast for 10 s. */
    showNotification: (_, _notification: CustomerNotification) => undefined,
    /** The app tells an embedding mobile app that the session expired (document 1 §1). */
    announceExpired: () => undefined,
  },
  guards: {
    hasRestoredTokens: ({ context }) => readableTokens(context.tokens),
    tokensAreReadable: (_, tokens: Tokens) => readableTokens(tokens),
    refreshSucceeded: (_, result: RefreshResult) => result.ok && readableTokens(result.tokens),
    isCustomerIdOrNone: (_, customerId: number | null) => customerId === null || isPositiveInteger(customerId),
    isAppPath: (_, path: string) =>
      path.startsWith('/') && !path.startsWith('//') && path.length <= MAX_REMEMBERED_PATH_LENGTH,
    isCustomerNotification: (_, event: PushEvent) => event.type === 'CustomerNotification',
  },
  delays: {
    refreshDelay: ({ context }) => refreshDelayMs(context.expiresAtMs ?? 0, Date.now()),
    idleWarningAfter: IDLE_WARNING_AFTER_MS,
    idleGrace: IDLE_GRACE_MS,
    logoutTimeout: LOGOUT_TIMEOUT_MS,
  },
}).createMachine({
  id: 'session',
  description: 'The signed-in session: who is signed in, with which tokens, for how long, and for which customer they act.',
  meta: { spec: ['document 1 §4', 'document 1 §7', 'document 1 §8', 'document 1 §9', 'document 3 §4'] },
  context: ({ input }) => {
    const r = input.restored ?? {};
    const tokens = readableTokens(r.tokens) ? r.tokens : null;
    return {
      tokens,
      expiresAtMs: tokens ? readAccessExpiryMs(tokens.accessToken) : null,
      // what belongs to a signed-in user is only restored together with its tokens
      customer: tokens ? (r.customer ?? null) : null,
      accessInfo: tokens ? (r.accessInfo ?? null) : null,
      actingCustomerId: tokens && isPositiveInteger(r.actingCustomerId) ? r.actingCustomerId : null,
      rememberedPath: typeof r.rememberedPath === 'string' ? r.rememberedPath : null,
    };
  },
  initial: 'restoring',
  on: {
    'CUSTOMER.LOADED': {
      description: "The signed-in customer's details have been loaded and are kept for the session.",
      actions: { type: 'storeCustomer', params: ({ event }) => event.customer },
    },
    'ACCESS.LOADED': {
      description: "The customer's access rights and permissions have been loaded and are kept for the session.",
      actions: { type: 'storeAccessInfo', params: ({ event }) => event.accessInfo },
    },
    'ACTING_FOR.SET': {
      description: 'The user starts or stops acting for a company; only a valid customer id or none is accepted.',
      guard: { type: 'isCustomerIdOrNone', params: ({ event }) => event.customerId },
      actions: { type: 'setActingFor', params: ({ event }) => event.customerId },
    },
    // Only same-origin app paths are remembered: an open redirect would be a phishing aid.
    'PATH.REMEMBER': {
      description: 'A page the user asked for before signing in is remembered, if it is a path of this app.',
      guard: { type: 'isAppPath', params: ({ event }) => event.path },
      actions: { type: 'rememberPath', params: ({ event }) => event.path },
    },
    'PATH.CONSUME': { description: 'The remembered page has been used once and is forgotten.', actions: 'forgetRememberedPath' },
  },
  states: {
    restoring: {
      description: 'The app has just loaded and checks whether a session survived the reload.',
      always: [
        { guard: 'hasRestoredTokens', target: 'signedIn', description: 'Readable tokens survived the reload: the user is still signed in.' },
        { target: 'signedOut', description: 'No usable tokens survived the reload: the user is signed out.' },
      ],
    },
    signedOut: {
      description: 'Nobody is signed in.',
      on: {
        'SESSION.SIGN_IN': {
          description: 'Sign-in finished with readable tokens: the session starts.',
          guard: { type: 'tokensAreReadable', params: ({ event }) => event.tokens },
          target: 'signedIn',
          actions: { type: 'storeTokens', params: ({ event }) => event.tokens },
        },
      },
    },
    signedIn: {
      type: 'parallel',
      description: 'The user is signed in: tokens are kept fresh, idle time is watched and push notifications arrive.',
      invoke: { id: 'push', src: 'pushConnection' },
      on: {
        'SESSION.LOGOUT': { target: 'signingOut', description: 'The user logs out.' },
        'PUSH.RECEIVED': {
          description: 'A customer notification arrives over the push connection and is shown to the user.',
          guard: { type: 'isCustomerNotification', params: ({ event }) => event.event },
          actions: {
            type: 'showNotification',
            params: ({ event }) => event.event as CustomerNotification,
          },
        },
      },
      states: {
        token: {
          description: 'Keeping the access token valid while the user is signed in.',
          initial: 'fresh',
          states: {
            fresh: {
              description: 'The access token is valid.',
              after: {
                refreshDelay: { target: 'refreshing', description: 'The access token has 10 seconds or less left: it is refreshed.' },
              },
              // A 401 means the platform no longer accepts this token, whatever its exp says.
              on: {
                'TOKEN.REFRESH': { target: 'refreshing', description: 'A call was refused as unauthorised (401): the token is refreshed once.' },
              },
            },
            refreshing: {
              description: 'New tokens are being requested with the refresh token; other requests wait for them.',
              // Concurrent TOKEN.REFRESH events land here and are ignored: one refresh serves all.
              invoke: {
                id: 'refreshTokens',
                src: 'refreshTokens',
                input: ({ context }) => ({ refreshToken: context.tokens?.refreshToken ?? '' }),
                onDone: [
                  {
                    description: 'The refresh gave readable new tokens: they replace the old ones.',
                    guard: { type: 'refreshSucceeded', params: ({ event }) => event.output },
                    target: 'fresh',
                    actions: {
                      type: 'storeTokens',
                      params: ({ event }) => (event.output as Extract<RefreshResult, { ok: true }>).tokens,
                    },
                  },
                  // Document 1 §8: a refresh failure ends the session as expired.
                  { target: '#session.expired', description: 'The platform refused the refresh or gave unusable tokens: the session expires.' },
                ],
                onError: { target: '#session.expired', description: 'The refresh failed: the session expires.' },
              },
            },
          },
        },
        activity: {
          description: 'Watching how long the user has been idle (the session ends after 15 minutes idle).',
          initial: 'active',
          states: {
            active: {
              description: 'The user has been active within the last 14 minutes.',
              after: {
                idleWarningAfter: { target: 'idleWarning', description: 'The user has been idle for 14 minutes: a warning is shown.' },
              },
              // Re-entering restarts the idle timer.
              on: {
                'USER.ACTIVITY': { target: 'active', reenter: true, description: 'The user did something: the idle timer starts again.' },
              },
            },
            idleWarning: {
              description: 'The user is warned that the session will end in one minute unless they choose to stay.',
              after: {
                idleGrace: { target: '#session.expired', description: 'One more minute passed without the user choosing to stay: the session expires.' },
              },
              // Only the explicit choice dismisses the warning: background activity must not.
              on: { 'SESSION.STAY': { target: 'active', description: 'The user chooses to stay signed in.' } },
            },
          },
        },
      },
    },
    signingOut: {
      description: 'The user is logging out: the refresh token is being revoked, then everything stored is cleared.',
      invoke: {
        id: 'revokeSession',
        src: 'revokeSession',
        input: ({ context }) => ({ refreshToken: context.tokens?.refreshToken ?? null }),
        onDone: { target: 'signedOut', description: 'The platform revoked the session: the user is signed out.' },
        // The actor logs; the user is signed out locally whatever the platform said.
        onError: { target: 'signedOut', description: 'The logout call failed (only logged): the user is signed out anyway.' },
      },
      after: {
        logoutTimeout: { target: 'signedOut', description: 'The logout call did not answer within 10 seconds: the user is signed out anyway.' },
      },
      exit: ['forgetSignedInState', 'forgetRememberedPath', 'clearStorage', 'clearCaches'],
    },
    expired: {
      description: 'The session ended because of inactivity or a failed token refresh; the user must sign in again.',
      entry: ['forgetSignedInState', 'clearStorage', 'clearCaches', 'announceExpired'],
      on: {
        'SESSION.SIGN_IN': {
          description: 'The user signed in again with readable tokens: a new session starts.',
          guard: { type: 'tokensAreReadable', params: ({ event }) => event.tokens },
          target: 'signedIn',
          actions: { type: 'storeTokens', params: ({ event }) => event.tokens },
        },
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
