/**
 * The business registration wizard's own form rules (document 3 §2 wizard forms, §3 registration
 * payload, §5 "Registration"): the values each form keeps in the draft, their checks (codes only),
 * the section each of the platform's VF parameters belongs to, and the accountCreate request built
 * from a draft. The shareholder tree and the people rules are api/ownership.ts (shared with the
 * platform); this module only adds what the forms themselves decide. Pure: no I/O, no strings shown
 * to anyone.
 */
import * as v from 'valibot';
import { PasswordSchema } from '../../api/auth.ts';
import {
  BUSINESS_DRAFT_VERSION,
  DueDiligenceSchema,
  FinancialDetailSchema,
  RegistrationCompanySchema,
  RegistrationPersonSchema,
  type BusinessRegistration,
} from '../../api/business-registration.ts';
import type { AdditionalQuestionSchema, AgreementSchema, IndustryGroupSchema, NamedItemSchema } from '../../api/dictionaries.ts';
import { ShareholderType, ultimateBeneficialOwners, userIds, type EmailCheckState, type OwnershipData, type Person, type ShareholderNode } from '../../api/ownership.ts';

export { BUSINESS_DRAFT_VERSION };

type NamedItem = v.InferOutput<typeof NamedItemSchema>;

/** The dictionaries the wizard loads first (document 3 §2). */
export interface BusinessDictionaries {
  purposes: NamedItem[];
  sources: NamedItem[];
  industries: v.InferOutput<typeof IndustryGroupSchema>[];
  questions: v.InferOutput<typeof AdditionalQuestionSchema>[];
  /** sources of a person's funds (asked of ultimate beneficial owners) */
  personSources: NamedItem[];
  /** the terms the legal form asks to accept */
  agreements: v.InferOutput<typeof AgreementSchema>[];
}

/** What is wrong with a field: empty where it is needed, or not acceptable as given. */
export type FieldCode = 'required' | 'invalid';
export type FieldErrors = Record<string, FieldCode>;

/** The registrant's person id in the draft: the owner user with full rights (§4 "The first registration user gets full rights (2)"). */
export const REGISTRANT_ID = 'rep';

/** The general form: the company and the person registering it. Strings as typed. */
export interface GeneralValues {
  name: string;
  tradingName: string;
  registrationCountryCode: string;
  registrationNumber: string;
  registrationDate: string;
  businessTaxId: string;
  email: string;
  website: string;
  phoneCountryCode: string;
  phone: string;
  address1: string;
  address2: string;
  city: string;
  postalCode: string;
  countryCode: string;
  /** the registrant */
  repFirstName: string;
  repLastName: string;
  repEmail: string;
  repBirthday: string;
}

export interface FinancialValues {
  monthlyDepositAmount: string;
  monthlyWithdrawalAmount: string;
  currency: string;
  sourceIds: number[];
  purposeIds: number[];
  /** an industry id as typed in the select, '' for none */
  industry: string;
  specifications: string;
  /** answers to the additional questions, keyed by question id (follow-ups by their own id) */
  answers: Record<string, string>;
}

export type YesNo = '' | 'yes' | 'no';
export interface DueDiligenceValues {
  government: YesNo;
  lawsuits: YesNo;
  taxPayers: YesNo;
  details: string;
}

/** term id -> accepted */
export type LegalValues = Record<string, boolean>;

/** The person form (personForm). */
export interface PersonValues {
  firstName: string;
  lastName: string;
  birthday: string;
  email: string;
  phoneCountryCode: string;
  phone: string;
  taxId: string;
  /** '' or '1'-'4' (users only) */
  accessRights: string;
  sourcesOfFunds: { sourceId: number; details: string }[];
  /** the node's share, when the form was opened from the shareholders hub */
  share: string;
}

/** The company form (companyForm): a corporate shareholder. */
export interface CompanyValues {
  name: string;
  registrationNumber: string;
  registrationCountryCode: string;
  share: string;
  directorIds: string[];
}

/** The draft the wizard keeps (locally and on the platform, version BUSINESS_DRAFT_VERSION). */
export interface BusinessDraftData extends OwnershipData {
  general: GeneralValues;
  financial: FinancialValues;
  dueDiligence: DueDiligenceValues;
  legal: LegalValues;
  /** the next local id of a person or company */
  nextId: number;
}

export const emptyGeneral = (): GeneralValues => ({
  name: '',
  tradingName: '',
  registrationCountryCode: '',
  registrationNumber: '',
  registrationDate: '',
  businessTaxId: '',
  email: '',
  website: '',
  phoneCountryCode: '',
  phone: '',
  address1: '',
  address2: '',
  city: '',
  postalCode: '',
  countryCode: '',
  repFirstName: '',
  repLastName: '',
  repEmail: '',
  repBirthday: '',
});

export const emptyFinancial = (): FinancialValues => ({
  monthlyDepositAmount: '',
  monthlyWithdrawalAmount: '',
  currency: '',
  sourceIds: [],
  purposeIds: [],
  industry: '',
  specifications: '',
  answers: {},
});

export const emptyDueDiligence = (): DueDiligenceValues => ({ government: '', lawsuits: '', taxPayers: '', details: '' });

export const emptyPerson = (): PersonValues => ({
  firstName: '',
  lastName: '',
  birthday: '',
  email: '',
  phoneCountryCode: '',
  phone: '',
  taxId: '',
  accessRights: '',
  sourcesOfFunds: [],
  share: '',
});

export const emptyCompany = (): CompanyValues => ({ name: '', registrationNumber: '', registrationCountryCode: '', share: '', directorIds: [] });

export const emptyDraft = (): BusinessDraftData => ({
  general: emptyGeneral(),
  financial: emptyFinancial(),
  dueDiligence: emptyDueDiligence(),
  legal: {},
  directors: [],
  ultimateBeneficiaryOwners: [],
  shareholders: [],
  users: [REGISTRANT_ID],
  personList: [{ id: REGISTRANT_ID, firstName: '', lastName: '', isUser: true, accessRights: 2, sourcesOfFunds: [] }],
  companyList: [],
  nextId: 1,
});

/** Document 1 §5: trimmed, inner whitespace collapsed. */
export const collapse = (s: string) => s.trim().replace(/\s+/gu, ' ');
const normaliseEmail = (s: string) => collapse(s).toLowerCase();

/** Valibot's issues as field codes: the field is the last key of the issue's path. */
function fieldErrorsOf(result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }, raw: (field: string) => unknown, rename: Record<string, string> = {}): FieldErrors {
  const errors: FieldErrors = {};
  if (result.success) return errors;
  for (const issue of result.issues ?? []) {
    const keys = (issue.path ?? []).map((p) => String(p.key));
    const last = keys.filter((k) => !/^\d+$/.test(k)).at(-1);
    if (!last) continue;
    const field = rename[last] ?? last;
    if (errors[field]) continue;
    const value = raw(field);
    errors[field] = value === '' || value === undefined || (Array.isArray(value) && value.length === 0) ? 'required' : 'invalid';
  }
  return errors;
}

const isPastDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)) && s <= new Date().toISOString().slice(0, 10);
const EmailSchema = v.pipe(v.string(), v.email());
const phoneFields = (o: { phoneCountryCode: string; phone: string }) => ({ phoneCountryCode: o.phoneCountryCode, phone: o.phone });

const companyOf = (g: GeneralValues) => ({
  name: g.name,
  tradingName: g.tradingName,
  registrationCountryCode: g.registrationCountryCode,
  registrationNumber: g.registrationNumber,
  registrationDate: g.registrationDate,
  businessTaxId: g.businessTaxId,
  email: g.email,
  website: g.website,
  ...phoneFields(g),
  address: { address1: g.address1, address2: g.address2, city: g.city, postalCode: g.postalCode, countryCode: g.countryCode, stateName: '' },
});

export function validateGeneral(g: GeneralValues): FieldErrors {
  const errors = fieldErrorsOf(v.safeParse(RegistrationCompanySchema, companyOf(g)), (f) => g[f as keyof GeneralValues]);
  if (!collapse(g.repFirstName)) errors.repFirstName = 'required';
  if (!collapse(g.repLastName)) errors.repLastName = 'required';
  if (!g.repEmail.trim()) errors.repEmail = 'required';
  else if (!v.is(EmailSchema, normaliseEmail(g.repEmail))) errors.repEmail = 'invalid';
  if (!g.repBirthday) errors.repBirthday = 'required';
  else if (!isPastDate(g.repBirthday)) errors.repBirthday = 'invalid';
  if (g.registrationDate && !errors.registrationDate && !isPastDate(g.registrationDate)) errors.registrationDate = 'invalid';
  return errors;
}

const financialOf = (f: FinancialValues) => ({
  monthlyDepositAmount: f.monthlyDepositAmount.trim(),
  monthlyWithdrawalAmount: f.monthlyWithdrawalAmount.trim(),
  currency: f.currency,
  sourceIds: f.sourceIds,
  purposeIds: f.purposeIds,
  industry: f.industry === '' ? NaN : Number(f.industry),
  specifications: f.specifications,
});

export function validateFinancial(f: FinancialValues, questions: BusinessDictionaries['questions']): FieldErrors {
  const errors = fieldErrorsOf(v.safeParse(FinancialDetailSchema, financialOf(f)), (k) => (k === 'industry' ? f.industry : f[k as keyof FinancialValues]));
  for (const q of questions) {
    const answer = f.answers[q.id] ?? '';
    if (q.type === 'radio' && answer === '') errors[q.id] = 'required';
    if (q.followUp && answer !== '' && answer === String(q.followUp.when) && !collapse(f.answers[q.followUp.id] ?? '')) errors[q.followUp.id] = 'required';
  }
  return errors;
}

export function validateDueDiligence(d: DueDiligenceValues): FieldErrors {
  const errors: FieldErrors = {};
  for (const k of ['government', 'lawsuits', 'taxPayers'] as const) if (d[k] === '') errors[k] = 'required';
  if ((d.government === 'yes' || d.lawsuits === 'yes') && !collapse(d.details)) errors.details = 'required';
  if (d.details.length > 2000) errors.details = 'invalid';
  return errors;
}

export function validateLegal(l: LegalValues, agreements: BusinessDictionaries['agreements']): FieldErrors {
  const errors: FieldErrors = {};
  for (const a of agreements) if (!l[String(a.id)]) errors[String(a.id)] = 'required';
  return errors;
}

/** A share as typed: above 0, at most 100, at most two decimals. */
export const shareValid = (s: string) => /^\d{1,3}([.,]\d{1,2})?$/.test(s.trim()) && Number(s.trim().replace(',', '.')) > 0 && Number(s.trim().replace(',', '.')) <= 100;
export const shareNumber = (s: string) => Number(s.trim().replace(',', '.'));

export interface PersonRole {
  /** the person is one of the company's users: e-mail and rights needed */
  user: boolean;
  /** the form sets a shareholder node's share */
  share: boolean;
  /** the person is an ultimate beneficial owner asked for the source of funds */
  ubo: boolean;
}

export function validatePerson(p: PersonValues, role: PersonRole): FieldErrors {
  const errors: FieldErrors = {};
  if (!collapse(p.firstName)) errors.firstName = 'required';
  if (!collapse(p.lastName)) errors.lastName = 'required';
  if (!p.birthday) errors.birthday = 'required';
  else if (!isPastDate(p.birthday)) errors.birthday = 'invalid';
  if (p.email.trim() && !v.is(EmailSchema, normaliseEmail(p.email))) errors.email = 'invalid';
  if (role.user && !p.email.trim()) errors.email = 'required';
  if (role.user && !['1', '2', '3', '4'].includes(p.accessRights)) errors.accessRights = 'required';
  if ((p.phone.trim() || p.phoneCountryCode.trim()) && !v.is(RegistrationPersonSchema.entries.phone, p.phone)) errors.phone = 'invalid';
  if (role.share && !shareValid(p.share)) errors.share = p.share.trim() ? 'invalid' : 'required';
  if (role.ubo) {
    if (p.sourcesOfFunds.length === 0) errors.sourcesOfFunds = 'required';
    for (const s of p.sourcesOfFunds) if (!collapse(s.details)) errors[`sourceDetails-${s.sourceId}`] = 'required';
  }
  return errors;
}

export function validateCompany(c: CompanyValues): FieldErrors {
  const errors: FieldErrors = {};
  if (!collapse(c.name)) errors.name = 'required';
  if (!/^[A-Z]{2}$/.test(c.registrationCountryCode)) errors.registrationCountryCode = 'required';
  if (!shareValid(c.share)) errors.share = c.share.trim() ? 'invalid' : 'required';
  if (c.directorIds.length === 0) errors.directorIds = 'required';
  return errors;
}

export const hasErrors = (e: FieldErrors) => Object.keys(e).length > 0;

/** A person of the draft as the person form shows it. */
export function personValuesOf(person: Person | undefined, share = ''): PersonValues {
  if (!person) return { ...emptyPerson(), share };
  const str = (k: string) => (typeof person[k] === 'string' ? (person[k] as string) : '');
  return {
    firstName: person.firstName ?? '',
    lastName: person.lastName ?? '',
    birthday: str('birthday'),
    email: str('email'),
    phoneCountryCode: str('phoneCountryCode'),
    phone: str('phone'),
    taxId: str('taxId'),
    accessRights: person.accessRights ? String(person.accessRights) : '',
    sourcesOfFunds: (person.sourcesOfFunds ?? []).map((s) => ({ sourceId: s.sourceId, details: s.details ?? '' })),
    share,
  };
}

/** The person of the draft a saved person form gives (names and login trimmed, §5). */
export function personOf(id: string, p: PersonValues, user: boolean): Person {
  return {
    id,
    firstName: collapse(p.firstName),
    lastName: collapse(p.lastName),
    birthday: p.birthday,
    ...(p.email.trim() ? { email: normaliseEmail(p.email) } : {}),
    ...(p.phone.trim() ? { phoneCountryCode: p.phoneCountryCode.trim(), phone: p.phone.trim() } : {}),
    taxId: collapse(p.taxId),
    sourcesOfFunds: p.sourcesOfFunds.map((s) => ({ sourceId: s.sourceId, details: collapse(s.details) })),
    isUser: user,
    accessRights: user ? Number(p.accessRights) || null : null,
  };
}

/** The registrant's person, kept in step with the general form. */
export function withRegistrant(data: BusinessDraftData): BusinessDraftData {
  const g = data.general;
  const fields = {
    firstName: collapse(g.repFirstName),
    lastName: collapse(g.repLastName),
    email: normaliseEmail(g.repEmail),
    birthday: g.repBirthday,
    isUser: true,
    accessRights: 2,
  };
  const exists = data.personList.some((p) => p.id === REGISTRANT_ID);
  const personList = exists
    ? data.personList.map((p) => (p.id === REGISTRANT_ID ? { ...p, ...fields } : p))
    : [{ id: REGISTRANT_ID, sourcesOfFunds: [], ...fields }, ...data.personList];
  const users = data.users.includes(REGISTRANT_ID) ? data.users : [REGISTRANT_ID, ...data.users];
  return { ...data, personList, users };
}

/** The registrant's e-mail once it is a well-formed address (the platform's draft is keyed by it), else null. */
export function registrantEmail(data: BusinessDraftData): string | null {
  const e = normaliseEmail(data.general.repEmail);
  return e && v.is(EmailSchema, e) ? e : null;
}

/** The e-mail check states of the users, keyed by person id (absent: not checked yet). */
export function userEmailStates(data: BusinessDraftData, checks: Record<string, EmailCheckState>, checking: string | null): Record<string, EmailCheckState | undefined> {
  const out: Record<string, EmailCheckState | undefined> = {};
  const ids = userIds(data);
  for (const p of data.personList) {
    if (!ids.has(String(p.id))) continue;
    const email = typeof p.email === 'string' ? p.email : '';
    out[String(p.id)] = email === checking ? 2 : email ? checks[email] : undefined;
  }
  return out;
}

/** The first user e-mail that has no check answer yet, or null. */
export function nextEmailToCheck(data: BusinessDraftData, checks: Record<string, EmailCheckState>): string | null {
  const ids = userIds(data);
  for (const p of data.personList) {
    if (!ids.has(String(p.id))) continue;
    const email = typeof p.email === 'string' ? p.email : '';
    if (email && v.is(EmailSchema, email) && checks[email] === undefined) return email;
  }
  return null;
}

/** Every person of the list passes the person form's own checks (names, birthday, contact, a user's e-mail and rights). */
export function personsFormsValid(data: BusinessDraftData): boolean {
  const ids = userIds(data);
  return data.personList.every((p) => !hasErrors(validatePerson(personValuesOf(p), { user: ids.has(String(p.id)), share: false, ubo: false })));
}

/** The four root forms' errors (the root section flag: §5 "general, financial, legal and due diligence forms must be valid"). */
export function rootValid(data: BusinessDraftData, dictionaries: BusinessDictionaries): boolean {
  return (
    !hasErrors(validateGeneral(data.general)) &&
    !hasErrors(validateFinancial(data.financial, dictionaries.questions)) &&
    !hasErrors(validateDueDiligence(data.dueDiligence)) &&
    !hasErrors(validateLegal(data.legal, dictionaries.agreements))
  );
}

/** Wizard sections the platform's refusals are mapped back to. */
export type WizardSection = 'generalForm' | 'financialInfoForm' | 'dueDilligenceForm' | 'legalForm' | 'directorsHub' | 'shareholdersHub' | 'ownersHub' | 'usersHub' | 'review';
export const WIZARD_SECTIONS: readonly WizardSection[] = [
  'generalForm',
  'financialInfoForm',
  'dueDilligenceForm',
  'legalForm',
  'directorsHub',
  'shareholdersHub',
  'ownersHub',
  'usersHub',
];

export interface ServerFieldError {
  section: WizardSection;
  /** the field inside the section (the VF parameter without its section prefix) */
  field: string;
  /** the platform's VF code */
  code: string;
}

/** The section and field a VF parameter of accountCreate names ("company.address.city", "personList[2].email", "password"). */
export function sectionOfParam(param: string): { section: WizardSection; field: string } {
  const [head = '', ...rest] = param.split('.');
  const root = head.replace(/\[\d+\]$/, '');
  // list indices are dropped: "personList.2.email" names the e-mail of a person of the users' hub
  const field = rest.filter((k) => !/^\d+$/.test(k)).join('.') || root;
  const map: Record<string, WizardSection> = {
    company: 'generalForm',
    financialDetail: 'financialInfoForm',
    additionalQuestionAnswers: 'financialInfoForm',
    dueDiligence: 'dueDilligenceForm',
    legalInformation: 'legalForm',
    acceptTerms: 'legalForm',
    directors: 'directorsHub',
    shareholders: 'shareholdersHub',
    companyList: 'shareholdersHub',
    ultimateBeneficiaryOwners: 'ownersHub',
    users: 'usersHub',
    personList: 'usersHub',
    authorizedCompanyRepresentative: 'generalForm',
    email: 'generalForm',
  };
  return { section: map[root] ?? 'review', field };
}

/** The password rule of accountCreate (api/auth.ts). */
export const passwordValid = (password: string) => v.is(PasswordSchema, password);

export type BusinessRequest = Partial<BusinessRegistration> & { password: string; acceptTerms: true; email: string };

const yes = (x: YesNo) => x === 'yes';

/** The accountCreate request of a draft (§3 Registration payload). */
export function businessRequest(data: BusinessDraftData, password: string, dictionaries: BusinessDictionaries): BusinessRequest {
  const g = data.general;
  const company = companyOf(g);
  const f = data.financial;
  const answers: Record<string, string | boolean> = {};
  for (const q of dictionaries.questions) {
    const a = f.answers[q.id];
    if (a === undefined || a === '') continue;
    answers[q.id] = a === 'true' ? true : a === 'false' ? false : collapse(a);
    if (q.followUp && a === String(q.followUp.when) && f.answers[q.followUp.id]) answers[q.followUp.id] = collapse(f.answers[q.followUp.id]!);
  }
  const ids = userIds(data);
  const node = (n: ShareholderNode): BusinessRegistration['shareholders'][number] => ({
    type: n.type,
    share: n.share,
    ...(n.type === ShareholderType.person ? { personId: String(n.personId) } : { companyId: String(n.companyId), shareholders: n.shareholders.map(node) }),
  });
  return {
    email: normaliseEmail(g.repEmail),
    password,
    acceptTerms: true,
    company: {
      ...company,
      name: collapse(company.name),
      tradingName: collapse(company.tradingName),
      registrationNumber: collapse(company.registrationNumber),
      businessTaxId: collapse(company.businessTaxId),
      email: normaliseEmail(company.email),
      website: collapse(company.website),
      description: '',
      phoneCountryCode: g.phoneCountryCode.replace(/[+\s]/g, ''),
      phone: g.phone.replace(/[\s().-]/g, ''),
      address: { ...company.address, address1: collapse(g.address1), address2: collapse(g.address2), city: collapse(g.city), postalCode: collapse(g.postalCode) },
    },
    financialDetail: {
      monthlyDepositAmount: f.monthlyDepositAmount.trim(),
      monthlyWithdrawalAmount: f.monthlyWithdrawalAmount.trim(),
      currency: f.currency,
      sourceIds: f.sourceIds,
      purposeIds: f.purposeIds,
      industry: Number(f.industry),
      specifications: collapse(f.specifications),
    },
    dueDiligence: {
      government: yes(data.dueDiligence.government),
      lawsuits: yes(data.dueDiligence.lawsuits),
      taxPayers: yes(data.dueDiligence.taxPayers),
      details: collapse(data.dueDiligence.details),
    },
    authorizedCompanyRepresentative: { personId: REGISTRANT_ID },
    legalInformation: Object.fromEntries(dictionaries.agreements.map((a) => [String(a.id), data.legal[String(a.id)] === true])),
    directors: data.directors.map(String),
    ultimateBeneficiaryOwners: data.ultimateBeneficiaryOwners.map(String),
    shareholders: data.shareholders.map(node),
    users: [...ids],
    personList: data.personList.map((p) => {
      const values = personValuesOf(p);
      const out = personOf(String(p.id), values, ids.has(String(p.id)));
      return {
        ...out,
        accessRights: (out.accessRights ?? null) as 1 | 2 | 3 | 4 | null,
        email: out.email as string | undefined,
        sourcesOfFunds: out.sourcesOfFunds ?? [],
      } as BusinessRegistration['personList'][number];
    }),
    companyList: data.companyList.map((c) => ({
      id: String(c.id),
      name: collapse(c.name),
      registrationNumber: collapse(String(c.registrationNumber ?? '')),
      registrationCountryCode: String(c.registrationCountryCode ?? ''),
      directors: c.directors.map(String),
    })),
    additionalQuestionAnswers: answers,
  };
}

/** The declared owners and the ones the tree makes (what the owners hub lists). */
export function ownerIds(data: BusinessDraftData): string[] {
  const out = new Set(data.ultimateBeneficiaryOwners.map(String));
  for (const u of ultimateBeneficialOwners(data)) out.add(u.personId);
  return [...out];
}

/** A draft read back (local storage or the platform) is taken only as this version's shape. */
export function isDraftData(x: unknown): x is BusinessDraftData {
  if (typeof x !== 'object' || x === null) return false;
  const d = x as Partial<BusinessDraftData>;
  return (
    typeof d.general === 'object' &&
    typeof d.financial === 'object' &&
    typeof d.dueDiligence === 'object' &&
    typeof d.legal === 'object' &&
    Array.isArray(d.personList) &&
    Array.isArray(d.companyList) &&
    Array.isArray(d.shareholders) &&
    Array.isArray(d.directors) &&
    Array.isArray(d.users) &&
    Array.isArray(d.ultimateBeneficiaryOwners) &&
    typeof d.nextId === 'number'
  );
}
