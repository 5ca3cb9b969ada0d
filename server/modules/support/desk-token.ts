/**
 * The two tokens of the support desk (document 3 §7 "The desk token is obtained through remote
 * auth with the jwt"; api/support.ts):
 * - the remote-auth jwt (GET zoho/jwt): HS256, aud 'desk', life DESK_JWT_SECONDS; the app hands it
 *   at once to POST /me. Claims: sub (user id, text), customer (the acting customer's id),
 *   provider (the variant's id), fam (the sign-in's session family), jti (a random UUID), iat, exp.
 *   Single use: POST /me records the jti (support_desk_jwts, support.tables.ts) and refuses a jwt
 *   whose jti is already recorded, so a jwt seen once (a log, a proxy) gives no second desk token.
 * - the desk token (POST /me's answer): HS256, aud 'desk-session', typ 'desk', life
 *   DESK_TOKEN_SECONDS; the only token the desk paths take (Authorization: Bearer). Claims: sub
 *   (user id, text), cid (the acting customer's id), prv (the provider), fam (the session family
 *   of the sign-in it came from: signing out or a revoked session ends the desk token too), iat, exp.
 *
 * Both are signed with a key derived from the platform's signing key (HMAC of it with a label),
 * not with the key itself: a platform access token can never pass as a desk token, nor a desk
 * token as an access token (tokens.service.ts also refuses any token without a session family),
 * whatever the claims say. The audience check keeps the jwt and the desk token apart.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { DESK_JWT_SECONDS, DESK_TOKEN_SECONDS } from '../../../api/support.ts';
import { signHs256, verifyHs256 } from '../auth/jwt.ts';

export const DESK_JWT_AUDIENCE = 'desk';
export const DESK_TOKEN_AUDIENCE = 'desk-session';

/** The desk's key: HMAC-SHA256 of the platform's signing key with a fixed label (domain separation). */
export function deskKeyOf(signingKey: Uint8Array): Uint8Array {
  return createHmac('sha256', signingKey).update('support-desk-v1').digest();
}

export interface DeskIdentity {
  userId: number;
  /** the customer the user acts for (a company with fromCustomerId) */
  customerId: number;
  provider: string;
  /** the session family of the platform sign-in the jwt was asked with */
  familyId: string;
}

const isId = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n > 0;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function identityOf(sub: unknown, customerId: unknown, provider: unknown, familyId: unknown): DeskIdentity | null {
  if (typeof sub !== 'string' || !/^[1-9]\d{0,9}$/.test(sub)) return null;
  if (!isId(customerId) || typeof provider !== 'string' || provider === '') return null;
  if (typeof familyId !== 'string' || !UUID.test(familyId)) return null;
  return { userId: Number(sub), customerId, provider, familyId };
}

export function signDeskJwt(key: Uint8Array, who: DeskIdentity, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  return signHs256({ sub: String(who.userId), customer: who.customerId, provider: who.provider, fam: who.familyId, jti: randomUUID(), aud: DESK_JWT_AUDIENCE, iat, exp: iat + DESK_JWT_SECONDS }, key);
}

/** The jwt's identity, its id and expiry when it is signed with the desk key, not expired and for the desk; else null. */
export function verifyDeskJwt(key: Uint8Array, token: string, nowMs: number): (DeskIdentity & { jwtId: string; expiresAtMs: number }) | null {
  const claims = verifyHs256(token, key, nowMs);
  if (!claims || claims.aud !== DESK_JWT_AUDIENCE) return null;
  if (typeof claims.jti !== 'string' || !UUID.test(claims.jti) || typeof claims.exp !== 'number') return null;
  const who = identityOf(claims.sub, claims.customer, claims.provider, claims.fam);
  return who && { ...who, jwtId: claims.jti, expiresAtMs: claims.exp * 1000 };
}

export function signDeskToken(key: Uint8Array, who: DeskIdentity, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  return signHs256(
    { sub: String(who.userId), cid: who.customerId, prv: who.provider, fam: who.familyId, aud: DESK_TOKEN_AUDIENCE, typ: 'desk', iat, exp: iat + DESK_TOKEN_SECONDS },
    key,
  );
}

export function verifyDeskToken(key: Uint8Array, token: string, nowMs: number): DeskIdentity | null {
  const claims = verifyHs256(token, key, nowMs);
  if (!claims || claims.aud !== DESK_TOKEN_AUDIENCE || claims.typ !== 'desk') return null;
  return identityOf(claims.sub, claims.cid, claims.prv, claims.fam);
}
