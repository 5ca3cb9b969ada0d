/**
 * Mass transfers (api/mass.ts, mass.tables.ts; issue 15 §4).
 *
 * Upload (massP2pFile, massP2pText, massExternalFile): the CSV read (mass-csv.ts), its columns
 * matched, every row checked as one transfer of its kind would be (the payee: a platform user by
 * e-mail, or the payout method's form for the row's country, api/payees/; the amount's format and
 * the per-payment limits; the account's currency), each row's fee by the kind's fee rule. Any
 * problem: VF listing every one (`rows.<line>.<column>`, `file`, `accountId`), nothing written. A
 * preview answers the rows and totals. Otherwise the batch's transfer request (kind mass, the
 * transfer service's requestMass: the total held, the approval started) and the batch with its rows
 * are written in the caller's one transaction.
 *
 * Paying (the job MASS_QUEUE, once the request is approved): payBatch takes the next pending rows
 * (under the request's row lock, ROWS_A_TRANSACTION at a time) and, in one transaction, for each:
 * releases the row's share of the hold, asks the row's transfer through the one transfer request
 * (pre-approved, booked under batch:{id}:{line}), marks the row done (or failed with the answer
 * the request gave, in a savepoint that undoes the transfer's part); then counts them on the batch.
 * A job that dies mid-chunk leaves its rows pending with nothing of them written; a job run twice
 * finds no pending row. When no row is left the request is
 * posted (it never books an entry itself) and the batch has its finishing time.
 *
 * Daily limits: each row counts as its own transfer when it is paid, so a batch over the day's
 * limit pays the rows that fit and marks the rest failed with the limit's answer (partial).
 */
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { describeVf, vf, VfCode, type CodedValidationError } from '../../../api/errors.ts';
import { type Batch, type BatchKind, type BatchStatus, type MassKind, type MassPayoutMethod, type MassRow } from '../../../api/mass.ts';
import { EMAIL_PATTERN } from '../../../api/payees/instant.ts';
import { PAYOUT_ROUTES, validatePayeeFields } from '../../../api/payees/methods.ts';
import type { PermissionFlag } from '../../../api/transfers.ts';
import type { Db, Tx } from '../../db/types.ts';
import { lockAccounts, releaseHold } from '../accounts/ledger.ts';
import { minorToDecimal } from '../accounts/money.ts';
import { readBlockedBins } from '../external/external.methods.ts';
import { MethodFailure } from '../method-types.ts';
import { notify } from '../notifications/notify.ts';
import { beneficiaryNameOf, beneficiaryOf } from '../rails/payout.methods.ts';
import { computeFee, feeOperationOf, feeRuleFor, limitsFor } from './fees.ts';
import { columnKey, csvText, isFormula, parseCsv, type CsvTable } from './mass-csv.ts';
import { transferBatchRows, transferBatches } from './mass.tables.ts';
import { MASS_OPERATION_FLAGS } from './permissions.ts';
import { transfers, type TransferStatus } from './transfers.tables.ts';
import { ownAccount, parseAmount, resolvePayees, type TransferActor, type TransferResult, type TransferService, type TransferPublisher } from './transfers.service.ts';

export interface MassUpload {
  kind: MassKind;
  fromAccountId: number;
  fileName: string;
  /** the file's bytes (an upload) or the pasted text */
  content: Uint8Array | string;
  preview: boolean;
}

export interface MassUploadResult {
  kind: MassKind;
  currency: string;
  rows: MassRow[];
  count: number;
  total: string;
  fee: string;
  grandTotal: string;
  batchId: number | null;
  transactionId: number | null;
  status: TransferStatus | null;
  approveType: TransferResult['approveType'] | null;
  approvalSentTo: string | null;
  expiresAt: string | null;
}

/** A checked row, as written to transfer_batch_rows. */
interface CheckedRow {
  line: number;
  payee: { email?: string; countryCode?: string; fields?: Record<string, string>; name: string };
  amountMinor: bigint;
  feeMinor: bigint;
  note: string | null;
  reference: string | null;
}

const COLUMNS = {
  p2p: { required: ['email', 'amount'], optional: ['currency', 'note'] },
  payout: { required: ['countryCode', 'amount'], optional: ['currency', 'reference'] },
} as const;

/** The columns of a payout method's batch: the base ones and every field of its forms, in the forms' order. */
export function payoutColumns(method: MassPayoutMethod): { required: readonly string[]; optional: readonly string[]; payee: readonly string[] } {
  const payee = [...new Set(PAYOUT_ROUTES[method].flatMap((route) => route.fields.map((field) => field.name)))];
  return { ...COLUMNS.payout, payee };
}

/** Pasted p2p lines may leave out the header: then they are email, amount, note. */
const P2P_DEFAULT_HEADER = ['email', 'amount', 'note'];
const NOTE_MAX = 500;
/**
 * Rows paid in one transaction: fewer commits (a row alone spent more on its transaction than on its
 * transfer); few enough that the account's lock is held a fraction of a second.
 */
const ROWS_A_TRANSACTION = 20;
const REFERENCE_MAX = 140;

const fail = (errors: CodedValidationError[]) => new MethodFailure('VF', 'Invalid request', errors);

/** The validation errors of a failure a check threw (VF); anything else is not a row's problem. */
function errorsOf(err: unknown): CodedValidationError[] {
  if (err instanceof MethodFailure && err.responseCode === 'VF' && err.validationErrors) return err.validationErrors;
  throw err;
}

/** The header's columns matched to the names the kind takes; file errors for missing and unknown ones. */
function matchColumns(header: readonly string[], known: readonly string[], required: readonly string[]): { names: (string | null)[]; errors: CodedValidationError[] } {
  const byKey = new Map(known.map((name) => [columnKey(name), name]));
  const errors: CodedValidationError[] = [];
  const seen = new Set<string>();
  const names = header.map((cell) => {
    const name = byKey.get(columnKey(cell)) ?? null;
    if (name === null || seen.has(name)) {
      errors.push(vf('file', VfCode.csvUnknownColumn, { column: cell.slice(0, 40) }));
      return null;
    }
    seen.add(name);
    return name;
  });
  for (const name of required) if (!seen.has(name)) errors.push(vf('file', VfCode.csvMissingColumn, { column: name }));
  return { names, errors };
}

/** Every card number in a text (13 to 19 digits, spaces or dashes between them) as its BIN, asterisks and last four. */
export function maskCardNumbers(text: string): string {
  return text.replace(/(?<![\dA-Za-z])\d(?:[ -]?\d){12,18}(?![\dA-Za-z])/g, (number) => {
    const digits = number.replace(/\D/g, '');
    return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
  });
}

/** publisher: the finished batch's push (null: the notification is only kept for the centre and the bell; the rails worker passes the app's). */
export function createMassService(service: TransferService, publisher: TransferPublisher | null = null) {
  /** Reads, matches and checks every row; throws VF with every problem found. */
  async function checkUpload(tx: Tx, actor: TransferActor, upload: MassUpload, currency: string): Promise<CheckedRow[]> {
    const decoded = typeof upload.content === 'string' ? { ok: true as const, text: upload.content } : csvText(upload.content);
    if (!decoded.ok) throw fail(decoded.errors);
    const payoutMethod = upload.kind === 'p2p' ? null : upload.kind;
    const columns = payoutMethod ? payoutColumns(payoutMethod) : { ...COLUMNS.p2p, payee: [] as string[] };
    const known = [...columns.required, ...columns.optional, ...columns.payee];
    // pasted p2p text: a first line starting with an e-mail address is a payment (the default columns), else the header
    const pasted = typeof upload.content === 'string' && upload.kind === 'p2p';
    const parsed = parseCsv(decoded.text, pasted ? (first) => !EMAIL_PATTERN.test(first[0] ?? '') : true);
    if (!parsed.ok) throw fail(parsed.errors);
    const table: CsvTable = parsed.table;
    const matched = matchColumns(table.header.length > 0 ? table.header : P2P_DEFAULT_HEADER, known, columns.required);
    if (matched.errors.length > 0) throw fail(matched.errors);

    const sender = await ownSender(tx, actor);
    const kindOperation = payoutMethod ?? 'p2p';
    const feeRule = await feeRuleFor(tx, feeOperationOf(kindOperation, currency, currency), currency);
    const limits = await limitsFor(tx, kindOperation, currency);
    const blockedBins = payoutMethod === 'oct' ? await readBlockedBins(tx) : [];
    // every payee at once (the same rules as one transfer's, one statement for the whole file)
    const emailColumn = matched.names.indexOf('email');
    const payees: Awaited<ReturnType<typeof resolvePayees>> =
      payoutMethod === null && emailColumn >= 0
        ? await resolvePayees(tx, sender, table.rows.map((r) => (r.cells[emailColumn] ?? '').toLowerCase()).filter((e) => EMAIL_PATTERN.test(e)), currency)
        : new Map();
    const errors: CodedValidationError[] = [];
    const rows: CheckedRow[] = [];
    for (const row of table.rows) {
      const at = (column: string) => `rows.${row.line}.${column}`;
      if (row.cells.length > matched.names.length) {
        errors.push(vf(`rows.${row.line}`, VfCode.csvCellCount, { expected: matched.names.length }));
        continue;
      }
      const cells: Record<string, string> = {};
      const rowErrors: CodedValidationError[] = [];
      matched.names.forEach((name, i) => {
        const value = row.cells[i] ?? '';
        if (name === null) return;
        if (isFormula(value)) rowErrors.push(vf(at(name), VfCode.csvFormula));
        else cells[name] = value;
      });
      if (rowErrors.length > 0) {
        errors.push(...rowErrors);
        continue;
      }
      if (cells.currency && cells.currency.toUpperCase() !== currency) rowErrors.push(vf(at('currency'), VfCode.currencyOfAccount));
      let amountMinor = 0n;
      try {
        if (!cells.amount) throw fail([vf(at('amount'), VfCode.required)]);
        amountMinor = parseAmount(cells.amount, currency, at('amount'));
        if (amountMinor <= 0n) rowErrors.push(vf(at('amount'), VfCode.positive));
        else if (amountMinor < limits.minMinor) rowErrors.push(vf(at('amount'), VfCode.belowMinimum, { amount: minorToDecimal(limits.minMinor, currency), currency }));
        else if (amountMinor > limits.maxMinor) rowErrors.push(vf(at('amount'), VfCode.aboveMaximum, { amount: minorToDecimal(limits.maxMinor, currency), currency }));
      } catch (err) {
        rowErrors.push(...errorsOf(err));
      }
      let payee: CheckedRow['payee'] = { name: '' };
      if (payoutMethod === null) {
        const email = (cells.email ?? '').toLowerCase();
        if (!email) rowErrors.push(vf(at('email'), VfCode.required));
        else if (!EMAIL_PATTERN.test(email)) rowErrors.push(vf(at('email'), VfCode.notEmail));
        else {
          const found = payees.get(email)!;
          if ('code' in found) rowErrors.push(found.code === VfCode.payeeNoAccount ? vf(at('email'), found.code, { currency }) : vf(at('email'), found.code));
          else payee = { email: found.email, name: found.name };
        }
        if ((cells.note ?? '').length > NOTE_MAX) rowErrors.push(vf(at('note'), VfCode.tooLong, { max: NOTE_MAX }));
      } else {
        const countryCode = (cells.countryCode ?? '').toUpperCase();
        const fields = Object.fromEntries(columns.payee.filter((name) => (cells[name] ?? '') !== '').map((name) => [name, cells[name]!]));
        if (!/^[A-Z]{2}$/.test(countryCode)) rowErrors.push(vf(at('countryCode'), countryCode ? VfCode.countryCodeFormat : VfCode.required));
        else {
          for (const issue of validatePayeeFields({ method: payoutMethod, countryCode, currencyCode: currency }, fields, { blockedBins })) {
            rowErrors.push(vf(at(issue.field), issue.field === 'countryCode' ? VfCode.notAllowed : (issue.code as typeof VfCode.badFormat)));
          }
        }
        payee = { countryCode, fields: beneficiaryOf(fields), name: beneficiaryNameOf(fields) };
        if ((cells.reference ?? '').length > REFERENCE_MAX) rowErrors.push(vf(at('reference'), VfCode.tooLong, { max: REFERENCE_MAX }));
      }
      if (rowErrors.length > 0) {
        errors.push(...rowErrors);
        continue;
      }
      rows.push({ line: row.line, payee, amountMinor, feeMinor: computeFee(feeRule, amountMinor), note: cells.note || null, reference: cells.reference || null });
    }
    if (errors.length > 0) throw fail(errors);
    return rows;
  }

  /** The sender as resolvePayee needs it (their own e-mail is refused as a payee; blacklists name it). */
  async function ownSender(tx: Tx, actor: TransferActor): Promise<{ customerId: number; email: string }> {
    const [row] = rowsOf<{ email: string }>(await tx.execute(sql`select email from users where id = ${actor.userId}`));
    if (!row) throw new MethodFailure('AU', 'Sign-in required');
    return { customerId: actor.customerId, email: row.email };
  }

  /**
   * An upload: checked, then previewed or written as a batch awaiting its approval (or paid at
   * once when the customer's approval mode is none). The caller checked the mass flags.
   */
  async function upload(tx: Tx, actor: TransferActor, input: MassUpload): Promise<MassUploadResult> {
    const from = await ownAccount(tx, actor.customerId, input.fromAccountId);
    const currency = from.currency;
    const rows = await checkUpload(tx, actor, input, currency);
    const total = rows.reduce((sum, r) => sum + r.amountMinor, 0n);
    const fee = rows.reduce((sum, r) => sum + r.feeMinor, 0n);
    const available = from.balanceMinor - from.pendingMinor - from.balanceMinMinor;
    if (total + fee > available) throw fail([vf('accountId', VfCode.balanceExceeded)]);
    const shown: MassRow[] = rows.map((r) => ({
      line: r.line,
      payee: r.payee.email ?? r.payee.name,
      countryCode: r.payee.countryCode ?? null,
      amount: minorToDecimal(r.amountMinor, currency),
      fee: minorToDecimal(r.feeMinor, currency),
    }));
    const base = {
      kind: input.kind,
      currency,
      rows: shown,
      count: rows.length,
      total: minorToDecimal(total, currency),
      fee: minorToDecimal(fee, currency),
      grandTotal: minorToDecimal(total + fee, currency),
    };
    if (input.preview) return { ...base, batchId: null, transactionId: null, status: null, approveType: null, approvalSentTo: null, expiresAt: null };

    const requiredFlags: readonly PermissionFlag[] = MASS_OPERATION_FLAGS[input.kind];
    const { result, transfer } = await service.requestMass(tx, actor, {
      fromAccountId: from.accountId,
      amountMinor: total,
      feeMinor: fee,
      payeeName: `${rows.length} payments`,
      requiredFlags,
    });
    const text = typeof input.content === 'string' ? input.content : new TextDecoder().decode(input.content);
    // card data is never stored: a card batch's file is kept with each card number masked
    const content = input.kind === 'oct' ? maskCardNumbers(text) : text;
    const [batch] = await tx
      .insert(transferBatches)
      .values({
        transferId: transfer.id,
        kind: input.kind,
        customerId: actor.customerId,
        userId: actor.userId,
        accountId: from.accountId,
        currency,
        fileName: input.fileName.slice(0, 200),
        content,
        rowCount: rows.length,
        createdAt: transfer.createdAt,
      })
      .returning({ id: transferBatches.id });
    for (let i = 0; i < rows.length; i += 500) {
      await tx.insert(transferBatchRows).values(
        rows.slice(i, i + 500).map((r) => ({ batchId: batch!.id, line: r.line, payee: r.payee, amountMinor: r.amountMinor, feeMinor: r.feeMinor, note: r.note, reference: r.reference })),
      );
    }
    return {
      ...base,
      batchId: batch!.id,
      transactionId: result.transactionId,
      status: result.status,
      approveType: result.approveType,
      approvalSentTo: result.approvalSentTo,
      expiresAt: result.expiresAt,
    };
  }

  /**
   * Pays the next ROWS_A_TRANSACTION pending rows of the batch of an approved request, in one
   * transaction (each row's transfer in its own savepoint); how many were handled, 0 when none is
   * left (the request is then posted and the batch finished, once).
   */
  async function payNextRows(db: Db, transferId: number): Promise<number> {
    const finished: { customerId: number; event: { type: string } & Record<string, unknown> }[] = [];
    const handled = await db.transaction(async (tx) => {
      const [parent] = await tx.select().from(transfers).where(eq(transfers.id, transferId)).for('update');
      if (!parent || parent.kind !== 'mass' || parent.status !== 'processing') return 0;
      const [batch] = await tx.select().from(transferBatches).where(eq(transferBatches.transferId, transferId));
      if (!batch) throw new Error(`mass request ${transferId} has no batch`);
      const rows = await tx
        .select()
        .from(transferBatchRows)
        .where(and(eq(transferBatchRows.batchId, batch.id), eq(transferBatchRows.status, 'pending')))
        .orderBy(asc(transferBatchRows.line))
        .limit(ROWS_A_TRANSACTION);
      if (rows.length === 0) {
        const at = new Date(service.now());
        await tx.update(transfers).set({ status: 'posted', updatedAt: at }).where(eq(transfers.id, transferId));
        await tx.update(transferBatches).set({ finishedAt: at }).where(eq(transferBatches.id, batch.id));
        // document 3 §2: a batch finished with failures is a notification leading to the batch
        if (batch.failedCount > 0) {
          await notify(tx, (customerId, event) => finished.push({ customerId, event }), {
            customerId: batch.customerId,
            type: 'batchPartial',
            params: { failed: batch.failedCount, total: batch.rowCount, batchKind: 'mass' },
            target: { kind: 'batch', batchId: batch.id },
            nowMs: service.now(),
          });
        }
        return 0;
      }
      const actor: TransferActor = { userId: batch.userId, customerId: batch.customerId, ip: '', publish: () => {} };
      let done = 0;
      let failed = 0;
      for (const row of rows) {
        // the row's share of the batch's hold, released where its own transfer takes the money
        const locked = await lockAccounts(tx, [batch.accountId]);
        await releaseHold(tx, locked.get(batch.accountId)!, row.amountMinor + row.feeMinor);
        const common = {
          fromAccountId: batch.accountId,
          amount: minorToDecimal(row.amountMinor, batch.currency),
          currency: batch.currency,
          note: row.note ?? undefined,
          reference: row.reference ?? undefined,
          params: { from: 'accountId', to: `rows.${row.line}`, amount: `rows.${row.line}.amount`, currency: `rows.${row.line}.currency` },
        };
        const options = { batchRow: { batchId: batch.id, line: row.line } };
        const where = and(eq(transferBatchRows.batchId, batch.id), eq(transferBatchRows.line, row.line));
        try {
          const result = await tx.transaction(async (sp) =>
            batch.kind === 'p2p'
              ? service.request(sp, actor, { ...common, kind: 'p2p', toEmail: row.payee.email! }, options)
              : service.request(sp, actor, { ...common, kind: batch.kind as MassPayoutMethod, beneficiary: { ...(row.payee.fields ?? {}), ...(row.payee.countryCode ? { countryCode: row.payee.countryCode } : {}) }, beneficiaryName: row.payee.name }, options),
          );
          await tx.update(transferBatchRows).set({ status: 'done', transferId: result.transactionId }).where(where);
          done++;
        } catch (err) {
          if (!(err instanceof MethodFailure)) throw err;
          // the row's transfer is undone with its savepoint: the row is failed with the request's answer
          const first = err.validationErrors?.[0];
          const description = first ? describeVf(first.code, first.params ?? {}) : err.responseDescription;
          await tx.update(transferBatchRows).set({ status: 'failed', errorCode: err.responseCode, errorDescription: description.slice(0, 300) }).where(where);
          failed++;
        }
      }
      await tx
        .update(transferBatches)
        .set({ doneCount: sql`${transferBatches.doneCount} + ${done}`, failedCount: sql`${transferBatches.failedCount} + ${failed}` })
        .where(eq(transferBatches.id, batch.id));
      return rows.length;
    });
    // after the commit: a push is never sent for a change that rolled back
    for (const f of finished) await publisher?.publish(f.customerId, f.event).catch(() => undefined);
    return handled;
  }

  /** Job MASS_QUEUE: pays every pending row of the approved request's batch; idempotent. */
  async function payBatch(db: Db, transferId: number): Promise<number> {
    let paid = 0;
    for (let handled = await payNextRows(db, transferId); handled > 0; handled = await payNextRows(db, transferId)) paid += handled;
    return paid;
  }

  return { upload, payBatch };
}

export type MassService = ReturnType<typeof createMassService>;

// ---- reading batches ---------------------------------------------------------------------------

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * What a batch's request says of the batch (mass and global pay alike): awaiting its approval,
 * being paid, or ended without paying anything; null once posted (the batch's own rows then tell).
 */
export function requestBatchStatus(requestStatus: TransferStatus): 'awaitingApproval' | 'processing' | 'rejected' | 'expired' | 'canceled' | null {
  switch (requestStatus) {
    case 'pending':
      return 'awaitingApproval';
    case 'processing':
      return 'processing';
    case 'rejected':
    case 'expired':
    case 'canceled':
      return requestStatus;
    default:
      return null;
  }
}

/** A batch's state from its request's status and its counters (api/mass.ts BATCH_STATUSES). */
export function batchStatusOf(requestStatus: TransferStatus, rowCount: number, doneCount: number, failedCount: number): BatchStatus {
  const fromRequest = requestBatchStatus(requestStatus);
  if (fromRequest) return fromRequest;
  if (failedCount === 0 && doneCount === rowCount) return 'done';
  return doneCount === 0 ? 'failed' : 'partial';
}

type BatchRow = typeof transferBatches.$inferSelect & { requestStatus: TransferStatus; amountMinor: bigint; feeMinor: bigint };

function batchOut(b: BatchRow): Batch {
  const handled = b.doneCount + b.failedCount;
  return {
    id: b.id,
    dateTime: b.createdAt.toISOString(),
    kind: b.kind,
    status: batchStatusOf(b.requestStatus, b.rowCount, b.doneCount, b.failedCount),
    fileName: b.fileName,
    accountId: b.accountId,
    currency: b.currency,
    count: b.rowCount,
    doneCount: b.doneCount,
    failedCount: b.failedCount,
    progress: b.rowCount === 0 ? 100 : Math.floor((handled * 100) / b.rowCount),
    total: minorToDecimal(b.amountMinor, b.currency),
    fee: minorToDecimal(b.feeMinor, b.currency),
    transactionId: b.transferId,
  };
}

const batchColumns = {
  id: transferBatches.id,
  transferId: transferBatches.transferId,
  kind: transferBatches.kind,
  customerId: transferBatches.customerId,
  userId: transferBatches.userId,
  accountId: transferBatches.accountId,
  currency: transferBatches.currency,
  fileName: transferBatches.fileName,
  content: transferBatches.content,
  rowCount: transferBatches.rowCount,
  doneCount: transferBatches.doneCount,
  failedCount: transferBatches.failedCount,
  createdAt: transferBatches.createdAt,
  finishedAt: transferBatches.finishedAt,
  requestStatus: transfers.status,
  amountMinor: transfers.amountMinor,
  feeMinor: transfers.feeMinor,
};

export interface BatchFilter {
  search?: string | undefined;
  /** the kinds asked (batches.ts reads the mass ones here) */
  types?: readonly BatchKind[] | undefined;
  from?: string | undefined;
  to?: string | undefined;
  pageNumber?: number | undefined;
  pageSize?: number | undefined;
}

/** The ILIKE pattern of a search: its own %, _ and backslash taken literally. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The first of a day (from) and the first of the day after (to), as the filters' bounds. */
export function dayBounds(filter: Pick<BatchFilter, 'from' | 'to'>): { from: Date | null; to: Date | null } {
  return {
    from: filter.from ? new Date(`${filter.from}T00:00:00Z`) : null,
    to: filter.to ? new Date(new Date(`${filter.to}T00:00:00Z`).getTime() + 86_400_000) : null,
  };
}

/**
 * The acting customer's mass batches matching the filter (its mass kinds: none asked, none read),
 * newest first: the first `limit` of them and how many match (batches.ts merges them with the
 * global-pay batches into batchTransferList's pages).
 */
export async function listMassBatches(db: Db | Tx, customerId: number, filter: BatchFilter, limit: number): Promise<{ batches: Batch[]; total: number }> {
  const kinds = filter.types && filter.types.length > 0 ? filter.types.filter((k): k is MassKind => k !== 'global') : null;
  if (kinds && kinds.length === 0) return { batches: [], total: 0 };
  const where: SQL[] = [eq(transferBatches.customerId, customerId)];
  if (filter.search) where.push(ilike(transferBatches.fileName, likePattern(filter.search)));
  if (kinds) where.push(inArray(transferBatches.kind, kinds));
  const bounds = dayBounds(filter);
  if (bounds.from) where.push(gte(transferBatches.createdAt, bounds.from));
  if (bounds.to) where.push(lt(transferBatches.createdAt, bounds.to));
  const [counted] = await db.select({ n: count() }).from(transferBatches).where(and(...where));
  const rows = await db
    .select(batchColumns)
    .from(transferBatches)
    .innerJoin(transfers, eq(transfers.id, transferBatches.transferId))
    .where(and(...where))
    .orderBy(desc(transferBatches.createdAt), desc(transferBatches.id))
    .limit(limit);
  return { batches: rows.map(batchOut), total: counted?.n ?? 0 };
}

/** batchFileView of a mass batch: one batch of the acting customer with its rows and file; null when not theirs. */
export async function viewMassBatch(db: Db | Tx, customerId: number, id: number) {
  const [b] = await db.select(batchColumns).from(transferBatches).innerJoin(transfers, eq(transfers.id, transferBatches.transferId)).where(eq(transferBatches.id, id));
  if (!b || b.customerId !== customerId) return null;
  const rows = await db
    .select({ row: transferBatchRows, transferStatus: transfers.status })
    .from(transferBatchRows)
    .leftJoin(transfers, eq(transfers.id, transferBatchRows.transferId))
    .where(eq(transferBatchRows.batchId, id))
    .orderBy(asc(transferBatchRows.line));
  return {
    batch: batchOut(b),
    rows: rows.map(({ row, transferStatus }) => ({
      line: row.line,
      payee: row.payee.email ?? row.payee.name,
      countryCode: row.payee.countryCode ?? null,
      amount: minorToDecimal(row.amountMinor, b.currency),
      fee: minorToDecimal(row.feeMinor, b.currency),
      status: row.status,
      transactionId: row.transferId,
      transferStatus: transferStatus ?? null,
      errorCode: row.errorCode,
      errorDescription: row.errorDescription,
    })),
    file: b.content,
  };
}

