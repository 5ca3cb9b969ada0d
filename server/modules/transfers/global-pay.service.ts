/**
 * Global pay (api/global-pay.ts, global-pay.tables.ts; issue 15 §5).
 *
 * Sender side. An upload reads the CSV with the mass batches' reader (mass-csv.ts), checks every
 * row (VF per `rows.<line>.<column>`, nothing written) and writes a draft batch; an identical file
 * on the same account answers '92' unless confirmed. Drafts are edited by payment id. Submitting
 * asks the transfer service's requestMass (one request of kind mass: the amounts, plus each
 * payment's largest allowed fee when the sender pays it, held; approved by the customer's mode);
 * the transfer service calls `approved` (below) in the approving transaction (approveTransfer,
 * globalPayApprove(Batch), a phone's answer, or at once with approve mode none), which gives each
 * payment its secret and e-mails its beneficiary the link, all in that transaction.
 *
 * Money. Until the payee acts, each waiting payment holds amount + heldFee of the request's hold
 * (ledger.ts reconcile counts it so). The payee's approval moves that share to a payout transfer
 * of the sender's (kind = the chosen rail, status processing, instruction queued for the rail in
 * the same transaction: rails/payouts.service.ts takes it from there: sent, settled, or returned
 * to the sender's account); what the sender's held fee does not need is released. Refusal,
 * expiry and cancel release the share (the money stays with the sender). When no payment waits
 * any more the request is marked posted (it never books an entry itself, as a mass batch's).
 * Once nothing is pending any more (no payment waits, no payout is on its rail) and some payments
 * ended unpaid, the sender is told once (batchPartial, noticeIfBatchEnded: from a payee's refusal,
 * the expiry sweep, and the rails' worker when a payout ends).
 *
 * Payee side. Every call names the payment and its secret; the secret's SHA-256 is compared in
 * constant time. Each call first counts an attempt for the payment and for the client's address in
 * one statement (insert ... on conflict do update, under the rows' locks: parallel guesses cannot
 * pass a check made before they were counted); a right secret gives its attempts back. Over the
 * limit, 13 "Too many attempts". An unknown id and a wrong secret answer alike (ENOA).
 *
 * Limits: at submit each payment's amount must be within the per-payment limits of every method
 * its payee may choose (VF aboveMaximum / belowMinimum naming `payments.<id>.amount`: forbid the
 * method or change the amount). Daily limits: the batch's request counts nothing (as a mass
 * batch); a payee's payout counts on the sender's day for its rail when taken, without a limit
 * check (the money was already held).
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import { VfCode, vf, type CodedValidationError } from '../../../api/errors.ts';
import {
  CONFIRM_RESPONSE_CODE,
  GLOBAL_PAY_CODE_LENGTH,
  GLOBAL_PAY_CODE_MAX_ATTEMPTS,
  GLOBAL_PAY_CODE_TTL_S,
  GLOBAL_PAY_EXPIRE_DAYS,
  GLOBAL_PAY_RESEND_INTERVAL_S,
  GLOBAL_PAY_SECRET_LIMITS,
  type GlobalBatchStatus,
  type GlobalPaymentStatus,
} from '../../../api/global-pay.ts';
import { EMAIL_PATTERN } from '../../../api/payees/instant.ts';
import { availableMethods, validatePayeeFields, type PayoutMethod } from '../../../api/payees/methods.ts';
import { enqueueMail } from '../../adapters/outbox.ts';
import type { Db, Tx } from '../../db/types.ts';
import { lockAccounts, placeHold, providerCustomerId, releaseHold } from '../accounts/ledger.ts';
import { minorToDecimal } from '../accounts/money.ts';
import { customers } from '../customers/customers.tables.ts';
import { readBlockedBins } from '../external/external.methods.ts';
import { KeptFailure } from '../platform/method-endpoint.ts';
import { MethodFailure } from '../method-types.ts';
import { notifications } from '../notifications/notifications.tables.ts';
import { notify, type PublishAfterCommit } from '../notifications/notify.ts';
import { clearingAccountId } from '../rails/clearing.ts';
import { beneficiaryNameOf, beneficiaryOf } from '../rails/payout.methods.ts';
import { railInstructions } from '../rails/rails.tables.ts';
import { maskEmail } from '../recovery/recovery.service.ts';
import { addDailyUsage, computeFee, feeRuleFor, limitsFor, utcDay, type FeeRule, type Limits } from './fees.ts';
import { globalPayBatches, globalPaymentThrottles, globalPayments, type FeeShare } from './global-pay.tables.ts';
import { GLOBAL_PAY_FLAGS } from './permissions.ts';
import { columnKey, csvText, isFormula, parseCsv } from './mass-csv.ts';
import { requestBatchStatus } from './mass.service.ts';
import { convertForward, rateFor } from './rates.ts';
import { transfers, type TransferStatus } from './transfers.tables.ts';
import { customerName, parseAmount, type PayoutPort, type TransferActor, type TransferPublisher, type TransferResult, type TransferRow, type TransferService } from './transfers.service.ts';

/** The path of the payee's page (routes.tsv /receive/{id}). */
export const RECEIVE_PATH = '/receive';

export const GlobalPayMessages = {
  unknownBatch: 'Unknown batch',
  notDraft: 'This batch can no longer be changed',
  notSubmittable: 'This batch has no payment to submit',
  unknownOperation: 'Unknown operation',
  unknownPayment: 'Unknown payment',
  tooManyAttempts: 'Too many attempts: try again later',
  notWaiting: 'This payment can no longer be taken',
  expired: 'This payment has expired',
  codeExpired: 'The code has expired: ask for a new one',
  resendTooSoon: 'A code was sent a moment ago',
  payoutsUnavailable: 'Payouts are not available: the platform runs without its job queue',
} as const;

type BatchRow = typeof globalPayBatches.$inferSelect;
type PaymentRow = typeof globalPayments.$inferSelect;
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const fail = (errors: CodedValidationError[]) => new MethodFailure('VF', 'Invalid request', errors);
/** A daily counter without a limit (the payout's money was held when the batch was approved). */
const NO_DAILY_LIMIT = 10n ** 30n;

export interface GlobalPayDeps {
  transfers: TransferService;
  /** the rails' side (the app's payout service); null: payees cannot take payments (UE) */
  payouts: Pick<PayoutPort, 'instruct'> | null;
  now: () => number;
  /** the web app's origin: the beneficiary's link */
  publicUrl: string;
  expireDays?: number;
}

/** A payment as the sender writes it, checked (see checkPayment). */
interface PaymentValues {
  beneficiaryName: string;
  beneficiaryEmail: string;
  beneficiaryCountryCode: string;
  beneficiaryType: 'individual' | 'business';
  amountMinor: bigint;
  description: string;
  feeShare: FeeShare;
}

export interface PaymentInput {
  beneficiaryName: string;
  beneficiaryEmail: string;
  beneficiaryCountryCode: string;
  beneficiaryType?: string | undefined;
  amount: string;
  description?: string | undefined;
  feeShare?: string | undefined;
}

/** The methods a payment's payee may use in a country: the country's methods in the currency, less the forbidden ones. */
export function allowedMethods(countryCode: string, currency: string, forbidden: readonly string[]): PayoutMethod[] {
  return availableMethods(countryCode, currency).filter((m) => !forbidden.includes(m));
}

/** Every problem of a payment's values, each named by `at(field)`; the values when none. */
export function checkPayment(input: PaymentInput, currency: string, at: (field: string) => string): { values: PaymentValues | null; errors: CodedValidationError[] } {
  const errors: CodedValidationError[] = [];
  const name = input.beneficiaryName.trim();
  if (!name) errors.push(vf(at('beneficiaryName'), VfCode.required));
  else if (name.length > 140) errors.push(vf(at('beneficiaryName'), VfCode.tooLong, { max: 140 }));
  const email = input.beneficiaryEmail.trim().toLowerCase();
  if (!email) errors.push(vf(at('beneficiaryEmail'), VfCode.required));
  else if (!EMAIL_PATTERN.test(email) || email.length > 254) errors.push(vf(at('beneficiaryEmail'), VfCode.notEmail));
  const country = input.beneficiaryCountryCode.trim().toUpperCase();
  if (!country) errors.push(vf(at('beneficiaryCountryCode'), VfCode.required));
  else if (!/^[A-Z]{2}$/.test(country)) errors.push(vf(at('beneficiaryCountryCode'), VfCode.countryCodeFormat));
  else if (availableMethods(country, currency).length === 0) errors.push(vf(at('beneficiaryCountryCode'), VfCode.notAllowed));
  const type = (input.beneficiaryType ?? '').trim().toLowerCase() || 'individual';
  if (type !== 'individual' && type !== 'business') errors.push(vf(at('beneficiaryType'), VfCode.notAllowed));
  const feeShare = (input.feeShare ?? '').trim().toLowerCase() || 'sender';
  if (feeShare !== 'sender' && feeShare !== 'beneficiary') errors.push(vf(at('feeShare'), VfCode.notAllowed));
  const description = (input.description ?? '').trim();
  if (description.length > 140) errors.push(vf(at('description'), VfCode.tooLong, { max: 140 }));
  let amountMinor = 0n;
  if (!input.amount.trim()) errors.push(vf(at('amount'), VfCode.required));
  else if (!/^\d{1,15}(\.\d{1,8})?$/.test(input.amount.trim())) errors.push(vf(at('amount'), VfCode.amountFormat));
  else {
    try {
      amountMinor = parseAmount(input.amount.trim(), currency, at('amount'));
      if (amountMinor <= 0n) errors.push(vf(at('amount'), VfCode.positive));
    } catch (err) {
      if (err instanceof MethodFailure && err.validationErrors) errors.push(...err.validationErrors);
      else throw err;
    }
  }
  if (errors.length > 0) return { values: null, errors };
  return {
    values: { beneficiaryName: name, beneficiaryEmail: email, beneficiaryCountryCode: country, beneficiaryType: type as PaymentValues['beneficiaryType'], amountMinor, description, feeShare: feeShare as FeeShare },
    errors,
  };
}

const UPLOAD_COLUMNS = {
  required: ['beneficiaryName', 'beneficiaryEmail', 'beneficiaryCountryCode', 'amount', 'description'],
  optional: ['beneficiaryType', 'feeShare'],
} as const;

/** The rows of an uploaded CSV as payments; VF listing every problem. */
export function readUpload(content: Uint8Array, currency: string): { line: number; values: PaymentValues }[] {
  const decoded = csvText(content);
  if (!decoded.ok) throw fail(decoded.errors);
  const parsed = parseCsv(decoded.text, true);
  if (!parsed.ok) throw fail(parsed.errors);
  const known = [...UPLOAD_COLUMNS.required, ...UPLOAD_COLUMNS.optional];
  const byKey = new Map(known.map((name) => [columnKey(name), name]));
  const errors: CodedValidationError[] = [];
  const seen = new Set<string>();
  const names = parsed.table.header.map((cell) => {
    const name = byKey.get(columnKey(cell)) ?? null;
    if (name === null || seen.has(name)) {
      errors.push(vf('file', VfCode.csvUnknownColumn, { column: cell.slice(0, 40) }));
      return null;
    }
    seen.add(name);
    return name;
  });
  for (const name of UPLOAD_COLUMNS.required) if (!seen.has(name)) errors.push(vf('file', VfCode.csvMissingColumn, { column: name }));
  if (errors.length > 0) throw fail(errors);
  const out: { line: number; values: PaymentValues }[] = [];
  for (const row of parsed.table.rows) {
    if (row.cells.length > names.length) {
      errors.push(vf(`rows.${row.line}`, VfCode.csvCellCount, { expected: names.length }));
      continue;
    }
    const cells: Record<string, string> = {};
    const rowErrors: CodedValidationError[] = [];
    names.forEach((name, i) => {
      const value = row.cells[i] ?? '';
      if (name === null) return;
      if (isFormula(value)) rowErrors.push(vf(`rows.${row.line}.${name}`, VfCode.csvFormula));
      else cells[name] = value;
    });
    if (rowErrors.length > 0) {
      errors.push(...rowErrors);
      continue;
    }
    const checked = checkPayment(
      {
        beneficiaryName: cells.beneficiaryName ?? '',
        beneficiaryEmail: cells.beneficiaryEmail ?? '',
        beneficiaryCountryCode: cells.beneficiaryCountryCode ?? '',
        beneficiaryType: cells.beneficiaryType,
        amount: cells.amount ?? '',
        description: cells.description,
        feeShare: cells.feeShare,
      },
      currency,
      (field) => `rows.${row.line}.${field}`,
    );
    if (checked.values) out.push({ line: row.line, values: checked.values });
    else errors.push(...checked.errors);
  }
  if (errors.length > 0) throw fail(errors);
  return out;
}

/** Fee rules of the rails in one currency, read once per call. */
function feeRules(db: Db | Tx, currency: string) {
  const cache = new Map<string, Promise<FeeRule | null>>();
  return async (method: PayoutMethod, amountMinor: bigint): Promise<bigint> => {
    let rule = cache.get(method);
    if (!rule) cache.set(method, (rule = feeRuleFor(db, method, currency)));
    return computeFee(await rule, amountMinor);
  };
}

/** The largest fee of the allowed methods on the amount (what a sender paying the fee holds). */
async function maximumFee(fee: (method: PayoutMethod, amountMinor: bigint) => Promise<bigint>, methods: readonly PayoutMethod[], amountMinor: bigint): Promise<bigint> {
  let max = 0n;
  for (const method of methods) {
    const f = await fee(method, amountMinor);
    if (f > max) max = f;
  }
  return max;
}

// ---- statuses -----------------------------------------------------------------------------------

export function paymentStatusOf(p: PaymentRow, batch: BatchRow, requestStatus: TransferStatus | null, payoutStatus: TransferStatus | null, nowMs: number): GlobalPaymentStatus {
  switch (p.state) {
    case 'draft':
      if (batch.state === 'draft') return 'draft';
      if (batch.state === 'submitted' && requestStatus === 'pending') return 'awaitingApproval';
      return 'canceled';
    case 'waiting':
      return p.expiresAt && p.expiresAt.getTime() <= nowMs ? 'expired' : 'waiting';
    case 'taken':
      return payoutStatus === 'posted' ? 'completed' : payoutStatus === 'returned' ? 'returned' : payoutStatus === 'rejected' ? 'failed' : 'processing';
    default:
      return p.state;
  }
}

export function batchStatusOf(batch: BatchRow, requestStatus: TransferStatus | null): GlobalBatchStatus {
  if (batch.state === 'draft') return 'draft';
  if (batch.state === 'rejected') return 'rejected';
  if (batch.state === 'canceled') return 'canceled';
  return (requestStatus && requestBatchStatus(requestStatus)) ?? 'done';
}

// ---- the batch's end notice -----------------------------------------------------------------------

/**
 * Document 3 §2 "a partial batch goes to batch": once a submitted batch has ended (its request
 * posted: no payment waits for its payee; and no payout is still on its rail) with payments that
 * ended unpaid, its sender is told (batchPartial, as a mass batch's end: notify() honours the
 * settings and words it), leading to the batch (batchKind 'global'). Once per batch: under the
 * request's row lock (after the payments' and the account's, as resolveIfDone), the notice already
 * written is found. A batch its sender canceled is not told.
 */
export async function noticeIfBatchEnded(tx: Tx, batchId: number, publish: PublishAfterCommit, nowMs: number): Promise<void> {
  const [batch] = await tx.select().from(globalPayBatches).where(eq(globalPayBatches.id, batchId));
  if (!batch || batch.state !== 'submitted' || batch.transferId === null) return;
  const [request] = await tx.select({ status: transfers.status }).from(transfers).where(eq(transfers.id, batch.transferId)).for('update');
  if (request?.status !== 'posted') return;
  const rows = await tx
    .select({ p: globalPayments, payoutStatus: transfers.status })
    .from(globalPayments)
    .leftJoin(transfers, eq(transfers.id, globalPayments.payoutTransferId))
    .where(and(eq(globalPayments.batchId, batch.id), ne(globalPayments.state, 'deleted')));
  const statuses = rows.map((r) => paymentStatusOf(r.p, batch, 'posted', r.payoutStatus, nowMs));
  if (statuses.some((x) => x === 'waiting' || x === 'processing' || x === 'awaitingApproval')) return;
  const failed = statuses.filter((x) => x !== 'completed').length;
  if (failed === 0) return;
  const [told] = await tx
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.customerId, batch.customerId),
        eq(notifications.type, 'batchPartial'),
        sql`${notifications.params}->>'batchKind' = 'global'`,
        sql`(${notifications.params}->>'target')::jsonb->>'batchId' = ${String(batch.id)}`,
      ),
    )
    .limit(1);
  if (told) return;
  await notify(tx, publish, {
    customerId: batch.customerId,
    type: 'batchPartial',
    params: { failed, total: statuses.length, batchKind: 'global' },
    target: { kind: 'batch', batchId: batch.id },
    nowMs,
  });
}

/** noticeIfBatchEnded for the batch of a payout transfer (a rail's answer ended it), in its own transaction; the push after the commit. */
export async function noticeIfPayoutEndedBatch(db: Db, payoutTransferId: number, publisher: TransferPublisher | null, nowMs: number): Promise<void> {
  const [payment] = await db.select({ batchId: globalPayments.batchId }).from(globalPayments).where(eq(globalPayments.payoutTransferId, payoutTransferId));
  if (!payment) return;
  const events: { customerId: number; event: Record<string, unknown> & { type: string } }[] = [];
  await db.transaction((tx) => noticeIfBatchEnded(tx, payment.batchId, (customerId, event) => events.push({ customerId, event }), nowMs));
  for (const e of events) await publisher?.publish(e.customerId, e.event).catch(() => undefined);
}

// ---- the service --------------------------------------------------------------------------------

export function createGlobalPayService(deps: GlobalPayDeps) {
  const { now } = deps;
  const at = (ms: number) => new Date(ms);
  const expireDays = deps.expireDays ?? GLOBAL_PAY_EXPIRE_DAYS;

  async function requestStatusOf(db: Db | Tx, batch: BatchRow): Promise<TransferStatus | null> {
    if (batch.transferId === null) return null;
    const [t] = await db.select({ status: transfers.status }).from(transfers).where(eq(transfers.id, batch.transferId));
    return t?.status ?? null;
  }

  /** The acting customer's batch (locked for a change); ENOA for anyone else's or an unknown id. */
  async function ownBatch(db: Db | Tx, actor: { customerId: number }, batchId: number, lock = false): Promise<BatchRow> {
    const query = db.select().from(globalPayBatches).where(eq(globalPayBatches.id, batchId));
    const [batch] = lock ? await query.for('update') : await query;
    if (!batch || batch.customerId !== actor.customerId) throw new MethodFailure('ENOA', GlobalPayMessages.unknownBatch);
    return batch;
  }

  async function draftBatch(tx: Tx, actor: { customerId: number }, batchId: number): Promise<BatchRow> {
    const batch = await ownBatch(tx, actor, batchId, true);
    if (batch.state !== 'draft') throw new MethodFailure('TA1', GlobalPayMessages.notDraft);
    return batch;
  }

  /** globalPayBatchGet's answer. */
  async function viewBatch(db: Db | Tx, batch: BatchRow) {
    const requestStatus = await requestStatusOf(db, batch);
    const rows = await db
      .select({ p: globalPayments, payoutStatus: transfers.status })
      .from(globalPayments)
      .leftJoin(transfers, eq(transfers.id, globalPayments.payoutTransferId))
      .where(eq(globalPayments.batchId, batch.id))
      .orderBy(asc(globalPayments.id));
    const nowMs = now();
    const live = rows.filter((r) => r.p.state !== 'deleted');
    const cur = batch.currency;
    return {
      batch: {
        batchId: batch.id,
        name: batch.name,
        accountId: batch.accountId,
        currency: cur,
        status: batchStatusOf(batch, requestStatus),
        createdDate: batch.createdAt.toISOString(),
        submittedDate: batch.submittedAt?.toISOString() ?? null,
        expireDays: batch.expireDays,
        count: live.length,
        total: minorToDecimal(live.reduce((s, r) => s + r.p.amountMinor, 0n), cur),
        fee: minorToDecimal(live.reduce((s, r) => s + r.p.heldFeeMinor, 0n), cur),
        transactionId: batch.transferId,
        payments: rows.map(({ p, payoutStatus }) => ({
          id: p.id,
          line: p.line,
          amount: minorToDecimal(p.amountMinor, cur),
          description: p.description,
          beneficiaryType: p.beneficiaryType,
          beneficiaryName: p.beneficiaryName,
          beneficiaryEmail: p.beneficiaryEmail,
          beneficiaryCountryCode: p.beneficiaryCountryCode,
          feeShare: p.feeShare,
          paymentMethods: availableMethods(p.beneficiaryCountryCode, cur).map((name) => ({ name, forbidden: p.forbiddenMethods.includes(name) })),
          status: paymentStatusOf(p, batch, requestStatus, payoutStatus, nowMs),
          heldFee: minorToDecimal(p.heldFeeMinor, cur),
          expiresAt: p.expiresAt?.toISOString() ?? null,
          transactionId: p.payoutTransferId,
        })),
      },
    };
  }

  async function ownAccountOf(tx: Db | Tx, actor: { customerId: number }, accountId: number) {
    const [account] = await tx.execute(sql`select account_id, customer_id, currency, purpose, status from accounts where account_id = ${accountId}`).then((r) => rowsOf<{ account_id: number; customer_id: number; currency: string; purpose: string; status: number }>(r));
    if (!account || Number(account.customer_id) !== actor.customerId || account.purpose !== 'customer') throw new MethodFailure('ENOA', 'No access to this account');
    if (Number(account.status) === 11) throw new MethodFailure('CA', 'The account is closed');
    return { accountId: Number(account.account_id), currency: account.currency };
  }

  /** globalPayUpload: a draft batch, or '92' with the identical batch. */
  async function upload(tx: Tx, actor: TransferActor, input: { accountId: number; batchName: string; ignoreIdenticalBatch: boolean; content: Uint8Array }) {
    const account = await ownAccountOf(tx, actor, input.accountId);
    const payments = readUpload(input.content, account.currency);
    const contentHash = createHash('sha256').update(input.content).digest('hex');
    if (!input.ignoreIdenticalBatch) {
      const [same] = await tx
        .select({ id: globalPayBatches.id, createdAt: globalPayBatches.createdAt })
        .from(globalPayBatches)
        .where(and(eq(globalPayBatches.accountId, account.accountId), eq(globalPayBatches.contentHash, contentHash)))
        .orderBy(desc(globalPayBatches.id))
        .limit(1);
      if (same) return { responseCode: CONFIRM_RESPONSE_CODE, date: same.createdAt.toISOString(), batchId: same.id, result: null };
    }
    const createdAt = at(now());
    const [batch] = await tx
      .insert(globalPayBatches)
      .values({ customerId: actor.customerId, userId: actor.userId, accountId: account.accountId, currency: account.currency, name: input.batchName, source: 'file', contentHash, expireDays, createdAt })
      .returning();
    for (let i = 0; i < payments.length; i += 500) {
      await tx.insert(globalPayments).values(payments.slice(i, i + 500).map((p) => ({ batchId: batch!.id, line: p.line, ...p.values, updatedAt: createdAt })));
    }
    const total = payments.reduce((s, p) => s + p.values.amountMinor, 0n);
    return {
      responseCode: '00' as const,
      date: createdAt.toISOString(),
      batchId: batch!.id,
      result: { count: payments.length, total: minorToDecimal(total, account.currency), currency: account.currency, status: 'draft' as const },
    };
  }

  /** A draft's payment by id (VF naming `param` when it is not one of the batch's). */
  async function paymentOfBatch(tx: Tx, batch: BatchRow, id: number, param: string): Promise<PaymentRow> {
    const [p] = await tx.select().from(globalPayments).where(and(eq(globalPayments.id, id), eq(globalPayments.batchId, batch.id)));
    if (!p) throw fail([vf(param, VfCode.invalid)]);
    return p;
  }

  /** globalPayUpdatePayments and the single edits: every change checked first, then written. */
  async function edit(
    tx: Tx,
    actor: TransferActor,
    batchId: number,
    changes: {
      adds?: { input: PaymentInput; param: string }[];
      updates?: { id: number; input: PaymentInput; param: string; methods?: { name: string; forbidden: boolean }[]; feeShare?: FeeShare }[];
      deletes?: { id: number; param: string }[];
      restores?: { id: number; param: string }[];
      feeShare?: { ids: { id: number; param: string }[]; feeShare: FeeShare };
      forbidden?: { ids: { id: number; param: string }[]; forbidden: boolean; method: PayoutMethod };
    },
  ) {
    const batch = await draftBatch(tx, actor, batchId);
    const errors: CodedValidationError[] = [];
    const adds: PaymentValues[] = [];
    for (const add of changes.adds ?? []) {
      const checked = checkPayment(add.input, batch.currency, (f) => `${add.param}.${f}`);
      if (checked.values) adds.push(checked.values);
      else errors.push(...checked.errors);
    }
    const updates: { id: number; values: Partial<PaymentRow> }[] = [];
    for (const update of changes.updates ?? []) {
      const p = await paymentOfBatch(tx, batch, update.id, `${update.param}.id`).catch((e: MethodFailure) => (errors.push(...(e.validationErrors ?? [])), null));
      const checked = checkPayment(update.input, batch.currency, (f) => `${update.param}.${f}`);
      if (!p || !checked.values) {
        errors.push(...checked.errors);
        continue;
      }
      const values: Partial<PaymentRow> = { ...checked.values };
      if (update.feeShare) values.feeShare = update.feeShare;
      if (update.methods) {
        const forbidden = new Set(p.forbiddenMethods);
        for (const m of update.methods) {
          if (m.forbidden) forbidden.add(m.name);
          else forbidden.delete(m.name);
        }
        values.forbiddenMethods = [...forbidden].sort();
      }
      updates.push({ id: p.id, values });
    }
    const idsOf = async (list: { id: number; param: string }[]) => {
      const out: number[] = [];
      for (const item of list) {
        try {
          out.push((await paymentOfBatch(tx, batch, item.id, item.param)).id);
        } catch (e) {
          errors.push(...((e as MethodFailure).validationErrors ?? []));
        }
      }
      return out;
    };
    const deletes = await idsOf(changes.deletes ?? []);
    const restores = await idsOf(changes.restores ?? []);
    const feeShareIds = changes.feeShare ? await idsOf(changes.feeShare.ids) : [];
    const forbiddenIds = changes.forbidden ? await idsOf(changes.forbidden.ids) : [];
    if (errors.length > 0) throw fail(errors);
    const stamp = at(now());
    if (adds.length > 0) await tx.insert(globalPayments).values(adds.map((values) => ({ batchId: batch.id, line: 0, ...values, updatedAt: stamp })));
    for (const u of updates) await tx.update(globalPayments).set({ ...u.values, updatedAt: stamp }).where(eq(globalPayments.id, u.id));
    if (deletes.length > 0) await tx.update(globalPayments).set({ state: 'deleted', updatedAt: stamp }).where(inArray(globalPayments.id, deletes));
    if (restores.length > 0) await tx.update(globalPayments).set({ state: 'draft', updatedAt: stamp }).where(inArray(globalPayments.id, restores));
    if (changes.feeShare && feeShareIds.length > 0) await tx.update(globalPayments).set({ feeShare: changes.feeShare.feeShare, updatedAt: stamp }).where(inArray(globalPayments.id, feeShareIds));
    if (changes.forbidden && forbiddenIds.length > 0) {
      const method = changes.forbidden.method;
      await tx
        .update(globalPayments)
        .set({
          forbiddenMethods: changes.forbidden.forbidden
            ? sql`(select coalesce(jsonb_agg(distinct m order by m), '[]'::jsonb) from jsonb_array_elements_text(${globalPayments.forbiddenMethods} || jsonb_build_array(${method}::text)) m)`
            : sql`(select coalesce(jsonb_agg(m order by m), '[]'::jsonb) from jsonb_array_elements_text(${globalPayments.forbiddenMethods}) m where m <> ${method}::text)`,
          updatedAt: stamp,
        })
        .where(inArray(globalPayments.id, forbiddenIds));
    }
    return viewBatch(tx, batch);
  }

  /**
   * globalPayBatchSubmit (and a p2p payment): the held fee of each payment fixed, the request asked
   * (requestMass: the hold, the approval), the batch submitted; approved at once with mode none.
   */
  async function submit(tx: Tx, actor: TransferActor, batchId: number): Promise<TransferResult & { batchId: number }> {
    const batch = await draftBatch(tx, actor, batchId);
    const payments = await tx
      .select()
      .from(globalPayments)
      .where(and(eq(globalPayments.batchId, batch.id), eq(globalPayments.state, 'draft')))
      .orderBy(asc(globalPayments.id));
    if (payments.length === 0) throw new MethodFailure('TA1', GlobalPayMessages.notSubmittable);
    const fee = feeRules(tx, batch.currency);
    const limits = new Map<PayoutMethod, Promise<Limits>>();
    const limitOf = (method: PayoutMethod) => {
      let found = limits.get(method);
      if (!found) limits.set(method, (found = limitsFor(tx, method, batch.currency)));
      return found;
    };
    const errors: CodedValidationError[] = [];
    let amountMinor = 0n;
    let feeMinor = 0n;
    const held: { id: number; heldFeeMinor: bigint }[] = [];
    for (const p of payments) {
      const methods = allowedMethods(p.beneficiaryCountryCode, batch.currency, p.forbiddenMethods);
      if (methods.length === 0) {
        errors.push(vf(`payments.${p.id}.paymentMethods`, VfCode.required));
        continue;
      }
      // the payee may choose any allowed method: the amount must be one each of them takes (per-payment limits)
      let outside: CodedValidationError | null = null;
      for (const method of methods) {
        const limit = await limitOf(method);
        const amount = (minor: bigint) => ({ amount: minorToDecimal(minor, batch.currency), currency: batch.currency });
        if (p.amountMinor < limit.minMinor) outside ??= vf(`payments.${p.id}.amount`, VfCode.belowMinimum, amount(limit.minMinor));
        else if (p.amountMinor > limit.maxMinor) outside ??= vf(`payments.${p.id}.amount`, VfCode.aboveMaximum, amount(limit.maxMinor));
      }
      if (outside) {
        errors.push(outside);
        continue;
      }
      const heldFeeMinor = p.feeShare === 'sender' ? await maximumFee(fee, methods, p.amountMinor) : 0n;
      if (p.feeShare === 'beneficiary' && (await maximumFee(fee, methods, p.amountMinor)) >= p.amountMinor) {
        errors.push(vf(`payments.${p.id}.amount`, VfCode.tooSmall, { min: minorToDecimal(p.amountMinor + 1n, batch.currency) }));
        continue;
      }
      amountMinor += p.amountMinor;
      feeMinor += heldFeeMinor;
      held.push({ id: p.id, heldFeeMinor });
    }
    if (errors.length > 0) throw fail(errors);
    const { result, transfer } = await deps.transfers.requestMass(tx, actor, {
      fromAccountId: batch.accountId,
      amountMinor,
      feeMinor,
      payeeName: payments.length === 1 ? payments[0]!.beneficiaryName : `${payments.length} global payments`,
      requiredFlags: GLOBAL_PAY_FLAGS[batch.source],
      approvedByCaller: true,
    });
    for (const h of held) await tx.update(globalPayments).set({ heldFeeMinor: h.heldFeeMinor }).where(eq(globalPayments.id, h.id));
    await tx.update(globalPayBatches).set({ state: 'submitted', transferId: transfer.id, submittedAt: transfer.createdAt }).where(eq(globalPayBatches.id, batch.id));
    if (transfer.status === 'processing') await approved(tx, transfer);
    actor.audit?.({ globalPayBatchId: batch.id, transferId: transfer.id });
    return { ...result, batchId: batch.id };
  }

  /**
   * The batch's request was approved (the transfer service's hook, in the approving transaction):
   * each payment gets its secret and expiry, its beneficiary the e-mail with the link. false when
   * the request is not a global-pay batch's (a mass batch's: the caller queues its job).
   */
  async function approved(tx: Tx, t: Pick<TransferRow, 'id'>): Promise<boolean> {
    // the caller holds the request's row lock: approvals of one batch are one after the other
    const [batch] = await tx.select().from(globalPayBatches).where(eq(globalPayBatches.transferId, t.id));
    if (!batch) return false;
    if (batch.approvedAt !== null) return true;
    const stamp = at(now());
    const expiresAt = at(now() + batch.expireDays * 86_400_000);
    const [sender] = await tx.select({ businessName: customers.businessName, firstName: customers.firstName, lastName: customers.lastName }).from(customers).where(eq(customers.id, batch.customerId));
    const senderName = sender ? customerName(sender) : '';
    const payments = await tx.select().from(globalPayments).where(and(eq(globalPayments.batchId, batch.id), eq(globalPayments.state, 'draft')));
    for (const p of payments) {
      const secret = randomBytes(24).toString('base64url');
      await tx.update(globalPayments).set({ state: 'waiting', secretHash: sha256(secret), expiresAt, updatedAt: stamp }).where(eq(globalPayments.id, p.id));
      const link = `${deps.publicUrl}${RECEIVE_PATH}/${p.id}?s=${secret}`;
      await enqueueMail(tx, {
        to: p.beneficiaryEmail,
        subject: `${senderName} sent you ${minorToDecimal(p.amountMinor, batch.currency)} ${batch.currency}`.slice(0, 200),
        text: [
          `Hello ${p.beneficiaryName},`,
          '',
          `${senderName} sent you ${minorToDecimal(p.amountMinor, batch.currency)} ${batch.currency}${p.description ? ` (${p.description})` : ''}.`,
          `Choose how to receive it here: ${link}`,
          '',
          `The link is yours only: do not share it. The payment waits for you until ${expiresAt.toISOString().slice(0, 10)}.`,
        ].join('\n'),
      });
    }
    await tx.update(globalPayBatches).set({ approvedAt: stamp }).where(eq(globalPayBatches.id, batch.id));
    await resolveIfDone(tx, batch);
    return true;
  }

  /** When no payment of the batch waits any more, its request is done (posted; it books nothing itself). */
  async function resolveIfDone(tx: Tx, batch: BatchRow): Promise<void> {
    if (batch.transferId === null) return;
    await tx.execute(sql`
      update transfers set status = 'posted', updated_at = ${at(now()).toISOString()}::timestamptz
      where id = ${batch.transferId} and status = 'processing'
        and not exists (select 1 from global_payments where batch_id = ${batch.id} and state = 'waiting')`);
  }

  /** A waiting payment's share released (refused, expired, canceled): the money stays with the sender. */
  async function releasePayment(tx: Tx, batch: BatchRow, p: PaymentRow, state: 'refused' | 'expired' | 'canceled'): Promise<void> {
    const locked = await lockAccounts(tx, [batch.accountId]);
    await releaseHold(tx, locked.get(batch.accountId)!, p.amountMinor + p.heldFeeMinor);
    await tx
      .update(globalPayments)
      .set({ state, operationId: null, codeHash: null, pendingMethod: null, pendingCurrency: null, pendingBeneficiary: null, updatedAt: at(now()) })
      .where(eq(globalPayments.id, p.id));
    await resolveIfDone(tx, batch);
  }

  /** globalPayBatchReject: a draft discarded (nothing was held). */
  async function reject(tx: Tx, actor: TransferActor, batchId: number) {
    const batch = await draftBatch(tx, actor, batchId);
    await tx.update(globalPayBatches).set({ state: 'rejected' }).where(eq(globalPayBatches.id, batch.id));
    return viewBatch(tx, { ...batch, state: 'rejected' });
  }

  /** globalPayBatchCancel: a draft discarded, a pending request canceled, or the waiting payments of an approved batch taken back. */
  async function cancel(tx: Tx, actor: TransferActor, batchId: number) {
    const batch = await ownBatch(tx, actor, batchId, true);
    if (batch.state === 'draft') return reject(tx, actor, batchId);
    if (batch.state !== 'submitted' || batch.transferId === null) throw new MethodFailure('TA1', GlobalPayMessages.notDraft);
    // Lock order as the payee's calls and the expiry sweep: the payments, the account, then the
    // request (resolveIfDone); a pending request is canceled by the transfer service (its own lock).
    const [t] = await tx.select({ id: transfers.id, status: transfers.status }).from(transfers).where(eq(transfers.id, batch.transferId));
    if (t!.status === 'pending') {
      await deps.transfers.cancel(tx, actor, t!.id);
      return viewBatch(tx, batch);
    }
    if (t!.status !== 'processing') throw new MethodFailure('TA1', GlobalPayMessages.notDraft);
    const waiting = await tx
      .select()
      .from(globalPayments)
      .where(and(eq(globalPayments.batchId, batch.id), eq(globalPayments.state, 'waiting')))
      .orderBy(asc(globalPayments.id))
      .for('update');
    for (const p of waiting) await releasePayment(tx, batch, p, 'canceled');
    await tx.update(globalPayBatches).set({ state: 'canceled' }).where(eq(globalPayBatches.id, batch.id));
    return viewBatch(tx, { ...batch, state: 'canceled' });
  }

  /** globalPayApprove (a single payment's request) and globalPayApproveBatch (a file's): the one approval of transfers. */
  async function approveOperation(tx: Tx, actor: TransferActor, operationId: number, code: string, source: 'p2p' | 'file'): Promise<TransferResult> {
    const [batch] = await tx.select({ source: globalPayBatches.source, customerId: globalPayBatches.customerId }).from(globalPayBatches).where(eq(globalPayBatches.transferId, operationId));
    if (!batch || batch.customerId !== actor.customerId || batch.source !== source) throw new MethodFailure('ENOA', GlobalPayMessages.unknownOperation);
    return deps.transfers.approve(tx, actor, operationId, code);
  }

  /** One payment without a file: a batch of one, submitted at once. */
  async function submitP2p(tx: Tx, actor: TransferActor, input: PaymentInput & { accountId: number; forbiddenMethods?: readonly string[] | undefined }) {
    const account = await ownAccountOf(tx, actor, input.accountId);
    const checked = checkPayment(input, account.currency, (f) => f);
    if (!checked.values) throw fail(checked.errors);
    const createdAt = at(now());
    const [batch] = await tx
      .insert(globalPayBatches)
      .values({ customerId: actor.customerId, userId: actor.userId, accountId: account.accountId, currency: account.currency, name: checked.values.beneficiaryName, source: 'p2p', expireDays, createdAt })
      .returning();
    const [payment] = await tx
      .insert(globalPayments)
      .values({ batchId: batch!.id, line: 0, ...checked.values, forbiddenMethods: [...new Set(input.forbiddenMethods ?? [])].sort(), updatedAt: createdAt })
      .returning({ id: globalPayments.id });
    const result = await submit(tx, actor, batch!.id);
    return { ...result, paymentId: payment!.id };
  }

  /** globalPayP2pMeta: the fee of each allowed method, the held fee and the total. */
  async function p2pMeta(db: Db | Tx, actor: { customerId: number }, input: { accountId: number; countryCode: string; amount: string; feeShare?: FeeShare | undefined; forbiddenMethods?: readonly string[] | undefined }) {
    const account = await ownAccountOf(db, actor, input.accountId);
    const cur = account.currency;
    const amountMinor = parseAmount(input.amount, cur, 'amount');
    const methods = allowedMethods(input.countryCode, cur, input.forbiddenMethods ?? []);
    const fee = feeRules(db, cur);
    const fees = [];
    for (const name of methods) fees.push({ name, fee: await fee(name, amountMinor) });
    const max = fees.reduce((m, f) => (f.fee > m ? f.fee : m), 0n);
    const held = (input.feeShare ?? 'sender') === 'sender' ? max : 0n;
    return {
      currency: cur,
      amount: minorToDecimal(amountMinor, cur),
      methods: fees.map((f) => ({ name: f.name, fee: minorToDecimal(f.fee, cur) })),
      maximumTrxFee: minorToDecimal(max, cur),
      fee: minorToDecimal(held, cur),
      total: minorToDecimal(amountMinor + held, cur),
    };
  }

  // ---- payee side -------------------------------------------------------------------------------

  /**
   * The payment named by the payee's call, its secret checked (see the file's comment); the
   * attempt counted first. Throws kept failures (the counters stay) for a wrong secret or the limit.
   */
  async function authenticate(db: Db | Tx, paymentId: number, secret: string, ip: string): Promise<{ payment: PaymentRow; batch: BatchRow }> {
    const limits = GLOBAL_PAY_SECRET_LIMITS;
    const nowIso = at(now()).toISOString();
    const edge = at(now() - limits.windowMs).toISOString();
    const paymentKey = `payment:${paymentId}`;
    const ipKey = `ip:${ip}`;
    const counted = rowsOf<{ key: string; failures: number }>(
      await db.execute(sql`
        insert into global_payment_throttles as t (key, failures, window_start)
        values (${paymentKey}, 1, ${nowIso}::timestamptz), (${ipKey}, 1, ${nowIso}::timestamptz)
        on conflict (key) do update set
          failures = case when t.window_start <= ${edge}::timestamptz then 1 else t.failures + 1 end,
          window_start = case when t.window_start <= ${edge}::timestamptz then ${nowIso}::timestamptz else t.window_start end
        returning key, failures`),
    );
    const over = counted.some((r) => (r.key === paymentKey ? Number(r.failures) > limits.perPayment : Number(r.failures) > limits.perAddress));
    if (over) throw new KeptFailure('13', GlobalPayMessages.tooManyAttempts);
    const [found] = await db.select({ payment: globalPayments, batch: globalPayBatches }).from(globalPayments).innerJoin(globalPayBatches, eq(globalPayBatches.id, globalPayments.batchId)).where(eq(globalPayments.id, paymentId));
    const given = Buffer.from(sha256(secret), 'hex');
    const stored = found?.payment.secretHash ? Buffer.from(found.payment.secretHash, 'hex') : Buffer.alloc(32);
    const right = timingSafeEqual(given, stored) && found?.payment.secretHash != null;
    if (!found || !right) throw new KeptFailure('ENOA', GlobalPayMessages.unknownPayment);
    // the right secret: its attempt given back
    await db.execute(sql`update global_payment_throttles set failures = greatest(failures - 1, 0) where key in (${paymentKey}, ${ipKey})`);
    return found;
  }

  /** The payment locked, after authenticate (a payee's change). */
  async function lockPayment(tx: Tx, id: number): Promise<PaymentRow> {
    const [p] = await tx.select().from(globalPayments).where(eq(globalPayments.id, id)).for('update');
    return p!;
  }

  /** A payee's change needs a waiting payment; one past its time is expired now (kept: the money goes back). */
  async function waitingPayment(tx: Tx, batch: BatchRow, paymentId: number): Promise<PaymentRow> {
    const p = await lockPayment(tx, paymentId);
    if (p.state !== 'waiting') throw new MethodFailure('TA1', GlobalPayMessages.notWaiting);
    if (p.expiresAt && p.expiresAt.getTime() <= now()) {
      await releasePayment(tx, batch, p, 'expired');
      throw new KeptFailure('TA1', GlobalPayMessages.expired);
    }
    return p;
  }

  async function senderNameOf(db: Db | Tx, customerId: number): Promise<string> {
    const [sender] = await db.select({ businessName: customers.businessName, firstName: customers.firstName, lastName: customers.lastName }).from(customers).where(eq(customers.id, customerId));
    return sender ? customerName(sender) : '';
  }

  async function payeeStatus(db: Db | Tx, payment: PaymentRow, batch: BatchRow): Promise<GlobalPaymentStatus> {
    const [payout] = payment.payoutTransferId === null ? [] : await db.select({ status: transfers.status }).from(transfers).where(eq(transfers.id, payment.payoutTransferId));
    return paymentStatusOf(payment, batch, await requestStatusOf(db, batch), payout?.status ?? null, now());
  }

  async function details(db: Db | Tx, payment: PaymentRow, batch: BatchRow) {
    return {
      beneficiaryName: payment.beneficiaryName,
      status: await payeeStatus(db, payment, batch),
      senderName: await senderNameOf(db, batch.customerId),
      amount: minorToDecimal(payment.amountMinor, batch.currency),
      currencyCode: batch.currency,
      description: payment.description,
      feeIsBen: payment.feeShare === 'beneficiary',
      paymentId: payment.id,
      submittedDate: (batch.approvedAt ?? batch.submittedAt ?? batch.createdAt).toISOString(),
      expireDays: batch.expireDays,
      expiresAt: (payment.expiresAt ?? at(now())).toISOString(),
      operationId: payment.operationId,
    };
  }

  /** The methods this payment's payee may use in a country (the sender's allowed ones for the beneficiary's country, there). */
  function payeeMethods(payment: PaymentRow, batch: BatchRow, countryCode: string): PayoutMethod[] {
    const covered = new Set(allowedMethods(payment.beneficiaryCountryCode, batch.currency, payment.forbiddenMethods));
    return availableMethods(countryCode, batch.currency).filter((m) => covered.has(m));
  }

  /** globalPaymentMeta. */
  async function meta(db: Db | Tx, payment: PaymentRow, batch: BatchRow, input: { paymentMethod: PayoutMethod; toCurrencyCode: string; countryCode: string }) {
    const cur = batch.currency;
    if (!payeeMethods(payment, batch, input.countryCode).includes(input.paymentMethod)) throw fail([vf('paymentMethod', VfCode.notAllowed)]);
    const fee = feeRules(db, cur);
    const methodFee = await fee(input.paymentMethod, payment.amountMinor);
    const max = await maximumFee(fee, allowedMethods(payment.beneficiaryCountryCode, cur, payment.forbiddenMethods), payment.amountMinor);
    const arrives = payment.feeShare === 'beneficiary' ? payment.amountMinor - methodFee : payment.amountMinor;
    let rate = '1';
    let toAmount = minorToDecimal(arrives > 0n ? arrives : 0n, cur);
    if (input.toCurrencyCode !== cur) {
      try {
        rate = await rateFor(db, cur, input.toCurrencyCode);
        toAmount = minorToDecimal(convertForward(arrives > 0n ? arrives : 0n, cur, input.toCurrencyCode, rate), input.toCurrencyCode);
      } catch {
        throw fail([vf('toCurrencyCode', VfCode.notAllowed)]);
      }
    }
    return {
      exchangeRate: rate,
      toAmount,
      // as the payee's approval charges it: a sender's fee never above what the sender's hold has for it
      fee: minorToDecimal(payment.feeShare === 'sender' && methodFee > payment.heldFeeMinor ? payment.heldFeeMinor : methodFee, cur),
      estimatedTotal: minorToDecimal(arrives > 0n ? arrives : 0n, cur),
      maximumTrxFee: minorToDecimal(max, cur),
      extraFxMarkupPercent: '0',
    };
  }

  /** globalPaymentSubmit: the form checked, a code e-mailed to the beneficiary. */
  async function payeeSubmit(tx: Tx, found: { payment: PaymentRow; batch: BatchRow }, input: { paymentMethod: PayoutMethod; currencyCode: string; countryCode: string; paymentDetails: Record<string, string> }) {
    const { batch } = found;
    const payment = await waitingPayment(tx, batch, found.payment.id);
    if (input.currencyCode !== batch.currency) throw fail([vf('currencyCode', VfCode.currencyOfAccount)]);
    if (!payeeMethods(payment, batch, input.countryCode).includes(input.paymentMethod)) throw fail([vf('paymentMethod', VfCode.notAllowed)]);
    const blockedBins = input.paymentMethod === 'oct' ? await readBlockedBins(tx) : [];
    const issues = validatePayeeFields({ method: input.paymentMethod, countryCode: input.countryCode, currencyCode: batch.currency }, input.paymentDetails, { blockedBins });
    if (issues.length > 0) {
      throw fail(issues.map((issue) => (issue.field === 'countryCode' ? vf('countryCode', VfCode.notAllowed) : vf(`paymentDetails.${issue.field}`, issue.code as typeof VfCode.badFormat))));
    }
    const fee = await feeRules(tx, batch.currency)(input.paymentMethod, payment.amountMinor);
    if (payment.feeShare === 'beneficiary' && fee >= payment.amountMinor) throw fail([vf('paymentMethod', VfCode.notAllowed)]);
    const beneficiary = beneficiaryOf(input.paymentDetails);
    const name = beneficiaryNameOf(input.paymentDetails) || payment.beneficiaryName;
    const operationId = randomBytes(16).toString('hex');
    const code = sendCode();
    await tx
      .update(globalPayments)
      .set({
        operationId,
        pendingMethod: input.paymentMethod,
        pendingCurrency: input.currencyCode,
        pendingBeneficiary: { ...beneficiary, countryCode: input.countryCode, beneficiaryDisplayName: name },
        codeHash: sha256(`${operationId}:${code}`),
        codeAttempts: 0,
        codeSentAt: at(now()),
        updatedAt: at(now()),
      })
      .where(eq(globalPayments.id, payment.id));
    await mailCode(tx, payment, batch, code);
    return { operationId, approveType: 'email' as const, approvalSentTo: maskEmail(payment.beneficiaryEmail), availableApprovalMethods: ['email' as const] };
  }

  function sendCode(): string {
    return String(randomInt(0, 10 ** GLOBAL_PAY_CODE_LENGTH)).padStart(GLOBAL_PAY_CODE_LENGTH, '0');
  }

  async function mailCode(tx: Tx, payment: PaymentRow, batch: BatchRow, code: string): Promise<void> {
    await enqueueMail(tx, {
      to: payment.beneficiaryEmail,
      subject: `Your confirmation code: ${code}`,
      text: `Your code to receive ${minorToDecimal(payment.amountMinor, batch.currency)} ${batch.currency} is ${code}. It is valid for ${GLOBAL_PAY_CODE_TTL_S / 60} minutes. If you did not ask for it, ignore this e-mail.`,
    });
  }

  /** The payee's pending submission by its operation id (TA1 when it is not this payment's). */
  function pendingOperation(payment: PaymentRow, operationId: string): void {
    if (payment.operationId === null || payment.operationId !== operationId || !payment.pendingMethod || !payment.pendingBeneficiary) {
      throw new MethodFailure('TA1', GlobalPayMessages.unknownOperation);
    }
  }

  /** globalPaymentResendCode: a new code for the pending submission (at most once per GLOBAL_PAY_RESEND_INTERVAL_S). */
  async function resendCode(tx: Tx, found: { payment: PaymentRow; batch: BatchRow }, operationId: string) {
    const payment = await waitingPayment(tx, found.batch, found.payment.id);
    pendingOperation(payment, operationId);
    if (payment.codeSentAt && payment.codeSentAt.getTime() + GLOBAL_PAY_RESEND_INTERVAL_S * 1000 > now()) throw new MethodFailure('TA1', GlobalPayMessages.resendTooSoon);
    const code = sendCode();
    // a new code replaces the old; wrong answers keep counting
    await tx.update(globalPayments).set({ codeHash: sha256(`${operationId}:${code}`), codeSentAt: at(now()) }).where(eq(globalPayments.id, payment.id));
    await mailCode(tx, payment, found.batch, code);
    return { approvalSentTo: maskEmail(payment.beneficiaryEmail) };
  }

  /** globalPaymentApprove: the code checked, then the payout from the payment's held money. */
  async function payeeApprove(tx: Tx, found: { payment: PaymentRow; batch: BatchRow }, input: { operationId: string; approvalCode: string }) {
    const { batch } = found;
    const payment = await waitingPayment(tx, batch, found.payment.id);
    pendingOperation(payment, input.operationId);
    if (!payment.codeSentAt || payment.codeSentAt.getTime() + GLOBAL_PAY_CODE_TTL_S * 1000 <= now()) throw new MethodFailure('TA1', GlobalPayMessages.codeExpired);
    const given = Buffer.from(sha256(`${input.operationId}:${input.approvalCode.trim()}`), 'hex');
    if (!timingSafeEqual(given, Buffer.from(payment.codeHash ?? '0'.repeat(64), 'hex'))) {
      const attempts = payment.codeAttempts + 1;
      if (attempts >= GLOBAL_PAY_CODE_MAX_ATTEMPTS) {
        // the submission is dropped: the payee submits again (a new code)
        await tx.update(globalPayments).set({ operationId: null, codeHash: null, codeAttempts: 0, pendingMethod: null, pendingCurrency: null, pendingBeneficiary: null }).where(eq(globalPayments.id, payment.id));
        throw new KeptFailure('VF', 'Invalid request', [vf('approvalCode', VfCode.approvalTooManyWrong)]);
      }
      await tx.update(globalPayments).set({ codeAttempts: attempts }).where(eq(globalPayments.id, payment.id));
      throw new KeptFailure('VF', 'Invalid request', [vf('approvalCode', VfCode.approvalCodeWrong, { triesLeft: GLOBAL_PAY_CODE_MAX_ATTEMPTS - attempts })]);
    }
    if (!deps.payouts) throw new MethodFailure('UE', GlobalPayMessages.payoutsUnavailable);
    const method = payment.pendingMethod as PayoutMethod;
    const cur = batch.currency;
    // what the rail is told: the form's values as a payout's (payout.methods.ts beneficiaryOf)
    const { countryCode: _country, beneficiaryDisplayName: _name, ...beneficiary } = payment.pendingBeneficiary!;
    let feeMinor = await feeRules(tx, cur)(method, payment.amountMinor);
    let payoutMinor = payment.amountMinor;
    if (payment.feeShare === 'sender') {
      // the fee rule changed since the batch was held: the provider keeps to the fee held
      if (feeMinor > payment.heldFeeMinor) feeMinor = payment.heldFeeMinor;
    } else {
      payoutMinor = payment.amountMinor - feeMinor;
      if (payoutMinor <= 0n) throw fail([vf('paymentMethod', VfCode.notAllowed)]);
    }
    // the payment's share of the batch's hold becomes the payout's (what the fee does not need goes back)
    const locked = await lockAccounts(tx, [batch.accountId]);
    const account = locked.get(batch.accountId)!;
    await releaseHold(tx, account, payment.amountMinor + payment.heldFeeMinor);
    await placeHold(tx, account, payoutMinor + feeMinor);
    const stamp = at(now());
    const [row] = await tx
      .insert(transfers)
      .values({
        kind: method,
        status: 'processing',
        customerId: batch.customerId,
        userId: batch.userId,
        fromAccountId: batch.accountId,
        toAccountId: await clearingAccountId(tx, method, cur),
        toCustomerId: (await providerCustomerId(tx))!,
        fromCurrency: cur,
        toCurrency: cur,
        amountMinor: payoutMinor,
        toAmountMinor: payoutMinor,
        feeMinor,
        rate: '1',
        approveType: 'none',
        note: `Global pay to ${payment.beneficiaryName}`.slice(0, 500),
        reference: payment.description || null,
        expiresAt: stamp,
        createdAt: stamp,
        updatedAt: stamp,
      })
      .returning();
    await addDailyUsage(tx, batch.customerId, method, cur, utcDay(stamp), payoutMinor, NO_DAILY_LIMIT);
    await deps.payouts.instruct(tx, row!, beneficiary, 'queued');
    await tx
      .update(globalPayments)
      .set({ state: 'taken', payoutTransferId: row!.id, codeHash: null, updatedAt: stamp })
      .where(eq(globalPayments.id, payment.id));
    await resolveIfDone(tx, batch);
    return { status: 'processing' as const, paymentId: payment.id, withdrawalId: row!.id };
  }

  /** globalPaymentCancel: the payee refuses (status 'refused'), the money goes back to the sender (told when that ends the batch). */
  async function refuse(tx: Tx, found: { payment: PaymentRow; batch: BatchRow }, publish: PublishAfterCommit) {
    const payment = await waitingPayment(tx, found.batch, found.payment.id);
    await releasePayment(tx, found.batch, payment, 'refused');
    await noticeIfBatchEnded(tx, found.batch.id, publish, now());
    return { status: 'refused' as const, paymentId: payment.id };
  }

  /** A withdrawal (a taken payment) as the payee sees it. */
  async function withdrawals(db: Db | Tx, found: { payment: PaymentRow; batch: BatchRow }, options: { limit: number; id?: number | undefined }) {
    const rows = await db
      .select({ p: globalPayments, b: globalPayBatches, t: transfers, reasonCode: railInstructions.reasonCode })
      .from(globalPayments)
      .innerJoin(globalPayBatches, eq(globalPayBatches.id, globalPayments.batchId))
      .innerJoin(transfers, eq(transfers.id, globalPayments.payoutTransferId))
      .leftJoin(railInstructions, eq(railInstructions.transferId, transfers.id))
      .where(
        and(
          eq(globalPayments.beneficiaryEmail, found.payment.beneficiaryEmail),
          isNotNull(globalPayments.payoutTransferId),
          ...(options.id !== undefined ? [eq(globalPayments.id, options.id)] : []),
        ),
      )
      .orderBy(desc(transfers.createdAt), desc(transfers.id))
      .limit(options.limit);
    const out = [];
    for (const r of rows) {
      const { countryCode, beneficiaryDisplayName: _n, ...fields } = r.p.pendingBeneficiary ?? {};
      out.push({
        withdrawalId: r.p.id,
        date: r.t.createdAt.toISOString(),
        amount: minorToDecimal(r.t.amountMinor, r.b.currency),
        currencyCode: r.b.currency,
        paymentMethod: r.t.kind as PayoutMethod,
        countryCode: countryCode ?? r.p.beneficiaryCountryCode,
        status: paymentStatusOf(r.p, r.b, null, r.t.status, now()),
        paymentDetails: fields,
        senderName: await senderNameOf(db, r.b.customerId),
        reasonCode: r.reasonCode ?? null,
      });
    }
    return out;
  }

  return {
    upload,
    viewBatch,
    ownBatch,
    edit,
    submit,
    approved,
    reject,
    cancel,
    approveOperation,
    submitP2p,
    p2pMeta,
    authenticate,
    details,
    payeeMethods,
    meta,
    payeeSubmit,
    resendCode,
    payeeApprove,
    refuse,
    withdrawals,
    requestStatusOf,
  };
}

export type GlobalPayService = ReturnType<typeof createGlobalPayService>;

/**
 * The expiry sweep: every waiting payment past its time, each in its own transaction (rows another
 * instance is expiring skipped): its share released (the money stays with the sender), status
 * expired; and the wrong-secret counters of ended windows deleted. Returns how many expired. Safe
 * to run anywhere (no e-mail, no rail).
 */
export async function expireDueGlobalPayments(db: Db, nowMs: number, options: { batchSize?: number; publisher?: TransferPublisher | null } = {}): Promise<number> {
  const batchSize = options.batchSize ?? 100;
  // wrong-secret counters whose window has ended count nothing any more
  await db.delete(globalPaymentThrottles).where(lte(globalPaymentThrottles.windowStart, new Date(nowMs - GLOBAL_PAY_SECRET_LIMITS.windowMs)));
  const due = await db
    .select({ id: globalPayments.id })
    .from(globalPayments)
    .where(and(eq(globalPayments.state, 'waiting'), lte(globalPayments.expiresAt, new Date(nowMs))))
    .orderBy(asc(globalPayments.expiresAt))
    .limit(batchSize);
  let expired = 0;
  for (const { id } of due) {
    const events: { customerId: number; event: Record<string, unknown> & { type: string } }[] = [];
    const done = await db.transaction(async (tx) => {
      const [p] = await tx
        .select()
        .from(globalPayments)
        .where(and(eq(globalPayments.id, id), eq(globalPayments.state, 'waiting'), lte(globalPayments.expiresAt, new Date(nowMs))))
        .for('update', { skipLocked: true });
      if (!p) return false;
      const [batch] = await tx.select().from(globalPayBatches).where(eq(globalPayBatches.id, p.batchId));
      const locked = await lockAccounts(tx, [batch!.accountId]);
      await releaseHold(tx, locked.get(batch!.accountId)!, p.amountMinor + p.heldFeeMinor);
      await tx.update(globalPayments).set({ state: 'expired', operationId: null, codeHash: null, updatedAt: new Date(nowMs) }).where(eq(globalPayments.id, p.id));
      await tx.execute(sql`
        update transfers set status = 'posted', updated_at = ${new Date(nowMs).toISOString()}::timestamptz
        where id = ${batch!.transferId} and status = 'processing'
          and not exists (select 1 from global_payments where batch_id = ${batch!.id} and state = 'waiting')`);
      await noticeIfBatchEnded(tx, batch!.id, (customerId, event) => events.push({ customerId, event }), nowMs);
      return true;
    });
    for (const e of events) await options.publisher?.publish(e.customerId, e.event).catch(() => undefined);
    if (done) expired++;
  }
  return expired;
}
