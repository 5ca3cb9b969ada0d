/**
 * The revenue split executed by the ledger (issue 19 §2; document 3 §3 Contract, §4): while a
 * contract is in force, every covered incoming payment to the payer's (sender's) account moves the
 * contract's percentage of it to the beneficiary's account IN THE SAME DATABASE TRANSACTION as the
 * payment, half-even (api/contracts.ts splitShare), the remainder staying with the payer.
 *
 * The rules live ONCE, in SQL (migration 0024, section "contracts split"): contract_split_targets
 * decides which contracts split a credit, contract_split_book writes the splits. The TypeScript
 * posting paths call them through this file (ledger.ts bookEntry's `split`, transfers.service.ts
 * request()'s posting statement); the PL/pgSQL posting core (ledger_post_transfer) calls them
 * itself. Both in two steps around the payment: the targets BEFORE the locks (so the beneficiaries'
 * accounts join the ascending-id lock set: ledger.ts explains why one order), the booking after
 * the payment's entry, under those locks.
 *
 * Decided here (not in the spec):
 * - In force: status ACTIVE, TERMINATING or SIGNED (SIGNED turns ACTIVE at active_from; the job
 *   may not have run yet), active_from <= the payment's time and (active_to null or later than
 *   it): by time, so a termination stops the split exactly at its end time whatever the job did.
 * - Covered (conservative): a credit to an active customer account of the payer that comes from
 *   ANOTHER customer or from outside the platform, in a currency in which the beneficiary has an
 *   active payment account (types 1001/1003; its lowest id; none: no split, nothing recorded).
 *   The posting paths that do split: a p2p transfer (posted in its request, approved later,
 *   waiting for a company's checker, a recurring run, a mass batch's p2p row: all through
 *   request() or post()), a p2p through ledger_post_transfer, and the funding rail's credit
 *   (journal kind deposit). Not covered: transfers between the payer's own accounts (and so every
 *   transfer of the one-statement fast path and its batch, which post only those), a payment from
 *   the beneficiary itself, fees, FX legs (provider accounts), returns of the payer's own payouts
 *   (payout_returned), card balance moves and opening balances, and the split moves themselves (no
 *   cascade: a beneficiary who is also a payer elsewhere keeps its split credit whole).
 * - Several contracts on one payer: each takes its share of the gross in contract id order; never
 *   more than the gross in all (the later ones take what remains), never below the payer's floor.
 * - A share of 0 (a tiny payment) books nothing.
 * - Each split is its own balanced entry (kind contract_split, idempotency key
 *   `contract-split:{contractId}:{sourceEntryId}`, description naming the contract and both
 *   parties) and a contract_splits row; history shows it on both sides (history.service.ts).
 * - An idempotent replay of a payment books nothing again, so it splits nothing again (the payment's
 *   entry is not created the second time and the split is only booked beside a created entry).
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/types.ts';
import type { LockedAccount } from '../accounts/ledger.ts';

/** A credit a posting is about to make: the account credited, who pays it (their accounts are debited), when. */
export interface SplitCredit {
  accountId: number;
  /** the customers whose accounts the payment comes from ([] for money from outside the platform) */
  fromCustomerIds: readonly number[];
  /** the payment's time (decides which contracts are in force) */
  at: Date;
}

/** A contract that will split the credit, with the beneficiary's account to lock. */
export interface SplitTarget {
  contractId: number;
  percentageBp: number;
  beneficiaryAccountId: number;
}

/** A split booked. */
export interface BookedSplit {
  entryId: number;
  contractId: number;
  beneficiaryAccountId: number;
  shareMinor: bigint;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const intArray = (ids: readonly number[]) => sql`${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::integer[]`;

/**
 * The contracts in force that split this credit (contract_split_targets), in contract id order; []
 * for an uncovered one. Call BEFORE locking: the beneficiaries' accounts go into the same lock set.
 */
export async function splitTargets(tx: Tx | Db, credit: SplitCredit): Promise<SplitTarget[]> {
  const rows = rowsOf<{ split_contract: number; split_bp: number; split_account: number }>(
    await tx.execute(
      sql`select split_contract, split_bp, split_account from contract_split_targets(${credit.accountId}::integer, ${intArray(credit.fromCustomerIds)}, ${credit.at.toISOString()}::timestamptz)`,
    ),
  );
  return rows.map((r) => ({ contractId: Number(r.split_contract), percentageBp: Number(r.split_bp), beneficiaryAccountId: Number(r.split_account) }));
}

/**
 * Books the splits of a credit just posted (contract_split_book), in the payment's transaction,
 * under the locks the payment took (the payer's and the targets' beneficiaries' accounts). `locked`:
 * the caller's view of the rows, kept current (it may post again in this transaction).
 */
export async function bookSplits(
  tx: Tx,
  o: { sourceEntryId: number; credit: SplitCredit; grossMinor: bigint; targets: readonly SplitTarget[]; locked?: Map<number, LockedAccount> | undefined },
): Promise<BookedSplit[]> {
  if (o.targets.length === 0 || o.grossMinor <= 0n) return [];
  const rows = rowsOf<{ split_entry: string; split_contract: number; split_account: number; split_share: string }>(
    await tx.execute(sql`
      select split_entry::text as split_entry, split_contract, split_account, split_share::text as split_share
      from contract_split_book(${o.sourceEntryId}::bigint, ${o.credit.accountId}::integer, ${o.grossMinor.toString()}::bigint,
        ${intArray(o.targets.map((t) => t.contractId))}, ${intArray(o.targets.map((t) => t.percentageBp))}, ${intArray(o.targets.map((t) => t.beneficiaryAccountId))},
        ${o.credit.at.toISOString()}::timestamptz)`),
  );
  const booked = rows.map((r) => ({
    entryId: Number(r.split_entry),
    contractId: Number(r.split_contract),
    beneficiaryAccountId: Number(r.split_account),
    shareMinor: BigInt(r.split_share),
  }));
  if (o.locked) {
    for (const s of booked) {
      const payer = o.locked.get(o.credit.accountId);
      const beneficiary = o.locked.get(s.beneficiaryAccountId);
      if (payer) payer.balanceMinor -= s.shareMinor;
      if (beneficiary) beneficiary.balanceMinor += s.shareMinor;
    }
  }
  return booked;
}
