/**
 * Model-based test of the personal tax self-certification (document 3 §2, §3, §5; issue 18 items 2
 * and 6): paths generated from machines/personal-self-certification drive the REAL
 * PersonalCertificationFlow through Testing Library (the birth fields, the citizenship selects, the
 * US questions' radios, the tax residences with their numbers, the review, the status page and the
 * CLN upload). The four calls are test doubles answered by the paths' `xstate.done.actor.*` /
 * `xstate.error.actor.*` events; the dictionaries (countries, birth countries, the tax-number
 * table) come over a fetch double. Every transition of the chart is taken by some path (checked
 * below). A last test goes through with the keyboard only and runs axe on every step.
 *
 * Proof it can fail: I broke the view on purpose (the locked US residence of a US taxpayer
 * rendered removable: 8 of 17 red; the birth fields' errors not shown: 3 red; the representative's
 * request hooks not set: its test red); restored since.
 */
import { expectNoAxeViolations } from '../ui/axe.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TestModel } from '@xstate/graph';
import type { SnapshotFrom } from 'xstate';
import type { PersonalCertification, TaxIdEntry } from '../../api/tax-certification.ts';
import { GENERIC_TAX_NUMBER, TAX_NUMBERS } from '../../api/tax-numbers.ts';
import {
  personalSelfCertificationMachine,
  standingOf,
  type LoadResult,
  type PersonalCertificationAnswer,
  type PersonalCertificationEvent,
  type PersonalCertificationInput,
  type SaveResult,
  type SignResult,
  type UploadResult,
} from '../../machines/personal-self-certification/personal-self-certification.machine.ts';
import { PersonalCertificationFlow } from '../../src/features/tax/personal-certification-view.tsx';
import type { PersonalCertificationCalls } from '../../src/features/tax/personal-actors.ts';
import { i18n } from '../../src/lib/i18n.ts';
import { setFetchForTests } from '../../src/lib/request.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { edgeCoveringPaths, expectOffered, matchesPath, runPathCheckingEveryStep, transitionsTaken } from './coverage.ts';
import { AnswerQueue } from './support.ts';

type Snap = SnapshotFrom<typeof personalSelfCertificationMachine>;
type SystemEvent = { type: `xstate.${string}`; output?: unknown; error?: unknown };
type ModelEvent = PersonalCertificationEvent | SystemEvent;

const TODAY = '2026-11-27';
const input: PersonalCertificationInput = { today: TODAY };
const DE_TIN = '86095742719';
const DE_BAD_TIN = '86095742718';
const US_SSN = '536-22-1234';
const COUNTRIES = [
  { code: 'DE', name: 'Germany', phoneCode: '49' },
  { code: 'IE', name: 'Ireland', phoneCode: '353' },
  { code: 'US', name: 'United States', phoneCode: '1' },
];
const tin = (countryCode: string, taxId: string | null): TaxIdEntry => ({ countryCode, taxId, tinMissingReason: null, tinMissingExplanation: null });

const SAVED: PersonalCertification = {
  cityOfBirth: 'Boston',
  countryOfBirth: 'US',
  dateOfBirth: '1980-04-02',
  citizenship: ['DE'],
  isUSTaxPayer: false,
  usCitizenshipAbsenceReason: 'RENOUNCED',
  usCitizenshipAbsenceExplanation: null,
  taxIds: [tin('DE', DE_TIN)],
};
const FRESH: PersonalCertificationAnswer = {
  w9FormDocumentStatus: 'none',
  w8BenFormDocumentStatus: 'none',
  taxResidencySelfCertificationDocumentStatus: 'none',
  certificateOfLossOfNationalityDocumentStatus: 'none',
  requiredForms: ['w8Ben', 'taxResidencySelfCertification'],
  documents: [],
  updatedAt: null,
  certification: null,
  hasUSIndicia: true,
  certificateOfLossOfNationalityRequired: false,
  prefill: { dateOfBirth: '1980-04-02', countryCode: 'DE', taxId: null },
};
const UNSIGNED: PersonalCertificationAnswer = { ...FRESH, certification: SAVED, certificateOfLossOfNationalityRequired: true, updatedAt: '2026-11-27T10:00:00Z' };
const REJECTED: PersonalCertificationAnswer = { ...UNSIGNED, w8BenFormDocumentStatus: 'rejected', taxResidencySelfCertificationDocumentStatus: 'validated' };
const PENDING: PersonalCertificationAnswer = { ...UNSIGNED, w8BenFormDocumentStatus: 'pending', taxResidencySelfCertificationDocumentStatus: 'pending' };
const CLN_UPLOADED: PersonalCertificationAnswer = { ...PENDING, certificateOfLossOfNationalityDocumentStatus: 'pending' };
const VALIDATED: PersonalCertificationAnswer = {
  ...UNSIGNED,
  w8BenFormDocumentStatus: 'validated',
  taxResidencySelfCertificationDocumentStatus: 'validated',
  certificateOfLossOfNationalityDocumentStatus: 'validated',
};
const SIGN_URL = 'https://bank.test/e-sign/tok-1';
const CITY_REFUSED = 'is not a city we know';
const CLN_REFUSED = 'must be a PDF or an image';
const PDF = new Blob(['%PDF-1.4'], { type: 'application/pdf' });

/** Typed so a new event fails compilation until it has cases here. */
const userEvents = {
  'BIRTH.SUBMIT': [
    { type: 'BIRTH.SUBMIT', values: { cityOfBirth: 'Boston', countryOfBirth: 'US', dateOfBirth: '1980-04-02' } },
    { type: 'BIRTH.SUBMIT', values: { cityOfBirth: '', countryOfBirth: 'US', dateOfBirth: '1980-04-02' } },
  ],
  'CITIZENSHIP.SUBMIT': [
    { type: 'CITIZENSHIP.SUBMIT', citizenship: ['DE'] },
    { type: 'CITIZENSHIP.SUBMIT', citizenship: ['US'] },
    { type: 'CITIZENSHIP.SUBMIT', citizenship: [] },
  ],
  'US.SUBMIT': [
    { type: 'US.SUBMIT', isUSTaxPayer: true },
    { type: 'US.SUBMIT', isUSTaxPayer: false },
  ],
  'ABSENCE.SUBMIT': [
    { type: 'ABSENCE.SUBMIT', values: { reason: 'RENOUNCED', explanation: '' } },
    { type: 'ABSENCE.SUBMIT', values: { reason: 'NOT_CITIZEN_AT_BIRTH', explanation: '' } },
  ],
  'RESIDENCES.SUBMIT': [
    { type: 'RESIDENCES.SUBMIT', taxIds: [tin('DE', DE_TIN), tin('US', US_SSN)] },
    { type: 'RESIDENCES.SUBMIT', taxIds: [tin('DE', DE_BAD_TIN)] },
  ],
  SAVE: [{ type: 'SAVE' }],
  SIGN: [{ type: 'SIGN' }],
  EDIT: [{ type: 'EDIT' }],
  BACK: [{ type: 'BACK' }],
  RETRY: [{ type: 'RETRY' }],
  'CLN.UPLOAD': [{ type: 'CLN.UPLOAD', file: PDF }],
} satisfies { [K in PersonalCertificationEvent['type']]: Extract<PersonalCertificationEvent, { type: K }>[] };

function answersFor(s: Snap): SystemEvent[] {
  const c = s.children;
  if (c.loadCertification)
    return [
      ...[FRESH, UNSIGNED, REJECTED, PENDING, VALIDATED].map((answer) => ({
        type: 'xstate.done.actor.loadCertification' as const,
        output: { ok: true, answer } satisfies LoadResult,
      })),
      { type: 'xstate.done.actor.loadCertification', output: { ok: false, code: 'auth' } satisfies LoadResult },
      { type: 'xstate.done.actor.loadCertification', output: { ok: false, code: 'refused', detail: 'Not for this customer' } satisfies LoadResult },
      { type: 'xstate.error.actor.loadCertification', error: new Error('offline') },
    ];
  if (c.saveCertification)
    return [
      { type: 'xstate.done.actor.saveCertification', output: { ok: true, answer: UNSIGNED } satisfies SaveResult },
      { type: 'xstate.done.actor.saveCertification', output: { ok: false, code: 'fields', errors: [{ param: 'cityOfBirth', description: CITY_REFUSED }] } satisfies SaveResult },
      {
        type: 'xstate.done.actor.saveCertification',
        output: { ok: false, code: 'fields', errors: [{ param: 'citizenship.0', description: 'is not a country we serve' }] } satisfies SaveResult,
      },
      {
        type: 'xstate.done.actor.saveCertification',
        output: { ok: false, code: 'fields', errors: [{ param: 'usCitizenshipAbsenceReason', description: 'does not match' }] } satisfies SaveResult,
      },
      {
        type: 'xstate.done.actor.saveCertification',
        output: { ok: false, code: 'fields', errors: [{ param: 'taxIds.0.taxId', description: 'is already used' }] } satisfies SaveResult,
      },
      { type: 'xstate.done.actor.saveCertification', output: { ok: false, code: 'refused', detail: 'Try again tomorrow' } satisfies SaveResult },
      { type: 'xstate.error.actor.saveCertification', error: new Error('offline') },
    ];
  if (c.startSigning)
    return [
      { type: 'xstate.done.actor.startSigning', output: { ok: true, signUrls: [SIGN_URL, `${SIGN_URL}-2`] } satisfies SignResult },
      { type: 'xstate.done.actor.startSigning', output: { ok: false, code: 'refused', detail: 'Signing is closed' } satisfies SignResult },
      { type: 'xstate.error.actor.startSigning', error: new Error('offline') },
    ];
  if (c.uploadCln)
    return [
      { type: 'xstate.done.actor.uploadCln', output: { ok: true, answer: CLN_UPLOADED } satisfies UploadResult },
      { type: 'xstate.done.actor.uploadCln', output: { ok: false, code: 'fields', errors: [{ param: 'front', description: CLN_REFUSED }] } satisfies UploadResult },
      { type: 'xstate.error.actor.uploadCln', error: new Error('offline') },
    ];
  return [];
}

function eventsFor(s: Snap): ModelEvent[] {
  if (s.status !== 'active') return [];
  const all: ModelEvent[] = [...Object.values(userEvents).flat(), ...answersFor(s)];
  return all.filter((e) => e.type.startsWith('xstate.') || s.can(e as PersonalCertificationEvent));
}

/** Only what the checks read. */
const serialize = (s: Snap) => {
  const c = s.context;
  return JSON.stringify({
    v: s.value,
    city: c.draft.cityOfBirth !== '',
    cit: c.draft.citizenship,
    us: c.draft.isUSTaxPayer,
    why: c.draft.usCitizenshipAbsenceReason,
    res: c.draft.taxIds.map((t) => `${t.countryCode}${t.taxId ?? ''}`),
    err: Object.keys(c.fieldErrors).sort(),
    f: c.failure?.code ?? null,
    cln: c.clnFailure?.code ?? null,
    a: c.answer ? [standingOf(c.answer), c.answer.certificateOfLossOfNationalityDocumentStatus] : null,
  });
};

const dictionaryAnswer = (url: string) => {
  if (url.endsWith('?dictionaryTaxNumbers')) return { responseCode: '00', taxNumbers: TAX_NUMBERS, generic: GENERIC_TAX_NUMBER };
  if (url.endsWith('?dictionaryBirthCountries')) return { responseCode: '00', dictionary: { country: COUNTRIES } };
  return {
    responseCode: '00',
    dictionaries: {
      dictionaryOccupationList: { dictionary: { occupation: [] } },
      dictionaryCountries: { dictionary: { country: COUNTRIES } },
      dictionaryCurrenciesList: { dictionary: { currency: [] } },
      dictionaryTransactionTypeList: { dictionary: { transactionType: [] } },
    },
  };
};

function mount() {
  const load = new AnswerQueue<void, LoadResult>();
  const save = new AnswerQueue<PersonalCertification, SaveResult>();
  const sign = new AnswerQueue<void, SignResult>();
  const upload = new AnswerQueue<Blob, UploadResult>();
  const calls: PersonalCertificationCalls = { load: () => load.next(), save: (r) => save.next(r), sign: () => sign.next(), uploadCln: (f) => upload.next(f) };
  const onSign = vi.fn();
  const onUnauthorised = vi.fn();
  setFetchForTests(async (url) => new Response(JSON.stringify(dictionaryAnswer(String(url))), { status: 200, headers: { 'Content-Type': 'application/json' } }));
  const user = userEvent.setup({ delay: null });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <PersonalCertificationFlow today={TODAY} calls={calls} onSign={onSign} onUnauthorised={onUnauthorised} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { load, save, sign, upload, onSign, onUnauthorised, user, container: view.container };
}
type Harness = ReturnType<typeof mount>;

afterEach(() => setFetchForTests(null));

const heading = (name: RegExp) => screen.findByRole('heading', { level: 1, name });
const waitingCalls = (h: Harness) => h.load.waiting + h.save.waiting + h.sign.waiting + h.upload.waiting;
const control = (name: string) => document.querySelector(`[name="${name}"]`) as HTMLElement | null;

/** Each error the chart holds for the step sits on its field (aria-invalid; the platform's words where it gave them). */
function expectErrorsOnFields(s: Snap) {
  for (const [param, e] of Object.entries(s.context.fieldErrors)) {
    const name = param === 'citizenship' ? 'citizenship.0' : param;
    const el = control(name);
    expect(el, param).not.toBeNull();
    expect(el!.getAttribute('aria-invalid'), param).toBe('true');
    if (!e.code) expect(screen.getByText(e.description)).toBeTruthy();
  }
}

function stateChecks(h: Harness) {
  const question = (name: RegExp, offered: PersonalCertificationEvent[]) => async (s: Snap) => {
    await heading(name);
    expect(waitingCalls(h)).toBe(0);
    expectErrorsOnFields(s);
    expectOffered<PersonalCertificationEvent>(s, offered);
  };
  const status = (name: RegExp, buttons: RegExp[]) => async (s: Snap) => {
    await heading(name);
    for (const b of buttons) expect(screen.getByRole('button', { name: b })).toBeTruthy();
    const asked = s.context.answer!.certificateOfLossOfNationalityRequired && s.context.answer!.certificateOfLossOfNationalityDocumentStatus === 'none';
    expect(screen.queryByRole('heading', { name: /upload your certificate of loss of nationality/i }) !== null).toBe(asked);
    if (s.context.clnFailure) expect(screen.getByText(s.context.clnFailure.code === 'network' ? /the connection failed/i : new RegExp(CLN_REFUSED))).toBeTruthy();
    expect(screen.getByText(/form w-8ben/i)).toBeTruthy();
    expectOffered<PersonalCertificationEvent>(s, [{ type: 'EDIT' }]);
  };
  return {
    loading: async () => {
      await screen.findByText(/loading your tax details/i);
      expect(h.load.waiting).toBe(1);
    },
    loadFailed: async (s: Snap) => {
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText(/could not be loaded/i)).toBeTruthy();
      expect(within(alert).getByText(s.context.failure?.code === 'network' ? /the connection failed/i : /not for this customer/i)).toBeTruthy();
      await waitFor(() => expect(document.activeElement).toBe(within(alert).getByRole('button', { name: /^try again$/i })));
    },
    unauthorised: async () => {
      await waitFor(() => expect(h.onUnauthorised).toHaveBeenCalledTimes(1));
    },
    'questions.birth': question(/where and when were you born/i, [{ type: 'BIRTH.SUBMIT', values: userEvents['BIRTH.SUBMIT'][0]!.values }]),
    'questions.citizenship': question(/your citizenships/i, [{ type: 'BACK' }]),
    'questions.usStatus': async (s: Snap) => {
      await question(/are you a us taxpayer/i, [{ type: 'BACK' }])(s);
      expect(screen.queryByText(/as a us citizen you are a us taxpayer/i) !== null).toBe(s.context.draft.citizenship.includes('US'));
    },
    'questions.usAbsence': question(/why are you not a us citizen/i, [{ type: 'BACK' }]),
    'questions.residences': async (s: Snap) => {
      await question(/where are you resident for tax/i, [{ type: 'BACK' }])(s);
      // the TIN field is labelled with the country's own name for it
      expect(screen.getAllByLabelText(/^tax identification number \(steuer-id\)$/i).length).toBeGreaterThan(0);
      const us = screen.queryByRole('group', { name: /tax residence: united states/i });
      if (s.context.draft.isUSTaxPayer) {
        // §5: a US taxpayer's US residence is there and cannot be removed
        expect(us).not.toBeNull();
        expect(screen.queryByRole('button', { name: /remove united states/i })).toBeNull();
        expect(within(us!).getByLabelText(/^social security number/i)).toBeTruthy();
      }
    },
    'questions.review': async (s: Snap) => {
      await heading(/check your answers/i);
      await waitFor(() => expect(screen.getByRole('button', { name: /save and sign/i }).getAttribute('aria-busy')).toBeNull());
      const us = s.context.draft.isUSTaxPayer || s.context.draft.citizenship.includes('US');
      expect(screen.getByText(us ? /form w-9/i : /form w-8ben/i)).toBeTruthy();
      expect(screen.getByText(/tax residency self-certification/i)).toBeTruthy();
      const cln = s.context.draft.countryOfBirth === 'US' && !s.context.draft.citizenship.includes('US') && s.context.draft.usCitizenshipAbsenceReason === 'RENOUNCED';
      expect(screen.queryByText(/certificate of loss of us nationality/i) !== null).toBe(cln);
      expect(screen.queryByRole('alert')).toBeNull();
      expectOffered<PersonalCertificationEvent>(s, [{ type: 'SAVE' }, { type: 'BACK' }]);
    },
    saving: async (s: Snap) => {
      await waitFor(() => expect(screen.getByRole('button', { name: /save and sign/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.save.waiting).toBe(1);
      const sent = h.save.calls.at(-1)!;
      // what the steps took is what is sent; a US taxpayer's record always has its US entry
      expect(sent.cityOfBirth).toBe('Boston');
      expect(sent.citizenship).toEqual(s.context.draft.citizenship);
      if (sent.isUSTaxPayer) expect(sent.taxIds.some((t) => t.countryCode === 'US')).toBe(true);
      expect(sent.taxIds.find((t) => t.countryCode === 'DE')?.taxId).toBe(DE_TIN);
    },
    saveFailed: async (s: Snap) => {
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText(s.context.failure?.code === 'network' ? /the connection failed/i : /try again tomorrow/i)).toBeTruthy();
      await waitFor(() => expect(document.activeElement).toBe(within(alert).getByRole('button', { name: /^try again$/i })));
      expectOffered<PersonalCertificationEvent>(s, [{ type: 'RETRY' }, { type: 'BACK' }]);
    },
    signing: async () => {
      await screen.findByText(/filling in your forms/i);
      expect(h.sign.waiting).toBe(1);
    },
    signFailed: async (s: Snap) => {
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText(s.context.failure?.code === 'network' ? /the connection failed/i : /signing is closed/i)).toBeTruthy();
      expect(within(alert).getByText(/your answers are saved/i)).toBeTruthy();
    },
    toSigning: async () => {
      // the first sign URL
      await waitFor(() => expect(h.onSign).toHaveBeenCalledWith(SIGN_URL));
    },
    uploadingCln: async () => {
      await waitFor(() => expect(screen.getByRole('button', { name: /upload the certificate/i }).getAttribute('aria-busy')).toBe('true'));
      expect(h.upload.waiting).toBe(1);
      expect(h.upload.calls.at(-1)).toBeInstanceOf(Blob);
    },
    'status.unsigned': status(/sign your tax forms/i, [/^sign the forms$/i, /change my answers/i]),
    'status.rejected': status(/need attention/i, [/sign the forms again/i, /change my answers/i]),
    'status.pending': status(/being reviewed/i, [/change my answers/i]),
    'status.validated': status(/is complete/i, [/change my answers/i]),
  } satisfies Record<string, (s: Snap) => Promise<void>>;
}

function eventExecutors(h: Harness) {
  const click = (name: RegExp) => async () => {
    await h.user.click(screen.getByRole('button', { name }));
  };
  const set = (name: string, value: string) => fireEvent.change(control(name)!, { target: { value } });
  const answer =
    <T,>(q: (h: Harness) => { answer(output: T): void }) =>
    async ({ event }: { event: ModelEvent }) => {
      await act(async () => q(h).answer((event as SystemEvent).output as T));
    };
  const fail =
    (q: (h: Harness) => { fail(error: unknown): void }) =>
    async ({ event }: { event: ModelEvent }) => {
      await act(async () => q(h).fail((event as SystemEvent).error));
    };
  return {
    'BIRTH.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const { values } = event as Extract<PersonalCertificationEvent, { type: 'BIRTH.SUBMIT' }>;
      await waitFor(() => expect(within(control('countryOfBirth')!).getAllByRole('option').length).toBe(COUNTRIES.length + 1));
      set('cityOfBirth', values.cityOfBirth);
      await h.user.selectOptions(control('countryOfBirth')!, values.countryOfBirth);
      set('dateOfBirth', values.dateOfBirth);
      await click(/^continue$/i)();
    },
    'CITIZENSHIP.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const { citizenship } = event as Extract<PersonalCertificationEvent, { type: 'CITIZENSHIP.SUBMIT' }>;
      await waitFor(() => expect(within(control('citizenship.0')!).getAllByRole('option').length).toBe(COUNTRIES.length + 1));
      await h.user.selectOptions(control('citizenship.0')!, citizenship[0] ?? '');
      await click(/^continue$/i)();
    },
    'US.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const { isUSTaxPayer } = event as Extract<PersonalCertificationEvent, { type: 'US.SUBMIT' }>;
      await h.user.click(screen.getByRole('radio', { name: isUSTaxPayer ? /^yes$/i : /^no$/i }));
      await click(/^continue$/i)();
    },
    'ABSENCE.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const { values } = event as Extract<PersonalCertificationEvent, { type: 'ABSENCE.SUBMIT' }>;
      await h.user.click(screen.getByRole('radio', { name: values.reason === 'RENOUNCED' ? /renounced/i : /did not become/i }));
      if (control('usCitizenshipAbsenceExplanation')) set('usCitizenshipAbsenceExplanation', values.explanation);
      await click(/^continue$/i)();
    },
    'RESIDENCES.SUBMIT': async ({ event }: { event: ModelEvent }) => {
      const { taxIds } = event as Extract<PersonalCertificationEvent, { type: 'RESIDENCES.SUBMIT' }>;
      // the rows on screen: each wanted country in a row of its own, the others removed where they may be
      const rows = () => [...document.querySelectorAll('fieldset.tax-residence')] as HTMLElement[];
      const countryOf = (row: HTMLElement) => (row.querySelector('select') as HTMLSelectElement | null)?.value ?? 'US';
      await waitFor(() => expect(document.querySelectorAll('fieldset.tax-residence select option').length).toBeGreaterThan(COUNTRIES.length));
      for (const row of rows()) {
        if (!taxIds.some((t) => t.countryCode === countryOf(row))) {
          const remove = within(row).queryByRole('button', { name: /^remove/i });
          if (remove) await h.user.click(remove);
        }
      }
      for (const t of taxIds) {
        let row = rows().find((r) => countryOf(r) === t.countryCode);
        if (!row) {
          await h.user.click(screen.getByRole('button', { name: /add another tax residence/i }));
          row = rows().at(-1)!;
          await h.user.selectOptions(row.querySelector('select')!, t.countryCode);
          row = rows().find((r) => countryOf(r) === t.countryCode)!;
        }
        fireEvent.change(row.querySelector('input[name$=".taxId"]')!, { target: { value: t.taxId ?? '' } });
      }
      await click(/^continue$/i)();
    },
    SAVE: click(/save and sign/i),
    SIGN: click(/^sign the forms( again)?$/i),
    EDIT: click(/change my answers/i),
    BACK: click(/^back$/i),
    RETRY: click(/^try again$/i),
    'CLN.UPLOAD': async () => {
      await h.user.upload(screen.getByLabelText(/certificate file/i), new File(['%PDF-1.4'], 'cln.pdf', { type: 'application/pdf' }));
      await click(/upload the certificate/i)();
    },
    'xstate.done.actor.loadCertification': answer((x) => x.load),
    'xstate.error.actor.loadCertification': fail((x) => x.load),
    'xstate.done.actor.saveCertification': answer((x) => x.save),
    'xstate.error.actor.saveCertification': fail((x) => x.save),
    'xstate.done.actor.startSigning': answer((x) => x.sign),
    'xstate.error.actor.startSigning': fail((x) => x.sign),
    'xstate.done.actor.uploadCln': answer((x) => x.upload),
    'xstate.error.actor.uploadCln': fail((x) => x.upload),
  };
}

const model = new TestModel(personalSelfCertificationMachine, {
  input,
  events: (s) => eventsFor(s as Snap) as never,
  serializeState: (s) => serialize(s as Snap),
  stateMatcher: (s, key) => matchesPath(s as Snap, key),
});
const paths = edgeCoveringPaths(model, (s) => serialize(s as Snap));
const sequences: ModelEvent[][] = [];

const labelOf = (e: ModelEvent) => {
  const short = e.type.replace(/^xstate\.done\.actor\./, 'done.').replace(/^xstate\.error\.actor\./, 'error.');
  if ('output' in e) {
    const out = e.output as { ok: boolean; code?: string; answer?: PersonalCertificationAnswer; errors?: { param: string }[] };
    return `${short}(${out.ok ? (out.answer ? standingOf(out.answer) : 'ok') : out.code === 'fields' ? out.errors![0]!.param : out.code})`;
  }
  if (e.type === 'BIRTH.SUBMIT') return `${short}(${e.values.cityOfBirth || 'no city'})`;
  if (e.type === 'CITIZENSHIP.SUBMIT') return `${short}(${e.citizenship.join() || 'none'})`;
  if (e.type === 'US.SUBMIT') return `${short}(${e.isUSTaxPayer})`;
  if (e.type === 'ABSENCE.SUBMIT') return `${short}(${e.values.reason})`;
  if (e.type === 'RESIDENCES.SUBMIT') return `${short}(${e.taxIds.length === 2 ? 'good' : 'bad'})`;
  return short;
};

describe('personal self-certification model', () => {
  paths.forEach((path, i) => {
    const events = path.steps.map((s) => s.event as ModelEvent).filter((e) => e.type !== 'xstate.init');
    sequences.push(events);
    const last = path.steps.at(-1)?.state as Snap | undefined;
    it(`#${i} ${events.map(labelOf).join(' → ')} ⇒ ${JSON.stringify(last?.value)}`, async () => {
      const h = mount();
      await runPathCheckingEveryStep(path, stateChecks(h), eventExecutors(h));
    });
  });
});

describe('personal self-certification model: the chart', () => {
  it('is named personalSelfCertification', () => {
    expect(personalSelfCertificationMachine.id).toBe('personalSelfCertification');
  });
  it('every transition of the chart is taken by some path', () => {
    const taken = new Set<string>();
    for (const key of transitionsTaken(personalSelfCertificationMachine, input, sequences as never)) taken.add(key);
    const missing = listTransitions(personalSelfCertificationMachine)
      .filter((t) => !taken.has(t.key))
      .map((t) => t.key);
    expect(missing).toEqual([]);
  });
});

/** Tab (forward) until the element has focus. */
async function tabTo(h: Harness, el: HTMLElement) {
  for (let i = 0; i < 30 && document.activeElement !== el; i++) await h.user.tab();
  expect(document.activeElement).toBe(el);
}

describe('personal self-certification flow: keyboard and axe', () => {
  it('each step takes focus at its heading; no axe violations on any step', async () => {
    const h = mount();
    await act(async () => h.load.answer({ ok: true, answer: FRESH }));
    const focused = async (name: RegExp) => {
      const el = await heading(name);
      await waitFor(() => expect(document.activeElement).toBe(el));
    };
    await heading(/where and when were you born/i);
    await expectNoAxeViolations('the birth step', h.container);
    // Enter in a field submits the step: the missing city is said on its field
    await h.user.click(screen.getByLabelText(/^city of birth$/i));
    await h.user.keyboard('{Enter}');
    expect(screen.getByLabelText(/^city of birth$/i).getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations('the birth step with errors', h.container);
    await h.user.keyboard('Boston');
    await waitFor(() => expect(within(control('countryOfBirth')!).getAllByRole('option').length).toBe(COUNTRIES.length + 1));
    await h.user.selectOptions(screen.getByLabelText(/^country of birth$/i), 'US');
    await h.user.click(screen.getByLabelText(/^city of birth$/i));
    await h.user.keyboard('{Enter}');
    await focused(/your citizenships/i);
    await expectNoAxeViolations('the citizenship step', h.container);
    await tabTo(h, screen.getByRole('button', { name: /^continue$/i }));
    await h.user.keyboard('{Enter}');
    await focused(/are you a us taxpayer/i);
    await expectNoAxeViolations('the US status step', h.container);
    // Space chooses a radio (jsdom has no CSS.escape, which user-event's arrow keys in a radio group need)
    await tabTo(h, screen.getByRole('radio', { name: /^yes$/i }));
    await h.user.keyboard(' ');
    expect((screen.getByRole('radio', { name: /^yes$/i }) as HTMLInputElement).checked).toBe(true);
    await tabTo(h, screen.getByRole('button', { name: /^continue$/i }));
    await h.user.keyboard('{Enter}');
    await focused(/why are you not a us citizen/i);
    await expectNoAxeViolations('the US citizenship step', h.container);
    await tabTo(h, screen.getByRole('radio', { name: /renounced/i }));
    await h.user.keyboard(' ');
    await tabTo(h, screen.getByRole('button', { name: /^continue$/i }));
    await h.user.keyboard('{Enter}');
    await focused(/where are you resident for tax/i);
    await expectNoAxeViolations('the residences step', h.container);
    // the number is checked client side as it is left, with the country's own name in the message
    const number = screen.getByLabelText(/^tax identification number \(steuer-id\)$/i);
    await tabTo(h, number);
    await h.user.keyboard(DE_BAD_TIN);
    await h.user.tab();
    expect(await screen.findByText(/check the idnr: its check digits do not match/i)).toBeTruthy();
    await expectNoAxeViolations('the residences step with an error', h.container);
    await h.user.clear(number);
    await h.user.keyboard(DE_TIN);
    // a US taxpayer's US residence is there, not removable: its number too
    await tabTo(h, screen.getByLabelText(/^social security number/i));
    await h.user.keyboard(US_SSN);
    await h.user.keyboard('{Enter}');
    await focused(/check your answers/i);
    await expectNoAxeViolations('the review', h.container);
  });
});

describe('personal self-certification flow: the status page and the CLN upload', () => {
  it('lists the documents with their states, asks the CLN with a labelled file field, and has no axe violations', async () => {
    const h = mount();
    await act(async () => h.load.answer({ ok: true, answer: PENDING }));
    await heading(/being reviewed/i);
    expect(screen.getByRole('list', { name: /your tax documents/i })).toBeTruthy();
    expect(screen.getByText(/one more thing/i)).toBeTruthy();
    await expectNoAxeViolations('the status page', h.container);
    // no file chosen: said on the field, nothing sent
    await h.user.click(screen.getByRole('button', { name: /upload the certificate/i }));
    expect(screen.getByLabelText(/certificate file/i).getAttribute('aria-invalid')).toBe('true');
    expect(h.upload.waiting).toBe(0);
    await expectNoAxeViolations('the status page with an error', h.container);
  });
});

describe('the representative’s page (document 3 §2, §6)', () => {
  it('asks the e-mail, sends fromEmail + authSecret without a token, goes to sign in on a 401, and gives the hooks back when left', async () => {
    const { RepresentativeCertificationPage } = await import('../../src/features/tax/personal-representative-view.tsx');
    const { configureRequest, requestHooks } = await import('../../src/lib/request-hooks.ts');
    const before = { getAccessToken: () => 'customer-token', refresh: async () => false, getActingCustomerId: () => 7 };
    configureRequest(before);
    sessionStorage.clear();
    const sent: { method: string; body: Record<string, unknown>; auth: string | null }[] = [];
    setFetchForTests(async (url, init) => {
      const method = String(url).split('?').at(-1)!;
      const headers = new Headers(init?.headers);
      sent.push({ method, body: JSON.parse(String(init?.body ?? '{}')), auth: headers.get('Authorization') });
      if (method === 'personalFatcaCrsCertificationGet')
        return new Response(JSON.stringify({ responseCode: 'AU' }), { status: 401, headers: { 'Content-Type': 'application/json' } });
      return new Response(JSON.stringify(dictionaryAnswer(String(url))), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    const onUnauthorised = vi.fn();
    const user = userEvent.setup({ delay: null });
    const secret = 'a'.repeat(43);
    const view = render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <RepresentativeCertificationPage authSecret={secret} today={TODAY} onSign={vi.fn()} onUnauthorised={onUnauthorised} />
        </QueryClientProvider>
      </I18nProvider>,
    );
    await heading(/confirm your tax details/i);
    await expectNoAxeViolations('the representative’s e-mail step', view.container);
    // nothing is asked of the platform before the e-mail is given
    expect(sent.filter((s) => s.method.startsWith('personal'))).toEqual([]);
    await user.type(screen.getByLabelText(/your e-mail address/i), 'not-an-address{Enter}');
    expect(screen.getByLabelText(/your e-mail address/i).getAttribute('aria-invalid')).toBe('true');
    await user.clear(screen.getByLabelText(/your e-mail address/i));
    await user.type(screen.getByLabelText(/your e-mail address/i), 'rep@example.test{Enter}');
    await waitFor(() => expect(onUnauthorised).toHaveBeenCalledTimes(1));
    const get = sent.find((s) => s.method === 'personalFatcaCrsCertificationGet')!;
    expect(get.body).toMatchObject({ fromEmail: 'rep@example.test', authSecret: secret });
    expect(get.body.fromCustomerId).toBeUndefined();
    expect(get.auth).toBeNull();
    // the dictionaries carry no secret (the wrapper adds it for the four actions' methods only)
    for (const d of sent.filter((s) => s.method.startsWith('dictionar'))) expect(d.body.authSecret).toBeUndefined();
    view.unmount();
    expect(requestHooks()).toBe(before);
  });
});
