/**
 * Reading batches (api/mass.ts batchTransferList, batchFileView): the mass batches
 * (mass.service.ts, transfer_batches) and the global-pay batches (global-pay.tables.ts) as one
 * list, document 2 §7 naming global among the batch types. How a global-pay batch reads as a
 * batch is not shown in the spec (designed here, api/mass.ts): its statuses come from global pay's
 * own paymentStatusOf and batchStatusOf (global-pay.service.ts), and the ended batch's from the
 * mass batches' batchStatusOf on its counts.
 *
 * A page: the first pageNumber * pageSize batches of each kind (each newest first), merged newest
 * first (a merge of the two orders, so that every page is the same slice of one order), the page
 * sliced from it; the total is both counts.
 */
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, type SQL } from 'drizzle-orm';
import { BATCH_PAGE_SIZE, type Batch, type BATCH_ROW_STATUSES } from '../../../api/mass.ts';
import type { GlobalPaymentStatus } from '../../../api/global-pay.ts';
import type { Db, Tx } from '../../db/types.ts';
import { minorToDecimal } from '../accounts/money.ts';
import { batchStatusOf as globalBatchStatusOf, paymentStatusOf } from './global-pay.service.ts';
import { globalPayBatches, globalPayments } from './global-pay.tables.ts';
import { batchStatusOf, dayBounds, likePattern, listMassBatches, viewMassBatch, type BatchFilter } from './mass.service.ts';
import { transfers, type TransferStatus } from './transfers.tables.ts';

type GlobalBatchRow = typeof globalPayBatches.$inferSelect;
type GlobalPaymentRow = typeof globalPayments.$inferSelect;
type RowStatus = (typeof BATCH_ROW_STATUSES)[number];

/** A payment's status as a batch row's: waiting for the approval, the payee or the rail; paid; not paid. */
function rowStatusOf(status: GlobalPaymentStatus): RowStatus {
  switch (status) {
    case 'awaitingApproval':
    case 'waiting':
    case 'processing':
      return 'pending';
    case 'completed':
      return 'done';
    default:
      return 'failed';
  }
}

/** Why a payment was not paid (the row's errorDescription; the app words it from the status). */
const NOT_PAID: Partial<Record<GlobalPaymentStatus, string>> = {
  refused: 'The payee refused the payment.',
  expired: 'The payee did not take the payment in time.',
  returned: "The payee's bank sent the payment back.",
  failed: 'The payout to the payee failed.',
  canceled: 'The payment was canceled.',
};

interface GlobalPaymentOut {
  p: GlobalPaymentRow;
  status: GlobalPaymentStatus;
  payoutStatus: TransferStatus | null;
}

/** The batch's submitted payments (not the ones deleted in its draft) with their statuses, in their order. */
async function paymentsOf(
  db: Db | Tx,
  batches: readonly (GlobalBatchRow & {
    requestStatus: TransferStatus | null;
  })[],
  nowMs: number,
): Promise<Map<number, GlobalPaymentOut[]>> {
  const out = new Map<number, GlobalPaymentOut[]>(batches.map((b) => [b.id, []]));
  if (batches.length === 0) return out;
  const byId = new Map(batches.map((b) => [b.id, b]));
  const rows = await db
    .select({ p: globalPayments, payoutStatus: transfers.status })
    .from(globalPayments)
    .leftJoin(transfers, eq(transfers.id, globalPayments.payoutTransferId))
    .where(inArray(globalPayments.batchId, [...byId.keys()]))
    .orderBy(asc(globalPayments.batchId), asc(globalPayments.id));
  for (const { p, payoutStatus } of rows) {
    if (p.state === 'deleted') continue;
    const batch = byId.get(p.batchId)!;
    out.get(p.batchId)!.push({
      p,
      payoutStatus,
      status: paymentStatusOf(p, batch, batch.requestStatus, payoutStatus, nowMs),
    });
  }
  return out;
}

/** A global-pay batch as a batch (api/mass.ts BatchSchema). */
function globalBatchOut(b: GlobalBatchRow & { requestStatus: TransferStatus | null }, payments: readonly GlobalPaymentOut[]): Batch {
  const rows = payments.map((x) => rowStatusOf(x.status));
  const doneCount = rows.filter((s) => s === 'done').length;
  const failedCount = rows.filter((s) => s === 'failed').length;
  const countAll = payments.length;
  const own = globalBatchStatusOf(b, b.requestStatus);
  // approved and not canceled: being paid while any payment waits (for its payee or its rail), then ended as a mass batch's counts say
  const status =
    own === 'processing' || own === 'done'
      ? rows.includes('pending')
        ? 'processing'
        : batchStatusOf('posted', countAll, doneCount, failedCount)
      : own === 'draft'
        ? 'awaitingApproval' // never listed (drafts are not read here)
        : own;
  return {
    id: b.id,
    dateTime: b.createdAt.toISOString(),
    kind: 'global',
    status,
    fileName: b.name,
    accountId: b.accountId,
    currency: b.currency,
    count: countAll,
    doneCount,
    failedCount,
    progress: countAll === 0 ? 100 : Math.floor(((doneCount + failedCount) * 100) / countAll),
    total: minorToDecimal(
      payments.reduce((s, x) => s + x.p.amountMinor, 0n),
      b.currency,
    ),
    fee: minorToDecimal(
      payments.reduce((s, x) => s + x.p.heldFeeMinor, 0n),
      b.currency,
    ),
    transactionId: b.transferId ?? 0,
  };
}

const globalColumns = {
  batch: globalPayBatches,
  requestStatus: transfers.status,
};

/** The acting customer's submitted global-pay batches matching the filter: the first `limit`, newest first, and how many match. */
async function listGlobalBatches(db: Db | Tx, customerId: number, filter: BatchFilter, limit: number, nowMs: number): Promise<{ batches: Batch[]; total: number }> {
  if (filter.types && filter.types.length > 0 && !filter.types.includes('global')) return { batches: [], total: 0 };
  // submitted (its request tells the rest) or canceled after its approval; not a draft nor a discarded one
  const where: SQL[] = [eq(globalPayBatches.customerId, customerId), inArray(globalPayBatches.state, ['submitted', 'canceled'])];
  if (filter.search) where.push(ilike(globalPayBatches.name, likePattern(filter.search)));
  const bounds = dayBounds(filter);
  if (bounds.from) where.push(gte(globalPayBatches.createdAt, bounds.from));
  if (bounds.to) where.push(lt(globalPayBatches.createdAt, bounds.to));
  const [counted] = await db
    .select({ n: count() })
    .from(globalPayBatches)
    .where(and(...where));
  const found = await db
    .select(globalColumns)
    .from(globalPayBatches)
    .leftJoin(transfers, eq(transfers.id, globalPayBatches.transferId))
    .where(and(...where))
    .orderBy(desc(globalPayBatches.createdAt), desc(globalPayBatches.id))
    .limit(limit);
  const batches = found.map(({ batch, requestStatus }) => ({
    ...batch,
    requestStatus,
  }));
  const payments = await paymentsOf(db, batches, nowMs);
  return {
    batches: batches.map((b) => globalBatchOut(b, payments.get(b.id)!)),
    total: counted?.n ?? 0,
  };
}

/** Two lists each newest first merged newest first (at the same time the mass batch first): a page of the merge is a page of one order. */
function mergeNewestFirst(a: readonly Batch[], b: readonly Batch[]): Batch[] {
  const out: Batch[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.dateTime >= b[j]!.dateTime)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

/** batchTransferList: the acting customer's batches of both kinds, newest first, 20 a page. */
export async function listBatches(db: Db | Tx, customerId: number, filter: BatchFilter, nowMs: number): Promise<{ batches: Batch[]; total: number }> {
  const size = filter.pageSize ?? BATCH_PAGE_SIZE;
  const page = filter.pageNumber ?? 1;
  const mass = await listMassBatches(db, customerId, filter, page * size);
  const global = await listGlobalBatches(db, customerId, filter, page * size, nowMs);
  return {
    batches: mergeNewestFirst(mass.batches, global.batches).slice((page - 1) * size, page * size),
    total: mass.total + global.total,
  };
}

/** One CSV cell (RFC 4180 quoting when needed). */
const csvCell = (cell: string) => (/[",;\r\n]/.test(cell) || cell !== cell.trim() ? `"${cell.replace(/"/g, '""')}"` : cell);

/** batchFileView of a global-pay batch: its payments as rows; null when not the customer's or not submitted. */
async function viewGlobalBatch(db: Db | Tx, customerId: number, id: number, nowMs: number) {
  const [found] = await db.select(globalColumns).from(globalPayBatches).leftJoin(transfers, eq(transfers.id, globalPayBatches.transferId)).where(eq(globalPayBatches.id, id));
  if (!found || found.batch.customerId !== customerId || (found.batch.state !== 'submitted' && found.batch.state !== 'canceled')) return null;
  const b = { ...found.batch, requestStatus: found.requestStatus };
  const payments = (await paymentsOf(db, [b], nowMs)).get(b.id)!;
  const cur = b.currency;
  return {
    batch: globalBatchOut(b, payments),
    rows: payments.map(({ p, status, payoutStatus }) => {
      const rowStatus = rowStatusOf(status);
      return {
        line: p.line,
        payee: p.beneficiaryName,
        countryCode: p.beneficiaryCountryCode,
        amount: minorToDecimal(p.amountMinor, cur),
        fee: minorToDecimal(p.heldFeeMinor, cur),
        status: rowStatus,
        transactionId: p.payoutTransferId,
        transferStatus: p.payoutTransferId === null ? null : payoutStatus,
        errorCode: rowStatus === 'failed' ? status : null,
        errorDescription: rowStatus === 'failed' ? (NOT_PAID[status] ?? 'The payment was not paid.') : null,
      };
    }),
    // the upload itself is not kept for a global-pay batch (it is edited as a draft before it is
    // submitted): the file is its payments as submitted, in the upload's columns (it can be
    // uploaded again)
    file:
      [
        'beneficiaryName,beneficiaryEmail,beneficiaryCountryCode,amount,description',
        ...payments.map(({ p }) => [p.beneficiaryName, p.beneficiaryEmail, p.beneficiaryCountryCode, minorToDecimal(p.amountMinor, cur), p.description].map(csvCell).join(',')),
      ].join('\r\n') + '\r\n',
  };
}

/** batchFileView: kind 'global' a global-pay batch, else a mass batch (their ids are separate sequences); null when not the acting customer's. */
export async function viewBatch(db: Db | Tx, customerId: number, id: number, kind: Batch['kind'] | undefined, nowMs: number) {
  return kind === 'global' ? viewGlobalBatch(db, customerId, id, nowMs) : viewMassBatch(db, customerId, id);
}
