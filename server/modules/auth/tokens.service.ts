/**
 * The token service's rules (document 1 §3, §5, §7): password check, the six sign-in flows
 * (simple, direct, otp, sms, push, verifyDevice; api/auth.ts LoginResponseSchema), PKCE-bound
 * one-time login codes, recovery codes, access tokens (HS256 JWT, 300 s) carrying the session
 * restriction, and rotating refresh tokens whose reuse revokes the whole sign-in family and which
 * stop working after 15 minutes idle (document 1 §4). Attempts are counted before they are
 * verified (sign-in-throttle.ts: device cookies, growing delays); every outcome of a known user is
 * kept in login_history.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import * as v from 'valibot';
import {
  AccessClaimsSchema,
  ACCESS_TOKEN_TTL_S,
  LOGIN_CODE_TTL_S,
  NOT_ACTIVATED_MESSAGE,
  SECOND_STEP_TTL_S,
  SESSION_IDLE_S,
  PRIVACY_REFUSED_MESSAGE,
  type LoginResponse,
  type PushMigration,
  type Tokens,
} from '../../../api/auth.ts';
import { ApproveMethod, DEVICE_COMPANION_PATH } from '../../../api/devices.ts';
import type { Db, Tx } from '../../db/types.ts';
import { prepared } from '../../db/prepared.ts';
import { enqueueSms } from '../../adapters/outbox.ts';
import { countryOfIp, lookupIpInfo, privacyCheckPasses } from '../../adapters/ip-info.ts';
import { phones, users } from '../customers/customers.tables.ts';
import type { Caller, SessionRestriction } from '../method-types.ts';
import {
  approvalRequests,
  devices,
  loginCodes,
  loginHistory,
  recoveryCodes,
  refreshTokens,
  signInFailures,
  signInThrottles,
  tokenFamilies,
  usedTotpSteps,
} from './auth.tables.ts';
import {
  dummyPasswordHash,
  pkceChallenge,
  randomDigits,
  randomToken,
  recoveryCodeHash,
  sha256Hex,
  timingSafeEqualText,
  verifyPassword,
} from './crypto.ts';
import { matchTotpStep } from './totp.ts';
import { signHs256, verifyHs256 } from './jwt.ts';
import { createSignInThrottle, deviceCookieName, type SignInLimits, type ThrottleKey } from './sign-in-throttle.ts';

export { DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from './sign-in-throttle.ts';

/** A refresh token outlives many access tokens; the 15-minute idle rule (SESSION_IDLE_S) ends sessions earlier. */
export const REFRESH_TOKEN_TTL_S = 12 * 60 * 60;
/** Failures, codes and used TOTP steps are kept a day (far beyond every window that reads them). */
const RETENTION_MS = 24 * 60 * 60 * 1000;
const PRUNE_PROBABILITY = 0.01;
/** Wrong one-time passwords (TOTP, SMS or recovery codes) one login code survives. */
export const MAX_CODE_ATTEMPTS = 5;
/** login_history.user_agent keeps this many characters. */
export const MAX_USER_AGENT_LENGTH = 256;
/** A user has few phones; more approved login devices than this are not listed. */
const MAX_LISTED_DEVICES = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

/** An expected token-service failure: HTTP status plus a message for the client. */
export class AuthFailure extends Error {
  constructor(
    readonly statusCode: 401 | 403 | 404 | 429,
    message: string,
    /** 429: seconds until the next attempt is counted (Retry-After) */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

export const AuthMessages = {
  badCredentials: 'Wrong e-mail or password',
  rateLimited: 'Too many failed sign-in attempts; try again later',
  sessionIdle: 'The session expired after 15 minutes without activity',
  notActivated: NOT_ACTIVATED_MESSAGE,
  privacyRefused: PRIVACY_REFUSED_MESSAGE,
  unknownCode: 'Unknown, used or expired code',
  verifierMismatch: 'The code verifier does not match the code challenge',
  otpRequired: 'otp: is required',
  wrongOtp: 'Wrong one-time password',
  wrongSmsCode: 'Wrong SMS code',
  otpReused: 'This one-time password was already used; wait for the next one',
  wrongRecoveryCode: 'Wrong or used recovery code',
  recoveryNotAccepted: 'A recovery code is not accepted in this sign-in flow',
  notApprovedYet: 'The sign-in was not approved yet',
  approvalDeclined: 'The sign-in was declined on the linked device',
  approvalExpired: 'The approval request expired; send it again or sign in again',
  noApprovingDevice: 'No linked device can approve this sign-in: use a recovery code',
  badRefresh: 'The refresh token is not valid',
  unknownRefresh: 'Unknown refresh token',
  noSecondStep: 'Two-step sign-in is not set up for this account',
} as const;

/** The method endpoint's answer text (responseCode 13) for a restricted session. */
export const RestrictionMessages: Record<SessionRestriction, string> = {
  setup2fa: 'Finish setting up two-step verification first',
  scp: 'Enable sign-in approval on your phone first',
};

/** Answers that were wrong guesses: their counted attempt stays counted (every other failure is given back). */
const WRONG_ANSWERS = new Set<string>([
  AuthMessages.verifierMismatch,
  AuthMessages.wrongOtp,
  AuthMessages.wrongSmsCode,
  AuthMessages.wrongRecoveryCode,
  AuthMessages.otpReused,
]);

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What the browser's request tells about itself (the routes read it from the HTTP request). */
export interface SignInContext {
  /** the client address (Fastify's request.ip) */
  ip: string;
  userAgent: string;
  /** protocol and host the browser used, e.g. https://bank.example: links shown to it start here */
  origin: string;
  /** the request's device cookies (sign-in-throttle.ts parseCookies) */
  cookies?: Record<string, string>;
  /** sets the browser's device cookie once it signed in (the route writes Set-Cookie) */
  trustDevice?: (name: string, value: string) => void;
}

/** approvals.service.ts: the approval request a linked device answers. */
export interface LoginApprovals {
  createLoginApproval(
    tx: Tx,
    input: {
      userId: number;
      deviceId: number | null;
      details: { ip: string; countryCode: string | null; userAgent: string };
      /** false: created undelivered (verifyDevice: POST /auth/push/re-send with the chosen device sends it) */
      deliver?: boolean;
    },
  ): Promise<{ key: string; keyHash: string; temporaryToken: string; expiresAt: Date }>;
}

/** devices.service.ts: device secrets. */
export interface DeviceSecrets {
  /** the approved device of this user whose secret this is, or nothing */
  findApprovedDeviceBySecret(tx: Tx, userId: number, secret: string): Promise<{ id: number } | null | undefined>;
  /** a device token for the device companion; throws AuthFailure */
  signInDevice(secret: string): Promise<{ accessToken: string; deviceId: number }>;
}

export interface TokenServiceDeps {
  db: Db;
  signingKey: Uint8Array;
  /** HMAC key of the device cookies (signing-key.ts loadDeviceCookieKey) */
  deviceCookieKey: Uint8Array;
  /** the clock, in ms (tests move it) */
  now: () => number;
  limits: SignInLimits;
  approvals: LoginApprovals;
  devices: DeviceSecrets;
  /** named in the SMS text, so the customer knows who sends the code */
  providerName: string;
}

export type TokenService = ReturnType<typeof createTokenService>;

/**
 * How long an instance trusts its last look at a token family before looking again. Every
 * authenticated call needs "is this session still valid?"; asking the database on every call
 * doubled the round trips of the hottest read. A revocation (logout, refresh-token reuse) takes
 * effect at once on the instance that made it and within this time on the others. Only live
 * families are remembered; the database stays the only source of truth.
 */
export const FAMILY_CHECK_TTL_MS = 1000;
const FAMILY_CHECK_MAX_ENTRIES = 10_000;

interface FamilyRow {
  revokedAt: Date | null;
  userId: number;
  customerId: number;
  isAdmin: boolean;
  disabled: boolean;
}

type UserRow = typeof users.$inferSelect;
type LoginCodeRow = typeof loginCodes.$inferSelect;
/** The flow a login code was issued for (login_codes.auth_flow). */
type CodeFlow = Exclude<LoginResponse['authFlow'], 'simple'>;
/** login_history.auth_flow: the flow, or how the second step was made. */
type HistoryFlow = LoginResponse['authFlow'] | 'recoveryCode';

/** "+370 *** **12": country code and the last two digits; the rest stays hidden. */
export function maskPhone(countryCode: string, phone: string): string {
  return `+${countryCode} *** **${phone.slice(-2)}`;
}

/**
 * Document 1 §3 push 2FA migration: none without a deadline or once push is in use with an
 * approved login device; soft (days left, rounded up) before the deadline, strict after it.
 */
export function pushMigrationOf(
  user: Pick<UserRow, 'pushMigrationDeadline' | 'login2faMode'>,
  hasLoginDevice: boolean,
  nowMs: number,
): PushMigration | null {
  if (!user.pushMigrationDeadline) return null;
  if (user.login2faMode === 'push' && hasLoginDevice) return null;
  const strategy = user.login2faMode === 'no' ? 'enable' : 'migrate';
  const leftMs = user.pushMigrationDeadline.getTime() - nowMs;
  return leftMs > 0 ? { requirement: 'soft', daysLeft: Math.ceil(leftMs / DAY_MS), strategy } : { requirement: 'strict', strategy };
}

/** The restriction a session of this user carries now (AccessClaims.rst). */
export function restrictionOf(migration: PushMigration | null, user: Pick<UserRow, 'twoStepSetupRequired'>): SessionRestriction | undefined {
  if (user.twoStepSetupRequired) return 'setup2fa';
  if (migration?.requirement === 'strict') return 'scp';
  return undefined;
}

export function createTokenService({ db, signingKey, deviceCookieKey, now, limits, approvals, devices: deviceSecrets, providerName }: TokenServiceDeps) {
  const liveFamilies = new Map<string, { row: FamilyRow; checkedAtMs: number }>();
  const at = (ms: number) => new Date(ms);
  const throttle = createSignInThrottle({ db, now, limits, cookieKey: deviceCookieKey });

  /** Counts the attempt before anything is verified; a client that must wait is told how long. */
  async function claimAttempt(keys: ThrottleKey[]): Promise<void> {
    const claim = await throttle.claim(keys);
    if (!claim.ok) throw new AuthFailure(429, AuthMessages.rateLimited, Math.ceil(claim.retryAfterMs / 1000));
  }

  /** A full sign-in from this browser: it becomes (or stays) a known device of the account. */
  function trustDevice(ctx: Pick<SignInContext, 'trustDevice'>, userId: number, device: string | null): void {
    ctx.trustDevice?.(deviceCookieName(userId), throttle.deviceCookieValue(userId, device));
  }

  /** Now and then, drop what no rule reads any more, so these tables stay small. */
  async function maybePrune(): Promise<void> {
    if (Math.random() >= PRUNE_PROBABILITY) return;
    const keepFrom = at(now() - Math.max(limits.windowMs + limits.maxDelayMs, RETENTION_MS));
    await db.delete(signInFailures).where(lt(signInFailures.at, keepFrom));
    await db.delete(signInThrottles).where(lt(signInThrottles.lastAttemptAt, keepFrom));
    await db.delete(loginCodes).where(lt(loginCodes.expiresAt, keepFrom));
    await db.delete(usedTotpSteps).where(lt(usedTotpSteps.usedAt, keepFrom));
  }

  /** A sign-in outcome of a known user, for the login history page. */
  async function recordHistory(
    exec: Db | Tx,
    userId: number,
    ctx: { ip: string; countryCode: string | null; userAgent: string },
    authFlow: HistoryFlow,
    result: 'success' | 'failure',
  ): Promise<void> {
    await exec.insert(loginHistory).values({
      userId,
      at: at(now()),
      ip: ctx.ip,
      countryCode: ctx.countryCode,
      userAgent: ctx.userAgent.slice(0, MAX_USER_AGENT_LENGTH),
      authFlow,
      result,
    });
  }

  /** The user's approved devices that may approve a sign-in (ApproveMethod.login). */
  async function loginDevicesOf(exec: Db | Tx, userId: number) {
    return exec
      .select({ id: devices.id, type: devices.type, name: devices.name })
      .from(devices)
      .where(
        and(
          eq(devices.userId, userId),
          eq(devices.status, 'approved'),
          isNotNull(devices.type),
          sql`${devices.approveMethodIds} @> ${JSON.stringify([ApproveMethod.login])}::jsonb`,
        ),
      )
      .orderBy(asc(devices.id))
      .limit(MAX_LISTED_DEVICES);
  }

  /** The restriction the user's sessions carry at this moment (issue and refresh read it). */
  async function currentRestriction(exec: Db | Tx, user: UserRow): Promise<SessionRestriction | undefined> {
    if (user.twoStepSetupRequired) return 'setup2fa';
    const hasLoginDevice = user.pushMigrationDeadline ? (await loginDevicesOf(exec, user.id)).length > 0 : false;
    return restrictionOf(pushMigrationOf(user, hasLoginDevice, now()), user);
  }

  async function signAccessToken(user: { id: number; customerId: number }, familyId: string, restriction: SessionRestriction | undefined): Promise<string> {
    const issuedAtS = Math.floor(now() / 1000);
    return signHs256(
      {
        sub: String(user.id),
        cid: user.customerId,
        fam: familyId,
        typ: 'user',
        ...(restriction ? { rst: restriction } : {}),
        iat: issuedAtS,
        exp: issuedAtS + ACCESS_TOKEN_TTL_S,
      },
      signingKey,
    );
  }

  async function insertRefreshToken(tx: Tx | Db, familyId: string, userId: number): Promise<string> {
    const refreshToken = randomToken();
    await tx.insert(refreshTokens).values({
      tokenHash: sha256Hex(refreshToken),
      familyId,
      userId,
      createdAt: at(now()),
      expiresAt: at(now() + REFRESH_TOKEN_TTL_S * 1000),
    });
    return refreshToken;
  }

  /** A new sign-in family with its first refresh token; the restriction comes from the user's state. */
  async function issueTokens(tx: Tx | Db, user: UserRow): Promise<Tokens> {
    const familyId = randomUUID();
    await tx.insert(tokenFamilies).values({ id: familyId, userId: user.id, createdAt: at(now()), lastActiveAt: at(now()) });
    const refreshToken = await insertRefreshToken(tx, familyId, user.id);
    return { accessToken: await signAccessToken(user, familyId, await currentRestriction(tx, user)), refreshToken };
  }

  async function revokeFamily(tx: Tx | Db, familyId: string, reason: string): Promise<void> {
    // This instance forgets the family at once; other instances within FAMILY_CHECK_TTL_MS.
    liveFamilies.delete(familyId);
    await tx
      .update(tokenFamilies)
      .set({ revokedAt: at(now()), revokeReason: reason })
      .where(and(eq(tokenFamilies.id, familyId), isNull(tokenFamilies.revokedAt)));
    await tx
      .update(refreshTokens)
      .set({ revokedAt: at(now()) })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  async function insertLoginCode(
    tx: Tx,
    user: UserRow,
    codeChallenge: string,
    authFlow: CodeFlow,
    extra: { smsCodeHash?: string; approvalKeyHash?: string; migration?: PushMigration | null } = {},
  ): Promise<string> {
    const code = randomToken();
    // A direct code signs in with its verifier alone (also from a URL: the query sign-in), so it
    // lives LOGIN_CODE_TTL_S; the others wait for their second step (an approved push code then
    // gets LOGIN_CODE_TTL_S from the approval, see exchangeCode).
    const ttlS = authFlow === 'direct' ? LOGIN_CODE_TTL_S : SECOND_STEP_TTL_S;
    await tx.insert(loginCodes).values({
      codeHash: sha256Hex(code),
      userId: user.id,
      codeChallenge,
      authFlow,
      smsCodeHash: extra.smsCodeHash ?? null,
      approvalKeyHash: extra.approvalKeyHash ?? null,
      migration: extra.migration && extra.migration.requirement !== 'none' ? extra.migration.requirement : null,
      createdAt: at(now()),
      expiresAt: at(now() + ttlS * 1000),
    });
    return code;
  }

  /** The flow a user gets from the mode alone (history rows of failures before a flow is chosen). */
  const flowOfMode = (mode: UserRow['login2faMode']): HistoryFlow => (mode === 'no' ? 'simple' : mode);

  /** exchangeCode once the attempt is counted (`attempts` on this code, this one included). */
  async function exchangeClaimedCode(
    input: { code: string; codeVerifier: string; otp?: string | undefined; recoveryCode?: string | undefined },
    ctx: Pick<SignInContext, 'ip' | 'userAgent'>,
    row: { code: LoginCodeRow; user: UserRow },
    keys: ThrottleKey[],
    attempts: number,
  ): Promise<Tokens> {
    const address = ctx.ip;
    const codeHash = row.code.codeHash;
    const { code, user } = row;
    const flow = code.authFlow as CodeFlow;
    const historyFlow: HistoryFlow = input.recoveryCode ? 'recoveryCode' : flow;
    const where = { ip: address, countryCode: countryOfIp(address), userAgent: ctx.userAgent };

    const failAttempt = async (message: string): Promise<never> => {
      // The attempt stays counted (it was claimed before the check).
      await recordHistory(db, user.id, where, historyFlow, 'failure');
      // The code dies after MAX_CODE_ATTEMPTS wrong answers: guessing needs a new password step.
      if (attempts >= MAX_CODE_ATTEMPTS) {
        await db.update(loginCodes).set({ usedAt: at(now()) }).where(and(eq(loginCodes.codeHash, codeHash), isNull(loginCodes.usedAt)));
      }
      await maybePrune();
      throw new AuthFailure(403, message);
    };
    /** Ends the code without counting a guess (the approval was declined or ran out). */
    const killCode = async (message: string, statusCode: 403 | 404 = 403): Promise<never> => {
      await db.update(loginCodes).set({ usedAt: at(now()) }).where(and(eq(loginCodes.codeHash, codeHash), isNull(loginCodes.usedAt)));
      await recordHistory(db, user.id, where, historyFlow, 'failure');
      throw new AuthFailure(statusCode, message);
    };

    if (!timingSafeEqualText(code.codeChallenge, pkceChallenge(input.codeVerifier))) await failAttempt(AuthMessages.verifierMismatch);

    /** Single use, atomically: of two concurrent exchanges only one updates the row. */
    const consume = async (tx: Tx) => {
      const consumed = await tx
        .update(loginCodes)
        .set({ usedAt: at(now()) })
        .where(and(eq(loginCodes.codeHash, codeHash), isNull(loginCodes.usedAt), gt(loginCodes.expiresAt, at(now()))))
        .returning({ userId: loginCodes.userId });
      if (consumed.length === 0) throw new AuthFailure(404, AuthMessages.unknownCode);
    };
    const succeed = async (tx: Tx, signedIn: UserRow) => {
      // Both steps passed: the attempt was no wrong guess, and the device starts counting again.
      await throttle.refund(keys, tx);
      await throttle.resetDevice(tx, keys);
      const tokens = await issueTokens(tx, signedIn);
      await recordHistory(tx, user.id, where, historyFlow, 'success');
      return tokens;
    };
    const consumeAndSucceed = () =>
      db.transaction(async (tx) => {
        await consume(tx);
        return succeed(tx, user);
      });

    if (input.recoveryCode) {
      if (flow === 'direct') throw new AuthFailure(403, AuthMessages.recoveryNotAccepted);
      const spent = await db.transaction(async (tx) => {
        const used = await tx
          .update(recoveryCodes)
          .set({ usedAt: at(now()) })
          .where(and(eq(recoveryCodes.userId, user.id), eq(recoveryCodes.codeHash, recoveryCodeHash(input.recoveryCode!)), isNull(recoveryCodes.usedAt)))
          .returning({ id: recoveryCodes.id });
        if (used.length === 0) return null;
        await consume(tx);
        // A recovery code means the second factor is lost: the phone (its devices, its
        // authenticator) is treated as compromised. Every device is unlinked, the TOTP secret
        // cleared, and the session is restricted until two-step verification is set up again.
        await tx
          .update(devices)
          .set({ status: 'revoked', revokedAt: at(now()) })
          .where(and(eq(devices.userId, user.id), sql`${devices.status} <> 'revoked'`));
        const [updated] = await tx
          .update(users)
          .set({ totpSecret: null, twoStepSetupRequired: true })
          .where(eq(users.id, user.id))
          .returning();
        return succeed(tx, updated!);
      });
      if (!spent) return failAttempt(AuthMessages.wrongRecoveryCode);
      return spent;
    }

    if (flow === 'direct') return consumeAndSucceed();

    if (flow === 'push' || flow === 'verifyDevice') {
      if (!code.approvalKeyHash) throw new AuthFailure(403, AuthMessages.noApprovingDevice);
      const [approval] = await db
        .select({ status: approvalRequests.status, expiresAt: approvalRequests.expiresAt, answeredAt: approvalRequests.answeredAt })
        .from(approvalRequests)
        .where(and(eq(approvalRequests.keyHash, code.approvalKeyHash), eq(approvalRequests.userId, user.id)));
      if (!approval) return killCode(AuthMessages.approvalExpired);
      if (approval.status === 'declined') return killCode(AuthMessages.approvalDeclined);
      // An expired request is not an answer: POST /auth/push/re-send may revive it while this
      // code lives (SECOND_STEP_TTL_S caps the whole attempt), so the code survives.
      if (approval.status === 'expired' || (approval.status === 'pending' && approval.expiresAt.getTime() <= now())) {
        throw new AuthFailure(403, AuthMessages.approvalExpired);
      }
      // Waiting is not guessing: a pending answer neither counts nor ends the code.
      if (approval.status === 'pending') throw new AuthFailure(403, AuthMessages.notApprovedYet);
      // Approved, the code signs in with its verifier alone: like a direct code it is good for
      // LOGIN_CODE_TTL_S more, counted from the approval.
      if ((approval.answeredAt?.getTime() ?? 0) + LOGIN_CODE_TTL_S * 1000 <= now()) return killCode(AuthMessages.unknownCode, 404);
      return consumeAndSucceed();
    }

    if (!input.otp) throw new AuthFailure(403, AuthMessages.otpRequired);

    if (flow === 'sms') {
      if (!code.smsCodeHash || !timingSafeEqualText(code.smsCodeHash, sha256Hex(input.otp))) return failAttempt(AuthMessages.wrongSmsCode);
      return consumeAndSucceed();
    }

    // otp
    if (!user.totpSecret) throw new AuthFailure(403, AuthMessages.noSecondStep);
    const step = matchTotpStep(user.totpSecret, input.otp, now());
    if (step === null) return failAttempt(AuthMessages.wrongOtp);
    try {
      // Throwing inside the transaction rolls back the recorded step as well.
      return await db.transaction(async (tx) => {
        // A step is accepted once per user: the primary key decides between concurrent requests.
        const recorded = await tx
          .insert(usedTotpSteps)
          .values({ userId: user.id, step, usedAt: at(now()) })
          .onConflictDoNothing()
          .returning({ step: usedTotpSteps.step });
        if (recorded.length === 0) throw new AuthFailure(403, AuthMessages.otpReused);
        await consume(tx);
        return succeed(tx, user);
      });
    } catch (err) {
      if (err instanceof AuthFailure && err.message === AuthMessages.otpReused) {
        await recordHistory(db, user.id, where, historyFlow, 'failure');
      }
      throw err;
    }
  }

  return {
    /**
     * Step one: e-mail and password. Tokens at once (simple) or a one-time code for step two; the
     * flow is the platform's choice (api/auth.ts LoginResponseSchema).
     */
    async login(
      input: { username: string; password: string; codeChallenge: string; secret?: string | undefined; pushToken?: string | undefined },
      ctx: SignInContext,
    ): Promise<LoginResponse> {
      const username = input.username.toLowerCase();
      const address = ctx.ip;
      // Before the password: an address the privacy check refuses learns nothing, not even
      // whether the password was right.
      const ipInfo = await lookupIpInfo(db, address);
      const where = { ip: address, countryCode: ipInfo.country_code, userAgent: ctx.userAgent };
      if (!privacyCheckPasses(ipInfo)) {
        const [known] = await db.select({ id: users.id, mode: users.login2faMode }).from(users).where(eq(users.email, username));
        if (known) await recordHistory(db, known.id, where, flowOfMode(known.mode), 'failure');
        throw new AuthFailure(403, AuthMessages.privacyRefused);
      }
      const [user] = await db.select().from(users).where(eq(users.email, username));
      // The browser's device cookie for this account, if it holds a valid one: its attempts count
      // against its own allowance; everyone else's against the untrusted ones.
      const device = user ? throttle.deviceOf(ctx.cookies ?? {}, user.id) : null;
      const keys = throttle.keysFor({ username, address, device });
      await claimAttempt(keys);
      // Unknown users cost one argon2 verification too, so timing does not reveal accounts.
      const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
      if (!user || !passwordOk || user.disabled) {
        // The attempt stays counted.
        if (user) await recordHistory(db, user.id, where, flowOfMode(user.login2faMode), 'failure');
        await maybePrune();
        throw new AuthFailure(403, AuthMessages.badCredentials);
      }
      if (!user.activated) {
        // Said only after the password matched, so it reveals nothing to a stranger; not a guess,
        // so its attempt is given back.
        await throttle.refund(keys);
        await recordHistory(db, user.id, where, flowOfMode(user.login2faMode), 'failure');
        throw new AuthFailure(403, AuthMessages.notActivated);
      }

      const answer = await db.transaction(async (tx): Promise<LoginResponse> => {
        // The password was right: not a wrong guess. A device's count starts again only once the
        // whole sign-in succeeded (else second-step guesses would be forgiven by each password).
        await throttle.refund(keys, tx);
        // direct: the request carries the secret of one of this user's approved devices. A secret
        // of no device of this user is ignored: the user's own flow applies.
        if (input.secret) {
          const device = await deviceSecrets.findApprovedDeviceBySecret(tx, user.id, input.secret);
          if (device) {
            if (input.pushToken) await tx.update(devices).set({ pushToken: input.pushToken }).where(eq(devices.id, device.id));
            const code = await insertLoginCode(tx, user, input.codeChallenge, 'direct');
            return { authFlow: 'direct', code };
          }
        }

        const loginDevices = await loginDevicesOf(tx, user.id);
        const migration = pushMigrationOf(user, loginDevices.length > 0, now());
        const withMigration = migration ? { migration } : {};

        if (user.login2faMode === 'no') {
          await throttle.resetDevice(tx, keys);
          const tokens = await issueTokens(tx, user);
          await recordHistory(tx, user.id, where, 'simple', 'success');
          return { authFlow: 'simple', ...tokens, ...withMigration };
        }

        if (user.login2faMode === 'sms') {
          const [phone] = await tx
            .select({ countryCode: phones.phoneCountryCode, phone: phones.phone })
            .from(phones)
            .where(and(eq(phones.customerId, user.customerId), eq(phones.status, 'primary'), eq(phones.confirmed, true)))
            .orderBy(asc(phones.id))
            .limit(1);
          if (phone) {
            const smsCode = randomDigits(6);
            const identifier = randomDigits(2);
            const code = await insertLoginCode(tx, user, input.codeChallenge, 'sms', { smsCodeHash: sha256Hex(smsCode), migration });
            // The identifier pairs this SMS with the screen that asked for it; the code is never logged.
            await enqueueSms(tx, {
              to: `+${phone.countryCode}${phone.phone}`,
              text: `${providerName}: your sign-in code is ${smsCode} (identifier ${identifier}). Never share it with anyone.`,
            });
            return { authFlow: 'sms', code, phone: maskPhone(phone.countryCode, phone.phone), identifier, ...withMigration };
          }
          // No confirmed primary phone: an SMS cannot be sent, and mode 'sms' must not fall back to
          // no second step. The otp flow asks for the authenticator's code (if one was ever set up)
          // or a recovery code, so the user is neither let in on a password alone nor locked out.
        }

        if (user.login2faMode === 'push') {
          const deviceList = loginDevices.map((d) => ({ id: d.id, type: d.type!, name: d.name }));
          if (deviceList.length === 0) {
            // Nothing can approve: no approval request, nothing to wait for (empty token and link);
            // only a recovery code finishes this sign-in.
            const code = await insertLoginCode(tx, user, input.codeChallenge, 'push', { migration });
            return { authFlow: 'push', code, temporaryToken: '', deviceList, qrLink: '', expiresInS: SECOND_STEP_TTL_S };
          }
          const authFlow = deviceList.length === 1 ? 'push' : 'verifyDevice';
          // One device is asked at once; with several the user picks one (POST /auth/push/re-send).
          const approval = await approvals.createLoginApproval(tx, {
            userId: user.id,
            deviceId: authFlow === 'push' ? deviceList[0]!.id : null,
            deliver: authFlow === 'push',
            details: { ip: address, countryCode: ipInfo.country_code, userAgent: ctx.userAgent.slice(0, MAX_USER_AGENT_LENGTH) },
          });
          const code = await insertLoginCode(tx, user, input.codeChallenge, authFlow, { approvalKeyHash: approval.keyHash, migration });
          return {
            authFlow,
            code,
            temporaryToken: approval.temporaryToken,
            deviceList,
            qrLink: `${ctx.origin}${DEVICE_COMPANION_PATH}#approve=${encodeURIComponent(approval.key)}`,
            expiresInS: Math.max(0, Math.round((approval.expiresAt.getTime() - now()) / 1000)),
          };
        }

        // otp (and sms without a phone). A user without an authenticator secret still gets this
        // flow: only a recovery code can finish it.
        const code = await insertLoginCode(tx, user, input.codeChallenge, 'otp', { migration });
        return { authFlow: 'otp', code, ...withMigration };
      });
      if (answer.authFlow === 'simple') trustDevice(ctx, user.id, device);
      return answer;
    },

    /** A device token for the device companion (POST /auth/token { secret }). */
    signInDevice(secret: string): Promise<{ accessToken: string; deviceId: number }> {
      return deviceSecrets.signInDevice(secret);
    },

    /**
     * Step two: the login code, its PKCE verifier and what its flow needs: a TOTP (otp), the SMS
     * code (sms, in `otp`), an approval on a linked device (push, verifyDevice), nothing more
     * (direct), or a recovery code (every flow but direct).
     */
    async exchangeCode(
      input: { code: string; codeVerifier: string; otp?: string | undefined; recoveryCode?: string | undefined },
      ctx: Pick<SignInContext, 'ip' | 'userAgent' | 'cookies' | 'trustDevice'>,
    ): Promise<Tokens> {
      const address = ctx.ip;
      const codeHash = sha256Hex(input.code);
      const [row] = await db
        .select({ code: loginCodes, user: users })
        .from(loginCodes)
        .innerJoin(users, eq(users.id, loginCodes.userId))
        .where(eq(loginCodes.codeHash, codeHash));
      if (!row || row.code.usedAt !== null || row.code.expiresAt.getTime() <= now()) {
        throw new AuthFailure(404, AuthMessages.unknownCode);
      }
      const { code, user } = row;
      const device = throttle.deviceOf(ctx.cookies ?? {}, user.id);
      const keys = throttle.keysFor({ username: user.email, address, device });
      // Counted before anything is checked, on the account (or device) and on the code itself: of
      // parallel guesses no more than the allowances are ever verified.
      await claimAttempt(keys);
      const [claimed] = await db
        .update(loginCodes)
        .set({ failedAttempts: sql`${loginCodes.failedAttempts} + 1` })
        .where(
          and(
            eq(loginCodes.codeHash, codeHash),
            isNull(loginCodes.usedAt),
            gt(loginCodes.expiresAt, at(now())),
            lt(loginCodes.failedAttempts, MAX_CODE_ATTEMPTS),
          ),
        )
        .returning({ attempts: loginCodes.failedAttempts });
      if (!claimed) {
        await throttle.refund(keys);
        throw new AuthFailure(404, AuthMessages.unknownCode);
      }
      try {
        const tokens = await exchangeClaimedCode(input, ctx, row, keys, claimed.attempts);
        trustDevice(ctx, user.id, device);
        return tokens;
      } catch (err) {
        if (!(err instanceof AuthFailure && WRONG_ANSWERS.has(err.message))) {
          // Not a guess (an approval still pending, an input missing, a lost race): given back.
          await throttle.refund(keys);
          await db
            .update(loginCodes)
            .set({ failedAttempts: sql`greatest(${loginCodes.failedAttempts} - 1, 0)` })
            .where(eq(loginCodes.codeHash, codeHash));
        }
        throw err;
      }
    },

    /**
     * Rotates a refresh token; a second use of a rotated token revokes its whole family. The new
     * access token's restriction is computed from the user's state now, so finishing the two-step
     * setup (or linking a phone) lifts it at the next refresh.
     */
    async refresh(refreshToken: string): Promise<Tokens> {
      const tokenHash = sha256Hex(refreshToken);
      const outcome = await db.transaction(async (tx) => {
        const rotated = await tx
          .update(refreshTokens)
          .set({ rotatedAt: at(now()) })
          .where(
            and(
              eq(refreshTokens.tokenHash, tokenHash),
              isNull(refreshTokens.rotatedAt),
              isNull(refreshTokens.revokedAt),
              gt(refreshTokens.expiresAt, at(now())),
            ),
          )
          .returning({ familyId: refreshTokens.familyId, userId: refreshTokens.userId });
        const current = rotated[0];
        if (!current) {
          const [known] = await tx.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
          if (!known) return { ok: false as const, status: 404 as const };
          // Reuse of a rotated token means two parties hold the family: end it for both.
          if (known.rotatedAt !== null) await revokeFamily(tx, known.familyId, 'refresh token reuse');
          return { ok: false as const, status: 403 as const };
        }
        const [row] = await tx
          .select({ revokedAt: tokenFamilies.revokedAt, lastActiveAt: tokenFamilies.lastActiveAt, user: users })
          .from(tokenFamilies)
          .innerJoin(users, eq(users.id, tokenFamilies.userId))
          .where(eq(tokenFamilies.id, current.familyId));
        if (!row || row.revokedAt !== null || row.user.disabled) return { ok: false as const, status: 403 as const };
        // Document 1 §4: a session ends after SESSION_IDLE_S without activity. The web app refreshes
        // while it is open, and every call needs an access token of at most ACCESS_TOKEN_TTL_S, so a
        // refresh is the activity the platform sees; a refresh token kept past the idle time is dead.
        if (now() - row.lastActiveAt.getTime() > SESSION_IDLE_S * 1000) {
          await revokeFamily(tx, current.familyId, 'idle');
          return { ok: false as const, status: 403 as const, idle: true };
        }
        await tx.update(tokenFamilies).set({ lastActiveAt: at(now()) }).where(eq(tokenFamilies.id, current.familyId));
        const next = await insertRefreshToken(tx, current.familyId, current.userId);
        const restriction = await currentRestriction(tx, row.user);
        return {
          ok: true as const,
          tokens: { accessToken: await signAccessToken(row.user, current.familyId, restriction), refreshToken: next },
        };
      });
      if (!outcome.ok) {
        if (outcome.status === 404) throw new AuthFailure(404, AuthMessages.unknownRefresh);
        throw new AuthFailure(403, 'idle' in outcome ? AuthMessages.sessionIdle : AuthMessages.badRefresh);
      }
      return outcome.tokens;
    },

    /** Ends the sign-in family of a refresh token (every token of it stops working). */
    async logout(refreshToken: string): Promise<void> {
      const [known] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256Hex(refreshToken)));
      if (!known) throw new AuthFailure(404, AuthMessages.unknownRefresh);
      await db.transaction((tx) => revokeFamily(tx, known.familyId, 'logout'));
    },

    /**
     * The caller of a user access token, or null when the token is missing, malformed, expired,
     * badly signed, a device token, or its family is revoked. The family check is one primary-key
     * lookup, remembered for FAMILY_CHECK_TTL_MS while the family is live.
     */
    async authenticate(token: string | null | undefined): Promise<Caller | null> {
      if (!token) return null;
      const payload = verifyHs256(token, signingKey, now());
      if (!payload) return null;
      const claims = v.safeParse(AccessClaimsSchema, payload);
      if (!claims.success || !UUID_PATTERN.test(claims.output.fam) || !/^\d+$/.test(claims.output.sub)) return null;
      // A device token (device companion) speaks for a phone, not for the user: never a caller here.
      if (claims.output.typ === 'device') return null;
      const family = claims.output.fam;
      const cached = liveFamilies.get(family);
      let row: FamilyRow | undefined;
      if (cached && now() - cached.checkedAtMs < FAMILY_CHECK_TTL_MS) {
        row = cached.row;
      } else {
        // A prepared statement, planned once per connection.
        [row] = await prepared(db, 'auth_family_check', (d) =>
          d
            .select({
              revokedAt: tokenFamilies.revokedAt,
              userId: users.id,
              customerId: users.customerId,
              isAdmin: users.isAdmin,
              disabled: users.disabled,
            })
            .from(tokenFamilies)
            .innerJoin(users, eq(users.id, tokenFamilies.userId))
            .where(eq(tokenFamilies.id, sql.placeholder('family')))
            .prepare('auth_family_check'),
        ).execute({ family });
        if (row && row.revokedAt === null && !row.disabled) {
          if (liveFamilies.size >= FAMILY_CHECK_MAX_ENTRIES) liveFamilies.clear();
          liveFamilies.set(family, { row, checkedAtMs: now() });
        }
      }
      if (!row || row.revokedAt !== null || row.disabled) return null;
      if (row.userId !== Number(claims.output.sub) || row.customerId !== claims.output.cid) return null;
      return { userId: row.userId, customerId: row.customerId, isAdmin: row.isAdmin, restriction: claims.output.rst, familyId: family };
    },
  };
}
