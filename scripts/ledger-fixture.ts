/**
 * A load customer for the ledger benchmark (bench/ledger.ts) and the crash test
 * (tests/server/ledger-crash.test.ts): a verified personal customer approving transfers with
 * mode 'none' (posted at once), the current terms accepted, a user signing in without a second
 * step (login2faMode 'no') holding the money flags of own-account and p2p transfers, and N EUR
 * payment accounts, each funded from the provider's EUR capital account by the ledger's own
 * bookEntry (one balanced entry per account, so the journal balances).
 *
 * Run on a database that seedDatabase has seeded. PGlite allows one process at a time, so prepare
 * its data directory first (open -> seed -> fixture -> close), then start the platform on it:
 *
 *   npx tsx scripts/ledger-fixture.ts --data-dir ./data-load --accounts 200
 *   DATABASE_URL=postgres://... npx tsx scripts/ledger-fixture.ts --accounts 200
 *
 * The fixture is not demo data: nothing in the product creates it; tools call it explicitly.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import type { PermissionFlag } from '../api/transfers.ts';
import { openPglite, openPostgres } from '../server/db/open.ts';
import { seedDatabase } from '../server/db/seed.ts';
import type { Db } from '../server/db/types.ts';
import { accounts } from '../server/modules/accounts/accounts.tables.ts';
import { bookEntry, providerAccountId } from '../server/modules/accounts/ledger.ts';
import { decimalToMinor } from '../server/modules/accounts/money.ts';
import { hashPassword } from '../server/modules/auth/crypto.ts';
import { customers, termsAcceptances, users } from '../server/modules/customers/customers.tables.ts';

/** The flags a load customer's user holds (document 2 §6): own-account and person-to-person transfers. */
export const LOAD_MONEY_FLAGS: readonly PermissionFlag[] = ['own.betweenAccounts', 'others.p2p', 'topLevel.sendMoneyUser'];

export interface LedgerFixtureOptions {
  /** EUR payment accounts to create (at least 1) */
  accounts: number;
  /** the opening balance of each account, a decimal string of EUR (default '1000.00') */
  fundEach?: string;
  /** a larger opening balance for the first account (the hot account of a hot-account load) */
  fundFirst?: string;
  /** the user's e-mail (default: load-<random>@bench.test) */
  email?: string;
  /** the user's password (default: a random one) */
  password?: string;
  firstName?: string;
}

export interface LedgerFixture {
  email: string;
  password: string;
  customerId: number;
  userId: number;
  /** ascending */
  accountIds: number[];
}

/** Creates one load customer with its user and funded EUR accounts, in one transaction. */
export async function createLedgerFixture(db: Db, options: LedgerFixtureOptions): Promise<LedgerFixture> {
  if (!Number.isInteger(options.accounts) || options.accounts < 1) throw new Error('a load customer needs at least one account');
  const email = (options.email ?? `load-${randomBytes(6).toString('hex')}@bench.test`).toLowerCase();
  const password = options.password ?? `Load-${randomBytes(12).toString('base64url')}`;
  const fundEach = decimalToMinor(options.fundEach ?? '1000.00', 'EUR');
  const fundFirst = options.fundFirst === undefined ? fundEach : decimalToMinor(options.fundFirst, 'EUR');
  const passwordHash = await hashPassword(password);
  const flags = Object.fromEntries(LOAD_MONEY_FLAGS.map((f) => [f, true]));

  return db.transaction(async (tx) => {
    const [customer] = await tx
      .insert(customers)
      .values({
        customerType: 'personal',
        firstName: options.firstName ?? 'Load',
        lastName: 'Customer',
        residenceCountryCode: 'LT',
        verified: true,
        transactionApproveMode: 'none',
      })
      .returning({ id: customers.id });
    const customerId = customer!.id;
    const [user] = await tx
      .insert(users)
      .values({
        email,
        passwordHash,
        totpSecret: null,
        login2faMode: 'no',
        userType: 1,
        customerId,
        activated: true,
        permissions: { balanceInfo: true, transfers: true },
        moneyPermissions: flags,
      })
      .returning({ id: users.id });
    // The current version of every term, accepted like the seed accepts them for demo customers.
    const current = (await tx.execute(sql`select term_id, max(version) as version from terms group by term_id`)) as unknown as {
      rows: { term_id: number; version: number }[];
    };
    if (current.rows.length > 0) {
      await tx
        .insert(termsAcceptances)
        .values(current.rows.map((t) => ({ customerId, termId: Number(t.term_id), version: Number(t.version), userId: user!.id })));
    }

    const created = await tx
      .insert(accounts)
      .values(Array.from({ length: options.accounts }, () => ({ type: 1001, currency: 'EUR', customerId })))
      .returning({ id: accounts.accountId });
    const accountIds = created.map((a) => a.id).sort((a, b) => a - b);
    const capital = await providerAccountId(tx, 'capital', 'EUR');
    for (const [i, accountId] of accountIds.entries()) {
      const amountMinor = i === 0 ? fundFirst : fundEach;
      if (amountMinor === 0n) continue;
      await bookEntry(tx, {
        kind: 'opening_balance',
        idempotencyKey: `fixture:${email}:${accountId}`,
        description: { reason: 'load fixture opening balance' },
        legs: [
          { accountId: capital, amountMinor: -amountMinor },
          { accountId, amountMinor },
        ],
      });
    }
    return { email, password, customerId, userId: user!.id, accountIds };
  });
}

/** EUR figures of the whole ledger: every leg (0 when balanced), customer balances, provider legs. */
export async function eurTotals(db: Db): Promise<{ legs: bigint; customerBalances: bigint; providerLegs: bigint; transfers: number }> {
  const rows = (await db.execute(sql`
    select
      (select coalesce(sum(amount_minor), 0) from journal_legs where currency = 'EUR')::text as legs,
      (select coalesce(sum(balance_minor), 0) from accounts where purpose = 'customer' and currency = 'EUR')::text as customer,
      (select coalesce(sum(l.amount_minor), 0) from journal_legs l join accounts a on a.account_id = l.account_id
        where l.currency = 'EUR' and a.purpose <> 'customer')::text as provider,
      (select count(*) from transfers where status = 'posted')::int as transfers`)) as unknown as {
    rows: { legs: string; customer: string; provider: string; transfers: number }[];
  };
  const r = rows.rows[0]!;
  return { legs: BigInt(r.legs), customerBalances: BigInt(r.customer), providerLegs: BigInt(r.provider), transfers: Number(r.transfers) };
}

// `tsx scripts/ledger-fixture.ts [--data-dir DIR] [--accounts N]` (DATABASE_URL for PostgreSQL):
// opens, seeds when empty, adds one load customer and prints it as JSON.
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const count = Number(arg('--accounts') ?? 200);
  const databaseUrl = process.env.DATABASE_URL;
  const database = databaseUrl ? await openPostgres(databaseUrl, 2) : await openPglite(resolve(arg('--data-dir') ?? process.env.DATA_DIR ?? 'data'));
  try {
    await seedDatabase(database.db, { demo: false });
    const fixture = await createLedgerFixture(database.db, { accounts: count });
    console.log(JSON.stringify(fixture));
  } finally {
    await database.close();
  }
}
