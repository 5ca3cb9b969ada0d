/**
 * Sign-in (document 1 §3 "Login flow types", §4 "Session", §5 PKCE and username rules).
 *
 * ```
 * idle ─(code + codeVerifier in the query)──────────────────────────────▶ verifyingCode ─ok─▶ signedIn (final)
 *   └──▶ credentials ─CREDENTIALS.SUBMIT (valid)─▶ signingIn ── authFlow ──┐
 *            ▲   └─(invalid: field errors, stays)                          ├─ simple ───────────────────▶ signedIn
 *            │                                                             ├─ direct ───────────────────▶ verifyingCode
 *            │◀── STEP.BACK from any second step                           ├─ otp ─OTP.SUBMIT─▶ verifyingOtp ─ok─▶ signedIn
 *            │◀── failure (error code; signalled to an embedding app)      ├─ sms ─SMS.SUBMIT─▶ verifyingSms ─ok─▶ signedIn
 *            │                                                             └─ push / verifyDevice ─▶ approval
 *   approval: routing ─┬─ no device ──────────▶ noDevice (only a recovery code can finish)
 *                      ├─ verifyDevice ───────▶ choosingDevice ─DEVICE.CHOOSE─▶ resending
 *                      └─ push ───────────────▶ waiting (live channel) ─PUSH.APPROVED─▶ verifyingCode
 *                         waiting ─PUSH.DECLINED─▶ credentials · ─PUSH.EXPIRED─▶ expired ─PUSH.RESEND─▶ resending ─ok─▶ waiting
 *   otp, sms, approval ─RECOVERY.START─▶ recovery ─RECOVERY.SUBMIT─▶ verifyingRecovery ─ok─▶ signedIn (recoveryUsed)
 * ```
 *
 * The output tells the app what else the sign-in requires: `migration` (push 2FA migration, soft
 * or strict: the app sends the user to /scp) and `recoveryUsed` (the session is restricted to
 * setting up two-step verification again).
 *
 * The password never enters the context: the sign-in actor reads it from the submit event.
 * Errors are codes (LoginErrorCode, LoginFieldError); the view translates them. The machine calls
 * `reportSignedIn` and `reportFailure` (no-ops here) for the app to hand tokens to the session and
 * to signal an embedding mobile app.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { LoginResponse, PushMigration, Tokens } from '../../api/auth.ts';
import {
  isAcceptablePassword,
  isEmailUsername,
  isRecoveryCode,
  isSixDigitCode,
  normaliseRecoveryCode,
  normaliseUsername,
} from './login.rules.ts';

export type LoginErrorCode =
  | 'invalidCredentials'
  /** the password matched, the account is not activated yet */
  | 'notActivated'
  /** the address failed the privacy check (VPN, proxy, Tor, relay or hosting network) */
  | 'privacyRefused'
  | 'invalidOtp'
  | 'invalidRecoveryCode'
  | 'rateLimited'
  | 'codeExpired'
  | 'approvalRejected'
  | 'network'
  | 'unknown';
export type LoginFieldError = 'usernameNotEmail' | 'passwordRequired' | 'otpFormat' | 'recoveryCodeFormat';

export type SignInResult =
  | { ok: true; codeVerifier: string; response: LoginResponse }
  | { ok: false; code: LoginErrorCode };
export type ExchangeResult = { ok: true; tokens: Tokens } | { ok: false; code: LoginErrorCode };
export type ResendResult = { ok: true; expiresInS: number } | { ok: false; code: LoginErrorCode };

export interface ExchangeInput {
  code: string;
  codeVerifier: string;
  otp?: string;
  recoveryCode?: string;
}
export interface ApprovalChannelInput {
  temporaryToken: string;
  /** the approval request's remaining life: the channel reports PUSH.EXPIRED after it */
  expiresInS: number;
}
export interface ResendInput {
  temporaryToken: string;
  /** verifyDevice: the phone the user chose; push: omitted (every approved phone) */
  deviceId?: number;
}

/** The second step the platform asked for (every flow but simple). */
export type SecondStep = Exclude<LoginResponse, { authFlow: 'simple' }>;
/** The flows that wait for a phone's approval. */
export type ApprovalStep = Extract<LoginResponse, { authFlow: 'push' | 'verifyDevice' }>;

/** What the app must know once signed in. */
export interface LoginOutcome {
  tokens: Tokens;
  /** a soft or strict push 2FA migration (null: none applies) */
  migration: PushMigration | null;
  /** signed in with a recovery code: two-step verification must be set up again */
  recoveryUsed: boolean;
}

export interface LoginContext {
  /** normalised username, kept to refill the form after STEP.BACK */
  username: string;
  code: string | null;
  codeVerifier: string | null;
  step: SecondStep | null;
  chosenDeviceId: number | null;
  /** life of the pending approval request (push, verifyDevice), renewed by each re-send */
  approvalExpiresInS: number | null;
  migration: PushMigration | null;
  recoveryUsed: boolean;
  tokens: Tokens | null;
  error: LoginErrorCode | null;
  fieldErrors: { username?: LoginFieldError; password?: LoginFieldError; otp?: LoginFieldError; recoveryCode?: LoginFieldError };
}

export interface LoginInput {
  /** Document 1 §2: a code plus codeVerifier in the query signs the user in. */
  queryCode?: { code: string; codeVerifier: string } | null;
}

export type LoginEvent =
  | { type: 'CREDENTIALS.SUBMIT'; username: string; password: string }
  | { type: 'OTP.SUBMIT'; otp: string }
  | { type: 'SMS.SUBMIT'; otp: string }
  /** from the live channel (the approval channel actor) */
  | { type: 'PUSH.APPROVED' }
  | { type: 'PUSH.DECLINED' }
  /** the request expired, or the channel closed for good without an answer */
  | { type: 'PUSH.EXPIRED' }
  | { type: 'PUSH.RESEND' }
  | { type: 'DEVICE.CHOOSE'; deviceId: number }
  | { type: 'DEVICE.CHANGE' }
  | { type: 'RECOVERY.START' }
  | { type: 'RECOVERY.SUBMIT'; recoveryCode: string }
  | { type: 'STEP.BACK' };

function isFlow(r: SignInResult, flow: LoginResponse['authFlow']): boolean {
  return r.ok && r.response.authFlow === flow;
}

const errorOf = (r: { ok: boolean; code?: LoginErrorCode }): LoginErrorCode => (r.ok ? 'unknown' : (r.code ?? 'unknown'));

function approvalStepOf(context: LoginContext): ApprovalStep | null {
  const step = context.step;
  return step?.authFlow === 'push' || step?.authFlow === 'verifyDevice' ? step : null;
}

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as LoginInput,
    output: {} as LoginOutcome,
  },
  actors: {
    /** Creates a fresh PKCE pair and POSTs /auth/login (with a linked device's secret if any). */
    signIn: fromPromise<SignInResult, { username: string; password: string }>(async () => {
      throw new Error('signIn is provided by the app');
    }),
    /** POST /auth/token with the code, the verifier and, for otp and sms, the one-time code or a recovery code. */
    exchangeCode: fromPromise<ExchangeResult, ExchangeInput>(async () => {
      throw new Error('exchangeCode is provided by the app');
    }),
    /** POST /auth/push/re-send: the approval request again (to the chosen phone, for verifyDevice). */
    resendApproval: fromPromise<ResendResult, ResendInput>(async () => {
      throw new Error('resendApproval is provided by the app');
    }),
    /** The sign-in attempt's live channel: sends PUSH.APPROVED, PUSH.DECLINED or PUSH.EXPIRED. */
    // The app provides the real channel. This default never answers (rather than throwing at
    // start): replaying the chart without the app, as the coverage tools do, must not fail.
    approvalChannel: fromCallback<LoginEvent, ApprovalChannelInput>(() => () => undefined),
  },
  actions: {
    flagCredentialErrors: assign((_, p: { username: string; password: string }) => ({
      error: null,
      fieldErrors: {
        username: isEmailUsername(p.username) ? undefined : ('usernameNotEmail' as const),
        password: isAcceptablePassword(p.password) ? undefined : ('passwordRequired' as const),
      },
    })),
    startSignIn: assign((_, username: string) => ({
      username: normaliseUsername(username),
      error: null,
      fieldErrors: {},
      migration: null,
      recoveryUsed: false,
    })),
    /** Keeps what the answer says about the next step and about a push 2FA migration. */
    storeSignIn: assign((_, r: SignInResult) => {
      if (!r.ok) return {};
      const response = r.response;
      const migration = 'migration' in response && response.migration && response.migration.requirement !== 'none' ? response.migration : null;
      if (response.authFlow === 'simple') return { migration };
      return {
        step: response,
        code: response.code,
        codeVerifier: r.codeVerifier,
        chosenDeviceId: null,
        approvalExpiresInS: 'expiresInS' in response ? response.expiresInS : null,
        migration,
      };
    }),
    storeTokens: assign((_, tokens: Tokens) => ({ tokens, error: null })),
    markRecoveryUsed: assign({ recoveryUsed: true }),
    storeError: assign((_, code: LoginErrorCode) => ({ error: code })),
    storeApprovalExpiry: assign((_, expiresInS: number) => ({ approvalExpiresInS: expiresInS, error: null })),
    flagOtpError: assign({ error: null, fieldErrors: { otp: 'otpFormat' as const } }),
    flagRecoveryCodeError: assign({ error: null, fieldErrors: { recoveryCode: 'recoveryCodeFormat' as const } }),
    clearErrors: assign({ error: null, fieldErrors: {} }),
    forgetSecondStep: assign({ step: null, code: null, codeVerifier: null, chosenDeviceId: null, approvalExpiresInS: null, migration: null }),
    storeChosenDevice: assign((_, deviceId: number) => ({ chosenDeviceId: deviceId })),
    /** The app hands the tokens to the session (SESSION.SIGN_IN) and signals an embedding app. */
    reportSignedIn: (_, _outcome: LoginOutcome) => undefined,
    /** The sign-in attempt failed for good (back to the credentials): the app signals an embedding app. */
    reportFailure: (_, _code: LoginErrorCode) => undefined,
  },
  guards: {
    hasQueryCode: ({ context }) => context.code !== null && context.codeVerifier !== null,
    credentialsAreValid: (_, p: { username: string; password: string }) =>
      isEmailUsername(p.username) && isAcceptablePassword(p.password),
    isSimpleFlow: (_, r: SignInResult) => isFlow(r, 'simple'),
    isOtpFlow: (_, r: SignInResult) => isFlow(r, 'otp'),
    isSmsFlow: (_, r: SignInResult) => isFlow(r, 'sms'),
    isApprovalFlow: (_, r: SignInResult) => isFlow(r, 'push') || isFlow(r, 'verifyDevice'),
    isDirectFlow: (_, r: SignInResult) => isFlow(r, 'direct'),
    isSixDigitCode: (_, otp: string) => isSixDigitCode(otp),
    isRecoveryCode: (_, code: string) => isRecoveryCode(code),
    exchangeSucceeded: (_, r: ExchangeResult) => r.ok,
    resendSucceeded: (_, r: ResendResult) => r.ok,
    /** The code is spent or too old: only a new sign-in can help. */
    codeIsDead: (_, r: ExchangeResult) => !r.ok && (r.code === 'codeExpired' || r.code === 'rateLimited'),
    /** The attempt is gone (unknown temporary token); a rate limit on re-send is only a wait. */
    attemptIsGone: (_, r: ResendResult) => !r.ok && r.code === 'codeExpired',
    hasNoApprovalDevice: ({ context }) => approvalStepOf(context)?.deviceList.length === 0,
    isChoosingDevice: ({ context }) => context.step?.authFlow === 'verifyDevice',
    isListedDevice: ({ context }, deviceId: number) => approvalStepOf(context)?.deviceList.some((d) => d.id === deviceId) ?? false,
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({
    username: '',
    code: input.queryCode?.code ?? null,
    codeVerifier: input.queryCode?.codeVerifier ?? null,
    step: null,
    chosenDeviceId: null,
    approvalExpiresInS: null,
    migration: null,
    recoveryUsed: false,
    tokens: null,
    error: null,
    fieldErrors: {},
  }),
  initial: 'idle',
  states: {
    idle: {
      always: [{ guard: 'hasQueryCode', target: 'verifyingCode' }, { target: 'credentials' }],
    },
    credentials: {
      on: {
        'CREDENTIALS.SUBMIT': [
          {
            guard: { type: 'credentialsAreValid', params: ({ event }) => event },
            target: 'signingIn',
            actions: { type: 'startSignIn', params: ({ event }) => event.username },
          },
          // Document 1 §5: checked before sending; the field errors say what is wrong.
          { actions: { type: 'flagCredentialErrors', params: ({ event }) => event } },
        ],
      },
    },
    signingIn: {
      tags: ['busy'],
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ event }) => {
          const e = event as Extract<LoginEvent, { type: 'CREDENTIALS.SUBMIT' }>;
          return { username: normaliseUsername(e.username), password: e.password };
        },
        onDone: [
          {
            guard: { type: 'isSimpleFlow', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: [
              { type: 'storeSignIn', params: ({ event }) => event.output },
              {
                type: 'storeTokens',
                params: ({ event }) => {
                  const r = event.output as Extract<SignInResult, { ok: true }>;
                  const { accessToken, refreshToken } = r.response as Extract<LoginResponse, { authFlow: 'simple' }>;
                  return { accessToken, refreshToken };
                },
              },
            ],
          },
          {
            guard: { type: 'isOtpFlow', params: ({ event }) => event.output },
            target: 'otp',
            actions: { type: 'storeSignIn', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isSmsFlow', params: ({ event }) => event.output },
            target: 'sms',
            actions: { type: 'storeSignIn', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isApprovalFlow', params: ({ event }) => event.output },
            target: 'approval',
            actions: { type: 'storeSignIn', params: ({ event }) => event.output },
          },
          // A linked device's secret was the second factor: the code exchanges at once.
          {
            guard: { type: 'isDirectFlow', params: ({ event }) => event.output },
            target: 'verifyingCode',
            actions: { type: 'storeSignIn', params: ({ event }) => event.output },
          },
          {
            target: 'credentials',
            actions: [
              { type: 'storeError', params: ({ event }) => errorOf(event.output) },
              { type: 'reportFailure', params: ({ event }) => errorOf(event.output) },
            ],
          },
        ],
        onError: {
          target: 'credentials',
          actions: [
            { type: 'storeError', params: 'unknown' },
            { type: 'reportFailure', params: 'unknown' },
          ],
        },
      },
    },
    otp: {
      on: {
        'OTP.SUBMIT': [
          { guard: { type: 'isSixDigitCode', params: ({ event }) => event.otp }, target: 'verifyingOtp', actions: 'clearErrors' },
          { actions: 'flagOtpError' },
        ],
        'RECOVERY.START': { target: 'recovery', actions: 'clearErrors' },
        'STEP.BACK': { target: 'credentials', actions: ['forgetSecondStep', 'clearErrors'] },
      },
    },
    verifyingOtp: {
      tags: ['busy'],
      invoke: {
        id: 'exchangeOtp',
        src: 'exchangeCode',
        input: ({ context, event }) => ({
          code: context.code ?? '',
          codeVerifier: context.codeVerifier ?? '',
          otp: (event as Extract<LoginEvent, { type: 'OTP.SUBMIT' }>).otp,
        }),
        onDone: [
          {
            guard: { type: 'exchangeSucceeded', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'storeTokens', params: ({ event }) => (event.output as Extract<ExchangeResult, { ok: true }>).tokens },
          },
          {
            guard: { type: 'codeIsDead', params: ({ event }) => event.output },
            target: 'credentials',
            actions: [
              'forgetSecondStep',
              { type: 'storeError', params: ({ event }) => errorOf(event.output) },
              { type: 'reportFailure', params: ({ event }) => errorOf(event.output) },
            ],
          },
          // A wrong code: the same code may be tried again.
          { target: 'otp', actions: { type: 'storeError', params: ({ event }) => errorOf(event.output) } },
        ],
        onError: { target: 'otp', actions: { type: 'storeError', params: 'unknown' } },
      },
    },
    sms: {
      on: {
        'SMS.SUBMIT': [
          { guard: { type: 'isSixDigitCode', params: ({ event }) => event.otp }, target: 'verifyingSms', actions: 'clearErrors' },
          { actions: 'flagOtpError' },
        ],
        'RECOVERY.START': { target: 'recovery', actions: 'clearErrors' },
        'STEP.BACK': { target: 'credentials', actions: ['forgetSecondStep', 'clearErrors'] },
      },
    },
    verifyingSms: {
      tags: ['busy'],
      invoke: {
        id: 'exchangeSms',
        src: 'exchangeCode',
        input: ({ context, event }) => ({
          code: context.code ?? '',
          codeVerifier: context.codeVerifier ?? '',
          otp: (event as Extract<LoginEvent, { type: 'SMS.SUBMIT' }>).otp,
        }),
        onDone: [
          {
            guard: { type: 'exchangeSucceeded', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'storeTokens', params: ({ event }) => (event.output as Extract<ExchangeResult, { ok: true }>).tokens },
          },
          {
            guard: { type: 'codeIsDead', params: ({ event }) => event.output },
            target: 'credentials',
            actions: [
              'forgetSecondStep',
              { type: 'storeError', params: ({ event }) => errorOf(event.output) },
              { type: 'reportFailure', params: ({ event }) => errorOf(event.output) },
            ],
          },
          { target: 'sms', actions: { type: 'storeError', params: ({ event }) => errorOf(event.output) } },
        ],
        onError: { target: 'sms', actions: { type: 'storeError', params: 'unknown' } },
      },
    },
    /** push and verifyDevice: a linked phone approves the sign-in over the live channel. */
    approval: {
      initial: 'routing',
      on: {
        'RECOVERY.START': { target: 'recovery', actions: 'clearErrors' },
        'STEP.BACK': { target: 'credentials', actions: ['forgetSecondStep', 'clearErrors'] },
      },
      states: {
        routing: {
          always: [
            // No approved phone: nothing was sent; only a recovery code can finish.
            { guard: 'hasNoApprovalDevice', target: 'noDevice' },
            // Several phones: nothing is sent until the user picks one.
            { guard: 'isChoosingDevice', target: 'choosingDevice' },
            // One phone: the platform sent the request with its answer.
            { target: 'waiting' },
          ],
        },
        noDevice: {},
        choosingDevice: {
          on: {
            'DEVICE.CHOOSE': {
              guard: { type: 'isListedDevice', params: ({ event }) => event.deviceId },
              target: 'resending',
              actions: ['clearErrors', { type: 'storeChosenDevice', params: ({ event }) => event.deviceId }],
            },
          },
        },
        resending: {
          tags: ['busy'],
          invoke: {
            id: 'resendApproval',
            src: 'resendApproval',
            input: ({ context }) => ({
              temporaryToken: approvalStepOf(context)?.temporaryToken ?? '',
              ...(context.chosenDeviceId !== null ? { deviceId: context.chosenDeviceId } : {}),
            }),
            onDone: [
              {
                guard: { type: 'resendSucceeded', params: ({ event }) => event.output },
                target: 'waiting',
                actions: {
                  type: 'storeApprovalExpiry',
                  params: ({ event }) => (event.output as Extract<ResendResult, { ok: true }>).expiresInS,
                },
              },
              {
                guard: { type: 'attemptIsGone', params: ({ event }) => event.output },
                target: '#login.credentials',
                actions: [
                  'forgetSecondStep',
                  { type: 'storeError', params: 'codeExpired' },
                  { type: 'reportFailure', params: 'codeExpired' },
                ],
              },
              // Not sent (rate limit, network): nothing is pending; the user may send again.
              { target: 'expired', actions: { type: 'storeError', params: ({ event }) => errorOf(event.output) } },
            ],
            onError: { target: 'expired', actions: { type: 'storeError', params: 'unknown' } },
          },
        },
        waiting: {
          invoke: {
            id: 'approvalChannel',
            src: 'approvalChannel',
            input: ({ context }) => ({
              temporaryToken: approvalStepOf(context)?.temporaryToken ?? '',
              expiresInS: context.approvalExpiresInS ?? 0,
            }),
          },
          on: {
            'PUSH.APPROVED': { target: '#login.verifyingCode' },
            'PUSH.DECLINED': {
              target: '#login.credentials',
              actions: [
                'forgetSecondStep',
                { type: 'storeError', params: 'approvalRejected' },
                { type: 'reportFailure', params: 'approvalRejected' },
              ],
            },
            'PUSH.EXPIRED': { target: 'expired' },
            'PUSH.RESEND': { target: 'resending', actions: 'clearErrors' },
            'DEVICE.CHANGE': { guard: 'isChoosingDevice', target: 'choosingDevice', actions: 'clearErrors' },
          },
        },
        expired: {
          on: {
            'PUSH.RESEND': { target: 'resending', actions: 'clearErrors' },
            'DEVICE.CHANGE': { guard: 'isChoosingDevice', target: 'choosingDevice', actions: 'clearErrors' },
          },
        },
      },
    },
    /** A recovery code instead of the second step (a lost phone): any flow but simple and direct. */
    recovery: {
      on: {
        'RECOVERY.SUBMIT': [
          {
            guard: { type: 'isRecoveryCode', params: ({ event }) => event.recoveryCode },
            target: 'verifyingRecovery',
            actions: 'clearErrors',
          },
          { actions: 'flagRecoveryCodeError' },
        ],
        'STEP.BACK': { target: 'credentials', actions: ['forgetSecondStep', 'clearErrors'] },
      },
    },
    verifyingRecovery: {
      tags: ['busy'],
      invoke: {
        id: 'exchangeRecovery',
        src: 'exchangeCode',
        input: ({ context, event }) => ({
          code: context.code ?? '',
          codeVerifier: context.codeVerifier ?? '',
          recoveryCode: normaliseRecoveryCode((event as Extract<LoginEvent, { type: 'RECOVERY.SUBMIT' }>).recoveryCode),
        }),
        onDone: [
          {
            guard: { type: 'exchangeSucceeded', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: [
              'markRecoveryUsed',
              { type: 'storeTokens', params: ({ event }) => (event.output as Extract<ExchangeResult, { ok: true }>).tokens },
            ],
          },
          {
            guard: { type: 'codeIsDead', params: ({ event }) => event.output },
            target: 'credentials',
            actions: [
              'forgetSecondStep',
              { type: 'storeError', params: ({ event }) => errorOf(event.output) },
              { type: 'reportFailure', params: ({ event }) => errorOf(event.output) },
            ],
          },
          { target: 'recovery', actions: { type: 'storeError', params: ({ event }) => errorOf(event.output) } },
        ],
        onError: { target: 'recovery', actions: { type: 'storeError', params: 'unknown' } },
      },
    },
    /** The code needs no one-time code: from the query, an approved push or direct. */
    verifyingCode: {
      tags: ['busy'],
      invoke: {
        id: 'exchangeCode',
        src: 'exchangeCode',
        input: ({ context }) => ({ code: context.code ?? '', codeVerifier: context.codeVerifier ?? '' }),
        onDone: [
          {
            guard: { type: 'exchangeSucceeded', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'storeTokens', params: ({ event }) => (event.output as Extract<ExchangeResult, { ok: true }>).tokens },
          },
          {
            target: 'credentials',
            actions: [
              'forgetSecondStep',
              { type: 'storeError', params: ({ event }) => errorOf(event.output) },
              { type: 'reportFailure', params: ({ event }) => errorOf(event.output) },
            ],
          },
        ],
        onError: {
          target: 'credentials',
          actions: ['forgetSecondStep', { type: 'storeError', params: 'unknown' }, { type: 'reportFailure', params: 'unknown' }],
        },
      },
    },
    signedIn: {
      type: 'final',
      entry: {
        type: 'reportSignedIn',
        params: ({ context }) => ({ tokens: context.tokens as Tokens, migration: context.migration, recoveryUsed: context.recoveryUsed }),
      },
    },
  },
  output: ({ context }) => ({ tokens: context.tokens as Tokens, migration: context.migration, recoveryUsed: context.recoveryUsed }),
});

export type LoginMachine = typeof loginMachine;
