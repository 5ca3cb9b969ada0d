/**
 * Model-based test of the company's FATCA/CRS self-certification (machines/business-self-certification):
 * paths generated from the chart drive the REAL BusinessCertificationView through Testing Library,
 * in English. The promise actors (load, save, sign) are test doubles answered by the paths'
 * `xstate.done.actor.<id>` / `xstate.error.actor.<id>` events; the browser's move to the signing
 * page is a spy.
 *
 * Every step checks the page against what the TEST did (`Did`: the answers it gave through the
 * page, what it was told is missing, the platform's answers), not against the chart's context:
 * each step's heading, the answers shown on the fields, the problems and the platform's errors on
 * their fields, the tax residences (a US taxpayer's US entry added and not removable), the review's
 * answers and forms (W-9 or W-8BEN-E, and the tax residency self-certification), the request
 * saved, the states after signing with their forms' states, and the read-only note of a user
 * without full rights.
 *
 * To keep the graph small the answers follow a script per line (general passive: the main line to
 * signing; financial institution, US taxpayer: to the review and every answer of the save;
 * investment, traded, related: the side branches and their way back), so every chart transition is
 * taken (checked below) without every combination.
 *
 * Proof it can fail (2026-11-27): I made the view's "Yes" radio of the passive-income question
 * send `false`: the 10 paths through the passive line went red (the radio showed "No", the entity
 * was not passive and the controlling persons were never asked); restored since. After the tax
 * residences moved to the shared list field, I made the page lock the US entry only for a company
 * that is NOT a US taxpayer: the 8 paths through the US taxpayer's tax residences went red. The
 * keyboard test went red with the step heading no longer new for each step (no focus moved).
 */
import { describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { TestModel } from '@xstate/graph';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import type { Failure, ValidationError } from '../../api/envelope.ts';
import type { BusinessCertification } from '../../api/tax-certification.ts';
import {
  businessSelfCertificationMachine,
  emptyAnswers,
  type BusinessAnswers,
  type BusinessCertificationAnswer,
  type BusinessSelfCertificationEvent,
  type LoadResult,
  type SaveResult,
  type SignResult,
  type TaxIdDraft,
} from '../../machines/business-self-certification/business-self-certification.machine.ts';
import { BusinessCertificationView } from '../../src/features/tax/business-certification-view.tsx';
import { i18n } from '../../src/lib/i18n.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, matchesPath, recordingExecutors, runPathCheckingEveryStep, transitionsTaken, unreachedStates } from './coverage.ts';
import { expectNoAxeViolations } from '../ui/axe.ts';
import { AnswerQueue } from './support.ts';
import { settleFromEvent } from './settle.ts';

type Snap = SnapshotFrom<typeof businessSelfCertificationMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = BusinessSelfCertificationEvent | SystemEvent;

/* ------------------------------------------------------------------------------ fixtures */

const ADDRESSES = [
  { addressId: 7, address1: 'Gedimino pr. 1', address2: '', city: 'Vilnius', postalCode: '01103', countryCode: 'LT' },
  { addressId: 8, address1: 'Laisvės al. 5', address2: 'Office 2', city: 'Kaunas', postalCode: '44237', countryCode: 'LT' },
];
const LINES: Record<number, string> = { 7: 'Gedimino pr. 1, 01103 Vilnius, LT', 8: 'Laisvės al. 5, Office 2, 44237 Kaunas, LT' };
const PEOPLE = [
  { representativeId: 31, name: 'Ada Lovelace', roles: ['director' as const], countryCode: 'GB' },
  { representativeId: 32, name: 'Bob Marley', roles: ['shareholder' as const], countryCode: '' },
];
const COUNTRIES = [
  { code: 'DE', name: 'Germany' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'LT', name: 'Lithuania' },
  { code: 'US', name: 'United States' },
];
const countryName = (code: string) => COUNTRIES.find((c) => c.code === code)?.name ?? code;

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
/** A saved certification: a general entity, publicly traded. */
const SAVED: BusinessCertification = {
  name: 'Northwind Ltd',
  entityType: 'general',
  registrationCountryCode: 'LT',
  giin: null,
  giinMissingReason: null,
  isUsingClientFunds: null,
  isManagedByFinancialInstitution: null,
  isPubliclyTraded: true,
  companySecurityMarket: 'Nasdaq Vilnius',
  companyTicket: 'NWD1L',
  isOwnPubliclyTradedCompany: null,
  companyOwnedByYou: null,
  isEarnPassiveIncome: null,
  isUSTaxPayer: false,
  isDisregardedEntity: false,
  placeOfBusinessAddressId: 7,
  registeredAddressId: 8,
  taxIds: [{ countryCode: 'LT', taxId: '123456789', tinMissingReason: null, tinMissingExplanation: null }],
  controllingPersons: [],
};
const stated = (w8: BusinessCertificationAnswer['w8BenFormDocumentStatus'], trsc: BusinessCertificationAnswer['w8BenFormDocumentStatus']) =>
  answerOf({ certification: SAVED, w8BenFormDocumentStatus: w8, taxResidencySelfCertificationDocumentStatus: trsc, updatedAt: '2026-11-27T10:00:00Z' });
const ANSWERS = {
  new: answerOf(),
  unsigned: stated('none', 'none'),
  pendingReview: stated('pending', 'pending'),
  validated: stated('validated', 'validated'),
  rejected: stated('rejected', 'validated'),
};
const loaded = (answer: BusinessCertificationAnswer): LoadResult => ({ ok: true, answer, addresses: ADDRESSES, people: PEOPLE, countries: COUNTRIES });

const REFUSAL: Failure = { responseCode: 'TA1', responseDescription: 'Certifications are closed for maintenance' };
const vf = (param: string, code: string, params?: Record<string, string | number>): ValidationError => ({
  param,
  code,
  description: `${param} is wrong`,
  ...(params ? { params } : {}),
});
const FIELD_ERRORS: Record<string, ValidationError> = {
  name: vf('name', 'tooLong', { max: 200 }),
  giin: vf('giin', 'badFormat'),
  isUSTaxPayer: vf('isUSTaxPayer', 'required'),
  registeredAddressId: vf('registeredAddressId', 'notAllowed'),
  'taxIds.1.taxId': vf('taxIds.1.taxId', 'taxIdCheckDigit', { name: 'EIN' }),
  'controllingPersons.0.taxResidenceCountryCode': vf('controllingPersons.0.taxResidenceCountryCode', 'countryCodeFormat'),
};
const MESSAGES: Record<string, string> = {
  name: 'Enter at most 200 characters.',
  giin: 'This value is not in the expected format.',
  isUSTaxPayer: 'This field is required.',
  registeredAddressId: 'Choose one of the offered values.',
  'taxIds.1.taxId': 'Check the EIN: its check digits do not match, so a digit may be mistyped.',
};
const SIGN_URL = 'https://bank.test/e-sign/tok123';

/* ------------------------------------------------------------------------------ the events */

const done = (id: string, output: unknown): SystemEvent => ({ type: `xstate.done.actor.${id}`, output });
const error = (id: string): SystemEvent => ({ type: `xstate.error.actor.${id}`, error: new Error('offline') });
const A = (patch: Partial<BusinessAnswers>): BusinessSelfCertificationEvent => ({ type: 'ANSWER', patch }) as BusinessSelfCertificationEvent;
const NEXT = { type: 'STEP.CONTINUE' } as const;
const BACK = { type: 'STEP.BACK' } as const;
const fields = (param: string) => done('save', { ok: false, code: 'fields', errors: [FIELD_ERRORS[param]!] } satisfies SaveResult);
const saved = (answer: BusinessCertificationAnswer) => done('save', { ok: true, answer } satisfies SaveResult);
const SIGN_OK = done('sign', { ok: true, signData: { clientId: 'c-1', signUrls: [SIGN_URL] } } satisfies SignResult);

/** Which scripted line the answers are on. */
function lineOf(a: BusinessAnswers): 'fi' | 'investment' | 'traded' | 'related' | 'passive' | 'general' | 'none' {
  if (a.entityType === 'financial-institution') return 'fi';
  if (a.entityType === 'investment') return 'investment';
  if (a.entityType === 'general') {
    if (a.isPubliclyTraded === true) return 'traded';
    if (a.isOwnPubliclyTradedCompany === true) return 'related';
    if (a.isEarnPassiveIncome === true) return 'passive';
    return 'general';
  }
  return 'none';
}

function eventsFor(s: Snap): ModelEvent[] {
  const c = s.context;
  const a = c.answers;
  const all: ModelEvent[] = [];
  const at = (step: string) => s.matches({ answering: step } as never);
  const line = lineOf(a);
  const edited = c.answer !== null && c.answer.certification !== null;
  if (s.matches('loading')) {
    if (!c.canManage) all.push(done('load', loaded(ANSWERS.new)), done('load', loaded(ANSWERS.pendingReview)));
    else if (c.answer === null && c.failure === null)
      all.push(...Object.values(ANSWERS).map((x) => done('load', loaded(x))), done('load', { ok: false, code: 'failed', failure: REFUSAL } satisfies LoadResult), error('load'));
  } else if (s.matches('loadFailed')) all.push({ type: 'LOAD.RETRY' });
  else if (s.matches('validated')) all.push({ type: 'EDIT' });
  else if (s.matches('unsigned')) all.push(...(c.failure === null ? [{ type: 'EDIT' } as const, { type: 'SIGN' } as const] : []));
  else if (s.matches('rejected')) all.push({ type: 'EDIT' }, { type: 'SIGN' });
  else if (s.matches('signing')) {
    if (line === 'passive') all.push(SIGN_OK, done('sign', { ok: false, code: 'failed', failure: REFUSAL } satisfies SignResult), error('sign'));
    else all.push(SIGN_OK);
  } else if (edited || c.errors.length > 0 || c.failure !== null) {
    // the certification on record opened for changes, or back from a refused save: that line ends here
  } else if (at('company')) {
    if (a.name === '') all.push(c.missing ? A({ name: 'Northwind Ltd' }) : NEXT);
    else if (!c.missing) all.push(NEXT, A({ name: '' }));
    else all.push(NEXT);
  } else if (at('entityType')) {
    if (a.entityType === null) all.push(NEXT, BACK, A({ entityType: 'financial-institution' }), A({ entityType: 'investment' }), A({ entityType: 'general' }));
    else all.push(NEXT);
  } else if (at('financialInstitution')) {
    if (line === 'fi') {
      if (a.giin === '') all.push(A({ giin: '98Q96B-00000' }), BACK);
      else if (a.giin === '98Q96B-00000') all.push(c.missing ? A({ giin: '98Q96B.00000.LE.250' }) : NEXT);
      else if (a.isUsingClientFunds === null) all.push(A({ isUsingClientFunds: true }));
      else all.push(NEXT);
    } else if (a.giinMissingReason === null) all.push(A({ giinMissingReason: 'APPLIED_FOR' }));
    else if (a.isUsingClientFunds === null) all.push(A({ isUsingClientFunds: false }));
    else all.push(BACK, NEXT);
  } else if (at('investment')) {
    if (a.isManagedByFinancialInstitution === null) all.push(c.missing ? A({ isManagedByFinancialInstitution: true }) : NEXT, BACK);
    else if (a.isManagedByFinancialInstitution === true && a.giinMissingReason === null) all.push(NEXT, A({ isManagedByFinancialInstitution: false }));
    else if (a.isManagedByFinancialInstitution === false && a.giinMissingReason === null) all.push(NEXT);
  } else if (at('publiclyTraded')) {
    if (a.isPubliclyTraded === null) all.push(c.missing ? A({ isPubliclyTraded: false }) : NEXT, BACK, A({ isPubliclyTraded: true }));
    else if (a.isPubliclyTraded === true && a.companySecurityMarket === '') all.push(c.missing ? A({ companySecurityMarket: 'Nasdaq Vilnius' }) : NEXT);
    else if (a.isPubliclyTraded === true && a.companyTicket === '') all.push(A({ companyTicket: 'NWD1L' }));
    else all.push(NEXT);
  } else if (at('relatedCompany')) {
    if (a.isOwnPubliclyTradedCompany === null) all.push(c.missing ? A({ isOwnPubliclyTradedCompany: false }) : NEXT, BACK, A({ isOwnPubliclyTradedCompany: true }));
    else if (a.isOwnPubliclyTradedCompany === true && a.ownedName === '') all.push(A({ ownedName: 'Parent plc' }));
    else if (a.isOwnPubliclyTradedCompany === true && a.ownedMarket === '') all.push(A({ ownedMarket: 'London Stock Exchange' }));
    else if (a.isOwnPubliclyTradedCompany === true && a.ownedTicket === '') all.push(A({ ownedTicket: 'PAR' }));
    else all.push(NEXT);
  } else if (at('passiveIncome')) {
    if (a.isEarnPassiveIncome === null) all.push(c.missing ? A({ isEarnPassiveIncome: true }) : NEXT, BACK);
    else all.push(NEXT);
  } else if (at('usStatus')) {
    // the side branches come back from here; the passive line (and the financial institution's) go on
    if (line === 'passive' || line === 'fi') {
      if (a.isUSTaxPayer === null) all.push(c.missing ? A({ isUSTaxPayer: line === 'fi' }) : NEXT, ...(line === 'passive' ? [BACK] : []));
      else if (a.isDisregardedEntity === null) all.push(A({ isDisregardedEntity: false }));
      else all.push(NEXT);
      if (line === 'fi' && a.isUSTaxPayer === null && !c.missing) all.push(BACK);
    } else all.push(BACK);
  } else if (at('addresses')) {
    if (a.placeOfBusinessAddressId === null) all.push(c.missing ? A({ placeOfBusinessAddressId: 8 }) : NEXT, ...(line === 'passive' ? [BACK] : []));
    else if (a.registeredAddressId === null) all.push(A({ registeredAddressId: 7 }));
    else all.push(NEXT);
  } else if (at('taxIds')) {
    // what the shared list field sends: the whole list after one change (a row added, one field changed, a row removed)
    const rows = (taxIds: TaxIdDraft[]): BusinessSelfCertificationEvent => ({ type: 'TAX_IDS.CHANGE', taxIds });
    const second = (patch: Partial<TaxIdDraft>) => rows([a.taxIds[0]!, { ...a.taxIds[1]!, ...patch }]);
    if (line === 'passive') {
      if (a.taxIds.length === 1 && !c.missing) all.push(NEXT, rows([...a.taxIds, { countryCode: '', taxId: '', noTin: false, reason: '', explanation: '' }]), BACK);
      else if (a.taxIds.length === 2 && a.taxIds[1]!.countryCode === '') all.push(c.missing ? second({ countryCode: 'DE', reason: '' }) : NEXT);
      else if (a.taxIds.length === 2) all.push(rows([a.taxIds[0]!]));
      else all.push(NEXT);
    } else {
      const us = a.taxIds[1]!;
      if (us.taxId === '') all.push(second({ taxId: '07-3456789' }));
      else if (us.taxId === '07-3456789') all.push(c.missing ? second({ taxId: '12-3456789' }) : NEXT);
      else all.push(NEXT);
    }
  } else if (at('controllingPersons')) {
    const chosen = a.controllingPersons;
    if (chosen.length === 0) all.push(c.missing ? { type: 'PERSON.TOGGLE', representativeId: 32 } : NEXT, ...(c.missing ? [] : [BACK]));
    else if (chosen[0]!.taxResidenceCountryCode === '') all.push(c.missing ? { type: 'PERSON.COUNTRY', representativeId: 32, countryCode: 'DE' } : NEXT);
    else all.push(NEXT);
  } else if (at('review')) all.push({ type: 'SUBMIT' }, ...(line === 'passive' ? [BACK] : []), ...(line === 'fi' ? [BACK] : []));
  else if (s.matches('saving')) {
    if (line === 'passive') all.push(saved(ANSWERS.unsigned), fields('controllingPersons.0.taxResidenceCountryCode'));
    else
      all.push(
        fields('name'),
        fields('giin'),
        fields('isUSTaxPayer'),
        fields('registeredAddressId'),
        fields('taxIds.1.taxId'),
        done('save', { ok: false, code: 'failed', failure: REFUSAL } satisfies SaveResult),
        done('save', { ok: false, code: 'network' } satisfies SaveResult),
        error('save'),
      );
  }
  return all.filter((e) => e.type.startsWith('xstate.') || s.can(e as BusinessSelfCertificationEvent));
}

const serialize = (s: Snap) => {
  const c = s.context;
  return JSON.stringify({
    value: s.value,
    answers: c.answers,
    loaded: c.answer ? [c.answer.certification !== null, c.answer.w8BenFormDocumentStatus] : null,
    missing: c.missing,
    errors: c.errors.map((e) => e.param),
    failure: c.failure?.code ?? null,
    loadFailure: c.loadFailure?.code ?? null,
    signUrl: c.signUrl,
  });
};

/* ------------------------------------------------------------------------------ what the test did */

interface Did {
  loaded: keyof typeof ANSWERS | null;
  loadFailure: 'failed' | 'network' | null;
  answers: BusinessAnswers;
  /** the fields the test left missing or wrong when it continued (the problems shown) */
  told: boolean;
  vf: string | null;
  saveFailure: 'refused' | 'network' | null;
  signFailure: 'refused' | 'network' | null;
  requests: BusinessCertification[];
  /** the tax residences before the last change (what the executor compares to find the control to use) */
  prevTaxIds: TaxIdDraft[];
}
const prefilled = (): BusinessAnswers => ({
  ...emptyAnswers(),
  name: 'Northwind Ltd',
  registrationCountryCode: 'LT',
  taxIds: [{ countryCode: 'LT', taxId: '123456789', noTin: false, reason: '', explanation: '' }],
});
const fresh = (): Did => ({ loaded: null, loadFailure: null, answers: prefilled(), told: false, vf: null, saveFailure: null, signFailure: null, requests: [], prevTaxIds: [] });

const fromSaved = (): BusinessAnswers => ({
  ...emptyAnswers(),
  name: SAVED.name,
  registrationCountryCode: 'LT',
  entityType: 'general',
  isPubliclyTraded: true,
  companySecurityMarket: SAVED.companySecurityMarket!,
  companyTicket: SAVED.companyTicket!,
  isUSTaxPayer: false,
  isDisregardedEntity: false,
  placeOfBusinessAddressId: 7,
  registeredAddressId: 8,
  taxIds: [{ countryCode: 'LT', taxId: '123456789', noTin: false, reason: '', explanation: '' }],
});

function record(did: Did, event: ModelEvent, before: string): void {
  const out = (event as SystemEvent).output as Record<string, any> | undefined;
  switch (event.type) {
    case 'xstate.done.actor.load':
      if (out!.ok) {
        did.loaded = (Object.keys(ANSWERS) as (keyof typeof ANSWERS)[]).find((k) => ANSWERS[k] === out!.answer)!;
        did.loadFailure = null;
      } else did.loadFailure = 'failed';
      return;
    case 'xstate.error.actor.load':
      did.loadFailure = 'network';
      return;
    case 'LOAD.RETRY':
      did.loadFailure = null;
      return;
    case 'EDIT':
      Object.assign(did, { answers: fromSaved(), told: false, vf: null, signFailure: null });
      return;
    case 'SIGN':
      did.signFailure = null;
      return;
    case 'ANSWER':
      did.answers = { ...did.answers, ...(event.patch as Partial<BusinessAnswers>) };
      return;
    case 'TAX_IDS.CHANGE':
      did.prevTaxIds = did.answers.taxIds;
      did.answers = { ...did.answers, taxIds: event.taxIds };
      return;
    case 'PERSON.TOGGLE':
      did.answers = {
        ...did.answers,
        controllingPersons: [
          ...did.answers.controllingPersons,
          { representativeId: event.representativeId, taxResidenceCountryCode: PEOPLE.find((p) => p.representativeId === event.representativeId)!.countryCode },
        ],
      };
      return;
    case 'PERSON.COUNTRY':
      did.answers = {
        ...did.answers,
        controllingPersons: did.answers.controllingPersons.map((p) => (p.representativeId === event.representativeId ? { ...p, taxResidenceCountryCode: event.countryCode } : p)),
      };
      return;
    case 'STEP.CONTINUE': {
      // the step continued from (the chart's state before the event): told when the test left something out there
      const moved = before;
      did.told = moved === 'stay';
      // §5: a US taxpayer's tax ids get a US entry as they are shown
      if (before === 'addresses' && did.answers.isUSTaxPayer && !did.answers.taxIds.some((t) => t.countryCode === 'US'))
        did.answers = { ...did.answers, taxIds: [...did.answers.taxIds, { countryCode: 'US', taxId: '', noTin: false, reason: '', explanation: '' }] };
      return;
    }
    case 'STEP.BACK':
      did.told = false;
      return;
    case 'SUBMIT':
      Object.assign(did, { saveFailure: null, told: false });
      return;
    case 'xstate.done.actor.save':
      if (out!.ok) return;
      if (out!.code === 'fields') Object.assign(did, { vf: (out!.errors as ValidationError[])[0]!.param, told: true });
      else did.saveFailure = out!.code === 'network' ? 'network' : 'refused';
      return;
    case 'xstate.error.actor.save':
      did.saveFailure = 'network';
      return;
    case 'xstate.done.actor.sign':
      if (!out!.ok) did.signFailure = 'refused';
      return;
    case 'xstate.error.actor.sign':
      did.signFailure = 'network';
      return;
  }
}

/* ------------------------------------------------------------------------------ the harness */

function mount(canManage: boolean) {
  const q = {
    load: new AnswerQueue<unknown, LoadResult>(),
    save: new AnswerQueue<{ request: BusinessCertification }, SaveResult>(),
    sign: new AnswerQueue<unknown, SignResult>(),
  };
  const openUrl = vi.fn<(url: string | null) => void>();
  const logic = businessSelfCertificationMachine.provide({
    actors: {
      load: fromPromise(({ input }) => q.load.next(input)),
      save: fromPromise(({ input }) => q.save.next(input as { request: BusinessCertification })),
      sign: fromPromise(({ input }) => q.sign.next(input)),
    },
    actions: { openSigning: (_, url: string | null) => openUrl(url) },
  });
  const actor = createActor(logic, { input: { canManage } }).start();
  render(
    <I18nProvider i18n={i18n}>
      <BusinessCertificationView actor={actor} />
    </I18nProvider>,
  );
  return { q, actor, openUrl, canManage, did: fresh() };
}
type H = ReturnType<typeof mount>;

const h1 = (name: string) => screen.findByRole('heading', { level: 1, name });
const button = (name: RegExp | string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const waiting = (h: H) => Object.values(h.q).reduce((n, q) => n + q.waiting, 0);
const group = (legend: string | RegExp) => screen.getByRole('group', { name: legend });
const checkedLabel = (legend: string | RegExp) => {
  const radio = within(group(legend))
    .getAllByRole('radio')
    .find((r) => (r as HTMLInputElement).checked);
  return radio ? document.querySelector(`label[for="${radio.id}"]`)!.textContent : null;
};
const yesNo = (v: boolean | null) => (v === null ? null : v ? 'Yes' : 'No');
const field = (label: string | RegExp) => screen.getByLabelText(label) as HTMLInputElement | HTMLSelectElement;
const errorOf = (el: Element) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id))
    .filter((n) => n?.classList.contains('field-error'))
    .map((n) => n!.textContent)
    .join(' ');
const alertTexts = () => screen.queryAllByRole('alert').map((a) => a.textContent!);

/** A field shows the problem the test caused: the platform's error if it gave one, else the step's own. */
function expectError(h: H, el: Element, param: string, own: string | null) {
  const text = errorOf(el);
  if (h.did.vf === param) expect(text).toContain(MESSAGES[param]!);
  else if (own && h.did.told) expect(text).toContain(own);
  else if (!h.did.told) expect(text).toBe('');
}

function stateChecks(h: H) {
  const d = () => h.did;
  const question = async (heading: string) => {
    await h1(heading);
    expect(waiting(h)).toBe(0);
    expect(button('Continue')).toBeTruthy();
  };
  return {
    loading: async () => {
      await h1('Tax self-certification');
      expect(screen.getByText("Loading your company's tax certification")).toBeTruthy();
      expect(h.q.load.waiting).toBe(1);
    },
    loadFailed: async () => {
      await h1('Tax self-certification');
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toContain("We could not load the company's tax certification.");
      if (d().loadFailure === 'failed') expect(alert.textContent).toContain(REFUSAL.responseDescription);
      else expect(alert.textContent).not.toContain(REFUSAL.responseDescription);
      expect(button('Try again')).toBeTruthy();
    },
    notStarted: async () => {
      await h1('Tax self-certification not given yet');
      expect(screen.getByRole('status').textContent).toContain('Only a user with full access to the company can give or change its tax certification');
      expect(screen.queryByRole('button')).toBeNull();
    },
    pendingReview: async () => {
      await h1('Your tax certification is in review');
      const forms = screen.getByRole('heading', { level: 2, name: 'Your forms' }).closest('section')!;
      expect(forms.textContent).toContain("Form W-8BEN-E: the company's foreign status for US taxIn review");
      expect(forms.textContent).toContain('Tax residency self-certification (CRS)In review');
      expect(screen.queryByRole('button')).toBeNull();
      if (!h.canManage) expect(screen.getByText(/Only a user with full access/)).toBeTruthy();
    },
    validated: async () => {
      await h1('Your tax certification is complete');
      expect(screen.getByRole('heading', { level: 2, name: 'Your forms' }).closest('section')!.textContent).toContain('Validated');
      expect(button('Update your answers')).toBeTruthy();
      expect(screen.queryByRole('button', { name: /Sign/ })).toBeNull();
    },
    rejected: async () => {
      await h1('Your tax certification needs attention');
      expect(screen.getByRole('heading', { level: 2, name: 'Your forms' }).closest('section')!.textContent).toContain(
        "Form W-8BEN-E: the company's foreign status for US taxRejected",
      );
      expect(button('Sign the forms again')).toBeTruthy();
      expect(button('Change your answers')).toBeTruthy();
    },
    unsigned: async () => {
      await h1('Sign your tax forms');
      expect(screen.getByRole('heading', { level: 2, name: 'Your forms' }).closest('section')!.textContent).toContain('Not signed');
      const failure = d().signFailure;
      if (failure) {
        const alert = screen.getByRole('alert').textContent!;
        expect(alert).toContain('The forms could not be prepared for signing.');
        expect(alert).toContain(failure === 'refused' ? REFUSAL.responseDescription : 'Network error.');
      } else expect(alertTexts()).toEqual([]);
      expect(button('Sign the forms')).toBeTruthy();
      expect(button('Change your answers')).toBeTruthy();
    },
    signing: async () => {
      await h1('Preparing your forms');
      expect(h.q.sign.waiting).toBe(1);
    },
    signingOpened: async () => {
      await h1('Opening the signing page');
      expect(h.openUrl).toHaveBeenCalledWith(SIGN_URL);
      expect(screen.getByRole('link', { name: 'Open the signing page' }).getAttribute('href')).toBe(SIGN_URL);
    },
    saving: async () => {
      await h1('Review your answers');
      expect(h.q.save.waiting).toBe(1);
      expect(button('Save and sign').getAttribute('aria-busy')).toBe('true');
      // what is sent: the answers of the branch the test took
      const sent = h.q.save.calls.at(-1)!.request;
      const a = d().answers;
      expect(sent.name).toBe(a.name);
      expect(sent.entityType).toBe(a.entityType);
      expect(sent.isUSTaxPayer).toBe(a.isUSTaxPayer);
      // the US EIN in its compact form; Lithuania's number (no format of its own) as typed
      expect(sent.taxIds.map((t) => [t.countryCode, t.taxId])).toEqual(a.taxIds.map((t) => [t.countryCode, t.taxId === '' ? null : t.taxId.replace(/-/g, '')]));
      if (a.entityType === 'financial-institution')
        expect(sent).toMatchObject({ giin: '98Q96B.00000.LE.250', giinMissingReason: null, isUsingClientFunds: true, isEarnPassiveIncome: null });
      else expect(sent).toMatchObject({ giin: null, isEarnPassiveIncome: true, controllingPersons: a.controllingPersons });
    },
    'answering.company': async () => {
      await question('About the company');
      expect(field('Company name').value).toBe(d().answers.name);
      expect(field('Country of registration').value).toBe('LT');
      expectError(h, field('Company name'), 'name', d().answers.name === '' ? 'This is required.' : null);
      expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
    },
    'answering.entityType': async () => {
      await question('What kind of entity is the company?');
      const names = { 'financial-institution': 'Financial institution', investment: 'Investment entity', general: 'Other business (active entity)' } as const;
      const type = d().answers.entityType;
      expect(checkedLabel('Entity type')).toBe(type ? names[type] : null);
      if (d().vf === 'giin') expect(alertTexts()).toEqual([]);
      else expectError(h, group('Entity type'), 'entityType', type === null ? 'This is required.' : null);
    },
    'answering.financialInstitution': async () => {
      await question("The company's GIIN");
      const a = d().answers;
      const giin = field('Global Intermediary Identification Number (GIIN)');
      expect(giin.value).toBe(a.giin);
      if (a.giin === '') expect((field('No GIIN? Tell us why') as HTMLSelectElement).value).toBe(a.giinMissingReason ?? '');
      else expect(screen.queryByLabelText('No GIIN? Tell us why')).toBeNull();
      expect(checkedLabel('Does the company hold financial assets for the account of others?')).toBe(yesNo(a.isUsingClientFunds));
      expectError(h, giin, 'giin', a.giin === '98Q96B-00000' ? 'Enter the GIIN as on the IRS list' : null);
    },
    'answering.investment': async () => {
      await question("Who manages the company's investments?");
      const a = d().answers;
      expect(checkedLabel('Is the company managed by a financial institution?')).toBe(yesNo(a.isManagedByFinancialInstitution));
      expectError(
        h,
        group('Is the company managed by a financial institution?'),
        'isManagedByFinancialInstitution',
        a.isManagedByFinancialInstitution === null ? 'This is required.' : null,
      );
    },
    'answering.publiclyTraded': async () => {
      await question('Is the company publicly traded?');
      const a = d().answers;
      const legend = "Are the company's shares regularly traded on an established securities market?";
      expect(checkedLabel(legend)).toBe(yesNo(a.isPubliclyTraded));
      if (a.isPubliclyTraded) {
        expect(field('Securities market').value).toBe(a.companySecurityMarket);
        expect(field('Ticker symbol').value).toBe(a.companyTicket);
        expectError(h, field('Securities market'), 'companySecurityMarket', a.companySecurityMarket === '' ? 'This is required.' : null);
      } else {
        expect(screen.queryByLabelText('Securities market')).toBeNull();
        expectError(h, group(legend), 'isPubliclyTraded', a.isPubliclyTraded === null ? 'This is required.' : null);
      }
    },
    'answering.relatedCompany': async () => {
      await question('Does the company belong to a publicly traded group?');
      const a = d().answers;
      const legend = 'Is the company part of a group whose parent is publicly traded?';
      expect(checkedLabel(legend)).toBe(yesNo(a.isOwnPubliclyTradedCompany));
      if (a.isOwnPubliclyTradedCompany) {
        expect(field('Name of the publicly traded company').value).toBe(a.ownedName);
        expect(field('Its securities market').value).toBe(a.ownedMarket);
        expect(field('Its ticker symbol').value).toBe(a.ownedTicket);
      } else expectError(h, group(legend), 'isOwnPubliclyTradedCompany', a.isOwnPubliclyTradedCompany === null ? 'This is required.' : null);
    },
    'answering.passiveIncome': async () => {
      await question("The company's income");
      const legend = "Is more than half of the company's income passive?";
      expect(checkedLabel(legend)).toBe(yesNo(d().answers.isEarnPassiveIncome));
      expectError(h, group(legend), 'isEarnPassiveIncome', d().answers.isEarnPassiveIncome === null ? 'This is required.' : null);
    },
    'answering.usStatus': async () => {
      await question('US tax status');
      const a = d().answers;
      expect(checkedLabel('Is the company a US taxpayer?')).toBe(yesNo(a.isUSTaxPayer));
      expect(checkedLabel('Is the company a disregarded entity for US tax?')).toBe(yesNo(a.isDisregardedEntity));
      expectError(h, group('Is the company a US taxpayer?'), 'isUSTaxPayer', a.isUSTaxPayer === null ? 'This is required.' : null);
    },
    'answering.addresses': async () => {
      await question("The company's addresses");
      const a = d().answers;
      expect(checkedLabel('Principal place of business')).toBe(a.placeOfBusinessAddressId ? LINES[a.placeOfBusinessAddressId] : null);
      expect(checkedLabel('Registered address')).toBe(a.registeredAddressId ? LINES[a.registeredAddressId] : null);
      expectError(h, group('Registered address'), 'registeredAddressId', a.registeredAddressId === null ? 'This is required.' : null);
    },
    'answering.taxIds': async () => {
      await question('Where the company pays tax');
      const a = d().answers;
      const sets = screen.getAllByRole('group', { name: /^Tax residence/ });
      expect(sets).toHaveLength(a.taxIds.length);
      a.taxIds.forEach((t: TaxIdDraft, i) => {
        const set = within(sets[i]!);
        if (t.countryCode === 'US' && a.isUSTaxPayer) {
          // the US taxpayer's US entry: no country to change, no removing it
          expect(set.queryByLabelText('Country of tax residence')).toBeNull();
          expect(set.queryByRole('button', { name: /^Remove/ })).toBeNull();
          const ein = set.getByLabelText('Employer Identification Number') as HTMLInputElement;
          expect(ein.value).toBe(t.taxId);
          if (d().vf === 'taxIds.1.taxId') expect(errorOf(ein)).toContain(MESSAGES['taxIds.1.taxId']!);
          else if (d().told && t.taxId === '07-3456789') expect(errorOf(ein)).toContain('Enter the EIN in the format the country uses.');
          else expect(errorOf(ein)).toBe('');
        } else {
          const country = set.getByLabelText('Country of tax residence') as HTMLSelectElement;
          expect(country.value).toBe(t.countryCode);
          if (d().told && t.countryCode === '') expect(errorOf(country)).toContain('This is required.');
          else expect(errorOf(country)).toBe('');
        }
      });
      if (a.taxIds.length > 1 && !a.isUSTaxPayer) expect(screen.getAllByRole('button', { name: /^Remove/ })).toHaveLength(2);
    },
    'answering.controllingPersons': async () => {
      await question('Controlling persons');
      const a = d().answers;
      for (const p of PEOPLE) {
        const chosen = a.controllingPersons.find((x) => x.representativeId === p.representativeId);
        expect((screen.getByRole('checkbox', { name: p.name }) as HTMLInputElement).checked).toBe(chosen !== undefined);
        if (chosen) {
          const select = field(`Tax residence of ${p.name}`);
          expect(select.value).toBe(chosen.taxResidenceCountryCode);
          if (d().vf?.startsWith('controllingPersons')) expect(errorOf(select)).toContain('Enter a two-letter country code');
          else if (d().told && chosen.taxResidenceCountryCode === '') expect(errorOf(select)).toContain('This is required.');
        } else expect(screen.queryByLabelText(`Tax residence of ${p.name}`)).toBeNull();
      }
      if (d().told && a.controllingPersons.length === 0) expect(screen.getByText('Choose at least one controlling person.')).toBeTruthy();
    },
    'answering.review': async () => {
      await h1('Review your answers');
      const a = d().answers;
      const answers = screen.getByRole('heading', { level: 2, name: 'Your answers' }).closest('section')!.textContent!;
      expect(answers).toContain(`Company name${a.name}`);
      expect(answers).toContain(`Principal place of business${LINES[a.placeOfBusinessAddressId!]}`);
      expect(answers).toContain(`Registered address${LINES[a.registeredAddressId!]}`);
      for (const t of a.taxIds) expect(answers).toContain(`Tax number in ${countryName(t.countryCode)}${t.taxId}`);
      if (a.entityType === 'financial-institution') expect(answers).toContain('GIIN98Q96B.00000.LE.250');
      else expect(answers).not.toContain('GIIN');
      for (const p of a.controllingPersons)
        expect(answers).toContain(`Controlling person${PEOPLE.find((x) => x.representativeId === p.representativeId)!.name}, ${countryName(p.taxResidenceCountryCode)}`);
      const forms = screen.getByRole('heading', { level: 2, name: 'The forms you will sign' }).closest('section')!.textContent!;
      expect(forms).toContain(a.isUSTaxPayer ? "Form W-9: the company's US taxpayer identification number" : "Form W-8BEN-E: the company's foreign status for US tax");
      expect(forms).toContain('Tax residency self-certification (CRS)');
      const failure = d().saveFailure;
      if (failure) {
        const alert = screen.getByRole('alert').textContent!;
        expect(alert).toContain('Your answers were not saved.');
        expect(alert).toContain(failure === 'refused' ? REFUSAL.responseDescription : 'Network error.');
        expect(button('Save again and sign')).toBeTruthy();
      } else {
        expect(alertTexts()).toEqual([]);
        expect(button('Save and sign')).toBeTruthy();
      }
      expect(waiting(h)).toBe(0);
    },
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: H) {
  const click = (name: RegExp | string) => act(() => fireEvent.click(button(name)));
  const change = (el: Element, value: string) => act(() => fireEvent.change(el, { target: { value } }));
  const radio = (legend: string, label: string) => act(() => fireEvent.click(within(group(legend)).getByLabelText(label)));
  const yes = (v: unknown) => (v ? 'Yes' : 'No');
  const ENTITY = { 'financial-institution': 'Financial institution', investment: 'Investment entity', general: 'Other business (active entity)' } as const;
  const settle =
    (q: keyof H['q']) =>
    async ({ event }: { event: ModelEvent }) =>
      settleFromEvent(h.q[q] as AnswerQueue<unknown, unknown>, event as SystemEvent);
  const answer = async (patch: Partial<BusinessAnswers>) => {
    for (const [key, value] of Object.entries(patch)) {
      switch (key) {
        case 'name':
          await change(field('Company name'), value as string);
          break;
        case 'entityType':
          await radio('Entity type', ENTITY[value as keyof typeof ENTITY]);
          break;
        case 'giin':
          await change(field('Global Intermediary Identification Number (GIIN)'), value as string);
          break;
        case 'giinMissingReason':
          await change(field('No GIIN? Tell us why'), value as string);
          break;
        case 'isUsingClientFunds':
          await radio('Does the company hold financial assets for the account of others?', yes(value));
          break;
        case 'isManagedByFinancialInstitution':
          await radio('Is the company managed by a financial institution?', yes(value));
          break;
        case 'isPubliclyTraded':
          await radio("Are the company's shares regularly traded on an established securities market?", yes(value));
          break;
        case 'companySecurityMarket':
          await change(field('Securities market'), value as string);
          break;
        case 'companyTicket':
          await change(field('Ticker symbol'), value as string);
          break;
        case 'isOwnPubliclyTradedCompany':
          await radio('Is the company part of a group whose parent is publicly traded?', yes(value));
          break;
        case 'ownedName':
          await change(field('Name of the publicly traded company'), value as string);
          break;
        case 'ownedMarket':
          await change(field('Its securities market'), value as string);
          break;
        case 'ownedTicket':
          await change(field('Its ticker symbol'), value as string);
          break;
        case 'isEarnPassiveIncome':
          await radio("Is more than half of the company's income passive?", yes(value));
          break;
        case 'isUSTaxPayer':
          await radio('Is the company a US taxpayer?', yes(value));
          break;
        case 'isDisregardedEntity':
          await radio('Is the company a disregarded entity for US tax?', yes(value));
          break;
        case 'placeOfBusinessAddressId':
          await radio('Principal place of business', LINES[value as number]!);
          break;
        case 'registeredAddressId':
          await radio('Registered address', LINES[value as number]!);
          break;
        default:
          throw new Error(`no control for ${key}`);
      }
    }
  };
  const taxSet = (index: number) => within(screen.getAllByRole('group', { name: /^Tax residence/ })[index]!);
  const ev = <T extends BusinessSelfCertificationEvent['type']>(event: ModelEvent) => event as Extract<BusinessSelfCertificationEvent, { type: T }>;
  return {
    'LOAD.RETRY': async () => click('Try again'),
    EDIT: async () => click(/^(Change your answers|Update your answers)$/),
    SIGN: async () => click(/^Sign the forms/),
    ANSWER: async ({ event }: { event: ModelEvent }) => answer(ev<'ANSWER'>(event).patch as Partial<BusinessAnswers>),
    // the list field's one change that makes the event's list: Add, Remove, or the one field that differs
    'TAX_IDS.CHANGE': async ({ event }: { event: ModelEvent }) => {
      const next = ev<'TAX_IDS.CHANGE'>(event).taxIds;
      const prev = h.did.prevTaxIds;
      if (next.length > prev.length) return click('Add another tax residence');
      const i = Math.max(
        0,
        prev.findIndex((t, j) => JSON.stringify(t) !== JSON.stringify(next[j])),
      );
      if (next.length < prev.length) return act(() => fireEvent.click(taxSet(i).getByRole('button', { name: /^Remove/ })));
      const set = taxSet(i);
      if (next[i]!.countryCode !== prev[i]!.countryCode) await change(set.getByLabelText('Country of tax residence'), next[i]!.countryCode);
      if (next[i]!.taxId !== prev[i]!.taxId) await change(set.getAllByRole('textbox')[0]!, next[i]!.taxId);
    },
    'PERSON.TOGGLE': async ({ event }: { event: ModelEvent }) =>
      act(() => fireEvent.click(screen.getByRole('checkbox', { name: PEOPLE.find((p) => p.representativeId === ev<'PERSON.TOGGLE'>(event).representativeId)!.name }))),
    'PERSON.COUNTRY': async ({ event }: { event: ModelEvent }) => {
      const e = ev<'PERSON.COUNTRY'>(event);
      await change(field(`Tax residence of ${PEOPLE.find((p) => p.representativeId === e.representativeId)!.name}`), e.countryCode);
    },
    'STEP.CONTINUE': async () => click('Continue'),
    'STEP.BACK': async () => click('Back'),
    SUBMIT: async () => click(/^Save (again )?and sign$/),
    'xstate.done.actor.load': settle('load'),
    'xstate.error.actor.load': settle('load'),
    'xstate.done.actor.save': settle('save'),
    'xstate.error.actor.save': settle('save'),
    'xstate.done.actor.sign': settle('sign'),
    'xstate.error.actor.sign': settle('sign'),
  };
}

/* ------------------------------------------------------------------------------ the paths */

const modelOf = (canManage: boolean) =>
  new TestModel(businessSelfCertificationMachine, {
    input: { canManage },
    events: (s: Snap) => eventsFor(s) as never,
    serializeState: (s: Snap) => serialize(s),
    stateMatcher: (s: Snap, key: string) => matchesPath(s, key),
  } as never);
const LINES_OF = [true, false].map((canManage) => ({ canManage, paths: edgeCoveringPaths(modelOf(canManage), (s) => serialize(s as Snap)) }));
const sequences: { canManage: boolean; events: ModelEvent[] }[] = [];

const labelOf = (e: ModelEvent) => {
  const short = e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.');
  if ('output' in e) {
    const o = e.output as { ok?: boolean; code?: string; errors?: ValidationError[]; answer?: BusinessCertificationAnswer };
    if (o.ok) return `${short}(ok${o.answer ? ` ${(Object.keys(ANSWERS) as (keyof typeof ANSWERS)[]).find((k) => ANSWERS[k] === o.answer)}` : ''})`;
    return `${short}(${o.code}${o.errors ? ` ${o.errors[0]!.param}` : ''})`;
  }
  if (e.type === 'ANSWER') return `ANSWER(${Object.keys(e.patch).join(',')})`;
  return short;
};

/** Whether a Continue stays on its step (the test then expects the problems shown). */
function stays(machine: typeof businessSelfCertificationMachine, canManage: boolean, events: ModelEvent[], i: number): boolean {
  const actor = createActor(replayable, { input: { canManage } }).start();
  for (const e of events.slice(0, i)) actor.send(e as never);
  const before = JSON.stringify(actor.getSnapshot().value);
  actor.send(events[i] as never);
  const after = JSON.stringify(actor.getSnapshot().value);
  actor.stop();
  void machine;
  return before === after;
}
const stepBefore = (canManage: boolean, events: ModelEvent[], i: number): string => {
  const actor = createActor(replayable, { input: { canManage } }).start();
  for (const e of events.slice(0, i)) actor.send(e as never);
  const snap = actor.getSnapshot();
  actor.stop();
  return snap.matches({ answering: 'addresses' }) ? 'addresses' : 'other';
};

describe('business self-certification model', () => {
  for (const { canManage, paths } of LINES_OF) {
    paths.forEach((path, i) => {
      const events = path.steps.map((st) => st.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
      sequences.push({ canManage, events });
      const last = path.steps.at(-1)?.state as Snap | undefined;
      it(`${canManage ? 'full rights' : 'read only'} #${i} ${events.map(labelOf).join(' → ') || 'initial'} ⇒ ${JSON.stringify(last?.value)}`, async () => {
        const h = mount(canManage);
        let n = 0;
        await runPathCheckingEveryStep(
          path,
          stateChecks(h),
          recordingExecutors<ModelEvent>(eventExecutors(h), (e) => {
            const index = n++;
            const before = e.type === 'STEP.CONTINUE' ? (stays(businessSelfCertificationMachine, canManage, events, index) ? 'stay' : stepBefore(canManage, events, index)) : '';
            record(h.did, e, before);
          }),
        );
        h.actor.stop();
      });
    });
  }
});

/** The chart with actors that never answer (the replay sends their answers as events). */
const replayable = businessSelfCertificationMachine.provide({
  actors: {
    load: fromPromise(() => new Promise<LoadResult>(() => undefined)),
    save: fromPromise(() => new Promise<SaveResult>(() => undefined)),
    sign: fromPromise(() => new Promise<SignResult>(() => undefined)),
  },
});

describe('business self-certification model: the chart', () => {
  it('every state of the chart is reached by some path', () => {
    expect(
      unreachedStates(
        businessSelfCertificationMachine,
        LINES_OF.flatMap((l) => l.paths),
      ),
    ).toEqual([]);
  });

  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const canManage of [true, false])
      for (const key of transitionsTaken(replayable, { canManage }, sequences.filter((s) => s.canManage === canManage).map((s) => s.events) as never)) taken.add(key);
    const missing = listTransitions(businessSelfCertificationMachine)
      .filter((t) => !taken.has(t.key))
      .map((t) => t.key);
    expect(missing).toEqual([]);
  });

  it("a US taxpayer's US entry is not removed", () => {
    const actor = createActor(replayable, { input: { canManage: true } }).start();
    actor.send({ type: 'xstate.done.actor.load', output: loaded(ANSWERS.new) } as never);
    for (const e of [
      NEXT,
      A({ entityType: 'financial-institution' }),
      NEXT,
      A({ giin: '98Q96B.00000.LE.250', isUsingClientFunds: true }),
      NEXT,
      A({ isUSTaxPayer: true, isDisregardedEntity: false }),
      NEXT,
      A({ placeOfBusinessAddressId: 7, registeredAddressId: 7 }),
      NEXT,
    ])
      actor.send(e);
    expect(actor.getSnapshot().context.answers.taxIds.map((t) => t.countryCode)).toEqual(['LT', 'US']);
    // the list without it: the US entry comes back
    actor.send({ type: 'TAX_IDS.CHANGE', taxIds: [actor.getSnapshot().context.answers.taxIds[0]!] });
    expect(actor.getSnapshot().context.answers.taxIds.map((t) => t.countryCode)).toEqual(['LT', 'US']);
    actor.stop();
  });
});

/** Tab (forward) until the element has focus. */
async function tabTo(user: ReturnType<typeof userEvent.setup>, el: HTMLElement) {
  for (let i = 0; i < 40 && document.activeElement !== el; i++) await user.tab();
  expect(document.activeElement).toBe(el);
}

describe('business self-certification: keyboard and axe', () => {
  it('a passive investment entity certifies with the keyboard only; each step takes focus at its heading; no axe violations', async () => {
    // user-event's arrow keys in a radio group use CSS.escape, which jsdom lacks (restored after the test: unstubGlobals)
    if (typeof globalThis.CSS?.escape !== 'function') vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) });
    const h = mount(true);
    const user = userEvent.setup({ delay: null });
    const focused = async (name: string) => {
      const el = await h1(name);
      await waitFor(() => expect(document.activeElement).toBe(el));
    };
    const next = async () => {
      await tabTo(user, button('Continue'));
      await user.keyboard('{Enter}');
    };
    // a radio group is one tab stop (its first option while none is chosen); the arrow keys move and choose
    const choose = async (legend: string, label: string) => {
      const radios = within(group(legend)).getAllByRole('radio') as HTMLInputElement[];
      const target = within(group(legend)).getByLabelText(label) as HTMLInputElement;
      await tabTo(user, radios.find((r) => r.checked) ?? radios[0]!);
      if (document.activeElement === target) await user.keyboard(' ');
      for (let i = 0; i < radios.length && !target.checked; i++) await user.keyboard('{ArrowDown}');
      expect(target.checked).toBe(true);
    };
    await act(async () => h.q.load.answer(loaded(ANSWERS.new)));
    await focused('About the company');
    await expectNoAxeViolations('the company step');
    // Enter in a field submits the step
    await user.click(field('Company name'));
    await user.keyboard('{Enter}');
    await focused('What kind of entity is the company?');
    await expectNoAxeViolations('the entity type step');
    await next();
    expect(errorOf(group('Entity type'))).toContain('This is required.');
    await expectNoAxeViolations('the entity type step with its error');
    await choose('Entity type', 'Investment entity');
    await next();
    await focused("Who manages the company's investments?");
    await choose('Is the company managed by a financial institution?', 'No');
    await next();
    await focused('US tax status');
    await choose('Is the company a US taxpayer?', 'No');
    await choose('Is the company a disregarded entity for US tax?', 'No');
    await expectNoAxeViolations('the US status step');
    await next();
    await focused("The company's addresses");
    await choose('Principal place of business', LINES[7]!);
    await choose('Registered address', LINES[8]!);
    await expectNoAxeViolations('the addresses step');
    await next();
    await focused('Where the company pays tax');
    await expectNoAxeViolations('the tax residences step');
    await next();
    await focused('Controlling persons');
    await tabTo(user, screen.getByRole('checkbox', { name: 'Ada Lovelace' }));
    await user.keyboard(' ');
    expect((field('Tax residence of Ada Lovelace') as HTMLSelectElement).value).toBe('GB');
    await expectNoAxeViolations('the controlling persons step');
    await next();
    await focused('Review your answers');
    await expectNoAxeViolations('the review');
    await tabTo(user, button('Save and sign'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(h.q.save.waiting).toBe(1));
    expect(h.q.save.calls[0]!.request).toMatchObject({
      entityType: 'investment',
      isManagedByFinancialInstitution: false,
      isUSTaxPayer: false,
      placeOfBusinessAddressId: 7,
      registeredAddressId: 8,
      controllingPersons: [{ representativeId: 31, taxResidenceCountryCode: 'GB' }],
    });
    await act(async () => h.q.save.answer({ ok: true, answer: ANSWERS.unsigned }));
    await waitFor(() => expect(h.q.sign.waiting).toBe(1));
    await act(async () => h.q.sign.answer({ ok: true, signData: { clientId: 'c-1', signUrls: [SIGN_URL] } }));
    await focused('Opening the signing page');
    expect(h.openUrl).toHaveBeenCalledWith(SIGN_URL);
    await expectNoAxeViolations('the signing page link');
    h.actor.stop();
  });

  it('the states after signing have no axe violations', async () => {
    for (const state of ['unsigned', 'pendingReview', 'validated', 'rejected'] as const) {
      for (const canManage of [true, false]) {
        const h = mount(canManage);
        await act(async () => h.q.load.answer(loaded(ANSWERS[state])));
        await screen.findByRole('heading', { level: 2, name: 'Your forms' });
        await expectNoAxeViolations(`${state}${canManage ? '' : ' (read only)'}`);
        h.actor.stop();
        cleanup();
      }
    }
  });
});
