/**
 * The contracts' state on the platform (api/contracts.ts; document 3 §3, §4, §7): the row as the
 * shared rules read it (factsOf), the time-based moves (advance), the parties' names and states,
 * and each contract as the wire says it for the acting customer (serialise, metaOf).
 *
 * Keeping the status current. The moves that only need time (SIGNED -> ACTIVE at activeFrom,
 * TERMINATING -> TERMINATED at activeTo, UNSIGNED/WAITING -> EXPIRED SIGNING_DAYS after creation)
 * and the one that needs the payer's verification (NEED_IDENTIFICATION -> SIGNED or ACTIVE once
 * the payer is identified, see payerIdentified) are applied by `advance` under the contract's row
 * lock. Every read and every action runs it first (advanceFor, lockAndAdvance), so an answer is
 * right even before the periodic job (contracts.worker.ts advanceDue) ran; the job moves the
 * contracts nobody reads, so the parties are notified and the split stops on time.
 *
 * Notifications (notifications/notify.ts): an action notifies the other party; a move of time or
 * of the identification notifies both parties.
 */
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  bpToPercentage,
  contractActions,
  contractCountsAs,
  contractSide,
  SIGNING_DAYS,
  statusAfterSignatures,
  type Contract,
  type ContractFacts,
  type ContractsMeta,
  type ContractStatus,
  type IdentificationStatus,
} from '../../../api/contracts.ts';
import type { Db, Tx } from '../../db/types.ts';
import { minorToDecimal } from '../accounts/money.ts';
import { businessCompanies } from '../business/business.tables.ts';
import { customers } from '../customers/customers.tables.ts';
import { notify, type PublishAfterCommit } from '../notifications/notify.ts';
import { auditLog } from '../platform/platform.tables.ts';
import { contracts, contractSplits } from './contracts.tables.ts';

export type ContractRow = typeof contracts.$inferSelect;

export const DAY_MS = 24 * 60 * 60 * 1000;

export function factsOf(row: ContractRow): ContractFacts {
  return {
    status: row.status as ContractStatus,
    initiatorId: row.initiatorId,
    senderId: row.senderId,
    beneficiaryId: row.beneficiaryId,
    senderSigned: row.senderSignedAt !== null,
    beneficiarySigned: row.beneficiarySignedAt !== null,
    terminateRequestedBy: row.status === 'TERMINATING' ? row.terminatedBy : null,
  };
}

/** The contract's row, locked for the caller's transaction (null when there is none). */
export async function lockContract(tx: Tx, id: number): Promise<ContractRow | null> {
  const [row] = await tx.select().from(contracts).where(eq(contracts.id, id)).for('update');
  return row ?? null;
}

/**
 * Is the payer identified? Verified by the platform (customers.verified, not limited: the
 * verification status' own outcome, profile/verification.service.ts recomputeVerified), or an
 * identity-verification job of the payer approved (the review of the identification started from
 * the contract, split-pay-signer-identification).
 */
export async function payerIdentified(db: Db | Tx, payerId: number): Promise<boolean> {
  const [row] = await db
    .select({
      verified: customers.verified,
      limited: customers.limited,
      // raw names: a one-table query leaves its own columns unqualified, ambiguous in a subquery
      approved: sql<boolean>`exists (select 1 from identity_jobs j where j.customer_id = customers.id and j.kind = 'identity' and j.status = 'approved')`,
    })
    .from(customers)
    .where(eq(customers.id, payerId));
  if (!row || row.limited) return false;
  return row.verified || row.approved;
}

/** The customers' names as the contract shows them (a company's name, a person's full name). */
export async function partyNames(db: Db | Tx, ids: readonly number[]): Promise<Map<number, { name: string; username: string; language: string; type: 'BUSINESS' | 'PERSONAL' }>> {
  const out = new Map<number, { name: string; username: string; language: string; type: 'BUSINESS' | 'PERSONAL' }>();
  const unique = [...new Set(ids)];
  if (unique.length === 0) return out;
  const rows = await db
    .select({
      id: customers.id,
      customerType: customers.customerType,
      businessName: customers.businessName,
      firstName: customers.firstName,
      lastName: customers.lastName,
      language: customers.language,
      companyEmail: businessCompanies.email,
      login: sql<string | null>`(select u.email from users u where u.customer_id = customers.id order by u.id limit 1)`,
    })
    .from(customers)
    .leftJoin(businessCompanies, eq(businessCompanies.customerId, customers.id))
    .where(inArray(customers.id, unique));
  for (const r of rows) {
    out.set(r.id, {
      name: customerDisplayName(r),
      // the address the party can be found by (customer lookup): the company's, else the login
      username: r.companyEmail ?? r.login ?? '',
      language: r.language,
      type: customerKind(r),
    });
  }
  return out;
}

export const customerDisplayName = (c: { businessName: string | null; firstName: string; lastName: string }) => c.businessName?.trim() || `${c.firstName} ${c.lastName}`.trim();
/** A company is a business customer with a company name (an authorised user's own business-type record holds a person). */
export const customerKind = (c: { customerType: string; businessName: string | null }): 'BUSINESS' | 'PERSONAL' =>
  c.customerType === 'business' && c.businessName ? 'BUSINESS' : 'PERSONAL';

/**
 * Whether a customer may be a party (api/contracts.ts verify reasons): 'notFound' for none (and
 * the provider itself), 'notActive' for a limited customer or one nobody can act for (no enabled,
 * activated user of its own or with access rights to it).
 */
export async function partyState(db: Db | Tx, id: number): Promise<'notFound' | 'notActive' | 'active'> {
  const [row] = await db
    .select({
      isProvider: customers.isProvider,
      limited: customers.limited,
      usable: sql<boolean>`exists (select 1 from users u where u.customer_id = customers.id and not u.disabled and u.activated)
        or exists (select 1 from customer_access a join users u on u.id = a.user_id
          where a.customer_id = customers.id and a.access_rights > 0 and not u.disabled and u.activated)`,
    })
    .from(customers)
    .where(eq(customers.id, id));
  if (!row || row.isProvider) return 'notFound';
  return row.limited || !row.usable ? 'notActive' : 'active';
}

/** A contract still open between the two in that direction (not ended): a second one would split the same payments twice. */
export async function openContractBetween(db: Db | Tx, senderId: number, beneficiaryId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: contracts.id })
    .from(contracts)
    .where(and(eq(contracts.senderId, senderId), eq(contracts.beneficiaryId, beneficiaryId), sql`${contracts.status} not in ('TERMINATED', 'EXPIRED', 'CANCELLED', 'REJECTED')`))
    .limit(1);
  return !!row;
}

/** The share the payer already gives away in its open contracts (basis points): with a new one it may not pass 100 %. */
export async function openSharesOf(db: Db | Tx, senderId: number): Promise<number> {
  const [row] = await db
    .select({ bp: sql<string | null>`sum(${contracts.percentageBp})::text` })
    .from(contracts)
    .where(and(eq(contracts.senderId, senderId), sql`${contracts.status} not in ('TERMINATED', 'EXPIRED', 'CANCELLED', 'REJECTED')`));
  return Number(row?.bp ?? 0);
}

// ---------------------------------------------------------------- notifications and audit

export async function notifyParty(
  tx: Tx,
  publish: PublishAfterCommit,
  row: ContractRow,
  recipientId: number,
  type: string,
  nowMs: number,
  names?: Map<number, { name: string }>,
): Promise<void> {
  const otherId = recipientId === row.senderId ? row.beneficiaryId : row.senderId;
  const known = names ?? (await partyNames(tx, [otherId]));
  await notify(tx, publish, {
    customerId: recipientId,
    type,
    params: { contractId: row.id, counterparty: known.get(otherId)?.name ?? null },
    target: { kind: 'contract', contractId: row.id },
    nowMs,
  });
}

/** The other party of `actorId` is told (an action). */
export const notifyOther = (tx: Tx, publish: PublishAfterCommit, row: ContractRow, actorId: number, type: string, nowMs: number) =>
  notifyParty(tx, publish, row, actorId === row.senderId ? row.beneficiaryId : row.senderId, type, nowMs);

/** Both parties are told (a move of time, of the identification). */
export async function notifyBoth(tx: Tx, publish: PublishAfterCommit, row: ContractRow, type: string, nowMs: number): Promise<void> {
  const names = await partyNames(tx, [row.senderId, row.beneficiaryId]);
  await notifyParty(tx, publish, row, row.senderId, type, nowMs, names);
  await notifyParty(tx, publish, row, row.beneficiaryId, type, nowMs, names);
}

export const auditContract = (tx: Tx, userId: number | null, customerId: number | null, method: string, details: Record<string, unknown>) =>
  tx.insert(auditLog).values({ userId, customerId, method, details });

// ---------------------------------------------------------------- moves that come due

const NOTICE_OF: Partial<Record<ContractStatus, string>> = {
  ACTIVE: 'contractActive',
  EXPIRED: 'contractExpired',
  TERMINATED: 'contractTerminated',
};

/** The move due now, if any (the row is locked by the caller). */
async function dueMove(tx: Tx, row: ContractRow, nowMs: number): Promise<Partial<ContractRow> | null> {
  const status = row.status as ContractStatus;
  if ((status === 'UNSIGNED' || status === 'WAITING') && row.createdAt.getTime() + SIGNING_DAYS * DAY_MS <= nowMs) return { status: 'EXPIRED' };
  if (status === 'NEED_IDENTIFICATION' && (await payerIdentified(tx, row.senderId))) {
    const facts = factsOf(row);
    return {
      identificationStatus: 'SUCCESS',
      status: statusAfterSignatures({
        senderSigned: facts.senderSigned,
        beneficiarySigned: facts.beneficiarySigned,
        identification: 'SUCCESS',
        activeFromMs: row.activeFrom.getTime(),
        nowMs,
      }),
    };
  }
  if (status === 'SIGNED' && row.activeFrom.getTime() <= nowMs) return { status: 'ACTIVE' };
  if (status === 'TERMINATING' && row.activeTo !== null && row.activeTo.getTime() <= nowMs) return { status: 'TERMINATED', terminatedAt: row.activeTo };
  return null;
}

/**
 * Applies every move that is due at nowMs to a locked row (several in turn: a contract identified
 * after its activeFrom becomes ACTIVE at once); audits and notifies each; answers the row after.
 */
export async function advance(tx: Tx, row: ContractRow, nowMs: number, publish: PublishAfterCommit): Promise<ContractRow> {
  let current = row;
  for (let i = 0; i < 4; i++) {
    const move = await dueMove(tx, current, nowMs);
    if (!move) break;
    const [next] = await tx
      .update(contracts)
      .set({ ...move, updatedAt: new Date(nowMs) })
      .where(eq(contracts.id, current.id))
      .returning();
    await auditContract(tx, null, current.senderId, 'contractStatusDue', { contractId: current.id, from: current.status, to: next!.status });
    const notice = next!.status !== current.status ? NOTICE_OF[next!.status as ContractStatus] : undefined;
    if (notice) await notifyBoth(tx, publish, next!, notice, nowMs);
    current = next!;
  }
  return current;
}

/** Contracts that may have a move due at nowMs (the worker's and the reads' filter). */
export function mayBeDue(nowMs: number): SQL {
  const now = new Date(nowMs).toISOString();
  const expiredBefore = new Date(nowMs - SIGNING_DAYS * DAY_MS).toISOString();
  return sql`((${contracts.status} in ('UNSIGNED', 'WAITING') and ${contracts.createdAt} <= ${expiredBefore}::timestamptz)
    or (${contracts.status} = 'SIGNED' and ${contracts.activeFrom} <= ${now}::timestamptz)
    or (${contracts.status} = 'TERMINATING' and ${contracts.activeTo} <= ${now}::timestamptz)
    or ${contracts.status} = 'NEED_IDENTIFICATION')`;
}

/** Locks the contract and applies what is due (an action's first step); null when there is none. */
export async function lockAndAdvance(tx: Tx, id: number, nowMs: number, publish: PublishAfterCommit): Promise<ContractRow | null> {
  const row = await lockContract(tx, id);
  return row ? advance(tx, row, nowMs, publish) : null;
}

/** Applies what is due to the customer's contracts (a read's first step), in id order (no deadlock between two readers). */
export async function advanceFor(tx: Tx, customerId: number, nowMs: number, publish: PublishAfterCommit): Promise<void> {
  const due = await tx
    .select()
    .from(contracts)
    .where(and(or(eq(contracts.senderId, customerId), eq(contracts.beneficiaryId, customerId)), mayBeDue(nowMs)))
    .orderBy(asc(contracts.id))
    .for('update');
  for (const row of due) await advance(tx, row, nowMs, publish);
}

// ---------------------------------------------------------------- the wire

/** The acting customer's contracts (both sides). */
export function contractsOf(db: Db | Tx, customerId: number): Promise<ContractRow[]> {
  return db
    .select()
    .from(contracts)
    .where(or(eq(contracts.senderId, customerId), eq(contracts.beneficiaryId, customerId)))
    .orderBy(asc(contracts.id));
}

export function metaOf(rows: readonly ContractRow[], customerId: number): ContractsMeta {
  const meta: ContractsMeta = { active: 0, total: rows.length, requests: 0, pending: 0, ended: 0, pay: 0, receive: 0 };
  for (const row of rows) {
    const c = contractCountsAs(factsOf(row), customerId);
    for (const key of ['active', 'requests', 'pending', 'ended', 'pay', 'receive'] as const) if (c[key]) meta[key]++;
  }
  return meta;
}

/**
 * The contracts as the wire says them for the acting customer: direction and actions are its
 * view (`mayAct`: the caller acts for it with full rights), the split's totals per currency.
 */
export async function serialise(db: Db | Tx, rows: readonly ContractRow[], customerId: number, mayAct: boolean): Promise<Contract[]> {
  if (rows.length === 0) return [];
  const names = await partyNames(
    db,
    rows.flatMap((r) => [r.senderId, r.beneficiaryId, r.companyId]),
  );
  const totals = await db
    .select({
      contractId: contractSplits.contractId,
      currency: contractSplits.currency,
      amount: sql<string>`sum(${contractSplits.shareMinor})::text`,
      count: sql<number>`count(*)::int`,
    })
    .from(contractSplits)
    .where(
      inArray(
        contractSplits.contractId,
        rows.map((r) => r.id),
      ),
    )
    .groupBy(contractSplits.contractId, contractSplits.currency)
    .orderBy(asc(contractSplits.currency));
  const party = (id: number) => ({ id, username: names.get(id)?.username ?? '', name: names.get(id)?.name ?? '' });
  return rows.map((row) => {
    const facts = factsOf(row);
    const terminated = row.terminatedBy !== null || row.terminatedAt !== null;
    return {
      id: row.id,
      status: facts.status,
      identificationStatus: row.identificationStatus as IdentificationStatus,
      percentage: bpToPercentage(row.percentageBp),
      initiatorId: row.initiatorId,
      direction: contractSide(row, customerId) === 'sender' ? 'PAY' : 'RECEIVE',
      note: row.note,
      activeFrom: row.activeFrom.toISOString(),
      activeTo: row.activeTo?.toISOString() ?? null,
      terminateInfo: terminated ? { terminatedAt: row.terminatedAt?.toISOString() ?? null, note: row.terminateNote, terminatedBy: row.terminatedBy } : null,
      updatedAt: row.updatedAt.toISOString(),
      createdAt: row.createdAt.toISOString(),
      company: { id: row.companyId, title: names.get(row.companyId)?.name ?? '', logo: null },
      sender: party(row.senderId),
      beneficiary: party(row.beneficiaryId),
      senderSignerName: row.senderSignerName,
      senderObligations: row.senderObligations,
      beneficiarySignerName: row.beneficiarySignerName,
      beneficiaryObligations: row.beneficiaryObligations,
      senderSignedAt: row.senderSignedAt?.toISOString() ?? null,
      beneficiarySignedAt: row.beneficiarySignedAt?.toISOString() ?? null,
      actions: contractActions(facts, customerId, mayAct),
      splitTotals: totals
        .filter((t) => t.contractId === row.id)
        .map((t) => ({ currency: t.currency, amount: minorToDecimal(BigInt(t.amount), t.currency), count: Number(t.count) })),
    };
  });
}
