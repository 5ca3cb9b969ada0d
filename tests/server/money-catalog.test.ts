/**
 * The money catalog on the real server (PGlite): permission flags, add currency, wallets, rates,
 * the payee check, recent transfers and pre-approved payments.
 *
 * The customers the methods act for are made here (with their own users, accounts and flags), so
 * the test does not depend on what the demo seed gives the demo users; Northwind and its users
 * (foundation seed) serve the acting-for-a-company cases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accounts, auditLog, blacklist, customerAccess, customers, exchangeRates, transferSchedules, transfers, users } from '../../server/db/schema.ts';
import { DEMO_PASSWORD, demoUserByKey, NORTHWIND_NAME, type DemoUser } from '../../server/db/demo-users.ts';
import { ALL_PERMISSION_FLAGS, transferMethods, type MoneyPermissions } from '../../api/transfers.ts';
import { CHECK_PAYEE_PER_MINUTE, createMoneyCatalogHandlers, PREAPPROVED_DEFAULT_PAGE_SIZE } from '../../server/modules/transfers/catalog.methods.ts';
import { newWalletAddress, WALLET_ADDRESS_PATTERN } from '../../server/modules/transfers/catalog.accounts.ts';
import { invertRate, normaliseRate } from '../../server/modules/transfers/rates.ts';
import type { MethodDef } from '../../api/method.ts';
import type { MethodHandler } from '../../server/modules/method-types.ts';
import { callMethod, createTestApp, signIn, type TestApp } from './harness.ts';

const CATALOG_METHODS = [
  'moneyPermissions',
  'addCurrency',
  'createWallet',
  'exchangeRate',
  'defaultExchangeRates',
  'checkPayee',
  'recentTransfers',
  'preapprovedList',
  'preapprovedCancel',
] as const;

let t: TestApp;
/** the checkPayee limiter's clock (the app runs a catalog instance on it) */
let clock = Date.UTC(2026, 0, 1);

interface Person {
  customerId: number;
  userId: number;
  email: string;
  /** account ids by currency */
  account: Record<string, number>;
  token: string;
}

let pia: Person; // the payer most cases act as
let noflags: Person; // holds no flag at all
let carol: Person; // a payee
let dave: Person; // a payee who gets disabled
let erin: Person; // a payee who blacklists pia
let limited: Person; // spends the payee-check allowance
let boris: Person; // the demo user (seed), a payee
let northwindId: number;
let ownerToken: string;
let viewerToken: string;
let clerkToken: string;
let annaToken: string;

const call = (name: string, body: Record<string, unknown>, token?: string) => callMethod(t.app, name, body, token ? { token } : {});

/** A personal customer with its own user (simple sign-in) and one account per currency. */
async function makePerson(firstName: string, currencies: string[], signInNow: boolean): Promise<Person> {
  const email = `${firstName.toLowerCase()}@catalog.test`;
  const [hash] = await t.db.select({ h: users.passwordHash }).from(users).where(eq(users.email, demoUserByKey.boris.email));
  const [c] = await t.db.insert(customers).values({ customerType: 'personal', firstName, lastName: 'Tester', verified: true }).returning();
  const [u] = await t.db
    .insert(users)
    .values({ email, passwordHash: hash!.h, login2faMode: 'no', userType: 1, customerId: c!.id, totpSecret: null })
    .returning();
  const account: Record<string, number> = {};
  for (const currency of currencies) {
    const [a] = await t.db.insert(accounts).values({ type: 1001, currency, customerId: c!.id }).returning();
    account[currency] = a!.accountId;
  }
  let token = '';
  if (signInNow) {
    const user: DemoUser = { ...demoUserByKey.boris, email, password: DEMO_PASSWORD };
    token = (await signIn(t.app, user)).accessToken;
  }
  return { customerId: c!.id, userId: u!.id, email, account, token };
}

async function setFlags(userId: number, flags: string[]) {
  await t.db
    .update(users)
    .set({ moneyPermissions: Object.fromEntries(flags.map((f) => [f, true])) })
    .where(eq(users.id, userId));
}

function flatTrue(p: MoneyPermissions): string[] {
  return Object.entries(p).flatMap(([group, names]) =>
    Object.entries(names as Record<string, boolean>)
      .filter(([, held]) => held)
      .map(([name]) => `${group}.${name}`),
  );
}

beforeAll(async () => {
  const limitedCatalog = createMoneyCatalogHandlers({ now: () => clock });
  t = await createTestApp({ handlerOverrides: { checkPayee: limitedCatalog.checkPayee as unknown as MethodHandler<MethodDef> } });
  pia = await makePerson('Pia', ['EUR', 'USD'], true);
  noflags = await makePerson('Nora', ['EUR'], true);
  limited = await makePerson('Lena', ['EUR'], true);
  carol = await makePerson('Carol', ['EUR'], false);
  dave = await makePerson('Dave', ['EUR'], false);
  erin = await makePerson('Erin', ['EUR'], false);
  await setFlags(pia.userId, ['funding.digital', 'others.p2p', 'topLevel.sendMoneyUser']);
  await setFlags(noflags.userId, []);

  const [b] = await t.db.select().from(users).where(eq(users.email, demoUserByKey.boris.email));
  const [bAccount] = await t.db.select().from(accounts).where(and(eq(accounts.customerId, b!.customerId), eq(accounts.currency, 'EUR')));
  const borisSignedIn = await signIn(t.app, 'boris');
  boris = { customerId: b!.customerId, userId: b!.id, email: b!.email, account: { EUR: bAccount!.accountId }, token: borisSignedIn.accessToken };

  const [nw] = await t.db.select().from(customers).where(eq(customers.businessName, NORTHWIND_NAME));
  northwindId = nw!.id;
  const signedIn = await Promise.all([signIn(t.app, 'owner'), signIn(t.app, 'viewer'), signIn(t.app, 'anna'), signIn(t.app, 'clerk')]);
  [ownerToken, viewerToken, annaToken, clerkToken] = signedIn.map((s) => s.accessToken) as [string, string, string, string];
});
afterAll(async () => {
  await t?.close();
});

describe('every catalog method', () => {
  it('is in the contract and answers 401 AU without a caller', async () => {
    for (const name of CATALOG_METHODS) {
      expect(transferMethods[name].access).toBe('customer');
      const res = await call(name, name === 'preapprovedCancel' ? { id: 1 } : name === 'checkPayee' ? { email: 'a@b.test' } : {});
      expect(res.status, name).toBe(401);
      expect(res.body.responseCode, name).toBe('AU');
    }
  });

  it('answers ENOA when the caller acts for a customer it may not act for', async () => {
    for (const name of CATALOG_METHODS) {
      const body: Record<string, unknown> = { fromCustomerId: northwindId };
      if (name === 'preapprovedCancel') body.id = 1;
      if (name === 'checkPayee') body.email = 'a@b.test';
      if (name === 'addCurrency') body.currencyCode = 'USD';
      if (name === 'createWallet') body.currencyCode = 'BTC';
      const res = await call(name, body, pia.token);
      expect(res.body.responseCode, name).toBe('ENOA');
    }
    // nothing was opened for Northwind on the way
    const nwAccounts = await t.db.select().from(accounts).where(and(eq(accounts.customerId, northwindId), eq(accounts.currency, 'BTC')));
    expect(nwAccounts).toHaveLength(0);
  });
});

describe('moneyPermissions', () => {
  it('answers every flag, false unless stored true', async () => {
    const none = await call('moneyPermissions', {}, noflags.token);
    expect(none.body.responseCode).toBe('00');
    const perms = none.body.permissions as MoneyPermissions;
    expect(Object.values(perms).flatMap((g) => Object.keys(g))).toHaveLength(ALL_PERMISSION_FLAGS.length);
    expect(flatTrue(perms)).toEqual([]);

    const some = await call('moneyPermissions', {}, pia.token);
    expect(flatTrue(some.body.permissions as MoneyPermissions).sort()).toEqual(['funding.digital', 'others.p2p', 'topLevel.sendMoneyUser']);
  });

  it("answers what the database holds for a demo user (whatever the seed gives anna)", async () => {
    const [anna] = await t.db.select().from(users).where(eq(users.email, demoUserByKey.anna.email));
    const stored = Object.entries(anna!.moneyPermissions)
      .filter(([, v]) => v === true)
      .map(([k]) => k)
      .filter((k) => (ALL_PERMISSION_FLAGS as string[]).includes(k))
      .sort();
    const res = await call('moneyPermissions', {}, annaToken);
    expect(flatTrue(res.body.permissions as MoneyPermissions).sort()).toEqual(stored);
  });

  it('acting for a company: the access row flags, only with rights that may move money', async () => {
    const [clerk] = await t.db.select().from(users).where(eq(users.email, demoUserByKey.clerk.email));
    const [viewer] = await t.db.select().from(users).where(eq(users.email, demoUserByKey.viewer.email));
    for (const u of [clerk!, viewer!]) {
      await t.db
        .update(customerAccess)
        .set({ moneyPermissions: { 'own.betweenAccounts': true } })
        .where(and(eq(customerAccess.userId, u.id), eq(customerAccess.customerId, northwindId)));
    }
    await setFlags(clerk!.id, []);
    // rights 2 (full)
    const full = await call('moneyPermissions', { fromCustomerId: northwindId }, clerkToken);
    expect(flatTrue(full.body.permissions as MoneyPermissions)).toEqual(['own.betweenAccounts']);
    // ... but not for the clerk's own customer
    expect(flatTrue((await call('moneyPermissions', {}, clerkToken)).body.permissions as MoneyPermissions)).toEqual([]);
    // rights 1 (read): the stored flags do not count
    const read = await call('moneyPermissions', { fromCustomerId: northwindId }, viewerToken);
    expect(read.body.responseCode).toBe('00');
    expect(flatTrue(read.body.permissions as MoneyPermissions)).toEqual([]);
  });
});

describe('addCurrency', () => {
  it('opens an empty payment account in the currency and answers it in the account shape', async () => {
    const res = await call('addCurrency', { currencyCode: 'GBP' }, noflags.token);
    expect(res.body.responseCode).toBe('00');
    const account = res.body.account as Record<string, unknown>;
    expect(account).toMatchObject({
      type: 1001,
      subType: null,
      accountStatusId: 1,
      currency: 'GBP',
      balance: '0.00',
      accountBalanceMin: '0.00',
      pendingAmount: '0.00',
      customerId: noflags.customerId,
      settlementAccountId: null, cardIsVirtual: null, cardAliasName: null, cardExpiryMonth: null, cardExpiryYear: null, cardReissuedStatusId: null,
    });
    const [row] = await t.db.select().from(accounts).where(eq(accounts.accountId, account.accountId as number));
    expect(row).toMatchObject({ customerId: noflags.customerId, purpose: 'customer', currency: 'GBP', address: null });
    const audit = await t.db.select().from(auditLog).where(and(eq(auditLog.method, 'addCurrency'), eq(auditLog.customerId, noflags.customerId)));
    expect(audit.map((a) => a.details)).toContainEqual({ accountId: row!.accountId, currency: 'GBP' });
    // the balance inquiry lists it
    const inquiry = await call('balanceInquiry', {}, noflags.token);
    expect((inquiry.body.accounts as { account: { accountId: number }[] }).account.map((a) => a.accountId)).toContain(row!.accountId);
  });

  it('crypto uses 8 decimals', async () => {
    const res = await call('addCurrency', { currencyCode: 'ETH' }, noflags.token);
    expect(res.body.responseCode).toBe('00');
    expect((res.body.account as { balance: string }).balance).toBe('0.00000000');
  });

  it('answers VF on currencyCode for a currency the customer already holds, and opens nothing', async () => {
    const before = await t.db.select().from(accounts).where(eq(accounts.customerId, noflags.customerId));
    for (const currencyCode of ['EUR', 'GBP']) {
      const res = await call('addCurrency', { currencyCode }, noflags.token);
      expect(res.body.responseCode).toBe('VF');
      expect(res.body.validationErrors).toEqual([{ param: 'currencyCode', description: 'You already have an account in this currency', code: 'hasCurrency', params: {} }]);
    }
    expect(await t.db.select().from(accounts).where(eq(accounts.customerId, noflags.customerId))).toHaveLength(before.length);
  });

  it('a closed account in the currency does not count', async () => {
    const person = await makePerson('Clara', ['CAD'], true);
    await t.db.update(accounts).set({ status: 11 }).where(eq(accounts.accountId, person.account.CAD!));
    const res = await call('addCurrency', { currencyCode: 'CAD' }, person.token);
    expect(res.body.responseCode).toBe('00');
    expect((res.body.account as { accountId: number }).accountId).not.toBe(person.account.CAD);
  });

  it('answers VF for an unknown or missing currency', async () => {
    for (const body of [{ currencyCode: 'XYZ' }, { currencyCode: 'eur' }, {}]) {
      const res = await call('addCurrency', body, noflags.token);
      expect(res.body.responseCode).toBe('VF');
      expect((res.body.validationErrors as { param: string }[]).map((e) => e.param)).toEqual(['currencyCode']);
    }
  });

  it('opens the account for the company the caller acts for', async () => {
    const res = await call('addCurrency', { currencyCode: 'RON', fromCustomerId: northwindId }, ownerToken);
    expect(res.body.responseCode).toBe('00');
    expect((res.body.account as { customerId: number }).customerId).toBe(northwindId);
  });
});

describe('createWallet', () => {
  it('answers 13 without funding.digital and opens nothing', async () => {
    const res = await call('createWallet', { currencyCode: 'BTC' }, noflags.token);
    expect(res.body.responseCode).toBe('13');
    expect(await t.db.select().from(accounts).where(and(eq(accounts.customerId, noflags.customerId), eq(accounts.currency, 'BTC')))).toHaveLength(0);
  });

  it('opens a payment account of the crypto currency with an address, then answers the same one again', async () => {
    const res = await call('createWallet', { currencyCode: 'BTC' }, pia.token);
    expect(res.body.responseCode).toBe('00');
    const address = res.body.address as string;
    expect(address).toMatch(WALLET_ADDRESS_PATTERN.BTC);
    const [row] = await t.db.select().from(accounts).where(eq(accounts.accountId, res.body.accountId as number));
    expect(row).toMatchObject({ customerId: pia.customerId, currency: 'BTC', type: 1001, purpose: 'customer', status: 1, address });
    pia.account.BTC = row!.accountId;

    // one account per currency: without accountId the existing wallet answers
    const again = await call('createWallet', { currencyCode: 'BTC' }, pia.token);
    expect(again.body).toMatchObject({ responseCode: '00', accountId: row!.accountId, address });
    const withId = await call('createWallet', { currencyCode: 'BTC', accountId: row!.accountId }, pia.token);
    expect(withId.body).toMatchObject({ responseCode: '00', accountId: row!.accountId, address });
    expect(await t.db.select().from(accounts).where(and(eq(accounts.customerId, pia.customerId), eq(accounts.currency, 'BTC')))).toHaveLength(1);
  });

  it('gives an existing account of the currency an address once', async () => {
    const added = await call('addCurrency', { currencyCode: 'ETH' }, pia.token);
    const accountId = (added.body.account as { accountId: number }).accountId;
    const first = await call('createWallet', { currencyCode: 'ETH', accountId }, pia.token);
    expect(first.body.responseCode).toBe('00');
    expect(first.body.accountId).toBe(accountId);
    expect(first.body.address).toMatch(WALLET_ADDRESS_PATTERN.ETH);
    const second = await call('createWallet', { currencyCode: 'ETH', accountId }, pia.token);
    expect(second.body.address).toBe(first.body.address);
    const [row] = await t.db.select().from(accounts).where(eq(accounts.accountId, accountId));
    expect(row!.address).toBe(first.body.address);
  });

  it('refuses an account of another currency (VF), of another customer or a missing one (ENOA alike), a closed one (CA)', async () => {
    const otherCurrency = await call('createWallet', { currencyCode: 'ETH', accountId: pia.account.EUR }, pia.token);
    expect(otherCurrency.body.responseCode).toBe('VF');
    expect(otherCurrency.body.validationErrors).toEqual([{ param: 'accountId', description: 'is not a ETH account', code: 'notCurrencyAccount', params: { currency: 'ETH' } }]);

    const theirs = await call('addCurrency', { currencyCode: 'BTC' }, carol.token || (await signInPerson(carol)));
    const carolBtc = (theirs.body.account as { accountId: number }).accountId;
    const foreign = await call('createWallet', { currencyCode: 'BTC', accountId: carolBtc }, pia.token);
    expect(foreign.body.responseCode).toBe('ENOA');
    const [untouched] = await t.db.select().from(accounts).where(eq(accounts.accountId, carolBtc));
    expect(untouched!.address).toBeNull();

    // A missing account answers as another customer's (no existence oracle).
    expect((await call('createWallet', { currencyCode: 'BTC', accountId: 9_999_999 }, pia.token)).body).toEqual(foreign.body);

    const closed = await makePerson('Cleo', ['BTC'], true);
    await setFlags(closed.userId, ['funding.digital']);
    await t.db.update(accounts).set({ status: 11 }).where(eq(accounts.accountId, closed.account.BTC!));
    const res = await call('createWallet', { currencyCode: 'BTC', accountId: closed.account.BTC }, closed.token);
    expect(res.body.responseCode).toBe('CA');
    // without accountId the closed one is not reused: a new wallet opens
    const fresh = await call('createWallet', { currencyCode: 'BTC' }, closed.token);
    expect(fresh.body.responseCode).toBe('00');
    expect(fresh.body.accountId).not.toBe(closed.account.BTC);
  });

  it('answers VF for a fiat currency or a bad account id', async () => {
    const fiat = await call('createWallet', { currencyCode: 'EUR' }, pia.token);
    expect((fiat.body.validationErrors as { param: string }[]).map((e) => e.param)).toEqual(['currencyCode']);
    const badId = await call('createWallet', { currencyCode: 'BTC', accountId: 0 }, pia.token);
    expect((badId.body.validationErrors as { param: string }[]).map((e) => e.param)).toEqual(['accountId']);
  });

  it('addresses are unguessable, unique and not an on-chain format', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const btc = newWalletAddress('BTC');
      const eth = newWalletAddress('ETH');
      expect(btc).toMatch(WALLET_ADDRESS_PATTERN.BTC);
      expect(eth).toMatch(WALLET_ADDRESS_PATTERN.ETH);
      expect(btc.startsWith('bc1')).toBe(false);
      expect(eth.startsWith('0x')).toBe(false);
      seen.add(btc).add(eth);
    }
    expect(seen.size).toBe(1000);
  });
});

async function signInPerson(p: Person): Promise<string> {
  const user: DemoUser = { ...demoUserByKey.boris, email: p.email, password: DEMO_PASSWORD };
  p.token = (await signIn(t.app, user)).accessToken;
  return p.token;
}

describe('exchange rates', () => {
  beforeAll(async () => {
    const upsert = async (fromCurrency: string, toCurrency: string, rate: string, isDefault: boolean) =>
      t.db
        .insert(exchangeRates)
        .values({ fromCurrency, toCurrency, rate, isDefault })
        .onConflictDoUpdate({ target: [exchangeRates.fromCurrency, exchangeRates.toCurrency], set: { rate, isDefault } });
    await upsert('EUR', 'USD', '1.0850000000', true);
    await t.db.delete(exchangeRates).where(and(eq(exchangeRates.fromCurrency, 'USD'), eq(exchangeRates.toCurrency, 'EUR')));
    await upsert('GBP', 'RON', '5.8', false);
    await t.db.delete(exchangeRates).where(and(eq(exchangeRates.fromCurrency, 'RON'), eq(exchangeRates.toCurrency, 'GBP')));
    await upsert('AUD', 'CAD', '0.9', true);
    await upsert('CAD', 'AUD', '1.2', true);
    await t.db.delete(exchangeRates).where(eq(exchangeRates.fromCurrency, 'ETH'));
    await t.db.delete(exchangeRates).where(eq(exchangeRates.toCurrency, 'ETH'));
  });

  it('1 for the same currency or a missing one (document 2 §5)', async () => {
    for (const body of [{}, { fromCurrencyCode: 'EUR' }, { toCurrencyCode: 'USD' }, { fromCurrencyCode: 'EUR', toCurrencyCode: 'EUR' }]) {
      const res = await call('exchangeRate', body, pia.token);
      expect(res.body).toEqual({ responseCode: '00', rate: '1' });
    }
  });

  it('the stored pair, trimmed; the stored one wins over the inverse', async () => {
    expect((await call('exchangeRate', { fromCurrencyCode: 'EUR', toCurrencyCode: 'USD' }, pia.token)).body.rate).toBe('1.085');
    expect((await call('exchangeRate', { fromCurrencyCode: 'CAD', toCurrencyCode: 'AUD' }, pia.token)).body.rate).toBe('1.2');
    expect((await call('exchangeRate', { fromCurrencyCode: 'AUD', toCurrencyCode: 'CAD' }, pia.token)).body.rate).toBe('0.9');
    // a non-default pair is still a rate
    expect((await call('exchangeRate', { fromCurrencyCode: 'GBP', toCurrencyCode: 'RON' }, pia.token)).body.rate).toBe('5.8');
  });

  it('only the inverse stored: 1/inverse to 10 decimals', async () => {
    expect((await call('exchangeRate', { fromCurrencyCode: 'USD', toCurrencyCode: 'EUR' }, pia.token)).body.rate).toBe('0.9216589862');
    expect((await call('exchangeRate', { fromCurrencyCode: 'RON', toCurrencyCode: 'GBP' }, pia.token)).body.rate).toBe('0.1724137931');
  });

  it('neither stored: 1', async () => {
    expect((await call('exchangeRate', { fromCurrencyCode: 'ETH', toCurrencyCode: 'EUR' }, pia.token)).body.rate).toBe('1');
  });

  it('answers VF for an unknown currency', async () => {
    const res = await call('exchangeRate', { fromCurrencyCode: 'XYZ', toCurrencyCode: 'ABC' }, pia.token);
    expect(res.body.responseCode).toBe('VF');
    expect((res.body.validationErrors as { param: string }[]).map((e) => e.param).sort()).toEqual(['fromCurrencyCode', 'toCurrencyCode']);
  });

  it('rate arithmetic: half up, trimmed, never zero', () => {
    expect(invertRate('3')).toBe('0.3333333333');
    expect(invertRate('6')).toBe('0.1666666667');
    expect(invertRate('0.5')).toBe('2');
    expect(invertRate('0.0000000001')).toBe('10000000000');
    expect(invertRate('30000000000')).toBe('0.0000000001');
    expect(invertRate('0')).toBeNull();
    expect(invertRate('1.2.3')).toBeNull();
    expect(normaliseRate('1.0850000000')).toBe('1.085');
    expect(normaliseRate('2.0')).toBe('2');
    expect(normaliseRate('0.000')).toBeNull();
  });

  it('defaultExchangeRates: the default rows, ordered by pair', async () => {
    const res = await call('defaultExchangeRates', {}, pia.token);
    expect(res.body.responseCode).toBe('00');
    const rates = res.body.rates as { fromCurrencyCode: string; toCurrencyCode: string; rate: string; updatedAt: string }[];
    const pairs = rates.map((r) => `${r.fromCurrencyCode}>${r.toCurrencyCode}`);
    expect(pairs).toEqual([...pairs].sort());
    expect(rates).toContainEqual(expect.objectContaining({ fromCurrencyCode: 'EUR', toCurrencyCode: 'USD', rate: '1.085' }));
    expect(pairs).toContain('AUD>CAD');
    expect(pairs).toContain('CAD>AUD');
    expect(pairs).not.toContain('GBP>RON');
    const stored = await t.db.select().from(exchangeRates).where(eq(exchangeRates.isDefault, true));
    expect(rates).toHaveLength(stored.length);
    expect(Number.isNaN(Date.parse(rates[0]!.updatedAt))).toBe(false);
  });
});

describe('checkPayee', () => {
  const check = async (email: string, token = pia.token) => (await call('checkPayee', { email }, token)).body;

  it('a customer who can receive: exists, with the display name', async () => {
    expect(await check(boris.email)).toEqual({ responseCode: '00', exist: true, exists: true, isEmployee: false, outBlacklist: false, name: 'Boris Petrov' });
    // the e-mail is compared lower-cased and trimmed
    expect(await check('  BORIS@Demo.Test ')).toMatchObject({ exist: true, exists: true, name: 'Boris Petrov' });
  });

  it('a business payee shows the business name', async () => {
    // the owner's own customer is Northwind
    expect(await check(demoUserByKey.owner.email)).toMatchObject({ exist: true, exists: true, isEmployee: false, name: NORTHWIND_NAME });
  });

  it('a payee without an open account cannot receive', async () => {
    const ivy = await makePerson('Ivy', [], false);
    expect(await check(ivy.email)).toEqual({ responseCode: '00', exist: true, exists: false, isEmployee: false, outBlacklist: false, name: null });
    await t.db.insert(accounts).values({ type: 1001, currency: 'EUR', customerId: ivy.customerId });
    expect(await check(ivy.email)).toMatchObject({ exist: true, exists: true, name: 'Ivy Tester' });
  });

  it('no such user: all false, no name', async () => {
    expect(await check('nobody@catalog.test')).toEqual({ responseCode: '00', exist: false, exists: false, isEmployee: false, outBlacklist: false, name: null });
  });

  it('the caller itself: exists but cannot receive, and is its own customer user', async () => {
    expect(await check(pia.email)).toEqual({ responseCode: '00', exist: true, exists: false, isEmployee: true, outBlacklist: false, name: null });
  });

  it('a disabled, not activated, or account-less payee cannot receive', async () => {
    expect(await check(dave.email)).toMatchObject({ exist: true, exists: true, name: 'Dave Tester' });
    await t.db.update(users).set({ disabled: true }).where(eq(users.id, dave.userId));
    expect(await check(dave.email)).toEqual({ responseCode: '00', exist: true, exists: false, isEmployee: false, outBlacklist: false, name: null });
    await t.db.update(users).set({ disabled: false, activated: false }).where(eq(users.id, dave.userId));
    expect(await check(dave.email)).toMatchObject({ exist: true, exists: false });
    await t.db.update(users).set({ activated: true }).where(eq(users.id, dave.userId));
    await t.db.update(accounts).set({ status: 11 }).where(eq(accounts.customerId, dave.customerId));
    expect(await check(dave.email)).toMatchObject({ exist: true, exists: false });
    await t.db.update(accounts).set({ status: 1 }).where(eq(accounts.customerId, dave.customerId));
    expect(await check(dave.email)).toMatchObject({ exist: true, exists: true });
  });

  it("outBlacklist: the payee's blacklist holds the sender's e-mail (any case)", async () => {
    expect(await check(erin.email)).toMatchObject({ outBlacklist: false });
    await t.db.insert(blacklist).values({ customerId: erin.customerId, email: pia.email.toUpperCase() });
    expect(await check(erin.email)).toMatchObject({ exist: true, exists: true, outBlacklist: true });
    // another sender is not blocked
    expect(await check(erin.email, noflags.token)).toMatchObject({ outBlacklist: false });
  });

  it("isEmployee: a user of the company the caller acts for", async () => {
    const clerk = await call('checkPayee', { email: demoUserByKey.clerk.email, fromCustomerId: northwindId }, ownerToken);
    expect(clerk.body).toMatchObject({ responseCode: '00', exist: true, isEmployee: true });
    const notForPia = await call('checkPayee', { email: demoUserByKey.clerk.email }, pia.token);
    expect(notForPia.body).toMatchObject({ exist: true, isEmployee: false });
  });

  it('answers VF for something that is not an e-mail', async () => {
    for (const email of ['nope', '', 'a@']) {
      const res = await call('checkPayee', { email }, pia.token);
      expect(res.body.responseCode).toBe('VF');
      expect((res.body.validationErrors as { param: string }[]).map((e) => e.param)).toEqual(['email']);
    }
  });

  it('is capped per user per minute, against e-mail enumeration', async () => {
    for (let i = 0; i < CHECK_PAYEE_PER_MINUTE; i++) {
      expect((await call('checkPayee', { email: `guess${i}@catalog.test` }, limited.token)).body.responseCode).toBe('00');
    }
    const refused = await call('checkPayee', { email: boris.email }, limited.token);
    expect(refused.body).toMatchObject({ responseCode: 'UE', responseDescription: 'Too many requests: try again in a minute' });
    expect(refused.body.exist).toBeUndefined();
    // another user is not affected
    expect((await call('checkPayee', { email: boris.email }, noflags.token)).body.responseCode).toBe('00');
    clock += 60_001;
    expect((await call('checkPayee', { email: boris.email }, limited.token)).body.responseCode).toBe('00');
  });
});

describe('recentTransfers', () => {
  const base = Date.UTC(2026, 1, 1, 12);
  let minute = 0;
  async function transfer(
    from: Person,
    values: { kind: 'betweenAccounts' | 'p2p'; to: Person; toAccountId?: number; status?: 'posted' | 'pending' | 'rejected' | 'canceled'; amountMinor?: bigint; templateName?: string; toEmail?: string },
  ) {
    const toAccountId = values.toAccountId ?? values.to.account.EUR!;
    const at = new Date(base + ++minute * 60_000);
    await t.db.insert(transfers).values({
      kind: values.kind,
      status: values.status ?? 'posted',
      customerId: from.customerId,
      userId: from.userId,
      fromAccountId: from.account.EUR!,
      toAccountId,
      toCustomerId: values.to.customerId,
      fromCurrency: 'EUR',
      toCurrency: 'EUR',
      amountMinor: values.amountMinor ?? 1000n,
      toAmountMinor: values.amountMinor ?? 1000n,
      approveType: 'none',
      toEmail: values.kind === 'p2p' ? (values.toEmail ?? values.to.email) : null,
      templateName: values.templateName ?? null,
      expiresAt: new Date(at.getTime() + 3_600_000),
      createdAt: at,
      updatedAt: at,
    });
  }
  let frank: Person; // a payee with a closed account
  let piaGbp: number;

  beforeAll(async () => {
    // The payees of these transfers start able to receive.
    await t.db.update(users).set({ disabled: false, activated: true }).where(eq(users.id, dave.userId));
    frank = await makePerson('Frank', ['EUR'], false);
    const [gbp] = await t.db.insert(accounts).values({ type: 1001, currency: 'GBP', customerId: pia.customerId, status: 11 }).returning();
    piaGbp = gbp!.accountId;
    await transfer(pia, { kind: 'betweenAccounts', to: pia, toAccountId: pia.account.USD!, amountMinor: 1000n });
    await transfer(pia, { kind: 'betweenAccounts', to: pia, toAccountId: pia.account.USD!, amountMinor: 2000n });
    await transfer(pia, { kind: 'p2p', to: boris, amountMinor: 500n, templateName: 'Rent 100%', toEmail: 'Boris@Demo.test' });
    await transfer(pia, { kind: 'p2p', to: carol, amountMinor: 750n, status: 'pending' });
    await transfer(pia, { kind: 'p2p', to: dave, amountMinor: 100n }); // dave gets disabled below
    await transfer(pia, { kind: 'p2p', to: erin, amountMinor: 100n }); // erin blacklists pia (above)
    await transfer(pia, { kind: 'betweenAccounts', to: pia, toAccountId: piaGbp, amountMinor: 100n }); // closed account
    await transfer(pia, { kind: 'p2p', to: frank, amountMinor: 100n }); // frank's account gets closed
    await transfer(pia, { kind: 'p2p', to: boris, amountMinor: 9900n, status: 'rejected' }); // voided: not recent
    await transfer(pia, { kind: 'p2p', to: carol, amountMinor: 9900n, status: 'canceled' });
    await transfer(boris, { kind: 'p2p', to: pia, amountMinor: 300n }); // boris's, not pia's
    await t.db.update(users).set({ disabled: true }).where(eq(users.id, dave.userId));
    await t.db.update(accounts).set({ status: 11 }).where(eq(accounts.accountId, frank.account.EUR!));
  });

  const recent = async (body: Record<string, unknown> = {}, token = pia.token) => {
    const res = await call('recentTransfers', body, token);
    expect(res.body.responseCode).toBe('00');
    return res.body.transfers as Record<string, unknown>[];
  };
  const who = (list: Record<string, unknown>[]) => list.map((r) => (r.type === 'p2p' ? r.toEmail : `#${r.toAccountId}`));

  it('the most recent per destination, newest first, 3 by default, disabled ones hidden', async () => {
    const list = await recent();
    expect(who(list)).toEqual([carol.email, 'Boris@Demo.test', `#${pia.account.USD}`]);
    expect(list[0]).toEqual({
      permission: '3d',
      type: 'p2p',
      isDisabled: false,
      templateName: null,
      toEmail: carol.email,
      toName: 'Carol Tester',
      fromAccountId: pia.account.EUR,
      toAccountId: null,
      amount: '7.50',
      currency: 'EUR',
      date: new Date(base + 4 * 60_000).toISOString(),
    });
    expect(list[1]).toMatchObject({ permission: '3d', templateName: 'Rent 100%', toName: 'Boris Petrov', amount: '5.00' });
    // the later of the two transfers to the own USD account
    expect(list[2]).toMatchObject({ permission: 'own', type: 'betweenAccounts', toAccountId: pia.account.USD, toEmail: null, toName: null, amount: '20.00' });
  });

  it('hidden destinations do not take places: a larger limit still answers only the three', async () => {
    expect(who(await recent({ limit: 50 }))).toEqual([carol.email, 'Boris@Demo.test', `#${pia.account.USD}`]);
    expect(who(await recent({ limit: 1 }))).toEqual([carol.email]);
  });

  it('a destination that can receive again shows again', async () => {
    await t.db.update(users).set({ disabled: false }).where(eq(users.id, dave.userId));
    await t.db.update(accounts).set({ status: 1 }).where(eq(accounts.accountId, piaGbp));
    expect(who(await recent({ limit: 50 }))).toEqual([`#${piaGbp}`, dave.email, carol.email, 'Boris@Demo.test', `#${pia.account.USD}`]);
    await t.db.delete(blacklist).where(eq(blacklist.customerId, erin.customerId));
    expect(who(await recent({ limit: 50 }))).toContain(erin.email);
    // back as before for the other cases
    await t.db.insert(blacklist).values({ customerId: erin.customerId, email: pia.email });
    await t.db.update(users).set({ disabled: true }).where(eq(users.id, dave.userId));
    await t.db.update(accounts).set({ status: 11 }).where(eq(accounts.accountId, piaGbp));
    expect(who(await recent({ limit: 50 }))).toHaveLength(3);
  });

  it('filters by type and by permission', async () => {
    expect(who(await recent({ types: ['betweenAccounts'], limit: 50 }))).toEqual([`#${pia.account.USD}`]);
    expect(who(await recent({ types: ['p2p'], limit: 50 }))).toEqual([carol.email, 'Boris@Demo.test']);
    expect(who(await recent({ permission: 'own', limit: 50 }))).toEqual([`#${pia.account.USD}`]);
    expect(who(await recent({ permission: '3d', limit: 50 }))).toEqual([carol.email, 'Boris@Demo.test']);
    expect(who(await recent({ types: ['betweenAccounts'], permission: '3d' }))).toEqual([]);
  });

  it('search: e-mail, name or template name, case-insensitive, wildcards taken literally', async () => {
    expect(who(await recent({ search: 'CAROL@' }))).toEqual([carol.email]);
    expect(who(await recent({ search: 'petrov' }))).toEqual(['Boris@Demo.test']);
    expect(who(await recent({ search: 'rent' }))).toEqual(['Boris@Demo.test']);
    expect(who(await recent({ search: '100%' }))).toEqual(['Boris@Demo.test']);
    expect(who(await recent({ search: '%' }))).toEqual(['Boris@Demo.test']);
    expect(who(await recent({ search: '_' }))).toEqual([]);
    expect(who(await recent({ search: 'dave' }))).toEqual([]); // hidden, even when searched
    expect(who(await recent({ search: '   ' }))).toHaveLength(3);
  });

  it("another customer's transfers are not in the answer", async () => {
    const list = await recent({ limit: 50 }, boris.token);
    expect(who(list)).toContain(pia.email);
    expect(who(list)).not.toContain(carol.email);
    expect(who(list)).not.toContain(`#${pia.account.USD}`);
  });

  it('answers VF for a bad limit or type', async () => {
    for (const body of [{ limit: 0 }, { limit: 51 }, { types: ['pigeon'] }, { countryCode: 'DEU' }, { permission: 'all' }, { search: 'x'.repeat(101) }]) {
      const res = await call('recentTransfers', body, pia.token);
      expect(res.body.responseCode).toBe('VF');
      expect(res.body.validationErrors).toHaveLength(1);
    }
  });
});

describe('pre-approved payments', () => {
  const ids: Record<string, number> = {};
  async function schedule(
    owner: Person,
    values: { kind: 'betweenAccounts' | 'p2p'; to: number; request: Record<string, unknown>; status?: 'active' | 'finished' | 'canceled' | 'awaitingApproval'; userCancel?: boolean },
  ) {
    const [row] = await t.db
      .insert(transferSchedules)
      .values({
        kind: values.kind,
        customerId: owner.customerId,
        userId: owner.userId,
        fromAccountId: owner.account.EUR!,
        toAccountId: values.to,
        request: values.request,
        frequency: 'monthly',
        endDate: '2026-12-31',
        transactionsTotal: 12,
        transactionsDone: 1,
        userCancel: values.userCancel ?? true,
        status: values.status ?? 'active',
        nextRunAt: new Date(Date.UTC(2026, 2, 1)),
      })
      .returning();
    return row!.id;
  }

  beforeAll(async () => {
    ids.own = await schedule(pia, { kind: 'betweenAccounts', to: pia.account.USD!, request: { toAmount: '15.00', currency: 'EUR' } });
    ids.boris = await schedule(pia, { kind: 'p2p', to: boris.account.EUR!, request: { amount: '2.50', currency: 'EUR', toEmail: boris.email }, userCancel: false });
    ids.carol = await schedule(pia, { kind: 'p2p', to: carol.account.EUR!, request: { amount: '100.00', currency: 'EUR', toEmail: carol.email }, status: 'finished' });
    ids.theirs = await schedule(boris, { kind: 'p2p', to: pia.account.EUR!, request: { amount: '1.00', currency: 'EUR', toEmail: pia.email } });
  });

  const list = async (body: Record<string, unknown> = {}, token = pia.token) => {
    const res = await call('preapprovedList', body, token);
    expect(res.body.responseCode).toBe('00');
    return res.body as unknown as { subscriptions: Record<string, unknown>[]; total: number };
  };

  it("lists the customer's schedules, newest first, in the subscription shape", async () => {
    const answer = await list();
    expect(answer.total).toBe(3);
    expect(answer.subscriptions.map((s) => s.id)).toEqual([ids.carol, ids.boris, ids.own]);
    expect(answer.subscriptions[2]).toEqual({
      id: ids.own,
      type: 'betweenAccounts',
      amount: '15.00',
      currency: 'EUR',
      toAccount: pia.account.USD,
      beneficiaryEmail: null,
      frequency: 'monthly',
      status: 'active',
      transactionsDone: 1,
      transactionsTotal: 12,
      endDate: '2026-12-31',
      nextRunAt: new Date(Date.UTC(2026, 2, 1)).toISOString(),
      userCancel: true,
    });
    // a p2p schedule shows the payee's e-mail, not their account; a finished one has no next run
    expect(answer.subscriptions[0]).toMatchObject({ type: 'p2p', amount: '100.00', toAccount: null, beneficiaryEmail: carol.email, status: 'finished', nextRunAt: null });
  });

  it('filters by type, beneficiary e-mail and amount, and pages', async () => {
    expect((await list({ type: 'p2p' })).subscriptions.map((s) => s.id)).toEqual([ids.carol, ids.boris]);
    expect((await list({ beneficiaryEmail: 'BORIS' })).subscriptions.map((s) => s.id)).toEqual([ids.boris]);
    expect((await list({ beneficiaryEmail: '%' })).total).toBe(0);
    expect((await list({ fromAmount: '10' })).subscriptions.map((s) => s.id)).toEqual([ids.carol, ids.own]);
    expect((await list({ toAmount: '10' })).subscriptions.map((s) => s.id)).toEqual([ids.boris]);
    expect((await list({ fromAmount: '10', toAmount: '50.5' })).subscriptions.map((s) => s.id)).toEqual([ids.own]);
    const page2 = await list({ pageSize: 1, pageNumber: 2 });
    expect(page2).toEqual({ responseCode: '00', subscriptions: [expect.objectContaining({ id: ids.boris })], total: 3 });
    expect((await list({ pageNumber: 9 })).subscriptions).toEqual([]);
  });

  it(`pages by ${PREAPPROVED_DEFAULT_PAGE_SIZE} without a pageSize`, async () => {
    const many = await makePerson('Molly', ['EUR'], true);
    for (let i = 0; i < PREAPPROVED_DEFAULT_PAGE_SIZE + 1; i++) {
      await schedule(many, { kind: 'betweenAccounts', to: many.account.EUR!, request: { toAmount: '1.00', currency: 'EUR' } });
    }
    const answer = await list({}, many.token);
    expect(answer.total).toBe(PREAPPROVED_DEFAULT_PAGE_SIZE + 1);
    expect(answer.subscriptions).toHaveLength(PREAPPROVED_DEFAULT_PAGE_SIZE);
  });

  it('answers VF for bad filters', async () => {
    for (const body of [{ pageSize: 51 }, { pageNumber: 0 }, { fromAmount: '-1' }, { toAmount: 'ten' }, { type: 'wire' }]) {
      const res = await call('preapprovedList', body, pia.token);
      expect(res.body.responseCode).toBe('VF');
    }
  });

  it('cancels a cancelable schedule once', async () => {
    const res = await call('preapprovedCancel', { id: ids.own }, pia.token);
    expect(res.body.responseCode).toBe('00');
    expect(res.body.subscription).toMatchObject({ id: ids.own, status: 'canceled', nextRunAt: null });
    const [row] = await t.db.select().from(transferSchedules).where(eq(transferSchedules.id, ids.own!));
    expect(row!.status).toBe('canceled');
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.method, 'preapprovedCancel'));
    expect(audit.map((a) => a.details)).toContainEqual({ scheduleId: ids.own, from: 'active' });
    const again = await call('preapprovedCancel', { id: ids.own }, pia.token);
    expect(again.body.responseCode).toBe('TA1');
  });

  it('refuses one the customer may not cancel, a finished one (TA1), a missing one and another customer\'s (ENOA alike)', async () => {
    expect((await call('preapprovedCancel', { id: ids.boris }, pia.token)).body).toMatchObject({ responseCode: 'TA1', responseDescription: 'This pre-approved payment cannot be canceled' });
    expect((await call('preapprovedCancel', { id: ids.carol }, pia.token)).body.responseCode).toBe('TA1');
    const another = await call('preapprovedCancel', { id: ids.theirs }, pia.token);
    expect(another.body.responseCode).toBe('ENOA');
    expect((await call('preapprovedCancel', { id: 9_999_999 }, pia.token)).body).toEqual(another.body);
    expect((await call('preapprovedCancel', { id: 0 }, pia.token)).body.responseCode).toBe('VF');
    const [theirs] = await t.db.select().from(transferSchedules).where(eq(transferSchedules.id, ids.theirs!));
    expect(theirs!.status).toBe('active');
    const [stillActive] = await t.db.select().from(transferSchedules).where(eq(transferSchedules.id, ids.boris!));
    expect(stillActive!.status).toBe('active');
    // the owner can
    expect((await call('preapprovedCancel', { id: ids.theirs }, boris.token)).body.responseCode).toBe('00');
  });
});
