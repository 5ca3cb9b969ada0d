/**
 * RFC 6238 time-based one-time passwords: HMAC-SHA-1, 6 digits, 30-second steps
 * (the parameters every authenticator app uses by default).
 */
import { createHmac, randomBytes } from 'node:crypto';

export const TOTP_STEP_S = 30;
export const TOTP_DIGITS = 6;
/** Accept the previous and the next step too: at most one step of clock drift. */
export const TOTP_DRIFT_STEPS = 1;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Decode(input: string): Buffer {
  const clean = input.replace(/=+$/, '').replace(/\s+/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32_ALPHABET.indexOf(char);
    if (index < 0) throw new Error('invalid base32 character');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** A new 160-bit secret (RFC 4226 recommends 160 bits). */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

export function totpStepAt(timeMs: number): number {
  return Math.floor(timeMs / 1000 / TOTP_STEP_S);
}

/** RFC 4226 HOTP value for a counter (the TOTP step). */
export function hotp(secret: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', secret).update(message).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = (digest.readUInt32BE(offset) & 0x7fffffff) % 10 ** TOTP_DIGITS;
  return binary.toString().padStart(TOTP_DIGITS, '0');
}

export function totpAt(secretBase32: string, timeMs: number): string {
  return hotp(base32Decode(secretBase32), totpStepAt(timeMs));
}

/**
 * The step the code matches within the allowed drift, or null. The caller must still record the
 * step so that it is never accepted twice.
 */
export function matchTotpStep(secretBase32: string, code: string, timeMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const secret = base32Decode(secretBase32);
  const now = totpStepAt(timeMs);
  for (let delta = -TOTP_DRIFT_STEPS; delta <= TOTP_DRIFT_STEPS; delta++) {
    const step = now + delta;
    if (timingSafeEqualString(hotp(secret, step), code)) return step;
  }
  return null;
}

function timingSafeEqualString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
