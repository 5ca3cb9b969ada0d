/**
 * The real actor of the open-account machine: addCurrency for a fiat currency, createWallet for a
 * crypto one (document 2 §7). createWallet's accountId is "the account the wallet belongs to": the
 * spec names the field and nothing more; our platform reads it as an existing account of that
 * crypto currency to give a receiving address. The flow only offers currencies the customer holds
 * no account in, so there is none to name and the platform opens one.
 *
 * Opening is made safe to repeat: a retry after a lost answer may find the account the first try
 * opened (addCurrency then answers VF hasCurrency): the account of that currency is read back and
 * reported as opened, instead of an error for something that worked.
 */
import { fromPromise } from 'xstate';
import { ACCOUNT_STATUS_CLOSED } from '../../../api/accounts.ts';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import type { CurrencyCode } from '../../../api/transfers.ts';
import { openAccountMachine, type OpenAccountResult } from '../../../machines/open-account/open-account.machine.ts';
import { callMethod, isFailure } from '../../lib/request.ts';
import { isCrypto } from './choices.ts';

const refusal = (f: Failure): OpenAccountResult => (f.responseCode === ResponseCode.network ? { ok: false, code: 'network' } : { ok: false, code: 'failed', failure: f });

async function openedBefore(currency: CurrencyCode): Promise<OpenAccountResult | null> {
  const answer = await callMethod('balanceInquiry', {});
  if (isFailure(answer)) return null;
  const account = answer.accounts.account.find((a) => a.currency === currency && a.accountStatusId !== ACCOUNT_STATUS_CLOSED);
  return account ? { ok: true, account: { accountId: account.accountId, currency, address: null } } : null;
}

export async function openAccount(currency: CurrencyCode): Promise<OpenAccountResult> {
  if (isCrypto(currency)) {
    const answer = await callMethod('createWallet', { currencyCode: currency as 'BTC' | 'ETH' });
    return isFailure(answer) ? refusal(answer) : { ok: true, account: { accountId: answer.accountId, currency, address: answer.address } };
  }
  const answer = await callMethod('addCurrency', { currencyCode: currency });
  if (!isFailure(answer)) return { ok: true, account: { accountId: answer.account.accountId, currency, address: null } };
  if (answer.validationErrors?.some((e) => e.code === 'hasCurrency')) return (await openedBefore(currency)) ?? refusal(answer);
  return refusal(answer);
}

export const liveOpenAccountMachine = openAccountMachine.provide({
  actors: { openAccount: fromPromise(({ input }) => openAccount(input.currency)) },
});
