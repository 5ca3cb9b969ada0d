/**
 * The demo users seeded into an empty database. Tests and e2e import this file to sign in;
 * the README lists them. The TOTP secrets are base32 (RFC 4648) for any authenticator app.
 */
export const DEMO_PASSWORD = 'Demo-Pass-2026';

export type DemoLanding = 'home' | 'account-chooser' | 'admin-overview' | 'self-certification-splash';

export interface DemoUser {
  key: 'anna' | 'boris' | 'owner' | 'clerk' | 'viewer' | 'admin' | 'sam' | 'mila' | 'tom' | 'rita' | 'uma' | 'tess';
  email: string;
  password: string;
  /** base32 TOTP secret; null for users signing in without a second step */
  totpSecret: string | null;
  login2faMode: 'no' | 'otp' | 'sms';
  role: 'personal' | 'business-owner' | 'authorised-user' | 'administrator';
  /** where the start page sends the user after sign-in */
  landing: DemoLanding;
  /** for authorised users: access rights to Northwind (1 read, 2 full) */
  northwindAccessRights?: 1 | 2;
  /** recovery codes (shown once in the product; stored hashed), each signs in once */
  recoveryCodes?: readonly string[];
  /** sms users: the primary confirmed phone the sign-in code goes to (country code, number) */
  phone?: { countryCode: string; number: string };
  /** days from seeding to the push 2FA migration deadline (negative: already passed, strict) */
  pushMigrationDeadlineInDays?: number;
  /** how the customer approves transfers (customers.transaction_approve_mode) when not 'none' */
  transactionApproveMode?: 'sms' | 'otp';
}

/** The demo users by key. */
export const demoUserByKey = {
  anna: {
    key: 'anna',
    email: 'anna@demo.test',
    password: DEMO_PASSWORD,
    totpSecret: 'UZDMAVAWECT4AXR4KOCAODXJAH6U6GGD',
    login2faMode: 'otp',
    role: 'personal',
    landing: 'home',
    recoveryCodes: [
      'KE72E-Z68GI',
      '5I671-VIAWG',
      'SKQMO-I5MY7',
      'MPEY0-13KFP',
      'Y7PUU-Q5B3I',
      'Y3BIS-X42UN',
      'RAQMH-4YBK7',
      'J6D27-0CJE8',
      '1WNOW-13K1C',
      '002AO-YI21M',
    ],
  },
  boris: {
    key: 'boris',
    email: 'boris@demo.test',
    password: DEMO_PASSWORD,
    totpSecret: null,
    login2faMode: 'no',
    role: 'personal',
    landing: 'home',
  },
  owner: {
    key: 'owner',
    email: 'owner@northwind.test',
    password: DEMO_PASSWORD,
    totpSecret: 'DY5CXVKWRZ3LKKWEH663U3AQQ5TN2V7N',
    login2faMode: 'otp',
    role: 'business-owner',
    landing: 'account-chooser',
    northwindAccessRights: 2,
  },
  clerk: {
    key: 'clerk',
    email: 'clerk@northwind.test',
    password: DEMO_PASSWORD,
    totpSecret: '4WMEKHLBKVOONDYEB7JZEJXRFNDMJ67K',
    login2faMode: 'otp',
    role: 'authorised-user',
    landing: 'account-chooser',
    northwindAccessRights: 2,
  },
  viewer: {
    key: 'viewer',
    email: 'viewer@northwind.test',
    password: DEMO_PASSWORD,
    totpSecret: '2PLSCVGCFQYGPYPWJY6EMGMZVA2EHD75',
    login2faMode: 'otp',
    role: 'authorised-user',
    landing: 'account-chooser',
    northwindAccessRights: 1,
  },
  admin: {
    key: 'admin',
    email: 'admin@demo.test',
    password: DEMO_PASSWORD,
    totpSecret: 'XC7DGTUXL5BGBWL57FOE6M5XAGHFFS37',
    login2faMode: 'otp',
    role: 'administrator',
    landing: 'admin-overview',
  },
  sam: {
    key: 'sam',
    email: 'sam@demo.test',
    password: DEMO_PASSWORD,
    totpSecret: null,
    login2faMode: 'sms',
    role: 'personal',
    landing: 'home',
    phone: { countryCode: '370', number: '61234512' },
  },
  mila: {
    key: 'mila',
    email: 'mila@demo.test',
    password: DEMO_PASSWORD,
    totpSecret: 'MRLPPI4M2FDJZGC7DMYXLIZR3BLHUSBW',
    login2faMode: 'otp',
    role: 'personal',
    landing: 'home',
    pushMigrationDeadlineInDays: -30,
  },
  // The money journey (issue 4): tom converts EUR to USD and sends USD to rita, approving with an SMS code.
  tom: {
    key: 'tom',
    email: 'tom@demo.test',
    password: DEMO_PASSWORD,
    totpSecret: null,
    login2faMode: 'no',
    role: 'personal',
    landing: 'home',
    phone: { countryCode: '370', number: '61234577' },
    transactionApproveMode: 'sms',
  },
  rita: {
    key: 'rita',
    email: 'rita@demo.test',
    password: DEMO_PASSWORD,
    totpSecret: null,
    login2faMode: 'no',
    role: 'personal',
    landing: 'home',
  },
  // The verification journey (issue 5): not verified; her phone is not confirmed, no identity or
  // address document is uploaded (her address is on file): the banner counts 3 required actions.
  uma: {
    key: 'uma',
    email: 'uma@demo.test',
    password: DEMO_PASSWORD,
    totpSecret: null,
    login2faMode: 'no',
    role: 'personal',
    landing: 'home',
    phone: { countryCode: '370', number: '61234578' },
  },
  // The tax journey (issue 18): verified, but born in the US (Chicago), a Lithuanian citizen who
  // renounced the US citizenship, and not self-certified yet: the start page sends her to the
  // self-certification splash (rule 7) and the banner counts the tax action.
  tess: {
    key: 'tess',
    email: 'tess@demo.test',
    password: DEMO_PASSWORD,
    totpSecret: null,
    login2faMode: 'no',
    role: 'personal',
    landing: 'self-certification-splash',
    phone: { countryCode: '370', number: '61234579' },
  },
} as const satisfies Record<DemoUser['key'], DemoUser>;

/** Every demo user, in a stable order. */
export const demoUsers: readonly DemoUser[] = Object.values(demoUserByKey);

export const NORTHWIND_NAME = 'Northwind Trading Ltd';

/**
 * The money-movement flags (api/transfers.ts PermissionFlag) demo users hold: enough to move money
 * between own accounts and to other people, to pay out over every rail (issue 15), and to open
 * crypto wallets. boris, viewer, sam, mila and admin hold none (every flag is false by default).
 */
export const DEMO_MONEY_FLAGS = [
  'topLevel.sendMoneyUser',
  'own.betweenAccounts',
  'others.p2p',
  'others.wire',
  'others.eft',
  'others.card',
  'others.digital',
  'others.instant',
  'others.interac',
  'funding.digital',
  'mass.p2p',
  'mass.wire',
  'mass.eft',
  'mass.card',
  'mass.digital',
  'mass.global',
  'others.global',
] as const;

/**
 * The demo cards (issue 16), seeded in demo mode only (server/modules/cards/demo-cards.ts): sam
 * (Lithuania, approves by SMS) has a EUR payment account, an active virtual EUR card with a little
 * money on it, and a physical EUR card that has been shipped to his address and waits for its
 * activation. The money comes from the provider's capital as the seed funds every account.
 */
export const DEMO_CARD_OWNER = 'sam' satisfies DemoUser['key'];
export const DEMO_CARDS = {
  countryCode: 'LT',
  address: { address1: 'Vilniaus g. 12', city: 'Vilnius', postalCode: 'LT-01119' },
  paymentAccount: { currency: 'EUR', amount: '150.00' },
  cards: [
    { kind: 'virtual', currency: 'EUR', status: 2, amount: '25.00', aliasName: 'Online shopping' },
    { kind: 'physical', currency: 'EUR', status: 21, amount: '0', aliasName: null },
  ],
} as const;
