/**
 * The real actors of the card application machine (machines/card-application): the products
 * offered (applyForCardInfo, the customer's country), the customer's accounts (balanceInquiry:
 * open ones that are not cards) and addresses (addressInquiry, as the profile page reads them);
 * the application (cardApply) with the machine's idempotency key, its VF answer kept as the
 * fields' errors; the new card's status once its charge is approved (balanceInquiry: a card is an
 * account); and the one approval machine with the transfers' approval actors (cardApply answers
 * with the charge's transactionId, approved by approveTransfer like any payment).
 */
import { fromPromise } from 'xstate';
import { ACCOUNT_STATUS_CLOSED } from '../../../api/accounts.ts';
import { isCardType } from '../../../api/cards.ts';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import { approvalMachine } from '../../../machines/approval/approval.machine.ts';
import {
  cardApplicationMachine,
  type ApplyResult,
  type CardApplyRequest,
  type CardStatusResult,
  type LoadResult,
} from '../../../machines/card-application/card-application.machine.ts';
import { callMethod, isFailure } from '../../lib/request.ts';
import { createApprovalActors, type TransferActorDeps } from '../transfers/actors.ts';

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
function refusal(f: Failure): Refusal {
  return f.responseCode === ResponseCode.network ? { ok: false, code: 'network' } : { ok: false, code: 'failed', failure: f };
}

/** A new card changes the accounts (cards are accounts: the cards pages read them too), the balances, the history and what may still be applied for. */
const CHANGED_QUERIES = [['balanceInquiry'], ['balanceHistory'], ['transactionHistory'], ['applyForCardInfo']] as const;

export function createCardApplicationActors(deps: TransferActorDeps) {
  const refresh = () => {
    for (const queryKey of CHANGED_QUERIES) void deps.queryClient?.invalidateQueries({ queryKey: [...queryKey] });
  };
  return {
    loadSetup: fromPromise<LoadResult>(async () => {
      const [info, accounts, addresses] = await Promise.all([callMethod('applyForCardInfo', {}), callMethod('balanceInquiry', {}), callMethod('addressInquiry', {})]);
      if (isFailure(info)) return refusal(info);
      if (isFailure(accounts)) return refusal(accounts);
      if (isFailure(addresses)) return refusal(addresses);
      return {
        ok: true,
        countryCode: info.countryCode,
        products: info.products,
        accounts: accounts.accounts.account.filter((a) => a.accountStatusId !== ACCOUNT_STATUS_CLOSED && !isCardType(a.type)),
        addresses: addresses.addresses.map(({ addressId, address1, address2, city, postalCode, countryCode, confirmed }) => ({
          addressId,
          address1,
          address2,
          city,
          postalCode,
          countryCode,
          confirmed,
        })),
      };
    }),
    applyForCard: fromPromise<ApplyResult, { request: CardApplyRequest; idempotencyKey: string }>(async ({ input }) => {
      const answer = await callMethod('cardApply', input.request, { idempotencyKey: input.idempotencyKey });
      if (isFailure(answer)) {
        if (answer.responseCode === ResponseCode.validation && answer.validationErrors?.length) return { ok: false, code: 'fields', errors: answer.validationErrors };
        return refusal(answer);
      }
      refresh();
      const { accountId, accountStatusId, transactionId, status, approveType, approvalSentTo, fee, feeCurrency, amount, currency, expiresAt } = answer;
      return { ok: true, applied: { accountId, accountStatusId, transactionId, status, approveType, approvalSentTo, fee, feeCurrency, amount, currency, expiresAt } };
    }),
    readCardStatus: fromPromise<CardStatusResult, { accountId: number }>(async ({ input }) => {
      refresh();
      const answer = await callMethod('balanceInquiry', {});
      if (isFailure(answer)) return refusal(answer);
      const card = answer.accounts.account.find((a) => a.accountId === input.accountId);
      return card ? { ok: true, accountStatusId: card.accountStatusId } : { ok: false, code: 'failed', failure: { responseCode: ResponseCode.invalidParams } };
    }),
    approval: approvalMachine.provide({ actors: createApprovalActors(deps) }),
  };
}

/** The card application machine with the real actors. */
export function createCardApplicationLogic(deps: TransferActorDeps) {
  return cardApplicationMachine.provide({ actors: createCardApplicationActors(deps) });
}
