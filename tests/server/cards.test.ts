/**
 * The card lifecycle through the real calls on the real database and job queue (issue 16): the
 * catalogue's types; an application with approval mode none (virtual: Active at once; physical:
 * Submitted, then the issuer's stages applied once and in order through the queue), and with an
 * SMS approval (65 until approved; canceled with its fee transfer; 23 while the address is not
 * confirmed, then cardConfirm); activation (the last four checked, the first PIN once); PIN change
 * (weak and mismatched refused); showPin/getPin (a wrong password counted, one answer per reveal,
 * the number on the product's BIN with a valid Luhn digit); pause/unpause; reissue (the balance
 * moves, the fee is charged); block (the balance refunded); another customer's card answers ENOA.
 * The ledger reconciles after each money path, and no full number, CVV or PIN is found in the
 * server's log or in any table other than the issuer's own.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_TYPE_MAX, CARD_TYPE_MIN, CardStatus } from '../../api/cards.ts';
import { luhnValid } from '../../api/payees/cards.ts';
import { startJobQueue, type JobQueue } from '../../server/db/job-queue.ts';
import { accounts } from '../../server/modules/accounts/accounts.tables.ts';
import { bookMove, providerAccountId, reconcile } from '../../server/modules/accounts/ledger.ts';
import { createCardService, type CardService } from '../../server/modules/cards/cards.service.ts';
import { cards } from '../../server/modules/cards/cards.tables.ts';
import { CARD_QUEUES, drainCardJobs } from '../../server/modules/cards/cards.workers.ts';
import { createCardSimulator } from '../../server/modules/cards/issuer-simulator.ts';
import { CARD_PRODUCTS, EU_COUNTRIES, PLATFORM_BINS, cardProduct, productsFor } from '../../server/modules/cards/products.ts';
import { customerAddresses } from '../../server/modules/profile/profile.tables.ts';
import { outbox } from '../../server/modules/platform/platform.tables.ts';
import { dailyUsageProblems } from '../../server/modules/transfers/fees.ts';
import { transfers } from '../../server/modules/transfers/transfers.tables.ts';
import { demoUserByKey } from '../../server/db/demo-users.ts';
import { callMethod, createTestApp, createTestDatabase, signIn, type MethodAnswer, type TestApp } from './harness.ts';

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk));
    done();
  },
});

let t: TestApp;
let queue: JobQueue;
let stages: CardService;
const tokens: Record<string, string> = {};
/** every secret the journey saw: none may be found outside the issuer's table */
const secrets = { numbers: [] as string[], pins: [] as string[] };

beforeAll(async () => {
  const database = await createTestDatabase({ demoData: 'without-history' });
  queue = await startJobQueue(database.open, CARD_QUEUES, () => undefined);
  const issuer = createCardSimulator({ key: randomBytes(32), stageMs: 0, now: Date.now });
  t = await createTestApp({ database, cardIssuer: issuer, cardQueue: queue, logStream });
  // the stage job's handler needs the database and the publisher (the app's own service is the same)
  stages = createCardService({
    issuer,
    now: Date.now,
    queue: null,
    publisher: t.publisher,
    transfers: () => {
      throw new Error('unused');
    },
  });
  for (const who of ['rita', 'tom'] as const) tokens[who] = (await signIn(t.app, who)).accessToken;
}, 60_000);
afterAll(async () => {
  await queue?.stop();
  await t?.close();
});

const key = () => `k-${Math.random().toString(36).slice(2)}`;
const call = (who: string, name: string, body: Record<string, unknown> = {}) => callMethod(t.app, name, body, { token: tokens[who], headers: { 'idempotency-key': key() } });
const ok = (res: MethodAnswer) => {
  expect(res.body.responseCode, JSON.stringify(res.body)).toBe('00');
  return res.body as Record<string, unknown> & { responseCode: '00' };
};
function errorsOf(res: MethodAnswer): { param: string; code: string }[] {
  expect(res.body.responseCode, JSON.stringify(res.body)).toBe('VF');
  return (res.body.validationErrors as { param: string; code: string }[]).map((e) => ({ param: e.param, code: e.code }));
}
async function accountOf(who: string, currency: string) {
  const answer = ok(await call(who, 'balanceInquiry')) as unknown as { accounts: { account: { accountId: number; type: number; currency: string; balance: string }[] } };
  return answer.accounts.account.find((a) => a.currency === currency && a.type < 2000)!;
}
async function row(accountId: number) {
  const [r] = await t.db.select().from(accounts).where(eq(accounts.accountId, accountId));
  return r!;
}
async function expectClean() {
  expect(await reconcile(t.db)).toEqual([]);
  expect(await dailyUsageProblems(t.db)).toEqual([]);
}
async function customerIdOf(email: string): Promise<number> {
  const rows = await t.db.execute(sql`select customer_id from users where email = ${email}`);
  return Number((rows as unknown as { rows: { customer_id: number }[] }).rows[0]!.customer_id);
}
async function addAddress(who: keyof typeof demoUserByKey, countryCode: string, status: 'confirmed' | 'unconfirmed'): Promise<number> {
  const customerId = await customerIdOf(demoUserByKey[who].email);
  const [a] = await t.db
    .insert(customerAddresses)
    .values({ customerId, address1: 'Via Roma 1', city: 'Roma', postalCode: '00100', countryCode, status })
    .returning({ id: customerAddresses.id });
  return a!.id;
}
async function lastSmsCode(): Promise<string> {
  const [sms] = await t.db.select().from(outbox).where(eq(outbox.channel, 'sms')).orderBy(desc(outbox.id)).limit(1);
  return /^(\d{6})/.exec(sms?.body ?? '')![1]!;
}
const typeOf = (country: string, kind: 'physical' | 'virtual', currency: string) =>
  CARD_PRODUCTS.find((p) => p.countryCode === country && p.kind === kind && p.currency === currency)!.type;

describe('the card catalogue', () => {
  it('has unique types within 2006-2135, EUR and USD prepaid cards in every EU country, RON in Romania, and debit cards', () => {
    const types = CARD_PRODUCTS.map((p) => p.type);
    expect(new Set(types).size).toBe(types.length);
    for (const type of types) expect(type >= CARD_TYPE_MIN && type <= CARD_TYPE_MAX, String(type)).toBe(true);
    expect(types[0]).toBe(2006);
    for (const country of EU_COUNTRIES) {
      const offered = productsFor(country).map((p) => `${p.kind}:${p.currency}`);
      for (const expected of ['physical:EUR', 'virtual:EUR', 'physical:USD', 'virtual:USD', 'debit:EUR', 'debit:USD', 'debit:RON']) expect(offered, country).toContain(expected);
      expect(offered.includes('physical:RON'), country).toBe(country === 'RO');
    }
    expect(productsFor('US')).toEqual([]);
    for (const p of CARD_PRODUCTS) {
      expect(p.fees.issueMinor > 0n, `${p.type} has an issue fee`).toBe(true);
      expect(cardProduct(p.type)).toBe(p);
      expect(p.bin).toBe(PLATFORM_BINS[p.kind][p.currency]);
    }
    expect(cardProduct(2005)).toBeNull();
  });
});

describe('a card journey with approval mode none (rita, Italy)', () => {
  let eur: { accountId: number; balance: string };
  let virtualId: number;
  let physicalId: number;
  let addressId: number;

  it('applyForCardInfo offers Italy’s products with fees as numbers and shipping options', async () => {
    eur = await accountOf('rita', 'EUR');
    addressId = await addAddress('rita', 'IT', 'confirmed');
    const info = ok(await call('rita', 'applyForCardInfo')) as unknown as {
      countryCode: string;
      products: { type: number; kind: string; fees: { issue: number }; shippingOptions: { type: string; fee: number; disabledReasons: string[] }[]; disabledReasons: string[] }[];
    };
    expect(info.countryCode).toBe('IT');
    const physical = info.products.find((p) => p.type === typeOf('IT', 'physical', 'EUR'))!;
    expect(physical.fees.issue).toBe(9.9);
    expect(physical.shippingOptions.map((o) => [o.type, o.fee, o.disabledReasons])).toEqual([
      ['standard', 0, []],
      ['express', 19.9, []],
    ]);
    // rita has no RON account: the RON debit card is disabled; Cyprus gets no express shipping
    expect(info.products.find((p) => p.kind === 'debit' && p.type === CARD_PRODUCTS.find((q) => q.kind === 'debit' && q.currency === 'RON')!.type)!.disabledReasons).toEqual([
      'NO_ACCOUNT_IN_CURRENCY',
    ]);
    const cyprus = ok(await call('rita', 'applyForCardInfo', { countryCode: 'CY' })) as unknown as typeof info;
    expect(cyprus.products.find((p) => p.kind === 'physical')!.shippingOptions[1]!.disabledReasons).toEqual(['NOT_AVAILABLE_IN_COUNTRY']);
  });

  it('a virtual card is Active once its fee is booked; the fee is a cardFee transfer', async () => {
    const wrong = await call('rita', 'cardApply', { type: typeOf('IT', 'virtual', 'USD'), feeAccountId: eur.accountId });
    expect(errorsOf(wrong)).toEqual([{ param: 'feeAccountId', code: 'currencyOfAccount' }]);
    const notHere = await call('rita', 'cardApply', { type: typeOf('DE', 'virtual', 'EUR'), feeAccountId: eur.accountId });
    expect(errorsOf(notHere)).toEqual([{ param: 'type', code: 'notOffered' }]);
    const applied = ok(await call('rita', 'cardApply', { type: typeOf('IT', 'virtual', 'EUR'), feeAccountId: eur.accountId, cardAliasName: 'Online' }));
    expect(applied).toMatchObject({ accountStatusId: CardStatus.active, status: 'posted', approveType: 'none', amount: '2.00', currency: 'EUR' });
    virtualId = applied.accountId as number;
    expect((await accountOf('rita', 'EUR')).balance).toBe('798.00');
    const [fee] = await t.db
      .select()
      .from(transfers)
      .where(eq(transfers.id, applied.transactionId as number));
    expect(fee!.kind).toBe('cardFee');
    const list = ok(await call('rita', 'balanceInquiry')) as unknown as { accounts: { account: Record<string, unknown>[] } };
    const card = list.accounts.account.find((a) => a.accountId === virtualId)!;
    expect(card).toMatchObject({
      type: typeOf('IT', 'virtual', 'EUR'),
      subType: 'PREPAID',
      accountStatusId: 2,
      cardIsVirtual: true,
      cardAliasName: 'Online',
      cardReissuedStatusId: null,
    });
    expect(card.cardLast4).toMatch(/^\d{4}$/);
    expect(card.cardExpiryYear).toBe(new Date().getUTCFullYear() + 3);
    // a plain account keeps null card fields
    expect(list.accounts.account.find((a) => a.accountId === eur.accountId)).toMatchObject({ cardIsVirtual: null, cardExpiryMonth: null, cardLast4: null });
    await expectClean();
  });

  it('a physical card is Submitted, then Processing, Printing, Printed, Shipped by the issuer’s stages, each once and in order', async () => {
    const noShipping = await call('rita', 'cardApply', { type: typeOf('IT', 'physical', 'EUR'), feeAccountId: eur.accountId, addressId });
    expect(errorsOf(noShipping)).toEqual([{ param: 'shippingOptionId', code: 'required' }]);
    const applied = ok(await call('rita', 'cardApply', { type: typeOf('IT', 'physical', 'EUR'), feeAccountId: eur.accountId, addressId, shippingOptionId: 1 }));
    expect(applied).toMatchObject({ accountStatusId: CardStatus.submitted, amount: '9.90' });
    physicalId = applied.accountId as number;
    const pushed: unknown[] = [];
    const unsubscribe = t.publisher.subscribe(await customerIdOf(demoUserByKey.rita.email), (event) => void pushed.push(event));
    const [card] = await t.db.select().from(cards).where(eq(cards.accountId, physicalId));
    // a stage ahead of its predecessor waits (the queue retries it); a late one changes nothing
    await expect(stages.applyStage(t.db, { issuerRef: card!.issuerRef, stage: 'printing' })).rejects.toThrow(/before its predecessor/);
    expect(await stages.applyStage(t.db, { issuerRef: card!.issuerRef, stage: 'submitted' })).toBe(false);
    // the four stages through the queue; one taken before its predecessor is retried a moment later
    const deadline = Date.now() + 30_000;
    while ((await row(physicalId)).status !== CardStatus.shipped && Date.now() < deadline) {
      await drainCardJobs(t.db, queue, stages);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect((await row(physicalId)).status).toBe(CardStatus.shipped);
    // the customer is told of each step, in order
    while (pushed.length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    unsubscribe();
    expect(pushed).toEqual([41, 19, 20, 21].map((accountStatusId) => ({ type: 'CardStatus', accountId: physicalId, accountStatusId })));
    for (const stage of ['processing', 'printing', 'printed', 'shipped'] as const) expect(await stages.applyStage(t.db, { issuerRef: card!.issuerRef, stage })).toBe(false);
    expect((await row(physicalId)).status).toBe(CardStatus.shipped);
    await expectClean();
  });

  it('activation checks the last four digits and answers the first PIN once', async () => {
    const data = ok(await call('rita', 'cardActivationData', { accountId: physicalId }));
    expect(data).toMatchObject({ fees: 0, feeCurrency: 'EUR', extraParams: [{ name: 'cardLast4', pattern: '^\\d{4}$', required: true }] });
    const [card] = await t.db.select().from(cards).where(eq(cards.accountId, physicalId));
    const wrongLast4 = card!.last4 === '0000' ? '1111' : '0000';
    expect(errorsOf(await call('rita', 'cardActivate', { accountId: physicalId, extraParams: { cardLast4: wrongLast4 } }))).toEqual([
      { param: 'extraParams.cardLast4', code: 'cardDataWrong' },
    ]);
    const activated = ok(await call('rita', 'cardActivate', { accountId: physicalId, extraParams: { cardLast4: card!.last4 } }));
    expect(activated.accountStatusId).toBe(CardStatus.active);
    expect(activated.pinCode).toMatch(/^\d{4}$/);
    expect(errorsOf(await call('rita', 'cardActivate', { accountId: physicalId, extraParams: { cardLast4: card!.last4 } }))).toEqual([{ param: 'accountId', code: 'cardStatus' }]);
    // a virtual card is never activated
    expect(errorsOf(await call('rita', 'cardActivate', { accountId: virtualId, extraParams: { cardLast4: '1234' } }))).toEqual([{ param: 'accountId', code: 'cardPhysicalOnly' }]);
  });

  it('changePin refuses a mismatch and weak PINs, then sets the PIN', async () => {
    const change = (pinCode: string, pinCodeRepeat = pinCode) => call('rita', 'changePin', { accountId: physicalId, confirm: true, pinCode, pinCodeRepeat });
    expect(errorsOf(await change('7391', '7392'))).toEqual([{ param: 'pinCodeRepeat', code: 'pinMismatch' }]);
    for (const weak of ['0000', '1234', '4321', '0123', '1212', '2580']) expect(errorsOf(await change(weak)), weak).toEqual([{ param: 'pinCode', code: 'pinWeak' }]);
    ok(await change('7391'));
    secrets.pins.push('7391');
  });

  it('showPin then getPin: the sign-in password (mode none), a wrong one counted, one answer per reveal', async () => {
    const shown = ok(await call('rita', 'showPin', { accountId: physicalId }));
    expect(shown).toMatchObject({ approveType: 'password', approvalSentTo: null });
    const wrong = await call('rita', 'getPin', { accountId: physicalId, operationId: shown.operationId, approvalCode: 'not-the-password' });
    expect(errorsOf(wrong)).toEqual([{ param: 'approvalCode', code: 'approvalCodeWrong' }]);
    const got = ok(await call('rita', 'getPin', { accountId: physicalId, operationId: shown.operationId, approvalCode: demoUserByKey.rita.password }));
    expect(got).toMatchObject({ pinCode: '7391', cardNumber: null, visibleForMs: 30_000 });
    expect(errorsOf(await call('rita', 'getPin', { accountId: physicalId, operationId: shown.operationId, approvalCode: demoUserByKey.rita.password }))).toEqual([
      { param: 'operationId', code: 'notAllowed' },
    ]);
    const card = ok(await call('rita', 'showPin', { accountId: virtualId, reveal: 'card' }));
    const revealed = ok(await call('rita', 'getPin', { accountId: virtualId, operationId: card.operationId, approvalCode: demoUserByKey.rita.password }));
    const number = revealed.cardNumber as string;
    expect(number).toMatch(/^\d{16}$/);
    expect(luhnValid(number)).toBe(true);
    expect(number.slice(0, 6)).toBe(PLATFORM_BINS.virtual.EUR);
    expect(revealed.cvv).toMatch(/^\d{3}$/);
    secrets.numbers.push(number);
    const [stored] = await t.db.select().from(cards).where(eq(cards.accountId, virtualId));
    expect(number.slice(-4)).toBe(stored!.last4);
  });

  it('pause and unpause as the status table allows', async () => {
    expect(ok(await call('rita', 'cardPause', { accountId: physicalId })).accountStatusId).toBe(CardStatus.paused);
    expect(errorsOf(await call('rita', 'cardPause', { accountId: physicalId }))).toEqual([{ param: 'accountId', code: 'cardStatus' }]);
    expect(ok(await call('rita', 'cardUnpause', { accountId: physicalId })).accountStatusId).toBe(CardStatus.active);
    expect(errorsOf(await call('rita', 'setAlias', { accountId: physicalId, cardAliasName: 'X' }))).toEqual([{ param: 'accountId', code: 'cardVirtualOnly' }]);
    expect(ok(await call('rita', 'setAlias', { accountId: virtualId, cardAliasName: 'Shopping' })).cardAliasName).toBe('Shopping');
  });

  it('reissue moves the balance to the new card and charges the fee; block refunds the balance', async () => {
    // money on the virtual card, from the provider's capital as the seed funds accounts
    await t.db.transaction(async (tx) =>
      bookMove(tx, {
        kind: 'test_card_load',
        idempotencyKey: `test-load:${virtualId}`,
        fromAccountId: await providerAccountId(tx, 'capital', 'EUR'),
        toAccountId: virtualId,
        amountMinor: 1_000n,
      }),
    );
    const before = await accountOf('rita', 'EUR');
    const reissued = ok(await call('rita', 'cardReissue', { accountId: virtualId, isExpressShipping: false }));
    expect(reissued).toMatchObject({ accountStatusId: CardStatus.active, fee: '2.00', feeCurrency: 'EUR' });
    const newId = reissued.accountId as number;
    expect((await row(newId)).balanceMinor).toBe(1_000n);
    expect((await row(virtualId)).balanceMinor).toBe(0n);
    expect((await row(virtualId)).status).toBe(CardStatus.canceled);
    expect((await accountOf('rita', 'EUR')).balance).toBe((Number(before.balance) - 2).toFixed(2));
    const list = ok(await call('rita', 'balanceInquiry')) as unknown as { accounts: { account: Record<string, unknown>[] } };
    expect(list.accounts.account.find((a) => a.accountId === virtualId)).toMatchObject({ accountStatusId: CardStatus.canceled, cardReissuedStatusId: CardStatus.active });
    const [links] = await t.db.select().from(cards).where(eq(cards.accountId, newId));
    expect(links!.reissuedFromAccountId).toBe(virtualId);
    await expectClean();

    const blocked = ok(await call('rita', 'cardBlock', { accountId: newId }));
    expect(blocked).toMatchObject({ accountStatusId: CardStatus.canceled, refundedAmount: '10.00', refundedToAccountId: eur.accountId });
    expect((await accountOf('rita', 'EUR')).balance).toBe((Number(before.balance) - 2 + 10).toFixed(2));
    expect(errorsOf(await call('rita', 'cardBlock', { accountId: newId }))).toEqual([{ param: 'accountId', code: 'cardStatus' }]);
    await expectClean();
  });

  it('another customer’s card answers ENOA', async () => {
    expect((await call('tom', 'cardPause', { accountId: physicalId })).body.responseCode).toBe('ENOA');
    expect((await call('tom', 'cardConfirmRequirements', { accountId: physicalId })).body.responseCode).toBe('ENOA');
  });

  it('addressReplacementCompatibility names the cards a move affects', async () => {
    const answer = ok(await call('rita', 'addressReplacementCompatibility', { countryCode: 'DE', oldAddressId: addressId }));
    // the physical card was shipped already; every live Italian card is not offered in Germany
    expect(answer).toEqual({ responseCode: '00', cardAccountsToBeShippedToOldAddress: [], cardAccountsToBeCanceled: [physicalId] });
  });

  it('within the country nothing is canceled; a card being printed ships to the old address; only one’s own address is asked about', async () => {
    expect(ok(await call('rita', 'addressReplacementCompatibility', { countryCode: 'IT', oldAddressId: addressId }))).toMatchObject({
      cardAccountsToBeCanceled: [],
      cardAccountsToBeShippedToOldAddress: [],
    });
    const shipped = (await row(physicalId)).status;
    await t.db.update(accounts).set({ status: CardStatus.printing }).where(eq(accounts.accountId, physicalId));
    expect(ok(await call('rita', 'addressReplacementCompatibility', { countryCode: 'IT', oldAddressId: addressId })).cardAccountsToBeShippedToOldAddress).toEqual([physicalId]);
    await t.db.update(accounts).set({ status: shipped }).where(eq(accounts.accountId, physicalId));
    expect(errorsOf(await call('tom', 'addressReplacementCompatibility', { countryCode: 'DE', oldAddressId: addressId }))).toEqual([{ param: 'oldAddressId', code: 'notAllowed' }]);
  });

  it('replacing the address with one in Germany cancels the cards listed, in the same transaction, their balance returned', async () => {
    await t.db.transaction(async (tx) =>
      bookMove(tx, { kind: 'test_card_load', idempotencyKey: `test-load:${physicalId}`, fromAccountId: await providerAccountId(tx, 'capital', 'EUR'), toAccountId: physicalId, amountMinor: 500n }),
    );
    const before = await accountOf('rita', 'EUR');
    const moved = { addressId, addressType: 'home', addressStatus: 1, address1: 'Unter den Linden 1', city: 'Berlin', postalCode: '10117', countryCode: 'DE' };
    // a payment still held on the card refuses the move, and nothing changes
    await t.db.update(accounts).set({ pendingMinor: 100n }).where(eq(accounts.accountId, physicalId));
    expect(errorsOf(await call('rita', 'customerAddressCreateOrReplace', moved))).toEqual([{ param: 'countryCode', code: 'cardPaymentsPending' }]);
    expect((await row(physicalId)).status).not.toBe(CardStatus.canceled);
    await t.db.update(accounts).set({ pendingMinor: 0n }).where(eq(accounts.accountId, physicalId));

    expect(ok(await call('rita', 'customerAddressCreateOrReplace', moved))).toMatchObject({ address: { addressId, countryCode: 'DE' } });
    expect((await row(physicalId)).status).toBe(CardStatus.canceled);
    expect((await row(physicalId)).balanceMinor).toBe(0n);
    expect((await accountOf('rita', 'EUR')).balance).toBe((Number(before.balance) + 5).toFixed(2));
    expect(ok(await call('rita', 'addressReplacementCompatibility', { countryCode: 'FR', oldAddressId: addressId })).cardAccountsToBeCanceled).toEqual([]);
    await expectClean();
  });

  it('binInfo knows the platform’s BINs and a few others; spaces removed, the first six digits used', async () => {
    expect(ok(await call('rita', 'binInfo', { binNumber: `${PLATFORM_BINS.physical.EUR!.slice(0, 4)} ${PLATFORM_BINS.physical.EUR!.slice(4)}12 3456 7890` }))).toMatchObject({
      binNumber: PLATFORM_BINS.physical.EUR,
      cardBrand: 'VISA',
      cardType: 'PREPAID',
      currencyCode: 'EUR',
      isPrepaid: true,
      valid: true,
    });
    expect(ok(await call('rita', 'binInfo', { binNumber: '411111' }))).toMatchObject({ cardBrand: 'VISA', cardType: 'CREDIT', issuer: null, valid: true });
    expect(ok(await call('rita', 'binInfo', { binNumber: '530000' }))).toMatchObject({ cardBrand: 'MASTERCARD', cardType: null, issuer: null, valid: false });
  });
});

describe('a card applied for with an SMS approval (tom)', () => {
  let eur: { accountId: number };

  it('waits in 65 until the fee is approved, then is Active', async () => {
    eur = await accountOf('tom', 'EUR');
    const applied = ok(await call('tom', 'cardApply', { type: typeOf('EE', 'virtual', 'EUR'), feeAccountId: eur.accountId }));
    expect(applied).toMatchObject({ accountStatusId: CardStatus.pendingApproval, status: 'pending', approveType: 'sms' });
    expect((await row(eur.accountId)).pendingMinor).toBe(200n);
    await expectClean();
    const approved = ok(await call('tom', 'approveTransfer', { trxid: applied.transactionId, approvalCode: await lastSmsCode() }));
    expect(approved.status).toBe('posted');
    expect((await row(applied.accountId as number)).status).toBe(CardStatus.active);
    await expectClean();
  });

  it('is canceled when its fee transfer is canceled', async () => {
    const applied = ok(await call('tom', 'cardApply', { type: typeOf('EE', 'virtual', 'EUR'), feeAccountId: eur.accountId }));
    ok(await call('tom', 'transferCancel', { trxid: applied.transactionId }));
    expect((await row(applied.accountId as number)).status).toBe(CardStatus.canceled);
    expect((await row(eur.accountId)).pendingMinor).toBe(0n);
    await expectClean();
  });

  it('a physical card to an unconfirmed address waits in 23 after approval; cardConfirm starts production once it is confirmed', async () => {
    const addressId = await addAddress('tom', 'EE', 'unconfirmed');
    const applied = ok(await call('tom', 'cardApply', { type: typeOf('EE', 'physical', 'EUR'), feeAccountId: eur.accountId, addressId, shippingOptionId: 2 }));
    expect(applied).toMatchObject({ accountStatusId: CardStatus.pendingApproval, amount: '29.80' });
    const cardId = applied.accountId as number;
    // the issuer's stages wait for the card, changing nothing: the worker sends each again later
    const [card] = await t.db.select().from(cards).where(eq(cards.accountId, cardId));
    await expect(stages.applyStage(t.db, { issuerRef: card!.issuerRef, stage: 'processing' })).rejects.toThrow(/not in production/);
    const sentAgain: unknown[] = [];
    const recording = {
      runDue: queue.runDue.bind(queue),
      send: async <T extends object>(name: string, data: T, options?: { afterMs?: number }) => {
        sentAgain.push({ ...data, afterMs: options?.afterMs });
        await queue.send(name, data, options);
      },
    };
    expect(await drainCardJobs(t.db, recording, stages)).toBe(4);
    expect(sentAgain).toEqual(
      expect.arrayContaining((['processing', 'printing', 'printed', 'shipped'] as const).map((stage) => ({ issuerRef: card!.issuerRef, stage, waited: 1, afterMs: 60_000 }))),
    );
    expect((await row(cardId)).status).toBe(CardStatus.pendingApproval);
    ok(await call('tom', 'approveTransfer', { trxid: applied.transactionId, approvalCode: await lastSmsCode() }));
    expect((await row(cardId)).status).toBe(CardStatus.pendingConfirmation);
    const requirements = ok(await call('tom', 'cardConfirmRequirements', { accountId: cardId }));
    expect(requirements).toMatchObject({
      accountStatusId: CardStatus.pendingConfirmation,
      canConfirm: false,
      requirements: [
        { code: 'FEE_PAID', met: true },
        { code: 'IDENTITY_VERIFIED', met: true },
        { code: 'ADDRESS_CONFIRMED', met: false },
      ],
    });
    expect(errorsOf(await call('tom', 'cardConfirm', { accountId: cardId }))).toEqual([{ param: 'accountId', code: 'notAllowed' }]);
    await t.db.update(customerAddresses).set({ status: 'confirmed' }).where(eq(customerAddresses.id, addressId));
    expect(ok(await call('tom', 'cardConfirmRequirements', { accountId: cardId })).canConfirm).toBe(true);
    expect(ok(await call('tom', 'cardConfirm', { accountId: cardId })).accountStatusId).toBe(CardStatus.submitted);
    // upgrade: express already chosen
    expect(errorsOf(await call('tom', 'upgradeShipping', { accountId: cardId }))).toEqual([{ param: 'accountId', code: 'notAllowed' }]);
    await stages.applyStage(t.db, { issuerRef: card!.issuerRef, stage: 'processing' });
    expect((await row(cardId)).status).toBe(CardStatus.processing);
    await expectClean();
  });

  it('showPin by SMS: the code goes to the phone', async () => {
    const addressId = await addAddress('tom', 'EE', 'confirmed');
    const applied = ok(await call('tom', 'cardApply', { type: typeOf('EE', 'physical', 'EUR'), feeAccountId: eur.accountId, addressId, shippingOptionId: 1 }));
    ok(await call('tom', 'approveTransfer', { trxid: applied.transactionId, approvalCode: await lastSmsCode() }));
    const cardId = applied.accountId as number;
    expect((await row(cardId)).status).toBe(CardStatus.submitted);
    const upgraded = ok(await call('tom', 'upgradeShipping', { accountId: cardId }));
    expect(upgraded).toMatchObject({ fee: '19.90', feeCurrency: 'EUR', deliveryTime: 3 });
    await expectClean();
    await t.db.update(accounts).set({ status: CardStatus.active }).where(eq(accounts.accountId, cardId));
    const shown = ok(await call('tom', 'showPin', { accountId: cardId, reveal: 'card' }));
    expect(shown.approveType).toBe('sms');
    expect(shown.approvalSentTo).toEqual(expect.any(String));
    const revealed = ok(await call('tom', 'getPin', { accountId: cardId, operationId: shown.operationId, approvalCode: await lastSmsCode() }));
    expect(revealed.cardNumber).toMatch(/^\d{16}$/);
    secrets.numbers.push(revealed.cardNumber as string);
  });
});

describe('the demo cards', () => {
  it('sam has an active virtual EUR card with money on it and a physical card shipped and ready to activate', async () => {
    const rows = await t.db
      .select({ status: accounts.status, balance: accounts.balanceMinor, kind: cards.kind, feeTransferId: cards.feeTransferId })
      .from(cards)
      .innerJoin(accounts, eq(accounts.accountId, cards.accountId))
      .where(eq(accounts.customerId, await customerIdOf(demoUserByKey.sam.email)));
    expect(rows).toEqual([
      { status: CardStatus.active, balance: 2_500n, kind: 'virtual', feeTransferId: null },
      { status: CardStatus.shipped, balance: 0n, kind: 'physical', feeTransferId: null },
    ]);
  });
});

describe('secrets', () => {
  it('no full card number, CVV or PIN in the server’s log or in any table but the issuer’s', async () => {
    expect(secrets.numbers.length).toBeGreaterThan(1);
    const log = logLines.join('\n');
    const tables = (await t.db.execute(sql`select tablename from pg_tables where schemaname = 'public' and tablename <> 'card_issuer_sim_cards'`)) as unknown as {
      rows: { tablename: string }[];
    };
    let text = '';
    for (const { tablename } of tables.rows) {
      const rows = (await t.db.execute(sql.raw(`select t::text as r from "${tablename}" t`))) as unknown as { rows: { r: string }[] };
      text += rows.rows.map((r) => r.r).join('\n');
    }
    expect(text.length).toBeGreaterThan(10_000);
    for (const number of secrets.numbers) {
      expect(log.includes(number)).toBe(false);
      expect(text.includes(number)).toBe(false);
    }
    for (const pin of secrets.pins) {
      // The PIN as a value of its own: not inside a hex hash, a base64 token or a longer number (a
      // digit run of a random hash once matched the bare \d boundaries and failed the suite).
      const token = new RegExp(`(?<![0-9A-Za-z_+/=-])${pin}(?![0-9A-Za-z_+/=-])`);
      expect(token.test(log)).toBe(false);
      expect(token.test(text)).toBe(false);
    }
    // nothing stores a CVV or a PIN under any name
    expect(/cvv|pinCode/i.test(log)).toBe(false);
    expect(/cvv|pinCode/i.test(text)).toBe(false);
  });
});
