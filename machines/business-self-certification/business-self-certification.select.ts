/** Snapshot -> view facts for /self-certification-business (machines/business-self-certification). */
import type { SnapshotFrom } from 'xstate';
import type { ValidationError } from '../../api/envelope.ts';
import type { TaxFormKind } from '../../api/tax-certification.ts';
import type { DocumentState } from '../../api/verification.ts';
import {
  QUESTION_STEPS,
  asksGiin,
  formState,
  formsOf,
  isPassive,
  problemsOf,
  type BusinessSelfCertificationContext,
  type BusinessSelfCertificationMachine,
  type Problem,
  type QuestionStep,
} from './business-self-certification.machine.ts';

export type BusinessSelfCertificationSnapshot = SnapshotFrom<BusinessSelfCertificationMachine>;
export type CertificationStep =
  'loading' | 'loadFailed' | 'notStarted' | 'unsigned' | 'pendingReview' | 'validated' | 'rejected' | 'saving' | 'signing' | 'signingOpened' | QuestionStep;

export function selectStep(s: BusinessSelfCertificationSnapshot): CertificationStep {
  for (const step of QUESTION_STEPS) if (s.matches({ answering: step })) return step;
  for (const step of ['loading', 'loadFailed', 'notStarted', 'unsigned', 'pendingReview', 'validated', 'rejected', 'saving', 'signing', 'signingOpened'] as const)
    if (s.matches(step)) return step;
  return 'loading';
}

/** The progress steps of the answers' branch (the entity's questions as one "Entity" step). */
export type ProgressId = 'company' | 'entity' | 'usStatus' | 'addresses' | 'taxIds' | 'controllingPersons' | 'review';
export function progressOf(step: CertificationStep): ProgressId | null {
  if (step === 'company' || step === 'usStatus' || step === 'addresses' || step === 'taxIds' || step === 'controllingPersons' || step === 'review') return step;
  if (step === 'entityType' || step === 'financialInstitution' || step === 'investment' || step === 'publiclyTraded' || step === 'relatedCompany' || step === 'passiveIncome')
    return 'entity';
  if (step === 'saving') return 'review';
  return null;
}

export interface CertificationView {
  step: CertificationStep;
  busy: boolean;
  ctx: BusinessSelfCertificationContext;
  /** the current step's problems, shown once the user tried to continue */
  problems: Record<string, Problem>;
  errors: ValidationError[];
  passive: boolean;
  asksGiin: boolean;
  /** the forms the answers end in */
  forms: TaxFormKind[];
  /** the forms on record with their states (the status pages) */
  documents: { kind: TaxFormKind; state: DocumentState; url: string | null }[];
  canEdit: boolean;
  canSign: boolean;
  canBack: boolean;
}

export function selectView(s: BusinessSelfCertificationSnapshot): CertificationView {
  const step = selectStep(s);
  const c = s.context;
  const question = (QUESTION_STEPS as readonly string[]).includes(step) ? (step as QuestionStep) : null;
  const answer = c.answer;
  return {
    step,
    busy: s.hasTag('busy'),
    ctx: c,
    problems: question && c.missing ? problemsOf(question, c.answers, c.people, c.addresses) : {},
    errors: c.errors,
    passive: isPassive(c.answers),
    asksGiin: asksGiin(c.answers),
    forms: formsOf(c.answers),
    // nothing saved yet: no form to speak of
    documents: answer?.certification
      ? answer.requiredForms.map((kind) => ({ kind, state: formState(answer, kind), url: answer.documents.find((d) => d.kind === kind)?.url ?? null }))
      : [],
    canEdit: s.can({ type: 'EDIT' }),
    canSign: s.can({ type: 'SIGN' }),
    canBack: s.can({ type: 'STEP.BACK' }),
  };
}

/** The platform's errors on a field (its param, or a param under it). */
export const errorsOn = (errors: readonly ValidationError[], param: string): ValidationError[] => errors.filter((e) => e.param === param);

/** The params the form shows on a field of their own (any other platform error is listed above the step's form). */
const FIELD_PARAMS =
  /^(name|registrationCountryCode|entityType|giin|giinMissingReason|isUsingClientFunds|isManagedByFinancialInstitution|isPubliclyTraded|companySecurityMarket|companyTicket|isOwnPubliclyTradedCompany|companyOwnedByYou\.(market|name|ticket)|isEarnPassiveIncome|isUSTaxPayer|isDisregardedEntity|placeOfBusinessAddressId|registeredAddressId|taxIds|taxIds\.\d+\.(countryCode|taxId|tinMissingReason|tinMissingExplanation)|controllingPersons|controllingPersons\.\d+\.taxResidenceCountryCode)$/;
export const isShownOnField = (param: string): boolean => FIELD_PARAMS.test(param);
