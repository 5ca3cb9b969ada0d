/**
 * Model-based test of the global-pay payee page (machines/global-payee): paths generated from the
 * chart drive the REAL ReceiveView through Testing Library, in English. The promise actors are
 * test doubles (AnswerQueue) answered by the paths' `xstate.done.actor.<id>` /
 * `xstate.error.actor.<id>` events; the resend wait fires by sending its `xstate.after.*` event
 * (the real delay is set to an hour).
 *
 * Every step checks the page against what the TEST did (`Did`, worked out from the events
 * performed and the answers given), not against the chart's context: the heading of each step
 * (and that it has the focus), the payment's details, the country and method chosen, the form's
 * values and each field's error, the quote, the recent withdrawals, the notices (refusal, no
 * answer, no method, nothing chosen, too many wrong codes, a new code sent), the code's error,
 * the buttons busy or disabled, and what each actor was called with (the payment id and secret
 * on every call, the country, the method, the currency, the details typed, the operation and the
 * code).
 *
 * To keep the graph small a side trip ends where it comes back to a step already seen with other
 * choices (Back from the countries, the methods, the form: the path ends there), and the actors'
 * every answer is given only on the main line; off it, the success. Every chart transition is
 * still taken (checked below). The statuses that end the page are each rendered once apart (the
 * chart takes them through one transition).
 *
 * Proof it can fail (2026-11-27): I made the method step's "Continue" send BACK instead of NEXT
 * once: the 12 paths through loadingForm went red (the method step's busy "Continue" never came:
 * the page was back on the countries); restored since.
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import type { Failure, ValidationError } from '../../api/envelope.ts';
import type { GlobalPaymentStatus } from '../../api/global-pay.ts';
import type { PayoutMethod } from '../../api/payees/payout-methods.ts';
import {
  globalPayeeMachine,
  type ApproveResult,
  type CountriesResult,
  type DetailsResult,
  type FormResult,
  type MethodsResult,
  type PayeeEvent,
  type PaymentDetails,
  type RefuseResult,
  type ResendResult,
  type SubmitResult,
} from '../../machines/global-payee/global-payee.machine.ts';
import { ReceiveView } from '../../src/features/global-pay/receive-view.tsx';
import { formatDate, formatMoney } from '../../src/lib/format.ts';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, matchesPath, recordingExecutors, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';
import { settleFromEvent } from './settle.ts';

type Snap = SnapshotFrom<typeof globalPayeeMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = PayeeEvent | SystemEvent;

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const money = (amount: string) => plain(formatMoney(amount, 'EUR', 'en'));

/* ------------------------------------------------------------------------------ fixtures */

const LINK = { paymentId: 4242, secret: 'S3cret-of-the-link_0123456789' };
const DETAILS: PaymentDetails = {
  beneficiaryName: 'Erika Mustermann',
  status: 'waiting',
  senderName: 'Northwind Trading Ltd',
  amount: '200.00',
  currencyCode: 'EUR',
  description: 'Invoice 1',
  feeIsBen: true,
  paymentId: 4242,
  submittedDate: '2026-11-20T10:00:00.000Z',
  expireDays: 14,
  expiresAt: '2026-12-04T10:00:00.000Z',
};
const COUNTRIES = [
  { code: 'DE', name: 'Germany' },
  { code: 'FR', name: 'France' },
];
const METHODS: PayoutMethod[] = ['oct', 'eft'];
const FORM: Extract<FormResult, { ok: true }> = {
  ok: true,
  form: {
    fields: [
      { name: 'cardHolderName', kind: 'text', required: true, pattern: 'name', maxLength: 100 },
      { name: 'cardNumber', kind: 'text', required: true, pattern: 'cardNumber', maxLength: 23 },
    ],
    oneOf: [],
    blockedBins: [],
  },
  quote: { exchangeRate: '1', toAmount: '198.00', fee: '2.00', estimatedTotal: '198.00' },
  withdrawals: [
    {
      withdrawalId: 11,
      date: '2026-10-01T09:00:00.000Z',
      amount: '50.00',
      currencyCode: 'EUR',
      paymentMethod: 'eft',
      countryCode: 'DE',
      status: 'completed',
      senderName: 'Acme GmbH',
    },
  ],
};
const VALUES = { cardHolderName: 'Erika Mustermann', cardNumber: '4111 1111 1111 1111' };
const OPERATION = { operationId: 'a'.repeat(32), approvalSentTo: 'e***a@example.com' };

const REFUSAL: Failure = { responseCode: 'TA1', responseDescription: 'This payment can no longer be taken' };
const vf = (param: string, code: string, params?: Record<string, number>): ValidationError => ({ param, code, description: `${param} is wrong`, ...(params ? { params } : {}) });
const FIELD_ERRORS = [vf('paymentDetails.cardNumber', 'cardChecksum'), vf('currencyCode', 'currencyOfAccount')];
const WRONG_CODE = vf('approvalCode', 'approvalCodeWrong', { triesLeft: 4 });

/* ------------------------------------------------------------------------------ the events */

const user = {
  RETRY: { type: 'RETRY' },
  BACK: { type: 'BACK' },
  TAKE: { type: 'PAYMENT.TAKE' },
  REFUSE: { type: 'PAYMENT.REFUSE' },
  CONFIRM_REFUSAL: { type: 'REFUSE.CONFIRM' },
  COUNTRY: { type: 'COUNTRY.CHOOSE', countryCode: 'DE' },
  METHOD: { type: 'METHOD.CHOOSE', method: 'oct' },
  NEXT: { type: 'NEXT' },
  FILL: { type: 'FIELDS.CHANGE', values: VALUES },
  SUBMIT: { type: 'DETAILS.SUBMIT' },
  CODE: { type: 'CODE.SUBMIT', code: '123456' },
  RESEND: { type: 'CODE.RESEND' },
} as const satisfies Record<string, PayeeEvent>;
/** The card number typed again after it was refused. */
const FIX: PayeeEvent = { type: 'FIELDS.CHANGE', values: { ...VALUES, cardNumber: '4111111111111111' } };
const AFTER_WAIT: SystemEvent = { type: 'xstate.after.resendInterval.globalPayee.code.resend.cooling' };

const done = (id: string, output: unknown): SystemEvent => ({ type: `xstate.done.actor.${id}`, output });
const error = (id: string): SystemEvent => ({ type: `xstate.error.actor.${id}`, error: new Error('offline') });
/** The answers every call may get besides its own: ENOA, 13, a refusal, no answer (as an answer and as a throw). */
const refusals = (id: string, blocked: 'unknown' | 'locked'): SystemEvent[] => [
  done(id, { ok: false, code: blocked }),
  done(id, { ok: false, code: 'failed', failure: REFUSAL }),
  error(id),
];

const DETAILS_ANSWERS: SystemEvent[] = [
  done('loadDetails', { ok: true, details: DETAILS } satisfies DetailsResult),
  done('loadDetails', { ok: true, details: { ...DETAILS, status: 'completed' } } satisfies DetailsResult),
  done('loadDetails', { ok: false, code: 'unknown' } satisfies DetailsResult),
  done('loadDetails', { ok: false, code: 'locked' } satisfies DetailsResult),
  done('loadDetails', { ok: false, code: 'network' } satisfies DetailsResult),
  error('loadDetails'),
];
const REFUSE_ANSWERS = [done('refusePayment', { ok: true, status: 'refused' } satisfies RefuseResult), ...refusals('refusePayment', 'unknown')];
const COUNTRIES_ANSWERS = [done('loadCountries', { ok: true, countries: COUNTRIES } satisfies CountriesResult), ...refusals('loadCountries', 'locked')];
const METHODS_ANSWERS = [
  done('loadMethods', { ok: true, methods: METHODS } satisfies MethodsResult),
  done('loadMethods', { ok: true, methods: [] } satisfies MethodsResult),
  ...refusals('loadMethods', 'unknown'),
];
const FORM_ANSWERS = [done('loadForm', FORM), ...refusals('loadForm', 'locked')];
const SUBMIT_ANSWERS = [
  done('submitPayout', { ok: true, operation: OPERATION } satisfies SubmitResult),
  done('submitPayout', { ok: false, code: 'fields', errors: FIELD_ERRORS } satisfies SubmitResult),
  ...refusals('submitPayout', 'unknown'),
];
const APPROVE_ANSWERS = [
  done('approvePayout', { ok: true, status: 'processing' } satisfies ApproveResult),
  done('approvePayout', { ok: false, code: 'wrongCode', error: WRONG_CODE } satisfies ApproveResult),
  done('approvePayout', { ok: false, code: 'dropped' } satisfies ApproveResult),
  ...refusals('approvePayout', 'locked'),
];
const RESEND_ANSWERS = [done('resendCode', { ok: true, approvalSentTo: 'e***a@example.org' } satisfies ResendResult), ...refusals('resendCode', 'unknown')];

/** Off the main line an actor answers success only. */
const onlyOk = (answers: SystemEvent[]) => answers.slice(0, 1);

function eventsFor(s: Snap): ModelEvent[] {
  const c = s.context;
  const quiet = c.notice === null && c.codeError === null && c.errors.length === 0;
  const all: ModelEvent[] = [];
  if (s.matches('loading')) all.push(...(c.notice ? onlyOk(DETAILS_ANSWERS) : DETAILS_ANSWERS));
  else if (s.matches('loadFailed')) all.push(user.RETRY);
  else if (s.matches('details')) {
    // back from the countries: that side trip ends here
    if (c.countryCode !== '') return [];
    all.push(user.TAKE);
    if (quiet) all.push(user.REFUSE);
  } else if (s.matches('confirmingRefusal')) all.push(user.CONFIRM_REFUSAL, user.BACK);
  else if (s.matches('refusing')) all.push(...REFUSE_ANSWERS);
  else if (s.matches('loadingCountries')) all.push(...COUNTRIES_ANSWERS);
  else if (s.matches('choosingCountry')) {
    // back from the methods: the side trip ends
    if (c.method !== null) return [];
    if (c.countryCode === '') all.push(...(c.notice?.kind === 'missing' ? [user.COUNTRY] : [user.NEXT, user.COUNTRY]));
    else all.push(user.NEXT, ...(quiet ? [user.BACK] : []));
  } else if (s.matches('loadingMethods')) all.push(...METHODS_ANSWERS);
  else if (s.matches('choosingMethod')) {
    // back from the form: the side trip ends
    if (c.form !== null) return [];
    if (c.method === null) all.push(...(c.notice?.kind === 'missing' ? [user.METHOD] : [user.NEXT, user.METHOD]));
    else all.push(user.NEXT, ...(quiet ? [user.BACK] : []));
  } else if (s.matches('loadingForm')) all.push(...FORM_ANSWERS);
  else if (s.matches('filling')) {
    if (c.values.cardNumber === undefined) return [user.FILL];
    // a refused card number: typed again (its error goes), then sent
    if (c.errors.some((e) => e.param === 'paymentDetails.cardNumber')) return [FIX];
    all.push(user.SUBMIT);
    if (quiet && c.operation === null && c.notice === null) all.push(user.BACK);
  } else if (s.matches('submitting')) all.push(...(c.values.cardNumber === VALUES.cardNumber ? SUBMIT_ANSWERS : onlyOk(SUBMIT_ANSWERS)));
  else if (s.matches('code')) {
    const cooling = s.matches({ code: { resend: 'cooling' } });
    const ready = s.matches({ code: { resend: 'ready' } });
    const idle = s.matches({ code: { entry: 'idle' } });
    if (s.matches({ code: { entry: 'approving' } })) all.push(...(cooling && c.notice === null && c.codeError === null ? APPROVE_ANSWERS : onlyOk(APPROVE_ANSWERS)));
    else if (s.matches({ code: { resend: 'resending' } })) all.push(...(c.codeError === null && c.notice === null ? RESEND_ANSWERS : onlyOk(RESEND_ANSWERS)));
    else if (idle && cooling) {
      all.push(user.CODE);
      if (quiet) all.push(AFTER_WAIT, user.BACK);
    } else if (idle && ready) all.push(...(c.notice?.kind === 'resent' ? [user.CODE] : [user.RESEND]));
  }
  return all.filter((e) => e.type.startsWith('xstate.') || s.can(e as PayeeEvent));
}

/** Only what the page shows. */
const serialize = (s: Snap) => {
  const c = s.context;
  return JSON.stringify({
    value: s.value,
    country: c.countryCode,
    method: c.method,
    form: c.form !== null,
    values: c.values,
    errors: c.errors.map((e) => e.param),
    notice: c.notice?.kind ?? null,
    codeError: c.codeError?.code ?? null,
    operation: c.operation?.approvalSentTo ?? null,
    blocked: c.blocked,
    status: c.status,
  });
};

/* ------------------------------------------------------------------------------ what the test did */

type Notice = 'failed' | 'network' | 'noMethods' | 'missing' | 'dropped' | 'resent' | null;
interface Did {
  notice: Notice;
  blocked: 'unknown' | 'locked' | null;
  status: GlobalPaymentStatus | null;
  country: string;
  method: PayoutMethod | null;
  values: Record<string, string>;
  /** the submit's refused card number is shown on its field */
  fieldErrors: boolean;
  /** the submit's refusal of another param (the currency) is shown over the form */
  otherError: boolean;
  codeError: boolean;
  sentTo: string;
  /** the last code typed */
  code: string;
  /** a new code may be asked (the wait is over and none was sent since) */
  resendOpen: boolean;
  /** the step the page is on, among those NEXT and BACK move between */
  stage: 'country' | 'method' | 'form' | null;
}
const fresh = (): Did => ({
  stage: null,
  otherError: false,
  notice: null,
  blocked: null,
  status: null,
  country: '',
  method: null,
  values: {},
  fieldErrors: false,
  codeError: false,
  sentTo: '',
  code: '',
  resendOpen: false,
});

/** The notice a refusal answer leaves (ENOA and 13 block the page instead). */
function refusalNotice(did: Did, out: Record<string, any> | undefined, isError: boolean): void {
  if (isError) did.notice = 'network';
  else if (out!.code === 'unknown' || out!.code === 'locked') did.blocked = out!.code;
  else did.notice = out!.code === 'failed' ? 'failed' : 'network';
}

function record(did: Did, event: ModelEvent): void {
  const out = (event as SystemEvent).output as Record<string, any> | undefined;
  const isError = event.type.startsWith('xstate.error.');
  const ok = !isError && out?.ok === true;
  switch (event.type) {
    case 'xstate.done.actor.loadDetails':
    case 'xstate.error.actor.loadDetails':
      if (ok) Object.assign(did, { status: out!.details.status, notice: null });
      else refusalNotice(did, out, isError);
      return;
    case 'PAYMENT.TAKE':
    case 'PAYMENT.REFUSE':
    case 'REFUSE.CONFIRM':
      did.notice = null;
      return;
    case 'BACK':
      Object.assign(did, { notice: null, codeError: false, stage: did.stage === 'form' ? 'method' : did.stage === 'method' ? 'country' : did.stage });
      return;
    case 'xstate.done.actor.refusePayment':
    case 'xstate.error.actor.refusePayment':
      if (ok) did.status = out!.status;
      else refusalNotice(did, out, isError);
      return;
    case 'xstate.done.actor.loadCountries':
    case 'xstate.error.actor.loadCountries':
      if (ok) did.stage = 'country';
      else refusalNotice(did, out, isError);
      return;
    case 'COUNTRY.CHOOSE':
      if (event.countryCode !== did.country) did.method = null;
      Object.assign(did, { country: event.countryCode, notice: null });
      return;
    case 'NEXT':
      // nothing chosen on this step yet: told so; else the next call starts
      did.notice = (did.stage === 'country' ? did.country === '' : did.method === null) ? 'missing' : null;
      return;
    case 'xstate.done.actor.loadMethods':
    case 'xstate.error.actor.loadMethods':
      if (ok && out!.methods.length === 0) did.notice = 'noMethods';
      else if (ok) Object.assign(did, { notice: null, stage: 'method' });
      else refusalNotice(did, out, isError);
      return;
    case 'METHOD.CHOOSE':
      Object.assign(did, { method: event.method, notice: null });
      return;
    case 'xstate.done.actor.loadForm':
    case 'xstate.error.actor.loadForm':
      if (ok) Object.assign(did, { notice: null, fieldErrors: false, otherError: false, stage: 'form' });
      else refusalNotice(did, out, isError);
      return;
    case 'FIELDS.CHANGE':
      // the changed field's error goes
      if (event.values.cardNumber !== did.values.cardNumber) did.fieldErrors = false;
      did.values = event.values;
      return;
    case 'DETAILS.SUBMIT':
      did.notice = null;
      return;
    case 'xstate.done.actor.submitPayout':
    case 'xstate.error.actor.submitPayout':
      if (ok) Object.assign(did, { notice: null, sentTo: out!.operation.approvalSentTo, codeError: false, fieldErrors: false, otherError: false, resendOpen: false });
      else if (!isError && out!.code === 'fields') Object.assign(did, { fieldErrors: true, otherError: true, notice: null });
      else refusalNotice(did, out, isError);
      return;
    case 'CODE.SUBMIT':
      Object.assign(did, { code: event.code, notice: null });
      return;
    case 'xstate.done.actor.approvePayout':
    case 'xstate.error.actor.approvePayout':
      if (ok) Object.assign(did, { status: out!.status, notice: null });
      else if (!isError && out!.code === 'wrongCode') Object.assign(did, { codeError: true, notice: null });
      else if (!isError && out!.code === 'dropped') Object.assign(did, { codeError: false, notice: 'dropped' });
      else refusalNotice(did, out, isError);
      return;
    case 'CODE.RESEND':
      Object.assign(did, { notice: null });
      return;
    case 'xstate.done.actor.resendCode':
    case 'xstate.error.actor.resendCode':
      if (ok) Object.assign(did, { notice: 'resent', codeError: false, sentTo: out!.approvalSentTo, resendOpen: false });
      else refusalNotice(did, out, isError);
      return;
    default:
      if (event.type === AFTER_WAIT.type) did.resendOpen = true;
  }
}

/* ------------------------------------------------------------------------------ the harness */

type Link = typeof LINK;
function mount() {
  const q = {
    loadDetails: new AnswerQueue<Link, DetailsResult>(),
    loadCountries: new AnswerQueue<Link, CountriesResult>(),
    loadMethods: new AnswerQueue<Link & { countryCode: string }, MethodsResult>(),
    loadForm: new AnswerQueue<Link & { countryCode: string; method: PayoutMethod; currencyCode: string }, FormResult>(),
    refusePayment: new AnswerQueue<Link, RefuseResult>(),
    submitPayout: new AnswerQueue<Link & { countryCode: string; method: PayoutMethod; currencyCode: string; paymentDetails: Record<string, string> }, SubmitResult>(),
    approvePayout: new AnswerQueue<Link & { operationId: string; approvalCode: string }, ApproveResult>(),
    resendCode: new AnswerQueue<Link & { operationId: string }, ResendResult>(),
  };
  const logic = globalPayeeMachine.provide({
    actors: {
      loadDetails: fromPromise(({ input }) => q.loadDetails.next(input)),
      loadCountries: fromPromise(({ input }) => q.loadCountries.next(input)),
      loadMethods: fromPromise(({ input }) => q.loadMethods.next(input)),
      loadForm: fromPromise(({ input }) => q.loadForm.next(input)),
      refusePayment: fromPromise(({ input }) => q.refusePayment.next(input)),
      submitPayout: fromPromise(({ input }) => q.submitPayout.next(input)),
      approvePayout: fromPromise(({ input }) => q.approvePayout.next(input)),
      resendCode: fromPromise(({ input }) => q.resendCode.next(input)),
    },
    delays: { resendInterval: 3_600_000 },
  });
  const actor = createActor(logic, { input: LINK }).start();
  render(
    <I18nProvider i18n={i18n}>
      <ReceiveView actor={actor} />
    </I18nProvider>,
  );
  return { q, actor, did: fresh() };
}
type H = ReturnType<typeof mount>;

const button = (name: RegExp | string) => screen.getByRole('button', { name }) as HTMLButtonElement;
/** The step's heading, focused (focus management on steps). */
async function h1(name: string) {
  const heading = await screen.findByRole('heading', { level: 1, name });
  await waitFor(() => expect(document.activeElement).toBe(heading));
  return heading;
}
const describedText = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
function expectFieldError(el: HTMLElement, text: string | null) {
  if (text) {
    expect(el.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(el)).toContain(text);
  } else expect(el.getAttribute('aria-invalid')).toBeNull();
}
const alertsText = () => screen.queryAllByRole('alert').map((a) => a.textContent);
const NETWORK = 'We could not reach the bank. Check your connection and try again.';

/** The notice over a step, as the test expects it (the missing and no-method notices are field errors). */
function expectNotice(did: Did) {
  const alerts = alertsText();
  if (did.notice === 'failed') expect(alerts).toEqual([`This did not work.${REFUSAL.responseDescription}`]);
  else if (did.notice === 'network') expect(alerts).toEqual([NETWORK]);
  else if (did.notice === 'dropped') expect(alerts).toEqual(['Too many wrong codes. Send your details again to get a new code.']);
  else expect(alerts).toEqual([]);
  if (did.notice === 'resent') expect(screen.getByRole('status').textContent).toBe('We sent a new code.');
  else expect(screen.queryByText('We sent a new code.')).toBeNull();
}
/** Every call carries the link's payment id and secret. */
const expectLink = (call: Record<string, unknown>) => expect(call).toMatchObject(LINK);
const noCallWaiting = (h: H) => expect(Object.values(h.q).reduce((n, q) => n + q.waiting, 0)).toBe(0);

function stateChecks(h: H) {
  const d = () => h.did;
  return {
    loading: async () => {
      await screen.findByRole('heading', { level: 1, name: 'Your payment' });
      expect(screen.getByText('Loading the payment')).toBeTruthy();
      expect(h.q.loadDetails.waiting).toBe(1);
      expect(h.q.loadDetails.calls.at(-1)).toEqual(LINK);
    },
    loadFailed: async () => {
      await h1('Your payment');
      expectNotice(d());
      expect(button('Try again').disabled).toBe(false);
      noCallWaiting(h);
    },
    blocked: async () => {
      const locked = d().blocked === 'locked';
      await h1(locked ? 'Too many attempts' : 'Payment not found');
      expect(alertsText()).toEqual([
        locked
          ? 'This payment was asked for too many times with a wrong link. Try again in an hour.'
          : 'We could not find this payment. Check that you opened the whole link from the e-mail.',
      ]);
      expect(screen.queryAllByRole('button')).toHaveLength(0);
      noCallWaiting(h);
    },
    closed: async () => {
      const status = d().status;
      if (status === 'refused') {
        await h1('Payment refused');
        expect(screen.getByRole('status').textContent).toBe('The payment was refused. The money went back to the sender.');
      } else {
        expect(status).toBe('completed');
        await h1('Already paid');
        expect(screen.getByRole('status').textContent).toBe('This payment was taken and has been paid out.');
      }
      expect(screen.queryAllByRole('button')).toHaveLength(0);
      noCallWaiting(h);
    },
    details: async () => {
      await h1('You have a payment');
      const summary = plain(document.querySelector('dl')!.textContent!);
      expect(summary).toBe(
        `FromNorthwind Trading LtdToErika MustermannAmount${money('200.00')}DescriptionInvoice 1FeePaid by you: taken off the amountTake it by${formatDate(DETAILS.expiresAt, 'en')}`,
      );
      expect(screen.getByText('A payment can be taken within 14 days of being sent. After that the money goes back to the sender.')).toBeTruthy();
      expectNotice(d());
      await waitFor(() => expect(button('Take the money').getAttribute('aria-busy')).toBeNull());
      expect(button('Refuse the payment').disabled).toBe(false);
      noCallWaiting(h);
    },
    loadingCountries: async () => {
      await screen.findByRole('heading', { level: 1, name: 'You have a payment' });
      await waitFor(() => expect(button('Take the money').getAttribute('aria-busy')).toBe('true'));
      expect(button('Refuse the payment').disabled).toBe(true);
      expect(alertsText()).toEqual([]);
      expect(h.q.loadCountries.waiting).toBe(1);
      expect(h.q.loadCountries.calls.at(-1)).toEqual(LINK);
    },
    confirmingRefusal: async () => {
      await h1('Refuse the payment?');
      expect(screen.getByText('The money goes back to Northwind Trading Ltd. You cannot take it afterwards.')).toBeTruthy();
      expectNotice(d());
      expect(button('Refuse the payment').disabled).toBe(false);
      expect(button('Back').disabled).toBe(false);
      noCallWaiting(h);
    },
    refusing: async () => {
      await screen.findByRole('heading', { level: 1, name: 'Refuse the payment?' });
      await waitFor(() => expect(button('Refuse the payment').getAttribute('aria-busy')).toBe('true'));
      expect(button('Back').disabled).toBe(true);
      expect(h.q.refusePayment.waiting).toBe(1);
      expect(h.q.refusePayment.calls.at(-1)).toEqual(LINK);
    },
    choosingCountry: async () => {
      const did = d();
      await h1('Where do you want the money?');
      const select = screen.getByLabelText('Country') as HTMLSelectElement;
      expect(select.value).toBe(did.country);
      expect([...select.options].map((o) => o.textContent)).toEqual(['Choose a country', 'Germany', 'France']);
      expect(select.disabled).toBe(false);
      expectFieldError(
        select,
        did.notice === 'missing' ? 'Choose a country.' : did.notice === 'noMethods' ? 'This payment cannot be paid out in Germany. Choose another country.' : null,
      );
      expectNotice(did);
      expect(button('Continue').disabled).toBe(false);
      expect(button('Back').disabled).toBe(false);
      noCallWaiting(h);
    },
    loadingMethods: async () => {
      await screen.findByRole('heading', { level: 1, name: 'Where do you want the money?' });
      await waitFor(() => expect(button('Continue').getAttribute('aria-busy')).toBe('true'));
      expect((screen.getByLabelText('Country') as HTMLSelectElement).disabled).toBe(true);
      expect(h.q.loadMethods.waiting).toBe(1);
      expect(h.q.loadMethods.calls.at(-1)).toEqual({ ...LINK, countryCode: d().country });
    },
    choosingMethod: async () => {
      const did = d();
      await h1('How do you want to be paid?');
      const group = screen.getByRole('group', { name: 'Payout method' });
      const radios = within(group).getAllByRole('radio') as HTMLInputElement[];
      expect(radios.map((r) => r.labels?.[0]?.textContent)).toEqual(['To a card', 'Local bank transfer']);
      expect(radios.filter((r) => r.checked).map((r) => r.value)).toEqual(did.method ? [did.method] : []);
      expect(describedText(group)).toBe(did.notice === 'missing' ? 'Choose how you want to be paid.' : '');
      expectNotice(did);
      expect(button('Continue').disabled).toBe(false);
      noCallWaiting(h);
    },
    loadingForm: async () => {
      await screen.findByRole('heading', { level: 1, name: 'How do you want to be paid?' });
      await waitFor(() => expect(button('Continue').getAttribute('aria-busy')).toBe('true'));
      expect(h.q.loadForm.waiting).toBe(1);
      expect(h.q.loadForm.calls.at(-1)).toEqual({ ...LINK, countryCode: 'DE', method: 'oct', currencyCode: 'EUR' });
    },
    filling: async () => {
      const did = d();
      await h1('Your details');
      expect(plain(document.querySelector('dl')!.textContent!)).toBe(`MethodTo a cardAmount${money('200.00')}Fee${money('2.00')}You receive${money('198.00')}`);
      const holder = screen.getByLabelText('Name on the card') as HTMLInputElement;
      const card = screen.getByLabelText('Card number') as HTMLInputElement;
      expect(holder.value).toBe(did.values.cardHolderName ?? '');
      expect(card.value).toBe(did.values.cardNumber ?? '');
      expect(holder.disabled || card.disabled).toBe(false);
      expectFieldError(card, did.fieldErrors ? 'Check the card number: its check digit does not match.' : null);
      expectFieldError(holder, null);
      const alerts = alertsText();
      if (did.otherError) expect(alerts).toEqual([`Your details were not accepted.Choose the currency of the account.`]);
      else expectNotice(did);
      const recent = screen.getByRole('region', { name: 'Your recent payments' });
      expect(
        within(recent)
          .getAllByRole('listitem')
          .map((li) => plain(li.textContent!)),
      ).toEqual([`${money('50.00')} · Acme GmbH · ${formatDate('2026-10-01T09:00:00.000Z', 'en')}Local bank transfer · DE · Already paid`]);
      await waitFor(() => expect(button('Send me the code').getAttribute('aria-busy')).toBeNull());
      expect(button('Back').disabled).toBe(false);
      noCallWaiting(h);
    },
    submitting: async () => {
      const did = d();
      await screen.findByRole('heading', { level: 1, name: 'Your details' });
      await waitFor(() => expect(button('Send me the code').getAttribute('aria-busy')).toBe('true'));
      expect(button('Back').disabled).toBe(true);
      expect(h.q.submitPayout.waiting).toBe(1);
      expect(h.q.submitPayout.calls.at(-1)).toEqual({ ...LINK, countryCode: 'DE', method: 'oct', currencyCode: 'EUR', paymentDetails: did.values });
    },
    code: async (s: Snap) => {
      const did = d();
      const approving = s.matches({ code: { entry: 'approving' } });
      const resending = s.matches({ code: { resend: 'resending' } });
      const heading = await screen.findByRole('heading', { level: 1, name: 'Enter the code' });
      if (!approving && !resending) await waitFor(() => expect(document.activeElement === heading || document.activeElement?.tagName === 'BUTTON').toBe(true));
      expect(screen.getByText(`We sent a code to ${did.sentTo}. Enter it to confirm where the money goes.`)).toBeTruthy();
      const field = screen.getByLabelText('Code') as HTMLInputElement;
      expect(field.getAttribute('autocomplete')).toBe('one-time-code');
      expectFieldError(field, did.codeError ? 'The code is wrong (4 tries left).' : null);
      if (!approving && !resending) expectNotice(did);
      const resend = button('Send a new code');
      if (approving) {
        await waitFor(() => expect(button('Confirm').getAttribute('aria-busy')).toBe('true'));
        expect(h.q.approvePayout.waiting).toBe(1);
        expect(h.q.approvePayout.calls.at(-1)).toEqual({ ...LINK, operationId: OPERATION.operationId, approvalCode: did.code });
      } else if (resending) {
        await waitFor(() => expect(resend.getAttribute('aria-busy')).toBe('true'));
        expect(h.q.resendCode.waiting).toBe(1);
        expect(h.q.resendCode.calls.at(-1)).toEqual({ ...LINK, operationId: OPERATION.operationId });
      } else {
        await waitFor(() => expect(button('Confirm').getAttribute('aria-busy')).toBeNull());
        // a new code only once the wait is over
        expect(resend.disabled).toBe(!did.resendOpen);
        if (did.resendOpen) expect(screen.queryByText('You can ask for a new code a little later.')).toBeNull();
        else expect(screen.getByText('You can ask for a new code a little later.')).toBeTruthy();
        noCallWaiting(h);
      }
    },
    done: async () => {
      await h1('On its way');
      expect(screen.getByRole('status').textContent).toBe('The money is on its way to you. It arrives by the method you chose; we sent you an e-mail as well.');
      expect(screen.queryAllByRole('button')).toHaveLength(0);
      noCallWaiting(h);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: H) {
  const click = (name: RegExp | string) => act(() => fireEvent.click(button(name)));
  const answer =
    (id: keyof H['q']) =>
    async ({ event }: { event: ModelEvent }) =>
      settleFromEvent(h.q[id] as AnswerQueue<unknown, unknown>, event as SystemEvent);
  const answers = Object.fromEntries(
    (Object.keys(h.q) as (keyof H['q'])[]).flatMap((id) => [
      [`xstate.done.actor.${id}`, answer(id)],
      [`xstate.error.actor.${id}`, answer(id)],
    ]),
  );
  return {
    RETRY: async () => click('Try again'),
    BACK: async () => click('Back'),
    'PAYMENT.TAKE': async () => click('Take the money'),
    'PAYMENT.REFUSE': async () => click('Refuse the payment'),
    'REFUSE.CONFIRM': async () => click('Refuse the payment'),
    'COUNTRY.CHOOSE': async ({ event }: { event: ModelEvent }) =>
      act(() => fireEvent.change(screen.getByLabelText('Country'), { target: { value: (event as Extract<PayeeEvent, { type: 'COUNTRY.CHOOSE' }>).countryCode } })),
    NEXT: async () => click('Continue'),
    'METHOD.CHOOSE': async () => act(() => fireEvent.click(screen.getByRole('radio', { name: 'To a card' }))),
    'FIELDS.CHANGE': async ({ event }: { event: ModelEvent }) => {
      const values = (event as Extract<PayeeEvent, { type: 'FIELDS.CHANGE' }>).values;
      const holder = screen.getByLabelText('Name on the card') as HTMLInputElement;
      const card = screen.getByLabelText('Card number') as HTMLInputElement;
      if (holder.value !== values.cardHolderName) act(() => fireEvent.change(holder, { target: { value: values.cardHolderName } }));
      if (card.value !== values.cardNumber) act(() => fireEvent.change(card, { target: { value: values.cardNumber } }));
    },
    'DETAILS.SUBMIT': async () => click('Send me the code'),
    'CODE.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      act(() => fireEvent.change(screen.getByLabelText('Code'), { target: { value: (event as Extract<PayeeEvent, { type: 'CODE.SUBMIT' }>).code } }));
      click('Confirm');
    },
    'CODE.RESEND': async () => click('Send a new code'),
    [AFTER_WAIT.type]: async ({ event }: { event: ModelEvent }) => act(() => h.actor.send(event as never)),
    ...answers,
  };
}

/* ------------------------------------------------------------------------------ the paths */

const model = new TestModel(globalPayeeMachine, {
  input: LINK,
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

const labelOf = (e: ModelEvent) => {
  const short = e.type
    .replace(/^xstate\.done\.actor\./, 'done.')
    .replace(/^xstate\.error\.actor\./, 'error.')
    .replace(/^xstate\.after\.(\w+)\..*$/, 'after.$1');
  if ('output' in e) {
    const o = e.output as { ok?: boolean; code?: string; methods?: unknown[] };
    return `${short}(${o.ok ? (o.methods?.length === 0 ? 'none' : 'ok') : o.code})`;
  }
  return short;
};

describe('global-pay payee model', () => {
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

const STATUS_WORDS: [GlobalPaymentStatus, string, string][] = [
  ['processing', 'Already taken', 'This payment was taken and is on its way.'],
  ['completed', 'Already paid', 'This payment was taken and has been paid out.'],
  ['refused', 'Payment refused', 'The payment was refused. The money went back to the sender.'],
  ['canceled', 'Payment canceled', 'The sender canceled this payment.'],
  ['expired', 'Payment expired', 'This payment was not taken in time. The money went back to the sender.'],
  ['returned', 'Payment returned', 'The payout could not be delivered and came back. The money went back to the sender.'],
  ['failed', 'Payout failed', 'The payout could not be made. The money went back to the sender.'],
  ['awaitingApproval', 'Payment not available', 'This payment cannot be taken now.'],
];

describe('global-pay payee: a payment no longer waiting', () => {
  it.each(STATUS_WORDS)('%s: a clear end screen', async (status, title, text) => {
    const h = mount();
    await act(async () => h.q.loadDetails.answer({ ok: true, details: { ...DETAILS, status } }));
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
    expect((screen.queryByRole('status') ?? screen.getByRole('alert')).textContent).toBe(text);
    expect(screen.queryByRole('button', { name: 'Take the money' })).toBeNull();
    h.actor.stop();
  });
});

/** The chart with actors that never answer (the replay sends their answers as events). */
const replayable = globalPayeeMachine.provide({
  actors: Object.fromEntries(Object.keys(globalPayeeMachine.implementations.actors).map((name) => [name, fromPromise(() => new Promise<never>(() => undefined))])) as never,
});

describe('global-pay payee model: the chart', () => {
  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(globalPayeeMachine, paths)).toEqual([]);
  });

  it('every transition of the chart is taken by some path', () => {
    const taken = transitionsTaken(replayable, LINK, sequences as never);
    const missing = listTransitions(globalPayeeMachine)
      .filter((t) => !taken.has(t.key))
      .map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
