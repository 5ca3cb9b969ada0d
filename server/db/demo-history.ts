/**
 * Twelve months of demo history (demo mode only; issue 13 item 4): for each demo customer with
 * accounts, a salary, card-like spending at merchants, subscriptions, rent, conversions between
 * their currencies, payments to and from other demo customers, a monthly account fee, and for
 * anna one rejected and one pending transfer.
 *
 * How it is made, so that every invariant of the ledger holds (ledger.ts reconcile()):
 * - Every movement is booked by the platform's own code: transfers by the transfer service's
 *   request() (the path of the API's transfers: fee rules, rates, limits, the daily counters,
 *   one balanced journal entry), money from or to outside the platform (salaries paid by an
 *   employer that banks elsewhere, a company's incoming invoices, the monthly account fee) by
 *   bookEntry against the provider's capital and fee accounts, as the opening balances are.
 * - Back-dating: the transfer service takes its clock as a dependency (deps.now), so each transfer
 *   is asked "at" its historical moment (its row, expiry and day's limit counter are dated then).
 *   The journal stamps its entries with the database's now(); the entries made here are re-dated
 *   in the same transaction once everything is booked (a transfer's entry to its transfer's time,
 *   a deposit or fee to its planned time). Dates take no part in any invariant; every reader
 *   (history, balance chart, statements) reads these columns, so they then agree.
 * - Balances: the history is planned in full first (exact integer arithmetic with the stored fee
 *   rules and rates, as the service computes them) so each account's opening balance, a year ago,
 *   is its final balance minus the year's movements. The final balances are the ones the demo has
 *   always had (README, tests, e2e journeys), and the plan is refused (an Error at seeding) if any
 *   account would dip below zero on the way.
 * - Deterministic: one seeded PRNG (mulberry32) drawn in a fixed order and times fixed as whole
 *   days before the seeding day plus a time of day; two seedings differ only by the day they ran.
 *
 * Card spending: the platform has no card scheme yet, so a card-like payment is a payment to the
 * merchant's account on this platform (a business customer with an account per currency it takes;
 * its user cannot sign in: its password is unknown to anyone). The merchant's name shows as the
 * counterparty (its e-mail address to the payer, as for every payment) and the category as the note.
 *
 * Approvals: the history stands for transfers approved when they were made. Asking every one of
 * them for a code at seeding adds nothing but time, so the customers' approve mode is 'none' while
 * the history is booked and restored afterwards; the rejected and pending transfers are then asked
 * with anna's own mode (her authenticator), as the API would.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { accounts } from '../modules/accounts/accounts.tables.ts';
import { bookEntry, providerAccountIds } from '../modules/accounts/ledger.ts';
import { minorToDecimal } from '../modules/accounts/money.ts';
import { customers, users } from '../modules/customers/customers.tables.ts';
import { computeFee, feeRuleFor, type FeeRule } from '../modules/transfers/fees.ts';
import { convertForward, convertInverse, rateFor } from '../modules/transfers/rates.ts';
import { transfers } from '../modules/transfers/transfers.tables.ts';
import { createTransferService, type ParamNames, type TransferActor } from '../modules/transfers/transfers.service.ts';
import type { Tx } from './types.ts';

/** The PRNG's seed: the same history at every seeding. */
export const DEMO_HISTORY_SEED = 0x13_2026;
/** How far back the history goes: a year of whole days before the seeding day. */
export const DEMO_HISTORY_DAYS = 365;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** Deterministic PRNG (mulberry32): a float in [0, 1) per call. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export type HistoryPartyKey = 'anna' | 'boris' | 'northwind' | 'tom' | 'rita';
export type HistoryAccountKey = 'anna-eur' | 'anna-usd' | 'boris-eur' | 'northwind-eur' | 'northwind-gbp' | 'tom-eur' | 'tom-usd' | 'rita-eur' | 'rita-usd';

/** Who acts for a demo customer (its user; for Northwind its owner) and the e-mail others pay. */
export interface HistoryParty {
  customerId: number;
  userId: number;
  email: string;
}

/** A demo customer's account and the balance it must end with. */
export interface HistoryAccount {
  accountId: number;
  currency: string;
  /** the balance at the end of the history (minor units) */
  finalMinor: bigint;
}

export interface DemoHistoryInput {
  /** the seeding moment (ms): the history ends here */
  now: number;
  parties: Record<HistoryPartyKey, HistoryParty>;
  accounts: Record<HistoryAccountKey, HistoryAccount>;
  /** a password hash nobody knows the password of (the merchants' users never sign in) */
  merchantPasswordHash: string;
}

/** The merchants card-like payments go to, and the currencies each takes. */
export const DEMO_MERCHANTS = [
  { key: 'freshmart', name: 'FreshMart Groceries', currencies: ['EUR'] },
  { key: 'citytransit', name: 'CityTransit', currencies: ['EUR'] },
  { key: 'ridenow', name: 'RideNow Taxi', currencies: ['EUR'] },
  { key: 'trattoria', name: 'Trattoria Roma', currencies: ['EUR'] },
  { key: 'cafearoma', name: 'Café Aroma', currencies: ['EUR'] },
  { key: 'streamplus', name: 'StreamPlus', currencies: ['EUR', 'USD'] },
  { key: 'urbanhomes', name: 'Urban Homes Rentals', currencies: ['EUR'] },
  { key: 'cloudbox', name: 'CloudBox Inc.', currencies: ['USD'] },
  { key: 'balticfreight', name: 'Baltic Freight UAB', currencies: ['EUR'] },
  { key: 'thamesoffices', name: 'Thames Office Lets Ltd', currencies: ['GBP'] },
  { key: 'hostingworks', name: 'HostingWorks Ltd', currencies: ['GBP'] },
] as const;
type MerchantKey = (typeof DEMO_MERCHANTS)[number]['key'];

/** A merchant's e-mail (the payee of its card-like payments). */
export const merchantEmail = (key: string) => `${key}@merchants.demo.test`;

type AccountRef = HistoryAccountKey | `${MerchantKey}-${string}`;

/** One planned movement; amounts in minor units of the source account's currency. */
type Planned =
  | { kind: 'p2p'; at: number; payer: HistoryPartyKey; from: HistoryAccountKey; to: AccountRef; toEmail: string; amountMinor: bigint; note: string }
  | { kind: 'exchange'; at: number; payer: HistoryPartyKey; from: HistoryAccountKey; to: HistoryAccountKey; amountMinor: bigint }
  /** money from outside the platform (salary of an outside employer, a company's invoices paid) */
  | { kind: 'deposit'; at: number; to: HistoryAccountKey; amountMinor: bigint; payer: string; reason: string }
  | { kind: 'account_fee'; at: number; from: HistoryAccountKey; amountMinor: bigint };

/** A movement whose amount the plan works out (what keeps an account funded); see fund(). */
interface Funding {
  account: HistoryAccountKey;
  events: Planned[];
  /** what the account should gain over the year (its final minus its opening balance), minor units */
  growthMinor: bigint;
  /** amounts rounded up to this step (minor units of the amount's currency) */
  stepMinor: bigint;
  /** the relative size of each event */
  weights: number[];
}

const P2P_PARAMS: ParamNames = { from: 'accountId', to: 'toEmail', amount: 'amount', currency: 'currency' };
const EXCHANGE_PARAMS: ParamNames = { from: 'fromAccount', to: 'toAccount', amount: 'amount', currency: 'currency' };

/** Card-like spending categories: merchant, note, amount range (major units), hours of day. */
const CATEGORIES = {
  groceries: { merchant: 'freshmart', note: 'Groceries', min: 9, max: 95, hours: [9, 20] },
  transport: { merchant: 'citytransit', note: 'Transport', min: 1.5, max: 30, hours: [7, 9] },
  taxi: { merchant: 'ridenow', note: 'Taxi ride', min: 5, max: 28, hours: [18, 23] },
  restaurant: { merchant: 'trattoria', note: 'Restaurant', min: 18, max: 85, hours: [19, 21] },
  coffee: { merchant: 'cafearoma', note: 'Coffee', min: 2.8, max: 7.5, hours: [8, 11] },
} as const satisfies Record<string, { merchant: MerchantKey; note: string; min: number; max: number; hours: [number, number] }>;
type Category = keyof typeof CATEGORIES;
const CATEGORY_WEIGHTS: [Category, number][] = [
  ['groceries', 40],
  ['transport', 15],
  ['taxi', 10],
  ['restaurant', 15],
  ['coffee', 20],
];

/** Major units to minor (2 decimals: every currency the plan spends in is fiat). */
const cents = (major: number) => BigInt(Math.round(major * 100));
const ceilTo = (x: bigint, step: bigint) => (x <= 0n ? step : ((x + step - 1n) / step) * step);

/**
 * The plan: every movement of the year, in the order drawn (the same at every seeding), with the
 * funding amounts still to work out.
 */
function draw(dayStart: number): { events: Planned[]; fundings: Funding[] } {
  const random = mulberry32(DEMO_HISTORY_SEED);
  const between = (min: number, max: number) => min + (max - min) * random();
  const integer = (min: number, max: number) => Math.floor(between(min, max + 1));
  /** a moment `daysAgo` whole days before the seeding day, at an hour within [from, to] */
  const at = (daysAgo: number, [from, to]: readonly [number, number]) => dayStart - daysAgo * DAY_MS + integer(from, to) * HOUR_MS + integer(0, 59) * MINUTE_MS;
  const pick = (): Category => {
    let r = random() * 100;
    for (const [c, w] of CATEGORY_WEIGHTS) if ((r -= w) < 0) return c;
    return 'groceries';
  };
  const events: Planned[] = [];
  const fundings: Funding[] = [];
  const monthly = (firstDaysAgo: number) => Array.from({ length: 12 }, (_, k) => firstDaysAgo + 30 * k).filter((d) => d >= 1 && d < DEMO_HISTORY_DAYS);

  const cardSpending = (payer: HistoryPartyKey, from: HistoryAccountKey, perDay: number, scale: number) => {
    for (let d = DEMO_HISTORY_DAYS - 1; d >= 1; d--) {
      if (random() >= perDay) continue;
      const c = CATEGORIES[pick()];
      events.push({ kind: 'p2p', at: at(d, c.hours), payer, from, to: `${c.merchant}-EUR`, toEmail: merchantEmail(c.merchant), amountMinor: cents(between(c.min, c.max) * scale), note: c.note });
    }
  };
  const bill = (payer: HistoryPartyKey, from: HistoryAccountKey, merchant: MerchantKey, currency: string, major: number, firstDaysAgo: number, note: string) => {
    for (const d of monthly(firstDaysAgo)) {
      events.push({ kind: 'p2p', at: at(d, [6, 8]), payer, from, to: `${merchant}-${currency}`, toEmail: merchantEmail(merchant), amountMinor: cents(major), note });
    }
  };
  const fees = (from: HistoryAccountKey, major: number, firstDaysAgo: number) => {
    for (const d of monthly(firstDaysAgo)) events.push({ kind: 'account_fee', at: at(d, [2, 3]), from, amountMinor: cents(major) });
  };
  /** payments between demo customers (the payee's e-mail is filled in from its account's owner) */
  const payments = (payer: HistoryPartyKey, from: HistoryAccountKey, to: HistoryAccountKey, count: number, min: number, max: number, notes: readonly string[]) => {
    for (let i = 0; i < count; i++) {
      const d = integer(2, DEMO_HISTORY_DAYS - 2);
      events.push({ kind: 'p2p', at: at(d, [10, 22]), payer, from, to, toEmail: '', amountMinor: cents(Math.round(between(min, max))), note: notes[integer(0, notes.length - 1)]! });
    }
  };
  const weights = (n: number, spread: number) => Array.from({ length: n }, () => 1 + spread * (random() * 2 - 1));
  /** funding events: amounts worked out later (0 until then) */
  const funding = (account: HistoryAccountKey, growthMajor: number, stepMajor: number, spread: number, make: (daysAgo: number) => Planned, days: number[]) => {
    const list = days.map(make);
    events.push(...list);
    fundings.push({ account, events: list, growthMinor: cents(growthMajor), stepMinor: cents(stepMajor), weights: weights(list.length, spread) });
  };

  // anna: a salary from Northwind, rent, subscriptions in EUR and USD, card spending most days,
  // conversions into USD, payments with boris and rita.
  cardSpending('anna', 'anna-eur', 0.3, 1.4);
  bill('anna', 'anna-eur', 'urbanhomes', 'EUR', 520, 3, 'Rent');
  bill('anna', 'anna-eur', 'streamplus', 'EUR', 11.99, 9, 'Subscription');
  bill('anna', 'anna-usd', 'cloudbox', 'USD', 9.99, 17, 'Cloud storage');
  fees('anna-eur', 2.5, 1);
  payments('anna', 'anna-eur', 'boris-eur', 6, 25, 120, ['Birthday gift', 'Concert tickets', 'Thanks for the help']);
  payments('anna', 'anna-eur', 'rita-eur', 5, 15, 70, ['Dinner', 'Cinema', 'Groceries split']);
  payments('rita', 'rita-eur', 'anna-eur', 5, 15, 70, ['Dinner', 'Taxi share', 'Book club']);
  payments('anna', 'anna-usd', 'rita-usd', 3, 20, 60, ['Online order split', 'Gift card']);

  // boris: a salary from an employer outside the platform, card spending, a monthly fee.
  cardSpending('boris', 'boris-eur', 0.12, 1.5);
  bill('boris', 'boris-eur', 'urbanhomes', 'EUR', 420, 27, 'Rent');
  fees('boris-eur', 2.5, 2);

  // tom: a salary from outside, card spending, payments with rita (his USD account stays empty:
  // the money journey converts into it).
  cardSpending('tom', 'tom-eur', 0.12, 1.5);
  bill('tom', 'tom-eur', 'urbanhomes', 'EUR', 480, 4, 'Rent');
  fees('tom-eur', 2.5, 4);
  payments('tom', 'tom-eur', 'rita-eur', 3, 20, 80, ['Football tickets', 'Dinner']);
  payments('rita', 'rita-eur', 'tom-eur', 3, 20, 80, ['Train tickets', 'Lunch']);

  // rita: a salary from Northwind, card spending, StreamPlus in USD, conversions into USD.
  cardSpending('rita', 'rita-eur', 0.12, 1.5);
  bill('rita', 'rita-eur', 'urbanhomes', 'EUR', 430, 3, 'Rent');
  bill('rita', 'rita-usd', 'streamplus', 'USD', 12.99, 12, 'Subscription');
  fees('rita-eur', 2.5, 5);

  // Northwind: invoices paid by its clients (from outside), suppliers, rent and hosting in GBP,
  // salaries (anna and rita), GBP converted into EUR each quarter, a monthly fee.
  for (let k = 0; k < 12; k++) {
    const d = 8 + 30 * k + integer(0, 6);
    if (d < DEMO_HISTORY_DAYS) events.push({ kind: 'p2p', at: at(d, [9, 16]), payer: 'northwind', from: 'northwind-eur', to: 'balticfreight-EUR', toEmail: merchantEmail('balticfreight'), amountMinor: cents(Math.round(between(900, 2600))), note: `Freight invoice ${2400 + k}` });
  }
  bill('northwind', 'northwind-gbp', 'thamesoffices', 'GBP', 1850, 2, 'Office rent');
  bill('northwind', 'northwind-gbp', 'hostingworks', 'GBP', 249, 14, 'Hosting');
  fees('northwind-eur', 15, 1);
  for (const d of [45, 135, 225, 315]) events.push({ kind: 'exchange', at: at(d, [11, 12]), payer: 'northwind', from: 'northwind-gbp', to: 'northwind-eur', amountMinor: cents(1500) });

  // The fundings, in the order fund() works them out (an account's funding may draw on another
  // account that is funded after it).
  funding('anna-usd', 60, 10, 0.25, (d) => ({ kind: 'exchange', at: at(d, [12, 14]), payer: 'anna', from: 'anna-eur', to: 'anna-usd', amountMinor: 0n }), [20, 80, 140, 200, 260, 320]);
  funding('rita-usd', 40, 10, 0.25, (d) => ({ kind: 'exchange', at: at(d, [12, 14]), payer: 'rita', from: 'rita-eur', to: 'rita-usd', amountMinor: 0n }), [40, 130, 220, 310]);
  funding('boris-eur', -700, 10, 0, (d) => ({ kind: 'deposit', at: at(d, [7, 8]), to: 'boris-eur', amountMinor: 0n, payer: 'Carpathia Logistics SRL', reason: 'Salary' }), monthly(28));
  funding('tom-eur', 350, 10, 0, (d) => ({ kind: 'deposit', at: at(d, [7, 8]), to: 'tom-eur', amountMinor: 0n, payer: 'Tallinn Port Services AS', reason: 'Salary' }), monthly(7));
  funding('anna-eur', 450, 10, 0, (d) => ({ kind: 'p2p', at: at(d, [7, 8]), payer: 'northwind', from: 'northwind-eur', to: 'anna-eur', toEmail: '', amountMinor: 0n, note: 'Salary' }), monthly(5));
  funding('rita-eur', 200, 10, 0, (d) => ({ kind: 'p2p', at: at(d, [7, 8]), payer: 'northwind', from: 'northwind-eur', to: 'rita-eur', toEmail: '', amountMinor: 0n, note: 'Salary' }), monthly(5));
  funding('northwind-gbp', 2000, 100, 0.3, (d) => ({ kind: 'deposit', at: at(d, [10, 15]), to: 'northwind-gbp', amountMinor: 0n, payer: 'Harbour & Co (UK) Ltd', reason: 'Invoice paid' }), monthly(10));
  funding('northwind-eur', 8000, 100, 0.35, (d) => ({ kind: 'deposit', at: at(d, [10, 15]), to: 'northwind-eur', amountMinor: 0n, payer: 'Nordic Retail Group AB', reason: 'Invoice paid' }), [...monthly(4), ...monthly(19)]);
  return { events, fundings };
}

export interface DemoHistoryResult {
  /** transfers booked, entries booked outside transfers, and the ids of the rejected and pending ones */
  transfers: number;
  entries: number;
  rejectedId: number;
  pendingId: number;
}

/**
 * Books the history (see the file's comment) in the caller's transaction: the merchants, each
 * account's opening balance a year ago, the year's movements, the dates, the rejected and pending
 * transfers. The accounts must exist and hold nothing yet.
 */
export async function seedDemoHistory(tx: Tx, input: DemoHistoryInput): Promise<DemoHistoryResult> {
  const dayStart = Math.floor(input.now / DAY_MS) * DAY_MS;
  const startAt = dayStart - DEMO_HISTORY_DAYS * DAY_MS;
  const { parties } = input;

  // The merchants: a business customer each, a user others pay by e-mail, an account per currency.
  // (three statements for all of them: seeding runs at every test run and demo start)
  const created = new Date(startAt);
  const merchantCustomers = await tx
    .insert(customers)
    .values(DEMO_MERCHANTS.map((m) => ({ customerType: 'business' as const, businessName: m.name, verified: true, createdAt: created })))
    .returning({ id: customers.id, name: customers.businessName });
  const customerOf = new Map(merchantCustomers.map((c) => [c.name, c.id]));
  const merchantCustomer = (m: (typeof DEMO_MERCHANTS)[number]) => customerOf.get(m.name) ?? fail(`merchant ${m.key} was not written`);
  await tx
    .insert(users)
    .values(DEMO_MERCHANTS.map((m) => ({ email: merchantEmail(m.key), passwordHash: input.merchantPasswordHash, login2faMode: 'no' as const, userType: 2, customerId: merchantCustomer(m), createdAt: created })));
  const merchantRows = await tx
    .insert(accounts)
    .values(DEMO_MERCHANTS.flatMap((m) => m.currencies.map((currency) => ({ type: 1001, currency, customerId: merchantCustomer(m), createdAt: created }))))
    .returning({ id: accounts.accountId, customerId: accounts.customerId, currency: accounts.currency });
  const merchantAccounts = new Map<string, { accountId: number; currency: string }>();
  for (const m of DEMO_MERCHANTS) {
    for (const row of merchantRows.filter((r) => r.customerId === merchantCustomer(m))) merchantAccounts.set(`${m.key}-${row.currency}`, { accountId: row.id, currency: row.currency });
  }
  const accountOf = (ref: AccountRef) => (ref in input.accounts ? input.accounts[ref as HistoryAccountKey] : merchantAccounts.get(ref)) ?? fail(`no account ${ref}`);

  // The stored fee rules and rates (as the service reads them), for the plan's arithmetic.
  const currencies = [...new Set(Object.values(input.accounts).map((a) => a.currency))];
  const rules = new Map<string, FeeRule | null>();
  const rates = new Map<string, string>();
  for (const from of currencies) {
    for (const operation of ['p2p', 'exchange'] as const) rules.set(`${operation}:${from}`, await feeRuleFor(tx, operation, from));
    for (const to of currencies) if (to !== from) rates.set(`${from}:${to}`, await rateFor(tx, from, to));
  }
  const ruleFor = (operation: 'p2p' | 'exchange', currency: string) => rules.get(`${operation}:${currency}`) ?? null;
  const rateOf = (from: string, to: string) => rates.get(`${from}:${to}`) ?? fail(`no rate ${from} ${to}`);
  /** each account's change by one movement */
  const deltas = (e: Planned): [AccountRef, bigint][] => {
    switch (e.kind) {
      case 'deposit':
        return [[e.to, e.amountMinor]];
      case 'account_fee':
        return [[e.from, -e.amountMinor]];
      case 'p2p': {
        const currency = accountOf(e.from).currency;
        return [
          [e.from, -(e.amountMinor + computeFee(ruleFor('p2p', currency), e.amountMinor))],
          [e.to, e.amountMinor],
        ];
      }
      case 'exchange': {
        const from = accountOf(e.from).currency;
        const to = accountOf(e.to).currency;
        return [
          [e.from, -(e.amountMinor + computeFee(ruleFor('exchange', from), e.amountMinor))],
          [e.to, convertForward(e.amountMinor, from, to, rateOf(from, to))],
        ];
      }
    }
  };

  const { events, fundings } = draw(dayStart);
  for (const e of events) if (e.kind === 'p2p' && e.toEmail === '') e.toEmail = payeeEmail(e.to, parties);

  // Each funding's amounts: what the account's other movements take, plus its growth, spread
  // over its events by their weights and rounded up to the step.
  const fund = () => {
    for (const f of fundings) {
      const fundingSet = new Set<Planned>(f.events);
      let other = 0n;
      for (const e of events) {
        if (fundingSet.has(e)) continue;
        for (const [ref, delta] of deltas(e)) if (ref === f.account) other += delta;
      }
      const need = f.growthMinor - other;
      const total = f.weights.reduce((x, y) => x + y, 0);
      for (const [i, e] of f.events.entries()) {
        const share = BigInt(Math.round((Number(need) * f.weights[i]!) / total));
        if (e.kind === 'exchange') {
          // the source amount that buys the share, rounded up to whole steps of the source currency
          const fromCurrency = accountOf(e.from).currency;
          const toCurrency = accountOf(e.to).currency;
          e.amountMinor = ceilTo(convertInverse(share, fromCurrency, toCurrency, rateOf(fromCurrency, toCurrency)), f.stepMinor);
        } else e.amountMinor = ceilTo(share, f.stepMinor);
      }
    }
  };

  // Chronological order (ties: the order drawn). Each account's opening balance is its final one
  // minus the year's movements; an account that would dip below zero on the way grows less over
  // the year (so starts higher) and the fundings are worked out again. Deterministic: the same
  // adjustments at every seeding.
  const order = events.map((e, i) => ({ e, i })).sort((x, y) => x.e.at - y.e.at || x.i - y.i).map((x) => x.e);
  const openings = new Map<HistoryAccountKey, bigint>();
  for (let attempt = 0; ; attempt++) {
    fund();
    const running = new Map<AccountRef, bigint>();
    const lowest = new Map<AccountRef, bigint>();
    for (const e of order) {
      for (const [ref, delta] of deltas(e)) {
        const balance = (running.get(ref) ?? 0n) + delta;
        running.set(ref, balance);
        if (balance < (lowest.get(ref) ?? 0n)) lowest.set(ref, balance);
      }
    }
    const short: { key: HistoryAccountKey; deficit: bigint }[] = [];
    for (const [key, account] of Object.entries(input.accounts) as [HistoryAccountKey, HistoryAccount][]) {
      const opening = account.finalMinor - (running.get(key) ?? 0n);
      const low = opening + (lowest.get(key) ?? 0n);
      if (opening < 0n || low < 0n) short.push({ key, deficit: -(opening < low ? opening : low) });
      openings.set(key, opening);
    }
    if (short.length === 0) break;
    for (const { key, deficit } of short) {
      const f = fundings.find((x) => x.account === key);
      if (!f || attempt >= 5) throw new Error(`demo history: ${key} would go below zero by ${minorToDecimal(deficit, input.accounts[key].currency)}`);
      // A funding lowered by G starts the account G higher but pays it back over its events, so a
      // dip just before the last of twelve fundings gains only G/12: lowered by twelve deficits.
      f.growthMinor -= ceilTo(12n * deficit + cents(50), cents(50));
    }
  }

  // Booking. The customers approve nothing while their history is booked (the file's comment).
  const historyCustomers = Object.values(parties).map((p) => p.customerId);
  const modes = await tx.select({ id: customers.id, mode: customers.transactionApproveMode }).from(customers).where(inArray(customers.id, historyCustomers));
  await tx.update(customers).set({ transactionApproveMode: 'none' }).where(inArray(customers.id, historyCustomers));
  await tx.update(accounts).set({ createdAt: new Date(startAt - HOUR_MS) }).where(inArray(accounts.accountId, Object.values(input.accounts).map((a) => a.accountId)));

  const provider = await providerAccountIds(tx, [...new Set(Object.values(input.accounts).map((a) => a.currency))]);
  let clock = startAt;
  const service = createTransferService({ now: () => clock, approvals: null, publisher: null });
  const actorOf = (key: HistoryPartyKey): TransferActor => ({ userId: parties[key].userId, customerId: parties[key].customerId, ip: 'demo-seed', publish: () => {} });
  /** entries booked outside transfers and the moment each belongs to */
  const dated: { entryId: number; at: number }[] = [];
  const transferIds: number[] = [];

  for (const [key, opening] of openings) {
    if (opening === 0n) continue;
    const account = input.accounts[key];
    const booked = await bookEntry(tx, {
      kind: 'opening_balance',
      idempotencyKey: `seed:${key}`,
      description: { reason: 'demo opening balance' },
      legs: [
        { accountId: provider.get(`capital:${account.currency}`) ?? fail(`no capital account in ${account.currency}`), amountMinor: -opening },
        { accountId: account.accountId, amountMinor: opening },
      ],
    });
    dated.push({ entryId: booked.entryId, at: startAt });
  }

  let n = 0;
  for (const e of order) {
    n++;
    clock = e.at;
    if (e.kind === 'p2p' || e.kind === 'exchange') {
      const from = accountOf(e.from);
      const result = await service.request(
        tx,
        actorOf(e.payer),
        e.kind === 'p2p'
          ? { kind: 'p2p', fromAccountId: from.accountId, toEmail: e.toEmail, amount: minorToDecimal(e.amountMinor, from.currency), currency: from.currency, note: e.note, params: P2P_PARAMS }
          : { kind: 'betweenAccounts', fromAccountId: from.accountId, toAccountId: accountOf(e.to).accountId, amount: minorToDecimal(e.amountMinor, from.currency), currency: from.currency, params: EXCHANGE_PARAMS },
      );
      if (result.status !== 'posted') throw new Error(`demo history: transfer ${result.transactionId} is ${result.status}`);
      transferIds.push(result.transactionId);
    } else {
      const account = accountOf(e.kind === 'deposit' ? e.to : e.from);
      const outside = provider.get(`${e.kind === 'deposit' ? 'capital' : 'fee'}:${account.currency}`) ?? fail(`no provider account for ${account.currency}`);
      const amount = e.kind === 'deposit' ? e.amountMinor : -e.amountMinor;
      const booked = await bookEntry(tx, {
        kind: e.kind,
        idempotencyKey: `seed:history:${n}`,
        description: e.kind === 'deposit' ? { reason: e.reason, payer: e.payer } : { reason: 'monthly account fee' },
        legs: [
          { accountId: outside, amountMinor: -amount },
          { accountId: account.accountId, amountMinor: amount },
        ],
      });
      dated.push({ entryId: booked.entryId, at: e.at });
    }
  }

  // The journal's dates (the file's comment): a transfer's entry when the transfer was made.
  if (transferIds.length > 0) {
    await tx.execute(sql`
      UPDATE journal_entries e SET created_at = t.created_at
      FROM transfers t WHERE t.entry_id = e.id AND t.id IN ${transferIds}`);
  }
  if (dated.length > 0) {
    const values = sql.join(
      dated.map((d) => sql`(${d.entryId}::bigint, ${new Date(d.at).toISOString()}::timestamptz)`),
      sql`, `,
    );
    await tx.execute(sql`UPDATE journal_entries e SET created_at = v.at FROM (VALUES ${values}) AS v(id, at) WHERE e.id = v.id`);
  }

  for (const m of modes) await tx.update(customers).set({ transactionApproveMode: m.mode }).where(eq(customers.id, m.id));

  // Every account ends where the demo always had it (the plan's arithmetic is the service's).
  const finals = await tx
    .select({ id: accounts.accountId, balance: accounts.balanceMinor })
    .from(accounts)
    .where(inArray(accounts.accountId, Object.values(input.accounts).map((a) => a.accountId)));
  for (const [key, account] of Object.entries(input.accounts)) {
    const got = finals.find((f) => f.id === account.accountId)?.balance;
    if (got !== account.finalMinor) throw new Error(`demo history: ${key} ends at ${got} instead of ${account.finalMinor}`);
  }

  // anna's rejected transfer (three days ago, refused by her approval: the status a declined
  // approval leaves) and a pending one asked now, waiting for her authenticator code (it expires
  // as every unapproved transfer does, TRANSFER_APPROVAL_TTL_S after it was asked).
  const anna = actorOf('anna');
  const annaEur = input.accounts['anna-eur'];
  clock = dayStart - 3 * DAY_MS + 15 * HOUR_MS + 12 * MINUTE_MS;
  const asked = await service.request(tx, anna, { kind: 'p2p', fromAccountId: annaEur.accountId, toEmail: parties.boris.email, amount: '180.00', currency: 'EUR', note: 'Sofa (second-hand)', params: P2P_PARAMS });
  const [waiting] = await tx.select().from(transfers).where(eq(transfers.id, asked.transactionId));
  if (!waiting || waiting.status !== 'pending') throw new Error('demo history: the transfer to reject is not pending');
  clock += 4 * MINUTE_MS;
  const rejected = await service.voidTransfer(tx, waiting, 'rejected');
  clock = input.now;
  const pending = await service.request(tx, anna, { kind: 'p2p', fromAccountId: annaEur.accountId, toEmail: parties.rita.email, amount: '42.50', currency: 'EUR', note: 'Concert tickets', params: P2P_PARAMS });

  return { transfers: transferIds.length, entries: dated.length, rejectedId: rejected.id, pendingId: pending.transactionId };
}

function payeeEmail(ref: AccountRef, parties: Record<HistoryPartyKey, HistoryParty>): string {
  const owner = ref.split('-')[0] as HistoryPartyKey;
  const party = parties[owner];
  if (!party) throw new Error(`demo history: no payee for ${ref}`);
  return party.email;
}

function fail(message: string): never {
  throw new Error(message);
}
