/**
 * Named methods of password recovery and password change (api/recovery.ts).
 *
 * Methods declared `mutation: false` that still change data (code checks, password changes) run
 * their own transactions here and write their own audit entry: a wrong code or password is counted
 * on the database directly, so the count survives the failure answer.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import {
  ACCOUNT_RECOVERY_MAX_ATTEMPTS,
  PASSWORD_CHANGE_CODE_TTL_S,
  PASSWORD_RESET_CODE_TTL_S,
  PASSWORD_RESET_MAX_REQUESTS,
  PasswordCodeErrors,
  SAME_PASSWORD_ERROR,
  type recoveryMethods,
} from '../../../api/recovery.ts';
import { activeVariant } from '../../../variants/index.ts';
import { enqueueMail } from '../../adapters/outbox.ts';
import type { Db, Tx } from '../../db/types.ts';
import { accountRecoveryTasks, oneTimeCodes } from '../auth/auth.tables.ts';
import { hashPassword, verifyPassword, dummyPasswordHash } from '../auth/crypto.ts';
import { DEFAULT_SIGN_IN_LIMITS } from '../auth/tokens.service.ts';
import { users } from '../customers/customers.tables.ts';
import { MethodFailure, type Caller, type HandlerTable, type MethodContext } from '../method-types.ts';
import { auditLog } from '../platform/platform.tables.ts';
import {
  checkCode,
  customerOfUser,
  findTask,
  findUserByEmail,
  issueCode,
  maskEmail,
  openRejectedTask,
  recentCodeCount,
  recentSignInFailures,
  recordSignInFailure,
  revokeFamilies,
  sameName,
  spendCode,
  taskView,
  type CodeCheck,
} from './recovery.service.ts';
import { VfCode, vf } from '../../../api/errors.ts';

const now = () => new Date();

const CodeMessages: Record<Exclude<CodeCheck, { ok: true }>['reason'], (typeof PasswordCodeErrors)[keyof typeof PasswordCodeErrors]> = {
  ...PasswordCodeErrors,
  // An unknown code or e-mail reads like a typo: no hint whether an account or request exists.
  unknown: PasswordCodeErrors.wrong,
};

function codeFailure(reason: Exclude<CodeCheck, { ok: true }>['reason'], param = 'code'): MethodFailure {
  return new MethodFailure('VF', 'Invalid request', [vf(param, CodeMessages[reason])]);
}

function requireCaller(ctx: MethodContext): Caller {
  if (!ctx.caller) throw new MethodFailure('AU', 'Sign-in required');
  return ctx.caller;
}

/** The audit entry of a method the endpoint treats as a read (see the module comment). */
async function audit(tx: Tx, method: string, userId: number | null, customerId: number | null, details: Record<string, unknown>) {
  await tx.insert(auditLog).values({ userId, customerId, method, details });
}

function projectName(): string {
  return activeVariant.projectName;
}

async function mailResetCode(tx: Db | Tx, to: string, code: string, reason: 'request' | 'recovery') {
  const intro =
    reason === 'request'
      ? 'Someone asked to reset the password of your account.'
      : 'Your identity was confirmed for account recovery: use this code to choose a new password.';
  await enqueueMail(tx, {
    to,
    subject: `${projectName()}: password reset code`,
    text: `${intro}\n\nYour code: ${code}\n\nIt works for ${PASSWORD_RESET_CODE_TTL_S / 60} minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.`,
  });
}

async function mailPasswordChanged(tx: Tx, to: string) {
  await enqueueMail(tx, {
    to,
    subject: `${projectName()}: your password was changed`,
    text: `The password of your account was changed. If this was not you, contact support at once.`,
  });
}

export const recoveryHandlers: HandlerTable<typeof recoveryMethods> = {
  async passwordChangeRequest(input, ctx) {
    const at = now();
    const taskId = randomUUID();
    const user = await findUserByEmail(ctx.db, input.email);
    // The same answer for unknown e-mails; the task row (without user) records the request.
    await ctx.db.insert(accountRecoveryTasks).values({
      taskId,
      userId: user?.id ?? null,
      email: input.email,
      recoveryEmail: input.email,
      // Always 'verified' (nothing to verify here): accountRecoveryStatus must not tell known from unknown.
      verificationStatus: 'verified',
      createdAt: at,
      updatedAt: at,
    });
    ctx.audit({ taskId, known: user !== null });
    if (user) {
      const since = new Date(at.getTime() - PASSWORD_RESET_CODE_TTL_S * 1000);
      // Beyond the cap nothing more is mailed; the answer stays the same (the last code still works).
      if ((await recentCodeCount(ctx.db, user.id, 'passwordReset', since)) < PASSWORD_RESET_MAX_REQUESTS) {
        const { code } = await issueCode(ctx.db, { userId: user.id, purpose: 'passwordReset', sentTo: user.email, ttlS: PASSWORD_RESET_CODE_TTL_S, now: at });
        await mailResetCode(ctx.db, user.email, code, 'request');
      }
    }
    return { taskId, recoveryEmail: maskEmail(input.email) };
  },

  async passwordCodeCheck(input, ctx) {
    const user = await findUserByEmail(ctx.db, input.email);
    if (!user) throw codeFailure('unknown');
    const check = await checkCode(ctx.db, { userId: user.id, purpose: 'passwordReset' }, input.code, now());
    if (!check.ok) throw codeFailure(check.reason);
    return {};
  },

  async passwordChangeWithCode(input, ctx) {
    const db: Db = ctx.db;
    const at = now();
    const user = await findUserByEmail(db, input.email);
    if (!user) throw codeFailure('unknown');
    const check = await checkCode(db, { userId: user.id, purpose: 'passwordReset' }, input.code, at);
    if (!check.ok) throw codeFailure(check.reason);
    const passwordHash = await hashPassword(input.password);
    await db.transaction(async (tx) => {
      if (!(await spendCode(tx, check.row.id, at))) throw codeFailure('unknown');
      await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
      // Whoever held the old password may hold a session too: every session ends.
      const ended = await revokeFamilies(tx, user.id, 'password reset', at);
      await mailPasswordChanged(tx, user.email);
      await audit(tx, 'passwordChangeWithCode', user.id, user.customerId, { sessionsEnded: ended });
    });
    return {};
  },

  async accountRecoveryRequest(input, ctx) {
    const at = now();
    const open = await openRejectedTask(ctx.db, input.email, at);
    if (open && open.attempts >= ACCOUNT_RECOVERY_MAX_ATTEMPTS) {
      // Out of attempts: nothing is compared, so guessing stops here.
      const [row] = await ctx.db
        .update(accountRecoveryTasks)
        .set({ rejectReason: 'tooManyAttempts', recoveryEmail: input.recoveryEmail })
        .where(eq(accountRecoveryTasks.taskId, open.taskId))
        .returning();
      ctx.audit({ taskId: open.taskId, verificationStatus: 'rejected', rejectReason: 'tooManyAttempts' });
      return taskView(row!);
    }
    const user = await findUserByEmail(ctx.db, input.email);
    // Each match mails a code to an address the caller chooses: capped like reset-code requests.
    if (user && (await recentCodeCount(ctx.db, user.id, 'passwordReset', new Date(at.getTime() - PASSWORD_RESET_CODE_TTL_S * 1000))) >= PASSWORD_RESET_MAX_REQUESTS) {
      const [row] = await ctx.db
        .insert(accountRecoveryTasks)
        .values({
          taskId: randomUUID(),
          userId: user.id,
          email: input.email,
          recoveryEmail: input.recoveryEmail,
          verificationStatus: 'rejected',
          rejectReason: 'tooManyAttempts',
          attempts: ACCOUNT_RECOVERY_MAX_ATTEMPTS,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      ctx.audit({ taskId: row!.taskId, verificationStatus: 'rejected', rejectReason: 'tooManyAttempts' });
      return taskView(row!);
    }
    const customer = user ? await customerOfUser(ctx.db, user.customerId) : null;
    const matches =
      customer !== null &&
      sameName(customer.firstName, input.firstName) &&
      sameName(customer.lastName, input.lastName) &&
      customer.birthDay === input.dob;
    const status = matches ? ('verified' as const) : ('rejected' as const);
    const rejectReason = matches ? null : 'personalDataMismatch';
    let row;
    if (open) {
      [row] = await ctx.db
        .update(accountRecoveryTasks)
        .set({ recoveryEmail: input.recoveryEmail, verificationStatus: status, rejectReason, attempts: open.attempts + 1, updatedAt: at })
        .where(eq(accountRecoveryTasks.taskId, open.taskId))
        .returning();
    } else {
      [row] = await ctx.db
        .insert(accountRecoveryTasks)
        .values({
          taskId: randomUUID(),
          userId: user?.id ?? null,
          email: input.email,
          recoveryEmail: input.recoveryEmail,
          verificationStatus: status,
          rejectReason,
          attempts: 1,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
    }
    if (matches && user) {
      const { code } = await issueCode(ctx.db, { userId: user.id, purpose: 'passwordReset', sentTo: input.recoveryEmail, ttlS: PASSWORD_RESET_CODE_TTL_S, now: at });
      await mailResetCode(ctx.db, input.recoveryEmail, code, 'recovery');
      // The old address learns of it: if the owner still reads it, a stranger's recovery is noticed.
      await enqueueMail(ctx.db, {
        to: user.email,
        subject: `${projectName()}: account recovery started`,
        text: `A recovery of your account was confirmed and a password reset code was sent to ${maskEmail(input.recoveryEmail)}. If this was not you, contact support at once.`,
      });
    }
    ctx.audit({ taskId: row!.taskId, verificationStatus: status, attempts: row!.attempts });
    return taskView(row!);
  },

  async accountRecoveryStatus(input, ctx) {
    const row = await findTask(ctx.db, input.taskId);
    if (!row) throw new MethodFailure('TA1', 'Unknown recovery task');
    return taskView(row);
  },

  async passwordChange(input, ctx) {
    const caller = requireCaller(ctx);
    const db: Db = ctx.db;
    const at = now();
    const [user] = await db
      .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, caller.userId))
      .limit(1);
    if (!user) throw new MethodFailure('AU', 'Sign-in required');
    const username = user.email.toLowerCase();
    const limits = DEFAULT_SIGN_IN_LIMITS;
    if ((await recentSignInFailures(db, username, new Date(at.getTime() - limits.windowMs))) >= limits.perAccount) {
      // Verify anyway so a locked account answers as slowly as an open one.
      await verifyPassword(await dummyPasswordHash(), input.currentPassword);
      throw new MethodFailure('13', 'Too many failed attempts; try again later');
    }
    if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
      await recordSignInFailure(db, username, ctx.ip, at);
      throw new MethodFailure('VF', 'Invalid request', [vf('currentPassword', VfCode.passwordWrong)]);
    }
    if (await verifyPassword(user.passwordHash, input.newPassword)) {
      throw new MethodFailure('VF', 'Invalid request', [vf('newPassword', SAME_PASSWORD_ERROR)]);
    }
    const passwordHash = await hashPassword(input.newPassword);
    const issued = await db.transaction(async (tx) => {
      const made = await issueCode(tx, {
        userId: user.id,
        purpose: 'passwordChange',
        sentTo: user.email,
        ttlS: PASSWORD_CHANGE_CODE_TTL_S,
        payload: { passwordHash },
        now: at,
      });
      await enqueueMail(tx, {
        to: user.email,
        subject: `${projectName()}: confirm your new password`,
        text: `Your code to confirm the password change: ${made.code}\n\nIt works for ${PASSWORD_CHANGE_CODE_TTL_S / 60} minutes. If you did not ask for it, change your password and contact support.`,
      });
      await audit(tx, 'passwordChange', user.id, caller.customerId, { requestKey: made.id });
      return made;
    });
    return { requestKey: issued.id, sentTo: maskEmail(user.email), expiresInS: PASSWORD_CHANGE_CODE_TTL_S };
  },

  async passwordChangeConfirm(input, ctx) {
    const caller = requireCaller(ctx);
    const db: Db = ctx.db;
    const at = now();
    // Another user's request key finds nothing: the same answer as an unknown one.
    const check = await checkCode(db, { userId: caller.userId, purpose: 'passwordChange', id: input.requestKey }, input.code, at);
    if (!check.ok) throw check.reason === 'unknown' ? codeFailure('unknown', 'requestKey') : codeFailure(check.reason);
    const passwordHash = check.row.payload['passwordHash'];
    if (typeof passwordHash !== 'string') throw new Error('password change request without a hash');
    await db.transaction(async (tx) => {
      if (!(await spendCode(tx, check.row.id, at))) throw codeFailure('unknown', 'requestKey');
      await tx.update(users).set({ passwordHash }).where(eq(users.id, caller.userId));
      const ended = await revokeFamilies(tx, caller.userId, 'password changed', at, caller.familyId);
      const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, caller.userId));
      if (user) await mailPasswordChanged(tx, user.email);
      await audit(tx, 'passwordChangeConfirm', caller.userId, caller.customerId, { requestKey: input.requestKey, sessionsEnded: ended });
    });
    ctx.publish(caller.customerId, { type: 'PasswordChange', status: 'changed' });
    return {};
  },

  async passwordChangeCancel(input, ctx) {
    const caller = requireCaller(ctx);
    const canceled = await ctx.db
      .update(oneTimeCodes)
      .set({ usedAt: now() })
      .where(
        and(
          eq(oneTimeCodes.id, input.requestKey),
          eq(oneTimeCodes.userId, caller.userId),
          eq(oneTimeCodes.purpose, 'passwordChange'),
          isNull(oneTimeCodes.usedAt),
        ),
      )
      .returning({ id: oneTimeCodes.id });
    if (canceled.length === 0) throw new MethodFailure('VF', 'Invalid request', [vf('requestKey', VfCode.notPendingChange)]);
    ctx.audit({ requestKey: input.requestKey });
    ctx.publish(caller.customerId, { type: 'PasswordChange', status: 'canceled' });
    return {};
  },
};
