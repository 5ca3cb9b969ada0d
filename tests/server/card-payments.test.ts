/**
 * Card payments through the ledger (issue 16 §2; server/modules/cards/authorizations.service.ts):
 * every decline reason (a declined row with its reason and nothing held; an unknown number writes
 * nothing), authorise then clear (in full and for less), authorise then reverse, the same networkRef
 * and the same clearing or reversal answered once, a debit card holding and posting on its settlement
 * account, the two authorisation lists (10 a page, newest first, own accounts only) and the ledger's
 * invariants (reconcile) after each step.
 *
 * Cards are made here as the card service would leave them (an account of a card product, issued by
 * the built-in issuer simulator, and its cards row): these tests are about payments, not about
 * applying for a card. The terminal learns a card's number and CVV the way its holder would (the
 * issuer's revealCard). The simulator's terminal routes (POST /dev/cards/authorizations...) are
 * served in demo mode only, answer without echoing a card number or CVV, and log neither.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORIZATION_PAGE_SIZE, CardStatus, type DeclineReason } from '../../api/cards.ts';
import type { Db, Tx } from '../../server/db/types.ts';
import { accounts, journalLegs } from '../../server/modules/accounts/accounts.tables.ts';
import { bookMove, currencyTotals, providerAccountId, providerCustomerId, reconcile } from '../../server/modules/accounts/ledger.ts';
import { authorizationHandlers } from '../../server/modules/cards/authorizations.methods.ts';
import { cardSchemeAccountId, createCardPayments, type AuthorizeRequest, type CardPayments } from '../../server/modules/cards/authorizations.service.ts';
import { cardAuthorizations, cards } from '../../server/modules/cards/cards.tables.ts';
import { createCardSimulator } from '../../server/modules/cards/issuer-simulator.ts';
import { CARD_PRODUCTS } from '../../server/modules/cards/products.ts';
import { users } from '../../server/modules/customers/customers.tables.ts';
import { MethodFailure, type MethodContext } from '../../server/modules/method-types.ts';
import { historyPage, receiptAuthorization, receiptEntry } from '../../server/modules/history/history.service.ts';
import { transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { Writable } from 'node:stream';
import { callMethod, createTestApp, createTestDatabase, signIn, type TestApp, type TestDatabase } from './harness.ts';

const DAY_MS = 86_400_000;
let clock = Date.UTC(2026, 10, 27, 10, 0, 0);
let database: TestDatabase;
let db: Db;
let payments: CardPayments;

/** The built-in issuer simulator on the test's clock (the expiry is three years from the month of issue). */
let issueClock: number | null = null;
const issuer = createCardSimulator({ key: randomBytes(32), stageMs: 60_000, now: () => issueClock ?? clock });

const virtualEur = CARD_PRODUCTS.find((p) => p.kind === 'virtual' && p.currency === 'EUR')!;
const debitEur = CARD_PRODUCTS.find((p) => p.kind === 'debit' && p.currency === 'EUR')!;

interface Person {
  userId: number;
  customerId: number;
  eurAccountId: number;
}
const people: Record<'boris' | 'anna', Person> = {} as never;

async function personOf(email: string): Promise<Person> {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  const [eur] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.customerId, user!.customerId), eq(accounts.currency, 'EUR'), eq(accounts.type, 1001)));
  return { userId: user!.id, customerId: user!.customerId, eurAccountId: eur!.accountId };
}

interface TestCard {
  accountId: number;
  number: string;
  cvv: string;
  expiryMonth: number;
  expiryYear: number;
}

/** A card as the card service leaves it, issued by the simulator (at `issuedAt`, else now); a prepaid one loaded with `loadMinor`. */
async function makeCard(owner: Person, options: { product?: typeof virtualEur; status?: number; issuedAt?: number; loadMinor?: bigint } = {}): Promise<TestCard> {
  const product = options.product ?? virtualEur;
  const [account] = await db
    .insert(accounts)
    .values({
      type: product.type,
      subType: product.subType,
      status: options.status ?? CardStatus.active,
      currency: product.currency,
      customerId: owner.customerId,
      settlementAccountId: product.subType === 'DEBIT' ? owner.eurAccountId : null,
    })
    .returning();
  const accountId = account!.accountId;
  issueClock = options.issuedAt ?? null;
  const card = await db.transaction(async (tx) => {
    const issued = await issuer.issue(
      tx as unknown as Tx,
      { accountId, kind: product.kind, productType: product.type, currency: product.currency, cardBrand: product.cardBrand, express: false },
      async () => undefined,
    );
    const secrets = await issuer.revealCard(tx as unknown as Tx, issued.issuerRef);
    await tx.insert(cards).values({
      accountId,
      kind: product.kind,
      isVirtual: product.isVirtual,
      expiryMonth: issued.expiryMonth,
      expiryYear: issued.expiryYear,
      bin: issued.bin,
      last4: issued.last4,
      issuerRef: issued.issuerRef,
      feeAccountId: owner.eurAccountId,
      userId: owner.userId,
    });
    return { accountId, number: secrets.cardNumber, cvv: secrets.cvv, expiryMonth: issued.expiryMonth, expiryYear: issued.expiryYear };
  });
  issueClock = null;
  if (options.loadMinor) {
    await db.transaction(async (tx) => {
      await bookMove(tx, {
        kind: 'test_load',
        idempotencyKey: `test-load:${accountId}`,
        fromAccountId: await providerAccountId(tx, 'capital', product.currency),
        toAccountId: accountId,
        amountMinor: options.loadMinor!,
      });
    });
  }
  return card;
}

let refs = 0;
const pay = (card: TestCard, overrides: Partial<AuthorizeRequest> = {}) =>
  db.transaction((tx) =>
    payments.authorize(tx as unknown as Tx, {
      networkRef: `ref-${++refs}`,
      cardNumber: card.number,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      cvv: card.cvv,
      amount: '10.00',
      currency: 'EUR',
      merchantName: 'Corner Café',
      merchantCategoryCode: '5814',
      merchantCountryCode: 'RO',
      ...overrides,
    }),
  );
const clear = (authorizationId: number, amount?: string) => db.transaction((tx) => payments.clear(tx as unknown as Tx, { authorizationId, ...(amount ? { amount } : {}) }));
const reverse = (authorizationId: number) => db.transaction((tx) => payments.reverse(tx as unknown as Tx, { authorizationId }));

async function money(accountId: number) {
  const [row] = await db.select({ balance: accounts.balanceMinor, pending: accounts.pendingMinor }).from(accounts).where(eq(accounts.accountId, accountId));
  return row!;
}
async function authorization(id: number) {
  const [row] = await db.select().from(cardAuthorizations).where(eq(cardAuthorizations.id, id));
  return row!;
}
async function schemeLegs(currency: string): Promise<bigint> {
  const schemeId = await db.transaction((tx) => cardSchemeAccountId(tx as unknown as Tx, currency));
  const rows = await db.select({ amount: journalLegs.amountMinor }).from(journalLegs).where(eq(journalLegs.accountId, schemeId));
  return rows.reduce((sum, r) => sum + r.amount, 0n);
}
async function expectClean() {
  expect(await reconcile(db)).toEqual([]);
  for (const [currency, totals] of await currencyTotals(db)) expect(totals.legs, currency).toBe(0n);
}

function ctxOf(person: Person): MethodContext {
  return {
    db,
    caller: { userId: person.userId, customerId: person.customerId, isAdmin: false },
    customerId: person.customerId,
    lang: 'en',
    audit: () => undefined,
    publish: () => undefined,
    files: [],
    ip: '127.0.0.1',
  };
}

beforeAll(async () => {
  database = await createTestDatabase({ demoData: 'without-history' });
  db = database.open.db;
  payments = createCardPayments({ issuer, now: () => clock });
  people.boris = await personOf('boris@demo.test');
  people.anna = await personOf('anna@demo.test');
}, 60_000);
const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
  await database?.close();
});

/** An app on this test's database (closing it leaves the database), its log lines kept. */
async function appOn(options: { demo: boolean }): Promise<{ t: TestApp; logs: string[] }> {
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const t = await createTestApp({
    database: { open: database.open, url: database.url, close: async () => undefined },
    demo: options.demo,
    cardIssuer: issuer,
    now: () => clock,
    logStream,
  });
  apps.push(t);
  return { t, logs };
}

describe('declines', () => {
  /** The attempt is declined with `reason`, written as a declined row (unless no card), and holds nothing more than before. */
  async function expectDeclined(card: TestCard | null, reason: DeclineReason, attempt: () => ReturnType<typeof pay>, payingAccountId?: number) {
    const accountId = payingAccountId ?? card?.accountId;
    const before = accountId === undefined ? null : await money(accountId);
    const answer = await attempt();
    expect(answer).toMatchObject({ approved: false, status: 'declined', declineReason: reason });
    if (card) {
      const row = await authorization(answer.authorizationId!);
      expect(row).toMatchObject({ status: 'declined', declineReason: reason, cardAccountId: card.accountId, accountId, entryId: null });
      expect(await money(accountId!)).toEqual(before);
    }
    await expectClean();
  }

  it('a number that is no card of ours: WRONG_CARD_DATA and nothing written', async () => {
    const before = await db.$count(cardAuthorizations);
    const answer = await pay({ accountId: 0, number: '4000001234567899', cvv: '123', expiryMonth: 12, expiryYear: 2029 });
    expect(answer).toEqual({ authorizationId: null, status: 'declined', approved: false, declineReason: 'WRONG_CARD_DATA' });
    expect(await db.$count(cardAuthorizations)).toBe(before);
  });

  it('a wrong CVV or expiry: WRONG_CARD_DATA', async () => {
    const card = await makeCard(people.boris, { loadMinor: 100_00n });
    await expectDeclined(card, 'WRONG_CARD_DATA', () => pay(card, { cvv: String((Number(card.cvv) + 1) % 1000).padStart(3, '0') }));
    await expectDeclined(card, 'WRONG_CARD_DATA', () => pay(card, { expiryYear: card.expiryYear + 1 }));
    // the right data, the same card: approved (the double really tells them apart)
    expect((await pay(card)).approved).toBe(true);
  });

  it('paused, expired (by status or by date) and any other status', async () => {
    const paused = await makeCard(people.boris, { status: CardStatus.paused, loadMinor: 100_00n });
    await expectDeclined(paused, 'CARD_PAUSED', () => pay(paused));
    const expired = await makeCard(people.boris, { status: CardStatus.expired, loadMinor: 100_00n });
    await expectDeclined(expired, 'CARD_EXPIRED', () => pay(expired));
    // active, but its expiry month (October 2026) is over on 27 November 2026
    const old = await makeCard(people.boris, { issuedAt: Date.UTC(2023, 9, 15), loadMinor: 100_00n });
    expect([old.expiryMonth, old.expiryYear]).toEqual([10, 2026]);
    await expectDeclined(old, 'CARD_EXPIRED', () => pay(old));
    // still usable through the last day of its month
    const thisMonth = await makeCard(people.boris, { issuedAt: Date.UTC(2023, 10, 2), loadMinor: 100_00n });
    expect([thisMonth.expiryMonth, thisMonth.expiryYear]).toEqual([11, 2026]);
    expect((await pay(thisMonth)).approved).toBe(true);
    for (const status of [CardStatus.submitted, CardStatus.shipped, CardStatus.canceled, CardStatus.fraud, CardStatus.limited, CardStatus.pendingConfirmation]) {
      const card = await makeCard(people.boris, { status, loadMinor: 100_00n });
      await expectDeclined(card, 'CARD_NOT_ACTIVE', () => pay(card));
    }
  });

  it('another currency than the paying account: CURRENCY_NOT_SUPPORTED', async () => {
    const card = await makeCard(people.boris, { loadMinor: 100_00n });
    await expectDeclined(card, 'CURRENCY_NOT_SUPPORTED', () => pay(card, { currency: 'USD' }));
  });

  it("the product's blocked countries and merchant categories", async () => {
    const card = await makeCard(people.boris, { loadMinor: 100_00n });
    await expectDeclined(card, 'COUNTRY_BLOCKED', () => pay(card, { merchantCountryCode: virtualEur.blockedCountries[0]! }));
    await expectDeclined(card, 'MERCHANT_CATEGORY_BLOCKED', () => pay(card, { merchantCategoryCode: virtualEur.blockedMerchantCategories[0]! }));
    // a debit card's product blocks no category: the same category is approved
    expect(debitEur.blockedMerchantCategories).not.toContain(virtualEur.blockedMerchantCategories[0]);
    const debit = await makeCard(people.anna, { product: debitEur });
    expect((await pay(debit, { merchantCategoryCode: virtualEur.blockedMerchantCategories[0]!, amount: '1.00' })).approved).toBe(true);
  });

  it('above the per-payment limit: PAYMENT_LIMIT; exactly the limit is allowed', async () => {
    const limit = virtualEur.limits.perPaymentMinor;
    const card = await makeCard(people.boris, { loadMinor: limit * 2n });
    await expectDeclined(card, 'PAYMENT_LIMIT', () => pay(card, { amount: ((Number(limit) + 1) / 100).toFixed(2) }));
    expect((await pay(card, { amount: (Number(limit) / 100).toFixed(2) })).approved).toBe(true);
  });

  it("today's authorised and cleared payments above the per-day limit: DAILY_LIMIT; tomorrow the limit is new", async () => {
    const perDay = virtualEur.limits.perDayMinor;
    const part = virtualEur.limits.perPaymentMinor;
    const card = await makeCard(people.boris, { loadMinor: perDay * 3n });
    const major = (minor: bigint) => (Number(minor) / 100).toFixed(2);
    // one cleared, one authorised, one reversed (which no longer counts) and one declined (never counted)
    const first = await pay(card, { amount: major(part) });
    await clear(first.authorizationId!);
    const reversed = await pay(card, { amount: major(part) });
    await reverse(reversed.authorizationId!);
    await pay(card, { currency: 'USD', amount: major(part) });
    const remaining = perDay - part;
    await pay(card, { amount: major(remaining - 100n) });
    // 1.00 left today: 1.01 is refused, 1.00 is not
    await expectDeclined(card, 'DAILY_LIMIT', () => pay(card, { amount: '1.01' }));
    expect((await pay(card, { amount: '1.00' })).approved).toBe(true);
    await expectDeclined(card, 'DAILY_LIMIT', () => pay(card, { amount: '0.01' }));
    clock += DAY_MS;
    try {
      expect((await pay(card, { amount: '0.01' })).approved).toBe(true);
    } finally {
      clock -= DAY_MS;
    }
    await expectClean();
  });

  it('more than the available balance (held money counted): INSUFFICIENT_FUNDS', async () => {
    const card = await makeCard(people.boris, { loadMinor: 50_00n });
    await expectDeclined(card, 'INSUFFICIENT_FUNDS', () => pay(card, { amount: '50.01' }));
    expect((await pay(card, { amount: '30.00' })).approved).toBe(true);
    // 20.00 left available: 30.00 held of 50.00
    await expectDeclined(card, 'INSUFFICIENT_FUNDS', () => pay(card, { amount: '20.01' }));
    expect(await money(card.accountId)).toEqual({ balance: 50_00n, pending: 30_00n });
    expect((await pay(card, { amount: '20.00' })).approved).toBe(true);
    await expectClean();
  });
});

describe('authorise, clear, reverse', () => {
  it('an authorisation holds, a partial clearing posts what was cleared and releases the rest; repeats change nothing', async () => {
    const card = await makeCard(people.boris, { loadMinor: 100_00n });
    const schemeBefore = await schemeLegs('EUR');
    const answer = await pay(card, { amount: '40.00', networkRef: 'net-partial' });
    expect(answer).toMatchObject({ approved: true, status: 'authorized', declineReason: null });
    expect(await money(card.accountId)).toEqual({ balance: 100_00n, pending: 40_00n });
    await expectClean();

    // the same networkRef again (even with another amount): the first answer, nothing new
    const rows = await db.$count(cardAuthorizations);
    expect(await pay(card, { amount: '5.00', networkRef: 'net-partial' })).toEqual(answer);
    expect(await db.$count(cardAuthorizations)).toBe(rows);
    expect((await money(card.accountId)).pending).toBe(40_00n);

    // never more than authorised
    expect(await clear(answer.authorizationId!, '40.01')).toMatchObject({ ok: false, reason: 'AMOUNT_ABOVE_AUTHORIZED' });
    expect((await authorization(answer.authorizationId!)).status).toBe('authorized');

    const cleared = await clear(answer.authorizationId!, '32.50');
    expect(cleared).toMatchObject({ ok: true, authorization: { status: 'cleared', amountMinor: 32_50n } });
    expect(await money(card.accountId)).toEqual({ balance: 67_50n, pending: 0n });
    expect((await schemeLegs('EUR')) - schemeBefore).toBe(32_50n);
    expect((await authorization(answer.authorizationId!)).entryId).not.toBeNull();
    await expectClean();

    // cleared again: as it is; reversed after clearing: refused; nothing moves
    expect(await clear(answer.authorizationId!)).toMatchObject({ ok: true, authorization: { status: 'cleared', amountMinor: 32_50n } });
    expect(await reverse(answer.authorizationId!)).toMatchObject({ ok: false, reason: 'NOT_AUTHORIZED' });
    expect(await money(card.accountId)).toEqual({ balance: 67_50n, pending: 0n });
    expect((await schemeLegs('EUR')) - schemeBefore).toBe(32_50n);
    await expectClean();
  });

  it('a full clearing by networkRef', async () => {
    const card = await makeCard(people.boris, { loadMinor: 100_00n });
    await pay(card, { amount: '12.34', networkRef: 'net-full' });
    const cleared = await db.transaction((tx) => payments.clear(tx as unknown as Tx, { networkRef: 'net-full' }));
    expect(cleared).toMatchObject({ ok: true, authorization: { status: 'cleared', amountMinor: 12_34n } });
    expect(await money(card.accountId)).toEqual({ balance: 87_66n, pending: 0n });
    await expectClean();
  });

  it('a reversal releases the hold; again it changes nothing; a reversed or declined one is never cleared', async () => {
    const card = await makeCard(people.boris, { loadMinor: 100_00n });
    const answer = await pay(card, { amount: '25.00' });
    expect((await money(card.accountId)).pending).toBe(25_00n);
    expect(await reverse(answer.authorizationId!)).toMatchObject({ ok: true, authorization: { status: 'reversed' } });
    expect(await money(card.accountId)).toEqual({ balance: 100_00n, pending: 0n });
    await expectClean();
    expect(await reverse(answer.authorizationId!)).toMatchObject({ ok: true, authorization: { status: 'reversed' } });
    expect(await clear(answer.authorizationId!)).toMatchObject({ ok: false, reason: 'NOT_AUTHORIZED' });
    expect(await money(card.accountId)).toEqual({ balance: 100_00n, pending: 0n });

    const declined = await pay(card, { amount: '500.00' });
    expect(declined.declineReason).toBe('INSUFFICIENT_FUNDS');
    expect(await clear(declined.authorizationId!)).toMatchObject({ ok: false, reason: 'NOT_AUTHORIZED' });
    expect(await reverse(declined.authorizationId!)).toMatchObject({ ok: false, reason: 'NOT_AUTHORIZED' });
    expect(await clear(999_999_999)).toEqual({ ok: false, reason: 'NOT_FOUND', authorization: null });
    await expectClean();
  });

  it('a debit card holds and posts on its settlement account, never on the card', async () => {
    const card = await makeCard(people.anna, { product: debitEur });
    const settlement = people.anna.eurAccountId;
    const before = await money(settlement);
    const answer = await pay(card, { amount: '15.00' });
    expect(answer.approved).toBe(true);
    expect(await authorization(answer.authorizationId!)).toMatchObject({ cardAccountId: card.accountId, accountId: settlement });
    expect(await money(settlement)).toEqual({ balance: before.balance, pending: before.pending + 15_00n });
    await expectClean();
    await clear(answer.authorizationId!);
    expect(await money(settlement)).toEqual({ balance: before.balance - 15_00n, pending: before.pending });
    expect(await money(card.accountId)).toEqual({ balance: 0n, pending: 0n });
    await expectClean();
    // the settlement account's available money is what limits it
    const tooMuch = await pay(card, { amount: ((Number(before.balance) - 15_00 + 1) / 100).toFixed(2) });
    expect(tooMuch.declineReason).toBe(Number(before.balance) - 15_00 + 1 > Number(debitEur.limits.perPaymentMinor) ? 'PAYMENT_LIMIT' : 'INSUFFICIENT_FUNDS');
    await expectClean();
  });
});

describe('the authorisation lists', () => {
  type ListAnswer = { authorizations: { id: number; status: string; accountId: number; cardLast4: string; amount: string; declineReason: string | null }[]; total: number };
  const debitList = (who: Person, input: { accountId: number; pageNumber?: number }) =>
    authorizationHandlers.debitcardAuthorizationListGet(input, ctxOf(who)) as Promise<ListAnswer>;
  const currentList = (who: Person, input: { accountId: number; pageNumber?: number }) =>
    authorizationHandlers.currentAccountAuthorizationListGet(input, ctxOf(who)) as Promise<ListAnswer>;

  it('a settlement account lists its debit cards’ authorisations, 10 a page, newest first; the current list only those holding money', async () => {
    // a customer of its own here: tom (an EUR account, no card before this test)
    const who = await personOf('tom@demo.test');
    const card = await makeCard(who, { product: debitEur });
    const settlement = who.eurAccountId;
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      clock += 1000;
      ids.push((await pay(card, { amount: '0.50' })).authorizationId!);
    }
    clock += 1000;
    ids.push((await pay(card, { amount: '1.00', currency: 'USD' })).authorizationId!);
    await clear(ids[0]!);
    await reverse(ids[1]!);

    const page1 = await debitList(who, { accountId: settlement });
    expect(page1.total).toBe(13);
    expect(page1.authorizations).toHaveLength(AUTHORIZATION_PAGE_SIZE);
    expect(page1.authorizations.map((a) => a.id)).toEqual([...ids].reverse().slice(0, 10));
    expect(page1.authorizations[0]).toMatchObject({ status: 'declined', declineReason: 'CURRENCY_NOT_SUPPORTED', cardLast4: card.number.slice(-4), accountId: settlement });
    const page2 = await debitList(who, { accountId: settlement, pageNumber: 2 });
    expect(page2.authorizations.map((a) => a.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(page2.authorizations.find((a) => a.id === ids[0])).toMatchObject({ status: 'cleared', amount: '0.50' });

    // holding money now: the 10 authorised ones (not the cleared, reversed or declined one)
    const current = await currentList(who, { accountId: settlement });
    const held = ids.slice(2, 12);
    expect(current.authorizations.map((a) => a.id)).toEqual([...held].reverse());
    expect(current.total).toBe(10);
    expect(current.authorizations.every((a) => a.status === 'authorized')).toBe(true);

    // an account no debit card draws on: an empty list, not an error
    const prepaid = await makeCard(who, { loadMinor: 10_00n });
    await pay(prepaid, { amount: '1.00' });
    expect(await debitList(who, { accountId: prepaid.accountId })).toEqual({ authorizations: [], total: 0 });
    // its own holding list has it
    expect((await currentList(who, { accountId: prepaid.accountId })).total).toBe(1);

    // another customer's account: ENOA, for both lists
    const other = people.anna;
    for (const list of [debitList, currentList]) {
      await expect(list(other, { accountId: settlement })).rejects.toMatchObject({ responseCode: 'ENOA' });
      await expect(list(other, { accountId: 999_999 })).rejects.toBeInstanceOf(MethodFailure);
    }
    await expectClean();
  });
});

describe('history', () => {
  const PROVIDER = 'The Provider';
  const rowsOf = async (who: Person, accountId: number) => (await historyPage(db, who.customerId, { accountId }, { pageNumber: 1, pageSize: 100 }, PROVIDER)).transactions;

  it('a held payment is pending, a declined one rejected with its reason, a released one canceled, a cleared one a posted card payment naming the merchant', async () => {
    const card = await makeCard(people.boris, { loadMinor: 50_00n });
    clock += 1000;
    const held = await pay(card, { amount: '12.00', merchantName: 'Held Books' });
    clock += 1000;
    const declined = await pay(card, { amount: '80.00', merchantName: 'Too Dear' });
    clock += 1000;
    const released = await pay(card, { amount: '3.00', merchantName: 'Changed Mind' });
    await reverse(released.authorizationId!);
    clock += 1000;
    const posted = await pay(card, { amount: '7.50', merchantName: 'Posted Café' });
    await clear(posted.authorizationId!, '7.25');

    const rows = await rowsOf(people.boris, card.accountId);
    const byParty = (name: string) => rows.filter((r) => r.counterparty === name);
    expect(byParty('Held Books')).toEqual([
      expect.objectContaining({
        kind: 'authorization',
        transactionId: held.authorizationId,
        operationType: 'cardPayment',
        direction: 'out',
        status: 'pending',
        amount: '-12.00',
        currency: 'EUR',
        note: null,
      }),
    ]);
    expect(byParty('Too Dear')).toEqual([expect.objectContaining({ kind: 'authorization', status: 'rejected', amount: '-80.00', note: 'INSUFFICIENT_FUNDS' })]);
    expect(byParty('Changed Mind')).toEqual([expect.objectContaining({ kind: 'authorization', status: 'canceled', amount: '-3.00' })]);
    // the cleared one once: its clearing entry, for what was posted
    const [entryRow, ...more] = byParty('Posted Café');
    expect(more).toEqual([]);
    const entryId = (await authorization(posted.authorizationId!)).entryId!;
    expect(entryRow).toMatchObject({ kind: 'entry', transactionId: entryId, operationType: 'cardPayment', direction: 'out', status: 'posted', amount: '-7.25' });
    // newest first
    expect(rows.filter((r) => r.kind === 'authorization').map((r) => r.counterparty)).toEqual(['Changed Mind', 'Too Dear', 'Held Books']);

    // the card payment type filters; the counts see the held one in progress and the declined one refused
    const page = await historyPage(db, people.boris.customerId, { accountId: card.accountId, transactionType: 'cardPayment' }, { pageNumber: 1, pageSize: 20 }, PROVIDER);
    expect(page.results).toBe(4);
    expect(page.rejectedCount).toBe(1);
    expect(page.processingCount).toBe(1);

    // the details: the authorisation to its customer only; the clearing entry as a card payment with the merchant
    expect(await receiptAuthorization(db, people.boris.customerId, declined.authorizationId!)).toMatchObject({
      status: 'rejected',
      merchantName: 'Too Dear',
      declineReason: 'INSUFFICIENT_FUNDS',
      amountMinor: 80_00n,
    });
    expect(await receiptAuthorization(db, people.anna.customerId, declined.authorizationId!)).toBeNull();
    expect(await receiptEntry(db, people.boris.customerId, entryId)).toMatchObject({
      operationType: 'cardPayment',
      payer: 'Posted Café',
      legs: [{ accountId: card.accountId, amountMinor: -7_25n }],
    });
    await expectClean();
  });

  it("a debit card's payments are rows of its settlement account", async () => {
    const card = await makeCard(people.anna, { product: debitEur });
    const answer = await pay(card, { amount: '2.00', merchantName: 'Debit Bakery' });
    const rows = await rowsOf(people.anna, people.anna.eurAccountId);
    expect(rows.find((r) => r.counterparty === 'Debit Bakery')).toMatchObject({
      kind: 'authorization',
      transactionId: answer.authorizationId,
      accountId: people.anna.eurAccountId,
      status: 'pending',
    });
    expect(await rowsOf(people.anna, card.accountId)).toEqual([]);
  });

  it("a card's fee is a Fees row naming the card by its masked number", async () => {
    const card = await makeCard(people.boris, {});
    const [fee] = await db
      .insert(transfers)
      .values({
        kind: 'cardFee',
        status: 'rejected',
        customerId: people.boris.customerId,
        userId: people.boris.userId,
        fromAccountId: people.boris.eurAccountId,
        toAccountId: await providerAccountId(db, 'fee', 'EUR'),
        toCustomerId: (await providerCustomerId(db))!,
        fromCurrency: 'EUR',
        toCurrency: 'EUR',
        amountMinor: 2_00n,
        toAmountMinor: 2_00n,
        approveType: 'none',
        expiresAt: new Date(clock + DAY_MS),
      })
      .returning();
    await db.update(cards).set({ feeTransferId: fee!.id }).where(eq(cards.accountId, card.accountId));
    const rows = await rowsOf(people.boris, people.boris.eurAccountId);
    expect(rows.find((r) => r.kind === 'transfer' && r.transactionId === fee!.id)).toMatchObject({
      operationType: 'Fees',
      status: 'rejected',
      amount: '-2.00',
      counterparty: `${virtualEur.bin}******${card.number.slice(-4)}`,
    });
    await expectClean();
  });
});

describe("the issuer simulator's terminal (REST)", () => {
  const post = (t: TestApp, url: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url, payload });
  const body = (card: TestCard, overrides: Record<string, unknown> = {}) => ({
    cardNumber: card.number.replace(/(\d{4})(?=\d)/g, '$1 '),
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    cvv: card.cvv,
    amount: '9.99',
    currency: 'EUR',
    merchantName: 'Terminal Kiosk',
    merchantCategoryCode: '5499',
    merchantCountryCode: 'RO',
    ...overrides,
  });

  it('is not served outside demo mode', async () => {
    const { t } = await appOn({ demo: false });
    const card = await makeCard(people.boris, { loadMinor: 20_00n });
    expect((await post(t, '/dev/cards/authorizations', body(card))).statusCode).toBe(404);
    expect((await post(t, '/dev/cards/authorizations/1/reversal', {})).statusCode).toBe(404);
    expect((await money(card.accountId)).pending).toBe(0n);
  });

  it('authorises, clears (for less) and reverses in demo mode; the lists see it; no card number or CVV in an answer or a log line', async () => {
    const { t, logs } = await appOn({ demo: true });
    const card = await makeCard(people.boris, { loadMinor: 50_00n });

    const first = await post(t, '/dev/cards/authorizations', body(card, { networkRef: 'rest-1' }));
    expect(first.statusCode).toBe(200);
    const answer = first.json() as { authorizationId: number; status: string; declineReason: string | null };
    expect(answer).toEqual({ authorizationId: expect.any(Number), status: 'authorized', declineReason: null });
    expect(await money(card.accountId)).toEqual({ balance: 50_00n, pending: 9_99n });
    // the same networkRef: the same authorisation
    expect((await post(t, '/dev/cards/authorizations', body(card, { networkRef: 'rest-1' }))).json()).toEqual(answer);

    // the holder's lists through the platform's named methods
    const boris = await signIn(t.app, 'boris');
    const current = await callMethod(t.app, 'currentAccountAuthorizationListGet', { accountId: card.accountId }, { token: boris.accessToken });
    expect(current.body).toMatchObject({
      responseCode: '00',
      total: 1,
      authorizations: [{ id: answer.authorizationId, status: 'authorized', amount: '9.99', merchantName: 'Terminal Kiosk', cardLast4: card.number.slice(-4) }],
    });
    const anna = await signIn(t.app, 'anna', { totpTimeMs: clock });
    expect((await callMethod(t.app, 'currentAccountAuthorizationListGet', { accountId: card.accountId }, { token: anna.accessToken })).body.responseCode).toBe('ENOA');

    const url = `/dev/cards/authorizations/${answer.authorizationId}`;
    const above = await post(t, `${url}/clearing`, { amount: '10.00' });
    expect(above.statusCode).toBe(400);
    expect(above.json()).toMatchObject({ field: 'amount', status: 'authorized' });
    const cleared = await post(t, `${url}/clearing`, { amount: '9.50' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ authorizationId: answer.authorizationId, status: 'cleared', declineReason: null });
    expect((await post(t, `${url}/clearing`, {})).json()).toMatchObject({ status: 'cleared' });
    expect(await money(card.accountId)).toEqual({ balance: 40_50n, pending: 0n });
    const late = await post(t, `${url}/reversal`, {});
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ status: 'cleared' });
    expect((await post(t, '/dev/cards/authorizations/999999999/clearing', {})).statusCode).toBe(404);
    expect((await post(t, '/dev/cards/authorizations/abc/reversal', {})).statusCode).toBe(404);

    const second = (await post(t, '/dev/cards/authorizations', body(card, { amount: '5.00' }))).json() as { authorizationId: number };
    const reversed = await post(t, `/dev/cards/authorizations/${second.authorizationId}/reversal`, {});
    expect(reversed.json()).toEqual({ authorizationId: second.authorizationId, status: 'reversed', declineReason: null });
    expect(await money(card.accountId)).toEqual({ balance: 40_50n, pending: 0n });

    // declined with its reason
    await db.update(accounts).set({ status: CardStatus.paused }).where(eq(accounts.accountId, card.accountId));
    expect((await post(t, '/dev/cards/authorizations', body(card))).json()).toMatchObject({ status: 'declined', declineReason: 'CARD_PAUSED' });
    await db.update(accounts).set({ status: CardStatus.active }).where(eq(accounts.accountId, card.accountId));

    // refused bodies name the field and its rule, never what was sent
    const badCvv = await post(t, '/dev/cards/authorizations', body(card, { cvv: 'x1y2' }));
    expect(badCvv.statusCode).toBe(400);
    expect(badCvv.json()).toEqual({ field: 'cvv', message: expect.any(String) });
    const badNumber = await post(t, '/dev/cards/authorizations', body(card, { cardNumber: `${card.number}9999` }));
    expect(badNumber.json()).toMatchObject({ field: 'cardNumber' });
    expect(badNumber.body).not.toContain(card.number);
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/dev/cards/authorizations',
      headers: { 'content-type': 'application/json' },
      payload: `{"cardNumber":"${card.number}",`,
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.body).not.toContain(card.number);
    const wrongType = await post(t, '/dev/cards/authorizations', body(card, { expiryMonth: card.number }));
    expect(wrongType.json()).toMatchObject({ field: 'expiryMonth' });
    expect(wrongType.body).not.toContain(card.number);

    expect(logs.length).toBeGreaterThan(0);
    const logText = logs.join('');
    expect(logText).not.toContain(card.number);
    expect(logText).not.toContain(card.number.slice(0, 4) + ' ');
    expect(logText).not.toMatch(/"cvv"/);
    await expectClean();
  });
});
