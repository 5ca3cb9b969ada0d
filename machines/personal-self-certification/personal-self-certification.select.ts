/** Snapshot -> view facts for the personal self-certification (machines/personal-self-certification). */
import type { SnapshotFrom } from 'xstate';
import { needsLossOfNationalityCertificate, needsUsCitizenshipAbsenceReason, personalForms, type TaxFormKind } from '../../api/tax-certification.ts';
import type { DocumentState } from '../../api/verification.ts';
import { formStatusOf, standingOf, type PersonalSelfCertificationMachine } from './personal-self-certification.machine.ts';

export type PersonalCertificationSnapshot = SnapshotFrom<PersonalSelfCertificationMachine>;
export type PersonalCertificationStep =
  | 'loading'
  | 'loadFailed'
  | 'unauthorised'
  | 'birth'
  | 'citizenship'
  | 'usStatus'
  | 'usAbsence'
  | 'residences'
  | 'review'
  | 'saveFailed'
  | 'signing'
  | 'signFailed'
  | 'toSigning'
  | 'unsigned'
  | 'rejected'
  | 'pending'
  | 'validated';

const QUESTION_STEPS = ['birth', 'citizenship', 'usStatus', 'usAbsence', 'residences', 'review'] as const;
const STATUS_STEPS = ['unsigned', 'rejected', 'pending', 'validated'] as const;

export function selectPersonalCertificationStep(s: PersonalCertificationSnapshot): PersonalCertificationStep {
  for (const q of QUESTION_STEPS) if (s.matches({ questions: q })) return q;
  for (const st of STATUS_STEPS) if (s.matches({ status: st })) return st;
  // saving shows the review with its button busy; signing has a page of its own (it starts from the review or the status page)
  if (s.matches('saving')) return 'review';
  if (s.matches('signing')) return 'signing';
  // the upload shows the status page it started from, its button busy
  if (s.matches('uploadingCln') && s.context.answer) {
    const standing = standingOf(s.context.answer);
    if (standing !== 'notSaved') return standing;
  }
  if (s.matches('saveFailed')) return 'saveFailed';
  if (s.matches('signFailed')) return 'signFailed';
  if (s.matches('toSigning')) return 'toSigning';
  if (s.matches('unauthorised')) return 'unauthorised';
  if (s.matches('loadFailed')) return 'loadFailed';
  return 'loading';
}

/** The forms the current answers end in (the draft's while answering, the saved ones after). */
export interface FormFact {
  kind: TaxFormKind | 'certificateOfLossOfNationality';
  status: DocumentState | null;
}

export function selectPersonalCertificationView(s: PersonalCertificationSnapshot) {
  const c = s.context;
  const step = selectPersonalCertificationStep(s);
  const isUSTaxPayer = c.draft.isUSTaxPayer === true;
  const answers = { ...c.draft, isUSTaxPayer };
  const a = c.answer;
  const forms: FormFact[] = personalForms(answers).map((kind) => ({ kind, status: null }));
  const clnAsked = needsLossOfNationalityCertificate(answers);
  if (clnAsked) forms.push({ kind: 'certificateOfLossOfNationality', status: null });
  // the saved answers' forms with their states (the status pages)
  const savedForms: FormFact[] = a
    ? [
        ...a.requiredForms.map((kind) => ({ kind, status: formStatusOf(a, kind) })),
        ...(a.certificateOfLossOfNationalityRequired ? [{ kind: 'certificateOfLossOfNationality' as const, status: a.certificateOfLossOfNationalityDocumentStatus }] : []),
      ]
    : [];
  return {
    step,
    busy: s.hasTag('busy'),
    saving: s.matches('saving'),
    signing: s.matches('signing'),
    uploadingCln: s.matches('uploadingCln'),
    clnFailure: c.clnFailure,
    draft: c.draft,
    fieldErrors: c.fieldErrors,
    failure: c.failure,
    signUrl: c.signUrl,
    asksAbsenceReason: needsUsCitizenshipAbsenceReason(c.draft),
    forms,
    savedForms,
    /** the CLN is asked and not uploaded yet (or refused): the page links to the upload */
    clnToUpload: a !== null && a.certificateOfLossOfNationalityRequired && ['none', 'expired', 'rejected'].includes(a.certificateOfLossOfNationalityDocumentStatus),
    updatedAt: a?.updatedAt ?? null,
    canBack: s.can({ type: 'BACK' }),
    canCancel: false,
  };
}

export type PersonalCertificationView = ReturnType<typeof selectPersonalCertificationView>;
