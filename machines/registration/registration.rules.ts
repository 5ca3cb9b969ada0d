/**
 * Field rules of personal registration and activation (document 1 §4, §5), shared by the
 * machines' guards, the views (never recomputed there: the machine stores the result) and the
 * unit tests. They use the contract's own schemas, so the web app refuses what the platform would.
 */
import * as v from 'valibot';
import { PasswordSchema } from '../../api/auth.ts';
import {
  ActivationCodeSchema,
  LoginEmailSchema,
  NAME_MAX_LENGTH,
  PersonNameSchema,
  collapseWhitespace,
  type PersonalType,
} from '../../api/registration.ts';

/** Document 1 §4: the existence check is sent only for text longer than 5 characters holding @ and a dot. */
export const EMAIL_CHECK_MIN_LENGTH = 6;

export function shouldCheckEmail(raw: string): boolean {
  const text = collapseWhitespace(raw);
  return text.length >= EMAIL_CHECK_MIN_LENGTH && text.includes('@') && text.includes('.') && v.is(LoginEmailSchema, text);
}

/** The login as sent: trimmed, whitespace collapsed, lower-cased. */
export function normaliseEmail(raw: string): string {
  return collapseWhitespace(raw).toLowerCase();
}

export interface RegistrationForm {
  personalType: PersonalType | '';
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  residenceCountryCode: string;
  phoneCountryCode: string;
  phone: string;
  acceptTerms: boolean;
}

export type RegistrationField = keyof RegistrationForm;
export type RegistrationFieldError =
  | 'required'
  | 'nameTooLong'
  | 'invalidEmail'
  | 'emailTaken'
  | 'emailEmployee'
  | 'weakPassword'
  | 'phoneCountryRequired'
  | 'invalidPhone'
  | 'termsRequired'
  | 'notOffered';
export type FieldErrors = Partial<Record<RegistrationField, RegistrationFieldError>>;

const PHONE = /^[0-9]{4,15}$/;
const PHONE_COUNTRY = /^[0-9]{1,4}$/;
const compactPhone = (s: string) => s.replace(/[\s().-]/g, '');
const compactCountryCode = (s: string) => s.replace(/[+\s]/g, '');

/** Every bad field of the form, by field (empty when the form can be sent). */
export function validateRegistration(form: RegistrationForm, personalTypes: readonly PersonalType[]): FieldErrors {
  const errors: FieldErrors = {};
  if (form.personalType === '' || !personalTypes.includes(form.personalType)) errors.personalType = 'notOffered';
  for (const field of ['firstName', 'lastName'] as const) {
    const text = collapseWhitespace(form[field]);
    if (text.length === 0) errors[field] = 'required';
    else if (!v.is(PersonNameSchema, form[field]) || text.length > NAME_MAX_LENGTH) errors[field] = 'nameTooLong';
  }
  if (collapseWhitespace(form.email).length === 0) errors.email = 'required';
  else if (!v.is(LoginEmailSchema, form.email)) errors.email = 'invalidEmail';
  if (!v.is(PasswordSchema, form.password)) errors.password = 'weakPassword';
  if (form.residenceCountryCode === '') errors.residenceCountryCode = 'required';
  const phone = compactPhone(form.phone);
  const country = compactCountryCode(form.phoneCountryCode);
  if (phone !== '') {
    if (!PHONE.test(phone)) errors.phone = 'invalidPhone';
    if (!PHONE_COUNTRY.test(country)) errors.phoneCountryCode = 'phoneCountryRequired';
  }
  if (!form.acceptTerms) errors.acceptTerms = 'termsRequired';
  return errors;
}

export function hasErrors(errors: object): boolean {
  return Object.keys(errors).length > 0;
}

/** The accountCreate payload of a valid form (the phone only when one was given). */
export function registrationRequest(form: RegistrationForm) {
  const phone = compactPhone(form.phone);
  return {
    personalType: form.personalType as PersonalType,
    firstName: collapseWhitespace(form.firstName),
    lastName: collapseWhitespace(form.lastName),
    email: normaliseEmail(form.email),
    password: form.password,
    residenceCountryCode: form.residenceCountryCode,
    ...(phone !== '' ? { phoneCountryCode: compactCountryCode(form.phoneCountryCode), phone } : {}),
    acceptTerms: true as const,
  };
}

export type ActivationField = 'email' | 'code' | 'password';
export type ActivationFieldError = 'required' | 'invalidEmail' | 'invalidCode' | 'weakPassword';
export type ActivationFieldErrors = Partial<Record<ActivationField, ActivationFieldError>>;

export function validateActivation(fields: { email: string; code: string; password?: string | undefined }): ActivationFieldErrors {
  const errors: ActivationFieldErrors = {};
  if (collapseWhitespace(fields.email).length === 0) errors.email = 'required';
  else if (!v.is(LoginEmailSchema, fields.email)) errors.email = 'invalidEmail';
  if (fields.code.trim() === '') errors.code = 'required';
  else if (!v.is(ActivationCodeSchema, fields.code)) errors.code = 'invalidCode';
  if (fields.password !== undefined && !v.is(PasswordSchema, fields.password)) errors.password = 'weakPassword';
  return errors;
}

/** The code as sent: spaces and dashes dropped, upper case. */
export function normaliseCode(raw: string): string {
  return raw.replace(/[\s-]/g, '').toUpperCase();
}
