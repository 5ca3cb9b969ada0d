/**
 * The platform accepts a TOTP step once per user (a replayed code is refused) and one step of clock
 * drift either way (server/modules/auth/totp.ts). A journey that signs one user in twice within a
 * 30-second step enters the next step's code, as an authenticator whose clock runs a little ahead
 * shows it, instead of waiting for that step to begin.
 */
import { totp } from './totp.ts';

const STEP_MS = 30_000;

export function totpStep(atMs = Date.now()): number {
  return Math.floor(atMs / STEP_MS);
}

/** The code of the first step after `usedStep` that the platform takes now: the current one, or the next. */
export function totpAfterStep(secretBase32: string, usedStep: number, nowMs = Date.now()): string {
  return totp(secretBase32, Math.max(totpStep(nowMs), usedStep + 1) * STEP_MS);
}
