/**
 * Demo data for an empty database: the demo users of demo-users.ts, their customers, Northwind's
 * authorised users, the terms (accepted by every demo customer), the reference dictionaries, and
 * accounts whose opening balances come from balanced journal entries against the provider's
 * capital accounts (money never appears from nowhere).
 */
import { count } from 'drizzle-orm';
import { seedDictionaries } from '../modules/dictionaries/dictionaries.seed.ts';
import { accounts } from '../modules/accounts/accounts.tables.ts';
import { bookMove } from '../modules/accounts/ledger.ts';
import { decimalToMinor } from '../modules/accounts/money.ts';
import { customerAccess, customers, phones, terms, termsAcceptances, users } from '../modules/customers/customers.tables.ts';
import { recoveryCodes, ssoClients } from '../modules/auth/auth.tables.ts';
import { DEMO_SSO_CLIENT_ID, DEMO_SSO_CLIENT_NAME, DEMO_SSO_REDIRECT_PATH } from '../modules/security/sso.service.ts';
import { hashPassword, recoveryCodeHash } from '../modules/auth/crypto.ts';
import { demoUserByKey as demoUsers, NORTHWIND_NAME } from './demo-users.ts';
import type { Db, Tx } from './types.ts';

/** Far below anything real: the provider's capital account is where issued money comes from. */
const CAPITAL_FLOOR_MINOR = -(10n ** 17n);

export const SEED_TERMS = [
  { termId: 1, version: 1, title: 'General terms and conditions', url: '/legal' },
  { termId: 2, version: 1, title: 'Privacy policy', url: '/legal' },
] as const;

/** Seeds when the database holds no user yet; returns whether it seeded. */
export async function seedDatabase(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) {
    // Dictionaries are idempotent upserts: re-running keeps names current after an upgrade.
    await seedDictionaries(db);
    return false;
  }
  // One argon2 hash for every demo user: they share the demo password, and hashing is slow.
  const passwordHash = await hashPassword(demoUsers.anna.password);
  await db.transaction(async (tx) => {
    await seedDictionaries(tx);
    await seedPeople(tx, passwordHash);
  });
  return true;
}

async function seedPeople(tx: Tx, passwordHash: string): Promise<void> {
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

  const providerId = await insertCustomer({
    customerType: 'business',
    businessName: 'Platform provider (capital)',
    verified: true,
    isProvider: true,
  });

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
  });
  await insertUser({
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
  await insertUser({
    email: demoUsers.admin.email,
    totpSecret: demoUsers.admin.totpSecret,
    login2faMode: 'otp',
    userType: 4,
    isAdmin: true,
    customerId: adminCustomer,
  });
  // sam: the SMS second step, to the primary confirmed phone.
  await insertUser({ email: demoUsers.sam.email, totpSecret: null, login2faMode: 'sms', userType: 1, customerId: samCustomer });
  await tx.insert(phones).values({
    customerId: samCustomer,
    phoneCountryCode: demoUsers.sam.phone.countryCode,
    phone: demoUsers.sam.phone.number,
    status: 'primary',
    confirmed: true,
  });
  // mila: an authenticator user whose push migration deadline has passed (strict: /scp only).
  await insertUser({
    email: demoUsers.mila.email,
    totpSecret: demoUsers.mila.totpSecret,
    login2faMode: 'otp',
    userType: 1,
    customerId: milaCustomer,
    pushMigrationDeadline: new Date(Date.now() + demoUsers.mila.pushMigrationDeadlineInDays * 24 * 60 * 60 * 1000),
  });
  await tx.insert(recoveryCodes).values(demoUsers.anna.recoveryCodes.map((code) => ({ userId: annaId, codeHash: recoveryCodeHash(code) })));
  // The demo single sign-on partner (sso.routes.ts serves its page with DEV_MAILBOX=true).
  await tx.insert(ssoClients).values({ clientId: DEMO_SSO_CLIENT_ID, name: DEMO_SSO_CLIENT_NAME, redirectUris: [DEMO_SSO_REDIRECT_PATH] });

  await tx.insert(customerAccess).values([
    { userId: ownerId, customerId: northwind, accessRights: 2, positionIds: [8, 2], permissions: full, taxSelfCertificationStatus: 'validated' },
    {
      userId: clerkId,
      customerId: northwind,
      accessRights: demoUsers.clerk.northwindAccessRights,
      positionIds: [],
      permissions: { balanceInfo: true, transfers: true, documents: true },
      taxSelfCertificationStatus: 'validated',
    },
    {
      userId: viewerId,
      customerId: northwind,
      accessRights: demoUsers.viewer.northwindAccessRights,
      positionIds: [],
      permissions: { balanceInfo: true },
      taxSelfCertificationStatus: 'validated',
    },
  ]);

  await tx.insert(terms).values(SEED_TERMS.map((t) => ({ ...t, required: true })));
  const acceptingCustomers = [annaCustomer, borisCustomer, northwind, clerkCustomer, viewerCustomer, adminCustomer, samCustomer, milaCustomer];
  await tx
    .insert(termsAcceptances)
    .values(acceptingCustomers.flatMap((customerId) => SEED_TERMS.map((t) => ({ customerId, termId: t.termId, version: t.version }))));

  // Capital accounts of the provider, one per currency, then customer accounts funded from them.
  const capital = new Map<string, number>();
  for (const currency of ['EUR', 'USD', 'GBP']) {
    const [a] = await tx
      .insert(accounts)
      .values({ type: 1001, currency, customerId: providerId, balanceMinMinor: CAPITAL_FLOOR_MINOR })
      .returning({ id: accounts.accountId });
    capital.set(currency, a!.id);
  }
  const opening: { customerId: number; currency: string; amount: string; key: string }[] = [
    { customerId: annaCustomer, currency: 'EUR', amount: '2450.75', key: 'anna-eur' },
    { customerId: annaCustomer, currency: 'USD', amount: '310.00', key: 'anna-usd' },
    { customerId: borisCustomer, currency: 'EUR', amount: '120.00', key: 'boris-eur' },
    { customerId: northwind, currency: 'EUR', amount: '48200.00', key: 'northwind-eur' },
    { customerId: northwind, currency: 'GBP', amount: '12875.40', key: 'northwind-gbp' },
  ];
  for (const o of opening) {
    const [a] = await tx
      .insert(accounts)
      .values({ type: 1001, currency: o.currency, customerId: o.customerId })
      .returning({ id: accounts.accountId });
    await bookMove(tx, {
      kind: 'opening_balance',
      idempotencyKey: `seed:${o.key}`,
      fromAccountId: capital.get(o.currency)!,
      toAccountId: a!.id,
      amountMinor: decimalToMinor(o.amount, o.currency),
      description: { reason: 'demo opening balance' },
    });
  }
}
