/**
 * The revenue split executed by the ledger (issue 19 §2; server/modules/contracts/split.ts, the
 * SQL of migration 0024 "contracts split"), on the real platform: a 30 % contract between rita
 * (the payer) and anna (the beneficiary); boris pays rita. Contracts are inserted directly (the
 * contracts service is not needed to put one in force).
 *
 * Covered: a p2p transfer posted in its request (HTTP), the funding rail's credit (TypeScript,
 * ledger.ts bookEntry), a p2p through the PL/pgSQL posting core (ledger_post_transfer). Not split:
 * before active_from, from active_to on (a termination's end), an own-account transfer (the
 * one-statement fast path), a payment from the beneficiary, a currency the beneficiary has no
 * account in, an idempotent replay. Over 100 % in force: the later contract takes what remains.
 * A transaction that fails after the split leaves neither the split nor the payment. After each
 * test the books reconcile.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callMethod, createTestApp, signIn, type TestApp } from './harness.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { bookEntry, providerAccountId, reconcile } from '../../server/modules/accounts/ledger.ts';
import { users } from '../../server/modules/customers/customers.tables.ts';
import { contracts, contractSplits } from '../../server/modules/contracts/contracts.tables.ts';
import { createPayoutService, type PayoutService } from '../../server/modules/rails/payouts.service.ts';
import { entryReceiptPath, receiptPath, type Transaction, type TransactionDetail } from '../../api/history.ts';
import { customers } from '../../server/modules/customers/customers.tables.ts';
import { readPdf } from '../pdf-text.ts';

let t: TestApp;
let clockMs = Date.now();
let payouts: PayoutService;
const ids = { rita: 0, anna: 0, boris: 0, ritaUser: 0, borisUser: 0 };
const acc = { ritaEur: 0, ritaEur2: 0, ritaUsd: 0, annaEur: 0, borisEur: 0 };
const tokens = { rita: '', anna: '', boris: '' };
const HOUR = 3_600_000;

async function customerOf(email: string): Promise<{ customerId: number; userId: number }> {
  const [row] = await t.db.select({ customerId: users.customerId, userId: users.id }).from(users).where(eq(users.email, email));
  return { customerId: row!.customerId!, userId: row!.userId };
}

async function accountOf(customerId: number, currency: string): Promise<number> {
  const [row] = await t.db
    .select({ id: accounts.accountId })
    .from(accounts)
    .where(and(eq(accounts.customerId, customerId), eq(accounts.currency, currency), eq(accounts.purpose, 'customer')))
    .orderBy(accounts.accountId)
    .limit(1);
  return row!.id;
}

async function balance(accountId: number): Promise<bigint> {
  const [row] = await t.db.select({ b: accounts.balanceMinor }).from(accounts).where(eq(accounts.accountId, accountId));
  return row!.b;
}

async function balances(): Promise<Record<keyof typeof acc, bigint>> {
  const out = {} as Record<keyof typeof acc, bigint>;
  for (const k of Object.keys(acc) as (keyof typeof acc)[]) out[k] = await balance(acc[k]);
  return out;
}

/** Every contract ended, then these in force (by time and status) from an hour ago. */
async function onlyContracts(list: { sender: number; beneficiary: number; bp: number; status?: string; from?: number; to?: number | null }[]): Promise<number[]> {
  await t.db.update(contracts).set({ status: 'TERMINATED', activeTo: new Date(clockMs - 1) });
  const out: number[] = [];
  for (const c of list) {
    const [row] = await t.db
      .insert(contracts)
      .values({
        companyId: c.sender,
        initiatorId: c.sender,
        senderId: c.sender,
        senderSignerName: 'Payer signer',
        senderObligations: ['pay'],
        beneficiaryId: c.beneficiary,
        beneficiarySignerName: 'Beneficiary signer',
        beneficiaryObligations: ['deliver'],
        percentageBp: c.bp,
        status: c.status ?? 'ACTIVE',
        identificationStatus: 'SUCCESS',
        activeFrom: new Date(c.from ?? clockMs - HOUR),
        activeTo: c.to === undefined || c.to === null ? null : new Date(c.to),
        createdAt: new Date(clockMs - 2 * HOUR),
        updatedAt: new Date(clockMs - 2 * HOUR),
      })
      .returning({ id: contracts.id });
    out.push(row!.id);
  }
  return out;
}

async function splitsOf(contractId: number) {
  return t.db.select().from(contractSplits).where(eq(contractSplits.contractId, contractId));
}

async function p2p(token: string, from: number, amount: string, toEmail: string, key = randomUUID()) {
  return callMethod(t.app, 'transferP2p', { accountId: from, amount, currency: 'EUR', toEmail }, { token, headers: { 'idempotency-key': key } });
}

async function fund(accountId: number, amountMinor: bigint): Promise<void> {
  await t.db.transaction(async (tx) => {
    const [row] = await tx.select({ currency: accounts.currency }).from(accounts).where(eq(accounts.accountId, accountId));
    await bookEntry(tx, {
      kind: 'opening_balance',
      idempotencyKey: `test-fund:${randomUUID()}`,
      legs: [
        { accountId: await providerAccountId(tx, 'capital', row!.currency), amountMinor: -amountMinor },
        { accountId, amountMinor },
      ],
    });
  });
}

/** Money from outside through the funding rail (the TypeScript path: bookEntry, journal kind deposit). */
async function incoming(accountId: number, currency: string, amountMinor: bigint): Promise<void> {
  const id = await payouts.receive(t.db, { networkRef: randomUUID(), currency, amountMinor, receivingNumber: 'X', senderName: 'ACME Ltd', reference: null, accountId });
  expect(await payouts.credit(t.db, id)).toBe('credited');
}

/** A p2p transfer through the PL/pgSQL posting core (ledger_post_transfer), in a transaction of its own. */
async function p2pInSql(from: number, to: number, amountMinor: bigint, customer = ids.boris, user = ids.borisUser, toCustomer = ids.rita): Promise<void> {
  const at = new Date(clockMs).toISOString();
  await t.db.execute(sql`select ledger_post_transfer(nextval('transfers_id_seq'), nextval('journal_entries_id_seq'), 'p2p', ${customer}::integer, ${user}::integer,
    ${from}::integer, ${to}::integer, ${toCustomer}::integer, 'EUR', ${amountMinor.toString()}::bigint, ${amountMinor.toString()}::bigint, 0::bigint, NULL::integer, '1',
    NULL::numeric, 2, 'amount', ${at}::timestamptz, ${at}::timestamptz, ${at.slice(0, 10)}::date)`);
}

async function history(token: string): Promise<Transaction[]> {
  const answer = await callMethod(t.app, 'transactionHistory', { pageSize: 100 }, { token });
  expect(answer.body.responseCode).toBe('00');
  return (answer.body.transactions as { transaction: Transaction[] }).transaction;
}

/** Signs everyone in again (after the clock moved past a session's life). */
async function signInAll(): Promise<void> {
  tokens.rita = (await signIn(t.app, 'rita')).accessToken;
  tokens.anna = (await signIn(t.app, 'anna', { totpTimeMs: clockMs })).accessToken;
  tokens.boris = (await signIn(t.app, 'boris')).accessToken;
}

beforeAll(async () => {
  t = await createTestApp({ demoData: 'without-history', now: () => clockMs, transferWorkers: false });
  payouts = createPayoutService({
    queue: { send: async () => undefined } as never,
    adapterOf: () => {
      throw new Error('no payouts here');
    },
    now: () => clockMs,
  });
  const rita = await customerOf('rita@demo.test');
  const anna = await customerOf('anna@demo.test');
  const boris = await customerOf('boris@demo.test');
  Object.assign(ids, { rita: rita.customerId, anna: anna.customerId, boris: boris.customerId, ritaUser: rita.userId, borisUser: boris.userId });
  acc.ritaEur = await accountOf(ids.rita, 'EUR');
  acc.ritaUsd = await accountOf(ids.rita, 'USD');
  acc.annaEur = await accountOf(ids.anna, 'EUR');
  acc.borisEur = await accountOf(ids.boris, 'EUR');
  const [second] = await t.db.insert(accounts).values({ type: 1001, currency: 'EUR', customerId: ids.rita }).returning({ id: accounts.accountId });
  acc.ritaEur2 = second!.id;
  await fund(acc.borisEur, 1_000_000n);
  // boris pays people: the money permissions rita has
  const [flags] = await t.db.select({ p: users.moneyPermissions }).from(users).where(eq(users.id, ids.ritaUser));
  await t.db.update(users).set({ moneyPermissions: flags!.p }).where(eq(users.id, ids.borisUser));
  await signInAll();
}, 60_000);

afterEach(async () => {
  expect(await reconcile(t.db)).toEqual([]);
});

afterAll(async () => {
  await t?.close();
});

describe('a 30 % contract in force', () => {
  it('splits a p2p payment of 100.00 EUR from a third customer: 70.00 stay with the payer, 30.00 go to the beneficiary, both histories name the contract; a replay splits nothing again', async () => {
    const [contractId] = await onlyContracts([{ sender: ids.rita, beneficiary: ids.anna, bp: 3000 }]);
    const before = await balances();
    const key = randomUUID();
    const answer = await p2p(tokens.boris, acc.borisEur, '100.00', 'rita@demo.test', key);
    expect(answer.body).toMatchObject({ responseCode: '00', status: 'posted' });
    const after = await balances();
    expect(after.ritaEur - before.ritaEur).toBe(7000n);
    expect(after.annaEur - before.annaEur).toBe(3000n);
    const splits = await splitsOf(contractId!);
    expect(splits).toHaveLength(1);
    expect(splits[0]).toMatchObject({ payerAccountId: acc.ritaEur, beneficiaryAccountId: acc.annaEur, currency: 'EUR', grossMinor: 10000n, shareMinor: 3000n });

    // the payer sees the payment and the split; the beneficiary the split, from the payer
    const ritaRows = await history(tokens.rita);
    expect(ritaRows).toContainEqual(expect.objectContaining({ kind: 'transfer', transactionId: answer.body.transactionId, direction: 'in', amount: '100.00' }));
    const out = ritaRows.find((r) => r.contractId === contractId);
    expect(out).toMatchObject({ kind: 'entry', transactionId: splits[0]!.entryId, direction: 'out', amount: '-30.00', currency: 'EUR', counterparty: 'Anna Kowalska', contractId });
    const annaRows = await history(tokens.anna);
    expect(annaRows.find((r) => r.contractId === contractId)).toMatchObject({ kind: 'entry', direction: 'in', amount: '30.00', counterparty: 'Rita Rossi', contractId });
    // other rows carry no contract
    expect(ritaRows.filter((r) => r.contractId !== undefined)).toHaveLength(1);

    // the same request again: its stored answer, nothing booked or split again
    const replay = await p2p(tokens.boris, acc.borisEur, '100.00', 'rita@demo.test', key);
    expect(replay.body.transactionId).toBe(answer.body.transactionId);
    expect(await balances()).toEqual(after);
    expect(await splitsOf(contractId!)).toHaveLength(1);
  });

  it('splits money from outside credited by the funding rail (TypeScript path) and a p2p posted by ledger_post_transfer (PL/pgSQL core)', async () => {
    const [contractId] = await onlyContracts([{ sender: ids.rita, beneficiary: ids.anna, bp: 3000 }]);
    let before = await balances();
    await incoming(acc.ritaEur, 'EUR', 5000n);
    let after = await balances();
    expect([after.ritaEur - before.ritaEur, after.annaEur - before.annaEur]).toEqual([3500n, 1500n]);

    before = after;
    await p2pInSql(acc.borisEur, acc.ritaEur, 1001n);
    after = await balances();
    // 300.3 -> 300 (half-even, below the half)
    expect([after.ritaEur - before.ritaEur, after.annaEur - before.annaEur, after.borisEur - before.borisEur]).toEqual([701n, 300n, -1001n]);
    expect((await splitsOf(contractId!)).map((s) => s.shareMinor)).toEqual([1500n, 300n]);
  });

  it('does not split an own-account transfer (the one-statement fast path), a payment from the beneficiary, or a currency the beneficiary has no account in', async () => {
    const [toAnna] = await onlyContracts([{ sender: ids.rita, beneficiary: ids.anna, bp: 3000 }]);
    let before = await balances();
    const own = await callMethod(
      t.app,
      'transferBetweenAccounts',
      { fromAccount: acc.ritaEur, toAccount: acc.ritaEur2, toAmount: '10.00', currency: 'EUR' },
      { token: tokens.rita, headers: { 'idempotency-key': randomUUID() } },
    );
    expect(own.body).toMatchObject({ responseCode: '00', status: 'posted' });
    let after = await balances();
    expect([after.ritaEur2 - before.ritaEur2, after.annaEur - before.annaEur]).toEqual([1000n, 0n]);
    expect(await splitsOf(toAnna!)).toHaveLength(0);

    // boris as the beneficiary: his own payments to rita are not split; boris has no USD account
    const [toBoris] = await onlyContracts([{ sender: ids.rita, beneficiary: ids.boris, bp: 5000 }]);
    before = await balances();
    const fromBeneficiary = await p2p(tokens.boris, acc.borisEur, '20.00', 'rita@demo.test');
    expect(fromBeneficiary.body.responseCode).toBe('00');
    await p2pInSql(acc.borisEur, acc.ritaEur, 500n);
    await incoming(acc.ritaUsd, 'USD', 10000n);
    after = await balances();
    expect(after.ritaEur - before.ritaEur).toBe(2500n);
    expect(after.ritaUsd - before.ritaUsd).toBe(10000n);
    expect(await splitsOf(toBoris!)).toHaveLength(0);
  });
});

describe('the contract in time', () => {
  it('splits nothing before active_from; a SIGNED contract splits from active_from though the job has not made it ACTIVE', async () => {
    const [contractId] = await onlyContracts([{ sender: ids.rita, beneficiary: ids.anna, bp: 3000, status: 'SIGNED', from: clockMs + HOUR }]);
    await incoming(acc.ritaEur, 'EUR', 1000n);
    expect(await splitsOf(contractId!)).toHaveLength(0);
    clockMs += 2 * HOUR;
    await incoming(acc.ritaEur, 'EUR', 1000n);
    expect((await splitsOf(contractId!)).map((s) => s.shareMinor)).toEqual([300n]);
  });

  it('keeps splitting while a termination waits, and stops exactly at its end time (active_to)', async () => {
    const end = clockMs + HOUR;
    const [contractId] = await onlyContracts([{ sender: ids.rita, beneficiary: ids.anna, bp: 3000, status: 'TERMINATING', to: end }]);
    await incoming(acc.ritaEur, 'EUR', 1000n);
    clockMs = end - 1;
    await p2pInSql(acc.borisEur, acc.ritaEur, 1000n);
    expect(await splitsOf(contractId!)).toHaveLength(2);
    clockMs = end;
    await signInAll();
    const before = await balances();
    await incoming(acc.ritaEur, 'EUR', 1000n);
    await p2pInSql(acc.borisEur, acc.ritaEur, 1000n);
    expect((await p2p(tokens.boris, acc.borisEur, '1.00', 'rita@demo.test')).body.responseCode).toBe('00');
    const after = await balances();
    expect([after.ritaEur - before.ritaEur, after.annaEur - before.annaEur]).toEqual([2100n, 0n]);
    expect(await splitsOf(contractId!)).toHaveLength(2);
  });
});

describe('several contracts on one payer', () => {
  it('each takes its share of the gross in contract id order, never more than the gross in all', async () => {
    const [first, second] = await onlyContracts([
      { sender: ids.rita, beneficiary: ids.anna, bp: 7000 },
      { sender: ids.rita, beneficiary: ids.boris, bp: 6000 },
    ]);
    const before = await balances();
    await incoming(acc.ritaEur, 'EUR', 10000n);
    const after = await balances();
    expect([after.ritaEur - before.ritaEur, after.annaEur - before.annaEur, after.borisEur - before.borisEur]).toEqual([0n, 7000n, 3000n]);
    expect((await splitsOf(first!)).map((s) => s.shareMinor)).toEqual([7000n]);
    expect((await splitsOf(second!)).map((s) => s.shareMinor)).toEqual([3000n]);
  });
});

describe('a failure after the split', () => {
  it('leaves neither the split nor the payment (TypeScript path and PL/pgSQL core)', async () => {
    const [contractId] = await onlyContracts([{ sender: ids.rita, beneficiary: ids.anna, bp: 3000 }]);
    const before = await balances();
    const key = `test-crash:${randomUUID()}`;
    const splitsIn = async (tx: Parameters<Parameters<typeof t.db.transaction>[0]>[0]) =>
      ((await tx.execute(sql`select count(*)::int as n from contract_splits where contract_id = ${contractId!}`)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
    await expect(
      t.db.transaction(async (tx) => {
        await bookEntry(tx, {
          kind: 'deposit',
          idempotencyKey: key,
          legs: [
            { accountId: await providerAccountId(tx, 'capital', 'EUR'), amountMinor: -10000n },
            { accountId: acc.ritaEur, amountMinor: 10000n },
          ],
          split: { accountId: acc.ritaEur, fromCustomerIds: [], at: new Date(clockMs) },
        });
        expect(await splitsIn(tx)).toBe(1);
        throw new Error('crash after the split');
      }),
    ).rejects.toThrow('crash after the split');
    await expect(
      t.db.transaction(async (tx) => {
        const at = new Date(clockMs).toISOString();
        await tx.execute(sql`select ledger_post_transfer(nextval('transfers_id_seq'), nextval('journal_entries_id_seq'), 'p2p', ${ids.boris}::integer, ${ids.borisUser}::integer,
          ${acc.borisEur}::integer, ${acc.ritaEur}::integer, ${ids.rita}::integer, 'EUR', 5000::bigint, 5000::bigint, 0::bigint, NULL::integer, '1',
          NULL::numeric, 2, 'amount', ${at}::timestamptz, ${at}::timestamptz, ${at.slice(0, 10)}::date)`);
        expect(await splitsIn(tx)).toBe(1);
        throw new Error('crash after the split');
      }),
    ).rejects.toThrow('crash after the split');
    expect(await balances()).toEqual(before);
    expect(await splitsOf(contractId!)).toHaveLength(0);
    const left = (await t.db.execute(
      sql`select count(*)::int as n from journal_entries where idempotency_key = ${key} or (kind = 'contract_split' and description->>'contractId' = ${String(contractId)})`,
    )) as unknown as { rows: { n: number }[] };
    expect(left.rows[0]!.n).toBe(0);
  });
});

describe('the split on the detail page and the receipt (issue 19 item 2)', () => {
  const detail = async (token: string, kind: 'transfer' | 'entry', id: number) =>
    (await callMethod(t.app, 'transactionDetail', { kind, id }, { token })) as unknown as { body: { responseCode: string; transaction: TransactionDetail } };
  const receiptLines = async (token: string, path: string) => {
    const answer = await t.app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` } });
    expect(answer.statusCode).toBe(200);
    return readPdf(answer.rawPayload).lines;
  };

  it('names the contract and the other party on both sides of the share, and the share on the payer\'s incoming payment, on the page and on the receipt', async () => {
    const [contractId] = await onlyContracts([{ sender: ids.rita, beneficiary: ids.anna, bp: 3000 }]);
    const payment = await p2p(tokens.boris, acc.borisEur, '100.00', 'rita@demo.test');
    expect(payment.body).toMatchObject({ responseCode: '00', status: 'posted' });
    const transferId = payment.body.transactionId as number;
    const [split] = await splitsOf(contractId!);
    const shareEntry = split!.entryId;

    // the payer's share: out, to the beneficiary, under the contract it may open
    const ritaShare = await detail(tokens.rita, 'entry', shareEntry);
    expect(ritaShare.body.transaction).toMatchObject({
      kind: 'entry', direction: 'out', counterparty: 'Anna Kowalska', legs: [{ accountId: acc.ritaEur, currency: 'EUR', amount: '-30.00' }],
      revenueSplit: { contractId, counterparty: 'Anna Kowalska', contractVisible: true },
    });
    expect(ritaShare.body.transaction.splitShares).toBeUndefined();
    // the beneficiary's: in, from the payer
    const annaShare = await detail(tokens.anna, 'entry', shareEntry);
    expect(annaShare.body.transaction).toMatchObject({
      kind: 'entry', direction: 'in', counterparty: 'Rita Rossi', legs: [{ accountId: acc.annaEur, currency: 'EUR', amount: '30.00' }],
      revenueSplit: { contractId, counterparty: 'Rita Rossi', contractVisible: true },
    });
    // nobody else sees it
    expect((await detail(tokens.boris, 'entry', shareEntry)).body.responseCode).toBe('ENOA');

    // the payment that was split: the payer of the contract sees the share that left it; the one who paid it does not
    const ritaPayment = await detail(tokens.rita, 'transfer', transferId);
    expect(ritaPayment.body.transaction).toMatchObject({ viewer: 'payee', received: { amount: '100.00', currency: 'EUR' } });
    expect(ritaPayment.body.transaction.splitShares).toEqual([
      { contractId, entryId: shareEntry, share: { amount: '30.00', currency: 'EUR' }, beneficiary: 'Anna Kowalska', contractVisible: true },
    ]);
    const borisPayment = await detail(tokens.boris, 'transfer', transferId);
    expect(borisPayment.body.transaction.viewer).toBe('payer');
    expect(borisPayment.body.transaction.splitShares).toBeUndefined();
    expect(borisPayment.body.transaction.revenueSplit).toBeUndefined();

    // the receipts say the same
    const ritaReceipt = await receiptLines(tokens.rita, entryReceiptPath(shareEntry));
    expect(ritaReceipt).toEqual(expect.arrayContaining(['Revenue split share', 'Contract', `#${contractId}`, 'Counterparty', 'Anna Kowalska', '30.00 EUR']));
    expect(ritaReceipt).not.toContain('Deposit');
    expect(ritaReceipt).not.toContain('Withdrawal');
    const annaReceipt = await receiptLines(tokens.anna, entryReceiptPath(shareEntry));
    expect(annaReceipt).toEqual(expect.arrayContaining(['Revenue split share', `#${contractId}`, 'Rita Rossi']));
    expect(await receiptLines(tokens.rita, receiptPath(transferId))).toContain(`30.00 EUR went to Anna Kowalska under contract #${contractId}`);
    const borisReceipt = await receiptLines(tokens.boris, receiptPath(transferId));
    expect(borisReceipt.join('\n')).not.toMatch(/Anna Kowalska|#\d+|Împărțirea veniturilor/);

    // in the customer's language, as the other lines are
    const [saved] = await t.db.select({ language: customers.language }).from(customers).where(eq(customers.id, ids.anna));
    await t.db.update(customers).set({ language: 'ru' }).where(eq(customers.id, ids.anna));
    try {
      expect(await receiptLines(tokens.anna, entryReceiptPath(shareEntry))).toEqual(expect.arrayContaining(['Доля по распределению дохода', 'Договор', `№ ${contractId}`, 'Rita Rossi']));
    } finally {
      await t.db.update(customers).set({ language: saved!.language }).where(eq(customers.id, ids.anna));
    }
  });

  it('names the share on money from outside that was split (an entry of its own)', async () => {
    const [contractId] = await onlyContracts([{ sender: ids.rita, beneficiary: ids.anna, bp: 3000 }]);
    await incoming(acc.ritaEur, 'EUR', 5000n);
    const [split] = await splitsOf(contractId!);
    const deposit = (await history(tokens.rita)).find((r) => r.kind === 'entry' && r.transactionId === split!.sourceEntryId);
    expect(deposit).toMatchObject({ direction: 'in', amount: '50.00' });
    const answer = await detail(tokens.rita, 'entry', split!.sourceEntryId);
    expect(answer.body.transaction.revenueSplit).toBeUndefined();
    expect(answer.body.transaction.splitShares).toEqual([
      { contractId, entryId: split!.entryId, share: { amount: '15.00', currency: 'EUR' }, beneficiary: 'Anna Kowalska', contractVisible: true },
    ]);
    expect(await receiptLines(tokens.rita, entryReceiptPath(split!.sourceEntryId))).toContain(`15.00 EUR went to Anna Kowalska under contract #${contractId}`);
  });
});
