/**
 * The session restriction an access token carries (api/auth.ts AccessClaims.rst). Read only to
 * explain the screen: the platform enforces it. The signature is not checked here (the client
 * never can); a token that does not parse counts as unrestricted.
 */
const MAX_TOKEN_LENGTH = 8192;

export function readRestriction(accessToken: string | null): 'setup2fa' | 'scp' | null {
  if (!accessToken || accessToken.length > MAX_TOKEN_LENGTH) return null;
  const payload = accessToken.split('.')[1];
  if (!payload || !/^[A-Za-z0-9_-]+$/.test(payload)) return null;
  try {
    const padded = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const claims: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(padded), (c) => c.charCodeAt(0))));
    const rst = typeof claims === 'object' && claims !== null ? (claims as { rst?: unknown }).rst : undefined;
    return rst === 'setup2fa' || rst === 'scp' ? rst : null;
  } catch {
    return null;
  }
}
