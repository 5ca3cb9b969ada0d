/**
 * The token service's rules (document 1 §3, §5, §7): password check, PKCE-bound one-time login
 * codes, TOTP second step, access tokens (HS256 JWT, 300 s) and rotating refresh tokens whose
 * reuse revokes the whole sign-in family. Sign-in failures are counted in the database.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { and, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { AccessClaimsSchema, ACCESS_TOKEN_TTL_S, LOGIN_CODE_TTL_S, type LoginResponse, type Tokens } from '../../../api/auth.ts';
import type { Db, Tx } from '../../db/types.ts';
import { prepared } from '../../db/prepared.ts';
import { users } from '../customers/customers.tables.ts';
import type { Caller } from '../method-types.ts';
import { loginCodes, refreshTokens, signInFailures, tokenFamilies, usedTotpSteps } from './auth.tables.ts';
import { dummyPasswordHash, pkceChallenge, randomToken, sha256Hex, verifyPassword } from './crypto.ts';
import { matchTotpStep } from './totp.ts';
import { signHs256, verifyHs256 } from './jwt.ts';

/** A refresh token outlives many access tokens; the 15-minute idle rule ends sessions earlier. */
export const REFRESH_TOKEN_TTL_S = 12 * 60 * 60;
/** Failures, codes and used TOTP steps are kept a day (far beyond every window that reads them). */
const RETENTION_MS = 24 * 60 * 60 * 1000;
const PRUNE_PROBABILITY = 0.01;
/** Wrong one-time passwords one login code survives. */
export const MAX_CODE_ATTEMPTS = 5;

export interface SignInLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}
export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60 * 1000 };

/** An expected token-service failure: HTTP status plus a message for the client. */
export class AuthFailure extends Error {
  constructor(
    readonly statusCode: 403 | 404 | 429,
    message: string,
  ) {
    super(message);
  }
}

export const AuthMessages = {
  badCredentials: 'Wrong e-mail or password',
  rateLimited: 'Too many failed sign-in attempts; try again later',
  unknownCode: 'Unknown, used or expired code',
  verifierMismatch: 'The code verifier does not match the code challenge',
  otpRequired: 'otp: is required',
  wrongOtp: 'Wrong one-time password',
  otpReused: 'This one-time password was already used; wait for the next one',
  badRefresh: 'The refresh token is not valid',
  unknownRefresh: 'Unknown refresh token',
  noSecondStep: 'Two-step sign-in is not set up for this account',
} as const;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface TokenServiceDeps {
  db: Db;
  signingKey: Uint8Array;
  /** the clock, in ms (tests move it) */
  now: () => number;
  limits: SignInLimits;
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

export function createTokenService({ db, signingKey, now, limits }: TokenServiceDeps) {
  const liveFamilies = new Map<string, { row: FamilyRow; checkedAtMs: number }>();
  const at = (ms: number) => new Date(ms);

  async function assertNotRateLimited(username: string, address: string): Promise<void> {
    const since = at(now() - limits.windowMs);
    const [perAccount] = await db
      .select({ n: count() })
      .from(signInFailures)
      .where(and(eq(signInFailures.username, username), gt(signInFailures.at, since)));
    const [perAddress] = await db
      .select({ n: count() })
      .from(signInFailures)
      .where(and(eq(signInFailures.address, address), gt(signInFailures.at, since)));
    if ((perAccount?.n ?? 0) >= limits.perAccount || (perAddress?.n ?? 0) >= limits.perAddress) {
      throw new AuthFailure(429, AuthMessages.rateLimited);
    }
  }

  async function recordFailure(username: string, address: string): Promise<void> {
    await db.insert(signInFailures).values({ username, address, at: at(now()) });
    // Now and then, drop what no rule reads any more, so these tables stay small.
    if (Math.random() < PRUNE_PROBABILITY) await pruneExpired();
  }

  async function pruneExpired(): Promise<void> {
    const keepFrom = at(now() - Math.max(limits.windowMs, RETENTION_MS));
    await db.delete(signInFailures).where(lt(signInFailures.at, keepFrom));
    await db.delete(loginCodes).where(lt(loginCodes.expiresAt, keepFrom));
    await db.delete(usedTotpSteps).where(lt(usedTotpSteps.usedAt, keepFrom));
  }

  async function signAccessToken(userId: number, customerId: number, familyId: string): Promise<string> {
    const issuedAtS = Math.floor(now() / 1000);
    return signHs256(
      { sub: String(userId), cid: customerId, fam: familyId, iat: issuedAtS, exp: issuedAtS + ACCESS_TOKEN_TTL_S },
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

  /** A new sign-in family with its first refresh token. */
  async function issueTokens(tx: Tx | Db, user: { id: number; customerId: number }): Promise<Tokens> {
    const familyId = randomUUID();
    await tx.insert(tokenFamilies).values({ id: familyId, userId: user.id, createdAt: at(now()) });
    const refreshToken = await insertRefreshToken(tx, familyId, user.id);
    return { accessToken: await signAccessToken(user.id, user.customerId, familyId), refreshToken };
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

  return {
    /** Step one: e-mail and password. Tokens at once (2FA off) or a one-time code for step two. */
    async login(input: { username: string; password: string; codeChallenge: string }, address: string): Promise<LoginResponse> {
      const username = input.username.toLowerCase();
      await assertNotRateLimited(username, address);
      const [user] = await db.select().from(users).where(eq(users.email, username));
      // Unknown users cost one argon2 verification too, so timing does not reveal accounts.
      const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
      if (!user || !passwordOk || user.disabled) {
        await recordFailure(username, address);
        throw new AuthFailure(403, AuthMessages.badCredentials);
      }
      if (user.login2faMode === 'no') {
        return { authFlow: 'simple', ...(await issueTokens(db, user)) };
      }
      // Only the authenticator-app second step exists on this platform so far.
      if (!user.totpSecret) throw new AuthFailure(403, AuthMessages.noSecondStep);
      const code = randomToken();
      await db.insert(loginCodes).values({
        codeHash: sha256Hex(code),
        userId: user.id,
        codeChallenge: input.codeChallenge,
        authFlow: 'otp',
        createdAt: at(now()),
        expiresAt: at(now() + LOGIN_CODE_TTL_S * 1000),
      });
      return { authFlow: 'otp', code };
    },

    /** Step two: the login code, its PKCE verifier and the one-time password. */
    async exchangeCode(input: { code: string; codeVerifier: string; otp?: string | undefined }, address: string): Promise<Tokens> {
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
      await assertNotRateLimited(user.email, address);

      const failAttempt = async (message: string) => {
        await recordFailure(user.email, address);
        // The code dies after MAX_CODE_ATTEMPTS wrong answers: guessing needs a new password step.
        await db
          .update(loginCodes)
          .set({
            failedAttempts: sql`${loginCodes.failedAttempts} + 1`,
            usedAt: sql`case when ${loginCodes.failedAttempts} + 1 >= ${MAX_CODE_ATTEMPTS} then ${at(now()).toISOString()}::timestamptz else null end`,
          })
          .where(eq(loginCodes.codeHash, codeHash));
        throw new AuthFailure(403, message);
      };

      const expected = Buffer.from(code.codeChallenge);
      const actual = Buffer.from(pkceChallenge(input.codeVerifier));
      if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) await failAttempt(AuthMessages.verifierMismatch);
      if (!input.otp) throw new AuthFailure(403, AuthMessages.otpRequired);
      if (!user.totpSecret) throw new AuthFailure(403, AuthMessages.noSecondStep);
      const step = matchTotpStep(user.totpSecret, input.otp, now());
      if (step === null) await failAttempt(AuthMessages.wrongOtp);

      try {
        // Throwing inside the transaction rolls back the recorded step as well.
        return await db.transaction(async (tx) => {
          // A step is accepted once per user: the primary key decides between concurrent requests.
          const recorded = await tx
            .insert(usedTotpSteps)
            .values({ userId: user.id, step: step!, usedAt: at(now()) })
            .onConflictDoNothing()
            .returning({ step: usedTotpSteps.step });
          if (recorded.length === 0) throw new AuthFailure(403, AuthMessages.otpReused);
          // Single use, atomically: of two concurrent exchanges only one updates the row.
          const consumed = await tx
            .update(loginCodes)
            .set({ usedAt: at(now()) })
            .where(and(eq(loginCodes.codeHash, codeHash), isNull(loginCodes.usedAt), gt(loginCodes.expiresAt, at(now()))))
            .returning({ userId: loginCodes.userId });
          if (consumed.length === 0) throw new AuthFailure(404, AuthMessages.unknownCode);
          return issueTokens(tx, user);
        });
      } catch (err) {
        if (err instanceof AuthFailure && err.message === AuthMessages.otpReused) await recordFailure(user.email, address);
        throw err;
      }
    },

    /** Rotates a refresh token; a second use of a rotated token revokes its whole family. */
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
          .select({ revokedAt: tokenFamilies.revokedAt, customerId: users.customerId, disabled: users.disabled })
          .from(tokenFamilies)
          .innerJoin(users, eq(users.id, tokenFamilies.userId))
          .where(eq(tokenFamilies.id, current.familyId));
        if (!row || row.revokedAt !== null || row.disabled) return { ok: false as const, status: 403 as const };
        const next = await insertRefreshToken(tx, current.familyId, current.userId);
        return {
          ok: true as const,
          tokens: { accessToken: await signAccessToken(current.userId, row.customerId, current.familyId), refreshToken: next },
        };
      });
      if (!outcome.ok) {
        throw outcome.status === 404 ? new AuthFailure(404, AuthMessages.unknownRefresh) : new AuthFailure(403, AuthMessages.badRefresh);
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
     * The caller of an access token, or null when the token is missing, malformed, expired, badly
     * signed, or its family is revoked. The family check is one primary-key lookup, remembered
     * for FAMILY_CHECK_TTL_MS while the family is live.
     */
    async authenticate(token: string | null | undefined): Promise<Caller | null> {
      if (!token) return null;
      const payload = verifyHs256(token, signingKey, now());
      if (!payload) return null;
      const claims = v.safeParse(AccessClaimsSchema, payload);
      if (!claims.success || !UUID_PATTERN.test(claims.output.fam) || !/^\d+$/.test(claims.output.sub)) return null;
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
      return { userId: row.userId, customerId: row.customerId, isAdmin: row.isAdmin };
    },
  };
}
