/**
 * History, balance chart, exports and statement periods (api/history.ts; document 2 §3, §4, §7, §9).
 * Every call acts for ctx.customerId (the caller's customer, or the company of fromCustomerId /
 * the Customer-Id header the endpoint authorised): another customer's account or export answers
 * ENOA, the same as an unknown one, so the answer tells nothing about other customers.
 *
 * Exports (exports.worker.ts builds them): transactionHistoryExport queues one under a filter;
 * transactionHistoryExportStatus reports it; transactionHistoryExportSend e-mails a sign-in link
 * to its download, and only to the signed-in user's own login address (any other address would
 * let a stolen session mail the history anywhere). The outbox carries text mail only, so the CSV
 * is not attached: the link opens the history page, which downloads it after sign-in.
 * transactionHistoryExportList lists an account's monthly exports, creating the missing months of
 * the page as queued rows.
 */
import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { HISTORY_PAGE_SIZE, EXPORT_LIST_PAGE_SIZE, exportFilePath, type HistoryExport, type historyMethods, type SplitShareOut } from '../../../api/history.ts';
import { activeVariant } from '../../../variants/index.ts';
import { enqueueMail } from '../../adapters/outbox.ts';
import type { Db } from '../../db/types.ts';
import { users } from '../customers/customers.tables.ts';
import { MethodFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { historyExports } from './history.tables.ts';
import { minorToDecimal } from '../accounts/money.ts';
import { auditLog } from '../platform/platform.tables.ts';
import type { JobQueue } from '../../db/job-queue.ts';
import { sendExportJob } from './exports.worker.ts';
import {
  balanceSeries,
  checkFilter,
  findOwnExport,
  historyPage,
  monthRange,
  monthsBetween,
  periodOf,
  receiptAuthorization,
  receiptEntry,
  receiptTransfer,
  requireOwnAccount,
  type HistoryFilter,
  type SplitShare,
} from './history.service.ts';
import { VfCode, vf } from '../../../api/errors.ts';

export interface HistoryOptions {
  /** the clock in ms (tests move it) */
  now: () => number;
  /** the web app's public origin, for the link in the export e-mail */
  publicUrl: string;
  /** the provider's name (Fees and deposit rows, the e-mail) */
  providerName: string;
  /**
   * the platform's job queue: a new export's build job is sent with its row (exports.worker.ts);
   * without one the row waits for runExportJobs (tests) or a queue's sweep
   */
  jobs?: Pick<JobQueue, 'send'> | null;
}

export const DEFAULT_HISTORY_OPTIONS: HistoryOptions = {
  now: Date.now,
  publicUrl: 'http://127.0.0.1:3000',
  providerName: activeVariant.projectName,
};

/** Exports one customer may have queued or in progress at once (a limit on everything). */
export const MAX_OPEN_EXPORTS = 5;

export const ExportMessages = {
  notFound: 'No such export',
  notReady: 'The export is not finished yet',
  tooMany: `At most ${MAX_OPEN_EXPORTS} exports can be in progress at once; wait for one to finish`,
} as const;

const money = (minor: bigint, currency: string) => ({ amount: minorToDecimal(minor, currency), currency });

/** The detail's splitShares (api/history.ts SplitShareOutSchema): present only when a split took a share. */
const sharesOut = (shares: readonly SplitShare[] | undefined): { splitShares?: SplitShareOut[] } =>
  shares && shares.length > 0
    ? { splitShares: shares.map((s) => ({ contractId: s.contractId, entryId: s.entryId, share: money(s.shareMinor, s.currency), beneficiary: s.beneficiary, contractVisible: s.contractVisible })) }
    : {};

export const DetailMessages = {
  notFound: 'No such transaction',
} as const;

/** A new export id: 128 random bits, base64url (22 characters). */
export function newExportId(): string {
  return randomBytes(16).toString('base64url');
}

export function toWireExport(row: typeof historyExports.$inferSelect): HistoryExport {
  return {
    exportId: row.id,
    source: row.source,
    accountId: row.accountId,
    period: row.period,
    status: row.status,
    progress: row.progress,
    rowCount: row.rowCount,
    fileName: row.fileName,
    createdAt: row.createdAt.toISOString(),
  };
}

function actingCustomer(ctx: MethodContext): { customerId: number; userId: number } {
  if (ctx.customerId === null || ctx.caller === null) throw new MethodFailure('AU', 'Sign-in required');
  return { customerId: ctx.customerId, userId: ctx.caller.userId };
}

/** The acting customer's export, or ENOA (unknown and another customer's alike). */
export async function requireOwnExport(db: Db, customerId: number, exportId: string) {
  const row = await findOwnExport(db, customerId, exportId);
  if (!row) throw new MethodFailure('ENOA', ExportMessages.notFound);
  return row;
}

export function createHistoryHandlers(options: HistoryOptions): HandlerTable<typeof historyMethods> {
  const { now, providerName } = options;
  const publicUrl = options.publicUrl.replace(/\/+$/, '');

  /** Queues a manual export under the filter (at most MAX_OPEN_EXPORTS open at once). */
  const queueExport = async (db: Db, customerId: number, userId: number, filter: HistoryFilter): Promise<string> => {
    const [open] = await db
      .select({ n: count() })
      .from(historyExports)
      .where(and(eq(historyExports.customerId, customerId), eq(historyExports.source, 'manual'), inArray(historyExports.status, ['queued', 'processing'])));
    if ((open?.n ?? 0) >= MAX_OPEN_EXPORTS) throw new MethodFailure('TA1', ExportMessages.tooMany);
    const exportId = newExportId();
    await db.insert(historyExports).values({
      id: exportId,
      customerId,
      userId,
      source: 'manual',
      accountId: filter.accountId ?? null,
      filter: filter as Record<string, unknown>,
      createdAt: new Date(now()),
    });
    if (options.jobs) await sendExportJob(options.jobs, db, exportId);
    return exportId;
  };

  /**
   * transactionHistory is a read (no transaction of its own); its exportCsv write is one
   * transaction with its audit entry, like transactionHistoryExport's.
   */
  const queueExportWithAudit = (db: Db, customerId: number, userId: number, filter: HistoryFilter) =>
    db.transaction(async (tx) => {
      const exportId = await queueExport(tx, customerId, userId, filter);
      await tx.insert(auditLog).values({ userId, customerId, method: 'transactionHistory', details: { exportId } });
      return { exportId, exportCsv: exportFilePath(exportId) };
    });

  return {
    async transactionHistory(input, ctx) {
      const { customerId, userId } = actingCustomer(ctx);
      // The filter's customerId names the acting customer; another one is refused like an unknown account.
      if (input.customerId !== undefined && input.customerId !== customerId) throw new MethodFailure('ENOA', 'No access to this customer');
      const filter = await checkFilter(ctx.db, customerId, {
        accountId: input.accountId,
        keyword: input.keyword,
        transactionType: input.transactionType,
        fromDate: input.fromDate,
        toDate: input.toDate,
        fromAmount: input.fromAmount,
        toAmount: input.toAmount,
        transactionDirection: input.transactionDirection,
        status: input.status,
        email: input.email,
      });
      const page = await historyPage(
        ctx.db,
        customerId,
        filter,
        { pageNumber: input.pageNumber ?? 1, pageSize: input.pageSize ?? HISTORY_PAGE_SIZE },
        providerName,
      );
      return {
        transactions: { transaction: page.transactions },
        results: page.results,
        rejectedCount: page.rejectedCount,
        processingCount: page.processingCount,
        ...(input.exportCsv ? await queueExportWithAudit(ctx.db, customerId, userId, filter) : { exportId: null, exportCsv: null }),
      };
    },

    /**
     * One transaction in full, by the same lookups and visibility as its receipt (receiptTransfer,
     * receiptEntry): unknown and another customer's answer the same ENOA. A pending transfer past
     * its expiry is not expired here (a read writes nothing): it is shown as not cancelable, and
     * transferStatus / transferCancel expire it when asked.
     */
    async transactionDetail(input, ctx) {
      const { customerId } = actingCustomer(ctx);
      if (input.kind === 'entry') {
        const entry = await receiptEntry(ctx.db, customerId, input.id);
        if (!entry) throw new MethodFailure('ENOA', DetailMessages.notFound);
        const at = entry.bookedAt.toISOString();
        const incoming = entry.legs.reduce((sum, leg) => sum + leg.amountMinor, 0n) >= 0n;
        return {
          transaction: {
            kind: 'entry', id: entry.entryId, operationType: entry.operationType, viewer: incoming ? 'payee' : 'payer', direction: incoming ? 'in' : 'out',
            status: 'posted', createdAt: at, updatedAt: at, bookedAt: at, expiresAt: null,
            sent: null, fee: null, totalDebited: null, received: null, rate: null,
            fromAccountId: null, toAccountId: null,
            legs: entry.legs.map((leg) => ({ accountId: leg.accountId, currency: leg.currency, amount: minorToDecimal(leg.amountMinor, leg.currency) })),
            // As the history's rows of the entry: the payer it names (a revenue split's other party), else the provider; its reason.
            counterparty: entry.payer ?? providerName, note: entry.reason, reference: null, cancelable: false, railReason: null,
            ...(entry.split ? { revenueSplit: entry.split } : {}),
            ...sharesOut(entry.splitShares),
          },
        };
      }
      if (input.kind === 'authorization') {
        // a card payment not posted: what was asked of the account (held, declined or released); nothing booked
        const a = await receiptAuthorization(ctx.db, customerId, input.id);
        if (!a) throw new MethodFailure('ENOA', DetailMessages.notFound);
        const asked = money(a.amountMinor, a.currency);
        return {
          transaction: {
            kind: 'authorization', id: a.id, operationType: 'cardPayment', viewer: 'payer', direction: 'out',
            status: a.status, createdAt: a.createdAt.toISOString(), updatedAt: a.updatedAt.toISOString(), bookedAt: null, expiresAt: null,
            sent: asked, fee: null, totalDebited: asked, received: null, rate: null,
            fromAccountId: a.accountId, toAccountId: null, legs: [],
            counterparty: a.merchantName, note: a.declineReason, reference: null, cancelable: false, railReason: null,
          },
        };
      }
      const t = await receiptTransfer(ctx.db, customerId, input.id);
      if (!t) throw new MethodFailure('ENOA', DetailMessages.notFound);
      const payer = t.viewer === 'payer';
      const converted = t.fromCurrency !== t.toCurrency;
      return {
        transaction: {
          kind: 'transfer', id: t.transactionId, operationType: t.operationType, viewer: t.viewer,
          direction: t.operationType === 'p2p' || t.payout ? (payer ? 'out' : 'in') : null,
          status: t.status, createdAt: t.createdAt.toISOString(), updatedAt: t.updatedAt.toISOString(),
          bookedAt: t.bookedAt?.toISOString() ?? null, expiresAt: t.expiresAt.toISOString(),
          sent: payer ? money(t.amountMinor, t.fromCurrency) : null,
          fee: payer ? money(t.feeMinor, t.fromCurrency) : null,
          totalDebited: payer ? money(t.amountMinor + t.feeMinor, t.fromCurrency) : null,
          received: money(t.toAmountMinor, t.toCurrency),
          rate: payer && converted ? t.rate : null,
          // Another customer's account number is never shown (the payee's of a p2p, the payer's).
          fromAccountId: payer ? t.fromAccountId : null,
          // nor a rail's clearing account (a payout's "to" side)
          toAccountId: (payer && t.operationType === 'p2p') || t.payout ? null : t.toAccountId,
          legs: [], counterparty: t.counterparty, note: t.note, reference: t.reference,
          cancelable: payer && t.status === 'pending' && t.expiresAt.getTime() > now(),
          railReason: t.railReason,
          ...sharesOut(t.splitShares),
        },
      };
    },

    async balanceHistory(input, ctx) {
      const { customerId } = actingCustomer(ctx);
      return { series: await balanceSeries(ctx.db, customerId, input.days ?? 90, now()) };
    },

    async transactionHistoryExport(input, ctx) {
      const { customerId, userId } = actingCustomer(ctx);
      const filter: HistoryFilter = await checkFilter(
        ctx.db,
        customerId,
        {
          accountId: input.accountId,
          keyword: input.keyword,
          transactionType: input.type,
          fromDate: input.fromDate,
          toDate: input.toDate,
          fromAmount: input.amountFrom,
          toAmount: input.amountTo,
          transactionDirection: input.transactionDirection,
          status: input.status,
          email: input.customerEmail,
        },
        { fromAmount: 'amountFrom', toAmount: 'amountTo' },
      );
      const exportId = await queueExport(ctx.db, customerId, userId, filter);
      ctx.audit({ exportId });
      return { exportId };
    },

    async transactionHistoryExportStatus(input, ctx) {
      const { customerId } = actingCustomer(ctx);
      return { export: toWireExport(await requireOwnExport(ctx.db, customerId, input.exportId)) };
    },

    async transactionHistoryExportSend(input, ctx) {
      const { customerId, userId } = actingCustomer(ctx);
      const row = await requireOwnExport(ctx.db, customerId, input.exportId);
      const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
      if (!user || user.email !== input.email) {
        throw new MethodFailure('VF', 'Invalid request', [vf('email', VfCode.ownEmailOnly)]);
      }
      if (row.status !== 'done') throw new MethodFailure('TA1', ExportMessages.notReady);
      const link = `${publicUrl}/history?exportId=${encodeURIComponent(row.id)}`;
      await enqueueMail(ctx.db, {
        to: user.email,
        subject: `${providerName}: your transaction history export`,
        text:
          `Your transaction history export ${row.fileName ?? ''} (${row.rowCount ?? 0} rows) is ready.\n\n` +
          `Sign in and download it here:\n\n${link}\n\n` +
          `The file is only given to a signed-in user of the account. If you did not ask for it, change your password.\n`,
      });
      ctx.audit({ exportId: row.id });
      return {};
    },

    async transactionHistoryExportList(input, ctx) {
      const { customerId, userId } = actingCustomer(ctx);
      const account = await requireOwnAccount(ctx.db, customerId, input.accountId);
      const pageSize = input.pageSize ?? EXPORT_LIST_PAGE_SIZE;
      const pageNumber = input.pageNumber ?? 1;
      // Finished months only: from the account's first month to last month.
      const { start: thisMonth } = monthRange(new Date(now()).getUTCFullYear(), new Date(now()).getUTCMonth() + 1);
      const lastMonthMs = thisMonth.getTime() - 1;
      const months = account.createdAt.getTime() <= lastMonthMs ? monthsBetween(account.createdAt.getTime(), lastMonthMs) : [];
      const pageMonths = months.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
      if (pageMonths.length === 0) return { exports: [], total: months.length };
      const periods = pageMonths.map((m) => periodOf(m.year, m.month));
      // The page's months get their export row on first sight, and its build job with it (this
      // call is a read, without a transaction of its own: the rows and their jobs get one here).
      await ctx.db.transaction(async (tx) => {
        const created = await tx
          .insert(historyExports)
          .values(
            pageMonths.map((m) => {
              const { start, end } = monthRange(m.year, m.month);
              const lastDay = new Date(end.getTime() - 1).toISOString().slice(0, 10);
              return {
                id: newExportId(),
                customerId,
                userId,
                source: 'monthly' as const,
                accountId: account.accountId,
                period: periodOf(m.year, m.month),
                filter: { accountId: account.accountId, fromDate: start.toISOString().slice(0, 10), toDate: lastDay },
                createdAt: new Date(now()),
              };
            }),
          )
          .onConflictDoNothing({ target: [historyExports.accountId, historyExports.period] })
          .returning({ id: historyExports.id });
        if (options.jobs) for (const row of created) await sendExportJob(options.jobs, tx, row.id);
      });
      const rows = await ctx.db
        .select()
        .from(historyExports)
        .where(and(eq(historyExports.accountId, account.accountId), eq(historyExports.source, 'monthly'), inArray(historyExports.period, periods)))
        .orderBy(desc(historyExports.period));
      return { exports: rows.map(toWireExport), total: months.length };
    },

    async statementPeriods(input, ctx) {
      const { customerId } = actingCustomer(ctx);
      const account = await requireOwnAccount(ctx.db, customerId, input.accountId);
      return { periods: monthsBetween(account.createdAt.getTime(), Math.max(now(), account.createdAt.getTime())) };
    },
  };
}

/** The handlers with the variant's defaults (app.ts registers them with the app's clock and origin). */
export const historyHandlers = createHistoryHandlers(DEFAULT_HISTORY_OPTIONS);
