/** The shipped bank directory and its look-ups by SWIFT and by IBAN (api/payees/banks.ts; document 2 §3, §7). */
import { describe, expect, it } from 'vitest';
import { BANK_DIRECTORY, bankByIban, bankBySwift, banksOf } from '../../api/payees/banks.ts';
import { checkBic, checkIban } from '../../api/payees/iban.ts';

describe('the directory', () => {
  it('holds real banks of every region the platform serves, with well-formed SWIFT codes', () => {
    const countries = new Set(BANK_DIRECTORY.map((bank) => bank.countryIsoCode));
    for (const country of ['DE', 'FR', 'NL', 'ES', 'IT', 'GB', 'US', 'CA', 'BR', 'JP', 'HK', 'LK', 'LT', 'RO', 'UA'])
      expect(countries.has(country), country).toBe(true);
    for (const bank of BANK_DIRECTORY) {
      const bic = checkBic(bank.swift);
      expect(bic.ok, bank.swift).toBe(true);
      // a bank's SWIFT code names its own country
      expect(bic.ok && bic.countryCode, bank.swift).toBe(bank.countryIsoCode);
      expect(bank.bankName && bank.address && bank.city, bank.swift).toBeTruthy();
    }
    expect(new Set(BANK_DIRECTORY.map((bank) => bank.swift)).size).toBe(BANK_DIRECTORY.length);
  });

  it('gives every bank of an IBAN country its bank code inside the IBAN, unique in its country', () => {
    const keys = BANK_DIRECTORY.filter((bank) => bank.ibanBankCode).map((bank) => `${bank.countryIsoCode}:${bank.ibanBankCode}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const bank of BANK_DIRECTORY) expect(Boolean(bank.ibanBankCode), bank.swift).toBe(!['US', 'CA', 'JP', 'HK', 'LK'].includes(bank.countryIsoCode));
  });

  it('lists a country’s banks by name', () => {
    expect(banksOf('JP').map((bank) => bank.clearingCode)).toEqual(['0001', '0005', '0009']);
    expect(banksOf('ZZ')).toEqual([]);
  });
});

describe('bank details by SWIFT (§3: address, city, zipCode, countryIsoCode, bankName, code)', () => {
  it('finds the bank of an 8-character code, typed in any case with spaces', () => {
    expect(bankBySwift('deut de ff')).toEqual({
      address: 'Taunusanlage 12',
      city: 'Frankfurt am Main',
      zipCode: '60325',
      countryIsoCode: 'DE',
      bankName: 'Deutsche Bank AG',
      code: 'DEUTDEFF',
    });
  });

  it('finds the head office for a branch code or XXX, and an 11-character entry from its 8 characters', () => {
    expect(bankBySwift('DEUTDEFF500')).toMatchObject({ bankName: 'Deutsche Bank AG', code: 'DEUTDEFF' });
    expect(bankBySwift('ABNANL2AXXX')).toMatchObject({ bankName: 'ABN AMRO Bank N.V.' });
    expect(bankBySwift('TDOMCATT')).toMatchObject({ bankName: 'The Toronto-Dominion Bank', code: 'TDOMCATTTOR' });
  });

  it('answers null for an unknown bank or a malformed code', () => {
    expect(bankBySwift('ZZZZDEFF')).toBeNull();
    expect(bankBySwift('DEUTZZFF')).toBeNull();
    expect(bankBySwift('DEUT')).toBeNull();
  });
});

describe('bank details by IBAN (§3: address, branch, city, zipCode, countryIsoCode, country, bankName, SWIFT)', () => {
  it('finds the bank from the national bank code inside the IBAN', () => {
    expect(bankByIban('GB29 NWBK 6016 1331 9268 19')).toEqual({
      address: '250 Bishopsgate',
      branch: '601613',
      city: 'London',
      zipCode: 'EC2M 4AA',
      countryIsoCode: 'GB',
      country: 'GB',
      bankName: 'National Westminster Bank Plc',
      SWIFT: 'NWBKGB2L',
    });
    expect(bankByIban('NL91ABNA0417164300')).toMatchObject({ SWIFT: 'ABNANL2A', branch: '' });
    expect(bankByIban('FR1420041010050500013M02606')).toMatchObject({ SWIFT: 'PSSTFRPP', branch: '01005' });
    expect(bankByIban('ES9121000418450200051332')).toMatchObject({ SWIFT: 'CAIXESBB' });
    expect(bankByIban('BR1800360305000010009795493C1')).toMatchObject({ SWIFT: 'CEFXBRSP', bankName: 'Caixa Econômica Federal' });
  });

  it('reads the bank code of each IBAN country of the directory (IBANs built for its banks)', () => {
    // valid IBANs (mod-97 computed) with each bank's code and a made-up account
    const ibans: [string, string][] = [
      ['DE94500700100123456789', 'DEUTDEFF'],
      ['LT927300000000000001', 'HABALT22'],
      ['RO17BTRL0000000000001234', 'BTRLRO22'],
      ['UA223052990000026001234567890', 'PBANUA2X'],
      ['IT43X0306901000000000123456', 'BCITITMM'],
    ];
    for (const [iban, swift] of ibans) {
      expect(checkIban(iban).ok, iban).toBe(true);
      expect(bankByIban(iban)?.SWIFT, iban).toBe(swift);
    }
  });

  it('names the country with the function given (the platform passes its dictionary)', () => {
    const names: Record<string, string> = { RO: 'România' };
    expect(bankByIban('RO17BTRL0000000000001234', (code) => names[code] ?? code)?.country).toBe('România');
  });

  it('answers null for an IBAN that fails its checks or whose bank is not in the directory', () => {
    expect(bankByIban('GB29NWBK60161331926818')).toBeNull();
    expect(bankByIban('DE89370400440532013000')).toBeNull(); // Commerzbank Köln: not in the sample
    expect(bankByIban('LT121000011101001000')).toBeNull();
  });
});
