/**
 * The payout form's own rules (machines/transfer/transfer.rules.ts, kind external) where the model
 * test does not reach them one by one: what a change of country or source does to the method, the
 * methods a customer's flags allow, and the payee form checked as the screen received it.
 */
import { describe, expect, it } from 'vitest';
import type { Account } from '../../api/accounts.ts';
import type { MoneyPermissions } from '../../api/transfers.ts';
import { checkPayeeValues, payeeFields } from '../../api/payees/methods.ts';
import { emptyForm, normalisePatch, payeeValues, permittedMethods, transferRequest, validateForm } from '../../machines/transfer/transfer.rules.ts';

const account = (accountId: number, currency: string): Account => ({
  accountId,
  type: 1001,
  subType: null,
  accountStatusId: 2,
  currency,
  balance: '100',
  accountBalanceMin: '0',
  pendingAmount: '0',
  customerId: 1,
  settlementAccountId: null,
  cardIsVirtual: null,
  cardAliasName: null,
  cardExpiryMonth: null,
  cardExpiryYear: null,
  cardReissuedStatusId: null,
});
const ACCOUNTS = [account(1, 'EUR'), account(2, 'EUR'), account(3, 'USD')];
const chosen = {
  ...emptyForm(),
  fromAccountId: 1,
  countryCode: 'DE',
  method: 'wire' as const,
};

describe('a change to the payout form', () => {
  it('drops the method when the country changes or the source is in another currency, and keeps it otherwise', () => {
    expect(normalisePatch(chosen, ACCOUNTS, { countryCode: 'FR' })).toEqual({
      countryCode: 'FR',
      method: null,
    });
    expect(normalisePatch(chosen, ACCOUNTS, { fromAccountId: 3 })).toEqual({
      fromAccountId: 3,
      method: null,
    });
    expect(normalisePatch(chosen, ACCOUNTS, { fromAccountId: 2 })).toEqual({
      fromAccountId: 2,
    });
    expect(normalisePatch(chosen, ACCOUNTS, { countryCode: 'DE' })).toEqual({
      countryCode: 'DE',
    });
    expect(normalisePatch(chosen, ACCOUNTS, { amount: '5' })).toEqual({
      amount: '5',
    });
    // a patch that names the method itself keeps it
    expect(normalisePatch(chosen, ACCOUNTS, { countryCode: 'FR', method: 'eft' })).toEqual({ countryCode: 'FR', method: 'eft' });
  });
});

describe('the methods offered', () => {
  const flags = (others: Partial<MoneyPermissions['others']>): MoneyPermissions =>
    ({
      others: {
        wire: false,
        eft: false,
        card: false,
        digital: false,
        instant: false,
        interac: false,
        ...others,
      },
    }) as unknown as MoneyPermissions;
  it("are those the customer's flags allow, a card payout under the card flag", () => {
    expect(permittedMethods(['wire', 'eft', 'oct'], flags({ eft: true, card: true }))).toEqual(['eft', 'oct']);
    expect(permittedMethods(['wire'], null)).toEqual([]);
  });
});

describe('the payee form as the screen received it', () => {
  const wire = { fields: payeeFields('wire', 'DE', 'EUR') };
  it('answers each field with the platform code, and leaves the IBAN country to the platform', () => {
    expect(
      checkPayeeValues(
        wire,
        {
          beneficiaryName: 'Hans',
          beneficiaryAddress: 'Berlin',
          iban: 'DE89370400440532013001',
          swiftCode: 'COBADEFFXXX',
        },
        { currencyCode: 'EUR' },
      ),
    ).toEqual([{ field: 'iban', code: 'ibanChecksum' }]);
    // a valid British IBAN on a route the screen got without its countries: no ibanCountry here
    expect(
      checkPayeeValues(
        wire,
        {
          beneficiaryName: 'Hans',
          beneficiaryAddress: 'London',
          iban: 'GB29NWBK60161331926819',
          swiftCode: 'NWBKGB2L',
        },
        { currencyCode: 'EUR' },
      ),
    ).toEqual([]);
    expect(
      checkPayeeValues(
        { ...wire, countries: ['DE'] },
        {
          beneficiaryName: 'Hans',
          beneficiaryAddress: 'London',
          iban: 'GB29NWBK60161331926819',
          swiftCode: 'NWBKGB2L',
        },
        { currencyCode: 'EUR' },
      ),
    ).toEqual([{ field: 'iban', code: 'ibanCountry' }]);
  });

  it('checks a field of a pattern it does not know only for presence and length', () => {
    const form = {
      fields: [
        {
          name: 'clabe',
          kind: 'text' as const,
          required: true,
          pattern: 'mexicanClabe',
          maxLength: 18,
        },
      ],
    };
    expect(checkPayeeValues(form, { clabe: 'anything' }, { currencyCode: 'MXN' })).toEqual([]);
    expect(checkPayeeValues(form, {}, { currencyCode: 'MXN' })).toEqual([{ field: 'clabe', code: 'required' }]);
    expect(checkPayeeValues(form, { clabe: '1'.repeat(19) }, { currencyCode: 'MXN' })).toEqual([{ field: 'clabe', code: 'tooLong' }]);
  });

  it('asks one of a group, and sends only the current fields, trimmed, empty ones left out', () => {
    const interac = {
      fields: payeeFields('interac', 'CA', 'CAD'),
      oneOf: [['email', 'phone']],
      blockedBins: [],
    };
    expect(checkPayeeValues(interac, { beneficiaryName: 'Ann' }, { currencyCode: 'CAD' })).toEqual([
      { field: 'email', code: 'oneRequired' },
      { field: 'phone', code: 'oneRequired' },
    ]);
    const form = {
      ...emptyForm(),
      fromAccountId: 1,
      countryCode: 'CA',
      method: 'interac' as const,
      amount: '20',
      payeeFields: {
        beneficiaryName: ' Ann ',
        email: '',
        phone: '416 555 0100',
        iban: 'left from the wire form',
      },
    };
    expect(payeeValues(form, interac)).toEqual({
      beneficiaryName: 'Ann',
      phone: '416 555 0100',
    });
    expect(transferRequest('external', form, [account(1, 'CAD')], interac)).toEqual({
      method: 'interacTransfer',
      payload: {
        fromAccountId: 1,
        amount: '20',
        currency: 'CAD',
        countryCode: 'CA',
        payee: { beneficiaryName: 'Ann', phone: '416 555 0100' },
        reference: undefined,
        note: undefined,
      },
    });
    const errors = validateForm(
      'external',
      { ...form, payeeFields: { beneficiaryName: 'Ann' } },
      {
        accounts: [account(1, 'CAD')],
        payee: null,
        limits: null,
        methods: ['interac'],
        payeeForm: interac,
      },
    );
    expect(Object.keys(errors)).toEqual(['payee.email', 'payee.phone']);
  });

  it('asks the country, then a method, then waits for the form, before any payee field', () => {
    const facts = { accounts: ACCOUNTS, payee: null, limits: null };
    const base = { ...emptyForm(), fromAccountId: 1, amount: '5' };
    expect(validateForm('external', base, facts)).toEqual({
      countryCode: { code: 'required' },
    });
    expect(validateForm('external', { ...base, countryCode: 'DE' }, { ...facts, methods: [] })).toEqual({ countryCode: { code: 'noMethod' } });
    expect(validateForm('external', { ...base, countryCode: 'DE' }, { ...facts, methods: ['wire'] })).toEqual({ method: { code: 'required' } });
    expect(validateForm('external', { ...base, countryCode: 'DE', method: 'wire' }, { ...facts, methods: ['wire'], payeeForm: null })).toEqual({
      method: { code: 'formNotLoaded' },
    });
  });
});
