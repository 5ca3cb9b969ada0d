/**
 * The transfer form's rules (machines/transfer/transfer.rules.ts, document 2 §5): when the fee,
 * limits, max amount and payee check may be asked, what the form accepts, and the requests and
 * field errors each kind maps to.
 */
import { describe, expect, it } from 'vitest';
import type { Account } from '../../api/accounts.ts';
import {
  availableBalance,
  compareDecimal,
  defaultRecurring,
  emptyForm,
  feeRequest,
  fieldErrorsOf,
  isCheckableEmail,
  limitsRequest,
  maxAmountRequest,
  normaliseAmount,
  openAccounts,
  transferRequest,
  validateForm,
  type TransferForm,
} from '../../machines/transfer/transfer.rules.ts';

const account = (accountId: number, currency: string, accountStatusId = 2): Account => ({
  accountId, type: 1001, subType: null, accountStatusId, currency, balance: '100', accountBalanceMin: '0', pendingAmount: '0', customerId: 1, settlementAccountId: null, cardIsVirtual: null, cardAliasName: null, cardExpiryMonth: null, cardExpiryYear: null, cardReissuedStatusId: null,
});
const accounts = [account(1, 'EUR'), account(2, 'USD'), account(3, 'BTC')];
const form = (over: Partial<TransferForm>): TransferForm => ({ ...emptyForm(), ...over });
const facts = { accounts, payee: null, limits: null };

describe('transfer rules', () => {
  it('reads amounts as typed: spaces dropped, a comma as the point; compares them exactly', () => {
    expect(normaliseAmount(' 1 234,5 ')).toBe('1234.5');
    expect(compareDecimal('0.1', '0.10000000')).toBe(0);
    expect(compareDecimal('1000.00000001', '1000')).toBe(1);
    expect(compareDecimal('9.99', '10')).toBe(-1);
  });

  it('asks the fee only with the amount and the accounts (p2p: the amount above 0), in a currency that takes those decimals', () => {
    expect(feeRequest('betweenAccounts', form({ fromAccountId: 1, amount: '10' }), accounts)).toBeNull();
    expect(feeRequest('betweenAccounts', form({ fromAccountId: 1, toAccountId: 1, amount: '10' }), accounts)).toBeNull();
    expect(feeRequest('betweenAccounts', form({ fromAccountId: 1, toAccountId: 2, amount: '10', currency: 'USD' }), accounts)).toEqual({
      operation: 'betweenAccounts', amount: '10', fromAccountId: 1, toAccountId: 2, currency: 'USD',
    });
    expect(feeRequest('p2p', form({ fromAccountId: 1, amount: '0' }), accounts)).toBeNull();
    expect(feeRequest('p2p', form({ fromAccountId: 1, amount: '0,01' }), accounts)).toEqual({ operation: 'p2p', amount: '0.01', fromAccountId: 1 });
    expect(feeRequest('p2p', form({ fromAccountId: 1, amount: '1.234' }), accounts)).toBeNull();
    expect(feeRequest('p2p', form({ fromAccountId: 3, amount: '0.00012345' }), accounts)).toEqual({ operation: 'p2p', amount: '0.00012345', fromAccountId: 3 });
  });

  it('skips the limits without both accounts, and the max amount without the source', () => {
    expect(limitsRequest('betweenAccounts', form({ fromAccountId: 1 }), accounts)).toBeNull();
    expect(limitsRequest('betweenAccounts', form({ fromAccountId: 1, toAccountId: 2 }), accounts)).toEqual({ type: 'betweenAccounts', currencyCode: 'EUR', fromAccountId: 1 });
    expect(limitsRequest('p2p', form({ fromAccountId: 2 }), accounts)).toEqual({ type: 'p2p', currencyCode: 'USD', fromAccountId: 2 });
    expect(maxAmountRequest('p2p', form({}))).toBeNull();
    expect(maxAmountRequest('betweenAccounts', form({ fromAccountId: 1, toAccountId: 2 }))).toEqual({ operation: 'betweenAccounts', fromAccountId: 1, toAccountId: 2 });
  });

  it('checks a payee e-mail only when longer than 5 characters with an @ and a dot', () => {
    expect(isCheckableEmail('a@b.c')).toBe(false);
    expect(isCheckableEmail('ab@c.d')).toBe(true);
    expect(isCheckableEmail('abcdef@ghij')).toBe(false);
    expect(isCheckableEmail('abcdef.ghij')).toBe(false);
  });

  it('says what is wrong before review: accounts, amount and decimals, limits, payee, recurring', () => {
    expect(validateForm('betweenAccounts', form({}), facts)).toEqual({ fromAccountId: { code: 'required' }, toAccountId: { code: 'required' }, amount: { code: 'required' } });
    expect(validateForm('betweenAccounts', form({ fromAccountId: 1, toAccountId: 1, amount: '1.234' }), facts)).toEqual({
      toAccountId: { code: 'sameAccount' },
      amount: { code: 'amountDecimals' },
    });
    const limits = { currencyCode: 'EUR', minAmount: '1', maxAmount: '100', dailyLimit: '200', dailyRemaining: '50' };
    const p2p = (amount: string) => validateForm('p2p', form({ fromAccountId: 1, amount, payeeEmail: 'bob@demo.test' }), { ...facts, limits }).amount?.code;
    expect([p2p('0.5'), p2p('101'), p2p('60'), p2p('50'), p2p('0'), p2p('1e3')]).toEqual(['belowMin', 'aboveMax', 'overDailyLimit', undefined, 'amountFormat', 'amountFormat']);
    const payee = (p: { exist: boolean; exists: boolean; outBlacklist: boolean }) =>
      validateForm('p2p', form({ fromAccountId: 1, amount: '5', payeeEmail: 'Bob@Demo.test' }), { ...facts, payee: { email: 'bob@demo.test', isEmployee: false, name: null, ...p } }).payeeEmail?.code;
    expect(payee({ exist: false, exists: false, outBlacklist: false })).toBe('payeeNotFound');
    expect(payee({ exist: true, exists: false, outBlacklist: false })).toBe('payeeCannotReceive');
    expect(payee({ exist: true, exists: true, outBlacklist: true })).toBe('payeeRefuses');
    expect(payee({ exist: true, exists: true, outBlacklist: false })).toBeUndefined();
    expect(validateForm('p2p', form({ fromAccountId: 1, amount: '5', payeeEmail: 'bob@' }), facts).payeeEmail?.code).toBe('email');
    const recurring = (r: Partial<ReturnType<typeof defaultRecurring>>) =>
      validateForm('betweenAccounts', form({ fromAccountId: 1, toAccountId: 2, amount: '5', recurring: { ...defaultRecurring(), ...r } }), facts);
    expect(recurring({ transactions: '1' })).toEqual({ recurringTransactions: { code: 'transactionsRange' } });
    expect(recurring({ end: 'date', endDate: '' })).toEqual({ recurringEndDate: { code: 'endDateFormat' } });
    expect(recurring({ end: 'date', endDate: '2027-01-31' })).toEqual({});
  });

  it('builds each kind\'s request, with the recurring fields', () => {
    expect(transferRequest('betweenAccounts', form({ fromAccountId: 1, toAccountId: 2, amount: '10,5', currency: 'USD', recurring: defaultRecurring() }), accounts)).toEqual({
      method: 'transferBetweenAccounts',
      payload: { fromAccount: 1, toAccount: 2, toAmount: '10.5', currency: 'USD', subscriptionFrequency: 'monthly', subscriptionUserCancel: true, subscriptionTransactions: 12 },
    });
    expect(
      transferRequest('p2p', form({ fromAccountId: 2, amount: '3', payeeEmail: ' Bob@Demo.Test', reference: ' INV-7 ', recurring: { ...defaultRecurring(), end: 'date', endDate: '2027-01-31', userCancel: false } }), accounts),
    ).toEqual({
      method: 'transferP2p',
      payload: {
        accountId: 2, amount: '3', currency: 'USD', toEmail: 'bob@demo.test', note: undefined, reference: 'INV-7', templateName: undefined,
        subscriptionFrequency: 'monthly', subscriptionUserCancel: false, subscriptionEndDate: '2027-01-31',
      },
    });
  });

  it('maps the platform\'s VF params to the form\'s fields, or gives up when one is not a field', () => {
    expect(fieldErrorsOf([{ param: 'toAmount', description: 'too much' }, { param: 'fromAccount', description: 'closed' }])).toEqual({
      amount: { code: 'server', error: { param: 'toAmount', description: 'too much' } },
      fromAccountId: { code: 'server', error: { param: 'fromAccount', description: 'closed' } },
    });
    expect(fieldErrorsOf([{ param: 'toAmount', description: 'too much' }, { param: 'Idempotency-Key', description: 'reused' }])).toBeNull();
    expect(fieldErrorsOf([])).toBeNull();
  });

  it('moves money only between open accounts', () => {
    expect(openAccounts([account(1, 'EUR'), account(2, 'EUR', 11)]).map((a) => a.accountId)).toEqual([1]);
  });

  it('refuses an amount above the available balance (balance less held money and the minimum), with the fee once quoted', () => {
    const src = { ...account(1, 'EUR'), balance: '100', pendingAmount: '10', accountBalanceMin: '5' };
    const f = (over: Partial<TransferForm>) => form({ fromAccountId: 1, payeeEmail: 'bob@demo.test', ...over });
    const p2pFacts = (quote: { amount: string; fee: string; currency: string } | null) => ({ accounts: [src], payee: null, limits: null, quote });
    expect(availableBalance(src)).toBe('85');
    expect(validateForm('p2p', f({ amount: '85' }), p2pFacts(null)).amount).toBeUndefined();
    expect(validateForm('p2p', f({ amount: '85.01' }), p2pFacts(null)).amount).toEqual({ code: 'aboveBalance', available: { amount: '85', currency: 'EUR' } });
    // the fee counts once it is known
    expect(validateForm('p2p', f({ amount: '84.5' }), p2pFacts({ amount: '84.5', fee: '0.5', currency: 'EUR' })).amount).toBeUndefined();
    expect(validateForm('p2p', f({ amount: '84.6' }), p2pFacts({ amount: '84.6', fee: '0.5', currency: 'EUR' })).amount?.code).toBe('aboveBalance');
    // an amount in the destination's currency waits for the quote (in the source's currency)
    const conv = form({ fromAccountId: 1, toAccountId: 2, currency: 'USD', amount: '90' });
    const both = [src, account(2, 'USD')];
    expect(validateForm('betweenAccounts', conv, { accounts: both, payee: null, limits: null }).amount).toBeUndefined();
    expect(validateForm('betweenAccounts', conv, { accounts: both, payee: null, limits: null, quote: { amount: '83', fee: '2.5', currency: 'EUR' } }).amount?.code).toBe('aboveBalance');
  });

  it('points a p2p transfer to one\'s own e-mail to the between-accounts page', () => {
    const f = form({ fromAccountId: 1, amount: '1', payeeEmail: ' Anna@Demo.test ' });
    expect(validateForm('p2p', f, { ...facts, ownEmails: ['anna@demo.test'] }).payeeEmail).toEqual({ code: 'ownEmail' });
    expect(validateForm('p2p', f, facts).payeeEmail).toBeUndefined();
  });
});
