import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PKCE_PATTERN } from '../../api/auth.ts';
import { createPkcePair, PKCE_ALPHABET, randomVerifier, s256Challenge } from '../../src/lib/pkce.ts';

describe('PKCE', () => {
  it('makes a 128-character verifier of unreserved characters', async () => {
    const { verifier, challenge } = await createPkcePair();
    expect(verifier).toHaveLength(128);
    expect(verifier).toMatch(PKCE_PATTERN);
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('computes the S256 challenge as base64url(sha256(verifier))', async () => {
    const verifier = randomVerifier();
    const expected = createHash('sha256').update(verifier).digest('base64url');
    expect(await s256Challenge(verifier)).toBe(expected);
  });

  it('draws every character of the alphabet and only those', () => {
    const seen = new Set(randomVerifier(20_000));
    expect([...seen].sort().join('')).toBe([...PKCE_ALPHABET].sort().join(''));
  });

  it('gives a different verifier each time', () => {
    expect(randomVerifier()).not.toBe(randomVerifier());
  });
});
