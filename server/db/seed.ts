/**
 * Reference data for every database, and demo data (demo mode only, server/modules/platform/demo-mode.ts)
 * for an empty one: the demo users of demo-users.ts, their customers, Northwind's
 * authorised users, the terms (accepted by every demo customer), the reference dictionaries, and
 * accounts whose opening balances come from balanced journal entries against the provider's
 * capital accounts (money never appears from nowhere).
 *
 * Money reference data (the provider's capital/fee/fx accounts of every currency, exchange rates,
 * fee rules, limits) is ensured on every start, also for a database seeded before it existed;
 * rows already there are left as an operator may have changed them.
 */
import { count } from 'drizzle-orm';
import { CRYPTO_CURRENCIES, CURRENCIES, FIAT_CURRENCIES, type PermissionFlag } from '../../api/transfers.ts';
import { seedDictionaries } from '../modules/dictionaries/dictionaries.seed.ts';
import { accounts } from '../modules/accounts/accounts.tables.ts';
import { bookEntry, ensureProviderAccounts, providerAccountId } from '../modules/accounts/ledger.ts';
import { decimalToMinor } from '../modules/accounts/money.ts';
import { customerAccess, customers, phones, terms, termsAcceptances, users } from '../modules/customers/customers.tables.ts';
import { recoveryCodes, ssoClients } from '../modules/auth/auth.tables.ts';
import { customerAddresses } from '../modules/profile/profile.tables.ts';
import { exchangeRates, feeRules, transferLimits } from '../modules/transfers/transfers.tables.ts';
import { blockedCardBins } from '../modules/rails/rails.tables.ts';
import { DEMO_SSO_CLIENT_ID, DEMO_SSO_CLIENT_NAME, DEMO_SSO_REDIRECT_PATH } from '../modules/security/sso.service.ts';
import { dummyPasswordHash, hashPassword, recoveryCodeHash } from '../modules/auth/crypto.ts';
import { seedDemoCards } from '../modules/cards/demo-cards.ts';
import { seedNorthwindStructure } from '../modules/business/demo-structure.ts';
import { demoPersonAnswers, seedDemoTax } from '../modules/tax/demo-tax.ts';
import { seedDemoContracts } from '../modules/contracts/demo-contracts.ts';
import { seedDemoSupport } from '../modules/support/demo-support.ts';
import { seedDemoNotifications } from '../modules/notifications/demo-notifications.ts';
import type { PersonalCertification } from '../../api/tax-certification.ts';
import { activeVariant } from '../../variants/index.ts';
import { seedDemoHistory, type HistoryAccount, type HistoryAccountKey, type DemoHistoryInput } from './demo-history.ts';
import { DEMO_MONEY_FLAGS, demoUserByKey as demoUsers, NORTHWIND_NAME } from './demo-users.ts';
import type { Db, Tx } from './types.ts';

/** The demo's blocked card BIN (blocked_card_bins). */
export const DEMO_BLOCKED_BIN = '400005';

/** The demo users' money flags as stored (users.money_permissions, customer_access.money_permissions). */
const moneyFlags: Record<PermissionFlag, boolean> = Object.fromEntries(DEMO_MONEY_FLAGS.map((f) => [f, true])) as Record<PermissionFlag, boolean>;

/**
 * Demo exchange rates: US dollars per unit of each currency (fixed, realistic values). The rate of
 * every ordered pair is derived from them (from / to, 10 decimals, half-even), so a pair and its
 * inverse agree to the table's precision.
 */
const USD_PER_UNIT: Readonly<Record<(typeof CURRENCIES)[number], string>> = {
  EUR: '1.08',
  USD: '1',
  AUD: '0.66',
  CAD: '0.73',
  GBP: '1.27',
  RON: '0.217',
  BTC: '65000',
  ETH: '3200',
};
const RATE_DECIMALS = 10;

/** a / b of two decimal strings to RATE_DECIMALS decimals, rounded half-even. */
function divideDecimals(a: string, b: string): string {
  const scale = (x: string) => {
    const [whole, fraction = ''] = x.split('.');
    return { units: BigInt(whole! + fraction), decimals: fraction.length };
  };
  const n = scale(a);
  const d = scale(b);
  // a/b = (n.units / 10^n.dec) / (d.units / 10^d.dec); times 10^RATE_DECIMALS as an integer.
  const numerator = n.units * 10n ** BigInt(RATE_DECIMALS + d.decimals);
  const denominator = d.units * 10n ** BigInt(n.decimals);
  let q = numerator / denominator;
  const r = numerator % denominator;
  if (2n * r > denominator || (2n * r === denominator && q % 2n === 1n)) q += 1n;
  const digits = q.toString().padStart(RATE_DECIMALS + 1, '0');
  const whole = digits.slice(0, -RATE_DECIMALS);
  const fraction = digits.slice(-RATE_DECIMALS).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Fee rules and limits of the demo provider, per currency kind (minor units of that currency). */
const FIAT_RULES = {
  betweenAccounts: { fixedMinor: 0n, basisPoints: 0, minMinor: 0n, maxMinor: null },
  // 0.5%, at least 0.50
  exchange: { fixedMinor: 0n, basisPoints: 50, minMinor: 50n, maxMinor: null },
  // 0.2% + 0.10, at most 20.00
  p2p: { fixedMinor: 10n, basisPoints: 20, minMinor: 0n, maxMinor: 2000n },
} as const;
const CRYPTO_RULES = {
  betweenAccounts: { fixedMinor: 0n, basisPoints: 0, minMinor: 0n, maxMinor: null },
  // 0.5%, at least 0.00001 (1,000 units of 1e-8)
  exchange: { fixedMinor: 0n, basisPoints: 50, minMinor: 1000n, maxMinor: null },
  // 0.2% + 0.000002, at most 0.001
  p2p: { fixedMinor: 200n, basisPoints: 20, minMinor: 0n, maxMinor: 100_000n },
} as const;
/**
 * Payout fees by rail (issue 15: fee policy per rail as data): a wire 5.00, a local bank transfer
 * 0.50, a card payout 1 % (at least 1.00), an instant payment 0.25, Interac 1.00 (fiat); a crypto
 * payout the network fee, 0.0001 BTC or 0.001 ETH (units of 1e-8).
 */
const FIAT_PAYOUT_RULES = {
  wire: { fixedMinor: 500n, basisPoints: 0, minMinor: 0n, maxMinor: null },
  eft: { fixedMinor: 50n, basisPoints: 0, minMinor: 0n, maxMinor: null },
  oct: { fixedMinor: 0n, basisPoints: 100, minMinor: 100n, maxMinor: null },
  instant: { fixedMinor: 25n, basisPoints: 0, minMinor: 0n, maxMinor: null },
  interac: { fixedMinor: 100n, basisPoints: 0, minMinor: 0n, maxMinor: null },
} as const;
const CRYPTO_PAYOUT_FEE: Readonly<Record<(typeof CRYPTO_CURRENCIES)[number], bigint>> = { BTC: 10_000n, ETH: 100_000n };
/** Per transfer at least 0.01 and at most 10,000; 25,000 a day (fiat); crypto in units of 1e-8. */
const FIAT_LIMITS = { minMinor: 1n, maxMinor: 1_000_000n, dailyMinor: 2_500_000n };
const CRYPTO_LIMITS: Readonly<Record<(typeof CRYPTO_CURRENCIES)[number], typeof FIAT_LIMITS>> = {
  BTC: { minMinor: 1_000n, maxMinor: 100_000_000n, dailyMinor: 250_000_000n },
  ETH: { minMinor: 10_000n, maxMinor: 2_000_000_000n, dailyMinor: 5_000_000_000n },
};

/** Rates, fee rules and limits: inserted where missing, never overwritten. */
export async function ensureMoneyReference(db: Db | Tx): Promise<void> {
  const rates = CURRENCIES.flatMap((from) =>
    CURRENCIES.filter((to) => to !== from).map((to) => ({ fromCurrency: from, toCurrency: to, rate: divideDecimals(USD_PER_UNIT[from], USD_PER_UNIT[to]) })),
  );
  await db.insert(exchangeRates).values(rates).onConflictDoNothing();
  const isCrypto = (c: string) => (CRYPTO_CURRENCIES as readonly string[]).includes(c);
  const fees = CURRENCIES.flatMap((currency) =>
    Object.entries(isCrypto(currency) ? CRYPTO_RULES : FIAT_RULES).map(([operation, rule]) => ({ operation, currency, ...rule })),
  );
  await db.insert(feeRules).values(fees).onConflictDoNothing();
  const payoutFees = [
    ...FIAT_CURRENCIES.flatMap((currency) => Object.entries(FIAT_PAYOUT_RULES).map(([operation, rule]) => ({ operation, currency, ...rule }))),
    ...CRYPTO_CURRENCIES.map((currency) => ({ operation: 'digital', currency, fixedMinor: CRYPTO_PAYOUT_FEE[currency], basisPoints: 0, minMinor: 0n, maxMinor: null })),
  ];
  await db.insert(feeRules).values(payoutFees).onConflictDoNothing();
  const limits = CURRENCIES.flatMap((currency) => {
    const crypto = isCrypto(currency);
    const limit = crypto ? CRYPTO_LIMITS[currency as (typeof CRYPTO_CURRENCIES)[number]] : FIAT_LIMITS;
    const operations = crypto ? ['betweenAccounts', 'p2p', 'digital'] : ['betweenAccounts', 'p2p', ...Object.keys(FIAT_PAYOUT_RULES)];
    return operations.map((operation) => ({ operation, currency, ...limit }));
  });
  await db.insert(transferLimits).values(limits).onConflictDoNothing();
}

export const SEED_TERMS = [
  { termId: 1, version: 1, title: 'General terms and conditions', url: '/legal' },
  { termId: 2, version: 1, title: 'Privacy policy', url: '/legal' },
] as const;

/** The terms every customer accepts, when the database has none yet (an operator publishes their own later). */
async function ensureTerms(db: Db | Tx): Promise<void> {
  const [row] = await db.select({ n: count() }).from(terms);
  if ((row?.n ?? 0) === 0) await db.insert(terms).values(SEED_TERMS.map((t) => ({ ...t, required: true })));
}

export interface SeedOptions {
  /**
   * Demo mode (server/modules/platform/demo-mode.ts): the demo users, their customers and accounts
   * and the demo SSO partner, into a database that holds no user yet. Never outside demo mode:
   * their passwords and TOTP secrets are published in the README.
   */
  demo: boolean;
  /**
   * The seeding moment (ms, default now): the demo history (demo-history.ts) ends on its day. Only
   * the tests set it, to compare two seedings.
   */
  now?: number;
  /**
   * With the demo people, their year of history (default true). false: their accounts hold their
   * usual balances from opening entries booked now, and nothing else happened; for the test suites
   * that build exact history fixtures of their own around the demo users.
   */
  history?: boolean;
}

/**
 * Reference data at every start (dictionaries, the provider's accounts, money reference data, the
 * terms); in demo mode also the demo people when the database holds no user yet. Returns whether
 * it seeded the demo people.
 */
export async function seedDatabase(db: Db, { demo, now = Date.now(), history = true }: SeedOptions): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  const empty = (row?.n ?? 0) === 0;
  if (!demo || !empty) {
    // Dictionaries are idempotent upserts: re-running keeps names current after an upgrade.
    await seedDictionaries(db);
    await db.transaction(async (tx) => {
      await ensureProviderAccounts(tx);
      await ensureMoneyReference(tx);
      await ensureTerms(tx);
    });
    return false;
  }
  // One argon2 hash for every demo user: they share the demo password, and hashing is slow.
  const passwordHash = await hashPassword(demoUsers.anna.password);
  // The merchants of the demo history never sign in: a hash of a password nobody knows.
  const merchantPasswordHash = await dummyPasswordHash();
  await db.transaction(async (tx) => {
    await seedDictionaries(tx);
    await ensureMoneyReference(tx);
    // The people and their history in one transaction: a database is seeded in full or not at all.
    const people = await seedPeople(tx, passwordHash, merchantPasswordHash, now);
    // a range the demo provider does not pay out to: a card payout to 4000 05... (such as the test card 4000 0566 5566 5556) is refused (cardBinBlocked)
    await tx.insert(blockedCardBins).values({ bin: DEMO_BLOCKED_BIN, reason: 'Demo: a prepaid-debit range the provider does not pay out to' }).onConflictDoNothing();
    if (history) await seedDemoHistory(tx, people);
    else await bookOpeningBalances(tx, people);
    // the demo cards (issue 16): sam's virtual and physical card
    await seedDemoCards(tx, now);
  });
  return true;
}

/** The demo people; returns what their history needs (demo-history.ts). */
async function seedPeople(tx: Tx, passwordHash: string, merchantPasswordHash: string, now: number): Promise<DemoHistoryInput> {
  const insertCustomer = async (values: typeof customers.$inferInsert) => {
    const [c] = await tx.insert(customers).values(values).returning({ id: customers.id });
    return c!.id;
  };
  const insertUser = async (values: Omit<typeof users.$inferInsert, 'passwordHash'>) => {
    const [u] = await tx
      .insert(users)
      .values({ ...values, passwordHash })
      .returning({ id: users.id });
    return u!.id;
  };

  // The provider (customer 1) and its capital, fee and fx accounts come first, as on a database a
  // start outside demo mode set up before (ensureProviderAccounts keeps what is there).
  await ensureProviderAccounts(tx);

  const annaCustomer = await insertCustomer({
    customerType: 'personal',
    firstName: 'Anna',
    lastName: 'Kowalska',
    birthDay: '1990-04-12',
    residenceCountryCode: 'LT',
    taxId: '49004120123',
    verified: true,
    dueDiligenceLevel: 2,
    transactionApproveMode: 'otp',
    twoStepVerificationMode: 3,
  });
  const borisCustomer = await insertCustomer({
    customerType: 'personal',
    firstName: 'Boris',
    lastName: 'Petrov',
    birthDay: '1985-11-03',
    residenceCountryCode: 'RO',
    verified: false,
    language: 'ro',
  });
  const northwind = await insertCustomer({
    customerType: 'business',
    firstName: 'Olivia',
    lastName: 'Owens',
    businessName: NORTHWIND_NAME,
    residenceCountryCode: 'GB',
    taxId: 'GB123456789',
    verified: true,
    dueDiligenceLevel: 2,
    transactionApproveMode: 'otp',
    twoStepVerificationMode: 3,
  });
  // The two-step method Settings shows follows each user's second sign-in step (authenticator 3, SMS 2).
  const authenticator = { transactionApproveMode: 'otp', twoStepVerificationMode: 3 } as const;
  // Authorised users have their own (business-type) customer record holding their person.
  const clerkCustomer = await insertCustomer({ customerType: 'business', firstName: 'Carl', lastName: 'Clarke', verified: true, ...authenticator });
  const viewerCustomer = await insertCustomer({ customerType: 'business', firstName: 'Vera', lastName: 'Vance', verified: true, ...authenticator });
  const adminCustomer = await insertCustomer({ customerType: 'personal', firstName: 'Ada', lastName: 'Admin', verified: true, ...authenticator });
  const samCustomer = await insertCustomer({
    customerType: 'personal',
    firstName: 'Sam',
    lastName: 'Sidorov',
    residenceCountryCode: 'LT',
    verified: true,
    transactionApproveMode: 'sms',
    twoStepVerificationMode: 2,
  });
  const milaCustomer = await insertCustomer({ customerType: 'personal', firstName: 'Mila', lastName: 'Marin', residenceCountryCode: 'RO', verified: true, ...authenticator });

  const full = { balanceInfo: true, transfers: true, manageUsers: true, documents: true } as const;
  const annaId = await insertUser({
    email: demoUsers.anna.email,
    totpSecret: demoUsers.anna.totpSecret,
    login2faMode: 'otp',
    userType: 1,
    customerId: annaCustomer,
    permissions: { balanceInfo: true, transfers: true },
    moneyPermissions: moneyFlags,
  });
  const borisId = await insertUser({
    email: demoUsers.boris.email,
    totpSecret: null,
    login2faMode: 'no',
    userType: 1,
    customerId: borisCustomer,
    permissions: { balanceInfo: true, transfers: false },
  });
  const ownerId = await insertUser({
    email: demoUsers.owner.email,
    totpSecret: demoUsers.owner.totpSecret,
    login2faMode: 'otp',
    userType: 2,
    customerId: northwind,
    permissions: full,
    moneyPermissions: moneyFlags,
  });
  const clerkId = await insertUser({
    email: demoUsers.clerk.email,
    totpSecret: demoUsers.clerk.totpSecret,
    login2faMode: 'otp',
    userType: 3,
    customerId: clerkCustomer,
  });
  const viewerId = await insertUser({
    email: demoUsers.viewer.email,
    totpSecret: demoUsers.viewer.totpSecret,
    login2faMode: 'otp',
    userType: 3,
    customerId: viewerCustomer,
  });
  const adminId = await insertUser({
    email: demoUsers.admin.email,
    totpSecret: demoUsers.admin.totpSecret,
    login2faMode: 'otp',
    userType: 4,
    isAdmin: true,
    customerId: adminCustomer,
  });
  // sam: the SMS second step, to the primary confirmed phone.
  const samId = await insertUser({ email: demoUsers.sam.email, totpSecret: null, login2faMode: 'sms', userType: 1, customerId: samCustomer });
  await tx.insert(phones).values({
    customerId: samCustomer,
    phoneCountryCode: demoUsers.sam.phone.countryCode,
    phone: demoUsers.sam.phone.number,
    status: 'primary',
    confirmed: true,
  });
  // mila: an authenticator user whose push migration deadline has passed (strict: /scp only).
  const milaId = await insertUser({
    email: demoUsers.mila.email,
    totpSecret: demoUsers.mila.totpSecret,
    login2faMode: 'otp',
    userType: 1,
    customerId: milaCustomer,
    pushMigrationDeadline: new Date(Date.now() + demoUsers.mila.pushMigrationDeadlineInDays * 24 * 60 * 60 * 1000),
  });
  // tom and rita: the money journey (simple sign-in; tom approves transfers with an SMS code).
  const tomCustomer = await insertCustomer({
    customerType: 'personal',
    firstName: 'Tom',
    lastName: 'Tamm',
    residenceCountryCode: 'EE',
    verified: true,
    transactionApproveMode: demoUsers.tom.transactionApproveMode,
  });
  const tomId = await insertUser({ email: demoUsers.tom.email, totpSecret: null, login2faMode: 'no', userType: 1, customerId: tomCustomer, moneyPermissions: moneyFlags });
  await tx.insert(phones).values({
    customerId: tomCustomer,
    phoneCountryCode: demoUsers.tom.phone.countryCode,
    phone: demoUsers.tom.phone.number,
    status: 'primary',
    confirmed: true,
  });
  const ritaCustomer = await insertCustomer({ customerType: 'personal', firstName: 'Rita', lastName: 'Rossi', residenceCountryCode: 'IT', verified: true });
  const ritaId = await insertUser({ email: demoUsers.rita.email, totpSecret: null, login2faMode: 'no', userType: 1, customerId: ritaCustomer, moneyPermissions: moneyFlags });
  // tess: the tax journey (issue 18): verified, her phone confirmed and her address on file, no tax self-certification.
  const tessCustomer = await insertCustomer({ customerType: 'personal', firstName: 'Tess', lastName: 'Turner', birthDay: '1991-08-09', residenceCountryCode: 'LT', verified: true });
  await insertUser({ email: demoUsers.tess.email, totpSecret: null, login2faMode: 'no', userType: 1, customerId: tessCustomer, moneyPermissions: moneyFlags });
  await tx.insert(phones).values({ customerId: tessCustomer, phoneCountryCode: demoUsers.tess.phone.countryCode, phone: demoUsers.tess.phone.number, status: 'primary', confirmed: true });
  await tx.insert(customerAddresses).values({ customerId: tessCustomer, addressType: 'home', address1: 'Pilies g. 22', city: 'Vilnius', postalCode: 'LT-01123', countryCode: 'LT' });
  // uma: the verification journey (issue 5): an address on file, an unconfirmed phone, no documents, not verified.
  const umaCustomer = await insertCustomer({ customerType: 'personal', firstName: 'Uma', lastName: 'Urbonaite', birthDay: '1994-02-17', residenceCountryCode: 'LT', verified: false });
  const umaId = await insertUser({ email: demoUsers.uma.email, totpSecret: null, login2faMode: 'no', userType: 1, customerId: umaCustomer, permissions: { balanceInfo: true, transfers: false } });
  await tx.insert(phones).values({ customerId: umaCustomer, phoneCountryCode: demoUsers.uma.phone.countryCode, phone: demoUsers.uma.phone.number, status: 'primary', confirmed: false });
  await tx.insert(customerAddresses).values({ customerId: umaCustomer, addressType: 'home', address1: 'Gedimino pr. 9', city: 'Vilnius', postalCode: 'LT-01103', countryCode: 'LT' });

  await tx.insert(recoveryCodes).values(demoUsers.anna.recoveryCodes.map((code) => ({ userId: annaId, codeHash: recoveryCodeHash(code) })));
  // The demo single sign-on partner (sso.routes.ts serves its page in demo mode).
  await tx.insert(ssoClients).values({ clientId: DEMO_SSO_CLIENT_ID, name: DEMO_SSO_CLIENT_NAME, redirectUris: [DEMO_SSO_REDIRECT_PATH] });

  await tx.insert(customerAccess).values([
    {
      userId: ownerId,
      customerId: northwind,
      accessRights: 2,
      positionIds: [8, 2],
      permissions: full,
      moneyPermissions: moneyFlags,
    },
    {
      userId: clerkId,
      customerId: northwind,
      accessRights: demoUsers.clerk.northwindAccessRights,
      positionIds: [],
      permissions: { balanceInfo: true, transfers: true, documents: true },
      moneyPermissions: moneyFlags,
    },
    {
      userId: viewerId,
      customerId: northwind,
      accessRights: demoUsers.viewer.northwindAccessRights,
      positionIds: [],
      permissions: { balanceInfo: true },
    },
  ]);
  // Northwind's directors, shareholders (one of them a company with its own) and users (issue 17).
  await seedNorthwindStructure(tx, {
    northwind,
    owner: { userId: ownerId, email: demoUsers.owner.email },
    clerk: { userId: clerkId, email: demoUsers.clerk.email },
    viewer: { userId: viewerId, email: demoUsers.viewer.email },
  });

  // Tax self-certifications (issue 18): every demo person and Northwind certified, their forms
  // signed and confirmed, so sign-in still lands on /home (demo-tax.ts; numbers valid for their country).
  const person = (customerId: number, userId: number, key: 'anna' | 'boris' | 'admin' | 'sam' | 'mila' | 'tom' | 'rita' | 'uma', firstName: string, lastName: string, answers: PersonalCertification) => ({
    customerId,
    userId,
    email: demoUsers[key].email,
    firstName,
    lastName,
    answers,
  });
  await seedDemoTax(tx, {
    persons: [
      person(annaCustomer, annaId, 'anna', 'Anna', 'Kowalska', demoPersonAnswers('Vilnius', 'LT', '1990-04-12', '49004120123')),
      person(borisCustomer, borisId, 'boris', 'Boris', 'Petrov', demoPersonAnswers('Constanța', 'RO', '1985-11-03', '1851103400013')),
      person(adminCustomer, adminId, 'admin', 'Ada', 'Admin', demoPersonAnswers('London', 'GB', '1980-05-20', 'AB123456C')),
      person(samCustomer, samId, 'sam', 'Sam', 'Sidorov', demoPersonAnswers('Kaunas', 'LT', '1987-05-15', '38705150120')),
      person(milaCustomer, milaId, 'mila', 'Mila', 'Marin', demoPersonAnswers('Cluj-Napoca', 'RO', '1992-06-21', '2920621400028')),
      person(tomCustomer, tomId, 'tom', 'Tom', 'Tamm', demoPersonAnswers('Tartu', 'EE', '1988-07-15', '38807150129')),
      person(ritaCustomer, ritaId, 'rita', 'Rita', 'Rossi', demoPersonAnswers('Roma', 'IT', '1991-01-01', 'RSSRTI91A41H501U')),
      person(umaCustomer, umaId, 'uma', 'Uma', 'Urbonaite', demoPersonAnswers('Vilnius', 'LT', '1994-02-17', '49402170120')),
    ],
    northwind: {
      customerId: northwind,
      ownerUserId: ownerId,
      ownerEmail: demoUsers.owner.email,
      ownerName: 'Olivia Owens',
      // an active trading company: not a financial institution, not traded, mostly trading income
      answers: {
        name: NORTHWIND_NAME,
        entityType: 'general',
        registrationCountryCode: 'GB',
        giin: null,
        giinMissingReason: null,
        isUsingClientFunds: null,
        isManagedByFinancialInstitution: null,
        isPubliclyTraded: false,
        companySecurityMarket: null,
        companyTicket: null,
        isOwnPubliclyTradedCompany: false,
        companyOwnedByYou: null,
        isEarnPassiveIncome: false,
        isUSTaxPayer: false,
        isDisregardedEntity: false,
        taxIds: [{ countryCode: 'GB', taxId: '1234567895', tinMissingReason: null, tinMissingExplanation: null }],
        controllingPersons: [],
      },
    },
    adminUserId: adminId,
    providerName: activeVariant.projectName,
    nowMs: now,
  });
  // Revenue-split contracts (issue 19): Northwind pays Rita 30 % (ACTIVE), Tom asks Northwind for 10 % (UNSIGNED).
  await seedDemoContracts(tx, { northwind: { customerId: northwind, userId: ownerId, signerName: 'Olivia Owens', email: demoUsers.owner.email }, rita: { customerId: ritaCustomer, userId: ritaId, signerName: 'Rita Rossi', email: demoUsers.rita.email }, tom: { customerId: tomCustomer, userId: tomId, signerName: 'Tom Tamm' }, providerName: activeVariant.projectName, nowMs: now });
  // Anna's support tickets (demo-support.ts): one answered by the demo admin, unread; one closed.
  await seedDemoSupport(tx, { customerId: annaCustomer, userId: annaId, agentUserId: adminId, provider: activeVariant.id, nowMs: now });
  // Two announcements (one asking to accept new terms) and Anna's notifications of those tickets (demo-notifications.ts).
  await seedDemoNotifications(tx, { anna: { customerId: annaCustomer, userId: annaId }, adminUserId: adminId, nowMs: now });

  await ensureTerms(tx);
  const acceptingCustomers = [annaCustomer, borisCustomer, northwind, clerkCustomer, viewerCustomer, adminCustomer, samCustomer, milaCustomer, tomCustomer, ritaCustomer, umaCustomer, tessCustomer];
  await tx
    .insert(termsAcceptances)
    .values(acceptingCustomers.flatMap((customerId) => SEED_TERMS.map((t) => ({ customerId, termId: t.termId, version: t.version }))));

  // The accounts and the balances they have today; demo-history.ts books a year of history that
  // ends at these balances, from opening balances funded from the provider's capital by balanced
  // entries a year ago (capital accounts are append-only: their legs are their balance).
  const final: { customerId: number; currency: string; amount: string; key: HistoryAccountKey }[] = [
    { customerId: annaCustomer, currency: 'EUR', amount: '2450.75', key: 'anna-eur' },
    { customerId: annaCustomer, currency: 'USD', amount: '310.00', key: 'anna-usd' },
    { customerId: borisCustomer, currency: 'EUR', amount: '120.00', key: 'boris-eur' },
    { customerId: northwind, currency: 'EUR', amount: '48200.00', key: 'northwind-eur' },
    { customerId: northwind, currency: 'GBP', amount: '12875.40', key: 'northwind-gbp' },
    { customerId: tomCustomer, currency: 'EUR', amount: '1500.00', key: 'tom-eur' },
    // tom's USD account ends empty: the money journey converts EUR into it
    { customerId: tomCustomer, currency: 'USD', amount: '0', key: 'tom-usd' },
    { customerId: ritaCustomer, currency: 'EUR', amount: '800.00', key: 'rita-eur' },
    { customerId: ritaCustomer, currency: 'USD', amount: '450.00', key: 'rita-usd' },
  ];
  const historyAccounts = {} as Record<HistoryAccountKey, HistoryAccount>;
  for (const o of final) {
    const [a] = await tx
      .insert(accounts)
      .values({ type: 1001, currency: o.currency, customerId: o.customerId })
      .returning({ id: accounts.accountId });
    historyAccounts[o.key] = { accountId: a!.id, currency: o.currency, finalMinor: decimalToMinor(o.amount, o.currency) };
  }
  return {
    now,
    parties: {
      anna: { customerId: annaCustomer, userId: annaId, email: demoUsers.anna.email },
      boris: { customerId: borisCustomer, userId: borisId, email: demoUsers.boris.email },
      northwind: { customerId: northwind, userId: ownerId, email: demoUsers.owner.email },
      tom: { customerId: tomCustomer, userId: tomId, email: demoUsers.tom.email },
      rita: { customerId: ritaCustomer, userId: ritaId, email: demoUsers.rita.email },
    },
    accounts: historyAccounts,
    merchantPasswordHash,
  };
}

/** Without the history: each account's usual balance as one opening entry from the provider's capital, booked now. */
async function bookOpeningBalances(tx: Tx, people: DemoHistoryInput): Promise<void> {
  for (const [key, account] of Object.entries(people.accounts)) {
    if (account.finalMinor === 0n) continue;
    await bookEntry(tx, {
      kind: 'opening_balance',
      idempotencyKey: `seed:${key}`,
      description: { reason: 'demo opening balance' },
      legs: [
        { accountId: await providerAccountId(tx, 'capital', account.currency), amountMinor: -account.finalMinor },
        { accountId: account.accountId, amountMinor: account.finalMinor },
      ],
    });
  }
}
