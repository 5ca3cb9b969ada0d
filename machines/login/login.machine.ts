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
  description: 'Signing in: username and password, then the second step the platform asks for, until tokens are issued.',
  meta: { spec: ['document 1 §1', 'document 1 §3', 'document 1 §4', 'document 1 §5', 'document 1 §7', 'document 1 §8'] },
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
      description: 'The sign-in page has just opened.',
      always: [
        { guard: 'hasQueryCode', target: 'verifyingCode', description: 'The address carries a sign-in code and its verifier: they are exchanged for tokens.' },
        { target: 'credentials', description: 'No sign-in code in the address: the user is asked for username and password.' },
      ],
    },
    credentials: {
      description: 'The user is asked for username (an e-mail address) and password.',
      on: {
        'CREDENTIALS.SUBMIT': [
          {
            description: 'The username is an e-mail address and a password is given: they are sent to sign in.',
            guard: { type: 'credentialsAreValid', params: ({ event }) => event },
            target: 'signingIn',
            actions: { type: 'startSignIn', params: ({ event }) => event.username },
          },
          // Document 1 §5: checked before sending; the field errors say what is wrong.
          {
            description: 'The username or password is not acceptable: the fields show what is wrong and nothing is sent.',
            actions: { type: 'flagCredentialErrors', params: ({ event }) => event },
          },
        ],
      },
    },
    signingIn: {
      description: 'The username and password are being checked by the platform.',
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
            description: 'The platform issued tokens directly (simple flow): the user is signed in.',
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
            description: 'The platform asks for a one-time code from an authenticator app.',
            guard: { type: 'isOtpFlow', params: ({ event }) => event.output },
            target: 'otp',
            actions: { type: 'storeSignIn', params: ({ event }) => event.output },
          },
          {
            description: 'The platform asks for a code sent by SMS to the masked phone number.',
            guard: { type: 'isSmsFlow', params: ({ event }) => event.output },
            target: 'sms',
            actions: { type: 'storeSignIn', params: ({ event }) => event.output },
          },
          {
            description: 'The platform asks for approval on a linked phone (push or device verification).',
            guard: { type: 'isApprovalFlow', params: ({ event }) => event.output },
            target: 'approval',
            actions: { type: 'storeSignIn', params: ({ event }) => event.output },
          },
          // A linked device's secret was the second factor: the code exchanges at once.
          {
            description: "A linked device's secret served as the second factor: the sign-in code is exchanged at once.",
            guard: { type: 'isDirectFlow', params: ({ event }) => event.output },
            target: 'verifyingCode',
            actions: { type: 'storeSignIn', params: ({ event }) => event.output },
          },
          {
            description: 'The sign-in was refused (wrong credentials, not activated, privacy check, rate limit): the error is shown.',
            target: 'credentials',
            actions: [
              { type: 'storeError', params: ({ event }) => errorOf(event.output) },
              { type: 'reportFailure', params: ({ event }) => errorOf(event.output) },
            ],
          },
        ],
        onError: {
          description: 'The sign-in call failed unexpectedly: an unknown error is shown.',
          target: 'credentials',
          actions: [
            { type: 'storeError', params: 'unknown' },
            { type: 'reportFailure', params: 'unknown' },
          ],
        },
      },
    },
    otp: {
      description: 'The user is asked for the six-digit code from the authenticator app.',
      on: {
        'OTP.SUBMIT': [
          {
            description: 'The code has six digits: it is sent to be checked.',
            guard: { type: 'isSixDigitCode', params: ({ event }) => event.otp },
            target: 'verifyingOtp',
            actions: 'clearErrors',
          },
          { description: 'The code is not six digits: the field shows the error and nothing is sent.', actions: 'flagOtpError' },
        ],
        'RECOVERY.START': { target: 'recovery', description: 'The user has lost the phone and chooses to enter a recovery code instead.', actions: 'clearErrors' },
        'STEP.BACK': { target: 'credentials', description: 'The user goes back to the username and password; the second step is dropped.', actions: ['forgetSecondStep', 'clearErrors'] },
      },
    },
    verifyingOtp: {
      description: 'The one-time code is being checked and exchanged for tokens.',
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
            description: 'The one-time code was accepted and tokens were issued: the user is signed in.',
            guard: { type: 'exchangeSucceeded', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'storeTokens', params: ({ event }) => (event.output as Extract<ExchangeResult, { ok: true }>).tokens },
          },
          {
            description: 'The sign-in attempt is no longer valid (expired or used up): the user starts again from the credentials.',
            guard: { type: 'codeIsDead', params: ({ event }) => event.output },
            target: 'credentials',
            actions: [
              'forgetSecondStep',
              { type: 'storeError', params: ({ event }) => errorOf(event.output) },
              { type: 'reportFailure', params: ({ event }) => errorOf(event.output) },
            ],
          },
          // A wrong code: the same code may be tried again.
          {
            description: 'The one-time code was wrong: the user may try again.',
            target: 'otp',
            actions: { type: 'storeError', params: ({ event }) => errorOf(event.output) },
          },
        ],
        onError: {
          description: 'The check failed unexpectedly: the user may try the code again.',
          target: 'otp',
          actions: { type: 'storeError', params: 'unknown' },
        },
      },
    },
    sms: {
      description: 'The user is asked for the six-digit code sent by SMS.',
      on: {
        'SMS.SUBMIT': [
          {
            description: 'The code has six digits: it is sent to be checked.',
            guard: { type: 'isSixDigitCode', params: ({ event }) => event.otp },
            target: 'verifyingSms',
            actions: 'clearErrors',
          },
          { description: 'The code is not six digits: the field shows the error and nothing is sent.', actions: 'flagOtpError' },
        ],
        'RECOVERY.START': { target: 'recovery', description: 'The user has lost the phone and chooses to enter a recovery code instead.', actions: 'clearErrors' },
        'STEP.BACK': { target: 'credentials', description: 'The user goes back to the username and password; the second step is dropped.', actions: ['forgetSecondStep', 'clearErrors'] },
      },
    },
    verifyingSms: {
      description: 'The SMS code is being checked and exchanged for tokens.',
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
            description: 'The SMS code was accepted and tokens were issued: the user is signed in.',
            guard: { type: 'exchangeSucceeded', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'storeTokens', params: ({ event }) => (event.output as Extract<ExchangeResult, { ok: true }>).tokens },
          },
          {
            description: 'The sign-in attempt is no longer valid (expired or used up): the user starts again from the credentials.',
            guard: { type: 'codeIsDead', params: ({ event }) => event.output },
            target: 'credentials',
            actions: [
              'forgetSecondStep',
              { type: 'storeError', params: ({ event }) => errorOf(event.output) },
              { type: 'reportFailure', params: ({ event }) => errorOf(event.output) },
            ],
          },
          {
            description: 'The SMS code was wrong: the user may try again.',
            target: 'sms',
            actions: { type: 'storeError', params: ({ event }) => errorOf(event.output) },
          },
        ],
        onError: {
          description: 'The check failed unexpectedly: the user may try the code again.',
          target: 'sms',
          actions: { type: 'storeError', params: 'unknown' },
        },
      },
    },
    /** push and verifyDevice: a linked phone approves the sign-in over the live channel. */
    approval: {
      description: 'The sign-in waits for approval on a linked phone (push or device verification).',
      initial: 'routing',
      on: {
        'RECOVERY.START': { target: 'recovery', description: 'The user has lost the phone and chooses to enter a recovery code instead.', actions: 'clearErrors' },
        'STEP.BACK': { target: 'credentials', description: 'The user goes back to the username and password; the second step is dropped.', actions: ['forgetSecondStep', 'clearErrors'] },
      },
      states: {
        routing: {
          description: 'Deciding how the approval proceeds from the phones the platform listed.',
          always: [
            // No approved phone: nothing was sent; only a recovery code can finish.
            { guard: 'hasNoApprovalDevice', target: 'noDevice', description: 'The user has no approved phone: no request was sent.' },
            // Several phones: nothing is sent until the user picks one.
            { guard: 'isChoosingDevice', target: 'choosingDevice', description: 'Several phones are linked: the user picks the one to ask.' },
            // One phone: the platform sent the request with its answer.
            { target: 'waiting', description: 'One phone is linked: the platform already sent it the request.' },
          ],
        },
        noDevice: { description: 'No approved phone can approve the sign-in; only a recovery code can finish it.' },
        choosingDevice: {
          description: 'The user chooses which linked phone should approve the sign-in.',
          on: {
            'DEVICE.CHOOSE': {
              description: 'The user picked one of the listed phones: the approval request is sent to it.',
              guard: { type: 'isListedDevice', params: ({ event }) => event.deviceId },
              target: 'resending',
              actions: ['clearErrors', { type: 'storeChosenDevice', params: ({ event }) => event.deviceId }],
            },
          },
        },
        resending: {
          description: 'The approval request is being sent to the phone.',
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
                description: 'The request reached the phone: the sign-in waits for its answer.',
                guard: { type: 'resendSucceeded', params: ({ event }) => event.output },
                target: 'waiting',
                actions: {
                  type: 'storeApprovalExpiry',
                  params: ({ event }) => (event.output as Extract<ResendResult, { ok: true }>).expiresInS,
                },
              },
              {
                description: 'The sign-in attempt has expired on the platform: the user starts again from the credentials.',
                guard: { type: 'attemptIsGone', params: ({ event }) => event.output },
                target: '#login.credentials',
                actions: [
                  'forgetSecondStep',
                  { type: 'storeError', params: 'codeExpired' },
                  { type: 'reportFailure', params: 'codeExpired' },
                ],
              },
              // Not sent (rate limit, network): nothing is pending; the user may send again.
              {
                description: 'The request was not sent (rate limit, network): nothing is pending and the user may send it again.',
                target: 'expired',
                actions: { type: 'storeError', params: ({ event }) => errorOf(event.output) },
              },
            ],
            onError: {
              description: 'Sending failed unexpectedly: nothing is pending and the user may send it again.',
              target: 'expired',
              actions: { type: 'storeError', params: 'unknown' },
            },
          },
        },
        waiting: {
          description: 'The request is on the phone; the sign-in waits for the user to approve or decline it there.',
          invoke: {
            id: 'approvalChannel',
            src: 'approvalChannel',
            input: ({ context }) => ({
              temporaryToken: approvalStepOf(context)?.temporaryToken ?? '',
              expiresInS: context.approvalExpiresInS ?? 0,
            }),
          },
          on: {
            'PUSH.APPROVED': { target: '#login.verifyingCode', description: 'The user approved on the phone: the sign-in code is exchanged for tokens.' },
            'PUSH.DECLINED': {
              description: 'The user declined on the phone: the sign-in is refused and starts again from the credentials.',
              target: '#login.credentials',
              actions: [
                'forgetSecondStep',
                { type: 'storeError', params: 'approvalRejected' },
                { type: 'reportFailure', params: 'approvalRejected' },
              ],
            },
            'PUSH.EXPIRED': { target: 'expired', description: 'The request expired on the phone without an answer.' },
            'PUSH.RESEND': { target: 'resending', description: 'The user asks for the request to be sent again.', actions: 'clearErrors' },
            'DEVICE.CHANGE': {
              description: 'The user wants to ask a different phone (only when several are linked).',
              guard: 'isChoosingDevice',
              target: 'choosingDevice',
              actions: 'clearErrors',
            },
          },
        },
        expired: {
          description: 'No approval request is pending (it expired or could not be sent); the user may send it again.',
          on: {
            'PUSH.RESEND': { target: 'resending', description: 'The user asks for the request to be sent again.', actions: 'clearErrors' },
            'DEVICE.CHANGE': {
              description: 'The user wants to ask a different phone (only when several are linked).',
              guard: 'isChoosingDevice',
              target: 'choosingDevice',
              actions: 'clearErrors',
            },
          },
        },
      },
    },
    /** A recovery code instead of the second step (a lost phone): any flow but simple and direct. */
    recovery: {
      description: 'The user enters one of their recovery codes instead of the second step.',
      on: {
        'RECOVERY.SUBMIT': [
          {
            description: 'The text has the form of a recovery code: it is sent to be checked.',
            guard: { type: 'isRecoveryCode', params: ({ event }) => event.recoveryCode },
            target: 'verifyingRecovery',
            actions: 'clearErrors',
          },
          { description: 'The text is not a recovery code: the field shows the error and nothing is sent.', actions: 'flagRecoveryCodeError' },
        ],
        'STEP.BACK': { target: 'credentials', description: 'The user goes back to the username and password; the second step is dropped.', actions: ['forgetSecondStep', 'clearErrors'] },
      },
    },
    verifyingRecovery: {
      description: 'The recovery code is being checked and exchanged for tokens.',
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
            description: 'The recovery code was accepted: the user is signed in, restricted to setting up two-step verification again.',
            guard: { type: 'exchangeSucceeded', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: [
              'markRecoveryUsed',
              { type: 'storeTokens', params: ({ event }) => (event.output as Extract<ExchangeResult, { ok: true }>).tokens },
            ],
          },
          {
            description: 'The sign-in attempt is no longer valid (expired or used up): the user starts again from the credentials.',
            guard: { type: 'codeIsDead', params: ({ event }) => event.output },
            target: 'credentials',
            actions: [
              'forgetSecondStep',
              { type: 'storeError', params: ({ event }) => errorOf(event.output) },
              { type: 'reportFailure', params: ({ event }) => errorOf(event.output) },
            ],
          },
          {
            description: 'The recovery code was wrong or already used: the user may try another.',
            target: 'recovery',
            actions: { type: 'storeError', params: ({ event }) => errorOf(event.output) },
          },
        ],
        onError: {
          description: 'The check failed unexpectedly: the user may try the code again.',
          target: 'recovery',
          actions: { type: 'storeError', params: 'unknown' },
        },
      },
    },
    /** The code needs no one-time code: from the query, an approved push or direct. */
    verifyingCode: {
      description: 'A sign-in code that needs no one-time code (from the address, an approved push or a direct flow) is exchanged for tokens.',
      tags: ['busy'],
      invoke: {
        id: 'exchangeCode',
        src: 'exchangeCode',
        input: ({ context }) => ({ code: context.code ?? '', codeVerifier: context.codeVerifier ?? '' }),
        onDone: [
          {
            description: 'The sign-in code was accepted and tokens were issued: the user is signed in.',
            guard: { type: 'exchangeSucceeded', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'storeTokens', params: ({ event }) => (event.output as Extract<ExchangeResult, { ok: true }>).tokens },
          },
          {
            description: 'The code was refused: the user starts again from the credentials and the error is shown.',
            target: 'credentials',
            actions: [
              'forgetSecondStep',
              { type: 'storeError', params: ({ event }) => errorOf(event.output) },
              { type: 'reportFailure', params: ({ event }) => errorOf(event.output) },
            ],
          },
        ],
        onError: {
          description: 'The exchange failed unexpectedly: the user starts again from the credentials.',
          target: 'credentials',
          actions: ['forgetSecondStep', { type: 'storeError', params: 'unknown' }, { type: 'reportFailure', params: 'unknown' }],
        },
      },
    },
    signedIn: {
      type: 'final',
      description: 'The user is signed in; the tokens are handed to the session.',
      entry: {
        type: 'reportSignedIn',
        params: ({ context }) => ({ tokens: context.tokens as Tokens, migration: context.migration, recoveryUsed: context.recoveryUsed }),
      },
    },
  },
  output: ({ context }) => ({ tokens: context.tokens as Tokens, migration: context.migration, recoveryUsed: context.recoveryUsed }),
});

export type LoginMachine = typeof loginMachine;
