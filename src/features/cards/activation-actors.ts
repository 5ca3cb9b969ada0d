/**
 * The real actors of a physical card's activation (machines/card-activation): cardActivationData
 * with the customer's open payment accounts in the fee's currency (balanceInquiry), and
 * cardActivate with the machine's idempotency key (it charges the activation fee). The first PIN
 * the activation answers goes to the machine only: never logged, cached or stored.
 */
import { fromPromise } from 'xstate';
import { ACCOUNT_STATUS_CLOSED } from '../../../api/accounts.ts';
import { isCardType } from '../../../api/cards.ts';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import { VfCode } from '../../../api/errors.ts';
import { cardActivationMachine, type ActivateRequest, type ActivateResult, type LoadActivationResult } from '../../../machines/card-activation/card-activation.machine.ts';
import { callMethod, isFailure } from '../../lib/request.ts';

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
const refusal = (f: Failure): Refusal => (f.responseCode === ResponseCode.network ? { ok: false, code: 'network' } : { ok: false, code: 'failed', failure: f });

/** VF naming the digits (cardDataWrong, or the cardLast4 param itself): the customer types them again. */
const isWrongDigits = (f: Failure) =>
  f.responseCode === ResponseCode.validation && (f.validationErrors ?? []).some((e) => e.code === VfCode.cardDataWrong || e.param.endsWith('cardLast4'));

export function createActivationActors() {
  return {
    loadActivation: fromPromise<LoadActivationResult, { accountId: number }>(async ({ input }) => {
      const [data, balances] = await Promise.all([callMethod('cardActivationData', { accountId: input.accountId }), callMethod('balanceInquiry', {})]);
      if (isFailure(data)) return refusal(data);
      if (isFailure(balances)) return refusal(balances);
      const feeAccounts = balances.accounts.account.filter((a) => a.accountStatusId !== ACCOUNT_STATUS_CLOSED && !isCardType(a.type) && a.currency === data.feeCurrency);
      return { ok: true, data: { fees: data.fees, feeCurrency: data.feeCurrency, extraParams: data.extraParams, feeAccounts } };
    }),
    activateCard: fromPromise<ActivateResult, ActivateRequest>(async ({ input }) => {
      const answer = await callMethod(
        'cardActivate',
        { accountId: input.accountId, extraParams: { cardLast4: input.cardLast4 }, ...(input.feeAccountId !== null ? { feeAccountId: input.feeAccountId } : {}) },
        { idempotencyKey: input.idempotencyKey },
      );
      // No query is refreshed here: the card would turn active under the page, and a page that
      // shows the activation only while the card may be activated would drop it with the first PIN
      // unseen. The view refreshes once the PIN is hidden (activation-view.tsx).
      if (isFailure(answer)) return isWrongDigits(answer) ? { ok: false, code: 'wrongDigits', failure: answer } : refusal(answer);
      return { ok: true, pinCode: answer.pinCode, accountStatusId: answer.accountStatusId };
    }),
  };
}

/** The activation chart with the app's actors. */
export function createActivationLogic() {
  return cardActivationMachine.provide({ actors: createActivationActors() });
}
