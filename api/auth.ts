/**
 * The token service (document 1 §3, §5, §7): REST paths, not named methods.
 * Errors answer HTTP 403 or 404 with a `message` field (429 when rate-limited).
 */
import * as v from 'valibot';

export const authPaths = {
  login: '/auth/login',
  token: '/auth/token',
  refresh: '/auth/refresh',
  logout: '/auth/logout',
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
  secret: v.optional(v.string()),
  pushToken: v.optional(v.string()),
});
export type LoginRequest = v.InferInput<typeof LoginRequestSchema>;

export const TokensSchema = v.object({
  accessToken: v.string(),
  refreshToken: v.string(),
});
export type Tokens = v.InferOutput<typeof TokensSchema>;

export const DeviceSummarySchema = v.object({
  id: v.number(),
  type: v.picklist(['android', 'ios']),
  name: v.string(),
});

export const PushMigrationSchema = v.object({
  requirement: v.picklist(['none', 'soft', 'strict']),
  daysLeft: v.optional(v.number()),
  strategy: v.picklist(['migrate', 'enable']),
});

/**
 * The answer of POST /auth/login: tokens at once (simple) or the second step to take.
 * The six flow types of document 1 §3; `code` is the one-time code to continue with.
 */
export const LoginResponseSchema = v.variant('authFlow', [
  v.object({ authFlow: v.literal('simple'), ...TokensSchema.entries }),
  v.object({ authFlow: v.literal('direct'), code: v.string() }),
  v.object({ authFlow: v.literal('otp'), code: v.string() }),
  v.object({
    authFlow: v.literal('sms'),
    code: v.string(),
    /** masked phone, e.g. +370 *** **12 */
    phone: v.string(),
    /** two-digit identifier shown next to the SMS code */
    identifier: v.pipe(v.string(), v.regex(/^\d{2}$/)),
  }),
  v.object({
    authFlow: v.literal('push'),
    code: v.string(),
    temporaryToken: v.string(),
    deviceList: v.array(DeviceSummarySchema),
    qrLink: v.string(),
    migration: v.optional(PushMigrationSchema),
  }),
  v.object({ authFlow: v.literal('verifyDevice'), code: v.string(), deviceList: v.array(DeviceSummarySchema) }),
]);
export type LoginResponse = v.InferOutput<typeof LoginResponseSchema>;
export type AuthFlow = LoginResponse['authFlow'];

export const TokenRequestSchema = v.object({
  code: v.pipe(v.string(), v.minLength(1, 'is required')),
  codeVerifier: pkceString,
  otp: v.optional(v.pipe(v.string(), v.regex(/^\d{6}$/, 'must be 6 digits'))),
  secret: v.optional(v.string()),
});
export type TokenRequest = v.InferInput<typeof TokenRequestSchema>;

export const RefreshRequestSchema = v.object({ refreshToken: v.pipe(v.string(), v.minLength(1)) });

/** Every token-service error: HTTP 403, 404 or 429 with a message. */
export const AuthErrorSchema = v.object({ message: v.string() });

/** Claims of the access token the client reads (it never verifies the signature). */
export const AccessClaimsSchema = v.object({
  sub: v.string(),
  exp: v.number(),
  iat: v.number(),
  /** customer id */
  cid: v.number(),
  /** session family: rotating refresh tokens share it */
  fam: v.string(),
});
export type AccessClaims = v.InferOutput<typeof AccessClaimsSchema>;

/** Access tokens live 5 minutes; the client refreshes when 10 s or less remain. */
export const ACCESS_TOKEN_TTL_S = 300;
/** A login code is single-use and expires after 5 minutes. */
export const LOGIN_CODE_TTL_S = 300;
