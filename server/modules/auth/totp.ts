/**
 * RFC 6238 time-based one-time passwords: HMAC-SHA-1, 6 digits, 30-second steps (the parameters
 * every authenticator app uses by default), computed by the `otpauth` package rather than by
 * hand-written base32 and HOTP code. tests/unit/totp.test.ts keeps the RFC's vectors.
 */
import { HOTP, Secret, TOTP } from 'otpauth';

export const TOTP_STEP_S = 30;
export const TOTP_DIGITS = 6;
/** Accept the previous and the next step too: at most one step of clock drift. */
export const TOTP_DRIFT_STEPS = 1;
const ALGORITHM = 'SHA1';

/** Base32 (RFC 4648, no padding) of some bytes. */
export function base32Encode(bytes: Uint8Array): string {
  return new Secret({ buffer: Uint8Array.from(bytes).buffer }).base32;
}

/** A new 160-bit secret in base32 (RFC 4226 recommends 160 bits). */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpStepAt(timeMs: number): number {
  return TOTP.counter({ period: TOTP_STEP_S, timestamp: timeMs });
}

/** The code of one step (an HOTP counter, RFC 4226) of a base32 secret. */
export function totpOfStep(secretBase32: string, step: number): string {
  return HOTP.generate({ secret: Secret.fromBase32(secretBase32), algorithm: ALGORITHM, digits: TOTP_DIGITS, counter: step });
}

export function totpAt(secretBase32: string, timeMs: number): string {
  return totpOfStep(secretBase32, totpStepAt(timeMs));
}

/**
 * The step the code matches within the allowed drift, or null. The caller must still record the
 * step so that it is never accepted twice.
 */
export function matchTotpStep(secretBase32: string, code: string, timeMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secretBase32),
    algorithm: ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_STEP_S,
    timestamp: timeMs,
    window: TOTP_DRIFT_STEPS,
  });
  return delta === null ? null : totpStepAt(timeMs) + delta;
}
