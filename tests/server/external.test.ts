/**
 * The external transfers' reference calls over HTTP (api/external.ts; document 2 §3, §7; issue 15
 * item 3): the payout methods of a country and currency, the fields of a method's payee form, a
 * country's banks, the branch-code formats, the instant key check and instant banks, and the SWIFT and IBAN look-ups with the spec's field names; a malformed code
 * answers VF with its check's code on the field, an unknown country VF notCountry, no token AU.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { externalMethods } from '../../api/external.ts';
import { callMethod, createTestApp, signIn, type TestApp } from './harness.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = (await signIn(t.app, 'boris')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

type Name = keyof typeof externalMethods;

/** A call answered 00, checked against its response schema. */
async function ok<N extends Name>(name: N, body: Record<string, unknown>): Promise<v.InferOutput<(typeof externalMethods)[N]['response']>> {
  const answer = await callMethod(t.app, name, body, { token });
  expect(answer.body.responseCode, `${name}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe('00');
  const parsed = v.safeParse(externalMethods[name].response, answer.body);
  expect(parsed.success, `${name} matches its response schema`).toBe(true);
  return parsed.output as never;
}

/** A call answered VF naming `param` with `code`. */
async function refused(name: Name, body: Record<string, unknown>, param: string, code: string): Promise<void> {
  const answer = await callMethod(t.app, name, body, { token });
  expect(answer.body.responseCode, JSON.stringify(answer.body)).toBe('VF');
  expect(answer.body.validationErrors).toEqual([expect.objectContaining({ param, code })]);
}

describe('transferMethods: the payout methods of a country and currency', () => {
  it('lists each method where it goes', async () => {
    // a local transfer and PIX in reais; a SWIFT wire in a wire currency
    expect((await ok('transferMethods', { countryCode: 'BR', currencyCode: 'brl' })).methods).toEqual(expect.arrayContaining(['eft', 'instant']));
    expect((await ok('transferMethods', { countryCode: 'BR', currencyCode: 'USD' })).methods).toContain('wire');
    expect((await ok('transferMethods', { countryCode: 'ca', currencyCode: 'CAD' })).methods).toEqual(expect.arrayContaining(['eft', 'interac']));
    const germany = (await ok('transferMethods', { countryCode: 'DE', currencyCode: 'EUR' })).methods;
    expect(germany).toEqual(expect.arrayContaining(['wire', 'eft']));
    // PIX is Brazil's, Interac Canada's
    expect(germany).not.toContain('instant');
    expect(germany).not.toContain('interac');
  });

  it('refuses a country the platform does not know, and a call without a token', async () => {
    await refused('transferMethods', { countryCode: 'XX', currencyCode: 'EUR' }, 'countryCode', 'notCountry');
    const anonymous = await callMethod(t.app, 'transferMethods', { countryCode: 'DE', currencyCode: 'EUR' });
    expect(anonymous.body.responseCode).toBe('AU');
  });
});

describe('extraParams: the fields of a payee form', () => {
  it('asks the bank code and the branch code for EFT to BR, JP, HK and LK (document 2 §5), not elsewhere', async () => {
    const brazil = (await ok('extraParams', { paymentMethod: 'eft', currencyCode: 'BRL', countryCode: 'BR' })).params;
    for (const name of ['bankCode', 'branchCode']) expect(brazil.find((field) => field.name === name)?.required, name).toBe(true);
    const germany = (await ok('extraParams', { paymentMethod: 'eft', currencyCode: 'EUR', countryCode: 'DE' })).params;
    expect(germany.map((field) => field.name)).toContain('iban');
    expect(germany.map((field) => field.name)).not.toContain('branchCode');
  });

  it('answers no fields where the method does not go, and VF for a method that does not exist', async () => {
    expect((await ok('extraParams', { paymentMethod: 'interac', currencyCode: 'EUR', countryCode: 'DE' })).params).toEqual([]);
    const answer = await callMethod(t.app, 'extraParams', { paymentMethod: 'pigeon', currencyCode: 'EUR', countryCode: 'DE' }, { token });
    expect(answer.body.responseCode).toBe('VF');
    expect(answer.body.validationErrors).toEqual([expect.objectContaining({ param: 'paymentMethod' })]);
  });
});

describe('banksList', () => {
  it("lists a country's banks with their SWIFT codes, and none for a country without any", async () => {
    const banks = (await ok('banksList', { countryCode: 'JP' })).banks;
    expect(banks.map((bank) => bank.clearingCode)).toEqual(['0001', '0005', '0009']);
    for (const bank of banks) expect(bank.swift).toMatch(/^[A-Z]{4}JP[A-Z0-9]{2}([A-Z0-9]{3})?$/);
    expect((await ok('banksList', { countryCode: 'IS' })).banks).toEqual([]);
  });
});

describe('branchCodeOptions: the bank and branch codes of a local transfer', () => {
  it('requires both for BR, JP, HK and LK with their lengths (document 2 §5), neither elsewhere', async () => {
    expect(await ok('branchCodeOptions', { countryCode: 'br' })).toMatchObject({ required: true, bankCode: { digits: 3 }, branchCode: { digits: 4 } });
    expect(await ok('branchCodeOptions', { countryCode: 'JP' })).toMatchObject({ required: true, bankCode: { digits: 4 }, branchCode: { digits: 3 } });
    for (const countryCode of ['HK', 'LK']) expect((await ok('branchCodeOptions', { countryCode })).required, countryCode).toBe(true);
    for (const countryCode of ['DE', 'GB', 'US', 'IS']) expect(await ok('branchCodeOptions', { countryCode }), countryCode).toMatchObject({ required: false, bankCode: null, branchCode: null });
    await refused('branchCodeOptions', { countryCode: 'XX' }, 'countryCode', 'notCountry');
  });
});

describe('instantKeyInfo and instantBankList (document 2 §7; §3 "Instant details")', () => {
  it('answers a key as the rail takes it, checked by its type, with the receiver\'s tax id by its check digits', async () => {
    expect((await ok('instantKeyInfo', { instantKeyType: 'CPF', instantKey: '529.982.247-25' })).instantInfo).toEqual({ instantKey: '52998224725', instantKeyType: 'CPF', taxId: null });
    expect((await ok('instantKeyInfo', { instantKeyType: 'EMAIL', instantKey: 'Ana@Exemplo.com.br', taxId: '529.982.247-25' })).instantInfo).toMatchObject({ instantKeyType: 'EMAIL', taxId: '52998224725' });
    await refused('instantKeyInfo', { instantKeyType: 'CPF', instantKey: '529.982.247-24' }, 'instantKey', 'taxIdChecksum');
    await refused('instantKeyInfo', { instantKeyType: 'PHONE', instantKey: '12345' }, 'instantKey', 'phoneFormat');
    await refused('instantKeyInfo', { instantKeyType: 'EVP', instantKey: '123e4567-e89b-12d3-a456-426614174000', taxId: '11.111.111/1111-11' }, 'taxId', 'taxIdChecksum');
    await refused('instantKeyInfo', { instantKeyType: 'IBAN', instantKey: 'x' }, 'instantKeyType', 'notAllowed');
  });

  it("lists the banks an instant payout reaches in Brazil, none where instant does not go", async () => {
    const banks = (await ok('instantBankList', { countryCode: 'BR' })).banks;
    expect(banks.length).toBeGreaterThan(0);
    expect(banks).toEqual((await ok('banksList', { countryCode: 'BR' })).banks);
    expect((await ok('instantBankList', { countryCode: 'DE' })).banks).toEqual([]);
    const anonymous = await callMethod(t.app, 'instantBankList', { countryCode: 'BR' });
    expect(anonymous.body.responseCode).toBe('AU');
  });
});

describe('swiftLookup (document 2 §3 "Bank details by SWIFT")', () => {
  it("answers the bank's details under the spec's names", async () => {
    expect((await ok('swiftLookup', { swift: 'deutdeff' })).bankDetails).toEqual({
      address: 'Taunusanlage 12',
      city: 'Frankfurt am Main',
      zipCode: '60325',
      countryIsoCode: 'DE',
      bankName: 'Deutsche Bank AG',
      code: 'DEUTDEFF',
    });
  });

  it('answers null for a well-formed code of a bank it does not know, VF for a malformed one', async () => {
    expect((await ok('swiftLookup', { swift: 'ZZZZDEFF' })).bankDetails).toBeNull();
    await refused('swiftLookup', { swift: 'DEUT' }, 'swift', 'bicFormat');
    await refused('swiftLookup', { swift: 'DEUTZZFF' }, 'swift', 'bicCountry');
  });
});

describe('ibanLookup (document 2 §3 "Bank details by IBAN")', () => {
  it("answers the bank's details with the branch inside the IBAN and the country named in the caller's language", async () => {
    expect((await ok('ibanLookup', { iban: 'GB29 NWBK 6016 1331 9268 19' })).bankDetails).toEqual({
      address: '250 Bishopsgate',
      branch: '601613',
      city: 'London',
      zipCode: 'EC2M 4AA',
      countryIsoCode: 'GB',
      country: 'United Kingdom',
      bankName: 'National Westminster Bank Plc',
      SWIFT: 'NWBKGB2L',
    });
    const inSpanish = (await ok('ibanLookup', { iban: 'DE94500700100123456789', lang: 'es' })).bankDetails;
    expect(inSpanish).toMatchObject({ SWIFT: 'DEUTDEFF', country: 'Alemania' });
  });

  it('answers null for a valid IBAN of a bank it does not know, VF with the check that failed otherwise', async () => {
    expect((await ok('ibanLookup', { iban: 'DE89370400440532013000' })).bankDetails).toBeNull();
    await refused('ibanLookup', { iban: 'GB29NWBK60161331926818' }, 'iban', 'ibanChecksum');
    await refused('ibanLookup', { iban: 'GB29NWBK601613319268' }, 'iban', 'ibanLength');
  });
});
