/** Snapshot -> view facts for a transfer page (every kind). */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { ApprovalMachine } from '../approval/approval.machine.ts';
import type { TransferMachine } from './transfer.machine.ts';
import { TRANSFER_KINDS, accountById, addDecimal, amountCurrency, availableBalance, payeeProblem } from './transfer.rules.ts';

export type TransferSnapshot = SnapshotFrom<TransferMachine>;
export type TransferStep = 'loading' | 'loadFailed' | 'notAllowed' | 'editing' | 'reviewing' | 'approving' | 'done' | 'failed';

export function selectTransferView(s: TransferSnapshot) {
  const c = s.context;
  const step: TransferStep = s.matches('loading')
    ? 'loading'
    : s.matches('loadFailed')
      ? 'loadFailed'
      : s.matches('notAllowed')
        ? 'notAllowed'
        : s.matches('editing')
          ? 'editing'
          : s.matches('reviewing') || s.matches('submitting')
            ? 'reviewing'
            : s.matches('approving')
              ? 'approving'
              : s.matches('done')
                ? 'done'
                : 'failed';
  const source = accountById(c.accounts, c.form.fromAccountId) ?? null;
  const destination = accountById(c.accounts, c.form.toAccountId) ?? null;
  const payeeMatchesForm = c.payee !== null && c.payee.email === c.form.payeeEmail.trim().toLowerCase();
  return {
    step,
    kind: c.kind,
    rules: TRANSFER_KINDS[c.kind],
    accounts: c.accounts,
    recent: c.recent,
    form: c.form,
    source,
    destination,
    /** the currency the amount is in */
    amountCurrency: amountCurrency(c.form, c.accounts),
    fieldErrors: c.fieldErrors,
    quote: c.quote,
    /** what leaves the source account: the amount plus the fee, in the source's currency (both are, in a quote) */
    total: c.quote && c.quote.feeCurrency === c.quote.currency ? { amount: addDecimal(c.quote.amount, c.quote.fee), currency: c.quote.currency } : null,
    /** the source's available balance (balance less held money and its minimum) */
    available: source ? { amount: availableBalance(source), currency: source.currency } : null,
    feeBusy: s.hasTag('feeBusy'),
    feeFailure: c.feeFailure,
    canRetryFee: s.can({ type: 'FEE.RETRY' }),
    limits: c.limits,
    payee: payeeMatchesForm ? c.payee : null,
    payeeProblem: payeeMatchesForm && c.payee ? payeeProblem(c.payee) : null,
    payeeBusy: s.hasTag('payeeBusy'),
    payeeUnchecked: c.payeeUnchecked,
    maxBusy: s.hasTag('maxBusy'),
    maxFailure: c.maxFailure,
    canAskMax: s.can({ type: 'MAX.REQUEST' }),
    /** external: the methods offered (null: not known), the chosen method's payee form and their lookups */
    methods: c.methods,
    methodsBusy: s.hasTag('methodsBusy'),
    methodsFailure: c.methodsFailure,
    canRetryMethods: s.can({ type: 'METHODS.RETRY' }),
    payeeForm: c.payeeForm,
    payeeFormBusy: s.hasTag('payeeFormBusy'),
    payeeFormFailure: c.payeeFormFailure,
    canRetryPayeeForm: s.can({ type: 'PAYEE_FORM.RETRY' }),
    reviewBlock: c.reviewBlock,
    request: c.request,
    submitting: s.matches('submitting'),
    submitUnanswered: c.submitUnanswered,
    failure: c.failure,
    loadFailure: c.loadFailure,
    result: c.result,
    /** after success: posted (the money has gone) or pending (it waits for an approval) */
    resultStatus: c.result?.status ?? null,
    outcome: c.outcome,
    notice: c.notice,
    busy: s.hasTag('busy'),
    /** the approval child while approving */
    approval: s.matches('approving') ? ((s.children as { approval?: ActorRefFrom<ApprovalMachine> }).approval ?? null) : null,
  };
}

export type TransferView = ReturnType<typeof selectTransferView>;
