/** IBAN and SWIFT/BIC checks (api/payees/iban.ts; document 2 §3 bank details, issue 15 item 3). */
import { describe, expect, it } from 'vitest';
import { bic8, checkBic, checkIban, isIbanCountry, normaliseBankCode } from '../../api/payees/iban.ts';

/** Examples of the IBAN registry (SWIFT's, as ibantools and every bank's documentation quote them). */
const REGISTRY = {
  DE: 'DE89370400440532013000',
  GB: 'GB29NWBK60161331926819',
  FR: 'FR1420041010050500013M02606',
  NL: 'NL91ABNA0417164300',
  LT: 'LT121000011101001000',
  RO: 'RO49AAAA1B31007593840000',
  UA: 'UA213223130000026007233566001',
  BR: 'BR1800360305000010009795493C1',
  ES: 'ES9121000418450200051332',
} as const;

describe('an IBAN', () => {
  it('passes for the registry examples, with its country and the bank code inside it', () => {
    for (const iban of Object.values(REGISTRY)) expect(checkIban(iban)).toMatchObject({ ok: true, iban });
    expect(checkIban(REGISTRY.DE)).toEqual({ ok: true, iban: REGISTRY.DE, countryCode: 'DE', bankCode: '37040044' });
    expect(checkIban(REGISTRY.GB)).toEqual({ ok: true, iban: REGISTRY.GB, countryCode: 'GB', bankCode: 'NWBK', branchCode: '601613' });
    expect(checkIban(REGISTRY.BR)).toMatchObject({ countryCode: 'BR', bankCode: '00360305', branchCode: '00001' });
    // Ukraine's bank code (MFO) is read from the BBAN by this module, not by ibantools
    expect(checkIban(REGISTRY.UA)).toMatchObject({ countryCode: 'UA', bankCode: '322313' });
  });

  it('is normalised first: spaces removed, upper case', () => {
    expect(normaliseBankCode(' gb29 nwbk 6016 1331 9268 19 ')).toBe(REGISTRY.GB);
    expect(checkIban('de89 3704 0044 0532 0130 00')).toMatchObject({ ok: true, iban: REGISTRY.DE });
    expect(checkIban('DE89\t3704\n0044 0532 0130 00')).toMatchObject({ ok: true, iban: REGISTRY.DE });
  });

  it('fails its mod-97 check digits for one mistyped or two swapped characters', () => {
    expect(checkIban('DE89370400440532013001')).toEqual({ ok: false, code: 'ibanChecksum' });
    expect(checkIban('DE88370400440532013000')).toEqual({ ok: false, code: 'ibanChecksum' });
    expect(checkIban('GB29NWBK60161331926891')).toEqual({ ok: false, code: 'ibanChecksum' });
    expect(checkIban('NL91ABNA0417164301')).toEqual({ ok: false, code: 'ibanChecksum' });
  });

  it("fails a country's own check digits too (France's RIB key), answered as a checksum", () => {
    // mod-97 recomputed (FR63...) for a BBAN whose RIB key (15) is wrong
    expect(checkIban('FR6330004000030001000000015')).toEqual({ ok: false, code: 'ibanChecksum' });
  });

  it("fails the country's length", () => {
    expect(checkIban('DE8937040044053201300')).toEqual({ ok: false, code: 'ibanLength' });
    expect(checkIban('DE893704004405320130000')).toEqual({ ok: false, code: 'ibanLength' });
    expect(checkIban('NL91ABNA04171643001')).toEqual({ ok: false, code: 'ibanLength' });
  });

  it('fails a country without IBANs or no country at all', () => {
    expect(checkIban('US12345678901234567890')).toEqual({ ok: false, code: 'ibanCountry' });
    expect(checkIban('ZZ89370400440532013000')).toEqual({ ok: false, code: 'ibanCountry' });
    expect(isIbanCountry('DE')).toBe(true);
    expect(isIbanCountry('US')).toBe(false);
  });

  it("fails its format: characters, check digits that are not digits, a BBAN not of the country's shape", () => {
    expect(checkIban('')).toEqual({ ok: false, code: 'ibanFormat' });
    expect(checkIban('DE89-3704-0044-0532-0130-00')).toEqual({ ok: false, code: 'ibanFormat' });
    expect(checkIban('DEAB370400440532013000')).toEqual({ ok: false, code: 'ibanFormat' });
    expect(checkIban('1289370400440532013000')).toEqual({ ok: false, code: 'ibanFormat' });
    // Germany's BBAN is 18 digits: a letter in it is a format error, not a checksum one
    expect(checkIban('DE8937040044053201300A')).toEqual({ ok: false, code: 'ibanFormat' });
  });
});

describe('a SWIFT/BIC', () => {
  it('passes with 8 or 11 characters, in any case and with spaces', () => {
    expect(checkBic('DEUTDEFF')).toEqual({ ok: true, bic: 'DEUTDEFF', bankCode: 'DEUT', countryCode: 'DE', locationCode: 'FF' });
    expect(checkBic('DEUTDEFF500')).toEqual({ ok: true, bic: 'DEUTDEFF500', bankCode: 'DEUT', countryCode: 'DE', locationCode: 'FF', branchCode: '500' });
    expect(checkBic('tdom ca tt tor')).toMatchObject({ ok: true, bic: 'TDOMCATTTOR', countryCode: 'CA', branchCode: 'TOR' });
    expect(checkBic('NEDSZAJJXXX')).toMatchObject({ ok: true, branchCode: 'XXX' });
  });

  it('fails any other length or a digit in the bank or country part', () => {
    for (const bic of ['DEUTDEF', 'DEUTDEFF5', 'DEUTDEFF50', 'DEUTDEFF5000', 'DEU1DEFF', 'DEUTD3FF', ''])
      expect(checkBic(bic)).toEqual({ ok: false, code: 'bicFormat' });
  });

  it('fails a country part that is no ISO country', () => {
    expect(checkBic('DEUTZZFF')).toEqual({ ok: false, code: 'bicCountry' });
    expect(checkBic('DEUTQQFF500')).toEqual({ ok: false, code: 'bicCountry' });
  });

  it('compares by its 8-character head office form', () => {
    expect(bic8('deutdeffxxx')).toBe('DEUTDEFF');
    expect(bic8('DEUTDEFF')).toBe('DEUTDEFF');
  });
});
