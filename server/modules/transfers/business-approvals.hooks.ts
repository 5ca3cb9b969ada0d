/**
 * The transfer pipeline's side of maker-checker (business-approvals.tables.ts; issue 17 item 6):
 * what transfers.service.ts calls at the step where a payment would post, and when it voids one.
 * On its own (no service) so the transfer service imports it without a cycle.
 *
 * Decided (issue 17 item 6, design 1): a payment (any money-moving kind, a mass batch) asked for a
 * company by a user whose right there is 3 (initiate) does not post after the initiator's own
 * approval; it is parked: its status stays `pending`, its hold stays (the money cannot be spent
 * twice), its initiator's approval is closed (approveTransfer then answers TA1), its expiry moves to
 * BUSINESS_REQUEST_TTL_DAYS, and a business_transaction_requests row waits for a checker. Right 4
 * (confirmed) posts as before. The transfers sweeper (workers.ts expireDueTransfers) expires a
 * parked payment like any pending one; voidTransfer then closes its request here.
 */
import { and, eq, sql } from 'drizzle-orm';
import { AccessRight } from '../../../api/customer.ts';
import { BUSINESS_REQUEST_TTL_DAYS } from '../../../api/business-approvals.ts';
import type { Tx } from '../../db/types.ts';
import { transferApprovals, transfers } from './transfers.tables.ts';
import { businessTransactionRequests, type BusinessRequestStatus } from './business-approvals.tables.ts';

type TransferRow = typeof transfers.$inferSelect;

export const BUSINESS_REQUEST_TTL_MS = BUSINESS_REQUEST_TTL_DAYS * 24 * 60 * 60 * 1000;

/**
 * SQL of a boolean: does this user act for this customer with right 3 (initiate) only? Acting for
 * one's own customer never does (the owner is their company's own user).
 */
export function initiateOnlySql(userId: number, customerId: number) {
  return sql`exists (select 1 from customer_access ca join users u on u.id = ca.user_id
    where ca.user_id = ${userId}::integer and ca.customer_id = ${customerId}::integer
      and ca.access_rights = ${AccessRight.initiate}::integer and u.customer_id <> ${customerId}::integer)`;
}

/** initiateOnlySql as a query: the rights now (a right changed since the request counts). */
export async function initiateOnly(tx: Tx, userId: number, customerId: number): Promise<boolean> {
  const result = (await tx.execute(sql`select ${initiateOnlySql(userId, customerId)} as yes`)) as unknown as { rows: { yes: boolean }[] };
  return result.rows[0]?.yes === true;
}

/**
 * Parks a pending transfer (its row locked or just written, its money held) for a checker: the
 * initiator's approval closed, its expiry moved to the request's, the request written.
 */
export async function parkForChecker(tx: Tx, t: TransferRow, nowMs: number): Promise<TransferRow> {
  if (t.status !== 'pending') throw new Error(`transfer ${t.id} is ${t.status}: only a pending transfer waits for a checker`);
  const createdAt = new Date(nowMs);
  const expiresAt = new Date(nowMs + BUSINESS_REQUEST_TTL_MS);
  await tx.delete(transferApprovals).where(eq(transferApprovals.transferId, t.id));
  const [parked] = await tx.update(transfers).set({ expiresAt, updatedAt: createdAt }).where(eq(transfers.id, t.id)).returning();
  await tx.insert(businessTransactionRequests).values({ customerId: t.customerId, transferId: t.id, initiatorUserId: t.userId, createdAt, expiresAt });
  return parked!;
}

const CLOSED_AS: Record<'rejected' | 'expired' | 'canceled', BusinessRequestStatus> = { rejected: 'declined', expired: 'expired', canceled: 'canceled' };

/**
 * A pending transfer is voided: its waiting request (if it is one) is closed with it. True when it
 * was waiting for a checker: its money is held whatever its approve type (the caller releases it).
 */
export async function closeBusinessRequest(tx: Tx, transferId: number, status: 'rejected' | 'expired' | 'canceled', nowMs: number): Promise<boolean> {
  const closed = await tx
    .update(businessTransactionRequests)
    .set({ status: CLOSED_AS[status], decidedAt: new Date(nowMs) })
    .where(and(eq(businessTransactionRequests.transferId, transferId), eq(businessTransactionRequests.status, 'waiting')))
    .returning({ id: businessTransactionRequests.id });
  return closed.length > 0;
}
