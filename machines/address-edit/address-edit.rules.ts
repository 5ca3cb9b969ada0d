/**
 * The client-side checks of an address change (api/profile.ts customerAddressCreateOrReplace; the
 * platform checks again): the address fields, the documents that prove it, and where a platform
 * validation error (VF param) belongs in the form. Pure; errors are codes the view translates.
 */
import type { ValidationError } from '../../api/envelope.ts';
import { checkFile, isIsoDate, type UploadFile } from '../document-upload/document-upload.rules.ts';

export const ADDRESS_TYPE_VALUES = ['home', 'residence', 'business', 'homeAndBusiness', 'office', 'unspecified'] as const;
export type AddressTypeValue = (typeof ADDRESS_TYPE_VALUES)[number];

export interface AddressValues {
  addressType: AddressTypeValue;
  address1: string;
  address2: string;
  city: string;
  postalCode: string;
  /** ISO alpha-2 */
  countryCode: string;
  stateName: string;
}

/** The document parts of the call (document 1 §7): each its own file part of the same name. */
export const ADDRESS_DOCUMENT_KEYS = ['mainDocument', 'additionalDocument', 'relationshipDocument'] as const;
export type AddressDocumentKey = (typeof ADDRESS_DOCUMENT_KEYS)[number];

export interface AddressDocumentDraft {
  documentTypeId: number;
  /** the type needs a second file (its back, or the registration stamp page) */
  secondPage: 'back' | 'registrationStamp' | null;
  file: UploadFile;
  second: UploadFile | null;
  /** yyyy-mm-dd: a proof of address says when it was issued */
  issuedDate: string;
  /** yyyy-mm-dd or '' */
  expiresDate: string;
}
export type AddressDocuments = Partial<Record<AddressDocumentKey, AddressDocumentDraft>>;

export type AddressField = keyof Omit<AddressValues, 'addressType'> | 'addressType';
export type DocumentField = `${AddressDocumentKey}.${'documentTypeId' | 'file' | 'second' | 'issuedDate' | 'expiresDate'}`;
export type AddressFormField = AddressField | DocumentField;

export type AddressErrorCode =
  | 'required'
  | 'tooLong'
  | 'countryCode'
  | 'fileEmpty'
  | 'fileTooLarge'
  | 'fileType'
  | 'invalidDate'
  | 'issuedInFuture'
  | 'expired'
  | 'expiresBeforeIssued'
  /** the platform refused the field (detail: its words, shown as is) */
  | 'platform';

export interface AddressFieldError {
  code: AddressErrorCode;
  detail: string | null;
  /** the platform's error (code 'platform'): the view words its code */
  error?: ValidationError;
}
export type AddressFieldErrors = Partial<Record<AddressFormField, AddressFieldError>>;

const error = (code: AddressErrorCode): AddressFieldError => ({ code, detail: null });

/** The contract's limits (api/profile.ts). */
const MAX_LENGTH: Record<Exclude<AddressField, 'addressType' | 'countryCode'>, number> = { address1: 200, address2: 200, city: 100, postalCode: 20, stateName: 100 };
const REQUIRED: readonly AddressField[] = ['address1', 'city', 'postalCode', 'countryCode'];

export function validateAddress(values: AddressValues): AddressFieldErrors {
  const out: AddressFieldErrors = {};
  for (const field of REQUIRED) if (values[field].trim() === '') out[field] = error('required');
  for (const [field, max] of Object.entries(MAX_LENGTH) as [keyof typeof MAX_LENGTH, number][]) {
    if (out[field] === undefined && values[field].trim().length > max) out[field] = error('tooLong');
  }
  if (out.countryCode === undefined && !/^[A-Za-z]{2}$/.test(values.countryCode.trim())) out.countryCode = error('countryCode');
  if (!(ADDRESS_TYPE_VALUES as readonly string[]).includes(values.addressType)) out.addressType = error('required');
  return out;
}

/**
 * The documents: `mainRequired` for a new address (a new address must be proven; a corrected
 * one keeps its proof unless the customer sends another). Each document given needs its type, an
 * acceptable file (and its second file when the type needs one) and an issue date not in the
 * future; an expiry date, when given, after the issue date and not before today.
 */
export function validateDocuments(documents: AddressDocuments, mainRequired: boolean, today: string): AddressFieldErrors {
  const out: AddressFieldErrors = {};
  if (mainRequired && !documents.mainDocument) out['mainDocument.file'] = error('required');
  for (const key of ADDRESS_DOCUMENT_KEYS) {
    const d = documents[key];
    if (!d) continue;
    if (!Number.isInteger(d.documentTypeId) || d.documentTypeId < 1) out[`${key}.documentTypeId`] = error('required');
    const fileError = checkFile(d.file);
    if (fileError) out[`${key}.file`] = error(fileError.code as AddressErrorCode);
    if (d.secondPage) {
      if (!d.second) out[`${key}.second`] = error('required');
      else {
        const secondError = checkFile(d.second);
        if (secondError) out[`${key}.second`] = error(secondError.code as AddressErrorCode);
      }
    }
    const issued = d.issuedDate.trim();
    const expires = d.expiresDate.trim();
    if (issued === '') out[`${key}.issuedDate`] = error('required');
    else if (!isIsoDate(issued)) out[`${key}.issuedDate`] = error('invalidDate');
    else if (issued > today) out[`${key}.issuedDate`] = error('issuedInFuture');
    if (expires !== '') {
      if (!isIsoDate(expires)) out[`${key}.expiresDate`] = error('invalidDate');
      else if (expires < today) out[`${key}.expiresDate`] = error('expired');
      else if (out[`${key}.issuedDate`] === undefined && expires <= issued) out[`${key}.expiresDate`] = error('expiresBeforeIssued');
    }
  }
  return out;
}

const ADDRESS_FIELDS: ReadonlySet<string> = new Set(['addressType', 'address1', 'address2', 'city', 'postalCode', 'countryCode', 'stateName']);

/**
 * The form field of a platform VF param: the address fields by name; a document's file part is
 * named by its key (`mainDocument`), its second file `mainDocument.back` or
 * `mainDocument.registrationStamp`, its metadata `mainDocument.issuedDate`... Unknown: null.
 */
export function fieldOfParam(param: string): AddressFormField | null {
  if (ADDRESS_FIELDS.has(param)) return param as AddressField;
  if (param === 'stateCode') return 'stateName';
  const [head, tail] = param.split('.', 2) as [string, string | undefined];
  if (!(ADDRESS_DOCUMENT_KEYS as readonly string[]).includes(head)) return null;
  const key = head as AddressDocumentKey;
  if (tail === undefined) return `${key}.file`;
  if (tail === 'back' || tail === 'registrationStamp') return `${key}.second`;
  if (tail === 'documentTypeId' || tail === 'issuedDate' || tail === 'expiresDate') return `${key}.${tail}`;
  return null;
}

export function isDocumentField(field: AddressFormField): field is DocumentField {
  return field.includes('.');
}

/** Splits a VF list into field errors and the rest (shown with the failure). */
export function fieldErrorsOf(errors: readonly ValidationError[]): { fieldErrors: AddressFieldErrors; other: ValidationError[] } {
  const fieldErrors: AddressFieldErrors = {};
  const other: ValidationError[] = [];
  for (const e of errors) {
    const field = fieldOfParam(e.param);
    if (field && fieldErrors[field] === undefined) fieldErrors[field] = { code: 'platform', detail: e.description, error: e };
    else if (!field) other.push(e);
  }
  return { fieldErrors, other };
}
