/**
 * The client-side checks of one document upload (the platform checks again, by content): the file
 * (non-empty, at most MAX_DOCUMENT_BYTES, an accepted type), the details (the document number where
 * the category needs one, the dates), and where a platform validation error (VF param) belongs in
 * the form. Pure; errors are codes the view translates.
 */
import { DOCUMENT_NUMBER_MAX } from '../../api/documents.ts';
import { ACCEPTED_DOCUMENT_TYPES, DocumentCategory, MAX_DOCUMENT_BYTES } from '../../api/verification.ts';
import type { ValidationError } from '../../api/envelope.ts';

/** The file a customer picked (the view copies it from the File; `content` is what is sent). */
export interface UploadFile {
  name: string;
  size: number;
  /** the declared media type (the browser's guess from the name) */
  type: string;
  content: Blob;
}

/** The second file some document types need besides the front page (dictionary secondPage). */
export type SecondPage = 'back' | 'registrationStamp';

/** A document type the requirement accepts, with the second file it needs (null: one file). */
export interface UploadDocumentType {
  id: number;
  secondPage: SecondPage | null;
}

export type UploadField = 'documentType' | 'front' | 'secondPage' | 'number' | 'issuedDate' | 'expiresDate';

export type FieldErrorCode =
  | 'fileEmpty'
  | 'fileTooLarge'
  | 'fileType'
  | 'required'
  /** the document number is longer than DOCUMENT_NUMBER_MAX */
  | 'tooLong'
  | 'invalidDate'
  /** the issue date is after today */
  | 'issuedInFuture'
  /** the expiry date is before today: the document has expired */
  | 'expired'
  /** the expiry date is not after the issue date */
  | 'expiresBeforeIssued'
  /** the platform refused the field (detail: its description, shown as is) */
  | 'platform';

export interface FieldError {
  code: FieldErrorCode;
  detail: string | null;
  /** the platform's error (code 'platform'): the view words its code */
  error?: ValidationError;
}
export type FieldErrors = Partial<Record<UploadField, FieldError>>;

const error = (code: FieldErrorCode): FieldError => ({ code, detail: null });

/** Null when the file may be sent. */
export function checkFile(file: Pick<UploadFile, 'size' | 'type'>): FieldError | null {
  if (file.size <= 0) return error('fileEmpty');
  if (file.size > MAX_DOCUMENT_BYTES) return error('fileTooLarge');
  if (!(ACCEPTED_DOCUMENT_TYPES as readonly string[]).includes(file.type)) return error('fileType');
  return null;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar date in yyyy-mm-dd (2026-02-30 is not). */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export interface DocumentDates {
  issuedDate: string;
  /** '' when the document has no expiry date (allowed unless the requirement asks for one) */
  expiresDate: string;
}

/** The details step: the document number (kept '' when the category does not ask for one) and the dates. */
export interface DocumentDetails extends DocumentDates {
  number: string;
}

/**
 * The platform requires a document number of an identity document (category 1) only: it finds the
 * same document on two customers (server/modules/profile/documents.service.ts prepareDocument).
 */
export function numberRequiredFor(categoryId: number): boolean {
  return categoryId === DocumentCategory.identity;
}

/** The document number: trimmed, required, at most DOCUMENT_NUMBER_MAX characters (api/documents.ts). */
export function validateNumber(number: string): FieldError | null {
  const trimmed = number.trim();
  if (trimmed === '') return error('required');
  if (trimmed.length > DOCUMENT_NUMBER_MAX) return error('tooLong');
  return null;
}

/** The details: the number when `numberRequired`, and the dates (validateDates). */
export function validateDetails(details: DocumentDetails, numberRequired: boolean, expiryRequired: boolean, today: string): FieldErrors {
  const out: FieldErrors = {};
  const number = numberRequired ? validateNumber(details.number) : null;
  if (number) out.number = number;
  return { ...out, ...validateDates(details, expiryRequired, today) };
}

/**
 * The dates of a document: the issue date is required and not in the future; the expiry date is
 * required when `expiryRequired` (identity documents), and when given it is after the issue date
 * and not before today (an expired document is refused here rather than after an upload). `today`
 * is yyyy-mm-dd.
 */
export function validateDates(dates: DocumentDates, expiryRequired: boolean, today: string): FieldErrors {
  const out: FieldErrors = {};
  const issued = dates.issuedDate.trim();
  const expires = dates.expiresDate.trim();
  if (issued === '') out.issuedDate = error('required');
  else if (!isIsoDate(issued)) out.issuedDate = error('invalidDate');
  else if (issued > today) out.issuedDate = error('issuedInFuture');
  if (expires === '') {
    if (expiryRequired) out.expiresDate = error('required');
  } else if (!isIsoDate(expires)) out.expiresDate = error('invalidDate');
  else if (expires < today) out.expiresDate = error('expired');
  else if (out.issuedDate === undefined && expires <= issued) out.expiresDate = error('expiresBeforeIssued');
  return out;
}

/**
 * The form field a platform VF param belongs to. The upload call names the files mainDocument
 * (the front page) and additionalDocument (the back or the registration stamp page), as the
 * address calls do (issue 5); `file` and `back` are read too. Unknown params: null (shown with the
 * failure, not on a field).
 */
export function fieldOfParam(param: string): UploadField | null {
  const head = param.split('.')[0] ?? '';
  switch (head) {
    case 'documentTypeId':
    case 'typeId':
      return 'documentType';
    case 'mainDocument':
    case 'file':
    case 'front':
      return 'front';
    case 'additionalDocument':
    case 'back':
    case 'registrationStamp':
      return 'secondPage';
    case 'number':
      return 'number';
    case 'issuedDate':
      return 'issuedDate';
    case 'expiresDate':
      return 'expiresDate';
    default:
      return null;
  }
}

/** The platform's VF list on the form's fields; params of no field are returned apart. */
export function fieldErrorsOf(errors: readonly ValidationError[]): { fieldErrors: FieldErrors; other: ValidationError[] } {
  const fieldErrors: FieldErrors = {};
  const other: ValidationError[] = [];
  for (const e of errors) {
    const field = fieldOfParam(e.param);
    if (field === null) other.push(e);
    else if (!fieldErrors[field]) fieldErrors[field] = { code: 'platform', detail: e.description, error: e };
  }
  return { fieldErrors, other };
}
