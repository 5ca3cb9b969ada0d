/**
 * The administrator's side of personal-data account recovery (api/admin.ts): the tasks waiting in
 * the review queue and the decision on one. Only an approval mails anything to the new address.
 */
import { VfCode, vf } from '../../../api/errors.ts';
import { and, asc, count, eq, inArray, isNotNull } from 'drizzle-orm';
import { ACCOUNT_RECOVERY_CODE_TTL_S } from '../../../api/recovery.ts';
import type { adminMethods } from '../../../api/admin.ts';
import { activeVariant } from '../../../variants/index.ts';
import { enqueueMail } from '../../adapters/outbox.ts';
import { accountRecoveryTasks } from '../auth/auth.tables.ts';
import { customers, users } from '../customers/customers.tables.ts';
import { displayName } from '../customers/customers.methods.ts';
import { MethodFailure, type HandlerTable } from '../method-types.ts';
import { ValidationFailure } from '../profile/profile.service.ts';
import { currentEmailsOf, findTask, issueCode, maskEmail, personalDataMatches } from './recovery.service.ts';
import { accountRecoveryFiles } from './recovery.tables.ts';

type RecoveryAdminMethods = Pick<typeof adminMethods, 'adminRecoveryTaskList' | 'adminRecoveryTaskDecide'>;

/** The queue shows at most this many (oldest first); the total says how many wait. */
const RECOVERY_QUEUE_MAX = 50;

export function createRecoveryAdminHandlers(options: { now: () => number }): HandlerTable<RecoveryAdminMethods> {
  const waiting = and(eq(accountRecoveryTasks.verificationStatus, 'pending'), isNotNull(accountRecoveryTasks.documentsAt));
  return {
    async adminRecoveryTaskList(_input, ctx) {
      const [total] = await ctx.db.select({ n: count() }).from(accountRecoveryTasks).where(waiting);
      const rows = await ctx.db
        .select()
        .from(accountRecoveryTasks)
        .where(waiting)
        .orderBy(asc(accountRecoveryTasks.documentsAt), asc(accountRecoveryTasks.taskId))
        .limit(RECOVERY_QUEUE_MAX);
      const files =
        rows.length === 0
          ? []
          : await ctx.db
              .select({ taskId: accountRecoveryFiles.taskId, kind: accountRecoveryFiles.kind, mimeType: accountRecoveryFiles.mimeType, sizeBytes: accountRecoveryFiles.sizeBytes })
              .from(accountRecoveryFiles)
              .where(inArray(accountRecoveryFiles.taskId, rows.map((r) => r.taskId)))
              .orderBy(asc(accountRecoveryFiles.id));
      const tasks = [];
      for (const row of rows) {
        const match = await personalDataMatches(ctx.db, row);
        const [customer] = match.customerId === null ? [] : await ctx.db.select().from(customers).where(eq(customers.id, match.customerId));
        tasks.push({
          taskId: row.taskId,
          created: row.createdAt.toISOString(),
          cancelUntil: (row.cancelUntil ?? row.createdAt).toISOString(),
          email: row.email,
          recoveryEmail: row.recoveryEmail,
          firstName: row.firstName ?? '',
          lastName: row.lastName ?? '',
          dob: row.dob ?? '',
          customerId: customer?.id ?? null,
          customerName: customer ? displayName(customer) : null,
          recordDob: match.recordDob,
          personalDataMatches: match.matches,
          files: files.filter((f) => f.taskId === row.taskId).map(({ kind, mimeType, sizeBytes }) => ({ kind, mimeType, sizeBytes })),
        });
      }
      return { tasks, total: total?.n ?? 0 };
    },

    async adminRecoveryTaskDecide(input, ctx) {
      const at = new Date(options.now());
      const reason = input.reason ?? '';
      if (input.decision === 'reject' && reason === '') throw new ValidationFailure([vf('reason', VfCode.requiredToReject)]);
      const task = await findTask(ctx.db, input.taskId, true);
      const refuse = (code: 'notRecoveryTask' | 'recoveryCanceled' | 'decidedAlready' | 'noDocumentsYet' | 'matchesNoAccount' | 'accountClosed') => new MethodFailure('TA1', 'The task cannot be decided', [vf('taskId', code)]);
      if (!task || task.firstName === null) throw refuse(VfCode.notRecoveryTask);
      if (task.verificationStatus !== 'pending') throw refuse(task.rejectReason === 'canceled' ? VfCode.recoveryCanceled : VfCode.decidedAlready);
      if (task.documentsAt === null) throw refuse(VfCode.noDocumentsYet);
      if (input.decision === 'approve') {
        // Nothing to recover: the e-mail belongs to no account (the caller was answered alike).
        if (task.userId === null) throw refuse(VfCode.matchesNoAccount);
        const [user] = await ctx.db.select({ id: users.id, disabled: users.disabled }).from(users).where(eq(users.id, task.userId));
        if (!user || user.disabled) throw refuse(VfCode.accountClosed);
        // The code goes to the new address only now; typing it confirms that address before the
        // password may change (passwordCodeCheck, passwordChangeWithCode).
        const { code } = await issueCode(ctx.db, {
          userId: task.userId,
          purpose: 'passwordReset',
          sentTo: task.recoveryEmail,
          ttlS: ACCOUNT_RECOVERY_CODE_TTL_S,
          payload: { recoveryTaskId: task.taskId },
          now: at,
        });
        await enqueueMail(ctx.db, {
          to: task.recoveryEmail,
          subject: `${activeVariant.projectName}: your account recovery was approved`,
          text: `We checked your identity documents and approved your account recovery.\n\nYour code: ${code}\n\nEnter it with the e-mail address you signed in with to confirm this address and choose a new password. It works for ${ACCOUNT_RECOVERY_CODE_TTL_S / 3600} hours.`,
        });
        const until = (task.cancelUntil ?? at).toISOString().replace('T', ' ').slice(0, 16);
        for (const to of await currentEmailsOf(ctx.db, task.userId)) {
          await enqueueMail(ctx.db, {
            to,
            subject: `${activeVariant.projectName}: account recovery approved`,
            text: `The recovery of your account was approved and a password reset code was sent to ${maskEmail(task.recoveryEmail)}. If this was not you, cancel it with the link and code of our first e-mail until ${until} UTC, and contact support at once.`,
          });
        }
        await ctx.db
          .update(accountRecoveryTasks)
          .set({ verificationStatus: 'verified', decidedAt: at, decidedByUserId: ctx.caller!.userId, updatedAt: at })
          .where(eq(accountRecoveryTasks.taskId, task.taskId));
        ctx.audit({ taskId: task.taskId, decision: 'approve' });
        return { taskId: task.taskId, verificationStatus: 'verified' as const, isRetryable: false };
      }
      const retryable = input.isRetryable ?? false;
      await ctx.db
        .update(accountRecoveryTasks)
        .set({
          verificationStatus: 'rejected',
          rejectReason: 'identityNotConfirmed',
          rejectComment: reason,
          retryable,
          decidedAt: at,
          decidedByUserId: ctx.caller!.userId,
          updatedAt: at,
        })
        .where(eq(accountRecoveryTasks.taskId, task.taskId));
      ctx.audit({ taskId: task.taskId, decision: 'reject', reason, isRetryable: retryable });
      return { taskId: task.taskId, verificationStatus: 'rejected' as const, isRetryable: retryable };
    },
  };
}

export const recoveryAdminHandlers = createRecoveryAdminHandlers({ now: Date.now });
