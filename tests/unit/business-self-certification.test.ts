/**
 * The company self-certification's branching rules and guards (machines/business-self-certification):
 * which step each answer leads to (driven through the chart with silent actors), the problems each
 * step reports, the Update request (only the branch's answers, tax ids normalised, a US taxpayer's
 * US entry), where the Get answer puts the certification, and the chart's descriptions.
 *
 * Proof it can fail (2026-11-27): I made `isPassive` ignore isEarnPassiveIncome (general entities
 * never passive): 'a general entity earning mostly passive income is passive' and the
 * controlling-persons branch test went red; restored since.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  answersOf,
  businessSelfCertificationMachine,
  certificationRequest,
  certificationState,
  emptyAnswers,
  isPassive,
  lastEntityStep,
  problemsOf,
  stepOfParam,
  withUsTaxId,
  type BusinessAnswers,
  type BusinessCertificationAnswer,
  type BusinessSelfCertificationEvent,
  type LoadResult,
} from '../../machines/business-self-certification/business-self-certification.machine.ts';
import { auditMachine } from '../../scripts/audit-pack/model.ts';

const ADDRESSES = [{ addressId: 7, address1: 'Main St 1', address2: '', city: 'Vilnius', postalCode: '01103', countryCode: 'LT' }];
const PEOPLE = [{ representativeId: 31, name: 'Ada Lovelace', roles: ['director' as const], countryCode: 'GB' }];

const answerOf = (over: Partial<BusinessCertificationAnswer> = {}): BusinessCertificationAnswer => ({
  w9FormDocumentStatus: 'notRequired',
  certificateOfLossOfNationalityDocumentStatus: 'notRequired',
  taxResidencySelfCertificationDocumentStatus: 'none',
  w8BenFormDocumentStatus: 'none',
  requiredForms: ['w8BenE', 'taxResidencySelfCertification'],
  documents: [],
  updatedAt: null,
  certification: null,
  prefill: { name: 'Northwind Ltd', registrationCountryCode: 'LT', taxId: '123456789' },
  ...over,
});

const base = (over: Partial<BusinessAnswers> = {}): BusinessAnswers => ({
  ...emptyAnswers(),
  name: 'Northwind Ltd',
  registrationCountryCode: 'LT',
  isUSTaxPayer: false,
  isDisregardedEntity: false,
  placeOfBusinessAddressId: 7,
  registeredAddressId: 7,
  taxIds: [{ countryCode: 'LT', taxId: '123456789', noTin: false, reason: '', explanation: '' }],
  ...over,
});

/** The chart after loading a new certification, then the events; its state value. */
function drive(events: BusinessSelfCertificationEvent[], canManage = true) {
  const machine = businessSelfCertificationMachine.provide({
    actors: {
      load: fromPromise(() => new Promise<LoadResult>(() => undefined)),
      save: fromPromise(() => new Promise(() => undefined)),
      sign: fromPromise(() => new Promise(() => undefined)),
    },
  });
  const actor = createActor(machine, { input: { canManage } }).start();
  const loaded: LoadResult = { ok: true, answer: answerOf(), addresses: ADDRESSES, people: PEOPLE, countries: [{ code: 'LT', name: 'Lithuania' }] };
  actor.send({ type: 'xstate.done.actor.load', output: loaded } as never);
  for (const e of events) actor.send(e);
  const snap = actor.getSnapshot();
  actor.stop();
  return snap;
}
const next = { type: 'STEP.CONTINUE' } as const;
const answer = (patch: Partial<BusinessAnswers>) => ({ type: 'ANSWER', patch }) as BusinessSelfCertificationEvent;

describe('business self-certification: the branches', () => {
  it('a financial institution is asked its GIIN', () => {
    expect(drive([next, answer({ entityType: 'financial-institution' }), next]).value).toEqual({ answering: 'financialInstitution' });
  });
  it('an investment entity managed by a financial institution is asked its GIIN; one not managed goes on as passive', () => {
    const investment = [next, answer({ entityType: 'investment' }), next];
    expect(drive(investment).value).toEqual({ answering: 'investment' });
    expect(drive([...investment, answer({ isManagedByFinancialInstitution: true }), next]).value).toEqual({ answering: 'financialInstitution' });
    const passive = drive([...investment, answer({ isManagedByFinancialInstitution: false }), next]);
    expect(passive.value).toEqual({ answering: 'usStatus' });
    expect(isPassive(passive.context.answers)).toBe(true);
  });
  it('a general entity: traded (market and ticker) goes on; not traded asks the group, then the passive income', () => {
    const general = [next, answer({ entityType: 'general' }), next];
    expect(drive(general).value).toEqual({ answering: 'publiclyTraded' });
    // traded without the market: stays, told
    const missing = drive([...general, answer({ isPubliclyTraded: true }), next]);
    expect(missing.value).toEqual({ answering: 'publiclyTraded' });
    expect(missing.context.missing).toBe(true);
    expect(drive([...general, answer({ isPubliclyTraded: true, companySecurityMarket: 'NYSE', companyTicket: 'NW' }), next]).value).toEqual({ answering: 'usStatus' });
    const notTraded = [...general, answer({ isPubliclyTraded: false }), next];
    expect(drive(notTraded).value).toEqual({ answering: 'relatedCompany' });
    expect(drive([...notTraded, answer({ isOwnPubliclyTradedCompany: true, ownedMarket: 'LSE', ownedName: 'Parent plc', ownedTicket: 'PAR' }), next]).value).toEqual({
      answering: 'usStatus',
    });
    expect(drive([...notTraded, answer({ isOwnPubliclyTradedCompany: false }), next]).value).toEqual({ answering: 'passiveIncome' });
  });
  it('a general entity earning mostly passive income is passive: controlling persons after the tax ids', () => {
    const a = base({ entityType: 'general', isPubliclyTraded: false, isOwnPubliclyTradedCompany: false, isEarnPassiveIncome: true });
    expect(isPassive(a)).toBe(true);
    expect(isPassive({ ...a, isEarnPassiveIncome: false })).toBe(false);
    expect(isPassive({ ...a, isPubliclyTraded: true })).toBe(false);
    const events: BusinessSelfCertificationEvent[] = [
      next,
      answer({ entityType: 'general' }),
      next,
      answer({ isPubliclyTraded: false }),
      next,
      answer({ isOwnPubliclyTradedCompany: false }),
      next,
      answer({ isEarnPassiveIncome: true }),
      next,
      answer({ isUSTaxPayer: false, isDisregardedEntity: false }),
      next,
      next,
      { type: 'TAX_IDS.CHANGE', taxIds: [{ countryCode: 'LT', taxId: '', noTin: true, reason: 'NO_TIN_IS_REQUIRED', explanation: '' }] },
      next,
    ];
    expect(drive(events).value).toEqual({ answering: 'controllingPersons' });
    expect(drive([...events.slice(0, 7), answer({ isEarnPassiveIncome: false }), ...events.slice(8)]).value).toEqual({ answering: 'review' });
  });
  it('back from the US status returns to the last question the branch asked', () => {
    expect(lastEntityStep(base({ entityType: 'financial-institution' }))).toBe('financialInstitution');
    expect(lastEntityStep(base({ entityType: 'investment', isManagedByFinancialInstitution: true }))).toBe('financialInstitution');
    expect(lastEntityStep(base({ entityType: 'investment', isManagedByFinancialInstitution: false }))).toBe('investment');
    expect(lastEntityStep(base({ entityType: 'general', isPubliclyTraded: true }))).toBe('publiclyTraded');
    expect(lastEntityStep(base({ entityType: 'general', isPubliclyTraded: false, isOwnPubliclyTradedCompany: true }))).toBe('relatedCompany');
    expect(lastEntityStep(base({ entityType: 'general', isPubliclyTraded: false, isOwnPubliclyTradedCompany: false }))).toBe('passiveIncome');
  });
  it('the tax residences: at most ten; a US taxpayer keeps its US entry when the list drops it', () => {
    const row = (countryCode: string) => ({ countryCode, taxId: '', noTin: true, reason: 'COUNTRY_DOES_NOT_ISSUE' as const, explanation: '' });
    const toTaxIds = [next, answer({ entityType: 'general' }), next, answer({ isPubliclyTraded: true, companySecurityMarket: 'NYSE', companyTicket: 'NW' }), next];
    const us = [...toTaxIds, answer({ isUSTaxPayer: true, isDisregardedEntity: false }), next, answer({ placeOfBusinessAddressId: 7, registeredAddressId: 7 }), next];
    expect(drive(us).value).toEqual({ answering: 'taxIds' });
    expect(drive(us).context.answers.taxIds.map((t) => t.countryCode)).toEqual(['LT', 'US']);
    expect(drive([...us, { type: 'TAX_IDS.CHANGE', taxIds: [row('LT')] }]).context.answers.taxIds.map((t) => t.countryCode)).toEqual(['LT', 'US']);
    const ten = ['LT', 'US', 'DE', 'FR', 'IT', 'ES', 'PT', 'PL', 'NL', 'BE'].map(row);
    expect(drive([...us, { type: 'TAX_IDS.CHANGE', taxIds: ten }]).context.answers.taxIds).toHaveLength(10);
    expect(drive([...us, { type: 'TAX_IDS.CHANGE', taxIds: [...ten, row('AT')] }]).context.answers.taxIds).toHaveLength(2);
  });
  it('a user without full rights sees a new certification read-only, and cannot edit or sign', () => {
    expect(drive([], false).value).toBe('notStarted');
    expect(drive([], true).value).toEqual({ answering: 'company' });
  });
});

describe("business self-certification: each step's problems", () => {
  it('the GIIN in the IRS format, or a missing reason', () => {
    const fi = base({ entityType: 'financial-institution', isUsingClientFunds: false });
    expect(problemsOf('financialInstitution', { ...fi, giin: '98Q96B.00000.LE.250' })).toEqual({});
    expect(problemsOf('financialInstitution', { ...fi, giin: '98q96b.00000.le.250' })).toEqual({});
    expect(problemsOf('financialInstitution', { ...fi, giin: '98Q96B-00000-LE-250' })).toEqual({ giin: 'giinFormat' });
    expect(problemsOf('financialInstitution', { ...fi, giin: '98Q96B.00000.XX.250' })).toEqual({ giin: 'giinFormat' });
    expect(problemsOf('financialInstitution', { ...fi, giin: '' })).toEqual({ giin: 'required' });
    expect(problemsOf('financialInstitution', { ...fi, giin: '', giinMissingReason: 'APPLIED_FOR' })).toEqual({});
  });
  it('tax ids: the country format, a reason where required, the explanation only for CANNOT_OBTAIN, the US entry', () => {
    const one = (t: Partial<BusinessAnswers['taxIds'][number]>, over: Partial<BusinessAnswers> = {}) =>
      problemsOf('taxIds', base({ taxIds: [{ countryCode: 'US', taxId: '', noTin: false, reason: '', explanation: '', ...t }], ...over }));
    expect(one({ taxId: '12-3456789' })).toEqual({});
    expect(one({ taxId: '07-3456789' })).toEqual({ 'taxIds.0.taxId': 'taxIdFormat' });
    expect(one({})).toEqual({ 'taxIds.0.taxId': 'required' });
    expect(one({ noTin: true })).toEqual({ 'taxIds.0.tinMissingReason': 'required' });
    expect(one({ noTin: true, reason: 'CANNOT_OBTAIN' })).toEqual({ 'taxIds.0.tinMissingExplanation': 'required' });
    expect(one({ noTin: true, reason: 'CANNOT_OBTAIN', explanation: 'Applied, waiting' })).toEqual({});
    // a number typed before "no number" was ticked is not checked
    expect(one({ noTin: true, reason: 'COUNTRY_DOES_NOT_ISSUE', taxId: '07' })).toEqual({});
    // a country whose business number is not required: none is fine
    expect(one({ countryCode: 'AU' })).toEqual({});
    expect(one({ countryCode: 'GB', taxId: '1234567890' }, { isUSTaxPayer: true })).toMatchObject({ taxIds: 'usEntryRequired' });
  });
  it('controlling persons: at least one, each with a country', () => {
    expect(problemsOf('controllingPersons', base(), PEOPLE)).toEqual({ controllingPersons: 'noPerson' });
    expect(problemsOf('controllingPersons', base({ controllingPersons: [{ representativeId: 31, taxResidenceCountryCode: '' }] }), PEOPLE)).toEqual({
      'controllingPersons.0.taxResidenceCountryCode': 'required',
    });
    expect(problemsOf('controllingPersons', base({ controllingPersons: [{ representativeId: 31, taxResidenceCountryCode: 'GB' }] }), PEOPLE)).toEqual({});
  });
});

describe('business self-certification: the request and the state', () => {
  it('sends only the questions the branch asked, and the explanation only for CANNOT_OBTAIN', () => {
    const a = base({
      entityType: 'general',
      isPubliclyTraded: true,
      companySecurityMarket: ' NYSE ',
      companyTicket: 'NW',
      // left from another branch
      giin: '98Q96B.00000.LE.250',
      isEarnPassiveIncome: true,
      controllingPersons: [{ representativeId: 31, taxResidenceCountryCode: 'GB' }],
      taxIds: [{ countryCode: 'LT', taxId: '99', noTin: true, reason: 'NO_TIN_IS_REQUIRED', explanation: 'left over' }],
    });
    const r = certificationRequest(a);
    expect(r).toMatchObject({
      entityType: 'general',
      isPubliclyTraded: true,
      companySecurityMarket: 'NYSE',
      companyTicket: 'NW',
      giin: null,
      isEarnPassiveIncome: null,
      controllingPersons: [],
    });
    expect(r.taxIds).toEqual([{ countryCode: 'LT', taxId: null, tinMissingReason: 'NO_TIN_IS_REQUIRED', tinMissingExplanation: null }]);
  });
  it('a US taxpayer without a US entry gets one (shown on the tax ids step and in the request)', () => {
    const a = base({ entityType: 'financial-institution', giin: '98Q96B.00000.LE.250', isUsingClientFunds: true, isUSTaxPayer: true });
    expect(withUsTaxId(a).taxIds.map((t) => t.countryCode)).toEqual(['LT', 'US']);
    expect(withUsTaxId(withUsTaxId(a)).taxIds).toHaveLength(2);
    expect(certificationRequest(a).taxIds.map((t) => t.countryCode)).toEqual(['LT', 'US']);
    expect(withUsTaxId({ ...a, isUSTaxPayer: false }).taxIds).toHaveLength(1);
  });
  it('the prefill: the company name, country and its tax number', () => {
    const a = answersOf(answerOf(), ADDRESSES);
    expect(a).toMatchObject({ name: 'Northwind Ltd', registrationCountryCode: 'LT', placeOfBusinessAddressId: 7, registeredAddressId: 7 });
    expect(a.taxIds).toEqual([{ countryCode: 'LT', taxId: '123456789', noTin: false, reason: '', explanation: '' }]);
  });
  it('the state from the Get answer', () => {
    const saved = certificationRequest(base({ entityType: 'general', isPubliclyTraded: true, companySecurityMarket: 'NYSE', companyTicket: 'NW' }));
    expect(certificationState(answerOf())).toBe('new');
    expect(certificationState(answerOf({ certification: saved }))).toBe('unsigned');
    expect(certificationState(answerOf({ certification: saved, w8BenFormDocumentStatus: 'pending', taxResidencySelfCertificationDocumentStatus: 'pending' }))).toBe(
      'pendingReview',
    );
    expect(certificationState(answerOf({ certification: saved, w8BenFormDocumentStatus: 'validated', taxResidencySelfCertificationDocumentStatus: 'validated' }))).toBe(
      'validated',
    );
    expect(certificationState(answerOf({ certification: saved, w8BenFormDocumentStatus: 'rejected', taxResidencySelfCertificationDocumentStatus: 'validated' }))).toBe('rejected');
    // the documents list wins over the status fields
    expect(
      certificationState(
        answerOf({
          certification: saved,
          requiredForms: ['w9', 'taxResidencySelfCertification'],
          w9FormDocumentStatus: 'none',
          documents: [
            { kind: 'w9', documentId: 1, status: 'validated', url: null },
            { kind: 'taxResidencySelfCertification', documentId: 2, status: 'validated', url: null },
          ],
        }),
      ),
    ).toBe('validated');
  });
  it('a refused param goes back to its step', () => {
    expect(stepOfParam('name')).toBe('company');
    expect(stepOfParam('giin')).toBe('entityType');
    expect(stepOfParam('companyOwnedByYou.ticket')).toBe('entityType');
    expect(stepOfParam('isUSTaxPayer')).toBe('usStatus');
    expect(stepOfParam('registeredAddressId')).toBe('addresses');
    expect(stepOfParam('taxIds.1.taxId')).toBe('taxIds');
    expect(stepOfParam('controllingPersons.0.representativeId')).toBe('controllingPersons');
    expect(stepOfParam('somethingElse')).toBe('review');
  });
});

describe('business self-certification: the chart', () => {
  it('every state and transition has a description, the root its spec sections', () => {
    const model = auditMachine(businessSelfCertificationMachine);
    expect({ states: model.states.filter((s) => !s.description).map((s) => s.path), transitions: model.transitions.filter((t) => !t.description).map((t) => t.key) }).toEqual({
      states: [],
      transitions: [],
    });
    expect(model.spec.length).toBeGreaterThan(0);
    for (const ref of [...model.spec, ...model.states.flatMap((s) => s.spec), ...model.transitions.flatMap((t) => t.spec)]) expect(ref).toMatch(/^document [123] §\d+(\.\d+)*$/);
  });
});
