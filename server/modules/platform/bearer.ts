/**
 * The one bearer-token parser (RFC 6750 §2.1) used by every entry point that takes a token: the
 * named-method endpoint, the REST routes (token service, devices, security, downloads) and the
 * push socket. One grammar everywhere, so a token one path accepts is never refused by another,
 * and a malformed header is never half-read by a third.
 */
import type { FastifyRequest } from 'fastify';

/** token68: letters, digits and - . _ ~ + /, then optional = padding (JWTs and device tokens fit). */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
/** The longest token read: access, refresh and device tokens are far shorter. */
const MAX_TOKEN_CHARS = 4096;

/** A token value itself (the push socket's `{ token }`): token68, or null. */
export function tokenValue(value: unknown): string | null {
  return typeof value === 'string' && value.length <= MAX_TOKEN_CHARS && TOKEN68.test(value) ? value : null;
}

/**
 * The token of an Authorization header: the scheme `Bearer` in any case, exactly one space, one
 * token68. Anything else (no header, several headers, another scheme, extra spaces or words) is no
 * token, and the caller answers as for a request without one.
 */
export function parseBearer(header: unknown): string | null {
  if (typeof header !== 'string' || header.length < 7 || header[6] !== ' ') return null;
  if (header.slice(0, 6).toLowerCase() !== 'bearer') return null;
  return tokenValue(header.slice(7));
}

/** The bearer token of a request (its Authorization header), or null. */
export function bearerToken(request: Pick<FastifyRequest, 'headers'>): string | null {
  return parseBearer(request.headers.authorization);
}
