/**
 * The money catalog (document 2 §3-§9): permission flags, add currency, crypto wallets, exchange
 * rates, the payee check, recent transfers and pre-approved (recurring) payments.
 *
 * Every method acts for ctx.customerId (the endpoint answers AU without a caller and ENOA for a
 * customer the caller may not act for); an id of another customer's account or schedule answers
 * ENOA, an id that does not exist TA1.
 *
 * Decisions:
 * - addCurrency needs no permission flag: opening an empty account moves no money (the flags
 *   of document 2 §6 are all about moving it). One non-closed account per currency: a second
 *   answers VF on currencyCode.
 * - createWallet needs funding.digital. Without accountId it uses the customer's non-closed
 *   account of that currency when there is one (keeping "one account per currency"), else opens a
 *   payment account (1001); the address is a provider-internal deposit reference (catalog.accounts.ts).
 * - checkPayee answers only the four booleans and, when the e-mail can receive, the display name;
 *   it is capped per user (CHECK_PAYEE_PER_MINUTE, per server instance, like the global limiter)
 *   so it cannot be used to enumerate the customers' e-mail addresses.
 * - recentTransfers leaves disabled destinations out (document 2 §3), so isDisabled is always false
 *   in the answer.
 */
import { and, asc, count, desc, eq, exists, gt, inArray, isNotNull, ne, notBetween, notExists, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ACCOUNT_STATUS_CLOSED, AccountType } from '../../../api/accounts.ts';
import { CARD_TYPE_MAX, CARD_TYPE_MIN, isCardType } from '../../../api/cards.ts';
import type { RecentTransfer, transferMethods } from '../../../api/transfers.ts';
import type { Db } from '../../db/types.ts';
import { accounts } from '../accounts/accounts.tables.ts';
import { minorToDecimal } from '../accounts/money.ts';
import { customerAccess, customers, users } from '../customers/customers.tables.ts';
import { displayName } from '../customers/customers.methods.ts';
import { MethodFailure, vfFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { createAddressLimiter } from '../registration/registration.service.ts';
import { newWalletAddress } from './catalog.accounts.ts';
import { toWireAccount } from '../accounts/accounts.wire.ts';
import { normaliseRate, rateFor } from './rates.ts';
import { heldFlags, nestFlags, OPERATION_FLAGS, requireFlags } from './permissions.ts';
import { blacklist, exchangeRates, internalKind, transferKinds, transferSchedules, transfers, type TransferKind } from './transfers.tables.ts';
import { railInstructions } from '../rails/rails.tables.ts';
import { isPayoutRail, type PayoutRail } from '../rails/rails.ts';
import { beneficiaryNameOf } from '../rails/payout.methods.ts';
import { globalPayments } from './global-pay.tables.ts';
import { VfCode } from '../../../api/errors.ts';

export type MoneyCatalogHandlersMethods = Pick<
  typeof transferMethods,
  'moneyPermissions' | 'addCurrency' | 'createWallet' | 'exchangeRate' | 'defaultExchangeRates' | 'checkPayee' | 'recentTransfers' | 'beneficiaryList' | 'paymentTemplateList' | 'preapprovedList' | 'preapprovedCancel'
>;

/** Payee checks one user may make per minute (per server instance). */
export const CHECK_PAYEE_PER_MINUTE = 60;
/** Recent transfers answered without a limit (document 2 §9: 3 for recent p2p). */
export const RECENT_TRANSFERS_DEFAULT_LIMIT = 3;

/**
 * The acting customer's recent payouts (recentTransfers with payout types; issue 15 item 3): one
 * row per destination (the method and the payee's details as sent), newest first. Left out: a
 * payout refused or canceled before it left, one returned (the destination did not take it), and
 * a global-pay payout (the beneficiary chose it, not the sender). A card's number was never
 * kept (its BIN and last four are): sending again asks for it.
 */
async function recentPayouts(
  db: Db,
  customerId: number,
  types: readonly PayoutRail[],
  input: { countryCode?: string | undefined; search?: string | undefined },
  limit: number,
): Promise<RecentTransfer[]> {
  const search = input.search?.trim();
  const latest = db
    .selectDistinctOn([railInstructions.rail, railInstructions.beneficiary], {
      id: transfers.id,
      rail: railInstructions.rail,
      beneficiary: railInstructions.beneficiary,
      fromAccountId: transfers.fromAccountId,
      templateName: transfers.templateName,
      amountMinor: transfers.amountMinor,
      fromCurrency: transfers.fromCurrency,
      createdAt: transfers.createdAt,
    })
    .from(railInstructions)
    .innerJoin(transfers, eq(transfers.id, railInstructions.transferId))
    .where(
      and(
        eq(transfers.customerId, customerId),
        eq(railInstructions.direction, 'out'),
        inArray(railInstructions.rail, [...types]),
        inArray(railInstructions.status, ['awaitingApproval', 'queued', 'accepted', 'sent', 'settled']),
        sql`${railInstructions.beneficiary} ? 'countryCode'`,
        input.countryCode ? sql`${railInstructions.beneficiary}->>'countryCode' = ${input.countryCode}` : undefined,
        notExists(db.select({ one: sql`1` }).from(globalPayments).where(eq(globalPayments.payoutTransferId, transfers.id))),
        search ? or(ilikeContains(sql`${railInstructions.beneficiary}::text`, search), ilikeContains(sql`coalesce(${transfers.templateName}, '')`, search)) : undefined,
      ),
    )
    .orderBy(railInstructions.rail, railInstructions.beneficiary, desc(transfers.createdAt), desc(transfers.id))
    .as('latest');
  const rows = await db.select().from(latest).orderBy(desc(latest.createdAt), desc(latest.id)).limit(limit);
  return rows.map((r): RecentTransfer => {
    const { countryCode, ...payee } = r.beneficiary;
    return {
      permission: '3d',
      type: r.rail as PayoutRail,
      isDisabled: false,
      templateName: r.templateName,
      toEmail: null,
      toName: beneficiaryNameOf(payee) || null,
      fromAccountId: r.fromAccountId,
      toAccountId: null,
      amount: minorToDecimal(r.amountMinor, r.fromCurrency),
      currency: r.fromCurrency,
      date: r.createdAt.toISOString(),
      countryCode: countryCode!,
      payee,
    };
  });
}
/** Beneficiaries and templates answered without a limit. */
export const BENEFICIARY_LIST_DEFAULT_LIMIT = 50;
export const PAYMENT_TEMPLATE_LIST_DEFAULT_LIMIT = 50;
/** Pre-approved payments per page without a pageSize (document 2 §9: subscriptions 50). */
export const PREAPPROVED_DEFAULT_PAGE_SIZE = 50;

export const CatalogMessages = {
  signIn: 'Sign-in required',
  noAccess: 'No access to this account',
  closedAccount: 'The account is closed',
  invalid: 'Invalid request',
  tooMany: 'Too many requests: try again in a minute',
  noSuchSchedule: 'There is no such pre-approved payment',
  notCancelable: 'This pre-approved payment cannot be canceled',
  alreadyOver: 'This pre-approved payment has already ended',
} as const;

type Acting = { customerId: number; userId: number };

function acting(ctx: MethodContext): Acting {
  if (!ctx.caller || ctx.customerId === null) throw new MethodFailure('AU', CatalogMessages.signIn);
  return { customerId: ctx.customerId, userId: ctx.caller.userId };
}



/** A LIKE pattern matching `text` anywhere, its wildcards (and the escape character) escaped. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
function ilikeContains(expr: SQL, text: string): SQL {
  return sql`${expr} ilike ${containsPattern(text)} escape '\\'`;
}

async function callerEmail(db: Db, userId: number): Promise<string> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!row) throw new MethodFailure('AU', CatalogMessages.signIn);
  return row.email;
}

/** Serialises account creation per customer (one non-closed account per currency). */
async function lockCustomer(tx: Db, customerId: number): Promise<void> {
  await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).for('update');
}

async function openAccount(tx: Db, customerId: number, currency: string, address: string | null) {
  const [row] = await tx
    .insert(accounts)
    .values({ type: AccountType.payment, currency, customerId, purpose: 'customer', address })
    .returning();
  return row!;
}

/**
 * The customer's open account in a currency, not a card: a card (types 2006-2135, api/cards.ts) is
 * an account of the ledger but no payment account, so a EUR card neither blocks opening a EUR
 * account nor is taken as the account a wallet's address goes on.
 */
async function liveAccountIn(db: Db, customerId: number, currency: string) {
  const [row] = await db
    .select()
    .from(accounts)
    .where(
      and(
        eq(accounts.customerId, customerId),
        eq(accounts.currency, currency),
        ne(accounts.status, ACCOUNT_STATUS_CLOSED),
        notBetween(accounts.type, CARD_TYPE_MIN, CARD_TYPE_MAX),
      ),
    )
    .orderBy(asc(accounts.accountId))
    .limit(1);
  return row;
}

// ---- pre-approved payments ------------------------------------------------------------------

type ScheduleRow = typeof transferSchedules.$inferSelect;
const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * The schedule's amount and currency, from the request it was created with (the transfer call's
 * body: `amount` for p2p, `toAmount` for betweenAccounts, with `currency`), or `amountMinor`.
 */
function scheduleAmount(s: ScheduleRow, fromCurrency: string): { amount: string; currency: string } {
  const req = s.request;
  const currency = typeof req.currency === 'string' ? req.currency : fromCurrency;
  for (const key of ['amount', 'toAmount']) {
    const value = req[key];
    if (typeof value === 'string' && DECIMAL.test(value)) return { amount: value, currency };
  }
  const minor = req.amountMinor;
  if ((typeof minor === 'string' && /^\d+$/.test(minor)) || (typeof minor === 'number' && Number.isSafeInteger(minor))) {
    return { amount: minorToDecimal(BigInt(minor), currency), currency };
  }
  throw new Error(`transfer schedule ${s.id} has no amount in its request`);
}

function toWireSubscription(s: ScheduleRow, fromCurrency: string) {
  const { amount, currency } = scheduleAmount(s, fromCurrency);
  const over = s.status === 'finished' || s.status === 'canceled';
  return {
    id: s.id,
    type: s.kind,
    amount,
    currency,
    // The payee's account is theirs to know: a p2p schedule shows the e-mail only.
    toAccount: s.kind === 'betweenAccounts' ? s.toAccountId : null,
    beneficiaryEmail: s.kind === 'p2p' && typeof s.request.toEmail === 'string' ? s.request.toEmail : null,
    frequency: s.frequency,
    status: s.status,
    transactionsDone: s.transactionsDone,
    transactionsTotal: s.transactionsTotal,
    endDate: s.endDate,
    nextRunAt: over ? null : s.nextRunAt.toISOString(),
    userCancel: s.userCancel,
  };
}

// ---- the handlers ---------------------------------------------------------------------------

export interface MoneyCatalogOptions {
  now?: () => number;
  checkPayeePerMinute?: number;
}

export function createMoneyCatalogHandlers(options: MoneyCatalogOptions = {}): HandlerTable<MoneyCatalogHandlersMethods> {
  const payeeLimiter = createAddressLimiter(options.checkPayeePerMinute ?? CHECK_PAYEE_PER_MINUTE, options.now ?? Date.now);

  return {
    async moneyPermissions(_input, ctx) {
      acting(ctx);
      return { permissions: nestFlags(await heldFlags(ctx)) };
    },

    async addCurrency(input, ctx) {
      const { customerId } = acting(ctx);
      await lockCustomer(ctx.db, customerId);
      if (await liveAccountIn(ctx.db, customerId, input.currencyCode)) throw vfFailure('currencyCode', VfCode.hasCurrency);
      const account = await openAccount(ctx.db, customerId, input.currencyCode, null);
      ctx.audit({ accountId: account.accountId, currency: account.currency });
      return { account: toWireAccount(account) };
    },

    async createWallet(input, ctx) {
      const { customerId } = acting(ctx);
      await requireFlags(ctx, ...OPERATION_FLAGS.wallet);
      await lockCustomer(ctx.db, customerId);
      let account;
      if (input.accountId !== undefined) {
        [account] = await ctx.db.select().from(accounts).where(eq(accounts.accountId, input.accountId)).for('update');
        // Another customer's account answers as one that does not exist (no existence oracle).
        if (!account || account.customerId !== customerId) throw new MethodFailure('ENOA', CatalogMessages.noAccess);
        if (account.currency !== input.currencyCode) throw vfFailure('accountId', VfCode.notCurrencyAccount, { currency: input.currencyCode });
        if (account.status === ACCOUNT_STATUS_CLOSED) throw new MethodFailure('CA', CatalogMessages.closedAccount);
        // a card holds no wallet address (its money moves only as the card allows, api/cards.ts)
        if (isCardType(account.type)) throw vfFailure('accountId', VfCode.notAllowed);
      } else {
        account = await liveAccountIn(ctx.db, customerId, input.currencyCode);
      }
      if (!account) {
        account = await openAccount(ctx.db, customerId, input.currencyCode, newWalletAddress(input.currencyCode));
        ctx.audit({ accountId: account.accountId, currency: account.currency, opened: true });
      } else if (!account.address) {
        [account] = await ctx.db
          .update(accounts)
          .set({ address: newWalletAddress(input.currencyCode) })
          .where(eq(accounts.accountId, account.accountId))
          .returning();
        ctx.audit({ accountId: account!.accountId, currency: account!.currency, addressAdded: true });
      }
      return { accountId: account!.accountId, address: account!.address! };
    },

    async exchangeRate(input, ctx) {
      acting(ctx);
      return { rate: await rateFor(ctx.db, input.fromCurrencyCode, input.toCurrencyCode) };
    },

    async defaultExchangeRates(_input, ctx) {
      acting(ctx);
      const rows = await ctx.db
        .select()
        .from(exchangeRates)
        .where(eq(exchangeRates.isDefault, true))
        .orderBy(asc(exchangeRates.fromCurrency), asc(exchangeRates.toCurrency));
      return {
        rates: rows.flatMap((r) => {
          const rate = normaliseRate(r.rate);
          return rate ? [{ fromCurrencyCode: r.fromCurrency, toCurrencyCode: r.toCurrency, rate, updatedAt: r.updatedAt.toISOString() }] : [];
        }),
      };
    },

    async checkPayee(input, ctx) {
      const { customerId, userId } = acting(ctx);
      if (!payeeLimiter.take(String(userId))) throw new MethodFailure('UE', CatalogMessages.tooMany);
      const none = { exist: false, exists: false, isEmployee: false, outBlacklist: false, name: null };
      const [payee] = await ctx.db
        .select({ user: users, customer: customers })
        .from(users)
        .innerJoin(customers, eq(customers.id, users.customerId))
        .where(eq(users.email, input.email));
      if (!payee) return none;
      const senderEmail = await callerEmail(ctx.db, userId);
      const [facts] = await ctx.db
        .select({
          hasAccount: exists(
            ctx.db
              .select({ one: sql`1` })
              .from(accounts)
              .where(
                and(eq(accounts.customerId, payee.customer.id), eq(accounts.purpose, 'customer'), ne(accounts.status, ACCOUNT_STATUS_CLOSED)),
              ),
          ).mapWith(Boolean),
          hasAccess: exists(
            ctx.db
              .select({ one: sql`1` })
              .from(customerAccess)
              .where(and(eq(customerAccess.userId, payee.user.id), eq(customerAccess.customerId, customerId), gt(customerAccess.accessRights, 0))),
          ).mapWith(Boolean),
          blocked: exists(
            ctx.db
              .select({ one: sql`1` })
              .from(blacklist)
              .where(and(eq(blacklist.customerId, payee.customer.id), sql`lower(${blacklist.email}) = ${senderEmail}`)),
          ).mapWith(Boolean),
        })
        .from(customers)
        .where(eq(customers.id, payee.customer.id));
      const canReceive =
        payee.user.activated && !payee.user.disabled && !payee.customer.isProvider && payee.customer.id !== customerId && Boolean(facts?.hasAccount);
      return {
        exist: true,
        exists: canReceive,
        isEmployee: payee.user.customerId === customerId || Boolean(facts?.hasAccess),
        outBlacklist: Boolean(facts?.blocked),
        name: canReceive ? displayName(payee.customer) : null,
      };
    },

    async recentTransfers(input, ctx) {
      const { customerId, userId } = acting(ctx);
      const senderEmail = await callerEmail(ctx.db, userId);
      const asked = input.types && input.types.length > 0 ? input.types : (['betweenAccounts', 'p2p'] as const);
      const limit = input.limit ?? RECENT_TRANSFERS_DEFAULT_LIMIT;
      const payoutTypes = asked.filter(isPayoutRail);
      const types = asked.filter((type) => (transferKinds as readonly string[]).includes(type)) as TransferKind[];
      const payouts = payoutTypes.length > 0 && input.permission !== 'own' ? await recentPayouts(ctx.db, customerId, payoutTypes, input, limit) : [];
      if (types.length === 0) return { transfers: payouts };
      // One row per destination: an account for betweenAccounts, an e-mail for p2p.
      const destination = sql<string>`case when ${transfers.kind} = 'p2p' and ${transfers.toEmail} is not null then 'e:' || lower(${transfers.toEmail}) else 'a:' || ${transfers.toAccountId}::text end`;
      const latest = ctx.db
        .selectDistinctOn([destination], {
          id: transfers.id,
          kind: transfers.kind,
          fromAccountId: transfers.fromAccountId,
          toAccountId: transfers.toAccountId,
          toCustomerId: transfers.toCustomerId,
          toEmail: transfers.toEmail,
          templateName: transfers.templateName,
          amountMinor: transfers.amountMinor,
          fromCurrency: transfers.fromCurrency,
          createdAt: transfers.createdAt,
        })
        .from(transfers)
        .where(
          and(
            eq(transfers.customerId, customerId),
            inArray(transfers.status, ['posted', 'pending']),
            inArray(transfers.kind, [...types]),
            input.permission === 'own' ? eq(transfers.toCustomerId, customerId) : undefined,
            input.permission === '3d' ? ne(transfers.toCustomerId, customerId) : undefined,
          ),
        )
        .orderBy(destination, desc(transfers.createdAt), desc(transfers.id))
        .as('latest');
      const toAccount = alias(accounts, 'to_account');
      const toCustomer = alias(customers, 'to_customer');
      const payeeUser = alias(users, 'payee_user');
      const payeeName = sql<string | null>`case when ${latest.kind} = 'p2p' then (case when ${toCustomer.customerType} = 'business' and ${toCustomer.businessName} is not null then ${toCustomer.businessName} else trim(${toCustomer.firstName} || ' ' || ${toCustomer.lastName}) end) end`;
      const search = input.search?.trim();
      const rows = await ctx.db
        .select({
          kind: latest.kind,
          fromAccountId: latest.fromAccountId,
          toAccountId: latest.toAccountId,
          toCustomerId: latest.toCustomerId,
          toEmail: latest.toEmail,
          templateName: latest.templateName,
          amountMinor: latest.amountMinor,
          fromCurrency: latest.fromCurrency,
          createdAt: latest.createdAt,
          toName: payeeName,
        })
        .from(latest)
        .innerJoin(toAccount, eq(toAccount.accountId, latest.toAccountId))
        .innerJoin(toCustomer, eq(toCustomer.id, latest.toCustomerId))
        .leftJoin(payeeUser, and(eq(latest.kind, 'p2p'), eq(payeeUser.email, sql`lower(${latest.toEmail})`)))
        .where(
          and(
            // Disabled destinations are hidden (document 2 §3): a closed account, a payee who is
            // gone, disabled or not activated, or a payee whose blacklist holds the sender.
            ne(toAccount.status, ACCOUNT_STATUS_CLOSED),
            or(ne(latest.kind, 'p2p'), and(isNotNull(payeeUser.id), eq(payeeUser.disabled, false), eq(payeeUser.activated, true))),
            notExists(
              ctx.db
                .select({ one: sql`1` })
                .from(blacklist)
                .where(and(eq(blacklist.customerId, latest.toCustomerId), sql`lower(${blacklist.email}) = ${senderEmail}`)),
            ),
            search
              ? or(
                  ilikeContains(sql`coalesce(${latest.toEmail}, '')`, search),
                  ilikeContains(sql`coalesce(${payeeName}, '')`, search),
                  ilikeContains(sql`coalesce(${latest.templateName}, '')`, search),
                )
              : undefined,
          ),
        )
        .orderBy(desc(latest.createdAt), desc(latest.id))
        .limit(limit);
      const inside = rows.map(
          (r): RecentTransfer => ({
            permission: r.toCustomerId === customerId ? 'own' : '3d',
            type: internalKind(r.kind),
            isDisabled: false,
            templateName: r.templateName,
            toEmail: r.toEmail,
            toName: r.toName,
            fromAccountId: r.fromAccountId,
            toAccountId: r.kind === 'betweenAccounts' ? r.toAccountId : null,
            amount: minorToDecimal(r.amountMinor, r.fromCurrency),
            currency: r.fromCurrency,
            date: r.createdAt.toISOString(),
          }),
        );
      // newest first across both kinds (ISO dates of one zone sort as text)
      return { transfers: [...inside, ...payouts].sort((a, b) => b.date.localeCompare(a.date)).slice(0, limit) };
    },

    // The acting customer's p2p payees: one row per e-mail (its latest transfer), refused and
    // failed transfers left out. A payee who is gone still shows (the list is a history of
    // payees); sending to them is refused by the transfer itself.
    async beneficiaryList(input, ctx) {
      const { customerId } = acting(ctx);
      const payee = sql<string>`lower(${transfers.toEmail})`;
      const latest = ctx.db
        .selectDistinctOn([payee], {
          id: transfers.id,
          email: sql<string>`${payee}`.as('email'),
          toCustomerId: transfers.toCustomerId,
          amountMinor: transfers.amountMinor,
          fromCurrency: transfers.fromCurrency,
          createdAt: transfers.createdAt,
          transferCount: sql<number>`count(*) over (partition by ${payee})`.mapWith(Number).as('transfer_count'),
        })
        .from(transfers)
        .where(and(eq(transfers.customerId, customerId), eq(transfers.kind, 'p2p'), isNotNull(transfers.toEmail), inArray(transfers.status, ['posted', 'pending'])))
        .orderBy(payee, desc(transfers.createdAt), desc(transfers.id))
        .as('latest');
      const toCustomer = alias(customers, 'to_customer');
      const name = sql<string | null>`case when ${toCustomer.id} is null then null when ${toCustomer.customerType} = 'business' and ${toCustomer.businessName} is not null then ${toCustomer.businessName} else trim(${toCustomer.firstName} || ' ' || ${toCustomer.lastName}) end`;
      const search = input.search?.trim();
      const rows = await ctx.db
        .select({ email: latest.email, name, amountMinor: latest.amountMinor, currency: latest.fromCurrency, createdAt: latest.createdAt, transferCount: latest.transferCount })
        .from(latest)
        .leftJoin(toCustomer, eq(toCustomer.id, latest.toCustomerId))
        .where(search ? or(ilikeContains(sql`${latest.email}`, search), ilikeContains(sql`coalesce(${name}, '')`, search)) : undefined)
        .orderBy(desc(latest.createdAt), desc(latest.id))
        .limit(input.limit ?? BENEFICIARY_LIST_DEFAULT_LIMIT);
      return {
        beneficiaries: rows.map((r) => ({
          email: r.email,
          name: r.name,
          lastAmount: minorToDecimal(r.amountMinor, r.currency),
          currency: r.currency,
          lastDate: r.createdAt.toISOString(),
          transferCount: Number(r.transferCount),
        })),
      };
    },

    // Templates are saved with a transfer (templateName); a name used again is the latest transfer's.
    async paymentTemplateList(input, ctx) {
      const { customerId } = acting(ctx);
      const latest = ctx.db
        .selectDistinctOn([transfers.templateName], {
          id: transfers.id,
          templateName: transfers.templateName,
          kind: transfers.kind,
          fromAccountId: transfers.fromAccountId,
          toAccountId: transfers.toAccountId,
          toEmail: transfers.toEmail,
          amountMinor: transfers.amountMinor,
          fromCurrency: transfers.fromCurrency,
          note: transfers.note,
          reference: transfers.reference,
          createdAt: transfers.createdAt,
        })
        .from(transfers)
        // payouts get their own templates with their kinds' screens (issue 15)
        .where(and(eq(transfers.customerId, customerId), isNotNull(transfers.templateName), inArray(transfers.kind, transferKinds)))
        .orderBy(transfers.templateName, desc(transfers.createdAt), desc(transfers.id))
        .as('latest');
      const rows = await ctx.db
        .select()
        .from(latest)
        .orderBy(desc(latest.createdAt), desc(latest.id))
        .limit(input.limit ?? PAYMENT_TEMPLATE_LIST_DEFAULT_LIMIT);
      const templates = rows.map((r) => ({
        templateName: r.templateName!,
        type: internalKind(r.kind),
        fromAccountId: r.fromAccountId,
        toAccountId: r.kind === 'betweenAccounts' ? r.toAccountId : null,
        toEmail: r.toEmail,
        amount: minorToDecimal(r.amountMinor, r.fromCurrency),
        currency: r.fromCurrency,
        note: r.note,
        reference: r.reference,
        created: r.createdAt.toISOString(),
      }));
      return { templates };
    },

    async preapprovedList(input, ctx) {
      const { customerId } = acting(ctx);
      const pageSize = input.pageSize ?? PREAPPROVED_DEFAULT_PAGE_SIZE;
      const pageNumber = input.pageNumber ?? 1;
      const amountText = sql`coalesce(${transferSchedules.request}->>'amount', ${transferSchedules.request}->>'toAmount')`;
      const amount = sql`(case when ${amountText} ~ '^[0-9]+(\\.[0-9]+)?$' then (${amountText})::numeric end)`;
      const beneficiary = input.beneficiaryEmail?.trim();
      const where = and(
        eq(transferSchedules.customerId, customerId),
        input.type ? eq(transferSchedules.kind, input.type) : undefined,
        beneficiary ? ilikeContains(sql`coalesce(${transferSchedules.request}->>'toEmail', '')`, beneficiary) : undefined,
        input.fromAmount !== undefined ? sql`${amount} >= ${input.fromAmount}::numeric` : undefined,
        input.toAmount !== undefined ? sql`${amount} <= ${input.toAmount}::numeric` : undefined,
      );
      const [rows, [total]] = await Promise.all([
        ctx.db
          .select({ schedule: transferSchedules, fromCurrency: accounts.currency })
          .from(transferSchedules)
          .innerJoin(accounts, eq(accounts.accountId, transferSchedules.fromAccountId))
          .where(where)
          .orderBy(desc(transferSchedules.id))
          .limit(pageSize)
          .offset((pageNumber - 1) * pageSize),
        ctx.db.select({ n: count() }).from(transferSchedules).where(where),
      ]);
      return { subscriptions: rows.map((r) => toWireSubscription(r.schedule, r.fromCurrency)), total: total?.n ?? 0 };
    },

    async preapprovedCancel(input, ctx) {
      const { customerId } = acting(ctx);
      const [row] = await ctx.db
        .select({ schedule: transferSchedules, fromCurrency: accounts.currency })
        .from(transferSchedules)
        .innerJoin(accounts, eq(accounts.accountId, transferSchedules.fromAccountId))
        .where(eq(transferSchedules.id, input.id))
        .for('update', { of: transferSchedules });
      // Another customer's schedule answers as one that does not exist (no existence oracle).
      if (!row || row.schedule.customerId !== customerId) throw new MethodFailure('ENOA', CatalogMessages.noSuchSchedule);
      if (row.schedule.status === 'finished' || row.schedule.status === 'canceled') throw new MethodFailure('TA1', CatalogMessages.alreadyOver);
      if (!row.schedule.userCancel) throw new MethodFailure('TA1', CatalogMessages.notCancelable);
      const [updated] = await ctx.db
        .update(transferSchedules)
        .set({ status: 'canceled' })
        .where(eq(transferSchedules.id, input.id))
        .returning();
      ctx.audit({ scheduleId: input.id, from: row.schedule.status });
      return { subscription: toWireSubscription(updated!, row.fromCurrency) };
    },
  };
}

export const moneyCatalogHandlers = createMoneyCatalogHandlers();
