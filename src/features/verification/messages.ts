/** The verification views' wording for the status banner and the document upload machine's codes. */
import { useLingui } from '@lingui/react/macro';
import { DOCUMENT_NUMBER_MAX } from '../../../api/documents.ts';
import type { WarningStatus } from '../../../api/verification.ts';
import type { FieldErrorCode, SecondPage } from '../../../machines/document-upload/document-upload.rules.ts';

/** What the banner says for each status it warns about. */
export function useBannerMessages(): Record<WarningStatus, string> {
  const { t } = useLingui();
  return {
    limited: t`Your account is limited. Send the documents we ask for to lift the limit.`,
    duplicateDocuments: t`Your identity document is registered to another customer. Upload a different identity document.`,
    duplicateDocumentsUploaded: t`We are checking the identity document you uploaded. Some services stay unavailable until then.`,
    unverified: t`Your account is not verified yet. Send the documents we ask for.`,
    hasRequiredActions: t`Your profile needs your attention.`,
    someCardDocumentRequired: t`Your card needs one more proof of address.`,
  };
}

export function useFieldErrorMessages(): Record<Exclude<FieldErrorCode, 'platform'>, string> {
  const { t } = useLingui();
  return {
    fileEmpty: t`The file is empty. Choose another file.`,
    fileTooLarge: t`The file is larger than 10 MB. Choose a smaller file.`,
    fileType: t`Choose a JPEG, PNG or PDF file.`,
    required: t`This is required.`,
    tooLong: t`Use at most ${DOCUMENT_NUMBER_MAX} characters.`,
    invalidDate: t`Enter a valid date.`,
    issuedInFuture: t`The issue date cannot be in the future.`,
    expired: t`The document has expired. Upload a valid document.`,
    expiresBeforeIssued: t`The expiry date must be after the issue date.`,
  };
}

/** The name of the second file a document type needs. */
export function useSecondPageNames(): Record<SecondPage, string> {
  const { t } = useLingui();
  return { back: t`Back side`, registrationStamp: t`Registration stamp page` };
}
