/**
 * Model-based test of the transfer pages: paths generated from the transfer machine's graph, for
 * own-account transfers, p2p and payouts (external), drive the REAL TransferView (and, while approving, the real
 * ApprovalView of the approval machine the transfer machine invokes) through Testing Library.
 * The named-method actors are test doubles answered by the paths' `xstate.done.actor.*` events;
 * the debounces fire by sending their `xstate.after.*` events (the real delays are an hour). The
 * approval child's outcome is reached through its own screen: typing the code and answering the
 * approve call, or cancelling.
 *
 * Every step checks the page against what the TEST did, never against the chart's context: `record`
 * works out from the events performed and the answers given (`Did`) the step, the form, the fee,
 * total and limits shown, the field errors and the result. What the chart gets from the rules is
 * written out here for the fixtures (expectedErrors, the calls' inputs, the totals), not computed
 * with the rules module (which mutation testing mutates too).
 *
 * To keep the graph small the form is filled along a script (one field after the other, with a
 * few wrong values on the way), lookups are answered one at a time, and the form goes to review
 * only once complete; every chart transition is still taken (checked below). The rules'
 * boundaries are side trips from the script: amounts on each side of the limits and of the
 * balance (with the fee), reviewed once; load answers lacking one required permission flag;
 * "Send all" without a source (the chart must refuse it).
 *
 * A payout (external) follows its own script: the payee's country, transferMethods' answer (two
 * offered of three, the card's flag not held; one offered, chosen for the customer; none, "cannot
 * send" and noMethod on review; a refusal or no answer, then "Try again"), the method chosen on the
 * radio, its payee form (extraParams; or a failure, then "Try again"), the payee's name and IBAN
 * (a wrong check digit on the way), the amount, the fee, the review (method, country, payee), the
 * wire call sent; done as "on its way" (processing), or approved as processing. The methods and
 * the payee form are answered every way only the first time; back on the form, with success.
 *
 * Proof it can fail (session of 2026-11-27): each of these breakages, made one at a time and
 * undone, turned the run red: the "Send all" guard hasSource made always true; the per-transfer
 * maximum compared with >= instead of >; fiat amounts allowed 3 decimals instead of 2; the balance
 * check refusing an amount and fee exactly equal to the balance (< instead of <=); the permission
 * check satisfied by one of the kind's flags (some instead of every).
 * Payouts (session of 2026-11-27, the same way, run on the committed chart of 2622d4d): the guard
 * isOnlyMethod made always false (the one method offered is not chosen: the radio is unchecked,
 * and done.actor.fetchMethods|0 is never taken); permittedMethods returning the answer unfiltered
 * (the card payout, whose flag is not held, is offered); touchesPayeeForm ignoring 'method' (no
 * payee form is asked when the method is chosen); routeErrors not requiring a method (review says
 * "not loaded yet" on the method instead of "required"). Each turned the run red.
 *
 * The paths run from transfer.model.{1,2}.test.tsx, half each (describeTransferPaths).
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { TestModel, type TestPath } from '@xstate/graph';
import { createActor, fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import type { Account } from '../../api/accounts.ts';
import type { Failure } from '../../api/envelope.ts';
import type { PayoutMethod } from '../../api/payees/payout-methods.ts';
import { IDEMPOTENCY_KEY_PATTERN, type MoneyPermissions, type RecentTransfer } from '../../api/transfers.ts';
import { approvalMachine, type ApprovalEvent, type ApproveResult, type CancelResult, type ResendResult } from '../../machines/approval/approval.machine.ts';
import {
  factsOf,
  transferMachine,
  type FeeQuote,
  type FeeResult,
  type LimitsResult,
  type LoadResult,
  type MaxAmountResult,
  type MethodsResult,
  type PayeeFormResult,
  type PayeeResult,
  type SubmitResult,
  type TransferEvent,
  type TransferResult,
} from '../../machines/transfer/transfer.machine.ts';
import {
  feeRequest,
  limitsRequest,
  validateForm,
  type FeeRequest,
  type LimitsRequest,
  type MaxAmountRequest,
  type MethodsRequest,
  type PayeeCheck,
  type PayeeForm,
  type PayeeFormRequest,
  type RecurringForm,
  type TransferForm,
  type TransferFormPatch,
  type TransferKind,
  type TransferRequest,
} from '../../machines/transfer/transfer.rules.ts';
import { TransferView } from '../../src/features/transfers/transfer-view.tsx';
import { errorPopupContent } from '../../src/lib/errors.ts';
import { formatMoney } from '../../src/lib/format.ts';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, recordingExecutors, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';
import { LiveQueue } from './live-queue.ts';

type Snap = SnapshotFrom<typeof transferMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = TransferEvent | SystemEvent;

const AFTER_FEE = 'xstate.after.feeDebounce.transfer.editing.fee.waiting';
const AFTER_PAYEE = 'xstate.after.payeeDebounce.transfer.editing.payee.waiting';
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const money = (amount: string, currency: string) => plain(formatMoney(amount, currency, 'en'));

/* ------------------------------------------------------------------------------ fixtures */

const account = (accountId: number, currency: string, balance: string, accountStatusId = 2): Account => ({
  accountId,
  type: 1001,
  subType: null,
  accountStatusId,
  currency,
  balance,
  accountBalanceMin: '0',
  pendingAmount: '0',
  customerId: 10,
  settlementAccountId: null, cardIsVirtual: null, cardAliasName: null, cardExpiryMonth: null, cardExpiryYear: null, cardReissuedStatusId: null,
});
const EUR = account(101, 'EUR', '500.00');
const USD = account(102, 'USD', '20.5');
const CLOSED = account(103, 'EUR', '0', 11);

const allowAll = (value: boolean): MoneyPermissions => ({
  topLevel: { sendMoneyPaxumUser: value, sendMoneyUser: value, requestMoney: value, settlementAccount: value, addFundsWireThirdParty: value, addFundsBankThirdParty: value },
  own: { digital: value, betweenAccounts: value, wire: value, eft: value, card: value, instant: value, interac: value },
  others: { digital: value, loadPrepaidCard: value, wire: value, eft: value, card: value, instant: value, interac: value, p2p: value, global: value },
  mass: { wire: value, eft: value, card: value, instant: value, interac: value, p2p: value, digital: value, global: value },
  funding: { digital: value },
});

const RECENT: RecentTransfer = {
  permission: '3d',
  type: 'p2p',
  isDisabled: false,
  templateName: 'Rent',
  toEmail: 'bob@demo.test',
  toName: 'Bob Demo',
  fromAccountId: 101,
  toAccountId: null,
  amount: '25',
  currency: 'EUR',
  date: '2026-11-01T10:00:00.000Z',
};

interface KindSetup {
  kind: TransferKind;
  accounts: Account[];
  recent: RecentTransfer[];
}
const SETUPS: Record<TransferKind, KindSetup> = {
  // Two open accounts: the user chooses the source.
  betweenAccounts: { kind: 'betweenAccounts', accounts: [EUR, USD, CLOSED], recent: [] },
  // One open account: chosen for the user.
  p2p: { kind: 'p2p', accounts: [EUR, CLOSED], recent: [RECENT] },
  // A payout: one open account (chosen), the payee's country and method chosen on the page.
  external: { kind: 'external', accounts: [EUR, CLOSED], recent: [] },
};

/** The countries the external page offers (TransferView's `countries`). */
const COUNTRIES = [
  { code: 'DE', name: 'Germany' },
  { code: 'CA', name: 'Canada' },
];
/** The payout flags held (PAYOUT_METHOD_FLAGS): every one but the card's, so a card payout is never offered. */
const PAYOUT_PERMISSIONS: MoneyPermissions = (() => {
  const p = allowAll(true);
  p.others.card = false;
  return p;
})();
/** A load answer with every flag but the six payout methods' ones: the payout page is not allowed. */
const NO_PAYOUT_FLAG: MoneyPermissions = (() => {
  const p = allowAll(true);
  for (const name of ['wire', 'eft', 'card', 'digital', 'instant', 'interac']) (p.others as Record<string, boolean>)[name] = false;
  return p;
})();
/**
 * transferMethods' answers for DE in EUR and what the page must offer of them (the card payout,
 * oct, is not offered: its flag others.card is not held). Written out, not the rules' permittedMethods.
 */
const METHOD_ANSWERS: { answer: PayoutMethod[]; offered: PayoutMethod[] }[] = [
  // the main line: two offered, the customer chooses
  { answer: ['wire', 'eft', 'oct'], offered: ['wire', 'eft'] },
  // one offered: chosen for the customer
  { answer: ['eft', 'oct'], offered: ['eft'] },
  // none: "cannot send", and noMethod on review
  { answer: [], offered: [] },
];
const offeredOf = (answer: PayoutMethod[]) => METHOD_ANSWERS.find((m) => JSON.stringify(m.answer) === JSON.stringify(answer))!.offered;
/** extraParams' answer for the chosen method: the payee's name and IBAN. */
const PAYEE_FORM: PayeeForm = {
  fields: [
    { name: 'beneficiaryName', kind: 'text', required: true, pattern: 'name', maxLength: 140 },
    { name: 'iban', kind: 'text', required: true, pattern: 'iban', maxLength: 42 },
  ],
  oneOf: [],
  blockedBins: [],
};
const PAYEE_NAME = 'Erika Mustermann';
const GOOD_IBAN = 'DE89370400440532013000';
/** the same with a wrong check digit (ibanChecksum) */
const BAD_IBAN = 'DE89370400440532013001';
const METHOD_NAMES: Record<PayoutMethod, RegExp> = {
  wire: /^international wire \(swift\)$/i,
  eft: /^local bank transfer$/i,
  oct: /^to a card$/i,
  digital: /^to a crypto wallet$/i,
  instant: /^pix instant payment$/i,
  interac: /^interac e-transfer$/i,
};
/** The payout call of each method (written out, not the rules' PAYOUT_CALL_OF). */
const PAYOUT_CALLS: Partial<Record<PayoutMethod, 'wireTransfer' | 'eftTransfer'>> = { wire: 'wireTransfer', eft: 'eftTransfer' };

const LONG_FAILURE: Failure = { responseCode: 'TA1', responseDescription: 'The account does not hold enough money for this transfer and its fee' };
const SHORT_FAILURE: Failure = { responseCode: 'UE', responseDescription: 'Fee service unavailable' };

function quoteFor(r: FeeRequest): FeeQuote {
  if (r.operation === 'external') return { fee: '1.5', feeCurrency: 'EUR', amount: r.amount, currency: 'EUR', toAmount: r.amount, toCurrency: 'EUR', rate: '1' };
  if (r.operation === 'p2p') return { fee: '0.25', feeCurrency: 'EUR', amount: r.amount, currency: 'EUR', toAmount: r.amount, toCurrency: 'EUR', rate: '1' };
  // 1 EUR = 1.085 USD
  return r.currency === 'USD'
    ? { fee: '0.1', feeCurrency: 'EUR', amount: '9.22', currency: 'EUR', toAmount: r.amount, toCurrency: 'USD', rate: '1.085' }
    : { fee: '0.1', feeCurrency: 'EUR', amount: r.amount, currency: 'EUR', toAmount: '10.85', toCurrency: 'USD', rate: '1.085' };
}

/**
 * The limits answered, per kind. p2p's are wide, so its amounts meet the balance first; the
 * between-accounts ones are narrow, so their boundaries are met below the balance (EUR 500.00).
 */
const LIMITS: Record<TransferKind, { currencyCode: string; minAmount: string; maxAmount: string; dailyLimit: string; dailyRemaining: string }> = {
  p2p: { currencyCode: 'EUR', minAmount: '1', maxAmount: '1000', dailyLimit: '2000', dailyRemaining: '1500.5' },
  betweenAccounts: { currencyCode: 'EUR', minAmount: '1', maxAmount: '490', dailyLimit: '2000', dailyRemaining: '485.5' },
  external: { currencyCode: 'EUR', minAmount: '5', maxAmount: '5000', dailyLimit: '10000', dailyRemaining: '9000' },
};
const LIMITS_TEXT: Record<TransferKind, string> = {
  p2p: "Per transfer: €1.00 to €1,000.00. Left of today's limit: €1,500.50.",
  betweenAccounts: "Per transfer: €1.00 to €490.00. Left of today's limit: €485.50.",
  external: "Per transfer: €5.00 to €5,000.00. Left of today's limit: €9,000.00.",
};

/** Permissions with every flag but one: the kind's required flags must all be there. */
const allBut = (group: keyof MoneyPermissions, name: string): MoneyPermissions => {
  const p = allowAll(true);
  (p[group] as Record<string, boolean>)[name] = false;
  return p;
};
const MISSING_ONE: Record<TransferKind, MoneyPermissions[]> = {
  betweenAccounts: [allBut('own', 'betweenAccounts')],
  p2p: [allBut('topLevel', 'sendMoneyUser'), allBut('others', 'p2p')],
  // a payout needs one payout method's flag at least
  external: [NO_PAYOUT_FLAG],
};

/** Clicking the recent transfer fills these in (written out: not the rules' patchFromRecent). */
const RECENT_PATCH: TransferFormPatch = { fromAccountId: 101, amount: '25', payeeEmail: 'bob@demo.test' };
/** What ticking "Repeat this transfer" fills in (written out: not the rules' defaultRecurring). */
const DEFAULT_RECURRING: RecurringForm = { frequency: 'monthly', end: 'count', endDate: '', transactions: '12', userCancel: true };

/**
 * Amounts on the boundaries of the rules, typed once the rest of the form is right, then
 * reviewed (a side trip: lookups answered with success only, nothing offered after the review).
 * EUR 101 holds 500.00; p2p's fee is 0.25, between accounts' 0.1 (quoteFor).
 */
const BOUNDARY_AMOUNTS: Record<TransferKind, string[]> = {
  // 1 is the smallest allowed, 485.5 what is left of the day, 490 the largest per transfer
  betweenAccounts: ['0.99', '1', '485.5', '485.51', '490', '490.01'],
  // with the fee: 500.00 exactly (allowed), 500.01 (refused)
  p2p: ['499.75', '499.76'],
  external: [],
};
const isBoundary = (kind: TransferKind, amount: string) => BOUNDARY_AMOUNTS[kind].includes(amount);

const EXPIRES_AT = new Date(Date.now() + 86_400_000).toISOString();

function resultFor(request: TransferRequest, approveType: 'none' | 'sms'): TransferResult {
  const p2p = request.method === 'transferP2p';
  const payout = request.method !== 'transferP2p' && request.method !== 'transferBetweenAccounts';
  if (payout) {
    // a payout with no approval to wait for is on its way over its rail: processing
    return {
      transactionId: 9002,
      status: approveType === 'none' ? 'processing' : 'pending',
      approveType,
      approvalSentTo: approveType === 'sms' ? '+370 *** **12' : null,
      fee: '1.5',
      feeCurrency: 'EUR',
      amount: '10',
      currency: 'EUR',
      toAmount: '10',
      toCurrency: 'EUR',
      rate: '1',
      expiresAt: EXPIRES_AT,
      scheduleId: null,
    };
  }
  return {
    transactionId: 9001,
    status: approveType === 'none' ? 'posted' : 'pending',
    approveType,
    approvalSentTo: approveType === 'sms' ? '+370 *** **12' : null,
    fee: p2p ? '0.25' : '0.1',
    feeCurrency: 'EUR',
    amount: '10',
    currency: 'EUR',
    toAmount: p2p ? '10' : '10.85',
    toCurrency: p2p ? 'EUR' : 'USD',
    rate: p2p ? '1' : '1.085',
    expiresAt: EXPIRES_AT,
    scheduleId: null,
  };
}

/* ------------------------------------------------------------------------------ the script */

/** The form changes offered next: one field after the other, some wrong values on the way. */
function scriptFor(kind: TransferKind, s: Snap): TransferFormPatch[] {
  const f = s.context.form;
  if (kind === 'external') {
    if (f.countryCode === '') return [{ countryCode: 'DE' }];
    // the radio "How to send", once the methods are offered
    if (f.method === null) return s.context.methods?.includes('wire') ? [{ method: 'wire' }] : [];
    if (s.context.payeeForm === null) return [];
    const v = f.payeeFields;
    if (!v.beneficiaryName) return [{ payeeFields: { beneficiaryName: PAYEE_NAME } }];
    if (!v.iban) return [{ payeeFields: { beneficiaryName: PAYEE_NAME, iban: GOOD_IBAN } }, { payeeFields: { beneficiaryName: PAYEE_NAME, iban: BAD_IBAN } }];
    if (v.iban === BAD_IBAN) return [{ payeeFields: { beneficiaryName: PAYEE_NAME, iban: GOOD_IBAN } }];
    if (f.amount === '') return [{ amount: '10' }];
    return [];
  }
  if (kind === 'betweenAccounts') {
    if (f.fromAccountId === null) return [{ fromAccountId: 101 }];
    if (f.toAccountId === null) return [{ toAccountId: 102 }];
    if (f.amount === '') return [{ amount: '10' }, { amount: '1.234' }, ...BOUNDARY_AMOUNTS[kind].map((amount) => ({ amount }))];
    if (f.amount === '1.234') return [{ amount: '10' }];
    if (isBoundary(kind, f.amount)) return [];
    if (f.currency === null) return [{ currency: 'USD' }];
    return [];
  }
  if (f.payeeEmail === '') return [{ payeeEmail: 'bob@demo.test' }, { payeeEmail: 'bob@x' }, RECENT_PATCH];
  if (f.payeeEmail === 'bob@x') return [{ payeeEmail: 'bob@demo.test' }];
  if (f.amount === '') return [{ amount: '10' }, { amount: '0' }, ...BOUNDARY_AMOUNTS[kind].map((amount) => ({ amount }))];
  if (f.amount === '0') return [{ amount: '10' }];
  if (isBoundary(kind, f.amount)) return [];
  if (f.recurring === null) return [{ recurring: { ...DEFAULT_RECURRING, transactions: '1' } }];
  if (f.recurring.transactions === '1') return [{ recurring: DEFAULT_RECURRING }];
  return [];
}

/** The form is the script's last one (only that one goes on to review). */
function isComplete(kind: TransferKind, s: Snap): boolean {
  const f = s.context.form;
  if (kind === 'external') return f.payeeFields.iban === GOOD_IBAN && f.amount === '10';
  return kind === 'betweenAccounts' ? f.currency === 'USD' && f.amount === '10' : f.recurring?.transactions === '12' && f.amount === '10';
}

const leadsToReview = (s: Snap) => Object.keys(validateForm(s.context.kind, s.context.form, factsOf(s.context))).length === 0 && s.context.quote !== null;

/**
 * What is off the main line in a snapshot: an error shown, a lookup that failed or said no. Side
 * trips start only from the main line, and off it only the fix (or a success) is offered, so the
 * rest of the script is not walked again with every flavour of error.
 */
function flavours(s: Snap): Set<string> {
  const c = s.context;
  const out = new Set<string>();
  if (Object.keys(c.fieldErrors).length > 0) out.add('fieldErrors');
  if (c.feeFailure) out.add('feeFailure');
  if (c.maxFailure) out.add('maxFailure');
  if (c.reviewBlock) out.add('reviewBlock');
  if (c.payeeUnchecked || (c.payee && (!c.payee.exist || !c.payee.exists || c.payee.outBlacklist))) out.add('payee');
  if (c.limits === null && s.matches({ editing: { limits: 'idle' } }) && limitsRequest(c.kind, c.form, c.accounts) !== null) out.add('limits');
  if (c.notice) out.add('notice');
  if (isBoundary(c.kind, c.form.amount)) out.add('boundary');
  // a payout: the methods or the payee's form could not be had; no method offered; one method, chosen for the customer
  if (c.methodsFailure) out.add('methodsFailure');
  if (c.payeeFormFailure) out.add('payeeFormFailure');
  if (c.methods?.length === 0) out.add('noMethod');
  if (c.methods?.length === 1 && c.form.method !== null) out.add('onlyMethod');
  return out;
}

/** Lookup answers, one lookup at a time (the first that is waiting); off the main line, successes only. */
function lookupAnswers(s: Snap, mainLine: boolean): ModelEvent[] | null {
  const c = s.context;
  const kids = s.children as Record<string, unknown>;
  const pick = (events: ModelEvent[]) => (mainLine ? events : events.slice(0, 1));
  // a payout's methods and payee form: every answer the first time (no amount yet); back on the form, success
  const firstTime = (events: ModelEvent[]) => (c.form.amount === '' ? pick(events) : events.slice(0, 1));
  if (kids.fetchMethods) {
    return firstTime([
      ...METHOD_ANSWERS.map(({ answer }) => ({ type: 'xstate.done.actor.fetchMethods', output: { ok: true, methods: answer } satisfies MethodsResult }) as const),
      { type: 'xstate.done.actor.fetchMethods', output: { ok: false, code: 'failed', failure: SHORT_FAILURE } satisfies MethodsResult },
      { type: 'xstate.error.actor.fetchMethods', error: new Error('offline') },
    ]);
  }
  if (kids.fetchPayeeForm) {
    return firstTime([
      { type: 'xstate.done.actor.fetchPayeeForm', output: { ok: true, form: PAYEE_FORM } satisfies PayeeFormResult },
      { type: 'xstate.done.actor.fetchPayeeForm', output: { ok: false, code: 'failed', failure: SHORT_FAILURE } satisfies PayeeFormResult },
      { type: 'xstate.error.actor.fetchPayeeForm', error: new Error('offline') },
    ]);
  }
  if (kids.fetchLimits) {
    return pick([
      { type: 'xstate.done.actor.fetchLimits', output: { ok: true, limits: LIMITS[c.kind] } satisfies LimitsResult },
      { type: 'xstate.done.actor.fetchLimits', output: { ok: false, code: 'network' } satisfies LimitsResult },
      { type: 'xstate.error.actor.fetchLimits', error: new Error('offline') },
    ]);
  }
  if (s.matches({ editing: { fee: 'waiting' } })) return [{ type: AFTER_FEE }];
  if (kids.quoteFee) {
    const request = feeRequest(c.kind, c.form, c.accounts)!;
    return pick([
      { type: 'xstate.done.actor.quoteFee', output: { ok: true, quote: quoteFor(request) } satisfies FeeResult },
      { type: 'xstate.done.actor.quoteFee', output: { ok: false, code: 'failed', failure: SHORT_FAILURE } satisfies FeeResult },
      { type: 'xstate.error.actor.quoteFee', error: new Error('offline') },
    ]);
  }
  if (s.matches({ editing: { payee: 'waiting' } })) return [{ type: AFTER_PAYEE }];
  if (kids.checkPayee) {
    const base = { exist: true, exists: true, isEmployee: false, outBlacklist: false, name: 'Bob Demo' };
    return pick([
      { type: 'xstate.done.actor.checkPayee', output: { ok: true, payee: base } satisfies PayeeResult },
      { type: 'xstate.done.actor.checkPayee', output: { ok: true, payee: { ...base, exist: false, exists: false, name: null } } satisfies PayeeResult },
      { type: 'xstate.done.actor.checkPayee', output: { ok: true, payee: { ...base, exists: false, name: null } } satisfies PayeeResult },
      { type: 'xstate.done.actor.checkPayee', output: { ok: true, payee: { ...base, outBlacklist: true } } satisfies PayeeResult },
      { type: 'xstate.done.actor.checkPayee', output: { ok: false, code: 'network' } satisfies PayeeResult },
      { type: 'xstate.error.actor.checkPayee', error: new Error('offline') },
    ]);
  }
  if (kids.fetchMaxAmount) {
    return pick([
      { type: 'xstate.done.actor.fetchMaxAmount', output: { ok: true, maxAmount: '480.5', currency: 'EUR' } satisfies MaxAmountResult },
      { type: 'xstate.done.actor.fetchMaxAmount', output: { ok: false, code: 'failed', failure: SHORT_FAILURE } satisfies MaxAmountResult },
      { type: 'xstate.error.actor.fetchMaxAmount', error: new Error('offline') },
    ]);
  }
  return null;
}

/** The form fields an error flavour lives on (a script change of one of them is its fix). */
function fixes(s: Snap, patch: TransferFormPatch, f: Set<string>): boolean {
  const c = s.context;
  const keys = Object.keys(patch);
  const errorFields = Object.keys(c.fieldErrors).map((k) => (k.startsWith('recurring') ? 'recurring' : k.startsWith('payee.') ? 'payeeFields' : k));
  if (f.has('fieldErrors') && keys.some((k) => errorFields.includes(k))) return true;
  if (f.has('feeFailure') && keys.includes('amount')) return true;
  if (f.has('payee') && keys.includes('payeeEmail')) return true;
  return false;
}

/** The approval child's outcomes, reached through its screen (see the executors). */
const approvalOutcomes = (kind: TransferKind): SystemEvent[] => [
  // a payout approved is on its way over its rail (processing); a transfer inside the platform is posted
  { type: 'xstate.done.actor.approval', output: { result: 'approved', status: kind === 'external' ? 'processing' : 'posted' } },
  { type: 'xstate.done.actor.approval', output: { result: 'canceled' } },
  { type: 'xstate.done.actor.approval', output: { result: 'failed', reason: 'rejected', failure: null } },
  { type: 'xstate.done.actor.approval', output: { result: 'failed', reason: 'failed', failure: LONG_FAILURE } },
];

function eventsFor(kind: TransferKind, s: Snap): ModelEvent[] {
  const c = s.context;
  const all: ModelEvent[] = [];
  if (s.matches('loading')) {
    all.push(
      { type: 'xstate.done.actor.loadSetup', output: { ok: true, accounts: SETUPS[kind].accounts, permissions: kind === 'external' ? PAYOUT_PERMISSIONS : allowAll(true), recent: SETUPS[kind].recent } satisfies LoadResult },
      { type: 'xstate.done.actor.loadSetup', output: { ok: true, accounts: SETUPS[kind].accounts, permissions: allowAll(false), recent: [] } satisfies LoadResult },
      ...MISSING_ONE[kind].map((permissions) => ({ type: 'xstate.done.actor.loadSetup', output: { ok: true, accounts: SETUPS[kind].accounts, permissions, recent: [] } satisfies LoadResult }) as const),
      { type: 'xstate.done.actor.loadSetup', output: { ok: false, code: 'failed', failure: SHORT_FAILURE } satisfies LoadResult },
      { type: 'xstate.error.actor.loadSetup', error: new Error('offline') },
    );
  } else if (s.matches('loadFailed')) {
    all.push({ type: 'LOAD.RETRY' });
  } else if (s.matches('editing')) {
    const f = flavours(s);
    const mainLine = f.size === 0;
    const lookups = lookupAnswers(s, mainLine);
    if (lookups) all.push(...lookups);
    // The popup is modal: only closing it.
    else if (c.failure) all.push({ type: 'POPUP.CLOSE' });
    else {
      const script = scriptFor(kind, s);
      all.push(...script.filter((patch) => mainLine || fixes(s, patch, f)).map((patch) => ({ type: 'FORM.CHANGE' as const, patch })));
      // Review: with errors only from the main line; on to review only with the complete form.
      const onward = leadsToReview(s);
      if (
        (mainLine && (!onward || isComplete(kind, s))) ||
        (onward && f.size === 1 && f.has('notice')) ||
        (f.size === 1 && f.has('feeFailure')) ||
        (f.size === 1 && f.has('boundary')) ||
        (f.size === 1 && f.has('noMethod'))
      )
        all.push({ type: 'REVIEW' });
      if (s.matches({ editing: { fee: 'failed' } })) all.push({ type: 'FEE.RETRY' });
      if (s.matches({ editing: { methods: 'failed' } })) all.push({ type: 'METHODS.RETRY' });
      if (s.matches({ editing: { payeeForm: 'failed' } })) all.push({ type: 'PAYEE_FORM.RETRY' });
      // "Send all" before the amount is typed; without a source the chart must refuse it
      // (a payout's: once, with the payee's details typed; without a method the chart refuses it)
      if (mainLine && c.form.amount === '' && (kind !== 'external' || c.form.payeeFields.iban === GOOD_IBAN)) {
        if (c.form.fromAccountId === null) return [{ type: 'MAX.REQUEST' }, ...all.filter((e) => s.can(e as TransferEvent))];
        all.push({ type: 'MAX.REQUEST' });
      }
    }
  } else if (s.matches('reviewing')) {
    // a boundary amount's review is where its side trip ends
    if (!isBoundary(kind, c.form.amount)) all.push({ type: 'SUBMIT' }, { type: 'REVIEW.BACK' });
  } else if (s.matches('submitting')) {
    const request = c.request!;
    all.push(
      { type: 'xstate.done.actor.submitTransfer', output: { ok: true, result: resultFor(request, 'none') } satisfies SubmitResult },
      { type: 'xstate.done.actor.submitTransfer', output: { ok: true, result: resultFor(request, 'sms') } satisfies SubmitResult },
      { type: 'xstate.done.actor.submitTransfer', output: { ok: false, code: 'fields', fieldErrors: { amount: { code: 'server', error: { param: 'amount', description: 'exceeds the available balance', code: 'balanceExceeded', params: {} } } } } satisfies SubmitResult },
      { type: 'xstate.done.actor.submitTransfer', output: { ok: false, code: 'network' } satisfies SubmitResult },
      { type: 'xstate.done.actor.submitTransfer', output: { ok: false, code: 'failed', failure: LONG_FAILURE } satisfies SubmitResult },
      { type: 'xstate.done.actor.submitTransfer', output: { ok: false, code: 'failed', failure: SHORT_FAILURE } satisfies SubmitResult },
      { type: 'xstate.error.actor.submitTransfer', error: new Error('offline') },
    );
  } else if (s.matches('approving')) {
    all.push(...approvalOutcomes(kind));
  } else if (s.matches('done') || s.matches('failed')) {
    all.push({ type: 'TRANSFER.NEW' });
  }
  return all.filter((e) => s.can(e as TransferEvent));
}

/** Only what the checks read, never the random key. */
const serialize = (s: Snap) => {
  const c = s.context;
  return JSON.stringify({
    value: s.value,
    form: c.form,
    accounts: c.accounts.length,
    fieldErrors: c.fieldErrors,
    quote: c.quote,
    feeFailure: c.feeFailure,
    limits: c.limits !== null,
    payee: c.payee,
    payeeUnchecked: c.payeeUnchecked,
    maxFailure: c.maxFailure !== null,
    reviewBlock: c.reviewBlock,
    request: c.request !== null,
    submitUnanswered: c.submitUnanswered,
    failure: c.failure,
    loadFailure: c.loadFailure,
    result: c.result?.approveType ?? null,
    outcome: c.outcome,
    notice: c.notice,
    methods: c.methods,
    methodsFailure: c.methodsFailure,
    payeeForm: c.payeeForm !== null,
    payeeFormFailure: c.payeeFormFailure,
  });
};

/* ------------------------------------------------------------------------------ what the test did */

/** A field error the page must show: its code (the view's sentence), or the platform's words. */
type Shown = { code: string; text?: string };

/** What the test did, kept apart from the chart's context: the page is expected from it. */
interface Did {
  last: ModelEvent | null;
  loadFailure: { code: 'network' } | { code: 'failed'; description: string } | null;
  /** the load answered the permissions this kind needs */
  permitted: boolean;
  /** the form as the test filled it (and "Send all" answered) */
  form: TransferForm;
  fieldErrors: Partial<Record<string, Shown>>;
  /** the quote answered for the form as it is now */
  quote: FeeQuote | null;
  feeFailure: { code: 'network' } | { code: 'failed'; description: string } | null;
  limits: boolean;
  /** the limits were asked for the accounts as they are now, and answered (known or not) */
  limitsAnswered: boolean;
  payee: Omit<PayeeCheck, 'email'> | null;
  payeeUnchecked: boolean;
  maxFailure: boolean;
  /** a valid review was asked for before the fee was known */
  reviewBlock: boolean;
  /** the last REVIEW was of a valid form with its fee: the review page, until back or an answer leaves it */
  reviewing: boolean;
  /** the last submit got no answer and no review since: "Send again", with the same key */
  unanswered: boolean;
  failure: Failure | null;
  result: TransferResult | null;
  outcome: 'rejected' | 'failed' | null;
  notice: boolean;
  /** a payout: the methods the page must offer (the answer less those not permitted), null until answered */
  methods: PayoutMethod[] | null;
  methodsFailure: { code: 'network' } | { code: 'failed'; description: string } | null;
  /** the chosen method's payee form was answered (PAYEE_FORM) */
  payeeForm: boolean;
  payeeFormFailure: { code: 'network' } | { code: 'failed'; description: string } | null;
}

const EMPTY_FORM: TransferForm = {
  fromAccountId: null,
  toAccountId: null,
  amount: '',
  currency: null,
  payeeEmail: '',
  note: '',
  reference: '',
  templateName: '',
  recurring: null,
  countryCode: '',
  method: null,
  payeeFields: {},
};
const fresh = (): Omit<Did, 'last'> => ({
  loadFailure: null,
  permitted: false,
  form: { ...EMPTY_FORM },
  fieldErrors: {},
  quote: null,
  feeFailure: null,
  limits: false,
  limitsAnswered: false,
  payee: null,
  payeeUnchecked: false,
  maxFailure: false,
  reviewBlock: false,
  reviewing: false,
  unanswered: false,
  failure: null,
  result: null,
  outcome: null,
  notice: false,
  methods: null,
  methodsFailure: null,
  payeeForm: false,
  payeeFormFailure: null,
});

/** Money as whole cents (the fixtures' amounts have at most two decimals). */
const cents = (amount: string) => Math.round(Number(amount) * 100);
const euros = (c: number) => (c / 100).toFixed(2);
/** EUR 101, the source of every path: 500.00 available (balance, nothing held, minimum 0). */
const AVAILABLE_CENTS = 50000;
const sourceCurrency = (f: TransferForm) => (f.fromAccountId === 101 ? 'EUR' : f.fromAccountId === 102 ? 'USD' : null);
const isCheckable = (email: string) => email.trim().length > 5 && email.includes('@') && email.includes('.');
/** The fee is asked once the source, a positive amount (two decimals at most) and, between accounts, another destination are there. */
/** The destination each kind needs: another account, nothing more (p2p), or a payout's country and method. */
const hasDestination = (kind: TransferKind, f: TransferForm) =>
  kind === 'p2p' || (kind === 'external' ? f.countryCode !== '' && f.method !== null : f.toAccountId !== null && f.toAccountId !== f.fromAccountId);
const feeReady = (kind: TransferKind, f: TransferForm) => f.fromAccountId !== null && /^\d+(\.\d{1,2})?$/.test(f.amount) && cents(f.amount) > 0 && hasDestination(kind, f);
/** Limits (and a payout's "send all") are the method's: asked once it is chosen. */
const limitsReady = (kind: TransferKind, f: TransferForm) => f.fromAccountId !== null && hasDestination(kind, f);

/** The errors a review of the form must show (document 2 §5), written out for the fixtures. */
function expectedErrors(kind: TransferKind, d: Did): Partial<Record<string, Shown>> {
  const f = d.form;
  const e: Partial<Record<string, Shown>> = {};
  if (f.fromAccountId === null) e.fromAccountId = { code: 'required' };
  if (kind === 'betweenAccounts') {
    if (f.toAccountId === null) e.toAccountId = { code: 'required' };
    else if (f.toAccountId === f.fromAccountId) e.toAccountId = { code: 'sameAccount' };
  }
  const currency = f.currency ?? sourceCurrency(f);
  const limits = d.limits && currency === 'EUR' ? LIMITS[kind] : null;
  if (f.amount === '') e.amount = { code: 'required' };
  else if (!/^\d+(\.\d+)?$/.test(f.amount) || Number(f.amount) <= 0) e.amount = { code: 'amountFormat' };
  else if (currency !== null && (f.amount.split('.')[1]?.length ?? 0) > 2) e.amount = { code: 'amountDecimals' };
  else if (limits && cents(f.amount) < cents(limits.minAmount)) e.amount = { code: 'belowMin' };
  else if (limits && cents(f.amount) > cents(limits.maxAmount)) e.amount = { code: 'aboveMax' };
  else if (limits && cents(f.amount) > cents(limits.dailyRemaining)) e.amount = { code: 'overDailyLimit' };
  else if (f.fromAccountId === 101) {
    // what leaves the source: with the fee once it is quoted (in the source's currency)
    const q = d.quote;
    const needed = q && q.currency === 'EUR' ? cents(q.amount) + cents(q.fee) : currency === 'EUR' ? cents(f.amount) : null;
    if (needed !== null && needed > AVAILABLE_CENTS) e.amount = { code: 'aboveBalance' };
  }
  if (kind === 'p2p') {
    const email = f.payeeEmail.trim().toLowerCase();
    const p = d.payee;
    if (email === '') e.payeeEmail = { code: 'required' };
    else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) e.payeeEmail = { code: 'email' };
    else if (p && !p.exist) e.payeeEmail = { code: 'payeeNotFound' };
    else if (p && p.outBlacklist) e.payeeEmail = { code: 'payeeRefuses' };
    else if (p && !p.exists) e.payeeEmail = { code: 'payeeCannotReceive' };
  }
  if (kind === 'external') {
    // the payee's country, the method, then the method's fields (api/payees/ checks, written out for the fixtures)
    const v = f.payeeFields;
    if (f.countryCode === '') e.countryCode = { code: 'required' };
    else if (d.methods !== null && d.methods.length === 0) e.countryCode = { code: 'noMethod' };
    else if (f.method === null) e.method = { code: 'required' };
    else if (!d.payeeForm) e.method = { code: 'formNotLoaded' };
    else {
      if (!v.beneficiaryName?.trim()) e['payee.beneficiaryName'] = { code: 'payee:required' };
      const iban = v.iban?.trim() ?? '';
      if (iban === '') e['payee.iban'] = { code: 'payee:required' };
      else if (iban === BAD_IBAN) e['payee.iban'] = { code: 'payee:ibanChecksum' };
    }
  }
  if (f.recurring?.end === 'count') {
    const t = f.recurring.transactions;
    if (!/^\d{1,4}$/.test(t) || Number(t) < 2 || Number(t) > 1000) e.recurringTransactions = { code: 'transactionsRange' };
  }
  return e;
}

/** A new form on the page: every lookup starts again (the old answers are dropped). */
const restartLookups = (did: Did) =>
  Object.assign(did, { quote: null, feeFailure: null, limits: false, limitsAnswered: false, payee: null, payeeUnchecked: false, methods: null, methodsFailure: null, payeeForm: false, payeeFormFailure: null });

function applyPatch(did: Did, given: TransferFormPatch): void {
  // a new country drops the method chosen (what is offered depends on it)
  const patch = 'countryCode' in given && given.countryCode !== did.form.countryCode && did.form.method !== null && !('method' in given) ? { ...given, method: null } : given;
  const has = (...keys: (keyof TransferForm)[]) => keys.some((k) => k in patch);
  did.form = { ...did.form, ...patch };
  // the changed fields' errors go; a new source or currency changes what the amount means
  const gone = new Set<string>(Object.keys(patch));
  // the payee's fields: each one typed, and the one-of group's e-mail and phone
  if (has('payeeFields')) for (const k of [...Object.keys(patch.payeeFields!), 'email', 'phone']) gone.add(`payee.${k}`);
  if (has('recurring')) for (const k of ['recurringFrequency', 'recurringEndDate', 'recurringTransactions']) gone.add(k);
  if (has('fromAccountId', 'currency')) gone.add('amount');
  if (has('fromAccountId')) gone.add('toAccountId');
  did.fieldErrors = Object.fromEntries(Object.entries(did.fieldErrors).filter(([k]) => !gone.has(k)));
  Object.assign(did, { reviewBlock: false, notice: false });
  if (has('fromAccountId', 'toAccountId', 'amount', 'currency', 'countryCode', 'method')) Object.assign(did, { quote: null, feeFailure: null });
  if (has('fromAccountId', 'toAccountId', 'method')) Object.assign(did, { limits: false, limitsAnswered: false, maxFailure: false });
  if (has('payeeEmail')) Object.assign(did, { payee: null, payeeUnchecked: false });
  // a payout: a new country (or source) asks the methods again; a new method its payee form
  if (has('fromAccountId', 'countryCode')) Object.assign(did, { methods: null, methodsFailure: null });
  if (has('fromAccountId', 'countryCode', 'method')) Object.assign(did, { payeeForm: false, payeeFormFailure: null });
}

/** What each event calls for, worked out here rather than read from the chart. */
function record(kind: TransferKind, did: Did, event: ModelEvent): void {
  did.last = event;
  const out = (event as SystemEvent).output as Record<string, any> | undefined;
  switch (event.type) {
    case 'xstate.done.actor.loadSetup': {
      const r = out as LoadResult;
      if (!r.ok) {
        did.loadFailure = r.code === 'failed' ? { code: 'failed', description: r.failure.responseDescription! } : { code: 'network' };
        return;
      }
      const p = r.permissions;
      const o = p.others;
      did.permitted =
        kind === 'p2p' ? p.topLevel.sendMoneyUser && o.p2p : kind === 'external' ? o.wire || o.eft || o.card || o.digital || o.instant || o.interac : p.own.betweenAccounts;
      did.loadFailure = null;
      // p2p's and external's fixtures have one open account: it is the source
      if (kind !== 'betweenAccounts') did.form.fromAccountId = 101;
      return;
    }
    case 'xstate.error.actor.loadSetup':
      did.loadFailure = { code: 'network' };
      return;
    case 'FORM.CHANGE':
      applyPatch(did, (event as Extract<TransferEvent, { type: 'FORM.CHANGE' }>).patch);
      return;
    case 'MAX.REQUEST':
      if (did.form.fromAccountId !== null) did.maxFailure = false;
      return;
    case 'xstate.done.actor.fetchMaxAmount':
      // "Send all": the amount becomes the maximum, in the source's currency
      if (out!.ok) applyPatch(did, { amount: out!.maxAmount, currency: null });
      else did.maxFailure = true;
      return;
    case 'xstate.error.actor.fetchMaxAmount':
      did.maxFailure = true;
      return;
    case 'xstate.done.actor.quoteFee':
      if (out!.ok) Object.assign(did, { quote: out!.quote, feeFailure: null, reviewBlock: false });
      else Object.assign(did, { quote: null, feeFailure: out!.code === 'failed' ? { code: 'failed', description: out!.failure.responseDescription } : { code: 'network' } });
      return;
    case 'xstate.error.actor.quoteFee':
      Object.assign(did, { quote: null, feeFailure: { code: 'network' } });
      return;
    case 'xstate.done.actor.fetchLimits':
      Object.assign(did, { limits: out!.ok, limitsAnswered: true });
      return;
    case 'xstate.error.actor.fetchLimits':
      Object.assign(did, { limits: false, limitsAnswered: true });
      return;
    case 'xstate.done.actor.fetchMethods': {
      const r = out as MethodsResult;
      if (r.ok) {
        const offered = offeredOf(r.methods);
        Object.assign(did, { methods: offered, methodsFailure: null });
        // one method offered and none chosen: chosen for the customer, as a change of the form
        if (offered.length === 1 && did.form.method === null) applyPatch(did, { method: offered[0]! });
      } else Object.assign(did, { methods: null, methodsFailure: r.code === 'failed' ? { code: 'failed', description: r.failure.responseDescription! } : { code: 'network' } });
      return;
    }
    case 'xstate.error.actor.fetchMethods':
      Object.assign(did, { methods: null, methodsFailure: { code: 'network' } });
      return;
    case 'xstate.done.actor.fetchPayeeForm': {
      const r = out as PayeeFormResult;
      if (r.ok) Object.assign(did, { payeeForm: true, payeeFormFailure: null });
      else Object.assign(did, { payeeForm: false, payeeFormFailure: r.code === 'failed' ? { code: 'failed', description: r.failure.responseDescription! } : { code: 'network' } });
      return;
    }
    case 'xstate.error.actor.fetchPayeeForm':
      Object.assign(did, { payeeForm: false, payeeFormFailure: { code: 'network' } });
      return;
    case 'xstate.done.actor.checkPayee':
      Object.assign(did, out!.ok ? { payee: out!.payee, payeeUnchecked: false } : { payee: null, payeeUnchecked: true });
      return;
    case 'xstate.error.actor.checkPayee':
      Object.assign(did, { payee: null, payeeUnchecked: true });
      return;
    case 'REVIEW': {
      const errors = expectedErrors(kind, did);
      if (Object.keys(errors).length > 0) Object.assign(did, { fieldErrors: errors, reviewBlock: false });
      else if (did.quote) Object.assign(did, { reviewing: true, unanswered: false, fieldErrors: {}, reviewBlock: false, failure: null, notice: false });
      else did.reviewBlock = true;
      return;
    }
    case 'REVIEW.BACK':
      Object.assign(did, { reviewing: false, unanswered: false });
      restartLookups(did);
      return;
    case 'xstate.done.actor.submitTransfer': {
      const r = out as SubmitResult;
      if (r.ok) Object.assign(did, { reviewing: false, unanswered: false, result: r.result });
      else if (r.code === 'network') did.unanswered = true;
      else {
        Object.assign(did, { reviewing: false, unanswered: false });
        if (r.code === 'fields') did.fieldErrors = { amount: { code: 'server', text: 'The amount exceeds the available balance.' } };
        else did.failure = r.failure;
        restartLookups(did);
      }
      return;
    }
    case 'xstate.error.actor.submitTransfer':
      did.unanswered = true;
      return;
    case 'xstate.done.actor.approval':
      if (out!.result === 'approved') did.result = { ...did.result!, status: out!.status };
      else if (out!.result === 'canceled') {
        Object.assign(did, { notice: true, result: null });
        restartLookups(did);
      } else did.outcome = out!.reason === 'rejected' ? 'rejected' : 'failed';
      return;
    case 'POPUP.CLOSE':
      did.failure = null;
      return;
    case 'TRANSFER.NEW':
      Object.assign(did, fresh());
      return;
  }
}

/** The fee call the form calls for (document 2 §5), written out. */
const expectedFeeRequest = (kind: TransferKind, f: TransferForm): FeeRequest =>
  kind === 'p2p'
    ? { operation: 'p2p', amount: f.amount, fromAccountId: f.fromAccountId! }
    : kind === 'external'
      ? // the method's fee, for the country, in the source's currency
        { operation: 'external', amount: f.amount, fromAccountId: f.fromAccountId!, method: f.method!, countryCode: f.countryCode, currency: 'EUR' }
      : { operation: kind, amount: f.amount, fromAccountId: f.fromAccountId!, toAccountId: f.toAccountId!, ...(f.currency ? { currency: f.currency as never } : {}) };

/** The request the reviewed form sends, written out. */
function expectedRequest(kind: TransferKind, f: TransferForm): TransferRequest {
  const currency = (f.currency ?? sourceCurrency(f)) as never;
  const r = f.recurring;
  const subscription = r ? { subscriptionFrequency: r.frequency, subscriptionUserCancel: r.userCancel, subscriptionTransactions: Number(r.transactions) } : {};
  if (kind === 'external') {
    // the payee: the form's fields as typed, trimmed, the empty ones left out
    const payee = Object.fromEntries(
      Object.entries(f.payeeFields)
        .map(([k, v]) => [k, v.trim()])
        .filter(([, v]) => v !== ''),
    );
    return { method: PAYOUT_CALLS[f.method!]!, payload: { fromAccountId: f.fromAccountId!, amount: f.amount, currency, countryCode: f.countryCode, payee } };
  }
  return kind === 'p2p'
    ? { method: 'transferP2p', payload: { accountId: f.fromAccountId!, amount: f.amount, currency, toEmail: f.payeeEmail.trim().toLowerCase(), ...subscription } }
    : { method: 'transferBetweenAccounts', payload: { fromAccount: f.fromAccountId!, toAccount: f.toAccountId!, toAmount: f.amount, currency, ...subscription } };
}

/* ------------------------------------------------------------------------------ the harness */

function mount(kind: TransferKind) {
  const q = {
    loadSetup: new AnswerQueue<{ kind: TransferKind; recentLimit: number }, LoadResult>(),
    quoteFee: new LiveQueue<FeeRequest, FeeResult>(),
    fetchLimits: new LiveQueue<LimitsRequest, LimitsResult>(),
    checkPayee: new LiveQueue<{ email: string }, PayeeResult>(),
    fetchMaxAmount: new LiveQueue<MaxAmountRequest, MaxAmountResult>(),
    fetchMethods: new LiveQueue<MethodsRequest, MethodsResult>(),
    fetchPayeeForm: new LiveQueue<PayeeFormRequest, PayeeFormResult>(),
    submitTransfer: new AnswerQueue<{ request: TransferRequest; idempotencyKey: string }, SubmitResult>(),
    approveTransfer: new AnswerQueue<{ transactionId: number; code: string; idempotencyKey: string }, ApproveResult>(),
    cancelTransfer: new AnswerQueue<{ transactionId: number; idempotencyKey: string }, CancelResult>(),
    resendApproval: new AnswerQueue<{ transactionId: number }, ResendResult>(),
  };
  const logic = transferMachine.provide({
    actors: {
      loadSetup: fromPromise(({ input }) => q.loadSetup.next(input)),
      quoteFee: fromPromise(({ input, signal }) => q.quoteFee.next(input, signal)),
      fetchLimits: fromPromise(({ input, signal }) => q.fetchLimits.next(input, signal)),
      checkPayee: fromPromise(({ input, signal }) => q.checkPayee.next(input, signal)),
      fetchMaxAmount: fromPromise(({ input, signal }) => q.fetchMaxAmount.next(input, signal)),
      fetchMethods: fromPromise(({ input, signal }) => q.fetchMethods.next(input, signal)),
      fetchPayeeForm: fromPromise(({ input, signal }) => q.fetchPayeeForm.next(input, signal)),
      submitTransfer: fromPromise(({ input }) => q.submitTransfer.next(input)),
      approval: approvalMachine.provide({
        actors: {
          approveTransfer: fromPromise(({ input }) => q.approveTransfer.next(input)),
          cancelTransfer: fromPromise(({ input }) => q.cancelTransfer.next(input)),
          resendApproval: fromPromise(({ input }) => q.resendApproval.next(input)),
          watchTransfer: fromCallback<ApprovalEvent, { transactionId: number }>(() => () => undefined),
        },
        delays: { resendCooldown: 3_600_000, untilExpiry: 3_600_000 },
      }),
    },
    delays: { feeDebounce: 3_600_000, payeeDebounce: 3_600_000 },
  });
  const actor = createActor(logic, { input: { kind } }).start();
  render(
    <I18nProvider i18n={i18n}>
      <TransferView actor={actor} countries={COUNTRIES} />
    </I18nProvider>,
  );
  const did: Did = { last: null, ...fresh() };
  return { q, actor, did };
}
type Harness = ReturnType<typeof mount>;

const fieldByLabel = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement | HTMLSelectElement;
const AMOUNT_LABEL = /^amount( \([A-Z]{3}\))?$/i;
const describedText = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

/** The field shows the error the test expects, tied to it; or none. */
function expectFieldError(el: HTMLElement, text: RegExp | null) {
  if (text) {
    expect(el.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(el)).toMatch(text);
  } else {
    expect(el.getAttribute('aria-invalid')).toBeNull();
  }
}

const FIELD_ERROR_TEXT: Record<string, RegExp> = {
  required: /this is required/i,
  sameAccount: /other than the one/i,
  amountFormat: /amount above zero/i,
  amountDecimals: /fewer decimals/i,
  belowMin: /below the smallest transfer allowed/i,
  aboveMax: /above the largest transfer allowed/i,
  overDailyLimit: /more than what is left of today's limit/i,
  aboveBalance: /the amount and its fee come to more than the available balance of €500\.00\./i,
  payeeNotFound: /no customer has this e-mail/i,
  payeeCannotReceive: /cannot receive money/i,
  payeeRefuses: /does not accept money from you/i,
  email: /enter an e-mail address/i,
  transactionsRange: /from 2 to 1000/i,
  noMethod: /^we cannot send money to this country in this currency\. choose another country or another account\.$/i,
  formNotLoaded: /details for this method are not loaded yet/i,
  // a payee field's code, worded by the platform's sentences (src/lib/validation-messages.ts)
  'payee:required': /^this field is required\.$/i,
  'payee:ibanChecksum': /^check the iban: its check digits do not match\.$/i,
};
/** The payee form's fields by label. */
const PAYEE_LABELS: Record<string, RegExp> = { beneficiaryName: /^payee's full name$/i, iban: /^iban$/i };
/** The methods' names as the page shows them (radio labels, the review). */
const METHOD_TEXT: Partial<Record<PayoutMethod, string>> = { wire: 'International wire (SWIFT)', eft: 'Local bank transfer' };
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const errorPattern = (e: Shown | undefined) => (e ? (e.code === 'server' ? new RegExp(`^${escape(e.text!)}$`) : FIELD_ERROR_TEXT[e.code]!) : null);
/** What a checked payee's answer says is wrong, or null. */
const payeeProblemOf = (p: Omit<PayeeCheck, 'email'> | null) => (p ? (!p.exist ? 'payeeNotFound' : p.outBlacklist ? 'payeeRefuses' : !p.exists ? 'payeeCannotReceive' : null) : null);

function stateChecks(kind: TransferKind, h: Harness) {
  const title = kind === 'p2p' ? /send money to a person/i : kind === 'external' ? /send to a bank, card or wallet/i : /transfer between your accounts/i;
  const d = () => h.did;
  return {
    loading: async () => {
      await screen.findByRole('heading', { name: title });
      expect(screen.getByText(/loading your accounts/i)).toBeTruthy();
      expect(h.q.loadSetup.waiting).toBe(1);
      expect(h.q.loadSetup.calls.at(-1)).toEqual({ kind, recentLimit: kind === 'betweenAccounts' ? 0 : 3 });
    },
    loadFailed: async (s: Snap) => {
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toMatch(/could not load your accounts/i);
      const failure = d().loadFailure;
      expect(failure).not.toBeNull();
      if (failure?.code === 'failed') expect(alert.textContent).toContain(failure.description);
      else expect(alert.textContent).not.toMatch(/fee service unavailable/i);
      expect(screen.getByRole('button', { name: /try again/i })).toBeTruthy();
      expectOffered<TransferEvent>(s, [{ type: 'LOAD.RETRY' }]);
      expect(d().last?.type).not.toBe('LOAD.RETRY');
    },
    notAllowed: async () => {
      await screen.findByRole('heading', { name: title });
      // the load answered, without every flag this kind needs
      expect(d().loadFailure).toBeNull();
      expect(d().last?.type).toBe('xstate.done.actor.loadSetup');
      expect(d().permitted).toBe(false);
      expect(screen.getByText(/not allowed to make this kind of transfer/i)).toBeTruthy();
      expect(screen.queryByLabelText(/from account/i)).toBeNull();
    },
    editing: async (s: Snap) => {
      const did = d();
      const f = did.form;
      await screen.findByRole('heading', { name: title });
      expect(did.permitted).toBe(true);
      // a review asked for and not shown: the form says why
      expect(did.reviewing).toBe(false);
      if (did.last?.type === 'REVIEW') expect(Object.keys(did.fieldErrors).length > 0 || did.reviewBlock).toBe(true);
      expectOffered<TransferEvent>(s, [{ type: 'FORM.CHANGE', patch: { note: '' } }, { type: 'REVIEW' }]);
      // the form shows what the test entered
      const from = fieldByLabel(/^from account$/i) as HTMLSelectElement;
      expect(from.value).toBe(f.fromAccountId === null ? '' : String(f.fromAccountId));
      // closed accounts are not offered; balances are shown in the UI language
      expect(within(from).queryByText(/account 103/)).toBeNull();
      expect(plain(within(from).getByText(/EUR account 101/).textContent!)).toContain('€500.00');
      expectFieldError(from, errorPattern(did.fieldErrors.fromAccountId));
      const amount = fieldByLabel(AMOUNT_LABEL) as HTMLInputElement;
      expect(amount.value).toBe(f.amount);
      expect(amount.getAttribute('inputmode')).toBe('decimal');
      expectFieldError(amount, errorPattern(did.fieldErrors.amount));
      if (kind === 'betweenAccounts') {
        const to = fieldByLabel(/^to account$/i) as HTMLSelectElement;
        expect(to.value).toBe(f.toAccountId === null ? '' : String(f.toAccountId));
        expectFieldError(to, errorPattern(did.fieldErrors.toAccountId));
        // the amount's currency: the source's or the destination's, offered when they differ
        const currency = screen.queryByLabelText(/^amount in$/i) as HTMLSelectElement | null;
        if (f.fromAccountId !== null && f.toAccountId !== null) expect(currency?.value).toBe(f.currency ?? 'EUR');
        else expect(currency).toBeNull();
        expect(screen.queryByLabelText(/payee/i)).toBeNull();
      } else if (kind === 'p2p') {
        expect(screen.queryByLabelText(/^to account$/i)).toBeNull();
        expect(screen.queryByLabelText(/payee's country/i)).toBeNull();
        const payee = fieldByLabel(/payee's e-mail address/i) as HTMLInputElement;
        expect(payee.value).toBe(f.payeeEmail);
        // a checked payee: the name, or why money cannot go there
        const problem = payeeProblemOf(did.payee);
        expectFieldError(payee, errorPattern(did.fieldErrors.payeeEmail ?? (problem ? { code: problem } : undefined)));
        if (s.hasTag('payeeBusy')) expect(describedText(payee)).toMatch(/checking the e-mail/i);
        else if (did.payee && !problem) expect(describedText(payee)).toMatch(/sending to bob demo/i);
        else if (did.payeeUnchecked) expect(describedText(payee)).toMatch(/could not check this address/i);
        else expect(describedText(payee)).not.toMatch(/sending to|could not check/i);
        // recent p2p transfers to pick from
        expect(screen.getByRole('button', { name: /send again to bob demo: €25\.00/i })).toBeTruthy();
        const recurring = screen.getByRole('checkbox', { name: /repeat this transfer/i }) as HTMLInputElement;
        expect(recurring.checked).toBe(f.recurring !== null);
        if (f.recurring) {
          const count = fieldByLabel(/^number of transfers/i);
          expect(count.value).toBe(f.recurring.transactions);
          expectFieldError(count, errorPattern(did.fieldErrors.recurringTransactions));
        }
      } else {
        // a payout: no destination account, no e-mail payee; not repeated, not saved as a template
        expect(screen.queryByLabelText(/^to account$/i)).toBeNull();
        expect(screen.queryByLabelText(/e-mail address/i)).toBeNull();
        expect(screen.queryByRole('checkbox', { name: /repeat this transfer/i })).toBeNull();
        expect(screen.queryByLabelText(/template/i)).toBeNull();
        expect(fieldByLabel(/^note for your history/i).value).toBe(f.note);
        expect(fieldByLabel(/^reference/i).value).toBe(f.reference);
        expect(screen.queryByRole('button', { name: /send again to/i })).toBeNull();
        // the payee's country, among the countries given to the page
        const country = fieldByLabel(/^payee's country$/i) as HTMLSelectElement;
        expect(country.value).toBe(f.countryCode);
        expect([...country.options].filter((o) => o.value !== '').map((o) => [o.value, o.textContent])).toEqual(COUNTRIES.map((c) => [c.code, c.name]));
        expectFieldError(country, errorPattern(did.fieldErrors.countryCode));
        // no methods offered: said once (on the country's field after a review, else as a warning)
        const cannot = screen.queryByText(/we cannot send eur to germany/i);
        expect(cannot !== null).toBe(did.methods?.length === 0 && !did.fieldErrors.countryCode);
        // the methods offered, as radios; the chosen one checked
        const group = screen.queryByRole('group', { name: /how to send/i });
        if (did.methods && did.methods.length > 0) {
          expect(group).not.toBeNull();
          const radios = within(group!).getAllByRole('radio') as HTMLInputElement[];
          expect(radios.map((r) => r.value)).toEqual(did.methods);
          const pattern = errorPattern(did.fieldErrors.method);
          for (const m of did.methods) {
            const radio = within(group!).getByRole('radio', { name: METHOD_NAMES[m] }) as HTMLInputElement;
            expect(radio.checked).toBe(f.method === m);
            expect(radio.getAttribute('aria-invalid')).toBe(pattern ? 'true' : null);
          }
          if (pattern) expect(describedText(group!)).toMatch(pattern);
        } else expect(group).toBeNull();
        // the method's payee form, with what the test typed and its errors
        for (const [name, label] of Object.entries(PAYEE_LABELS)) {
          const input = screen.queryByLabelText(label) as HTMLInputElement | null;
          if (did.payeeForm) {
            expect(input).not.toBeNull();
            expect(input!.value).toBe(f.payeeFields[name] ?? '');
            expectFieldError(input!, errorPattern(did.fieldErrors[`payee.${name}`]));
          } else expect(input).toBeNull();
        }
        if (did.payeeForm) expect((screen.getByLabelText(/^iban$/i) as HTMLInputElement).maxLength).toBe(42);
      }
      if (did.notice) expect(screen.getByText(/you canceled the transfer: nothing was sent/i)).toBeTruthy();
      else expect(screen.queryByText(/you canceled the transfer/i)).toBeNull();
      if (did.reviewBlock) expect(screen.getByText(/the fee is not known yet/i)).toBeTruthy();
      else expect(screen.queryByText(/the fee is not known yet/i)).toBeNull();
      // the error popup of document 2 §8: a long description is the body under "Error"
      const dialog = screen.queryByRole('dialog');
      if (did.failure) {
        const content = errorPopupContent(did.failure);
        expect(dialog).not.toBeNull();
        expect(within(dialog!).getByRole('heading').textContent).toBe(content.title);
        if (did.failure.responseDescription!.length > 50) {
          expect(content.title).toBe('Error');
          expect(dialog!.textContent).toContain(did.failure.responseDescription);
        }
        expectOffered<TransferEvent>(s, [{ type: 'POPUP.CLOSE' }]);
      } else expect(dialog).toBeNull();
      const feeBusy = matchesPath(s, 'editing.fee.waiting') || matchesPath(s, 'editing.fee.quoting');
      await waitFor(() => expect((screen.getByRole('button', { name: /review the transfer/i }) as HTMLButtonElement).disabled).toBe(feeBusy));
    },
    'editing.fee.idle': async () => {
      const did = d();
      // idle: the fee is known, or the form does not call for one
      expect(did.quote !== null || !feeReady(kind, did.form)).toBe(true);
      expect(did.feeFailure).toBeNull();
      const status = screen.getByText((_, el) => el?.tagName === 'P' && el.getAttribute('aria-live') === 'polite');
      const q = did.quote;
      if (q) {
        expect(plain(status.textContent!)).toContain(`Fee: ${money(q.fee, q.feeCurrency)}.`);
        expect(plain(status.textContent!)).toContain(`${kind === 'betweenAccounts' ? 'Arrives' : 'They receive'}: ${money(q.toAmount, q.toCurrency)}.`);
        if (q.currency !== q.toCurrency) expect(status.textContent).toContain(`Rate: 1 ${q.currency} = ${q.rate} ${q.toCurrency}.`);
        else expect(status.textContent).not.toContain('Rate');
        // what leaves the source: the amount and the fee, in its currency
        expect(plain(status.textContent!)).toContain(`You pay in total: €${euros(cents(q.amount) + cents(q.fee))}.`);
      } else expect(status.textContent).toBe('');
      expect(screen.queryByRole('button', { name: /calculate the fee again/i })).toBeNull();
    },
    'editing.fee.waiting': async () => {
      expect(feeReady(kind, d().form)).toBe(true);
      expect(screen.getByText(/calculating the fee/i)).toBeTruthy();
      expect(h.q.quoteFee.waiting).toBe(0);
    },
    'editing.fee.quoting': async (s: Snap) => {
      const did = d();
      expect(feeReady(kind, did.form)).toBe(true);
      expect(screen.getByText(/calculating the fee/i)).toBeTruthy();
      expect(h.q.quoteFee.waiting).toBe(1);
      expect(h.q.quoteFee.calls.at(-1)).toEqual(expectedFeeRequest(kind, did.form));
      expect(s.can({ type: 'xstate.done.actor.quoteFee', output: { ok: true, quote: quoteFor(expectedFeeRequest(kind, did.form)) } } as never)).toBe(true);
    },
    'editing.fee.failed': async (s: Snap) => {
      const failure = d().feeFailure;
      expect(failure).not.toBeNull();
      const line = screen.getByText(/could not calculate the fee/i).textContent!;
      if (failure?.code === 'failed') expect(line).toContain(failure.description);
      else expect(line).toMatch(/calculate the fee\.$/i);
      expect(screen.getByRole('button', { name: /calculate the fee again/i })).toBeTruthy();
      expectOffered<TransferEvent>(s, [{ type: 'FEE.RETRY' }]);
      expect(d().last?.type).not.toBe('FEE.RETRY');
    },
    'editing.limits.idle': async () => {
      const did = d();
      if (did.limits) expect(plain(screen.getByText(/per transfer:/i).textContent!)).toBe(LIMITS_TEXT[kind]);
      else expect(screen.queryByText(/per transfer:/i)).toBeNull();
      // idle with both accounts: the limits were asked and answered
      if (limitsReady(kind, did.form)) expect(did.limitsAnswered).toBe(true);
    },
    'editing.limits.loading': async () => {
      const f = d().form;
      expect(limitsReady(kind, f)).toBe(true);
      expect(h.q.fetchLimits.waiting).toBe(1);
      // a payout's limits are its method's
      expect(h.q.fetchLimits.calls.at(-1)).toEqual({ type: kind === 'external' ? f.method : kind, currencyCode: 'EUR', fromAccountId: f.fromAccountId });
    },
    'editing.payee.idle': async () => {
      const did = d();
      expect(h.q.checkPayee.waiting).toBe(0);
      // a checkable address was checked (answered, or left unchecked)
      if (kind === 'p2p' && isCheckable(did.form.payeeEmail)) expect(did.payee !== null || did.payeeUnchecked).toBe(true);
    },
    'editing.payee.waiting': async () => {
      expect(kind === 'p2p' && isCheckable(d().form.payeeEmail)).toBe(true);
      expect(h.q.checkPayee.waiting).toBe(0);
    },
    'editing.payee.checking': async () => {
      expect(h.q.checkPayee.waiting).toBe(1);
      expect(h.q.checkPayee.calls.at(-1)).toEqual({ email: d().form.payeeEmail.trim().toLowerCase() });
    },
    'editing.methods.idle': async () => {
      const did = d();
      expect(h.q.fetchMethods.waiting).toBe(0);
      expect(screen.queryByText(/finding the ways to send money/i)).toBeNull();
      expect(screen.queryByText(/could not find the ways to send money/i)).toBeNull();
      expect(did.methodsFailure).toBeNull();
      // idle with a country: the methods were asked and answered
      if (kind === 'external' && did.form.countryCode !== '') expect(did.methods).not.toBeNull();
      else expect(did.methods).toBeNull();
      if (kind !== 'external') expect(h.q.fetchMethods.calls).toHaveLength(0);
    },
    'editing.methods.loading': async () => {
      const did = d();
      expect(kind).toBe('external');
      expect(screen.getByText(/finding the ways to send money to germany/i)).toBeTruthy();
      expect(h.q.fetchMethods.waiting).toBe(1);
      // the country chosen, in the source account's currency
      expect(h.q.fetchMethods.calls.at(-1)).toEqual({ countryCode: 'DE', currencyCode: 'EUR' });
      expect(did.form.countryCode).toBe('DE');
      expect(screen.queryByRole('group', { name: /how to send/i })).toBeNull();
      // asked again after a failure: the old failure gives way to the spinner
      expect(screen.queryByText(/could not find the ways to send money/i)).toBeNull();
      expect(screen.queryByRole('button', { name: /try again/i })).toBeNull();
    },
    'editing.methods.failed': async (s: Snap) => {
      const failure = d().methodsFailure;
      expect(failure).not.toBeNull();
      const alert = screen.getByText(/could not find the ways to send money there/i).closest('[role="alert"]') as HTMLElement;
      if (failure?.code === 'failed') expect(alert.textContent).toContain(failure.description);
      else expect(alert.textContent).not.toMatch(/fee service unavailable/i);
      expect(within(alert).getByRole('button', { name: /try again/i })).toBeTruthy();
      expectOffered<TransferEvent>(s, [{ type: 'METHODS.RETRY' }]);
      expect(d().last?.type).not.toBe('METHODS.RETRY');
      expect(screen.queryByRole('group', { name: /how to send/i })).toBeNull();
    },
    'editing.payeeForm.idle': async () => {
      const did = d();
      expect(h.q.fetchPayeeForm.waiting).toBe(0);
      expect(screen.queryByText(/loading the payee's details form/i)).toBeNull();
      expect(screen.queryByText(/could not load the payee's details form/i)).toBeNull();
      expect(did.payeeFormFailure).toBeNull();
      // idle with a method: its form was asked and answered
      expect(did.payeeForm).toBe(kind === 'external' && did.form.method !== null);
      if (kind !== 'external') expect(h.q.fetchPayeeForm.calls).toHaveLength(0);
    },
    'editing.payeeForm.loading': async () => {
      const did = d();
      expect(kind).toBe('external');
      expect(screen.getByText(/loading the payee's details form/i)).toBeTruthy();
      expect(h.q.fetchPayeeForm.waiting).toBe(1);
      // the method chosen (by the customer, or for them), for the country and the source's currency
      expect(did.form.method).not.toBeNull();
      expect(h.q.fetchPayeeForm.calls.at(-1)).toEqual({ countryCode: 'DE', currencyCode: 'EUR', paymentMethod: did.form.method });
      // asked again after a failure: the old failure gives way to the spinner
      expect(screen.queryByText(/could not load the payee's details form/i)).toBeNull();
      expect(screen.queryByRole('button', { name: /try again/i })).toBeNull();
    },
    'editing.payeeForm.failed': async (s: Snap) => {
      const failure = d().payeeFormFailure;
      expect(failure).not.toBeNull();
      const alert = screen.getByText(/could not load the payee's details form/i).closest('[role="alert"]') as HTMLElement;
      if (failure?.code === 'failed') expect(alert.textContent).toContain(failure.description);
      else expect(alert.textContent).not.toMatch(/fee service unavailable/i);
      expect(within(alert).getByRole('button', { name: /try again/i })).toBeTruthy();
      expectOffered<TransferEvent>(s, [{ type: 'PAYEE_FORM.RETRY' }]);
      expect(d().last?.type).not.toBe('PAYEE_FORM.RETRY');
    },
    'editing.max.idle': async (s: Snap) => {
      const did = d();
      const button = screen.getByRole('button', { name: /send all/i }) as HTMLButtonElement;
      // a payout's maximum is its method's: none without one
      const canAsk = did.form.fromAccountId !== null && (kind !== 'external' || did.form.method !== null);
      expect(button.disabled).toBe(!canAsk);
      if (canAsk) expectOffered<TransferEvent>(s, [{ type: 'MAX.REQUEST' }]);
      // "Send all" pressed and still idle: only without a source
      if (did.last?.type === 'MAX.REQUEST') {
        expect(did.form.fromAccountId).toBeNull();
        expect(h.q.fetchMaxAmount.calls).toHaveLength(0);
      }
      if (did.maxFailure) expect(screen.getByText(/could not find the largest amount/i)).toBeTruthy();
      else expect(screen.queryByText(/could not find the largest amount/i)).toBeNull();
    },
    'editing.max.loading': async () => {
      const f = d().form;
      expect(screen.getByRole('button', { name: /send all/i }).getAttribute('aria-busy')).toBe('true');
      const to = kind === 'betweenAccounts' && f.toAccountId !== null && f.toAccountId !== f.fromAccountId ? { toAccountId: f.toAccountId } : {};
      expect(h.q.fetchMaxAmount.calls.at(-1)).toEqual({ operation: kind === 'external' ? f.method : kind, fromAccountId: f.fromAccountId, ...to });
    },
    reviewing: async (s: Snap) => {
      const did = d();
      expect(did.reviewing).toBe(true);
      expect(did.last?.type).not.toBe('SUBMIT');
      expectOffered<TransferEvent>(s, [{ type: 'SUBMIT' }, { type: 'REVIEW.BACK' }]);
      await screen.findByRole('heading', { name: /check the transfer/i });
      const summary = plain(document.querySelector('dl')!.textContent!);
      const q = did.quote!;
      expect(q).not.toBeNull();
      expect(summary).toContain(`Amount${money(q.amount, q.currency)}`);
      expect(summary).toContain(`Fee${money(q.fee, q.feeCurrency)}`);
      expect(summary).toContain(money(q.toAmount, q.toCurrency));
      expect(summary).toContain(`You pay in total€${euros(cents(q.amount) + cents(q.fee))}`);
      if (kind === 'p2p') expect(summary).toContain(did.payee?.name ? `${did.payee.name} (${did.form.payeeEmail})` : `To${did.form.payeeEmail}`);
      if (kind === 'external') {
        // the payee: method, country and every detail typed
        expect(summary).toContain(`Method${METHOD_TEXT[did.form.method!]}Country${COUNTRIES.find((c) => c.code === did.form.countryCode)!.name}`);
        // the IBAN as it is printed: in groups of four
        expect(summary).toContain(`Payee's full name${PAYEE_NAME}IBANDE89 3704 0044 0532 0130 00`);
        expect(summary).toContain(`They receive${money(q.toAmount, q.toCurrency)}`);
        expect(summary).not.toContain('To');
      }
      if (did.form.recurring) expect(summary).toContain(`Every month, ${did.form.recurring.transactions} transfers in all`);
      else expect(summary).not.toContain('Repeats');
      if (q.currency !== q.toCurrency) expect(summary).toContain(`1 ${q.currency} = ${q.rate} ${q.toCurrency}`);
      // back here after a submit that got no answer (and no new review): say so
      if (did.unanswered) expect(screen.getByRole('alert').textContent).toMatch(/no answer from the server.*made only once/i);
      else expect(screen.queryByRole('alert')).toBeNull();
      await waitFor(() => expect(screen.getByRole('button', { name: did.unanswered ? /^send again$/i : /^send$/i }).getAttribute('aria-busy')).toBeNull());
    },
    submitting: async (s: Snap) => {
      const did = d();
      expect(did.reviewing).toBe(true);
      await waitFor(() => expect(screen.getByRole('button', { name: /^send( again)?$/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.submitTransfer.waiting).toBe(1);
      const calls = h.q.submitTransfer.calls;
      const call = calls.at(-1)!;
      // the request reviewed, as the test filled the form
      expect(call.request).toEqual(expectedRequest(kind, did.form));
      // a payout: the wire call, the payee as typed (only the complete form is reviewed)
      if (kind === 'external') {
        expect(call.request).toEqual({
          method: 'wireTransfer',
          payload: { fromAccountId: 101, amount: '10', currency: 'EUR', countryCode: 'DE', payee: { beneficiaryName: 'Erika Mustermann', iban: 'DE89370400440532013000' } },
        });
      }
      expect(call.idempotencyKey).toMatch(IDEMPOTENCY_KEY_PATTERN);
      // sent again after no answer (and no new review): the same key; otherwise a new one
      const earlier = calls.slice(0, -1).map((c) => c.idempotencyKey);
      if (did.unanswered) expect(call.idempotencyKey).toBe(earlier.at(-1));
      else expect(earlier).not.toContain(call.idempotencyKey);
      const request = expectedRequest(kind, did.form);
      expect(s.can({ type: 'xstate.done.actor.submitTransfer', output: { ok: true, result: resultFor(request, 'none') } } as never)).toBe(true);
    },
    approving: async () => {
      const did = d();
      expect(did.result?.approveType).toBe('sms');
      await screen.findByRole('heading', { name: new RegExp(`enter the code we sent to ${escape(did.result!.approvalSentTo!)}`, 'i') });
      expect(screen.getByRole('heading', { level: 1, name: title })).toBeTruthy();
      expect((screen.getByLabelText(/^code$/i) as HTMLInputElement).getAttribute('autocomplete')).toBe('one-time-code');
    },
    done: async (s: Snap) => {
      const r = d().result!;
      expect(r).not.toBeNull();
      // document 2 §4: a payment left waiting for another approval (a company's checker) has its own title
      await screen.findByRole('heading', { name: r.status === 'pending' ? /sent for approval/i : /successfully submitted/i });
      expect(plain(document.querySelector('dl')!.textContent!)).toContain(money(r.toAmount, r.toCurrency));
      expect(screen.getByRole('button', { name: /make another transfer/i })).toBeTruthy();
      expectOffered<TransferEvent>(s, [{ type: 'TRANSFER.NEW' }]);
      // whether the money has gone: posted (no approval needed, or approved), else pending
      if (r.status === 'posted') expect(screen.getByText(/^the money has been (sent|moved)/i)).toBeTruthy();
      else if (r.status === 'processing') {
        // a payout: on its way over its rail (with no approval, or approved)
        expect(kind).toBe('external');
        expect(screen.getByText(/^the money is on its way/i)).toBeTruthy();
      } else expect(screen.getByText(/waits for an approval/i)).toBeTruthy();
      if (kind === 'external') expect(screen.queryByText(/^the money has been/i)).toBeNull();
    },
    failed: async (s: Snap) => {
      const outcome = d().outcome;
      expect(outcome).not.toBeNull();
      await screen.findByRole('heading', { name: /failed transaction/i });
      const alert = screen.getByRole('alert');
      if (outcome === 'rejected') expect(alert.textContent).toBe('Transaction was rejected.');
      else expect(alert.textContent).toBe(LONG_FAILURE.responseDescription);
      expectOffered<TransferEvent>(s, [{ type: 'TRANSFER.NEW' }]);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const answer = (queue: { answer(o: unknown): void; fail(e: unknown): void }) => async ({ event }: { event: ModelEvent }) => {
    const e = event as SystemEvent;
    await act(async () => {
      if (e.type.startsWith('xstate.error')) queue.fail(e.error);
      else queue.answer(e.output);
    });
  };
  const click = (name: RegExp) => act(() => fireEvent.click(screen.getByRole('button', { name })));
  const change = (el: HTMLElement, value: string) => act(() => fireEvent.change(el, { target: { value } }));
  const approveWith = async (result: ApproveResult) => {
    change(screen.getByLabelText(/^code$/i), '123456');
    click(/^confirm$/i);
    await waitFor(() => expect(h.q.approveTransfer.waiting).toBe(1));
    await act(async () => h.q.approveTransfer.answer(result));
  };
  return {
    'FORM.CHANGE': async ({ event }: { event: ModelEvent }) => {
      const patch = (event as Extract<TransferEvent, { type: 'FORM.CHANGE' }>).patch;
      if (JSON.stringify(patch) === JSON.stringify(RECENT_PATCH)) return click(/send again to bob demo/i);
      if ('fromAccountId' in patch) change(fieldByLabel(/^from account$/i), String(patch.fromAccountId));
      if ('toAccountId' in patch) change(fieldByLabel(/^to account$/i), String(patch.toAccountId));
      if ('amount' in patch) change(fieldByLabel(AMOUNT_LABEL), patch.amount!);
      if ('currency' in patch) change(fieldByLabel(/^amount in$/i), patch.currency ?? 'EUR');
      if ('payeeEmail' in patch) change(fieldByLabel(/payee's e-mail address/i), patch.payeeEmail!);
      if ('countryCode' in patch) change(fieldByLabel(/^payee's country$/i), patch.countryCode!);
      if ('method' in patch) act(() => fireEvent.click(within(screen.getByRole('group', { name: /how to send/i })).getByRole('radio', { name: METHOD_NAMES[patch.method!] })));
      // each payee field the patch changes is typed into
      for (const [name, value] of Object.entries(patch.payeeFields ?? {})) {
        const input = fieldByLabel(PAYEE_LABELS[name]!);
        if (input.value !== value) change(input, value);
      }
      if ('recurring' in patch) {
        const box = screen.getByRole('checkbox', { name: /repeat this transfer/i }) as HTMLInputElement;
        if (patch.recurring === null || !box.checked) act(() => fireEvent.click(box));
        // the checkbox gives the defaults; a number other than theirs is typed
        if (patch.recurring && patch.recurring.transactions !== DEFAULT_RECURRING.transactions) change(fieldByLabel(/^number of transfers/i), patch.recurring.transactions);
        else if (patch.recurring && box.checked && (fieldByLabel(/^number of transfers/i) as HTMLInputElement).value !== patch.recurring.transactions) {
          change(fieldByLabel(/^number of transfers/i), patch.recurring.transactions);
        }
      }
    },
    'FEE.RETRY': async () => click(/calculate the fee again/i),
    'METHODS.RETRY': async () => {
      const alert = screen.getByText(/could not find the ways to send money there/i).closest('[role="alert"]') as HTMLElement;
      act(() => fireEvent.click(within(alert).getByRole('button', { name: /try again/i })));
    },
    'PAYEE_FORM.RETRY': async () => {
      const alert = screen.getByText(/could not load the payee's details form/i).closest('[role="alert"]') as HTMLElement;
      act(() => fireEvent.click(within(alert).getByRole('button', { name: /try again/i })));
    },
    'MAX.REQUEST': async () => {
      const button = screen.getByRole('button', { name: /send all/i }) as HTMLButtonElement;
      // without a source the page disables it; the chart must refuse it all the same
      if (button.disabled) act(() => h.actor.send({ type: 'MAX.REQUEST' }));
      else click(/send all/i);
    },
    REVIEW: async () => click(/review the transfer/i),
    'REVIEW.BACK': async () => click(/^change$/i),
    SUBMIT: async () => click(/^send( again)?$/i),
    'POPUP.CLOSE': async () => click(/^close$/i),
    'LOAD.RETRY': async () => click(/try again/i),
    'TRANSFER.NEW': async () => click(/make another transfer/i),
    [AFTER_FEE]: async ({ event }: { event: ModelEvent }) => act(() => h.actor.send(event as never)),
    [AFTER_PAYEE]: async ({ event }: { event: ModelEvent }) => act(() => h.actor.send(event as never)),
    'xstate.done.actor.loadSetup': answer(h.q.loadSetup),
    'xstate.error.actor.loadSetup': answer(h.q.loadSetup),
    'xstate.done.actor.quoteFee': answer(h.q.quoteFee),
    'xstate.error.actor.quoteFee': answer(h.q.quoteFee),
    'xstate.done.actor.fetchLimits': answer(h.q.fetchLimits),
    'xstate.error.actor.fetchLimits': answer(h.q.fetchLimits),
    'xstate.done.actor.checkPayee': answer(h.q.checkPayee),
    'xstate.error.actor.checkPayee': answer(h.q.checkPayee),
    'xstate.done.actor.fetchMaxAmount': answer(h.q.fetchMaxAmount),
    'xstate.error.actor.fetchMaxAmount': answer(h.q.fetchMaxAmount),
    'xstate.done.actor.fetchMethods': answer(h.q.fetchMethods),
    'xstate.error.actor.fetchMethods': answer(h.q.fetchMethods),
    'xstate.done.actor.fetchPayeeForm': answer(h.q.fetchPayeeForm),
    'xstate.error.actor.fetchPayeeForm': answer(h.q.fetchPayeeForm),
    'xstate.done.actor.submitTransfer': answer(h.q.submitTransfer),
    'xstate.error.actor.submitTransfer': answer(h.q.submitTransfer),
    // The approval child ends through its own screen.
    'xstate.done.actor.approval': async ({ event }: { event: ModelEvent }) => {
      const out = (event as SystemEvent).output as { result: string; reason?: string; status?: 'posted' | 'processing' };
      if (out.result === 'approved') await approveWith({ ok: true, status: out.status! });
      else if (out.result === 'canceled') {
        click(/cancel the transfer/i);
        await waitFor(() => expect(h.q.cancelTransfer.waiting).toBe(1));
        await act(async () => h.q.cancelTransfer.answer({ ok: true, status: 'canceled' }));
      } else if (out.reason === 'rejected') await approveWith({ ok: true, status: 'rejected' });
      else await approveWith({ ok: false, code: 'failed', failure: LONG_FAILURE });
    },
  };
}

/* ------------------------------------------------------------------------------ the paths */

const KINDS: readonly TransferKind[] = ['betweenAccounts', 'p2p', 'external'];

/**
 * The paths of both kinds, dealt into `shards` test files by their number (path i goes to shard
 * i % shards): vitest runs files in parallel, not the tests of one file, and this chart's paths
 * were the suite's longest file (issue 12: 213 s of 1044 s in the ui project). Every path runs in
 * exactly one shard; shard 0 also checks that all the paths together take every transition.
 */
export function describeTransferPaths(shard: number, shards: number): void {
  const sequences: { kind: TransferKind; events: ModelEvent[] }[] = [];
  const allPaths: TestPath<Snap, ModelEvent>[] = [];
  for (const kind of KINDS) {
    const model = new TestModel(transferMachine, {
      input: { kind },
      events: (s) => eventsFor(kind, s as Snap) as never,
      serializeState: (s) => serialize(s as Snap),
      stateMatcher: (s, key) => matchesPath(s as Snap, key),
    });
    const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
    allPaths.push(...(paths as unknown as TestPath<Snap, ModelEvent>[]));
    describe(`transfer model (${kind}), paths ${shard + 1} of every ${shards}`, () => {
      paths.forEach((path, i) => {
        const events = path.steps.map((st) => st.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
        sequences.push({ kind, events });
        if (i % shards !== shard) return;
        const last = path.steps.at(-1)?.state as Snap | undefined;
        const label = events
          .map((e) => {
            const short = e.type.replace(/^xstate\.(after\.\w+|done\.actor\.\w+|error\.actor\.\w+).*/, '$1');
            return 'patch' in e ? `${short}(${Object.keys(e.patch).join(',')})` : short;
          })
          .join(' → ');
        it(`#${i} ${label || 'initial'} ⇒ ${JSON.stringify(last?.value)}`, async () => {
          const h = mount(kind);
          await runPathCheckingEveryStep(path, stateChecks(kind, h), recordingExecutors<ModelEvent>(eventExecutors(h), (e) => record(kind, h.did, e)));
          h.actor.stop();
        });
      });
    });
  }

  if (shard !== 0) return;
  describe('transfer model: the chart', () => {
    it('is named transfer (the inspector and the audit pack show it by that id)', () => {
      expect(transferMachine.id).toBe('transfer');
    });

    it('every state of the chart is reached by some path', () => {
      expect(unreachedStates(transferMachine, allPaths)).toEqual([]);
    });

    it('every transition of the chart is taken by some path', () => {
      const taken = new Set<string>();
      for (const { kind, events } of sequences) for (const key of transitionsTaken(transferMachine, { kind }, [events as never])) taken.add(key);
      const missing = listTransitions(transferMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
      expect(missing).toEqual([]);
    });
  });
}
