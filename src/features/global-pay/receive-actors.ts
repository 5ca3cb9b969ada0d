/**
 * The real actors of the global-pay payee page (machines/global-payee): the payee calls of
 * api/global-pay.ts, each sent with the payment id and the link's secret (no sign-in). Expected
 * failures are answered as codes: ENOA (unknown payment or wrong secret) 'unknown', 13 (too many
 * attempts) 'locked', no answer 'network', anything else 'failed' with the platform's words.
 */
import { fromPromise } from 'xstate';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import { GLOBAL_PAY_LAST_WITHDRAWALS } from '../../../api/global-pay.ts';
import { VfCode } from '../../../api/errors.ts';
import type { PayoutMethod } from '../../../api/payees/payout-methods.ts';
import {
  globalPayeeMachine,
  type ApproveResult,
  type CountriesResult,
  type DetailsResult,
  type FormResult,
  type MethodsResult,
  type PayeeInput,
  type Refusal,
  type RefuseResult,
  type ResendResult,
  type SubmitResult,
} from '../../../machines/global-payee/global-payee.machine.ts';
import { callMethod, isFailure } from '../../lib/request.ts';

export function refusalOf(f: Failure): Refusal {
  if (f.responseCode === ResponseCode.network) return { ok: false, code: 'network' };
  if (f.responseCode === ResponseCode.noAccess) return { ok: false, code: 'unknown' };
  if (f.responseCode === ResponseCode.accessDenied) return { ok: false, code: 'locked' };
  // a link cut short or altered (the id or the secret malformed) is as unknown as a wrong one
  if (f.responseCode === ResponseCode.validation && f.validationErrors?.some((e) => e.param === 'paymentId' || e.param === 'secret')) return { ok: false, code: 'unknown' };
  return { ok: false, code: 'failed', failure: f };
}

const link = (input: PayeeInput) => ({ paymentId: input.paymentId, secret: input.secret });

export const receiveActors = {
  loadDetails: fromPromise<DetailsResult, PayeeInput>(async ({ input }) => {
    const answer = await callMethod('globalPaymentDetails', link(input));
    if (isFailure(answer)) return refusalOf(answer);
    const { responseCode: _, operationId: __, ...details } = answer;
    return { ok: true, details };
  }),
  loadCountries: fromPromise<CountriesResult, PayeeInput>(async ({ input }) => {
    const answer = await callMethod('globalPaymentCountries', link(input));
    if (isFailure(answer)) return refusalOf(answer);
    return { ok: true, countries: answer.countries };
  }),
  loadMethods: fromPromise<MethodsResult, PayeeInput & { countryCode: string }>(async ({ input }) => {
    const answer = await callMethod('globalPaymentMethods', { ...link(input), countryCode: input.countryCode });
    if (isFailure(answer)) return refusalOf(answer);
    return { ok: true, methods: answer.methods };
  }),
  /** The form and the quote are needed; the recent withdrawals are for reference (none when they cannot be read). */
  loadForm: fromPromise<FormResult, PayeeInput & { countryCode: string; method: PayoutMethod; currencyCode: string }>(async ({ input }) => {
    const route = { paymentMethod: input.method, countryCode: input.countryCode };
    const [form, meta, last] = await Promise.all([
      callMethod('globalPaymentExtraParams', { ...link(input), ...route, currencyCode: input.currencyCode }),
      callMethod('globalPaymentMeta', { ...link(input), ...route, toCurrencyCode: input.currencyCode }),
      callMethod('globalPaymentLastWithdrawals', { ...link(input), limit: GLOBAL_PAY_LAST_WITHDRAWALS }),
    ]);
    if (isFailure(form)) return refusalOf(form);
    if (isFailure(meta)) return refusalOf(meta);
    return {
      ok: true,
      form: { fields: form.params, oneOf: form.oneOf ?? [], blockedBins: [] },
      quote: { exchangeRate: meta.exchangeRate, toAmount: meta.toAmount, fee: meta.fee, estimatedTotal: meta.estimatedTotal },
      withdrawals: isFailure(last)
        ? []
        : last.withdrawals.slice(0, GLOBAL_PAY_LAST_WITHDRAWALS).map((w) => ({
            withdrawalId: w.withdrawalId,
            date: w.date,
            amount: w.amount,
            currencyCode: w.currencyCode,
            paymentMethod: w.paymentMethod,
            countryCode: w.countryCode,
            status: w.status,
            senderName: w.senderName,
          })),
    };
  }),
  refusePayment: fromPromise<RefuseResult, PayeeInput>(async ({ input }) => {
    const answer = await callMethod('globalPaymentCancel', link(input));
    if (isFailure(answer)) return refusalOf(answer);
    return { ok: true, status: answer.status };
  }),
  submitPayout: fromPromise<SubmitResult, PayeeInput & { countryCode: string; method: PayoutMethod; currencyCode: string; paymentDetails: Record<string, string> }>(
    async ({ input }) => {
      // empty fields are left out (an optional field not filled in)
      const paymentDetails = Object.fromEntries(Object.entries(input.paymentDetails).filter(([, value]) => value.trim() !== ''));
      const answer = await callMethod('globalPaymentSubmit', {
        ...link(input),
        paymentMethod: input.method,
        currencyCode: input.currencyCode,
        countryCode: input.countryCode,
        paymentDetails,
      });
      if (isFailure(answer)) {
        if (answer.responseCode === ResponseCode.validation && answer.validationErrors?.length) return { ok: false, code: 'fields', errors: answer.validationErrors };
        return refusalOf(answer);
      }
      return { ok: true, operation: { operationId: answer.operationId, approvalSentTo: answer.approvalSentTo } };
    },
  ),
  approvePayout: fromPromise<ApproveResult, PayeeInput & { operationId: string; approvalCode: string }>(async ({ input }) => {
    const answer = await callMethod('globalPaymentApprove', { ...link(input), operationId: input.operationId, approvalCode: input.approvalCode });
    if (isFailure(answer)) {
      const codeError = answer.responseCode === ResponseCode.validation ? answer.validationErrors?.find((e) => e.param === 'approvalCode') : undefined;
      if (codeError?.code === VfCode.approvalTooManyWrong) return { ok: false, code: 'dropped' };
      if (codeError) return { ok: false, code: 'wrongCode', error: codeError };
      return refusalOf(answer);
    }
    return { ok: true, status: answer.status };
  }),
  resendCode: fromPromise<ResendResult, PayeeInput & { operationId: string }>(async ({ input }) => {
    const answer = await callMethod('globalPaymentResendCode', { ...link(input), operationId: input.operationId, approveType: 'email' });
    if (isFailure(answer)) return refusalOf(answer);
    return { ok: true, approvalSentTo: answer.approvalSentTo };
  }),
};

/** The payee machine with the real actors. */
export const liveGlobalPayeeMachine = globalPayeeMachine.provide({ actors: receiveActors });
