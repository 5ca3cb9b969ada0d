/**
 * The business registration wizard's own rules (machines/business-registration/business-registration.rules.ts)
 * and its actors' pure parts (src/features/business-registration/actors.ts): the forms' checks, the
 * accountCreate request built from a draft, the platform's VF parameters mapped back to the section
 * and field they name, and the draft kept in this browser's storage per registrant e-mail.
 */
import { describe, expect, it } from 'vitest';
import {
  BUSINESS_DRAFT_VERSION,
  REGISTRANT_ID,
  businessRequest,
  emptyDraft,
  emptyGeneral,
  nextEmailToCheck,
  sectionOfParam,
  validateDueDiligence,
  validateGeneral,
  validatePerson,
  withRegistrant,
  type BusinessDictionaries,
} from '../../machines/business-registration/business-registration.rules.ts';
import { createBusinessResult, readLocalDraft, removeLocalDraft, writeLocalDraft } from '../../src/features/business-registration/actors.ts';

const dictionaries: BusinessDictionaries = {
  purposes: [{ id: 1, name: 'Payments' }],
  sources: [{ id: 1, name: 'Sales' }],
  industries: [],
  questions: [
    {
      id: 'businessAnotherAccount',
      type: 'radio',
      question: 'Another account?',
      options: [
        { value: true, label: 'Yes' },
        { value: false, label: 'No' },
      ],
      followUp: { when: true, id: 'businessAnotherAccountValue', type: 'textarea', question: 'Where?' },
    },
  ],
  personSources: [],
  agreements: [
    { id: 1, name: 'Terms', url: 'https://example.test/t' },
    { id: 2, name: 'Privacy', url: 'https://example.test/p' },
  ],
};

class MemoryStorage {
  items = new Map<string, string>();
  getItem = (k: string) => this.items.get(k) ?? null;
  setItem = (k: string, v: string) => void this.items.set(k, v);
  removeItem = (k: string) => void this.items.delete(k);
}

describe('business registration wizard rules', () => {
  it('the general form asks for the company and the registrant; an empty one names every required field', () => {
    const errors = validateGeneral(emptyGeneral());
    for (const f of [
      'name',
      'registrationCountryCode',
      'registrationNumber',
      'registrationDate',
      'email',
      'phone',
      'address1',
      'city',
      'postalCode',
      'countryCode',
      'repFirstName',
      'repLastName',
      'repEmail',
      'repBirthday',
    ])
      expect(errors[f], f).toBe('required');
    expect(errors.tradingName).toBeUndefined();
    expect(validateGeneral({ ...emptyGeneral(), repEmail: 'not-an-address' }).repEmail).toBe('invalid');
    expect(validateGeneral({ ...emptyGeneral(), registrationDate: '2999-01-01' }).registrationDate).toBe('invalid');
  });

  it('due diligence needs details when either public office or lawsuits is yes', () => {
    expect(validateDueDiligence({ government: 'no', lawsuits: 'no', taxPayers: 'no', details: '' })).toEqual({});
    expect(validateDueDiligence({ government: 'yes', lawsuits: 'no', taxPayers: 'no', details: ' ' })).toEqual({ details: 'required' });
    expect(validateDueDiligence({ government: '', lawsuits: 'no', taxPayers: 'no', details: '' })).toEqual({ government: 'required' });
  });

  it('a person form asks what the hub needs: a user e-mail and rights, a share, an owner’s sources with details', () => {
    const p = { firstName: 'Ana', lastName: 'Pop', birthday: '1980-01-01', email: '', phoneCountryCode: '', phone: '', taxId: '', accessRights: '', sourcesOfFunds: [], share: '' };
    expect(validatePerson(p, { user: false, share: false, ubo: false })).toEqual({});
    expect(validatePerson(p, { user: true, share: false, ubo: false })).toEqual({ email: 'required', accessRights: 'required' });
    expect(validatePerson({ ...p, share: '100.001' }, { user: false, share: true, ubo: false })).toEqual({ share: 'invalid' });
    expect(validatePerson({ ...p, share: '0' }, { user: false, share: true, ubo: false })).toEqual({ share: 'invalid' });
    expect(validatePerson({ ...p, share: '33,33' }, { user: false, share: true, ubo: false })).toEqual({});
    expect(validatePerson({ ...p, sourcesOfFunds: [{ sourceId: 3, details: ' ' }] }, { user: false, share: false, ubo: true })).toEqual({ 'sourceDetails-3': 'required' });
  });

  it('the registrant follows the general form: a user with full rights, trimmed, the e-mail in lower case', () => {
    const d = withRegistrant({
      ...emptyDraft(),
      general: { ...emptyGeneral(), repFirstName: '  Olga   Maria ', repLastName: 'Owner', repEmail: ' Olga@Example.TEST ', repBirthday: '1980-01-01' },
    });
    expect(d.personList.find((p) => p.id === REGISTRANT_ID)).toMatchObject({
      firstName: 'Olga Maria',
      lastName: 'Owner',
      email: 'olga@example.test',
      isUser: true,
      accessRights: 2,
    });
    expect(d.users).toEqual([REGISTRANT_ID]);
    expect(nextEmailToCheck(d, {})).toBe('olga@example.test');
    expect(nextEmailToCheck(d, { 'olga@example.test': 0 })).toBeNull();
  });

  it('the request: every term keyed by id, yes/no answers as booleans with their follow-up, the tree as given', () => {
    const d = withRegistrant({
      ...emptyDraft(),
      general: { ...emptyGeneral(), name: ' Acme  Ltd ', repFirstName: 'Olga', repLastName: 'Owner', repEmail: 'olga@example.test', phoneCountryCode: '+370', phone: '612 345 67' },
      financial: { ...emptyDraft().financial, industry: '5', answers: { businessAnotherAccount: 'true', businessAnotherAccountValue: '  Bank  One ' } },
      legal: { '1': true },
      shareholders: [{ type: 1, share: 100, personId: REGISTRANT_ID, shareholders: [] }],
    });
    const r = businessRequest(d, 'Secret-2026', dictionaries);
    expect(r).toMatchObject({
      email: 'olga@example.test',
      password: 'Secret-2026',
      acceptTerms: true,
      company: { name: 'Acme Ltd', phoneCountryCode: '370', phone: '61234567' },
      financialDetail: { industry: 5 },
      legalInformation: { '1': true, '2': false },
      additionalQuestionAnswers: { businessAnotherAccount: true, businessAnotherAccountValue: 'Bank One' },
      shareholders: [{ type: 1, share: 100, personId: REGISTRANT_ID }],
      users: [REGISTRANT_ID],
      authorizedCompanyRepresentative: { personId: REGISTRANT_ID },
    });
  });

  it('the platform’s VF parameters go back to the section and field they name', () => {
    expect(sectionOfParam('company.address.city')).toEqual({ section: 'generalForm', field: 'address.city' });
    expect(sectionOfParam('personList.2.email')).toEqual({ section: 'usersHub', field: 'email' });
    expect(sectionOfParam('financialDetail.sourceIds.0')).toEqual({ section: 'financialInfoForm', field: 'sourceIds' });
    expect(sectionOfParam('legalInformation.7')).toEqual({ section: 'legalForm', field: 'legalInformation' });
    expect(sectionOfParam('shareholders.0.shareholders.1.share')).toEqual({ section: 'shareholdersHub', field: 'shareholders.share' });
    expect(sectionOfParam('dueDiligence.details')).toEqual({ section: 'dueDilligenceForm', field: 'details' });
    expect(sectionOfParam('password')).toEqual({ section: 'review', field: 'password' });
  });
});

describe('business registration actors', () => {
  it('accountCreate’s answers: VF by section and field, the registrant’s e-mail taken, registration closed, other failures', () => {
    expect(createBusinessResult({ responseCode: '00' })).toEqual({ ok: true });
    expect(
      createBusinessResult({
        responseCode: 'VF',
        responseDescription: 'x',
        validationErrors: [
          { param: 'company.registrationNumber', code: 'badFormat', message: '' },
          { param: 'personList.1.email', code: 'alreadyRegistered', message: '' },
        ],
      } as never),
    ).toEqual({
      ok: false,
      code: 'fields',
      errors: [
        { section: 'generalForm', field: 'registrationNumber', code: 'badFormat' },
        { section: 'usersHub', field: 'email', code: 'alreadyRegistered' },
      ],
    });
    expect(createBusinessResult({ responseCode: 'VF', responseDescription: 'x', validationErrors: [{ param: 'email', code: 'alreadyRegistered', message: '' }] } as never)).toEqual(
      {
        ok: false,
        code: 'emailTaken',
      },
    );
    expect(createBusinessResult({ responseCode: '13', responseDescription: 'x' } as never)).toEqual({ ok: false, code: 'closed' });
    expect(createBusinessResult({ responseCode: 'TA', responseDescription: 'x' } as never)).toEqual({ ok: false, code: 'unknown' });
  });

  it('the draft on this device: kept per registrant e-mail, the last one read back, removed on clearing', () => {
    const store = new MemoryStorage() as unknown as Storage;
    expect(readLocalDraft(store)).toBeNull();
    const data = emptyDraft();
    expect(writeLocalDraft({ email: null, draft: { version: BUSINESS_DRAFT_VERSION, data } }, '2026-11-27T10:00:00Z', store)).toBe(true);
    expect(readLocalDraft(store)).toEqual({ version: BUSINESS_DRAFT_VERSION, data, savedAt: '2026-11-27T10:00:00Z' });
    writeLocalDraft({ email: 'olga@example.test', draft: { version: BUSINESS_DRAFT_VERSION, data } }, '2026-11-27T11:00:00Z', store);
    expect((store as unknown as MemoryStorage).items.has('businessRegistrationDraft:')).toBe(false);
    expect(readLocalDraft(store)?.savedAt).toBe('2026-11-27T11:00:00Z');
    (store as unknown as MemoryStorage).items.set('businessRegistrationDraft:olga@example.test', '{not json');
    expect(readLocalDraft(store)).toEqual({ version: '', data: null, savedAt: null });
    removeLocalDraft('olga@example.test', store);
    expect(readLocalDraft(store)).toBeNull();
  });
});
