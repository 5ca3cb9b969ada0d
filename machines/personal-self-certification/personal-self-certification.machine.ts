/**
 * The personal tax self-certification (FATCA / CRS; document 3 §2 /self-certification and
 * /self-certification-representative, §3 personal FATCA, TIN missing reasons, status fields, W-form
 * upload response, §5 tax rules, §6 the unauthorised representative; issue 18 items 2 and 4).
 *
 * ```
 * loading ─read─▶ deciding ─no answers saved yet─▶ questions.birth (prefilled from the profile)
 *                          ─answers saved─▶ status.unsigned | status.pending | status.validated | status.rejected
 *         ─401 (a representative's link no longer valid)─▶ unauthorised ; ─other failure─▶ loadFailed ─RETRY─▶ loading
 * questions: birth ─▶ citizenship ─▶ usStatus ─[born in the US, not a US citizen]▶ usAbsence ─▶ residences ─▶ review
 *                                             ─otherwise────────────────────────────────────▶ residences
 *            each step: its answers invalid ─▶ stays with the errors on the fields; BACK to the step before
 * review ─SAVE─▶ saving ─ok─▶ signing ─signUrls─▶ toSigning (the browser goes to the first sign URL)
 *                       ─VF on a field─▶ the step of that field ; ─otherwise─▶ saveFailed ─RETRY─▶ saving ; ─BACK─▶ review
 *                                        signing ─failed─▶ signFailed ─RETRY─▶ signing
 * status.unsigned / status.rejected ─SIGN─▶ signing ; status.* ─EDIT─▶ questions.birth (the saved answers)
 * status.* ─CLN.UPLOAD [the CLN asked, not uploaded or refused]─▶ uploadingCln ─answer or failure─▶ deciding
 * ```
 *
 * The rules are the contract's (api/tax-certification.ts): a US citizen is a US taxpayer; a US
 * taxpayer always has a US tax residence (withUsEntry, added when the answer is given and again
 * when the residences are submitted, so it cannot be removed while the answer is yes); the
 * explanation of a missing TIN is kept only for CANNOT_OBTAIN; the forms are W-9 or W-8BEN plus the
 * tax residency self-certification (personalForms); a person born in the US who renounced the
 * citizenship uploads the certificate of loss of nationality (needsLossOfNationalityCertificate).
 * Pure: the four calls are provided by the app (`loadCertification`, `saveCertification`,
 * `startSigning`, `uploadCln`); expected failures are `{ ok: false, code }`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type * as v from 'valibot';
import type { ValidationError } from '../../api/envelope.ts';
import { needsUsCitizenshipAbsenceReason, withUsEntry, type PersonalCertification, type PersonalCertificationAnswerSchema, type TaxFormKind } from '../../api/tax-certification.ts';
import type { DocumentState } from '../../api/verification.ts';
import {
  certificationOf,
  draftOf,
  residencesOf,
  stepOfField,
  validateAbsence,
  validateBirth,
  validateCitizenship,
  validateTaxIds,
  validateUsStatus,
  type AbsenceValues,
  type BirthValues,
  type FieldErrors,
  type PersonalDraft,
  type QuestionStep,
} from './personal-self-certification.rules.ts';

export type PersonalCertificationAnswer = v.InferOutput<typeof PersonalCertificationAnswerSchema>;

/** A call that did not succeed: no answer, the representative's link refused (401 AU), or the platform's refusal. */
export type CallFailure = { ok: false; code: 'network' } | { ok: false; code: 'auth' } | { ok: false; code: 'refused'; detail: string | null; errors?: readonly ValidationError[] };
export type LoadResult = { ok: true; answer: PersonalCertificationAnswer } | CallFailure;
export type SaveResult = { ok: true; answer: PersonalCertificationAnswer } | { ok: false; code: 'fields'; errors: ValidationError[] } | CallFailure;
export type SignResult = { ok: true; signUrls: string[] } | CallFailure;
export type UploadResult = { ok: true; answer: PersonalCertificationAnswer } | { ok: false; code: 'fields'; errors: ValidationError[] } | CallFailure;

export interface PersonalCertificationInput {
  /** yyyy-mm-dd: the birth date is checked against it */
  today: string;
}

export type PersonalCertificationEvent =
  | { type: 'BIRTH.SUBMIT'; values: BirthValues }
  | { type: 'CITIZENSHIP.SUBMIT'; citizenship: string[] }
  | { type: 'US.SUBMIT'; isUSTaxPayer: boolean | null }
  | { type: 'ABSENCE.SUBMIT'; values: AbsenceValues }
  | { type: 'RESIDENCES.SUBMIT'; taxIds: PersonalCertification['taxIds'] }
  | { type: 'SAVE' }
  | { type: 'SIGN' }
  | { type: 'EDIT' }
  | { type: 'BACK' }
  | { type: 'RETRY' }
  | { type: 'CLN.UPLOAD'; file: Blob };

export interface PersonalCertificationContext extends PersonalCertificationInput {
  /** the platform's last answer (Get or Update), null before the first */
  answer: PersonalCertificationAnswer | null;
  draft: PersonalDraft;
  fieldErrors: FieldErrors;
  /** why the last call failed (loadFailed, saveFailed, signFailed) */
  failure: CallFailure | null;
  /** why the certificate of loss of nationality was not taken (shown beside its upload) */
  clnFailure: CallFailure | null;
  /** where the browser goes to sign (toSigning) */
  signUrl: string | null;
}

/** The states of the forms a certification ends in, and of the CLN when it is asked. */
const FORM_STATUS_FIELD: Record<TaxFormKind, 'w9FormDocumentStatus' | 'w8BenFormDocumentStatus' | 'taxResidencySelfCertificationDocumentStatus' | null> = {
  w9: 'w9FormDocumentStatus',
  w8Ben: 'w8BenFormDocumentStatus',
  w8BenE: null,
  taxResidencySelfCertification: 'taxResidencySelfCertificationDocumentStatus',
};
export const formStatusOf = (a: PersonalCertificationAnswer, kind: TaxFormKind): DocumentState => {
  const field = FORM_STATUS_FIELD[kind];
  return field ? a[field] : 'none';
};
const UNSIGNED: readonly DocumentState[] = ['none', 'expired'];
const DONE: readonly DocumentState[] = ['validated', 'expiredSoon', 'notRequired'];

/** Where saved answers stand: some form to sign, one refused, some waiting for review, or all confirmed. */
export type CertificationStanding = 'notSaved' | 'unsigned' | 'rejected' | 'pending' | 'validated';
export function standingOf(a: PersonalCertificationAnswer): CertificationStanding {
  if (a.certification === null) return 'notSaved';
  const forms = a.requiredForms.map((k) => formStatusOf(a, k));
  const cln = a.certificateOfLossOfNationalityRequired ? a.certificateOfLossOfNationalityDocumentStatus : null;
  if (forms.includes('rejected') || cln === 'rejected') return 'rejected';
  if (forms.some((s) => UNSIGNED.includes(s))) return 'unsigned';
  if (forms.every((s) => DONE.includes(s)) && (cln === null || DONE.includes(cln))) return 'validated';
  // the forms are signed; they (or the CLN still to upload) wait
  return 'pending';
}

const refusedOn = (step: QuestionStep) => (_: unknown, r: SaveResult) => !r.ok && r.code === 'fields' && r.errors.some((e) => stepOfField(e.param) === step);
const failureOf = (r: LoadResult | SaveResult | SignResult | UploadResult): CallFailure =>
  r.ok ? { ok: false, code: 'refused', detail: null } : r.code === 'fields' ? { ok: false, code: 'refused', detail: null, errors: r.errors } : r;

export const personalSelfCertificationMachine = setup({
  types: {
    context: {} as PersonalCertificationContext,
    events: {} as PersonalCertificationEvent,
    input: {} as PersonalCertificationInput,
  },
  actors: {
    loadCertification: fromPromise<LoadResult>(async () => {
      throw new Error('loadCertification is provided by the app');
    }),
    saveCertification: fromPromise<SaveResult, PersonalCertification>(async () => {
      throw new Error('saveCertification is provided by the app');
    }),
    startSigning: fromPromise<SignResult>(async () => {
      throw new Error('startSigning is provided by the app');
    }),
    uploadCln: fromPromise<UploadResult, Blob>(async () => {
      throw new Error('uploadCln is provided by the app');
    }),
  },
  guards: {
    isBirthValid: ({ context }, values: BirthValues) => Object.keys(validateBirth(values, context.today)).length === 0,
    isCitizenshipValid: (_, citizenship: string[]) => Object.keys(validateCitizenship(citizenship)).length === 0,
    isUsStatusValid: ({ context }, isUSTaxPayer: boolean | null) => Object.keys(validateUsStatus(isUSTaxPayer, context.draft.citizenship)).length === 0,
    isUsStatusValidAskingWhy: ({ context }, isUSTaxPayer: boolean | null) =>
      Object.keys(validateUsStatus(isUSTaxPayer, context.draft.citizenship)).length === 0 && needsUsCitizenshipAbsenceReason(context.draft),
    /** born in the US and not a US citizen: why is asked (needsUsCitizenshipAbsenceReason) */
    asksAbsenceReason: ({ context }) => needsUsCitizenshipAbsenceReason(context.draft),
    isAbsenceValid: (_, values: AbsenceValues) => Object.keys(validateAbsence(values)).length === 0,
    areResidencesValid: ({ context }, taxIds: PersonalCertification['taxIds']) =>
      Object.keys(validateTaxIds(residencesOf(taxIds, context.draft.isUSTaxPayer === true))).length === 0,
    isUnauthorised: (_, r: LoadResult) => !r.ok && r.code === 'auth',
    isLoadFailed: (_, r: LoadResult) => !r.ok,
    standsAs: ({ context }, standing: CertificationStanding) => context.answer !== null && standingOf(context.answer) === standing,
    isClnUploaded: (_, r: UploadResult) => r.ok,
    isSaved: (_, r: SaveResult) => r.ok,
    isRefusedOnBirth: refusedOn('birth'),
    isRefusedOnCitizenship: refusedOn('citizenship'),
    isRefusedOnAbsence: refusedOn('usAbsence'),
    isRefusedOnResidences: refusedOn('residences'),
    /** the saved answers ask for the CLN and none is uploaded (or it was refused) */
    asksCln: ({ context }) =>
      context.answer !== null &&
      context.answer.certificateOfLossOfNationalityRequired &&
      ['none', 'expired', 'rejected'].includes(context.answer.certificateOfLossOfNationalityDocumentStatus),
    hasSignUrl: (_, r: SignResult) => r.ok && r.signUrls.length > 0,
  },
  actions: {
    storeLoaded: assign(({ context }, r: LoadResult) => {
      if (!r.ok) return { failure: r };
      return { answer: r.answer, failure: null, draft: draftOf(r.answer.certification, r.answer.prefill), fieldErrors: {} };
    }),
    storeBirth: assign(({ context }, values: BirthValues) => ({
      draft: { ...context.draft, ...values, cityOfBirth: values.cityOfBirth.trim() },
      fieldErrors: validateBirth(values, context.today),
    })),
    storeCitizenship: assign(({ context }, citizenship: string[]) => ({ draft: { ...context.draft, citizenship }, fieldErrors: validateCitizenship(citizenship) })),
    /** §5: a US taxpayer gets a US tax residence at once (withUsEntry) */
    storeUsStatus: assign(({ context }, isUSTaxPayer: boolean | null) => {
      const draft = { ...context.draft, isUSTaxPayer };
      return { draft: withUsEntry(draft, isUSTaxPayer === true), fieldErrors: validateUsStatus(isUSTaxPayer, context.draft.citizenship) };
    }),
    storeAbsence: assign(({ context }, values: AbsenceValues) => ({
      draft: { ...context.draft, usCitizenshipAbsenceReason: values.reason, usCitizenshipAbsenceExplanation: values.explanation },
      fieldErrors: validateAbsence(values),
    })),
    storeResidences: assign(({ context }, taxIds: PersonalCertification['taxIds']) => {
      const kept = residencesOf(taxIds, context.draft.isUSTaxPayer === true);
      return { draft: { ...context.draft, taxIds: kept }, fieldErrors: validateTaxIds(kept) };
    }),
    clearErrors: assign({ fieldErrors: {}, failure: null }),
    startCall: assign({ failure: null }),
    storeSaved: assign((_, r: SaveResult) => (r.ok ? { answer: r.answer, fieldErrors: {} } : {})),
    storeFieldErrors: assign((_, r: SaveResult) => (!r.ok && r.code === 'fields' ? { fieldErrors: Object.fromEntries(r.errors.map((e) => [e.param, e])) } : {})),
    storeFailure: assign((_, r: LoadResult | SaveResult | SignResult | UploadResult) => ({ failure: failureOf(r) })),
    storeNetworkFailure: assign({ failure: { ok: false, code: 'network' } as CallFailure }),
    storeUploaded: assign((_, r: UploadResult) => (r.ok ? { answer: r.answer, clnFailure: null } : { clnFailure: failureOf(r) })),
    storeClnNetworkFailure: assign({ clnFailure: { ok: false, code: 'network' } as CallFailure }),
    startClnUpload: assign({ clnFailure: null }),
    storeSignUrl: assign((_, r: SignResult) => (r.ok ? { signUrl: r.signUrls[0] ?? null } : {})),
    draftFromSaved: assign(({ context }) => ({ draft: draftOf(context.answer?.certification ?? null, context.answer?.prefill ?? null), fieldErrors: {}, failure: null })),
  },
}).createMachine({
  id: 'personalSelfCertification',
  description:
    'A person (a customer, or a company’s representative through a link) certifies where they were born, their citizenships, whether they are a US taxpayer and their tax residences with their tax numbers, then signs the W-9 or W-8BEN and the tax residency self-certification online.',
  meta: { spec: ['document 3 §2', 'document 3 §3', 'document 3 §5', 'document 3 §6', 'document 3 §7'] },
  context: ({ input }) => ({ ...input, answer: null, draft: draftOf(null, null), fieldErrors: {}, failure: null, clnFailure: null, signUrl: null }),
  initial: 'loading',
  states: {
    loading: {
      description: 'The person’s certification and its documents are read (personalFatcaCrsCertificationGet); the person waits.',
      meta: { spec: ['document 3 §2', 'document 3 §7'] },
      tags: ['busy'],
      entry: 'startCall',
      invoke: {
        id: 'loadCertification',
        src: 'loadCertification',
        onDone: [
          {
            guard: { type: 'isUnauthorised', params: ({ event }) => event.output },
            target: 'unauthorised',
            description: 'The platform does not know the caller (a representative’s link expired, revoked or not matching the e-mail): back to sign in.',
            meta: { spec: ['document 3 §2', 'document 3 §6'] },
          },
          {
            guard: { type: 'isLoadFailed', params: ({ event }) => event.output },
            target: 'loadFailed',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The platform refused to answer; the reason is kept to show.',
          },
          {
            target: 'deciding',
            actions: { type: 'storeLoaded', params: ({ event }) => event.output },
            description: 'The certification is read; where it stands decides the page.',
          },
        ],
        onError: { target: 'loadFailed', actions: 'storeNetworkFailure', description: 'No answer came; it reads as a network failure.' },
      },
    },
    deciding: {
      description: 'Where the read certification stands decides the page (passed through at once).',
      always: [
        {
          guard: { type: 'standsAs', params: 'notSaved' },
          target: 'questions',
          description: 'Nothing is certified yet: the questions start, prefilled from the profile (birth date, residence country and its tax id).',
        },
        { guard: { type: 'standsAs', params: 'unsigned' }, target: 'status.unsigned', description: 'The answers are saved but a form they end in is not signed yet.' },
        {
          guard: { type: 'standsAs', params: 'rejected' },
          target: 'status.rejected',
          description: 'The administrator refused a signed form or the certificate of loss of nationality.',
        },
        {
          guard: { type: 'standsAs', params: 'pending' },
          target: 'status.pending',
          description: 'The forms are signed and wait for the administrator’s review (or the certificate of loss of nationality is still to upload).',
        },
        { target: 'status.validated', description: 'Every form (and the certificate when asked) is confirmed.' },
      ],
    },
    loadFailed: {
      description: 'The certification could not be read; the person can try again.',
      on: { RETRY: { target: 'loading', description: 'The person asks for the certification again.' } },
    },
    unauthorised: {
      type: 'final',
      description: 'The caller is not known (the representative’s link no longer valid); the view goes to sign in with a message.',
      meta: { spec: ['document 3 §2'] },
    },
    questions: {
      description: 'The person answers the questions one step at a time; each step’s answers are checked before the next.',
      meta: { spec: ['document 3 §3'] },
      initial: 'birth',
      states: {
        birth: {
          description: 'Where and when the person was born (city, country from the birth countries, date).',
          meta: { spec: ['document 3 §3'] },
          on: {
            'BIRTH.SUBMIT': [
              {
                guard: { type: 'isBirthValid', params: ({ event }) => event.values },
                target: 'citizenship',
                actions: { type: 'storeBirth', params: ({ event }) => event.values },
                description: 'City, country and date are given and the date is a real past date: on to the citizenships.',
              },
              {
                actions: { type: 'storeBirth', params: ({ event }) => event.values },
                description: 'A birth field is missing or wrong; the errors are shown on it and the step stays.',
              },
            ],
          },
        },
        citizenship: {
          description: 'The countries the person is a citizen of (one to five).',
          meta: { spec: ['document 3 §3'] },
          on: {
            'CITIZENSHIP.SUBMIT': [
              {
                guard: { type: 'isCitizenshipValid', params: ({ event }) => event.citizenship },
                target: 'usStatus',
                actions: { type: 'storeCitizenship', params: ({ event }) => event.citizenship },
                description: 'At least one citizenship, none twice: on to the US tax status.',
              },
              {
                actions: { type: 'storeCitizenship', params: ({ event }) => event.citizenship },
                description: 'No citizenship, or one given twice; the error is shown and the step stays.',
              },
            ],
            BACK: { target: 'birth', actions: 'clearErrors', description: 'The person goes back to the birth details.' },
          },
        },
        usStatus: {
          description: 'Whether the person is a US taxpayer (a US citizen or US tax resident); a US citizen is one.',
          meta: { spec: ['document 3 §3', 'document 3 §5'] },
          on: {
            'US.SUBMIT': [
              {
                guard: { type: 'isUsStatusValidAskingWhy', params: ({ event }) => event.isUSTaxPayer },
                target: 'usAbsence',
                actions: { type: 'storeUsStatus', params: ({ event }) => event.isUSTaxPayer },
                description: 'Answered, and the person was born in the US without being a US citizen: why is asked next.',
                meta: { spec: ['document 3 §3'] },
              },
              {
                guard: { type: 'isUsStatusValid', params: ({ event }) => event.isUSTaxPayer },
                target: 'residences',
                actions: { type: 'storeUsStatus', params: ({ event }) => event.isUSTaxPayer },
                description: 'Answered: on to the tax residences (a US taxpayer’s US residence is added at once).',
                meta: { spec: ['document 3 §5'] },
              },
              {
                actions: { type: 'storeUsStatus', params: ({ event }) => event.isUSTaxPayer },
                description: 'Not answered, or "no" from a US citizen; the error is shown and the step stays.',
              },
            ],
            BACK: { target: 'citizenship', actions: 'clearErrors', description: 'The person goes back to the citizenships.' },
          },
        },
        usAbsence: {
          description:
            'Born in the US but not a US citizen: the person says why (renounced, then the certificate of loss of nationality is asked; or not a citizen at birth, with an explanation).',
          meta: { spec: ['document 3 §3'] },
          on: {
            'ABSENCE.SUBMIT': [
              {
                guard: { type: 'isAbsenceValid', params: ({ event }) => event.values },
                target: 'residences',
                actions: { type: 'storeAbsence', params: ({ event }) => event.values },
                description: 'A reason is chosen (with its explanation when not a citizen at birth): on to the tax residences.',
              },
              {
                actions: { type: 'storeAbsence', params: ({ event }) => event.values },
                description: 'No reason, or no explanation where one is needed; the error is shown and the step stays.',
              },
            ],
            BACK: { target: 'usStatus', actions: 'clearErrors', description: 'The person goes back to the US tax status.' },
          },
        },
        residences: {
          description: 'The countries where the person is resident for tax, each with its tax number or why there is none.',
          meta: { spec: ['document 3 §3', 'document 3 §5'] },
          on: {
            'RESIDENCES.SUBMIT': [
              {
                guard: { type: 'areResidencesValid', params: ({ event }) => event.taxIds },
                target: 'review',
                actions: { type: 'storeResidences', params: ({ event }) => event.taxIds },
                description: 'Every residence has a valid tax number or an allowed reason (a US taxpayer’s US residence kept): on to the review.',
                meta: { spec: ['document 3 §5'] },
              },
              {
                actions: { type: 'storeResidences', params: ({ event }) => event.taxIds },
                description: 'A residence lacks its country, its tax number fails the country’s check, or its reason is missing or not allowed; the errors are shown.',
                meta: { spec: ['document 3 §5'] },
              },
            ],
            BACK: [
              { guard: 'asksAbsenceReason', target: 'usAbsence', actions: 'clearErrors', description: 'The person goes back to why they are not a US citizen.' },
              { target: 'usStatus', actions: 'clearErrors', description: 'The person goes back to the US tax status.' },
            ],
          },
        },
        review: {
          description:
            'The person reads the answers and which forms they end in (W-9 or W-8BEN, the tax residency self-certification, the certificate of loss of nationality when asked) before saving.',
          meta: { spec: ['document 3 §3'] },
          on: {
            SAVE: { target: '#personalSelfCertification.saving', description: 'The person saves the answers (personalFatcaCrsCertificationUpdate); the signing follows.' },
            BACK: { target: 'residences', description: 'The person goes back to the tax residences.' },
          },
        },
      },
    },
    saving: {
      description: 'The answers are being saved; the person waits.',
      meta: { spec: ['document 3 §7'] },
      tags: ['busy'],
      entry: 'startCall',
      invoke: {
        id: 'saveCertification',
        src: 'saveCertification',
        input: ({ context }) => certificationOf(context.draft),
        onDone: [
          {
            guard: { type: 'isSaved', params: ({ event }) => event.output },
            target: 'signing',
            actions: { type: 'storeSaved', params: ({ event }) => event.output },
            description: 'The platform holds the answers; the forms are prepared for signing.',
          },
          {
            guard: { type: 'isRefusedOnBirth', params: ({ event }) => event.output },
            target: 'questions.birth',
            actions: { type: 'storeFieldErrors', params: ({ event }) => event.output },
            description: 'The platform refused a birth field; the person is taken back there with its words on the field.',
          },
          {
            guard: { type: 'isRefusedOnCitizenship', params: ({ event }) => event.output },
            target: 'questions.citizenship',
            actions: { type: 'storeFieldErrors', params: ({ event }) => event.output },
            description: 'The platform refused a citizenship; the person is taken back there with its words on the field.',
          },
          {
            guard: { type: 'isRefusedOnAbsence', params: ({ event }) => event.output },
            target: 'questions.usAbsence',
            actions: { type: 'storeFieldErrors', params: ({ event }) => event.output },
            description: 'The platform refused the reason for not being a US citizen; the person is taken back there.',
          },
          {
            guard: { type: 'isRefusedOnResidences', params: ({ event }) => event.output },
            target: 'questions.residences',
            actions: { type: 'storeFieldErrors', params: ({ event }) => event.output },
            description: 'The platform refused a tax residence (e.g. a tax number its check refuses); the person is taken back there with its words on the field.',
          },
          {
            target: 'saveFailed',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The platform refused the answers for a reason tied to no step, or was not reached; the reason is kept to show.',
          },
        ],
        onError: { target: 'saveFailed', actions: 'storeNetworkFailure', description: 'No answer came; it reads as a network failure.' },
      },
    },
    saveFailed: {
      description: 'The answers were not saved; the person can try again or go back to the review.',
      on: {
        RETRY: { target: 'saving', description: 'The person sends the same answers again.' },
        BACK: { target: 'questions.review', actions: 'clearErrors', description: 'The person goes back to the review; the failure is forgotten.' },
      },
    },
    signing: {
      description: 'The forms are filled from the saved answers and a signing envelope is opened (personalWFormUpload); the person waits.',
      meta: { spec: ['document 3 §3', 'document 3 §7'] },
      tags: ['busy'],
      entry: 'startCall',
      invoke: {
        id: 'startSigning',
        src: 'startSigning',
        onDone: [
          {
            guard: { type: 'hasSignUrl', params: ({ event }) => event.output },
            target: 'toSigning',
            actions: { type: 'storeSignUrl', params: ({ event }) => event.output },
            description: 'The envelope is open: the person is sent to its first signing page.',
            meta: { spec: ['document 3 §3'] },
          },
          {
            target: 'signFailed',
            actions: { type: 'storeFailure', params: ({ event }) => event.output },
            description: 'The platform refused to open the envelope (or gave no signing page); the reason is kept to show.',
          },
        ],
        onError: { target: 'signFailed', actions: 'storeNetworkFailure', description: 'No answer came; it reads as a network failure.' },
      },
    },
    signFailed: {
      description: 'The answers are saved but the signing could not start; the person can try again (or come back later: the page then offers the signing).',
      on: { RETRY: { target: 'signing', description: 'The person asks for the signing again.' } },
    },
    toSigning: {
      type: 'final',
      description: 'The browser goes to the signing page of the first form; it comes back to this page when done.',
      meta: { spec: ['document 3 §3'] },
    },
    uploadingCln: {
      description: 'The certificate of loss of nationality is being uploaded (personalLossOfNationalityCertificateUpload); the person waits.',
      meta: { spec: ['document 3 §3', 'document 3 §6'] },
      tags: ['busy'],
      entry: 'startClnUpload',
      invoke: {
        id: 'uploadCln',
        src: 'uploadCln',
        input: ({ event }) => (event as Extract<PersonalCertificationEvent, { type: 'CLN.UPLOAD' }>).file,
        onDone: [
          {
            guard: { type: 'isClnUploaded', params: ({ event }) => event.output },
            target: 'deciding',
            actions: { type: 'storeUploaded', params: ({ event }) => event.output },
            description: 'The platform holds the certificate (pending review); the page says where the certification stands now.',
          },
          {
            target: 'deciding',
            actions: { type: 'storeUploaded', params: ({ event }) => event.output },
            description: 'The platform refused the file (type, size) or the upload; the reason is shown beside the upload.',
          },
        ],
        onError: { target: 'deciding', actions: 'storeClnNetworkFailure', description: 'No answer came; it reads as a network failure beside the upload.' },
      },
    },
    status: {
      description: 'The answers are saved; the page says where the forms stand.',
      meta: { spec: ['document 3 §3', 'document 3 §5'] },
      // entered only at a child (deciding, uploadingCln); the initial one is never taken
      initial: 'unsigned',
      on: {
        EDIT: {
          target: '#personalSelfCertification.questions.birth',
          actions: 'draftFromSaved',
          description: 'The person changes the answers (the forms are then asked again), starting from the saved ones.',
        },
        'CLN.UPLOAD': {
          guard: 'asksCln',
          target: '#personalSelfCertification.uploadingCln',
          description: 'The person uploads the certificate of loss of nationality (asked and not yet uploaded, or refused).',
          meta: { spec: ['document 3 §3', 'document 3 §6'] },
        },
      },
      states: {
        unsigned: {
          description: 'A form the answers end in is not signed yet.',
          on: { SIGN: { target: '#personalSelfCertification.signing', description: 'The person signs the forms now.' } },
        },
        rejected: {
          description: 'The administrator refused a form or the certificate; the person signs again, uploads the certificate again or changes the answers.',
          on: { SIGN: { target: '#personalSelfCertification.signing', description: 'The person signs the forms again.' } },
        },
        pending: {
          description: 'The signed forms wait for the review; the certificate of loss of nationality is asked when it is still to upload.',
        },
        validated: { description: 'The certification is confirmed.' },
      },
    },
  },
});

export type PersonalSelfCertificationMachine = typeof personalSelfCertificationMachine;
