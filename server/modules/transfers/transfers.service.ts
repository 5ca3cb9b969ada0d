/**
 * Transfers (document 2 §3, §4, §7; issue 4 §1-§3): quotes (fee, max amount, limits), requests
 * between own accounts and to other people, approval by the acting customer's mode, posting on the
 * ledger, voiding, expiry and recurring schedules.
 *
 * Life of a transfer:
 *   request -> pending: a `transfers` row; amount + fee held on the source (accounts.pending_minor);
 *              with approve mode none it is posted in the same transaction instead (no hold).
 *   approve -> posted:  one balanced journal entry (ledger.ts bookEntry) releasing the hold:
 *              source -(amount + fee), destination +toAmount, the provider's fee account +fee,
 *              and for a conversion the provider's FX accounts: fromCurrency +amount,
 *              toCurrency -toAmount (so each currency's legs sum to zero).
 *   void    -> rejected (a phone declined, too many wrong codes, the destination closed),
 *              expired (not approved within TRANSFER_APPROVAL_TTL_S), canceled (by the customer):
 *              the hold released, nothing booked.
 *
 * The hot path in one statement (requestNow): a request between own accounts of one currency with
 * approve mode none is answered by ledger_transfer_now (migration 0009, PL/pgSQL) in its own
 * transaction, one round trip instead of seven: the same checks in the same order, the same rows,
 * the same answers; anything else falls back to request() in the endpoint's transaction. Requests
 * arriving while the database is busy are first posted together by ledger_transfer_batch
 * (migration 0011, ledger-batch.ts), which answers the common case and leaves every other request
 * to ledger_transfer_now.
 *
 * Lock order, the same on every path so none can deadlock: an idempotency key, a transfer row,
 * the customer accounts in ascending id order, the daily limit's counter (transfer_daily_usage:
 * one of the day's shards, or all of them in shard order; taken last and so held briefly; migration
 * 0010), an approval request.
 *
 * Amounts: integers in minor units inside; decimal strings on the wire (money.ts). Conversions
 * are exact integer arithmetic at the stored rate, half-even (rates.ts).
 */
import { and, asc, eq, inArray, lte, ne, notBetween, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/types.ts';
import { executeNamed } from '../../db/prepared.ts';
import { ledgerBatcherOf } from './ledger-batch.ts';
import type { PermissionFlag } from '../../../api/transfers.ts';
import { checkFlags, flagsFrom, PermissionMessages, storedFlagsSql } from './permissions.ts';
import {
  applyEntryPlan,
  bookEntry,
  InsufficientFundsError,
  legValuesSql,
  lockAccounts,
  placeHold,
  planEntry,
  providerAccountIds,
  providerCustomerId,
  releaseHold,
  updateValuesSql,
  type EntryLeg,
  type LockedAccount,
} from '../accounts/ledger.ts';
import { accounts } from '../accounts/accounts.tables.ts';
import { clearingAccountId } from '../rails/clearing.ts';
import { isPayoutRail, type PayoutRail } from '../rails/rails.ts';
import { currencyExponent, decimalToMinor, minorToDecimal } from '../accounts/money.ts';
import { IDEMPOTENCY_KEY_HEADER } from '../../../api/transfers.ts';
import { blacklist, transferApprovals, transferSchedules, transfers, type TransferKind, type TransferStatus } from './transfers.tables.ts';
import { customers, users } from '../customers/customers.tables.ts';
import { MethodFailure, vfFailure } from '../method-types.ts';
import { KeptFailure } from '../platform/method-endpoint.ts';
import { addDailyUsage, addUsageSql, computeFee, dailyLimitExceeded, feeOperationOf, feeRuleFor, giveBackDailyUsage, NO_LIMITS, utcDay, type FeeRule, type Limits } from './fees.ts';
import { convertForward, convertInverse, pickRate, rateFor } from './rates.ts';
import {
  APPROVAL_MAX_ATTEMPTS,
  APPROVAL_RESEND_INTERVAL_S,
  ApprovalMessages,
  checkApprovalCode,
  prepareApproval,
  sendSmsCode,
  type ApprovalPreparation,
  type ApproveType,
  type ApprovingUser,
  type TransferApprovalsPort,
} from './approval.service.ts';
import { addPeriods, nextSlotAfter, type Frequency } from './schedule-dates.ts';
import { VfCode, vf as vfError } from '../../../api/errors.ts';
import { CARD_TYPE_MAX, CARD_TYPE_MIN, cardActionAllowed, isCardType } from '../../../api/cards.ts';
import { closeBusinessRequest, decidedNotices, initiateOnly, initiateOnlySql, parkForChecker, type PushNotice } from './business-approvals.hooks.ts';
import { businessTransactionRequests } from './business-approvals.tables.ts';
import { bookSplits, splitTargets, type SplitCredit } from '../contracts/split.ts';

/**
 * The credit a posted transfer makes that the payee's revenue-split contracts may split
 * (contracts/split.ts): a p2p transfer's destination, paid by the requesting customer; null for
 * every other kind (own accounts, payouts to a rail, card fees: never split).
 */
function splitCreditOf(t: { kind: string; customerId: number; toAccountId: number; toCustomerId: number }, at: Date): SplitCredit | null {
  return t.kind === 'p2p' && t.toCustomerId !== t.customerId ? { accountId: t.toAccountId, fromCustomerIds: [t.customerId], at } : null;
}

/** requestNow keeps at most about this many accounts' card-ness (then starts again): a bound on its memory. */
const CARD_ACCOUNTS_KEPT = 100_000;

/** A pending transfer not approved within this expires (voided lazily when touched, and by the sweeper). */
export const TRANSFER_APPROVAL_TTL_S = 900;
export const ACCOUNT_STATUS_CLOSED = 11;
/** document 2 §8: the description of a transfer a phone declined */
export const PUSH_REJECTED_DESCRIPTION = 'Transaction was rejected.';

export const TransferMessages = {
  noAccess: 'No access to this account',
  closed: 'The account is closed',
  unknownTransfer: 'Unknown transfer',
  otherUser: 'This transfer was asked by another user',
  notPending: 'This transfer is no longer waiting for approval',
  expired: 'This transfer has expired',
  invalid: 'Invalid request',
  payoutsUnavailable: 'Payouts are not available: the platform runs without its job queue',
} as const;

export type TransferRow = typeof transfers.$inferSelect;
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
type AccountRow = typeof accounts.$inferSelect;

/** A side of a transfer as the card rule needs it: the account's type and status, its card's sub-type and virtual flag (null: no card). */
interface CardSide {
  type: number;
  status: number;
  subType: string | null;
  isVirtual: boolean | null;
}

/**
 * What a card allows a transfer (api/cards.ts cardActionAllowed; document 2 §4), null when the
 * account is no card or the card allows it. A debit card holds no money of its own (it draws on
 * its settlement account): never a side of a transfer (notAllowed). A prepaid card is loaded
 * ('load': active only) and unloaded ('unload': active, paused, expired) by a transfer between
 * the customer's own accounts only; its money never leaves to anyone else (p2p, payouts, mass and
 * global pay: notAllowed on the source), so a card's money is spent at merchants (the issuer's
 * authorisations) or comes back to an account first. A status that does not allow the move:
 * cardStatus, on the field of that side.
 */
export function cardRefusal(account: CardSide, side: 'from' | 'to', kind: RequestSpec['kind'] | 'mass', param: string): MethodFailure | null {
  if (!isCardType(account.type)) return null;
  if (account.subType === 'DEBIT' || kind !== 'betweenAccounts') return vf(param, VfCode.notAllowed);
  const allowed = cardActionAllowed(side === 'to' ? 'load' : 'unload', { accountStatusId: account.status, cardIsVirtual: account.isVirtual });
  return allowed ? null : vf(param, VfCode.cardStatus);
}

/** What an approval reads of a pending transfer's destination: closed, or a card that no longer loads. */
const DESTINATION_COLUMNS = { status: accounts.status, type: accounts.type, subType: accounts.subType };

/**
 * A load of a card asked while it was active, approved once the card is paused or blocked: the
 * card's rule holds at the posting too (the transfer is rejected, its hold released).
 */
function cardNoLongerLoads(destination: { status: number; type: number; subType: string | null }, t: { kind: string }): boolean {
  return t.kind === 'betweenAccounts' && cardRefusal({ ...destination, isVirtual: null }, 'to', 'betweenAccounts', 'toAccount') !== null;
}

/** The part of an account row the card rule reads, in SQL of accounts `a` (the cards row read only for a card). */
const CARD_SIDE_SQL = sql.raw(
  `a.type, a.sub_type, case when a.type between ${CARD_TYPE_MIN} and ${CARD_TYPE_MAX} then (select c.is_virtual from cards c where c.account_id = a.account_id) end as is_virtual`,
);

/** Who asks: the acting user for the acting customer (method context or a schedule's owner). */
export interface TransferActor {
  userId: number;
  customerId: number;
  ip: string;
  /** a push event to a customer after the transaction commits */
  publish(customerId: number, event: { type: string } & Record<string, unknown>): void;
  audit?(details: Record<string, unknown>): void;
  /**
   * the signed-in user's own customer (method calls): when it is not customerId the caller acts for
   * a company, whose right-3 users' payments wait for a checker (business-approvals.hooks.ts), so
   * requestNow leaves such a request to request()
   */
  ownCustomerId?: number;
}

/** The wire result (api/transfers.ts TransferResultEntries). */
export interface TransferResult {
  transactionId: number;
  status: TransferStatus;
  approveType: ApproveType;
  approvalSentTo: string | null;
  fee: string;
  feeCurrency: string;
  amount: string;
  currency: string;
  toAmount: string;
  toCurrency: string;
  rate: string;
  expiresAt: string;
  scheduleId: number | null;
}

export function toResult(t: TransferRow, approvalSentTo: string | null): TransferResult {
  return {
    transactionId: t.id,
    status: t.status,
    approveType: t.approveType,
    approvalSentTo,
    fee: minorToDecimal(t.feeMinor, t.fromCurrency),
    feeCurrency: t.fromCurrency,
    amount: minorToDecimal(t.amountMinor, t.fromCurrency),
    currency: t.fromCurrency,
    toAmount: minorToDecimal(t.toAmountMinor, t.toCurrency),
    toCurrency: t.toCurrency,
    rate: t.rate,
    expiresAt: t.expiresAt.toISOString(),
    scheduleId: t.scheduleId,
  };
}

const vf = vfFailure;

/** Field names of the method being answered (VF names the caller's own fields). */
export interface ParamNames {
  from: string;
  to: string;
  amount: string;
  currency: string;
}

/** An amount of the wire in minor units of a currency; VF on the field when it has too many decimals. */
export function parseAmount(amount: string, currency: string, param: string): bigint {
  try {
    return decimalToMinor(amount, currency);
  } catch {
    const exponent = currencyExponent(currency);
    throw exponent === 0 ? vf(param, VfCode.wholeAmount, { currency }) : vf(param, VfCode.maxDecimals, { decimals: exponent, currency });
  }
}

/** An account of the acting customer (ENOA for anyone else's or an unknown id, CA when closed). */
export async function ownAccount(db: Db | Tx, customerId: number, accountId: number): Promise<AccountRow> {
  const [account] = await db.select().from(accounts).where(eq(accounts.accountId, accountId));
  if (!account || account.customerId !== customerId || account.purpose !== 'customer') throw new MethodFailure('ENOA', TransferMessages.noAccess);
  if (account.status === ACCOUNT_STATUS_CLOSED) throw new MethodFailure('CA', TransferMessages.closed);
  return account;
}

interface RequestContext {
  accounts: Map<number, { accountId: number; customerId: number; purpose: string; status: number; currency: string } & CardSide>;
  user: ApprovingUser | null;
  mode: ApproveType | null;
  rates: { from: string; rate: string }[];
  feeRule: FeeRule | null;
  limits: Limits;
  provider: Map<string, number>;
  /** the permission flags the user holds for the acting customer */
  flags: ReadonlySet<PermissionFlag>;
  /** the user acts for a company with right 3 (initiate): the payment waits for a checker (business-approvals.hooks.ts) */
  initiateOnly: boolean;
}

export interface Quote {
  from: AccountRow;
  toCurrency: string;
  amountMinor: bigint;
  toAmountMinor: bigint;
  feeMinor: bigint;
  rate: string;
  feeRule: FeeRule | null;
}

/**
 * The amounts of a transfer from `from` into toCurrency. The amount is in amountCurrency: the
 * source's (what leaves, toAmount converted forward) or the destination's (what arrives, the source
 * amount converted back). A zero amount quotes zero (fee included).
 */
export async function quoteAmounts(
  db: Db | Tx,
  input: { kind: TransferKind; from: AccountRow; toCurrency: string; amount: string; amountCurrency: string; params: ParamNames },
): Promise<Quote> {
  const { from, toCurrency, amountCurrency, params } = input;
  if (amountCurrency !== from.currency && amountCurrency !== toCurrency) throw vf(params.currency, VfCode.currencyOfAccounts);
  const rate = await rateFor(db, from.currency, toCurrency);
  const feeRule = await feeRuleFor(db, feeOperationOf(input.kind, from.currency, toCurrency), from.currency);
  return computeQuote(input, rate, feeRule);
}

/** quoteAmounts with the rate and the fee rule already read. */
export function computeQuote<A extends { currency: string }>(
  input: { from: A; toCurrency: string; amount: string; amountCurrency: string; params: ParamNames },
  rate: string,
  feeRule: FeeRule | null,
): Omit<Quote, 'from'> & { from: A } {
  const { from, toCurrency, amountCurrency, params } = input;
  if (amountCurrency !== from.currency && amountCurrency !== toCurrency) throw vf(params.currency, VfCode.currencyOfAccounts);
  let amountMinor: bigint;
  let toAmountMinor: bigint;
  if (amountCurrency === from.currency) {
    amountMinor = parseAmount(input.amount, from.currency, params.amount);
    toAmountMinor = from.currency === toCurrency ? amountMinor : convertForward(amountMinor, from.currency, toCurrency, rate);
  } else {
    toAmountMinor = parseAmount(input.amount, toCurrency, params.amount);
    amountMinor = convertInverse(toAmountMinor, from.currency, toCurrency, rate);
  }
  return { from, toCurrency, amountMinor, toAmountMinor, feeMinor: computeFee(feeRule, amountMinor), rate, feeRule };
}

/** The most that can leave `available` (minor units) with its fee: max x with x + fee(x) <= available. */
export function maxSendable(available: bigint, rule: FeeRule | null): bigint {
  if (available <= 0n) return 0n;
  const fits = (x: bigint) => x + computeFee(rule, x) <= available;
  if (!fits(1n)) return 0n;
  // x + fee(x) never decreases as x grows, so the amounts that fit are an interval from 1.
  let low = 1n;
  let high = available;
  while (low < high) {
    const mid = (low + high + 1n) / 2n;
    if (fits(mid)) low = mid;
    else high = mid - 1n;
  }
  return low;
}

export interface Payee {
  customerId: number;
  accountId: number;
  name: string;
  email: string;
}

export function customerName(c: { businessName: string | null; firstName: string; lastName: string }): string {
  return c.businessName ?? `${c.firstName} ${c.lastName}`.trim();
}

/**
 * The payee of a p2p transfer: a user with this e-mail whose customer has an active account in the
 * currency (the lowest id), is not the sender, and does not refuse the sender's e-mail (blacklist).
 */
export async function resolvePayee(db: Db | Tx, sender: { customerId: number; email: string }, toEmail: string, currency: string, param = 'toEmail'): Promise<Payee> {
  const [user] = await db
    .select({ customerId: users.customerId, disabled: users.disabled, activated: users.activated, isProvider: customers.isProvider, businessName: customers.businessName, firstName: customers.firstName, lastName: customers.lastName })
    .from(users)
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(eq(users.email, toEmail.toLowerCase()));
  if (!user || user.disabled || !user.activated || user.isProvider) throw vf(param, VfCode.payeeUnknown);
  if (user.customerId === sender.customerId) throw vf(param, VfCode.payeeSelf);
  const [refused] = await db
    .select({ id: blacklist.id })
    .from(blacklist)
    .where(and(eq(blacklist.customerId, user.customerId), eq(blacklist.email, sender.email.toLowerCase())))
    .limit(1);
  if (refused) throw vf(param, VfCode.payeeRefuses);
  const [account] = await db
    .select({ id: accounts.accountId })
    .from(accounts)
    .where(
      and(
        eq(accounts.customerId, user.customerId),
        eq(accounts.currency, currency),
        eq(accounts.purpose, 'customer'),
        ne(accounts.status, ACCOUNT_STATUS_CLOSED),
        // a payee's card is never where their money arrives (cardRefusal)
        notBetween(accounts.type, CARD_TYPE_MIN, CARD_TYPE_MAX),
      ),
    )
    .orderBy(asc(accounts.accountId))
    .limit(1);
  if (!account) throw vf(param, VfCode.payeeNoAccount, { currency });
  return { customerId: user.customerId, accountId: account.id, name: customerName(user), email: toEmail.toLowerCase() };
}

/**
 * resolvePayee for many e-mail addresses at once (a mass batch's rows), in one statement: each
 * address's payee, or the code resolvePayee would refuse it with, by the same rules in the same order.
 */
export async function resolvePayees(
  db: Db | Tx,
  sender: { customerId: number; email: string },
  emails: readonly string[],
  currency: string,
): Promise<Map<string, Payee | { code: typeof VfCode.payeeUnknown | typeof VfCode.payeeSelf | typeof VfCode.payeeRefuses | typeof VfCode.payeeNoAccount }>> {
  const wanted = [...new Set(emails.map((e) => e.toLowerCase()))];
  const out = new Map<string, Payee | { code: typeof VfCode.payeeUnknown | typeof VfCode.payeeSelf | typeof VfCode.payeeRefuses | typeof VfCode.payeeNoAccount }>();
  if (wanted.length === 0) return out;
  const rows = rowsOf<{
    email: string; customer_id: number; disabled: boolean; activated: boolean; is_provider: boolean;
    business_name: string | null; first_name: string; last_name: string; refuses: boolean; account_id: number | null;
  }>(
    await db.execute(sql`
      select u.email, u.customer_id, u.disabled, u.activated, c.is_provider, c.business_name, c.first_name, c.last_name,
        exists (select 1 from blacklist b where b.customer_id = u.customer_id and b.email = ${sender.email.toLowerCase()}) as refuses,
        (select a.account_id from accounts a
          where a.customer_id = u.customer_id and a.currency = ${currency} and a.purpose = 'customer' and a.status <> ${ACCOUNT_STATUS_CLOSED}
            and a.type not between ${CARD_TYPE_MIN} and ${CARD_TYPE_MAX}
          order by a.account_id limit 1) as account_id
      from users u join customers c on c.id = u.customer_id
      where u.email in (${sql.join(
        wanted.map((e) => sql`${e}`),
        sql`, `,
      )})`),
  );
  const found = new Map(rows.map((r) => [r.email, r]));
  for (const email of wanted) {
    const user = found.get(email);
    if (!user || user.disabled || !user.activated || user.is_provider) out.set(email, { code: VfCode.payeeUnknown });
    else if (Number(user.customer_id) === sender.customerId) out.set(email, { code: VfCode.payeeSelf });
    else if (user.refuses) out.set(email, { code: VfCode.payeeRefuses });
    else if (user.account_id === null) out.set(email, { code: VfCode.payeeNoAccount });
    else {
      const name = customerName({ businessName: user.business_name, firstName: user.first_name, lastName: user.last_name });
      out.set(email, { customerId: Number(user.customer_id), accountId: Number(user.account_id), name, email });
    }
  }
  return out;
}

export interface SubscriptionInput {
  subscriptionEndDate?: string | undefined;
  subscriptionFrequency?: Frequency | undefined;
  subscriptionTransactions?: number | undefined;
  subscriptionUserCancel?: boolean | undefined;
}

export type RequestSpec = {
  fromAccountId: number;
  amount: string;
  currency: string;
  note?: string | undefined;
  reference?: string | undefined;
  templateName?: string | undefined;
  subscription?: SubscriptionInput;
  params: ParamNames;
  /** the permission flags the caller must hold (13 otherwise), read with the request's context */
  requiredFlags?: readonly PermissionFlag[];
} & (
  | { kind: 'betweenAccounts'; toAccountId: number }
  | { kind: 'p2p'; toEmail: string }
  /** a payout over a rail: what the rail needs (checked by the caller, no full card number) and the name shown */
  | { kind: PayoutRail; beneficiary: Record<string, string>; beneficiaryName: string }
);

/** The rails' side of a payout transfer (rails/payouts.service.ts), in the transfer's transaction. */
const MASS_PARAMS: ParamNames = { from: 'accountId', to: 'file', amount: 'file', currency: 'accountId' };

/** The rails' side of a payout transfer (rails/payouts.service.ts), in the transfer's transaction. */
export interface PayoutPort {
  instruct(tx: Tx, t: TransferRow, beneficiary: Record<string, string>, status: 'queued' | 'awaitingApproval'): Promise<number>;
  release(tx: Tx, transferId: number): Promise<void>;
  cancel(tx: Tx, transferId: number): Promise<void>;
  /** a mass batch's request approved: its rows are paid by the batch job (mass.service.ts), queued in this transaction */
  queueBatch(tx: Tx, transferId: number): Promise<void>;
}

export interface RequestOptions {
  /** a schedule's run: pre-approved (approve type none), booked under `schedule:{id}:{n}` */
  scheduleRun?: { scheduleId: number; run: number };
  /** a row of an approved mass batch (mass.service.ts): pre-approved, booked under `batch:{id}:{line}` */
  batchRow?: { batchId: number; line: number };
}

/** A mass batch's request (mass.service.ts): the rows' amounts and fees, held and approved as one. */
export interface MassRequestSpec {
  fromAccountId: number;
  amountMinor: bigint;
  feeMinor: bigint;
  /** what the approval names: e.g. "12 payments" */
  payeeName: string;
  requiredFlags: readonly PermissionFlag[];
  /**
   * a global-pay batch (global-pay.service.ts): approved at once (mode none), the caller releases
   * its payments itself once it has linked the batch; no mass job is queued
   */
  approvedByCaller?: boolean;
}

/**
 * Global pay's side of an approval (global-pay.service.ts), in the approving transaction: a mass
 * request that is a global-pay batch's gets its payments released (secrets, e-mails); false when
 * the request is an ordinary mass batch's.
 */
export interface GlobalPayPort {
  approved(tx: Tx, t: TransferRow): Promise<boolean>;
}

/**
 * The cards' side of a card fee transfer (cards/cards.service.ts), in the transaction that books or
 * voids it: paid, the card goes into production (or waits for its confirmation; virtual: active);
 * voided (rejected, expired, canceled), the application's card is canceled.
 */
export interface CardPort {
  feePaid(tx: Tx, t: TransferRow): Promise<void>;
  feeVoided(tx: Tx, t: TransferRow): Promise<void>;
}

/** A card's application fee (cards.service.ts): issue fee plus shipping, from the fee account to the provider's fee account. */
export interface CardFeeRequestSpec {
  fromAccountId: number;
  amountMinor: bigint;
  /** what the approval names: e.g. "Card issue fee" */
  payeeName: string;
  /** links the transfer to its card before it can be booked (mode none books it in this call) */
  attach(tx: Tx, t: TransferRow): Promise<void>;
}

/** A card fee counts towards no limit; its daily counter is kept only so the counters equal the transfers (dailyUsageProblems). */
const CARD_FEE_NO_LIMIT = 9_000_000_000_000_000_000n;
const CARD_FEE_PARAMS: ParamNames = { from: 'feeAccountId', to: 'feeAccountId', amount: 'feeAccountId', currency: 'feeAccountId' };

/** The part of the platform's push a background path needs (after its own commit). */
export interface TransferPublisher {
  publish(customerId: number, event: { type: string } & Record<string, unknown>): Promise<void>;
}

export interface TransferServiceDeps {
  now: () => number;
  /** push approvals (approvals.service.ts); null: push mode answers TA1 */
  approvals: TransferApprovalsPort | null;
  /** events of background paths (sweeper, device answers); null: none sent */
  publisher: TransferPublisher | null;
  log?: (err: unknown) => void;
  /** payouts over the rails; null: a payout request answers UE (no job queue in this process) */
  payouts?: PayoutPort | null;
  /** global-pay batches' approvals (the app's global-pay service); null: none in this process */
  globalPay?: GlobalPayPort | null;
  /** card fee transfers booked or voided (the app's card service); null: none in this process */
  cards?: CardPort | null;
}

export type TransferService = ReturnType<typeof createTransferService>;

/**
 * The idempotency claim of a call answered in one statement (method-endpoint.ts): the caller, the
 * key and the hash of the request, and the method's name (stored with the answer, and the audit
 * entry's method).
 */
export interface OneStatementClaim {
  userId: number;
  key: string;
  requestHash: string;
  method: string;
}

/** What a call answered in one statement did: posted now, or the key's stored answer replayed. */
export interface OneStatementOutcome {
  replay: boolean;
  full: { responseCode: '00' } & Record<string, unknown>;
}

/** The SQLSTATE of a refusal raised by the ledger's functions (migration 0009), its message a JSON object. */
export const LEDGER_REFUSAL_SQLSTATE = 'WL001';

interface LedgerRefusal {
  code: string;
  vf?: string;
  param?: string;
  amount?: string;
  left?: string;
  currency?: string;
  accountId?: number;
}

/** The refusal a ledger function raised (looking through drizzle's wrapper), or null for any other error. */
export function ledgerRefusalOf(err: unknown): LedgerRefusal | null {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === LEDGER_REFUSAL_SQLSTATE && typeof message === 'string') {
      try {
        return JSON.parse(message) as LedgerRefusal;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** A run of a schedule was booked before (its entry key exists): the run's transaction must roll back. */
export class DuplicateRunError extends Error {
  override name = 'DuplicateRunError';
}

export function createTransferService(deps: TransferServiceDeps) {
  /** requestNow's answers of eitherIsCard: account id -> is a card (types never change) */
  const cardAccounts = new Map<number, boolean>();
  const { now, approvals } = deps;
  const payouts = deps.payouts ?? null;
  const at = (ms: number) => new Date(ms);
  const report = (err: unknown) => deps.log?.(err);

  async function approvingUser(tx: Db | Tx, userId: number): Promise<ApprovingUser> {
    const [user] = await tx
      .select({ id: users.id, email: users.email, customerId: users.customerId, totpSecret: users.totpSecret, approvalCodeHash: users.approvalCodeHash })
      .from(users)
      .where(eq(users.id, userId));
    if (!user) throw new MethodFailure('AU', 'Sign-in required');
    return user;
  }

  function transferEvent(t: Pick<TransferRow, 'id' | 'status'>, description?: string) {
    return { type: 'TransferApproval', transactionId: t.id, status: t.status, ...(description ? { description } : {}) };
  }

  /**
   * What a request reads before its locks, in one statement: the source and (between own
   * accounts) destination account, the asking user and the acting customer's approve mode, the
   * rates of the pair, the fee rule, the limits and the provider's fee and FX accounts of the
   * currencies. The destination currency of a p2p transfer is the one asked (checked by the caller).
   */
  async function readRequestContext(tx: Tx, actor: TransferActor, spec: RequestSpec): Promise<RequestContext> {
    const toId = spec.kind === 'betweenAccounts' ? spec.toAccountId : spec.fromAccountId;
    // p2p and payouts arrive in the request's currency; between accounts in the destination's
    const p2pCurrency = spec.kind !== 'betweenAccounts' ? spec.currency : null;
    const [row] = rowsOf<{
      accounts: { accountId: number; customerId: number; purpose: string; status: number; currency: string; type: number; subType: string | null; isVirtual: boolean | null }[] | null;
      user: ApprovingUser | null;
      mode: ApproveType | null;
      rates: { from: string; rate: string }[] | null;
      fee: { fixedMinor: string; basisPoints: number; minMinor: string; maxMinor: string | null } | null;
      limits: { minMinor: string; maxMinor: string; dailyMinor: string } | null;
      provider: { key: string; id: number }[] | null;
      flags: Record<string, boolean> | null;
      initiate_only: boolean;
    }>(
      await executeNamed(tx, sql`
        with a as (
          select a.account_id, a.customer_id, a.purpose, a.status, a.currency, ${CARD_SIDE_SQL} from accounts a where a.account_id in (${spec.fromAccountId}::integer, ${toId}::integer)
        ),
        f as (select currency from a where account_id = ${spec.fromAccountId}::integer),
        t as (select coalesce(${p2pCurrency}::text, (select currency from a where account_id = ${toId}::integer)) as currency)
        select
          (select json_agg(json_build_object('accountId', account_id, 'customerId', customer_id, 'purpose', purpose, 'status', status, 'currency', currency,
             'type', type, 'subType', sub_type, 'isVirtual', is_virtual)) from a) as accounts,
          (select json_build_object('id', u.id, 'email', u.email, 'customerId', u.customer_id, 'totpSecret', u.totp_secret, 'approvalCodeHash', u.approval_code_hash)
             from users u where u.id = ${actor.userId}::integer) as "user",
          (select transaction_approve_mode from customers where id = ${actor.customerId}::integer) as mode,
          (select json_agg(json_build_object('from', r.from_currency, 'rate', r.rate)) from exchange_rates r, f, t
             where f.currency <> t.currency
               and ((r.from_currency = f.currency and r.to_currency = t.currency) or (r.from_currency = t.currency and r.to_currency = f.currency))) as rates,
          (select json_build_object('fixedMinor', r.fixed_minor::text, 'basisPoints', r.basis_points, 'minMinor', r.min_minor::text, 'maxMinor', r.max_minor::text)
             from fee_rules r, f, t
             where r.currency = f.currency
               and r.operation = case when ${spec.kind}::text <> 'betweenAccounts' then ${spec.kind}::text when f.currency = t.currency then 'betweenAccounts' else 'exchange' end) as fee,
          (select json_build_object('minMinor', l.min_minor::text, 'maxMinor', l.max_minor::text, 'dailyMinor', l.daily_minor::text)
             from transfer_limits l, f where l.operation = ${spec.kind}::text and l.currency = f.currency) as limits,
          (select json_agg(json_build_object('key', p.purpose || ':' || p.currency, 'id', p.account_id)) from (
             select distinct on (pa.purpose, pa.currency) pa.account_id, pa.purpose, pa.currency
             from accounts pa join customers c on c.id = pa.customer_id
             where c.is_provider and pa.purpose in ('fee', 'fx') and pa.currency in (select currency from f union select currency from t)
             order by pa.purpose, pa.currency, pa.account_id) p) as provider,
          ${storedFlagsSql(actor.userId, actor.customerId)} as flags,
          ${initiateOnlySql(actor.userId, actor.customerId)} as initiate_only`),
    );
    const r = row!;
    return {
      accounts: new Map(
        (r.accounts ?? []).map((a) => [Number(a.accountId), { ...a, accountId: Number(a.accountId), customerId: Number(a.customerId), status: Number(a.status), type: Number(a.type) }]),
      ),
      user: r.user ? { ...r.user, id: Number(r.user.id), customerId: Number(r.user.customerId) } : null,
      mode: r.mode,
      rates: r.rates ?? [],
      feeRule: r.fee
        ? { fixedMinor: BigInt(r.fee.fixedMinor), basisPoints: Number(r.fee.basisPoints), minMinor: BigInt(r.fee.minMinor), maxMinor: r.fee.maxMinor === null ? null : BigInt(r.fee.maxMinor) }
        : null,
      limits: r.limits ? { minMinor: BigInt(r.limits.minMinor), maxMinor: BigInt(r.limits.maxMinor), dailyMinor: BigInt(r.limits.dailyMinor) } : NO_LIMITS,
      provider: new Map((r.provider ?? []).map((p) => [p.key, Number(p.id)])),
      flags: flagsFrom(r.flags),
      initiateOnly: r.initiate_only === true,
    };
  }

  /** Recurring fields: VF unless consistent; null when the request is not recurring. */
  function checkSubscription(input: SubscriptionInput | undefined): SubscriptionInput | null {
    if (!input) return null;
    const recurring = input.subscriptionFrequency !== undefined;
    if (!recurring) {
      if (input.subscriptionEndDate !== undefined || input.subscriptionTransactions !== undefined) throw vf('subscriptionFrequency', VfCode.frequencyRequired);
      return null;
    }
    if (input.subscriptionEndDate !== undefined && input.subscriptionEndDate <= at(now()).toISOString().slice(0, 10)) {
      throw vf('subscriptionEndDate', VfCode.laterThanToday);
    }
    return input;
  }

  /**
   * A transfer request in the caller's transaction (the endpoint's, or a schedule run's): checks,
   * the limits, the hold (or posting at once with approve mode none), the approval started.
   */
  async function request(tx: Tx, actor: TransferActor, spec: RequestSpec, options: RequestOptions = {}): Promise<TransferResult> {
    // Everything the request reads before its locks, in one statement (the checks below answer in
    // the same order as when each was its own query: the permission flags first).
    const context = await readRequestContext(tx, actor, spec);
    if (spec.requiredFlags) checkFlags(context.flags, spec.requiredFlags);
    const preApproved = options.scheduleRun !== undefined || options.batchRow !== undefined;
    const subscription = preApproved ? null : checkSubscription(spec.subscription);
    const from = context.accounts.get(spec.fromAccountId);
    if (!from || from.customerId !== actor.customerId || from.purpose !== 'customer') throw new MethodFailure('ENOA', TransferMessages.noAccess);
    if (from.status === ACCOUNT_STATUS_CLOSED) throw new MethodFailure('CA', TransferMessages.closed);
    // a card as the source: unloaded to an own account only, as its status allows (before anything is written or held)
    const fromCard = cardRefusal(from, 'from', spec.kind, spec.params.from);
    if (fromCard) throw fromCard;
    if (!context.user) throw new MethodFailure('AU', 'Sign-in required');
    const requester = { user: context.user, mode: context.mode ?? 'none' };
    const user = requester.user;

    let toAccountId: number;
    let toCustomerId: number;
    let toCurrency: string;
    let payeeName: string;
    let toEmail: string | null = null;
    if (spec.kind === 'betweenAccounts') {
      if (spec.toAccountId === spec.fromAccountId) throw vf(spec.params.to, VfCode.sameAccount);
      const to = context.accounts.get(spec.toAccountId);
      if (!to || to.customerId !== actor.customerId || to.purpose !== 'customer') throw new MethodFailure('ENOA', TransferMessages.noAccess);
      if (to.status === ACCOUNT_STATUS_CLOSED) throw new MethodFailure('CA', TransferMessages.closed);
      // a card as the destination: loaded only while its status allows
      const toCard = cardRefusal(to, 'to', spec.kind, spec.params.to);
      if (toCard) throw toCard;
      toAccountId = to.accountId;
      toCustomerId = to.customerId;
      toCurrency = to.currency;
      payeeName = `${to.currency} account ${to.accountId}`;
    } else if (spec.kind !== 'p2p') {
      // a payout: to the rail's clearing account, in the account's currency (conversions on the way out: not yet)
      if (!payouts) throw new MethodFailure('UE', TransferMessages.payoutsUnavailable);
      if (spec.currency !== from.currency) throw vf(spec.params.currency, VfCode.currencyOfAccount);
      toAccountId = await clearingAccountId(tx, spec.kind, from.currency);
      toCustomerId = (await providerCustomerId(tx))!;
      toCurrency = from.currency;
      payeeName = spec.beneficiaryName;
    } else {
      if (spec.currency !== from.currency) throw vf(spec.params.currency, VfCode.currencyOfAccount);
      const payee = await resolvePayee(tx, { customerId: actor.customerId, email: user.email }, spec.toEmail, spec.currency);
      toAccountId = payee.accountId;
      toCustomerId = payee.customerId;
      toCurrency = spec.currency;
      payeeName = payee.name;
      toEmail = payee.email;
    }

    const quote = computeQuote(
      { from, toCurrency, amount: spec.amount, amountCurrency: spec.currency, params: spec.params },
      pickRate(context.rates, from.currency, toCurrency),
      context.feeRule,
    );
    if (quote.amountMinor <= 0n || quote.toAmountMinor <= 0n) {
      throw vf(spec.params.amount, quote.amountMinor <= 0n && quote.toAmountMinor <= 0n ? VfCode.positive : VfCode.tooSmallToConvert);
    }

    const mode: ApproveType = preApproved ? 'none' : requester.mode;
    // Maker-checker (business-approvals.hooks.ts): a company's right-3 user's payment is held and
    // waits for a checker; with approve mode none it waits from here, otherwise once approved.
    const checker = !preApproved && context.initiateOnly;
    const preparation = mode === 'none' ? null : await prepareApproval(tx, mode, user, approvals !== null);

    // Limits, on the source amount (the daily one below, once this transfer is written).
    const limits = context.limits;
    const cur = from.currency;
    if (quote.amountMinor < limits.minMinor) throw vf(spec.params.amount, VfCode.belowMinimum, { amount: minorToDecimal(limits.minMinor, cur), currency: cur });
    if (quote.amountMinor > limits.maxMinor) throw vf(spec.params.amount, VfCode.aboveMaximum, { amount: minorToDecimal(limits.maxMinor, cur), currency: cur });

    // What posting needs is read before the locks.
    const provider = context.provider;

    let scheduleId = options.scheduleRun?.scheduleId ?? null;
    const createdAt = at(now());
    if (subscription) {
      // recurring payouts are not offered (their calls take no subscription fields)
      if (isPayoutRail(spec.kind)) throw vf(spec.params.amount, VfCode.notAllowed);
      const [schedule] = await tx
        .insert(transferSchedules)
        .values({
          kind: spec.kind,
          customerId: actor.customerId,
          userId: actor.userId,
          fromAccountId: from.accountId,
          toAccountId,
          request: {
            amount: spec.amount,
            currency: spec.currency,
            ...(spec.kind === 'p2p' ? { toEmail: spec.toEmail } : {}),
            ...(spec.note ? { note: spec.note } : {}),
            ...(spec.reference ? { reference: spec.reference } : {}),
          },
          frequency: subscription.subscriptionFrequency!,
          endDate: subscription.subscriptionEndDate ?? null,
          transactionsTotal: subscription.subscriptionTransactions ?? null,
          userCancel: subscription.subscriptionUserCancel ?? true,
          status: 'awaitingApproval',
          // the first run is this transfer; the second is one period after it
          nextRunAt: addPeriods(createdAt, subscription.subscriptionFrequency!, 1),
          createdAt,
        })
        .returning({ id: transferSchedules.id });
      scheduleId = schedule!.id;
    }

    const fields = {
      kind: spec.kind,
      customerId: actor.customerId,
      userId: actor.userId,
      fromAccountId: from.accountId,
      toAccountId,
      toCustomerId,
      fromCurrency: from.currency,
      toCurrency,
      amountMinor: quote.amountMinor,
      toAmountMinor: quote.toAmountMinor,
      feeMinor: quote.feeMinor,
      rate: quote.rate,
      approveType: mode,
      toEmail,
      note: spec.note ?? null,
      reference: spec.reference ?? null,
      templateName: spec.templateName ?? null,
      scheduleId,
      expiresAt: at(now() + TRANSFER_APPROVAL_TTL_S * 1000),
      createdAt,
      updatedAt: createdAt,
    };
    const day = utcDay(createdAt);
    const total = quote.amountMinor + quote.feeMinor;
    const limitFailure = (used: bigint | null) => {
      if (used === null) return null;
      const left = dailyLimitExceeded(used, quote.amountMinor, limits.dailyMinor);
      return left === null ? null : vf(spec.params.amount, VfCode.dailyLimit, { left: minorToDecimal(left, cur), currency: cur });
    };
    /**
     * A refusal found under the accounts' locks: the daily limit's answer comes first (as it always
     * has), so the counter is asked before answering (the transaction then rolls back).
     */
    const refuse = async (failure: Error): Promise<never> => {
      throw limitFailure(await addDailyUsage(tx, actor.customerId, spec.kind, cur, day, quote.amountMinor, limits.dailyMinor)) ?? failure;
    };

    /**
     * The row is written before the locks (a refusal rolls it back): the less a transaction does
     * while it holds a lock, the less others wait for it. A hold locks the source only, so a busy
     * destination never delays requests that only wait (for approval, or for their rail). Then the
     * daily limit: this transfer added to the day's counter (its row lock serialises the
     * customer's requests of this kind and currency from here to commit).
     */
    const holdAndCount = async (): Promise<void> => {
      const locked = await lockAccounts(tx, [from.accountId]);
      const source = locked.get(from.accountId);
      if (!source || source.status === ACCOUNT_STATUS_CLOSED) return refuse(new MethodFailure('CA', TransferMessages.closed));
      if (source.balanceMinor - source.pendingMinor - total < source.balanceMinMinor) return refuse(vf(spec.params.amount, VfCode.balanceExceeded));
      await placeHold(tx, source, total);
      const overLimit = limitFailure(await addDailyUsage(tx, actor.customerId, spec.kind, cur, day, quote.amountMinor, limits.dailyMinor));
      if (overLimit) throw overLimit;
    };

    if (mode === 'none' && !checker && isPayoutRail(spec.kind)) {
      // A payout asks no approval: the money is held and the instruction queued for its rail now.
      const [row] = await tx.insert(transfers).values({ ...fields, status: 'processing' }).returning();
      await holdAndCount();
      await payouts!.instruct(tx, row!, (spec as { beneficiary: Record<string, string> }).beneficiary, 'queued');
      actor.audit?.({ transferId: row!.id, kind: spec.kind, approveType: mode });
      return toResult(row!, null);
    }

    if (mode === 'none' && !checker) {
      // Posted in its request: both accounts locked (in id order), then the transfer, its entry,
      // legs, balances and the day's counter in one statement (the counter's lock held from there
      // to commit only). The limit answered by the counter refuses after it (the transaction rolls back).
      // A payment to another customer may be split by the payee's revenue-split contracts
      // (contracts/split.ts): their beneficiaries' accounts are locked in the same ordered statement.
      const split = splitCreditOf(fields, createdAt);
      const splits = split ? await splitTargets(tx, split) : [];
      const locked = await lockAccounts(tx, [from.accountId, toAccountId, ...splits.map((s) => s.beneficiaryAccountId)]);
      const source = locked.get(from.accountId);
      if (!source || source.status === ACCOUNT_STATUS_CLOSED) return refuse(new MethodFailure('CA', TransferMessages.closed));
      const destination = locked.get(toAccountId);
      if (destination && destination.status === ACCOUNT_STATUS_CLOSED) return refuse(new MethodFailure('CA', TransferMessages.closed));
      if (source.balanceMinor - source.pendingMinor - total < source.balanceMinMinor) return refuse(vf(spec.params.amount, VfCode.balanceExceeded));
      const plan = await planEntry(tx, { legs: postingLegs(fields, provider), locked });
      const entryKey = options.scheduleRun
        ? `schedule:${options.scheduleRun.scheduleId}:${options.scheduleRun.run}`
        : options.batchRow
          ? `batch:${options.batchRow.batchId}:${options.batchRow.line}`
          : null;
      const updateValues = updateValuesSql(plan);
      const [row] = rowsOf<{ transfer_id: string; entry_id: string | null; used: string }>(
        await executeNamed(tx, sql`
          with e as (select nextval('journal_entries_id_seq') as id),
          t as (
            insert into transfers (kind, status, customer_id, user_id, from_account_id, to_account_id, to_customer_id, from_currency, to_currency,
              amount_minor, to_amount_minor, fee_minor, rate, approve_type, to_email, note, reference, template_name, schedule_id, entry_id,
              expires_at, created_at, updated_at)
            select ${fields.kind}, 'posted', ${fields.customerId}::integer, ${fields.userId}::integer, ${fields.fromAccountId}::integer, ${fields.toAccountId}::integer,
              ${fields.toCustomerId}::integer, ${fields.fromCurrency}, ${fields.toCurrency}, ${fields.amountMinor.toString()}::bigint,
              ${fields.toAmountMinor.toString()}::bigint, ${fields.feeMinor.toString()}::bigint, ${fields.rate}, ${fields.approveType}, ${fields.toEmail}::text,
              ${fields.note}::text, ${fields.reference}::text, ${fields.templateName}::text, ${fields.scheduleId}::integer, e.id,
              ${fields.expiresAt.toISOString()}::timestamptz, ${createdAt.toISOString()}::timestamptz, ${createdAt.toISOString()}::timestamptz
            from e
            returning id
          ),
          entry as (
            insert into journal_entries (id, kind, idempotency_key, transfer_id, description)
            select e.id, 'transfer', coalesce(${entryKey}::text, 'transfer:' || t.id), t.id, jsonb_build_object('kind', ${fields.kind}::text, 'transferId', t.id)
            from e, t
            on conflict (idempotency_key) do nothing
            returning id
          ),
          legs as (
            insert into journal_legs (entry_id, account_id, currency, amount_minor)
            select entry.id, v.account_id, v.currency, v.amount_minor
            from entry, (values ${legValuesSql(plan)}) as v(account_id, currency, amount_minor)
          ),${
            updateValues
              ? sql`
          balances as (
            update accounts set balance_minor = accounts.balance_minor + v.delta, pending_minor = accounts.pending_minor - v.release
            from entry, (values ${updateValues}) as v(account_id, delta, release)
            where accounts.account_id = v.account_id
          ),`
              : sql``
          }
          usage as (${addUsageSql(actor.customerId, spec.kind, cur, day, quote.amountMinor, limits.dailyMinor)})
          select (select id::text from t) as transfer_id, (select id::text from entry) as entry_id, (select used from usage) as used`),
      );
      if (row!.entry_id === null) throw new DuplicateRunError(`entry ${entryKey} was booked before`);
      const overLimit = limitFailure(row!.used === null ? null : BigInt(row!.used));
      if (overLimit) throw overLimit;
      applyEntryPlan(plan);
      if (split && splits.length > 0) await bookSplits(tx, { sourceEntryId: Number(row!.entry_id), credit: split, grossMinor: fields.toAmountMinor, targets: splits, locked });
      const transfer: TransferRow = { ...fields, id: Number(row!.transfer_id), status: 'posted', entryId: Number(row!.entry_id) };
      actor.audit?.({ transferId: transfer.id, kind: spec.kind, approveType: mode });
      if (subscription && scheduleId !== null) {
        await tx
          .update(transferSchedules)
          .set({ status: 'active', transactionsDone: 1 })
          .where(and(eq(transferSchedules.id, scheduleId), eq(transferSchedules.status, 'awaitingApproval')));
      }
      return toResult(transfer, null);
    }

    const [row] = await tx
      .insert(transfers)
      .values({ ...fields, status: 'pending' })
      .returning();
    const transfer = row!;
    actor.audit?.({ transferId: transfer.id, kind: spec.kind, approveType: mode });
    await holdAndCount();

    if (mode === 'none') {
      // a right-3 initiator with nothing to approve themselves: waiting for the company's checker now
      const parked = await parkForChecker(tx, transfer, now(), (n) => actor.publish(n.customerId, n.event));
      if (isPayoutRail(spec.kind)) await payouts!.instruct(tx, parked, (spec as { beneficiary: Record<string, string> }).beneficiary, 'awaitingApproval');
      return toResult(parked, null);
    }
    const sentTo = await startApproval(tx, actor, transfer, mode, preparation!, payeeName);
    // a payout's instruction waits for the approval (post() releases it to its rail)
    if (isPayoutRail(spec.kind)) await payouts!.instruct(tx, transfer, (spec as { beneficiary: Record<string, string> }).beneficiary, 'awaitingApproval');
    return toResult(transfer, sentTo);
  }

  /** The approval of a pending transfer by the customer's mode: the code sent, the phone asked, or the code awaited; where the code went. */
  async function startApproval(tx: Tx, actor: TransferActor, transfer: TransferRow, mode: Exclude<ApproveType, 'none'>, preparation: ApprovalPreparation, payeeName: string): Promise<string | null> {
    const what = { amount: minorToDecimal(transfer.amountMinor, transfer.fromCurrency), currency: transfer.fromCurrency, payeeName };
    const createdAt = transfer.createdAt;
    if (mode === 'sms') {
      const sms = await sendSmsCode(tx, preparation.phone!, what, TRANSFER_APPROVAL_TTL_S / 60);
      await tx.insert(transferApprovals).values({ transferId: transfer.id, method: 'sms', codeHash: sms.codeHash, sentTo: sms.sentTo, lastSentAt: createdAt });
      return sms.sentTo;
    }
    if (mode === 'push') {
      const created = await approvals!.createTransferApproval(tx, {
        userId: actor.userId,
        details: { ip: actor.ip, countryCode: null, userAgent: '' },
        transfer: { transactionId: transfer.id, ...what, fee: minorToDecimal(transfer.feeMinor, transfer.fromCurrency) },
        expiresAt: transfer.expiresAt,
      });
      await tx.insert(transferApprovals).values({ transferId: transfer.id, method: 'push', approvalKeyHash: created.keyHash, lastSentAt: createdAt });
      return null;
    }
    await tx.insert(transferApprovals).values({ transferId: transfer.id, method: mode, lastSentAt: createdAt });
    return null;
  }

  /**
   * A mass batch's request (mass.service.ts writes the batch and its rows in the same transaction):
   * one transfer of kind mass from the account to itself for the rows' amounts and fees, all held
   * now, approved by the customer's mode like any transfer. Approved (at once with mode none), it
   * is processing and the batch job pays the rows; it never books an entry itself. The per-payment
   * limits were checked on each row; the daily limits count the rows as they are paid.
   */
  async function requestMass(tx: Tx, actor: TransferActor, spec: MassRequestSpec): Promise<{ result: TransferResult; transfer: TransferRow }> {
    const [from] = await tx
      .select({
        accountId: accounts.accountId,
        customerId: accounts.customerId,
        purpose: accounts.purpose,
        status: accounts.status,
        currency: accounts.currency,
        type: accounts.type,
        subType: accounts.subType,
      })
      .from(accounts)
      .where(eq(accounts.accountId, spec.fromAccountId));
    if (!from || from.customerId !== actor.customerId || from.purpose !== 'customer') throw new MethodFailure('ENOA', TransferMessages.noAccess);
    if (from.status === ACCOUNT_STATUS_CLOSED) throw new MethodFailure('CA', TransferMessages.closed);
    // mass and global pay never pay from a card (cardRefusal: a card's money goes back to an own account only)
    const fromCard = cardRefusal({ ...from, isVirtual: null }, 'from', 'mass', MASS_PARAMS.from);
    if (fromCard) throw fromCard;
    if (!payouts) throw new MethodFailure('UE', TransferMessages.payoutsUnavailable);
    const context = await readRequestContext(tx, actor, { kind: 'p2p', fromAccountId: spec.fromAccountId, toEmail: '', amount: '0', currency: from.currency, params: MASS_PARAMS });
    checkFlags(context.flags, spec.requiredFlags);
    if (!context.user) throw new MethodFailure('AU', 'Sign-in required');
    const mode: ApproveType = context.mode ?? 'none';
    // maker-checker: a right-3 initiator's batch (mass or global pay) waits for a checker; once the
    // checker approves, post() releases it (a global-pay batch's payments through GlobalPayPort)
    const checker = context.initiateOnly;
    const preparation = mode === 'none' ? null : await prepareApproval(tx, mode, context.user, approvals !== null);
    const createdAt = at(now());
    const [row] = await tx
      .insert(transfers)
      .values({
        kind: 'mass',
        status: mode === 'none' && !checker ? 'processing' : 'pending',
        customerId: actor.customerId,
        userId: actor.userId,
        fromAccountId: from.accountId,
        toAccountId: from.accountId,
        toCustomerId: actor.customerId,
        fromCurrency: from.currency,
        toCurrency: from.currency,
        amountMinor: spec.amountMinor,
        toAmountMinor: spec.amountMinor,
        feeMinor: spec.feeMinor,
        approveType: mode,
        expiresAt: at(now() + TRANSFER_APPROVAL_TTL_S * 1000),
        createdAt,
        updatedAt: createdAt,
      })
      .returning();
    const transfer = row!;
    const locked = await lockAccounts(tx, [from.accountId]);
    const source = locked.get(from.accountId)!;
    if (source.balanceMinor - source.pendingMinor - (spec.amountMinor + spec.feeMinor) < source.balanceMinMinor) throw vf('accountId', VfCode.balanceExceeded);
    await placeHold(tx, source, spec.amountMinor + spec.feeMinor);
    actor.audit?.({ transferId: transfer.id, kind: 'mass', approveType: mode });
    if (mode === 'none' && checker) {
      const parked = await parkForChecker(tx, transfer, now(), (n) => actor.publish(n.customerId, n.event));
      return { result: toResult(parked, null), transfer: parked };
    }
    if (mode === 'none') {
      if (!spec.approvedByCaller) await payouts.queueBatch(tx, transfer.id);
      return { result: toResult(transfer, null), transfer };
    }
    const sentTo = await startApproval(tx, actor, transfer, mode, preparation!, spec.payeeName);
    return { result: toResult(transfer, sentTo), transfer };
  }

  /**
   * A card's application fee (cards.service.ts writes the card in the same transaction): one
   * transfer of kind cardFee from the fee account to the provider's fee account of its currency,
   * held and approved by the customer's mode like any transfer (mode none: booked now). Booked,
   * post() tells the card service (CardPort.feePaid); voided, voidTransfer() does (feeVoided).
   */
  async function requestCardFee(tx: Tx, actor: TransferActor, spec: CardFeeRequestSpec): Promise<TransferResult> {
    const [from] = await tx
      .select({ accountId: accounts.accountId, customerId: accounts.customerId, purpose: accounts.purpose, status: accounts.status, currency: accounts.currency })
      .from(accounts)
      .where(eq(accounts.accountId, spec.fromAccountId));
    if (!from || from.customerId !== actor.customerId || from.purpose !== 'customer') throw new MethodFailure('ENOA', TransferMessages.noAccess);
    if (from.status === ACCOUNT_STATUS_CLOSED) throw new MethodFailure('CA', TransferMessages.closed);
    if (spec.amountMinor <= 0n) throw new Error('a card fee transfer is positive');
    const context = await readRequestContext(tx, actor, { kind: 'p2p', fromAccountId: spec.fromAccountId, toEmail: '', amount: '0', currency: from.currency, params: CARD_FEE_PARAMS });
    if (!context.user) throw new MethodFailure('AU', 'Sign-in required');
    const feeAccountId = context.provider.get(`fee:${from.currency}`);
    const providerId = await providerCustomerId(tx);
    if (feeAccountId === undefined || providerId === null) throw new Error(`no provider fee account in ${from.currency}`);
    const mode: ApproveType = context.mode ?? 'none';
    const preparation = mode === 'none' ? null : await prepareApproval(tx, mode, context.user, approvals !== null);
    const createdAt = at(now());
    const [row] = await tx
      .insert(transfers)
      .values({
        kind: 'cardFee',
        status: 'pending',
        customerId: actor.customerId,
        userId: actor.userId,
        fromAccountId: from.accountId,
        toAccountId: feeAccountId,
        toCustomerId: providerId,
        fromCurrency: from.currency,
        toCurrency: from.currency,
        amountMinor: spec.amountMinor,
        toAmountMinor: spec.amountMinor,
        feeMinor: 0n,
        approveType: mode,
        expiresAt: at(now() + TRANSFER_APPROVAL_TTL_S * 1000),
        createdAt,
        updatedAt: createdAt,
      })
      .returning();
    const transfer = row!;
    await spec.attach(tx, transfer);
    const locked = await lockAccounts(tx, [from.accountId]);
    const source = locked.get(from.accountId)!;
    if (source.balanceMinor - source.pendingMinor - spec.amountMinor < source.balanceMinMinor) throw vf('feeAccountId', VfCode.balanceExceeded);
    actor.audit?.({ transferId: transfer.id, kind: 'cardFee', approveType: mode });
    if (mode === 'none' && !context.initiateOnly) {
      const posted = await post(tx, transfer);
      await addDailyUsage(tx, actor.customerId, 'cardFee', from.currency, utcDay(createdAt), spec.amountMinor, CARD_FEE_NO_LIMIT);
      return toResult(posted, null);
    }
    await placeHold(tx, source, spec.amountMinor);
    await addDailyUsage(tx, actor.customerId, 'cardFee', from.currency, utcDay(createdAt), spec.amountMinor, CARD_FEE_NO_LIMIT);
    if (mode === 'none') {
      // maker-checker: a right-3 initiator's card order waits for the company's checker (its card
      // stays pendingApproval; approved, post() tells the card service; declined or expired, the card is canceled)
      const parked = await parkForChecker(tx, transfer, now(), (n) => actor.publish(n.customerId, n.event));
      return toResult(parked, null);
    }
    const sentTo = await startApproval(tx, actor, transfer, mode, preparation!, spec.payeeName);
    return toResult(transfer, sentTo);
  }

  /** The legs of a transfer's entry: source -(amount + fee), destination +toAmount, the provider's fee and FX legs. */
  function postingLegs(
    t: Pick<TransferRow, 'fromAccountId' | 'toAccountId' | 'fromCurrency' | 'toCurrency' | 'amountMinor' | 'toAmountMinor' | 'feeMinor'>,
    provider: Map<string, number>,
  ): EntryLeg[] {
    const providerId = (purpose: 'fee' | 'fx', currency: string) => {
      const id = provider.get(`${purpose}:${currency}`);
      if (id === undefined) throw new Error(`no provider ${purpose} account in ${currency}`);
      return id;
    };
    const legs: EntryLeg[] = [
      { accountId: t.fromAccountId, amountMinor: -(t.amountMinor + t.feeMinor) },
      { accountId: t.toAccountId, amountMinor: t.toAmountMinor },
    ];
    if (t.feeMinor > 0n) legs.push({ accountId: providerId('fee', t.fromCurrency), amountMinor: t.feeMinor });
    if (t.fromCurrency !== t.toCurrency) {
      legs.push({ accountId: providerId('fx', t.fromCurrency), amountMinor: t.amountMinor });
      legs.push({ accountId: providerId('fx', t.toCurrency), amountMinor: -t.toAmountMinor });
    }
    return legs;
  }

  /**
   * Books a transfer: one balanced entry, the hold released (approval modes other than none held
   * amount + fee), the row posted, a schedule awaiting its first transfer made active.
   */
  /** The provider's fee and fx accounts a posting of these currencies and fee needs (none: no query). */
  async function providerAccountsFor(tx: Tx, fromCurrency: string, toCurrency: string, feeMinor: bigint): Promise<Map<string, number>> {
    return feeMinor > 0n || fromCurrency !== toCurrency ? providerAccountIds(tx, [fromCurrency, toCurrency]) : new Map<string, number>();
  }

  async function post(
    tx: Tx,
    t: TransferRow,
    options: { locked?: Map<number, LockedAccount>; provider?: Map<string, number> | undefined; entryKey?: string; held?: boolean } = {},
  ): Promise<TransferRow> {
    if (t.kind === 'mass') {
      // approved: the batch job pays the rows (each releases its share of the hold as it is paid)
      if (!payouts) throw new MethodFailure('UE', TransferMessages.payoutsUnavailable);
      const [processing] = await tx.update(transfers).set({ status: 'processing', updatedAt: at(now()) }).where(eq(transfers.id, t.id)).returning();
      // a global-pay batch's request: its payments wait for their payees (global-pay.service.ts)
      if (!(await deps.globalPay?.approved(tx, processing!))) await payouts.queueBatch(tx, t.id);
      return processing!;
    }
    if (isPayoutRail(t.kind)) {
      // approved: the payout goes to its rail (the money stays held until the rail sends it)
      if (!payouts) throw new MethodFailure('UE', TransferMessages.payoutsUnavailable);
      const [processing] = await tx.update(transfers).set({ status: 'processing', updatedAt: at(now()) }).where(eq(transfers.id, t.id)).returning();
      await payouts.release(tx, t.id);
      return processing!;
    }
    const provider = options.provider ?? (await providerAccountsFor(tx, t.fromCurrency, t.toCurrency, t.feeMinor));
    const legs = postingLegs(t, provider);
    // held: approved by a mode, or (options.held) a payment that waited for a company's checker
    const held = t.approveType !== 'none' || options.held === true;
    const split = splitCreditOf(t, at(now()));
    const booked = await bookEntry(tx, {
      kind: 'transfer',
      idempotencyKey: options.entryKey ?? `transfer:${t.id}`,
      transferId: t.id,
      description: { kind: t.kind, transferId: t.id },
      legs,
      ...(held ? { releaseHolds: [{ accountId: t.fromAccountId, amountMinor: t.amountMinor + t.feeMinor }] } : {}),
      ...(options.locked ? { locked: options.locked } : {}),
      // an approved payment to another customer: the payee's revenue split, at the time it is booked
      ...(split ? { split } : {}),
    });
    if (!booked.created) throw new DuplicateRunError(`entry ${options.entryKey ?? t.id} was booked before`);
    const [posted] = await tx
      .update(transfers)
      .set({ status: 'posted', entryId: booked.entryId, updatedAt: at(now()) })
      .where(eq(transfers.id, t.id))
      .returning();
    if (t.scheduleId !== null) {
      await tx
        .update(transferSchedules)
        .set({ status: 'active', transactionsDone: 1 })
        .where(and(eq(transferSchedules.id, t.scheduleId), eq(transferSchedules.status, 'awaitingApproval')));
    }
    // a card's fee paid: the card goes into production (or is active, or waits for its confirmation)
    if (t.kind === 'cardFee') await deps.cards?.feePaid(tx, posted!);
    return posted!;
  }

  /** Voids a pending transfer (the caller holds its row lock): hold released, request closed, schedule canceled. */
  async function voidTransfer(tx: Tx, t: TransferRow, status: 'rejected' | 'expired' | 'canceled'): Promise<TransferRow> {
    if (t.status !== 'pending') return t;
    // a payment waiting for a company's checker is held whatever its approve type; its request closes with it
    const parked = await closeBusinessRequest(tx, t.id, status, now());
    if (t.approveType !== 'none' || parked) {
      const locked = await lockAccounts(tx, [t.fromAccountId]);
      await releaseHold(tx, locked.get(t.fromAccountId)!, t.amountMinor + t.feeMinor);
    }
    const [voided] = await tx.update(transfers).set({ status, updatedAt: at(now()) }).where(eq(transfers.id, t.id)).returning();
    if (isPayoutRail(t.kind)) await payouts?.cancel(tx, t.id);
    // Its amount no longer counts towards the daily limit (the counter last, after the accounts);
    // a mass batch's request counted nothing (its rows count when paid).
    if (t.kind !== 'mass') await giveBackDailyUsage(tx, t);
    if (t.approveType === 'push' && approvals) {
      const [approval] = await tx.select({ keyHash: transferApprovals.approvalKeyHash }).from(transferApprovals).where(eq(transferApprovals.transferId, t.id));
      if (approval?.keyHash) await approvals.closeRequest(tx, approval.keyHash, status === 'rejected' ? 'declined' : 'expired');
    }
    if (t.scheduleId !== null) {
      await tx
        .update(transferSchedules)
        .set({ status: 'canceled' })
        .where(and(eq(transferSchedules.id, t.scheduleId), eq(transferSchedules.status, 'awaitingApproval')));
    }
    // a card's fee not paid: the application's card is canceled
    if (t.kind === 'cardFee') await deps.cards?.feeVoided(tx, voided!);
    return voided!;
  }

  /**
   * The transfer of the acting customer, locked. An unknown id and another customer's transfer
   * answer alike (ENOA, unknown transfer): the answer must not tell which ids exist.
   */
  async function lockOwnTransfer(tx: Tx, actor: TransferActor, id: number): Promise<TransferRow> {
    const [t] = await tx.select().from(transfers).where(eq(transfers.id, id)).for('update');
    if (!t || t.customerId !== actor.customerId) throw new MethodFailure('ENOA', TransferMessages.unknownTransfer);
    return t;
  }

  /** A pending transfer past its time is voided now (the caller then answers with the kept failure). */
  async function expireIfDue(tx: Tx, actor: TransferActor, t: TransferRow): Promise<TransferRow> {
    if (t.status !== 'pending' || t.expiresAt.getTime() > now()) return t;
    const expired = await voidTransfer(tx, t, 'expired');
    actor.publish(t.customerId, transferEvent(expired));
    return expired;
  }

  async function sentToOf(db: Db | Tx, t: TransferRow): Promise<string | null> {
    if (t.approveType !== 'sms') return null;
    const [approval] = await db.select({ sentTo: transferApprovals.sentTo }).from(transferApprovals).where(eq(transferApprovals.transferId, t.id));
    return approval?.sentTo ?? null;
  }

  /** The transfer must be the caller's own request and still pending (expired on the way: kept TA1). */
  async function pendingOwnRequest(tx: Tx, actor: TransferActor, id: number, sameUser: boolean): Promise<TransferRow> {
    let t = await lockOwnTransfer(tx, actor, id);
    if (sameUser && t.userId !== actor.userId) throw new MethodFailure('13', TransferMessages.otherUser);
    const before = t.status;
    t = await expireIfDue(tx, actor, t);
    if (t.status === 'expired' && before === 'pending') throw new KeptFailure('TA1', TransferMessages.expired);
    if (t.status !== 'pending') throw new MethodFailure('TA1', TransferMessages.notPending);
    return t;
  }

  /**
   * A transfer request answered in ONE statement (ledger_transfer_now, migration 0009) in its own
   * transaction, without the endpoint's BEGIN/COMMIT: the idempotency claim, the checks of
   * request() in its order, the locks in id order, the posting, the day's counter, the audit entry
   * and the stored answer. For the requests it covers: between own accounts of one currency,
   * posted at once (approve mode none), not recurring. null when the request is not one of them
   * (nothing written): the caller runs the transactional path (request()). A refusal answers
   * exactly what request() answers, with nothing written (the statement rolled back).
   */
  async function requestNow(db: Db, actor: TransferActor, spec: RequestSpec, claim: OneStatementClaim): Promise<OneStatementOutcome | null> {
    if (spec.kind !== 'betweenAccounts') return null;
    // acting for a company: its right-3 users' payments wait for a checker (request() knows)
    if (actor.ownCustomerId !== undefined && actor.ownCustomerId !== actor.customerId) return null;
    const sub = spec.subscription;
    if (sub && (sub.subscriptionFrequency !== undefined || sub.subscriptionEndDate !== undefined || sub.subscriptionTransactions !== undefined)) return null;
    // the ledger's functions know nothing of cards: a card on either side goes the transactional way (cardRefusal)
    if (await eitherIsCard(db, spec.fromAccountId, spec.toAccountId)) return null;
    let exponent: number | null = null;
    let amountMinor: string | null = null;
    try {
      exponent = currencyExponent(spec.currency);
      amountMinor = decimalToMinor(spec.amount, spec.currency).toString();
    } catch {
      // an unknown currency (refused as not the accounts' one) or too many decimals (refused in order)
    }
    const createdAt = at(now());
    const request = {
      userId: claim.userId,
      customerId: actor.customerId,
      method: claim.method,
      key: claim.key,
      requestHash: claim.requestHash,
      kind: spec.kind,
      from: spec.fromAccountId,
      to: spec.toAccountId,
      currency: spec.currency,
      amountMinor,
      exponent,
      requiredFlags: spec.requiredFlags ?? [],
      params: { to: spec.params.to, amount: spec.params.amount, currency: spec.params.currency },
      createdAt: createdAt.toISOString(),
      expiresAt: at(now() + TRANSFER_APPROVAL_TTL_S * 1000).toISOString(),
      day: utcDay(createdAt),
    };
    // Posted in a batch with the requests arriving meanwhile (ledger-batch.ts); what the batch
    // leaves (a refusal, a replay, a fallback) is answered by the one-by-one statement below.
    const batched = await ledgerBatcherOf(db).submit(request);
    if ('answer' in batched) return { replay: false, full: batched.answer };
    let result: { fallback?: true; replay?: true; answer?: OneStatementOutcome['full'] };
    try {
      const [row] = rowsOf<{ r: typeof result }>(await executeNamed(db, sql`select ledger_transfer_now(${JSON.stringify(request)}::jsonb) as r`));
      result = row!.r;
    } catch (err) {
      const refusal = ledgerRefusalOf(err);
      if (!refusal) throw err;
      throw refusalFailure(refusal, spec);
    }
    if (result.fallback) return null;
    return { replay: result.replay === true, full: result.answer! };
  }

  /**
   * Whether either account is a card, for requestNow. An account's type never changes, so each
   * account's answer is kept (an id not found is not: it is asked again once it exists): the common
   * path asks the database only the first time it meets an account, and otherwise posts in its one
   * statement as before.
   */
  async function eitherIsCard(db: Db, fromId: number, toId: number): Promise<boolean> {
    const unknown = [fromId, toId].filter((id) => !cardAccounts.has(id));
    if (unknown.length > 0) {
      if (cardAccounts.size > CARD_ACCOUNTS_KEPT) cardAccounts.clear();
      const rows = await db.select({ accountId: accounts.accountId, type: accounts.type }).from(accounts).where(inArray(accounts.accountId, unknown));
      for (const row of rows) cardAccounts.set(row.accountId, isCardType(row.type));
    }
    return cardAccounts.get(fromId) === true || cardAccounts.get(toId) === true;
  }

  /** The answer of a refusal of ledger_transfer_now: the failure request() throws in that case. */
  function refusalFailure(refusal: LedgerRefusal, spec: RequestSpec): Error {
    const param = refusal.param ?? spec.params.amount;
    const amounts = { amount: refusal.amount ?? '', currency: refusal.currency ?? '' };
    switch (refusal.code) {
      case '13':
        return new MethodFailure('13', PermissionMessages.notAllowed);
      case 'ENOA':
        return new MethodFailure('ENOA', TransferMessages.noAccess);
      case 'CA':
        return new MethodFailure('CA', TransferMessages.closed);
      case 'AU':
        return new MethodFailure('AU', 'Sign-in required');
      case 'reused':
        return new MethodFailure('VF', 'Invalid request', [vfError(IDEMPOTENCY_KEY_HEADER, VfCode.idempotencyKeyReused)]);
      case 'insufficient':
        return new InsufficientFundsError(Number(refusal.accountId));
      case 'amount':
        try {
          parseAmount(spec.amount, spec.currency, spec.params.amount);
        } catch (failure) {
          return failure as Error;
        }
        break;
      case 'VF':
        switch (refusal.vf) {
          case 'sameAccount':
            return vf(param, VfCode.sameAccount);
          case 'currencyOfAccounts':
            return vf(param, VfCode.currencyOfAccounts);
          case 'positive':
            return vf(param, VfCode.positive);
          case 'belowMinimum':
            return vf(param, VfCode.belowMinimum, amounts);
          case 'aboveMaximum':
            return vf(param, VfCode.aboveMaximum, amounts);
          case 'balanceExceeded':
            return vf(param, VfCode.balanceExceeded);
          case 'dailyLimit':
            return vf(param, VfCode.dailyLimit, { left: refusal.left ?? '', currency: refusal.currency ?? '' });
        }
    }
    return new Error(`unknown ledger refusal ${JSON.stringify(refusal)}`);
  }

  return {
    now,
    request,
    requestMass,
    requestCardFee,
    requestNow,
    post,
    voidTransfer,

    /** approveTransfer: the code of the approval's method; wrong ones counted, the limit rejects. */
    async approve(tx: Tx, actor: TransferActor, id: number, code: string): Promise<TransferResult> {
      const t = await pendingOwnRequest(tx, actor, id, true);
      if (t.approveType === 'push') throw new MethodFailure('TA1', ApprovalMessages.approveOnPhone);
      const [approval] = await tx.select().from(transferApprovals).where(eq(transferApprovals.transferId, t.id));
      if (!approval) throw new MethodFailure('TA1', TransferMessages.notPending);
      const user = await approvingUser(tx, actor.userId);
      const check = await checkApprovalCode(tx, approval, user, code, now());
      if (!check.ok) {
        const attempts = approval.attempts + 1;
        await tx.update(transferApprovals).set({ attempts }).where(eq(transferApprovals.transferId, t.id));
        if (attempts >= APPROVAL_MAX_ATTEMPTS) {
          const rejected = await voidTransfer(tx, t, 'rejected');
          actor.publish(t.customerId, transferEvent(rejected));
          throw new KeptFailure('VF', TransferMessages.invalid, [vfError('approvalCode', VfCode.approvalTooManyWrong)]);
        }
        const left = APPROVAL_MAX_ATTEMPTS - attempts;
        throw new KeptFailure('VF', TransferMessages.invalid, [vfError('approvalCode', check.reason === 'used' ? VfCode.approvalCodeUsed : VfCode.approvalCodeWrong, { triesLeft: left })]);
      }
      const [destination] = await tx.select(DESTINATION_COLUMNS).from(accounts).where(eq(accounts.accountId, t.toAccountId));
      if (destination?.status === ACCOUNT_STATUS_CLOSED) {
        const rejected = await voidTransfer(tx, t, 'rejected');
        actor.publish(t.customerId, transferEvent(rejected));
        throw new KeptFailure('CA', TransferMessages.closed);
      }
      if (destination && cardNoLongerLoads(destination, t)) {
        const rejected = await voidTransfer(tx, t, 'rejected');
        actor.publish(t.customerId, transferEvent(rejected));
        throw new KeptFailure('VF', TransferMessages.invalid, [vfError('trxid', VfCode.cardStatus)]);
      }
      if (await initiateOnly(tx, t.userId, t.customerId)) {
        // maker-checker: approved by its right-3 initiator, it now waits for the company's checker
        const parked = await parkForChecker(tx, t, now(), (n) => actor.publish(n.customerId, n.event));
        actor.publish(t.customerId, transferEvent(parked));
        actor.audit?.({ transferId: t.id, status: 'awaitingBusinessApproval' });
        return toResult(parked, approval.sentTo);
      }
      const posted = await post(tx, t);
      actor.publish(t.customerId, transferEvent(posted));
      // document 3 §7 "transaction confirmation": the confirmation completed (every open session of the customer)
      actor.publish(t.customerId, { type: 'TransactionConfirmation', transactionId: posted.id, status: 'approved' });
      actor.audit?.({ transferId: t.id, status: 'posted' });
      return toResult(posted, approval.sentTo);
    },

    /** resendApproval: a new SMS code, or the phone request again; at most once per APPROVAL_RESEND_INTERVAL_S. */
    async resend(tx: Tx, actor: TransferActor, id: number): Promise<{ approvalSentTo: string | null }> {
      const t = await pendingOwnRequest(tx, actor, id, true);
      const [approval] = await tx.select().from(transferApprovals).where(eq(transferApprovals.transferId, t.id));
      if (!approval || (approval.method !== 'sms' && approval.method !== 'push')) throw new MethodFailure('TA1', ApprovalMessages.nothingToResend);
      if (approval.lastSentAt.getTime() + APPROVAL_RESEND_INTERVAL_S * 1000 > now()) throw new MethodFailure('TA1', ApprovalMessages.resendTooSoon);
      if (approval.method === 'sms') {
        const user = await approvingUser(tx, actor.userId);
        const preparation = await prepareApproval(tx, 'sms', user, approvals !== null);
        const [payee] = t.kind === 'p2p'
          ? await tx.select({ businessName: customers.businessName, firstName: customers.firstName, lastName: customers.lastName }).from(customers).where(eq(customers.id, t.toCustomerId))
          : [];
        const payeeName = payee ? customerName(payee) : `${t.toCurrency} account ${t.toAccountId}`;
        const remainingMinutes = Math.max(1, Math.ceil((t.expiresAt.getTime() - now()) / 60_000));
        const sms = await sendSmsCode(tx, preparation.phone!, { amount: minorToDecimal(t.amountMinor, t.fromCurrency), currency: t.fromCurrency, payeeName }, remainingMinutes);
        // The new code replaces the old; wrong answers keep counting (a resend buys no extra guesses).
        await tx.update(transferApprovals).set({ codeHash: sms.codeHash, sentTo: sms.sentTo, lastSentAt: at(now()) }).where(eq(transferApprovals.transferId, t.id));
        return { approvalSentTo: sms.sentTo };
      }
      if (!approvals || !approval.approvalKeyHash || !(await approvals.redeliver(tx, approval.approvalKeyHash))) {
        throw new MethodFailure('TA1', TransferMessages.notPending);
      }
      await tx.update(transferApprovals).set({ lastSentAt: at(now()) }).where(eq(transferApprovals.transferId, t.id));
      return { approvalSentTo: null };
    },

    /** transferCancel: the customer gives up a pending transfer. */
    async cancel(tx: Tx, actor: TransferActor, id: number): Promise<TransferResult> {
      const t = await pendingOwnRequest(tx, actor, id, false);
      const canceled = await voidTransfer(tx, t, 'canceled');
      actor.publish(t.customerId, transferEvent(canceled));
      actor.audit?.({ transferId: t.id, status: 'canceled' });
      return toResult(canceled, await sentToOf(tx, canceled));
    },

    /** transferStatus: the transfer now (a pending one past its time is expired first, in its own transaction). */
    async status(db: Db, actor: TransferActor, id: number): Promise<TransferResult & { responseDescription?: string }> {
      const [found] = await db.select().from(transfers).where(eq(transfers.id, id));
      // As lockOwnTransfer: no existence oracle.
      if (!found || found.customerId !== actor.customerId) throw new MethodFailure('ENOA', TransferMessages.unknownTransfer);
      let t = found;
      if (t.status === 'pending' && t.expiresAt.getTime() <= now()) {
        t = await db.transaction(async (tx) => {
          const [locked] = await tx.select().from(transfers).where(eq(transfers.id, id)).for('update');
          return expireIfDue(tx, actor, locked!);
        });
      }
      const result = toResult(t, await sentToOf(db, t));
      return t.status === 'rejected' && t.approveType === 'push' ? { ...result, responseDescription: PUSH_REJECTED_DESCRIPTION } : result;
    },

    /** approvals.service.ts hook: take the transfer's lock before the request's row. */
    async lockForDevice(tx: Tx, keyHash: string): Promise<void> {
      const [approval] = await tx.select({ transferId: transferApprovals.transferId }).from(transferApprovals).where(eq(transferApprovals.approvalKeyHash, keyHash));
      if (approval) await tx.select({ id: transfers.id }).from(transfers).where(eq(transfers.id, approval.transferId)).for('update');
    },

    /**
     * approvals.service.ts hook: a phone approved (post) or declined (reject, 'Transaction was
     * rejected.') a push transfer, in the answering transaction. Returns the event to send after commit.
     */
    async answeredByDevice(tx: Tx, keyHash: string, approved: boolean): Promise<(() => Promise<void>) | void> {
      const [approval] = await tx.select().from(transferApprovals).where(eq(transferApprovals.approvalKeyHash, keyHash));
      if (!approval) return;
      const [t] = await tx.select().from(transfers).where(eq(transfers.id, approval.transferId)).for('update');
      if (!t || t.status !== 'pending') return;
      let outcome: TransferRow;
      let description: string | undefined;
      // maker-checker: the company's checkers told a payment waits for them (business-approvals.hooks.ts)
      const notices: PushNotice[] = [];
      if (t.expiresAt.getTime() <= now()) outcome = await voidTransfer(tx, t, 'expired');
      else if (!approved) {
        outcome = await voidTransfer(tx, t, 'rejected');
        description = PUSH_REJECTED_DESCRIPTION;
      } else if (await initiateOnly(tx, t.userId, t.customerId)) {
        // maker-checker: approved on its right-3 initiator's phone, it now waits for the company's checker
        outcome = await parkForChecker(tx, t, now(), (n) => notices.push(n));
      } else {
        const [destination] = await tx.select(DESTINATION_COLUMNS).from(accounts).where(eq(accounts.accountId, t.toAccountId));
        const refused = destination?.status === ACCOUNT_STATUS_CLOSED || (destination !== undefined && cardNoLongerLoads(destination, t));
        outcome = refused ? await voidTransfer(tx, t, 'rejected') : await post(tx, t);
      }
      const event = transferEvent(outcome, description);
      // document 3 §7 "transaction confirmation": a phone's answer completed it (approved and posted, or declined)
      const confirmation = outcome.status === 'posted' || outcome.status === 'rejected' ? { type: 'TransactionConfirmation', transactionId: t.id, status: outcome.status === 'posted' ? 'approved' : 'rejected' } : null;
      return async () => {
        await deps.publisher?.publish(t.customerId, event);
        if (confirmation) await deps.publisher?.publish(t.customerId, confirmation);
        for (const n of notices) await deps.publisher?.publish(n.customerId, n.event);
      };
    },

    /**
     * The sweeper: voids pending transfers past their time, each in its own transaction (rows
     * another instance is voiding are skipped). Returns how many it expired.
     */
    async expireDue(db: Db, nowMs: number, batch = 100): Promise<number> {
      const due = await db
        .select({ id: transfers.id })
        .from(transfers)
        .where(and(eq(transfers.status, 'pending'), lte(transfers.expiresAt, at(nowMs))))
        .orderBy(asc(transfers.expiresAt))
        .limit(batch);
      let expired = 0;
      for (const { id } of due) {
        try {
          const done = await db.transaction(async (tx) => {
            const [t] = await tx
              .select()
              .from(transfers)
              .where(and(eq(transfers.id, id), eq(transfers.status, 'pending'), lte(transfers.expiresAt, at(nowMs))))
              .for('update', { skipLocked: true });
            if (!t) return null;
            // a payment that waited for a company's checker: its initiator is told (business-approvals.hooks.ts)
            const parked = await tx
              .select({ id: businessTransactionRequests.id })
              .from(businessTransactionRequests)
              .where(and(eq(businessTransactionRequests.transferId, t.id), eq(businessTransactionRequests.status, 'waiting')));
            const voided = await voidTransfer(tx, t, 'expired');
            return { voided, notices: parked.length > 0 ? await decidedNotices(tx, t, 'expired') : [] };
          });
          if (done) {
            expired++;
            await deps.publisher?.publish(done.voided.customerId, transferEvent(done.voided)).catch(report);
            for (const n of done.notices) await deps.publisher?.publish(n.customerId, n.event).catch(report);
          }
        } catch (err) {
          report(err);
        }
      }
      return expired;
    },

    /**
     * The schedule worker: each due active schedule books its next run as a pre-approved transfer
     * (approve type none) under the entry key `schedule:{id}:{n}`, so a run is never booked twice
     * (a crashed worker's run either committed with its schedule update or not at all). A run that
     * cannot be booked (funds short, account closed, limits, flags withdrawn) is skipped: its error
     * is kept in last_error and the schedule moves on to its next date. A schedule finishes after
     * transactionsTotal booked runs or once its next date is past endDate. Returns runs booked.
     */
    async runDueSchedules(db: Db, nowMs: number, batch = 100, requireFlags?: (tx: Tx, actor: TransferActor, kind: TransferKind) => Promise<void>): Promise<number> {
      let booked = 0;
      for (let i = 0; i < batch; i++) {
        let outcome: 'none' | 'finished' | 'booked' | 'skipped';
        try {
          outcome = await runOne();
        } catch (err) {
          // A run that could not even be judged (the database, a duplicate run): left for the next pass.
          report(err);
          break;
        }
        if (outcome === 'none') break;
        if (outcome === 'booked') booked++;
      }
      return booked;

      async function runOne() {
        return db.transaction(async (tx) => {
          const [s] = await tx
            .select()
            .from(transferSchedules)
            .where(and(eq(transferSchedules.status, 'active'), lte(transferSchedules.nextRunAt, at(nowMs))))
            .orderBy(asc(transferSchedules.nextRunAt))
            .limit(1)
            .for('update', { skipLocked: true });
          if (!s) return 'none' as const;
          const nextDate = nextSlotAfter(s.createdAt, s.frequency, at(nowMs));
          const pastEnd = (d: Date) => s.endDate !== null && d.toISOString().slice(0, 10) > s.endDate;
          if (pastEnd(s.nextRunAt)) {
            await tx.update(transferSchedules).set({ status: 'finished' }).where(eq(transferSchedules.id, s.id));
            return 'finished' as const;
          }
          const run = s.transactionsDone + 1;
          const req = s.request as { amount: string; currency: string; toEmail?: string; note?: string; reference?: string };
          const actor: TransferActor = { userId: s.userId, customerId: s.customerId, ip: 'schedule', publish: () => {} };
          let error: string | null = null;
          try {
            // A savepoint: a refused run rolls back its own writes only.
            await tx.transaction(async (sp) => {
              await requireFlags?.(sp, actor, s.kind);
              const common = { fromAccountId: s.fromAccountId, amount: req.amount, currency: req.currency, note: req.note, reference: req.reference };
              const spec: RequestSpec =
                s.kind === 'p2p'
                  ? { ...common, kind: 'p2p', toEmail: req.toEmail ?? '', params: { from: 'accountId', to: 'toEmail', amount: 'amount', currency: 'currency' } }
                  : { ...common, kind: 'betweenAccounts', toAccountId: s.toAccountId, params: { from: 'fromAccount', to: 'toAccount', amount: 'toAmount', currency: 'currency' } };
              await request(sp, actor, spec, { scheduleRun: { scheduleId: s.id, run } });
            });
          } catch (err) {
            if (err instanceof DuplicateRunError) throw err;
            if (err instanceof MethodFailure) error = [err.responseDescription, ...(err.validationErrors ?? []).map((e) => `${e.param} ${e.description}`)].join(': ');
            else if (err instanceof InsufficientFundsError) error = VfCode.balanceExceeded;
            else throw err;
          }
          const done = error === null ? run : s.transactionsDone;
          const finished = (s.transactionsTotal !== null && done >= s.transactionsTotal) || pastEnd(nextDate);
          await tx
            .update(transferSchedules)
            .set({ transactionsDone: done, lastError: error, nextRunAt: nextDate, ...(finished ? { status: 'finished' as const } : {}) })
            .where(eq(transferSchedules.id, s.id));
          return error === null ? ('booked' as const) : ('skipped' as const);
        });
      }
    },
  };
}
