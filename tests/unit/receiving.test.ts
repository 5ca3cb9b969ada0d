/** Receiving details (server/modules/rails/receiving.ts): an account's IBAN and back, and the RECEIVING_BANK setting. */
import { describe, expect, it } from 'vitest';
import { validateIBAN } from 'ibantools';
import { printIban } from '../../api/payees/iban.ts';
import { accountOfIban, DEFAULT_RECEIVING_BANK, ibanOfAccount, receivingBankFrom, ReceivingBankError } from '../../server/modules/rails/receiving.ts';

const bank = DEFAULT_RECEIVING_BANK;

describe('an account IBAN', () => {
  it('is a valid IBAN of the provider bank with the account id in its BBAN', () => {
    const iban = ibanOfAccount(bank, 123);
    expect(iban).toBe('LT973990000000000123');
    expect(validateIBAN(iban).valid).toBe(true);
    expect(printIban(iban)).toBe('LT97 3990 0000 0000 0123');
  });

  it('names its account again, typed with spaces or in lower case', () => {
    for (const id of [1, 123, 99_999_999_999]) expect(accountOfIban(bank, printIban(ibanOfAccount(bank, id)).toLowerCase())).toBe(id);
  });

  it('names no account when a digit is mistyped, the bank is another, or it is no IBAN', () => {
    expect(accountOfIban(bank, 'LT973990000000000124')).toBeNull();
    expect(accountOfIban(bank, 'LT121000011101001000')).toBeNull();
    expect(accountOfIban(bank, 'DE89370400440532013000')).toBeNull();
    expect(accountOfIban(bank, 'not an iban')).toBeNull();
    expect(accountOfIban(bank, ibanOfAccount(bank, 0))).toBeNull();
  });
});

describe('RECEIVING_BANK', () => {
  it('defaults to the documented bank and reads country:bank code:BIC', () => {
    expect(receivingBankFrom(undefined)).toEqual(bank);
    const de = receivingBankFrom('de:37040044:COBADEFFXXX');
    expect(de).toEqual({ countryCode: 'DE', bankCode: '37040044', bic: 'COBADEFFXXX' });
    expect(ibanOfAccount(de, 77)).toMatch(/^DE\d{2}370400440000000077$/);
    expect(validateIBAN(ibanOfAccount(de, 77)).valid).toBe(true);
  });

  it('refuses a country without all-digit BBANs, a bank code leaving no room, and a bad BIC', () => {
    expect(() => receivingBankFrom('GB:1234:WLBPGB22')).toThrow(ReceivingBankError);
    expect(() => receivingBankFrom('LT:123456789:WLBPLT22')).toThrow(/room/);
    expect(() => receivingBankFrom('LT:39900:NOTABIC')).toThrow(/BIC/);
    expect(() => receivingBankFrom('EE:22:HABAEE2X')).toThrow(/national check digits/);
  });
});
