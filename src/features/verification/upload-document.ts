/**
 * The real upload of machines/document-upload: customerDocumentCreate as multipart (the request
 * wrapper sends a payload holding a Blob as multipart: the JSON in `data`, each file in a part
 * named by its key, here `front` and `back` or `registrationStamp`, as api/documents.ts
 * DocumentFileField names them). Expected failures come back as the machine's values: VF as field
 * errors, no answer as network, the rest refused with the platform's words.
 */
import { ResponseCode } from '../../../api/envelope.ts';
import type { RequestOf } from '../../../api/method.ts';
import type { Methods } from '../../../api/registry.ts';
import type { UploadRequest, UploadResult } from '../../../machines/document-upload/document-upload.machine.ts';
import { callMethod, describeFailure, isFailure } from '../../lib/request.ts';

export async function uploadDocument(request: UploadRequest): Promise<UploadResult> {
  const payload = {
    categoryId: request.categoryId,
    documentTypeId: request.documentTypeId,
    issuedDate: request.issuedDate,
    expiresDate: request.expiresDate ?? undefined,
    front: request.front,
    ...(request.second && request.secondPage ? { [request.secondPage]: request.second } : {}),
  };
  // The files are multipart parts beside the contract's fields (the schema describes the JSON part).
  const answer = await callMethod('customerDocumentCreate', payload as RequestOf<Methods['customerDocumentCreate']>);
  if (!isFailure(answer)) return { ok: true };
  if (answer.responseCode === ResponseCode.validation && answer.validationErrors && answer.validationErrors.length > 0) {
    return { ok: false, code: 'fields', errors: answer.validationErrors };
  }
  if (answer.responseCode === ResponseCode.network) return { ok: false, code: 'network' };
  return { ok: false, code: 'refused', detail: describeFailure(answer) };
}
