/**
 * Issue 11, finding 9: no existence oracle. Every method taking the id of something a customer
 * owns (accounts, transfers, documents, addresses, phones, e-mails, username-change requests,
 * exports, recurring transfers) answers another customer's id exactly as an id that does not
 * exist: the same code, description and validation errors. A table over the methods; each
 * row's "other" id belongs to rita, the caller is anna.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { MAX_ID } from '../../api/method.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_METHODS } from '../../api/transfers.ts';
import { accounts, journalEntries, journalLegs } from '../../server/modules/accounts/accounts.tables.ts';
import { users } from '../../server/modules/customers/customers.tables.ts';
import { transferSchedules, transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { customerAddresses, customerDocuments } from '../../server/modules/profile/profile.tables.ts';
import { callMethod, createTestApp, signIn, type MethodAnswer, type SignedIn, type TestApp } from './harness.ts';

let t: TestApp;
let anna: SignedIn;
let rita: SignedIn;
let ritaCustomerId: number;
/** rita's things, by kind */
const other: Record<string, number | string> = {};

async function call(name: string, body: Record<string, unknown>, token: string): Promise<MethodAnswer> {
  const headers = IDEMPOTENT_METHODS.has(name) ? { [IDEMPOTENCY_KEY_HEADER]: `oracle-${Math.random().toString(36).slice(2, 12)}` } : undefined;
  return callMethod(t.app, name, body, { token, ...(headers ? { headers } : {}) });
}

async function expectOk(res: MethodAnswer): Promise<MethodAnswer> {
  expect(res.body.responseCode, JSON.stringify(res.body)).toBe('00');
  return res;
}

beforeAll(async () => {
  t = await createTestApp({ transferWorkers: false });
  [anna, rita] = await Promise.all([signIn(t.app, 'anna'), signIn(t.app, 'rita')]);
  const [r] = await t.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, 'rita@demo.test'));
  ritaCustomerId = r!.customerId;

  const ritaAccounts = await t.db.select().from(accounts).where(eq(accounts.customerId, ritaCustomerId));
  const eur = ritaAccounts.find((a) => a.currency === 'EUR')!;
  const usd = ritaAccounts.find((a) => a.currency === 'USD')!;
  other.account = eur.accountId;

  // A recurring transfer: its first run is a transfer, and it leaves a schedule.
  await expectOk(
    await call(
      'transferBetweenAccounts',
      { fromAccount: eur.accountId, toAccount: usd.accountId, toAmount: '1.00', currency: 'EUR', subscriptionFrequency: 'monthly', subscriptionTransactions: 3, subscriptionUserCancel: true },
      rita.accessToken,
    ),
  );
  const [transfer] = await t.db.select({ id: transfers.id }).from(transfers).where(eq(transfers.customerId, ritaCustomerId));
  other.transfer = transfer!.id;
  const [schedule] = await t.db.select({ id: transferSchedules.id }).from(transferSchedules).where(eq(transferSchedules.customerId, ritaCustomerId));
  other.schedule = schedule!.id;

  other.phone = ((await expectOk(await call('addPhone', { phoneCountryCode: '370', phone: '61234999' }, rita.accessToken))).body.phone as { id: number }).id;
  other.email = ((await expectOk(await call('addEmail', { emailAddress: 'rita.second@demo.test' }, rita.accessToken))).body.email as { id: number }).id;
  other.usernameRequest = (
    (await expectOk(await call('usernameChangeRequestCreate', { desiredUsername: 'rita.new@demo.test' }, rita.accessToken))).body.usernameChangeRequest as { requestId: number }
  ).requestId;
  other.export = (await expectOk(await call('transactionHistoryExport', {}, rita.accessToken))).body.exportId as string;

  const [address] = await t.db.select({ id: customerAddresses.id }).from(customerAddresses).where(eq(customerAddresses.customerId, ritaCustomerId));
  other.address =
    address?.id ??
    (
      await t.db
        .insert(customerAddresses)
        .values({ customerId: ritaCustomerId, addressType: 'home', countryCode: 'LT', city: 'Vilnius', street: 'Gedimino 1', postalCode: '01103', createdAt: new Date() } as never)
        .returning({ id: customerAddresses.id })
    )[0]!.id;
  const [document] = await t.db
    .insert(customerDocuments)
    .values({
      customerId: ritaCustomerId, categoryId: 1, documentTypeId: 1, statusId: 0, createdUsername: 'rita', uploaded: new Date(),
      fileName: 'p.pdf', mimeType: 'application/pdf', sizeBytes: 8, sha256: '0'.repeat(64), content: Buffer.from('%PDF-1.7'),
    })
    .returning({ id: customerDocuments.id });
  other.document = document!.id;

  // A booking without a transfer on rita's account: her opening balance (a deposit row).
  const [entry] = await t.db
    .select({ id: journalEntries.id })
    .from(journalEntries)
    .innerJoin(journalLegs, eq(journalLegs.entryId, journalEntries.id))
    .where(and(eq(journalLegs.accountId, eur.accountId), isNull(journalEntries.transferId)))
    .limit(1);
  other.entry = entry!.id;
});

afterAll(async () => {
  await t?.close();
});

/** A method, the kind of thing its id names, and its body around that id. */
const table: { method: string; kind: string; body: (id: number | string) => Record<string, unknown> }[] = [
  { method: 'createWallet', kind: 'account', body: (id) => ({ currencyCode: 'BTC', accountId: id }) },
  { method: 'transferFee', kind: 'account', body: (id) => ({ operation: 'account', fromAccountId: id }) },
  { method: 'transferMaxAmount', kind: 'account', body: (id) => ({ operation: 'account', fromAccountId: id }) },
  { method: 'customerLimits', kind: 'account', body: (id) => ({ type: 'account', currencyCode: 'EUR', fromAccountId: id }) },
  { method: 'transferBetweenAccounts', kind: 'account', body: (id) => ({ fromAccount: id, toAccount: id, toAmount: '1.00', currency: 'EUR' }) },
  { method: 'transactionHistory', kind: 'account', body: (id) => ({ accountId: id }) },
  { method: 'transactionHistoryExport', kind: 'account', body: (id) => ({ accountId: id }) },
  { method: 'transactionHistoryExportList', kind: 'account', body: (id) => ({ accountId: id }) },
  { method: 'statementPeriods', kind: 'account', body: (id) => ({ accountId: id }) },
  { method: 'approveTransfer', kind: 'transfer', body: (id) => ({ trxid: id, approvalCode: '123456' }) },
  { method: 'resendApproval', kind: 'transfer', body: (id) => ({ trxid: id }) },
  { method: 'transferCancel', kind: 'transfer', body: (id) => ({ trxid: id }) },
  { method: 'transferStatus', kind: 'transfer', body: (id) => ({ trxid: id }) },
  { method: 'transactionDetail', kind: 'transfer', body: (id) => ({ kind: 'transfer', id }) },
  { method: 'transactionDetail', kind: 'entry', body: (id) => ({ kind: 'entry', id }) },
  { method: 'preapprovedCancel', kind: 'schedule', body: (id) => ({ id }) },
  { method: 'transactionHistoryExportStatus', kind: 'export', body: (id) => ({ exportId: id }) },
  { method: 'transactionHistoryExportSend', kind: 'export', body: (id) => ({ exportId: id, email: 'anna@demo.test' }) },
  { method: 'customerDocumentDelete', kind: 'document', body: (id) => ({ documentId: id }) },
  { method: 'replacePhone', kind: 'phone', body: (id) => ({ phoneId: id, phoneCountryCode: '370', phone: '61234888' }) },
  { method: 'phoneConfirmRequest', kind: 'phone', body: (id) => ({ phoneId: id }) },
  { method: 'confirmPhone', kind: 'phone', body: (id) => ({ phoneId: id, code: '123456' }) },
  { method: 'deleteEmail', kind: 'email', body: (id) => ({ emailId: id }) },
  { method: 'setPrimaryEmail', kind: 'email', body: (id) => ({ emailId: id }) },
  { method: 'confirmRequestEmail', kind: 'email', body: (id) => ({ emailId: id }) },
  { method: 'confirmEmail', kind: 'email', body: (id) => ({ emailId: id, code: '123456' }) },
  { method: 'usernameChangeRequestDelete', kind: 'usernameRequest', body: (id) => ({ requestId: id }) },
  { method: 'usernameChangeRequestEmailConfirm', kind: 'usernameRequest', body: (id) => ({ requestId: id, code: '123456' }) },
  { method: 'customerAddressDelete', kind: 'address', body: (id) => ({ addressId: id }) },
  { method: 'confirmAddress', kind: 'address', body: (id) => ({ addressId: id }) },
];

/** What an answer says, without what differs by nature (none: the whole failure must match). */
const said = (res: MethodAnswer) => ({ status: res.status, ...res.body });

describe("another customer's id answers as an id that does not exist", () => {
  it.each(table.map((row) => [row.method, row] as const))('%s', async (_name, row) => {
    const theirs = other[row.kind];
    expect(theirs, `a fixture of kind ${row.kind}`).toBeDefined();
    const missing = typeof theirs === 'string' ? 'e'.repeat(theirs.length) : MAX_ID;
    const forTheirs = await call(row.method, row.body(theirs!), anna.accessToken);
    const forMissing = await call(row.method, row.body(missing), anna.accessToken);
    expect(forTheirs.body.responseCode, JSON.stringify(forTheirs.body)).not.toBe('00');
    expect(forTheirs.body.responseCode).not.toBe('UE');
    expect(said(forTheirs)).toEqual(said(forMissing));
  });

  it.each([
    ['a document file', (id: number) => `/api/v1/documents/${id}/file`, 'document'],
    ['a statement', (id: number) => `/api/v1/statements/${id}/2026/1`, 'account'],
    ['a transaction receipt', (id: number) => `/api/v1/history/transactions/${id}/receipt`, 'transfer'],
    ['a deposit receipt', (id: number) => `/api/v1/history/entries/${id}/receipt`, 'entry'],
  ] as const)('REST: %s of another customer answers as a missing one', async (_label, url, kind) => {
    const headers = { authorization: `Bearer ${anna.accessToken}` };
    const theirs = await t.app.inject({ method: 'GET', url: url(other[kind] as number), headers });
    const missing = await t.app.inject({ method: 'GET', url: url(MAX_ID), headers });
    expect(theirs.statusCode).toBe(404);
    expect({ status: theirs.statusCode, body: theirs.body }).toEqual({ status: missing.statusCode, body: missing.body });
  });

  it("changes nothing of the other customer's", async () => {
    const [doc] = await t.db.select({ statusId: customerDocuments.statusId }).from(customerDocuments).where(and(eq(customerDocuments.id, other.document as number)));
    expect(doc!.statusId).toBe(0);
  });
});
