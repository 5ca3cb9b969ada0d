/**
 * The checks of the personal self-certification's steps (document 3 §3 personal FATCA, TIN missing
 * reasons; §5 tax rules), pure: the statechart's guards and the view read them. Errors are the
 * platform's own shape (a ValidationError with a code of api/errors.ts and its params), so the view
 * words them with the same sentences as the platform's VF answers (src/lib/validation-messages.ts);
 * two codes of this flow only (TIN_REQUIRED_CODE, US_CITIZEN_CODE) are worded by the view.
 */
import type { ValidationError } from '../../api/envelope.ts';
import { VfCode, vf } from '../../api/errors.ts';
import {
  needsUsCitizenshipAbsenceReason,
  normaliseTaxIdEntry,
  withUsEntry,
  type PersonalCertification,
  type TaxIdEntry,
  type UsCitizenshipAbsenceReason,
} from '../../api/tax-certification.ts';
import { checkTaxNumberField, taxNumberEntry } from '../../api/tax-numbers.ts';

/** The answers while they are given: every field may still be empty. */
export interface PersonalDraft {
  cityOfBirth: string;
  countryOfBirth: string;
  dateOfBirth: string;
  citizenship: string[];
  isUSTaxPayer: boolean | null;
  usCitizenshipAbsenceReason: UsCitizenshipAbsenceReason | null;
  usCitizenshipAbsenceExplanation: string;
  taxIds: TaxIdEntry[];
}

export interface BirthValues {
  cityOfBirth: string;
  countryOfBirth: string;
  dateOfBirth: string;
}

export interface AbsenceValues {
  reason: UsCitizenshipAbsenceReason | null;
  explanation: string;
}

/** field (as the platform names it: cityOfBirth, citizenship.0, taxIds.1.taxId) -> its error */
export type FieldErrors = Record<string, ValidationError>;

/** The country's row requires a TIN: NO_TIN_IS_REQUIRED is not a reason for it (api/tax-numbers.ts). */
export const TIN_REQUIRED_CODE = 'tinRequiredByCountry';
/** A US citizen is a US taxpayer: "no" is not an answer for them. */
export const US_CITIZEN_CODE = 'usCitizenIsTaxPayer';

export const MAX_CITIZENSHIPS = 5;
export const MAX_TAX_RESIDENCES = 10;
/** Not shown in the spec: a birth date before 1900 is taken for a typing mistake. */
export const EARLIEST_BIRTH_DATE = '1900-01-01';

const own = (param: string, code: string, description: string): ValidationError => ({ param, code, description });
const isCountry = (code: string) => /^[A-Z]{2}$/.test(code);
const isIsoDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);
const byParam = (errors: ValidationError[]): FieldErrors => Object.fromEntries(errors.map((e) => [e.param, e]));

export const emptyDraft = (): PersonalDraft => ({
  cityOfBirth: '',
  countryOfBirth: '',
  dateOfBirth: '',
  citizenship: [],
  isUSTaxPayer: null,
  usCitizenshipAbsenceReason: null,
  usCitizenshipAbsenceExplanation: '',
  taxIds: [],
});

/** The draft of saved answers (changing them) or of the profile's prefill (the first time). */
export function draftOf(saved: PersonalCertification | null, prefill: { dateOfBirth: string | null; countryCode: string | null; taxId: string | null } | null): PersonalDraft {
  if (saved) {
    return {
      ...saved,
      usCitizenshipAbsenceExplanation: saved.usCitizenshipAbsenceExplanation ?? '',
      citizenship: [...saved.citizenship],
      taxIds: saved.taxIds.map((t) => ({ ...t })),
    };
  }
  const draft = emptyDraft();
  if (!prefill) return draft;
  // Not shown in the spec: the profile's residence country is the first citizenship and tax residence offered, its tax id that residence's TIN.
  const country = prefill.countryCode && isCountry(prefill.countryCode) ? prefill.countryCode : '';
  return {
    ...draft,
    dateOfBirth: prefill.dateOfBirth ?? '',
    citizenship: country ? [country] : [],
    taxIds: country ? [{ countryCode: country, taxId: prefill.taxId, tinMissingReason: null, tinMissingExplanation: null }] : [],
  };
}

export function validateBirth(v: BirthValues, today: string): FieldErrors {
  const errors: ValidationError[] = [];
  if (v.cityOfBirth.trim() === '') errors.push(vf('cityOfBirth', VfCode.required));
  else if (v.cityOfBirth.trim().length > 100) errors.push(vf('cityOfBirth', VfCode.tooLong, { max: 100 }));
  if (!isCountry(v.countryOfBirth)) errors.push(vf('countryOfBirth', VfCode.notCountry));
  if (v.dateOfBirth === '') errors.push(vf('dateOfBirth', VfCode.required));
  else if (!isIsoDate(v.dateOfBirth)) errors.push(vf('dateOfBirth', VfCode.notDate));
  else if (v.dateOfBirth > today) errors.push(vf('dateOfBirth', VfCode.notInFuture));
  else if (v.dateOfBirth < EARLIEST_BIRTH_DATE) errors.push(vf('dateOfBirth', VfCode.notBefore, { other: EARLIEST_BIRTH_DATE }));
  return byParam(errors);
}

export function validateCitizenship(citizenship: readonly string[]): FieldErrors {
  const errors: ValidationError[] = [];
  if (citizenship.length === 0) errors.push(vf('citizenship', VfCode.required));
  if (citizenship.length > MAX_CITIZENSHIPS) errors.push(vf('citizenship', VfCode.tooManyItems, { max: MAX_CITIZENSHIPS }));
  citizenship.forEach((c, i) => {
    if (!isCountry(c)) errors.push(vf(`citizenship.${i}`, VfCode.notCountry));
    else if (citizenship.indexOf(c) !== i) errors.push(vf(`citizenship.${i}`, VfCode.duplicateEntry));
  });
  return byParam(errors);
}

/** A US citizen is a US taxpayer (isUsPerson): the answer is yes for them. */
export function validateUsStatus(isUSTaxPayer: boolean | null, citizenship: readonly string[]): FieldErrors {
  if (isUSTaxPayer === null) return byParam([vf('isUSTaxPayer', VfCode.required)]);
  if (!isUSTaxPayer && citizenship.includes('US')) return byParam([own('isUSTaxPayer', US_CITIZEN_CODE, 'a US citizen is a US taxpayer')]);
  return {};
}

export function validateAbsence(v: AbsenceValues): FieldErrors {
  if (v.reason === null) return byParam([vf('usCitizenshipAbsenceReason', VfCode.required)]);
  if (v.reason === 'NOT_CITIZEN_AT_BIRTH' && v.explanation.trim() === '') return byParam([vf('usCitizenshipAbsenceExplanation', VfCode.required)]);
  if (v.explanation.trim().length > 500) return byParam([vf('usCitizenshipAbsenceExplanation', VfCode.tooLong, { max: 500 })]);
  return {};
}

/**
 * One residence: a country, and its TIN (checked against the country's personal format) or why
 * there is none. NO_TIN_IS_REQUIRED only where the country's row does not require a TIN (§5 "follows
 * the table"); CANNOT_OBTAIN needs its explanation. Not shown in the spec: a residence without a
 * TIN always says why (the CRS self-certification asks it), even where the row makes the TIN optional.
 */
export function validateTaxIds(taxIds: readonly TaxIdEntry[]): FieldErrors {
  const errors: ValidationError[] = [];
  if (taxIds.length === 0) errors.push(vf('taxIds', VfCode.required));
  if (taxIds.length > MAX_TAX_RESIDENCES) errors.push(vf('taxIds', VfCode.tooManyItems, { max: MAX_TAX_RESIDENCES }));
  const codes = taxIds.map((t) => t.countryCode);
  taxIds.forEach((t, i) => {
    const p = (f: string) => `taxIds.${i}.${f}`;
    if (!isCountry(t.countryCode)) {
      errors.push(vf(p('countryCode'), VfCode.notCountry));
      return;
    }
    if (codes.indexOf(t.countryCode) !== i) errors.push(vf(p('countryCode'), VfCode.duplicateEntry));
    const tin = (t.taxId ?? '').trim();
    if (tin !== '') {
      const checked = checkTaxNumberField(p('taxId'), t.countryCode, 'personal', tin);
      if (!checked.ok) errors.push(checked.error);
      else if (!/^[A-Z0-9 ./-]{3,50}$/i.test(tin)) errors.push(vf(p('taxId'), VfCode.taxIdFormat));
      return;
    }
    // neither a number nor a reason: the number is asked for (its field is the one on screen; the reason's shows once "no number" is ticked)
    if (t.tinMissingReason === null) errors.push(vf(p('taxId'), VfCode.required));
    else if (t.tinMissingReason === 'NO_TIN_IS_REQUIRED' && taxNumberEntry(t.countryCode).personalRequired) {
      errors.push(own(p('tinMissingReason'), TIN_REQUIRED_CODE, 'the country requires a tax number'));
    } else if (t.tinMissingReason === 'CANNOT_OBTAIN' && (t.tinMissingExplanation ?? '').trim() === '') {
      errors.push(vf(p('tinMissingExplanation'), VfCode.required));
    }
  });
  return byParam(errors);
}

/** The residences as kept: the explanation only for CANNOT_OBTAIN (§5), and a US taxpayer's US entry (§5). */
export function residencesOf(taxIds: readonly TaxIdEntry[], isUSTaxPayer: boolean): TaxIdEntry[] {
  const cleaned = taxIds.map((t) => normaliseTaxIdEntry({ ...t, countryCode: t.countryCode.trim().toUpperCase(), taxId: t.taxId?.trim() || null }));
  return withUsEntry({ taxIds: cleaned }, isUSTaxPayer).taxIds;
}

/** The Update payload of a complete draft (the steps' checks passed). */
export function certificationOf(d: PersonalDraft): PersonalCertification {
  const asked = needsUsCitizenshipAbsenceReason(d);
  return {
    cityOfBirth: d.cityOfBirth.trim(),
    countryOfBirth: d.countryOfBirth,
    dateOfBirth: d.dateOfBirth,
    citizenship: d.citizenship,
    isUSTaxPayer: d.isUSTaxPayer === true,
    usCitizenshipAbsenceReason: asked ? d.usCitizenshipAbsenceReason : null,
    usCitizenshipAbsenceExplanation: asked && d.usCitizenshipAbsenceExplanation.trim() ? d.usCitizenshipAbsenceExplanation.trim() : null,
    taxIds: residencesOf(d.taxIds, d.isUSTaxPayer === true),
  };
}

/** Which question step a field of the Update payload belongs to (the platform's VF goes back there). */
export type QuestionStep = 'birth' | 'citizenship' | 'usStatus' | 'usAbsence' | 'residences';
export function stepOfField(param: string): QuestionStep | null {
  const head = param.split('.')[0];
  switch (head) {
    case 'cityOfBirth':
    case 'countryOfBirth':
    case 'dateOfBirth':
      return 'birth';
    case 'citizenship':
      return 'citizenship';
    case 'isUSTaxPayer':
      return 'usStatus';
    case 'usCitizenshipAbsenceReason':
    case 'usCitizenshipAbsenceExplanation':
      return 'usAbsence';
    case 'taxIds':
      return 'residences';
    default:
      return null;
  }
}
