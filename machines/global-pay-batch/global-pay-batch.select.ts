/** Snapshot -> view facts for the global-pay batch pages (machines/global-pay-batch). */
import type { SnapshotFrom } from 'xstate';
import type { PayoutMethod } from '../../api/payees/payout-methods.ts';
import { splitErrors } from '../mass-transfer/mass-transfer.select.ts';
import type { GlobalPayBatchMachine, GlobalPayError, GlobalPayment } from './global-pay-batch.machine.ts';

export type GlobalPaySnapshot = SnapshotFrom<GlobalPayBatchMachine>;
export type GlobalPayStep = 'loading' | 'loadFailed' | 'form' | 'identical' | 'draft' | 'summary' | 'approving' | 'done' | 'canceled' | 'failed';

/** The steps on the summary route (/transfer/external/global-summary); the others on /transfer/mass/global. */
export const SUMMARY_STEPS: readonly GlobalPayStep[] = ['summary', 'approving', 'done', 'canceled', 'failed'];

export function selectGlobalPayStep(s: GlobalPaySnapshot): GlobalPayStep {
  if (s.matches('loading')) return 'loading';
  if (s.matches('loadFailed')) return 'loadFailed';
  if (s.matches('form') || s.matches('uploading')) return 'form';
  if (s.matches('identical')) return 'identical';
  if (s.matches('draft') || s.matches('saving') || s.matches('discardAsked') || s.matches('discarding')) return 'draft';
  if (s.matches('summary') || s.matches('submitting')) return 'summary';
  if (s.matches('approving')) return 'approving';
  if (s.matches('done') || s.matches('cancelAsked') || s.matches('canceling')) return 'done';
  if (s.matches('canceled')) return 'canceled';
  return 'failed';
}

/** The submission's errors by payment (payments.<id>.amount), the others apart. */
export function paymentErrors(errors: readonly GlobalPayError[]): Map<number, GlobalPayError[]> {
  const out = new Map<number, GlobalPayError[]>();
  for (const error of errors) {
    const match = /^payments\.(\d+)\./.exec(error.param);
    if (!match) continue;
    const id = Number(match[1]);
    out.set(id, [...(out.get(id) ?? []), error]);
  }
  return out;
}

/** The sum of decimal strings, exactly (no floating point): the held fees of many payments. */
export function sumDecimals(values: readonly string[]): string {
  const scale = Math.max(0, ...values.map((x) => (x.split('.')[1] ?? '').length));
  const units = (x: string) => {
    const [whole = '0', fraction = ''] = x.split('.');
    return BigInt(whole + fraction.padEnd(scale, '0'));
  };
  const sum = values
    .reduce((total, x) => total + units(x), 0n)
    .toString()
    .padStart(scale + 1, '0');
  return scale === 0 ? sum : `${sum.slice(0, -scale)}.${sum.slice(-scale)}`;
}

/** The methods a selection may forbid or allow: those offered to any of the selected payments. */
export function methodsOf(payments: readonly GlobalPayment[], ids: readonly number[]): PayoutMethod[] {
  const names = new Set<PayoutMethod>();
  for (const p of payments) if (ids.includes(p.id)) for (const m of p.paymentMethods) names.add(m.name);
  return [...names];
}

export function selectGlobalPayView(s: GlobalPaySnapshot) {
  const c = s.context;
  const payments = c.batch?.payments ?? [];
  const account = c.accounts.find((a) => a.accountId === (c.batch?.accountId ?? c.form.accountId)) ?? null;
  return {
    step: selectGlobalPayStep(s),
    busy: s.hasTag('busy'),
    uploading: s.matches('uploading'),
    saving: s.matches('saving'),
    submitting: s.matches('submitting'),
    quoting: s.matches({ summary: 'quoting' }),
    canSubmit: s.can({ type: 'SUBMIT' }),
    /** what submitting will hold (null: not known) */
    quote: c.quote,
    askingDiscard: s.matches('discardAsked') || s.matches('discarding'),
    discarding: s.matches('discarding'),
    askingCancel: s.matches('cancelAsked') || s.matches('canceling'),
    canceling: s.matches('canceling'),
    accounts: c.accounts,
    account,
    form: c.form,
    missing: c.missing,
    /** the upload's errors: rows by line and column, the file, the account, others */
    errors: splitErrors(c.errors.filter((e) => !e.param.startsWith('payments.'))),
    paymentErrors: paymentErrors(c.errors),
    identical: c.identical,
    batch: c.batch,
    payments,
    selection: c.selection,
    method: c.method,
    methods: methodsOf(payments, c.selection),
    canSetFee: s.can({ type: 'FEE.SET', feeShare: 'sender' }),
    canSetMethod: s.can({ type: 'METHOD.SET', forbidden: true }),
    submitted: c.submitted,
    unanswered: c.unanswered,
    failure: c.failure,
    loadFailure: c.loadFailure,
    outcome: c.outcome,
    discarded: c.discarded,
    /** the approval machine's actor while approving */
    approval: s.children.approval ?? null,
  };
}
export type GlobalPayView = ReturnType<typeof selectGlobalPayView>;
