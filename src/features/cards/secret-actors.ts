/**
 * The real actors of a card's secrets (machines/card-secret, machines/card-pin-change): showPin
 * (the approval of a reveal), getPin (the code or password -> the secret, once) and changePin.
 * What getPin answers goes to the machine only: never logged, cached (no query), stored or put in
 * an error. A wrong code with tries left (VF approvalCodeWrong, approvalCodeUsed) lets the customer
 * type again; too many wrong codes, or any other refusal, ends the approval.
 */
import { fromPromise } from 'xstate';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import { VfCode } from '../../../api/errors.ts';
import { cardPinChangeMachine, type PinChangeRequest, type PinChangeResult } from '../../../machines/card-pin-change/card-pin-change.machine.ts';
import { cardSecretMachine, type GetSecretResult, type RevealKind, type ShowResult } from '../../../machines/card-secret/card-secret.machine.ts';
import { callMethod, isFailure } from '../../lib/request.ts';

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
const refusal = (f: Failure): Refusal => (f.responseCode === ResponseCode.network ? { ok: false, code: 'network' } : { ok: false, code: 'failed', failure: f });
const hasVf = (f: Failure, codes: readonly string[]) => f.responseCode === ResponseCode.validation && (f.validationErrors ?? []).some((e) => codes.includes(e.code ?? ''));

export function createSecretActors() {
  return {
    showSecret: fromPromise<ShowResult, { accountId: number; reveal: RevealKind }>(async ({ input }) => {
      const answer = await callMethod('showPin', { accountId: input.accountId, reveal: input.reveal });
      if (isFailure(answer)) return refusal(answer);
      return { ok: true, operation: { operationId: answer.operationId, approveType: answer.approveType, approvalSentTo: answer.approvalSentTo, expiresAt: answer.expiresAt } };
    }),
    getSecret: fromPromise<GetSecretResult, { accountId: number; operationId: number; approvalCode: string }>(async ({ input }) => {
      const answer = await callMethod('getPin', input);
      if (isFailure(answer)) {
        if (hasVf(answer, [VfCode.approvalCodeWrong, VfCode.approvalCodeUsed]) && !hasVf(answer, [VfCode.approvalTooManyWrong]))
          return { ok: false, code: 'wrongCode', failure: answer };
        return refusal(answer);
      }
      const { pinCode, cardNumber, cvv, cardExpiryMonth, cardExpiryYear, visibleForMs } = answer;
      return { ok: true, secret: { pinCode, cardNumber, cvv, cardExpiryMonth, cardExpiryYear }, visibleForMs };
    }),
  };
}

export function createPinChangeActors() {
  return {
    changePin: fromPromise<PinChangeResult, PinChangeRequest>(async ({ input }) => {
      const answer = await callMethod('changePin', { accountId: input.accountId, confirm: true, pinCode: input.pinCode, pinCodeRepeat: input.pinCodeRepeat });
      if (!isFailure(answer)) return { ok: true };
      if (hasVf(answer, [VfCode.pinWeak])) return { ok: false, code: 'pinWeak' };
      if (hasVf(answer, [VfCode.pinMismatch])) return { ok: false, code: 'pinMismatch' };
      return refusal(answer);
    }),
  };
}

export const createSecretLogic = () => cardSecretMachine.provide({ actors: createSecretActors() });
export const createPinChangeLogic = () => cardPinChangeMachine.provide({ actors: createPinChangeActors() });
