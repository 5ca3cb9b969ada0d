/**
 * Real I/O for the auth machines (session, login, start page). Each actor returns
 * `{ ok: false, code }` for an expected failure and only throws for a bug; codes are translated by
 * the views. Nothing here logs a password, token or one-time code.
 */
import { fromCallback, fromPromise } from 'xstate';
import type { Tokens } from '../../../api/auth.ts';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import type { SessionEvent, RefreshResult, CustomerNotification } from '../../../machines/session/session.machine.ts';
import { readAccessExpiryMs } from '../../../machines/session/access-token.ts';
import type { SignInResult, ExchangeResult, LoginErrorCode } from '../../../machines/login/login.machine.ts';
import type {
  CustomerResult,
  AccessListResult,
  AccessInfoResult,
  TermsAcceptResult,
} from '../../../machines/start-page/start-page.machine.ts';
import { createPkcePair } from '../../lib/pkce.ts';
import * as tokenClient from '../../lib/token-client.ts';
import { NETWORK_STATUS } from '../../lib/token-client.ts';
import { connectPush } from '../../lib/push-client.ts';
import { getPushUrl } from '../../lib/api-base.ts';
import { callMethod } from '../../lib/request.ts';
import { pushToast } from '../../lib/notify.ts';
import { NOTIFICATION_TOAST_MS } from '../../../api/push.ts';

function readable(tokens: Tokens): boolean {
  return readAccessExpiryMs(tokens.accessToken) !== null;
}

/* ------------------------------------------------------------------ session */

export const refreshTokensActor = fromPromise<RefreshResult, { refreshToken: string }>(async ({ input }) => {
  if (!input.refreshToken) return { ok: false, code: 'rejected' };
  const res = await tokenClient.refresh(input.refreshToken);
  if (!res.ok) return { ok: false, code: res.status === NETWORK_STATUS ? 'network' : 'rejected' };
  if (!readable(res.data)) return { ok: false, code: 'unreadableToken' };
  return { ok: true, tokens: res.data };
});

export const revokeSessionActor = fromPromise<void, { refreshToken: string | null }>(async ({ input }) => {
  if (!input.refreshToken) return;
  const res = await tokenClient.logout(input.refreshToken);
  // Document 1 §4: a logout failure is only logged. Never the token itself.
  if (!res.ok) console.warn(`logout failed: ${res.status} ${res.message}`);
});

/** The push connection while signed in: events go back to the session machine. */
export function createPushConnectionActor(getToken: () => string | null) {
  return fromCallback<SessionEvent>(({ sendBack }) =>
    connectPush({
      url: getPushUrl(),
      getToken,
      onEvent: (event) => sendBack({ type: 'PUSH.RECEIVED', event }),
    }),
  );
}

export function showNotificationToast(n: CustomerNotification): void {
  pushToast({ title: n.title, body: n.body, tone: 'info', timeoutMs: NOTIFICATION_TOAST_MS });
}

/** Document 1 §1: session expiry and login results are signalled to an embedding mobile app. */
export function signalEmbeddingApp(type: 'sessionExpired' | 'loginSuccess' | 'loginFailure'): void {
  const bridge = (globalThis as { ReactNativeWebView?: { postMessage(message: string): void } }).ReactNativeWebView;
  bridge?.postMessage(JSON.stringify({ type }));
}

/* -------------------------------------------------------------------- login */

function loginErrorCode(status: number, step: 'login' | 'token', withOtp: boolean): LoginErrorCode {
  if (status === NETWORK_STATUS) return 'network';
  if (status === 429) return 'rateLimited';
  if (step === 'login') return status === 403 || status === 404 ? 'invalidCredentials' : 'unknown';
  // The token step: 404 means the code is unknown or used up, 403 a wrong one-time code.
  if (status === 404) return 'codeExpired';
  if (status === 403) return withOtp ? 'invalidOtp' : 'codeExpired';
  return 'unknown';
}

export const signInActor = fromPromise<SignInResult, { username: string; password: string }>(async ({ input }) => {
  const pkce = await createPkcePair();
  const res = await tokenClient.login({
    client: 'spa',
    username: input.username,
    password: input.password,
    codeChallenge: pkce.challenge,
    codeChallengeMethod: 'S256',
  });
  if (!res.ok) {
    signalEmbeddingApp('loginFailure');
    return { ok: false, code: loginErrorCode(res.status, 'login', false) };
  }
  if (res.data.authFlow === 'simple' && !readable(res.data)) return { ok: false, code: 'unknown' };
  return { ok: true, codeVerifier: pkce.verifier, response: res.data };
});

export const exchangeCodeActor = fromPromise<ExchangeResult, { code: string; codeVerifier: string; otp?: string }>(
  async ({ input }) => {
    const res = await tokenClient.exchangeCode(input);
    if (!res.ok) return { ok: false, code: loginErrorCode(res.status, 'token', input.otp !== undefined) };
    if (!readable(res.data)) return { ok: false, code: 'unknown' };
    return { ok: true, tokens: res.data };
  },
);

/* --------------------------------------------------------------- start page */

function failureCode(f: Failure): 'network' | 'unknown' | 'noAccess' | 'auth' {
  if (f.responseCode === ResponseCode.network) return 'network';
  if (f.responseCode === ResponseCode.auth) return 'auth';
  if (f.responseCode === ResponseCode.noAccess || f.responseCode === ResponseCode.accessDenied) return 'noAccess';
  return 'unknown';
}

export const loadCustomerActor = fromPromise<CustomerResult>(async () => {
  const res = await callMethod('getCustomerInfo', {});
  if (res.responseCode === ResponseCode.success && 'customer' in res) return { ok: true, customer: res.customer };
  const f = res as Failure;
  if (f.responseCode === ResponseCode.terms) return { ok: false, code: 'terms', terms: f.terms ?? [] };
  return { ok: false, code: failureCode(f) };
});

export const loadAccessListActor = fromPromise<AccessListResult>(async () => {
  const res = await callMethod('userAccessList', {});
  if (res.responseCode === ResponseCode.success && 'customerAccesses' in res) {
    return { ok: true, accesses: res.customerAccesses };
  }
  const f = res as Failure;
  if (f.responseCode === ResponseCode.terms) return { ok: false, code: 'terms', terms: f.terms ?? [] };
  return { ok: false, code: failureCode(f) };
});

export const loadAccessInfoActor = fromPromise<AccessInfoResult, { customerId: number }>(async ({ input }) => {
  const res = await callMethod('userAccessInfoGet', { customerId: input.customerId });
  if (res.responseCode === ResponseCode.success && 'accessInfo' in res) return { ok: true, accessInfo: res.accessInfo };
  const f = res as Failure;
  if (f.responseCode === ResponseCode.terms) return { ok: false, code: 'terms', terms: f.terms ?? [] };
  return { ok: false, code: failureCode(f) };
});

export const acceptTermsActor = fromPromise<TermsAcceptResult, { terms: { id: number; version: number }[] }>(
  async ({ input }) => {
    const res = await callMethod('termsAccept', { terms: input.terms.map(({ id, version }) => ({ id, version })) });
    if (res.responseCode === ResponseCode.success) return { ok: true };
    return { ok: false, code: failureCode(res as Failure) };
  },
);
