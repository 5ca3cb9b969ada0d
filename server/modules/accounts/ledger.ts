/**
 * The double-entry journal (DESIGN.md "Ledger"; issue 4 §1).
 *
 * - Every balance change is one journal entry whose legs sum to zero PER CURRENCY (a conversion
 *   has legs in two currencies, each balanced through the provider's FX accounts).
 * - Customer accounts (accounts.purpose 'customer') are locked in ascending id order and their
 *   balance_minor is a cache of the sum of their legs, kept in the same transaction; a leg never
 *   takes a customer account below balance_min_minor counting the money it holds for pending
 *   transfers (pending_minor).
 * - Provider accounts (purpose capital, fee, fx; owned by the provider customer, one of each per
 *   currency) are APPEND-ONLY: their legs are written but their row is neither locked nor updated
 *   (balance_minor stays 0; their balance is the sum of their legs). Otherwise every fee and every
 *   conversion would update one provider row, a lock every transfer of the platform waits for.
 *
 * Locks are FOR NO KEY UPDATE rather than FOR UPDATE: we never change an account's key, and the
 * weaker lock does not block the FOR KEY SHARE that foreign-key checks take when a transfer or a
 * leg referencing the account is inserted by another transaction (FOR UPDATE would, adding waits
 * for nothing). It still excludes every other writer of the row, which is what ordering is about.
 *
 * reconcile() checks every invariant from the journal alone; the tests run it after each step.
 */
import { and, eq, sql } from 'drizzle-orm';
import { CURRENCIES } from '../../../api/transfers.ts';
import type { Db, Tx } from '../../db/types.ts';
import { executeNamed } from '../../db/prepared.ts';
import { customers } from '../customers/customers.tables.ts';
import { accounts } from './accounts.tables.ts';
import { bookSplits, splitTargets, type SplitCredit } from '../contracts/split.ts';

export type AccountPurpose = (typeof accounts.$inferSelect)['purpose'];
export type ProviderPurpose = Exclude<AccountPurpose, 'customer'>;
/** One of each per currency (ensureProviderAccounts); clearing accounts are per rail and currency (rails/payouts.service.ts). */
export const PROVIDER_PURPOSES: readonly ProviderPurpose[] = ['capital', 'fee', 'fx'];
/** Transfer kinds booked by one entry inside the platform; every other kind is a payout over a rail. */
const INTERNAL_KINDS: ReadonlySet<string> = new Set(['betweenAccounts', 'p2p', 'cardFee']);

/** Money never appears from nowhere: a posting that would take an account below its floor is refused. */
export class InsufficientFundsError extends Error {
  override name = 'InsufficientFundsError';
  constructor(readonly accountId: number) {
    super(`account ${accountId} would go below its minimum balance`);
  }
}

/** A programming error: the entry as given can never be booked (unbalanced, unknown account...). */
export class LedgerError extends Error {
  override name = 'LedgerError';
}

/** An account as read under its lock (amounts in minor units). Provider rows carry zeros. */
export interface LockedAccount {
  accountId: number;
  customerId: number;
  currency: string;
  purpose: AccountPurpose;
  status: number;
  type: number;
  balanceMinor: bigint;
  balanceMinMinor: bigint;
  pendingMinor: bigint;
}

interface RawAccountRow {
  account_id: number;
  customer_id: number;
  currency: string;
  purpose: AccountPurpose;
  status: number;
  type: number;
  balance_minor: string;
  balance_min_minor: string;
  pending_minor: string;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

function toLocked(row: RawAccountRow): LockedAccount {
  return {
    accountId: Number(row.account_id),
    customerId: Number(row.customer_id),
    currency: row.currency,
    purpose: row.purpose,
    status: Number(row.status),
    type: Number(row.type),
    balanceMinor: BigInt(row.balance_minor),
    balanceMinMinor: BigInt(row.balance_min_minor),
    pendingMinor: BigInt(row.pending_minor),
  };
}

/**
 * Reads the accounts and locks the customer ones among them, in ascending id order, in one
 * statement. Provider accounts are read without a lock. The locked rows are the ones the locking
 * SELECT returns (their newest version after any wait), never a second read from the statement's
 * older snapshot. Unknown ids are simply absent from the map.
 */
export async function lockAccounts(tx: Tx | Db, ids: readonly number[]): Promise<Map<number, LockedAccount>> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const out = new Map<number, LockedAccount>();
  if (unique.length === 0) return out;
  // bigint columns as text: PGlite hands int8 back as a JS number, which loses precision above 2^53.
  const result = await executeNamed(tx, sql`
    with locked as (
      select account_id, customer_id, currency, purpose, status, type,
             balance_minor::text as balance_minor, balance_min_minor::text as balance_min_minor, pending_minor::text as pending_minor
      from accounts
      where account_id in ${unique} and purpose = 'customer'
      order by account_id
      for no key update
    )
    select * from locked
    union all
    select account_id, customer_id, currency, purpose, status, type, '0', '0', '0'
    from accounts
    where account_id in ${unique} and purpose <> 'customer'`);
  for (const row of rowsOf<RawAccountRow>(result)) out.set(Number(row.account_id), toLocked(row));
  return out;
}

export interface EntryLeg {
  accountId: number;
  /** positive credits the account, negative debits it; zero legs are dropped */
  amountMinor: bigint;
}

export interface EntryInput {
  /** 'opening_balance', 'transfer' */
  kind: string;
  /** the same key never books twice (journal_entries_idempotency): `transfer:{id}`, `schedule:{id}:{n}`, `seed:...` */
  idempotencyKey: string;
  transferId?: number | null;
  description?: Record<string, unknown>;
  legs: EntryLeg[];
  /**
   * Money held for a pending transfer that this entry settles: pending_minor decreases by it in the
   * same update, and the floor check counts the hold as released.
   */
  releaseHolds?: EntryLeg[];
  /** rows the caller already locked in this transaction (lockAccounts): not locked again */
  locked?: Map<number, LockedAccount>;
  /**
   * A covered incoming payment (contracts/split.ts): the credit the payee's revenue-split contracts
   * in force take their shares of, booked in this transaction after the entry (not on a replay).
   * With `locked`, the caller must have locked the targets' beneficiary accounts in its lock set.
   */
  split?: SplitCredit;
}

export interface BookedEntry {
  entryId: number;
  /** false when the idempotency key had booked before: nothing was changed now */
  created: boolean;
}

/** An entry checked and its accounts locked, ready to be written (planEntry). */
export interface EntryPlan {
  legs: EntryLeg[];
  rows: Map<number, LockedAccount>;
  /** the customer accounts' changes, in ascending id order */
  updates: { accountId: number; delta: bigint; release: bigint }[];
}

/**
 * Checks an entry and locks what the caller has not (everything bookEntry does before writing):
 * LedgerError for an entry that can never be right (unbalanced, unknown account, a provider leg
 * with a hold), InsufficientFundsError when a customer account would go below its floor.
 */
export async function planEntry(tx: Tx, input: Pick<EntryInput, 'legs' | 'releaseHolds' | 'locked'> & { alsoLock?: readonly number[] }): Promise<EntryPlan> {
  const legs = input.legs.filter((leg) => leg.amountMinor !== 0n);
  if (legs.length === 0) throw new LedgerError('an entry needs legs');
  if (new Set(legs.map((l) => l.accountId)).size !== legs.length) throw new LedgerError('one leg per account');
  const releases = new Map<number, bigint>();
  for (const r of input.releaseHolds ?? []) {
    if (r.amountMinor < 0n) throw new LedgerError('a released hold is positive');
    releases.set(r.accountId, (releases.get(r.accountId) ?? 0n) + r.amountMinor);
  }

  const ids = [...new Set([...legs.map((l) => l.accountId), ...releases.keys()])];
  // accounts a later step of the transaction writes (a split's beneficiary): locked in the same ordered statement
  const toLock = [...new Set([...ids, ...(input.alsoLock ?? [])])];
  const missing = input.locked ? toLock.filter((id) => !input.locked!.has(id)) : toLock;
  const rows = new Map(input.locked ?? []);
  if (missing.length > 0) for (const [id, row] of await lockAccounts(tx, missing)) rows.set(id, row);

  // Invariant: the legs sum to zero per currency (before anything is written).
  const sums = new Map<string, bigint>();
  for (const leg of legs) {
    const account = rows.get(leg.accountId);
    if (!account) throw new LedgerError(`unknown account ${leg.accountId}`);
    sums.set(account.currency, (sums.get(account.currency) ?? 0n) + leg.amountMinor);
  }
  for (const [currency, sum] of sums) if (sum !== 0n) throw new LedgerError(`unbalanced entry in ${currency}: ${sum}`);

  // Invariant: no customer account below its floor, held money included.
  const updates: EntryPlan['updates'] = [];
  for (const id of ids.sort((a, b) => a - b)) {
    const account = rows.get(id);
    if (!account) throw new LedgerError(`unknown account ${id}`);
    const delta = legs.find((l) => l.accountId === id)?.amountMinor ?? 0n;
    const release = releases.get(id) ?? 0n;
    if (account.purpose !== 'customer') {
      if (release !== 0n) throw new LedgerError('provider accounts hold nothing');
      continue;
    }
    const balance = account.balanceMinor + delta;
    const pending = account.pendingMinor - release;
    if (pending < 0n) throw new LedgerError(`account ${id} releases more than it holds`);
    if (balance - pending < account.balanceMinMinor) throw new InsufficientFundsError(id);
    updates.push({ accountId: id, delta, release });
  }
  return { legs, rows, updates };
}

/** The legs of a plan as `(values ...)` rows of (account_id, currency, amount_minor). */
export function legValuesSql(plan: EntryPlan) {
  return sql.join(
    plan.legs.map((leg) => sql`(${leg.accountId}::integer, ${plan.rows.get(leg.accountId)!.currency}::text, ${leg.amountMinor.toString()}::bigint)`),
    sql`, `,
  );
}

/** The customer accounts' changes of a plan as `(values ...)` rows of (account_id, delta, release); null when none. */
export function updateValuesSql(plan: EntryPlan) {
  if (plan.updates.length === 0) return null;
  return sql.join(
    plan.updates.map((u) => sql`(${u.accountId}::integer, ${u.delta.toString()}::bigint, ${u.release.toString()}::bigint)`),
    sql`, `,
  );
}

/** After a plan was written: keeps the caller's view of the rows current (it may book or hold again in this transaction). */
export function applyEntryPlan(plan: EntryPlan): void {
  for (const u of plan.updates) {
    const row = plan.rows.get(u.accountId)!;
    row.balanceMinor += u.delta;
    row.pendingMinor -= u.release;
  }
}

/**
 * Books one balanced entry. Throws LedgerError for an entry that can never be right (unbalanced,
 * unknown account, a provider leg with a hold) and InsufficientFundsError when a customer account
 * would go below its floor; the caller's transaction then rolls back whatever it did.
 */
export async function bookEntry(tx: Tx, input: EntryInput): Promise<BookedEntry> {
  // the revenue split's contracts before the locks: their beneficiaries' accounts are locked with the entry's
  const targets = input.split ? await splitTargets(tx, input.split) : [];
  const plan = await planEntry(tx, { ...input, alsoLock: targets.map((t) => t.beneficiaryAccountId) });
  // The entry, its legs and the balances in one statement; an idempotency key booked before
  // inserts nothing (and so changes no balance).
  const updateValues = updateValuesSql(plan);
  const inserted = rowsOf<{ entry_id: string }>(
    await tx.execute(sql`
      with entry as (
        insert into journal_entries (kind, idempotency_key, transfer_id, description)
        values (${input.kind}, ${input.idempotencyKey}, ${input.transferId ?? null}, ${JSON.stringify(input.description ?? {})}::jsonb)
        on conflict (idempotency_key) do nothing
        returning id
      ),
      legs as (
        insert into journal_legs (entry_id, account_id, currency, amount_minor)
        select entry.id, v.account_id, v.currency, v.amount_minor
        from entry, (values ${legValuesSql(plan)}) as v(account_id, currency, amount_minor)
      )${
        updateValues
          ? sql`,
      balances as (
        update accounts set balance_minor = accounts.balance_minor + v.delta, pending_minor = accounts.pending_minor - v.release
        from entry, (values ${updateValues}) as v(account_id, delta, release)
        where accounts.account_id = v.account_id
      )`
          : sql``
      }
      select id::text as entry_id from entry`),
  );
  if (inserted.length === 0) {
    const [existing] = rowsOf<{ id: string }>(
      await tx.execute(sql`select id::text as id from journal_entries where idempotency_key = ${input.idempotencyKey}`),
    );
    if (!existing) throw new LedgerError('the entry was neither booked nor found');
    return { entryId: Number(existing.id), created: false };
  }
  applyEntryPlan(plan);
  const entryId = Number(inserted[0]!.entry_id);
  if (input.split && targets.length > 0) {
    const gross = plan.legs.find((l) => l.accountId === input.split!.accountId)?.amountMinor ?? 0n;
    await bookSplits(tx, { sourceEntryId: entryId, credit: input.split, grossMinor: gross, targets, locked: plan.rows });
  }
  return { entryId, created: true };
}

/**
 * Holds money of a customer account for a pending transfer (the caller holds the row's lock):
 * refused with InsufficientFundsError when the available balance (balance - pending - floor)
 * is smaller than the hold.
 */
export async function placeHold(tx: Tx, account: LockedAccount, amountMinor: bigint): Promise<void> {
  if (account.purpose !== 'customer') throw new LedgerError('provider accounts hold nothing');
  if (amountMinor <= 0n) throw new LedgerError('a hold is positive');
  if (account.balanceMinor - account.pendingMinor - amountMinor < account.balanceMinMinor) throw new InsufficientFundsError(account.accountId);
  await tx
    .update(accounts)
    .set({ pendingMinor: sql`${accounts.pendingMinor} + ${amountMinor.toString()}::bigint` })
    .where(eq(accounts.accountId, account.accountId));
  account.pendingMinor += amountMinor;
}

/** Gives held money back (a voided transfer); the caller holds the row's lock. */
export async function releaseHold(tx: Tx, account: LockedAccount, amountMinor: bigint): Promise<void> {
  if (amountMinor <= 0n) throw new LedgerError('a released hold is positive');
  if (account.pendingMinor < amountMinor) throw new LedgerError(`account ${account.accountId} releases more than it holds`);
  await tx
    .update(accounts)
    .set({ pendingMinor: sql`${accounts.pendingMinor} - ${amountMinor.toString()}::bigint` })
    .where(eq(accounts.accountId, account.accountId));
  account.pendingMinor -= amountMinor;
}

export interface BalancedMove {
  kind: string;
  idempotencyKey: string;
  fromAccountId: number;
  toAccountId: number;
  amountMinor: bigint;
  description?: Record<string, unknown>;
}

/** One amount between two accounts of one currency (the foundation's call, kept for its callers). */
export async function bookMove(tx: Tx, move: BalancedMove): Promise<number> {
  if (move.amountMinor <= 0n) throw new LedgerError('a move must be positive');
  if (move.fromAccountId === move.toAccountId) throw new LedgerError('a move needs two accounts');
  const booked = await bookEntry(tx, {
    kind: move.kind,
    idempotencyKey: move.idempotencyKey,
    ...(move.description ? { description: move.description } : {}),
    legs: [
      { accountId: move.fromAccountId, amountMinor: -move.amountMinor },
      { accountId: move.toAccountId, amountMinor: move.amountMinor },
    ],
  });
  return booked.entryId;
}

// ---- the provider's accounts ----------------------------------------------------------------

/** The provider customer's id (customers.is_provider), or null before seeding. */
export async function providerCustomerId(db: Db | Tx): Promise<number | null> {
  const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.isProvider, true)).orderBy(customers.id).limit(1);
  return row?.id ?? null;
}

/**
 * The provider's capital, fee and fx account of every currency, created where missing (at seeding
 * and at every start, so a database seeded before a currency or a purpose existed gets them).
 * Idempotent. Accounts of the provider created by the foundation as plain 'customer' accounts
 * (its capital accounts, whose balance was a kept cache) become 'capital' accounts with the
 * append-only rule: their row's balance is set to 0, their legs keep their balance.
 */
export async function ensureProviderAccounts(db: Db | Tx): Promise<void> {
  let providerId = await providerCustomerId(db);
  if (providerId === null) {
    const [created] = await db
      .insert(customers)
      .values({ customerType: 'business', businessName: 'Platform provider (capital)', verified: true, isProvider: true })
      .returning({ id: customers.id });
    providerId = created!.id;
  }
  await db
    .update(accounts)
    .set({ purpose: 'capital', balanceMinor: 0n, pendingMinor: 0n, balanceMinMinor: 0n })
    .where(and(eq(accounts.customerId, providerId), eq(accounts.purpose, 'customer')));
  const existing = await db
    .select({ currency: accounts.currency, purpose: accounts.purpose })
    .from(accounts)
    .where(eq(accounts.customerId, providerId));
  const have = new Set(existing.map((a) => `${a.purpose}:${a.currency}`));
  const missing = CURRENCIES.flatMap((currency) =>
    PROVIDER_PURPOSES.filter((purpose) => !have.has(`${purpose}:${currency}`)).map((purpose) => ({
      type: 1001,
      currency,
      customerId: providerId,
      purpose,
    })),
  );
  if (missing.length > 0) await db.insert(accounts).values(missing);
}

/** The provider's account of a purpose and currency (the lowest id when there are several). */
export async function providerAccountId(db: Db | Tx, purpose: ProviderPurpose, currency: string): Promise<number> {
  const [row] = await db
    .select({ id: accounts.accountId })
    .from(accounts)
    .innerJoin(customers, eq(customers.id, accounts.customerId))
    .where(and(eq(customers.isProvider, true), eq(accounts.purpose, purpose), eq(accounts.currency, currency)))
    .orderBy(accounts.accountId)
    .limit(1);
  if (!row) throw new LedgerError(`no provider ${purpose} account in ${currency}`);
  return row.id;
}

/** The provider's accounts of some purposes and currencies in one query: `${purpose}:${currency}` -> id. */
export async function providerAccountIds(db: Db | Tx, currencies: readonly string[]): Promise<Map<string, number>> {
  const rows = rowsOf<{ account_id: number; purpose: string; currency: string }>(
    await db.execute(sql`
      select distinct on (a.purpose, a.currency) a.account_id, a.purpose, a.currency
      from accounts a join customers c on c.id = a.customer_id
      where c.is_provider and a.purpose <> 'customer' and a.currency in ${[...new Set(currencies)]}
      order by a.purpose, a.currency, a.account_id`),
  );
  return new Map(rows.map((r) => [`${r.purpose}:${r.currency}`, Number(r.account_id)]));
}

// ---- reconciliation -------------------------------------------------------------------------

/**
 * Every invariant of the ledger, checked from the journal; [] when all hold. Read-only, in one
 * repeatable-read snapshot (so it may run while transfers are in flight).
 *
 * 1. each entry's legs sum to zero per currency (so every currency's legs sum to zero);
 * 2. a leg's currency is its account's;
 * 3. a customer account's balance_minor equals the sum of its legs; a provider account's stays 0;
 * 4. a customer account's pending_minor equals amount + fee of its pending transfers (of a mass or
 *    global-pay batch being paid: its rows and payments not yet handled);
 * 5. no customer account is below its floor, held money included;
 * 6. a posted transfer has exactly its entry, whose legs debit the source amount + fee and credit
 *    the destination toAmount; a transfer not posted has no entry. A payout (a rail's kind) has
 *    none while its money is held, its `sent` entry once sent, its settlement or return entry
 *    after that; in all, its source gave amount + fee (sent, settled), or the fee kept (returned);
 * 7. a rail's clearing account holds exactly the payouts sent and not yet settled or returned, and
 *    the incoming payments received and not yet credited or returned;
 * 8. a card scheme's settlement account (card_scheme_accounts) holds exactly the cleared card
 *    payments of its currency; a cleared card authorisation has exactly its clearing entry, whose
 *    legs take its amount from the paying account to that settlement account; any other has none.
 */
export async function reconcile(db: Db): Promise<string[]> {
  return db.transaction((tx) => reconcileIn(tx), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

async function reconcileIn(db: Tx): Promise<string[]> {
  const problems: string[] = [];
  const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));

  for (const r of await q<{ entry_id: string; currency: string; total: string }>(sql`
    select entry_id::text, currency, sum(amount_minor)::text as total from journal_legs
    group by entry_id, currency having sum(amount_minor) <> 0`)) {
    problems.push(`entry ${r.entry_id} is unbalanced in ${r.currency} by ${r.total}`);
  }
  for (const r of await q<{ currency: string; total: string }>(sql`
    select currency, sum(amount_minor)::text as total from journal_legs group by currency having sum(amount_minor) <> 0`)) {
    problems.push(`the legs in ${r.currency} sum to ${r.total}`);
  }
  for (const r of await q<{ id: string; account_id: number }>(sql`
    select l.id::text, l.account_id from journal_legs l join accounts a on a.account_id = l.account_id where l.currency <> a.currency`)) {
    problems.push(`leg ${r.id} is not in the currency of account ${r.account_id}`);
  }
  for (const r of await q<{ account_id: number; purpose: string; balance: string; legs: string }>(sql`
    select a.account_id, a.purpose, a.balance_minor::text as balance, coalesce(sum(l.amount_minor), 0)::text as legs
    from accounts a left join journal_legs l on l.account_id = a.account_id
    group by a.account_id
    having (a.purpose = 'customer' and a.balance_minor <> coalesce(sum(l.amount_minor), 0))
        or (a.purpose <> 'customer' and (a.balance_minor <> 0 or a.pending_minor <> 0))`)) {
    problems.push(
      r.purpose === 'customer'
        ? `account ${r.account_id} balance ${r.balance} differs from its legs ${r.legs}`
        : `provider account ${r.account_id} has a balance of its own (${r.balance})`,
    );
  }
  for (const r of await q<{ account_id: number; pending: string; held: string }>(sql`
    select a.account_id, a.pending_minor::text as pending, coalesce(t.held, 0)::text as held
    from accounts a
    left join (select from_account_id, sum(held) as held from (
                 select from_account_id, amount_minor + fee_minor as held from transfers
                 where status = 'pending' or (status = 'processing' and entry_id is null and kind <> 'mass')
                 -- a mass batch being paid still holds the rows not yet handled (mass.tables.ts)
                 union all
                 select t.from_account_id, r.amount_minor + r.fee_minor from transfers t
                 join transfer_batches b on b.transfer_id = t.id join transfer_batch_rows r on r.batch_id = b.id
                 where t.kind = 'mass' and t.status = 'processing' and r.status = 'pending'
                 -- a global-pay batch approved holds each payment still waiting for its payee (global-pay.tables.ts)
                 union all
                 select b.account_id, p.amount_minor + p.held_fee_minor from global_pay_batches b
                 join global_payments p on p.batch_id = b.id
                 where p.state = 'waiting'
                 -- a card payment authorised and not yet cleared nor reversed holds its amount on the paying account (cards.tables.ts)
                 union all
                 select account_id, amount_minor from card_authorizations where status = 'authorized') h
               group by from_account_id) t
      on t.from_account_id = a.account_id
    where a.purpose = 'customer' and a.pending_minor <> coalesce(t.held, 0)`)) {
    problems.push(`account ${r.account_id} holds ${r.pending} but its pending transfers need ${r.held}`);
  }
  for (const r of await q<{ account_id: number }>(sql`
    select account_id from accounts where purpose = 'customer' and (balance_minor - pending_minor < balance_min_minor or pending_minor < 0)`)) {
    problems.push(`account ${r.account_id} is below its minimum`);
  }
  for (const r of await q<{ id: string; kind: string; status: string; entry_id: string | null; entries: number; entry: string | null; amount: string; to_amount: string; fee: string; fee_back: string; source_sum: string; dest_sum: string }>(sql`
    select t.id::text, t.kind, t.status, t.entry_id::text, (t.amount_minor + t.fee_minor)::text as amount, t.to_amount_minor::text as to_amount,
      t.fee_minor::text as fee, coalesce(ri.fee_refunded_minor, 0)::text as fee_back,
      coalesce(x.entries, 0)::int as entries, x.entry::text as entry,
      coalesce(x.source_sum, 0)::text as source_sum, coalesce(x.dest_sum, 0)::text as dest_sum
    from transfers t
    -- one pass over the entries and legs (a subquery per transfer went through a busy account's
    -- every leg for each of its transfers: quadratic)
    left join (
      select e.transfer_id, count(distinct e.id) as entries, min(e.id) as entry,
        sum(l.amount_minor) filter (where l.account_id = tt.from_account_id) as source_sum,
        sum(l.amount_minor) filter (where l.account_id = tt.to_account_id) as dest_sum
      from journal_entries e
      join transfers tt on tt.id = e.transfer_id
      left join journal_legs l on l.entry_id = e.id
      group by e.transfer_id
    ) x on x.transfer_id = t.id
    left join rail_instructions ri on ri.transfer_id = t.id`)) {
    const gave = -BigInt(r.source_sum);
    // a mass batch's request moves no money itself (its rows are the transfers): never an entry
    const ok = r.kind === 'mass'
      ? r.entries === 0 && r.entry_id === null
      : !INTERNAL_KINDS.has(r.kind)
      ? r.status === 'processing'
        ? r.entry_id === null
          ? r.entries === 0
          : r.entries === 1 && r.entry_id === r.entry && gave === BigInt(r.amount)
        : r.status === 'posted'
          ? r.entries === 2 && r.entry_id === r.entry && gave === BigInt(r.amount)
          : r.status === 'returned'
            ? (r.entries === 2 || r.entries === 3) && r.entry_id === r.entry && gave === BigInt(r.fee) - BigInt(r.fee_back)
            : r.entries === 0 && r.entry_id === null
      : r.status === 'posted'
        ? r.entries === 1 && r.entry_id === r.entry && BigInt(r.source_sum) === -BigInt(r.amount) && BigInt(r.dest_sum) === BigInt(r.to_amount)
        : r.entries === 0 && r.entry_id === null;
    if (!ok) problems.push(`transfer ${r.id} (${r.status}) does not match its journal entries (${r.entries} found)`);
  }
  for (const r of await q<{ account_id: number; legs: string; expected: string }>(sql`
    select c.account_id, coalesce(l.total, 0)::text as legs, coalesce(i.total, 0)::text as expected
    from rail_clearing_accounts c
    left join (select account_id, sum(amount_minor) as total from journal_legs group by account_id) l on l.account_id = c.account_id
    left join (select rail, currency, sum(amount_minor) as total from rail_instructions
               where (direction = 'out' and status = 'sent') or (direction = 'in' and status = 'received') group by rail, currency) i
      on i.rail = c.rail and i.currency = c.currency
    where coalesce(l.total, 0) <> coalesce(i.total, 0)`)) {
    problems.push(`clearing account ${r.account_id} holds ${r.legs} but its rail's payments in flight are ${r.expected}`);
  }
  for (const r of await q<{ account_id: number; legs: string; expected: string }>(sql`
    select s.account_id, coalesce(l.total, 0)::text as legs, coalesce(c.total, 0)::text as expected
    from card_scheme_accounts s
    left join (select account_id, sum(amount_minor) as total from journal_legs group by account_id) l on l.account_id = s.account_id
    left join (select currency, sum(amount_minor) as total from card_authorizations where status = 'cleared' group by currency) c on c.currency = s.currency
    where coalesce(l.total, 0) <> coalesce(c.total, 0)`)) {
    problems.push(`card scheme account ${r.account_id} holds ${r.legs} but the cleared card payments are ${r.expected}`);
  }
  for (const r of await q<{ id: string; status: string }>(sql`
    select a.id::text, a.status
    from card_authorizations a
    left join card_scheme_accounts s on s.currency = a.currency
    left join journal_entries e on e.idempotency_key = 'card-clearing:' || a.id::text
    left join lateral (
      select count(*)::int as legs,
        coalesce(sum(l.amount_minor) filter (where l.account_id = a.account_id), 0) as paying_sum,
        coalesce(sum(l.amount_minor) filter (where l.account_id = s.account_id), 0) as scheme_sum
      from journal_legs l where l.entry_id = e.id
    ) x on true
    where case when a.status = 'cleared'
      then e.id is null or a.entry_id is distinct from e.id or x.legs <> 2 or x.paying_sum <> -a.amount_minor or x.scheme_sum <> a.amount_minor
      else a.entry_id is not null or e.id is not null end`)) {
    problems.push(`card authorisation ${r.id} (${r.status}) does not match its clearing entry`);
  }
  return problems;
}

/** Every currency's total: the sum of all legs (0 when balanced) and the sum of customer balances. */
export async function currencyTotals(db: Db): Promise<Map<string, { legs: bigint; customerBalances: bigint; providerLegs: bigint }>> {
  const rows = rowsOf<{ currency: string; legs: string; customer: string; provider: string }>(
    await db.execute(sql`
      select l.currency, sum(l.amount_minor)::text as legs,
        coalesce(sum(l.amount_minor) filter (where a.purpose = 'customer'), 0)::text as customer,
        coalesce(sum(l.amount_minor) filter (where a.purpose <> 'customer'), 0)::text as provider
      from journal_legs l join accounts a on a.account_id = l.account_id group by l.currency`),
  );
  const balances = rowsOf<{ currency: string; total: string }>(
    await db.execute(sql`select currency, sum(balance_minor)::text as total from accounts where purpose = 'customer' group by currency`),
  );
  const out = new Map<string, { legs: bigint; customerBalances: bigint; providerLegs: bigint }>();
  for (const r of rows) out.set(r.currency, { legs: BigInt(r.legs), customerBalances: 0n, providerLegs: BigInt(r.provider) });
  for (const b of balances) {
    const entry = out.get(b.currency) ?? { legs: 0n, customerBalances: 0n, providerLegs: 0n };
    entry.customerBalances = BigInt(b.total);
    out.set(b.currency, entry);
  }
  return out;
}
