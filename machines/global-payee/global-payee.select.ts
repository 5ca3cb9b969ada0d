/** Snapshot -> view facts for the global-pay payee page (machines/global-payee). */
import type { SnapshotFrom } from 'xstate';
import type { FieldError } from '../transfer/transfer.rules.ts';
import type { GlobalPayeeMachine } from './global-payee.machine.ts';

export type PayeeSnapshot = SnapshotFrom<GlobalPayeeMachine>;
export type PayeeStep = 'loading' | 'loadFailed' | 'blocked' | 'closed' | 'details' | 'confirmingRefusal' | 'country' | 'method' | 'form' | 'code' | 'done';

/** The steps with a Back button. */
const BACK_STEPS: readonly PayeeStep[] = ['confirmingRefusal', 'country', 'method', 'form', 'code'];

export function selectPayeeStep(s: PayeeSnapshot): PayeeStep {
  if (s.matches('loading')) return 'loading';
  if (s.matches('loadFailed')) return 'loadFailed';
  if (s.matches('blocked')) return 'blocked';
  if (s.matches('closed')) return 'closed';
  if (s.matches('details') || s.matches('loadingCountries')) return 'details';
  if (s.matches('confirmingRefusal') || s.matches('refusing')) return 'confirmingRefusal';
  if (s.matches('choosingCountry') || s.matches('loadingMethods')) return 'country';
  if (s.matches('choosingMethod') || s.matches('loadingForm')) return 'method';
  if (s.matches('filling') || s.matches('submitting')) return 'form';
  if (s.matches('code')) return 'code';
  return 'done';
}

/** The platform's `paymentDetails.<field>` errors by field name; the others (another param) apart. */
export function splitPayeeErrors(errors: PayeeSnapshot['context']['errors']): { byField: Record<string, FieldError>; other: PayeeSnapshot['context']['errors'] } {
  const byField: Record<string, FieldError> = {};
  const other: PayeeSnapshot['context']['errors'] = [];
  for (const error of errors) {
    const match = /^paymentDetails\.(.+)$/.exec(error.param);
    if (match) byField[match[1]!] ??= { code: 'server', error };
    else other.push(error);
  }
  return { byField, other };
}

export function selectPayeeView(s: PayeeSnapshot) {
  const c = s.context;
  const errors = splitPayeeErrors(c.errors);
  return {
    step: selectPayeeStep(s),
    busy: s.hasTag('busy'),
    resending: s.hasTag('resending'),
    /** a new code may be asked now (the wait after the last one is over) */
    canResend: s.can({ type: 'CODE.RESEND' }),
    canBack: s.can({ type: 'BACK' }),
    /** the step has a way back (disabled while its call runs) */
    backOffered: BACK_STEPS.includes(selectPayeeStep(s)),
    details: c.details,
    status: c.status,
    blocked: c.blocked,
    countries: c.countries,
    countryCode: c.countryCode,
    methods: c.methods,
    method: c.method,
    form: c.form,
    quote: c.quote,
    withdrawals: c.withdrawals,
    values: c.values,
    fieldErrors: errors.byField,
    otherErrors: errors.other,
    operation: c.operation,
    codeError: c.codeError,
    notice: c.notice,
  };
}
export type PayeeView = ReturnType<typeof selectPayeeView>;
