/**
 * Single sign-on consent at /auth/sei (document 1 §2, §7): a partner sent the signed-in user here
 * to authorise it.
 *
 * ```
 * authorizing ─ok─▶ consent ─CONSENT.APPROVE / CONSENT.DENY─▶ deciding ─ok─▶ leaving ─▶ left
 *      │                ▲                                          │
 *      │                └──────────────failed (error)──────────────┤
 *      ├─404──▶ notFound (the view goes to the root)  ◀──404───────┘
 *      └─failed─▶ failed ─RETRY─▶ authorizing
 * ```
 *
 * Leaving signs the user out of this app and sends the browser to the partner's redirect_uri
 * (the leave actor: logout, then window.location.assign). Pure: the calls are actors the app
 * provides (src/features/security/actors.ts); errors are codes.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { SeiAuthorizeResponse } from '../../api/security.ts';

export type SsoErrorCode = 'notFound' | 'network' | 'unknown';
export type AuthorizeResult = { ok: true; authorization: SeiAuthorizeResponse } | { ok: false; code: SsoErrorCode };
export type DecideResult = { ok: true; redirectUri: string } | { ok: false; code: SsoErrorCode };

export interface SsoInput {
  authorizeUrl: string;
}

export interface SsoContext extends SsoInput {
  authorization: SeiAuthorizeResponse | null;
  approve: boolean | null;
  redirectUri: string | null;
  error: SsoErrorCode | null;
}

export type SsoEvent = { type: 'CONSENT.APPROVE' } | { type: 'CONSENT.DENY' } | { type: 'RETRY' };

export const ssoMachine = setup({
  types: { context: {} as SsoContext, events: {} as SsoEvent, input: {} as SsoInput },
  actors: {
    authorize: fromPromise<AuthorizeResult, { authorizeUrl: string }>(async () => ({ ok: false, code: 'unknown' })),
    decide: fromPromise<DecideResult, { authorizationId: string; approve: boolean }>(async () => ({ ok: false, code: 'unknown' })),
    /** Signs out of this app and goes to the partner. */
    leave: fromPromise<void, { redirectUri: string }>(async () => undefined),
  },
  guards: {
    isAuthorized: (_, r: AuthorizeResult) => r.ok,
    isDecided: (_, r: DecideResult) => r.ok,
    isNotFound: (_, r: AuthorizeResult | DecideResult) => !r.ok && r.code === 'notFound',
  },
  actions: {
    rememberAuthorization: assign((_, r: AuthorizeResult) => ({ authorization: r.ok ? r.authorization : null, error: null })),
    rememberApprove: assign((_, p: { approve: boolean }) => ({ approve: p.approve, error: null })),
    rememberRedirect: assign((_, r: DecideResult) => ({ redirectUri: r.ok ? r.redirectUri : null })),
    setError: assign((_, p: { code: SsoErrorCode }) => ({ error: p.code })),
  },
}).createMachine({
  id: 'sso',
  context: ({ input }) => ({ authorizeUrl: input.authorizeUrl, authorization: null, approve: null, redirectUri: null, error: null }),
  initial: 'authorizing',
  states: {
    authorizing: {
      tags: ['busy'],
      invoke: {
        id: 'authorize',
        src: 'authorize',
        input: ({ context }) => ({ authorizeUrl: context.authorizeUrl }),
        onDone: [
          {
            guard: { type: 'isAuthorized', params: ({ event }) => event.output },
            target: 'consent',
            actions: { type: 'rememberAuthorization', params: ({ event }) => event.output },
          },
          { guard: { type: 'isNotFound', params: ({ event }) => event.output }, target: 'notFound' },
          { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ code: event.output.ok ? 'unknown' : event.output.code }) } },
        ],
        onError: { target: 'failed', actions: { type: 'setError', params: { code: 'network' } } },
      },
    },
    failed: {
      on: { RETRY: 'authorizing' },
    },
    consent: {
      on: {
        'CONSENT.APPROVE': { target: 'deciding', actions: { type: 'rememberApprove', params: { approve: true } } },
        'CONSENT.DENY': { target: 'deciding', actions: { type: 'rememberApprove', params: { approve: false } } },
      },
    },
    deciding: {
      tags: ['busy'],
      invoke: {
        id: 'decide',
        src: 'decide',
        input: ({ context }) => ({ authorizationId: context.authorization!.authorizationId, approve: context.approve! }),
        onDone: [
          {
            guard: { type: 'isDecided', params: ({ event }) => event.output },
            target: 'leaving',
            actions: { type: 'rememberRedirect', params: ({ event }) => event.output },
          },
          { guard: { type: 'isNotFound', params: ({ event }) => event.output }, target: 'notFound' },
          { target: 'consent', actions: { type: 'setError', params: ({ event }) => ({ code: event.output.ok ? 'unknown' : event.output.code }) } },
        ],
        onError: { target: 'consent', actions: { type: 'setError', params: { code: 'network' } } },
      },
    },
    leaving: {
      tags: ['busy'],
      invoke: {
        id: 'leave',
        src: 'leave',
        input: ({ context }) => ({ redirectUri: context.redirectUri! }),
        onDone: 'left',
        // Signing out failed on the network: still leave (the partner got its answer).
        onError: 'left',
      },
    },
    left: { type: 'final', tags: ['busy'] },
    notFound: { type: 'final' },
  },
});

export type SsoMachine = typeof ssoMachine;
