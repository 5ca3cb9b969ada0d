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
  description: 'Single sign-on consent: a partner sent the signed-in user here to authorise it, and the user approves or denies.',
  meta: { spec: ['document 1 §2', 'document 1 §7'] },
  context: ({ input }) => ({ authorizeUrl: input.authorizeUrl, authorization: null, approve: null, redirectUri: null, error: null }),
  initial: 'authorizing',
  states: {
    authorizing: {
      description: "The partner's authorisation request is being checked by the platform.",
      tags: ['busy'],
      invoke: {
        id: 'authorize',
        src: 'authorize',
        input: ({ context }) => ({ authorizeUrl: context.authorizeUrl }),
        onDone: [
          {
            description: 'The request is valid: the user is asked for consent.',
            guard: { type: 'isAuthorized', params: ({ event }) => event.output },
            target: 'consent',
            actions: { type: 'rememberAuthorization', params: ({ event }) => event.output },
          },
          {
            description: 'The platform does not know this authorisation (404): the user is sent to the root page.',
            guard: { type: 'isNotFound', params: ({ event }) => event.output },
            target: 'notFound',
          },
          {
            description: 'The check failed: the error is shown and the user may retry.',
            target: 'failed',
            actions: {
              type: 'setError',
              // Stryker disable next-line StringLiteral: unreachable, the guard above takes every ok answer (TypeScript needs the branch)
              params: ({ event }) => ({ code: event.output.ok ? 'unknown' : event.output.code }),
            },
          },
        ],
        onError: {
          description: 'The check failed (network): the error is shown and the user may retry.',
          target: 'failed',
          actions: { type: 'setError', params: { code: 'network' } },
        },
      },
    },
    failed: {
      description: 'The authorisation request could not be checked; the user may retry.',
      on: { RETRY: { target: 'authorizing', description: 'The user retries the check.' } },
    },
    consent: {
      description: 'The user is asked whether the partner may act on their behalf.',
      on: {
        'CONSENT.APPROVE': {
          target: 'deciding',
          description: 'The user approves the partner.',
          actions: { type: 'rememberApprove', params: { approve: true } },
        },
        'CONSENT.DENY': {
          target: 'deciding',
          description: 'The user denies the partner.',
          actions: { type: 'rememberApprove', params: { approve: false } },
        },
      },
    },
    deciding: {
      description: "The user's answer is being sent to the platform.",
      tags: ['busy'],
      invoke: {
        id: 'decide',
        src: 'decide',
        input: ({ context }) => ({ authorizationId: context.authorization!.authorizationId, approve: context.approve! }),
        onDone: [
          {
            description: "The answer was recorded: the user is signed out here and sent back to the partner.",
            guard: { type: 'isDecided', params: ({ event }) => event.output },
            target: 'leaving',
            actions: { type: 'rememberRedirect', params: ({ event }) => event.output },
          },
          {
            description: 'The platform does not know this authorisation (404): the user is sent to the root page.',
            guard: { type: 'isNotFound', params: ({ event }) => event.output },
            target: 'notFound',
          },
          {
            description: 'Sending the answer failed: the user sees the error and may answer again.',
            target: 'consent',
            actions: {
              type: 'setError',
              // Stryker disable next-line StringLiteral: unreachable, the guard above takes every ok answer (TypeScript needs the branch)
              params: ({ event }) => ({ code: event.output.ok ? 'unknown' : event.output.code }),
            },
          },
        ],
        onError: {
          description: 'Sending the answer failed (network): the user may answer again.',
          target: 'consent',
          actions: { type: 'setError', params: { code: 'network' } },
        },
      },
    },
    leaving: {
      description: "The user is being signed out of this app and sent to the partner's redirect address.",
      tags: ['busy'],
      invoke: {
        id: 'leave',
        src: 'leave',
        input: ({ context }) => ({ redirectUri: context.redirectUri! }),
        onDone: { target: 'left', description: 'Signed out: the browser goes to the partner.' },
        // Signing out failed on the network: still leave (the partner got its answer).
        onError: { target: 'left', description: 'Signing out failed on the network: the browser goes to the partner anyway.' },
      },
    },
    left: { type: 'final', tags: ['busy'], description: "The browser is on its way to the partner's site." },
    notFound: { type: 'final', description: 'The authorisation was not found; the user is sent to the root page.' },
  },
});

export type SsoMachine = typeof ssoMachine;
