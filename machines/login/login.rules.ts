/** Field rules of sign-in (document 1 §5), shared by the machine's guards and the unit tests. */
import * as v from 'valibot';
import { RECOVERY_CODE_PATTERN } from '../../api/auth.ts';

/** Longest e-mail address (RFC 5321 path limit). */
export const MAX_USERNAME_LENGTH = 254;
/** Matches the contract's password limit. */
export const MAX_PASSWORD_LENGTH = 256;

const EmailSchema = v.pipe(v.string(), v.trim(), v.maxLength(MAX_USERNAME_LENGTH), v.email());

/** Document 1 §5: names and login are trimmed and whitespace is collapsed. */
export function normaliseUsername(raw: string): string {
  return raw.trim().replace(/\s+/g, ' ');
}

export function isEmailUsername(raw: string): boolean {
  return v.is(EmailSchema, normaliseUsername(raw));
}

export function isAcceptablePassword(raw: string): boolean {
  return raw.length > 0 && raw.length <= MAX_PASSWORD_LENGTH;
}

/** The one-time code of the otp and sms steps: exactly six digits. */
export function isSixDigitCode(raw: string): boolean {
  return /^\d{6}$/.test(raw);
}

/**
 * A recovery code as the user types it: case, spaces and a missing dash do not matter
 * (api/auth.ts RECOVERY_CODE_PATTERN; the platform normalises the same way).
 */
export function normaliseRecoveryCode(raw: string): string {
  return raw.replace(/\s+/g, '').toUpperCase().slice(0, MAX_RECOVERY_CODE_INPUT_LENGTH);
}

/** Longer than any spelling of a recovery code: the field refuses more. */
export const MAX_RECOVERY_CODE_INPUT_LENGTH = 16;

export function isRecoveryCode(raw: string): boolean {
  return raw.replace(/\s+/g, '').length <= MAX_RECOVERY_CODE_INPUT_LENGTH && RECOVERY_CODE_PATTERN.test(normaliseRecoveryCode(raw));
}
