/** PIX keys and Brazil's tax ids (api/payees/instant.ts; document 2 §7 instant details: taxId, instantKey, instantKeyType). */
import { describe, expect, it } from 'vitest';
import { checkBrazilTaxId, checkCnpj, checkCpf, checkInstantKey } from '../../api/payees/instant.ts';

describe('CPF', () => {
  it('passes with its two check digits, typed with or without punctuation', () => {
    expect(checkCpf('111.444.777-35')).toEqual({ ok: true, value: '11144477735' });
    expect(checkCpf('52998224725')).toEqual({ ok: true, value: '52998224725' });
  });

  it('fails a wrong check digit, one digit repeated, or another length', () => {
    expect(checkCpf('111.444.777-36')).toEqual({ ok: false, code: 'taxIdChecksum' });
    expect(checkCpf('111.444.778-35')).toEqual({ ok: false, code: 'taxIdChecksum' });
    // 000.000.000-00 and its like pass the arithmetic but are no CPF
    expect(checkCpf('000.000.000-00')).toEqual({ ok: false, code: 'taxIdChecksum' });
    expect(checkCpf('1114447773')).toEqual({ ok: false, code: 'badFormat' });
  });
});

describe('CNPJ', () => {
  it('passes a numeric one and the alphanumeric form of July 2026 (the Receita Federal example)', () => {
    expect(checkCnpj('11.222.333/0001-81')).toEqual({ ok: true, value: '11222333000181' });
    expect(checkCnpj('12.abc.345/01de-35')).toEqual({ ok: true, value: '12ABC34501DE35' });
  });

  it('fails a wrong check digit, a changed letter, letters in the check digits', () => {
    expect(checkCnpj('11.222.333/0001-82')).toEqual({ ok: false, code: 'taxIdChecksum' });
    expect(checkCnpj('12.ABD.345/01DE-35')).toEqual({ ok: false, code: 'taxIdChecksum' });
    expect(checkCnpj('00.000.000/0000-00')).toEqual({ ok: false, code: 'taxIdChecksum' });
    expect(checkCnpj('12.ABC.345/01DE-3A')).toEqual({ ok: false, code: 'badFormat' });
  });

  it('is told from a CPF by its length', () => {
    expect(checkBrazilTaxId('111.444.777-35')).toMatchObject({ ok: true, value: '11144477735' });
    expect(checkBrazilTaxId('11.222.333/0001-81')).toMatchObject({ ok: true, value: '11222333000181' });
    expect(checkBrazilTaxId('123')).toEqual({ ok: false, code: 'badFormat' });
  });
});

describe('PIX keys by type', () => {
  it('answers each key as the key directory holds it', () => {
    expect(checkInstantKey('CPF', '111.444.777-35')).toEqual({ ok: true, value: '11144477735' });
    expect(checkInstantKey('CNPJ', '11.222.333/0001-81')).toEqual({ ok: true, value: '11222333000181' });
    expect(checkInstantKey('EMAIL', ' Ana.Pop@Example.com.br ')).toEqual({ ok: true, value: 'ana.pop@example.com.br' });
    expect(checkInstantKey('PHONE', '+55 (11) 98765-4321')).toEqual({ ok: true, value: '+5511987654321' });
    expect(checkInstantKey('PHONE', '11987654321')).toEqual({ ok: true, value: '+5511987654321' });
    expect(checkInstantKey('EVP', '123E4567-E89B-12D3-A456-426614174000')).toEqual({ ok: true, value: '123e4567-e89b-12d3-a456-426614174000' });
  });

  it('refuses a key of another type or shape', () => {
    expect(checkInstantKey('CPF', '11.222.333/0001-81')).toEqual({ ok: false, code: 'badFormat' });
    expect(checkInstantKey('EMAIL', 'ana.example.com')).toEqual({ ok: false, code: 'notEmail' });
    expect(checkInstantKey('EMAIL', `${'a'.repeat(70)}@ex.com`)).toMatchObject({ ok: true }); // 77 characters
    expect(checkInstantKey('EMAIL', `${'a'.repeat(71)}@ex.com`)).toEqual({ ok: false, code: 'tooLong' });
    expect(checkInstantKey('PHONE', '+55 11 8765-4321')).toEqual({ ok: false, code: 'phoneFormat' }); // a landline
    expect(checkInstantKey('PHONE', '+55 01 98765-4321')).toEqual({ ok: false, code: 'phoneFormat' }); // no such area code
    expect(checkInstantKey('PHONE', '+1 416 555 0100')).toEqual({ ok: false, code: 'phoneFormat' });
    expect(checkInstantKey('EVP', '123e4567e89b12d3a456426614174000')).toEqual({ ok: false, code: 'badFormat' });
  });
});
