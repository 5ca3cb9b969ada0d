/**
 * PKCE pair for the sign-in code flow (document 1 §5, RFC 7636): a 128-character verifier of
 * unreserved characters and its S256 challenge, both from Web Crypto.
 */
import { PKCE_VERIFIER_LENGTH } from '../../api/auth.ts';

/** RFC 7636 unreserved characters: letters, digits and - . _ ~ (66 of them). */
export const PKCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';

/**
 * Draw `length` characters uniformly: bytes of 198 or more are rejected, because 256 is not a
 * multiple of 66 and a plain modulo would favour the first characters.
 */
export function randomVerifier(length = PKCE_VERIFIER_LENGTH): string {
  const limit = 256 - (256 % PKCE_ALPHABET.length);
  let out = '';
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < limit) out += PKCE_ALPHABET[b % PKCE_ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** S256: base64url(SHA-256(ASCII verifier)), 43 characters. */
export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

export async function createPkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = randomVerifier();
  return { verifier, challenge: await s256Challenge(verifier) };
}
