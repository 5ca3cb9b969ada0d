/**
 * Uploaded documents (document 1 §3 Uploaded document, Identity): upload, inquiry, delete, the
 * identity summary, and the administrator's review of what customers uploaded (document 1 §6).
 *
 * Uploads are multipart (api/method.ts: the JSON in a `data` part) with the files in parts named
 * by DocumentFileField: `front` always; `back` for types whose dictionary entry needs a back
 * (4 and 5); `registrationStamp` for type 88 (the internal passport, residents of RU and UA only).
 * A file's type is read from its content (PDF, JPEG or PNG), never its name or claimed type; at
 * most DOCUMENT_MAX_BYTES, never empty.
 *
 * A document file downloads over REST with the bearer token (its own customer's only):
 * GET /api/v1/documents/{documentId}/file; an administrator reviews one at
 * GET /api/v1/admin/documents/{documentId}/file.
 */
import * as v from 'valibot';
import { defineMethod, Id, idSchema, MAX_ID } from './method.ts';
import { DOCUMENT_STATES, VIDEO_IDENTITY_STATUSES } from './verification.ts';

/** The largest document file accepted (10 MB, file sizes in steps of 1000: document 1 §9). */
export const DOCUMENT_MAX_BYTES = 10 * 1000 * 1000;
/** Types detected from the content. */
export const DOCUMENT_MIME_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export const DocumentFileField = { front: 'front', back: 'back', registrationStamp: 'registrationStamp' } as const;
/**
 * What one customer may keep uploaded (deleted documents left out; each page is a file): more is
 * refused with VF naming the file's field, so a customer cannot fill the platform's storage.
 */
export const DOCUMENT_QUOTA_FILES = 100;
export const DOCUMENT_QUOTA_BYTES = 200 * 1000 * 1000;
export const DOCUMENT_NUMBER_MAX = 50;
export const REJECT_REASON_MAX = 500;
export const ADMIN_REVIEW_PAGE_MAX = 50;

export const documentFileRoute = '/api/v1/documents/:documentId/file';
export const adminDocumentFileRoute = '/api/v1/admin/documents/:documentId/file';

const id = Id;
export const IsoDateSchema = v.pipe(v.string(), v.isoDate('must be a date (YYYY-MM-DD)'));
const categoryId = v.pipe(v.number(), v.integer(), v.minValue(1, 'must be a category 1 to 12'), v.maxValue(12, 'must be a category 1 to 12'));

export const UploadedDocumentSchema = v.object({
  id: v.number(),
  statusId: v.number(),
  /** ISO 8601 */
  uploaded: v.string(),
  categoryId: v.number(),
  documentTypeId: v.number(),
  /** the type's name in the caller's language */
  documentType: v.string(),
  isSubDocument: v.boolean(),
  side: v.picklist(['front', 'back', 'registrationStamp']),
  /** the main document of a sub-document */
  parentId: v.nullable(v.number()),
  addressId: v.nullable(v.number()),
  number: v.nullable(v.string()),
  issuedDate: v.nullable(v.string()),
  expiresDate: v.nullable(v.string()),
  createdUsername: v.string(),
  rejectReason: v.nullable(v.string()),
  fileName: v.string(),
  mimeType: v.string(),
  sizeBytes: v.number(),
});
export type UploadedDocument = v.InferOutput<typeof UploadedDocumentSchema>;

/** The document's metadata of an upload (the files come as multipart parts). */
export const DocumentMetaEntries = {
  documentTypeId: idSchema(),
  number: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'is required'), v.maxLength(DOCUMENT_NUMBER_MAX, `must be at most ${DOCUMENT_NUMBER_MAX} characters`))),
  issuedDate: v.optional(IsoDateSchema),
  expiresDate: v.optional(IsoDateSchema),
};

export const customerJumioDocumentCreate = defineMethod({
  name: 'customerJumioDocumentCreate',
  access: 'customer',
  mutation: true,
  files: true, // the document's pages as file parts
  request: {
    categoryId,
    ...DocumentMetaEntries,
    /** an address document: the address it proves */
    addressId: v.optional(id),
    /** 1: uploaded for due diligence (document 1 §7) */
    isDueDiligence: v.optional(v.picklist([0, 1])),
  },
  response: { documents: v.array(UploadedDocumentSchema) },
});

export const documentsInquiry = defineMethod({
  name: 'documentsInquiry',
  access: 'customer',
  mutation: false,
  request: { categoryId: v.optional(categoryId) },
  response: { documents: v.array(UploadedDocumentSchema) },
});

/** Deletes a document the customer uploaded (status 5); a confirmed one stays (the provider relies on it). */
export const customerDocumentDelete = defineMethod({
  name: 'customerDocumentDelete',
  access: 'customer',
  mutation: true,
  request: { documentId: id },
  response: {},
});

export const IdentityDocumentSchema = v.object({
  id: v.number(),
  type: v.string(),
  typeId: v.number(),
  number: v.nullable(v.string()),
  status: v.number(),
  issuedDate: v.nullable(v.string()),
  expiresDate: v.nullable(v.string()),
  rejectReason: v.nullable(v.string()),
});

export const identityGet = defineMethod({
  name: 'identityGet',
  access: 'customer',
  mutation: false,
  request: {},
  response: {
    identity: v.object({
      documents: v.array(IdentityDocumentSchema),
      videoIdentity: v.object({
        status: v.picklist(VIDEO_IDENTITY_STATUSES),
        jobId: v.nullable(v.string()),
        /** why the latest video identity was rejected (the administrator's reason) */
        rejectReason: v.optional(v.nullable(v.string())),
      }),
      proofOfResidence: v.object({ status: v.picklist(DOCUMENT_STATES) }),
      identity: v.object({ status: v.picklist(DOCUMENT_STATES) }),
    }),
  },
});

// ---- the administrator's review (document 1 §6) ----

/**
 * An identity-verification or video identity job of the built-in provider waiting for the
 * administrator (status pending, its link not expired), listed with the documents.
 */
export const IdentityJobReviewItemSchema = v.object({
  workflowRunId: v.string(),
  kind: v.picklist(['identity', 'video']),
  provider: v.string(),
  channel: v.picklist(['email', 'sms', 'camera']),
  /** ISO 8601 */
  created: v.string(),
  expires: v.string(),
  customerId: v.number(),
  customerName: v.string(),
  customerType: v.picklist(['personal', 'business']),
});
export const IDENTITY_JOB_DECISIONS = ['approve', 'reject'] as const;
const workflowRunId = v.pipe(v.string(), v.trim(), v.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a workflow run id'));

export const ReviewItemSchema = v.object({
  document: UploadedDocumentSchema,
  customerId: v.number(),
  customerName: v.string(),
  customerType: v.picklist(['personal', 'business']),
  /** the sub-documents (back side, stamp page) reviewed with it */
  subDocuments: v.array(UploadedDocumentSchema),
});

/** Documents waiting for a decision (submitted 0, pending 41, under investigation 31), oldest first. */
export const adminReviewQueue = defineMethod({
  name: 'adminReviewQueue',
  access: 'admin',
  mutation: false,
  request: {
    page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, 'must be 1 or more'), v.maxValue(MAX_ID, 'is too large')), 1),
    pageSize: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1, 'must be 1 or more'), v.maxValue(ADMIN_REVIEW_PAGE_MAX, `must be ${ADMIN_REVIEW_PAGE_MAX} or less`)),
      20,
    ),
    /** one customer's documents only */
    customerId: v.optional(id),
  },
  response: {
    items: v.array(ReviewItemSchema),
    total: v.number(),
    page: v.number(),
    pageSize: v.number(),
    /** pending identity-verification and video identity jobs, oldest first (at most ADMIN_REVIEW_PAGE_MAX; the customer's only with customerId) */
    identityJobs: v.optional(v.array(IdentityJobReviewItemSchema)),
    identityJobsTotal: v.optional(v.number()),
  },
});

/** Every document of one customer (any status), for the administrator. */
export const adminReassignDocumentList = defineMethod({
  name: 'adminReassignDocumentList',
  access: 'admin',
  mutation: false,
  request: { customerId: id },
  response: { documents: v.array(UploadedDocumentSchema) },
});

export const REVIEW_DECISIONS = ['confirm', 'reject', 'nameMismatch', 'expire', 'investigate'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/**
 * A decision on a document: confirm (2), reject with a reason (26), name mismatch (64), mark
 * expired (38), under investigation (31). Its sub-documents follow it.
 */
export const adminDocumentDecide = defineMethod({
  name: 'adminDocumentDecide',
  access: 'admin',
  mutation: true,
  request: {
    documentId: id,
    decision: v.picklist(REVIEW_DECISIONS, 'must be confirm, reject, nameMismatch, expire or investigate'),
    /** required to reject or for a name mismatch; shown to the customer */
    reason: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(REJECT_REASON_MAX, `must be at most ${REJECT_REASON_MAX} characters`))),
  },
  response: { document: UploadedDocumentSchema, customerVerified: v.boolean() },
});

/** Moves a document (with its sub-documents) to another customer, e.g. one uploaded on the wrong account. */
export const adminDocumentAssign = defineMethod({
  name: 'adminDocumentAssign',
  access: 'admin',
  mutation: true,
  request: { documentId: id, toCustomerId: id },
  response: { document: UploadedDocumentSchema },
});

/** Removes a customer's document (status 5, with its sub-documents). */
export const adminDocumentRemove = defineMethod({
  name: 'adminDocumentRemove',
  access: 'admin',
  mutation: true,
  request: { documentId: id },
  response: {},
});

/**
 * The administrator's decision on a pending job of the built-in provider: approve, or reject with
 * a reason shown to the customer. A video identity's decision is the customer's videoIdentity in
 * userStatusGet and identityGet; an identity job's decision closes the customer's session of
 * uploads (the identity status itself follows the documents' decisions). Jobs of an external
 * provider (jmo, nfd) are decided by that provider: TA1.
 */
export const adminIdentityJobDecide = defineMethod({
  name: 'adminIdentityJobDecide',
  access: 'admin',
  mutation: true,
  request: {
    workflowRunId,
    decision: v.picklist(IDENTITY_JOB_DECISIONS, 'must be approve or reject'),
    /** required to reject; shown to the customer */
    reason: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(REJECT_REASON_MAX, `must be at most ${REJECT_REASON_MAX} characters`))),
  },
  response: {
    job: v.object({
      workflowRunId: v.string(),
      kind: v.picklist(['identity', 'video']),
      status: v.picklist(['approved', 'rejected']),
      rejectReason: v.nullable(v.string()),
      /** ISO 8601 */
      decided: v.string(),
    }),
    customerVerified: v.boolean(),
  },
});

export const documentMethods = {
  customerJumioDocumentCreate,
  documentsInquiry,
  customerDocumentDelete,
  identityGet,
  adminReviewQueue,
  adminReassignDocumentList,
  adminDocumentDecide,
  adminDocumentAssign,
  adminDocumentRemove,
  adminIdentityJobDecide,
};
