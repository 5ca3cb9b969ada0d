/**
 * The company's FATCA/CRS self-certification (document 3 §2 /self-certification-business, §3
 * FATCA/CRS company certification and the TIN missing reasons, §5 Tax; api/tax-certification.ts):
 * the questions branch on the earlier answers, the answers are saved
 * (businessFatcaCrsCertificationUpdate) and the forms they end in (W-9 or W-8BEN-E, and the tax
 * residency self-certification) are signed on the signing page (businessWFormUpload answers
 * signData; the browser goes to its first sign URL). Coming back, the certification's state is
 * read again (businessFatcaCrsCertificationGet): pending review, validated or rejected.
 *
 * ```
 * loading ─new, may manage─▶ answering.company · ─new, may not─▶ notStarted · ─saved─▶ unsigned | pendingReview | validated | rejected
 *    └─failed─▶ loadFailed ─LOAD.RETRY─▶ loading
 * answering: company ─▶ entityType ─financial institution─▶ financialInstitution (GIIN or why not; client funds) ─▶ usStatus
 *                                  ─investment─▶ investment ─managed by an FI─▶ financialInstitution · ─not managed (passive)─▶ usStatus
 *                                  ─general─▶ publiclyTraded ─yes (market, ticker)─▶ usStatus · ─no─▶ relatedCompany
 *                                             relatedCompany ─yes (market, name, ticker)─▶ usStatus · ─no─▶ passiveIncome ─▶ usStatus
 *            usStatus ─▶ addresses ─▶ taxIds (a US taxpayer gets a US entry) ─passive─▶ controllingPersons ─▶ review · ─else─▶ review
 *            review ─SUBMIT─▶ saving ─ok─▶ signing ─ok (the browser goes to the signing page)─▶ signingOpened
 *                             saving ─VF─▶ the step of the first refused field (errors on the fields) · ─refused, no answer─▶ review
 *                             signing ─refused, no answer─▶ unsigned (SIGN again)
 * unsigned, rejected ─SIGN─▶ signing · unsigned, rejected, validated ─EDIT─▶ answering.company (a user with full rights only)
 * ```
 *
 * Pure: the calls are the actors the app provides (src/features/tax/business-actors.ts), the
 * browser's move to the signing page the `openSigning` action it provides; no strings (the view
 * words the problems). Decisions where the spec is silent:
 * - Only a user who may 'manage' the company (full rights 2, or the owner) saves and signs (the
 *   methods need it, api/rights.ts); anyone else sees the state read-only.
 * - A pending certification is not changed until it is reviewed (no EDIT there): the
 *   administrator reviews the forms signed for the answers on record.
 * - The controlling persons are the company's shareholders and directors who are persons (the
 *   CRS controlling persons are natural persons); each needs a tax residence country.
 * - The tax numbers' names, required flags and format checks are the table of api/tax-numbers.ts
 *   (the module dictionaryTaxNumbers serves), imported as the registration does.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Address } from '../../api/profile.ts';
import type { Failure, ValidationError } from '../../api/envelope.ts';
import type * as v from 'valibot';
import {
  GIIN_PATTERN,
  businessForms,
  isFinancialInstitution,
  isPassiveEntity,
  normaliseTaxIdEntry,
  withUsEntry,
  type BusinessCertification,
  type BusinessCertificationAnswerSchema,
  type EntityType,
  type GiinMissingReason,
  type SignData,
  type TaxFormKind,
  type TinMissingReason,
} from '../../api/tax-certification.ts';
import { checkTaxNumber, normaliseTaxNumber, taxNumberEntry } from '../../api/tax-numbers.ts';
import type { DocumentState } from '../../api/verification.ts';

export type BusinessCertificationAnswer = v.InferOutput<typeof BusinessCertificationAnswerSchema>;

/** A company address to choose from (businessInfoGet). */
export type CompanyAddressOption = Pick<Address, 'addressId' | 'address1' | 'address2' | 'city' | 'postalCode' | 'countryCode'>;
/** A shareholder or director who is a person (businessShareholderList, businessDirectorList). */
export interface PersonOption {
  representativeId: number;
  name: string;
  roles: ('director' | 'shareholder')[];
  /** the country the person's first address is in (a first guess of the tax residence), or '' */
  countryCode: string;
}

/**
 * One tax residence as the form holds it: the shared tax-residence list's row
 * (src/features/tax/tax-residences-field.tsx TaxResidenceRow, the same shape): the number, or
 * `noTin` and then why (and the explanation for CANNOT_OBTAIN).
 */
export interface TaxIdDraft {
  countryCode: string;
  taxId: string;
  noTin: boolean;
  reason: TinMissingReason | '';
  explanation: string;
}

/** The answers as the form holds them (null: not answered yet). */
export interface BusinessAnswers {
  name: string;
  registrationCountryCode: string;
  entityType: EntityType | null;
  giin: string;
  giinMissingReason: GiinMissingReason | null;
  isUsingClientFunds: boolean | null;
  isManagedByFinancialInstitution: boolean | null;
  isPubliclyTraded: boolean | null;
  companySecurityMarket: string;
  companyTicket: string;
  isOwnPubliclyTradedCompany: boolean | null;
  ownedMarket: string;
  ownedName: string;
  ownedTicket: string;
  isEarnPassiveIncome: boolean | null;
  isUSTaxPayer: boolean | null;
  isDisregardedEntity: boolean | null;
  placeOfBusinessAddressId: number | null;
  registeredAddressId: number | null;
  taxIds: TaxIdDraft[];
  controllingPersons: { representativeId: number; taxResidenceCountryCode: string }[];
}
/** The answers' simple fields (ANSWER's patch). */
export type ScalarAnswers = Omit<BusinessAnswers, 'taxIds' | 'controllingPersons'>;

export type QuestionStep =
  | 'company'
  | 'entityType'
  | 'financialInstitution'
  | 'investment'
  | 'publiclyTraded'
  | 'relatedCompany'
  | 'passiveIncome'
  | 'usStatus'
  | 'addresses'
  | 'taxIds'
  | 'controllingPersons'
  | 'review';
export const QUESTION_STEPS: readonly QuestionStep[] = [
  'company',
  'entityType',
  'financialInstitution',
  'investment',
  'publiclyTraded',
  'relatedCompany',
  'passiveIncome',
  'usStatus',
  'addresses',
  'taxIds',
  'controllingPersons',
  'review',
];

/** Where the certification stands, from the Get answer. */
export type CertificationState = 'new' | 'unsigned' | 'pendingReview' | 'validated' | 'rejected';

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
export type LoadResult =
  { ok: true; answer: BusinessCertificationAnswer; addresses: CompanyAddressOption[]; people: PersonOption[]; countries: { code: string; name: string }[] } | Refusal;
export type SaveResult = { ok: true; answer: BusinessCertificationAnswer } | { ok: false; code: 'fields'; errors: ValidationError[] } | Refusal;
export type SignResult = { ok: true; signData: SignData } | Refusal;

export type BusinessSelfCertificationEvent =
  | { type: 'LOAD.RETRY' }
  | { type: 'ANSWER'; patch: Partial<ScalarAnswers> }
  /** the tax residences as the list field changed them (a row added, changed or removed) */
  | { type: 'TAX_IDS.CHANGE'; taxIds: TaxIdDraft[] }
  | { type: 'PERSON.TOGGLE'; representativeId: number }
  | { type: 'PERSON.COUNTRY'; representativeId: number; countryCode: string }
  | { type: 'STEP.CONTINUE' }
  | { type: 'STEP.BACK' }
  | { type: 'SUBMIT' }
  | { type: 'SIGN' }
  | { type: 'EDIT' };

export interface BusinessSelfCertificationInput {
  /** the user may save and sign (api/rights.ts 'manage': full rights 2, or the owner) */
  canManage: boolean;
}

export interface BusinessSelfCertificationContext {
  canManage: boolean;
  answer: BusinessCertificationAnswer | null;
  addresses: CompanyAddressOption[];
  people: PersonOption[];
  countries: { code: string; name: string }[];
  answers: BusinessAnswers;
  /** the customer tried to continue with something missing or wrong (the step's problems shown) */
  missing: boolean;
  /** the platform's validation errors of the last save, by param */
  errors: ValidationError[];
  /** a refusal (or no answer: network) shown over the review or the unsigned state */
  failure: Refusal | null;
  loadFailure: Refusal | null;
  signUrl: string | null;
}

/** The most tax residences a certification takes (api/tax-certification.ts). */
export const MAX_TAX_IDS = 10;
export const MAX_CONTROLLING_PERSONS = 20;

const emptyTaxId = (countryCode = ''): TaxIdDraft => ({ countryCode, taxId: '', noTin: false, reason: '', explanation: '' });

export const emptyAnswers = (): BusinessAnswers => ({
  name: '',
  registrationCountryCode: '',
  entityType: null,
  giin: '',
  giinMissingReason: null,
  isUsingClientFunds: null,
  isManagedByFinancialInstitution: null,
  isPubliclyTraded: null,
  companySecurityMarket: '',
  companyTicket: '',
  isOwnPubliclyTradedCompany: null,
  ownedMarket: '',
  ownedName: '',
  ownedTicket: '',
  isEarnPassiveIncome: null,
  isUSTaxPayer: null,
  isDisregardedEntity: null,
  placeOfBusinessAddressId: null,
  registeredAddressId: null,
  taxIds: [],
  controllingPersons: [],
});

/** The form from the Get answer: the saved answers, or the company's prefill (name, country, its tax number). */
export function answersOf(answer: BusinessCertificationAnswer, addresses: readonly CompanyAddressOption[]): BusinessAnswers {
  const c = answer.certification;
  if (!c) {
    const country = answer.prefill.registrationCountryCode ?? '';
    const only = addresses.length === 1 ? addresses[0]!.addressId : null;
    return {
      ...emptyAnswers(),
      name: answer.prefill.name,
      registrationCountryCode: country,
      placeOfBusinessAddressId: only,
      registeredAddressId: only,
      taxIds: country ? [{ ...emptyTaxId(country), taxId: answer.prefill.taxId ?? '' }] : [],
    };
  }
  return {
    name: c.name,
    registrationCountryCode: c.registrationCountryCode,
    entityType: c.entityType,
    giin: c.giin ?? '',
    giinMissingReason: c.giinMissingReason ?? null,
    isUsingClientFunds: c.isUsingClientFunds ?? null,
    isManagedByFinancialInstitution: c.isManagedByFinancialInstitution ?? null,
    isPubliclyTraded: c.isPubliclyTraded ?? null,
    companySecurityMarket: c.companySecurityMarket ?? '',
    companyTicket: c.companyTicket ?? '',
    isOwnPubliclyTradedCompany: c.isOwnPubliclyTradedCompany ?? null,
    ownedMarket: c.companyOwnedByYou?.market ?? '',
    ownedName: c.companyOwnedByYou?.name ?? '',
    ownedTicket: c.companyOwnedByYou?.ticket ?? '',
    isEarnPassiveIncome: c.isEarnPassiveIncome ?? null,
    isUSTaxPayer: c.isUSTaxPayer,
    isDisregardedEntity: c.isDisregardedEntity,
    placeOfBusinessAddressId: c.placeOfBusinessAddressId,
    registeredAddressId: c.registeredAddressId,
    taxIds: c.taxIds.map((t) => ({
      countryCode: t.countryCode,
      taxId: t.taxId ?? '',
      noTin: !t.taxId && t.tinMissingReason !== null,
      reason: t.tinMissingReason ?? '',
      explanation: t.tinMissingExplanation ?? '',
    })),
    controllingPersons: c.controllingPersons.map((p) => ({ representativeId: p.representativeId, taxResidenceCountryCode: p.taxResidenceCountryCode })),
  };
}

/* ------------------------------------------------------------------------------------ the rules */

/** The answers as the contract's rules read them. */
const ruleView = (a: BusinessAnswers) => ({
  entityType: a.entityType ?? 'general',
  isManagedByFinancialInstitution: a.isManagedByFinancialInstitution,
  isPubliclyTraded: a.isPubliclyTraded,
  isOwnPubliclyTradedCompany: a.isOwnPubliclyTradedCompany,
  isEarnPassiveIncome: a.isEarnPassiveIncome,
});
/** Asked a GIIN: a financial institution, or an investment entity managed by one. */
export const asksGiin = (a: BusinessAnswers): boolean => a.entityType !== null && isFinancialInstitution(ruleView(a));
/** A passive entity: its controlling persons are asked. */
export const isPassive = (a: BusinessAnswers): boolean => a.entityType !== null && isPassiveEntity(ruleView(a));
/** General entity: publicly traded itself. */
export const isTraded = (a: BusinessAnswers): boolean => a.entityType === 'general' && a.isPubliclyTraded === true;
/** General entity, not traded: a related entity of a publicly traded company. */
export const isRelated = (a: BusinessAnswers): boolean => a.entityType === 'general' && a.isPubliclyTraded === false && a.isOwnPubliclyTradedCompany === true;

/** The step that asked the entity's last question (what BACK from the US status returns to). */
export function lastEntityStep(a: BusinessAnswers): QuestionStep {
  if (asksGiin(a)) return 'financialInstitution';
  if (a.entityType === 'investment') return 'investment';
  if (isTraded(a)) return 'publiclyTraded';
  if (isRelated(a)) return 'relatedCompany';
  return 'passiveIncome';
}

/** What is wrong with a step's answers (the view words each): field key -> problem. */
export type Problem = 'required' | 'giinFormat' | 'taxIdFormat' | 'taxIdCheckDigit' | 'duplicateCountry' | 'noPerson' | 'usEntryRequired';
export type Problems = Record<string, Problem>;

const blank = (s: string) => s.trim() === '';

/** A tax residence's problems, keyed as the platform's params (taxIds.<i>.<field>). */
function taxIdProblems(a: BusinessAnswers): Problems {
  const out: Problems = {};
  if (a.taxIds.length === 0) out['taxIds'] = 'required';
  const seen = new Set<string>();
  a.taxIds.forEach((t, i) => {
    const at = `taxIds.${i}`;
    if (blank(t.countryCode)) {
      out[`${at}.countryCode`] = 'required';
      return;
    }
    if (seen.has(t.countryCode)) out[`${at}.countryCode`] = 'duplicateCountry';
    seen.add(t.countryCode);
    if (t.noTin) {
      // no number: why (§3 TIN missing reasons), the explanation only for CANNOT_OBTAIN (§5)
      if (t.reason === '') out[`${at}.tinMissingReason`] = 'required';
      if (t.reason === 'CANNOT_OBTAIN' && blank(t.explanation)) out[`${at}.tinMissingExplanation`] = 'required';
      return;
    }
    if (!blank(t.taxId)) {
      if (taxNumberEntry(t.countryCode).businessFormat) {
        const r = checkTaxNumber(t.countryCode, 'business', t.taxId);
        if (!r.ok) out[`${at}.taxId`] = r.code === 'format' ? 'taxIdFormat' : 'taxIdCheckDigit';
      }
      return;
    }
    // §5: the tax id is optional where the country's entry is not required; else a number or why there is none
    if (taxNumberEntry(t.countryCode).businessRequired) out[`${at}.taxId`] = 'required';
  });
  if (a.isUSTaxPayer === true && !a.taxIds.some((t) => t.countryCode === 'US')) out['taxIds'] = 'usEntryRequired';
  return out;
}

/** The problems of one step's answers (none: the step may be left forward). */
export function problemsOf(step: QuestionStep, a: BusinessAnswers, people: readonly PersonOption[] = [], addresses: readonly CompanyAddressOption[] = []): Problems {
  const out: Problems = {};
  const need = (key: string, missing: boolean) => {
    if (missing) out[key] = 'required';
  };
  switch (step) {
    case 'company':
      need('name', blank(a.name));
      need('registrationCountryCode', blank(a.registrationCountryCode));
      break;
    case 'entityType':
      need('entityType', a.entityType === null);
      break;
    case 'financialInstitution':
      if (!blank(a.giin)) {
        if (!GIIN_PATTERN.test(a.giin.trim().toUpperCase())) out['giin'] = 'giinFormat';
      } else need('giin', a.giinMissingReason === null);
      need('isUsingClientFunds', a.isUsingClientFunds === null);
      break;
    case 'investment':
      need('isManagedByFinancialInstitution', a.isManagedByFinancialInstitution === null);
      break;
    case 'publiclyTraded':
      need('isPubliclyTraded', a.isPubliclyTraded === null);
      if (a.isPubliclyTraded === true) {
        need('companySecurityMarket', blank(a.companySecurityMarket));
        need('companyTicket', blank(a.companyTicket));
      }
      break;
    case 'relatedCompany':
      need('isOwnPubliclyTradedCompany', a.isOwnPubliclyTradedCompany === null);
      if (a.isOwnPubliclyTradedCompany === true) {
        need('companyOwnedByYou.market', blank(a.ownedMarket));
        need('companyOwnedByYou.name', blank(a.ownedName));
        need('companyOwnedByYou.ticket', blank(a.ownedTicket));
      }
      break;
    case 'passiveIncome':
      need('isEarnPassiveIncome', a.isEarnPassiveIncome === null);
      break;
    case 'usStatus':
      need('isUSTaxPayer', a.isUSTaxPayer === null);
      need('isDisregardedEntity', a.isDisregardedEntity === null);
      break;
    case 'addresses':
      need('placeOfBusinessAddressId', !addresses.some((x) => x.addressId === a.placeOfBusinessAddressId));
      need('registeredAddressId', !addresses.some((x) => x.addressId === a.registeredAddressId));
      break;
    case 'taxIds':
      Object.assign(out, taxIdProblems(a));
      break;
    case 'controllingPersons': {
      const chosen = a.controllingPersons.filter((p) => people.some((x) => x.representativeId === p.representativeId));
      if (chosen.length === 0) out['controllingPersons'] = 'noPerson';
      a.controllingPersons.forEach((p, i) => need(`controllingPersons.${i}.taxResidenceCountryCode`, blank(p.taxResidenceCountryCode)));
      break;
    }
    case 'review':
      break;
  }
  return out;
}

const ready = (step: QuestionStep) => (c: BusinessSelfCertificationContext) => Object.keys(problemsOf(step, c.answers, c.people, c.addresses)).length === 0;

/** §5: a US taxpayer always gets a US entry (added as the tax ids are shown). */
export const withUsTaxId = (a: BusinessAnswers): BusinessAnswers =>
  a.isUSTaxPayer === true && !a.taxIds.some((t) => t.countryCode === 'US') ? { ...a, taxIds: [...a.taxIds, emptyTaxId('US')] } : a;

/**
 * The Update request of the answers: only the questions the branch asked (an answer left from
 * another branch is not sent), the tax ids normalised (§5: the explanation only for CANNOT_OBTAIN;
 * a US taxpayer with a US entry: withUsEntry), the controlling persons only of a passive entity.
 */
export function certificationRequest(a: BusinessAnswers): BusinessCertification {
  const fi = asksGiin(a);
  const general = a.entityType === 'general';
  const traded = isTraded(a);
  const related = isRelated(a);
  const giin = a.giin.trim().toUpperCase();
  const request: BusinessCertification = {
    name: a.name.trim(),
    entityType: a.entityType!,
    registrationCountryCode: a.registrationCountryCode,
    giin: fi && giin ? giin : null,
    giinMissingReason: fi && !giin ? a.giinMissingReason : null,
    isUsingClientFunds: fi ? a.isUsingClientFunds : null,
    isManagedByFinancialInstitution: a.entityType === 'investment' ? a.isManagedByFinancialInstitution : null,
    isPubliclyTraded: general ? a.isPubliclyTraded : null,
    companySecurityMarket: traded ? a.companySecurityMarket.trim() : null,
    companyTicket: traded ? a.companyTicket.trim() : null,
    isOwnPubliclyTradedCompany: general && a.isPubliclyTraded === false ? a.isOwnPubliclyTradedCompany : null,
    companyOwnedByYou: related ? { market: a.ownedMarket.trim(), name: a.ownedName.trim(), ticket: a.ownedTicket.trim() } : null,
    isEarnPassiveIncome: general && !traded && !related ? a.isEarnPassiveIncome : null,
    isUSTaxPayer: a.isUSTaxPayer === true,
    isDisregardedEntity: a.isDisregardedEntity === true,
    placeOfBusinessAddressId: a.placeOfBusinessAddressId!,
    registeredAddressId: a.registeredAddressId!,
    taxIds: a.taxIds.map((t) => {
      const number = t.noTin ? '' : t.taxId.trim();
      return normaliseTaxIdEntry({
        countryCode: t.countryCode,
        taxId: number ? (taxNumberEntry(t.countryCode).businessFormat ? normaliseTaxNumber(number) : number) : null,
        tinMissingReason: t.noTin && t.reason !== '' ? t.reason : null,
        tinMissingExplanation: t.explanation.trim() || null,
      });
    }),
    controllingPersons: isPassive(a) ? a.controllingPersons : [],
  };
  return withUsEntry(request, request.isUSTaxPayer);
}

/** The forms the answers end in (review). */
export const formsOf = (a: BusinessAnswers): TaxFormKind[] => businessForms({ isUSTaxPayer: a.isUSTaxPayer === true });

/** A form's state in the Get answer (its status field; the W-8BEN-E is reported as w8BenFormDocumentStatus). */
export function formState(answer: BusinessCertificationAnswer, kind: TaxFormKind): DocumentState {
  const doc = answer.documents.find((d) => d.kind === kind);
  if (doc) return doc.status;
  if (kind === 'w9') return answer.w9FormDocumentStatus;
  if (kind === 'taxResidencySelfCertification') return answer.taxResidencySelfCertificationDocumentStatus;
  return answer.w8BenFormDocumentStatus;
}

/**
 * Where the certification stands: nothing saved; saved but a form not signed (or signed for
 * earlier answers: 'none'); a form rejected or expired; every form validated (or not required);
 * else the signed forms wait for the administrator's review.
 */
export function certificationState(answer: BusinessCertificationAnswer): CertificationState {
  if (!answer.certification) return 'new';
  const states = answer.requiredForms.map((k) => formState(answer, k));
  if (states.some((s) => s === 'rejected' || s === 'expired')) return 'rejected';
  if (states.some((s) => s === 'none')) return 'unsigned';
  if (states.every((s) => s === 'validated' || s === 'notRequired' || s === 'expiredSoon')) return 'validated';
  return 'pendingReview';
}

/** The step of a refused param (the entity's questions: from the entity type on). */
export type ErrorStep = 'company' | 'entityType' | 'usStatus' | 'addresses' | 'taxIds' | 'controllingPersons' | 'review';
export function stepOfParam(param: string): ErrorStep {
  const head = param.split('.')[0] ?? '';
  if (head === 'name' || head === 'registrationCountryCode') return 'company';
  if (
    [
      'entityType',
      'giin',
      'giinMissingReason',
      'isUsingClientFunds',
      'isManagedByFinancialInstitution',
      'isPubliclyTraded',
      'companySecurityMarket',
      'companyTicket',
      'isOwnPubliclyTradedCompany',
      'companyOwnedByYou',
      'isEarnPassiveIncome',
    ].includes(head)
  )
    return 'entityType';
  if (head === 'isUSTaxPayer' || head === 'isDisregardedEntity') return 'usStatus';
  if (head === 'placeOfBusinessAddressId' || head === 'registeredAddressId') return 'addresses';
  if (head === 'taxIds') return 'taxIds';
  if (head === 'controllingPersons') return 'controllingPersons';
  return 'review';
}
const refusedAt = (step: ErrorStep) => (_: unknown, r: SaveResult) => !r.ok && r.code === 'fields' && stepOfParam(r.errors[0]?.param ?? '') === step;

const loadedAs = (state: CertificationState) => (_: unknown, r: LoadResult) => r.ok && certificationState(r.answer) === state;

/** A field's key in the errors list: the fields changed take their errors away. */
const changedKeys = (patch: object, prefix = '') => Object.keys(patch).map((k) => prefix + k);
const withoutErrorsOf = (errors: ValidationError[], keys: string[]) => errors.filter((e) => !keys.some((k) => e.param === k || e.param.startsWith(`${k}.`)));
const OWNED: Record<string, string> = { ownedMarket: 'companyOwnedByYou.market', ownedName: 'companyOwnedByYou.name', ownedTicket: 'companyOwnedByYou.ticket' };

const fresh = (canManage: boolean): BusinessSelfCertificationContext => ({
  canManage,
  answer: null,
  addresses: [],
  people: [],
  countries: [],
  answers: emptyAnswers(),
  missing: false,
  errors: [],
  failure: null,
  loadFailure: null,
  signUrl: null,
});

const toRefusal = (r: { ok: boolean; code?: string; failure?: Failure }): Refusal =>
  r.code === 'failed' && r.failure ? { ok: false, code: 'failed', failure: r.failure } : { ok: false, code: 'network' };

export const businessSelfCertificationMachine = setup({
  types: {
    context: {} as BusinessSelfCertificationContext,
    events: {} as BusinessSelfCertificationEvent,
    input: {} as BusinessSelfCertificationInput,
  },
  actors: {
    /** businessFatcaCrsCertificationGet, businessInfoGet (addresses), businessShareholderList and businessDirectorList (persons), the countries */
    load: fromPromise<LoadResult>(async () => {
      throw new Error('load is provided by the app');
    }),
    /** businessFatcaCrsCertificationUpdate */
    save: fromPromise<SaveResult, { request: BusinessCertification }>(async () => {
      throw new Error('save is provided by the app');
    }),
    /** businessWFormUpload: the forms filled and an envelope to sign */
    sign: fromPromise<SignResult>(async () => {
      throw new Error('sign is provided by the app');
    }),
  },
  guards: {
    isNewForManager: ({ context }, r: LoadResult) => context.canManage && r.ok && certificationState(r.answer) === 'new',
    isNew: loadedAs('new'),
    isUnsigned: loadedAs('unsigned'),
    isPendingReview: loadedAs('pendingReview'),
    isValidated: loadedAs('validated'),
    isRejected: loadedAs('rejected'),
    canManage: ({ context }) => context.canManage,
    isOk: (_, r: { ok: boolean }) => r.ok,
    companyReady: ({ context }) => ready('company')(context),
    isFinancialInstitutionType: ({ context }) => ready('entityType')(context) && context.answers.entityType === 'financial-institution',
    isInvestmentType: ({ context }) => ready('entityType')(context) && context.answers.entityType === 'investment',
    isGeneralType: ({ context }) => ready('entityType')(context) && context.answers.entityType === 'general',
    financialInstitutionReady: ({ context }) => ready('financialInstitution')(context),
    isManagedByFi: ({ context }) => context.answers.isManagedByFinancialInstitution === true,
    isNotManagedByFi: ({ context }) => context.answers.isManagedByFinancialInstitution === false,
    isViaInvestment: ({ context }) => context.answers.entityType === 'investment',
    tradedReady: ({ context }) => context.answers.isPubliclyTraded === true && ready('publiclyTraded')(context),
    isNotTraded: ({ context }) => context.answers.isPubliclyTraded === false,
    relatedReady: ({ context }) => context.answers.isOwnPubliclyTradedCompany === true && ready('relatedCompany')(context),
    isNotRelated: ({ context }) => context.answers.isOwnPubliclyTradedCompany === false,
    passiveIncomeReady: ({ context }) => ready('passiveIncome')(context),
    usStatusReady: ({ context }) => ready('usStatus')(context),
    backToFinancialInstitution: ({ context }) => lastEntityStep(context.answers) === 'financialInstitution',
    backToInvestment: ({ context }) => lastEntityStep(context.answers) === 'investment',
    backToPubliclyTraded: ({ context }) => lastEntityStep(context.answers) === 'publiclyTraded',
    backToRelatedCompany: ({ context }) => lastEntityStep(context.answers) === 'relatedCompany',
    addressesReady: ({ context }) => ready('addresses')(context),
    taxIdsReadyPassive: ({ context }) => ready('taxIds')(context) && isPassive(context.answers),
    taxIdsReady: ({ context }) => ready('taxIds')(context),
    controllingPersonsReady: ({ context }) => ready('controllingPersons')(context),
    isPassive: ({ context }) => isPassive(context.answers),
    withinTaxIdLimit: (_, taxIds: TaxIdDraft[]) => taxIds.length <= MAX_TAX_IDS,
    companyRefused: refusedAt('company'),
    entityRefused: refusedAt('entityType'),
    usStatusRefused: refusedAt('usStatus'),
    addressesRefused: refusedAt('addresses'),
    taxIdsRefused: refusedAt('taxIds'),
    controllingPersonsRefused: refusedAt('controllingPersons'),
  },
  actions: {
    storeLoaded: assign((_, r: LoadResult) =>
      r.ok ? { answer: r.answer, addresses: r.addresses, people: r.people, countries: r.countries, answers: answersOf(r.answer, r.addresses), loadFailure: null } : {},
    ),
    storeLoadFailure: assign((_, r: Refusal) => ({ loadFailure: r })),
    clearLoadFailure: assign({ loadFailure: null }),
    patchAnswers: assign(({ context }, patch: Partial<ScalarAnswers>) => {
      const keys = Object.keys(patch).map((k) => OWNED[k] ?? k);
      return { answers: { ...context.answers, ...patch }, errors: withoutErrorsOf(context.errors, keys) };
    }),
    /**
     * The list as the field changed it; the platform's errors of the rows that changed go (all of
     * them when a row came or went: the rows after it moved). A US taxpayer keeps its US entry (§5).
     */
    setTaxIds: assign(({ context }, taxIds: TaxIdDraft[]) => {
      const before = context.answers.taxIds;
      const changed = taxIds.length !== before.length ? ['taxIds'] : taxIds.flatMap((t, i) => (JSON.stringify(t) === JSON.stringify(before[i]) ? [] : [`taxIds.${i}`]));
      return { answers: withUsTaxId({ ...context.answers, taxIds }), errors: withoutErrorsOf(context.errors, changed) };
    }),
    togglePerson: assign(({ context }, representativeId: number) => {
      const chosen = context.answers.controllingPersons;
      const person = context.people.find((p) => p.representativeId === representativeId);
      const next = chosen.some((p) => p.representativeId === representativeId)
        ? chosen.filter((p) => p.representativeId !== representativeId)
        : [...chosen, { representativeId, taxResidenceCountryCode: person?.countryCode ?? '' }];
      return { answers: { ...context.answers, controllingPersons: next }, errors: withoutErrorsOf(context.errors, ['controllingPersons']) };
    }),
    setPersonCountry: assign(({ context }, p: { representativeId: number; countryCode: string }) => ({
      answers: {
        ...context.answers,
        controllingPersons: context.answers.controllingPersons.map((x) => (x.representativeId === p.representativeId ? { ...x, taxResidenceCountryCode: p.countryCode } : x)),
      },
      errors: withoutErrorsOf(context.errors, ['controllingPersons']),
    })),
    addUsEntry: assign(({ context }) => ({ answers: withUsTaxId(context.answers) })),
    markMissing: assign({ missing: true }),
    leaveStep: assign({ missing: false, failure: null }),
    startEditing: assign(({ context }) => ({
      answers: context.answer ? answersOf(context.answer, context.addresses) : context.answers,
      missing: false,
      errors: [],
      failure: null,
    })),
    startSaving: assign({ failure: null, missing: false }),
    storeSaved: assign((_, r: SaveResult) => (r.ok ? { answer: r.answer, errors: [], failure: null } : {})),
    storeErrors: assign((_, r: SaveResult) => ({ errors: !r.ok && r.code === 'fields' ? r.errors : [], missing: true })),
    storeFailure: assign((_, r: Refusal) => ({ failure: r })),
    startSigning: assign({ failure: null }),
    storeSignUrl: assign((_, r: SignResult) => ({ signUrl: r.ok ? (r.signData.signUrls[0] ?? null) : null })),
    /** The app sends the browser to the signing page (window.location); the chart stays pure. */
    openSigning: (_, _url: string | null) => undefined,
  },
}).createMachine({
  id: 'businessSelfCertification',
  description:
    "The company certifies its FATCA/CRS tax status: the questions branch on the entity's type and earlier answers; the answers are saved and the W-9 or W-8BEN-E and the tax residency self-certification are signed online; the certification's review state is shown.",
  meta: { spec: ['document 3 §2', 'document 3 §3', 'document 3 §5', 'document 3 §7'] },
  context: ({ input }) => fresh(input.canManage),
  initial: 'loading',
  states: {
    loading: {
      description: "The company's certification and its documents, its addresses, its shareholders and directors, and the countries are read.",
      meta: { spec: ['document 3 §2'] },
      tags: ['busy'],
      invoke: {
        id: 'load',
        src: 'load',
        onDone: [
          {
            guard: { type: 'isNewForManager', params: ({ event }) => event.output },
            target: 'answering',
            actions: { type: 'storeLoaded', params: ({ event }) => event.output },
            description: 'Nothing is certified yet and the user may manage the company: the questions start, prefilled from the company.',
          },
          {
            guard: { type: 'isNew', params: ({ event }) => event.output },
            target: 'notStarted',
            actions: { type: 'storeLoaded', params: ({ event }) => event.output },
            description: 'Nothing is certified yet and the user may not manage the company: told who can.',
          },
          {
            guard: { type: 'isUnsigned', params: ({ event }) => event.output },
            target: 'unsigned',
            actions: { type: 'storeLoaded', params: ({ event }) => event.output },
            description: 'The answers are saved but a form is not signed for them yet.',
          },
          {
            guard: { type: 'isPendingReview', params: ({ event }) => event.output },
            target: 'pendingReview',
            actions: { type: 'storeLoaded', params: ({ event }) => event.output },
            description: "The forms are signed and wait for the bank's review.",
          },
          {
            guard: { type: 'isValidated', params: ({ event }) => event.output },
            target: 'validated',
            actions: { type: 'storeLoaded', params: ({ event }) => event.output },
            description: 'Every form is validated.',
          },
          {
            guard: { type: 'isRejected', params: ({ event }) => event.output },
            target: 'rejected',
            actions: { type: 'storeLoaded', params: ({ event }) => event.output },
            description: 'A signed form was rejected (or expired).',
          },
          {
            target: 'loadFailed',
            actions: { type: 'storeLoadFailure', params: ({ event }) => toRefusal(event.output) },
            description: 'The platform refused to give the certification, the company or its people, or was not reached.',
          },
        ],
        onError: { target: 'loadFailed', actions: { type: 'storeLoadFailure', params: { ok: false, code: 'network' } }, description: 'No answer came.' },
      },
    },
    loadFailed: {
      description: 'The certification could not be read; the user may try again.',
      on: { 'LOAD.RETRY': { target: 'loading', actions: 'clearLoadFailure', description: 'The user tries reading it again.' } },
    },
    notStarted: {
      description: 'Nothing is certified yet; only a user with full rights may certify for the company (read-only).',
      meta: { spec: ['document 3 §3'] },
    },
    unsigned: {
      description: 'The answers are saved; the forms they end in are to be signed (after a failed signing: the reason shown).',
      meta: { spec: ['document 3 §3'] },
      on: {
        SIGN: { guard: 'canManage', target: 'signing', actions: 'startSigning', description: 'The user opens the forms to sign them.' },
        EDIT: { guard: 'canManage', target: 'answering', actions: 'startEditing', description: 'The user changes the answers first.' },
      },
    },
    pendingReview: {
      description: "The signed forms wait for the bank's review; nothing to do meanwhile.",
      meta: { spec: ['document 3 §3'] },
    },
    validated: {
      description: "The company's certification is validated; the answers may be changed when the company's circumstances change (the forms are signed again).",
      meta: { spec: ['document 3 §3'] },
      on: { EDIT: { guard: 'canManage', target: 'answering', actions: 'startEditing', description: 'The user updates the answers.' } },
    },
    rejected: {
      description: 'A signed form was rejected or expired: the answers are checked and the forms signed again.',
      meta: { spec: ['document 3 §3'] },
      on: {
        EDIT: { guard: 'canManage', target: 'answering', actions: 'startEditing', description: 'The user reviews and corrects the answers.' },
        SIGN: { guard: 'canManage', target: 'signing', actions: 'startSigning', description: 'The answers stand: the user signs the forms again.' },
      },
    },
    answering: {
      description: "The questions, one step at a time; each step's answers are checked before the next.",
      meta: { spec: ['document 3 §3', 'document 3 §5'] },
      initial: 'company',
      on: {
        ANSWER: { actions: { type: 'patchAnswers', params: ({ event }) => event.patch }, description: 'The user answers a question (its platform error goes).' },
        'TAX_IDS.CHANGE': {
          guard: { type: 'withinTaxIdLimit', params: ({ event }) => event.taxIds },
          actions: { type: 'setTaxIds', params: ({ event }) => event.taxIds },
          description: "The user adds, changes or removes a tax residence (at most ten; a US taxpayer's US entry stays).",
        },
        'PERSON.TOGGLE': {
          actions: { type: 'togglePerson', params: ({ event }) => event.representativeId },
          description: 'The user chooses (or unchooses) a shareholder or director as a controlling person.',
        },
        'PERSON.COUNTRY': {
          actions: { type: 'setPersonCountry', params: ({ event }) => ({ representativeId: event.representativeId, countryCode: event.countryCode }) },
          description: "The user sets a controlling person's tax residence country.",
        },
      },
      states: {
        company: {
          description: "The company's name and registration country (prefilled from the company).",
          meta: { spec: ['document 3 §3'] },
          on: {
            'STEP.CONTINUE': [
              { guard: 'companyReady', target: 'entityType', actions: 'leaveStep', description: 'Both are given: the entity type comes next.' },
              { actions: 'markMissing', description: 'Something is missing: the user is told what.' },
            ],
          },
        },
        entityType: {
          description: 'The entity type: financial institution, investment entity, or general (active) entity.',
          meta: { spec: ['document 3 §3'] },
          on: {
            'STEP.CONTINUE': [
              { guard: 'isFinancialInstitutionType', target: 'financialInstitution', actions: 'leaveStep', description: 'A financial institution: its GIIN comes next.' },
              {
                guard: 'isInvestmentType',
                target: 'investment',
                actions: 'leaveStep',
                description: 'An investment entity: whether a financial institution manages it comes next.',
              },
              { guard: 'isGeneralType', target: 'publiclyTraded', actions: 'leaveStep', description: 'A general entity: whether it is publicly traded comes next.' },
              { actions: 'markMissing', description: 'No type is chosen: the user is told.' },
            ],
            'STEP.BACK': { target: 'company', actions: 'leaveStep', description: 'Back to the company.' },
          },
        },
        financialInstitution: {
          description: 'A financial institution (or an investment entity managed by one): its GIIN in the IRS format or why it has none, and whether it holds funds for clients.',
          meta: { spec: ['document 3 §3'] },
          on: {
            'STEP.CONTINUE': [
              {
                guard: 'financialInstitutionReady',
                target: 'usStatus',
                actions: 'leaveStep',
                description: 'The GIIN (or its reason) and the client funds are answered: the US status comes next.',
              },
              { actions: 'markMissing', description: 'A GIIN in the wrong format, or an answer missing: the user is told.' },
            ],
            'STEP.BACK': [
              { guard: 'isViaInvestment', target: 'investment', actions: 'leaveStep', description: 'An investment entity: back to who manages it.' },
              { target: 'entityType', actions: 'leaveStep', description: 'Back to the entity type.' },
            ],
          },
        },
        investment: {
          description: 'An investment entity: is it managed by a financial institution (then it is one; if not, a passive entity)?',
          meta: { spec: ['document 3 §3'] },
          on: {
            'STEP.CONTINUE': [
              {
                guard: 'isManagedByFi',
                target: 'financialInstitution',
                actions: 'leaveStep',
                description: 'Managed by a financial institution: its GIIN is asked as a financial institution.',
              },
              {
                guard: 'isNotManagedByFi',
                target: 'usStatus',
                actions: 'leaveStep',
                description: 'Not managed by one: a passive entity (its controlling persons are asked later).',
              },
              { actions: 'markMissing', description: 'Not answered: the user is told.' },
            ],
            'STEP.BACK': { target: 'entityType', actions: 'leaveStep', description: 'Back to the entity type.' },
          },
        },
        publiclyTraded: {
          description: 'A general entity: is its stock regularly traded on an established securities market (then which market and ticker)?',
          meta: { spec: ['document 3 §3'] },
          on: {
            'STEP.CONTINUE': [
              { guard: 'tradedReady', target: 'usStatus', actions: 'leaveStep', description: 'Publicly traded, with its market and ticker: the US status comes next.' },
              { guard: 'isNotTraded', target: 'relatedCompany', actions: 'leaveStep', description: 'Not traded: whether it belongs to a publicly traded company comes next.' },
              { actions: 'markMissing', description: 'Not answered, or the market or ticker missing: the user is told.' },
            ],
            'STEP.BACK': { target: 'entityType', actions: 'leaveStep', description: 'Back to the entity type.' },
          },
        },
        relatedCompany: {
          description: "Not traded itself: is it a related entity of a publicly traded company (then that company's market, name and ticker)?",
          meta: { spec: ['document 3 §3'] },
          on: {
            'STEP.CONTINUE': [
              { guard: 'relatedReady', target: 'usStatus', actions: 'leaveStep', description: 'Related to a traded company, which is named: the US status comes next.' },
              { guard: 'isNotRelated', target: 'passiveIncome', actions: 'leaveStep', description: 'Not related: whether its income is mostly passive comes next.' },
              { actions: 'markMissing', description: 'Not answered, or the traded company not named: the user is told.' },
            ],
            'STEP.BACK': { target: 'publiclyTraded', actions: 'leaveStep', description: 'Back to whether it is publicly traded.' },
          },
        },
        passiveIncome: {
          description: 'Is more than half of its income passive (dividends, interest, rents, royalties)? Then it is a passive entity.',
          meta: { spec: ['document 3 §3'] },
          on: {
            'STEP.CONTINUE': [
              { guard: 'passiveIncomeReady', target: 'usStatus', actions: 'leaveStep', description: 'Answered: the US status comes next.' },
              { actions: 'markMissing', description: 'Not answered: the user is told.' },
            ],
            'STEP.BACK': { target: 'relatedCompany', actions: 'leaveStep', description: 'Back to the related company.' },
          },
        },
        usStatus: {
          description: 'Is the company a US taxpayer, and is it a disregarded entity?',
          meta: { spec: ['document 3 §3'] },
          on: {
            'STEP.CONTINUE': [
              { guard: 'usStatusReady', target: 'addresses', actions: 'leaveStep', description: 'Both answered: the addresses come next.' },
              { actions: 'markMissing', description: 'An answer is missing: the user is told.' },
            ],
            'STEP.BACK': [
              { guard: 'backToFinancialInstitution', target: 'financialInstitution', actions: 'leaveStep', description: 'Back to the GIIN.' },
              { guard: 'backToInvestment', target: 'investment', actions: 'leaveStep', description: 'Back to who manages the investment entity.' },
              { guard: 'backToPubliclyTraded', target: 'publiclyTraded', actions: 'leaveStep', description: 'Back to the market and ticker.' },
              { guard: 'backToRelatedCompany', target: 'relatedCompany', actions: 'leaveStep', description: 'Back to the related traded company.' },
              { target: 'passiveIncome', actions: 'leaveStep', description: 'Back to the passive income.' },
            ],
          },
        },
        addresses: {
          description: "The place of business and the registered address, each one of the company's addresses.",
          meta: { spec: ['document 3 §3'] },
          on: {
            'STEP.CONTINUE': [
              {
                guard: 'addressesReady',
                target: 'taxIds',
                actions: ['leaveStep', 'addUsEntry'],
                description: 'Both chosen: the tax residences come next (a US taxpayer gets a US entry).',
              },
              { actions: 'markMissing', description: 'An address is not chosen: the user is told.' },
            ],
            'STEP.BACK': { target: 'usStatus', actions: 'leaveStep', description: 'Back to the US status.' },
          },
        },
        taxIds: {
          description:
            "The company's tax residences: per country its tax number (checked against the country's format) or why there is none; the explanation only for CANNOT_OBTAIN.",
          meta: { spec: ['document 3 §3', 'document 3 §5', 'document 3 §9'] },
          on: {
            'STEP.CONTINUE': [
              { guard: 'taxIdsReadyPassive', target: 'controllingPersons', actions: 'leaveStep', description: 'A passive entity: its controlling persons come next.' },
              { guard: 'taxIdsReady', target: 'review', actions: 'leaveStep', description: 'Every tax residence is complete: the review comes next.' },
              { actions: 'markMissing', description: 'A number in the wrong format, or a number or its reason missing: the user is told.' },
            ],
            'STEP.BACK': { target: 'addresses', actions: 'leaveStep', description: 'Back to the addresses.' },
          },
        },
        controllingPersons: {
          description: 'A passive entity: its controlling persons, chosen from the shareholders and directors, each with a tax residence country (at least one).',
          meta: { spec: ['document 3 §3'] },
          on: {
            'STEP.CONTINUE': [
              { guard: 'controllingPersonsReady', target: 'review', actions: 'leaveStep', description: 'At least one, each with a country: the review comes next.' },
              { actions: 'markMissing', description: 'None chosen, or a country missing: the user is told.' },
            ],
            'STEP.BACK': { target: 'taxIds', actions: 'leaveStep', description: 'Back to the tax residences.' },
          },
        },
        review: {
          description:
            'Every answer, and the forms they end in: the W-9 (a US taxpayer) or the W-8BEN-E, and the tax residency self-certification (after a refused save: the reason).',
          meta: { spec: ['document 3 §3'] },
          on: {
            SUBMIT: { target: '#businessSelfCertification.saving', actions: 'startSaving', description: 'The user saves the answers to sign the forms.' },
            'STEP.BACK': [
              { guard: 'isPassive', target: 'controllingPersons', actions: 'leaveStep', description: 'A passive entity: back to its controlling persons.' },
              { target: 'taxIds', actions: 'leaveStep', description: 'Back to the tax residences.' },
            ],
          },
        },
      },
    },
    saving: {
      description: 'The answers are saved (businessFatcaCrsCertificationUpdate).',
      meta: { spec: ['document 3 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({ request: certificationRequest(context.answers) }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'signing',
            actions: { type: 'storeSaved', params: ({ event }) => event.output },
            description: 'Saved: the forms are made to sign.',
          },
          {
            guard: { type: 'companyRefused', params: ({ event }) => event.output },
            target: 'answering.company',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: "The platform refused the company's name or country: back there, the errors on the fields.",
          },
          {
            guard: { type: 'entityRefused', params: ({ event }) => event.output },
            target: 'answering.entityType',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: "The platform refused an answer about the entity (the GIIN, say): back to the entity's questions, the errors on the fields.",
          },
          {
            guard: { type: 'usStatusRefused', params: ({ event }) => event.output },
            target: 'answering.usStatus',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: 'The platform refused the US status: back there.',
          },
          {
            guard: { type: 'addressesRefused', params: ({ event }) => event.output },
            target: 'answering.addresses',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: 'The platform refused an address: back to the addresses.',
          },
          {
            guard: { type: 'taxIdsRefused', params: ({ event }) => event.output },
            target: 'answering.taxIds',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: 'The platform refused a tax number (its format or check digits): back to the tax residences, the error on the number.',
          },
          {
            guard: { type: 'controllingPersonsRefused', params: ({ event }) => event.output },
            target: 'answering.controllingPersons',
            actions: { type: 'storeErrors', params: ({ event }) => event.output },
            description: 'The platform refused a controlling person: back to them.',
          },
          {
            target: 'answering.review',
            actions: { type: 'storeFailure', params: ({ event }) => toRefusal(event.output) },
            description: 'The platform refused the answers or did not answer: the reason is shown over the review; saving again is offered.',
          },
        ],
        onError: { target: 'answering.review', actions: { type: 'storeFailure', params: { ok: false, code: 'network' } }, description: 'No answer came: saving again is offered.' },
      },
    },
    signing: {
      description: 'The forms are filled from the answers and put in an envelope to sign (businessWFormUpload answers the sign URLs).',
      meta: { spec: ['document 3 §3', 'document 3 §7'] },
      tags: ['busy'],
      invoke: {
        id: 'sign',
        src: 'sign',
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => event.output },
            target: 'signingOpened',
            actions: [
              { type: 'storeSignUrl', params: ({ event }) => event.output },
              { type: 'openSigning', params: ({ event }) => (event.output.ok ? (event.output.signData.signUrls[0] ?? null) : null) },
            ],
            description: 'The envelope is ready: the browser goes to its first sign URL.',
          },
          {
            target: 'unsigned',
            actions: { type: 'storeFailure', params: ({ event }) => toRefusal(event.output) },
            description: 'The forms could not be made or the platform refused: the answers are saved; signing again is offered.',
          },
        ],
        onError: { target: 'unsigned', actions: { type: 'storeFailure', params: { ok: false, code: 'network' } }, description: 'No answer came: signing again is offered.' },
      },
    },
    signingOpened: {
      description: 'The browser is on its way to the signing page (a link to it is shown should it not open); coming back reads the state again.',
      meta: { spec: ['document 3 §3'] },
    },
  },
});

export type BusinessSelfCertificationMachine = typeof businessSelfCertificationMachine;
