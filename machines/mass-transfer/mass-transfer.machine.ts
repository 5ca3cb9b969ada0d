/**
 * Paying many people at once (document 2 §2 /transfer/mass with wire, eft, oct, digital and
 * /transfer/mass/p2p with their confirm pages, §5 "Mass uploads send a file plus a data part",
 * §7 mass p2p by file or text, mass external by file; issue 15 §4; api/mass.ts).
 *
 * ```
 * loading ─ok─▶ editing ─BATCH.CHECK (file or lines)─▶ checking ─ok─▶ previewing ─BATCH.CONFIRM─▶ confirming
 *    └─failed─▶ loadFailed        ▲  ◀── rows or file refused (each error by line) ─┘   │ ▲         │
 *                                 └──────────────── BATCH.EDIT ─────────────────────────┘ │         │
 *   confirming ─no approval─▶ paying ─every row handled─▶ done                            │         │
 *              ─approval──▶ approving (the approval machine) ─approved─▶ paying           │         │
 *                                     ├─canceled─▶ previewing ────────────────────────────┘         │
 *                                     └─declined, expired─▶ failed                                   │
 *              ─refused (rows, balance)─▶ editing · no answer ─▶ previewing (same key on retry) ◀───┘
 * ```
 *
 * Not the transfer machine: one payment's form (a payee, an amount, a live fee) has nothing of a
 * file of rows, so the batch has its own chart; its approval is the same approval machine every
 * transfer uses, and each row becomes an ordinary transfer in history. The preview and the
 * creation are the same call (preview: true, then without); the creation carries an idempotency
 * key made when the preview is shown, kept across a retry after no answer. While the rows are
 * paid the batch is read every PROGRESS_POLL_MS until every row is handled.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { Failure } from '../../api/envelope.ts';
import type { Account } from '../../api/accounts.ts';
import type { Batch, MassKind, MassRow } from '../../api/mass.ts';
import { approvalMachine, type ApprovalMode, type ApprovalOutput } from '../approval/approval.machine.ts';
import { newIdempotencyKey } from '../approval/idempotency-key.ts';

export const PROGRESS_POLL_MS = 2_000;

/** One validation error as the platform answers it (param, description, code and its parameters). */
export type MassError = NonNullable<Failure['validationErrors']>[number];

/** Where the rows come from: a CSV file, or lines pasted (p2p only). */
export type MassSource = 'file' | 'text';

export interface MassFile {
  name: string;
  /** the file as picked (the call sends it as its `file` part) */
  content: Blob;
}

export interface MassForm {
  accountId: number | null;
  source: MassSource;
  file: MassFile | null;
  text: string;
}

export interface MassPreview {
  rows: MassRow[];
  count: number;
  currency: string;
  total: string;
  fee: string;
  grandTotal: string;
}

export interface MassCreated extends MassPreview {
  batchId: number;
  transactionId: number;
  status: string;
  approveType: string;
  approvalSentTo: string | null;
  expiresAt: string;
}

export interface MassUploadRequest {
  kind: MassKind;
  accountId: number;
  source: MassSource;
  file: MassFile | null;
  text: string;
  preview: boolean;
}

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
export type MassLoadResult = { ok: true; accounts: Account[] } | Refusal;
/** rows: the platform's validation errors (by line and column, the file, the account) */
export type MassCheckResult = { ok: true; preview: MassPreview } | { ok: false; code: 'rows'; errors: MassError[] } | Refusal;
export type MassCreateResult = { ok: true; created: MassCreated } | { ok: false; code: 'rows'; errors: MassError[] } | Refusal;
export type MassBatchResult = { ok: true; batch: Batch } | Refusal;

export type MassEvent =
  | { type: 'FORM.ACCOUNT'; accountId: number }
  | { type: 'FORM.SOURCE'; source: MassSource }
  | { type: 'FORM.FILE'; file: MassFile | null }
  | { type: 'FORM.TEXT'; text: string }
  | { type: 'BATCH.CHECK' }
  | { type: 'BATCH.EDIT' }
  | { type: 'BATCH.CONFIRM' }
  | { type: 'BATCH.NEW' }
  | { type: 'LOAD.RETRY' }
  /** from watchBatch: the batch as the platform has it now */
  | { type: 'BATCH.PROGRESS'; batch: Batch };

export interface MassInput {
  kind: MassKind;
}

export interface MassContext {
  kind: MassKind;
  accounts: Account[];
  form: MassForm;
  /** the form has nothing to send yet (shown when the customer tries) */
  missing: boolean;
  /** the platform's validation errors of the last check or creation */
  errors: MassError[];
  preview: MassPreview | null;
  created: MassCreated | null;
  /** the creation's idempotency key: made with the preview, kept after no answer */
  key: string | null;
  /** the creation got no answer: sending again reuses the key */
  unanswered: boolean;
  batch: Batch | null;
  /** a refusal (or network) to show over the current step */
  failure: Failure | { responseCode: 'network' } | null;
  loadFailure: Refusal | null;
  /** how the approval ended when it did not end approved */
  outcome: Extract<ApprovalOutput, { result: 'failed' }> | null;
  /** the approval was canceled: told on the preview */
  canceled: boolean;
}

const emptyForm = (): MassForm => ({ accountId: null, source: 'file', file: null, text: '' });

/** Is the form ready to be checked: an account and a file (or, pasted, some text)? */
export function formReady(form: MassForm): boolean {
  return form.accountId !== null && (form.source === 'file' ? form.file !== null : form.text.trim() !== '');
}

/** A batch whose rows are all handled (or that will never be paid). */
export function isFinished(batch: Batch): boolean {
  return batch.status !== 'processing' && batch.status !== 'awaitingApproval';
}

export const massTransferMachine = setup({
  types: {
    context: {} as MassContext,
    events: {} as MassEvent,
    input: {} as MassInput,
  },
  actors: {
    loadAccounts: fromPromise<MassLoadResult, { kind: MassKind }>(async () => {
      throw new Error('loadAccounts is provided by the app');
    }),
    checkBatch: fromPromise<MassCheckResult, MassUploadRequest>(async () => {
      throw new Error('checkBatch is provided by the app');
    }),
    createBatch: fromPromise<MassCreateResult, MassUploadRequest & { idempotencyKey: string }>(async () => {
      throw new Error('createBatch is provided by the app');
    }),
    watchBatch: fromCallback<MassEvent, { batchId: number }>(() => {
      throw new Error('watchBatch is provided by the app');
    }),
    approval: approvalMachine,
  },
  guards: {
    isLoaded: (_, r: MassLoadResult) => r.ok,
    isFormReady: ({ context }) => formReady(context.form),
    isChecked: (_, r: MassCheckResult) => r.ok,
    hasRowErrors: (_, r: MassCheckResult | MassCreateResult) => !r.ok && r.code === 'rows',
    isUnanswered: (_, r: MassCheckResult | MassCreateResult) => !r.ok && r.code === 'network',
    /** created and asking no approval: the rows are being paid */
    isPaying: (_, r: MassCreateResult) => r.ok && r.created.approveType === 'none',
    isAwaitingApproval: (_, r: MassCreateResult) => r.ok,
    isApproved: (_, o: ApprovalOutput) => o.result === 'approved',
    isCanceled: (_, o: ApprovalOutput) => o.result === 'canceled',
    isBatchFinished: (_, b: Batch) => isFinished(b),
  },
  actions: {
    storeAccounts: assign(({ context }, r: MassLoadResult) => {
      const accounts = r.ok ? r.accounts : [];
      const first = accounts[0]?.accountId ?? null;
      const kept = accounts.some((a) => a.accountId === context.form.accountId) ? context.form.accountId : first;
      return { accounts, loadFailure: null, form: { ...context.form, accountId: kept } };
    }),
    storeLoadFailure: assign((_, r: MassLoadResult) => ({ loadFailure: r.ok ? null : r })),
    setAccount: assign(({ context }, accountId: number) => ({ form: { ...context.form, accountId }, errors: [], missing: false })),
    setSource: assign(({ context }, source: MassSource) => ({ form: { ...context.form, source }, errors: [], missing: false })),
    setFile: assign(({ context }, file: MassFile | null) => ({ form: { ...context.form, file }, errors: [], missing: false })),
    setText: assign(({ context }, text: string) => ({ form: { ...context.form, text }, errors: [], missing: false })),
    markMissing: assign({ missing: true }),
    startCheck: assign({ errors: [], failure: null, canceled: false }),
    storePreview: assign((_, r: MassCheckResult) => ({ preview: r.ok ? r.preview : null, key: newIdempotencyKey(), unanswered: false })),
    storeErrors: assign((_, r: MassCheckResult | MassCreateResult) => ({ errors: !r.ok && r.code === 'rows' ? r.errors : [], preview: null, key: null })),
    // an answer came (a refusal): an earlier "no answer" is no longer the news
    storeFailure: assign((_, r: MassCheckResult | MassCreateResult) => ({
      failure: r.ok || r.code === 'rows' ? null : r.code === 'network' ? { responseCode: 'network' as const } : r.failure,
      unanswered: !r.ok && r.code === 'network',
    })),
    markUnanswered: assign({ unanswered: true, failure: { responseCode: 'network' as const } }),
    storeCreated: assign((_, r: MassCreateResult) => ({ created: r.ok ? r.created : null, unanswered: false, failure: null, key: null })),
    storeBatch: assign((_, batch: Batch) => ({ batch })),
    noteCanceled: assign({ canceled: true, created: null, key: () => newIdempotencyKey() }),
    storeOutcome: assign((_, o: ApprovalOutput) => ({ outcome: o.result === 'failed' ? o : null })),
    reset: assign(({ context }) => ({
      form: { ...emptyForm(), accountId: context.form.accountId },
      missing: false,
      errors: [],
      preview: null,
      created: null,
      key: null,
      unanswered: false,
      batch: null,
      failure: null,
      outcome: null,
      canceled: false,
    })),
  },
}).createMachine({
  id: 'massTransfer',
  description: 'The customer pays many people from one account with a file (or pasted lines): every row is checked, the batch previewed, approved once, and its rows paid in the background.',
  meta: { spec: ['document 2 §2', 'document 2 §5', 'document 2 §7'] },
  context: ({ input }) => ({
    kind: input.kind,
    accounts: [],
    form: emptyForm(),
    missing: false,
    errors: [],
    preview: null,
    created: null,
    key: null,
    unanswered: false,
    batch: null,
    failure: null,
    loadFailure: null,
    outcome: null,
    canceled: false,
  }),
  initial: 'loading',
  states: {
    loading: {
      description: "The customer's accounts that can pay are loaded.",
      invoke: {
        id: 'loadAccounts',
        src: 'loadAccounts',
        input: ({ context }) => ({ kind: context.kind }),
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'editing',
            actions: { type: 'storeAccounts', params: ({ event }) => event.output },
            description: 'The accounts came; the first one is chosen to pay from.',
          },
          { target: 'loadFailed', actions: { type: 'storeLoadFailure', params: ({ event }) => event.output }, description: 'The accounts could not be loaded.' },
        ],
        onError: { target: 'loadFailed', actions: { type: 'storeLoadFailure', params: { ok: false, code: 'network' } }, description: 'No answer came.' },
      },
    },
    loadFailed: {
      description: 'The accounts could not be loaded; the customer may try again.',
      on: { 'LOAD.RETRY': { target: 'loading', description: 'The customer tries loading again.' } },
    },
    editing: {
      description: 'The customer chooses the account and gives the file (or pastes the lines).',
      on: {
        'FORM.ACCOUNT': { actions: { type: 'setAccount', params: ({ event }) => event.accountId }, description: 'The customer picks the account that pays.' },
        'FORM.SOURCE': { actions: { type: 'setSource', params: ({ event }) => event.source }, description: 'The customer switches between a file and pasted lines.' },
        'FORM.FILE': { actions: { type: 'setFile', params: ({ event }) => event.file }, description: 'The customer picks (or removes) the CSV file.' },
        'FORM.TEXT': { actions: { type: 'setText', params: ({ event }) => event.text }, description: 'The customer types or pastes the lines.' },
        'BATCH.CHECK': [
          { guard: 'isFormReady', target: 'checking', actions: 'startCheck', description: 'The rows go to the platform to be checked and priced; nothing is created yet.' },
          { actions: 'markMissing', description: 'Nothing to check yet: the customer is told to give a file or lines.' },
        ],
      },
    },
    checking: {
      description: 'The platform checks every row and prices the batch (the preview call); nothing is created.',
      tags: ['busy'],
      invoke: {
        id: 'checkBatch',
        src: 'checkBatch',
        input: ({ context }) => ({ kind: context.kind, accountId: context.form.accountId!, source: context.form.source, file: context.form.file, text: context.form.text, preview: true }),
        onDone: [
          {
            guard: { type: 'isChecked', params: ({ event }) => event.output },
            target: 'previewing',
            actions: { type: 'storePreview', params: ({ event }) => event.output },
            description: 'Every row is good: the rows, their fees and the totals are shown for confirmation.',
          },
          {
            guard: { type: 'hasRowErrors', params: ({ event }) => event.output },
            target: 'editing',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: 'Rows (or the file, or the account) were refused: each problem is shown by its line and column.',
          },
          { target: 'editing', actions: { type: 'storeFailure', params: ({ event }) => event.output }, description: 'The platform refused or did not answer; its words are shown over the form.' },
        ],
        onError: { target: 'editing', actions: { type: 'storeFailure', params: { ok: false, code: 'network' } }, description: 'No answer came; nothing was created.' },
      },
    },
    previewing: {
      description: 'The customer reviews the rows, each fee and the totals before creating the batch.',
      // the confirm pages of document 2 §2: /transfer/mass/p2p/confirm, /transfer/external/mass/confirm
      meta: { spec: ['document 2 §2'] },
      on: {
        'BATCH.CONFIRM': { target: 'confirming', actions: 'startCheck', description: 'The customer creates the batch: the total is held and its approval starts.' },
        'BATCH.EDIT': { target: 'editing', description: 'The customer goes back to change the file or the account.' },
      },
    },
    confirming: {
      description: 'The batch is created with the key made for it (the same rows checked again, the total held).',
      tags: ['busy'],
      invoke: {
        id: 'createBatch',
        src: 'createBatch',
        input: ({ context }) => ({
          kind: context.kind,
          accountId: context.form.accountId!,
          source: context.form.source,
          file: context.form.file,
          text: context.form.text,
          preview: false,
          idempotencyKey: context.key!,
        }),
        onDone: [
          {
            guard: { type: 'isPaying', params: ({ event }) => event.output },
            target: 'paying',
            actions: { type: 'storeCreated', params: ({ event }) => event.output },
            description: 'No approval is set: the batch is created and its rows are being paid.',
          },
          {
            guard: { type: 'isAwaitingApproval', params: ({ event }) => event.output },
            target: 'approving',
            actions: { type: 'storeCreated', params: ({ event }) => event.output },
            description: 'The batch is created with its total held; the customer approves it by the approval mode.',
          },
          {
            guard: { type: 'hasRowErrors', params: ({ event }) => event.output },
            target: 'editing',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: 'Something changed since the preview (a payee, the balance): the problems are shown on the form.',
          },
          {
            guard: { type: 'isUnanswered', params: ({ event }) => event.output },
            target: 'previewing',
            actions: 'markUnanswered',
            description: 'No answer came: the customer may confirm again with the same key, and no batch is made twice.',
          },
          { target: 'previewing', actions: { type: 'storeFailure', params: ({ event }) => event.output }, description: 'The platform refused the batch; its words are shown over the preview.' },
        ],
        onError: { target: 'previewing', actions: 'markUnanswered', description: 'The call failed without an answer; confirming again reuses the key.' },
      },
    },
    approving: {
      description: 'The batch awaits its approval (code or linked phone) in the approval flow every transfer uses.',
      meta: { spec: ['document 2 §4'] },
      invoke: {
        id: 'approval',
        src: 'approval',
        input: ({ context }) => ({
          transactionId: context.created!.transactionId,
          approveType: context.created!.approveType as ApprovalMode,
          approvalSentTo: context.created!.approvalSentTo,
          expiresAt: context.created!.expiresAt,
        }),
        onDone: [
          { guard: { type: 'isApproved', params: ({ event }) => event.output }, target: 'paying', description: 'The batch was approved: its rows are being paid.' },
          {
            guard: { type: 'isCanceled', params: ({ event }) => event.output },
            target: 'previewing',
            actions: 'noteCanceled',
            description: 'The customer canceled the batch (the hold released); the preview is shown again, told it was canceled.',
          },
          { target: 'failed', actions: { type: 'storeOutcome', params: ({ event }) => event.output }, description: 'The batch was not approved (declined, expired or refused); nothing was paid.' },
        ],
      },
    },
    paying: {
      description: 'The rows are paid in the background; the batch is read until every row is handled.',
      invoke: {
        id: 'watchBatch',
        src: 'watchBatch',
        input: ({ context }) => ({ batchId: context.created!.batchId }),
      },
      on: {
        'BATCH.PROGRESS': [
          {
            guard: { type: 'isBatchFinished', params: ({ event }) => event.batch },
            target: 'done',
            actions: { type: 'storeBatch', params: ({ event }) => event.batch },
            description: 'Every row is handled: the batch is done (or partly done, with each failed row and its reason).',
          },
          { actions: { type: 'storeBatch', params: ({ event }) => event.batch }, description: 'More rows are paid: the progress bar moves.' },
        ],
      },
    },
    done: {
      description: 'The batch is finished: how many rows were paid, and which failed and why.',
      on: { 'BATCH.NEW': { target: 'editing', actions: 'reset', description: 'The customer starts another batch.' } },
    },
    failed: {
      description: 'The batch was not approved and nothing was paid; the reason is shown.',
      on: { 'BATCH.NEW': { target: 'editing', actions: 'reset', description: 'The customer starts another batch.' } },
    },
  },
});

export type MassTransferMachine = typeof massTransferMachine;
