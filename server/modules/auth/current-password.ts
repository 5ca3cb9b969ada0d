/**
 * The current password, asked again before a change of sign-in security (changing the password,
 * two-step settings, new recovery codes). Guessing it there is guessing it at sign-in, so it is
 * limited like sign-in (issue 11 finding 4): each attempt is counted per user in ONE statement
 * before the hash is checked, so parallel guesses each take a slot and at most
 * DEFAULT_SIGN_IN_LIMITS.perAccount of them are ever verified in a window; a right password gives
 * its slot back, so the owner's own changes do not use the allowance up.
 */
import { dummyPasswordHash, verifyPassword } from './crypto.ts';
import { DEFAULT_SIGN_IN_LIMITS } from './sign-in-throttle.ts';
import { overRateLimit, refundRateLimit } from '../recovery/recovery.service.ts';
import type { Db } from '../../db/types.ts';

export const CURRENT_PASSWORD_SCOPE = 'currentPassword';
const WINDOW_S = DEFAULT_SIGN_IN_LIMITS.windowMs / 1000;

/** The counter key of a user's current-password checks. */
export const currentPasswordKey = (userId: number) => `user:${userId}`;

export async function checkCurrentPassword(
  db: Db,
  user: { id: number; passwordHash: string },
  password: string,
  now: Date,
): Promise<'ok' | 'wrong' | 'limited'> {
  const key = currentPasswordKey(user.id);
  if (await overRateLimit(db, CURRENT_PASSWORD_SCOPE, [{ key, max: DEFAULT_SIGN_IN_LIMITS.perAccount }], WINDOW_S, now)) {
    // Verify anyway, so a limited account answers as slowly as an open one.
    await verifyPassword(await dummyPasswordHash(), password);
    return 'limited';
  }
  if (!(await verifyPassword(user.passwordHash, password))) return 'wrong';
  await refundRateLimit(db, CURRENT_PASSWORD_SCOPE, key, WINDOW_S, now);
  return 'ok';
}
