/**
 * transactionDetail (api/history.ts): one transaction in full for the detail page, with the
 * receipt's visibility rules. Data is written straight into the ledger's tables (history-fixture.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { journalEntries, journalLegs } from '../../server/db/schema.ts';
import { bookEntry, providerAccountIds } from '../../server/modules/accounts/ledger.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { activeVariant } from '../../variants/index.ts';
import { callMethod, createTestApp, signIn, type SignedIn, type TestApp } from './harness.ts';
import { accountOf, insertTransfer, setupLedger, userOf } from './history-fixture.ts';

let t: TestApp;
let anna: SignedIn;
let boris: SignedIn;
const ids: Record<string, number> = {};
let AE: number;
let AU: number;

const detail = (who: SignedIn, kind: 'transfer' | 'entry', id: number) => callMethod(t.app, 'transactionDetail', { kind, id }, { token: who.accessToken });

beforeAll(async () => {
  t = await createTestApp();
  const ledger = await setupLedger(t.db);
  const A = await userOf(t.db, demoUserByKey.anna.email);
  const B = await userOf(t.db, demoUserByKey.boris.email);
  AE = await accountOf(t.db, A.customerId, 'EUR');
  AU = await accountOf(t.db, A.customerId, 'USD');
  const BE = await accountOf(t.db, B.customerId, 'EUR');
  const at = new Date(Date.now() - 3_600_000);
  ids.exchange = await insertTransfer(t.db, ledger, {
    kind: 'betweenAccounts', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: AU, toCustomerId: A.customerId,
    amountMinor: 10000n, toAmountMinor: 10800n, feeMinor: 50n, note: 'Trip', at,
  });
  ids.sent = await insertTransfer(t.db, ledger, {
    kind: 'p2p', status: 'posted', customerId: A.customerId, userId: A.userId, from: AE, to: BE, toCustomerId: B.customerId, toEmail: 'boris@demo.test',
    amountMinor: 1234n, feeMinor: 12n, reference: 'INV-7', at,
  });
  ids.pending = await insertTransfer(t.db, ledger, {
    kind: 'p2p', status: 'pending', customerId: A.customerId, userId: A.userId, from: AE, to: BE, toCustomerId: B.customerId, toEmail: 'boris@demo.test',
    amountMinor: 3333n, at,
  });
  const [entry] = await t.db
    .select({ id: journalEntries.id })
    .from(journalEntries)
    .innerJoin(journalLegs, eq(journalLegs.entryId, journalEntries.id))
    .where(and(eq(journalLegs.accountId, AE), isNull(journalEntries.transferId)))
    .limit(1);
  ids.entry = entry!.id;
  // an account fee and a salary booked from outside the platform (entries, as the demo year books them)
  const provider = await providerAccountIds(t.db, ['EUR']);
  const book = (kind: string, key: string, amountMinor: bigint, description: Record<string, string>, outside: string) =>
    t.db.transaction((tx) =>
      bookEntry(tx, { kind, idempotencyKey: `detail-test:${key}`, description, legs: [{ accountId: provider.get(outside)!, amountMinor: -amountMinor }, { accountId: AE, amountMinor }] }),
    );
  ids.fee = (await book('account_fee', 'fee', -250n, { reason: 'monthly account fee' }, 'fee:EUR')).entryId;
  ids.salary = (await book('deposit', 'salary', 250_000n, { reason: 'Salary', payer: 'Carpathia Logistics SRL' }, 'capital:EUR')).entryId;
  anna = await signIn(t.app, 'anna');
  boris = await signIn(t.app, 'boris');
});

afterAll(async () => {
  await t?.close();
});

describe('transactionDetail', () => {
  it('gives the payer every field of a converted transfer: fee, total, rate, both accounts', async () => {
    const answer = await detail(anna, 'transfer', ids.exchange!);
    expect(answer.body.responseCode).toBe('00');
    expect(answer.body.transaction).toMatchObject({
      kind: 'transfer', id: ids.exchange, operationType: 'exchange', viewer: 'payer', direction: null, status: 'posted',
      sent: { amount: '100.00', currency: 'EUR' }, fee: { amount: '0.50', currency: 'EUR' }, totalDebited: { amount: '100.50', currency: 'EUR' }, received: { amount: '108.00', currency: 'USD' },
      fromAccountId: AE, toAccountId: AU, note: 'Trip', cancelable: false, legs: [],
    });
    const tx = answer.body.transaction as { rate: string | null; bookedAt: string | null };
    expect(tx.rate).not.toBeNull();
    expect(tx.bookedAt).not.toBeNull();
  });

  it('shows the payee what its history shows, never the payer\'s fee, amount or account', async () => {
    const answer = await detail(boris, 'transfer', ids.sent!);
    expect(answer.body.responseCode).toBe('00');
    expect(answer.body.transaction).toMatchObject({
      viewer: 'payee', direction: 'in', sent: null, fee: null, totalDebited: null, rate: null, fromAccountId: null, received: { amount: '12.34', currency: 'EUR' }, cancelable: false,
    });
    const mine = await detail(anna, 'transfer', ids.sent!);
    expect(mine.body.transaction).toMatchObject({ direction: 'out', counterparty: 'boris@demo.test', reference: 'INV-7', toAccountId: null, fee: { amount: '0.12', currency: 'EUR' } });
  });

  it('marks the customer\'s own pending transfer cancelable, and hides it from the payee', async () => {
    const mine = await detail(anna, 'transfer', ids.pending!);
    expect(mine.body.transaction).toMatchObject({ status: 'pending', cancelable: true });
    expect((mine.body.transaction as { expiresAt: string | null }).expiresAt).not.toBeNull();
    // A payee never learns of a pending payment: as unknown.
    expect((await detail(boris, 'transfer', ids.pending!)).body.responseCode).toBe('ENOA');
  });

  it('gives a booking without a transfer with its legs, and the provider as counterparty', async () => {
    const answer = await detail(anna, 'entry', ids.entry!);
    expect(answer.body.responseCode).toBe('00');
    const tx = answer.body.transaction as { kind: string; operationType: string; legs: { accountId: number }[]; counterparty: string };
    expect(tx).toMatchObject({ kind: 'entry', id: ids.entry, operationType: 'deposit', status: 'posted', counterparty: activeVariant.projectName });
    expect(tx.legs.map((l) => l.accountId)).toContain(AE);
    // Entry ids and transfer ids are numbered apart: another customer's entry is unknown.
    expect((await detail(boris, 'entry', ids.entry!)).body.responseCode).toBe('ENOA');
  });

  it('types an account fee as a fee and a salary as a deposit from its payer, each with its reason, in the detail and the history alike', async () => {
    expect((await detail(anna, 'entry', ids.fee!)).body.transaction).toMatchObject({
      kind: 'entry', operationType: 'Fees', direction: 'out', counterparty: activeVariant.projectName, note: 'monthly account fee',
    });
    expect((await detail(anna, 'entry', ids.salary!)).body.transaction).toMatchObject({
      kind: 'entry', operationType: 'deposit', direction: 'in', counterparty: 'Carpathia Logistics SRL', note: 'Salary',
    });
    const history = await callMethod(t.app, 'transactionHistory', { accountId: AE, pageSize: 100 }, { token: anna.accessToken });
    const rows = (history.body.transactions as { transaction: { kind: string; transactionId: number; operationType: string; amount: string; note: string | null; counterparty: string }[] }).transaction;
    expect(rows.find((r) => r.kind === 'entry' && r.transactionId === ids.fee)).toMatchObject({ operationType: 'Fees', amount: '-2.50', note: 'monthly account fee' });
    expect(rows.find((r) => r.kind === 'entry' && r.transactionId === ids.salary)).toMatchObject({ operationType: 'deposit', counterparty: 'Carpathia Logistics SRL', note: 'Salary' });
    // the transfer's own fee row stays the transfer's
    expect(rows.find((r) => r.transactionId === ids.exchange && r.operationType === 'Fees')).toMatchObject({ kind: 'transfer' });
  });

  it('answers an unknown id as another customer\'s (ENOA), and refuses without a token', async () => {
    const unknown = await detail(anna, 'transfer', 2_000_000_000);
    expect(unknown.body).toMatchObject({ responseCode: 'ENOA' });
    expect((await callMethod(t.app, 'transactionDetail', { kind: 'transfer', id: ids.sent })).body.responseCode).not.toBe('00');
    expect((await callMethod(t.app, 'transactionDetail', { kind: 'other', id: 1 }, { token: anna.accessToken })).body.responseCode).toBe('VF');
  });
});
