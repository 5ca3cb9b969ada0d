/**
 * Test data for the history suites, written straight into the ledger's tables (independent of the
 * transfer service): a transfer row, and for a posted one its journal entry with balanced legs
 * (source minus amount, destination plus credited amount; across currencies through the
 * provider's fx accounts; the fee to the provider's fee account) and the balances moved, as the
 * data model of transfers.tables.ts and accounts.tables.ts describes. A pending transfer holds
 * its amount and fee on the source (pending_minor).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../server/db/types.ts';
import { accounts, customers, journalEntries, journalLegs, transfers, users } from '../../server/db/schema.ts';

export interface Ledger {
  providerId: number;
  fee: Record<string, number>;
  fx: Record<string, number>;
}

const FLOOR = -(10n ** 15n);

/** The provider's fee and fx accounts in each currency the tests use. */
export async function setupLedger(db: Db, currencies: readonly string[] = ['EUR', 'USD', 'GBP']): Promise<Ledger> {
  const [provider] = await db.select({ id: customers.id }).from(customers).where(eq(customers.isProvider, true));
  const ledger: Ledger = { providerId: provider!.id, fee: {}, fx: {} };
  for (const currency of currencies) {
    for (const purpose of ['fee', 'fx'] as const) {
      const [a] = await db
        .insert(accounts)
        .values({ type: 1001, currency, customerId: provider!.id, purpose, balanceMinMinor: FLOOR })
        .returning({ id: accounts.accountId });
      ledger[purpose][currency] = a!.id;
    }
  }
  return ledger;
}

export async function userOf(db: Db, email: string): Promise<{ userId: number; customerId: number }> {
  const [u] = await db.select({ userId: users.id, customerId: users.customerId }).from(users).where(eq(users.email, email));
  if (!u) throw new Error(`no user ${email}`);
  return u;
}

export async function accountOf(db: Db, customerId: number, currency: string): Promise<number> {
  const [a] = await db
    .select({ id: accounts.accountId })
    .from(accounts)
    .where(and(eq(accounts.customerId, customerId), eq(accounts.currency, currency), eq(accounts.purpose, 'customer')))
    .orderBy(accounts.accountId)
    .limit(1);
  if (!a) throw new Error(`no ${currency} account of customer ${customerId}`);
  return a.id;
}

export async function addAccount(db: Db, customerId: number, currency: string, createdAt?: Date): Promise<number> {
  const [a] = await db
    .insert(accounts)
    .values({ type: 1001, currency, customerId, ...(createdAt ? { createdAt } : {}) })
    .returning({ id: accounts.accountId });
  return a!.id;
}

export interface TransferSpec {
  kind: 'betweenAccounts' | 'p2p';
  status: 'pending' | 'posted' | 'rejected' | 'expired' | 'canceled';
  /** the payer and the user who asked */
  customerId: number;
  userId: number;
  from: number;
  to: number;
  toCustomerId: number;
  amountMinor: bigint;
  /** credited; the amount when omitted (same currency) */
  toAmountMinor?: bigint;
  feeMinor?: bigint;
  note?: string | null;
  reference?: string | null;
  toEmail?: string | null;
  /** asked at */
  at: Date;
  /** booked at (posted only); `at` when omitted */
  bookedAt?: Date;
}

async function currencyOf(db: Db, accountId: number): Promise<string> {
  const [a] = await db.select({ currency: accounts.currency }).from(accounts).where(eq(accounts.accountId, accountId));
  return a!.currency;
}

async function move(db: Db, accountId: number, deltaMinor: bigint) {
  await db
    .update(accounts)
    .set({ balanceMinor: sql`${accounts.balanceMinor} + ${deltaMinor.toString()}::bigint` })
    .where(eq(accounts.accountId, accountId));
}

/** Inserts the transfer (and, posted, its entry, legs and balances); returns its id. */
export async function insertTransfer(db: Db, ledger: Ledger, spec: TransferSpec): Promise<number> {
  const fromCurrency = await currencyOf(db, spec.from);
  const toCurrency = await currencyOf(db, spec.to);
  const toAmountMinor = spec.toAmountMinor ?? spec.amountMinor;
  const feeMinor = spec.feeMinor ?? 0n;
  if (fromCurrency === toCurrency && toAmountMinor !== spec.amountMinor) throw new Error('same currency, different amounts');
  const [t] = await db
    .insert(transfers)
    .values({
      kind: spec.kind,
      status: spec.status,
      customerId: spec.customerId,
      userId: spec.userId,
      fromAccountId: spec.from,
      toAccountId: spec.to,
      toCustomerId: spec.toCustomerId,
      fromCurrency,
      toCurrency,
      amountMinor: spec.amountMinor,
      toAmountMinor,
      feeMinor,
      approveType: 'none',
      toEmail: spec.toEmail ?? null,
      note: spec.note ?? null,
      reference: spec.reference ?? null,
      expiresAt: new Date(spec.at.getTime() + 86_400_000),
      createdAt: spec.at,
      updatedAt: spec.bookedAt ?? spec.at,
    })
    .returning({ id: transfers.id });
  const id = t!.id;
  if (spec.status === 'pending') {
    await db
      .update(accounts)
      .set({ pendingMinor: sql`${accounts.pendingMinor} + ${(spec.amountMinor + feeMinor).toString()}::bigint` })
      .where(eq(accounts.accountId, spec.from));
  }
  if (spec.status !== 'posted') return id;

  const legs: { accountId: number; currency: string; amountMinor: bigint }[] = [];
  if (fromCurrency === toCurrency) {
    legs.push({ accountId: spec.from, currency: fromCurrency, amountMinor: -spec.amountMinor });
    legs.push({ accountId: spec.to, currency: toCurrency, amountMinor: toAmountMinor });
  } else {
    legs.push({ accountId: spec.from, currency: fromCurrency, amountMinor: -spec.amountMinor });
    legs.push({ accountId: ledger.fx[fromCurrency]!, currency: fromCurrency, amountMinor: spec.amountMinor });
    legs.push({ accountId: ledger.fx[toCurrency]!, currency: toCurrency, amountMinor: -toAmountMinor });
    legs.push({ accountId: spec.to, currency: toCurrency, amountMinor: toAmountMinor });
  }
  if (feeMinor > 0n) {
    legs.push({ accountId: spec.from, currency: fromCurrency, amountMinor: -feeMinor });
    legs.push({ accountId: ledger.fee[fromCurrency]!, currency: fromCurrency, amountMinor: feeMinor });
  }
  const [entry] = await db
    .insert(journalEntries)
    .values({ kind: 'transfer', idempotencyKey: `fixture:transfer:${id}`, transferId: id, createdAt: spec.bookedAt ?? spec.at })
    .returning({ id: journalEntries.id });
  await db.insert(journalLegs).values(legs.map((l) => ({ ...l, entryId: entry!.id })));
  // Credits first, so no balance dips under its floor between statements.
  for (const leg of [...legs].sort((a, b) => Number(b.amountMinor - a.amountMinor))) await move(db, leg.accountId, leg.amountMinor);
  await db.update(transfers).set({ entryId: entry!.id }).where(eq(transfers.id, id));
  return id;
}

/** Moves the seed's opening balances (and the accounts) back in time. */
export async function backdate(db: Db, customerId: number, at: Date): Promise<void> {
  await db.update(accounts).set({ createdAt: at }).where(eq(accounts.customerId, customerId));
  await db.execute(sql`
    UPDATE journal_entries e SET created_at = ${at.toISOString()}::timestamptz
    WHERE e.kind = 'opening_balance' AND EXISTS (
      SELECT 1 FROM journal_legs l JOIN accounts a ON a.account_id = l.account_id WHERE l.entry_id = e.id AND a.customer_id = ${customerId})`);
}
