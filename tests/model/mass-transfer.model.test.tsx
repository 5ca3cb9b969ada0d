/**
 * Model-based test of paying many people at once (machines/mass-transfer): paths generated from
 * the chart drive the REAL MassTransferView (and, while approving, the real ApprovalView of the
 * approval machine the chart invokes as its `approval` child) through Testing Library, in English
 * (the app catalog, loaded by tests/ui/setup.ts). The promise actors (loadAccounts, checkBatch,
 * createBatch) are test doubles answered by the paths' `xstate.done.actor.<id>` /
 * `xstate.error.actor.<id>` events; watchBatch is a callback double whose `sendBack` plays the
 * paths' BATCH.PROGRESS events. The approval child ends through its own screen, as in
 * transfer-model.tsx: the code typed and the approve call answered (posted, expired, refused), or
 * "Cancel the transfer" and the cancel call answered.
 *
 * Every step checks the page against what the TEST did (`Did`, worked out from the events
 * performed and the answers given), not against the chart's context: the heading of each step,
 * the form as filled, the file's and the account's errors, the table of lines to fix (line,
 * column, problem), the preview's rows and totals, the alerts, the buttons busy or disabled, the
 * progress bar's value, and what each actor was called with (kind, account, source, the file,
 * preview true then false, the idempotency key: made with the preview, kept by a confirm again
 * after no answer or a refusal, new after a cancel).
 *
 * To keep the graph small (serialize: the value and the few context fields the page shows) the
 * form is filled along a script (the file, then the other account; or pasted lines, checked once
 * and previewed, where that side trip ends), and the actors' every answer is given only on the
 * main line; off it, a fix or a success. Every chart transition is still taken (checked below).
 *
 * It found a defect, fixed since: after a creation that got no answer, a refusal of the next
 * confirm was titled "We did not get an answer" (the chart kept `unanswered`). It also found an
 * event no control sent (FAILURE.DISMISS: the alerts have no close button), removed from the chart.
 *
 * Proof it can fail (2026-11-28): I made the preview's "Change the file" button send
 * BATCH.CONFIRM instead of BATCH.EDIT once: the path through BATCH.EDIT went red (the form's
 * heading never came: the page was creating the batch); restored since.
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import { testAccount } from '../account-fixture.ts';
import type { Failure } from '../../api/envelope.ts';
import type { Batch } from '../../api/mass.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../../api/transfers.ts';
import { approvalMachine, type ApprovalEvent, type ApproveResult, type CancelResult, type ResendResult } from '../../machines/approval/approval.machine.ts';
import {
  massTransferMachine,
  type MassCheckResult,
  type MassCreated,
  type MassCreateResult,
  type MassError,
  type MassEvent,
  type MassLoadResult,
  type MassPreview,
  type MassUploadRequest,
} from '../../machines/mass-transfer/mass-transfer.machine.ts';
import { MassTransferView } from '../../src/features/mass/mass-view.tsx';
import { formatMoney } from '../../src/lib/format.ts';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, matchesPath, recordingExecutors, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { AnswerQueue } from './support.ts';
import { settleFromEvent } from './settle.ts';

type Snap = SnapshotFrom<typeof massTransferMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = MassEvent | SystemEvent;

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
/** The preview's way back to the form, named after where the rows came from. */
const changeLabel = (did: { form: { source: 'file' | 'text' } }) => (did.form.source === 'file' ? 'Change the file' : 'Change the payments');
const money = (amount: string) => plain(formatMoney(amount, 'EUR', 'en'));

/* ------------------------------------------------------------------------------ fixtures */

const account = testAccount;
const ACCOUNTS = [account(101, '1500.00'), account(102, '300.00')];

/** The CSV the customer picks (the same object is the call's `file.content`). */
const PAYEES = new File(['email,amount\nann@demo.test,25.00\nbob@demo.test,40\n'], 'payees.csv', { type: 'text/csv' });
const LINES = 'ann@demo.test, 25.00\nbob@demo.test, 40';

const PREVIEW: MassPreview = {
  rows: [
    { line: 2, payee: 'ann@demo.test', countryCode: null, amount: '25.00', fee: '0.25' },
    { line: 3, payee: 'bob@demo.test', countryCode: null, amount: '40', fee: '0.40' },
  ],
  count: 2,
  currency: 'EUR',
  total: '65.00',
  fee: '0.65',
  grandTotal: '65.65',
};
const EXPIRES_AT = new Date(Date.now() + 86_400_000).toISOString();
const created = (approveType: 'none' | 'sms'): MassCreated => ({
  ...PREVIEW,
  batchId: 77,
  transactionId: 9100,
  status: approveType === 'none' ? 'processing' : 'pending',
  approveType,
  approvalSentTo: approveType === 'sms' ? '+370 *** **12' : null,
  expiresAt: EXPIRES_AT,
});

const vfError = (param: string, code: string, params?: Record<string, number>): MassError => ({ param, code, description: `${param} is wrong`, ...(params ? { params } : {}) });
/** The check refuses lines: line 5's amount, line 3's e-mail and line 3 as a whole (given out of order). */
const LINE_ERRORS = [vfError('rows.5.amount', 'amountFormat'), vfError('rows.3.email', 'notEmail'), vfError('rows.3', 'csvCellCount', { expected: 3 })];
/** ... or the whole file and the account. */
const FILE_ERRORS = [vfError('file', 'csvNoRows'), vfError('accountId', 'balanceExceeded')];
/** The creation refuses one line (a payee changed since the preview). */
const CONFIRM_ERRORS = [vfError('rows.2.email', 'notEmail')];
/** The table of lines to fix each answer must give: line, column, problem (written out, in line order). */
const TABLES: Record<'lines' | 'confirm', { title: string; rows: string[][] }> = {
  lines: {
    title: '2 lines need fixing. Nothing was sent.',
    rows: [
      ['3', 'email', 'Enter an e-mail address.'],
      ['3', '—', 'This line must have 3 values, as the header has.'],
      ['5', 'amount', 'Enter an amount, such as 12.50.'],
    ],
  },
  confirm: { title: 'One line needs fixing. Nothing was sent.', rows: [['2', 'email', 'Enter an e-mail address.']] },
};

const REFUSAL: Failure = { responseCode: 'TA1', responseDescription: 'The account is blocked for outgoing payments' };
const APPROVAL_REFUSAL: Failure = { responseCode: 'TA1', responseDescription: 'Too many wrong codes: the transfer was refused' };

const batch = (status: Batch['status'], doneCount: number, failedCount: number, progress: number): Batch => ({
  id: 77,
  dateTime: '2026-11-28T10:00:00.000Z',
  kind: 'p2p',
  status,
  fileName: 'payees.csv',
  accountId: 102,
  currency: 'EUR',
  count: 2,
  doneCount,
  failedCount,
  progress,
  total: '65.00',
  fee: '0.65',
  transactionId: 9100,
});
const HALF = batch('processing', 1, 0, 50);
const ALL_PAID = batch('done', 2, 0, 100);
const PARTIAL = batch('partial', 1, 1, 100);

/* ------------------------------------------------------------------------------ the events */

const file = (f: File) => ({ type: 'FORM.FILE', file: { name: f.name, content: f } }) as const;
const userEvents = {
  'FORM.ACCOUNT': [{ type: 'FORM.ACCOUNT', accountId: 102 }],
  'FORM.SOURCE': [{ type: 'FORM.SOURCE', source: 'text' }],
  'FORM.FILE': [file(PAYEES)],
  'FORM.TEXT': [{ type: 'FORM.TEXT', text: LINES }],
  'BATCH.CHECK': [{ type: 'BATCH.CHECK' }],
  'BATCH.EDIT': [{ type: 'BATCH.EDIT' }],
  'BATCH.CONFIRM': [{ type: 'BATCH.CONFIRM' }],
  'BATCH.NEW': [{ type: 'BATCH.NEW' }],
  'LOAD.RETRY': [{ type: 'LOAD.RETRY' }],
  'BATCH.PROGRESS': [HALF, ALL_PAID, PARTIAL].map((b) => ({ type: 'BATCH.PROGRESS', batch: b }) as const),
} satisfies { [K in MassEvent['type']]: Extract<MassEvent, { type: K }>[] };
const one = <K extends keyof typeof userEvents>(type: K, i = 0) => userEvents[type][i]!;

const LOAD_ANSWERS: SystemEvent[] = [
  { type: 'xstate.done.actor.loadAccounts', output: { ok: true, accounts: ACCOUNTS } satisfies MassLoadResult },
  { type: 'xstate.done.actor.loadAccounts', output: { ok: false, code: 'failed', failure: REFUSAL } satisfies MassLoadResult },
  { type: 'xstate.error.actor.loadAccounts', error: new Error('offline') },
];
const CHECK_ANSWERS: SystemEvent[] = [
  { type: 'xstate.done.actor.checkBatch', output: { ok: true, preview: PREVIEW } satisfies MassCheckResult },
  { type: 'xstate.done.actor.checkBatch', output: { ok: false, code: 'rows', errors: LINE_ERRORS } satisfies MassCheckResult },
  { type: 'xstate.done.actor.checkBatch', output: { ok: false, code: 'rows', errors: FILE_ERRORS } satisfies MassCheckResult },
  { type: 'xstate.done.actor.checkBatch', output: { ok: false, code: 'failed', failure: REFUSAL } satisfies MassCheckResult },
  { type: 'xstate.error.actor.checkBatch', error: new Error('offline') },
];
const CREATE_ANSWERS: SystemEvent[] = [
  { type: 'xstate.done.actor.createBatch', output: { ok: true, created: created('none') } satisfies MassCreateResult },
  { type: 'xstate.done.actor.createBatch', output: { ok: true, created: created('sms') } satisfies MassCreateResult },
  { type: 'xstate.done.actor.createBatch', output: { ok: false, code: 'rows', errors: CONFIRM_ERRORS } satisfies MassCreateResult },
  { type: 'xstate.done.actor.createBatch', output: { ok: false, code: 'network' } satisfies MassCreateResult },
  { type: 'xstate.done.actor.createBatch', output: { ok: false, code: 'failed', failure: REFUSAL } satisfies MassCreateResult },
  { type: 'xstate.error.actor.createBatch', error: new Error('offline') },
];
/** The approval child's outcomes, reached through its screen (see the executors). */
const APPROVAL_OUTCOMES: SystemEvent[] = [
  { type: 'xstate.done.actor.approval', output: { result: 'approved', status: 'posted' } },
  { type: 'xstate.done.actor.approval', output: { result: 'canceled' } },
  { type: 'xstate.done.actor.approval', output: { result: 'failed', reason: 'expired', failure: null } },
  { type: 'xstate.done.actor.approval', output: { result: 'failed', reason: 'failed', failure: APPROVAL_REFUSAL } },
];

/** The form the whole flow runs with: the file, paid from the second account. */
const isMainForm = (s: Snap) => s.context.form.accountId === 102 && s.context.form.source === 'file' && s.context.form.file?.name === 'payees.csv';
/** Nothing off the main line: no error, failure, notice or missing input on the page. */
const isClean = (s: Snap) => {
  const c = s.context;
  return c.failure === null && !c.unanswered && !c.canceled && c.errors.length === 0 && !c.missing;
};

/** The form filled along a script: the file (or pasted lines), then the other account. */
function script(s: Snap): MassEvent[] {
  const f = s.context.form;
  if (f.accountId === 101 && f.source === 'file' && f.file === null) return [one('BATCH.CHECK'), one('FORM.SOURCE'), one('FORM.FILE')];
  if (f.accountId === 101 && f.source === 'file') return [one('FORM.ACCOUNT')];
  if (isMainForm(s)) return [one('BATCH.CHECK')];
  if (f.source === 'text') return f.text === '' ? [one('BATCH.CHECK'), one('FORM.TEXT')] : [one('BATCH.CHECK')];
  // a new batch after one ended: the form empty, the account kept (the path ends here)
  return [];
}

function eventsFor(s: Snap): ModelEvent[] {
  const c = s.context;
  const all: ModelEvent[] = [];
  if (s.matches('loading')) all.push(...(c.loadFailure ? LOAD_ANSWERS.slice(0, 1) : LOAD_ANSWERS));
  else if (s.matches('loadFailed')) all.push(one('LOAD.RETRY'));
  else if (s.matches('editing')) {
    if (c.failure) all.push(one('BATCH.CHECK'));
    // the corrected file picked again
    else if (c.errors.length > 0) all.push(file(PAYEES));
    else if (c.missing) all.push(c.form.source === 'file' ? file(PAYEES) : one('FORM.TEXT'));
    else all.push(...script(s));
  } else if (s.matches('checking')) all.push(...(isMainForm(s) ? CHECK_ANSWERS : CHECK_ANSWERS.slice(0, 1)));
  else if (s.matches('previewing')) {
    // the pasted lines' preview is where that side trip ends
    if (!isMainForm(s)) return [];
    all.push(one('BATCH.CONFIRM'));
    if (isClean(s)) all.push(one('BATCH.EDIT'));
  } else if (s.matches('confirming')) {
    // after no answer: confirmed again, it is created (and approved) or refused
    all.push(...(c.unanswered ? [CREATE_ANSWERS[1]!, CREATE_ANSWERS[4]!] : CREATE_ANSWERS));
  } else if (s.matches('approving')) all.push(...APPROVAL_OUTCOMES);
  else if (s.matches('paying')) all.push(...(c.batch === null ? userEvents['BATCH.PROGRESS'].slice(0, 2) : userEvents['BATCH.PROGRESS'].slice(2)));
  else if (s.matches('done') || s.matches('failed')) all.push(one('BATCH.NEW'));
  return all.filter((e) => e.type.startsWith('xstate.') || s.can(e as MassEvent));
}

/** Only what the page shows, never the random key. */
const serialize = (s: Snap) => {
  const c = s.context;
  return JSON.stringify({
    value: s.value,
    form: [c.form.accountId, c.form.source, c.form.file?.name ?? null, c.form.text],
    missing: c.missing,
    errors: c.errors.map((e) => e.param),
    failure: c.failure?.responseCode ?? null,
    unanswered: c.unanswered,
    canceled: c.canceled,
    loadFailure: c.loadFailure?.code ?? null,
    batch: c.batch ? [c.batch.status, c.batch.progress] : null,
    outcome: c.outcome?.reason ?? null,
  });
};

/* ------------------------------------------------------------------------------ what the test did */

interface Did {
  loadFailure: 'failed' | 'network' | null;
  /** the form as the test filled it */
  form: { accountId: number | null; source: 'file' | 'text'; file: File | null; text: string };
  /** "Check" pressed with nothing to check */
  missing: boolean;
  /** the refused lines (or file and account) last answered, until the form changes */
  errors: 'lines' | 'file' | 'confirm' | null;
  /** a refusal or no answer shown over the form or the preview */
  failure: 'refused' | 'network' | null;
  /** the last creation got no answer (the preview says so, "confirm again") */
  unanswered: boolean;
  canceled: boolean;
  /** the next creation must carry a key never sent before (a new preview, or a cancel) */
  newKeyDue: boolean;
  /** what the creation under way must carry: a new key, or the previous call's */
  newKey: boolean;
  outcome: 'expired' | 'failed' | null;
  batch: Batch | null;
}
const fresh = (): Did => ({
  loadFailure: null,
  form: { accountId: null, source: 'file', file: null, text: '' },
  missing: false,
  errors: null,
  failure: null,
  unanswered: false,
  canceled: false,
  newKeyDue: true,
  newKey: true,
  outcome: null,
  batch: null,
});

function record(did: Did, event: ModelEvent): void {
  const out = (event as SystemEvent).output as Record<string, any> | undefined;
  const formChanged = () => {
    Object.assign(did, { errors: null, missing: false });
  };
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
      return formChanged();
    case 'FORM.SOURCE':
      did.form = { ...did.form, source: event.source };
      return formChanged();
    case 'FORM.FILE':
      did.form = { ...did.form, file: event.file?.content as File };
      return formChanged();
    case 'FORM.TEXT':
      did.form = { ...did.form, text: event.text };
      return formChanged();
    case 'BATCH.CHECK': {
      const ready = did.form.accountId !== null && (did.form.source === 'file' ? did.form.file !== null : did.form.text.trim() !== '');
      if (ready) Object.assign(did, { errors: null, failure: null, canceled: false });
      else did.missing = true;
      return;
    }
    case 'xstate.done.actor.checkBatch':
      if (out!.ok) Object.assign(did, { newKeyDue: true, unanswered: false });
      else if (out!.code === 'rows') did.errors = out!.errors === LINE_ERRORS ? 'lines' : 'file';
      else did.failure = out!.code === 'failed' ? 'refused' : 'network';
      return;
    case 'xstate.error.actor.checkBatch':
      did.failure = 'network';
      return;
    case 'BATCH.CONFIRM':
      Object.assign(did, { newKey: did.newKeyDue, newKeyDue: false, failure: null, canceled: false });
      return;
    case 'xstate.done.actor.createBatch':
      if (out!.ok) Object.assign(did, { unanswered: false, failure: null });
      else if (out!.code === 'rows') did.errors = 'confirm';
      else if (out!.code === 'network') Object.assign(did, { unanswered: true, failure: 'network' });
      else Object.assign(did, { unanswered: false, failure: 'refused' });
      return;
    case 'xstate.error.actor.createBatch':
      Object.assign(did, { unanswered: true, failure: 'network' });
      return;
    case 'xstate.done.actor.approval':
      if (out!.result === 'canceled') Object.assign(did, { canceled: true, newKeyDue: true });
      else if (out!.result === 'failed') did.outcome = out!.reason;
      return;
    case 'BATCH.PROGRESS':
      did.batch = event.batch;
      return;
    case 'BATCH.NEW':
      // a new batch: the form empty, the account kept
      Object.assign(did, fresh(), { form: { ...fresh().form, accountId: did.form.accountId } });
      return;
  }
}

/* ------------------------------------------------------------------------------ the harness */

function mount() {
  const q = {
    loadAccounts: new AnswerQueue<{ kind: string }, MassLoadResult>(),
    checkBatch: new AnswerQueue<MassUploadRequest, MassCheckResult>(),
    createBatch: new AnswerQueue<MassUploadRequest & { idempotencyKey: string }, MassCreateResult>(),
    approveTransfer: new AnswerQueue<{ transactionId: number; code: string; idempotencyKey: string }, ApproveResult>(),
    cancelTransfer: new AnswerQueue<{ transactionId: number; idempotencyKey: string }, CancelResult>(),
    resendApproval: new AnswerQueue<{ transactionId: number }, ResendResult>(),
  };
  /** watchBatch: its inputs, the running one's sendBack */
  const watch = { inputs: [] as { batchId: number }[], sendBack: null as ((e: MassEvent) => void) | null, running: false };
  const logic = massTransferMachine.provide({
    actors: {
      loadAccounts: fromPromise(({ input }) => q.loadAccounts.next(input)),
      checkBatch: fromPromise(({ input }) => q.checkBatch.next(input)),
      createBatch: fromPromise(({ input }) => q.createBatch.next(input)),
      watchBatch: fromCallback<MassEvent, { batchId: number }>(({ input, sendBack }) => {
        watch.inputs.push(input);
        watch.sendBack = sendBack;
        watch.running = true;
        return () => {
          watch.running = false;
        };
      }),
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
  const actor = createActor(logic, { input: { kind: 'p2p' } }).start();
  let samples = 0;
  render(
    <I18nProvider i18n={i18n}>
      <MassTransferView actor={actor} onSample={() => (samples += 1)} batchesLink={<a href="/history/batch-transfers">See your batches</a>} />
    </I18nProvider>,
  );
  return { q, watch, actor, did: fresh(), samples: () => samples };
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
/** The field shows this error, tied to it; or none. */
function expectFieldError(el: HTMLElement, text: string | null) {
  if (text) {
    expect(el.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(el)).toContain(text);
  } else expect(el.getAttribute('aria-invalid')).toBeNull();
}
/** A table's body rows as the cells' texts. */
const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => plain(cell.textContent!)));
const tableByCaption = (caption: string) => screen.getByRole('table', { name: caption });
const PAY = /^pay 2 payments · €65\.65$/i;

function stateChecks(h: H) {
  const d = () => h.did;
  return {
    loading: async () => {
      await h1('Many payments by e-mail');
      expect(screen.getByText('Loading your accounts')).toBeTruthy();
      expect(h.q.loadAccounts.waiting).toBe(1);
      expect(h.q.loadAccounts.calls.at(-1)).toEqual({ kind: 'p2p' });
    },
    loadFailed: async () => {
      await h1('Many payments by e-mail');
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toContain('We could not load your accounts.');
      if (d().loadFailure === 'failed') expect(alert.textContent).toContain(REFUSAL.responseDescription);
      else expect(alert.textContent).not.toContain(REFUSAL.responseDescription);
      expect(button('Try again')).toBeTruthy();
      expect(h.q.loadAccounts.waiting).toBe(0);
    },
    editing: async () => {
      const did = d();
      await h1('Many payments by e-mail');
      expect(screen.getByText(/^one payment a line: email, amount/i)).toBeTruthy();
      expect(button('Download a sample file')).toBeTruthy();
      // the form as the test filled it; nothing busy
      const from = screen.getByLabelText('Pay from') as HTMLSelectElement;
      expect(from.value).toBe(String(did.form.accountId));
      expect(from.disabled).toBe(false);
      expect([...from.options].map((o) => plain(o.textContent!))).toEqual(['EUR account 101 · €1,500.00', 'EUR account 102 · €300.00']);
      expectFieldError(from, did.errors === 'file' ? 'The amount exceeds the available balance.' : null);
      const source = screen.getByRole('group', { name: 'Payments from' });
      expect((within(source).getByRole('radio', { name: 'A CSV file' }) as HTMLInputElement).checked).toBe(did.form.source === 'file');
      expect((within(source).getByRole('radio', { name: 'Lines I paste' }) as HTMLInputElement).checked).toBe(did.form.source === 'text');
      const fileError = did.missing ? (did.form.source === 'file' ? 'Choose a CSV file.' : 'Paste at least one line.') : did.errors === 'file' ? 'The file has no payments in it.' : null;
      if (did.form.source === 'file') {
        const input = screen.getByLabelText('CSV file') as HTMLInputElement;
        expect(input.type).toBe('file');
        expect(input.disabled).toBe(false);
        expectFieldError(input, fileError);
        if (did.form.file) expect(screen.getByText(`Chosen: ${did.form.file.name}`)).toBeTruthy();
        else expect(screen.queryByText(/^chosen:/i)).toBeNull();
        expect(screen.queryByLabelText('Payments, one a line')).toBeNull();
      } else {
        const text = screen.getByLabelText('Payments, one a line') as HTMLTextAreaElement;
        expect(text.value).toBe(did.form.text);
        expectFieldError(text, fileError);
        expect(screen.queryByLabelText('CSV file')).toBeNull();
      }
      // the refused lines: line, column ("—" for the whole line), problem, in line order
      const lines = did.errors === 'lines' ? TABLES.lines : did.errors === 'confirm' ? TABLES.confirm : null;
      if (lines) {
        expect(screen.getByText(lines.title)).toBeTruthy();
        expect(screen.getByText('Correct the file and check it again.')).toBeTruthy();
        const table = tableByCaption('Lines to fix');
        expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Line', 'Column', 'Problem']);
        expect(bodyRows(table)).toEqual(lines.rows);
      } else expect(screen.queryByRole('table', { name: 'Lines to fix' })).toBeNull();
      // a refusal or no answer over the form
      const failureAlert = screen.queryByText(/could not reach the bank|could not be checked/i);
      if (did.failure === 'network') expect(failureAlert?.textContent).toBe('We could not reach the bank. Check your connection and try again.');
      else if (did.failure === 'refused') {
        expect(failureAlert?.textContent).toBe('The batch could not be checked.');
        expect(failureAlert!.closest('[role="alert"]')!.textContent).toContain(REFUSAL.responseDescription);
      } else expect(failureAlert).toBeNull();
      // the lines' title is one alert (its box is not another: it was, nested, until this test said so)
      expect(screen.queryAllByRole('alert')).toHaveLength((lines ? 1 : 0) + (did.failure ? 1 : 0));
      await waitFor(() => expect(button('Check the payments').getAttribute('aria-busy')).toBeNull());
      expect(button('Check the payments').disabled).toBe(false);
      expect(h.q.checkBatch.waiting).toBe(0);
      expect(h.q.createBatch.waiting).toBe(0);
      expect(watch(h)).toBe(false);
    },
    checking: async () => {
      const did = d();
      await h1('Many payments by e-mail');
      // busy: the button says so, the form cannot change meanwhile; an earlier error is gone
      await waitFor(() => expect(button('Check the payments').getAttribute('aria-busy')).toBe('true'));
      expect(button('Check the payments').disabled).toBe(true);
      expect((screen.getByLabelText('Pay from') as HTMLSelectElement).disabled).toBe(true);
      expect((screen.getByRole('group', { name: 'Payments from' }) as HTMLFieldSetElement).disabled).toBe(true);
      expect(((screen.queryByLabelText('CSV file') ?? screen.getByLabelText('Payments, one a line')) as HTMLInputElement).disabled).toBe(true);
      expect(screen.queryAllByRole('alert')).toHaveLength(0);
      // the preview call: the form as filled, nothing created
      expect(h.q.checkBatch.waiting).toBe(1);
      const call = h.q.checkBatch.calls.at(-1)!;
      expect(call).toEqual({
        kind: 'p2p',
        accountId: did.form.accountId,
        source: did.form.source,
        file: did.form.file ? { name: 'payees.csv', content: did.form.file } : null,
        text: did.form.text,
        preview: true,
      });
      if (did.form.file) expect(call.file!.content).toBe(PAYEES);
    },
    previewing: async () => {
      const did = d();
      await h1('Check the payments');
      const summary = plain(document.querySelector('dl')!.textContent!);
      expect(summary).toBe(`Payments2Amounts${money('65.00')}Fees${money('0.65')}Total to pay${money('65.65')}`);
      const table = tableByCaption('Payments in this batch');
      expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Line', 'E-mail', 'Amount', 'Fee']);
      expect(bodyRows(table)).toEqual([
        ['2', 'ann@demo.test', money('25.00'), money('0.25')],
        ['3', 'bob@demo.test', money('40'), money('0.40')],
      ]);
      if (did.canceled) expect(screen.getByRole('status').textContent).toBe('The batch was canceled. Nothing was paid.');
      else expect(screen.queryByText(/the batch was canceled/i)).toBeNull();
      const alerts = screen.queryAllByRole('alert');
      if (did.failure === 'network') {
        expect(alerts).toHaveLength(1);
        expect(alerts[0]!.textContent).toBe('We did not get an answer. Confirm again: the batch will not be made twice.');
      } else if (did.failure === 'refused') {
        expect(alerts).toHaveLength(1);
        expect(alerts[0]!.textContent).toBe(`The batch was not accepted.${REFUSAL.responseDescription}`);
      } else expect(alerts).toHaveLength(0);
      await waitFor(() => expect(button(PAY).getAttribute('aria-busy')).toBeNull());
      expect(button(PAY).disabled).toBe(false);
      expect(button(changeLabel(did)).disabled).toBe(false);
      expect(h.q.createBatch.waiting).toBe(0);
      expect(h.q.checkBatch.waiting).toBe(0);
    },
    confirming: async () => {
      const did = d();
      await h1('Check the payments');
      await waitFor(() => expect(button(PAY).getAttribute('aria-busy')).toBe('true'));
      expect(button(PAY).disabled).toBe(true);
      expect(button(changeLabel(did)).disabled).toBe(true);
      expect(screen.queryAllByRole('alert')).toHaveLength(0);
      // the creation: the rows previewed, for real, with the preview's key (or the one sent without an answer)
      expect(h.q.createBatch.waiting).toBe(1);
      const calls = h.q.createBatch.calls;
      const { idempotencyKey, ...request } = calls.at(-1)!;
      expect(request).toEqual({ kind: 'p2p', accountId: 102, source: 'file', file: { name: 'payees.csv', content: PAYEES }, text: '', preview: false });
      expect(idempotencyKey).toMatch(IDEMPOTENCY_KEY_PATTERN);
      const earlier = calls.slice(0, -1).map((c) => c.idempotencyKey);
      if (did.newKey) expect(earlier).not.toContain(idempotencyKey);
      else expect(idempotencyKey).toBe(earlier.at(-1));
    },
    approving: async () => {
      await h1('Approve the batch');
      expect(await screen.findByRole('heading', { level: 2, name: 'Enter the code we sent to +370 *** **12' })).toBeTruthy();
      expect((screen.getByLabelText('Code') as HTMLInputElement).getAttribute('autocomplete')).toBe('one-time-code');
      expect(button('Cancel the transfer').disabled).toBe(false);
      expect(h.q.createBatch.waiting).toBe(0);
      expect(h.q.approveTransfer.waiting).toBe(0);
      expect(watch(h)).toBe(false);
    },
    paying: async () => {
      const b = d().batch;
      await h1('Paying');
      expect(screen.getByText('Your payments are being made. You can leave this page: they go on without it.')).toBeTruthy();
      expectProgress(b ? b.doneCount + b.failedCount : 0, b?.progress ?? 0);
      expect(screen.getByRole('link', { name: 'See your batches' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Start another batch' })).toBeNull();
      // the batch created is watched, once
      expect(watch(h)).toBe(true);
      expect(h.watch.inputs.at(-1)).toEqual({ batchId: 77 });
      expect(h.q.approveTransfer.waiting + h.q.cancelTransfer.waiting + h.q.createBatch.waiting).toBe(0);
    },
    done: async () => {
      const b = d().batch!;
      expect(b.status).not.toBe('processing');
      await h1(b.status === 'done' ? 'All payments made' : 'Batch finished');
      if (b.status === 'done') expect(screen.getByRole('status').textContent).toBe('All 2 payments were made.');
      else {
        const status = screen.getByRole('status');
        expect(status.textContent).toContain('1 of 2 payments were made; 1 could not be.');
        expect(status.textContent).toContain('The money of the payments not made is available again.');
      }
      expectProgress(2, 100);
      expect(button('Start another batch')).toBeTruthy();
      expect(screen.getByRole('link', { name: 'See your batches' })).toBeTruthy();
      // no more watching
      expect(watch(h)).toBe(false);
    },
    failed: async () => {
      const outcome = d().outcome;
      await h1('Batch not approved');
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toContain(outcome === 'expired' ? 'The approval time ran out.' : 'The batch was not approved.');
      expect(alert.textContent).toContain('No payment was made and the money held for the batch is available again.');
      if (outcome === 'failed') expect(alert.textContent).toContain(APPROVAL_REFUSAL.responseDescription);
      else expect(alert.textContent).not.toContain(APPROVAL_REFUSAL.responseDescription);
      expect(button('Start another batch')).toBeTruthy();
      expect(watch(h)).toBe(false);
      expect(h.q.approveTransfer.waiting + h.q.cancelTransfer.waiting).toBe(0);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}
const watch = (h: H) => h.watch.running;

function expectProgress(handled: number, value: number) {
  const bar = screen.getByLabelText(`Payments handled: ${handled} of 2`) as HTMLProgressElement;
  expect(bar.tagName).toBe('PROGRESS');
  expect(bar.max).toBe(100);
  expect(bar.value).toBe(value);
}

function eventExecutors(h: H) {
  const click = (name: RegExp | string) => act(() => fireEvent.click(button(name)));
  const approveWith = async (result: ApproveResult) => {
    act(() => fireEvent.change(screen.getByLabelText('Code'), { target: { value: '123456' } }));
    click('Confirm');
    await waitFor(() => expect(h.q.approveTransfer.waiting).toBe(1));
    expect(h.q.approveTransfer.calls.at(-1)).toMatchObject({ transactionId: 9100, code: '123456' });
    await act(async () => h.q.approveTransfer.answer(result));
  };
  return {
    'FORM.ACCOUNT': async ({ event }: { event: ModelEvent }) =>
      act(() => fireEvent.change(screen.getByLabelText('Pay from'), { target: { value: String((event as Extract<MassEvent, { type: 'FORM.ACCOUNT' }>).accountId) } })),
    'FORM.SOURCE': async () => act(() => fireEvent.click(screen.getByRole('radio', { name: 'Lines I paste' }))),
    'FORM.FILE': async ({ event }: { event: ModelEvent }) =>
      act(() => fireEvent.change(screen.getByLabelText('CSV file'), { target: { files: [(event as Extract<MassEvent, { type: 'FORM.FILE' }>).file!.content] } })),
    'FORM.TEXT': async ({ event }: { event: ModelEvent }) =>
      act(() => fireEvent.change(screen.getByLabelText('Payments, one a line'), { target: { value: (event as Extract<MassEvent, { type: 'FORM.TEXT' }>).text } })),
    'BATCH.CHECK': async () => click('Check the payments'),
    'BATCH.CONFIRM': async () => click(PAY),
    'BATCH.EDIT': async () => click(changeLabel(h.did)),
    'BATCH.NEW': async () => click('Start another batch'),
    'LOAD.RETRY': async () => click('Try again'),
    'BATCH.PROGRESS': async ({ event }: { event: ModelEvent }) => act(() => h.watch.sendBack!(event as MassEvent)),
    'xstate.done.actor.loadAccounts': async ({ event }: { event: ModelEvent }) => settleFromEvent(h.q.loadAccounts, event as SystemEvent),
    'xstate.error.actor.loadAccounts': async ({ event }: { event: ModelEvent }) => settleFromEvent(h.q.loadAccounts, event as SystemEvent),
    'xstate.done.actor.checkBatch': async ({ event }: { event: ModelEvent }) => settleFromEvent(h.q.checkBatch, event as SystemEvent),
    'xstate.error.actor.checkBatch': async ({ event }: { event: ModelEvent }) => settleFromEvent(h.q.checkBatch, event as SystemEvent),
    'xstate.done.actor.createBatch': async ({ event }: { event: ModelEvent }) => settleFromEvent(h.q.createBatch, event as SystemEvent),
    'xstate.error.actor.createBatch': async ({ event }: { event: ModelEvent }) => settleFromEvent(h.q.createBatch, event as SystemEvent),
    // The approval child ends through its own screen.
    'xstate.done.actor.approval': async ({ event }: { event: ModelEvent }) => {
      const out = (event as SystemEvent).output as { result: string; reason?: string };
      if (out.result === 'approved') await approveWith({ ok: true, status: 'posted' });
      else if (out.result === 'canceled') {
        click('Cancel the transfer');
        await waitFor(() => expect(h.q.cancelTransfer.waiting).toBe(1));
        expect(h.q.cancelTransfer.calls.at(-1)).toMatchObject({ transactionId: 9100 });
        await act(async () => h.q.cancelTransfer.answer({ ok: true, status: 'canceled' }));
      } else if (out.reason === 'expired') await approveWith({ ok: true, status: 'expired' });
      else await approveWith({ ok: false, code: 'failed', failure: APPROVAL_REFUSAL });
    },
  };
}

/* ------------------------------------------------------------------------------ the paths */

const model = new TestModel(massTransferMachine, {
  input: { kind: 'p2p' },
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

const labelOf = (e: ModelEvent) => {
  const short = e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.');
  if ('output' in e) {
    const o = e.output as { ok?: boolean; code?: string; result?: string; reason?: string; created?: MassCreated };
    if (o.result) return `${short}(${o.reason ?? o.result})`;
    return `${short}(${o.ok ? (o.created ? `ok ${o.created.approveType}` : 'ok') : o.code})`;
  }
  if (e.type === 'BATCH.PROGRESS') return `${short}(${(e as Extract<MassEvent, { type: 'BATCH.PROGRESS' }>).batch.status})`;
  return short;
};

describe('mass transfer model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((st) => st.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    it(`#${i} ${events.map(labelOf).join(' → ') || 'initial'} ⇒ ${JSON.stringify(last?.value)}`, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), recordingExecutors<ModelEvent>(eventExecutors(h), (e) => record(h.did, e)));
      h.actor.stop();
    });
  });
});

/** The chart with actors that never answer (the replay sends their answers as events). */
const replayable = massTransferMachine.provide({
  actors: {
    loadAccounts: fromPromise(() => new Promise<MassLoadResult>(() => undefined)),
    checkBatch: fromPromise(() => new Promise<MassCheckResult>(() => undefined)),
    createBatch: fromPromise(() => new Promise<MassCreateResult>(() => undefined)),
    watchBatch: fromCallback(() => () => undefined),
  },
});

describe('mass transfer model: the chart', () => {
  it('every state of the chart is reached by some path', () => {
    expect(unreachedStates(massTransferMachine, paths)).toEqual([]);
  });

  it('every transition of the chart is taken by some path', () => {
    const taken = transitionsTaken(replayable, { kind: 'p2p' }, sequences as never);
    const missing = listTransitions(massTransferMachine).filter((t) => !taken.has(t.key)).map((t) => t.key);
    expect(missing).toEqual([]);
  });
});
