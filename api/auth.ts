/**
 * The token service (document 1 §3, §5, §7): REST paths, not named methods.
 * Errors answer HTTP 403 or 404 with a `message` field (429 when rate-limited).
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';

export const authPaths = {
  login: '/auth/login',
  token: '/auth/token',
  refresh: '/auth/refresh',
  logout: '/auth/logout',
  /** PUT by a linked device (device bearer token): approve or decline an approval request */
  loginConfirm: (key: string) => `/auth/login/${encodeURIComponent(key)}/confirm`,
  /** POST { temporaryToken, deviceId? }: send the push approval request again (or to one device) */
  pushResend: '/auth/push/re-send',
  /** POST (bearer): a deeplink that opens the device companion to link this account (SCP enable) */
  scpRequest: '/auth/scp/request',
  /** POST { phoneNumber }: an SMS with the link to get the device companion */
  storesUrlsSend: '/auth/stores-urls/send',
} as const;

/** PKCE: letters, digits and - . _ ~ (RFC 7636 unreserved characters). */
export const PKCE_PATTERN = /^[A-Za-z0-9\-._~]+$/;
/** The client always produces a 128-character verifier. */
export const PKCE_VERIFIER_LENGTH = 128;

const pkceString = v.pipe(
  v.string(),
  v.minLength(43, 'must be 43 to 128 characters'),
  v.maxLength(128, 'must be 43 to 128 characters'),
  v.regex(PKCE_PATTERN, 'may hold only letters, digits and - . _ ~'),
);

export const LoginRequestSchema = v.object({
  client: v.picklist(['spa', 'sei']),
  username: v.pipe(v.string(), v.trim(), v.email('must be an e-mail address')),
  password: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(256)),
  codeChallenge: pkceString,
  /** Only S256 is accepted; plain is refused. */
  codeChallengeMethod: v.optional(v.literal('S256', 'only S256 is supported'), 'S256'),
  /**
   * A linked device's secret (the device companion keeps it on the same origin; an embedding
   * mobile app passes its own): the device is the second factor and the answer is the direct flow.
   */
  secret: v.optional(v.pipe(v.string(), v.maxLength(256))),
  /** the embedding app's push token, stored on the device the secret names */
  pushToken: v.optional(v.pipe(v.string(), v.maxLength(512))),
});
export type LoginRequest = v.InferInput<typeof LoginRequestSchema>;

export const TokensSchema = v.object({
  accessToken: v.string(),
  refreshToken: v.string(),
});
export type Tokens = v.InferOutput<typeof TokensSchema>;

/** Device types of document 1 §5: android or ios (the device companion reports its platform). */
export const DEVICE_TYPES = ['android', 'ios'] as const;
export const DeviceTypeSchema = v.picklist(DEVICE_TYPES, 'must be android or ios');
/** What a device type is called on screen: product names, the same in every language. */
export const DEVICE_TYPE_NAMES: Record<(typeof DEVICE_TYPES)[number], string> = { android: 'Android', ios: 'iPhone' };

export const DeviceSummarySchema = v.object({
  id: v.number(),
  type: DeviceTypeSchema,
  name: v.string(),
});

/**
 * Push 2FA migration (document 1 §3). The provider sets a deadline per user by which sign-in must
 * be approved on a linked phone. Until the deadline the requirement is soft (daysLeft counts down;
 * the user may postpone), after it strict (the session is restricted to enabling push, see
 * AccessClaims.rst). strategy: migrate (the user has another second step and moves to push) or
 * enable (the user had no second step). none: no deadline, or push is already in use.
 */
export const PushMigrationSchema = v.object({
  requirement: v.picklist(['none', 'soft', 'strict']),
  daysLeft: v.optional(v.number()),
  strategy: v.picklist(['migrate', 'enable']),
});
export type PushMigration = v.InferOutput<typeof PushMigrationSchema>;

/** A live-channel wait of the push and verifyDevice flows (see api/push.ts LOGIN_APPROVAL_SUBSCRIPTION). */
const pushWaitEntries = {
  code: v.string(),
  /**
   * Authenticates the browser on the live channel (graphql-ws connectionParams
   * `{ temporaryToken }`) for this one sign-in attempt, and for POST /auth/push/re-send.
   */
  temporaryToken: v.string(),
  /** the user's approved devices that can approve a sign-in */
  deviceList: v.array(DeviceSummarySchema),
  /** URL a linked phone opens (scanned as a QR code) to approve this sign-in in the device companion */
  qrLink: v.string(),
  /** seconds the approval request lives */
  expiresInS: v.number(),
};

/**
 * The answer of POST /auth/login: tokens at once (simple) or the second step to take.
 * The six flow types of document 1 §3; `code` is the one-time code to continue with.
 */
/**
 * Which flow a user gets (decided by the platform, tokens.service.ts):
 * - simple: login2faMode 'no' (tokens at once);
 * - direct: the request carried the `secret` of one of the user's approved devices: the device is
 *   the second factor; the code is exchanged with the verifier alone (also by a code+codeVerifier
 *   query sign-in, document 1 §2);
 * - otp: login2faMode 'otp' (authenticator app);
 * - sms: login2faMode 'sms': a 6-digit code goes through the SMS outbox to the primary confirmed
 *   phone; the message and the screen both show the two-digit identifier;
 * - push: login2faMode 'push' with exactly one approved device: the approval request goes to it at
 *   once; with no approved device deviceList is empty and only a recovery code can finish;
 * - verifyDevice: login2faMode 'push' with several approved devices: the user chooses which one
 *   is asked (POST /auth/push/re-send with deviceId).
 * Every flow but simple and direct also accepts a recovery code at /auth/token.
 * `migration` (soft or strict) rides on every flow when the provider's push deadline applies.
 */
export const LoginResponseSchema = v.variant('authFlow', [
  v.object({ authFlow: v.literal('simple'), ...TokensSchema.entries, migration: v.optional(PushMigrationSchema) }),
  v.object({ authFlow: v.literal('direct'), code: v.string() }),
  v.object({ authFlow: v.literal('otp'), code: v.string(), migration: v.optional(PushMigrationSchema) }),
  v.object({
    authFlow: v.literal('sms'),
    code: v.string(),
    /** masked phone, e.g. +370 *** **12 */
    phone: v.string(),
    /** two-digit identifier shown next to the SMS code */
    identifier: v.pipe(v.string(), v.regex(/^\d{2}$/)),
    migration: v.optional(PushMigrationSchema),
  }),
  v.object({ authFlow: v.literal('push'), ...pushWaitEntries }),
  v.object({ authFlow: v.literal('verifyDevice'), ...pushWaitEntries }),
]);
export type LoginResponse = v.InferOutput<typeof LoginResponseSchema>;
export type AuthFlow = LoginResponse['authFlow'];

/** A recovery code as shown to the user: 10 characters in two groups, e.g. 7KQ4M-2XH9P. */
export const RECOVERY_CODE_PATTERN = /^[0-9A-Z]{5}-?[0-9A-Z]{5}$/;

/**
 * POST /auth/token, two shapes:
 * - a user sign-in: code + codeVerifier, plus `otp` (otp and sms flows) or `recoveryCode`
 *   (any two-step flow; the code is spent and the session is restricted to setting up two-step
 *   verification again, see AccessClaims.rst). push/verifyDevice codes exchange once approved,
 *   direct codes at once;
 * - a device sign-in: `secret` alone (the device companion): a device token (AccessClaims.typ
 *   'device') for /device-api/* and the device's live channel.
 */
export const UserTokenRequestSchema = v.object({
  code: v.pipe(v.string(), v.minLength(1, 'is required')),
  codeVerifier: pkceString,
  otp: v.optional(v.pipe(v.string(), v.regex(/^\d{6}$/, VfCode.sixDigitCode))),
  recoveryCode: v.optional(
    v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(RECOVERY_CODE_PATTERN, VfCode.recoveryCodeFormat)),
  ),
});
export const DeviceTokenRequestSchema = v.object({ secret: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(256)) });
/** The route picks the schema by the presence of `secret`, so validation errors name real fields. */
export const TokenRequestSchema = v.union([UserTokenRequestSchema, DeviceTokenRequestSchema]);
export type TokenRequest = v.InferInput<typeof TokenRequestSchema>;

/** A device token answer: no refresh token; the device signs in again with its secret. */
export const DeviceTokenSchema = v.object({ accessToken: v.string(), deviceId: v.number() });

export const RefreshRequestSchema = v.object({ refreshToken: v.pipe(v.string(), v.minLength(1)) });

/** Every token-service error: HTTP 403, 404 or 429 with a message; a 429 says when to try again. */
export const AuthErrorSchema = v.object({
  message: v.string(),
  /** 429: seconds until the next attempt is taken (also the Retry-After header) */
  retryAfterS: v.optional(v.number()),
});

/**
 * The 403 message of POST /auth/login when the password matched but the account waits for its
 * activation (said only after the password matched: it reveals nothing to a stranger). The web app
 * tells this apart from a wrong password, so a new customer is sent to activate, not to recover.
 */
export const NOT_ACTIVATED_MESSAGE = 'This account is not activated yet';

/**
 * The 403 message of POST /auth/login when the IP information service flags the address as a VPN,
 * proxy, Tor, relay or hosting network (document 1 §5 privacy check): not a wrong password, so the
 * web app says what to do instead.
 */
export const PRIVACY_REFUSED_MESSAGE = 'Sign-in through VPN, proxy or Tor networks is not allowed';

/** Claims of the access token the client reads (it never verifies the signature). */
export const AccessClaimsSchema = v.object({
  sub: v.string(),
  exp: v.number(),
  iat: v.number(),
  /** customer id */
  cid: v.number(),
  /** session family: rotating refresh tokens share it */
  fam: v.string(),
  /** 'device' for a device companion's token (sub is then the device id's user; see dev) */
  typ: v.optional(v.picklist(['user', 'device'])),
  /** the linked device's id, on device tokens */
  dev: v.optional(v.number()),
  /**
   * A restricted session: 'scp' (strict push migration: only enabling push, document 1 §2 /scp)
   * or 'setup2fa' (signed in with a recovery code: only setting up two-step verification again).
   * The platform answers 13 to every other named method; refresh keeps the restriction until the
   * requirement is met.
   */
  rst: v.optional(v.picklist(['scp', 'setup2fa'])),
});
export type AccessClaims = v.InferOutput<typeof AccessClaimsSchema>;

/** Access tokens live 5 minutes; the client refreshes when 10 s or less remain. */
export const ACCESS_TOKEN_TTL_S = 300;
/**
 * A login code that signs in with its verifier alone lives at most 60 seconds: a direct code (also
 * the code of the code + codeVerifier query sign-in, document 1 §2) from its issue, a push or
 * verifyDevice code from its approval. Single use.
 */
export const LOGIN_CODE_TTL_S = 60;
/**
 * A login code still waiting for its second step (a TOTP, the SMS code, the approval on a linked
 * device, or a recovery code) expires 5 minutes after the password step.
 */
export const SECOND_STEP_TTL_S = 300;

/** Document 1 §4 and §9: a session ends after 15 minutes idle (the platform refuses the refresh). */
export const SESSION_IDLE_S = 15 * 60;

/** Approval requests (sign-in, two-step mode confirmation) live 2 minutes. */
export const APPROVAL_TTL_S = 120;
/** A device-linking code lives 10 minutes. */
export const LINK_CODE_TTL_S = 600;

/**
 * A new password (registration, reset, change): 8 to 128 characters with at least one letter and
 * one digit. Sign-in accepts any non-empty password (old passwords keep working).
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PasswordSchema = v.pipe(
  v.string(),
  v.minLength(PASSWORD_MIN_LENGTH, 'must be at least 8 characters'),
  v.maxLength(128, 'must be at most 128 characters'),
  v.regex(/\p{L}/u, VfCode.needsLetter),
  v.regex(/\p{Nd}/u, VfCode.needsDigit),
);
