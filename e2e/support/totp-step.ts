/**
 * The platform accepts a TOTP step once per user (a replayed code is refused), so a journey that
 * signs one user in twice with an authenticator must wait until the 30-second step has moved on.
 * The wait polls the clock (no fixed sleep): it ends as soon as the next step begins.
 */
import { expect } from '@playwright/test';

const STEP_MS = 30_000;

export function totpStep(atMs = Date.now()): number {
  return Math.floor(atMs / STEP_MS);
}

export async function waitForTotpStepAfter(usedStep: number): Promise<void> {
  await expect
    .poll(() => totpStep(), { timeout: STEP_MS + 5_000, intervals: [250], message: `the TOTP step after ${usedStep}` })
    .toBeGreaterThan(usedStep);
}
