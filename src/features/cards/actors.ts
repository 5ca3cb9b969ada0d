/**
 * The real calls behind the card detail's actions (api/cards.ts): each one the `perform` of the
 * confirm-and-call chart (machines/confirm-action), with the chart's idempotency key (cardBlock,
 * cardReissue and upgradeShipping move money: a retry after a lost answer must not charge twice).
 * A refusal comes back as the chart's `{ ok: false }` with the platform's words in the UI language
 * (describeFailure: validation errors through src/lib/validation-messages.ts); an answer also
 * returns what the done message tells (a refund, a fee, the new card). Every success invalidates
 * the reads a card's change touches (queries.ts CARD_QUERY_KEYS).
 */
import type { QueryClient } from '@tanstack/react-query';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import type { ConfirmActionResult, PerformInput } from '../../../machines/confirm-action/confirm-action.machine.ts';
import { callMethod, describeFailure, isFailure } from '../../lib/request.ts';
import { CARD_QUERY_KEYS } from './queries.ts';

/** What the person asked for; `express` and `alias` are chosen in the dialog. */
export type CardActionRequest =
  { action: 'pause' } | { action: 'unpause' } | { action: 'block' } | { action: 'reissue'; express: boolean } | { action: 'upgradeShipping' } | { action: 'rename'; alias: string };

export type CardActionName = CardActionRequest['action'];

/** What the done message says beyond "done". */
export type CardActionOutcome =
  | { action: 'pause' | 'unpause'; accountStatusId: number }
  | { action: 'block'; refundedAmount: string; refundedToAccountId: number | null }
  | { action: 'reissue'; accountId: number; fee: string; feeCurrency: string }
  | { action: 'upgradeShipping'; fee: string; feeCurrency: string; deliveryTime: number }
  | { action: 'rename'; cardAliasName: string };

export interface CardActionAnswer {
  result: ConfirmActionResult;
  outcome: CardActionOutcome | null;
}

const refused = (f: Failure): CardActionAnswer => ({
  result: { ok: false, code: f.responseCode === ResponseCode.network ? 'network' : 'refused', detail: describeFailure(f) },
  outcome: null,
});

async function call(request: CardActionRequest, { targetId: accountId, idempotencyKey }: PerformInput): Promise<CardActionAnswer> {
  const options = { idempotencyKey };
  switch (request.action) {
    case 'pause':
    case 'unpause': {
      const answer = await callMethod(request.action === 'pause' ? 'cardPause' : 'cardUnpause', { accountId }, options);
      return isFailure(answer) ? refused(answer) : { result: { ok: true }, outcome: { action: request.action, accountStatusId: answer.accountStatusId } };
    }
    case 'block': {
      const answer = await callMethod('cardBlock', { accountId }, options);
      return isFailure(answer)
        ? refused(answer)
        : { result: { ok: true }, outcome: { action: 'block', refundedAmount: answer.refundedAmount, refundedToAccountId: answer.refundedToAccountId } };
    }
    case 'reissue': {
      const answer = await callMethod('cardReissue', { accountId, isExpressShipping: request.express }, options);
      return isFailure(answer)
        ? refused(answer)
        : { result: { ok: true }, outcome: { action: 'reissue', accountId: answer.accountId, fee: answer.fee, feeCurrency: answer.feeCurrency } };
    }
    case 'upgradeShipping': {
      const answer = await callMethod('upgradeShipping', { accountId }, options);
      return isFailure(answer)
        ? refused(answer)
        : { result: { ok: true }, outcome: { action: 'upgradeShipping', fee: answer.fee, feeCurrency: answer.feeCurrency, deliveryTime: answer.deliveryTime } };
    }
    case 'rename': {
      const answer = await callMethod('setAlias', { accountId, cardAliasName: request.alias }, options);
      return isFailure(answer) ? refused(answer) : { result: { ok: true }, outcome: { action: 'rename', cardAliasName: answer.cardAliasName } };
    }
  }
}

/** Calls the action; on success the accounts, authorisations and history are read again. */
export async function performCardAction(queryClient: QueryClient, request: CardActionRequest, input: PerformInput): Promise<CardActionAnswer> {
  const answer = await call(request, input);
  if (answer.result.ok) await Promise.all(CARD_QUERY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  return answer;
}
