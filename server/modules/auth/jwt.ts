/**
 * HS256 JSON Web Tokens (RFC 7519) for access tokens, on node:crypto.
 *
 * Why not a library's verify: every authenticated call verifies a token, and the Web Crypto
 * path (async, through the thread pool, a key import per call) cost more than the rest of the
 * request's CPU in the getCustomerInfo benchmark. This is the whole of HS256: one HMAC and a
 * constant-time compare. Only `alg: HS256` is accepted (never `none`, never another algorithm).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const MAX_TOKEN_LENGTH = 4096;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function hmac(key: Uint8Array, input: string): Buffer {
  return createHmac('sha256', key).update(input).digest();
}

export function signHs256(claims: Record<string, unknown>, key: Uint8Array): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${hmac(key, body).toString('base64url')}`;
}

/**
 * The token's claims when its signature is valid and it has not expired at `nowMs`; null
 * otherwise. `exp` is required; `nbf`, when present, is honoured.
 */
export function verifyHs256(token: string, key: Uint8Array, nowMs: number): Record<string, unknown> | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => BASE64URL.test(p))) return null;
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  let header: unknown;
  let payload: unknown;
  try {
    header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof header !== 'object' || header === null || (header as { alg?: unknown }).alg !== 'HS256') return null;
  const expected = hmac(key, `${headerPart}.${payloadPart}`);
  const given = Buffer.from(signaturePart, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    payload = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  const { exp, nbf } = payload as { exp?: unknown; nbf?: unknown };
  const nowS = nowMs / 1000;
  if (typeof exp !== 'number' || !(nowS < exp)) return null;
  if (nbf !== undefined && (typeof nbf !== 'number' || nowS < nbf)) return null;
  return payload as Record<string, unknown>;
}
