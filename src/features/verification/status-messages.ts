/**
 * The words of the verification pages (/unverified-account, /limited-account, /company-documents,
 * the identity job pages): required actions, restriction reasons, the statuses a customer waits in,
 * a document's state and an identity job's state.
 */
import { useLingui } from '@lingui/react/macro';
import { DocumentStatus, type RequiredActionId, type VerificationStatus } from '../../../api/verification.ts';

type LimitReason = 'expiredDocuments' | 'unpaidInvoice' | 'sanctions' | 'adverseMedia' | 'accountInvestigation';

/** What each required action asks of the customer (document 1 §4 "Required actions counted"). */
export function useRequiredActionTexts(): Record<RequiredActionId, string> {
  const { t } = useLingui();
  return {
    taxSection: t`Complete your tax certification`,
    address: t`Add your full home address`,
    proofOfResidence: t`Upload a proof of address`,
    identity: t`Upload an identity document`,
    phone: t`Confirm your phone number`,
    videoIdentity: t`Repeat the video identification`,
  };
}

/**
 * The restriction reasons (document 1 §4 "Account restriction reasons") with what they mean for the
 * customer. Not shown in the spec: the wording; a bank states the reason and what lifts it, without
 * the details of an investigation.
 */
export function useLimitReasonTexts(): Record<LimitReason, { title: string; text: string }> {
  const { t } = useLingui();
  return {
    expiredDocuments: { title: t`Expired documents`, text: t`Some documents we hold for you have expired. Upload valid ones to lift the limit.` },
    unpaidInvoice: { title: t`Unpaid invoice`, text: t`An invoice of ours is unpaid. The limit is lifted once it is paid.` },
    sanctions: { title: t`Sanctions screening`, text: t`Your account matched a sanctions list and is being reviewed. Send the documents we ask for.` },
    adverseMedia: { title: t`Adverse media screening`, text: t`Your account is being reviewed after a media screening. Send the documents we ask for.` },
    accountInvestigation: { title: t`Account review`, text: t`Your account is under review. We will contact you if we need more from you.` },
  };
}

/** One sentence for the statuses of document 1 §4, as the verification pages say them. */
export function useStatusTexts(): Record<VerificationStatus, string> {
  const { t } = useLingui();
  return {
    checked: t`Your account is verified.`,
    limited: t`Your account is limited.`,
    processing: t`We have everything we asked for and are lifting the limit.`,
    duplicateDocuments: t`Your identity document is registered to another customer. Upload a different identity document.`,
    duplicateDocumentsUploaded: t`We are checking the identity document you uploaded.`,
    hasRequiredActions: t`Your account is not verified yet. A few things are missing.`,
    unverified: t`Your account is not verified yet. Send the documents we ask for.`,
    verificationProcessing: t`We are checking your documents. This usually takes one business day.`,
    finalReview: t`Your profile is complete. We are making the final checks.`,
    someCardDocumentRequired: t`Your card needs one more proof of address.`,
  };
}

export type UploadState = 'none' | 'inReview' | 'confirmed' | 'rejected' | 'expired';

/** The state of the latest upload for a requirement (deleted uploads do not count). */
export function uploadStateOf(uploads: readonly { statusId: number; uploaded: string }[]): UploadState {
  const latest = uploads.filter((u) => u.statusId !== DocumentStatus.deleted).sort((a, b) => (a.uploaded < b.uploaded ? 1 : -1))[0];
  if (!latest) return 'none';
  switch (latest.statusId) {
    case DocumentStatus.confirmed:
      return 'confirmed';
    case DocumentStatus.expired:
      return 'expired';
    case DocumentStatus.rejected:
    case DocumentStatus.nameMismatch:
    case DocumentStatus.canceled:
      return 'rejected';
    default:
      return 'inReview';
  }
}

export function useUploadStateTexts(): Record<UploadState, string> {
  const { t } = useLingui();
  return {
    none: t`Not uploaded`,
    inReview: t`Uploaded, we are checking it`,
    confirmed: t`Accepted`,
    rejected: t`Not accepted: upload it again`,
    expired: t`Expired: upload a valid one`,
  };
}

/** A document status id (document 1 §3) in words. */
export function useDocumentStatusTexts(): (statusId: number) => string {
  const { t } = useLingui();
  const names: Record<number, string> = {
    [DocumentStatus.submitted]: t`Submitted`,
    [DocumentStatus.confirmed]: t`Confirmed`,
    [DocumentStatus.canceled]: t`Canceled`,
    [DocumentStatus.deleted]: t`Deleted`,
    [DocumentStatus.rejected]: t`Rejected`,
    [DocumentStatus.underInvestigation]: t`Under investigation`,
    [DocumentStatus.expired]: t`Expired`,
    [DocumentStatus.pending]: t`Pending`,
    [DocumentStatus.nameMismatch]: t`Name mismatch`,
  };
  return (statusId) => names[statusId] ?? t`Unknown`;
}
