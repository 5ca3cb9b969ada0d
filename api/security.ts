/**
 * Security settings (document 1 §3, §5, §7; document 2 "Security settings"): the two-step
 * verification mode and its confirmation, recovery codes, the login history, the client IP info
 * and single sign-on ("sei").
 *
 * The REST paths belong to the token service: errors answer HTTP 403, 404 or 429 with
 * `{ message }` (api/auth.ts AuthErrorSchema). loginHistory and ipInfo are named methods.
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { TwoStepMode } from './customer.ts';
import { defineMethod } from './method.ts';

export { TwoStepMode };
export type TwoStepModeCode = (typeof TwoStepMode)[keyof typeof TwoStepMode];

export const securityPaths = {
  /** POST (user bearer; also restricted sessions): start a mode change */
  twoStep: '/auth/two-step-verification',
  /** POST (user bearer): confirm the change with the code (push: collect the device's answer) */
  twoStepConfirm: (reqId: string) => `/auth/two-step-verification/${encodeURIComponent(reqId)}/confirm`,
  /** GET (user bearer): how many unused codes; POST { password }: ten new codes, shown once */
  recoveryCodes: '/auth/recovery-codes',
  /** POST (user bearer) { authorizeUrl } */
  seiAuthorize: '/auth/sei/authorize',
  /** POST (user bearer) { params: { approve } } */
  seiAuthorization: (authorizationId: string) => `/auth/sei/authorize/${encodeURIComponent(authorizationId)}`,
  /** POST (the partner, server to server) { client_id, code } */
  seiToken: '/auth/sei/token',
} as const;

/** A mode change waits this long for its confirmation. */
export const TWO_STEP_REQUEST_TTL_S = 600;
/** Wrong codes one mode change survives. */
export const TWO_STEP_MAX_ATTEMPTS = 5;
/** Mode changes a user may start per TWO_STEP_REQUEST_TTL_S (each SMS one costs a message). */
export const TWO_STEP_MAX_REQUESTS_PER_WINDOW = 5;
/** Recovery codes are issued ten at a time. */
export const RECOVERY_CODE_COUNT = 10;
export const LOGIN_HISTORY_PAGE_SIZE = 20;
/** An SSO authorisation waits this long for the user's answer, and its code this long for exchange. */
export const SSO_AUTHORIZATION_TTL_S = 600;
export const SSO_CODE_TTL_S = 60;

/**
 * The `{ message }` of the two-step and recovery-code paths' refusals: one list for the platform
 * that says them and the web app that turns them into its machine codes.
 */
export const TwoStepMessages = {
  linkPhone: 'Link a phone first',
  noPhone: 'Add and confirm a phone first',
  unknownRequest: 'Unknown, used or expired request',
  wrongCode: 'Wrong code',
  tooManyWrong: 'Too many wrong codes; start again',
  codeRequired: 'code: is required',
  waitingForPhone: 'The change is waiting for the approval on your phone',
  declined: 'The change was declined on the phone',
  tooManyRequests: 'Too many changes started; try again later',
  wrongPassword: 'Wrong password',
  tooManyPasswords: 'Too many wrong passwords; try again later',
  signInModeRequired: 'Choose push, SMS or an authenticator app: you must set up a second sign-in step',
} as const;

const modeCode = v.picklist([1, 2, 3, 4], 'must be 1 (push), 2 (sms), 3 (otp) or 4 (approvalCode)');
const approvalCode = v.pipe(v.string(), v.regex(/^\d{6}$/, VfCode.sixDigitCode));

/**
 * POST /auth/two-step-verification: `mode` or `typeMode` (document 1 §7 accepts either);
 * approvalCode (mode 4) carries the 6-digit code the user chose. `password` is the current
 * password: a change of the second factor re-authenticates (not shown in the spec; a bank asks),
 * so a stolen access token alone cannot put an attacker's authenticator or phone on the account.
 */
export const TwoStepSetRequestSchema = v.pipe(
  v.object({
    mode: v.optional(modeCode),
    typeMode: v.optional(modeCode),
    approvalCode: v.optional(approvalCode),
    password: v.pipe(v.string('is required'), v.minLength(1, 'is required'), v.maxLength(256, 'must be at most 256 characters')),
  }),
  v.forward(
    v.check((input) => input.mode !== undefined || input.typeMode !== undefined, VfCode.required),
    ['mode'],
  ),
  v.forward(
    v.check((input) => (input.mode ?? input.typeMode) !== 4 || input.approvalCode !== undefined, VfCode.required),
    ['approvalCode'],
  ),
);
export type TwoStepSetRequest = v.InferInput<typeof TwoStepSetRequestSchema>;

export const TwoStepSetResponseSchema = v.object({
  reqId: v.string(),
  mode: modeCode,
  expiresInS: v.number(),
  /** otp: the new authenticator secret as an RFC 6238 otpauth URI (shown as a QR code) */
  otpauthUri: v.optional(v.string()),
  /** otp: the same secret as text, for typing into an authenticator */
  secret: v.optional(v.string()),
  /** sms: the masked phone the code went to */
  sentTo: v.optional(v.string()),
  /** push: how many linked phones were asked to approve */
  deviceCount: v.optional(v.number()),
});
export type TwoStepSetResponse = v.InferOutput<typeof TwoStepSetResponseSchema>;

/** otp and sms: the 6-digit code; approvalCode: the chosen code again; push: none. */
export const TwoStepConfirmRequestSchema = v.object({
  code: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(16, 'must be at most 16 characters'))),
});
export const TwoStepConfirmResponseSchema = v.object({
  mode: modeCode,
  /** present once: the user held no unused recovery codes, so ten were made; never shown again */
  recoveryCodes: v.optional(v.array(v.string())),
});
export type TwoStepConfirmResponse = v.InferOutput<typeof TwoStepConfirmResponseSchema>;

export const RecoveryCodesCreateRequestSchema = v.object({
  password: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(256)),
});
export const RecoveryCodesCreateResponseSchema = v.object({ recoveryCodes: v.array(v.string()) });
export const RecoveryCodesStatusSchema = v.object({ unused: v.number() });

/* ---------------------------------------------------------------- named methods */

export const LoginHistoryItemSchema = v.object({
  /** ISO 8601 */
  date: v.string(),
  ip: v.string(),
  countryCode: v.nullable(v.string()),
  userAgent: v.string(),
  /** simple, direct, otp, sms, push, verifyDevice, recoveryCode, device */
  authFlow: v.string(),
  result: v.picklist(['success', 'failure']),
});
export type LoginHistoryItem = v.InferOutput<typeof LoginHistoryItemSchema>;

export const loginHistory = defineMethod({
  name: 'loginHistory',
  access: 'customer',
  mutation: false,
  request: {
    /** document 2 §3: login history pageNumber, pageSize (20) */
    pageNumber: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, 'must be 1 or more'), v.maxValue(10_000, 'must be at most 10000')), 1),
  },
  response: {
    items: v.array(LoginHistoryItemSchema),
    pageNumber: v.number(),
    pageSize: v.number(),
    total: v.number(),
  },
});

export const PrivacyFlagsSchema = v.object({
  vpn: v.boolean(),
  proxy: v.boolean(),
  tor: v.boolean(),
  relay: v.boolean(),
  hosting: v.boolean(),
  service: v.boolean(),
});

/** The caller's address, its country and privacy flags; allowed is the §5 privacy check. */
export const ipInfo = defineMethod({
  name: 'ipInfo',
  access: 'public',
  mutation: false,
  request: {},
  response: {
    ip: v.string(),
    country_code: v.nullable(v.string()),
    privacy: PrivacyFlagsSchema,
    allowed: v.boolean(),
  },
});

export const securityMethods = { loginHistory, ipInfo } as const;

/* ---------------------------------------------------------------- single sign-on */

export const SeiAuthorizeRequestSchema = v.object({
  /** the partner's authorisation URL as the browser reached /auth/sei (client_id, redirect_uri, state, scope) */
  authorizeUrl: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(2048, 'must be at most 2048 characters')),
});
export const SeiAuthorizeResponseSchema = v.object({
  authorizationId: v.string(),
  clientName: v.string(),
  scope: v.string(),
});
export type SeiAuthorizeResponse = v.InferOutput<typeof SeiAuthorizeResponseSchema>;

export const SeiDecisionRequestSchema = v.object({ params: v.object({ approve: v.boolean() }) });
export const SeiDecisionResponseSchema = v.object({ redirect_uri: v.string() });

export const SeiTokenRequestSchema = v.object({
  client_id: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(100)),
  code: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(200)),
});
export const SeiTokenResponseSchema = v.object({
  sub: v.string(),
  email: v.string(),
  firstName: v.string(),
  lastName: v.string(),
});
