/**
 * Model-based test of applying for a card (machines/card-application): paths generated from the
 * chart drive the REAL ApplyView (and, while approving, the real ApprovalView of the approval
 * machine the chart invokes as its `approval` child) through Testing Library, in English. The
 * promise actors (loadSetup, applyForCard, readCardStatus) are test doubles answered by the paths'
 * `xstate.done.actor.<id>` / `xstate.error.actor.<id>` events; the approval child ends through its
 * own screen (the code typed and approveTransfer answered, or "Cancel the transfer").
 *
 * Every step checks the page against what the TEST did (`Did`, worked out from the events performed
 * and the answers given), not against the chart's context: each step's heading, the products by
 * kind with their fees and limits (a product that cannot be chosen: its reason, its button
 * disabled), the choices made for the customer and those the test made, what is missing, the
 * platform's errors on their fields, the fee account (none: the links to get one), the review's
 * fees charged now and later, the alerts, the buttons busy or disabled, the end pages' links, and
 * what each actor was called with (the application's request for the product's kind; its
 * idempotency key: made with the review, kept after no answer, new after a refusal or a canceled
 * approval).
 *
 * To keep the graph small the choices follow a script per product (physical: the main line, every
 * answer of the application; virtual, debit and a virtual card in a currency the customer has no
 * account in: the side lines), and the actors' every answer is given only on the main line. Every
 * chart transition is still taken (checked below).
 *
 * Proof it can fail (2026-11-27): I made the delivery step's shipping radio send the option's id
 * plus one once: the path through SHIPPING.CHOOSE went red (the delivery check found the standard
 * option still checked); restored since.
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import { testAccount } from '../account-fixture.ts';
import type { CardProduct } from '../../api/cards.ts';
import type { Failure, ValidationError } from '../../api/envelope.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../../api/transfers.ts';
import { approvalMachine, type ApprovalEvent, type ApproveResult, type CancelResult, type ResendResult } from '../../machines/approval/approval.machine.ts';
import {
  cardApplicationMachine,
  type ApplyResult,
  type CardApplicationEvent,
  type CardApplied,
  type CardApplyRequest,
  type CardStatusResult,
  type LoadResult,
  type ShippingAddress,
} from '../../machines/card-application/card-application.machine.ts';
import { ApplyView } from '../../src/features/cards/apply-view.tsx';
import { formatMoney } from '../../src/lib/format.ts';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, matchesPath, recordingExecutors, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';
import { settleFromEvent } from './settle.ts';

type Snap = SnapshotFrom<typeof cardApplicationMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = CardApplicationEvent | SystemEvent;

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const money = (amount: string, currency = 'EUR') => plain(formatMoney(amount, currency, 'en'));

/* ------------------------------------------------------------------------------ fixtures */

const account = (accountId: number, currency: string, balance: string) => testAccount(accountId, balance, { currency });
const ACCOUNTS = [account(101, 'EUR', '1500.00'), account(102, 'EUR', '40.00')];
const ADDRESSES: ShippingAddress[] = [
  { addressId: 11, address1: 'Gedimino pr. 1', address2: '', city: 'Vilnius', postalCode: '01103', countryCode: 'LT', confirmed: true },
  { addressId: 12, address1: 'Laisvės al. 5', address2: 'Flat 2', city: 'Kaunas', postalCode: '44237', countryCode: 'LT', confirmed: false },
];

const product = (type: number, kind: CardProduct['kind'], currency: string, over: Partial<CardProduct> = {}): CardProduct => ({
  type,
  kind,
  subType: kind === 'debit' ? 'DEBIT' : 'PREPAID',
  isVirtual: kind === 'virtual',
  currencyCode: currency,
  cardBrand: 'VISA',
  fees: { annual: 12, issue: 5, monthly: 1, currency },
  shippingOptions: [],
  limits: { perPayment: '1000.00', perDay: '2500.00' },
  disabledReasons: [],
  ...over,
});
const PHYSICAL = product(2010, 'physical', 'EUR', {
  shippingOptions: [
    { id: 1, type: 'standard', fee: 3, currency: 'EUR', deliveryTime: 7, disabledReasons: [] },
    { id: 2, type: 'express', fee: 15.5, currency: 'EUR', deliveryTime: 2, disabledReasons: [] },
  ],
});
const VIRTUAL = product(2030, 'virtual', 'EUR', { fees: { annual: 0, issue: 1, monthly: 0.5, currency: 'EUR' } });
/** a virtual card in a currency the customer holds no account in (the platform still offers it) */
const VIRTUAL_RON = product(2032, 'virtual', 'RON', { fees: { annual: 0, issue: 4, monthly: 0, currency: 'RON' } });
const VIRTUAL_USD = product(2031, 'virtual', 'USD', { disabledReasons: ['NO_ACCOUNT_IN_CURRENCY'] });
const DEBIT = product(2020, 'debit', 'EUR', {
  cardBrand: 'MASTERCARD',
  fees: { annual: 0, issue: 2, monthly: 1.5, currency: 'EUR' },
  shippingOptions: [
    { id: 3, type: 'standard', fee: 0, currency: 'EUR', deliveryTime: 10, disabledReasons: [] },
    { id: 4, type: 'express', fee: 12, currency: 'EUR', deliveryTime: 3, disabledReasons: ['NOT_AVAILABLE_IN_COUNTRY'] },
  ],
});
const PRODUCTS = [PHYSICAL, VIRTUAL, VIRTUAL_USD, VIRTUAL_RON, DEBIT];
const NAMES: Record<number, string> = {
  2010: 'Visa physical card in EUR',
  2030: 'Visa virtual card in EUR',
  2031: 'Visa virtual card in USD',
  2032: 'Visa virtual card in RON',
  2020: 'Mastercard debit card in EUR',
};

const vf = (param: string, code: string, params?: Record<string, string | number>): ValidationError => ({
  param,
  code,
  description: `${param} is wrong`,
  ...(params ? { params } : {}),
});
const FIELD_ERRORS = {
  type: [vf('type', 'cardLimitReached', { max: 2 })],
  shippingOptionId: [vf('shippingOptionId', 'shippingUnavailable')],
  cardAliasName: [vf('cardAliasName', 'tooLong', { max: 40 })],
  feeAccountId: [vf('feeAccountId', 'balanceExceeded')],
};
const MESSAGES: Record<keyof typeof FIELD_ERRORS, string> = {
  type: 'You already hold 2 cards of this kind.',
  shippingOptionId: 'This delivery option is not available for this card and address.',
  cardAliasName: 'Enter at most 40 characters.',
  feeAccountId: 'The amount exceeds the available balance.',
};

const REFUSAL: Failure = { responseCode: 'TA1', responseDescription: 'Card applications are closed today' };
const APPROVAL_REFUSAL: Failure = { responseCode: 'TA1', responseDescription: 'Too many wrong codes: the transfer was refused' };
const EXPIRES_AT = new Date(Date.now() + 86_400_000).toISOString();
const CARD_ID = 900;
const applied = (approveType: 'none' | 'sms', accountStatusId: number, amount: string): CardApplied => ({
  accountId: CARD_ID,
  accountStatusId,
  transactionId: 9300,
  status: approveType === 'none' ? 'posted' : 'pending',
  approveType,
  approvalSentTo: approveType === 'sms' ? '+370 *** **12' : null,
  fee: '0.00',
  feeCurrency: 'EUR',
  amount,
  currency: 'EUR',
  expiresAt: EXPIRES_AT,
});

/* ------------------------------------------------------------------------------ the events */

const userEvents = {
  'LOAD.RETRY': [{ type: 'LOAD.RETRY' }],
  'PRODUCT.CHOOSE': [PHYSICAL, VIRTUAL, DEBIT, VIRTUAL_RON].map((p) => ({ type: 'PRODUCT.CHOOSE' as const, productType: p.type })),
  'ADDRESS.CHOOSE': [{ type: 'ADDRESS.CHOOSE', addressId: 12 }],
  'SHIPPING.CHOOSE': [
    { type: 'SHIPPING.CHOOSE', shippingOptionId: 2 },
    { type: 'SHIPPING.CHOOSE', shippingOptionId: 1 },
  ],
  'SETTLEMENT.CHOOSE': [{ type: 'SETTLEMENT.CHOOSE', accountId: 102 }],
  'NAME.CHANGE': [
    { type: 'NAME.CHANGE', cardAliasName: 'Online shopping' },
    { type: 'NAME.CHANGE', cardAliasName: 'Shop' },
  ],
  'FEE_ACCOUNT.CHOOSE': [{ type: 'FEE_ACCOUNT.CHOOSE', accountId: 102 }],
  'STEP.CONTINUE': [{ type: 'STEP.CONTINUE' }],
  'STEP.BACK': [{ type: 'STEP.BACK' }],
  SUBMIT: [{ type: 'SUBMIT' }],
  'APPLICATION.NEW': [{ type: 'APPLICATION.NEW' }],
} satisfies { [K in CardApplicationEvent['type']]: Extract<CardApplicationEvent, { type: K }>[] };
const one = <K extends keyof typeof userEvents>(type: K, i = 0) => userEvents[type][i]!;
const choose = (p: CardProduct) => userEvents['PRODUCT.CHOOSE'].find((e) => e.productType === p.type)!;

const done = (id: string, output: unknown): SystemEvent => ({ type: `xstate.done.actor.${id}`, output });
const error = (id: string): SystemEvent => ({ type: `xstate.error.actor.${id}`, error: new Error('offline') });

const LOADED: LoadResult = { ok: true, countryCode: 'LT', products: PRODUCTS, accounts: ACCOUNTS, addresses: ADDRESSES };
const LOAD_ANSWERS: SystemEvent[] = [done('loadSetup', LOADED), done('loadSetup', { ok: false, code: 'failed', failure: REFUSAL } satisfies LoadResult), error('loadSetup')];
const fields = (param: keyof typeof FIELD_ERRORS) => done('applyForCard', { ok: false, code: 'fields', errors: FIELD_ERRORS[param] } satisfies ApplyResult);
/** the physical card's charge: issue 5 + express 15.50 */
const PHYSICAL_ANSWERS: SystemEvent[] = [
  done('applyForCard', { ok: true, applied: applied('none', 0, '20.50') } satisfies ApplyResult),
  done('applyForCard', { ok: true, applied: applied('sms', 65, '20.50') } satisfies ApplyResult),
  fields('type'),
  fields('shippingOptionId'),
  fields('feeAccountId'),
  done('applyForCard', { ok: false, code: 'network' } satisfies ApplyResult),
  done('applyForCard', { ok: false, code: 'failed', failure: REFUSAL } satisfies ApplyResult),
  error('applyForCard'),
];
const APPROVAL_OUTCOMES: SystemEvent[] = [
  done('approval', { result: 'approved', status: 'posted' }),
  done('approval', { result: 'canceled' }),
  done('approval', { result: 'failed', reason: 'expired', failure: null }),
  done('approval', { result: 'failed', reason: 'failed', failure: APPROVAL_REFUSAL }),
];

const isClean = (s: Snap) => s.context.failure === null && s.context.errors.length === 0 && !s.context.missing && !s.context.unanswered && s.context.notice === null;

function eventsFor(s: Snap): ModelEvent[] {
  const c = s.context;
  const f = c.form;
  const all: ModelEvent[] = [];
  if (s.matches('loading')) all.push(...(c.loadFailure ? LOAD_ANSWERS.slice(0, 1) : LOAD_ANSWERS));
  else if (s.matches('loadFailed')) all.push(one('LOAD.RETRY'));
  else if (s.matches('choosingProduct')) {
    // refused by the platform (the product no longer offered): that side trip ends here
    if (c.errors.length > 0) return [];
    if (f.type === null) all.push(choose(PHYSICAL), choose(VIRTUAL), choose(DEBIT), choose(VIRTUAL_RON), { type: 'PRODUCT.CHOOSE', productType: VIRTUAL_USD.type });
    // back from a product's steps: the same product again (its choices kept)
    else all.push({ type: 'PRODUCT.CHOOSE', productType: f.type });
  } else if (s.matches('delivery')) {
    if (f.type === PHYSICAL.type) {
      if (c.errors.length > 0) all.push(one('SHIPPING.CHOOSE', 1));
      else if (f.shippingOptionId === 1) all.push(one('SHIPPING.CHOOSE', 0), one('STEP.BACK'));
      else all.push(one('STEP.CONTINUE'));
    } else if (f.settlementAccountId === null) all.push(c.missing ? one('SETTLEMENT.CHOOSE') : one('STEP.CONTINUE'));
    else if (f.addressId === 11) all.push(one('ADDRESS.CHOOSE'));
    else all.push(one('STEP.CONTINUE'));
  } else if (s.matches('naming')) {
    if (f.type === VIRTUAL_RON.type) all.push(one('STEP.CONTINUE'));
    else if (c.errors.length > 0) all.push(one('NAME.CHANGE', 1));
    else if (f.cardAliasName === '') all.push(one('NAME.CHANGE', 0), one('STEP.BACK'));
    else if (f.cardAliasName === 'Online shopping') all.push(one('STEP.CONTINUE'));
  } else if (s.matches('feeAccount')) {
    if (f.type === VIRTUAL_RON.type) all.push(one('STEP.BACK'));
    else if (c.errors.length > 0) all.push(one('FEE_ACCOUNT.CHOOSE'));
    else if (f.type === PHYSICAL.type && f.feeAccountId === 101) all.push(one('STEP.CONTINUE'), one('STEP.BACK'));
    else if (f.type === VIRTUAL.type) all.push(one('STEP.CONTINUE'), one('STEP.BACK'));
    else all.push(one('STEP.CONTINUE'));
  } else if (s.matches('reviewing')) {
    all.push(one('SUBMIT'));
    if (f.type === PHYSICAL.type && f.feeAccountId === 101 && isClean(s)) all.push(one('STEP.BACK'));
  } else if (s.matches('submitting')) {
    if (f.type === VIRTUAL.type) all.push(done('applyForCard', { ok: true, applied: applied('none', 2, '1.00') } satisfies ApplyResult), fields('cardAliasName'));
    else if (f.type === DEBIT.type) all.push(done('applyForCard', { ok: true, applied: applied('none', 65, '2.00') } satisfies ApplyResult));
    else if (f.feeAccountId === 102) all.push(PHYSICAL_ANSWERS[0]!);
    else all.push(...(c.unanswered ? [PHYSICAL_ANSWERS[1]!, PHYSICAL_ANSWERS[6]!] : PHYSICAL_ANSWERS));
  } else if (s.matches('approving')) all.push(...APPROVAL_OUTCOMES);
  else if (s.matches('checking')) {
    if (f.type === DEBIT.type) all.push(done('readCardStatus', { ok: true, accountStatusId: 23 } satisfies CardStatusResult), error('readCardStatus'));
    else all.push(done('readCardStatus', { ok: true, accountStatusId: 0 } satisfies CardStatusResult));
  } else if (s.matches('done')) {
    if (f.type === PHYSICAL.type && c.applied?.approveType === 'sms') all.push(one('APPLICATION.NEW'));
  } else if (s.matches('failed')) all.push(one('APPLICATION.NEW'));
  return all.filter((e) => e.type.startsWith('xstate.') || s.can(e as CardApplicationEvent));
}

/** Only what the page shows, never the random key. */
const serialize = (s: Snap) => {
  const c = s.context;
  return JSON.stringify({
    value: s.value,
    form: c.form,
    missing: c.missing,
    errors: c.errors.map((e) => e.param),
    failure: c.failure?.responseCode ?? null,
    unanswered: c.unanswered,
    notice: c.notice,
    applied: c.applied ? [c.applied.approveType, c.applied.accountStatusId] : null,
    cardStatus: c.cardStatus,
    loadFailure: c.loadFailure?.code ?? null,
    outcome: c.outcome?.reason ?? null,
  });
};

/* ------------------------------------------------------------------------------ what the test did */

interface Did {
  loadFailure: 'failed' | 'network' | null;
  product: CardProduct | null;
  addressId: number | null;
  shippingOptionId: number | null;
  settlementAccountId: number | null;
  cardAliasName: string;
  feeAccountId: number | null;
  missing: boolean;
  errors: keyof typeof FIELD_ERRORS | null;
  failure: 'refused' | null;
  unanswered: boolean;
  canceled: boolean;
  newKeyDue: boolean;
  newKey: boolean;
  applied: CardApplied | null;
  cardStatus: number | null;
  outcome: 'expired' | 'failed' | null;
}
const fresh = (): Did => ({
  loadFailure: null,
  product: null,
  addressId: null,
  shippingOptionId: null,
  settlementAccountId: null,
  cardAliasName: '',
  feeAccountId: null,
  missing: false,
  errors: null,
  failure: null,
  unanswered: false,
  canceled: false,
  newKeyDue: true,
  newKey: true,
  applied: null,
  cardStatus: null,
  outcome: null,
});

function record(did: Did, event: ModelEvent): void {
  const out = (event as SystemEvent).output as Record<string, any> | undefined;
  const leave = () => Object.assign(did, { missing: false, failure: null, canceled: false });
  switch (event.type) {
    case 'xstate.done.actor.loadSetup':
      did.loadFailure = out!.ok ? null : 'failed';
      return;
    case 'xstate.error.actor.loadSetup':
      did.loadFailure = 'network';
      return;
    case 'LOAD.RETRY':
      return;
    case 'PRODUCT.CHOOSE': {
      const p = PRODUCTS.find((x) => x.type === event.productType)!;
      if (did.product?.type !== p.type) {
        // the choices made for the customer: the confirmed address, the first open option, the only account of the currency (debit), the first account
        const own = ACCOUNTS.filter((a) => a.currency === p.currencyCode);
        Object.assign(did, {
          product: p,
          addressId: p.kind === 'virtual' ? null : 11,
          shippingOptionId: p.shippingOptions.find((o) => o.disabledReasons.length === 0)?.id ?? null,
          settlementAccountId: p.kind === 'debit' && own.length === 1 ? own[0]!.accountId : null,
          cardAliasName: '',
          feeAccountId: own[0]?.accountId ?? null,
        });
      }
      Object.assign(did, { missing: false, errors: null, failure: null, canceled: false });
      return;
    }
    case 'ADDRESS.CHOOSE':
      Object.assign(did, { addressId: event.addressId, missing: false });
      return;
    case 'SHIPPING.CHOOSE':
      Object.assign(did, { shippingOptionId: event.shippingOptionId, missing: false, errors: did.errors === 'shippingOptionId' ? null : did.errors });
      return;
    case 'SETTLEMENT.CHOOSE':
      Object.assign(did, { settlementAccountId: event.accountId, missing: false });
      return;
    case 'NAME.CHANGE':
      Object.assign(did, { cardAliasName: event.cardAliasName, missing: false, errors: did.errors === 'cardAliasName' ? null : did.errors });
      return;
    case 'FEE_ACCOUNT.CHOOSE':
      Object.assign(did, { feeAccountId: event.accountId, missing: false, errors: did.errors === 'feeAccountId' ? null : did.errors });
      return;
    case 'STEP.CONTINUE':
      // delivery not complete (the debit card's account not chosen): told
      if (did.product?.kind === 'debit' && did.settlementAccountId === null) {
        did.missing = true;
        return;
      }
      // the review is only ever reached through a Continue: each one may lead there, with a new key
      leave();
      did.newKeyDue = true;
      return;
    case 'STEP.BACK':
      leave();
      return;
    case 'SUBMIT':
      Object.assign(did, { newKey: did.newKeyDue, newKeyDue: false, failure: null, canceled: false });
      return;
    case 'xstate.done.actor.applyForCard':
      if (out!.ok) Object.assign(did, { applied: out!.applied, cardStatus: out!.applied.accountStatusId, unanswered: false, errors: null });
      else if (out!.code === 'fields') Object.assign(did, { errors: (out!.errors as ValidationError[])[0]!.param, unanswered: false, newKeyDue: true });
      else if (out!.code === 'network') did.unanswered = true;
      else Object.assign(did, { failure: 'refused', unanswered: false, newKeyDue: true });
      return;
    case 'xstate.error.actor.applyForCard':
      did.unanswered = true;
      return;
    case 'xstate.done.actor.approval':
      if (out!.result === 'canceled') Object.assign(did, { canceled: true, applied: null, cardStatus: null, newKeyDue: true });
      else if (out!.result === 'failed') did.outcome = out!.reason;
      return;
    case 'xstate.done.actor.readCardStatus':
      did.cardStatus = out!.ok ? out!.accountStatusId : null;
      return;
    case 'xstate.error.actor.readCardStatus':
      did.cardStatus = null;
      return;
    case 'APPLICATION.NEW':
      Object.assign(did, fresh());
      return;
  }
}

/* ------------------------------------------------------------------------------ the harness */

function mount() {
  const q = {
    loadSetup: new AnswerQueue<unknown, LoadResult>(),
    applyForCard: new AnswerQueue<{ request: CardApplyRequest; idempotencyKey: string }, ApplyResult>(),
    readCardStatus: new AnswerQueue<{ accountId: number }, CardStatusResult>(),
    approveTransfer: new AnswerQueue<{ transactionId: number; code: string; idempotencyKey: string }, ApproveResult>(),
    cancelTransfer: new AnswerQueue<{ transactionId: number; idempotencyKey: string }, CancelResult>(),
    resendApproval: new AnswerQueue<{ transactionId: number }, ResendResult>(),
  };
  const logic = cardApplicationMachine.provide({
    actors: {
      loadSetup: fromPromise(({ input }) => q.loadSetup.next(input)),
      applyForCard: fromPromise(({ input }) => q.applyForCard.next(input)),
      readCardStatus: fromPromise(({ input }) => q.readCardStatus.next(input)),
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
  });
  const actor = createActor(logic).start();
  render(
    <I18nProvider i18n={i18n}>
      <ApplyView actor={actor} canOpenAccount />
    </I18nProvider>,
  );
  return { q, actor, did: fresh() };
}
type H = ReturnType<typeof mount>;

const h1 = (name: string) => screen.findByRole('heading', { level: 1, name });
const button = (name: RegExp | string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const waiting = (h: H) => Object.values(h.q).reduce((n, q) => n + q.waiting, 0);
const describedText = (el: Element) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
const group = (legend: string) => screen.getByRole('group', { name: legend });
const checkedIn = (legend: string) =>
  within(group(legend))
    .getAllByRole('radio')
    .find((r) => (r as HTMLInputElement).checked) ?? null;
const dlText = (heading: string) => plain((screen.getByRole('heading', { level: 2, name: heading }).closest('.card') as HTMLElement).querySelector('dl')!.textContent!);
const alertTexts = () => screen.queryAllByRole('alert').map((a) => plain(a.textContent!));

const LINES: Record<number, string> = { 11: 'Gedimino pr. 1, 01103 Vilnius, LT', 12: 'Laisvės al. 5, Flat 2, 44237 Kaunas, LT' };

/** What the application sends for what the test chose. */
function expectedRequest(did: Did): CardApplyRequest {
  const p = did.product!;
  const name = did.cardAliasName.trim();
  return {
    type: p.type,
    feeAccountId: did.feeAccountId!,
    ...(p.kind !== 'virtual' ? { addressId: did.addressId!, shippingOptionId: did.shippingOptionId! } : {}),
    ...(p.kind === 'debit' ? { settlementAccountId: did.settlementAccountId! } : {}),
    ...(p.kind === 'virtual' && name ? { cardAliasName: name } : {}),
  };
}

/** The review's fees for what the test chose: charged now (issue, shipping, total) and later. */
function expectedFees(did: Did): { now: string; later: string } {
  const p = did.product!;
  const c = p.fees.currency;
  const option = p.shippingOptions.find((o) => o.id === did.shippingOptionId);
  const total = (p.fees.issue + (option?.fee ?? 0)).toFixed(2);
  return {
    now: `Issue fee${money(p.fees.issue.toFixed(2), c)}${option ? `Shipping fee${money(option.fee.toFixed(2), c)}` : ''}Total now${money(total, c)}`,
    later: `Annual fee${money(p.fees.annual.toFixed(2), c)}Monthly fee${money(p.fees.monthly.toFixed(2), c)}`,
  };
}

function stateChecks(h: H) {
  const d = () => h.did;
  const chosen = async () => {
    const did = d();
    expect(screen.getByText(`Your card: ${NAMES[did.product!.type]}.`)).toBeTruthy();
  };
  return {
    loading: async () => {
      await h1('Apply for a card');
      expect(screen.getByText('Loading the cards offered to you')).toBeTruthy();
      expect(h.q.loadSetup.waiting).toBe(1);
    },
    loadFailed: async () => {
      await h1('Apply for a card');
      const alerts = alertTexts();
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toContain('We could not load the cards offered to you.');
      if (d().loadFailure === 'failed') expect(alerts[0]).toContain(REFUSAL.responseDescription);
      else expect(alerts[0]).not.toContain(REFUSAL.responseDescription);
      expect(button('Try again')).toBeTruthy();
      expect(waiting(h)).toBe(0);
    },
    choosingProduct: async () => {
      const did = d();
      await h1('Choose a card');
      expect(screen.getAllByRole('heading', { level: 2 }).map((x) => x.textContent)).toEqual(['Physical cards', 'Virtual cards', 'Debit cards']);
      expect(screen.getAllByRole('heading', { level: 3 }).map((x) => x.textContent)).toEqual([NAMES[2010], NAMES[2030], NAMES[2031], NAMES[2032], NAMES[2020]]);
      for (const p of PRODUCTS) {
        const card = screen.getByRole('heading', { level: 3, name: NAMES[p.type] }).closest('article') as HTMLElement;
        const c = p.fees.currency;
        expect(plain(card.querySelector('dl')!.textContent!)).toBe(
          `Issue fee${money(p.fees.issue.toFixed(2), c)}Annual fee${money(p.fees.annual.toFixed(2), c)}Monthly fee${money(p.fees.monthly.toFixed(2), c)}Limit per payment${money('1000.00', c)}Limit per day${money('2500.00', c)}`,
        );
        const choose = within(card).getByRole('button', { name: `Choose this card: ${NAMES[p.type]}` }) as HTMLButtonElement;
        expect(choose.disabled).toBe(p === VIRTUAL_USD);
        if (p === VIRTUAL_USD) {
          expect(card.textContent).toContain('Not available');
          expect(card.textContent).toContain('You need an account in USD to pay for this card.');
        } else expect(card.textContent).not.toContain('Not available');
      }
      if (did.errors === 'type') expect(alertTexts()).toEqual([`This card cannot be applied for.${MESSAGES.type}`]);
      else expect(alertTexts()).toEqual([]);
      expect(waiting(h)).toBe(0);
    },
    delivery: async () => {
      const did = d();
      await h1('Delivery');
      await chosen();
      const p = did.product!;
      expect(
        within(group('Ship to'))
          .getAllByRole('radio')
          .map((r) => (r.closest('.radio-option') as HTMLElement).querySelector('label')!.textContent),
      ).toEqual([LINES[11], LINES[12]]);
      expect(plain(group('Ship to').textContent!)).toContain('Not confirmed yet');
      expect((checkedIn('Ship to') as HTMLInputElement | null)?.value).toBe(String(did.addressId));
      const options = within(group('Shipping')).getAllByRole('radio') as HTMLInputElement[];
      expect(options.map((o) => plain((o.closest('.radio-option') as HTMLElement).textContent!))).toEqual(
        p.shippingOptions.map(
          (o) =>
            `${o.type === 'express' ? 'Express' : 'Standard'} · ${money(o.fee.toFixed(2))}${o.disabledReasons.length ? 'Not available in your country.' : `Arrives within ${o.deliveryTime} business days.`}`,
        ),
      );
      expect(options.map((o) => o.disabled)).toEqual(p.shippingOptions.map((o) => o.disabledReasons.length > 0));
      expect((checkedIn('Shipping') as HTMLInputElement | null)?.value).toBe(String(did.shippingOptionId));
      const shippingError = describedText(group('Shipping'));
      if (did.errors === 'shippingOptionId') expect(shippingError).toContain(MESSAGES.shippingOptionId);
      else expect(shippingError).toBe('');
      if (p.kind === 'debit') {
        const settle = group('The account the card draws on');
        expect((checkedIn('The account the card draws on') as HTMLInputElement | null)?.value ?? null).toBe(
          did.settlementAccountId === null ? null : String(did.settlementAccountId),
        );
        expect(
          within(settle)
            .getAllByRole('radio')
            .map((r) => plain((r.closest('.radio-option') as HTMLElement).textContent!)),
        ).toEqual([`EUR account 101 · ${money('1500.00')}`, `EUR account 102 · ${money('40.00')}`]);
        expect(describedText(settle)).toBe(did.missing && did.settlementAccountId === null ? 'Choose the account the card draws on.' : '');
      } else expect(screen.queryByRole('group', { name: 'The account the card draws on' })).toBeNull();
      expect(button('Continue')).toBeTruthy();
      expect(button('Back')).toBeTruthy();
      expect(waiting(h)).toBe(0);
    },
    naming: async () => {
      const did = d();
      await h1('Name your card');
      await chosen();
      const input = screen.getByLabelText('Card name (optional)') as HTMLInputElement;
      expect(input.value).toBe(did.cardAliasName);
      expect(input.maxLength).toBe(40);
      if (did.errors === 'cardAliasName') {
        expect(input.getAttribute('aria-invalid')).toBe('true');
        expect(describedText(input)).toContain(MESSAGES.cardAliasName);
      } else expect(input.getAttribute('aria-invalid')).toBeNull();
      expect(waiting(h)).toBe(0);
    },
    feeAccount: async () => {
      const did = d();
      await h1('Pay the fees from');
      if (did.product === VIRTUAL_RON) {
        const status = screen.getByRole('status');
        expect(status.textContent).toContain("You have no account in RON to pay the card's fees from.");
        expect(screen.getByRole('link', { name: 'Open an account' }).getAttribute('href')).toBe('/accounts/open');
        expect(screen.getByRole('link', { name: 'Add money' }).getAttribute('href')).toBe('/add-money');
        expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
      } else {
        const fee = group('The account the fees are charged from');
        expect(
          within(fee)
            .getAllByRole('radio')
            .map((r) => plain((r.closest('.radio-option') as HTMLElement).textContent!)),
        ).toEqual([`EUR account 101 · ${money('1500.00')}`, `EUR account 102 · ${money('40.00')}`]);
        expect((checkedIn('The account the fees are charged from') as HTMLInputElement).value).toBe(String(did.feeAccountId));
        if (did.errors === 'feeAccountId') expect(describedText(fee)).toContain(MESSAGES.feeAccountId);
        else expect(describedText(fee)).toBe('');
        expect(button('Continue')).toBeTruthy();
      }
      expect(button('Back')).toBeTruthy();
      expect(waiting(h)).toBe(0);
    },
    reviewing: async () => {
      const did = d();
      await h1('Review your application');
      const p = did.product!;
      const option = p.shippingOptions.find((o) => o.id === did.shippingOptionId);
      const fee = ACCOUNTS.find((a) => a.accountId === did.feeAccountId)!;
      expect(dlText('Your card')).toBe(
        [
          `Card${NAMES[p.type]}`,
          p.kind !== 'virtual' ? `Ships to${LINES[did.addressId!]}` : '',
          option ? `Shipping${option.type === 'express' ? 'Express' : 'Standard'}, within ${option.deliveryTime} business days` : '',
          p.kind === 'debit' ? `Draws onEUR account ${did.settlementAccountId}` : '',
          p.kind === 'virtual' ? `Name${did.cardAliasName.trim() || 'No name'}` : '',
          `Fees fromEUR account ${fee.accountId} · ${money(fee.balance)}`,
        ].join(''),
      );
      const fees = expectedFees(did);
      expect(dlText('Charged now')).toBe(fees.now);
      expect(dlText('Charged later')).toBe(fees.later);
      const alerts = alertTexts();
      if (did.unanswered) expect(alerts).toEqual(['We did not get an answer. Apply again: you will not get two cards nor pay twice.']);
      else if (did.failure) expect(alerts).toEqual([`The application was not accepted.${REFUSAL.responseDescription}`]);
      else expect(alerts).toEqual([]);
      if (did.canceled) expect(screen.getByRole('status').textContent).toBe('You canceled the approval: no card was made and nothing was charged.');
      else expect(screen.queryAllByRole('status')).toHaveLength(0);
      await waitFor(() => expect(button('Apply for the card').getAttribute('aria-busy')).toBeNull());
      expect(button('Apply for the card').disabled).toBe(false);
      expect(button('Back').disabled).toBe(false);
      expect(waiting(h)).toBe(0);
    },
    submitting: async () => {
      const did = d();
      await h1('Review your application');
      await waitFor(() => expect(button('Apply for the card').getAttribute('aria-busy')).toBe('true'));
      expect(button('Back').disabled).toBe(true);
      expect(h.q.applyForCard.waiting).toBe(1);
      const calls = h.q.applyForCard.calls;
      const { request, idempotencyKey } = calls.at(-1)!;
      expect(request).toEqual(expectedRequest(did));
      expect(idempotencyKey).toMatch(IDEMPOTENCY_KEY_PATTERN);
      const earlier = calls.slice(0, -1).map((c) => c.idempotencyKey);
      if (did.newKey) expect(earlier).not.toContain(idempotencyKey);
      else expect(idempotencyKey).toBe(earlier.at(-1));
    },
    approving: async () => {
      await h1("Approve the card's fees");
      expect(plain(screen.getByText(/wait for your approval/).textContent!)).toBe(`The card's fees of ${money('20.50')} wait for your approval.`);
      expect(await screen.findByRole('heading', { level: 2, name: 'Enter the code we sent to +370 *** **12' })).toBeTruthy();
      expect(button('Cancel the transfer').disabled).toBe(false);
      expect(h.q.applyForCard.waiting + h.q.approveTransfer.waiting).toBe(0);
    },
    checking: async () => {
      await h1('Card applied for');
      expect(screen.getByText('Finishing')).toBeTruthy();
      expect(h.q.readCardStatus.waiting).toBe(1);
      expect(h.q.readCardStatus.calls.at(-1)).toEqual({ accountId: CARD_ID });
    },
    done: async () => {
      const did = d();
      await h1('Card applied for');
      const status = screen.getAllByRole('status')[0]!;
      const p = did.product!;
      if (p.kind === 'virtual' && did.cardStatus === 2) expect(status.textContent).toBe('Your virtual card is ready.You can use it as soon as you load money onto it.');
      else if (did.cardStatus === 23) {
        expect(status.textContent).toContain('Confirm your card so that it is made.');
        expect(screen.getByRole('link', { name: 'Confirm your card' }).getAttribute('href')).toBe(`/confirm-card/${CARD_ID}`);
      } else {
        const option = p.shippingOptions.find((o) => o.id === did.shippingOptionId)!;
        expect(status.textContent).toBe(`Your card is being produced.It is then shipped and arrives within ${option.deliveryTime} business days.`);
        expect(screen.queryByRole('link', { name: 'Confirm your card' })).toBeNull();
      }
      expect(screen.getByRole('link', { name: 'See your card' }).getAttribute('href')).toBe(`/cards/${CARD_ID}`);
      expect(button('Apply for another card')).toBeTruthy();
      expect(waiting(h)).toBe(0);
    },
    failed: async () => {
      const outcome = d().outcome;
      await h1('Card not applied for');
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toContain(outcome === 'expired' ? 'The approval time ran out.' : "The card's fees were not approved.");
      expect(alert.textContent).toContain('No card was made and nothing was charged.');
      if (outcome === 'failed') expect(alert.textContent).toContain(APPROVAL_REFUSAL.responseDescription);
      expect(button('Start again')).toBeTruthy();
      expect(waiting(h)).toBe(0);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: H) {
  const click = (name: RegExp | string) => act(() => fireEvent.click(button(name)));
  const radio = (legend: string, index: number) => act(() => fireEvent.click(within(group(legend)).getAllByRole('radio')[index]!));
  const approveWith = async (result: ApproveResult) => {
    act(() => fireEvent.change(screen.getByLabelText('Code'), { target: { value: '123456' } }));
    click('Confirm');
    await waitFor(() => expect(h.q.approveTransfer.waiting).toBe(1));
    expect(h.q.approveTransfer.calls.at(-1)).toMatchObject({ transactionId: 9300, code: '123456' });
    await act(async () => h.q.approveTransfer.answer(result));
  };
  const settle =
    (q: keyof H['q']) =>
    async ({ event }: { event: ModelEvent }) =>
      settleFromEvent(h.q[q] as AnswerQueue<unknown, unknown>, event as SystemEvent);
  const ev = <T extends CardApplicationEvent['type']>(event: ModelEvent) => event as Extract<CardApplicationEvent, { type: T }>;
  return {
    'LOAD.RETRY': async () => click('Try again'),
    'PRODUCT.CHOOSE': async ({ event }: { event: ModelEvent }) => click(`Choose this card: ${NAMES[ev<'PRODUCT.CHOOSE'>(event).productType]}`),
    'ADDRESS.CHOOSE': async ({ event }: { event: ModelEvent }) =>
      radio(
        'Ship to',
        ADDRESSES.findIndex((a) => a.addressId === ev<'ADDRESS.CHOOSE'>(event).addressId),
      ),
    'SHIPPING.CHOOSE': async ({ event }: { event: ModelEvent }) =>
      radio(
        'Shipping',
        h.did.product!.shippingOptions.findIndex((o) => o.id === ev<'SHIPPING.CHOOSE'>(event).shippingOptionId),
      ),
    'SETTLEMENT.CHOOSE': async ({ event }: { event: ModelEvent }) =>
      radio(
        'The account the card draws on',
        ACCOUNTS.findIndex((a) => a.accountId === ev<'SETTLEMENT.CHOOSE'>(event).accountId),
      ),
    'NAME.CHANGE': async ({ event }: { event: ModelEvent }) =>
      act(() => fireEvent.change(screen.getByLabelText('Card name (optional)'), { target: { value: ev<'NAME.CHANGE'>(event).cardAliasName } })),
    'FEE_ACCOUNT.CHOOSE': async ({ event }: { event: ModelEvent }) =>
      radio(
        'The account the fees are charged from',
        ACCOUNTS.findIndex((a) => a.accountId === ev<'FEE_ACCOUNT.CHOOSE'>(event).accountId),
      ),
    'STEP.CONTINUE': async () => click('Continue'),
    'STEP.BACK': async () => click('Back'),
    SUBMIT: async () => click('Apply for the card'),
    'APPLICATION.NEW': async () => click(/^(Apply for another card|Start again)$/),
    'xstate.done.actor.loadSetup': settle('loadSetup'),
    'xstate.error.actor.loadSetup': settle('loadSetup'),
    'xstate.done.actor.applyForCard': settle('applyForCard'),
    'xstate.error.actor.applyForCard': settle('applyForCard'),
    'xstate.done.actor.readCardStatus': settle('readCardStatus'),
    'xstate.error.actor.readCardStatus': settle('readCardStatus'),
    // The approval child ends through its own screen.
    'xstate.done.actor.approval': async ({ event }: { event: ModelEvent }) => {
      const out = (event as SystemEvent).output as { result: string; reason?: string };
      if (out.result === 'approved') await approveWith({ ok: true, status: 'posted' });
      else if (out.result === 'canceled') {
        click('Cancel the transfer');
        await waitFor(() => expect(h.q.cancelTransfer.waiting).toBe(1));
        expect(h.q.cancelTransfer.calls.at(-1)).toMatchObject({ transactionId: 9300 });
        await act(async () => h.q.cancelTransfer.answer({ ok: true, status: 'canceled' }));
      } else if (out.reason === 'expired') await approveWith({ ok: true, status: 'expired' });
      else await approveWith({ ok: false, code: 'failed', failure: APPROVAL_REFUSAL });
    },
  };
}

/* ------------------------------------------------------------------------------ the paths */

const model = new TestModel(cardApplicationMachine, {
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

const labelOf = (e: ModelEvent) => {
  const short = e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.');
  if ('output' in e) {
    const o = e.output as { ok?: boolean; code?: string; result?: string; reason?: string; applied?: CardApplied; errors?: ValidationError[]; accountStatusId?: number };
    if (o.result) return `${short}(${o.reason ?? o.result})`;
    if (o.ok) return `${short}(ok${o.applied ? ` ${o.applied.approveType} ${o.applied.accountStatusId}` : o.accountStatusId !== undefined ? ` ${o.accountStatusId}` : ''})`;
    return `${short}(${o.code}${o.errors ? ` ${o.errors[0]!.param}` : ''})`;
  }
  if (e.type === 'PRODUCT.CHOOSE') return `${e.type}(${e.productType})`;
  return short;
};

describe('card application model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((st) => st.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    it(`#${i} ${events.map(labelOf).join(' → ') || 'initial'} ⇒ ${JSON.stringify(last?.value)}`, async () => {
      const h = mount();
      await runPathCheckingEveryStep(
        path,
        stateChecks(h),
        recordingExecutors<ModelEvent>(eventExecutors(h), (e) => record(h.did, e)),
      );
      h.actor.stop();
    });
  });
});

/** The chart with actors that never answer (the replay sends their answers as events). */
const replayable = cardApplicationMachine.provide({
  actors: {
    loadSetup: fromPromise(() => new Promise<LoadResult>(() => undefined)),
    applyForCard: fromPromise(() => new Promise<ApplyResult>(() => undefined)),
    readCardStatus: fromPromise(() => new Promise<CardStatusResult>(() => undefined)),
  },
});

describe('card application model: the chart', () => {
  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(cardApplicationMachine, paths)).toEqual([]);
  });

  it('every transition of the chart is taken by some path', () => {
    const taken = transitionsTaken(replayable, undefined, sequences as never);
    const missing = listTransitions(cardApplicationMachine)
      .filter((t) => !taken.has(t.key))
      .map((t) => t.key);
    expect(missing).toEqual([]);
  });

  it('a product that cannot be chosen is not taken', () => {
    const actor = createActor(replayable).start();
    actor.send({ type: 'xstate.done.actor.loadSetup', output: LOADED } as never);
    actor.send({ type: 'PRODUCT.CHOOSE', productType: VIRTUAL_USD.type });
    expect(actor.getSnapshot().value).toBe('choosingProduct');
    actor.stop();
  });
});
