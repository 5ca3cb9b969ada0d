/** Hashing and random values of the token service. */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** Algorithm.Argon2id: the enum is a const enum tsc cannot inline under isolatedModules. */
const ARGON2ID = 2 as Algorithm;

/** OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane. */
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A real argon2id hash of a random password, computed once: verifying against it for unknown
 * users costs the same time as for known ones, so timing does not tell which e-mails exist.
 */
let dummyHash: Promise<string> | null = null;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(32).toString('base64url'));
  return dummyHash;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** PKCE S256 (RFC 7636 §4.2): base64url(sha256(ascii(verifier))) without padding. */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** 256 random bits, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** n random decimal digits (crypto random, uniform), e.g. an SMS code or its identifier. */
export function randomDigits(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += String(randomInt(0, 10));
  return out;
}

/** Equality of two strings in time independent of where they differ (hashes, challenges). */
export function timingSafeEqualText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Letters and digits of a recovery code (api/auth.ts RECOVERY_CODE_PATTERN). */
const RECOVERY_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A recovery code as shown once to the user: 10 random characters in two groups, e.g. 7KQ4M-2XH9P. */
export function newRecoveryCode(): string {
  let raw = '';
  for (let i = 0; i < 10; i++) raw += RECOVERY_ALPHABET[randomInt(0, RECOVERY_ALPHABET.length)];
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/**
 * The stored form of a recovery code: sha256 of the code in upper case without the dash, so
 * "7kq4m2xh9p" and "7KQ4M-2XH9P" match. 52 bits of randomness spent once and capped by the
 * sign-in limits: sha256 is enough (argon2 is for secrets people choose).
 */
export function recoveryCodeHash(code: string): string {
  return sha256Hex(code.trim().toUpperCase().replace(/-/g, ''));
}
