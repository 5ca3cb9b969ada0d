/**
 * Profile rules shared by the named methods and the REST routes: VF failures, the one-time codes
 * confirming a phone, an e-mail or a username change (sha256 kept, PROFILE_CODE_TTL_S, at most
 * PROFILE_CODE_MAX_ATTEMPTS answers, a phone's optionally bound to a PKCE challenge), and the
 * username change applied once the identity is validated.
 */
import { and, count, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import {
  PROFILE_CODE_DIGITS,
  PROFILE_CODE_MAX_ATTEMPTS,
  PROFILE_CODE_RESEND_S,
  PROFILE_CODE_TTL_S,
  PROFILE_CODE_WINDOW_S,
  PROFILE_CODES_PER_WINDOW,
} from '../../../api/profile.ts';
import type { Tx } from '../../db/types.ts';
import { pkceChallenge, randomDigits, sha256Hex, timingSafeEqualText } from '../auth/crypto.ts';
import { users } from '../customers/customers.tables.ts';
import { MethodFailure } from '../method-types.ts';
import { KeptFailure } from '../platform/method-endpoint.ts';
import { profileCodes, usernameChangeLogs, usernameChangeRequests } from './profile.tables.ts';
import { VfCode, vf, type CodedValidationError } from '../../../api/errors.ts';
import { notify, type PublishAfterCommit } from '../notifications/notify.ts';
type CodeMessage = 'codeWrong' | 'codeExpired' | 'codeNotSent' | 'codeTooManyWrong' | 'verifierMismatch';

/** A VF answer listing every bad field; nothing is written. */
export class ValidationFailure extends MethodFailure {
  constructor(errors: CodedValidationError[]) {
    super('VF', 'Invalid request', errors);
  }
}

export const CodeMessages = {
  wrong: VfCode.codeWrong,
  expired: VfCode.codeExpired,
  none: VfCode.codeNotSent,
  tooMany: VfCode.codeTooManyWrong,
  verifier: VfCode.verifierMismatch,
  tooSoon: `A code was just sent; ask for a new one ${PROFILE_CODE_RESEND_S} seconds after the last`,
  tooManyRequests: `At most ${PROFILE_CODES_PER_WINDOW} codes an hour were sent; try again later`,
} as const;

type Purpose = 'phone' | 'email' | 'username';

/**
 * Creates a code for a target (a new one replaces the previous: only the latest works); answers
 * TA1 when the previous was sent less than PROFILE_CODE_RESEND_S ago, or when the customer was
 * sent PROFILE_CODES_PER_WINDOW codes of that purpose in the last PROFILE_CODE_WINDOW_S. Returns the code to send:
 * the caller puts it in the outbox in the same transaction and never logs it.
 */
export async function issueCode(tx: Tx, input: { customerId: number; purpose: Purpose; targetId: number; codeChallenge?: string; nowMs: number }): Promise<string> {
  const [last] = await tx
    .select({ createdAt: profileCodes.createdAt })
    .from(profileCodes)
    .where(and(eq(profileCodes.purpose, input.purpose), eq(profileCodes.targetId, input.targetId), isNull(profileCodes.usedAt)))
    .orderBy(desc(profileCodes.createdAt), desc(profileCodes.id))
    .limit(1);
  if (last && input.nowMs - last.createdAt.getTime() < PROFILE_CODE_RESEND_S * 1000) throw new MethodFailure('TA1', CodeMessages.tooSoon);
  // A few an hour per customer and purpose, whatever the target: new phones or addresses added to
  // get fresh codes (SMS and mail cost money and annoy the holder of a number) gain nothing.
  const [recent] = await tx
    .select({ n: count() })
    .from(profileCodes)
    .where(
      and(
        eq(profileCodes.customerId, input.customerId),
        eq(profileCodes.purpose, input.purpose),
        gt(profileCodes.createdAt, new Date(input.nowMs - PROFILE_CODE_WINDOW_S * 1000)),
      ),
    );
  if ((recent?.n ?? 0) >= PROFILE_CODES_PER_WINDOW) throw new MethodFailure('TA1', CodeMessages.tooManyRequests);
  // The previous codes of the target stop working.
  await tx
    .update(profileCodes)
    .set({ usedAt: new Date(input.nowMs) })
    .where(and(eq(profileCodes.purpose, input.purpose), eq(profileCodes.targetId, input.targetId), isNull(profileCodes.usedAt)));
  const code = randomDigits(PROFILE_CODE_DIGITS);
  await tx.insert(profileCodes).values({
    customerId: input.customerId,
    purpose: input.purpose,
    targetId: input.targetId,
    codeHash: sha256Hex(code),
    codeChallenge: input.codeChallenge ?? null,
    expiresAt: new Date(input.nowMs + PROFILE_CODE_TTL_S * 1000),
    createdAt: new Date(input.nowMs),
  });
  return code;
}

/**
 * Checks the answer to the latest code of a target; marks it used when right. A wrong answer is
 * counted and kept (KeptFailure: the count commits) so a code cannot be guessed; the last allowed
 * wrong answer ends the code. `param` names the field of the answer in VF errors.
 */
export async function useCode(
  tx: Tx,
  input: { purpose: Purpose; targetId: number; code: string; codeVerifier?: string | undefined; nowMs: number; param: string },
): Promise<void> {
  const [row] = await tx
    .select()
    .from(profileCodes)
    .where(and(eq(profileCodes.purpose, input.purpose), eq(profileCodes.targetId, input.targetId), isNull(profileCodes.usedAt)))
    .orderBy(desc(profileCodes.createdAt), desc(profileCodes.id))
    .limit(1)
    .for('update');
  const bad = (code: CodeMessage, param = input.param) => [vf(param, code)];
  if (!row) throw new MethodFailure('VF', 'Invalid code', bad(CodeMessages.none));
  if (row.expiresAt.getTime() <= input.nowMs) throw new MethodFailure('VF', 'Invalid code', bad(CodeMessages.expired));
  if (row.codeChallenge !== null) {
    // Bound to the PKCE challenge of the REST verify call: only the holder of the verifier may answer.
    if (!input.codeVerifier || !timingSafeEqualText(pkceChallenge(input.codeVerifier), row.codeChallenge)) {
      await countWrong(tx, row.id, row.attempts, input.nowMs);
      throw new KeptFailure('VF', 'Invalid code', bad(CodeMessages.verifier, 'verification.codeVerifier'));
    }
  }
  if (!timingSafeEqualText(sha256Hex(input.code), row.codeHash)) {
    const ended = await countWrong(tx, row.id, row.attempts, input.nowMs);
    throw new KeptFailure('VF', 'Invalid code', bad(ended ? CodeMessages.tooMany : CodeMessages.wrong));
  }
  await tx.update(profileCodes).set({ usedAt: new Date(input.nowMs) }).where(eq(profileCodes.id, row.id));
}

async function countWrong(tx: Tx, id: number, attempts: number, nowMs: number): Promise<boolean> {
  const ended = attempts + 1 >= PROFILE_CODE_MAX_ATTEMPTS;
  await tx
    .update(profileCodes)
    .set({ attempts: attempts + 1, ...(ended ? { usedAt: new Date(nowMs) } : {}) })
    .where(eq(profileCodes.id, id));
  return ended;
}

export async function logUsernameEvent(tx: Tx, requestId: number, event: string, nowMs: number): Promise<void> {
  await tx.insert(usernameChangeLogs).values({ requestId, event, at: new Date(nowMs) });
}

/** Is a login taken by another user? */
export async function loginTaken(tx: Tx, email: string, exceptUserId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), ne(users.id, exceptUserId)))
    .limit(1);
  return !!row;
}

/**
 * Applies the username changes of a customer's users that wait for a validated identity (status
 * pending): the login becomes the desired address, or the request fails when another user took it.
 */
export async function applyPendingUsernameChanges(tx: Tx, customerId: number, nowMs: number, publish: PublishAfterCommit = () => {}): Promise<void> {
  const pending = await tx
    .select()
    .from(usernameChangeRequests)
    .where(and(eq(usernameChangeRequests.customerId, customerId), eq(usernameChangeRequests.status, 'pending')))
    .for('update');
  for (const r of pending) await completeUsernameChange(tx, r, nowMs, publish);
}

/** publish: the push of the failure's notification after the commit (without one it is only kept for the centre and the bell) */
export async function completeUsernameChange(tx: Tx, r: typeof usernameChangeRequests.$inferSelect, nowMs: number, publish: PublishAfterCommit = () => {}): Promise<boolean> {
  const at = new Date(nowMs);
  if (await loginTaken(tx, r.desiredUsername, r.userId)) {
    await tx.update(usernameChangeRequests).set({ status: 'failed', updatedAt: at }).where(eq(usernameChangeRequests.id, r.id));
    await logUsernameEvent(tx, r.id, 'failed', nowMs);
    // document 3 §2: a username problem is a notification leading to the profile
    await notify(tx, publish, { customerId: r.customerId, userId: r.userId, type: 'usernameChangeFailed', target: { kind: 'profile' }, nowMs });
    return false;
  }
  await tx.update(users).set({ email: sql`lower(${r.desiredUsername})` }).where(eq(users.id, r.userId));
  await tx.update(usernameChangeRequests).set({ status: 'completed', updatedAt: at }).where(eq(usernameChangeRequests.id, r.id));
  await logUsernameEvent(tx, r.id, 'completed', nowMs);
  return true;
}
