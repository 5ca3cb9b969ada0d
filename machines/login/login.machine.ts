/**
 * Sign-in (document 1 §3 "Login flow types", §4 "Session", §5 PKCE and username rules).
 *
 * ```
 * idle ─(code + codeVerifier in the query)─▶ verifyingCode ─ok─▶ signedIn (final)
 *   └──▶ credentials ─CREDENTIALS.SUBMIT (valid)─▶ signingIn ── authFlow ──┐
 *            ▲   └─(invalid: field errors, stays)                           │
 *            │                                                               ├─ simple ───────▶ signedIn
 *            │◀──── STEP.BACK from any second step ◀─────────────────────────├─ otp ─OTP.SUBMIT─▶ verifyingOtp ─ok─▶ signedIn
 *            │◀──── failure (error code) ◀───────────────────────────────────├─ sms ─SMS.SUBMIT─▶ verifyingSms ─ok─▶ signedIn
 *                                                                            ├─ push: migration strict → migrationRequired,
 *                                                                            │        soft → migrationOffered, none → awaitingApproval
 *                                                                            │        ─PUSH.APPROVED─▶ verifyingCode
 *                                                                            ├─ verifyDevice: choosingDevice ─DEVICE.CHOOSE─▶ awaitingApproval
 *                                                                            │        ─DEVICE.APPROVED─▶ verifyingCode
 *                                                                            └─ direct ─DIRECT.CONTINUE─▶ verifyingCode
 * ```
 *
 * simple and otp work end to end. sms, push, verifyDevice and direct are charted (states, events,
 * guards) but their views only say the method is not available yet on this platform: the events
 * listed in `pendingLoginEvents` have no control in the view until the next issue adds them.
 *
 * The password never enters the context: the sign-in actor reads it from the submit event.
 * Errors are codes (LoginErrorCode, LoginFieldError); the view translates them.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { LoginResponse, Tokens } from '../../api/auth.ts';
import { isAcceptablePassword, isEmailUsername, isSixDigitCode, normaliseUsername } from './login.rules.ts';

export type LoginErrorCode =
  | 'invalidCredentials'
  | 'invalidOtp'
  | 'rateLimited'
  | 'codeExpired'
  | 'approvalRejected'
  | 'network'
  | 'unknown';
export type LoginFieldError = 'usernameNotEmail' | 'passwordRequired' | 'otpFormat';

export type SignInResult =
  | { ok: true; codeVerifier: string; response: LoginResponse }
  | { ok: false; code: LoginErrorCode };
export type ExchangeResult = { ok: true; tokens: Tokens } | { ok: false; code: LoginErrorCode };

/** The second step the platform asked for (every flow but simple). */
export type SecondStep = Exclude<LoginResponse, { authFlow: 'simple' }>;

export interface LoginContext {
  /** normalised username, kept to refill the form after STEP.BACK */
  username: string;
  code: string | null;
  codeVerifier: string | null;
  step: SecondStep | null;
  chosenDeviceId: number | null;
  tokens: Tokens | null;
  error: LoginErrorCode | null;
  fieldErrors: { username?: LoginFieldError; password?: LoginFieldError; otp?: LoginFieldError };
}

export interface LoginInput {
  /** Document 1 §2: a code plus codeVerifier in the query signs the user in. */
  queryCode?: { code: string; codeVerifier: string } | null;
}

export type LoginEvent =
  | { type: 'CREDENTIALS.SUBMIT'; username: string; password: string }
  | { type: 'OTP.SUBMIT'; otp: string }
  | { type: 'SMS.SUBMIT'; otp: string }
  | { type: 'PUSH.APPROVED' }
  | { type: 'PUSH.REJECTED' }
  | { type: 'MIGRATION.START' }
  | { type: 'MIGRATION.POSTPONE' }
  | { type: 'DEVICE.CHOOSE'; deviceId: number }
  | { type: 'DEVICE.APPROVED' }
  | { type: 'DIRECT.CONTINUE' }
  | { type: 'STEP.BACK' };

/** Events of the flows the next issue finishes: charted, with no control in the view yet. */
export const pendingLoginEvents = [
  'SMS.SUBMIT',
  'PUSH.APPROVED',
  'PUSH.REJECTED',
  'MIGRATION.START',
  'MIGRATION.POSTPONE',
  'DEVICE.CHOOSE',
  'DEVICE.APPROVED',
  'DIRECT.CONTINUE',
] as const satisfies readonly LoginEvent['type'][];

const okResult = (r: SignInResult) => (r.ok ? r : null);

function isFlow(r: SignInResult, flow: LoginResponse['authFlow']): boolean {
  return r.ok && r.response.authFlow === flow;
}

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as LoginInput,
    output: {} as { tokens: Tokens },
  },
  actors: {
    /** Creates a fresh PKCE pair and POSTs /auth/login. */
    signIn: fromPromise<SignInResult, { username: string; password: string }>(async () => {
      throw new Error('signIn is provided by the app');
    }),
    /** POST /auth/token with the code, the verifier and, for otp and sms, the one-time code. */
    exchangeCode: fromPromise<ExchangeResult, { code: string; codeVerifier: string; otp?: string }>(async () => {
      throw new Error('exchangeCode is provided by the app');
    }),
  },
  actions: {
    flagCredentialErrors: assign((_, p: { username: string; password: string }) => ({
      error: null,
      fieldErrors: {
        username: isEmailUsername(p.username) ? undefined : ('usernameNotEmail' as const),
        password: isAcceptablePassword(p.password) ? undefined : ('passwordRequired' as const),
      },
    })),
    startSignIn: assign((_, username: string) => ({ username: normaliseUsername(username), error: null, fieldErrors: {} })),
    storeSecondStep: assign((_, r: SignInResult) => {
      const ok = okResult(r);
      if (!ok || ok.response.authFlow === 'simple') return {};
      return { step: ok.response, code: ok.response.code, codeVerifier: ok.codeVerifier, chosenDeviceId: null };
    }),
    storeTokens: assign((_, tokens: Tokens) => ({ tokens, error: null })),
    storeError: assign((_, code: LoginErrorCode) => ({ error: code })),
    flagOtpError: assign({ error: null, fieldErrors: { otp: 'otpFormat' as const } }),
    clearErrors: assign({ error: null, fieldErrors: {} }),
    forgetSecondStep: assign({ step: null, code: null, codeVerifier: null, chosenDeviceId: null }),
    storeChosenDevice: assign((_, deviceId: number) => ({ chosenDeviceId: deviceId })),
    /** The app hands the tokens to the session (SESSION.SIGN_IN) and signals an embedding app. */
    reportSignedIn: (_, _tokens: Tokens) => undefined,
  },
  guards: {
    hasQueryCode: ({ context }) => context.code !== null && context.codeVerifier !== null,
    credentialsAreValid: (_, p: { username: string; password: string }) =>
      isEmailUsername(p.username) && isAcceptablePassword(p.password),
    isSimpleFlow: (_, r: SignInResult) => isFlow(r, 'simple'),
    isOtpFlow: (_, r: SignInResult) => isFlow(r, 'otp'),
    isSmsFlow: (_, r: SignInResult) => isFlow(r, 'sms'),
    isPushFlow: (_, r: SignInResult) => isFlow(r, 'push'),
    isVerifyDeviceFlow: (_, r: SignInResult) => isFlow(r, 'verifyDevice'),
    isDirectFlow: (_, r: SignInResult) => isFlow(r, 'direct'),
    isSixDigitCode: (_, otp: string) => isSixDigitCode(otp),
    exchangeSucceeded: (_, r: ExchangeResult) => r.ok,
    /** The code is spent or too old: only a new sign-in can help. */
    codeIsDead: (_, r: ExchangeResult) => !r.ok && (r.code === 'codeExpired' || r.code === 'rateLimited'),
    migrationIsStrict: ({ context }) => context.step?.authFlow === 'push' && context.step.migration?.requirement === 'strict',
    migrationIsSoft: ({ context }) => context.step?.authFlow === 'push' && context.step.migration?.requirement === 'soft',
    isListedDevice: ({ context }, deviceId: number) =>
      (context.step?.authFlow === 'verifyDevice' || context.step?.authFlow === 'push') &&
      context.step.deviceList.some((d) => d.id === deviceId),
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({
    username: '',
    code: input.queryCode?.code ?? null,
    codeVerifier: input.queryCode?.codeVerifier ?? null,
    step: null,
    chosenDeviceId: null,
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
            actions: {
              type: 'storeTokens',
              params: ({ event }) => {
                const r = event.output as Extract<SignInResult, { ok: true }>;
                const { accessToken, refreshToken } = r.response as Extract<LoginResponse, { authFlow: 'simple' }>;
                return { accessToken, refreshToken };
              },
            },
          },
          {
            guard: { type: 'isOtpFlow', params: ({ event }) => event.output },
            target: 'otp',
            actions: { type: 'storeSecondStep', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isSmsFlow', params: ({ event }) => event.output },
            target: 'sms',
            actions: { type: 'storeSecondStep', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isPushFlow', params: ({ event }) => event.output },
            target: 'push',
            actions: { type: 'storeSecondStep', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isVerifyDeviceFlow', params: ({ event }) => event.output },
            target: 'verifyDevice',
            actions: { type: 'storeSecondStep', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isDirectFlow', params: ({ event }) => event.output },
            target: 'direct',
            actions: { type: 'storeSecondStep', params: ({ event }) => event.output },
          },
          {
            target: 'credentials',
            actions: {
              type: 'storeError',
              params: ({ event }) => (event.output.ok ? 'unknown' : event.output.code),
            },
          },
        ],
        onError: { target: 'credentials', actions: { type: 'storeError', params: 'unknown' } },
      },
    },
    otp: {
      on: {
        'OTP.SUBMIT': [
          { guard: { type: 'isSixDigitCode', params: ({ event }) => event.otp }, target: 'verifyingOtp', actions: 'clearErrors' },
          { actions: 'flagOtpError' },
        ],
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
            actions: ['forgetSecondStep', { type: 'storeError', params: ({ event }) => (event.output.ok ? 'unknown' : event.output.code) }],
          },
          // A wrong code: the same code may be tried again.
          { target: 'otp', actions: { type: 'storeError', params: ({ event }) => (event.output.ok ? 'unknown' : event.output.code) } },
        ],
        onError: { target: 'otp', actions: { type: 'storeError', params: 'unknown' } },
      },
    },
    sms: {
      tags: ['notYetAvailable'],
      on: {
        'SMS.SUBMIT': [
          { guard: { type: 'isSixDigitCode', params: ({ event }) => event.otp }, target: 'verifyingSms', actions: 'clearErrors' },
          { actions: 'flagOtpError' },
        ],
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
            actions: ['forgetSecondStep', { type: 'storeError', params: ({ event }) => (event.output.ok ? 'unknown' : event.output.code) }],
          },
          { target: 'sms', actions: { type: 'storeError', params: ({ event }) => (event.output.ok ? 'unknown' : event.output.code) } },
        ],
        onError: { target: 'sms', actions: { type: 'storeError', params: 'unknown' } },
      },
    },
    push: {
      tags: ['notYetAvailable'],
      initial: 'checkingMigration',
      on: { 'STEP.BACK': { target: 'credentials', actions: ['forgetSecondStep', 'clearErrors'] } },
      states: {
        // Push 2FA migration (document 1 §3): strict blocks sign-in until migrated; soft may wait.
        checkingMigration: {
          always: [
            { guard: 'migrationIsStrict', target: 'migrationRequired' },
            { guard: 'migrationIsSoft', target: 'migrationOffered' },
            { target: 'awaitingApproval' },
          ],
        },
        migrationRequired: { on: { 'MIGRATION.START': { target: 'migrating' } } },
        migrationOffered: {
          on: { 'MIGRATION.START': { target: 'migrating' }, 'MIGRATION.POSTPONE': { target: 'awaitingApproval' } },
        },
        migrating: {},
        awaitingApproval: {
          on: {
            'PUSH.APPROVED': { target: '#login.verifyingCode' },
            'PUSH.REJECTED': {
              target: '#login.credentials',
              actions: ['forgetSecondStep', { type: 'storeError', params: 'approvalRejected' }],
            },
          },
        },
      },
    },
    verifyDevice: {
      tags: ['notYetAvailable'],
      initial: 'choosingDevice',
      on: { 'STEP.BACK': { target: 'credentials', actions: ['forgetSecondStep', 'clearErrors'] } },
      states: {
        choosingDevice: {
          on: {
            'DEVICE.CHOOSE': {
              guard: { type: 'isListedDevice', params: ({ event }) => event.deviceId },
              target: 'awaitingApproval',
              actions: { type: 'storeChosenDevice', params: ({ event }) => event.deviceId },
            },
          },
        },
        awaitingApproval: { on: { 'DEVICE.APPROVED': { target: '#login.verifyingCode' } } },
      },
    },
    direct: {
      tags: ['notYetAvailable'],
      on: {
        'DIRECT.CONTINUE': { target: 'verifyingCode' },
        'STEP.BACK': { target: 'credentials', actions: ['forgetSecondStep', 'clearErrors'] },
      },
    },
    /** The code needs no one-time code: from the query, an approved push, a device or direct. */
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
            actions: ['forgetSecondStep', { type: 'storeError', params: ({ event }) => (event.output.ok ? 'unknown' : event.output.code) }],
          },
        ],
        onError: { target: 'credentials', actions: ['forgetSecondStep', { type: 'storeError', params: 'unknown' }] },
      },
    },
    signedIn: {
      type: 'final',
      entry: { type: 'reportSignedIn', params: ({ context }) => context.tokens as Tokens },
    },
  },
  output: ({ context }) => ({ tokens: context.tokens as Tokens }),
});

export type LoginMachine = typeof loginMachine;
