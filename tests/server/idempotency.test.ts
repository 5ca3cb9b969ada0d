/**
 * Idempotency keys of money-moving methods (api/transfers.ts IDEMPOTENT_METHODS) and the endpoint's
 * bounded re-runs: the same key and body answer the first answer without a second effect; the same
 * key with another body (or method) is refused; a missing or malformed key is VF on the header; a
 * failure is not stored; concurrent duplicates make one transfer; aborted transactions re-run.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod, createTestApp, signIn, type MethodAnswer, type SignedIn, type TestApp } from './harness.ts';
import { reconcile } from '../../server/modules/accounts/ledger.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { users } from '../../server/modules/customers/customers.tables.ts';
import { auditLog, outbox } from '../../server/modules/platform/platform.tables.ts';
import { idempotencyKeys, transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { MAX_TRANSACTION_ATTEMPTS } from '../../server/modules/platform/method-endpoint.ts';
import { desc } from 'drizzle-orm';

let t: TestApp;
let rita: SignedIn;
let tom: SignedIn;
let ritaEur: number;
let ritaUsd: number;
let tomEur: number;

const call = (name: string, body: Record<string, unknown>, token: string, key?: string): Promise<MethodAnswer> =>
  callMethod(t.app, name, body, { token, headers: key === undefined ? {} : { 'Idempotency-Key': key } });

async function transferCount(): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(transfers);
  return row!.n;
}

async function balanceOf(accountId: number): Promise<bigint> {
  const [row] = await t.db.select({ balance: accounts.balanceMinor }).from(accounts).where(eq(accounts.accountId, accountId));
  return row!.balance;
}

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false });
  rita = await signIn(t.app, 'rita');
  tom = await signIn(t.app, 'tom');
  const own = async (email: string, currency: string) => {
    const [row] = await t.db
      .select({ id: accounts.accountId })
      .from(accounts)
      .innerJoin(users, eq(users.customerId, accounts.customerId))
      .where(and(eq(users.email, email), eq(accounts.currency, currency)));
    return row!.id;
  };
  ritaEur = await own('rita@demo.test', 'EUR');
  ritaUsd = await own('rita@demo.test', 'USD');
  tomEur = await own('tom@demo.test', 'EUR');
});

afterAll(async () => {
  expect(await reconcile(t.db)).toEqual([]);
  await t?.close();
});

describe('Idempotency-Key', () => {
  const body = () => ({ fromAccount: ritaEur, toAccount: ritaUsd, toAmount: '10.00', currency: 'EUR' });

  it('answers a retry with the first answer and moves the money once', async () => {
    const key = randomUUID();
    const before = await transferCount();
    const balance = await balanceOf(ritaEur);
    const first = await call('transferBetweenAccounts', body(), rita.accessToken, key);
    expect(first.body).toMatchObject({ responseCode: '00', status: 'posted' });
    const again = await call('transferBetweenAccounts', body(), rita.accessToken, key);
    expect(again.body).toEqual(first.body);
    // Key order and whitespace of the body do not matter; the validated body is what is compared.
    const reordered = await call('transferBetweenAccounts', { currency: 'EUR', toAmount: '10.00', toAccount: ritaUsd, fromAccount: ritaEur }, rita.accessToken, key);
    expect(reordered.body).toEqual(first.body);
    expect(await transferCount()).toBe(before + 1);
    expect(await balanceOf(ritaEur)).toBe(balance - 1050n);
  });

  it('refuses the key with another body or another method, changing nothing', async () => {
    const key = randomUUID();
    expect((await call('transferBetweenAccounts', body(), rita.accessToken, key)).body.responseCode).toBe('00');
    const count = await transferCount();
    const other = await call('transferBetweenAccounts', { ...body(), toAmount: '11.00' }, rita.accessToken, key);
    expect(other.body).toMatchObject({
      responseCode: 'VF',
      validationErrors: [{ param: 'Idempotency-Key', description: 'was used for another request', code: 'idempotencyKeyReused', params: {} }],
    });
    const otherMethod = await call('transferP2p', { accountId: ritaEur, amount: '10.00', currency: 'EUR', toEmail: 'tom@demo.test' }, rita.accessToken, key);
    expect(otherMethod.body.responseCode).toBe('VF');
    expect(await transferCount()).toBe(count);
  });

  it('keeps one user\'s key apart from another\'s', async () => {
    const key = randomUUID();
    expect((await call('transferBetweenAccounts', body(), rita.accessToken, key)).body.responseCode).toBe('00');
    const tomsOwn = await call('transferP2p', { accountId: tomEur, amount: '1.00', currency: 'EUR', toEmail: 'rita@demo.test' }, tom.accessToken, key);
    expect(tomsOwn.body).toMatchObject({ responseCode: '00', status: 'pending' });
    expect((await call('transferCancel', { trxid: tomsOwn.body.transactionId }, tom.accessToken, randomUUID())).body.responseCode).toBe('00');
  });

  it('needs a well-formed key on every money-moving method', async () => {
    const before = await transferCount();
    for (const name of ['transferBetweenAccounts', 'transferP2p', 'approveTransfer', 'transferCancel']) {
      const missing = await call(name, {}, rita.accessToken);
      expect(missing.body.responseCode, name).toBe('VF');
      expect(missing.body.validationErrors, name).toContainEqual({ param: 'Idempotency-Key', description: 'is required for this method', code: 'idempotencyKeyRequired', params: {} });
    }
    for (const bad of ['short', 'has spaces in it', 'x'.repeat(101), 'semi;colon-key']) {
      const res = await call('transferBetweenAccounts', body(), rita.accessToken, bad);
      expect(res.body.validationErrors, bad).toContainEqual({ param: 'Idempotency-Key', description: 'must be 8 to 100 characters of letters, digits, - and _', code: 'idempotencyKeyMalformed', params: {} });
    }
    // Reads and other mutations take none.
    expect((await call('transferFee', { operation: 'p2p', amount: '1', fromAccountId: ritaEur }, rita.accessToken)).body.responseCode).toBe('00');
    expect(await transferCount()).toBe(before);
  });

  it('stores no failure: the same key may be used again once the request is right', async () => {
    const key = randomUUID();
    const tooMuch = await call('transferBetweenAccounts', { ...body(), toAmount: '9999.00' }, rita.accessToken, key);
    expect(tooMuch.body.responseCode).toBe('VF');
    expect(await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(0);
    expect((await call('transferBetweenAccounts', body(), rita.accessToken, key)).body).toMatchObject({ responseCode: '00', status: 'posted' });
  });

  it('replays an approval; a wrong code under a key is counted but not stored', async () => {
    const requested = await call('transferP2p', { accountId: tomEur, amount: '2.00', currency: 'EUR', toEmail: 'rita@demo.test' }, tom.accessToken, randomUUID());
    const id = requested.body.transactionId as number;
    const [sms] = await t.db.select().from(outbox).where(eq(outbox.channel, 'sms')).orderBy(desc(outbox.id)).limit(1);
    const code = /^(\d{6})/.exec(sms!.body)![1]!;
    const key = randomUUID();
    const wrong = await call('approveTransfer', { trxid: id, approvalCode: code === '000000' ? '999999' : '000000' }, tom.accessToken, key);
    expect(wrong.body.responseCode).toBe('VF');
    const approved = await call('approveTransfer', { trxid: id, approvalCode: code }, tom.accessToken, key);
    expect(approved.body).toMatchObject({ responseCode: '00', status: 'posted' });
    const replay = await call('approveTransfer', { trxid: id, approvalCode: code }, tom.accessToken, key);
    expect(replay.body).toEqual(approved.body);
    // Without the key, approving a posted transfer is refused.
    expect((await call('approveTransfer', { trxid: id, approvalCode: code }, tom.accessToken, randomUUID())).body.responseCode).toBe('TA1');
  });

  it('makes one transfer of concurrent duplicates', async () => {
    const key = randomUUID();
    const before = await transferCount();
    const balance = await balanceOf(ritaEur);
    const answers = await Promise.all(Array.from({ length: 6 }, () => call('transferBetweenAccounts', body(), rita.accessToken, key)));
    for (const a of answers) expect(a.body).toEqual(answers[0]!.body);
    expect(answers[0]!.body).toMatchObject({ responseCode: '00', status: 'posted' });
    expect(await transferCount()).toBe(before + 1);
    expect(await balanceOf(ritaEur)).toBe(balance - 1050n);
  });
});

describe('re-running aborted transactions', () => {
  it('re-runs a transaction PostgreSQL aborted (serialization failure, deadlock) and writes its effects once', async () => {
    let attempts = 0;
    const app = await createTestApp({
      transferWorkers: false,
      handlerOverrides: {
        async customerLanguageUpdate(_input, ctx) {
          attempts++;
          ctx.audit({ attempt: attempts });
          if (attempts < MAX_TRANSACTION_ATTEMPTS) throw Object.assign(new Error('could not serialize access'), { code: attempts === 1 ? '40001' : '40P01' });
          return {};
        },
      },
    });
    try {
      const boris = await signIn(app.app, 'boris');
      const res = await callMethod(app.app, 'customerLanguageUpdate', { language: 'en' }, { token: boris.accessToken });
      expect(res.body.responseCode).toBe('00');
      expect(attempts).toBe(MAX_TRANSACTION_ATTEMPTS);
      const audits = await app.db.select().from(auditLog).where(eq(auditLog.method, 'customerLanguageUpdate'));
      expect(audits.map((a) => a.details)).toEqual([{ attempt: MAX_TRANSACTION_ATTEMPTS }]);

      // One attempt more than allowed: the failure is answered (UE), nothing written.
      attempts = -1;
      const failed = await callMethod(app.app, 'customerLanguageUpdate', { language: 'en' }, { token: boris.accessToken });
      expect(failed.body.responseCode).toBe('UE');
      expect(await app.db.select().from(auditLog).where(eq(auditLog.method, 'customerLanguageUpdate'))).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
