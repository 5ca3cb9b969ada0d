/**
 * Real I/O for the auth machines (session, login, start page). Each actor returns
 * `{ ok: false, code }` for an expected failure and only throws for a bug; codes are translated by
 * the views. Nothing here logs a password, token or one-time code.
 */
import { fromCallback, fromPromise } from 'xstate';
import * as v from 'valibot';
import { NOT_ACTIVATED_MESSAGE, PRIVACY_REFUSED_MESSAGE, type Tokens } from '../../../api/auth.ts';
import { DEVICE_LINK_STORAGE_KEY } from '../../../api/devices.ts';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import type { SessionEvent, RefreshResult, CustomerNotification } from '../../../machines/session/session.machine.ts';
import { readAccessExpiryMs } from '../../../machines/session/access-token.ts';
import type {
  ApprovalChannelInput,
  ExchangeInput,
  ExchangeResult,
  LoginErrorCode,
  LoginEvent,
  ResendInput,
  ResendResult,
  SignInResult,
} from '../../../machines/login/login.machine.ts';
import type {
  CustomerResult,
  AccessListResult,
  AccessInfoResult,
  TermsAcceptResult,
} from '../../../machines/start-page/start-page.machine.ts';
import { createPkcePair } from '../../lib/pkce.ts';
import * as tokenClient from '../../lib/token-client.ts';
import { NETWORK_STATUS } from '../../lib/token-client.ts';
import { getAuthUrl, getPushUrl } from '../../lib/api-base.ts';
// Loaded with the push step or the first push event, not with the sign-in page.
const loadLoginApproval = () => import('../../lib/login-approval.ts');
const loadPushToasts = () => Promise.all([import('../../lib/password-change-toast.ts'), import('../../lib/two-step-toast.ts')]);
const loadPushClient = () => import('../../lib/push-client.ts');
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { callMethod } from '../../lib/request-later.ts';
import { deliverCustomerNotification } from '../../lib/customer-notifications.ts';

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

/**
 * The push connection while signed in: events go back to the session machine. The client is
 * loaded when the connection starts (signed in), not with the sign-in page; should that load fail
 * (network), the session goes on without pushes, as when the socket cannot connect.
 */
export function createPushConnectionActor(getToken: () => string | null) {
  return fromCallback<SessionEvent>(({ sendBack }) => {
    let stopped = false;
    let disconnect: (() => void) | null = null;
    void loadPushClient().then(
      ({ connectPush }) => {
        if (stopped) return;
        disconnect = connectPush({
          url: getPushUrl(),
          getToken,
          onEvent: (event) => {
            // PasswordChange (document 3 §7) and the two-step verification events are only toasts, on
            // every open session of the customer.
            if (event.type === 'PasswordChange' || event.type.startsWith('TwoStepVerification')) {
              void loadPushToasts().then(([{ showPasswordChangeToast }, { isTwoStepPush, showTwoStepToast }]) => {
                if (event.type === 'PasswordChange') showPasswordChangeToast(event.status);
                if (isTwoStepPush(event)) showTwoStepToast(event);
              });
            }
            sendBack({ type: 'PUSH.RECEIVED', event });
          },
        });
      },
      () => undefined,
    );
    return () => {
      stopped = true;
      disconnect?.();
    };
  });
}

/** The notifications feature shows it (toast with its target, refreshes): lib/customer-notifications.ts. */
export function showNotificationToast(n: CustomerNotification): void {
  deliverCustomerNotification(n);
}

/* -------------------------------------------------------------------- login */

type TokenStep = 'login' | 'token' | 'resend';
type SecondFactor = 'otp' | 'recoveryCode' | null;

function loginErrorCode(status: number, step: TokenStep, factor: SecondFactor = null, message = ''): LoginErrorCode {
  if (status === NETWORK_STATUS) return 'network';
  if (status === 429) return 'rateLimited';
  if (step === 'login' && status === 403 && message === NOT_ACTIVATED_MESSAGE) return 'notActivated';
  if (step === 'login' && status === 403 && message === PRIVACY_REFUSED_MESSAGE) return 'privacyRefused';
  if (step === 'login') return status === 403 || status === 404 ? 'invalidCredentials' : 'unknown';
  // 404: the code (or the attempt's temporary token) is unknown or used up.
  if (status === 404) return 'codeExpired';
  // A re-send's 403: the attempt is over (its login code expired), or a phone not on the list,
  // which the view never offers: either way only a new sign-in helps.
  if (step === 'resend') return status === 403 ? 'codeExpired' : 'unknown';
  // The token step: 403 is a wrong one-time or recovery code; without one, a dead code.
  if (status === 403) return factor === 'otp' ? 'invalidOtp' : factor === 'recoveryCode' ? 'invalidRecoveryCode' : 'codeExpired';
  return 'unknown';
}

const DeviceLinkSchema = v.object({ deviceId: v.number(), secret: v.pipe(v.string(), v.minLength(1), v.maxLength(256)) });

/**
 * The device companion's link on this origin (api/devices.ts DEVICE_LINK_STORAGE_KEY): when this
 * browser is a linked phone, its secret is the second factor and the platform answers direct.
 */
export function readDeviceLinkSecret(store: Pick<Storage, 'getItem'> | null = browserLocalStorage()): string | null {
  const raw = store?.getItem(DEVICE_LINK_STORAGE_KEY);
  if (!raw) return null;
  try {
    const parsed = v.safeParse(DeviceLinkSchema, JSON.parse(raw));
    return parsed.success ? parsed.output.secret : null;
  } catch {
    return null;
  }
}

function browserLocalStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export const signInActor = fromPromise<SignInResult, { username: string; password: string }>(async ({ input }) => {
  const pkce = await createPkcePair();
  const secret = readDeviceLinkSecret();
  const res = await tokenClient.login({
    client: 'spa',
    username: input.username,
    password: input.password,
    codeChallenge: pkce.challenge,
    codeChallengeMethod: 'S256',
    ...(secret ? { secret } : {}),
  });
  if (!res.ok) return { ok: false, code: loginErrorCode(res.status, 'login', null, res.message) };
  if (res.data.authFlow === 'simple' && !readable(res.data)) return { ok: false, code: 'unknown' };
  return { ok: true, codeVerifier: pkce.verifier, response: res.data };
});

export const exchangeCodeActor = fromPromise<ExchangeResult, ExchangeInput>(async ({ input }) => {
  const res = await tokenClient.exchangeCode(input);
  const factor: SecondFactor = input.otp !== undefined ? 'otp' : input.recoveryCode !== undefined ? 'recoveryCode' : null;
  if (!res.ok) return { ok: false, code: loginErrorCode(res.status, 'token', factor) };
  if (!readable(res.data)) return { ok: false, code: 'unknown' };
  return { ok: true, tokens: res.data };
});

export const resendApprovalActor = fromPromise<ResendResult, ResendInput>(async ({ input }) => {
  const { resendLoginApproval } = await loadLoginApproval();
  const res = await resendLoginApproval({ authUrl: getAuthUrl, language: getUiLanguageTag }, input);
  if (!res.ok) return { ok: false, code: loginErrorCode(res.status, 'resend') };
  return { ok: true, expiresInS: res.expiresInS };
});

/** The longest wait the channel actor honours, whatever the platform says (a limit on everything). */
const MAX_APPROVAL_WAIT_S = 15 * 60;

/**
 * The sign-in attempt's live channel: the phone's answer becomes PUSH.APPROVED or PUSH.DECLINED;
 * the request's expiry, or losing the channel for good, PUSH.EXPIRED (the user may send again).
 */
export const approvalChannelActor = fromCallback<LoginEvent, ApprovalChannelInput>(({ sendBack, input }) => {
  const waitMs = Math.min(Math.max(input.expiresInS, 0), MAX_APPROVAL_WAIT_S) * 1000;
  const timer = setTimeout(() => sendBack({ type: 'PUSH.EXPIRED' }), waitMs);
  let stopped = false;
  let disconnect: (() => void) | null = null;
  void loadLoginApproval().then(
    ({ connectLoginApproval }) => {
      if (stopped) return;
      disconnect = connectLoginApproval({
        url: getPushUrl(),
        temporaryToken: input.temporaryToken,
        onStatus: (status) =>
          sendBack({ type: status === 'approved' ? 'PUSH.APPROVED' : status === 'declined' ? 'PUSH.DECLINED' : 'PUSH.EXPIRED' }),
        onLost: () => sendBack({ type: 'PUSH.EXPIRED' }),
      });
    },
    () => sendBack({ type: 'PUSH.EXPIRED' }),
  );
  return () => {
    stopped = true;
    clearTimeout(timer);
    disconnect?.();
  };
});

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
