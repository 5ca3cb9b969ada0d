/**
 * Named methods of password recovery and password change (api/recovery.ts).
 *
 * Methods declared `mutation: false` that still change data (code checks, password changes) run
 * their own transactions here and write their own audit entry: a wrong code or password is counted
 * on the database directly, so the count survives the failure answer.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  ACCOUNT_RECOVERY_CALL_WINDOW_S,
  ACCOUNT_RECOVERY_CANCEL_WINDOW_S,
  ACCOUNT_RECOVERY_CANCELS_PER_ADDRESS,
  ACCOUNT_RECOVERY_MAX_ATTEMPTS,
  ACCOUNT_RECOVERY_MAX_PER_ADDRESS,
  ACCOUNT_RECOVERY_STATUS_PER_ADDRESS,
  ACCOUNT_RECOVERY_UPLOADS_PER_ADDRESS,
  ACCOUNT_RECOVERY_WINDOW_S,
  PASSWORD_CHANGE_CODE_TTL_S,
  PASSWORD_RESET_MAX_PER_ADDRESS,
  RECOVERY_CANCEL_PATH,
  RECOVERY_RATE_LIMITED,
  RecoveryCancelErrors,
  RecoveryFileField,
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
import { hashPassword, sha256Hex, timingSafeEqualText, verifyPassword } from '../auth/crypto.ts';
import { users } from '../customers/customers.tables.ts';
import { MethodFailure, type Caller, type HandlerTable, type MethodContext } from '../method-types.ts';
import { auditLog } from '../platform/platform.tables.ts';
import { KeptFailure } from '../platform/method-endpoint.ts';
import { checkCurrentPassword } from '../auth/current-password.ts';
import { checkFile } from '../profile/documents.service.ts';
import {
  accountKey,
  addressKey,
  checkCode,
  currentEmailsOf,
  findTask,
  findUserByEmail,
  issueCode,
  maskEmail,
  newPasswordCode,
  overRateLimit,
  pruneRateLimits,
  recentCodeCount,
  revokeFamilies,
  spendCode,
  taskView,
  type CodeCheck,
  type RateLimitKey,
} from './recovery.service.ts';
import { VfCode, vf, type CodedValidationError } from '../../../api/errors.ts';
import { accountRecoveryFiles } from './recovery.tables.ts';

export interface RecoveryHandlerOptions {
  now: () => number;
  /** the web app's origin, for the cancel link in the notice to the account's e-mails */
  publicUrl: string;
}

export const DEFAULT_RECOVERY_OPTIONS: RecoveryHandlerOptions = { now: Date.now, publicUrl: 'http://127.0.0.1:3000' };


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

/** A reset code to the login e-mail (an approved recovery's code is mailed by recovery.admin.ts). */
async function mailResetCode(tx: Db | Tx, to: string, code: string) {
  await enqueueMail(tx, {
    to,
    subject: `${projectName()}: password reset code`,
    text: `Someone asked to reset the password of your account.\n\nYour code: ${code}\n\nIt works for ${PASSWORD_RESET_CODE_TTL_S / 60} minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.`,
  });
}

async function mailPasswordChanged(tx: Tx, to: string) {
  await enqueueMail(tx, {
    to,
    subject: `${projectName()}: your password was changed`,
    text: `The password of your account was changed. If this was not you, contact support at once.`,
  });
}

/** A limit reached: the count is kept (KeptFailure), nothing else was done. */
function rateLimited(): KeptFailure {
  return new KeptFailure('13', RECOVERY_RATE_LIMITED);
}

/** Now and then, drop counters of windows no limit reads any more. */
const PRUNE_PROBABILITY = 0.01;

async function limit(ctx: MethodContext, scope: string, keys: RateLimitKey[], windowS: number, at: Date): Promise<void> {
  if (await overRateLimit(ctx.db, scope, keys, windowS, at)) throw rateLimited();
  if (Math.random() < PRUNE_PROBABILITY) await pruneRateLimits(ctx.db, new Date(at.getTime() - 2 * ACCOUNT_RECOVERY_WINDOW_S * 1000));
}

export function createRecoveryHandlers(options: RecoveryHandlerOptions): HandlerTable<typeof recoveryMethods> {
  const now = () => new Date(options.now());
  const cancelLink = (taskId: string, code: string) => `${options.publicUrl}${RECOVERY_CANCEL_PATH}?taskId=${taskId}&code=${code}`;
  return {
  async passwordChangeRequest(input, ctx) {
    const at = now();
    // Counted per e-mail (hashed) and per address before anything else; known or not alike.
    await limit(
      ctx,
      'passwordChangeRequest',
      [{ key: addressKey(ctx.ip), max: PASSWORD_RESET_MAX_PER_ADDRESS }],
      ACCOUNT_RECOVERY_CALL_WINDOW_S,
      at,
    );
    // The reset goes by e-mail and code alone: no task is kept, so the task id is a reference in
    // the answer only (accountRecoveryStatus knows none, whichever the address). An unknown e-mail
    // writes nothing (issue 11 finding 9) and is answered exactly like a registered one.
    const taskId = randomUUID();
    const user = await findUserByEmail(ctx.db, input.email);
    if (user) {
      await ctx.db.transaction(async (tx) => {
        const since = new Date(at.getTime() - PASSWORD_RESET_CODE_TTL_S * 1000);
        // Beyond the cap nothing more is mailed; the answer stays the same (the last code still works).
        const mailed = (await recentCodeCount(tx, user.id, 'passwordReset', since)) < PASSWORD_RESET_MAX_REQUESTS;
        if (mailed) {
          const { code } = await issueCode(tx, { userId: user.id, purpose: 'passwordReset', sentTo: user.email, ttlS: PASSWORD_RESET_CODE_TTL_S, now: at });
          await mailResetCode(tx, user.email, code);
        }
        await audit(tx, 'passwordChangeRequest', user.id, user.customerId, { taskId, mailed });
      });
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
      // A code an approved recovery mailed: the task is complete (its cancel window closes).
      const recoveryTaskId = check.row.payload['recoveryTaskId'];
      if (typeof recoveryTaskId === 'string') {
        await tx.update(accountRecoveryTasks).set({ completedAt: at, updatedAt: at }).where(eq(accountRecoveryTasks.taskId, recoveryTaskId));
      }
      // Whoever held the old password may hold a session too: every session ends.
      const ended = await revokeFamilies(tx, user.id, 'password reset', at);
      await mailPasswordChanged(tx, user.email);
      await audit(tx, 'passwordChangeWithCode', user.id, user.customerId, { sessionsEnded: ended });
    });
    return {};
  },

  async accountRecoveryRequest(input, ctx) {
    const at = now();
    // Counted first, per login e-mail (hashed: an unknown one is counted alike) and per address.
    await limit(
      ctx,
      'accountRecoveryRequest',
      [
        { key: accountKey(input.email), max: ACCOUNT_RECOVERY_MAX_ATTEMPTS },
        { key: addressKey(ctx.ip), max: ACCOUNT_RECOVERY_MAX_PER_ADDRESS },
      ],
      ACCOUNT_RECOVERY_WINDOW_S,
      at,
    );
    const user = await findUserByEmail(ctx.db, input.email);
    const taskId = randomUUID();
    const cancelCode = newPasswordCode();
    // Nothing is compared or decided here: personal data alone proves nothing (anyone may know a
    // name and a birthday). The task waits for documents and an administrator. A task is written
    // for an unknown e-mail too, so its status, uploads and decision answer exactly alike.
    const [row] = await ctx.db
      .insert(accountRecoveryTasks)
      .values({
        taskId,
        userId: user?.id ?? null,
        email: input.email,
        recoveryEmail: input.recoveryEmail,
        verificationStatus: 'pending',
        firstName: input.firstName,
        lastName: input.lastName,
        dob: input.dob,
        cancelCodeHash: sha256Hex(cancelCode),
        cancelUntil: new Date(at.getTime() + ACCOUNT_RECOVERY_CANCEL_WINDOW_S * 1000),
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (user) {
      // Every address the owner may still read learns of it at once, with the way to stop it.
      // A bank would phone the customer as well; the mail is what this platform can do alone.
      const until = new Date(at.getTime() + ACCOUNT_RECOVERY_CANCEL_WINDOW_S * 1000).toISOString().replace('T', ' ').slice(0, 16);
      for (const to of await currentEmailsOf(ctx.db, user.id)) {
        await enqueueMail(ctx.db, {
          to,
          subject: `${projectName()}: someone asked to recover your account`,
          text:
            `Someone said they lost access to this e-mail address and asked to recover your account with personal data. ` +
            `They gave a new address for the reset code: ${maskEmail(input.recoveryEmail)}.\n\n` +
            `Nothing changes until our staff has checked their identity document and selfie.\n\n` +
            `If this was not you, cancel the request: ${cancelLink(taskId, cancelCode)}\n` +
            `Your cancel code: ${cancelCode}\n\n` +
            `You can cancel until ${until} UTC (24 hours). Consider changing your password.`,
        });
      }
    }
    // The audit entry says whether an account matched (for the staff), never the codes.
    ctx.audit({ taskId, known: user !== null });
    return taskView(row!);
  },

  async accountRecoveryDocuments(input, ctx) {
    const at = now();
    // Per address only: a per-task limit would let a stranger use up the owner's uploads.
    await limit(ctx, 'accountRecoveryDocuments', [{ key: addressKey(ctx.ip), max: ACCOUNT_RECOVERY_UPLOADS_PER_ADDRESS }], ACCOUNT_RECOVERY_CALL_WINDOW_S, at);
    const task = await findTask(ctx.db, input.taskId, true);
    if (!task || task.firstName === null) throw new KeptFailure('TA1', 'Unknown recovery task', [vf('taskId', VfCode.notRecoveryTask)]);
    if (task.verificationStatus !== 'pending' || task.documentsAt !== null) {
      throw new KeptFailure('TA1', 'The task takes no documents', [vf('taskId', VfCode.notWaitingForDocuments)]);
    }
    // The same checks as a customer's document upload (type by content, size, once per field).
    const errors: CodedValidationError[] = [];
    const fileOf = (field: string) => {
      const matching = ctx.files.filter((f) => f.fieldName === field);
      if (matching.length > 1) errors.push(vf(field, VfCode.fileDuplicate));
      return matching[0];
    };
    const document = checkFile(fileOf(RecoveryFileField.document), RecoveryFileField.document, errors);
    const selfie = checkFile(fileOf(RecoveryFileField.selfie), RecoveryFileField.selfie, errors);
    for (const f of ctx.files) {
      if (f.fieldName !== RecoveryFileField.document && f.fieldName !== RecoveryFileField.selfie) {
        errors.push(vf(f.fieldName, VfCode.unknownFileField));
      }
    }
    if (errors.length > 0 || !document || !selfie) throw new KeptFailure('VF', 'Invalid request', errors);
    for (const [kind, file] of [['document', document], ['selfie', selfie]] as const) {
      await ctx.db.insert(accountRecoveryFiles).values({
        taskId: task.taskId,
        kind,
        fileName: file.fileName,
        mimeType: file.mimeType,
        sizeBytes: file.content.length,
        sha256: file.sha256,
        content: file.content,
        uploadedAt: at,
      });
    }
    const [row] = await ctx.db
      .update(accountRecoveryTasks)
      .set({ documentsAt: at, updatedAt: at })
      .where(eq(accountRecoveryTasks.taskId, task.taskId))
      .returning();
    ctx.audit({ taskId: task.taskId, files: [document, selfie].map((f) => ({ mimeType: f.mimeType, sizeBytes: f.content.length, sha256: f.sha256 })) });
    return taskView(row!);
  },

  async accountRecoveryStatus(input, ctx) {
    // A read: the count commits on its own. Generous: the page polls.
    if (await overRateLimit(ctx.db, 'accountRecoveryStatus', [{ key: addressKey(ctx.ip), max: ACCOUNT_RECOVERY_STATUS_PER_ADDRESS }], ACCOUNT_RECOVERY_CALL_WINDOW_S, now())) {
      throw new MethodFailure('13', RECOVERY_RATE_LIMITED);
    }
    const row = await findTask(ctx.db, input.taskId);
    if (!row) throw new MethodFailure('TA1', 'Unknown recovery task');
    return taskView(row);
  },

  /**
   * Decisions of this design (a bank's usual practice):
   * - no sign-in: the owner may have lost the password as well as the phone;
   * - the code, not the link alone, is the proof: it went only to the account's own addresses;
   * - limited per client address only: a per-task limit would let the attacker use up the
   *   owner's tries, while 40 random bits cannot be guessed at 20 tries an hour;
   * - 24 hours from the request, even after an approval: a mailed reset code stops working;
   * - refused once the new password is set: undoing that is for support (the owner is told then);
   * - a second cancel answers success (the link may be opened twice).
   */
  async accountRecoveryCancel(input, ctx) {
    const at = now();
    await limit(ctx, 'accountRecoveryCancel', [{ key: addressKey(ctx.ip), max: ACCOUNT_RECOVERY_CANCELS_PER_ADDRESS }], ACCOUNT_RECOVERY_CALL_WINDOW_S, at);
    const task = await findTask(ctx.db, input.taskId, true);
    const wrong = () => new KeptFailure('VF', 'Invalid request', [vf('cancelCode', RecoveryCancelErrors.wrong)]);
    if (!task || !task.cancelCodeHash || !task.cancelUntil) throw wrong();
    if (!timingSafeEqualText(task.cancelCodeHash, sha256Hex(input.cancelCode))) throw wrong();
    if (task.verificationStatus === 'rejected' && task.rejectReason === 'canceled') return {};
    if (task.completedAt !== null) throw new KeptFailure('VF', 'Invalid request', [vf('cancelCode', RecoveryCancelErrors.completed)]);
    if (task.cancelUntil.getTime() <= at.getTime()) throw new KeptFailure('VF', 'Invalid request', [vf('cancelCode', RecoveryCancelErrors.expired)]);
    await ctx.db
      .update(accountRecoveryTasks)
      .set({ verificationStatus: 'rejected', rejectReason: 'canceled', retryable: false, updatedAt: at })
      .where(eq(accountRecoveryTasks.taskId, task.taskId));
    if (task.userId !== null) {
      // A code an approval already mailed to the new address stops working.
      await ctx.db
        .update(oneTimeCodes)
        .set({ usedAt: at })
        .where(
          and(
            eq(oneTimeCodes.userId, task.userId),
            eq(oneTimeCodes.purpose, 'passwordReset'),
            isNull(oneTimeCodes.usedAt),
            sql`${oneTimeCodes.payload}->>'recoveryTaskId' = ${task.taskId}`,
          ),
        );
    }
    ctx.audit({ taskId: task.taskId, previousStatus: task.verificationStatus });
    return {};
  },

  async changePassword(input, ctx) {
    const caller = requireCaller(ctx);
    const db: Db = ctx.db;
    const at = now();
    const [user] = await db
      .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, caller.userId))
      .limit(1);
    if (!user) throw new MethodFailure('AU', 'Sign-in required');
    // Counted before the check, in one statement (server/modules/auth/current-password.ts).
    const current = await checkCurrentPassword(db, user, input.currentPassword, at);
    if (current === 'limited') throw new MethodFailure('13', 'Too many failed attempts; try again later');
    if (current === 'wrong') throw new MethodFailure('VF', 'Invalid request', [vf('currentPassword', VfCode.passwordWrong)]);
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
      await audit(tx, 'changePassword', user.id, caller.customerId, { requestKey: made.id });
      return made;
    });
    return { requestKey: issued.id, sentTo: maskEmail(user.email), expiresInS: PASSWORD_CHANGE_CODE_TTL_S };
  },

  async changePasswordConfirm(input, ctx) {
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
      await audit(tx, 'changePasswordConfirm', caller.userId, caller.customerId, { requestKey: input.requestKey, sessionsEnded: ended });
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
}

/** The handlers with the platform's defaults (app.ts replaces them with its own clock and origin). */
export const recoveryHandlers = createRecoveryHandlers(DEFAULT_RECOVERY_OPTIONS);
