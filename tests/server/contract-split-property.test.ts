/**
 * Property test of the revenue split (issue 19 §2; server/modules/contracts/split.ts, migration 0024
 * "contracts split") on the real posting: random payments (1 to 10^12 minor units) in a currency of
 * exponent 2 or 8 (the platform's only exponents: money.ts) from a customer to a payer with one to
 * three contracts in force (1 to 10000 basis points each, beneficiaries possibly repeated), posted
 * by the TypeScript path (ledger.ts bookEntry with `split`) or the PL/pgSQL core
 * (ledger_post_transfer).
 *
 * Each payment: the customers' total per currency is unchanged (no minor unit created or lost);
 * each contract, in id order, moved exactly api/contracts.ts splitShare(gross, bp), or what was
 * left of the gross when the contracts in force add up to more than 100 %; the payer kept the
 * remainder; each beneficiary got its shares. At the end the books reconcile.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './harness.ts';
import type { Db } from '../../server/db/types.ts';
import { splitShare } from '../../api/contracts.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { bookEntry, providerAccountId, reconcile } from '../../server/modules/accounts/ledger.ts';
import { users } from '../../server/modules/customers/customers.tables.ts';
import { contracts, contractSplits } from '../../server/modules/contracts/contracts.tables.ts';

const CURRENCIES = ['EUR', 'BTC'] as const;
type Cur = (typeof CURRENCIES)[number];

let database: TestDatabase;
let db: Db;
const people = { payer: 0, sender: 0, senderUser: 0, beneficiaries: [] as number[] };
/** `${customerId}:${currency}` -> account id */
const accountOf = new Map<string, number>();
let clockMs = Date.now();
let run = 0;

async function customerOf(email: string): Promise<{ customerId: number; userId: number }> {
  const [row] = await db.select({ customerId: users.customerId, userId: users.id }).from(users).where(eq(users.email, email));
  return { customerId: row!.customerId!, userId: row!.userId };
}

async function ensureAccount(customerId: number, currency: Cur): Promise<number> {
  const [row] = await db
    .select({ id: accounts.accountId })
    .from(accounts)
    .where(and(eq(accounts.customerId, customerId), eq(accounts.currency, currency), eq(accounts.purpose, 'customer'), inArray(accounts.type, [1001, 1003])))
    .orderBy(accounts.accountId)
    .limit(1);
  const id = row?.id ?? (await db.insert(accounts).values({ type: 1001, currency, customerId }).returning({ id: accounts.accountId }))[0]!.id;
  accountOf.set(`${customerId}:${currency}`, id);
  return id;
}

async function customerTotal(currency: Cur): Promise<bigint> {
  const r = (await db.execute(sql`select coalesce(sum(balance_minor), 0)::text as total from accounts where purpose = 'customer' and currency = ${currency}`)) as unknown as {
    rows: { total: string }[];
  };
  return BigInt(r.rows[0]!.total);
}

async function balanceOf(accountId: number): Promise<bigint> {
  const [row] = await db.select({ b: accounts.balanceMinor }).from(accounts).where(eq(accounts.accountId, accountId));
  return row!.b;
}

beforeAll(async () => {
  database = await createTestDatabase({ demoData: 'without-history' });
  db = database.open.db;
  const sender = await customerOf('mila@demo.test');
  people.sender = sender.customerId;
  people.senderUser = sender.userId;
  people.payer = (await customerOf('rita@demo.test')).customerId;
  people.beneficiaries = [(await customerOf('anna@demo.test')).customerId, (await customerOf('boris@demo.test')).customerId, (await customerOf('tom@demo.test')).customerId];
  for (const c of CURRENCIES) {
    for (const customer of [people.sender, people.payer, ...people.beneficiaries]) await ensureAccount(customer, c);
    // the sender can pay every run
    await db.transaction(async (tx) => {
      await bookEntry(tx, {
        kind: 'opening_balance',
        idempotencyKey: `split-property-fund:${c}`,
        legs: [
          { accountId: await providerAccountId(tx, 'capital', c), amountMinor: -(10n ** 15n) },
          { accountId: accountOf.get(`${people.sender}:${c}`)!, amountMinor: 10n ** 15n },
        ],
      });
    });
  }
}, 60_000);

afterAll(async () => {
  await database?.close();
});

const payment = fc.record({
  currency: fc.constantFrom<Cur>(...CURRENCIES),
  gross: fc.oneof(fc.bigInt({ min: 1n, max: 100n }), fc.bigInt({ min: 1n, max: 10n ** 12n })),
  contracts: fc.array(fc.record({ beneficiary: fc.nat({ max: 2 }), bp: fc.oneof(fc.integer({ min: 1, max: 10000 }), fc.constantFrom(1, 5000, 3333, 10000)) }), {
    minLength: 1,
    maxLength: 3,
  }),
  path: fc.constantFrom('ts' as const, 'sql' as const),
});

describe('the revenue split', () => {
  it('creates and loses no minor unit; each contract moves splitShare (or what remains of the gross); the payer keeps the remainder', async () => {
    await fc.assert(
      fc.asyncProperty(payment, async (p) => {
        run++;
        clockMs += 1000;
        // only this payment's contracts in force
        await db.update(contracts).set({ status: 'TERMINATED', activeTo: new Date(clockMs - 1) });
        const ids: number[] = [];
        for (const c of p.contracts) {
          const [row] = await db
            .insert(contracts)
            .values({
              companyId: people.payer,
              initiatorId: people.payer,
              senderId: people.payer,
              senderSignerName: 'P',
              senderObligations: ['pay'],
              beneficiaryId: people.beneficiaries[c.beneficiary]!,
              beneficiarySignerName: 'B',
              beneficiaryObligations: ['deliver'],
              percentageBp: c.bp,
              status: 'ACTIVE',
              identificationStatus: 'SUCCESS',
              activeFrom: new Date(clockMs - 500),
              createdAt: new Date(clockMs - 500),
              updatedAt: new Date(clockMs - 500),
            })
            .returning({ id: contracts.id });
          ids.push(row!.id);
        }
        const payerAccount = accountOf.get(`${people.payer}:${p.currency}`)!;
        const senderAccount = accountOf.get(`${people.sender}:${p.currency}`)!;
        const beneficiaryAccounts = people.beneficiaries.map((b) => accountOf.get(`${b}:${p.currency}`)!);
        const total = await customerTotal(p.currency);
        const payerBefore = await balanceOf(payerAccount);
        const beneficiariesBefore = await Promise.all(beneficiaryAccounts.map(balanceOf));

        const at = new Date(clockMs);
        if (p.path === 'ts') {
          await db.transaction(async (tx) => {
            await bookEntry(tx, {
              kind: 'deposit',
              idempotencyKey: `split-property:${run}`,
              legs: [
                { accountId: senderAccount, amountMinor: -p.gross },
                { accountId: payerAccount, amountMinor: p.gross },
              ],
              split: { accountId: payerAccount, fromCustomerIds: [people.sender], at },
            });
          });
        } else {
          const iso = at.toISOString();
          const exponent = p.currency === 'BTC' ? 8 : 2;
          await db.execute(sql`select ledger_post_transfer(nextval('transfers_id_seq'), nextval('journal_entries_id_seq'), 'p2p', ${people.sender}::integer, ${people.senderUser}::integer,
            ${senderAccount}::integer, ${payerAccount}::integer, ${people.payer}::integer, ${p.currency}::text, ${p.gross.toString()}::bigint, ${p.gross.toString()}::bigint, 0::bigint,
            NULL::integer, '1', NULL::numeric, ${exponent}::integer, 'amount', ${iso}::timestamptz, ${iso}::timestamptz, ${iso.slice(0, 10)}::date)`);
        }

        // what the rules say, contract by contract in id order
        let rest = p.gross;
        const expected = p.contracts.map((c) => {
          const share = splitShare(p.gross, c.bp) < rest ? splitShare(p.gross, c.bp) : rest;
          rest -= share;
          return share;
        });
        const rows = await db.select().from(contractSplits).where(inArray(contractSplits.contractId, ids));
        const moved = ids.map((id) => rows.find((r) => r.contractId === id)?.shareMinor ?? 0n);
        expect(moved).toEqual(expected);
        for (const r of rows) expect(r.grossMinor).toBe(p.gross);
        // the first contract always takes exactly its half-even share
        expect(moved[0]).toBe(splitShare(p.gross, p.contracts[0]!.bp));

        expect(await customerTotal(p.currency)).toBe(total);
        const sumShares = expected.reduce((a, b) => a + b, 0n);
        expect((await balanceOf(payerAccount)) - payerBefore).toBe(p.gross - sumShares);
        const beneficiariesAfter = await Promise.all(beneficiaryAccounts.map(balanceOf));
        const got = people.beneficiaries.map((_, i) => beneficiariesAfter[i]! - beneficiariesBefore[i]!);
        const want = people.beneficiaries.map((_, i) => p.contracts.reduce((sum, c, k) => (c.beneficiary === i ? sum + expected[k]! : sum), 0n));
        expect(got).toEqual(want);
      }),
      { numRuns: 40 },
    );
    expect(await reconcile(db)).toEqual([]);
  }, 120_000);
});
