/** Registration and activation field rules (machines/registration/registration.rules.ts, api/registration.ts). */
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { ActivationCodeSchema, LoginEmailSchema, PersonNameSchema, activationLink, collapseWhitespace } from '../../api/registration.ts';
import {
  normaliseCode,
  normaliseEmail,
  registrationRequest,
  shouldCheckEmail,
  validateActivation,
  validateRegistration,
  type RegistrationForm,
} from '../../machines/registration/registration.rules.ts';
import { parseActivationQuery } from '../../src/features/registration/activation-query.ts';
import { newActivationCode } from '../../server/modules/registration/registration.service.ts';

const form = (over: Partial<RegistrationForm> = {}): RegistrationForm => ({
  personalType: 'individual',
  firstName: 'Ana',
  lastName: 'Pop',
  email: 'ana@example.test',
  password: 'Joined-2026x',
  residenceCountryCode: 'LT',
  phoneCountryCode: '',
  phone: '',
  acceptTerms: true,
  ...over,
});

describe('the e-mail existence check (document 1 §4)', () => {
  it('is sent only for text longer than 5 characters holding @ and a dot', () => {
    expect(shouldCheckEmail('a@b.c')).toBe(false); // 5 characters
    expect(shouldCheckEmail('ab@c.de')).toBe(true);
    expect(shouldCheckEmail('abcdef@ghij')).toBe(false); // no dot
    expect(shouldCheckEmail('abc.def.gh')).toBe(false); // no @
    expect(shouldCheckEmail('   ab@c.de   ')).toBe(true); // trimmed first
    expect(shouldCheckEmail('a b@c.de')).toBe(false); // not an address
  });
});

describe('names and login are trimmed with whitespace collapsed (document 1 §5)', () => {
  it('in the contract schemas', () => {
    expect(collapseWhitespace('  Ana \t  Maria\n ')).toBe('Ana Maria');
    expect(v.parse(PersonNameSchema, '  Ana   Maria ')).toBe('Ana Maria');
    expect(v.parse(LoginEmailSchema, '  Ana@Example.TEST ')).toBe('ana@example.test');
    expect(v.safeParse(PersonNameSchema, '    ').success).toBe(false);
    expect(v.safeParse(PersonNameSchema, 'x'.repeat(101)).success).toBe(false);
  });
  it('in the request the web app sends', () => {
    const r = registrationRequest(form({ firstName: ' Ana   Maria ', email: ' Ana@Example.test', phoneCountryCode: '+370', phone: '(612) 34-567' }));
    expect(r).toMatchObject({ firstName: 'Ana Maria', email: 'ana@example.test', phoneCountryCode: '370', phone: '61234567' });
    expect('phone' in registrationRequest(form())).toBe(false);
    expect(normaliseEmail(' A@B.CD ')).toBe('a@b.cd');
  });
});

describe('validateRegistration', () => {
  it('accepts a complete form', () => {
    expect(validateRegistration(form(), ['individual'])).toEqual({});
  });
  it('names every bad field', () => {
    expect(
      validateRegistration(form({ personalType: '', firstName: ' ', lastName: 'x'.repeat(101), email: 'nope', password: 'letters-only', residenceCountryCode: '', phone: '12', acceptTerms: false }), ['individual']),
    ).toEqual({
      personalType: 'notOffered',
      firstName: 'required',
      lastName: 'nameTooLong',
      email: 'invalidEmail',
      password: 'weakPassword',
      residenceCountryCode: 'required',
      phone: 'invalidPhone',
      phoneCountryCode: 'phoneCountryRequired',
      acceptTerms: 'termsRequired',
    });
  });
  it('refuses a type the variant does not offer', () => {
    expect(validateRegistration(form({ personalType: 'soleTrader' }), ['individual']).personalType).toBe('notOffered');
  });
});

describe('activation', () => {
  it('codes: 8 characters of an alphabet without look-alikes, typed in any case, dashes allowed', () => {
    for (let i = 0; i < 50; i++) expect(newActivationCode()).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
    expect(v.parse(ActivationCodeSchema, ' abcd-efgh ')).toBe('ABCDEFGH');
    expect(v.safeParse(ActivationCodeSchema, 'ABCDEFG0').success).toBe(false); // 0 is not in the alphabet
    expect(normaliseCode('ab cd-ef gh')).toBe('ABCDEFGH');
  });
  it('validateActivation', () => {
    expect(validateActivation({ email: 'a@b.cd', code: 'ABCDEFGH' })).toEqual({});
    expect(validateActivation({ email: '', code: '' })).toEqual({ email: 'required', code: 'required' });
    expect(validateActivation({ email: 'x', code: '12', password: 'short' })).toEqual({ email: 'invalidEmail', code: 'invalidCode', password: 'weakPassword' });
  });
  it('the e-mailed link opens an external page with the query action', () => {
    expect(activationLink('https://bank.test', 'activation', 'a+b@c.de', 'ABCDEFGH')).toBe('https://bank.test/login?action=activation&user=a%2Bb%40c.de&code=ABCDEFGH');
    expect(activationLink('https://bank.test', 'activationEmployee', 'a@c.de', 'X')).toContain('action=activationEmployee&email=a%40c.de');
  });
  it('parseActivationQuery reads the three actions and nothing else', () => {
    expect(parseActivationQuery({ action: 'activation', user: 'a@b.cd', code: 'ABCDEFGH' })).toEqual({ kind: 'personal', email: 'a@b.cd', code: 'ABCDEFGH' });
    expect(parseActivationQuery({ action: 'activationBusiness', email: 'o@b.cd', code: 'C' })).toEqual({ kind: 'business', email: 'o@b.cd', code: 'C' });
    expect(parseActivationQuery({ action: 'activationEmployee', email: 'e@b.cd' })).toEqual({ kind: 'employee', email: 'e@b.cd', code: '' });
    expect(parseActivationQuery({ action: 'logout' })).toBeNull();
    expect(parseActivationQuery({ code: 'x', codeVerifier: 'y' })).toBeNull();
    expect(parseActivationQuery({ action: 'activation', user: 'x'.repeat(300), code: 'C' })?.email).toBe('');
  });
});
