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

// ---------------------------------------------------------------------------------------------
// The rules of document 1 §4 "Account verification status", "Required actions counted" and
// "Status banner": pure functions of VerificationInputs, so the platform and the web app (the
// verification-status statechart and its banner) derive the same status.
// ---------------------------------------------------------------------------------------------

/** Where a customer fixes a required action: a section of /profile (its element id there). */
export const PROFILE_SECTIONS = ['taxCertification', 'address', 'proofOfResidence', 'identity', 'phones', 'videoIdentity'] as const;
export type ProfileSection = (typeof PROFILE_SECTIONS)[number];

/** The required actions counted (document 1 §4), in the order the profile lists them. */
export const REQUIRED_ACTION_IDS = ['taxSection', 'address', 'proofOfResidence', 'identity', 'phone', 'videoIdentity'] as const;
export type RequiredActionId = (typeof REQUIRED_ACTION_IDS)[number];

export interface RequiredAction {
  id: RequiredActionId;
  /** the profile section where the customer fixes it */
  section: ProfileSection;
}

const SECTION_OF: Readonly<Record<RequiredActionId, ProfileSection>> = {
  taxSection: 'taxCertification',
  address: 'address',
  proofOfResidence: 'proofOfResidence',
  identity: 'identity',
  phone: 'phones',
  videoIdentity: 'videoIdentity',
};

/** States of a tax certificate that leave a gap in the tax section (none or rejected). */
const TAX_GAP_STATES: ReadonlySet<DocumentState> = new Set(['none', 'rejected']);
/**
 * Proof-of-residence states that ask for a new one: expiredSoon, none and rejected (the spec), and
 * expired. Not in the spec's list: an expired proof is past what expiredSoon warns about, so a
 * real bank asks for a new one too (document states derive expired for a confirmed document whose
 * expiry date has passed; it would otherwise stop counting the day it expires).
 */
const PROOF_OF_RESIDENCE_ACTION_STATES: ReadonlySet<DocumentState> = new Set(['expiredSoon', 'none', 'rejected', 'expired']);
/**
 * Identity states that ask for a new document: missing (none), rejected (documentState derives it
 * from rejected, name mismatch and canceled), and expired. Expired is not in the spec's list; a
 * real bank cannot keep an expired identity document on file, so it counts. expiredSoon does NOT
 * count for identity (the spec lists it for proof of residence only): the profile shows the
 * expiry date, and the document counts the day it expires.
 */
const IDENTITY_ACTION_STATES: ReadonlySet<DocumentState> = new Set(['none', 'rejected', 'expired']);

/** The tax section gap (personal customers only): any of the four certificates none or rejected. */
export function hasTaxSectionGap(i: Pick<VerificationInputs, 'customerType' | 'taxCertification'>): boolean {
  if (i.customerType !== 'personal') return false;
  const t = i.taxCertification;
  return [t.w9FormDocumentStatus, t.certificateOfLossOfNationalityDocumentStatus, t.taxResidencySelfCertificationDocumentStatus, t.w8BenFormDocumentStatus].some((s) =>
    TAX_GAP_STATES.has(s),
  );
}

/** Document 1 §4 "Required actions counted", in REQUIRED_ACTION_IDS order. */
export function requiredActions(i: VerificationInputs): RequiredAction[] {
  const counted: Record<RequiredActionId, boolean> = {
    taxSection: hasTaxSectionGap(i),
    address: i.address !== 'complete',
    proofOfResidence: PROOF_OF_RESIDENCE_ACTION_STATES.has(i.proofOfResidence),
    identity: IDENTITY_ACTION_STATES.has(i.identity),
    phone: !i.phoneConfirmed,
    videoIdentity: i.videoIdentity === 'rejected',
  };
  return REQUIRED_ACTION_IDS.filter((id) => counted[id]).map((id) => ({ id, section: SECTION_OF[id] }));
}

/** Statuses of an uploaded document that do not fulfil a requirement (the customer must upload again). */
const UNFULFILLING_STATUSES: ReadonlySet<number> = new Set([
  DocumentStatus.deleted,
  DocumentStatus.rejected,
  DocumentStatus.canceled,
  DocumentStatus.nameMismatch,
  DocumentStatus.expired,
]);

/** A requirement document of an account restriction (or of an unverified customer's limit data). */
export interface LimitDocument {
  actionTypeId: number;
  documentTypeId: number;
}

/**
 * A limit requirement is "in" (uploaded) when one of its uploaded documents is confirmed or still in
 * review; deleted, rejected, canceled, name-mismatched and expired uploads do not count.
 */
function isDocumentIn(req: { uploadedDocuments: readonly { statusId: number }[] }): boolean {
  return req.uploadedDocuments.some((d) => !UNFULFILLING_STATUSES.has(d.statusId));
}

/** Every requirement document of every limit reason, in the platform's order. */
export function limitDocuments(i: Pick<VerificationInputs, 'limitReasons'>): (LimitDocument & { in: boolean; inReview: boolean })[] {
  return i.limitReasons.flatMap((r) =>
    r.requirementDocuments.map((d) => ({
      actionTypeId: r.actionTypeId,
      documentTypeId: d.documentTypeId,
      in: isDocumentIn(d),
      inReview: d.uploadedDocuments.some((u) => IN_REVIEW_STATUSES.has(u.statusId)),
    })),
  );
}

/** The limit requirement documents not uploaded yet (what the customer still has to send). */
export function missingLimitDocuments(i: Pick<VerificationInputs, 'limitReasons'>): LimitDocument[] {
  return limitDocuments(i)
    .filter((d) => !d.in)
    .map(({ actionTypeId, documentTypeId }) => ({ actionTypeId, documentTypeId }));
}

/**
 * "All limit documents are in": at least one requirement document exists and each has an upload
 * that counts. A restriction without requirement documents (an unpaid invoice, sanctions) has
 * nothing the customer could have sent, so it is never "all in": the account stays limited and the
 * limited-account page shows the reason. (Read literally, "all of none" would be true and such an
 * account would read "processing" though nobody is processing anything the customer sent.)
 */
export function allLimitDocumentsIn(i: Pick<VerificationInputs, 'limitReasons'>): boolean {
  const docs = limitDocuments(i);
  return docs.length > 0 && docs.every((d) => d.in);
}

/** The statuses of document 1 §4 (rules 1-6), plus someCardDocumentRequired. */
export const VERIFICATION_STATUSES = [
  'checked',
  'limited',
  'processing',
  'duplicateDocuments',
  'duplicateDocumentsUploaded',
  'hasRequiredActions',
  'unverified',
  'verificationProcessing',
  'finalReview',
  'someCardDocumentRequired',
] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/**
 * The first-match rules of document 1 §4 "Account verification status", in order. Each rule is a
 * predicate read after every earlier one failed; `verificationStatus` returns the status of the
 * first that holds, and the verification-status statechart has one guard per rule, in the same
 * order (machines/verification-status). Ids name the spec's rule: '2a' is rule 2's first case.
 *
 * Interpretations (the spec's words in quotes):
 * - 2a "processing if all limit documents are uploaded and none is in review", read literally: every
 *   requirement document is in (allLimitDocumentsIn) and no upload of them awaits an administrator,
 *   i.e. they are decided and the provider is lifting the restriction. While one is in review the
 *   account reads limited (2b): the limited-account page shows each document's own state.
 * - 5b "unverified if any required action count exists": rule 4 has already taken every counted
 *   profile action, so what an unverified customer can still be asked for here is the requirement
 *   documents of their limit data not uploaded yet; 5a takes the case where all of them are in. So
 *   5a/5b apply when the limit data lists documents, 5c/5d when it lists none.
 * - someCardDocumentRequired (the spec names the state, not its place): after rule 5 and before 6,
 *   i.e. for a verified customer with nothing else to do whose card needs a further address
 *   document. It only keeps a card from being issued, so every account-wide rule comes first; a
 *   representative (rule 1) is checked: the company's cards are not theirs to document.
 */
export const VERIFICATION_RULES = [
  { id: '1', status: 'checked', when: (i: VerificationInputs) => i.isRepresentative },
  { id: '2a', status: 'processing', when: (i: VerificationInputs) => i.limited && allLimitDocumentsIn(i) && !limitDocuments(i).some((d) => d.inReview) },
  { id: '2b', status: 'limited', when: (i: VerificationInputs) => i.limited },
  { id: '3a', status: 'duplicateDocumentsUploaded', when: (i: VerificationInputs) => i.duplicateDocuments === 'uploaded' },
  { id: '3b', status: 'duplicateDocuments', when: (i: VerificationInputs) => i.duplicateDocuments === 'required' },
  { id: '4', status: 'hasRequiredActions', when: (i: VerificationInputs) => requiredActions(i).length > 0 },
  { id: '5a', status: 'processing', when: (i: VerificationInputs) => !i.verified && allLimitDocumentsIn(i) },
  { id: '5b', status: 'unverified', when: (i: VerificationInputs) => !i.verified && missingLimitDocuments(i).length > 0 },
  { id: '5c', status: 'verificationProcessing', when: (i: VerificationInputs) => !i.verified && i.documentsInReview },
  { id: '5d', status: 'checked', when: (i: VerificationInputs) => !i.verified && i.customerType === 'business' },
  { id: '5e', status: 'finalReview', when: (i: VerificationInputs) => !i.verified },
  { id: 'card', status: 'someCardDocumentRequired', when: (i: VerificationInputs) => i.isCardDocumentRequired },
  { id: '6', status: 'checked', when: () => true },
] as const satisfies readonly { id: string; status: VerificationStatus; when(i: VerificationInputs): boolean }[];
export type VerificationRuleId = (typeof VERIFICATION_RULES)[number]['id'];

/** The rule that decides the status (the first that holds). */
export function verificationRule(i: VerificationInputs): (typeof VERIFICATION_RULES)[number] {
  for (const rule of VERIFICATION_RULES) if (rule.when(i)) return rule;
  // Unreachable: rule 6 always holds.
  throw new Error('no verification rule holds');
}

/** Document 1 §4 "Account verification status (first match wins)". */
export function verificationStatus(i: VerificationInputs): VerificationStatus {
  return verificationRule(i).status;
}

/** What the banner counts and where it sends the customer (document 1 §4 "Status banner"). */
export type BannerAction =
  | RequiredAction
  /** a requirement document of the account restriction or limit data not uploaded yet */
  | ({ id: 'limitDocument' } & LimitDocument)
  /** a new identity document, the one on file is registered to another customer too */
  | { id: 'newIdentityDocument'; section: 'identity' }
  /** a further address document for a card */
  | { id: 'cardAddressDocument'; section: 'address' };

/**
 * The actions behind a status, as the banner counts them: the counted required actions for
 * hasRequiredActions, the missing limit documents for limited and unverified, one new identity
 * document for duplicateDocuments, one address document for someCardDocumentRequired; none for the
 * statuses where the customer waits (processing, duplicateDocumentsUploaded, verificationProcessing,
 * finalReview) or nothing is missing (checked).
 */
export function bannerActions(status: VerificationStatus, i: VerificationInputs): BannerAction[] {
  switch (status) {
    case 'hasRequiredActions':
      return requiredActions(i);
    case 'limited':
    case 'unverified':
      return missingLimitDocuments(i).map((d) => ({ id: 'limitDocument', ...d }));
    case 'duplicateDocuments':
      return [{ id: 'newIdentityDocument', section: 'identity' }];
    case 'someCardDocumentRequired':
      return [{ id: 'cardAddressDocument', section: 'address' }];
    default:
      return [];
  }
}

export type StatusBanner =
  | { visible: false }
  | {
      visible: true;
      tone: 'warning';
      /** which message the banner reads */
      status: WarningStatus;
      /** the action counter (0: nothing the customer can do now; the counter is not shown) */
      count: number;
      link: '/profile' | '/limited-account';
    };

/** Document 1 §4: the banner warns for these (both duplicate-document states: "duplicate documents"). */
export const WARNING_STATUSES = ['limited', 'duplicateDocuments', 'duplicateDocumentsUploaded', 'unverified', 'hasRequiredActions', 'someCardDocumentRequired'] as const;
export type WarningStatus = (typeof WARNING_STATUSES)[number];
const WARNING: ReadonlySet<VerificationStatus> = new Set(WARNING_STATUSES);

/**
 * The banner model. Hidden for checked and for the statuses where the customer only waits
 * (processing, verificationProcessing, finalReview): not shown in the spec; a real bank says "we
 * are checking your documents" on the profile, not on every page. A limited account links to
 * /limited-account (the restriction reasons and their documents), everything else to /profile.
 */
export function statusBanner(status: VerificationStatus, actions: readonly BannerAction[]): StatusBanner {
  if (!WARNING.has(status)) return { visible: false };
  return {
    visible: true,
    tone: 'warning',
    status: status as WarningStatus,
    count: actions.length,
    link: status === 'limited' ? '/limited-account' : '/profile',
  };
}

/**
 * Upload limits of a customer document, shared so the web app checks before sending what the
 * platform checks again (by the file's content, not its name or declared type). 10 MB in steps of
 * 1000 (document 1 §9 "File size units use steps of 1000"): 10 000 000 bytes.
 */
export const MAX_DOCUMENT_BYTES = 10_000_000;
export const ACCEPTED_DOCUMENT_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type AcceptedDocumentType = (typeof ACCEPTED_DOCUMENT_TYPES)[number];
