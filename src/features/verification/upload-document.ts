/**
 * The one real upload of machines/document-upload, used by every view that uploads a document
 * (/limited-account, /company-documents, the profile's identity section): customerJumioDocumentCreate
 * with the document's metadata (number where the category needs one, dates) as the JSON part and
 * the files as parts beside it (the request wrapper's `files` option), named as api/documents.ts
 * DocumentFileField names them: `front`, and `back` or `registrationStamp` for the types that
 * need a second page. Expected failures come back as the machine's values: VF as field errors, no
 * answer as network, the rest refused with the platform's words. Files are never logged.
 */
import { DocumentFileField } from '../../../api/documents.ts';
import { ResponseCode } from '../../../api/envelope.ts';
import type { RequestOf } from '../../../api/method.ts';
import type { Methods } from '../../../api/registry.ts';
import type { UploadRequest, UploadResult } from '../../../machines/document-upload/document-upload.machine.ts';
import { callMethod, describeFailure, isFailure } from '../../lib/request.ts';

/** Besides the machine's request: isDueDiligence 1 for a document the due-diligence review asks for (document 1 §7). */
export interface UploadExtras {
  isDueDiligence?: 0 | 1;
}

export async function uploadDocument(request: UploadRequest, extras: UploadExtras = {}): Promise<UploadResult> {
  const payload: RequestOf<Methods['customerJumioDocumentCreate']> = {
    categoryId: request.categoryId,
    documentTypeId: request.documentTypeId,
    number: request.number ?? undefined,
    issuedDate: request.issuedDate,
    expiresDate: request.expiresDate ?? undefined,
    ...(extras.isDueDiligence !== undefined ? { isDueDiligence: extras.isDueDiligence } : {}),
  };
  const files: [string, Blob][] = [[DocumentFileField.front, request.front]];
  if (request.second && request.secondPage) files.push([DocumentFileField[request.secondPage], request.second]);
  const answer = await callMethod('customerJumioDocumentCreate', payload, { files });
  if (!isFailure(answer)) return { ok: true };
  if (answer.responseCode === ResponseCode.validation && answer.validationErrors && answer.validationErrors.length > 0) {
    return { ok: false, code: 'fields', errors: answer.validationErrors };
  }
  if (answer.responseCode === ResponseCode.network) return { ok: false, code: 'network' };
  return { ok: false, code: 'refused', detail: describeFailure(answer) };
}
