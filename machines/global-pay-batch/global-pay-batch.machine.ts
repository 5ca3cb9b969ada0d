/**
 * Global pay from a file, the sender's side (document 2 §2 /transfer/mass/global and
 * /transfer/external/global-summary, §3 "Global-pay batch", §7 "Global-pay, sender side", §9 the
 * confirm code '92'; api/global-pay.ts "Sender side"): a CSV becomes a draft batch, the draft is
 * edited, summed up, submitted and approved; each beneficiary is then e-mailed a link.
 *
 * ```
 * loading ─ok─▶ form ─UPLOAD (account, name, file)─▶ uploading ─'00'─▶ draft
 *    └─failed─▶ loadFailed   ▲    ▲  ◀── rows refused (by line and column), refused, no answer ─┤
 *                            │    └──── IDENTICAL.NO ── identical ◀── '92' (the same file before) ┘
 *                            │                            └─IDENTICAL.YES─▶ uploading (ignoreIdenticalBatch)
 *                            └─ok── discarding ◀─DISCARD.CONFIRM── discardAsked ◀─DRAFT.DISCARD─┐
 * draft ─PAYMENT.REMOVE/RESTORE, FEE.SET, METHOD.SET─▶ saving ─the batch answered (or an error)─▶ draft
 * draft ─DRAFT.CONTINUE─▶ summary (quoting ─the held fee worked out, or not─▶ ready) ─SUMMARY.BACK─▶ draft
 * summary.ready ─SUBMIT─▶ submitting ─none─▶ done · ─approval─▶ approving (the approval machine)
 *                      ├─VF payments.<id>.amount─▶ draft (the rows marked)
 *                      └─refused / no answer (same key on retry)─▶ summary.ready
 * approving ─approved─▶ done · ─canceled─▶ canceled · ─declined, expired─▶ failed
 * done ─BATCH.CANCEL─▶ cancelAsked ─CANCEL.CONFIRM─▶ canceling ─ok─▶ canceled · refused ─▶ done
 * done, canceled, failed ─BATCH.NEW─▶ form
 * ```
 *
 * Each draft edit is one call that answers the whole batch: the batch shown is replaced by the
 * answer; a refusal keeps the batch and the selection as they were. The submission carries an
 * idempotency key made when the summary is shown, kept on a retry after no answer. Its approval is
 * the one approval machine of every transfer (approveTransfer approves the batch's request).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { InferOutput } from 'valibot';
import type { Failure } from '../../api/envelope.ts';
import type { Account } from '../../api/accounts.ts';
import type { GlobalBatchSchema } from '../../api/global-pay.ts';
import type { PayoutMethod } from '../../api/payees/payout-methods.ts';
import { approvalMachine, type ApprovalMode, type ApprovalOutput } from '../approval/approval.machine.ts';
import { newIdempotencyKey } from '../approval/idempotency-key.ts';

export type GlobalBatch = InferOutput<typeof GlobalBatchSchema>;
export type GlobalPayment = GlobalBatch['payments'][number];
export type FeeShare = GlobalPayment['feeShare'];

/** One validation error as the platform answers it. */
export type GlobalPayError = NonNullable<Failure['validationErrors']>[number];

export interface GlobalPayFile {
  name: string;
  content: Blob;
}

export interface GlobalPayForm {
  accountId: number | null;
  batchName: string;
  file: GlobalPayFile | null;
}

/** What the submission answered (a transfer request). */
export interface GlobalPaySubmitted {
  transactionId: number;
  status: string;
  approveType: string;
  approvalSentTo: string | null;
  amount: string;
  fee: string;
  currency: string;
  expiresAt: string;
}

export interface UploadRequest {
  accountId: number;
  batchName: string;
  file: GlobalPayFile;
  ignoreIdenticalBatch: boolean;
}

/** One draft edit (each one call answering the whole batch). */
export type DraftEdit =
  | { kind: 'remove'; id: number }
  | { kind: 'restore'; id: number }
  | { kind: 'feeSide'; ids: number[]; feeShare: FeeShare }
  | { kind: 'method'; ids: number[]; method: PayoutMethod; forbidden: boolean };

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
export type LoadResult = { ok: true; accounts: Account[] } | Refusal;
export type UploadResult =
  | { ok: true; batch: GlobalBatch }
  /** '92': a batch of the same account with the same file exists (its id and date) */
  | { ok: false; code: 'identical'; batchId: number; date: string }
  | { ok: false; code: 'rows'; errors: GlobalPayError[] }
  | Refusal;
export type BatchResult = { ok: true; batch: GlobalBatch } | Refusal;
/** What submitting will hold: the fees (the largest of each payment's allowed methods, when the sender pays it) and the amounts with them. */
export interface GlobalPayQuote {
  fee: string;
  total: string;
}
export type QuoteResult = { ok: true; quote: GlobalPayQuote } | Refusal;
export type SubmitResult = { ok: true; submitted: GlobalPaySubmitted } | { ok: false; code: 'rows'; errors: GlobalPayError[] } | Refusal;

export type GlobalPayEvent =
  | { type: 'LOAD.RETRY' }
  | { type: 'FORM.ACCOUNT'; accountId: number }
  | { type: 'FORM.NAME'; batchName: string }
  | { type: 'FORM.FILE'; file: GlobalPayFile | null }
  | { type: 'UPLOAD' }
  | { type: 'IDENTICAL.YES' }
  | { type: 'IDENTICAL.NO' }
  | { type: 'DRAFT.SELECT'; ids: number[] }
  | { type: 'DRAFT.METHOD'; method: PayoutMethod | null }
  | { type: 'PAYMENT.REMOVE'; id: number }
  | { type: 'PAYMENT.RESTORE'; id: number }
  | { type: 'FEE.SET'; feeShare: FeeShare }
  | { type: 'METHOD.SET'; forbidden: boolean }
  | { type: 'DRAFT.DISCARD' }
  | { type: 'DISCARD.CONFIRM' }
  | { type: 'DISCARD.KEEP' }
  | { type: 'DRAFT.CONTINUE' }
  | { type: 'SUMMARY.BACK' }
  | { type: 'SUBMIT' }
  | { type: 'BATCH.CANCEL' }
  | { type: 'CANCEL.CONFIRM' }
  | { type: 'CANCEL.KEEP' }
  | { type: 'BATCH.NEW' };

export interface GlobalPayContext {
  accounts: Account[];
  form: GlobalPayForm;
  /** the form has nothing to upload yet (shown when the customer tries) */
  missing: boolean;
  /** the platform's validation errors of the last upload (rows.<line>.<column>, file, ...) or submission (payments.<id>.amount) */
  errors: GlobalPayError[];
  /** '92': the identical batch the platform found */
  identical: { batchId: number; date: string } | null;
  /** the upload confirmed: sent again with ignoreIdenticalBatch */
  ignoreIdentical: boolean;
  batch: GlobalBatch | null;
  /** the payments the next fee-side or method edit applies to */
  selection: number[];
  /** the method a forbid/allow applies to */
  method: PayoutMethod | null;
  /** the submission's key: made when the summary is shown, kept after no answer */
  key: string | null;
  unanswered: boolean;
  submitted: GlobalPaySubmitted | null;
  /** what submitting will hold, worked out for the summary (null: not known) */
  quote: GlobalPayQuote | null;
  /** a refusal (or no answer) shown over the current step */
  failure: Failure | { responseCode: 'network' } | null;
  loadFailure: Refusal | null;
  outcome: Extract<ApprovalOutput, { result: 'failed' }> | null;
  /** the draft was discarded: told on the new form */
  discarded: boolean;
}

const emptyForm = (accountId: number | null = null): GlobalPayForm => ({ accountId, batchName: '', file: null });

export function formReady(form: GlobalPayForm): boolean {
  return form.accountId !== null && form.batchName.trim() !== '' && form.file !== null;
}

type AnyResult = { ok: true } | { ok: false; code: string; failure?: Failure };
const failureOf = (r: AnyResult): GlobalPayContext['failure'] => (r.ok ? null : r.code === 'failed' && r.failure ? r.failure : { responseCode: 'network' as const });

export const globalPayBatchMachine = setup({
  types: {
    context: {} as GlobalPayContext,
    events: {} as GlobalPayEvent,
  },
  actors: {
    loadAccounts: fromPromise<LoadResult>(async () => {
      throw new Error('loadAccounts is provided by the app');
    }),
    uploadBatch: fromPromise<UploadResult, UploadRequest>(async () => {
      throw new Error('uploadBatch is provided by the app');
    }),
    editBatch: fromPromise<BatchResult, { batchId: number; edit: DraftEdit }>(async () => {
      throw new Error('editBatch is provided by the app');
    }),
    discardBatch: fromPromise<BatchResult, { batchId: number }>(async () => {
      throw new Error('discardBatch is provided by the app');
    }),
    submitBatch: fromPromise<SubmitResult, { batchId: number; idempotencyKey: string }>(async () => {
      throw new Error('submitBatch is provided by the app');
    }),
    cancelBatch: fromPromise<BatchResult, { batchId: number }>(async () => {
      throw new Error('cancelBatch is provided by the app');
    }),
    quoteBatch: fromPromise<QuoteResult, { accountId: number; payments: GlobalPayment[] }>(async () => {
      throw new Error('quoteBatch is provided by the app');
    }),
    approval: approvalMachine,
  },
  guards: {
    isLoaded: (_, r: LoadResult) => r.ok,
    isFormReady: ({ context }) => formReady(context.form),
    isOk: (_, r: { ok: boolean }) => r.ok,
    isIdentical: (_, r: UploadResult) => !r.ok && r.code === 'identical',
    hasRowErrors: (_, r: UploadResult | SubmitResult) => !r.ok && r.code === 'rows',
    isUnanswered: (_, r: SubmitResult) => !r.ok && r.code === 'network',
    hasSelection: ({ context }) => context.selection.length > 0,
    canSetMethod: ({ context }) => context.selection.length > 0 && context.method !== null,
    isPaid: (_, r: SubmitResult) => r.ok && r.submitted.approveType === 'none',
    isApproved: (_, o: ApprovalOutput) => o.result === 'approved',
    isCanceled: (_, o: ApprovalOutput) => o.result === 'canceled',
  },
  actions: {
    storeAccounts: assign(({ context }, r: LoadResult) => {
      const accounts = r.ok ? r.accounts : [];
      const kept = accounts.some((a) => a.accountId === context.form.accountId) ? context.form.accountId : (accounts[0]?.accountId ?? null);
      return { accounts, loadFailure: null, form: { ...context.form, accountId: kept } };
    }),
    storeLoadFailure: assign((_, r: LoadResult) => ({ loadFailure: r.ok ? null : r })),
    setForm: assign(({ context }, change: Partial<GlobalPayForm>) => ({ form: { ...context.form, ...change }, errors: [], missing: false, identical: null })),
    markMissing: assign({ missing: true }),
    startUpload: assign({ errors: [], failure: null, discarded: false, ignoreIdentical: false }),
    confirmIdentical: assign({ ignoreIdentical: true, identical: null }),
    dropIdentical: assign({ identical: null }),
    storeDraft: assign((_, batch: GlobalBatch) => ({ batch, selection: [], method: null, failure: null, errors: [] })),
    storeIdentical: assign((_, r: UploadResult) => ({ identical: !r.ok && r.code === 'identical' ? { batchId: r.batchId, date: r.date } : null })),
    storeErrors: assign((_, r: UploadResult | SubmitResult) => ({ errors: !r.ok && r.code === 'rows' ? r.errors : [] })),
    storeFailure: assign((_, r: AnyResult) => ({ failure: failureOf(r) })),
    select: assign((_, ids: number[]) => ({ selection: ids })),
    pickMethod: assign((_, method: PayoutMethod | null) => ({ method })),
    startEdit: assign({ failure: null }),
    /** the batch the edit answered (selection and method kept: the next edit may follow) */
    storeBatch: assign(({ context }, batch: GlobalBatch) => ({
      batch,
      errors: context.errors.filter((e) => batch.payments.some((p) => e.param === `payments.${p.id}.amount` && p.status !== 'deleted')),
    })),
    /** the rows marked by a submission are checked again by the next one */
    openSummary: assign({ key: () => newIdempotencyKey(), unanswered: false, failure: null, errors: [], quote: null }),
    storeQuote: assign((_, r: QuoteResult) => ({ quote: r.ok ? r.quote : null })),
    startSubmit: assign({ failure: null }),
    storeSubmitted: assign((_, r: SubmitResult) => ({ submitted: r.ok ? r.submitted : null, unanswered: false, key: null })),
    /** approved: the request's status now (pending: approved by its right-3 initiator, it waits for the company's checker) */
    storeApprovedStatus: assign(({ context }, o: ApprovalOutput) => ({
      submitted: context.submitted && o.result === 'approved' ? { ...context.submitted, status: o.status } : context.submitted,
    })),
    markUnanswered: assign({ unanswered: true, failure: { responseCode: 'network' as const } }),
    /** a refusal answered: nothing was held; the next submission gets a new key */
    storeRefusal: assign((_, r: AnyResult) => ({ failure: failureOf(r), unanswered: false, key: newIdempotencyKey() })),
    storeOutcome: assign((_, o: ApprovalOutput) => ({ outcome: o.result === 'failed' ? o : null })),
    noteDiscarded: assign(({ context }) => ({ ...fresh(context.accounts, context.form.accountId), discarded: true })),
    reset: assign(({ context }) => fresh(context.accounts, context.form.accountId)),
  },
}).createMachine({
  id: 'globalPayBatch',
  description: 'The customer pays many people who need no account: a CSV becomes a draft batch, edited, summed up, submitted and approved; each beneficiary is e-mailed a link.',
  meta: { spec: ['document 2 §2', 'document 2 §7', 'document 2 §9'] },
  context: () => fresh([], null),
  initial: 'loading',
  states: {
    loading: {
      description: "The customer's accounts that can pay are loaded.",
      invoke: {
        id: 'loadAccounts',
        src: 'loadAccounts',
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'form',
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
    form: {
      description: 'The customer chooses the account, names the batch and gives the CSV file.',
      on: {
        'FORM.ACCOUNT': { actions: { type: 'setForm', params: ({ event }) => ({ accountId: event.accountId }) }, description: 'The customer picks the account that pays.' },
        'FORM.NAME': { actions: { type: 'setForm', params: ({ event }) => ({ batchName: event.batchName }) }, description: 'The customer names the batch.' },
        'FORM.FILE': { actions: { type: 'setForm', params: ({ event }) => ({ file: event.file }) }, description: 'The customer picks (or removes) the CSV file.' },
        UPLOAD: [
          { guard: 'isFormReady', target: 'uploading', actions: 'startUpload', description: 'The file goes to the platform: every row is checked and a draft batch made.' },
          { actions: 'markMissing', description: 'Something is missing: the customer is told what to give.' },
        ],
      },
    },
    uploading: {
      description: 'The platform checks every row of the file and makes a draft batch (nothing is held).',
      tags: ['busy'],
      invoke: {
        id: 'uploadBatch',
        src: 'uploadBatch',
        input: ({ context }) => ({
          accountId: context.form.accountId!,
          batchName: context.form.batchName.trim(),
          file: context.form.file!,
          ignoreIdenticalBatch: context.ignoreIdentical,
        }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'draft',
            actions: { type: 'storeDraft', params: ({ event }) => (event.output.ok ? event.output.batch : null!) },
            description: 'The draft batch was made: its payments are shown to be edited.',
          },
          {
            guard: { type: 'isIdentical', params: ({ event }) => event.output },
            target: 'identical',
            actions: { type: 'storeIdentical', params: ({ event }) => event.output },
            description: "The platform answered '92': a batch with the same file was uploaded before; the customer is asked.",
          },
          {
            guard: { type: 'hasRowErrors', params: ({ event }) => event.output },
            target: 'form',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: 'Rows (or the file) were refused: each problem is shown by its line and column; nothing was made.',
          },
          {
            target: 'form',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The platform refused the upload; its words are shown over the form.',
          },
        ],
        onError: { target: 'form', actions: { type: 'storeFailure', params: { ok: false, code: 'network' } }, description: 'No answer came; the customer may upload again.' },
      },
    },
    identical: {
      description: 'A batch with the same file was uploaded on a date shown: the customer says whether to upload it again.',
      meta: { spec: ['document 2 §9'] },
      on: {
        'IDENTICAL.YES': { target: 'uploading', actions: 'confirmIdentical', description: 'The customer uploads it again: the call is resent with ignoreIdenticalBatch.' },
        'IDENTICAL.NO': { target: 'form', actions: 'dropIdentical', description: 'The customer does not: back to the form, nothing made.' },
      },
    },
    draft: {
      description: 'The draft batch: its payments, each removable and restorable; the fee side and the methods set for a selection.',
      on: {
        'DRAFT.SELECT': { actions: { type: 'select', params: ({ event }) => event.ids }, description: 'The customer selects the payments the next change applies to.' },
        'DRAFT.METHOD': { actions: { type: 'pickMethod', params: ({ event }) => event.method }, description: 'The customer picks the payout method to forbid or allow.' },
        'PAYMENT.REMOVE': { target: 'saving', actions: 'startEdit', description: 'The customer removes a payment (it stays listed, struck, until restored).' },
        'PAYMENT.RESTORE': { target: 'saving', actions: 'startEdit', description: 'The customer restores a removed payment.' },
        'FEE.SET': { guard: 'hasSelection', target: 'saving', actions: 'startEdit', description: 'The customer sets who pays the fee of the selected payments.' },
        'METHOD.SET': {
          guard: 'canSetMethod',
          target: 'saving',
          actions: 'startEdit',
          description: 'The customer forbids (or allows again) the method for the selected payments.',
        },
        'DRAFT.DISCARD': { target: 'discardAsked', actions: 'startEdit', description: 'The customer asks to discard the draft: asked to confirm.' },
        'DRAFT.CONTINUE': { target: 'summary', actions: 'openSummary', description: 'The customer goes on to the summary; the submission key is made.' },
      },
    },
    saving: {
      description: 'One draft edit is sent; the platform answers the whole batch.',
      tags: ['busy'],
      invoke: {
        id: 'editBatch',
        src: 'editBatch',
        input: ({ context, event }) => ({ batchId: context.batch!.batchId, edit: editOf(context, event) }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'draft',
            actions: { type: 'storeBatch', params: ({ event }) => (event.output.ok ? event.output.batch : null!) },
            description: 'The edit was made: the batch as the platform answered it is shown.',
          },
          {
            target: 'draft',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The edit was refused (or got no answer): the batch and the selection stay as they were.',
          },
        ],
        onError: { target: 'draft', actions: { type: 'storeFailure', params: { ok: false, code: 'network' } }, description: 'No answer came; nothing is lost.' },
      },
    },
    discardAsked: {
      description: 'The customer is asked to confirm discarding the draft.',
      on: {
        'DISCARD.CONFIRM': { target: 'discarding', description: 'The customer confirms: the draft is discarded.' },
        'DISCARD.KEEP': { target: 'draft', description: 'The customer keeps the draft.' },
      },
    },
    discarding: {
      description: 'The draft is discarded (globalPayBatchReject); nothing was held.',
      tags: ['busy'],
      invoke: {
        id: 'discardBatch',
        src: 'discardBatch',
        input: ({ context }) => ({ batchId: context.batch!.batchId }),
        onDone: [
          { guard: { type: 'isOk', params: ({ event }) => event.output }, target: 'form', actions: 'noteDiscarded', description: 'The draft was discarded: a new form, told so.' },
          { target: 'draft', actions: { type: 'storeFailure', params: ({ event }) => event.output }, description: 'The discard was refused (or got no answer): the draft stays.' },
        ],
        onError: { target: 'draft', actions: { type: 'storeFailure', params: { ok: false, code: 'network' } }, description: 'No answer came: the draft stays.' },
      },
    },
    summary: {
      description: 'The summary before submitting: the account, the count, the amounts, the fees to hold and the total; the submission key kept.',
      meta: { spec: ['document 2 §2'] },
      initial: 'quoting',
      on: {
        'SUMMARY.BACK': { target: 'draft', actions: 'startEdit', description: 'The customer goes back to the draft.' },
      },
      states: {
        quoting: {
          description: 'The fees to hold are worked out: for each payment whose fee the sender pays, the largest fee of the methods its payee may choose.',
          invoke: {
            id: 'quoteBatch',
            src: 'quoteBatch',
            input: ({ context }) => ({ accountId: context.batch!.accountId, payments: context.batch!.payments.filter((p) => p.status !== 'deleted') }),
            onDone: [
              {
                guard: { type: 'isOk', params: ({ event }) => event.output },
                target: 'ready',
                actions: { type: 'storeQuote', params: ({ event }) => event.output },
                description: 'The fees to hold and the total are shown.',
              },
              { target: 'ready', description: 'The fees could not be worked out: the summary says they are worked out on submitting.' },
            ],
            onError: { target: 'ready', description: 'No answer came: the summary says the fees are worked out on submitting.' },
          },
        },
        ready: {
          description: 'The summary is complete; the customer may submit.',
          on: {
            SUBMIT: { target: '#globalPayBatch.submitting', actions: 'startSubmit', description: 'The customer submits: the total is held and the approval starts.' },
          },
        },
      },
    },
    submitting: {
      description: 'The batch is submitted with the key made for it (globalPayBatchSubmit): its total is held.',
      tags: ['busy'],
      invoke: {
        id: 'submitBatch',
        src: 'submitBatch',
        input: ({ context }) => ({ batchId: context.batch!.batchId, idempotencyKey: context.key! }),
        onDone: [
          {
            guard: { type: 'isPaid', params: ({ event }) => event.output },
            target: 'done',
            actions: { type: 'storeSubmitted', params: ({ event }) => event.output },
            description: 'No approval is set: the batch is submitted and each beneficiary e-mailed.',
          },
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'approving',
            actions: { type: 'storeSubmitted', params: ({ event }) => event.output },
            description: 'The batch is submitted with its total held; the customer approves it by the approval mode.',
          },
          {
            guard: { type: 'hasRowErrors', params: ({ event }) => event.output },
            target: 'draft',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: 'A payment is outside a method’s limits (payments.<id>.amount): back to the draft with its row marked.',
          },
          {
            guard: { type: 'isUnanswered', params: ({ event }) => event.output },
            target: 'summary.ready',
            actions: 'markUnanswered',
            description: 'No answer came: submitting again reuses the key, and nothing is held twice.',
          },
          {
            target: 'summary.ready',
            actions: { type: 'storeRefusal', params: ({ event }) => event.output },
            description: 'The platform refused the batch; its words are shown over the summary.',
          },
        ],
        onError: { target: 'summary.ready', actions: 'markUnanswered', description: 'The call failed without an answer; submitting again reuses the key.' },
      },
    },
    approving: {
      description: 'The batch awaits its approval in the approval flow every transfer uses.',
      meta: { spec: ['document 2 §4'] },
      invoke: {
        id: 'approval',
        src: 'approval',
        input: ({ context }) => ({
          transactionId: context.submitted!.transactionId,
          approveType: context.submitted!.approveType as ApprovalMode,
          approvalSentTo: context.submitted!.approvalSentTo,
          expiresAt: context.submitted!.expiresAt,
        }),
        onDone: [
          {
            guard: { type: 'isApproved', params: ({ event }) => event.output },
            target: 'done',
            actions: { type: 'storeApprovedStatus', params: ({ event }) => event.output },
            description: 'The batch was approved: each beneficiary is e-mailed a link.',
          },
          {
            guard: { type: 'isCanceled', params: ({ event }) => event.output },
            target: 'canceled',
            description: 'The customer canceled the batch in the approval (the hold released).',
          },
          {
            target: 'failed',
            actions: { type: 'storeOutcome', params: ({ event }) => event.output },
            description: 'The batch was not approved (declined, expired or refused); nothing was paid.',
          },
        ],
      },
    },
    done: {
      description: 'The batch is submitted and each beneficiary e-mailed; the customer may cancel the payments not yet taken.',
      on: {
        'BATCH.CANCEL': { target: 'cancelAsked', actions: 'startEdit', description: 'The customer asks to cancel the batch: asked to confirm.' },
        'BATCH.NEW': { target: 'form', actions: 'reset', description: 'The customer starts another batch.' },
      },
    },
    cancelAsked: {
      description: 'The customer is asked to confirm canceling the payments not yet taken.',
      on: {
        'CANCEL.CONFIRM': { target: 'canceling', description: 'The customer confirms: the batch is canceled.' },
        'CANCEL.KEEP': { target: 'done', description: 'The customer keeps the batch.' },
      },
    },
    canceling: {
      description: 'The batch is canceled (globalPayBatchCancel): every payment not yet taken comes back.',
      tags: ['busy'],
      invoke: {
        id: 'cancelBatch',
        src: 'cancelBatch',
        input: ({ context }) => ({ batchId: context.batch!.batchId }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'canceled',
            actions: { type: 'storeBatch', params: ({ event }) => (event.output.ok ? event.output.batch : null!) },
            description: 'The batch was canceled: the money of the payments not taken is available again.',
          },
          { target: 'done', actions: { type: 'storeFailure', params: ({ event }) => event.output }, description: 'The cancel was refused (or got no answer); the batch goes on.' },
        ],
        onError: { target: 'done', actions: { type: 'storeFailure', params: { ok: false, code: 'network' } }, description: 'No answer came; the batch goes on.' },
      },
    },
    canceled: {
      description: 'The batch was canceled; nothing more is paid from it.',
      on: { 'BATCH.NEW': { target: 'form', actions: 'reset', description: 'The customer starts another batch.' } },
    },
    failed: {
      description: 'The batch was not approved and nothing was paid; the reason is shown.',
      on: { 'BATCH.NEW': { target: 'form', actions: 'reset', description: 'The customer starts another batch.' } },
    },
  },
});

function fresh(accounts: Account[], accountId: number | null): GlobalPayContext {
  return {
    accounts,
    form: emptyForm(accountId),
    missing: false,
    errors: [],
    identical: null,
    ignoreIdentical: false,
    batch: null,
    selection: [],
    method: null,
    key: null,
    unanswered: false,
    submitted: null,
    quote: null,
    failure: null,
    loadFailure: null,
    outcome: null,
    discarded: false,
  };
}

/** The edit an event asks for (the selection and method as chosen in the draft). */
function editOf(context: GlobalPayContext, event: GlobalPayEvent): DraftEdit {
  switch (event.type) {
    case 'PAYMENT.REMOVE':
      return { kind: 'remove', id: event.id };
    case 'PAYMENT.RESTORE':
      return { kind: 'restore', id: event.id };
    case 'FEE.SET':
      return { kind: 'feeSide', ids: context.selection, feeShare: event.feeShare };
    case 'METHOD.SET':
      return { kind: 'method', ids: context.selection, method: context.method!, forbidden: event.forbidden };
    default:
      throw new Error(`no edit for ${event.type}`);
  }
}

export type GlobalPayBatchMachine = typeof globalPayBatchMachine;
