/**
 * Model-based test of the transfer pages: paths generated from the transfer machine's graph, for
 * own-account transfers and p2p, drive the REAL TransferView (and, while approving, the real
 * ApprovalView of the approval machine the transfer machine invokes) through Testing Library.
 * The named-method actors are test doubles answered by the paths' `xstate.done.actor.*` events;
 * the debounces fire by sending their `xstate.after.*` events (the real delays are an hour). The
 * approval child's outcome is reached through its own screen: typing the code and answering the
 * approve call, or cancelling.
 *
 * To keep the graph small the form is filled along a script (one field after the other, with a
 * few wrong values on the way), lookups are answered one at a time, and the form goes to review
 * only once complete; every chart transition is still taken (checked below).
 *
 * The paths run from transfer.model.{1,2}.test.tsx, half each (describeTransferPaths).
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import type { Account } from '../../api/accounts.ts';
import type { Failure } from '../../api/envelope.ts';
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
  type PayeeResult,
  type SubmitResult,
  type TransferEvent,
  type TransferResult,
} from '../../machines/transfer/transfer.machine.ts';
import {
  addDecimal,
  defaultRecurring,
  feeRequest,
  limitsRequest,
  maxAmountRequest,
  patchFromRecent,
  transferRequest,
  validateForm,
  type FeeRequest,
  type LimitsRequest,
  type MaxAmountRequest,
  type TransferFormPatch,
  type TransferKind,
  type TransferRequest,
} from '../../machines/transfer/transfer.rules.ts';
import { TransferView } from '../../src/features/transfers/transfer-view.tsx';
import { errorPopupContent } from '../../src/lib/errors.ts';
import { formatMoney } from '../../src/lib/format.ts';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, matchesPath, runPathCheckingEveryStep, transitionsTaken } from './coverage.ts';
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
};

const LONG_FAILURE: Failure = { responseCode: 'TA1', responseDescription: 'The account does not hold enough money for this transfer and its fee' };
const SHORT_FAILURE: Failure = { responseCode: 'UE', responseDescription: 'Fee service unavailable' };

function quoteFor(r: FeeRequest): FeeQuote {
  if (r.operation === 'p2p') return { fee: '0.25', feeCurrency: 'EUR', amount: r.amount, currency: 'EUR', toAmount: r.amount, toCurrency: 'EUR', rate: '1' };
  // 1 EUR = 1.085 USD
  return r.currency === 'USD'
    ? { fee: '0.1', feeCurrency: 'EUR', amount: '9.22', currency: 'EUR', toAmount: r.amount, toCurrency: 'USD', rate: '1.085' }
    : { fee: '0.1', feeCurrency: 'EUR', amount: r.amount, currency: 'EUR', toAmount: '10.85', toCurrency: 'USD', rate: '1.085' };
}

const LIMITS = { currencyCode: 'EUR', minAmount: '1', maxAmount: '1000', dailyLimit: '2000', dailyRemaining: '1500.5' };

const EXPIRES_AT = new Date(Date.now() + 86_400_000).toISOString();

function resultFor(request: TransferRequest, approveType: 'none' | 'sms'): TransferResult {
  const p2p = request.method === 'transferP2p';
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
  if (kind === 'betweenAccounts') {
    if (f.fromAccountId === null) return [{ fromAccountId: 101 }];
    if (f.toAccountId === null) return [{ toAccountId: 102 }];
    if (f.amount === '') return [{ amount: '10' }, { amount: '1.234' }];
    if (f.amount === '1.234') return [{ amount: '10' }];
    if (f.currency === null) return [{ currency: 'USD' }];
    return [];
  }
  if (f.payeeEmail === '') return [{ payeeEmail: 'bob@demo.test' }, { payeeEmail: 'bob@x' }, patchFromRecent(RECENT)];
  if (f.payeeEmail === 'bob@x') return [{ payeeEmail: 'bob@demo.test' }];
  if (f.amount === '') return [{ amount: '10' }, { amount: '0' }];
  if (f.amount === '0') return [{ amount: '10' }];
  if (f.recurring === null) return [{ recurring: { ...defaultRecurring(), transactions: '1' } }];
  if (f.recurring.transactions === '1') return [{ recurring: defaultRecurring() }];
  return [];
}

/** The form is the script's last one (only that one goes on to review). */
function isComplete(kind: TransferKind, s: Snap): boolean {
  const f = s.context.form;
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
  return out;
}

/** Lookup answers, one lookup at a time (the first that is waiting); off the main line, successes only. */
function lookupAnswers(s: Snap, mainLine: boolean): ModelEvent[] | null {
  const c = s.context;
  const kids = s.children as Record<string, unknown>;
  const pick = (events: ModelEvent[]) => (mainLine ? events : events.slice(0, 1));
  if (kids.fetchLimits) {
    return pick([
      { type: 'xstate.done.actor.fetchLimits', output: { ok: true, limits: LIMITS } satisfies LimitsResult },
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
  const errorFields = Object.keys(c.fieldErrors).map((k) => (k.startsWith('recurring') ? 'recurring' : k));
  if (f.has('fieldErrors') && keys.some((k) => errorFields.includes(k))) return true;
  if (f.has('feeFailure') && keys.includes('amount')) return true;
  if (f.has('payee') && keys.includes('payeeEmail')) return true;
  return false;
}

/** The approval child's outcomes, reached through its screen (see the executors). */
const APPROVAL_OUTCOMES: SystemEvent[] = [
  { type: 'xstate.done.actor.approval', output: { result: 'approved' } },
  { type: 'xstate.done.actor.approval', output: { result: 'canceled' } },
  { type: 'xstate.done.actor.approval', output: { result: 'failed', reason: 'rejected', failure: null } },
  { type: 'xstate.done.actor.approval', output: { result: 'failed', reason: 'failed', failure: LONG_FAILURE } },
];

function eventsFor(kind: TransferKind, s: Snap): ModelEvent[] {
  const c = s.context;
  const all: ModelEvent[] = [];
  if (s.matches('loading')) {
    all.push(
      { type: 'xstate.done.actor.loadSetup', output: { ok: true, accounts: SETUPS[kind].accounts, permissions: allowAll(true), recent: SETUPS[kind].recent } satisfies LoadResult },
      { type: 'xstate.done.actor.loadSetup', output: { ok: true, accounts: SETUPS[kind].accounts, permissions: allowAll(false), recent: [] } satisfies LoadResult },
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
      if ((mainLine && (!onward || isComplete(kind, s))) || (onward && f.size === 1 && f.has('notice')) || (f.size === 1 && f.has('feeFailure'))) all.push({ type: 'REVIEW' });
      if (s.matches({ editing: { fee: 'failed' } })) all.push({ type: 'FEE.RETRY' });
      // "Send all" once the source is known and before the amount is typed
      if (mainLine && c.form.amount === '') all.push({ type: 'MAX.REQUEST' });
    }
  } else if (s.matches('reviewing')) {
    all.push({ type: 'SUBMIT' }, { type: 'REVIEW.BACK' });
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
    all.push(...APPROVAL_OUTCOMES);
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
  });
};

/* ------------------------------------------------------------------------------ the harness */

function mount(kind: TransferKind) {
  const q = {
    loadSetup: new AnswerQueue<{ kind: TransferKind; recentLimit: number }, LoadResult>(),
    quoteFee: new LiveQueue<FeeRequest, FeeResult>(),
    fetchLimits: new LiveQueue<LimitsRequest, LimitsResult>(),
    checkPayee: new LiveQueue<{ email: string }, PayeeResult>(),
    fetchMaxAmount: new LiveQueue<MaxAmountRequest, MaxAmountResult>(),
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
      <TransferView actor={actor} />
    </I18nProvider>,
  );
  /** submit outcomes in order, and whether a review happened since the last submit */
  const submits = { outcomes: [] as string[], reviewedSince: true };
  return { q, actor, submits };
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

/** The field shows the error the context holds, tied to it; or none. */
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
  payeeNotFound: /no customer has this e-mail/i,
  payeeCannotReceive: /cannot receive money/i,
  payeeRefuses: /does not accept money from you/i,
  email: /enter an e-mail address/i,
  transactionsRange: /from 2 to 1000/i,
};
const errorPattern = (e: { code: string; text?: string } | undefined) => (e ? (e.code === 'server' ? new RegExp(e.text!) : FIELD_ERROR_TEXT[e.code]!) : null);

function stateChecks(kind: TransferKind, h: Harness) {
  const title = kind === 'p2p' ? /send money to a person/i : /transfer between your accounts/i;
  return {
    loading: async () => {
      await screen.findByRole('heading', { name: title });
      expect(screen.getByText(/loading your accounts/i)).toBeTruthy();
      expect(h.q.loadSetup.waiting).toBe(1);
      expect(h.q.loadSetup.calls.at(-1)).toEqual({ kind, recentLimit: kind === 'p2p' ? 3 : 0 });
    },
    loadFailed: async (s: Snap) => {
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toMatch(/could not load your accounts/i);
      if (s.context.loadFailure?.ok === false && s.context.loadFailure.code === 'failed') expect(alert.textContent).toMatch(/fee service unavailable/i);
      expect(screen.getByRole('button', { name: /try again/i })).toBeTruthy();
    },
    notAllowed: async () => {
      await screen.findByRole('heading', { name: title });
      expect(screen.getByText(/not allowed to make this kind of transfer/i)).toBeTruthy();
      expect(screen.queryByLabelText(/from account/i)).toBeNull();
    },
    editing: async (s: Snap) => {
      const c = s.context;
      await screen.findByRole('heading', { name: title });
      // the form shows the context's values
      const from = fieldByLabel(/^from account$/i) as HTMLSelectElement;
      expect(from.value).toBe(c.form.fromAccountId === null ? '' : String(c.form.fromAccountId));
      // closed accounts are not offered; balances are shown in the UI language
      expect(within(from).queryByText(/account 103/)).toBeNull();
      expect(plain(within(from).getByText(/EUR account 101/).textContent!)).toContain('€500.00');
      expectFieldError(from, errorPattern(c.fieldErrors.fromAccountId));
      const amount = fieldByLabel(AMOUNT_LABEL) as HTMLInputElement;
      expect(amount.value).toBe(c.form.amount);
      expect(amount.getAttribute('inputmode')).toBe('decimal');
      expectFieldError(amount, errorPattern(c.fieldErrors.amount));
      if (kind === 'betweenAccounts') {
        const to = fieldByLabel(/^to account$/i) as HTMLSelectElement;
        expect(to.value).toBe(c.form.toAccountId === null ? '' : String(c.form.toAccountId));
        expectFieldError(to, errorPattern(c.fieldErrors.toAccountId));
        // the amount's currency: the source's or the destination's, offered when they differ
        const currency = screen.queryByLabelText(/^amount in$/i) as HTMLSelectElement | null;
        if (c.form.fromAccountId !== null && c.form.toAccountId !== null) expect(currency?.value).toBe(c.form.currency ?? 'EUR');
        else expect(currency).toBeNull();
        expect(screen.queryByLabelText(/payee/i)).toBeNull();
      } else {
        expect(screen.queryByLabelText(/^to account$/i)).toBeNull();
        const payee = fieldByLabel(/payee's e-mail address/i) as HTMLInputElement;
        expect(payee.value).toBe(c.form.payeeEmail);
        // a checked payee: the name, or why money cannot go there
        const p = c.payee && c.payee.email === c.form.payeeEmail ? c.payee : null;
        const problem = p ? (!p.exist ? 'payeeNotFound' : p.outBlacklist ? 'payeeRefuses' : !p.exists ? 'payeeCannotReceive' : null) : null;
        expectFieldError(payee, errorPattern(c.fieldErrors.payeeEmail ?? (problem ? { code: problem } : undefined)));
        if (s.hasTag('payeeBusy')) expect(describedText(payee)).toMatch(/checking the e-mail/i);
        else if (p && !problem) expect(describedText(payee)).toMatch(/sending to bob demo/i);
        else if (c.payeeUnchecked) expect(describedText(payee)).toMatch(/could not check this address/i);
        // recent p2p transfers to pick from
        expect(screen.getByRole('button', { name: /send again to bob demo: €25\.00/i })).toBeTruthy();
        const recurring = screen.getByRole('checkbox', { name: /repeat this transfer/i }) as HTMLInputElement;
        expect(recurring.checked).toBe(c.form.recurring !== null);
        if (c.form.recurring) {
          const count = fieldByLabel(/^number of transfers/i);
          expect(count.value).toBe(c.form.recurring.transactions);
          expectFieldError(count, errorPattern(c.fieldErrors.recurringTransactions));
        }
      }
      if (c.notice === 'approvalCanceled') expect(screen.getByText(/you canceled the transfer: nothing was sent/i)).toBeTruthy();
      else expect(screen.queryByText(/you canceled the transfer/i)).toBeNull();
      if (c.reviewBlock === 'feeNeeded') expect(screen.getByText(/the fee is not known yet/i)).toBeTruthy();
      else expect(screen.queryByText(/the fee is not known yet/i)).toBeNull();
      // the error popup of document 2 §8: a long description is the body under "Error"
      const dialog = screen.queryByRole('dialog');
      if (c.failure) {
        const content = errorPopupContent(c.failure);
        expect(dialog).not.toBeNull();
        expect(within(dialog!).getByRole('heading').textContent).toBe(content.title);
        if (c.failure.responseDescription!.length > 50) {
          expect(content.title).toBe('Error');
          expect(dialog!.textContent).toContain(c.failure.responseDescription);
        }
      } else expect(dialog).toBeNull();
      await waitFor(() => expect((screen.getByRole('button', { name: /review the transfer/i }) as HTMLButtonElement).disabled).toBe(s.hasTag('feeBusy')));
    },
    'editing.fee.idle': async (s: Snap) => {
      const status = screen.getByText((_, el) => el?.tagName === 'P' && el.getAttribute('aria-live') === 'polite');
      const q = s.context.quote;
      if (q) {
        expect(plain(status.textContent!)).toContain(`Fee: ${money(q.fee, q.feeCurrency)}.`);
        expect(plain(status.textContent!)).toContain(`${kind === 'p2p' ? 'They receive' : 'Arrives'}: ${money(q.toAmount, q.toCurrency)}.`);
        if (q.currency !== q.toCurrency) expect(status.textContent).toContain(`Rate: 1 ${q.currency} = ${q.rate} ${q.toCurrency}.`);
        else expect(status.textContent).not.toContain('Rate');
        // what leaves the source: the amount and the fee, in its currency
        expect(plain(status.textContent!)).toContain(`You pay in total: ${money(addDecimal(q.amount, q.fee), q.currency)}.`);
      } else expect(status.textContent).toBe('');
      expect(screen.queryByRole('button', { name: /calculate the fee again/i })).toBeNull();
    },
    'editing.fee.waiting': async () => {
      expect(screen.getByText(/calculating the fee/i)).toBeTruthy();
      expect(h.q.quoteFee.waiting).toBe(0);
    },
    'editing.fee.quoting': async (s: Snap) => {
      expect(screen.getByText(/calculating the fee/i)).toBeTruthy();
      expect(h.q.quoteFee.waiting).toBe(1);
      expect(h.q.quoteFee.calls.at(-1)).toEqual(feeRequest(kind, s.context.form, s.context.accounts));
    },
    'editing.fee.failed': async (s: Snap) => {
      expect(screen.getByText(/could not calculate the fee/i).textContent).toMatch(s.context.feeFailure?.code === 'failed' ? /fee service unavailable/i : /calculate the fee\.$/i);
      expect(screen.getByRole('button', { name: /calculate the fee again/i })).toBeTruthy();
    },
    'editing.limits.idle': async (s: Snap) => {
      if (s.context.limits) expect(plain(screen.getByText(/per transfer:/i).textContent!)).toBe("Per transfer: €1.00 to €1,000.00. Left of today's limit: €1,500.50.");
      else expect(screen.queryByText(/per transfer:/i)).toBeNull();
    },
    'editing.limits.loading': async (s: Snap) => {
      expect(h.q.fetchLimits.waiting).toBe(1);
      // skipped without both accounts (p2p: the source)
      expect(h.q.fetchLimits.calls.at(-1)).toEqual(limitsRequest(kind, s.context.form, s.context.accounts));
    },
    'editing.payee.idle': async () => {
      expect(h.q.checkPayee.waiting).toBe(0);
    },
    'editing.payee.waiting': async () => {
      expect(h.q.checkPayee.waiting).toBe(0);
    },
    'editing.payee.checking': async () => {
      expect(h.q.checkPayee.waiting).toBe(1);
      expect(h.q.checkPayee.calls.at(-1)).toEqual({ email: 'bob@demo.test' });
    },
    'editing.max.idle': async (s: Snap) => {
      const button = screen.getByRole('button', { name: /send all/i }) as HTMLButtonElement;
      expect(button.disabled).toBe(s.context.form.fromAccountId === null);
      if (s.context.maxFailure) expect(screen.getByText(/could not find the largest amount/i)).toBeTruthy();
      else expect(screen.queryByText(/could not find the largest amount/i)).toBeNull();
    },
    'editing.max.loading': async (s: Snap) => {
      expect(screen.getByRole('button', { name: /send all/i }).getAttribute('aria-busy')).toBe('true');
      expect(h.q.fetchMaxAmount.calls.at(-1)).toEqual(maxAmountRequest(kind, s.context.form));
    },
    reviewing: async (s: Snap) => {
      await screen.findByRole('heading', { name: /check the transfer/i });
      const summary = plain(document.querySelector('dl')!.textContent!);
      const q = s.context.quote!;
      expect(summary).toContain(money(q.fee, q.feeCurrency));
      expect(summary).toContain(money(q.toAmount, q.toCurrency));
      expect(summary).toContain(`You pay in total${money(addDecimal(q.amount, q.fee), q.currency)}`);
      if (kind === 'p2p') {
        expect(summary).toContain('Bob Demo (bob@demo.test)');
        expect(summary).toContain('Every month, 12 transfers in all');
      } else expect(summary).toContain('1 EUR = 1.085 USD');
      // back here after a submit that got no answer (by what happened, not by the model): say so
      const unanswered = h.submits.outcomes.at(-1) === 'network' && !h.submits.reviewedSince;
      expect(s.context.submitUnanswered).toBe(unanswered);
      if (unanswered) expect(screen.getByRole('alert').textContent).toMatch(/no answer from the server.*made only once/i);
      else expect(screen.queryByRole('alert')).toBeNull();
      await waitFor(() => expect(screen.getByRole('button', { name: /^send( again)?$/i }).getAttribute('aria-busy')).toBeNull());
    },
    submitting: async (s: Snap) => {
      await waitFor(() => expect(screen.getByRole('button', { name: /^send( again)?$/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.q.submitTransfer.waiting).toBe(1);
      const calls = h.q.submitTransfer.calls;
      const call = calls.at(-1)!;
      // the request reviewed, built from the form
      expect(call.request).toEqual(transferRequest(kind, s.context.form, s.context.accounts));
      expect(call.idempotencyKey).toMatch(IDEMPOTENCY_KEY_PATTERN);
      // sent again after no answer (and no new review): the same key; otherwise a new one
      const retry = h.submits.outcomes.at(-1) === 'network' && !h.submits.reviewedSince;
      const earlier = calls.slice(0, -1).map((c) => c.idempotencyKey);
      if (retry) expect(call.idempotencyKey).toBe(earlier.at(-1));
      else expect(earlier).not.toContain(call.idempotencyKey);
      h.submits.reviewedSince = false;
    },
    approving: async () => {
      await screen.findByRole('heading', { name: /enter the code we sent to \+370 \*\*\* \*\*12/i });
      expect(screen.getByRole('heading', { level: 1, name: title })).toBeTruthy();
      expect((screen.getByLabelText(/^code$/i) as HTMLInputElement).getAttribute('autocomplete')).toBe('one-time-code');
    },
    done: async (s: Snap) => {
      await screen.findByRole('heading', { name: /successfully submitted/i });
      expect(plain(document.querySelector('dl')!.textContent!)).toContain(money(s.context.result!.toAmount, s.context.result!.toCurrency));
      expect(screen.getByRole('button', { name: /make another transfer/i })).toBeTruthy();
      // whether the money has gone: posted (no approval needed, or approved), else pending
      if (s.context.result!.status === 'posted') expect(screen.getByText(/^the money has been (sent|moved)/i)).toBeTruthy();
      else expect(screen.getByText(/waits for an approval/i)).toBeTruthy();
    },
    failed: async (s: Snap) => {
      await screen.findByRole('heading', { name: /failed transaction/i });
      const alert = screen.getByRole('alert');
      if (s.context.outcome?.reason === 'rejected') expect(alert.textContent).toBe('Transaction was rejected.');
      else expect(alert.textContent).toBe(LONG_FAILURE.responseDescription);
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
      if (JSON.stringify(patch) === JSON.stringify(patchFromRecent(RECENT))) return click(/send again to bob demo/i);
      if ('fromAccountId' in patch) change(fieldByLabel(/^from account$/i), String(patch.fromAccountId));
      if ('toAccountId' in patch) change(fieldByLabel(/^to account$/i), String(patch.toAccountId));
      if ('amount' in patch) change(fieldByLabel(AMOUNT_LABEL), patch.amount!);
      if ('currency' in patch) change(fieldByLabel(/^amount in$/i), patch.currency ?? 'EUR');
      if ('payeeEmail' in patch) change(fieldByLabel(/payee's e-mail address/i), patch.payeeEmail!);
      if ('recurring' in patch) {
        const box = screen.getByRole('checkbox', { name: /repeat this transfer/i }) as HTMLInputElement;
        if (patch.recurring === null || !box.checked) act(() => fireEvent.click(box));
        // the checkbox gives the defaults; a number other than theirs is typed
        if (patch.recurring && patch.recurring.transactions !== defaultRecurring().transactions) change(fieldByLabel(/^number of transfers/i), patch.recurring.transactions);
        else if (patch.recurring && box.checked && (fieldByLabel(/^number of transfers/i) as HTMLInputElement).value !== patch.recurring.transactions) {
          change(fieldByLabel(/^number of transfers/i), patch.recurring.transactions);
        }
      }
    },
    'FEE.RETRY': async () => click(/calculate the fee again/i),
    'MAX.REQUEST': async () => click(/send all/i),
    REVIEW: async () => {
      h.submits.reviewedSince = true;
      click(/review the transfer/i);
    },
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
    'xstate.done.actor.submitTransfer': async (arg: { event: ModelEvent }) => {
      const out = (arg.event as SystemEvent).output as SubmitResult;
      h.submits.outcomes.push(out.ok ? 'ok' : out.code);
      await answer(h.q.submitTransfer)(arg);
    },
    'xstate.error.actor.submitTransfer': async (arg: { event: ModelEvent }) => {
      h.submits.outcomes.push('network');
      await answer(h.q.submitTransfer)(arg);
    },
    // The approval child ends through its own screen.
    'xstate.done.actor.approval': async ({ event }: { event: ModelEvent }) => {
      const out = (event as SystemEvent).output as { result: string; reason?: string };
      if (out.result === 'approved') await approveWith({ ok: true, status: 'posted' });
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

const KINDS: readonly TransferKind[] = ['betweenAccounts', 'p2p'];

/**
 * The paths of both kinds, dealt into `shards` test files by their number (path i goes to shard
 * i % shards): vitest runs files in parallel, not the tests of one file, and this chart's paths
 * were the suite's longest file (issue 12: 213 s of 1044 s in the ui project). Every path runs in
 * exactly one shard; shard 0 also checks that all the paths together take every transition.
 */
export function describeTransferPaths(shard: number, shards: number): void {
  const sequences: { kind: TransferKind; events: ModelEvent[] }[] = [];
  for (const kind of KINDS) {
    const model = new TestModel(transferMachine, {
      input: { kind },
      events: (s) => eventsFor(kind, s as Snap) as never,
      serializeState: (s) => serialize(s as Snap),
      stateMatcher: (s, key) => matchesPath(s as Snap, key),
    });
    const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
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
          await runPathCheckingEveryStep(path, stateChecks(kind, h), eventExecutors(h));
          h.actor.stop();
        });
      });
    });
  }

  if (shard !== 0) return;
  describe('transfer model: transition coverage', () => {
    it('every transition of the chart is taken by some path', () => {
      const taken = new Set<string>();
      for (const { kind, events } of sequences) for (const key of transitionsTaken(transferMachine, { kind }, [events as never])) taken.add(key);
      const missing = listTransitions(transferMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
      expect(missing).toEqual([]);
    });
  });
}
