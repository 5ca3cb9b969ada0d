/**
 * Maker-checker approval of business payments (api/business-approvals.ts; document 2 §4, §7, §9;
 * issue 17 item 6). The transfer pipeline parks a right-3 initiator's payment (business-approvals.hooks.ts);
 * here a checker lists the company's waiting payments and batches, declines them at once, or
 * approves them with their own approval (the company's approval mode, the checker's own means),
 * after which they post.
 *
 * Decided (see api/business-approvals.ts for the whole list):
 * - a checker is the company's owner (users.user_type 2 of that customer, acting for it as their
 *   own) or a user whose right for the company is 2 (full); 3 and 4 are refused here (13), 1 and 5
 *   by the rights table before the handler;
 * - the initiator never decides their own request (VF selfApproval), even after being given right 2;
 * - a decision over several ids is all or nothing: any id unknown, decided or expired refuses the
 *   call with nothing changed (VF); the payments post (or are voided) in the call's one transaction;
 * - a decline voids the transfer as rejected (hold released, the initiator's company told by the
 *   TransferApproval push event, history shows it rejected);
 * - every decision writes an audit entry (the endpoint's, with these details).
 *
 * Lock order, as the transfer service's: the transfers in id order, then their requests (the
 * accounts are locked by post/void under them), a checker's confirmation last.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { BUSINESS_APPROVAL_PAGE_SIZE, type BusinessTransactionRequest } from '../../../api/business-approvals.ts';
import { VfCode, vf as vfError } from '../../../api/errors.ts';
import type { Db, Tx } from '../../db/types.ts';
import { minorToDecimal } from '../accounts/money.ts';
import { accounts } from '../accounts/accounts.tables.ts';
import { customers, customerAccess, users } from '../customers/customers.tables.ts';
import { MethodFailure, vfFailure } from '../method-types.ts';
import { KeptFailure } from '../platform/method-endpoint.ts';
import type { TransferApprovalDetails } from '../auth/approvals.service.ts';
import { auditLog } from '../platform/platform.tables.ts';
import {
  APPROVAL_MAX_ATTEMPTS,
  ApprovalMessages,
  checkApprovalCode,
  prepareApproval,
  sendSmsCode,
  type ApproveType,
  type TransferApprovalRow,
  type TransferApprovalsPort,
} from './approval.service.ts';
import { decidedNotices } from './business-approvals.hooks.ts';
import { businessApprovalConfirmations, businessTransactionRequests } from './business-approvals.tables.ts';
import { transferBatches } from './mass.tables.ts';
import { transfers } from './transfers.tables.ts';
import {
  ACCOUNT_STATUS_CLOSED,
  customerName,
  TRANSFER_APPROVAL_TTL_S,
  TransferMessages,
  type TransferActor,
  type TransferPublisher,
  type TransferService,
} from './transfers.service.ts';

type TransferRow = typeof transfers.$inferSelect;
type RequestRow = typeof businessTransactionRequests.$inferSelect;
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export const BusinessApprovalMessages = {
  notChecker: 'Only a user with full rights or the company’s owner approves the company’s payments',
  invalid: 'Invalid request',
} as const;

/** The answer of a decision (api/business-approvals.ts BusinessDecisionEntries). */
export interface BusinessDecision {
  status: 'declined' | 'approved' | 'approvalNeeded';
  approvalId: number | null;
  approveType: ApproveType;
  approvalSentTo: string | null;
  transactionIds: number[];
  expiresAt: string | null;
}

/** What a decision names: payments by their transfer ids, or a mass batch. */
export type DecisionTarget = { transactionIds: readonly number[] } | { batchId: number };

export interface BusinessApprovalDeps {
  now: () => number;
  transfers: TransferService;
  /** push approvals (the checker's phone, approvals.service.ts); null: a checker whose mode is push gets TA1 */
  approvals?: TransferApprovalsPort | null;
  /** events after a phone's answer commits (no method call to carry them); null: none sent */
  publisher?: TransferPublisher | null;
}

/** The method name a phone's answer to a checker's approval is audited under (the call it stands for). */
const PHONE_ANSWER_AUDIT_METHOD = 'businessApprovalConfirm';

export type BusinessApprovalService = ReturnType<typeof createBusinessApprovalService>;

export function createBusinessApprovalService(deps: BusinessApprovalDeps) {
  const { now, transfers: transferService } = deps;
  const approvals = deps.approvals ?? null;
  const at = (ms: number) => new Date(ms);

  /** The caller decides for the company: its owner, or right 2 (13 otherwise: right 3, 4, a personal user). */
  async function requireChecker(db: Db | Tx, actor: Pick<TransferActor, 'userId' | 'customerId'>): Promise<void> {
    const [user] = await db
      .select({ userType: users.userType, customerId: users.customerId, rights: customerAccess.accessRights })
      .from(users)
      .leftJoin(customerAccess, and(eq(customerAccess.userId, users.id), eq(customerAccess.customerId, actor.customerId)))
      .where(eq(users.id, actor.userId));
    if (!user) throw new MethodFailure('AU', 'Sign-in required');
    const owner = user.customerId === actor.customerId && user.userType === 2;
    const full = user.customerId !== actor.customerId && user.rights === 2;
    if (!owner && !full) throw new MethodFailure('13', BusinessApprovalMessages.notChecker);
  }

  /**
   * The waiting requests a decision names, their transfers locked (id order) and checked: each the
   * company's, waiting, not expired, not the caller's own. VF on `param` otherwise (nothing changed).
   */
  async function lockWaiting(tx: Tx, actor: TransferActor, transferIds: readonly number[], param: string): Promise<{ request: RequestRow; transfer: TransferRow }[]> {
    const ids = [...new Set(transferIds)].sort((a, b) => a - b);
    const locked = await tx.select().from(transfers).where(inArray(transfers.id, ids)).orderBy(transfers.id).for('update');
    const requests = await tx.select().from(businessTransactionRequests).where(inArray(businessTransactionRequests.transferId, ids)).for('update');
    const byTransfer = new Map(requests.map((r) => [r.transferId, r]));
    const byId = new Map(locked.map((t) => [t.id, t]));
    const out: { request: RequestRow; transfer: TransferRow }[] = [];
    for (const id of ids) {
      const request = byTransfer.get(id);
      const transfer = byId.get(id);
      // another company's request answers as an unknown one: no oracle of ids
      if (!request || !transfer || request.customerId !== actor.customerId) throw vfFailure(param, VfCode.businessRequestUnknown);
      if (request.status === 'expired' || (request.status === 'waiting' && request.expiresAt.getTime() <= now())) throw vfFailure(param, VfCode.businessRequestExpired);
      if (request.status !== 'waiting' || transfer.status !== 'pending') throw vfFailure(param, VfCode.businessRequestDecided);
      if (request.initiatorUserId === actor.userId) throw vfFailure(param, VfCode.selfApproval);
      out.push({ request, transfer });
    }
    return out;
  }

  /** The transfer ids a target names: a batch's request transfer (VF batchId when unknown or another company's). */
  async function targetIds(tx: Tx, actor: TransferActor, target: DecisionTarget): Promise<{ ids: readonly number[]; param: string }> {
    if ('transactionIds' in target) return { ids: target.transactionIds, param: 'transactionIds' };
    const [batch] = await tx
      .select({ transferId: transferBatches.transferId })
      .from(transferBatches)
      .where(and(eq(transferBatches.id, target.batchId), eq(transferBatches.customerId, actor.customerId)));
    if (!batch) throw vfFailure('batchId', VfCode.businessRequestUnknown);
    return { ids: [batch.transferId], param: 'batchId' };
  }

  async function approvingUser(tx: Tx, userId: number) {
    const [user] = await tx
      .select({ id: users.id, email: users.email, customerId: users.customerId, totpSecret: users.totpSecret, approvalCodeHash: users.approvalCodeHash })
      .from(users)
      .where(eq(users.id, userId));
    if (!user) throw new MethodFailure('AU', 'Sign-in required');
    return user;
  }

  /** Posts every named payment (their holds released into their entries) and closes their requests as approved. */
  async function execute(tx: Tx, actor: TransferActor, waiting: { request: RequestRow; transfer: TransferRow }[]): Promise<number[]> {
    const decidedAt = at(now());
    for (const { transfer } of waiting) {
      // as approveTransfer: a destination closed meanwhile refuses (here the whole decision, nothing changed)
      const [destination] = await tx.select({ status: accounts.status }).from(accounts).where(eq(accounts.accountId, transfer.toAccountId));
      if (destination?.status === ACCOUNT_STATUS_CLOSED) throw new MethodFailure('CA', TransferMessages.closed);
    }
    for (const { request, transfer } of waiting) {
      const posted = await transferService.post(tx, transfer, { held: true });
      await tx.update(businessTransactionRequests).set({ status: 'approved', decidedByUserId: actor.userId, decidedAt }).where(eq(businessTransactionRequests.id, request.id));
      actor.publish(transfer.customerId, { type: 'TransferApproval', transactionId: transfer.id, status: posted.status });
      for (const n of await decidedNotices(tx, transfer, 'approved')) actor.publish(n.customerId, n.event);
    }
    const ids = waiting.map((w) => w.transfer.id);
    actor.audit?.({ businessDecision: 'approved', transferIds: ids, initiators: [...new Set(waiting.map((w) => w.request.initiatorUserId))] });
    return ids;
  }

  /** Voids every named payment as rejected (holds released, the requests closed as declined by the actor). */
  async function declineAll(tx: Tx, actor: TransferActor, waiting: { request: RequestRow; transfer: TransferRow }[]): Promise<number[]> {
    const decidedAt = at(now());
    for (const { request, transfer } of waiting) {
      // voidTransfer closes the request as declined and releases its hold (business-approvals.hooks.ts)
      const rejected = await transferService.voidTransfer(tx, transfer, 'rejected');
      await tx.update(businessTransactionRequests).set({ decidedByUserId: actor.userId, decidedAt }).where(eq(businessTransactionRequests.id, request.id));
      actor.publish(transfer.customerId, { type: 'TransferApproval', transactionId: transfer.id, status: rejected.status });
      for (const n of await decidedNotices(tx, transfer, 'declined')) actor.publish(n.customerId, n.event);
    }
    const transactionIds = waiting.map((w) => w.transfer.id);
    actor.audit?.({ businessDecision: 'declined', transferIds: transactionIds, initiators: [...new Set(waiting.map((w) => w.request.initiatorUserId))] });
    return transactionIds;
  }

  /** What the checker's phone shows (api/devices.ts ApprovalTransferSchema): the payment, or the payments' total in one currency. */
  function phoneDetails(waiting: { transfer: TransferRow }[]): TransferApprovalDetails {
    const first = waiting[0]!.transfer;
    const payee = (t: TransferRow) => t.toEmail ?? `${t.toCurrency} account ${t.toAccountId}`;
    if (waiting.length === 1) {
      return {
        transactionId: first.id,
        amount: minorToDecimal(first.amountMinor, first.fromCurrency),
        currency: first.fromCurrency,
        fee: minorToDecimal(first.feeMinor, first.fromCurrency),
        payeeName: payee(first),
      };
    }
    const currency = first.fromCurrency;
    if (waiting.every((w) => w.transfer.fromCurrency === currency)) {
      const amountMinor = waiting.reduce((total, w) => total + w.transfer.amountMinor, 0n);
      const feeMinor = waiting.reduce((total, w) => total + w.transfer.feeMinor, 0n);
      return {
        transactionId: first.id,
        amount: minorToDecimal(amountMinor, currency),
        currency,
        fee: minorToDecimal(feeMinor, currency),
        payeeName: `${waiting.length} payments`,
      };
    }
    return { transactionId: first.id, amount: String(waiting.length), currency: 'payments', payeeName: 'several payees' };
  }

  /** The transfers of a confirmation's requests. */
  async function requestTransferIds(tx: Tx, requestIds: readonly number[]): Promise<number[]> {
    const rows = await tx
      .select({ transferId: businessTransactionRequests.transferId })
      .from(businessTransactionRequests)
      .where(inArray(businessTransactionRequests.id, [...requestIds]));
    return rows.map((r) => r.transferId);
  }

  /** A checker's open push confirmation by its phone request's key hash (kept in code_hash), or undefined. */
  async function pushConfirmation(tx: Tx, keyHash: string) {
    const [found] = await tx
      .select()
      .from(businessApprovalConfirmations)
      .where(and(eq(businessApprovalConfirmations.method, 'push'), eq(businessApprovalConfirmations.codeHash, keyHash)));
    return found;
  }

  return {
    /** businessTransactionRequestList: the company's waiting payments and batches, newest first, 50 a page. */
    async list(db: Db, actor: TransferActor, pageNumber: number): Promise<{ requests: BusinessTransactionRequest[]; total: number; pageNumber: number; pageSize: number }> {
      await requireChecker(db, actor);
      const nowIso = at(now()).toISOString();
      const [count] = rowsOf<{ n: string }>(
        await db.execute(sql`select count(*)::text as n from business_transaction_requests
          where customer_id = ${actor.customerId}::integer and status = 'waiting' and expires_at > ${nowIso}::timestamptz`),
      );
      const rows = rowsOf<{
        transfer_id: string;
        created_at: string | Date;
        expires_at: string | Date;
        kind: string;
        amount_minor: string;
        fee_minor: string;
        from_currency: string;
        from_account_id: number;
        to_account_id: number;
        to_email: string | null;
        to_business_name: string | null;
        to_first_name: string | null;
        to_last_name: string | null;
        i_business_name: string | null;
        i_first_name: string;
        i_last_name: string;
        batch_id: string | null;
        row_count: number | null;
        global_pay: boolean;
        global_pay_count: number | null;
      }>(
        await db.execute(sql`
          select r.transfer_id::text, r.created_at, r.expires_at, t.kind, t.amount_minor::text, t.fee_minor::text, t.from_currency,
            t.from_account_id, t.to_account_id, t.to_email,
            tc.business_name as to_business_name, tc.first_name as to_first_name, tc.last_name as to_last_name,
            ic.business_name as i_business_name, ic.first_name as i_first_name, ic.last_name as i_last_name,
            b.id::text as batch_id, b.row_count, gb.id is not null as global_pay,
            (select count(*)::int from global_payments gp where gp.batch_id = gb.id and gp.state = 'draft') as global_pay_count
          from business_transaction_requests r
          join transfers t on t.id = r.transfer_id
          join users iu on iu.id = r.initiator_user_id
          join customers ic on ic.id = iu.customer_id
          left join customers tc on tc.id = t.to_customer_id and t.kind = 'p2p'
          left join transfer_batches b on b.transfer_id = r.transfer_id
          left join global_pay_batches gb on gb.transfer_id = r.transfer_id
          where r.customer_id = ${actor.customerId}::integer and r.status = 'waiting' and r.expires_at > ${nowIso}::timestamptz
          order by r.created_at desc, r.id desc
          limit ${BUSINESS_APPROVAL_PAGE_SIZE} offset ${(pageNumber - 1) * BUSINESS_APPROVAL_PAGE_SIZE}`),
      );
      const iso = (d: string | Date) => new Date(d).toISOString();
      return {
        requests: rows.map((r) => {
          const currency = r.from_currency;
          const amount = minorToDecimal(BigInt(r.amount_minor), currency);
          const isBatch = r.kind === 'mass';
          return {
            kind: isBatch ? 'batch' : 'transfer',
            transactionId: Number(r.transfer_id),
            batchId: r.batch_id === null ? null : Number(r.batch_id),
            // a global-pay batch's request (kind mass, no mass batch): decided by its transactionId
            transferKind: r.global_pay ? 'globalPay' : r.kind,
            amount,
            fee: minorToDecimal(BigInt(r.fee_minor), currency),
            currency,
            fromAccountId: Number(r.from_account_id),
            toAccountId: r.kind === 'betweenAccounts' ? Number(r.to_account_id) : null,
            payeeName:
              r.kind === 'p2p' && r.to_first_name !== null ? customerName({ businessName: r.to_business_name, firstName: r.to_first_name, lastName: r.to_last_name ?? '' }) : null,
            toEmail: r.to_email,
            count: isBatch ? Number(r.row_count ?? r.global_pay_count ?? 0) : null,
            total: isBatch ? amount : null,
            initiatorName: customerName({ businessName: r.i_business_name, firstName: r.i_first_name, lastName: r.i_last_name }),
            createdAt: iso(r.created_at),
            expiresAt: iso(r.expires_at),
          };
        }),
        total: Number(count?.n ?? 0),
        pageNumber,
        pageSize: BUSINESS_APPROVAL_PAGE_SIZE,
      };
    },

    /**
     * businessTransactionRequestApprove and businessMassApprove: declined, the payments are voided
     * (rejected, holds released) now; approved, the checker's own approval is started (mode none:
     * they post now).
     */
    async decide(tx: Tx, actor: TransferActor, target: DecisionTarget, declined: boolean): Promise<BusinessDecision> {
      await requireChecker(tx, actor);
      const { ids, param } = await targetIds(tx, actor, target);
      const waiting = await lockWaiting(tx, actor, ids, param);
      const transactionIds = waiting.map((w) => w.transfer.id);
      if (declined) {
        await declineAll(tx, actor, waiting);
        return { status: 'declined', approvalId: null, approveType: 'none', approvalSentTo: null, transactionIds, expiresAt: null };
      }
      const [company] = await tx.select({ mode: customers.transactionApproveMode }).from(customers).where(eq(customers.id, actor.customerId));
      const mode: ApproveType = company?.mode ?? 'none';
      if (mode === 'none') {
        await execute(tx, actor, waiting);
        return { status: 'approved', approvalId: null, approveType: 'none', approvalSentTo: null, transactionIds, expiresAt: null };
      }
      // The checker's own approval, by the mode a payment of theirs for the company asks: a code, or
      // their phone (push: answered in approvals.service.ts, which calls answeredByDevice below).
      const user = await approvingUser(tx, actor.userId);
      const preparation = await prepareApproval(tx, mode, user, approvals !== null);
      let codeHash: string | null = null;
      let sentTo: string | null = null;
      if (mode === 'sms') {
        const only = waiting.length === 1 ? waiting[0]!.transfer : null;
        const what = only
          ? {
              amount: minorToDecimal(only.amountMinor, only.fromCurrency),
              currency: only.fromCurrency,
              payeeName: only.toEmail ?? `${only.toCurrency} account ${only.toAccountId}`,
            }
          : { amount: String(waiting.length), currency: 'payments', payeeName: 'several payees' };
        const sms = await sendSmsCode(tx, preparation.phone!, what, TRANSFER_APPROVAL_TTL_S / 60);
        codeHash = sms.codeHash;
        sentTo = sms.sentTo;
      }
      const createdAt = at(now());
      const expiresAt = at(now() + TRANSFER_APPROVAL_TTL_S * 1000);
      if (mode === 'push') {
        // the request to the checker's phones; its key's hash links the answer back to this confirmation
        const created = await approvals!.createTransferApproval(tx, {
          userId: actor.userId,
          details: { ip: actor.ip, countryCode: null, userAgent: '' },
          transfer: phoneDetails(waiting),
          expiresAt,
        });
        codeHash = created.keyHash;
      }
      const [confirmation] = await tx
        .insert(businessApprovalConfirmations)
        .values({
          customerId: actor.customerId,
          approverUserId: actor.userId,
          requestIds: waiting.map((w) => w.request.id),
          method: mode,
          codeHash,
          sentTo,
          createdAt,
          expiresAt,
        })
        .returning({ id: businessApprovalConfirmations.id, expiresAt: businessApprovalConfirmations.expiresAt });
      actor.audit?.({ businessDecision: 'approvalStarted', approvalId: confirmation!.id, transferIds: transactionIds });
      return {
        status: 'approvalNeeded',
        approvalId: confirmation!.id,
        approveType: mode,
        approvalSentTo: sentTo,
        transactionIds,
        expiresAt: confirmation!.expiresAt.toISOString(),
      };
    },

    /** businessApprovalConfirm: the checker's code; right, the payments post (all or none). */
    async confirm(tx: Tx, actor: TransferActor, approvalId: number, code: string): Promise<BusinessDecision> {
      await requireChecker(tx, actor);
      const [found] = await tx.select().from(businessApprovalConfirmations).where(eq(businessApprovalConfirmations.id, approvalId));
      if (!found || found.customerId !== actor.customerId || found.approverUserId !== actor.userId) throw vfFailure('approvalId', VfCode.businessRequestUnknown);
      // the requests' transfers first (the lock order), then the confirmation
      const requestRows = await tx.select().from(businessTransactionRequests).where(inArray(businessTransactionRequests.id, found.requestIds));
      const transferIds = requestRows.map((r) => r.transferId);
      await tx.select({ id: transfers.id }).from(transfers).where(inArray(transfers.id, transferIds)).orderBy(transfers.id).for('update');
      const [confirmation] = await tx.select().from(businessApprovalConfirmations).where(eq(businessApprovalConfirmations.id, approvalId)).for('update');
      if (confirmation!.status !== 'open') throw vfFailure('approvalId', VfCode.businessRequestDecided);
      if (confirmation!.expiresAt.getTime() <= now()) throw vfFailure('approvalId', VfCode.businessRequestExpired);
      // a push approval is answered on the checker's phone, not with a code (as approveTransfer)
      if (confirmation!.method === 'push') throw new MethodFailure('TA1', ApprovalMessages.approveOnPhone);
      const user = await approvingUser(tx, actor.userId);
      const check = await checkApprovalCode(tx, { method: confirmation!.method, codeHash: confirmation!.codeHash } as TransferApprovalRow, user, code, now());
      if (!check.ok) {
        const attempts = confirmation!.attempts + 1;
        const failed = attempts >= APPROVAL_MAX_ATTEMPTS;
        // at the limit the confirmation closes; the payments keep waiting (a checker's typo never voids an initiator's payment)
        await tx
          .update(businessApprovalConfirmations)
          .set({ attempts, ...(failed ? { status: 'failed' as const } : {}) })
          .where(eq(businessApprovalConfirmations.id, approvalId));
        const left = Math.max(0, APPROVAL_MAX_ATTEMPTS - attempts);
        throw new KeptFailure('VF', BusinessApprovalMessages.invalid, [
          vfError('approvalCode', check.reason === 'used' ? VfCode.approvalCodeUsed : VfCode.approvalCodeWrong, { triesLeft: left }),
        ]);
      }
      const waiting = await lockWaiting(tx, actor, transferIds, 'approvalId');
      await tx.update(businessApprovalConfirmations).set({ status: 'used' }).where(eq(businessApprovalConfirmations.id, approvalId));
      const ids = await execute(tx, actor, waiting);
      return { status: 'approved', approvalId, approveType: confirmation!.method, approvalSentTo: confirmation!.sentTo, transactionIds: ids, expiresAt: null };
    },

    /**
     * approvals.service.ts hook, first in a phone's answering transaction: the lock order of
     * confirm() (the requests' transfers in id order, then the confirmation). Nothing when the key is
     * not a checker's push approval (a transfer's: transfers.service.ts lockForDevice).
     */
    async lockForDevice(tx: Tx, keyHash: string): Promise<void> {
      const found = await pushConfirmation(tx, keyHash);
      if (!found) return;
      const requestRows = await requestTransferIds(tx, found.requestIds);
      const ids = requestRows;
      if (ids.length > 0) await tx.select({ id: transfers.id }).from(transfers).where(inArray(transfers.id, ids)).orderBy(transfers.id).for('update');
      await tx.select({ id: businessApprovalConfirmations.id }).from(businessApprovalConfirmations).where(eq(businessApprovalConfirmations.id, found.id)).for('update');
    },

    /**
     * approvals.service.ts hook: the checker answered their push approval on their phone, in the
     * answering transaction. Approved: the payments post, as businessApprovalConfirm with a right
     * code. Declined: the payments are declined (rejected, holds released), as a push transfer
     * declined on the phone is. Either way the decision is re-checked as the browser's would be (the
     * checker's right now, each request still waiting, not their own); refused, the confirmation
     * closes as failed and the payments keep waiting. Audited as businessApprovalConfirm; the events
     * go out after the commit (the returned function). Nothing for another key.
     */
    async answeredByDevice(tx: Tx, keyHash: string, approved: boolean): Promise<(() => Promise<void>) | void> {
      const found = await pushConfirmation(tx, keyHash);
      if (!found || found.status !== 'open') return;
      const events: { customerId: number; event: { type: string } & Record<string, unknown> }[] = [];
      const audits: Record<string, unknown>[] = [];
      const actor: TransferActor = {
        userId: found.approverUserId,
        customerId: found.customerId,
        ip: '',
        publish: (customerId, event) => void events.push({ customerId, event }),
        audit: (details) => void audits.push(details),
      };
      const close = (status: 'used' | 'failed') => tx.update(businessApprovalConfirmations).set({ status }).where(eq(businessApprovalConfirmations.id, found.id));
      try {
        if (found.expiresAt.getTime() <= now()) throw vfFailure('approvalId', VfCode.businessRequestExpired);
        await requireChecker(tx, actor);
        const requestRows = await requestTransferIds(tx, found.requestIds);
        const transferIds = requestRows;
        const waiting = await lockWaiting(tx, actor, transferIds, 'approvalId');
        await close('used');
        if (approved) await execute(tx, actor, waiting);
        else await declineAll(tx, actor, waiting);
      } catch (err) {
        // every refusal above comes before anything is written: the payments keep waiting
        if (!(err instanceof MethodFailure)) throw err;
        await close('failed');
        audits.push({ businessDecision: 'approvalFailed', approvalId: found.id, responseCode: err.responseCode });
      }
      for (const details of audits) {
        await tx.insert(auditLog).values({
          userId: found.approverUserId,
          customerId: found.customerId,
          method: PHONE_ANSWER_AUDIT_METHOD,
          details: { ...details, approvalId: found.id, answeredOn: 'phone' },
        });
      }
      return async () => {
        for (const { customerId, event } of events) await deps.publisher?.publish(customerId, event);
      };
    },
  };
}
