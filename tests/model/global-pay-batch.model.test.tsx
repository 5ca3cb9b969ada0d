/**
 * Model-based test of a global-pay batch, the sender's side (machines/global-pay-batch): paths
 * generated from the chart drive the REAL GlobalPayBatchView (and, while approving, the real
 * ApprovalView of the approval machine the chart invokes as its `approval` child) through Testing
 * Library, in English (the app catalog, loaded by tests/ui/setup.ts). The promise actors (loadAccounts,
 * uploadBatch, editBatch, discardBatch, quoteBatch, submitBatch, cancelBatch) are test doubles
 * answered by the paths' `xstate.done.actor.<id>` / `xstate.error.actor.<id>` events; the
 * approval child ends through its own screen (the code typed and approveTransfer answered, or
 * "Cancel the transfer" and its call answered), as in the mass transfer model test.
 *
 * Every step checks the page against what the TEST did (`Did`, worked out from the events performed
 * and the answers given), not against the chart's context: the heading of each step, the form as
 * filled and its errors, "the same file before" with its date, the table of lines to fix, the
 * draft's table (name, e-mail, country, amount, who pays the fee, the methods offered and those
 * forbidden, the status; a removed payment struck with Restore; a payment outside a method's limits
 * marked), the selection and what it may change, the dialogs, the summary (the fees to hold being
 * worked out, shown, or not known), the held totals, the alerts, the buttons busy or disabled, and what each actor was called with (the upload's account,
 * name, file and ignoreIdenticalBatch; each edit; the submission's idempotency key: made with the
 * summary, kept after no answer, new after a refusal).
 *
 * To keep the graph small (serialize: the value and the few context fields the page shows) the
 * form is filled along a script, the draft is edited along a script (remove and restore Jane;
 * select Erika, set her fee side; pick wire and forbid it), and the actors' every answer is given
 * only on the main line. Every chart transition is still taken (checked below).
 *
 * Proof it can fail (2026-11-27): I made the draft's "Restore" button send PAYMENT.REMOVE instead
 * of PAYMENT.RESTORE once: the path through PAYMENT.RESTORE went red (the edit call asked a
 * removal: the saving step's check of the editBatch input failed); restored since.
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import { testAccount } from '../account-fixture.ts';
import type { Failure } from '../../api/envelope.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../../api/transfers.ts';
import { approvalMachine, type ApprovalEvent, type ApproveResult, type CancelResult, type ResendResult } from '../../machines/approval/approval.machine.ts';
import {
  globalPayBatchMachine,
  type BatchResult,
  type DraftEdit,
  type GlobalBatch,
  type GlobalPayError,
  type GlobalPayEvent,
  type GlobalPayment,
  type GlobalPaySubmitted,
  type LoadResult,
  type QuoteResult,
  type SubmitResult,
  type UploadRequest,
  type UploadResult,
} from '../../machines/global-pay-batch/global-pay-batch.machine.ts';
import { GlobalPayBatchView } from '../../src/features/global-pay/batch-view.tsx';
import { formatDateTime, formatMoney } from '../../src/lib/format.ts';
import { getUiLanguageTag, i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, matchesPath, recordingExecutors, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';
import { settleFromEvent } from './settle.ts';

type Snap = SnapshotFrom<typeof globalPayBatchMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = GlobalPayEvent | SystemEvent;

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const money = (amount: string) => plain(formatMoney(amount, 'EUR', 'en'));

/* ------------------------------------------------------------------------------ fixtures */

const account = testAccount;
const ACCOUNTS = [account(101, '1500.00'), account(102, '900.00')];
const PAYEES = new File(['beneficiaryName,beneficiaryEmail,beneficiaryCountryCode,amount,description\nErika Mustermann,erika@example.com,DE,200.00,Invoice 1\n'], 'global.csv', {
  type: 'text/csv',
});
const IDENTICAL_DATE = '2026-11-20T09:30:00.000Z';

const ERIKA = 501;
const HANS = 502;
const JANE = 503;
const methods = (forbidWire = false) => [
  { name: 'wire' as const, forbidden: forbidWire },
  { name: 'eft' as const, forbidden: false },
  { name: 'oct' as const, forbidden: false },
];
const payment = (id: number, name: string, email: string, country: string, amount: string, over: Partial<GlobalPayment> = {}): GlobalPayment => ({
  id,
  line: id - 499,
  amount,
  description: '',
  beneficiaryType: 'individual',
  beneficiaryName: name,
  beneficiaryEmail: email,
  beneficiaryCountryCode: country,
  feeShare: 'sender',
  paymentMethods: methods(),
  status: 'draft',
  heldFee: '0.00',
  expiresAt: null,
  transactionId: null,
  ...over,
});
const batchOf = (name: string, over: { erika?: Partial<GlobalPayment>; jane?: Partial<GlobalPayment>; status?: GlobalBatch['status'] } = {}): GlobalBatch => {
  const payments = [
    payment(ERIKA, 'Erika Mustermann', 'erika@example.com', 'DE', '200.00', over.erika),
    payment(HANS, 'Hans Meier', 'hans@example.com', 'AT', '50.00', { feeShare: 'beneficiary' }),
    payment(JANE, 'Jane Roe', 'jane@example.com', 'FR', '30.00', over.jane),
  ];
  const live = payments.filter((p) => p.status !== 'deleted');
  const total = live.reduce((sum, p) => sum + Number(p.amount), 0).toFixed(2);
  return {
    batchId: 55,
    name: 'March',
    accountId: 102,
    currency: 'EUR',
    status: over.status ?? 'draft',
    createdDate: '2026-11-27T09:00:00.000Z',
    submittedDate: null,
    expireDays: 14,
    count: live.length,
    total,
    fee: '0.00',
    transactionId: null,
    payments,
    ...(name ? {} : {}),
  };
};
/** The draft as uploaded; Jane removed; Erika's fee paid by her; wire forbidden for Erika; the batch canceled. */
const B0 = batchOf('B0');
const B1 = batchOf('B1', { jane: { status: 'deleted' } });
const B2 = batchOf('B2', { erika: { feeShare: 'beneficiary' } });
const B3 = batchOf('B3', { erika: { paymentMethods: methods(true) } });
const B_CANCELED = batchOf('canceled', { erika: { status: 'canceled' }, jane: { status: 'deleted' }, status: 'canceled' });
const which = (b: GlobalBatch | null) => (b === null ? null : b === B0 ? 'B0' : b === B1 ? 'B1' : b === B2 ? 'B2' : b === B3 ? 'B3' : b === B_CANCELED ? 'canceled' : 'other');

const vfError = (param: string, code: string, params?: Record<string, string | number>): GlobalPayError => ({
  param,
  code,
  description: `${param} is wrong`,
  ...(params ? { params } : {}),
});
/** The upload refuses lines (given out of order) ... */
const LINE_ERRORS = [vfError('rows.4.amount', 'amountFormat'), vfError('rows.2.beneficiaryEmail', 'notEmail')];
/** ... or the whole file. */
const FILE_ERRORS = [vfError('file', 'csvMissingColumn', { column: 'amount' })];
/** The submission refuses Erika's amount: above a method's maximum. */
const AMOUNT_ERRORS = [vfError(`payments.${ERIKA}.amount`, 'aboveMaximum', { amount: '100.00', currency: 'EUR' })];
const TABLES: Record<'lines', { title: string; rows: string[][] }> = {
  lines: {
    title: '2 lines need fixing. Nothing was sent.',
    rows: [
      ['2', 'beneficiaryEmail', 'Enter an e-mail address.'],
      ['4', 'amount', 'Enter an amount, such as 12.50.'],
    ],
  },
};

const REFUSAL: Failure = { responseCode: 'TA1', responseDescription: 'The batch is no longer a draft' };
const APPROVAL_REFUSAL: Failure = { responseCode: 'TA1', responseDescription: 'Too many wrong codes: the transfer was refused' };
const EXPIRES_AT = new Date(Date.now() + 86_400_000).toISOString();
const submitted = (approveType: 'none' | 'sms'): GlobalPaySubmitted => ({
  transactionId: 9200,
  status: approveType === 'none' ? 'processing' : 'pending',
  approveType,
  approvalSentTo: approveType === 'sms' ? '+370 *** **12' : null,
  amount: '250.00',
  fee: '6.00',
  currency: 'EUR',
  expiresAt: EXPIRES_AT,
});

/** What submitting will hold, as worked out for the summary (Erika's largest fee; Hans pays his). */
const QUOTE = { fee: '6.00', total: '256.00' };

/* ------------------------------------------------------------------------------ the events */

const userEvents = {
  'LOAD.RETRY': [{ type: 'LOAD.RETRY' }],
  'FORM.ACCOUNT': [{ type: 'FORM.ACCOUNT', accountId: 102 }],
  'FORM.NAME': [{ type: 'FORM.NAME', batchName: 'March' }],
  'FORM.FILE': [{ type: 'FORM.FILE', file: { name: PAYEES.name, content: PAYEES } }],
  UPLOAD: [{ type: 'UPLOAD' }],
  'IDENTICAL.YES': [{ type: 'IDENTICAL.YES' }],
  'IDENTICAL.NO': [{ type: 'IDENTICAL.NO' }],
  'DRAFT.SELECT': [{ type: 'DRAFT.SELECT', ids: [ERIKA] }],
  'DRAFT.METHOD': [{ type: 'DRAFT.METHOD', method: 'wire' }],
  'PAYMENT.REMOVE': [{ type: 'PAYMENT.REMOVE', id: JANE }],
  'PAYMENT.RESTORE': [{ type: 'PAYMENT.RESTORE', id: JANE }],
  'FEE.SET': [{ type: 'FEE.SET', feeShare: 'beneficiary' }],
  'METHOD.SET': [{ type: 'METHOD.SET', forbidden: true }],
  'DRAFT.DISCARD': [{ type: 'DRAFT.DISCARD' }],
  'DISCARD.CONFIRM': [{ type: 'DISCARD.CONFIRM' }],
  'DISCARD.KEEP': [{ type: 'DISCARD.KEEP' }],
  'DRAFT.CONTINUE': [{ type: 'DRAFT.CONTINUE' }],
  'SUMMARY.BACK': [{ type: 'SUMMARY.BACK' }],
  SUBMIT: [{ type: 'SUBMIT' }],
  'BATCH.CANCEL': [{ type: 'BATCH.CANCEL' }],
  'CANCEL.CONFIRM': [{ type: 'CANCEL.CONFIRM' }],
  'CANCEL.KEEP': [{ type: 'CANCEL.KEEP' }],
  'BATCH.NEW': [{ type: 'BATCH.NEW' }],
} satisfies { [K in GlobalPayEvent['type']]: Extract<GlobalPayEvent, { type: K }>[] };
const one = <K extends keyof typeof userEvents>(type: K) => userEvents[type][0]!;

const done = (id: string, output: unknown): SystemEvent => ({ type: `xstate.done.actor.${id}`, output });
const error = (id: string): SystemEvent => ({ type: `xstate.error.actor.${id}`, error: new Error('offline') });

const LOAD_ANSWERS: SystemEvent[] = [
  done('loadAccounts', { ok: true, accounts: ACCOUNTS } satisfies LoadResult),
  done('loadAccounts', { ok: false, code: 'failed', failure: REFUSAL } satisfies LoadResult),
  error('loadAccounts'),
];
const UPLOAD_ANSWERS: SystemEvent[] = [
  done('uploadBatch', { ok: true, batch: B0 } satisfies UploadResult),
  done('uploadBatch', { ok: false, code: 'identical', batchId: 41, date: IDENTICAL_DATE } satisfies UploadResult),
  done('uploadBatch', { ok: false, code: 'rows', errors: LINE_ERRORS } satisfies UploadResult),
  done('uploadBatch', { ok: false, code: 'rows', errors: FILE_ERRORS } satisfies UploadResult),
  done('uploadBatch', { ok: false, code: 'failed', failure: REFUSAL } satisfies UploadResult),
  error('uploadBatch'),
];
const SUBMIT_ANSWERS: SystemEvent[] = [
  done('submitBatch', { ok: true, submitted: submitted('none') } satisfies SubmitResult),
  done('submitBatch', { ok: true, submitted: submitted('sms') } satisfies SubmitResult),
  done('submitBatch', { ok: false, code: 'rows', errors: AMOUNT_ERRORS } satisfies SubmitResult),
  done('submitBatch', { ok: false, code: 'network' } satisfies SubmitResult),
  done('submitBatch', { ok: false, code: 'failed', failure: REFUSAL } satisfies SubmitResult),
  error('submitBatch'),
];
const APPROVAL_OUTCOMES: SystemEvent[] = [
  done('approval', { result: 'approved', status: 'processing' }),
  done('approval', { result: 'canceled' }),
  done('approval', { result: 'failed', reason: 'expired', failure: null }),
  done('approval', { result: 'failed', reason: 'failed', failure: APPROVAL_REFUSAL }),
];

/** The batch each edit answers (the edit known from the draft it was asked on). */
function editAnswer(s: Snap): GlobalBatch {
  const c = s.context;
  if (c.batch === B0 && c.selection.length === 0) return B1; // Jane removed
  if (c.batch === B1) return B0; // Jane restored
  if (c.batch === B0 && c.method === null) return B2; // Erika's fee paid by her
  return B3; // wire forbidden for Erika
}

const isClean = (s: Snap) => s.context.failure === null && s.context.errors.length === 0 && !s.context.missing && !s.context.unanswered;

function formScript(s: Snap): GlobalPayEvent[] {
  const f = s.context.form;
  // discarded, or a new batch after one ended (the account kept): the path ends here
  if (s.context.discarded || (f.accountId === 102 && f.batchName === '')) return [];
  if (f.batchName === '') return [one('UPLOAD'), one('FORM.NAME')];
  if (f.file === null) return [one('FORM.FILE')];
  if (f.accountId === 101) return [one('FORM.ACCOUNT')];
  return [one('UPLOAD')];
}

function draftScript(s: Snap): GlobalPayEvent[] {
  const c = s.context;
  if (c.failure) return [one('PAYMENT.REMOVE')];
  // a payment outside a method's limits: continued again (the platform checks again)
  if (c.errors.length > 0) return [one('DRAFT.CONTINUE')];
  if (c.batch === B0 && c.selection.length === 0) return [one('PAYMENT.REMOVE'), one('DRAFT.SELECT'), one('DRAFT.DISCARD')];
  if (c.batch === B1) return [one('PAYMENT.RESTORE'), one('DRAFT.CONTINUE')];
  if (c.batch === B0 && c.method === null) return [one('FEE.SET'), one('DRAFT.METHOD')];
  if (c.batch === B0) return [one('METHOD.SET')];
  return [];
}

function eventsFor(s: Snap): ModelEvent[] {
  const c = s.context;
  const all: ModelEvent[] = [];
  if (s.matches('loading')) all.push(...(c.loadFailure ? LOAD_ANSWERS.slice(0, 1) : LOAD_ANSWERS));
  else if (s.matches('loadFailed')) all.push(one('LOAD.RETRY'));
  else if (s.matches('form')) {
    if (c.failure) all.push(one('UPLOAD'));
    else if (c.errors.length > 0) all.push(one('FORM.FILE'));
    else if (c.missing) all.push(one('FORM.NAME'));
    else all.push(...formScript(s));
  } else if (s.matches('uploading')) all.push(...(c.ignoreIdentical ? UPLOAD_ANSWERS.slice(0, 1) : UPLOAD_ANSWERS));
  else if (s.matches('identical')) all.push(one('IDENTICAL.YES'), one('IDENTICAL.NO'));
  else if (s.matches('draft')) all.push(...draftScript(s));
  else if (s.matches('saving')) {
    const first = c.batch === B0 && c.selection.length === 0;
    all.push(done('editBatch', { ok: true, batch: editAnswer(s) } satisfies BatchResult));
    if (first) all.push(done('editBatch', { ok: false, code: 'failed', failure: REFUSAL } satisfies BatchResult), error('editBatch'));
  } else if (s.matches('discardAsked')) all.push(one('DISCARD.KEEP'), one('DISCARD.CONFIRM'));
  else if (s.matches('discarding'))
    all.push(
      done('discardBatch', { ok: true, batch: { ...B0, status: 'rejected' } } satisfies BatchResult),
      done('discardBatch', { ok: false, code: 'failed', failure: REFUSAL } satisfies BatchResult),
      error('discardBatch'),
    );
  else if (s.matches({ summary: 'quoting' }))
    all.push(
      done('quoteBatch', { ok: true, quote: QUOTE } satisfies QuoteResult),
      done('quoteBatch', { ok: false, code: 'failed', failure: REFUSAL } satisfies QuoteResult),
      error('quoteBatch'),
    );
  else if (s.matches('summary')) {
    // the fees not worked out: the summary says so, and that side trip ends here
    if (c.quote === null) return [];
    all.push(one('SUBMIT'));
    if (isClean(s)) all.push(one('SUMMARY.BACK'));
  } else if (s.matches('submitting')) all.push(...(c.unanswered ? [SUBMIT_ANSWERS[1]!, SUBMIT_ANSWERS[4]!] : SUBMIT_ANSWERS));
  else if (s.matches('approving')) all.push(...APPROVAL_OUTCOMES);
  else if (s.matches('done')) {
    if (c.failure) return [];
    all.push(one('BATCH.CANCEL'), one('BATCH.NEW'));
  } else if (s.matches('cancelAsked')) all.push(one('CANCEL.KEEP'), one('CANCEL.CONFIRM'));
  else if (s.matches('canceling'))
    all.push(
      done('cancelBatch', { ok: true, batch: B_CANCELED } satisfies BatchResult),
      done('cancelBatch', { ok: false, code: 'failed', failure: REFUSAL } satisfies BatchResult),
      error('cancelBatch'),
    );
  else if (s.matches('canceled') || s.matches('failed')) all.push(one('BATCH.NEW'));
  return all.filter((e) => e.type.startsWith('xstate.') || s.can(e as GlobalPayEvent));
}

/** Only what the page shows, never the random key. */
const serialize = (s: Snap) => {
  const c = s.context;
  return JSON.stringify({
    value: s.value,
    form: [c.form.accountId, c.form.batchName, c.form.file?.name ?? null],
    missing: c.missing,
    errors: c.errors.map((e) => e.param),
    identical: c.identical?.date ?? null,
    ignore: c.ignoreIdentical,
    batch: which(c.batch),
    selection: c.selection,
    method: c.method,
    failure: c.failure?.responseCode ?? null,
    unanswered: c.unanswered,
    submitted: c.submitted?.approveType ?? null,
    quote: c.quote?.fee ?? null,
    loadFailure: c.loadFailure?.code ?? null,
    outcome: c.outcome?.reason ?? null,
    discarded: c.discarded,
  });
};

/* ------------------------------------------------------------------------------ what the test did */

interface Did {
  loadFailure: 'failed' | 'network' | null;
  form: { accountId: number | null; batchName: string; file: File | null };
  missing: boolean;
  errors: 'lines' | 'file' | 'amount' | null;
  failure: 'refused' | 'network' | null;
  identical: boolean;
  ignoreIdentical: boolean;
  batch: GlobalBatch | null;
  selection: number[];
  method: string | null;
  /** the edit under way */
  edit: DraftEdit | null;
  unanswered: boolean;
  newKeyDue: boolean;
  newKey: boolean;
  submitted: 'none' | 'sms' | null;
  /** the summary's fees: being worked out, shown, or not known */
  quote: 'pending' | 'ok' | 'none';
  outcome: 'expired' | 'failed' | null;
  discarded: boolean;
  canceledBatch: boolean;
}
const fresh = (): Did => ({
  loadFailure: null,
  form: { accountId: null, batchName: '', file: null },
  missing: false,
  errors: null,
  failure: null,
  identical: false,
  ignoreIdentical: false,
  batch: null,
  selection: [],
  method: null,
  edit: null,
  unanswered: false,
  newKeyDue: true,
  newKey: true,
  submitted: null,
  quote: 'pending',
  outcome: null,
  discarded: false,
  canceledBatch: false,
});

function record(did: Did, event: ModelEvent): void {
  const out = (event as SystemEvent).output as Record<string, any> | undefined;
  const formChanged = () => Object.assign(did, { errors: null, missing: false, identical: false });
  switch (event.type) {
    case 'xstate.done.actor.loadAccounts':
      if (out!.ok) Object.assign(did, { loadFailure: null, form: { ...did.form, accountId: 101 } });
      else did.loadFailure = 'failed';
      return;
    case 'xstate.error.actor.loadAccounts':
      did.loadFailure = 'network';
      return;
    case 'FORM.ACCOUNT':
      did.form = { ...did.form, accountId: event.accountId };
      return void formChanged();
    case 'FORM.NAME':
      did.form = { ...did.form, batchName: event.batchName };
      return void formChanged();
    case 'FORM.FILE':
      did.form = { ...did.form, file: event.file?.content as File };
      return void formChanged();
    case 'UPLOAD': {
      const ready = did.form.accountId !== null && did.form.batchName.trim() !== '' && did.form.file !== null;
      if (ready) Object.assign(did, { errors: null, failure: null, discarded: false, ignoreIdentical: false });
      else did.missing = true;
      return;
    }
    case 'xstate.done.actor.uploadBatch':
      if (out!.ok) Object.assign(did, { batch: out!.batch, selection: [], method: null, failure: null, errors: null });
      else if (out!.code === 'identical') did.identical = true;
      else if (out!.code === 'rows') did.errors = out!.errors === LINE_ERRORS ? 'lines' : 'file';
      else did.failure = 'refused';
      return;
    case 'xstate.error.actor.uploadBatch':
      did.failure = 'network';
      return;
    case 'IDENTICAL.YES':
      Object.assign(did, { identical: false, ignoreIdentical: true });
      return;
    case 'IDENTICAL.NO':
      did.identical = false;
      return;
    case 'DRAFT.SELECT':
      did.selection = event.ids;
      return;
    case 'DRAFT.METHOD':
      did.method = event.method;
      return;
    case 'PAYMENT.REMOVE':
      Object.assign(did, { failure: null, edit: { kind: 'remove', id: event.id } });
      return;
    case 'PAYMENT.RESTORE':
      Object.assign(did, { failure: null, edit: { kind: 'restore', id: event.id } });
      return;
    case 'FEE.SET':
      Object.assign(did, { failure: null, edit: { kind: 'feeSide', ids: did.selection, feeShare: event.feeShare } });
      return;
    case 'METHOD.SET':
      Object.assign(did, { failure: null, edit: { kind: 'method', ids: did.selection, method: did.method, forbidden: event.forbidden } });
      return;
    case 'xstate.done.actor.editBatch':
      if (out!.ok) did.batch = out!.batch;
      else did.failure = 'refused';
      return;
    case 'xstate.error.actor.editBatch':
      did.failure = 'network';
      return;
    case 'DRAFT.DISCARD':
      did.failure = null;
      return;
    case 'xstate.done.actor.discardBatch':
      if (out!.ok) Object.assign(did, fresh(), { form: { ...fresh().form, accountId: did.form.accountId }, discarded: true });
      else did.failure = 'refused';
      return;
    case 'xstate.error.actor.discardBatch':
      did.failure = 'network';
      return;
    case 'DRAFT.CONTINUE':
      Object.assign(did, { newKeyDue: true, unanswered: false, failure: null, errors: null, quote: 'pending' });
      return;
    case 'xstate.done.actor.quoteBatch':
      did.quote = out!.ok ? 'ok' : 'none';
      return;
    case 'xstate.error.actor.quoteBatch':
      did.quote = 'none';
      return;
    case 'SUMMARY.BACK':
      did.failure = null;
      return;
    case 'SUBMIT':
      Object.assign(did, { newKey: did.newKeyDue, newKeyDue: false, failure: null });
      return;
    case 'xstate.done.actor.submitBatch':
      if (out!.ok) Object.assign(did, { unanswered: false, failure: null, submitted: out!.submitted.approveType });
      else if (out!.code === 'rows') did.errors = 'amount';
      else if (out!.code === 'network') Object.assign(did, { unanswered: true, failure: 'network' });
      else Object.assign(did, { unanswered: false, failure: 'refused', newKeyDue: true });
      return;
    case 'xstate.error.actor.submitBatch':
      Object.assign(did, { unanswered: true, failure: 'network' });
      return;
    case 'xstate.done.actor.approval':
      if (out!.result === 'failed') did.outcome = out!.reason;
      return;
    case 'BATCH.CANCEL':
      did.failure = null;
      return;
    case 'xstate.done.actor.cancelBatch':
      if (out!.ok) Object.assign(did, { batch: out!.batch, canceledBatch: true });
      else did.failure = 'refused';
      return;
    case 'xstate.error.actor.cancelBatch':
      did.failure = 'network';
      return;
    case 'BATCH.NEW':
      Object.assign(did, fresh(), { form: { ...fresh().form, accountId: did.form.accountId } });
      return;
  }
}

/* ------------------------------------------------------------------------------ the harness */

function mount() {
  const q = {
    loadAccounts: new AnswerQueue<unknown, LoadResult>(),
    uploadBatch: new AnswerQueue<UploadRequest, UploadResult>(),
    editBatch: new AnswerQueue<{ batchId: number; edit: DraftEdit }, BatchResult>(),
    discardBatch: new AnswerQueue<{ batchId: number }, BatchResult>(),
    submitBatch: new AnswerQueue<{ batchId: number; idempotencyKey: string }, SubmitResult>(),
    cancelBatch: new AnswerQueue<{ batchId: number }, BatchResult>(),
    quoteBatch: new AnswerQueue<{ accountId: number; payments: GlobalPayment[] }, QuoteResult>(),
    approveTransfer: new AnswerQueue<{ transactionId: number; code: string; idempotencyKey: string }, ApproveResult>(),
    cancelTransfer: new AnswerQueue<{ transactionId: number; idempotencyKey: string }, CancelResult>(),
    resendApproval: new AnswerQueue<{ transactionId: number }, ResendResult>(),
  };
  const logic = globalPayBatchMachine.provide({
    actors: {
      loadAccounts: fromPromise(({ input }) => q.loadAccounts.next(input)),
      uploadBatch: fromPromise(({ input }) => q.uploadBatch.next(input)),
      editBatch: fromPromise(({ input }) => q.editBatch.next(input)),
      discardBatch: fromPromise(({ input }) => q.discardBatch.next(input)),
      submitBatch: fromPromise(({ input }) => q.submitBatch.next(input)),
      cancelBatch: fromPromise(({ input }) => q.cancelBatch.next(input)),
      quoteBatch: fromPromise(({ input }) => q.quoteBatch.next(input)),
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
      <GlobalPayBatchView actor={actor} batchesLink={<a href="/history/batch-transfers">See your batches</a>} />
    </I18nProvider>,
  );
  return { q, actor, did: fresh() };
}
type H = ReturnType<typeof mount>;

const h1 = (name: string) => screen.findByRole('heading', { level: 1, name });
const button = (name: RegExp | string) => screen.getByRole('button', { name }) as HTMLButtonElement;
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
const bodyRows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => plain(cell.textContent!)),
    );
const tableByCaption = (caption: string) => screen.getByRole('table', { name: caption });
const waiting = (h: H) => Object.values(h.q).reduce((n, q) => n + q.waiting, 0);

/** The draft's rows as the page must show them for the batch the test last got. */
function expectedRows(batch: GlobalBatch, marked: boolean): string[][] {
  const names: Record<string, string> = { wire: 'International wire (SWIFT)', eft: 'Local bank transfer', oct: 'To a card' };
  return batch.payments.map((p) => [
    p.status === 'deleted' ? '' : `Select ${p.beneficiaryName}`,
    // the name, the e-mail under it
    `${p.beneficiaryName}${p.beneficiaryEmail}`,
    p.beneficiaryCountryCode,
    money(p.amount),
    p.feeShare === 'sender' ? 'You' : 'The payee',
    p.paymentMethods.map((m) => (m.forbidden ? `${names[m.name]} (forbidden)` : names[m.name])).join(''),
    p.status === 'deleted' ? 'Removed' : marked && p.id === ERIKA ? 'DraftThe amount must be at most 100.00 EUR per transfer.' : 'Draft',
    p.status === 'deleted' ? 'Restore' : 'Remove',
  ]);
}

function stateChecks(h: H) {
  const d = () => h.did;
  const checkForm = async (busy: boolean) => {
    const did = d();
    await h1('Global pay');
    const from = screen.getByLabelText('Pay from') as HTMLSelectElement;
    expect(from.value).toBe(String(did.form.accountId));
    expect(from.disabled).toBe(busy);
    expect([...from.options].map((o) => plain(o.textContent!))).toEqual(['EUR account 101 · €1,500.00', 'EUR account 102 · €900.00']);
    const name = screen.getByLabelText('Batch name') as HTMLInputElement;
    expect(name.value).toBe(did.form.batchName);
    expect(name.disabled).toBe(busy);
    const file = screen.getByLabelText('CSV file') as HTMLInputElement;
    expect(file.type).toBe('file');
    expect(file.disabled).toBe(busy);
    if (did.form.file) expect(screen.getByText(`Chosen: ${did.form.file.name}`)).toBeTruthy();
    else expect(screen.queryByText(/^chosen:/i)).toBeNull();
    return { name, file };
  };
  return {
    loading: async () => {
      await h1('Global pay');
      expect(screen.getByText('Loading your accounts')).toBeTruthy();
      expect(h.q.loadAccounts.waiting).toBe(1);
    },
    loadFailed: async () => {
      await h1('Global pay');
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toContain('We could not load your accounts.');
      if (d().loadFailure === 'failed') expect(alert.textContent).toContain(REFUSAL.responseDescription);
      else expect(alert.textContent).not.toContain(REFUSAL.responseDescription);
      expect(button('Try again')).toBeTruthy();
      expect(h.q.loadAccounts.waiting).toBe(0);
    },
    form: async () => {
      const did = d();
      const { name, file } = await checkForm(false);
      expectFieldError(name, did.missing && did.form.batchName === '' ? 'Name the batch.' : null);
      expectFieldError(file, did.missing && did.form.file === null ? 'Choose a CSV file.' : did.errors === 'file' ? 'The file needs a column named amount.' : null);
      if (did.discarded) expect(screen.getByRole('status').textContent).toBe('The draft was discarded. Nothing was paid.');
      else expect(screen.queryByText(/draft was discarded/)).toBeNull();
      if (did.errors === 'lines') {
        expect(screen.getByText(TABLES.lines.title)).toBeTruthy();
        expect(screen.getByText('Correct the file and upload it again.')).toBeTruthy();
        const table = tableByCaption('Lines to fix');
        expect(
          within(table)
            .getAllByRole('columnheader')
            .map((c) => c.textContent),
        ).toEqual(['Line', 'Column', 'Problem']);
        expect(bodyRows(table)).toEqual(TABLES.lines.rows);
      } else expect(screen.queryByRole('table', { name: 'Lines to fix' })).toBeNull();
      const alerts = screen.queryAllByRole('alert');
      if (did.failure === 'network') expect(alerts.map((a) => a.textContent)).toEqual(['We could not reach the bank. Check your connection and try again.']);
      else if (did.failure === 'refused') expect(alerts.map((a) => a.textContent)).toEqual([`The file could not be uploaded.${REFUSAL.responseDescription}`]);
      else expect(alerts).toHaveLength(did.errors === 'lines' ? 1 : 0);
      await waitFor(() => expect(button('Upload the file').getAttribute('aria-busy')).toBeNull());
      expect(waiting(h)).toBe(0);
    },
    uploading: async () => {
      const did = d();
      await checkForm(true);
      await waitFor(() => expect(button('Upload the file').getAttribute('aria-busy')).toBe('true'));
      expect(screen.queryAllByRole('alert')).toHaveLength(0);
      expect(h.q.uploadBatch.waiting).toBe(1);
      const call = h.q.uploadBatch.calls.at(-1)!;
      expect(call).toEqual({ accountId: 102, batchName: 'March', file: { name: 'global.csv', content: PAYEES }, ignoreIdenticalBatch: did.ignoreIdentical });
      expect(call.file.content).toBe(PAYEES);
    },
    identical: async () => {
      await h1('Upload the same file again?');
      const date = plain(formatDateTime(IDENTICAL_DATE, getUiLanguageTag()));
      expect(plain(screen.getByRole('status').textContent!)).toBe(`A batch with the same file was uploaded on ${date}.Upload it again as a new batch?`);
      expect(button('Upload it again')).toBeTruthy();
      expect(button('No, go back')).toBeTruthy();
      expect(waiting(h)).toBe(0);
    },
    draft: async () => {
      const did = d();
      await h1('Check the draft batch');
      const batch = did.batch!;
      expect(which(batch)).not.toBe('other');
      expect(screen.getByText(`March: ${batch.count} payments, ${money(batch.total)}. Nothing is held until you submit the batch.`)).toBeTruthy();
      const table = tableByCaption('Payments in this batch');
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((c) => c.textContent),
      ).toEqual(['Select', 'Payee', 'Country', 'Amount', 'Fee paid by', 'Methods offered', 'Status', 'Actions']);
      expect(bodyRows(table)).toEqual(expectedRows(batch, did.errors === 'amount'));
      // a removed payment: struck, no checkbox, Restore
      for (const p of batch.payments) {
        const row = within(table).getByText(p.beneficiaryName).closest('tr')!;
        expect(within(row).getByText(p.beneficiaryName).tagName).toBe(p.status === 'deleted' ? 'DEL' : 'TD');
        if (p.status === 'deleted') expect(within(row).queryByRole('checkbox')).toBeNull();
        else expect((within(row).getByRole('checkbox', { name: `Select ${p.beneficiaryName}` }) as HTMLInputElement).checked).toBe(did.selection.includes(p.id));
      }
      // the selection: what it may change
      expect(screen.getByText(`Selected: ${did.selection.length}`)).toBeTruthy();
      const some = did.selection.length > 0;
      expect(button('I pay the fee').disabled).toBe(!some);
      expect(button('The payee pays the fee').disabled).toBe(!some);
      const method = screen.getByLabelText('Payout method') as HTMLSelectElement;
      expect(method.value).toBe(did.method ?? '');
      expect([...method.options].map((o) => o.textContent)).toEqual(
        some ? ['Choose a method', 'International wire (SWIFT)', 'Local bank transfer', 'To a card'] : ['Choose a method'],
      );
      expect(button('Forbid the method').disabled).toBe(!(some && did.method));
      expect(button('Allow the method').disabled).toBe(!(some && did.method));
      const alerts = screen.queryAllByRole('alert');
      if (did.errors === 'amount') {
        expect(alerts.map((a) => a.textContent)).toEqual(["One payment is outside a method's limits.Forbid that method for it or remove the payment, then continue again."]);
      } else if (did.failure === 'network') expect(alerts.map((a) => a.textContent)).toEqual(['We could not reach the bank. Check your connection and try again.']);
      else if (did.failure === 'refused') expect(alerts.map((a) => a.textContent)).toEqual([`The change was not made.${REFUSAL.responseDescription}`]);
      else expect(alerts).toHaveLength(0);
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(screen.queryByText('Saving the change')).toBeNull();
      expect(button('Continue').disabled).toBe(false);
      expect(button('Discard the draft').disabled).toBe(false);
      expect(waiting(h)).toBe(0);
    },
    saving: async () => {
      const did = d();
      await h1('Check the draft batch');
      expect(screen.getByText('Saving the change')).toBeTruthy();
      expect(button('Continue').disabled).toBe(true);
      expect(button('Discard the draft').disabled).toBe(true);
      for (const b of screen.getAllByRole('button', { name: /^(Remove|Restore) the payment to / })) expect((b as HTMLButtonElement).disabled).toBe(true);
      expect(screen.queryAllByRole('alert')).toHaveLength(0);
      expect(h.q.editBatch.waiting).toBe(1);
      expect(h.q.editBatch.calls.at(-1)).toEqual({ batchId: 55, edit: did.edit });
    },
    discardAsked: async () => {
      await h1('Check the draft batch');
      const dialog = screen.getByRole('dialog', { name: 'Discard the draft?' });
      expect(dialog.textContent).toContain('The batch and its payments are deleted. Nothing was held or paid.');
      expect((within(dialog).getByRole('button', { name: 'Yes, discard the draft' }) as HTMLButtonElement).disabled).toBe(false);
      expect((within(dialog).getByRole('button', { name: 'Keep the draft' }) as HTMLButtonElement).disabled).toBe(false);
      expect(waiting(h)).toBe(0);
    },
    discarding: async () => {
      const dialog = screen.getByRole('dialog', { name: 'Discard the draft?' });
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Yes, discard the draft' }).getAttribute('aria-busy')).toBe('true'));
      expect((within(dialog).getByRole('button', { name: 'Keep the draft' }) as HTMLButtonElement).disabled).toBe(true);
      expect(h.q.discardBatch.waiting).toBe(1);
      expect(h.q.discardBatch.calls.at(-1)).toEqual({ batchId: 55 });
    },
    'summary.quoting': async () => {
      await h1('Batch summary');
      expectSummary('Working them out…', '—');
      expect(button('Submit the batch').disabled).toBe(true);
      expect(button('Back to the draft').disabled).toBe(false);
      expect(screen.queryAllByRole('alert')).toHaveLength(0);
      // the fees of the payments not removed, on the batch's account
      expect(h.q.quoteBatch.waiting).toBe(1);
      expect(h.q.quoteBatch.calls.at(-1)).toEqual({ accountId: 102, payments: B1.payments.filter((p) => p.id !== JANE) });
      expect(waiting(h)).toBe(1);
    },
    'summary.ready': async () => {
      const did = d();
      await h1('Batch summary');
      expectSummaryOf(did);
      const alerts = screen.queryAllByRole('alert');
      if (did.failure === 'network') expect(alerts.map((a) => a.textContent)).toEqual(['We did not get an answer. Submit again: the batch will not be submitted twice.']);
      else if (did.failure === 'refused') expect(alerts.map((a) => a.textContent)).toEqual([`The batch was not accepted.${REFUSAL.responseDescription}`]);
      else expect(alerts).toHaveLength(0);
      await waitFor(() => expect(button('Submit the batch').getAttribute('aria-busy')).toBeNull());
      expect(button('Submit the batch').disabled).toBe(false);
      expect(button('Back to the draft').disabled).toBe(false);
      expect(waiting(h)).toBe(0);
    },
    submitting: async () => {
      const did = d();
      await h1('Batch summary');
      await waitFor(() => expect(button('Submit the batch').getAttribute('aria-busy')).toBe('true'));
      expectSummaryOf(did);
      expect(button('Back to the draft').disabled).toBe(true);
      expect(screen.queryAllByRole('alert')).toHaveLength(0);
      expect(h.q.submitBatch.waiting).toBe(1);
      const calls = h.q.submitBatch.calls;
      const { idempotencyKey, batchId } = calls.at(-1)!;
      expect(batchId).toBe(55);
      expect(idempotencyKey).toMatch(IDEMPOTENCY_KEY_PATTERN);
      const earlier = calls.slice(0, -1).map((c) => c.idempotencyKey);
      if (did.newKey) expect(earlier).not.toContain(idempotencyKey);
      else expect(idempotencyKey).toBe(earlier.at(-1));
    },
    approving: async () => {
      await h1('Approve the batch');
      expectTotals();
      expect(await screen.findByRole('heading', { level: 2, name: 'Enter the code we sent to +370 *** **12' })).toBeTruthy();
      expect(button('Cancel the transfer').disabled).toBe(false);
      expect(h.q.submitBatch.waiting + h.q.approveTransfer.waiting).toBe(0);
    },
    done: async () => {
      const did = d();
      await h1('Batch submitted');
      expect(screen.getByRole('status').textContent).toBe('The batch was submitted.Each payee gets an e-mail with a link to take the payment.');
      expectTotals();
      const alerts = screen.queryAllByRole('alert');
      if (did.failure === 'network') expect(alerts.map((a) => a.textContent)).toEqual(['We could not reach the bank. Check your connection and try again.']);
      else if (did.failure === 'refused') expect(alerts.map((a) => a.textContent)).toEqual([`The batch could not be canceled.${REFUSAL.responseDescription}`]);
      else expect(alerts).toHaveLength(0);
      expect(screen.getByRole('link', { name: 'See your batches' })).toBeTruthy();
      expect(button('Cancel the batch').disabled).toBe(false);
      expect(button('Start another batch').disabled).toBe(false);
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(waiting(h)).toBe(0);
    },
    cancelAsked: async () => {
      await h1('Batch submitted');
      const dialog = screen.getByRole('dialog', { name: 'Cancel the batch?' });
      expect(dialog.textContent).toContain('The payments not yet taken are canceled and their money comes back to your account.');
      expect((within(dialog).getByRole('button', { name: 'Yes, cancel the batch' }) as HTMLButtonElement).disabled).toBe(false);
      expect(waiting(h)).toBe(0);
    },
    canceling: async () => {
      const dialog = screen.getByRole('dialog', { name: 'Cancel the batch?' });
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Yes, cancel the batch' }).getAttribute('aria-busy')).toBe('true'));
      expect((within(dialog).getByRole('button', { name: 'Keep the batch' }) as HTMLButtonElement).disabled).toBe(true);
      expect(h.q.cancelBatch.waiting).toBe(1);
      expect(h.q.cancelBatch.calls.at(-1)).toEqual({ batchId: 55 });
    },
    canceled: async () => {
      await h1('Batch canceled');
      expect(screen.getByRole('status').textContent).toBe('The batch was canceled.The money of the payments not taken is available again.');
      expect(screen.getByRole('link', { name: 'See your batches' })).toBeTruthy();
      expect(button('Start another batch')).toBeTruthy();
      expect(waiting(h)).toBe(0);
    },
    failed: async () => {
      const outcome = d().outcome;
      await h1('Batch not approved');
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toContain(outcome === 'expired' ? 'The approval time ran out.' : 'The batch was not approved.');
      expect(alert.textContent).toContain('No payment was made and the money held for the batch is available again.');
      if (outcome === 'failed') expect(alert.textContent).toContain(APPROVAL_REFUSAL.responseDescription);
      expect(button('Start another batch')).toBeTruthy();
      expect(waiting(h)).toBe(0);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

/** The summary's list: the batch, the account, the count, the amounts, who pays fees, the fees to hold and the total. */
function expectSummary(fees: string, total: string) {
  expect(plain(document.querySelector('dl')!.textContent!)).toBe(
    `BatchMarchPay fromEUR account 102Payments2Amounts${money('250.00')}Fees paid by the payees1Fees held${fees}Total to hold${total}`,
  );
}
const expectSummaryOf = (did: Did) => (did.quote === 'ok' ? expectSummary(money('6.00'), money('256.00')) : expectSummary('Worked out when you submit', '—'));

/** What the submission held: the amounts, the held fee and their total. */
function expectTotals() {
  expect(screen.getByRole('heading', { level: 2, name: 'Held on your account' })).toBeTruthy();
  const held = [...document.querySelectorAll('dl')].find((dl) => dl.textContent!.includes('Fees held'))!;
  expect(plain(held.textContent!)).toBe(`Payments2Amounts${money('250.00')}Fees held${money('6.00')}Total held${money('256.00')}`);
}

function eventExecutors(h: H) {
  const click = (name: RegExp | string) => act(() => fireEvent.click(button(name)));
  const inDialog = (dialog: string, name: string) => act(() => fireEvent.click(within(screen.getByRole('dialog', { name: dialog })).getByRole('button', { name })));
  const approveWith = async (result: ApproveResult) => {
    act(() => fireEvent.change(screen.getByLabelText('Code'), { target: { value: '123456' } }));
    click('Confirm');
    await waitFor(() => expect(h.q.approveTransfer.waiting).toBe(1));
    expect(h.q.approveTransfer.calls.at(-1)).toMatchObject({ transactionId: 9200, code: '123456' });
    await act(async () => h.q.approveTransfer.answer(result));
  };
  const nameOf = (id: number) => B0.payments.find((p) => p.id === id)!.beneficiaryName;
  const settle =
    (q: keyof H['q']) =>
    async ({ event }: { event: ModelEvent }) =>
      settleFromEvent(h.q[q] as AnswerQueue<unknown, unknown>, event as SystemEvent);
  return {
    'LOAD.RETRY': async () => click('Try again'),
    'FORM.ACCOUNT': async ({ event }: { event: ModelEvent }) =>
      act(() => fireEvent.change(screen.getByLabelText('Pay from'), { target: { value: String((event as Extract<GlobalPayEvent, { type: 'FORM.ACCOUNT' }>).accountId) } })),
    'FORM.NAME': async ({ event }: { event: ModelEvent }) =>
      act(() => fireEvent.change(screen.getByLabelText('Batch name'), { target: { value: (event as Extract<GlobalPayEvent, { type: 'FORM.NAME' }>).batchName } })),
    'FORM.FILE': async ({ event }: { event: ModelEvent }) =>
      act(() => fireEvent.change(screen.getByLabelText('CSV file'), { target: { files: [(event as Extract<GlobalPayEvent, { type: 'FORM.FILE' }>).file!.content] } })),
    UPLOAD: async () => click('Upload the file'),
    'IDENTICAL.YES': async () => click('Upload it again'),
    'IDENTICAL.NO': async () => click('No, go back'),
    'DRAFT.SELECT': async ({ event }: { event: ModelEvent }) => {
      for (const id of (event as Extract<GlobalPayEvent, { type: 'DRAFT.SELECT' }>).ids) act(() => fireEvent.click(screen.getByRole('checkbox', { name: `Select ${nameOf(id)}` })));
    },
    'DRAFT.METHOD': async ({ event }: { event: ModelEvent }) =>
      act(() => fireEvent.change(screen.getByLabelText('Payout method'), { target: { value: (event as Extract<GlobalPayEvent, { type: 'DRAFT.METHOD' }>).method } })),
    'PAYMENT.REMOVE': async ({ event }: { event: ModelEvent }) => click(`Remove the payment to ${nameOf((event as Extract<GlobalPayEvent, { type: 'PAYMENT.REMOVE' }>).id)}`),
    'PAYMENT.RESTORE': async ({ event }: { event: ModelEvent }) => click(`Restore the payment to ${nameOf((event as Extract<GlobalPayEvent, { type: 'PAYMENT.RESTORE' }>).id)}`),
    'FEE.SET': async ({ event }: { event: ModelEvent }) =>
      click((event as Extract<GlobalPayEvent, { type: 'FEE.SET' }>).feeShare === 'sender' ? 'I pay the fee' : 'The payee pays the fee'),
    'METHOD.SET': async ({ event }: { event: ModelEvent }) =>
      click((event as Extract<GlobalPayEvent, { type: 'METHOD.SET' }>).forbidden ? 'Forbid the method' : 'Allow the method'),
    'DRAFT.DISCARD': async () => click('Discard the draft'),
    'DISCARD.CONFIRM': async () => inDialog('Discard the draft?', 'Yes, discard the draft'),
    'DISCARD.KEEP': async () => inDialog('Discard the draft?', 'Keep the draft'),
    'DRAFT.CONTINUE': async () => click('Continue'),
    'SUMMARY.BACK': async () => click('Back to the draft'),
    SUBMIT: async () => click('Submit the batch'),
    'BATCH.CANCEL': async () => click('Cancel the batch'),
    'CANCEL.CONFIRM': async () => inDialog('Cancel the batch?', 'Yes, cancel the batch'),
    'CANCEL.KEEP': async () => inDialog('Cancel the batch?', 'Keep the batch'),
    'BATCH.NEW': async () => click('Start another batch'),
    'xstate.done.actor.loadAccounts': settle('loadAccounts'),
    'xstate.error.actor.loadAccounts': settle('loadAccounts'),
    'xstate.done.actor.uploadBatch': settle('uploadBatch'),
    'xstate.error.actor.uploadBatch': settle('uploadBatch'),
    'xstate.done.actor.editBatch': settle('editBatch'),
    'xstate.error.actor.editBatch': settle('editBatch'),
    'xstate.done.actor.discardBatch': settle('discardBatch'),
    'xstate.error.actor.discardBatch': settle('discardBatch'),
    'xstate.done.actor.submitBatch': settle('submitBatch'),
    'xstate.error.actor.submitBatch': settle('submitBatch'),
    'xstate.done.actor.cancelBatch': settle('cancelBatch'),
    'xstate.error.actor.cancelBatch': settle('cancelBatch'),
    'xstate.done.actor.quoteBatch': settle('quoteBatch'),
    'xstate.error.actor.quoteBatch': settle('quoteBatch'),
    // The approval child ends through its own screen.
    'xstate.done.actor.approval': async ({ event }: { event: ModelEvent }) => {
      const out = (event as SystemEvent).output as { result: string; reason?: string };
      if (out.result === 'approved') await approveWith({ ok: true, status: 'processing' });
      else if (out.result === 'canceled') {
        click('Cancel the transfer');
        await waitFor(() => expect(h.q.cancelTransfer.waiting).toBe(1));
        expect(h.q.cancelTransfer.calls.at(-1)).toMatchObject({ transactionId: 9200 });
        await act(async () => h.q.cancelTransfer.answer({ ok: true, status: 'canceled' }));
      } else if (out.reason === 'expired') await approveWith({ ok: true, status: 'expired' });
      else await approveWith({ ok: false, code: 'failed', failure: APPROVAL_REFUSAL });
    },
  };
}

/* ------------------------------------------------------------------------------ the paths */

const model = new TestModel(globalPayBatchMachine, {
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

const labelOf = (e: ModelEvent) => {
  const short = e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.');
  if ('output' in e) {
    const o = e.output as { ok?: boolean; code?: string; result?: string; reason?: string; submitted?: GlobalPaySubmitted };
    if (o.result) return `${short}(${o.reason ?? o.result})`;
    return `${short}(${o.ok ? (o.submitted ? `ok ${o.submitted.approveType}` : 'ok') : o.code})`;
  }
  return short;
};

describe('global-pay batch model', () => {
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
const replayable = globalPayBatchMachine.provide({
  actors: {
    loadAccounts: fromPromise(() => new Promise<LoadResult>(() => undefined)),
    uploadBatch: fromPromise(() => new Promise<UploadResult>(() => undefined)),
    editBatch: fromPromise(() => new Promise<BatchResult>(() => undefined)),
    discardBatch: fromPromise(() => new Promise<BatchResult>(() => undefined)),
    submitBatch: fromPromise(() => new Promise<SubmitResult>(() => undefined)),
    cancelBatch: fromPromise(() => new Promise<BatchResult>(() => undefined)),
    quoteBatch: fromPromise(() => new Promise<QuoteResult>(() => undefined)),
  },
});

describe('global-pay batch model: the chart', () => {
  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(globalPayBatchMachine, paths)).toEqual([]);
  });

  it('every transition of the chart is taken by some path', () => {
    const taken = transitionsTaken(replayable, undefined, sequences as never);
    const missing = listTransitions(globalPayBatchMachine)
      .filter((t) => !taken.has(t.key))
      .map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
