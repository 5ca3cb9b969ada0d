/**
 * The verification vocabulary of document 1 §3-§4, without schemas: document categories and
 * status ids, the derived document state, and the inputs of the account verification status.
 * Shared by the platform (identity and proof-of-residence states in its answers) and the web app
 * (the verification status statechart and its banner), so both derive states the same way.
 */

/** Document categories (document 1 §3). */
export const DocumentCategory = {
  identity: 1,
  address: 2,
  phone: 3,
  businessRegistration: 4,
  other: 5,
  relationship: 6,
  businessAddress: 7,
  registrationAddress: 8,
  control: 9,
  businessAdditional: 10,
  sourceOfWealth: 11,
  residencePermit: 12,
} as const;
export type DocumentCategoryId = (typeof DocumentCategory)[keyof typeof DocumentCategory];

/** Document status ids (document 1 §3). */
export const DocumentStatus = {
  submitted: 0,
  confirmed: 2,
  canceled: 4,
  deleted: 5,
  rejected: 26,
  underInvestigation: 31,
  expired: 38,
  pending: 41,
  nameMismatch: 64,
} as const;
export type DocumentStatusId = (typeof DocumentStatus)[keyof typeof DocumentStatus];

/** Statuses of a document an administrator has not decided yet ("in review"). */
export const IN_REVIEW_STATUSES: ReadonlySet<number> = new Set([DocumentStatus.submitted, DocumentStatus.pending, DocumentStatus.underInvestigation]);

/** Derived document states (document 1 §3). */
export const DOCUMENT_STATES = ['none', 'rejected', 'expiredSoon', 'validated', 'pending', 'notRequired', 'expired'] as const;
export type DocumentState = (typeof DOCUMENT_STATES)[number];

/**
 * A confirmed document whose expiry date is at most this many days away is expiredSoon.
 * Not shown in the spec: 30 days gives the customer a month to upload a new one.
 */
export const EXPIRES_SOON_DAYS = 30;

/** What the state derivation reads of an uploaded document. */
export interface DocumentFacts {
  statusId: number;
  /** ISO date-time of the upload: the latest upload decides */
  uploaded: string;
  /** ISO date (yyyy-mm-dd) or null */
  expiresDate: string | null;
}

/**
 * The derived state of what a customer uploaded for one purpose (identity, proof of residence...):
 * the latest document not deleted decides.
 * - none: nothing uploaded (or everything deleted)
 * - pending: submitted, pending or under investigation
 * - validated: confirmed and not expiring within EXPIRES_SOON_DAYS
 * - expiredSoon: confirmed and expiring within EXPIRES_SOON_DAYS
 * - expired: status expired, or confirmed with an expiry date before today
 * - rejected: rejected, name mismatch or canceled (the customer must upload again)
 * - notRequired: the purpose is not required of this customer (nothing uploaded)
 * `today` is an ISO date (yyyy-mm-dd) in UTC.
 */
export function documentState(documents: readonly DocumentFacts[], today: string, required = true): DocumentState {
  let latest: DocumentFacts | undefined;
  for (const d of documents) {
    if (d.statusId === DocumentStatus.deleted) continue;
    if (!latest || d.uploaded > latest.uploaded) latest = d;
  }
  if (!latest) return required ? 'none' : 'notRequired';
  switch (latest.statusId) {
    case DocumentStatus.confirmed: {
      if (latest.expiresDate === null) return 'validated';
      if (latest.expiresDate < today) return 'expired';
      return latest.expiresDate <= addDays(today, EXPIRES_SOON_DAYS) ? 'expiredSoon' : 'validated';
    }
    case DocumentStatus.expired:
      return 'expired';
    case DocumentStatus.rejected:
    case DocumentStatus.nameMismatch:
    case DocumentStatus.canceled:
      return 'rejected';
    default:
      return 'pending';
  }
}

/** yyyy-mm-dd plus n days (UTC). */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Video identity statuses (document 1 §3 names the status; its values are not shown). */
export const VIDEO_IDENTITY_STATUSES = ['none', 'pending', 'approved', 'rejected'] as const;
export type VideoIdentityStatus = (typeof VIDEO_IDENTITY_STATUSES)[number];

/**
 * Duplicate documents (document 1 §4 rule 3): `required` when the platform found the customer's
 * identity document number on another customer (duplicateDocuments), `uploaded` once the customer
 * has uploaded a new identity document since (duplicateDocumentsUploaded).
 */
export const DUPLICATE_DOCUMENT_STATES = ['none', 'required', 'uploaded'] as const;
export type DuplicateDocumentState = (typeof DUPLICATE_DOCUMENT_STATES)[number];

/**
 * Everything the account verification status (document 1 §4) is derived from: the platform's
 * `userStatusGet` answers exactly this, and the web app's verification statechart evaluates it.
 */
export interface VerificationInputs {
  customerType: 'personal' | 'business';
  /** a business representative (director, shareholder, owner) acting for a company: checked */
  isRepresentative: boolean;
  verified: boolean;
  limited: boolean;
  /** the account restriction reasons, each with the documents it requires and what was uploaded for them */
  limitReasons: {
    actionTypeId: number;
    reason: 'expiredDocuments' | 'unpaidInvoice' | 'sanctions' | 'adverseMedia' | 'accountInvestigation';
    requirementDocuments: { documentTypeId: number; uploadedDocuments: { statusId: number }[] }[];
  }[];
  duplicateDocuments: DuplicateDocumentState;
  /** the four tax certificate states (notRequired unless the provider asks for the tax section) */
  taxCertification: {
    w9FormDocumentStatus: DocumentState;
    certificateOfLossOfNationalityDocumentStatus: DocumentState;
    taxResidencySelfCertificationDocumentStatus: DocumentState;
    w8BenFormDocumentStatus: DocumentState;
  };
  /** the main address: missing, or incomplete (a required field empty), or complete */
  address: 'missing' | 'incomplete' | 'complete';
  /** a card needs a further address document (someCardDocumentRequired) */
  isCardDocumentRequired: boolean;
  proofOfResidence: DocumentState;
  identity: DocumentState;
  phoneConfirmed: boolean;
  videoIdentity: VideoIdentityStatus;
  /** documents uploaded and not yet decided by an administrator */
  documentsInReview: boolean;
}
