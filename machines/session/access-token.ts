/**
 * Reads the access token's `exp` claim (document 1 §3: "token expiry comes from the token's
 * expiry claim"). The client never verifies the signature: the platform does that on every call;
 * the client only needs to know when to refresh.
 */

/** A JWT is three base64url parts; a longer string is not one of ours (limit on everything). */
const MAX_TOKEN_LENGTH = 8192;

function decodeBase64Url(part: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) return null;
  const padded = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=');
  try {
    const binary = atob(padded);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return null;
  }
}

/** The expiry instant in epoch milliseconds, or null when the token is not a readable JWT. */
export function readAccessExpiryMs(accessToken: string): number | null {
  if (accessToken.length > MAX_TOKEN_LENGTH) return null;
  const parts = accessToken.split('.');
  if (parts.length !== 3 || parts[1] === undefined) return null;
  const json = decodeBase64Url(parts[1]);
  if (json === null) return null;
  try {
    const claims: unknown = JSON.parse(json);
    if (typeof claims !== 'object' || claims === null) return null;
    const exp = (claims as { exp?: unknown }).exp;
    if (typeof exp !== 'number' || !Number.isFinite(exp) || exp <= 0) return null;
    return exp * 1000;
  } catch {
    return null;
  }
}

/** Refresh when this much life or less remains (document 1 §9). */
export const REFRESH_MARGIN_MS = 10_000;

/** How long to wait before refreshing: never negative, so an old token refreshes at once. */
export function refreshDelayMs(expiresAtMs: number, nowMs: number): number {
  return Math.max(0, expiresAtMs - REFRESH_MARGIN_MS - nowMs);
}
