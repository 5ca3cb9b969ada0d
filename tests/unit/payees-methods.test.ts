/** Payout methods as data: availability, fields per method and country, and the form check (api/payees/methods.ts; document 2 §5, §6, §7). */
import { describe, expect, it } from 'vitest';
import { FIAT_CURRENCIES } from '../../api/transfers.ts';
import {
  abaRoutingValid,
  availableMethods,
  PAYEE_FIELD_CODES,
  payeeFields,
  PAYOUT_METHODS,
  PAYOUT_ROUTES,
  validatePayeeFields,
  type PayoutMethod,
} from '../../api/payees/methods.ts';

const names = (method: PayoutMethod, country: string, currency: string) => payeeFields(method, country, currency).map((field) => field.name);
const check = (method: PayoutMethod, countryCode: string, currencyCode: string, values: Record<string, string>, blockedBins?: string[]) =>
  validatePayeeFields({ method, countryCode, currencyCode }, values, blockedBins ? { blockedBins } : {});

describe('available methods per country and currency (§7 transferMethods)', () => {
  it('offers wire everywhere in the major currencies, card payouts in the card currencies', () => {
    expect(availableMethods('DE', 'EUR')).toEqual(['wire', 'eft', 'oct']);
    expect(availableMethods('ZA', 'USD')).toEqual(['wire', 'oct']);
    expect(availableMethods('JP', 'JPY')).toEqual(['wire', 'eft']);
    expect(availableMethods('ZA', 'ZAR')).toEqual([]);
  });

  it('offers the local rails where they exist: PIX in BR, Interac in CA', () => {
    expect(availableMethods('BR', 'BRL')).toEqual(['eft', 'instant']);
    expect(availableMethods('CA', 'CAD')).toEqual(['wire', 'eft', 'oct', 'interac']);
    expect(availableMethods('US', 'CAD')).toEqual(['wire', 'oct']);
    expect(availableMethods('gb', 'gbp')).toEqual(['wire', 'eft', 'oct']);
  });

  it('offers crypto payouts in the crypto currencies to any country, and nothing to a code that is no country', () => {
    expect(availableMethods('LT', 'BTC')).toEqual(['digital']);
    expect(availableMethods('US', 'USDT')).toEqual(['digital']);
    expect(availableMethods('XX', 'BTC')).toEqual([]);
  });

  it('sends card payouts in the platform’s fiat currencies', () => {
    const oct = PAYOUT_ROUTES.oct[0]!;
    expect([...oct.currencies].sort()).toEqual([...FIAT_CURRENCIES].sort());
  });
});

describe('the fields a form renders (§7 extraParams)', () => {
  it('asks an IBAN for a wire to an IBAN country, an account number elsewhere, the SWIFT code always', () => {
    expect(names('wire', 'DE', 'EUR')).toEqual(['beneficiaryName', 'beneficiaryAddress', 'iban', 'swiftCode']);
    expect(names('wire', 'US', 'USD')).toEqual(['beneficiaryName', 'beneficiaryAddress', 'accountNumber', 'swiftCode', 'bankName']);
  });

  it('asks the rail’s own fields for EFT, by currency where a country has two rails', () => {
    expect(names('eft', 'GB', 'EUR')).toEqual(['beneficiaryName', 'iban', 'swiftCode']);
    expect(names('eft', 'GB', 'GBP')).toEqual(['beneficiaryName', 'sortCode', 'accountNumber']);
    expect(names('eft', 'US', 'USD')).toEqual(['beneficiaryName', 'routingNumber', 'accountNumber', 'accountType']);
    expect(names('eft', 'CA', 'CAD')).toEqual(['beneficiaryName', 'institutionNumber', 'transitNumber', 'accountNumber']);
  });

  it('requires the bank code and branch code for EFT to BR, JP, HK and LK and nowhere else (§5)', () => {
    const local: Record<string, string> = { BR: 'BRL', JP: 'JPY', HK: 'HKD', LK: 'LKR' };
    for (const [country, currency] of Object.entries(local)) {
      const fields = payeeFields('eft', country, currency);
      for (const name of ['bankCode', 'branchCode']) expect(fields.find((field) => field.name === name)?.required, `${country} ${name}`).toBe(true);
    }
    for (const route of PAYOUT_ROUTES.eft) {
      const hasBranch = route.fields.some((field) => field.name === 'branchCode');
      expect(hasBranch, String(route.countries)).toBe(route.countries !== 'any' && route.countries.every((country) => country in local));
    }
  });

  it('asks the key type (the five of PIX), the key and the tax id for instant', () => {
    const [type, key, taxId] = payeeFields('instant', 'BR', 'BRL');
    expect(type).toMatchObject({ name: 'instantKeyType', kind: 'select', options: ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'] });
    expect(key).toMatchObject({ name: 'instantKey', pattern: 'instantKey', maxLength: 77 });
    expect(taxId).toMatchObject({ name: 'taxId', required: true });
  });

  it('asks the network first for a token on several networks', () => {
    expect(names('digital', 'DE', 'USDT')).toEqual(['network', 'walletAddress']);
    expect(payeeFields('digital', 'DE', 'USDT')[0]?.options).toEqual(['ethereum', 'tron']);
    expect(names('digital', 'DE', 'BTC')).toEqual(['walletAddress']);
  });

  it('gives every method routes with fields of a known kind, selects with options, and no field twice', () => {
    for (const method of PAYOUT_METHODS) {
      expect(PAYOUT_ROUTES[method].length, method).toBeGreaterThan(0);
      for (const route of PAYOUT_ROUTES[method]) {
        const fieldNames = route.fields.map((field) => field.name);
        expect(new Set(fieldNames).size, `${method} ${fieldNames}`).toBe(fieldNames.length);
        for (const field of route.fields) {
          expect(['text', 'select', 'email', 'phone']).toContain(field.kind);
          expect(field.kind === 'select' ? (field.options?.length ?? 0) > 0 : Boolean(field.pattern), `${method} ${field.name}`).toBe(true);
        }
      }
    }
  });
});

describe('checking a filled payee form (validatePayeeFields)', () => {
  it('answers nothing for valid forms of every method', () => {
    expect(
      check('wire', 'DE', 'EUR', {
        beneficiaryName: 'Ana Pop',
        beneficiaryAddress: 'Taunusanlage 12, Frankfurt',
        iban: 'de89 3704 0044 0532 0130 00',
        swiftCode: 'cobadeff',
      }),
    ).toEqual([]);
    expect(
      check('wire', 'US', 'USD', { beneficiaryName: 'ACME Inc.', beneficiaryAddress: '270 Park Avenue', accountNumber: '000123456789', swiftCode: 'CHASUS33' }),
    ).toEqual([]);
    expect(check('eft', 'GB', 'GBP', { beneficiaryName: "John O'Neil", sortCode: '60-16-13', accountNumber: '31926819' })).toEqual([]);
    expect(check('eft', 'US', 'USD', { beneficiaryName: 'Jane Roe', routingNumber: '021000021', accountNumber: '123456789', accountType: 'checking' })).toEqual(
      [],
    );
    expect(
      check('eft', 'JP', 'JPY', { beneficiaryName: 'Taro Yamada', bankCode: '0005', branchCode: '001', accountType: 'ordinary', accountNumber: '1234567' }),
    ).toEqual([]);
    expect(
      check('eft', 'BR', 'BRL', {
        beneficiaryName: 'João Silva',
        taxId: '111.444.777-35',
        bankCode: '341',
        branchCode: '0001',
        accountNumber: '12345-6',
        accountType: 'savings',
      }),
    ).toEqual([]);
    expect(check('oct', 'RO', 'RON', { cardHolderName: 'Ana Pop', cardNumber: '4111 1111 1111 1111' })).toEqual([]);
    expect(check('digital', 'LT', 'BTC', { walletAddress: 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0' })).toEqual([]);
    expect(check('digital', 'LT', 'USDT', { network: 'tron', walletAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' })).toEqual([]);
    expect(check('instant', 'BR', 'BRL', { instantKeyType: 'EVP', instantKey: '123e4567-e89b-12d3-a456-426614174000', taxId: '11.222.333/0001-81' })).toEqual(
      [],
    );
    expect(check('interac', 'CA', 'CAD', { beneficiaryName: 'Marie Tremblay', phone: '+1 (416) 555-0199' })).toEqual([]);
    expect(check('interac', 'CA', 'CAD', { beneficiaryName: 'Marie Tremblay', email: 'marie@example.ca', phone: '' })).toEqual([]);
  });

  it('names every missing required field, a field the route does not take, and a country the method does not reach', () => {
    expect(check('eft', 'HK', 'HKD', { beneficiaryName: 'Chan Tai Man', accountNumber: '123456789', note: 'x' })).toEqual([
      { field: 'note', code: 'fieldNotTaken' },
      { field: 'bankCode', code: 'required' },
      { field: 'branchCode', code: 'required' },
    ]);
    expect(check('instant', 'AR', 'ARS', {})).toEqual([{ field: 'countryCode', code: 'notAllowed' }]);
    expect(check('eft', 'DE', 'EUR', { beneficiaryName: 'Ana Pop', iban: 'DE89370400440532013000', swiftCode: '  ' })).toEqual([]); // optional
  });

  it('answers the codes of the IBAN, BIC, card and crypto checks per field', () => {
    expect(
      check('wire', 'DE', 'EUR', { beneficiaryName: 'Ana Pop', beneficiaryAddress: 'Berlin', iban: 'DE89370400440532013001', swiftCode: 'COBAZZFF' }),
    ).toEqual([
      { field: 'iban', code: 'ibanChecksum' },
      { field: 'swiftCode', code: 'bicCountry' },
    ]);
    expect(check('oct', 'DE', 'EUR', { cardHolderName: 'Ana Pop', cardNumber: '4111111111111112' })).toEqual([{ field: 'cardNumber', code: 'cardChecksum' }]);
    expect(check('oct', 'DE', 'EUR', { cardHolderName: 'Ana Pop', cardNumber: '3782822463100052' })).toEqual([{ field: 'cardNumber', code: 'cardLength' }]);
    expect(check('oct', 'DE', 'EUR', { cardHolderName: 'Ana Pop', cardNumber: '378282246310005' })).toEqual([
      { field: 'cardNumber', code: 'cardBrandUnsupported' },
    ]);
    expect(check('oct', 'DE', 'EUR', { cardHolderName: 'Ana Pop', cardNumber: '4111 1111 1111 1111' }, ['411111'])).toEqual([
      { field: 'cardNumber', code: 'cardBinBlocked' },
    ]);
    expect(check('digital', 'DE', 'ETH', { walletAddress: '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })).toEqual([
      { field: 'walletAddress', code: 'cryptoChecksum' },
    ]);
    expect(check('digital', 'DE', 'USDT', { network: 'ethereum', walletAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' })).toEqual([
      { field: 'walletAddress', code: 'cryptoNetwork' },
    ]);
    expect(check('digital', 'DE', 'USDT', { network: 'bitcoin', walletAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' })).toEqual([
      { field: 'network', code: 'notAllowed' },
    ]);
  });

  it('keeps a SEPA transfer to SEPA accounts', () => {
    // a valid Ukrainian IBAN, but Ukraine is not in SEPA
    expect(check('eft', 'DE', 'EUR', { beneficiaryName: 'Ana Pop', iban: 'UA213223130000026007233566001' })).toEqual([{ field: 'iban', code: 'ibanCountry' }]);
    expect(check('eft', 'RO', 'RON', { beneficiaryName: 'Ana Pop', iban: 'NL91ABNA0417164300' })).toEqual([{ field: 'iban', code: 'ibanCountry' }]);
  });

  it('checks the local numbers: digits and their count, the ABA routing checksum, select options', () => {
    expect(check('eft', 'GB', 'GBP', { beneficiaryName: 'John Smith', sortCode: '60-16-1', accountNumber: '3192681X' })).toEqual([
      { field: 'sortCode', code: 'digitCount' },
      { field: 'accountNumber', code: 'badFormat' },
    ]);
    expect(
      check('eft', 'US', 'USD', { beneficiaryName: 'Jane Roe', routingNumber: '021000022', accountNumber: '123456789', accountType: 'brokerage' }),
    ).toEqual([
      { field: 'routingNumber', code: 'routingChecksum' },
      { field: 'accountType', code: 'notAllowed' },
    ]);
    expect(abaRoutingValid('021000021')).toBe(true);
    expect(abaRoutingValid('121000248')).toBe(true);
    expect(abaRoutingValid('121000249')).toBe(false);
  });

  it('checks the PIX key by its chosen type and the tax id by its check digits', () => {
    expect(check('instant', 'BR', 'BRL', { instantKeyType: 'CPF', instantKey: '111.444.777-36', taxId: '111.444.777-35' })).toEqual([
      { field: 'instantKey', code: 'taxIdChecksum' },
    ]);
    expect(check('instant', 'BR', 'BRL', { instantKeyType: 'PHONE', instantKey: 'ana@example.com', taxId: '111.444.777-35' })).toEqual([
      { field: 'instantKey', code: 'phoneFormat' },
    ]);
    expect(check('instant', 'BR', 'BRL', { instantKeyType: 'EMAIL', instantKey: 'ana@example.com', taxId: '11.222.333/0001-80' })).toEqual([
      { field: 'taxId', code: 'taxIdChecksum' },
    ]);
    // without a key type, only the select is answered
    expect(check('instant', 'BR', 'BRL', { instantKeyType: 'IBAN', instantKey: 'x', taxId: '111.444.777-35' })).toEqual([
      { field: 'instantKeyType', code: 'notAllowed' },
    ]);
  });

  it("asks Interac's e-mail or phone (at least one), each checked by its kind", () => {
    expect(payeeFields('interac', 'CA', 'CAD').map((field) => field.kind)).toEqual(['text', 'email', 'phone']);
    expect(check('interac', 'CA', 'CAD', { beneficiaryName: 'Marie', email: ' ', phone: '' })).toEqual([
      { field: 'email', code: 'oneRequired' },
      { field: 'phone', code: 'oneRequired' },
    ]);
    expect(check('interac', 'CA', 'CAD', { beneficiaryName: 'Marie', email: '416-555-0199' })).toEqual([{ field: 'email', code: 'notEmail' }]);
    expect(check('interac', 'CA', 'CAD', { beneficiaryName: 'Marie', phone: '016-555-0199' })).toEqual([{ field: 'phone', code: 'phoneFormat' }]);
    expect(check('interac', 'CA', 'CAD', { beneficiaryName: 'Marie', phone: '416-555-019' })).toEqual([{ field: 'phone', code: 'phoneFormat' }]);
  });

  it('refuses names without a letter, and text longer than the field takes', () => {
    expect(check('oct', 'DE', 'EUR', { cardHolderName: '12345', cardNumber: '4111111111111111' })).toEqual([{ field: 'cardHolderName', code: 'badFormat' }]);
    expect(check('oct', 'DE', 'EUR', { cardHolderName: 'A'.repeat(101), cardNumber: '4111111111111111' })).toEqual([
      { field: 'cardHolderName', code: 'tooLong' },
    ]);
  });

  it('answers only codes it declares', () => {
    expect(PAYEE_FIELD_CODES).toEqual(
      expect.arrayContaining(['required', 'fieldNotTaken', 'ibanChecksum', 'cardBinBlocked', 'cryptoNetwork', 'taxIdChecksum']),
    );
    expect(new Set(PAYEE_FIELD_CODES).size).toBe(PAYEE_FIELD_CODES.length);
  });
});
